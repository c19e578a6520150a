//! `pagewise ask` end to end: real stores, the real embedding model and the real default GGUF.
//! Greedy decoding is deterministic on one machine but not bit-identical across CPUs (their
//! SIMD kernels differ), so assertions check what must hold anywhere: the fact (numbers and
//! units normalised), the citation and its page — never the model's wording.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use std::path::Path;

use common::*;

fn indexed_fixture() -> (tempfile::TempDir, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    let docs = folder_with(&[
        ("known-answers.pdf", &fixtures().join("known-answers.pdf")),
        ("notes.md", &fixtures().join("notes.md")),
    ]);
    let summary = index_json(data.path(), &[docs.path()]);
    assert_eq!(summary["indexed"], 2, "{summary}");
    (data, docs)
}

fn ask(data: &Path, args: &[&str]) -> serde_json::Value {
    let mut cmd = pagewise(data);
    cmd.arg("ask").args(args).arg("--json");
    json(&run_ok(&mut cmd))
}

/// Page texts as `pagewise parse` extracts them, to check citation byte ranges against.
fn page_texts(pdf: &Path) -> Vec<String> {
    let out = run_ok(pagewise(Path::new("/nonexistent")).arg("parse").arg("--json").arg(pdf));
    json_lines(&out).into_iter().map(|p| p["text"].as_str().unwrap().to_string()).collect()
}

fn assert_citations_resolve(answer: &serde_json::Value, pages: &[String]) {
    let sources = answer["sources"].as_array().unwrap();
    for c in answer["citations"].as_array().unwrap() {
        let label = c["label"].as_str().unwrap();
        assert!(sources.iter().any(|s| s["label"] == label), "citation {label} is not a source of this answer: {answer}");
        assert!(answer["answer"].as_str().unwrap().contains(&format!("[{label}]")), "label {label} missing from the text");
        if c["doc_path"].as_str().unwrap().ends_with("known-answers.pdf") {
            let page = &pages[c["page"].as_u64().unwrap() as usize - 1];
            let (start, end) = (c["byte_start"].as_u64().unwrap() as usize, c["byte_end"].as_u64().unwrap() as usize);
            assert_eq!(&page[start..end], c["quote"].as_str().unwrap(), "quote must be the page text at its byte range");
        }
    }
}

#[test]
fn answers_with_the_real_model_cite_the_right_page() {
    let (data, docs) = indexed_fixture();
    let pages = page_texts(&docs.path().join("known-answers.pdf"));
    for (question, page, fact) in [
        ("When did the Larkspur bridge open?", 1, "1931"),
        ("How much water does the Harrow valley reservoir hold?", 2, "38 million cubic metres"),
        ("How large is the mirror of the Kestrel observatory telescope?", 3, "2.4 metre"),
    ] {
        let answer = ask(data.path(), &[question]);
        assert_eq!(answer["abstained"], false, "{answer}");
        assert_eq!(answer["model"], pagewise_core::models::DEFAULT_CHAT_MODEL);
        assert!(!answer["raw_model_output"].as_str().unwrap().trim().is_empty(), "the model must have run: {answer}");
        assert!(answer["timings"]["generated_tokens"].as_u64().unwrap() > 0);
        let cited = answer["citations"].as_array().unwrap();
        assert!(
            cited.iter().any(|c| c["doc_path"].as_str().unwrap().ends_with("known-answers.pdf") && c["page"] == page),
            "{question}: no citation of page {page}: {answer}"
        );
        let supported: String = answer["sentences"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| !s["citations"].as_array().unwrap().is_empty())
            .map(|s| s["text"].as_str().unwrap())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(pagewise_core::grade::states(&supported, fact), "{question}: no supported sentence states {fact}: {}", answer["answer"]);
        assert_citations_resolve(&answer, &pages);
        for step in ["plan", "search_docs"] {
            assert!(answer["steps"].as_array().unwrap().iter().any(|s| s["tool"] == step), "no {step} step");
        }
    }
    // Greedy decoding: the same question gives the same answer.
    let a = ask(data.path(), &["When did the Larkspur bridge open?"]);
    let b = ask(data.path(), &["When did the Larkspur bridge open?"]);
    assert_eq!(a["raw_model_output"], b["raw_model_output"]);
    assert_eq!(a["answer"], b["answer"]);
}

#[test]
fn out_of_scope_questions_abstain_with_the_nearest_passages() {
    let (data, _docs) = indexed_fixture();
    let answer = ask(data.path(), &["Who won the 2018 FIFA World Cup?"]);
    assert_eq!(answer["abstained"], true, "{answer}");
    assert_eq!(answer["mode"], "abstained");
    assert!(answer["answer"].as_str().unwrap().starts_with("The documents do not cover this."));
    let nearest = answer["citations"].as_array().unwrap();
    assert!(!nearest.is_empty(), "nearest passages are cited");
    assert!(answer["raw_model_output"].is_null(), "nothing is generated when retrieval finds no cover");
}

