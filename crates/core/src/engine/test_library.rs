//! A small real library for unit tests next to the code: two notes indexed by a real writer
//! (SQLite, Tantivy, usearch and MiniLM in a temp dir) and a reader over them.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::queries::sealed::Access;
use super::{EngineConfig, Reader, Writer};
use crate::retrieve::Retriever;
use crate::models;
use crate::progress::Silent;

pub(crate) struct TestLibrary {
    pub dir: tempfile::TempDir,
    pub writer: Writer,
    pub reader: Reader,
}

impl TestLibrary {
    pub fn folder(&self) -> PathBuf {
        self.dir.path().join("notes")
    }

    /// The reader's stores as a retriever, for tests of search's stages.
    pub fn with_retriever<T>(&self, f: impl FnOnce(&Retriever<'_>) -> crate::error::Result<T>) -> T {
        let embedder = self.reader.shared_embedder().as_ref();
        self.reader
            .with_stores(|s| f(&Retriever { catalog: s.catalog, lexical: s.lexical, vectors: s.vectors, embedder, snapshot: s.snapshot }))
            .unwrap()
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `pumps.md` (two pages' worth of headings) and `budget.md`, indexed and embedded.
pub(crate) fn test_library() -> TestLibrary {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes");
    std::fs::create_dir_all(&notes).unwrap();
    std::fs::write(
        notes.join("pumps.md"),
        "# Heat pumps\n\nThe Kettlewick heat pump was replaced in March by Ostara Supplies.\n\n## Service\n\nFilters are cleaned every six weeks.\n",
    )
    .unwrap();
    std::fs::write(notes.join("budget.md"), "# Budget 2025\n\nThe greenhouse budget for 2025 is 14,200 euros.\n").unwrap();
    if std::env::var_os("PAGEWISE_MODELS_DIR").is_none() {
        std::env::set_var("PAGEWISE_MODELS_DIR", repo().join("models"));
    }
    let config = EngineConfig::new(dir.path().join("data"), models::locate(None, None).expect("models: run models/fetch.sh"));
    let writer = Writer::open(config.clone()).unwrap();
    let report = writer.index_paths(std::slice::from_ref(&notes), true, &Silent, &AtomicBool::new(false)).unwrap();
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    let reader = Reader::open_sharing(config, writer.embedder_handle()).unwrap();
    TestLibrary { dir, writer, reader }
}
