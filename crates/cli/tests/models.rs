//! `pagewise models import|download|list` against a real GGUF served over HTTP on loopback
//! by a small Range-capable server in this test, which can cut a transfer short (an
//! interrupted download), ignore ranges, or serve something that is not a model.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::{Arc, Mutex};

use common::*;

#[derive(Clone, Copy)]
struct Behaviour {
    /// Close the first response after this many body bytes.
    cut_first_after: Option<u64>,
    honour_ranges: bool,
}

struct FileServer {
    url: String,
    /// The Range header of every request, in order ("" when none).
    ranges: Arc<Mutex<Vec<String>>>,
}

impl FileServer {
    fn serve(file: PathBuf, name: &str, behaviour: Behaviour) -> FileServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/models/{name}", listener.local_addr().unwrap());
        let ranges = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&ranges);
        std::thread::spawn(move || {
            for (n, stream) in listener.incoming().enumerate() {
                let Ok(stream) = stream else { continue };
                let cut = if n == 0 { behaviour.cut_first_after } else { None };
                let _ = answer(stream, &file, behaviour.honour_ranges, cut, &seen);
            }
        });
        FileServer { url, ranges }
    }
}

fn answer(stream: TcpStream, file: &Path, honour_ranges: bool, cut: Option<u64>, seen: &Mutex<Vec<String>>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut range = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Range:").or_else(|| line.strip_prefix("range:")) {
            range = v.trim().to_string();
        }
    }
    seen.lock().unwrap().push(range.clone());
    let size = std::fs::metadata(file)?.len();
    let start = range.strip_prefix("bytes=").and_then(|r| r.trim_end_matches('-').parse::<u64>().ok()).filter(|_| honour_ranges);
    let mut out = stream;
    let head = match start {
        Some(s) if s >= size => format!("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{size}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
        Some(s) => format!("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {s}-{}/{size}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", size - 1, size - s),
        None => format!("HTTP/1.1 200 OK\r\nContent-Length: {size}\r\nAccept-Ranges: {}\r\nConnection: close\r\n\r\n", if honour_ranges { "bytes" } else { "none" }),
    };
    out.write_all(head.as_bytes())?;
    let from = start.filter(|s| *s < size).unwrap_or(0);
    if start.is_some_and(|s| s >= size) {
        return Ok(());
    }
    let mut body = std::fs::File::open(file)?;
    body.seek(SeekFrom::Start(from))?;
    let mut left = cut.unwrap_or(u64::MAX);
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let n = body.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        let n = n.min(left as usize);
        out.write_all(&buffer[..n])?;
        left -= n as u64;
        if left == 0 {
            break; // dropping the stream cuts the transfer short
        }
    }
    Ok(())
}

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

#[test]
fn an_interrupted_download_resumes_where_it_stopped_and_is_checked() {
    let data = tempfile::tempdir().unwrap();
    let source = model_file();
    let size = std::fs::metadata(&source).unwrap().len();
    let cut = 30 << 20;
    let server = FileServer::serve(source.clone(), "small.gguf", Behaviour { cut_first_after: Some(cut), honour_ranges: true });
    let digest = sha256(&source);
    let first = download(data.path(), &[&server.url, "--sha256", &digest]);
    assert!(!first.status.success());
    let err = text(&first.stderr);
    assert!(err.contains("interrupted after 31.5 MB of") && err.contains("resume"), "{err}");
    let part = data.path().join("models/llm/small.gguf.part");
    assert_eq!(std::fs::metadata(&part).unwrap().len(), cut, "what arrived is kept");
    assert!(!data.path().join("models/llm/small.gguf").exists(), "an unfinished model is never offered");

    let second = download(data.path(), &[&server.url, "--sha256", &digest]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    let installed = PathBuf::from(text(&second.stdout).trim());
    assert_eq!(installed, data.path().join("models/llm/small.gguf"));
    assert_eq!(std::fs::metadata(&installed).unwrap().len(), size);
    assert_eq!(sha256(&installed), digest);
    assert!(!part.exists());
    assert_eq!(server.ranges.lock().unwrap().as_slice(), ["".to_string(), format!("bytes={cut}-")], "the second request asked for the rest only");

    // The list reads the model's own header.
    let listed = json_lines(&run_ok(pagewise(data.path()).args(["models", "list", "--json"])));
    let small = listed.iter().find(|m| m["name"] == "small.gguf").unwrap_or_else(|| panic!("{listed:?}"));
    assert_eq!(small["gguf"]["quantisation"], "Q4_1", "{small}");
    assert_eq!(small["gguf"]["architecture"], "llama", "{small}");
    assert_eq!(small["gguf"]["context_length"], 8192, "{small}");
    assert_eq!(small["gguf"]["has_chat_template"], true, "{small}");
    assert_eq!(small["size_bytes"], size);
    // A second download of an installed name is refused, not overwritten.
    let again = download(data.path(), &[&server.url]);
    assert!(!again.status.success() && text(&again.stderr).contains("already installed"), "{}", text(&again.stderr));
}

#[test]
fn a_server_without_ranges_makes_the_download_start_over() {
    let data = tempfile::tempdir().unwrap();
    let source = model_file();
    let server = FileServer::serve(source.clone(), "small.gguf", Behaviour { cut_first_after: Some(10 << 20), honour_ranges: false });
    assert!(!download(data.path(), &[&server.url]).status.success());
    let second = download(data.path(), &[&server.url]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert_eq!(sha256(&data.path().join("models/llm/small.gguf")), sha256(&source));
}

#[test]
fn a_wrong_checksum_or_a_file_that_is_no_model_is_deleted() {
    let data = tempfile::tempdir().unwrap();
    let server = FileServer::serve(model_file(), "small.gguf", Behaviour { cut_first_after: None, honour_ranges: true });
    let bad = download(data.path(), &[&server.url, "--sha256", &"0".repeat(64)]);
    let err = text(&bad.stderr);
    assert!(!bad.status.success() && err.contains("checksum mismatch") && err.contains("deleted"), "{err}");
    let llm = data.path().join("models/llm");
    assert_eq!(std::fs::read_dir(&llm).unwrap().count(), 0, "nothing is left behind");

    let page = tempfile::tempdir().unwrap();
    let html = page.path().join("login.html");
    std::fs::write(&html, "<html><body>Sign in to download</body></html>").unwrap();
    let server = FileServer::serve(html, "model.gguf", Behaviour { cut_first_after: None, honour_ranges: true });
    let refused = download(data.path(), &[&server.url]);
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
    let server = FileServer::serve(model_file(), "small.gguf", Behaviour { cut_first_after: None, honour_ranges: true });
    let mount = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let script = r#"
        set -u
        mount -t tmpfs -o size=64m tmpfs "$MNT" || exit 90
        "$BIN" models download "$URL" --data-dir "$MNT/data" > "$OUT/stdout" 2> "$OUT/stderr"; echo $? > "$OUT/rc"
        ls -A "$MNT/data/models/llm" > "$OUT/left" 2>&1
    "#;
    let status = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", script])
        .env("MNT", mount.path())
        .env("OUT", out.path())
        .env("URL", &server.url)
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
