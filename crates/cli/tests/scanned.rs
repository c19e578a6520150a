//! Scanned documents: an image-only copy of a sample PDF (every page a 300 dpi picture, no
//! text layer) is read by Tesseract in the worker process, found by the same questions as
//! its original, and its passages are highlighted on the page from the OCR word boxes.

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
    run_ok(pagewise(scratch.path()).args(["image-only-copy", original.to_str().unwrap(), scanned.to_str().unwrap(), "--dpi", "300"]));
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
