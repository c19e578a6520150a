//! Identical files are one source with several locations, and the same library gives the same
//! ranking and citations however it was indexed (worker count, file creation order).

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use std::path::Path;

use common::*;

const QUESTION: &str = "How large is the mirror of the Kestrel observatory telescope?";

fn search(data: &Path, query: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut cmd = pagewise(data);
    cmd.args(["search", query, "--json", "--k", "8"]).args(extra);
    json_lines(&run_ok(&mut cmd))
}

fn ask(data: &Path, extra: &[&str]) -> serde_json::Value {
    let mut cmd = pagewise(data);
    cmd.args(["ask", QUESTION, "--json", "--extractive"]).args(extra);
    json(&run_ok(&mut cmd))
}

fn path_of(v: &serde_json::Value) -> &str {
    v["doc_path"].as_str().unwrap()
}

#[test]
fn identical_files_are_cited_from_the_location_added_first() {
    let data = tempfile::tempdir().unwrap();
    let first = folder_with(&[("known-answers.pdf", &fixtures().join("known-answers.pdf"))]);
    let second = folder_with(&[("copy-of-answers.pdf", &fixtures().join("known-answers.pdf"))]);
    let first_pdf = first.path().join("known-answers.pdf").canonicalize().unwrap();
    let second_pdf = second.path().join("copy-of-answers.pdf").canonicalize().unwrap();
    index_json(data.path(), &[first.path()]);
    // The copy is added later: it is another location of the same source.
    assert_eq!(index_json(data.path(), &[second.path()])["indexed"], 1);

    let hits = search(data.path(), "Kestrel observatory mirror", &[]);
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| path_of(h) == first_pdf.to_str().unwrap()), "only the first location is listed: {hits:#?}");
    assert_eq!(hits[0]["also_in"], serde_json::json!([second_pdf]), "the copy is named as another location");
    let plain = String::from_utf8(run_ok(pagewise(data.path()).args(["search", "Kestrel observatory mirror"])).stdout).unwrap();
    assert!(plain.contains(&format!("also in: {}", second_pdf.display())), "{plain}");

    let answer = ask(data.path(), &[]);
    let cited = &answer["citations"][0];
    assert_eq!(path_of(cited), first_pdf.to_str().unwrap(), "{answer:#}");
    assert_eq!(cited["page"], 3);
    assert_eq!(cited["also_in"], serde_json::json!([second_pdf]));

    // Scoped to the copy's folder, the copy is what is cited.
    let scoped = ask(data.path(), &["--scope", second.path().to_str().unwrap()]);
    assert_eq!(path_of(&scoped["citations"][0]), second_pdf.to_str().unwrap(), "{scoped:#}");

    // Deleting the first location keeps the other.
    std::fs::remove_file(&first_pdf).unwrap();
    let report = index_json(data.path(), &[first.path()]);
    assert_eq!(report["removed"], 1, "{report}");
    let after = ask(data.path(), &[]);
    assert_eq!(path_of(&after["citations"][0]), second_pdf.to_str().unwrap(), "{after:#}");
    assert!(after["citations"][0].get("also_in").is_none(), "no other location is left: {after:#}");
}

/// A library laid out in two folders, with a duplicate in each, written in the given order.
fn library(reverse: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<(&str, std::path::PathBuf)> = vec![
        ("a/known-answers.pdf", fixtures().join("known-answers.pdf")),
        ("a/notes.md", fixtures().join("notes.md")),
        ("b/duplicate.pdf", fixtures().join("known-answers.pdf")),
        ("b/field-guide.pdf", repo_root().join("assets/sample/field-guide-solar-2024.pdf")),
        ("b/handbook.md", repo_root().join("assets/sample/team-handbook.md")),
    ];
    if reverse {
        files.reverse();
    }
    for (name, src) in files {
        let dest = dir.path().join(name);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(src, dest).unwrap();
    }
    dir
}

/// What must be the same on any machine: ranks, documents, pages and chunk ids (paths
/// relative to the library), and which passages an answer cites.
fn fingerprint(data: &Path, root: &Path) -> Vec<String> {
    let rel = |p: &str| p.strip_prefix(root.canonicalize().unwrap().to_str().unwrap()).unwrap_or(p).to_string();
    let mut out = Vec::new();
    for q in ["mirror size telescope", "installed capacity", "on-call stipend", "bridge opened"] {
        for h in search(data, q, &[]) {
            out.push(format!("{q} #{} {} p{} {}", h["rank"], rel(path_of(&h)), h["page"], h["chunk_id"]));
        }
    }
    let answer = ask(data, &[]);
    for c in answer["citations"].as_array().unwrap() {
        out.push(format!("cite {} p{} {}..{}", rel(path_of(c)), c["page"], c["byte_start"], c["byte_end"]));
    }
    out
}

#[test]
fn the_same_library_ranks_and_cites_the_same_however_it_was_indexed() {
    let forward = library(false);
    let backward = library(true);
    let (one, many) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run_ok(pagewise(one.path()).env("PAGEWISE_PARSE_WORKERS", "1").args(["index", "--json"]).arg(forward.path()));
    run_ok(pagewise(many.path()).env("PAGEWISE_PARSE_WORKERS", "3").args(["index", "--json"]).arg(backward.path()));
    let a = fingerprint(one.path(), forward.path());
    let b = fingerprint(many.path(), backward.path());
    assert!(a.len() > 20, "{a:#?}");
    assert_eq!(a, b);
    // The duplicate is cited from the folder that sorts first, whichever was written first.
    assert!(a.iter().any(|l| l.starts_with("cite /a/known-answers.pdf p3")), "{a:#?}");
}
