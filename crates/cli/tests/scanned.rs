//! Scanned documents: an image-only copy of a sample PDF (every page a 300 dpi picture, no
//! text layer) is read by Tesseract in the worker process, found by the same questions as
//! its original, and its passages are highlighted on the page from the OCR word boxes. Pages
//! whose geometry fooled the text layer (an offset box, a rotation, columns drawn row by row)
//! are read and highlighted as they are shown.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use common::*;

#[test]
fn an_image_only_pdf_is_read_by_ocr_and_answers_like_its_original() {
    std::env::set_var("PAGEWISE_MODELS_DIR", repo_root().join("models"));
    let scans = tempfile::tempdir().unwrap();
    let original = repo_root().join("assets/sample/field-guide-solar-2024.pdf");
    let scanned = scans.path().join("field-guide-scanned.pdf");
    let scratch = tempfile::tempdir().unwrap();
    run_ok(pagewise_dev(scratch.path()).args(["image-only-copy", original.to_str().unwrap(), scanned.to_str().unwrap(), "--dpi", "300"]));
    // The copy has no text layer: without OCR it is refused as before.
    let data_no_ocr = tempfile::tempdir().unwrap();
    let out = run_ok(pagewise(data_no_ocr.path()).args(["index", scans.path().to_str().unwrap(), "--json", "--no-ocr", "--no-embed"]));
    let summary = json(&out);
    let reason = failed_reason(&summary, "field-guide-scanned.pdf").unwrap_or_else(|| panic!("{summary}"));
    assert!(reason.contains("no text layer") && reason.contains("OCR is turned off"), "{reason}");

    let data = tempfile::tempdir().unwrap();
    let summary = index_json(data.path(), &[scans.path()]);
    assert_eq!(summary["indexed"], 1, "{summary:#}");
    for (question, page, phrase) in [
        ("total installed capacity at the end of 2024", 3, "5,000"),
        ("when was the cooperative founded", 1, "2011"),
    ] {
        let hits = json_lines(&run_ok(pagewise(data.path()).args(["search", question, "--json", "--k", "3"])));
        let top = &hits[0];
        assert_eq!(top["page"], page, "{question}: {top}");
        assert!(top["text"].as_str().unwrap().contains(phrase), "{question}: {top}");
    }
    // Extractive answers cite the scanned page like the original's.
    let answer = json(&run_ok(pagewise(data.path()).args([
        "ask",
        "What was the total installed capacity of the Brightwater Solar Cooperative at the end of 2024?",
        "--extractive",
        "--json",
    ])));
    assert_eq!(answer["abstained"], false, "{answer:#}");
    assert!(answer["answer"].as_str().unwrap().contains("5,000"), "{answer:#}");
    assert!(answer["citations"].as_array().unwrap().iter().any(|c| c["page"] == 3), "{answer:#}");

    // The viewer finds the cited passage on the scanned page through the same OCR.
    let pdfium = pagewise_core::models::locate(None, None).unwrap().pdfium_lib;
    let quote = "At the end of 2024 the cooperative's total installed capacity reached 5,000 kW";
    let (rects, size) = pagewise_core::viewer::highlight_rects(&pdfium, &scanned, 3, quote).unwrap();
    assert!(!rects.is_empty(), "no highlight on the scanned page");
    assert!(size.page_count == 5);
    for r in &rects {
        assert!(r.w > 0.0 && r.h > 0.0 && r.x + r.w <= 1.0 && r.y + r.h <= 1.0, "{r:?}");
    }
    // The quote is near the top third of page 3 in the original; so is its highlight.
    assert!(rects[0].y < 0.4, "{rects:?}");
}

