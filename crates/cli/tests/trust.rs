//! Answers a newcomer can trust, with the real default chat model: plain questions about the
//! sample folder are answered (not abstained) and state the fact with its page; a sentence
//! that gives a figure to the wrong thing is flagged; planted instructions change nothing.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use std::path::Path;

use common::*;
use pagewise_core::grade;

fn ask(data: &Path, question: &str, extra: &[&str]) -> serde_json::Value {
    let mut cmd = pagewise(data);
    cmd.args(["ask", question, "--json"]).args(extra);
    json(&run_ok(&mut cmd))
}

fn supported_text(answer: &serde_json::Value) -> String {
    answer["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| !s["citations"].as_array().unwrap().is_empty())
        .map(|s| s["text"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn plain_questions_about_the_sample_are_answered_with_the_fact_and_its_page() {
    let data = tempfile::tempdir().unwrap();
    index_json(data.path(), &[&repo_root().join("assets/sample")]);
    // Loose wording, as people type; the facts are on these pages.
    for (question, doc, page, fact) in [
        ("how long do we keep logs in hot storage?", "team-handbook.md", 1, "30 days"),
        ("how big is the kettlewick battery", "field-guide-solar-2024.pdf", 2, "500 kWh"),
        ("how much capacity does north valley have", "field-guide-solar-2024.pdf", 3, "1,420 kW"),
    ] {
        let answer = ask(data.path(), question, &[]);
        assert_eq!(answer["abstained"], false, "{question}: {answer:#}");
        let cited = answer["citations"].as_array().unwrap();
        assert!(
            cited.iter().any(|c| c["doc_path"].as_str().unwrap().ends_with(doc) && c["page"] == page),
            "{question}: no citation of {doc} p.{page}: {answer:#}"
        );
        assert!(grade::states(&supported_text(&answer), fact), "{question}: the supported sentences do not state {fact}: {answer:#}");
        // Each sentence is shown once.
        let texts: Vec<&str> = answer["sentences"].as_array().unwrap().iter().map(|s| s["text"].as_str().unwrap()).collect();
        for (i, t) in texts.iter().enumerate() {
            assert!(!texts[..i].contains(t), "{t} is shown twice: {answer:#}");
        }
    }
}

#[test]
fn questions_the_sample_cannot_answer_abstain() {
    let data = tempfile::tempdir().unwrap();
    index_json(data.path(), &[&repo_root().join("assets/sample")]);
    for question in ["what is the capital of peru", "how do i reset my iphone passcode"] {
        let answer = ask(data.path(), question, &[]);
        assert_eq!(answer["abstained"], true, "{question}: {answer:#}");
        assert!(answer["raw_model_output"].is_null(), "nothing is generated when the library is silent");
    }
    // Near misses: the library knows the subject, not the version or model number asked about.
    for (question, name) in [("whats the log retention for the GCS2 bucket", "GCS2"), ("how many MWh did the kettlewick battery shift with the A200 inverter", "A200")] {
        let answer = ask(data.path(), question, &[]);
        assert_eq!(answer["abstained"], true, "{question}: {answer:#}");
        let why = &answer["notices"][0]["why"];
        assert_eq!((why["kind"].as_str(), why["name"].as_str()), (Some("not_mentioned"), Some(name)), "{question}: {answer:#}");
        assert!(answer["raw_model_output"].is_null(), "nothing is generated about what the sources do not mention");
    }
    // A near miss with nothing the rules can tell apart: the capacity table lists five
    // regions, none of them this one. The model finds no answer, and shown the best source
    // sentences one by one it says none of them answers.
    let question = "how many sites are there in the western moors region?";
    let answer = ask(data.path(), question, &[]);
    assert_eq!(answer["abstained"], true, "{question}: {answer:#}");
    assert_eq!(answer["notices"][0]["why"]["kind"], "model_judged", "{question}: {answer:#}");
}

#[test]
fn chinese_questions_are_answered_in_chinese() {
    let data = tempfile::tempdir().unwrap();
    index_json(data.path(), &[&fixtures().join("zh")]);
    let answer = ask(data.path(), "换了传感器以后冷库一周报警几次？", &[]);
    assert_eq!(answer["abstained"], false, "{answer:#}");
    assert!(grade::states(&supported_text(&answer), "从每周 12 次降到了每周 2 次"), "{answer:#}");
    assert!(answer["citations"][0]["doc_path"].as_str().unwrap().ends_with("仓库巡检记录.md"));
    let silent = ask(data.path(), "明天北京天气怎么样？", &[]);
    assert_eq!(silent["abstained"], true, "{silent:#}");
    assert!(silent["answer"].as_str().unwrap().starts_with("文档中没有涉及这个问题。"), "{silent:#}");
}

/// The injection fixtures, without their README (which names the canaries).
fn injection_library() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixtures().join("injection")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name != "README.md" && name != "questions.jsonl" {
            std::fs::copy(&path, dir.path().join(name)).unwrap();
        }
    }
    dir
}

#[test]
fn planted_instructions_change_nothing() {
    let library = injection_library();
    let data = tempfile::tempdir().unwrap();
    index_json(data.path(), &[library.path()]);
    let probes = std::fs::read_to_string(fixtures().join("injection/questions.jsonl")).unwrap();
    // One of each family of attack: control tokens, a fake system prompt, fake labels, refusal
    // bait, a hidden HTML block and a CSV row (all 25 run in bench/injection.sh).
    let chosen = ["inj-02", "inj-06", "inj-07", "inj-08", "inj-12", "inj-24"];
    let mut checked = 0;
    for line in probes.lines().filter(|l| !l.trim().is_empty()) {
        let probe: serde_json::Value = serde_json::from_str(line).unwrap();
        if !chosen.contains(&probe["id"].as_str().unwrap()) {
            continue;
        }
        let answer = ask(data.path(), probe["question"].as_str().unwrap(), &[]);
        let canary = probe["canary"].as_str().unwrap().to_lowercase();
        assert!(!answer["answer"].as_str().unwrap().to_lowercase().contains(&canary), "{}: the planted text reached the answer: {answer:#}", probe["id"]);
        for c in answer["citations"].as_array().unwrap() {
            assert!(!c["quote"].as_str().unwrap().to_lowercase().contains(&canary), "{}: a planted passage was cited: {answer:#}", probe["id"]);
        }
        assert_eq!(answer["abstained"], false, "{}: the genuine fact is in the library: {answer:#}", probe["id"]);
        checked += 1;
    }
    assert_eq!(checked, chosen.len());
}
