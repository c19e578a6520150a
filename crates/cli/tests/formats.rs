//! DOCX, EPUB, HTML and CSV files and text in several encodings are indexed through the real
//! worker process and found by search; a zip bomb named .docx is reported, not expanded.

mod common;

use std::io::Write;
use std::path::Path;

use common::*;

fn zip_file(path: &Path, members: &[(&str, &[u8])]) {
    let file = std::fs::File::create(path).unwrap();
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in members {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
}

fn docx(path: &Path, body: &str, title: &str) {
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    );
    let core = format!(r#"<cp:coreProperties xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{title}</dc:title></cp:coreProperties>"#);
    zip_file(path, &[("[Content_Types].xml", b"<Types/>"), ("word/document.xml", document.as_bytes()), ("docProps/core.xml", core.as_bytes())]);
}

fn epub(path: &Path) {
    let container = br#"<container><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#;
    let opf = br#"<package><metadata><dc:title>Tidewater Almanac</dc:title></metadata><manifest>
        <item id="c1" href="ch1.xhtml"/><item id="c2" href="ch2.xhtml"/></manifest>
        <spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>"#;
    let ch1 = b"<html><body><h1>Spring tides</h1><p>The spring tide at Marrow Point peaks at 6.2 metres.</p></body></html>";
    let ch2 = b"<html><body><h1>Neap tides</h1><p>Neap tides at Marrow Point stay under 3.1 metres.</p></body></html>";
    zip_file(
        path,
        &[("mimetype", b"application/epub+zip"), ("META-INF/container.xml", container), ("OEBPS/content.opf", opf), ("OEBPS/ch1.xhtml", ch1), ("OEBPS/ch2.xhtml", ch2)],
    );
}

fn top_hit(data: &Path, query: &str) -> serde_json::Value {
    let out = run_ok(pagewise(data).args(["search", query, "--json", "--k", "1", "--mode", "lexical"]));
    json_lines(&out).into_iter().next().unwrap_or_else(|| panic!("no hit for {query}"))
}

#[test]
fn office_web_and_data_formats_are_indexed_and_bombs_are_refused() {
    let docs = tempfile::tempdir().unwrap();
    let d = docs.path();
    docx(
        &d.join("safety.docx"),
        r#"<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Ladder safety</w:t></w:r></w:p>
           <w:p><w:r><w:t>Crews at Quillon Yard must tie off ladders above 4 metres.</w:t></w:r></w:p>"#,
        "Site Safety Rules",
    );
    epub(&d.join("almanac.epub"));
    std::fs::write(
        d.join("page.html"),
        "<html><head><title>Harbour news</title><script>var secret='zebrafish'</script></head><body><h2>Ferries</h2><p>The Ostrava ferry now leaves at 07:40.</p></body></html>",
    )
    .unwrap();
    std::fs::write(d.join("capacity.csv"), "Region,Sites,Capacity kW\nNorth Valley,12,1420\nBramblecombe,9,960\n").unwrap();
    let utf16: Vec<u8> = [0xFF, 0xFE].into_iter().chain("Die Grünwald-Brücke öffnet um neun.".encode_utf16().flat_map(|u| u.to_le_bytes())).collect();
    std::fs::write(d.join("notiz.txt"), utf16).unwrap();
    std::fs::write(d.join("legacy.txt"), b"The caf\xe9 at Pellworth serves cr\xe8me br\xfbl\xe9e \x96 daily.").unwrap();
    // A zip bomb: 100 MB of zeros compress to about 100 kB.
    let zeros = vec![0u8; 100 << 20];
    zip_file(&d.join("bomb.docx"), &[("word/document.xml", &zeros)]);
    std::fs::write(d.join("fake.epub"), b"PK\x03\x04 not really a zip").unwrap();

    let data = tempfile::tempdir().unwrap();
    let summary = index_json(data.path(), &[d]);
    assert_eq!(summary["indexed"], 6, "{summary:#}");
    assert_eq!(summary["failed"].as_array().unwrap().len(), 2, "only the bomb and the fake fail: {summary:#}");
    let bomb = failed_reason(&summary, "bomb.docx").unwrap_or_else(|| panic!("bomb not reported: {summary:#}"));
    assert!(bomb.contains("zip bomb"), "{bomb}");
    let fake = failed_reason(&summary, "fake.epub").unwrap();
    assert!(fake.contains("EPUB"), "{fake}");

    let hit = top_hit(data.path(), "Quillon ladders");
    assert!(hit["doc_path"].as_str().unwrap().ends_with("safety.docx"));
    assert_eq!(hit["doc_title"], "Site Safety Rules");
    assert!(hit["text"].as_str().unwrap().contains("tie off ladders"));
    let neap = top_hit(data.path(), "neap tides Marrow");
    assert!(neap["doc_path"].as_str().unwrap().ends_with("almanac.epub"));
    assert_eq!(neap["page"], 2, "one page per chapter");
    let ferry = top_hit(data.path(), "Ostrava ferry");
    assert!(ferry["doc_path"].as_str().unwrap().ends_with("page.html"));
    let script = json_lines(&run_ok(pagewise(data.path()).args(["search", "zebrafish", "--json", "--mode", "lexical"])));
    assert!(script.iter().all(|h| !h["text"].as_str().unwrap().contains("zebrafish")), "script text is not indexed");
    assert!(top_hit(data.path(), "Bramblecombe")["text"].as_str().unwrap().contains("| Bramblecombe | 9 | 960 |"));
    assert!(top_hit(data.path(), "Grünwald Brücke")["text"].as_str().unwrap().contains("Die Grünwald-Brücke öffnet"));
    assert!(top_hit(data.path(), "Pellworth")["text"].as_str().unwrap().contains("café at Pellworth serves crème brûlée – daily"));
}

#[test]
fn chinese_files_in_legacy_encodings_are_searchable_and_garbage_is_refused() {
    use encoding_rs::{BIG5, GB18030};
    let docs = tempfile::tempdir().unwrap();
    let d = docs.path();
    let (gb, _, _) = GB18030.encode("# 客服流程\n\n客户投诉后三十分钟内，客服团队把最新的标准作业流程向量化入库。错误率从百分之三十八降到了百分之一点二。\n");
    std::fs::write(d.join("客服流程.txt"), &gb).unwrap();
    let page = "<html><head><meta charset=\"big5\"><title>倉庫盤點</title></head><body><h1>倉庫盤點</h1><p>北區倉庫在十二月完成盤點，庫存差異率為百分之零點四。</p></body></html>";
    let (big5, _, _) = BIG5.encode(page);
    std::fs::write(d.join("warehouse.html"), &big5).unwrap();
    // Every byte value but NUL, over and over: control characters in any encoding, not text.
    let noise: Vec<u8> = (1..=255u8).cycle().take(5000).collect();
    std::fs::write(d.join("noise.txt"), noise).unwrap();

    let data = tempfile::tempdir().unwrap();
    let summary = index_json(data.path(), &[d]);
    assert_eq!(summary["indexed"], 2, "{summary:#}");
    let noise = failed_reason(&summary, "noise.txt").unwrap_or_else(|| panic!("noise not reported: {summary:#}"));
    assert!(noise.contains("cannot tell the text encoding"), "{noise}");

    let hit = top_hit(data.path(), "错误率降到多少");
    assert!(hit["doc_path"].as_str().unwrap().ends_with("客服流程.txt"), "{hit}");
    assert!(hit["text"].as_str().unwrap().contains("百分之一点二"), "{hit}");
    // MiniLM's vocabulary holds a few hundred Han characters: search says it leaned on keywords.
    let out = run_ok(pagewise(data.path()).args(["search", "错误率降到多少"]));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not read Chinese"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = run_ok(pagewise(data.path()).args(["search", "error rate"]));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("leaned on keywords"));
    let hit = top_hit(data.path(), "庫存差異率");
    assert!(hit["doc_path"].as_str().unwrap().ends_with("warehouse.html"), "{hit}");
    assert_eq!(hit["doc_title"], "倉庫盤點");
}