#[test]
fn extractive_answers_without_a_model_are_cited() {
    let (data, docs) = indexed_fixture();
    let pages = page_texts(&docs.path().join("known-answers.pdf"));
    let answer = ask(data.path(), &["How large is the mirror of the Kestrel observatory telescope?", "--extractive"]);
    assert_eq!(answer["mode"], "extractive");
    assert!(answer["note"].as_str().unwrap().starts_with("Extractive answer"));
    assert_eq!(answer["citations"][0]["page"], 3);
    assert!(pagewise_core::grade::states(answer["answer"].as_str().unwrap(), "2.4 metre"));
    assert_citations_resolve(&answer, &pages);

    // A model file that does not exist: the answer still comes, extractively, and says why.
    let out = run_ok(pagewise(data.path()).args(["ask", "When did the Larkspur bridge open?", "--json", "--model", "/no/such/model.gguf"]));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/model.gguf does not exist"));
    let answer = json(&out);
    assert_eq!(answer["mode"], "extractive");
    assert_eq!(answer["citations"][0]["page"], 1);
}

#[test]
fn follow_ups_are_rewritten_within_a_conversation() {
    let (data, _docs) = indexed_fixture();
    let first = ask(data.path(), &["When did the Larkspur bridge open?", "--extractive"]);
    let id = first["conversation_id"].as_i64().unwrap().to_string();
    let follow = ask(data.path(), &["what about its length?", "--extractive", "--conversation", &id]);
    assert_eq!(follow["conversation_id"].as_i64().unwrap().to_string(), id);
    let standalone = follow["standalone_query"].as_str().unwrap();
    assert!(standalone.contains("Larkspur"), "{standalone}");
    assert!(follow["steps"].as_array().unwrap().iter().any(|s| s["tool"] == "rewrite"));
    assert_eq!(follow["citations"][0]["page"], 1, "{follow}");
    let out = pagewise(data.path()).args(["ask", "and?", "--conversation", "999", "--extractive"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("conversation 999 does not exist"));
}

#[test]
fn whole_document_tasks_read_every_section() {
    let (data, docs) = indexed_fixture();
    let pdf = docs.path().join("known-answers.pdf");
    let answer = ask(data.path(), &["Summarise this document", "--extractive", "--scope", pdf.to_str().unwrap()]);
    assert_eq!(answer["mode"], "map_reduce", "{answer}");
    let mut pages: Vec<u64> = answer["citations"].as_array().unwrap().iter().map(|c| c["page"].as_u64().unwrap()).collect();
    pages.sort_unstable();
    pages.dedup();
    assert_eq!(pages, [1, 2, 3], "every page contributes a cited note: {answer}");
    assert!(answer["steps"].as_array().unwrap().iter().any(|s| s["tool"] == "map_section"));
}

#[test]
fn scope_limits_the_evidence() {
    let (data, docs) = indexed_fixture();
    let notes = docs.path().join("notes.md");
    let answer = ask(data.path(), &["When did the Larkspur bridge open?", "--extractive", "--never-abstain", "--scope", notes.to_str().unwrap()]);
    for s in answer["sources"].as_array().unwrap() {
        assert!(s["doc_path"].as_str().unwrap().ends_with("notes.md"), "{s}");
    }
}

/// Internet sockets (AF_INET, AF_INET6) that `args` connects to, counted by strace over the
/// process and every child (the parse workers). Local sockets (AF_UNIX) are not counted.
fn internet_connects(data: &Path, args: &[&std::ffi::OsStr]) -> (Vec<String>, std::process::Output) {
    let traces = tempfile::tempdir().unwrap();
    let trace = traces.path().join("connect.trace");
    let bin = env!("CARGO_BIN_EXE_pagewise");
    let out = std::process::Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=connect", "-o"])
        .arg(&trace)
        .arg(bin)
        .env("PAGEWISE_MODELS_DIR", repo_root().join("models"))
        .env_remove("PAGEWISE_EMBED_MODEL")
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .output()
        .expect("strace is installed by scripts/setup.sh");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&trace).unwrap();
    let internet = text.lines().filter(|l| l.contains("AF_INET")).map(str::to_string).collect();
    (internet, out)
}

#[test]
fn index_search_and_ask_open_no_internet_socket() {
    let data = tempfile::tempdir().unwrap();
    let docs = folder_with(&[("known-answers.pdf", &fixtures().join("known-answers.pdf")), ("notes.md", &fixtures().join("notes.md"))]);
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    let (connects, out) = internet_connects(data.path(), &[os("index"), os("--json"), docs.path().as_os_str()]);
    assert_eq!(json(&out)["indexed"], 2);
    assert!(connects.is_empty(), "index connected: {connects:?}");
    let (connects, out) = internet_connects(data.path(), &[os("search"), os("Larkspur bridge"), os("--json")]);
    assert!(!json_lines(&out).is_empty());
    assert!(connects.is_empty(), "search connected: {connects:?}");
    let (connects, out) = internet_connects(data.path(), &[os("ask"), os("When did the Larkspur bridge open?"), os("--json")]);
    let answer = json(&out);
    assert!(answer["timings"]["generated_tokens"].as_u64().unwrap() > 0, "the model must have run: {answer}");
    assert!(connects.is_empty(), "ask connected: {connects:?}");
}
