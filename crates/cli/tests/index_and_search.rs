//! The CLI end to end over real stores, real PDFs through PDFium in the worker process, and
//! the real embedding model.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use common::*;

#[test]
fn known_questions_find_their_page() {
    let data = tempfile::tempdir().unwrap();
    let docs = folder_with(&[
        ("known-answers.pdf", &fixtures().join("known-answers.pdf")),
        ("notes.md", &fixtures().join("notes.md")),
    ]);
    let summary = index_json(data.path(), &[docs.path()]);
    assert_eq!(summary["indexed"], 2, "{summary}");
    assert_eq!(summary["pending_vectors"], 0);
    for (question, page) in [
        ("When did the Larkspur bridge open?", 1),
        ("How much water does the Harrow valley reservoir hold?", 2),
        ("How large is the mirror of the Kestrel observatory telescope?", 3),
    ] {
        for mode in ["hybrid", "lexical", "vector"] {
            let out = run_ok(pagewise(data.path()).args(["search", question, "--k", "3", "--json", "--mode", mode]));
            let hits = json_lines(&out);
            assert!(!hits.is_empty(), "{mode}: no hits for {question}");
            let top = &hits[0];
            assert!(top["doc_path"].as_str().unwrap().ends_with("known-answers.pdf"), "{mode} {question}: {top}");
            assert_eq!(top["page"], page, "{mode} {question}: {top}");
            for key in ["rank", "doc_title", "score", "chunk_id", "text"] {
                assert!(top.get(key).is_some(), "missing {key}");
            }
        }
    }
    let out = run_ok(pagewise(data.path()).args(["search", "Ostrava office Fridays", "--k", "1", "--json"]));
    assert!(json_lines(&out)[0]["doc_path"].as_str().unwrap().ends_with("notes.md"));
}

#[test]
fn bad_files_are_reported_and_the_rest_indexed() {
    let data = tempfile::tempdir().unwrap();
    let f = fixtures();
    let docs = folder_with(&[
        ("good.pdf", &f.join("known-answers.pdf")),
        ("encrypted.pdf", &f.join("encrypted.pdf")),
        ("not-a-pdf.pdf", &f.join("not-a-pdf.pdf")),
        ("truncated.pdf", &f.join("truncated.pdf")),
        ("empty.txt", &f.join("empty.txt")),
        ("binary.txt", &f.join("binary.txt")),
        ("scanned-no-text.pdf", &f.join("scanned-no-text.pdf")),
    ]);
    let summary = index_json(data.path(), &[docs.path()]);
    assert_eq!(summary["indexed"], 1, "{summary}");
    let reason = |name| failed_reason(&summary, name).unwrap_or_else(|| panic!("{name} not reported: {summary}"));
    assert!(reason("encrypted.pdf").contains("password"));
    assert!(reason("not-a-pdf.pdf").contains("malformed"));
    assert!(!reason("truncated.pdf").is_empty());
    assert!(reason("empty.txt").contains("empty"));
    assert!(reason("binary.txt").contains("binary"));
    assert!(reason("scanned-no-text.pdf").contains("no text layer"));
    // Unchanged failures are not retried, but still reported.
    let again = index_json(data.path(), &[docs.path()]);
    assert_eq!(again["indexed"], 0);
    assert_eq!(again["unchanged"], 1);
    assert_eq!(again["failed"].as_array().unwrap().len(), 6, "{again}");
}

