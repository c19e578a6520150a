//! `pagewise models import|download|list` against a real GGUF served over HTTP on loopback
//! by a small Range-capable server in this test, which can cut a transfer short (an
//! interrupted download), ignore ranges, or serve something that is not a model. The server
//! is plain http, so every download gives the file's sha256 (http without one is refused).

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;
mod file_server;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;
use file_server::{Behaviour, FileServer};

fn model_file() -> PathBuf {
    repo_root().join("models/llm/SmolLM2-135M-Instruct.Q4_1.gguf")
}

fn sha256(path: &Path) -> String {
    let out = std::process::Command::new("sha256sum").arg(path).output().unwrap();
    String::from_utf8(out.stdout).unwrap().split_whitespace().next().unwrap().to_string()
}

fn download(data: &Path, args: &[&str]) -> Output {
    pagewise(data).args(["models", "download"]).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The names of the files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// The unfinished download of `name` in `dir`: `NAME.<16 hex>.part`, keyed by its URL.
fn part_of(dir: &Path, name: &str) -> Option<PathBuf> {
    let parts: Vec<PathBuf> = listing(dir)
        .into_iter()
        .filter(|f| {
            f.strip_prefix(&format!("{name}."))
                .and_then(|rest| rest.strip_suffix(".part"))
                .is_some_and(|key| key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit()))
        })
        .map(|f| dir.join(f))
        .collect();
    assert!(parts.len() <= 1, "one part per name and URL: {parts:?}");
    parts.into_iter().next()
}

#[test]
fn an_interrupted_download_resumes_where_it_stopped_and_is_checked() {
    let data = tempfile::tempdir().unwrap();
    let source = model_file();
    let size = std::fs::metadata(&source).unwrap().len();
    let cut = 30 << 20;
    let server = FileServer::serve(source.clone(), "small.gguf", Behaviour { cut_first_after: Some(cut), honour_ranges: true, slow: false });
    let digest = sha256(&source);
    let first = download(data.path(), &[&server.url, "--sha256", &digest]);
    assert!(!first.status.success());
    let err = text(&first.stderr);
    assert!(err.contains("interrupted after 31.5 MB of") && err.contains("resume"), "{err}");
    let llm = data.path().join("models/llm");
    let part = part_of(&llm, "small.gguf").unwrap_or_else(|| panic!("no part: {:?}", listing(&llm)));
    assert_eq!(std::fs::metadata(&part).unwrap().len(), cut, "what arrived is kept");
    assert!(!data.path().join("models/llm/small.gguf").exists(), "an unfinished model is never offered");

    let second = download(data.path(), &[&server.url, "--sha256", &digest]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    let installed = PathBuf::from(text(&second.stdout).trim());
    assert_eq!(installed, data.path().join("models/llm/small.gguf"));
    assert_eq!(std::fs::metadata(&installed).unwrap().len(), size);
    assert_eq!(sha256(&installed), digest);
    assert!(!part.exists());
    assert_eq!(listing(&llm), ["small.gguf"], "the part and its sidecar are gone");
    // The server sends no ETag: the sha256 is what lets the part be resumed.
    assert_eq!(server.ranges.lock().unwrap().as_slice(), ["".to_string(), format!("bytes={cut}-")], "the second request asked for the rest only");
    // Both requests are in the network log, as one row: a model download from this server.
    let logged = json(&run_ok(pagewise(data.path()).args(["network-log", "--json"])));
    let port = server.url.split(['/', ':']).nth(4).unwrap().parse::<u16>().unwrap();
    let rows = logged.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{logged}");
    assert_eq!((&rows[0]["purpose"], &rows[0]["host"], &rows[0]["port"], &rows[0]["count"]), (&"model_download".into(), &"127.0.0.1".into(), &port.into(), &2.into()), "{logged}");
    let shown = text(&run_ok(pagewise(data.path()).arg("network-log")).stdout);
    assert!(shown.contains(&format!("127.0.0.1:{port}  model download  (2 requests)")) && shown.contains("Nothing else connects"), "{shown}");
    let log = std::fs::read_to_string(data.path().join("network-log.jsonl")).unwrap();
    assert!(log.contains("\"path\":\"/models/small.gguf\"") && !log.contains("sha256"), "no query, no body: {log}");

    // The list reads the model's own header.
    let listed = json_lines(&run_ok(pagewise(data.path()).args(["models", "list", "--json"])));
    let small = listed.iter().find(|m| m["name"] == "small.gguf").unwrap_or_else(|| panic!("{listed:?}"));
    assert_eq!(small["gguf"]["quantisation"], "Q4_1", "{small}");
    assert_eq!(small["gguf"]["architecture"], "llama", "{small}");
    assert_eq!(small["gguf"]["context_length"], 8192, "{small}");
    assert_eq!(small["gguf"]["has_chat_template"], true, "{small}");
    assert_eq!(small["size_bytes"], size);
    // A second download of an installed name is refused, not overwritten.
    let again = download(data.path(), &[&server.url, "--sha256", &digest]);
    assert!(!again.status.success() && text(&again.stderr).contains("already installed"), "{}", text(&again.stderr));
}

#[test]
fn a_fresh_data_dir_has_made_no_connection() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("fresh");
    let shown = text(&run_ok(pagewise(&data).arg("network-log")).stdout);
    assert!(shown.contains("No connections: Pagewise has made no network connection from this data dir."), "{shown}");
    assert!(shown.contains("no telemetry, no update checks"), "{shown}");
    assert_eq!(json(&run_ok(pagewise(&data).args(["network-log", "--json"]))), serde_json::json!([]));
    // Importing a model is no connection either.
    run_ok(pagewise(&data).args(["models", "import"]).arg(model_file()));
    assert_eq!(json(&run_ok(pagewise(&data).args(["network-log", "--json"]))), serde_json::json!([]));
    assert!(!data.join("network-log.jsonl").exists());
}

