//! Page reranking through the real stores, models and search on the sample folder: questions
//! whose answer page fusion ranks below another page are answered from the right page first,
//! and the candidate dump that the reranker's weights are fitted from is well formed.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use common::*;

#[test]
fn reranking_puts_the_answering_page_first() {
    let data = tempfile::tempdir().unwrap();
    index_json(data.path(), &[&repo_root().join("assets/sample")]);
    let questions = data.path().join("questions.jsonl");
    // Loose wording; in fused order the answer page is 2nd to 4th.
    std::fs::write(
        &questions,
        concat!(
            r#"{"question": "how many new sites got switched on in 2024?", "evidence": [{"doc": "field-guide-solar-2024", "page": 2}]}"#,
            "\n",
            r#"{"question": "how much more power did we make than in 2023, in %", "evidence": [{"doc": "field-guide-solar-2024", "page": 3}]}"#,
            "\n",
        ),
    )
    .unwrap();
    let report = json(&run_ok(pagewise_dev(data.path()).args(["eval", questions.to_str().unwrap(), "--stages", "--json"])));
    let recall_at_1 = |stage: &str| {
        report["stages"].as_array().unwrap().iter().find(|s| s["stages"] == stage).unwrap()["scores"]["recall_at_1"].as_f64().unwrap()
    };
    assert_eq!(recall_at_1("all stages"), 1.0, "{report}");
    assert_eq!(recall_at_1("no reranking"), 0.0, "{report}");

    let dump = data.path().join("candidates.jsonl");
    run_ok(pagewise_dev(data.path()).args(["eval", questions.to_str().unwrap(), "--dump-candidates", dump.to_str().unwrap()]));
    let text = std::fs::read_to_string(&dump).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    for q in &lines {
        let pages = q["pages"].as_array().unwrap();
        assert!(pages.iter().any(|p| p["gold"] == true), "the gold page is a candidate: {q}");
        assert_eq!(pages[0]["features"]["position"], 1.0, "pages come in fused order: {q}");
        for p in pages {
            for f in ["position", "coverage", "quantity_fit", "phrase_overlap"] {
                let v = p["features"][f].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&v), "{f} = {v}: {q}");
            }
        }
    }
}