#[test]
fn a_crashing_or_hanging_parser_costs_one_file() {
    let data = tempfile::tempdir().unwrap();
    let f = fixtures();
    let docs = folder_with(&[
        ("a-crash-worker.pdf", &f.join("known-answers.pdf")),
        ("b-hang-worker.pdf", &f.join("known-answers.pdf")),
        ("c-good.pdf", &f.join("known-answers.pdf")),
    ]);
    // Text formats are parsed in the worker too: a CSV or Markdown file that kills it costs
    // that file alone.
    std::fs::write(docs.path().join("d-crash-worker.csv"), "a,b\n1,2\n").unwrap();
    std::fs::write(docs.path().join("e-hang-worker.md"), "# Notes\n\nText.\n").unwrap();
    std::fs::write(docs.path().join("f-good.md"), "# Pump log\n\nThe Tarnwick pump was serviced.\n").unwrap();
    let out = run_ok(
        pagewise(data.path())
            .env("PAGEWISE_WORKER_FAULTS", "1")
            .args(["index", "--json", "--parse-timeout", "3"])
            .arg(docs.path()),
    );
    let summary = json(&out);
    assert_eq!(summary["indexed"], 2, "{summary}");
    assert!(failed_reason(&summary, "a-crash-worker.pdf").unwrap().contains("crashed"), "{summary}");
    assert!(failed_reason(&summary, "b-hang-worker.pdf").unwrap().contains("timed out"), "{summary}");
    assert!(failed_reason(&summary, "d-crash-worker.csv").unwrap().contains("crashed"), "{summary}");
    assert!(failed_reason(&summary, "e-hang-worker.md").unwrap().contains("timed out"), "{summary}");

    // A crash or a hang may be the machine's fault: the next run tries those files once more,
    // and after that leaves them alone until they change. A plain failure is not retried.
    let again = |data: &std::path::Path| {
        json(&run_ok(pagewise(data).env("PAGEWISE_WORKER_FAULTS", "1").args(["index", "--json", "--parse-timeout", "3"]).arg(docs.path())))
    };
    let second = again(data.path());
    assert_eq!(second["unchanged"], 2, "{second}");
    for name in ["a-crash-worker.pdf", "b-hang-worker.pdf", "d-crash-worker.csv", "e-hang-worker.md"] {
        let reason = failed_reason(&second, name).unwrap();
        assert!(!reason.contains("skipped until"), "{name} was not tried again: {reason}");
    }
    let third = again(data.path());
    for name in ["a-crash-worker.pdf", "b-hang-worker.pdf", "d-crash-worker.csv", "e-hang-worker.md"] {
        let reason = failed_reason(&third, name).unwrap();
        assert!(reason.contains("2 times; skipped until the file changes"), "{name}: {reason}");
    }
    // Changed, it is tried again.
    std::fs::write(docs.path().join("d-crash-worker.csv"), "a,b\n1,2\n3,4\n").unwrap();
    let fourth = again(data.path());
    assert!(!failed_reason(&fourth, "d-crash-worker.csv").unwrap().contains("skipped until"), "{fourth}");
}

