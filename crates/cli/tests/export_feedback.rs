//! Answers leave Pagewise as Markdown and provenance CSV, and "does not support this" reports
//! come back as evaluation questions — all from the CLI, over a real index.

mod common;

use common::*;

#[test]
fn an_answer_exports_and_its_feedback_becomes_eval_questions() {
    let data = tempfile::tempdir().unwrap();
    let docs = folder_with(&[("known-answers.pdf", &fixtures().join("known-answers.pdf"))]);
    index_json(data.path(), &[docs.path()]);
    let answer = json(&run_ok(pagewise(data.path()).args(["ask", "When did the Larkspur bridge open?", "--extractive", "--json"])));
    let conversation = answer["conversation_id"].as_i64().unwrap().to_string();
    let cited = &answer["citations"][0];
    assert!(cited["chunk_id"].is_i64(), "{answer:#}");

    let md = run_ok(pagewise(data.path()).args(["export", &conversation, "--format", "markdown"]));
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.starts_with("## When did the Larkspur bridge open?"), "{md}");
    assert!(md.contains("### Sources") && md.contains("known-answers.pdf") && md.contains("[1]"), "{md}");

    let csv = run_ok(pagewise(data.path()).args(["export", &conversation, "--format", "csv"]));
    let csv = String::from_utf8_lossy(&csv.stdout);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("question,claim,file,page,byte_start,byte_end,content_hash,model,index_version"));
    let row = lines.next().unwrap();
    assert!(row.contains("known-answers.pdf") && row.contains("none (extractive)") && row.contains("schema "), "{row}");

    let chunk = cited["chunk_id"].as_i64().unwrap().to_string();
    run_ok(pagewise(data.path()).args(["feedback", "add", "--conversation", &conversation, "--chunk", &chunk, "--claim", "It opened in 1931."]));
    let refused = pagewise(data.path()).args(["feedback", "add", "--conversation", &conversation, "--chunk", "1", "--claim", "x"]).output().unwrap();
    assert!(!refused.status.success(), "feedback on a passage the answer did not cite is refused");

    let questions = data.path().join("feedback.jsonl");
    run_ok(pagewise(data.path()).args(["feedback", "export", "--out"]).arg(&questions));
    let text = std::fs::read_to_string(&questions).unwrap();
    let q: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(q["question"], "When did the Larkspur bridge open?");
    assert_eq!(q["rejected_evidence"][0]["doc"], "known-answers");
    assert_eq!(q["rejected_evidence"][0]["page"], cited["page"]);
    // The exported file is a question set the evaluation reads.
    run_ok(pagewise_dev(data.path()).args(["eval"]).arg(&questions).arg("--json"));

    run_ok(pagewise(data.path()).args(["conversations", "rename", &conversation, "Bridge"]));
    let listed = json_lines(&run_ok(pagewise(data.path()).args(["conversations", "list", "--json"])));
    assert_eq!(listed[0]["title"], "Bridge");
    run_ok(pagewise(data.path()).args(["conversations", "delete", &conversation]));
    assert!(json_lines(&run_ok(pagewise(data.path()).args(["conversations", "list", "--json"]))).is_empty());
}
