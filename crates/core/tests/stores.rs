//! The engine over real stores in a temp dir, with PDFium in-process and the real embedding
//! model: chunk invariants on real PDFs, rebuilds after schema and model changes, and repair
//! of a vector index that disagrees with SQLite.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use pagewise_core::chunk::{chunk_document, ChunkParams, TokenCounter};
use pagewise_core::embed::SentenceEmbedder;
use pagewise_core::parse::{parse_pdf, PdfLimits};
use pagewise_core::progress::{LibraryNotice, Silent};
use pagewise_core::{models, EngineConfig, Queries, SearchParams, Writer};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn config(data: &Path) -> EngineConfig {
    std::env::set_var("PAGEWISE_MODELS_DIR", repo().join("models"));
    EngineConfig::new(data.to_path_buf(), models::locate(None, None).expect("models: run models/fetch.sh"))
}

fn index(engine: &Writer, path: &Path) -> pagewise_core::progress::IndexReport {
    engine.index_paths(&[path.to_path_buf()], true, &Silent, &AtomicBool::new(false)).unwrap()
}

#[test]
fn real_pdf_parses_identically_and_chunks_within_limits() {
    let cfg = config(Path::new("/nonexistent"));
    let embedder = SentenceEmbedder::load(&cfg.models.embedder_dir).unwrap();
    let pdf = repo().join("assets/sample/field-guide-solar-2024.pdf");
    let a = parse_pdf(&cfg.models.pdfium_lib, &pdf, PdfLimits::default()).unwrap().unwrap();
    let b = parse_pdf(&cfg.models.pdfium_lib, &pdf, PdfLimits::default()).unwrap().unwrap();
    assert_eq!(a, b, "same file, same page texts");
    assert_eq!(a.pages.len(), 5);
    assert_eq!(a.title, "Brightwater Solar Cooperative Annual Report 2024");
    for page in &a.pages {
        assert!(!page.text.contains("Page 1 of 5") && !page.text.contains(" of 5\n"), "footer left: {}", page.text);
        assert!(!page.text.starts_with("Brightwater Solar Cooperative — Annual Report 2024"), "header left");
    }
    let chunks = chunk_document(&a, &a.title, &embedder, ChunkParams::default());
    assert_eq!(chunks, chunk_document(&b, &b.title, &embedder, ChunkParams::default()));
    for c in &chunks {
        let text = &a.pages[(c.page - 1) as usize].text;
        assert_eq!(&text[c.byte_start..c.byte_end], c.text);
        let embedded = pagewise_core::chunk::embedding_text(&a.title, &c.heading_path, &c.text);
        assert!(embedder.count(&embedded) + 2 <= 256, "chunk over the model limit");
    }
    // The regional capacity table on page 3 stays in one chunk.
    let table: Vec<_> = chunks.iter().filter(|c| c.page == 3 && c.text.contains("kW")).collect();
    assert!(table.iter().any(|c| c.text.contains("Total") && c.text.lines().count() >= 5), "{table:#?}");
}

#[test]
fn schema_and_model_changes_rebuild_and_say_so() {
    let data = tempfile::tempdir().unwrap();
    let docs = repo().join("tests/fixtures/known-answers.pdf");
    let first = index(&Writer::open(config(data.path())).unwrap(), &docs);
    assert_eq!(first.indexed.len(), 1);

    let db = data.path().join("pagewise.sqlite");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute("UPDATE meta SET value='some-other-model@123' WHERE key='embed_model'", []).unwrap();
    drop(conn);
    let engine = Writer::open(config(data.path())).unwrap();
    assert!(engine.notices().iter().any(|n| matches!(n, LibraryNotice::ModelChanged { .. })), "{:?}", engine.notices());
    let again = index(&engine, &docs);
    assert_eq!(again.indexed.len(), 0, "no re-parse for a model change");
    assert!(again.embedded > 0, "vectors recomputed");
    drop(engine);

    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute("UPDATE meta SET value='0' WHERE key='schema_version'", []).unwrap();
    drop(conn);
    let engine = Writer::open(config(data.path())).unwrap();
    assert!(engine.notices().contains(&LibraryNotice::RebuildingForNewVersion), "{:?}", engine.notices());
    let rebuilt = index(&engine, &docs);
    assert_eq!(rebuilt.indexed.len(), 1);
    assert!(engine.verify().unwrap().is_consistent());
}

#[test]
fn a_damaged_vector_file_is_rebuilt_from_sqlite() {
    let data = tempfile::tempdir().unwrap();
    let docs = repo().join("tests/fixtures/known-answers.pdf");
    index(&Writer::open(config(data.path())).unwrap(), &docs);
    let vectors = data.path().join("vectors.usearch");
    let mut bytes = std::fs::read(&vectors).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0xff;
    std::fs::write(&vectors, bytes).unwrap();
    let engine = Writer::open(config(data.path())).unwrap();
    assert!(engine.notices().iter().any(|n| matches!(n, LibraryNotice::VectorsRebuilt { .. })), "{:?}", engine.notices());
    assert!(engine.verify().unwrap().is_consistent());
    let hits = engine
        .search("Kestrel observatory mirror", &SearchParams { mode: pagewise_core::SearchMode::Vector, ..Default::default() })
        .unwrap()
        .hits;
    assert_eq!(hits[0].span.page, 3);
}
