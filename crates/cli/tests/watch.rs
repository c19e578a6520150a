//! `pagewise watch` keeps a folder in sync while `pagewise search` and `status` run from other
//! processes against the same data dir; Ctrl-C ends it cleanly.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::*;

/// Whether a search from another process finds `name` (false while there is no index yet).
fn found(data: &Path, query: &str, name: &str) -> bool {
    let out = pagewise(data).args(["search", query, "--json", "--mode", "lexical"]).output().unwrap();
    out.status.success() && json_lines(&out).iter().any(|h| h["doc_path"].as_str().is_some_and(|p| p.ends_with(name)))
}

/// Kills the watcher if the test fails before it ends it.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(30);
    while !check() {
        assert!(Instant::now() < until, "timed out: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn watch_applies_creates_edits_moves_and_deletes_while_others_read() {
    let docs = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("start.md"), "# Start\n\nThe Halvorsen dam was inspected.\n").unwrap();
    let mut watch = Child(pagewise(data.path()).arg("watch").arg(docs.path()).stdout(std::process::Stdio::null()).spawn().unwrap());

    eventually("the folder is indexed", || found(data.path(), "Halvorsen", "start.md"));
    let sub = docs.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("pump.md"), "# Pump\n\nThe Quorvan valve was replaced.\n").unwrap();
    eventually("a new file in a new folder", || found(data.path(), "Quorvan", "pump.md"));
    std::fs::write(sub.join("pump.md"), "# Pump\n\nThe Tessaly valve was replaced.\n").unwrap();
    eventually("an edit replaces the old version", || found(data.path(), "Tessaly", "pump.md") && !found(data.path(), "Quorvan", "pump.md"));
    let history = json(&run_ok(pagewise(data.path()).arg("history").arg(sub.join("pump.md")).arg("--json")));
    let versions = history["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 2, "both versions are kept: {history:#}");
    assert_ne!(versions[0]["content_hash"], versions[1]["content_hash"]);
    std::fs::rename(&sub, docs.path().join("moved")).unwrap();
    eventually("a moved folder", || found(data.path(), "Tessaly", "moved/pump.md") && !found(data.path(), "Tessaly", "sub/pump.md"));
    std::fs::remove_file(docs.path().join("start.md")).unwrap();
    eventually("a deleted file leaves search", || !found(data.path(), "Halvorsen", "start.md"));

    let status = json(&run_ok(pagewise(data.path()).args(["status", "--json"])));
    let folder = &status["folders"][0];
    assert_eq!(folder["files"], 1, "{status:#}");
    assert_eq!(folder["indexed"], 1, "{status:#}");
    assert_eq!(folder["pending"], 0, "{status:#}");
    assert!(status["stores"]["sqlite_bytes"].as_u64().unwrap() > 0);

    // SAFETY: sending SIGINT to our own child process.
    unsafe { libc::kill(watch.0.id() as i32, libc::SIGINT) };
    let exit = watch.0.wait().unwrap();
    assert!(exit.success(), "watch ends cleanly on Ctrl-C: {exit}");
    let verify = json(&run_ok(pagewise(data.path()).args(["verify", "--json"])));
    assert_eq!(verify["lexical_missing"], 0);
    assert_eq!(verify["vectors_missing"], 0);
}