#[test]
fn missing_models_are_named_with_the_fix() {
    let data = tempfile::tempdir().unwrap();
    let out = pagewise(data.path())
        .env("PAGEWISE_EMBED_MODEL", data.path().join("no-such-model"))
        .env("PAGEWISE_PDFIUM_LIB", data.path().join("libpdfium-missing.so"))
        .args(["index", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-model") && err.contains("model.safetensors"), "{err}");
    assert!(err.contains("libpdfium-missing.so"), "{err}");
    assert!(err.contains("models/fetch.sh"), "{err}");
}

#[test]
fn keyword_search_works_before_vectors_exist() {
    let data = tempfile::tempdir().unwrap();
    let docs = folder_with(&[("known-answers.pdf", &fixtures().join("known-answers.pdf"))]);
    let out = run_ok(pagewise(data.path()).args(["index", "--json", "--no-embed"]).arg(docs.path()));
    let summary = json(&out);
    assert!(summary["pending_vectors"].as_u64().unwrap() > 0);
    let out = run_ok(pagewise(data.path()).args(["search", "Larkspur bridge", "--json"]));
    assert_eq!(json_lines(&out)[0]["page"], 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains("still being embedded"));
    let summary = index_json(data.path(), &[docs.path()]);
    assert_eq!(summary["pending_vectors"], 0, "{summary}");
    let out = run_ok(pagewise(data.path()).args(["search", "Larkspur bridge", "--json"]));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("still being embedded"));
}

#[test]
fn scope_limits_search_to_a_folder_or_document() {
    let data = tempfile::tempdir().unwrap();
    let f = fixtures();
    let docs = folder_with(&[
        ("one/known-answers.pdf", &f.join("known-answers.pdf")),
        ("two/known-answers-copy.pdf", &f.join("known-answers.pdf")),
        ("two/notes.md", &f.join("notes.md")),
    ]);
    index_json(data.path(), &[docs.path()]);
    let all = json_lines(&run_ok(pagewise(data.path()).args(["search", "Larkspur bridge", "--json", "--k", "20"])));
    let paths = |hits: &[serde_json::Value]| -> Vec<String> { hits.iter().map(|h| h["doc_path"].as_str().unwrap().to_string()).collect() };
    assert!(paths(&all).iter().any(|p| p.contains("/one/")) && paths(&all).iter().any(|p| p.contains("/two/")));
    for mode in ["hybrid", "lexical", "vector"] {
        let scoped = run_ok(pagewise(data.path()).args(["search", "Larkspur bridge", "--json", "--k", "20", "--mode", mode, "--scope"]).arg(docs.path().join("two")));
        let scoped = paths(&json_lines(&scoped));
        assert!(!scoped.is_empty() && scoped.iter().all(|p| p.contains("/two/")), "{mode}: {scoped:?}");
        let one_doc = run_ok(pagewise(data.path()).args(["search", "office", "--json", "--mode", mode, "--scope"]).arg(docs.path().join("two/notes.md")));
        let one_doc = paths(&json_lines(&one_doc));
        assert!(!one_doc.is_empty() && one_doc.iter().all(|p| p.ends_with("two/notes.md")), "{mode}: {one_doc:?}");
    }
}

#[test]
fn eval_scores_the_sample_questions_by_page() {
    let data = tempfile::tempdir().unwrap();
    let sample = repo_root().join("assets/sample");
    index_json(data.path(), &[sample.as_path()]);
    let questions = repo_root().join("assets/sample-questions.jsonl");
    let report = json(&run_ok(pagewise_dev(data.path()).args(["eval", "--json", "--k", "5"]).arg(&questions)));
    assert_eq!(report["questions"], 5);
    let modes = report["modes"].as_array().unwrap();
    assert_eq!(modes.iter().map(|m| m["mode"].as_str().unwrap()).collect::<Vec<_>>(), ["lexical", "vector", "hybrid"]);
    let hybrid = &modes[2];
    assert_eq!(hybrid["recall_at_5"], 1.0, "{report}");
    assert!(hybrid["mrr_at_10"].as_f64().unwrap() >= 0.6, "{report}");
    // A question whose evidence is not indexed scores zero rather than failing.
    let other = data.path().join("other.jsonl");
    std::fs::write(&other, r#"{"id":"x","question":"Larkspur bridge","evidence":[{"doc":"not-indexed","page":1}]}"#).unwrap();
    let report = json(&run_ok(pagewise_dev(data.path()).args(["eval", "--json"]).arg(&other)));
    assert_eq!(report["modes"][2]["recall_at_10"], 0.0);
}

#[test]
fn a_users_folder_is_never_taken_as_a_data_dir() {
    // A folder of the user's that happens to hold a `lexical` folder: indexing into it is
    // refused and nothing in it is touched.
    let users = tempfile::tempdir().unwrap();
    std::fs::create_dir(users.path().join("lexical")).unwrap();
    std::fs::write(users.path().join("lexical/notes.txt"), "my notes").unwrap();
    let docs = repo_root().join("assets/sample");
    let out = pagewise(users.path()).args(["index", "--no-embed"]).arg(&docs).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a Pagewise data folder"), "{stderr}");
    assert_eq!(std::fs::read_to_string(users.path().join("lexical/notes.txt")).unwrap(), "my notes");
    let names: Vec<String> = std::fs::read_dir(users.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["lexical"]);

    // In a data dir of ours, a user's file put into the keyword index folder is not deleted
    // when that index must be rebuilt: the run stops and says why.
    let data = tempfile::tempdir().unwrap();
    run_ok(pagewise(data.path()).args(["index", "--no-embed"]).arg(&docs));
    assert!(data.path().join(".pagewise-data").is_file());
    let lexical = data.path().join("lexical");
    for entry in std::fs::read_dir(&lexical).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().unwrap() == "meta.json" {
            std::fs::write(&path, "not tantivy").unwrap();
        }
    }
    std::fs::write(lexical.join("keep-me.txt"), "mine").unwrap();
    let out = pagewise(data.path()).args(["index", "--no-embed"]).arg(&docs).output().unwrap();
    assert!(!out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a keyword index"), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(lexical.join("keep-me.txt")).unwrap(), "mine");
    // Without the stranger, the broken keyword index is rebuilt from SQLite.
    std::fs::remove_file(lexical.join("keep-me.txt")).unwrap();
    run_ok(pagewise(data.path()).args(["index", "--no-embed"]).arg(&docs));
    let out = run_ok(pagewise(data.path()).args(["search", "Kettlewick", "--mode", "lexical", "--json"]));
    assert!(!json_lines(&out).is_empty());
}

#[test]
#[cfg(target_os = "linux")]
fn the_parser_runs_without_network_sockets_environment_writes_or_reads_by_path() {
    use std::os::unix::fs::PermissionsExt;
    // A file named to make the worker probe its own sandbox (test builds only): it tries what
    // a parser taken over by a hostile file would, and reports each outcome with its errno.
    let data = tempfile::tempdir().unwrap();
    let docs = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    // A listening socket like the session bus, and a file of the user's outside the folders.
    let bus = elsewhere.path().join("bus");
    let _listener = std::os::unix::net::UnixListener::bind(&bus).unwrap();
    let outside = elsewhere.path().join("notes.txt");
    std::fs::write(&outside, "keep me").unwrap();
    std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o600)).unwrap();
    let probe = format!("# Probe\n\nunix: {}\noutside: {}\n", bus.display(), outside.display());
    std::fs::write(docs.path().join("sandbox-probe.md"), probe).unwrap();
    std::fs::write(docs.path().join("ordinary.md"), "# Pump log\n\nThe Tarnwick pump was serviced.\n").unwrap();
    let summary = json(&run_ok(
        pagewise(data.path()).env("PAGEWISE_WORKER_FAULTS", "1").env("PAGEWISE_API_KEY", "sk-probe-secret").args(["index", "--json", "--no-embed"]).arg(docs.path()),
    ));
    let report = failed_reason(&summary, "sandbox-probe.md").unwrap_or_else(|| panic!("{summary}"));
    let outcome = |what: &str| report.split("; ").find_map(|p| p.strip_prefix(&format!("{what}: "))).unwrap_or_else(|| panic!("{what} missing: {report}")).to_string();
    // Refused by the sandbox (EACCES), not by a closed port, a missing file or a dead socket.
    for what in ["tcp", "udp", "write", "read by path", "unix socket", "abstract socket", "chmod", "truncate", "setxattr", "exec"] {
        let got = outcome(what);
        assert!(got.starts_with("refused") && got.contains("os error 13"), "{what}: {got}");
    }
    let signal = outcome("signal parent");
    assert!(signal.contains("os error 1)"), "signals reach only the worker itself: {signal}");
    assert_eq!(outcome("read by handle"), "allowed");
    assert_eq!(outcome("env key"), "absent", "the API key stays with the parent");
    assert!(!docs.path().join("sandbox-probe.written").exists());
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
    assert_eq!(std::fs::metadata(&outside).unwrap().permissions().mode() & 0o777, 0o600);
    // The sandboxed worker still parses: the ordinary file is indexed.
    assert_eq!(summary["indexed"], 1, "{summary}");
}

