//! The Models screen's commands through Tauri's real IPC: downloading the real SmolLM2 GGUF
//! from an HTTP server on loopback with progress on a channel, a cancel that keeps the part,
//! a resume with a Range request (from the same URL: a part is only ever resumed from the
//! URL it came from), a bad checksum, one download at a time, and the chat and embedding
//! models listed with what their files say. The server is plain http, so every download
//! gives the file's sha256 (http without one is refused).

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

#[path = "../../crates/cli/tests/file_server.rs"]
mod file_server;
mod ipc;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use file_server::{Behaviour, FileServer};
use pagewise_app::state::{AppState, StartOptions};
use pagewise_app::with_commands;
use ipc::invoke;
use serde_json::{json, Value};
use tauri::test::mock_builder;
use tauri::WebviewWindowBuilder;

fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../models")
}


fn sha256(path: &Path) -> String {
    let out = std::process::Command::new("sha256sum").arg(path).output().unwrap();
    String::from_utf8(out.stdout).unwrap().split_whitespace().next().unwrap().to_string()
}

fn download(url: &str, sha: Option<&str>, name: &str) -> Value {
    json!({ "url": url, "sha256": sha, "fileName": name, "onProgress": "__CHANNEL__:9" })
}

/// The files in `dir` whose names start with `prefix`, sorted.
fn files_starting(dir: &Path, prefix: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with(prefix)).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// The unfinished download of `name` in `dir`: `NAME.<16 hex>.part`, keyed by its URL.
fn part_of(dir: &Path, name: &str) -> Option<PathBuf> {
    let parts: Vec<String> = files_starting(dir, &format!("{name}."))
        .into_iter()
        .filter(|f| {
            f[name.len() + 1..].strip_suffix(".part").is_some_and(|key| key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit()))
        })
        .collect();
    assert!(parts.len() <= 1, "one part per name and URL: {parts:?}");
    parts.first().map(|f| dir.join(f))
}