#[test]
fn a_server_without_ranges_makes_the_download_start_over() {
    let data = tempfile::tempdir().unwrap();
    let source = model_file();
    let digest = sha256(&source);
    let cut = 10 << 20;
    let server = FileServer::serve(source.clone(), "small.gguf", Behaviour { cut_first_after: Some(cut), honour_ranges: false, slow: false });
    assert!(!download(data.path(), &[&server.url, "--sha256", &digest]).status.success());
    let second = download(data.path(), &[&server.url, "--sha256", &digest]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert_eq!(sha256(&data.path().join("models/llm/small.gguf")), digest);
    // The rest was asked for; the whole file came, and replaced the part rather than
    // being appended to it (the checksum above would show a splice).
    assert_eq!(server.ranges.lock().unwrap().as_slice(), ["".to_string(), format!("bytes={cut}-")]);
    assert_eq!(listing(&data.path().join("models/llm")), ["small.gguf"]);
}

#[test]
fn a_wrong_checksum_or_a_file_that_is_no_model_is_deleted() {
    let data = tempfile::tempdir().unwrap();
    let server = FileServer::serve(model_file(), "small.gguf", Behaviour { cut_first_after: None, honour_ranges: true, slow: false });
    let bad = download(data.path(), &[&server.url, "--sha256", &"0".repeat(64)]);
    let err = text(&bad.stderr);
    assert!(!bad.status.success() && err.contains("checksum mismatch") && err.contains("deleted"), "{err}");
    let llm = data.path().join("models/llm");
    assert_eq!(std::fs::read_dir(&llm).unwrap().count(), 0, "nothing is left behind");

    let page = tempfile::tempdir().unwrap();
    let html = page.path().join("login.html");
    std::fs::write(&html, "<html><body>Sign in to download</body></html>").unwrap();
    let html_sha = sha256(&html);
    let server = FileServer::serve(html, "model.gguf", Behaviour { cut_first_after: None, honour_ranges: true, slow: false });
    // Its own sha256, so that it passes the checksum and reaches the GGUF check.
    let refused = download(data.path(), &[&server.url, "--sha256", &html_sha]);
    let err = text(&refused.stderr);
    assert!(!refused.status.success() && err.contains("not a usable model") && err.contains("not a GGUF"), "{err}");
    assert_eq!(std::fs::read_dir(&llm).unwrap().count(), 0);

    // Import checks the same way.
    let imported = pagewise(data.path()).args(["models", "import"]).arg(page.path().join("login.html")).output().unwrap();
    assert!(!imported.status.success() && text(&imported.stderr).contains("not a GGUF"), "{}", text(&imported.stderr));
    let imported = run_ok(pagewise(data.path()).args(["models", "import"]).arg(model_file()));
    assert_eq!(PathBuf::from(text(&imported.stdout).trim()), llm.join("SmolLM2-135M-Instruct.Q4_1.gguf"));
}

#[test]
#[cfg(target_os = "linux")]
fn a_disk_without_room_is_refused_before_anything_downloads() {
    // The data dir sits on a 64 MB tmpfs (in a user and mount namespace: no privileges, no
    // mount left behind); the model is 98 MB.
    let server = FileServer::serve(model_file(), "small.gguf", Behaviour { cut_first_after: None, honour_ranges: true, slow: false });
    let mount = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let script = r#"
        set -u
        mount -t tmpfs -o size=64m tmpfs "$MNT" || exit 90
        "$BIN" models download "$URL" --sha256 "$SHA" --data-dir "$MNT/data" > "$OUT/stdout" 2> "$OUT/stderr"; echo $? > "$OUT/rc"
        ls -A "$MNT/data/models/llm" > "$OUT/left" 2>&1
    "#;
    let status = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", script])
        .env("MNT", mount.path())
        .env("OUT", out.path())
        .env("URL", &server.url)
        .env("SHA", sha256(&model_file()))
        .env("BIN", env!("CARGO_BIN_EXE_pagewise"))
        .env("PAGEWISE_MODELS_DIR", repo_root().join("models"))
        .status()
        .unwrap();
    assert!(status.success(), "the script itself failed: {status:?}");
    let read = |name: &str| std::fs::read_to_string(out.path().join(name)).unwrap();
    assert_ne!(read("rc").trim(), "0");
    assert!(read("stderr").contains("not enough free space"), "{}", read("stderr"));
    assert_eq!(read("left").trim(), "", "nothing was written");
}
