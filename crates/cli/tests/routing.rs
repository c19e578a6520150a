//! Document facets through the real stores and routing through the real search: reports of
//! two organisations for two years written from one template, where only the facets tell
//! which document a question is about.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

mod common;

use std::path::Path;

use common::*;

fn report(org: &str, year: u32, staff: u32, revenue: &str) -> String {
    format!(
        "# {org} Annual Report {year}\n\nThis annual report covers the financial year ended 31 December {year}. \
         {org} builds harbour cranes.\n\n## People\n\n{org} employed {staff} people at the end of the year.\n\n\
         ## Results\n\nRevenue for the year was {revenue} million euros.\n"
    )
}

fn library() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("acme/report-a.md", report("Acme Cranes Ltd.", 2022, 140, "21.4")),
        ("acme/report-b.md", report("Acme Cranes Ltd.", 2023, 188, "29.9")),
        ("globex/annual.md", report("Globex Lifting Inc.", 2022, 75, "11.0")),
        ("globex/annual-2.md", report("Globex Lifting Inc.", 2023, 81, "12.5")),
        (
            "acme/safety.txt",
            "Acme Cranes Ltd. safety notes\n\nHow often are cranes inspected for safety? Crane safety inspections \
             happen every month, and every crane is load-tested once a year.\n"
                .to_string(),
        ),
        ("globex/site-rules.txt", "Globex Lifting Inc. site rules\n\nCranes are inspected each quarter. Staff wear helmets on the quay.\n".to_string()),
        (
            "acme/lease.md",
            "# Lease agreement\n\nThis Agreement is made on 3 March 2021 between Harbour Estates Ltd. and Acme Cranes Ltd. \
             The parties agree that the rent is 96,000 euros a year and that either party may end this Agreement with six months' notice.\n"
                .to_string(),
        ),
    ];
    for (rel, text) in files {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn first_hit(data: &Path, query: &str) -> String {
    let hits = json_lines(&run_ok(pagewise(data).args(["search", query, "--json", "--k", "3"])));
    hits[0]["doc_path"].as_str().unwrap().to_string()
}

#[test]
fn facets_are_extracted_stored_and_used_to_route() {
    let lib = library();
    let data = tempfile::tempdir().unwrap();
    index_json(data.path(), &[lib.path()]);

    let docs = json(&run_ok(pagewise(data.path()).args(["documents", "--json"])));
    let by_file = |name: &str| docs.as_array().unwrap().iter().find(|d| d["path"].as_str().unwrap().ends_with(name)).unwrap().clone();
    let b = by_file("report-b.md");
    assert_eq!(b["facets"]["organisation"], "Acme Cranes Ltd.", "{b}");
    assert_eq!(b["facets"]["kind"], "annual-report");
    assert_eq!(b["facets"]["period"]["year"], 2023);
    assert_eq!(b["facets"]["language"], "en");
    let lease = by_file("lease.md");
    assert_eq!(lease["facets"]["kind"], "contract", "{lease}");
    assert_eq!(lease["facets"]["period"]["date"], "2021-03-03");

    // The same sentence is in all four reports; the organisation and the year decide.
    assert!(first_hit(data.path(), "how many people did Acme employ in 2023").ends_with("acme/report-b.md"));
    assert!(first_hit(data.path(), "Globex headcount 2022").ends_with("globex/annual.md"));
    assert!(first_hit(data.path(), "Acme revenue FY2022").ends_with("acme/report-a.md"));
    // Narrowed to the organisation named, the weaker wording of its own document wins over
    // a better-matching passage of another organisation's.
    assert!(first_hit(data.path(), "how often are Globex cranes inspected for safety").ends_with("globex/site-rules.txt"));
    // A question that names nothing the library knows is not narrowed.
    assert!(first_hit(data.path(), "how much is the rent under the lease").ends_with("acme/lease.md"));
}

#[test]
fn facets_follow_renames_deletions_and_older_indexes() {
    let lib = library();
    let data = tempfile::tempdir().unwrap();
    index_json(data.path(), &[lib.path()]);

    // An index written before facets existed (the table dropped) gains them on the next open
    // for writing, from the stored pages, without re-parsing.
    let db = data.path().join("pagewise.sqlite");
    rusqlite::Connection::open(&db).unwrap().execute_batch("DROP TABLE document_facets").unwrap();
    let docs = json(&run_ok(pagewise(data.path()).args(["documents", "--json"])));
    assert!(docs.as_array().unwrap().iter().all(|d| d.get("facets").is_none()), "a reader shows none: {docs}");
    let again = index_json(data.path(), &[lib.path()]);
    assert_eq!(again["indexed"], 0, "{again}");
    let docs = json(&run_ok(pagewise(data.path()).args(["documents", "--json"])));
    assert!(docs.as_array().unwrap().iter().all(|d| d["facets"]["kind"].is_string()), "{docs}");
    assert_eq!(docs.as_array().unwrap().iter().filter(|d| d["facets"]["organisation"].is_string()).count(), 7, "{docs}");

    // A deleted document's facets go with it.
    std::fs::remove_file(lib.path().join("globex/annual-2.md")).unwrap();
    index_json(data.path(), &[lib.path()]);
    let rows: i64 = rusqlite::Connection::open(&db).unwrap().query_row("SELECT count(*) FROM document_facets", [], |r| r.get(0)).unwrap();
    assert_eq!(rows, 6);
}

/// A manual about one product, one file per section: every file names the product, and two
/// carry it in their titles. Questions that name it must still find the section that answers.
fn one_product_manual() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("corvid-handbook.md", "# The Corvid Handbook\n\nThis handbook explains how to install, configure and run Corvid, the message broker made by Corvid Systems Ltd.\n\n- Installing Corvid\n- Queues and retention\n- Keys and access\n- Backups\n"),
        ("ch01-installing.md", "## Installing\n\nCorvid ships as a single binary. Download the archive, unpack it and run `corvid serve`. \
            Corvid needs 2 GB of memory and a disk with 10 GB free.\n"),
        ("ch02-queues.md", "## Queues and retention\n\nCorvid keeps every message on a queue for seven days by default. Set `retention_days` \
            in corvid.toml to keep messages longer; Corvid deletes older messages every night at 02:00.\n"),
        ("ch03-keys.md", "## Keys and access\n\nEach client authenticates with an API key. To rotate a key, run `corvid keys rotate --client NAME`: \
            Corvid issues a new key and the old one stops working after 24 hours. Corvid never stores keys in plain text.\n"),
        ("ch04-backups.md", "## Backups\n\nCorvid writes a snapshot of every queue each hour. Restore one with `corvid restore SNAPSHOT`. \
            Snapshots older than thirty days are removed automatically by Corvid.\n"),
        ("corvid-internals.md", "## How Corvid works inside\n\nCorvid Systems Ltd. built Corvid to store queues in segment files of 64 MB. Each segment is \
            checksummed, and Corvid compacts segments in the background.\n"),
    ];
    for (rel, text) in files {
        std::fs::write(dir.path().join(rel), text).unwrap();
    }
    dir
}

