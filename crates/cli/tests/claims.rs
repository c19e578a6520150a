//! The claim check through `pagewise-dev bench-claims` on real passages (filings, Node.js and
//! PostgreSQL documentation, the sample handbook, the Debian Reference in Chinese): one
//! labelled claim of each kind of error in English and in Chinese is flagged with the reason
//! its kind names, and the supported paraphrases and figures in another form are not.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use common::*;

#[test]
fn each_kind_of_error_is_flagged_with_its_reason_in_both_languages() {
    let data = tempfile::tempdir().unwrap();
    let out = data.path().join("claims.jsonl");
    let input = fixtures().join("claims/by-kind.jsonl");
    let summary = json(&run_ok(pagewise_dev(data.path()).arg("bench-claims").arg(&input).arg("--out").arg(&out)));
    let rows: Vec<serde_json::Value> =
        std::fs::read_to_string(&out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 18, "{summary}");
    let reason_of_kind = |kind: &str| match kind {
        "direction" => Some("direction"),
        "negation" => Some("negation"),
        "entity" => Some("other_entity"),
        "scale_unit" => Some("scale_or_unit"),
        "period" => Some("period"),
        "figure" => Some("figure"),
        "unstated" => Some("not_stated"),
        _ => None,
    };
    let mut kinds_seen = std::collections::BTreeSet::new();
    for row in &rows {
        let kind = row["kind"].as_str().unwrap();
        kinds_seen.insert((row["lang"].as_str().unwrap().to_string(), kind.to_string()));
        match reason_of_kind(kind) {
            Some(reason) => {
                assert_eq!(row["flagged"], true, "an unsupported claim passed: {row}");
                assert_eq!(row["reason"], reason, "{row}");
            }
            None => assert_eq!(row["flagged"], false, "a supported claim was flagged: {row}"),
        }
    }
    assert_eq!(kinds_seen.len(), 18, "every kind in both languages: {kinds_seen:?}");
    assert_eq!(summary["recall_unsupported"], 1.0, "{summary}");
    assert_eq!(summary["supported_flagged"], 0.0, "{summary}");
}