/// A PDF with one page per `(media_box, rotate, [(x, y, text)])`, written by hand so the page
/// geometry and the content order are exactly what the test says.
fn pdf_with_pages(pages: &[([i32; 4], u32, Vec<(i32, i32, String)>)]) -> Vec<u8> {
    let mut objects: Vec<String> = vec![String::new(), String::new()]; // catalog, page tree
    objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".into());
    let mut kids = Vec::new();
    for (media, rotate, lines) in pages {
        let stream: String = lines.iter().map(|(x, y, text)| format!("BT /F1 10 Tf {x} {y} Td ({text}) Tj ET\n")).collect();
        objects.push(format!("<< /Length {} >>\nstream\n{stream}\nendstream", stream.len()));
        let contents = objects.len();
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [{} {} {} {}] /Rotate {rotate} /Resources << /Font << /F1 3 0 R >> >> /Contents {contents} 0 R >>",
            media[0], media[1], media[2], media[3]
        ));
        kids.push(format!("{} 0 R", objects.len()));
    }
    objects[0] = "<< /Type /Catalog /Pages 2 0 R >>".into();
    objects[1] = format!("<< /Type /Pages /Kids [{}] /Count {} >>", kids.join(" "), kids.len());
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for o in offsets {
        out.extend(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend(format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes());
    out
}

#[test]
fn text_on_offset_and_rotated_pages_is_read_not_called_missing() {
    let docs = tempfile::tempdir().unwrap();
    // A page box below the origin, and a landscape-rotated page whose text sits above the
    // rotated height: both hold text that the page's (0, 0, width, height) rectangle misses.
    let pdf = pdf_with_pages(&[
        ([0, -792, 612, 0], 0, vec![(72, -100, "Offset page: the Tarnwick boiler was serviced in May.".into())]),
        ([0, 0, 612, 792], 90, vec![(72, 700, "Rotated page: the Quellmoor chiller runs at 6 degrees.".into())]),
    ]);
    std::fs::write(docs.path().join("boxes.pdf"), pdf).unwrap();
    let data = tempfile::tempdir().unwrap();
    // Without OCR, which would otherwise read the rendered page and hide a missed text layer.
    let summary = json(&run_ok(pagewise(data.path()).args(["index", "--json", "--no-ocr", "--no-embed"]).arg(docs.path())));
    assert_eq!(summary["indexed"], 1, "{summary:#}");
    for (word, page) in [("Tarnwick", 1), ("Quellmoor", 2)] {
        let out = run_ok(pagewise(data.path()).args(["search", word, "--json", "--k", "1", "--mode", "lexical"]));
        let hit = json_lines(&out).into_iter().next().unwrap_or_else(|| panic!("no hit for {word}"));
        assert_eq!(hit["page"], page, "{hit}");
    }
    // Highlights sit where the text is shown: near the top left of the offset page, and at the
    // right edge of the turned page (its text runs down the page).
    let pdfium = pagewise_core::models::locate(None, None).unwrap().pdfium_lib;
    let pdf = docs.path().join("boxes.pdf");
    let (rects, _) = pagewise_core::viewer::highlight_rects(&pdfium, &pdf, 1, "the Tarnwick boiler was serviced").unwrap();
    assert!(!rects.is_empty());
    assert!(rects.iter().all(|r| r.x > 0.1 && r.x < 0.35 && r.y > 0.05 && r.y < 0.2), "{rects:?}");
    let (rects, _) = pagewise_core::viewer::highlight_rects(&pdfium, &pdf, 2, "the Quellmoor chiller").unwrap();
    assert!(!rects.is_empty());
    assert!(rects.iter().all(|r| r.x > 0.8 && r.x + r.w <= 1.0 && r.y > 0.1 && r.y + r.h < 0.9), "{rects:?}");
}

#[test]
fn two_columns_drawn_row_by_row_are_read_column_by_column() {
    // Each row draws the left column's line and then the right column's: content order
    // interleaves the columns. The left column's sentence runs over two lines.
    let left = [
        "Column one starts here and the Varnholt",
        "turbine was inspected on the ninth of May",
        "after the storm, with no damage reported.",
        "The next inspection is planned for June.",
    ];
    let right = [
        "Column two is about something else: the",
        "canteen menu changes every second week,",
        "and the bicycle shed gets a new roof soon.",
        "Nobody has asked about the parking yet.",
    ];
    let mut lines = Vec::new();
    for (row, (l, r)) in left.iter().zip(&right).enumerate() {
        let y = 700 - 12 * row as i32;
        lines.push((56, y, l.to_string()));
        lines.push((316, y, r.to_string()));
    }
    let docs = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("columns.pdf"), pdf_with_pages(&[([0, 0, 612, 792], 0, lines)])).unwrap();
    let data = tempfile::tempdir().unwrap();
    let out = run_ok(pagewise(data.path()).args(["parse", "--json"]).arg(docs.path().join("columns.pdf")));
    let text = json_lines(&out)[0]["text"].as_str().unwrap().to_string();
    let at = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("{needle:?} not in {text}"));
    assert!(at("Varnholt") < at("turbine was inspected") && at("turbine was inspected") < at("Column two"), "{text}");
    assert!(at("planned for June") < at("Column two"), "{text}");
    // The viewer finds a quote across the column's line break, in the left column.
    let pdfium = pagewise_core::models::locate(None, None).unwrap().pdfium_lib;
    let pdf = docs.path().join("columns.pdf");
    let (rects, _) = pagewise_core::viewer::highlight_rects(&pdfium, &pdf, 1, "the Varnholt turbine was inspected").unwrap();
    assert!(!rects.is_empty());
    assert!(rects.iter().all(|r| r.x + r.w < 0.5), "{rects:?}");
}

#[test]
fn a_very_tall_page_renders_under_the_pixel_limit() {
    // 4096 px wide, this page would be 80,000 px tall (1.3 GB as RGBA).
    let docs = tempfile::tempdir().unwrap();
    let pdf = docs.path().join("tall.pdf");
    std::fs::write(&pdf, pdf_with_pages(&[([0, 0, 512, 10000], 0, vec![(20, 9900, "A very tall page".into())])])).unwrap();
    let pdfium = pagewise_core::models::locate(None, None).unwrap().pdfium_lib;
    let (png, size) = pagewise_core::viewer::render_page_png(&pdfium, &pdf, 1, 4096).unwrap();
    let dimension = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    let (w, h) = (dimension(16), dimension(20));
    assert_eq!((size.width_pt, size.height_pt), (512.0, 10000.0));
    assert!(h <= 4096 && u64::from(w) * u64::from(h) <= 4096 * 4096, "{w} × {h}");
    assert!(w >= 200, "{w} × {h}: the page should still fill the picture's width as far as the limit allows");
}