#[test]
fn a_name_every_file_uses_routes_nowhere_in_any_mode() {
    let lib = one_product_manual();
    let data = tempfile::tempdir().unwrap();
    index_json(data.path(), &[lib.path()]);
    let first = |query: &str, mode: &str| -> (String, serde_json::Value) {
        let out = run_ok(pagewise(data.path()).args(["search", query, "--json", "--k", "3", "--mode", mode]));
        let hits = json_lines(&out);
        (hits[0]["doc_path"].as_str().unwrap().to_string(), hits[0].clone())
    };
    for mode in ["hybrid", "keyword", "vector"] {
        let (path, hit) = first("how do I rotate a Corvid API key", mode);
        assert!(path.ends_with("ch03-keys.md"), "{mode}: {path}");
        assert_eq!(hit["heading_path"], serde_json::json!(["Keys and access"]), "{hit}");
        let (path, _) = first("How long does Corvid keep messages?", mode);
        assert!(path.ends_with("ch02-queues.md"), "{mode}: {path}");
    }
    // The search says why the name did not narrow it.
    let out = run_ok(pagewise(data.path()).args(["search", "how do I rotate a Corvid API key", "--k", "3"]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("\"corvid\" used by 6 of 6 documents: not routed"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Keys and access"), "a Markdown hit is placed by its section, not p.1: {stdout}");
    // Titles come from the first heading of any level.
    let docs = json(&run_ok(pagewise(data.path()).args(["documents", "--json"])));
    let titles: Vec<&str> = docs.as_array().unwrap().iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert!(titles.contains(&"Keys and access") && titles.contains(&"The Corvid Handbook"), "{titles:?}");
}
