//! Downloads from a small HTTP server on loopback in this process, which answers each
//! request with bytes a test composes: cut-off chunked bodies, 206/416 answers, redirects.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use super::*;
use crate::gguf::tests::tiny_gguf;

#[derive(Debug, Clone)]
struct Request {
    path: String,
    /// Lower-case names.
    headers: Vec<(String, String)>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

struct Server {
    base: String,
    seen: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    fn seen(&self) -> Vec<Request> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

fn serve(reply: impl Fn(&Request) -> Vec<u8> + Send + 'static) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    let base = format!("http://{}", listener.local_addr().unwrap_or_else(|e| panic!("{e}")));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let Some(request) = read_request(&stream) else { continue };
            log.lock().unwrap_or_else(|e| e.into_inner()).push(request.clone());
            // The client may hang up early (a cut download): that is what some tests want.
            let _ = stream.write_all(&reply(&request));
            let _ = stream.flush();
        }
    });
    Server { base, seen }
}

fn read_request(stream: &std::net::TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split_whitespace().nth(1)?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    Some(Request { path, headers })
}

fn answer(status: &str, headers: &[(&str, String)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    for (name, value) in headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("\r\n");
    let mut out = out.into_bytes();
    out.extend_from_slice(body);
    out
}

fn model() -> Vec<u8> {
    let mut bytes = tiny_gguf(&[("general.architecture", "llama"), ("general.name", "a test model")], &[]);
    // Long enough that half of it is a believable part.
    bytes.extend(std::iter::repeat_n(0u8, 4096));
    bytes
}

fn sha_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn request(url: &str, dir: &Path, sha256: Option<String>) -> DownloadRequest {
    DownloadRequest { url: url.to_string(), dir: dir.to_path_buf(), file_name: Some("m.gguf".into()), sha256 }
}

fn run(request: &DownloadRequest, max_bytes: u64) -> Result<PathBuf> {
    download_with_limits(request, &DownloadLimits { max_bytes }, &mut |_| true)
}

fn message(result: Result<PathBuf>) -> String {
    match result {
        Err(Error::Download { message, .. }) => message,
        other => panic!("expected a download error, got {other:?}"),
    }
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

/// A server that serves `bytes` under `etag`, honouring `Range` when `If-Range` names the
/// current `etag` (and when it is absent).
fn file_server(bytes: Vec<u8>, etag: &'static str) -> Server {
    range_server(bytes, etag, true)
}

fn range_server(bytes: Vec<u8>, etag: &'static str, honours_if_range: bool) -> Server {
    serve(move |req| {
        let len = bytes.len();
        let etag_header = ("ETag", etag.to_string());
        let from = req.header("range").and_then(|r| r.strip_prefix("bytes=")).and_then(|r| r.trim_end_matches('-').parse::<usize>().ok());
        match from {
            Some(from) if (!honours_if_range || req.header("if-range").is_none_or(|v| v == etag)) && from < len => answer(
                "206 Partial Content",
                &[etag_header, ("Content-Range", format!("bytes {from}-{}/{len}", len - 1))],
                &bytes[from..],
            ),
            _ => answer("200 OK", &[etag_header], &bytes),
        }
    })
}

#[test]
fn names_and_ranges_are_read_strictly() {
    assert_eq!(name_from_url("https://h/x/Qwen2.5-7B.Q4_K_M.gguf?download=true").as_deref(), Some("Qwen2.5-7B.Q4_K_M.gguf"));
    assert_eq!(name_from_url("https://h/x/model.bin"), None);
    assert_eq!(name_from_url("https://h/.gguf"), None);
    assert_eq!(parse_content_range("bytes 100-199/200"), Some((100, Some(200))));
    assert_eq!(parse_content_range("bytes 5-9/*"), Some((5, None)));
    assert_eq!(parse_content_range("items 1-2/3"), None);
}

#[test]
fn plain_http_without_a_sha256_is_refused_before_connecting() {
    let server = file_server(model(), "\"v1\"");
    let dir = tempdir();
    let refused = message(run(&request(&format!("{}/m.gguf", server.base), dir.path(), None), DEFAULT_MAX_BYTES));
    assert!(refused.contains("https://") && refused.contains("sha256"), "{refused}");
    let malformed = message(run(&request(&format!("{}/m.gguf", server.base), dir.path(), Some("abc".into())), DEFAULT_MAX_BYTES));
    assert!(malformed.contains("not a sha256"), "{malformed}");
    assert!(server.seen().is_empty(), "nothing was asked of the server");
    assert!(listing(dir.path()).is_empty());
}

#[test]
fn a_chunked_body_past_the_cap_is_cut_and_nothing_is_left() {
    let server = serve(|_| {
        let mut out = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nETag: \"v1\"\r\nConnection: close\r\n\r\n".to_vec();
        for _ in 0..8 {
            out.extend_from_slice(format!("{:x}\r\n", 64 * 1024).as_bytes());
            out.extend(std::iter::repeat_n(b'x', 64 * 1024));
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\n\r\n");
        out
    });
    let dir = tempdir();
    let cut = message(run(&request(&format!("{}/m.gguf", server.base), dir.path(), Some("0".repeat(64))), 100_000));
    assert!(cut.contains("more than the 0.1 MB"), "{cut}");
    assert!(listing(dir.path()).is_empty(), "left behind: {:?}", listing(dir.path()));
}

#[test]
fn an_announced_size_past_the_cap_is_refused_before_the_body() {
    let server = serve(|_| answer("200 OK", &[], &[b'x'; 200_000]));
    let dir = tempdir();
    let refused = message(run(&request(&format!("{}/m.gguf", server.base), dir.path(), Some("0".repeat(64))), 100_000));
    assert!(refused.contains("the file is 0.2 MB, more than the 0.1 MB"), "{refused}");
    assert!(listing(dir.path()).is_empty(), "left behind: {:?}", listing(dir.path()));
}

#[test]
fn a_part_left_by_another_url_is_never_resumed() {
    let bytes = model();
    let server = file_server(bytes.clone(), "\"v1\"");
    let dir = tempdir();
    let target = dir.path().join("m.gguf");
    // What another URL left, under the very ETag this server sends: a server keyed only by
    // name would happily continue it.
    let other = Part::new(&target, &format!("{}/elsewhere/m.gguf", server.base));
    std::fs::write(&other.path, vec![b'?'; bytes.len() / 2]).unwrap_or_else(|e| panic!("{e}"));
    other.set_validator(Some("\"v1\"")).unwrap_or_else(|e| panic!("{e}"));

    let installed = run(&request(&format!("{}/m.gguf", server.base), dir.path(), Some(sha_hex(&bytes))), DEFAULT_MAX_BYTES)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(std::fs::read(&installed).unwrap_or_else(|e| panic!("{e}")), bytes);
    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].header("range"), None, "the other URL's part was not resumed");
    assert_eq!(listing(dir.path()), ["m.gguf"], "the other URL's part goes once the model is in");
}

#[test]
fn a_resume_names_its_etag_and_a_changed_file_starts_over() {
    let bytes = model();
    let half = bytes.len() / 2;
    let sha = sha_hex(&bytes);

    // Same file on the server: only the rest is asked for, under If-Range.
    let server = file_server(bytes.clone(), "\"v1\"");
    let url = format!("{}/m.gguf", server.base);
    let dir = tempdir();
    let part = Part::new(&dir.path().join("m.gguf"), &url);
    std::fs::write(&part.path, &bytes[..half]).unwrap_or_else(|e| panic!("{e}"));
    part.set_validator(Some("\"v1\"")).unwrap_or_else(|e| panic!("{e}"));
    let installed = run(&request(&url, dir.path(), Some(sha.clone())), DEFAULT_MAX_BYTES).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(std::fs::read(&installed).unwrap_or_else(|e| panic!("{e}")), bytes);
    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].header("range"), Some(format!("bytes={half}-").as_str()));
    assert_eq!(seen[0].header("if-range"), Some("\"v1\""));
    assert_eq!(listing(dir.path()), ["m.gguf"]);

    // The file changed since the part was written: the server sends all of it (200) and
    // the old bytes are dropped, not kept in front.
    let server = file_server(bytes.clone(), "\"v2\"");
    let url = format!("{}/m.gguf", server.base);
    let dir = tempdir();
    let part = Part::new(&dir.path().join("m.gguf"), &url);
    std::fs::write(&part.path, vec![b'?'; half]).unwrap_or_else(|e| panic!("{e}"));
    part.set_validator(Some("\"v1\"")).unwrap_or_else(|e| panic!("{e}"));
    let installed = run(&request(&url, dir.path(), Some(sha.clone())), DEFAULT_MAX_BYTES).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(std::fs::read(&installed).unwrap_or_else(|e| panic!("{e}")), bytes);
    assert_eq!(server.seen().len(), 1);

    // A server that ignores If-Range sends the rest of its new version; its ETag gives it
    // away, and the download starts over instead of splicing.
    let server = range_server(bytes.clone(), "\"v2\"", false);
    let url = format!("{}/m.gguf", server.base);
    let dir = tempdir();
    let part = Part::new(&dir.path().join("m.gguf"), &url);
    std::fs::write(&part.path, vec![b'?'; half]).unwrap_or_else(|e| panic!("{e}"));
    part.set_validator(Some("\"v1\"")).unwrap_or_else(|e| panic!("{e}"));
    let installed = run(&request(&url, dir.path(), Some(sha)), DEFAULT_MAX_BYTES).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(std::fs::read(&installed).unwrap_or_else(|e| panic!("{e}")), bytes);
    let ranges: Vec<Option<String>> = server.seen().iter().map(|r| r.header("range").map(str::to_string)).collect();
    assert_eq!(ranges, [Some(format!("bytes={half}-")), None]);
}

