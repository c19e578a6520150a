//! Only what changed is parsed and embedded; deletions and moves reach every store.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use common::*;

fn search_paths(data: &std::path::Path, query: &str) -> Vec<String> {
    let out = run_ok(pagewise(data).args(["search", query, "--json", "--k", "20", "--mode", "lexical"]));
    json_lines(&out).iter().map(|h| h["doc_path"].as_str().unwrap().to_string()).collect()
}

#[test]
fn modify_delete_rename() {
    let data = tempfile::tempdir().unwrap();
    let f = fixtures();
    let docs = folder_with(&[
        ("known-answers.pdf", &f.join("known-answers.pdf")),
        ("notes.md", &f.join("notes.md")),
        ("sub/extra.txt", &f.join("notes.md")),
    ]);
    let root = docs.path();
    let first = index_json(data.path(), &[root]);
    assert_eq!(first["indexed"], 3, "{first}");

    // Nothing changed: nothing parsed or embedded.
    let again = index_json(data.path(), &[root]);
    assert_eq!((again["indexed"].as_u64(), again["unchanged"].as_u64(), again["embedded"].as_u64()), (Some(0), Some(3), Some(0)));

    // Touched but identical content: confirmed by hash, not re-parsed.
    let notes = root.join("notes.md");
    let content = std::fs::read_to_string(&notes).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&notes, &content).unwrap();
    let touched = index_json(data.path(), &[root]);
    assert_eq!(touched["indexed"], 0, "{touched}");

    // Modified: only that file, and only its new passage is embedded.
    std::fs::write(&notes, format!("{content}\n\n## Parking\nThe Zlin garage has 14 spaces for bicycles.\n")).unwrap();
    let modified = index_json(data.path(), &[root]);
    assert_eq!(modified["indexed"], 1, "{modified}");
    assert_eq!(modified["unchanged"], 2);
    let embedded = modified["embedded"].as_u64().unwrap();
    assert!((1..3).contains(&embedded), "re-embedded {embedded} chunks");
    assert!(search_paths(data.path(), "Zlin garage bicycles")[0].ends_with("notes.md"));

    // Renamed: no parse, no embedding, found under the new path only.
    std::fs::rename(root.join("known-answers.pdf"), root.join("sub/moved.pdf")).unwrap();
    let renamed = index_json(data.path(), &[root]);
    assert_eq!(renamed["renamed"], 1, "{renamed}");
    assert_eq!(renamed["embedded"], 0, "{renamed}");
    assert_eq!(renamed["removed"], 0, "{renamed}");
    let hits = search_paths(data.path(), "Larkspur bridge");
    assert!(hits[0].ends_with("sub/moved.pdf"), "{hits:?}");
    assert!(!hits.iter().any(|p| p.ends_with("/known-answers.pdf")));
    let vector = run_ok(pagewise(data.path()).args(["search", "Larkspur bridge", "--json", "--mode", "vector"]));
    assert!(json_lines(&vector)[0]["doc_path"].as_str().unwrap().ends_with("sub/moved.pdf"));

    // Deleted: gone from every store.
    std::fs::remove_file(root.join("sub/extra.txt")).unwrap();
    let deleted = index_json(data.path(), &[root]);
    assert_eq!(deleted["removed"], 1, "{deleted}");
    assert!(!search_paths(data.path(), "Ostrava office").iter().any(|p| p.ends_with("extra.txt")));
    let verify = run_ok(pagewise(data.path()).args(["verify", "--json"]));
    let c = json(&verify);
    assert_eq!(c["lexical_missing"], 0);
    assert_eq!(c["lexical_extra"], 0);
    assert_eq!(c["vectors_extra"], 0);
    assert_eq!(c["vectors_missing"], 0);
}