#[test]
#[cfg(target_os = "linux")]
fn a_sandbox_without_landlock_is_named_and_nothing_is_parsed_until_accepted() {
    // The worker starts as on a kernel without Landlock (test builds only).
    let data = tempfile::tempdir().unwrap();
    let docs = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("pump.md"), "# Pump log\n\nThe Tarnwick pump was serviced.\n").unwrap();
    let weak = |cmd: &mut std::process::Command| -> std::process::Output { cmd.env("PAGEWISE_SANDBOX_SKIP", "landlock").output().unwrap() };
    let refused = weak(pagewise(data.path()).args(["index", "--json", "--no-embed"]).arg(docs.path()));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && stderr.contains("sandbox is incomplete") && stderr.contains("--accept-weak-sandbox"), "{stderr}");
    let status = weak(pagewise(data.path()).args(["status", "--json"]));
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap_or_else(|e| panic!("{e}: {status:?}"));
    let missing = status["sandbox"]["missing"].as_array().unwrap_or_else(|| panic!("{status}"));
    assert!(missing.len() == 1 && missing[0].as_str().unwrap().contains("Landlock"), "{status}");
    assert_eq!(status["sandbox"]["applied"]["files"], false);
    // Nothing was started, so no file is marked as failed.
    assert_eq!(status["folders"][0]["failed"], serde_json::json!([]), "{status}");
    let text = weak(pagewise(data.path()).arg("status"));
    assert!(String::from_utf8_lossy(&text.stdout).contains("Parser sandbox: INCOMPLETE"), "{text:?}");

    let accepted = weak(pagewise(data.path()).args(["index", "--json", "--no-embed", "--accept-weak-sandbox"]).arg(docs.path()));
    assert!(accepted.status.success(), "{}", String::from_utf8_lossy(&accepted.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&accepted.stdout).unwrap();
    assert_eq!(summary["indexed"], 1, "{summary}");
    // With every layer, the same machine reports nothing missing.
    let full = json(&run_ok(pagewise(data.path()).args(["status", "--json"])));
    assert_eq!(full["sandbox"]["missing"], serde_json::json!([]), "{full}");
    assert_eq!(full["sandbox"]["applied"]["files"], true);
}

