//! `pagewise extract` on the sample folder: fields read from the capacity table of the real
//! PDF through PDFium, each with its page, row and column; documents without such a table say
//! why; the CSV names each value's source, and the row it cites highlights on its page.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use common::*;

#[test]
fn fields_are_read_from_the_sample_table_with_their_sources() {
    let data = tempfile::tempdir().unwrap();
    let sample = repo_root().join("assets/sample");
    index_json(data.path(), &[&sample]);
    let out = run_ok(pagewise(data.path()).args(["extract", "--field", "capacity", "--field", "north valley output", "--field", "share price", "--json"]).arg(&sample));
    let rows = json(&out);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3, "one row per document: {rows:#?}");
    let report = rows.iter().find(|r| r["path"].as_str().unwrap().ends_with("field-guide-solar-2024.pdf")).unwrap();
    let values = report["values"].as_array().unwrap();
    // "capacity" is a column: the total row says least besides it.
    assert_eq!((values[0]["value"].as_str(), values[0]["number"].as_f64()), (Some("5,000"), Some(5000.0)), "{report:#}");
    assert_eq!((values[0]["row"].as_str(), values[0]["column"].as_str()), (Some("Total"), Some("Capacity (kW)")));
    assert_eq!((values[0]["page"].as_u64(), values[0]["unit"].as_str()), (Some(3), Some("power")));
    // Row and column together name one cell.
    assert_eq!(values[1]["value"], "1,306", "{report:#}");
    assert_eq!((values[1]["row"].as_str(), values[1]["column"].as_str(), values[1]["unit"].as_str()), (Some("North Valley"), Some("Output 2024 (MWh)"), Some("energy")));
    assert!(values[2]["value"].is_null() && values[2]["reason"].as_str().unwrap().contains("share price"), "{report:#}");
    let handbook = rows.iter().find(|r| r["path"].as_str().unwrap().ends_with("team-handbook.md")).unwrap();
    assert!(handbook["values"][0]["value"].is_null() && handbook["values"][0]["reason"].as_str().is_some(), "{handbook:#}");

    // The cited row is found on its page: the viewer highlights it.
    let quote = values[1]["quote"].as_str().unwrap();
    let rendered = run_ok(pagewise_dev(data.path()).args(["render", "--width", "300", "--page", "3", "--quote", quote]).arg(sample.join("field-guide-solar-2024.pdf")));
    let text = String::from_utf8_lossy(&rendered.stdout).to_string();
    assert!(!text.contains(" 0 highlight rectangles"), "{text}");

    // A period picks its column; the CSV carries every source.
    let csv = data.path().join("out.csv");
    run_ok(pagewise(data.path()).args(["extract", "--field", "north valley output", "--period", "2024", "--csv"]).arg(&csv).arg(&sample));
    let written = std::fs::read_to_string(&csv).unwrap();
    assert!(written.starts_with("document,title,north valley output,north valley output unit,north valley output source\n"), "{written}");
    assert!(written.contains(",1306,energy,"), "the figure as a number a sheet reads: {written}");
    assert!(written.contains("field-guide-solar-2024.pdf p.3 · row North Valley · column Output 2024 (MWh)"), "{written}");
    let stale = run_ok(pagewise(data.path()).args(["extract", "--field", "north valley output", "--period", "2019", "--json"]).arg(&sample));
    let stale = json(&stale);
    let report = stale.as_array().unwrap().iter().find(|r| r["path"].as_str().unwrap().ends_with(".pdf")).unwrap();
    assert!(report["values"][0]["value"].is_null(), "no 2019 column: {report:#}");
}

/// A field that names a statement measure is read from the primary statements under any of
/// the measure's row names ("net sales" from "Revenue"), never from a note that repeats the
/// row name, and never from a row that only shares words with it.
#[test]
fn a_measure_is_read_from_the_statements_under_any_of_its_names() {
    let data = tempfile::tempdir().unwrap();
    let folder = tempfile::tempdir().unwrap();
    std::fs::copy(repo_root().join("tests/fixtures/statements.pdf"), folder.path().join("northwind-2023.pdf")).unwrap();
    index_json(data.path(), &[folder.path()]);
    let out = run_ok(pagewise(data.path()).args(["extract", "--field", "net sales", "--field", "inventories", "--field", "cost of goods sold", "--period", "2023", "--json"]));
    let rows = json(&out);
    let values = rows[0]["values"].as_array().unwrap();
    assert_eq!((values[0]["value"].as_str(), values[0]["row"].as_str(), values[0]["page"].as_u64()), (Some("48,200"), Some("Revenue"), Some(2)), "{values:#?}");
    assert_eq!((values[0]["unit"].as_str(), values[0]["scale"].as_str()), (Some("currency"), Some("thousands")));
    // The balance sheet lists inventories in two classes under a heading: their sum, not the
    // note's row of that name.
    assert_eq!((values[1]["value"].as_str(), values[1]["number"].as_f64(), values[1]["page"].as_u64()), (Some("3,000 + 4,400"), Some(7400.0), Some(3)), "the balance sheet, not the note: {values:#?}");
    assert_eq!(values[1]["row"].as_str(), Some("Raw materials and supplies + Finished goods"));
    assert_eq!((values[2]["value"].as_str(), values[2]["row"].as_str()), (Some("(29,400)"), Some("Cost of sales")));
}

/// `pagewise parse --tables` shows each figure of a real PDF's statements as Pagewise reads it
/// (through PDFium), with its row, column, period, sign and the caption's scale: what a user
/// checks against the page before trusting an extraction.
#[test]
fn parse_shows_every_table_figure_with_row_column_period_and_scale() {
    let data = tempfile::tempdir().unwrap();
    let pdf = repo_root().join("tests/fixtures/statements.pdf");
    let out = run_ok(pagewise(data.path()).args(["parse", "--tables", "--page", "2-3"]).arg(&pdf));
    let cells: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(cells.iter().all(|c| c["page"] == 2 || c["page"] == 3), "only the pages asked for");
    let cost = cells.iter().find(|c| c["row"] == "Cost of sales" && c["column"] == "2022").unwrap_or_else(|| panic!("{cells:#?}"));
    assert_eq!((cost["value"].as_str(), cost["number"].as_f64(), cost["scale"].as_str(), cost["page"].as_u64()), (Some("(27,300)"), Some(-27300.0), Some("thousands"), Some(2)));
    let goods = cells.iter().find(|c| c["row"] == "Finished goods" && c["value"] == "4,400").unwrap_or_else(|| panic!("{cells:#?}"));
    assert_eq!((goods["column"].as_str(), goods["periods"][0].as_str()), (Some("December 31, 2023"), Some("2023-12-31")));
    assert!(!cells.iter().any(|c| c["row"].as_str().unwrap().starts_with("Inventories")), "a heading with no figures is no row: {cells:#?}");
    let refused = pagewise(data.path()).args(["parse", "--tables", "--page", "0"]).arg(&pdf).output().unwrap();
    assert!(!refused.status.success() && String::from_utf8_lossy(&refused.stderr).contains("not a page number"));
}
