//! SIGKILL at arbitrary moments never leaves stores that disagree, and the next run completes.
//! `PAGEWISE_KILLS` sets the number of kills (CI runs a few; bench/kill-test.sh runs 50+).

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use std::time::Duration;

use common::*;

fn mixed_folder() -> tempfile::TempDir {
    let f = fixtures();
    let sample = repo_root().join("assets/sample");
    let dir = folder_with(&[
        ("a/known-answers.pdf", &f.join("known-answers.pdf")),
        ("a/notes.md", &f.join("notes.md")),
        ("b/field-guide.pdf", &sample.join("field-guide-solar-2024.pdf")),
        ("b/handbook.md", &sample.join("team-handbook.md")),
        ("b/meeting-notes.txt", &sample.join("meeting-notes.txt")),
        ("c/encrypted.pdf", &f.join("encrypted.pdf")),
    ]);
    for i in 0..30 {
        let text = format!("# Report {i}\n\nUnit {i} measured {} widgets in week {}.\n\n{}", i * 37, i % 52, "Filler sentence about logistics. ".repeat(40 + i));
        std::fs::write(dir.path().join(format!("c/report-{i:02}.md")), text).unwrap();
    }
    dir
}

#[test]
fn sigkill_during_indexing_leaves_consistent_stores() {
    let kills: u64 = std::env::var("PAGEWISE_KILLS").ok().and_then(|v| v.parse().ok()).unwrap_or(6);
    let docs = mixed_folder();
    let data = tempfile::tempdir().unwrap();
    // A fixed xorshift sequence: random moments, reproducible failures.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for round in 0..kills {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let delay = Duration::from_millis(300 + state % 4000);
        // Every third round edits files so kills also land in updates and deletions.
        if round % 3 == 2 {
            let victim = docs.path().join(format!("c/report-{:02}.md", round % 30));
            if victim.exists() {
                std::fs::remove_file(&victim).unwrap();
            } else {
                std::fs::write(&victim, format!("# Report again\n\nRound {round} rewrote this file.")).unwrap();
            }
        }
        let mut child = pagewise(data.path()).arg("index").arg(docs.path()).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
        std::thread::sleep(delay);
        let _ = child.kill();
        let _ = child.wait();
        let verify = pagewise(data.path()).args(["verify", "--json"]).output().unwrap();
        assert!(verify.status.success(), "round {round} after {delay:?}: {}\n{}", String::from_utf8_lossy(&verify.stdout), String::from_utf8_lossy(&verify.stderr));
    }
    let done = index_json(data.path(), &[docs.path()]);
    assert_eq!(done["pending_vectors"], 0, "{done}");
    assert_eq!(done["interrupted"], false);
    let c = json(&run_ok(pagewise(data.path()).args(["verify", "--json"])));
    // The same folder indexed cleanly must give the same passages.
    let clean = tempfile::tempdir().unwrap();
    index_json(clean.path(), &[docs.path()]);
    let c_clean = json(&run_ok(pagewise(clean.path()).args(["verify", "--json"])));
    assert_eq!(c["chunks"], c_clean["chunks"], "{c} vs {c_clean}");
    let hits = json_lines(&run_ok(pagewise(data.path()).args(["search", "Harrow valley reservoir", "--json", "--k", "1"])));
    assert_eq!(hits[0]["page"], 2);
}

#[test]
fn ctrl_c_stops_cleanly_and_the_next_run_resumes() {
    let docs = mixed_folder();
    let data = tempfile::tempdir().unwrap();
    let child = pagewise(data.path()).arg("index").arg(docs.path()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    // SAFETY: sends SIGINT to our own child process.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let code = out.status.code();
    assert!(code == Some(130) || code == Some(0), "{:?}: {}", code, String::from_utf8_lossy(&out.stderr));
    if code == Some(130) {
        assert!(String::from_utf8_lossy(&out.stdout).contains("interrupted"));
    }
    run_ok(pagewise(data.path()).args(["verify", "--json"]));
    let resumed = index_json(data.path(), &[docs.path()]);
    assert_eq!(resumed["pending_vectors"], 0, "{resumed}");
    assert_eq!(resumed["interrupted"], false);
}