#[test]
#[cfg(target_os = "linux")]
fn a_full_disk_stops_the_run_cleanly_and_the_next_run_completes() {
    // 40 notes of about 50 KB each, indexed onto a 32 MB tmpfs that a filler file has left
    // about 1 MB of: the disk fills mid-run. The tmpfs is mounted in a user and mount
    // namespace (`unshare -rm`), so the test needs no privileges and leaves no mount behind.
    let docs = tempfile::tempdir().unwrap();
    for i in 0..40 {
        let body: String = (0..700).map(|j| format!("Line {j} of note {i}: the Tarnwick pump at site {i} logged {} kWh.\n", i * 1000 + j)).collect();
        std::fs::write(docs.path().join(format!("note-{i:02}.md")), format!("# Note {i}\n\n{body}")).unwrap();
    }
    let mount = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let script = r#"
        set -u
        mount -t tmpfs -o size=32m tmpfs "$MNT" || exit 90
        head -c 32505856 /dev/zero > "$MNT/filler"
        "$BIN" index --no-embed --json --data-dir "$MNT/data" "$DOCS" > "$OUT/first.json" 2> "$OUT/first.err"; echo $? > "$OUT/first.rc"
        "$BIN" verify --json --data-dir "$MNT/data" > "$OUT/verify-full.json" 2> "$OUT/verify-full.err"
        rm "$MNT/filler"
        "$BIN" verify --json --data-dir "$MNT/data" > "$OUT/verify-repaired.json" 2> "$OUT/verify-repaired.err"; echo $? > "$OUT/verify-repaired.rc"
        "$BIN" index --no-embed --json --data-dir "$MNT/data" "$DOCS" > "$OUT/second.json" 2> "$OUT/second.err"; echo $? > "$OUT/second.rc"
        "$BIN" verify --json --data-dir "$MNT/data" > "$OUT/verify-freed.json"
        "$BIN" status --json --data-dir "$MNT/data" > "$OUT/status.json"
        "$BIN" search "note 17" --mode lexical --json --k 1 --data-dir "$MNT/data" > "$OUT/search.json"
    "#;
    let status = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", script])
        .env("MNT", mount.path())
        .env("OUT", out.path())
        .env("DOCS", docs.path())
        .env("BIN", env!("CARGO_BIN_EXE_pagewise"))
        .env("PAGEWISE_MODELS_DIR", repo_root().join("models"))
        .status()
        .unwrap();
    assert!(status.success(), "the script itself failed: {status:?}");
    let read = |name: &str| std::fs::read_to_string(out.path().join(name)).unwrap();
    // The full disk stops the run with a clear reason...
    assert_ne!(read("first.rc").trim(), "0", "indexing onto a full disk succeeded: {}", read("first.json"));
    let err = read("first.err");
    assert!(err.contains("No space left on device") || err.contains("disk is full"), "{err}");
    // ...and nothing committed is lost. On the full disk verify cannot repair, so it checks
    // read-only: SQLite is intact and every chunk it has is in the keyword index. The keyword
    // index may hold the batch SQLite could not commit (it commits first); search ignores
    // such entries and the next open removes them.
    let consistent = |v: &serde_json::Value| {
        v["sqlite_integrity_ok"] == true && ["lexical_missing", "lexical_extra", "lexical_duplicates", "vectors_missing", "vectors_extra"].iter().all(|k| v[*k] == 0)
    };
    let full: serde_json::Value = serde_json::from_str(&read("verify-full.json")).unwrap_or_else(|e| panic!("{e}: {} {}", read("verify-full.json"), read("verify-full.err")));
    assert!(read("verify-full.err").contains("checking it read-only"), "{}", read("verify-full.err"));
    assert!(full["sqlite_integrity_ok"] == true && full["lexical_missing"] == 0 && full["vectors_missing"] == 0, "{full}");
    // With space again, verify repairs on open and is clean.
    let repaired: serde_json::Value = serde_json::from_str(&read("verify-repaired.json")).unwrap();
    assert_eq!(read("verify-repaired.rc").trim(), "0", "{repaired} {}", read("verify-repaired.err"));
    assert!(consistent(&repaired), "{repaired}");
    // With space again, the next run completes and nothing is lost.
    assert_eq!(read("second.rc").trim(), "0", "{}", read("second.err"));
    let freed: serde_json::Value = serde_json::from_str(&read("verify-freed.json")).unwrap();
    assert!(consistent(&freed), "{freed}");
    let status: serde_json::Value = serde_json::from_str(&read("status.json")).unwrap();
    let folder = &status["folders"][0];
    assert_eq!((folder["files"].as_u64(), folder["indexed"].as_u64(), folder["pending"].as_u64()), (Some(40), Some(40), Some(0)), "{status}");
    assert!(folder["failed"].as_array().unwrap().is_empty(), "{status}");
    let hit: serde_json::Value = serde_json::from_str(read("search.json").lines().next().unwrap()).unwrap();
    assert!(hit["doc_path"].as_str().unwrap().ends_with("note-17.md"), "{hit}");
}

