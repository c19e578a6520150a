//! Mutation fuzzing of the parsers that read untrusted bytes — HTML, CSV, text and Markdown
//! (with encoding detection), the XML inside DOCX and EPUB, the ZIP containers themselves —
//! and of the text the models write: citation labels, claims and quotes; plus the chunker
//! over whatever the parsers produce, and reading order over random character boxes.
//!
//! Each target starts from valid seeds and mutates them (bit flips, byte insertions and
//! deletions, splices, repeated runs, cuts). A target passes when nothing panics and the
//! output stays within bounds. `FUZZ_SECONDS` sets the time per target (default 1 s, so the
//! suite stays quick; `bench/fuzz.sh` runs it for longer in release). Inputs that once broke
//! a target are kept in `tests/fuzz-regressions/<target>/` and replayed every run.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pagewise_core::answer::{best_quote, find_labels, split_claims};
use pagewise_core::chunk::{chunk_document, ChunkParams, TokenCounter};
use pagewise_core::glyphs::Glyph;
use pagewise_core::parse::ZipLimits;
use pagewise_core::parse::parse_csv;
use pagewise_core::parse::parse_docx;
use pagewise_core::parse::parse_epub;
use pagewise_core::parse::parse_html;
use pagewise_core::parse::{column_order, text_of};
use pagewise_core::parse::parse_text;
use pagewise_core::parse::{Document, Format, Source};
use pagewise_core::text::{content_terms, sentences, years};

/// xorshift64*: deterministic per seed, so a failure can be replayed from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Bytes that matter to the formats: markup, quotes, delimiters, UTF-8 lead bytes, BOMs.
const INTERESTING: &[&[u8]] = &[
    b"<", b">", b"</", b"<!--", b"]]>", b"<![CDATA[", b"&", b"&#x0;", b"&amp;", b"\"", b"'", b",", b";", b"\t", b"\r\n", b"\n",
    b"\0", b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xE4\xB8\xAD", b"\xC3", b"\xF0\x9F", b"[Doc1_p2]", b"[Doc", b"_p", b"|", b"#", b"# ",
    b"```", b"<meta charset=\"big5\">", b"<?xml version=\"1.0\" encoding=\"gb18030\"?>", b"<w:t>", b"<w:p>", b"\xE3\x80\x82",
];

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut data = seeds[rng.below(seeds.len())].clone();
    for _ in 0..=rng.below(8) {
        let at = rng.below(data.len() + 1);
        match rng.below(7) {
            0 if !data.is_empty() => {
                let i = rng.below(data.len());
                data[i] ^= 1 << rng.below(8);
            }
            1 => data.insert(at, rng.next() as u8),
            2 if at < data.len() => {
                let end = (at + 1 + rng.below(16)).min(data.len());
                data.drain(at..end);
            }
            3 => {
                let piece = INTERESTING[rng.below(INTERESTING.len())];
                data.splice(at..at, piece.iter().copied());
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                let from = rng.below(other.len());
                let to = (from + rng.below(64)).min(other.len());
                data.splice(at..at, other[from..to].iter().copied());
            }
            5 if at < data.len() => {
                // A run repeated many times: deep nesting, long lines, wide rows.
                let end = (at + 1 + rng.below(8)).min(data.len());
                let run: Vec<u8> = data[at..end].to_vec();
                let times = 1 + rng.below(2_000);
                let repeated: Vec<u8> = run.iter().copied().cycle().take(run.len() * times).collect();
                data.splice(at..at, repeated);
            }
            _ => data.truncate(at),
        }
    }
    data
}