#[test]
fn a_416_is_not_taken_as_complete() {
    let bytes = model();
    let len = bytes.len();
    let body = bytes.clone();
    let server = serve(move |req| match req.header("range") {
        Some(_) => answer("416 Range Not Satisfiable", &[("Content-Range", format!("bytes */{len}"))], b""),
        None => answer("200 OK", &[("ETag", "\"v1\"".into())], &body),
    });
    let url = format!("{}/m.gguf", server.base);
    let dir = tempdir();
    // A part as long as the file, but not the file: a 416 must not install it.
    let part = Part::new(&dir.path().join("m.gguf"), &url);
    std::fs::write(&part.path, vec![b'?'; len]).unwrap_or_else(|e| panic!("{e}"));
    part.set_validator(Some("\"v1\"")).unwrap_or_else(|e| panic!("{e}"));
    let installed = run(&request(&url, dir.path(), Some(sha_hex(&bytes))), DEFAULT_MAX_BYTES).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(std::fs::read(&installed).unwrap_or_else(|e| panic!("{e}")), bytes);
    let ranges: Vec<Option<String>> = server.seen().iter().map(|r| r.header("range").map(str::to_string)).collect();
    assert_eq!(ranges, [Some(format!("bytes={len}-")), None], "the part was dropped and the file asked for whole");

    // A server that answers 416 to everything: one fresh try, then an error.
    let server = serve(|_| answer("416 Range Not Satisfiable", &[], b""));
    let url = format!("{}/m.gguf", server.base);
    let dir = tempdir();
    let part = Part::new(&dir.path().join("m.gguf"), &url);
    std::fs::write(&part.path, vec![b'?'; len]).unwrap_or_else(|e| panic!("{e}"));
    part.set_validator(Some("\"v1\"")).unwrap_or_else(|e| panic!("{e}"));
    let refused = message(run(&request(&url, dir.path(), Some(sha_hex(&bytes))), DEFAULT_MAX_BYTES));
    assert!(refused.contains("416"), "{refused}");
    assert_eq!(server.seen().len(), 2);
    assert!(listing(dir.path()).is_empty(), "left behind: {:?}", listing(dir.path()));
}