#[test]
#[cfg(target_os = "linux")]
fn the_data_dir_is_private_and_a_link_swapped_in_after_the_scan_is_not_rendered() {
    use std::os::unix::fs::PermissionsExt;
    let parent = tempfile::tempdir().unwrap();
    // Made by Pagewise (a temp dir is already private).
    let data = parent.path().join("index");
    let home = tempfile::tempdir().unwrap();
    let docs = home.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    std::fs::copy(fixtures().join("known-answers.pdf"), docs.join("report.pdf")).unwrap();
    // A visible name under a watched folder that leads into a hidden one (a key, a token).
    std::fs::create_dir(docs.join(".ssh")).unwrap();
    std::fs::write(docs.join(".ssh/id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY----- secret").unwrap();
    std::os::unix::fs::symlink(docs.join(".ssh/id_ed25519"), docs.join("notes.txt")).unwrap();
    let summary = json(&run_ok(pagewise(&data).args(["index", "--json", "--no-embed"]).arg(&docs)));
    assert_eq!(summary["indexed"], 1, "only the report; the link into .ssh is hidden: {summary}");

    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&data), 0o700, "data dir");
    assert_eq!(mode(&data.join("pagewise.sqlite")), 0o600, "metadata store");

    // The stored (canonical) path renders; the same path swapped for a link to a file outside
    // the folders is refused.
    let stored = docs.canonicalize().unwrap().join("report.pdf");
    run_ok(pagewise_dev(&data).args(["render", "--width", "200"]).arg(&stored));
    let outside = home.path().join("private.pdf");
    std::fs::copy(fixtures().join("known-answers.pdf"), &outside).unwrap();
    std::fs::remove_file(&stored).unwrap();
    std::os::unix::fs::symlink(&outside, &stored).unwrap();
    let refused = pagewise_dev(&data).args(["render", "--width", "200"]).arg(&stored).output().unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && stderr.contains("passes through a link"), "{stderr}");
}