#[test]
fn models_are_listed_downloaded_cancelled_resumed_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    std::env::set_var("PAGEWISE_MODELS_DIR", models_dir());
    let data = dir.path().join("data");
    let state = AppState::start(
        StartOptions {
            config_dir: dir.path().join("config"),
            data_dir: Some(data.clone()),
            add: Vec::new(),
            sample_dir: None,
            worker_program: Some(PathBuf::from(env!("CARGO_BIN_EXE_pagewise-app"))),
            confirm: Some(std::sync::Arc::new(|_| true)),
        },
        Box::new(|_| {}),
    );
    let app = with_commands(mock_builder().plugin(tauri_plugin_dialog::init()).plugin(tauri_plugin_opener::init()))
        .manage(state)
        .build(tauri::generate_context!())
        .unwrap();
    let webview = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();

    // The embedding model in use, with what its files say.
    let embedders = invoke(&webview, "installed_embedding_models", json!({})).unwrap();
    let minilm = embedders.as_array().unwrap().iter().find(|e| e["name"] == "all-MiniLM-L6-v2").unwrap_or_else(|| panic!("{embedders:#}"));
    assert_eq!(minilm["architecture"], "bert");
    assert_eq!(minilm["dimensions"], 384);
    assert_eq!(minilm["max_tokens"], 256);
    assert_eq!(minilm["reads_chinese"], false);
    assert_eq!(minilm["in_use"], true);
    assert!(minilm["size_bytes"].as_u64().unwrap() > 80_000_000);

    let source = models_dir().join("llm/SmolLM2-135M-Instruct.Q4_1.gguf");
    let size = std::fs::metadata(&source).unwrap().len();
    let digest = sha256(&source);
    let llm = data.join("models/llm");
    let part_len = || part_of(&llm, "small.gguf").and_then(|p| std::fs::metadata(p).ok()).map_or(0, |m| m.len());

    // A slow server; the download runs on its own thread while this one cancels it.
    let server = FileServer::serve(source.clone(), "small.gguf", Behaviour { cut_first_after: None, honour_ranges: true, slow: true });
    let running = {
        let webview = webview.clone();
        let request = download(&server.url, Some(&digest), "small.gguf");
        std::thread::spawn(move || invoke(&webview, "download_model", request))
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while part_len() < 2 << 20 {
        assert!(Instant::now() < deadline, "the download did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let second = invoke(&webview, "download_model", download(&server.url, Some(&digest), "other.gguf")).unwrap_err();
    assert_eq!(second["kind"], "invalid_input", "one download at a time: {second}");
    invoke(&webview, "cancel_download", json!({})).unwrap();
    let cancelled = running.join().unwrap().unwrap_err();
    assert_eq!(cancelled["kind"], "stopped", "{cancelled}");
    assert!(cancelled["message"].as_str().unwrap().contains("resume"), "{cancelled}");
    let part = part_of(&llm, "small.gguf").unwrap_or_else(|| panic!("no part: {:?}", files_starting(&llm, "")));
    let kept = std::fs::metadata(&part).unwrap().len();
    assert!(kept >= 2 << 20 && kept < size, "the part is kept: {kept}");
    assert!(!llm.join("small.gguf").exists(), "an unfinished model is never offered");
    assert!(files_starting(&llm, "other.gguf").is_empty(), "the refused second download left nothing");

    // Started again from the same URL (the server now fast), it resumes where it stopped
    // and is checked.
    let asked_before = server.ranges.lock().unwrap().len();
    server.set_behaviour(Behaviour { cut_first_after: None, honour_ranges: true, slow: false });
    let installed = invoke(&webview, "download_model", download(&server.url, Some(&digest), "small.gguf")).unwrap();
    assert_eq!(installed["name"], "small.gguf");
    assert_eq!(installed["size_bytes"], size);
    assert_eq!(installed["gguf"]["architecture"], "llama", "{installed:#}");
    assert!(installed["gguf"]["has_chat_template"].as_bool().unwrap());
    assert_eq!(sha256(&llm.join("small.gguf")), digest);
    assert!(!part.exists());
    assert_eq!(files_starting(&llm, "small.gguf"), ["small.gguf"], "the part and its sidecar are gone");
    let asked = server.ranges.lock().unwrap()[asked_before..].to_vec();
    assert_eq!(asked.len(), 1, "{asked:?}");
    let resumed_at: u64 = asked[0].trim_start_matches("bytes=").trim_end_matches('-').parse().unwrap();
    assert!(resumed_at >= kept - (1 << 20) && resumed_at <= kept, "resumed from the part ({kept}), asked {resumed_at}");

    // Listed among the chat models, with its header's facts.
    let listed = invoke(&webview, "installed_models", json!({})).unwrap();
    assert!(listed.as_array().unwrap().iter().any(|m| m["name"] == "small.gguf" && m["gguf"]["quantisation"].is_string()), "{listed:#}");

    // A wrong checksum: refused and deleted.
    let bad = invoke(&webview, "download_model", download(&server.url, Some(&"0".repeat(64)), "bad.gguf")).unwrap_err();
    assert_eq!(bad["kind"], "failed");
    assert!(bad["message"].as_str().unwrap().contains("sha256"), "{bad}");
    assert!(files_starting(&llm, "bad.gguf").is_empty(), "{:?}", files_starting(&llm, "bad.gguf"));

    // Plain http without a sha256 is refused before anything is fetched.
    let asked_before = server.ranges.lock().unwrap().len();
    let unchecked = invoke(&webview, "download_model", download(&server.url, None, "unchecked.gguf")).unwrap_err();
    assert!(unchecked["message"].as_str().unwrap().contains("sha256"), "{unchecked}");
    assert_eq!(server.ranges.lock().unwrap().len(), asked_before, "nothing was fetched");
    assert!(files_starting(&llm, "unchecked.gguf").is_empty());

    // Addresses that are not http(s) never reach the network code.
    let refused = invoke(&webview, "download_model", download("file:///etc/passwd", None, "x.gguf")).unwrap_err();
    assert_eq!(refused["kind"], "invalid_input");
}