/// `/hop/N/m.gguf` redirects to `/hop/N+1/m.gguf` until N reaches `last`, which serves the model.
fn redirecting_server(last: usize) -> Server {
    let bytes = model();
    serve(move |req| {
        let n: usize = req.path.split('/').nth(2).and_then(|n| n.parse().ok()).unwrap_or(0);
        if n >= last {
            answer("200 OK", &[], &bytes)
        } else if n.is_multiple_of(2) {
            answer("302 Found", &[("Location", format!("/hop/{}/m.gguf", n + 1))], b"")
        } else {
            answer("301 Moved Permanently", &[("Location", format!("../{}/m.gguf", n + 1))], b"")
        }
    })
}

#[test]
fn five_redirects_are_followed_and_a_sixth_is_refused() {
    let sha = Some(sha_hex(&model()));
    let server = redirecting_server(5);
    let dir = tempdir();
    run(&request(&format!("{}/hop/0/m.gguf", server.base), dir.path(), sha.clone()), DEFAULT_MAX_BYTES).unwrap_or_else(|e| panic!("{e}"));
    let paths: Vec<String> = server.seen().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, (0..=5).map(|n| format!("/hop/{n}/m.gguf")).collect::<Vec<_>>());

    let server = redirecting_server(6);
    let dir = tempdir();
    let refused = message(run(&request(&format!("{}/hop/0/m.gguf", server.base), dir.path(), sha), DEFAULT_MAX_BYTES));
    assert!(refused.contains("more than 5 redirects"), "{refused}");
    assert_eq!(server.seen().len(), 6, "the sixth redirect was not followed");
    assert!(listing(dir.path()).is_empty());
}

#[test]
fn a_redirect_to_a_scheme_other_than_http_is_refused() {
    let server = serve(|_| answer("302 Found", &[("Location", "ftp://example.org/m.gguf".into())], b""));
    let dir = tempdir();
    let refused = message(run(&request(&format!("{}/m.gguf", server.base), dir.path(), Some("0".repeat(64))), DEFAULT_MAX_BYTES));
    assert!(refused.contains("only http and https"), "{refused}");
    assert_eq!(server.seen().len(), 1);
}