/// Runs `target` on mutated inputs for the time budget and on every kept regression input;
/// returns the inputs that panicked (saved for replay).
fn fuzz(name: &str, seeds: Vec<Vec<u8>>, target: impl Fn(&[u8])) {
    let regressions = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions").join(name);
    let mut kept: Vec<PathBuf> = std::fs::read_dir(&regressions).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    kept.sort();
    for path in &kept {
        let input = std::fs::read(path).unwrap();
        assert!(catch_unwind(AssertUnwindSafe(|| target(&input))).is_ok(), "{name}: regression {} panics again", path.display());
    }
    let budget = Duration::from_secs_f64(std::env::var("FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(1.0));
    let seed = std::env::var("FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5EED_u64);
    let mut rng = Rng(seed ^ name.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))) | 1);
    let started = Instant::now();
    let mut runs = 0u64;
    let mut found: Vec<PathBuf> = Vec::new();
    while started.elapsed() < budget {
        let input = mutate(&mut rng, &seeds);
        runs += 1;
        if catch_unwind(AssertUnwindSafe(|| target(&input))).is_err() {
            std::fs::create_dir_all(&regressions).unwrap();
            let file = regressions.join(format!("{:016x}.bin", runs.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ input.len() as u64));
            std::fs::write(&file, &input).unwrap();
            found.push(file);
        }
    }
    eprintln!("fuzz {name}: {runs} inputs in {:.1} s, {} kept regressions, {} new failures", started.elapsed().as_secs_f64(), kept.len(), found.len());
    assert!(found.is_empty(), "{name}: inputs that panic, saved for replay: {found:?}");
}

/// The parsers' output stays proportionate to their input.
fn bounded(doc: &Result<Document, String>, input: usize) {
    if let Ok(doc) = doc {
        let out: usize = doc.pages.iter().map(|p| p.text.len()).sum();
        // CSV, the format that renders longest, stops at 8 bytes per input byte plus 64 KB;
        // a block of rows may run past that before the check.
        assert!(out <= 16 * input + 128 * 1024, "{out} bytes of text from {input} bytes");
        chunk(doc);
    }
}

struct Words;
impl TokenCounter for Words {
    fn count(&self, text: &str) -> usize {
        text.split_whitespace().count() + text.chars().filter(|c| !c.is_ascii()).count()
    }
}

fn chunk(doc: &Document) {
    let chunks = chunk_document(doc, "fuzz", &Words, ChunkParams::default());
    for c in &chunks {
        let page = &doc.pages[c.page as usize - 1].text;
        assert!(c.byte_end <= page.len() && page.is_char_boundary(c.byte_start) && page.is_char_boundary(c.byte_end));
    }
}

fn texts(items: &[&str]) -> Vec<Vec<u8>> {
    items.iter().map(|s| s.as_bytes().to_vec()).collect()
}

#[test]
fn html_parser() {
    let seeds = texts(&[
        "<html><head><meta charset=\"utf-8\"><title>Pumps</title><style>p{}</style></head><body><h1>Pumps</h1><p>The <b>Kettlewick</b> pump &amp; valve.</p><table><tr><td>a</td><td>1</td></tr></table><script>x()</script></body></html>",
        "<!DOCTYPE html><p>一丁<br>七万<!-- c --><ul><li>x<li>y</ul><h2>二</h2>",
    ]);
    fuzz("html", seeds, |b| bounded(&parse_html(Path::new("/f/x.html"), b), b.len()));
}

#[test]
fn csv_parser() {
    let seeds = texts(&["Region,Sites,\"Capacity, kW\"\nNorth,12,\"1,420\"\n\"Say \"\"hi\"\"\",9,960\n", "a;b;c\n1;2;3\n", "名称\t数量\n泵\t3\n"]);
    fuzz("csv", seeds, |b| bounded(&parse_csv(Path::new("/f/x.csv"), b), b.len()));
}

#[test]
fn text_and_markdown_parsers() {
    let seeds = texts(&["# Title\n\nSome text.\n\n## Part\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n", "客服流程。错误率从38%降到1.2%。\n第二段！"]);
    fuzz("text", seeds, |b| {
        bounded(&parse_text(Path::new("/f/x.md"), b, Format::Markdown), b.len());
        bounded(&parse_text(Path::new("/f/x.txt"), b, Format::Text), b.len());
    });
}