#[test]
fn search_facets_narrow_by_type_and_language() {
    let data = tempfile::tempdir().unwrap();
    let docs = folder_with(&[("known-answers.pdf", &fixtures().join("known-answers.pdf"))]);
    std::fs::write(docs.path().join("桥梁笔记.md"), "# 桥梁笔记\n\nLarkspur 大桥于 1931 年通车，这座桥梁横跨河流，是当地交通的重要枢纽。\n").unwrap();
    let summary = json(&run_ok(pagewise(data.path()).args(["index", "--json", "--no-embed"]).arg(docs.path())));
    assert_eq!(summary["indexed"], 2, "{summary}");
    let found = |extra: &[&str]| -> Vec<String> {
        let out = run_ok(pagewise(data.path()).args(["search", "Larkspur", "--mode", "lexical", "--json", "--k", "20"]).args(extra));
        let mut names: Vec<String> = json_lines(&out).iter().map(|h| h["doc_path"].as_str().unwrap().rsplit('/').next().unwrap().to_string()).collect();
        names.sort();
        names.dedup();
        names
    };
    assert_eq!(found(&[]), ["known-answers.pdf", "桥梁笔记.md"]);
    assert_eq!(found(&["--type", "md"]), ["桥梁笔记.md"]);
    assert_eq!(found(&["--type", "PDF"]), ["known-answers.pdf"]);
    assert_eq!(found(&["--lang", "zh"]), ["桥梁笔记.md"]);
    assert_eq!(found(&["--lang", "en", "--type", "md"]), Vec::<String>::new());
    assert_eq!(found(&["--year", "1850"]), Vec::<String>::new());
}

#[test]
fn questions_about_the_library_are_answered_from_the_index_with_citations() {
    let data = tempfile::tempdir().unwrap();
    let sample = repo_root().join("assets/sample");
    let summary = json(&run_ok(pagewise(data.path()).args(["index", "--json", "--no-embed"]).arg(&sample)));
    assert_eq!(summary["indexed"], 3, "{summary}");
    let ask = |q: &str| json(&run_ok(pagewise(data.path()).args(["ask", q, "--json", "--extractive"])));
    let listed = |a: &serde_json::Value| -> Vec<String> {
        let mut names: Vec<String> = a["citations"].as_array().unwrap().iter().map(|c| c["doc_path"].as_str().unwrap().rsplit('/').next().unwrap().to_string()).collect();
        names.sort();
        names.dedup();
        names
    };

    let on_call = ask("Which documents mention on-call?");
    assert_eq!(on_call["mode"], "library", "{on_call}");
    assert!(on_call["answer"].as_str().unwrap().starts_with("2 documents mention “on-call”"), "{on_call}");
    assert_eq!(listed(&on_call), ["meeting-notes.txt", "team-handbook.md"]);
    for c in on_call["citations"].as_array().unwrap() {
        assert!(c["quote"].as_str().unwrap().to_lowercase().contains("on-call"), "each document is cited where it says it: {c}");
    }
    let none = ask("which files talk about submarines?");
    assert_eq!(none["mode"], "library");
    assert!(none["answer"].as_str().unwrap().starts_with("No document mentions “submarines”"), "{none}");

    let pdfs = ask("How many PDFs do I have?");
    assert_eq!(pdfs["mode"], "library", "{pdfs}");
    assert!(pdfs["answer"].as_str().unwrap().starts_with("The library holds 1 document of type pdf"), "{pdfs}");
    assert_eq!(listed(&pdfs), ["field-guide-solar-2024.pdf"]);

    let added = ask("What did I add this week?");
    assert!(added["answer"].as_str().unwrap().starts_with("3 documents were added in the last 7 days"), "{added}");
    assert_eq!(listed(&added).len(), 3);

    let zh = ask("哪些文档提到了on-call？");
    assert!(zh["answer"].as_str().unwrap().starts_with("2 份文档提到“on-call”"), "{zh}");

    // A question about what a document says is not a question about the library.
    let ordinary = ask("How many members did the cooperative have at the end of 2024?");
    assert_ne!(ordinary["mode"], "library", "{ordinary}");
}