/// A library indexed before PDF text kept table cells apart reads its PDFs again, once: their
/// bytes did not change, their text did. Other files stay unchanged.
#[test]
fn pdfs_read_by_an_older_text_extraction_are_read_again_once() {
    let data = tempfile::tempdir().unwrap();
    let sample = folder_with(&[
        ("field-guide-solar-2024.pdf", &repo_root().join("assets/sample/field-guide-solar-2024.pdf")),
        ("team-handbook.md", &repo_root().join("assets/sample/team-handbook.md")),
    ]);
    let first = index_json(data.path(), &[sample.path()]);
    assert_eq!(first["indexed"], 2, "{first}");
    // What an older version left: the table row's cells joined by spaces, no marker.
    let db = rusqlite::Connection::open(data.path().join("pagewise.sqlite")).unwrap();
    let removed = db.execute("DELETE FROM meta WHERE key LIKE 'pdf_text:%'", []).unwrap();
    assert_eq!(removed, 1, "the root's marker was written");
    db.execute("UPDATE pages SET text = replace(text, char(9), ' ')", []).unwrap();
    drop(db);
    let tabbed = |data: &std::path::Path| -> i64 {
        rusqlite::Connection::open(data.join("pagewise.sqlite")).unwrap().query_row("SELECT count(*) FROM pages WHERE instr(text, char(9)) > 0", [], |r| r.get(0)).unwrap()
    };
    assert_eq!(tabbed(data.path()), 0);

    let upgraded = index_json(data.path(), &[sample.path()]);
    assert_eq!((upgraded["indexed"].as_u64(), upgraded["unchanged"].as_u64()), (Some(1), Some(1)), "only the PDF: {upgraded}");
    assert!(tabbed(data.path()) >= 1, "the table page is read with its cells apart");
    let again = index_json(data.path(), &[sample.path()]);
    assert_eq!((again["indexed"].as_u64(), again["unchanged"].as_u64()), (Some(0), Some(2)), "once: {again}");
    let out = run_ok(pagewise(data.path()).args(["extract", "--field", "capacity", "--json"]).arg(sample.path()));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"5,000\""), "the re-read table is extracted");
}

/// Markdown read before comments and link targets were dropped is read again, once; the PDF
/// beside it is not.
#[test]
fn markdown_read_by_an_older_reader_is_read_again_once() {
    let data = tempfile::tempdir().unwrap();
    let sample = folder_with(&[("field-guide-solar-2024.pdf", &repo_root().join("assets/sample/field-guide-solar-2024.pdf"))]);
    std::fs::write(
        sample.path().join("api.md"),
        "## `server.listen()`\n\n<!-- YAML\nadded: v0.1.90\n-->\n\nThe default backlog is 511 (see [`listen()`][]).\n\n[`listen()`]: #serverlisten\n",
    )
    .unwrap();
    let first = index_json(data.path(), &[sample.path()]);
    assert_eq!(first["indexed"], 2, "{first}");
    let markup = |data: &std::path::Path| -> i64 {
        rusqlite::Connection::open(data.join("pagewise.sqlite"))
            .unwrap()
            .query_row("SELECT count(*) FROM pages WHERE instr(text, 'YAML') > 0 OR instr(text, '#serverlisten') > 0", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(markup(data.path()), 0, "comments and link targets are not page text");
    // What an older version left: the Markdown as written, and no marker.
    let db = rusqlite::Connection::open(data.path().join("pagewise.sqlite")).unwrap();
    assert_eq!(db.execute("DELETE FROM meta WHERE key LIKE 'text_reading:%'", []).unwrap(), 1, "the root's marker was written");
    db.execute("UPDATE pages SET text = text || '<!-- YAML -->' WHERE document_id IN (SELECT id FROM documents WHERE format = 'markdown')", []).unwrap();
    drop(db);

    let upgraded = index_json(data.path(), &[sample.path()]);
    assert_eq!((upgraded["indexed"].as_u64(), upgraded["unchanged"].as_u64()), (Some(1), Some(1)), "only the Markdown: {upgraded}");
    assert_eq!(markup(data.path()), 0, "the Markdown is read again");
    let again = index_json(data.path(), &[sample.path()]);
    assert_eq!((again["indexed"].as_u64(), again["unchanged"].as_u64()), (Some(0), Some(2)), "once: {again}");
}