fn zip_bytes(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in members {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
    out.into_inner()
}

/// A ZIP-based target: each input is either a whole mutated container or a valid container
/// around a mutated member, written to a file for the parser to open.
fn container_target(name: &str, seeds: Vec<Vec<u8>>, wrap: impl Fn(&[u8]) -> Vec<u8>, parse: impl Fn(&Path) -> Result<Document, String>) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("x.{name}"));
    fuzz(name, seeds, |b| {
        let bytes = if b.first() == Some(&b'P') { b.to_vec() } else { wrap(b) };
        std::fs::write(&file, &bytes).unwrap();
        bounded(&parse(&file), bytes.len() * 64 + 65_536);
    });
}

#[test]
fn docx_parser() {
    let document = r#"<?xml version="1.0"?><w:document xmlns:w="w"><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Pumps</w:t></w:r></w:p><w:p><w:r><w:t xml:space="preserve">The pump </w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:body></w:document>"#;
    let wrap = |xml: &[u8]| zip_bytes(&[("[Content_Types].xml", b"<Types/>"), ("word/document.xml", xml)]);
    let seeds = vec![document.as_bytes().to_vec(), wrap(document.as_bytes())];
    container_target("docx", seeds, wrap, |p| Source::open(p).and_then(|s| parse_docx(s, ZipLimits::default())));
}

#[test]
fn epub_parser() {
    let container = br#"<?xml version="1.0"?><container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>"#;
    let opf = br#"<package><metadata><dc:title>Book</dc:title></metadata><manifest><item id="c1" href="c1.xhtml"/></manifest><spine><itemref idref="c1"/></spine></package>"#;
    let chapter = b"<html><body><h1>One</h1><p>The first chapter.</p></body></html>";
    let wrap = |opf: &[u8]| {
        zip_bytes(&[("mimetype", b"application/epub+zip"), ("META-INF/container.xml", container), ("OEBPS/content.opf", opf), ("OEBPS/c1.xhtml", chapter)])
    };
    let seeds = vec![opf.to_vec(), chapter.to_vec(), wrap(opf)];
    container_target("epub", seeds, wrap, |p| Source::open(p).and_then(|s| parse_epub(s, ZipLimits::default())));
}

#[test]
fn citation_labels_claims_and_quotes() {
    let seeds = texts(&[
        "The pump was replaced in March [Doc1_p2]. It cost 4,000 EUR [Doc2_p1][Doc1_p3].",
        "错误率从38%降到1.2%[Doc1_p1]。没有依据的句子。",
        "[Doc1_p999999999999999999999] [Doc_p] [Doc1_p] [Doc-1_p2] [[Doc1_p2]]",
    ]);
    let passage = "The Kettlewick pump was replaced in March by Ostara Supplies. It cost 4,000 EUR in 2024.";
    fuzz("cite", seeds, |b| {
        let text = String::from_utf8_lossy(b);
        for (range, _) in find_labels(&text) {
            assert!(range.end <= text.len() && text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
        }
        for claim in split_claims(&text) {
            if let Some(q) = best_quote(&claim.text, passage) {
                assert!(q.range.end <= passage.len());
            }
            if let Some(q) = best_quote(passage, &claim.text) {
                assert!(q.range.end <= claim.text.len());
            }
        }
        for r in sentences(&text) {
            assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
        }
        let _ = (content_terms(&text), years(&text));
    });
}

#[test]
fn reading_order_on_random_boxes() {
    fuzz("reading-order", vec![vec![0u8; 64]], |b| {
        let glyphs: Vec<Glyph> = b
            .chunks(4)
            .map(|c| {
                let at = |i: usize| f32::from(*c.get(i).unwrap_or(&0)) * 3.0;
                let (left, bottom) = (at(0), at(1));
                Glyph { ch: char::from(b'a' + c.get(2).copied().unwrap_or(0) % 26), left, bottom, right: left + at(3) % 9.0, top: bottom + 10.0, generated: c.get(2).is_some_and(|v| v % 17 == 0) }
            })
            .collect();
        if let Some(order) = column_order(&glyphs) {
            let mut seen: Vec<usize> = order.iter().flat_map(|r| r.clone()).collect();
            seen.sort_unstable();
            seen.dedup();
            assert!(seen.iter().all(|&i| i < glyphs.len()));
            let _ = text_of(&glyphs, &order);
        }
    });
}
