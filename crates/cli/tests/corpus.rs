//! Every PDF of the shared real-world corpus either indexes or is reported with a reason, and
//! nothing crashes the indexer.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use common::*;

#[test]
fn shared_pdf_corpus_indexes_or_reports_each_file() {
    let Some(shared) = shared_data() else { return };
    let corpus = shared.join("pdf-corpus");
    let data = tempfile::tempdir().unwrap();
    let out = run_ok(pagewise(data.path()).args(["index", "--json", "--no-embed", "--parse-timeout", "60"]).arg(&corpus));
    let summary = json(&out);
    let pdfs = std::fs::read_dir(&corpus).unwrap().filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "pdf")).count();
    let indexed = summary["indexed"].as_u64().unwrap() as usize;
    let failed = summary["failed"].as_array().unwrap();
    assert_eq!(indexed + failed.len(), pdfs, "{summary}");
    for f in failed {
        assert!(!f["reason"].as_str().unwrap().trim().is_empty(), "{f}");
    }
    assert!(indexed >= pdfs / 2, "only {indexed} of {pdfs} indexed: {summary}");
    assert!(failed_reason(&summary, "encrypted-attachment.pdf").is_none_or(|r| r.contains("password")));
    let verify = run_ok(pagewise(data.path()).args(["verify", "--json"]));
    assert_eq!(json(&verify)["lexical_missing"], 0);
}
