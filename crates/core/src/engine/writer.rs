//! The single writer of one data dir: indexing and removing, and the same named queries as a
//! reader.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use super::queries::sealed::{Access, StoresRef};
use super::EngineConfig;
use crate::embed::SharedEmbedder;
use crate::error::{Error, Result};
use crate::index::{IndexRun, Stores};
use crate::isolation::Parser;
use crate::progress::{IndexReport, LibraryNotice, ProgressSink};

pub struct Writer {
    config: EngineConfig,
    embedder: SharedEmbedder,
    stores: Mutex<Stores>,
    notices: Vec<LibraryNotice>,
}

impl Writer {
    /// Opens the data dir as its single writer, repairing the stores if they disagree.
    pub fn open(config: EngineConfig) -> Result<Writer> {
        let embedder = config.load_embedder()?;
        Writer::open_with_embedder(config, embedder)
    }

    /// The same with an embedder made elsewhere (tests that need one to fail on cue).
    pub(crate) fn open_with_embedder(config: EngineConfig, embedder: SharedEmbedder) -> Result<Writer> {
        let (stores, report) = Stores::open_writer(&config.data_dir, embedder.model_id(), embedder.dimensions(), config.vector)?;
        let notices = embedder.notice().into_iter().chain(report.notices).collect();
        Ok(Writer { config, embedder, stores: Mutex::new(stores), notices })
    }

    /// What opening found and repaired (schema or model changes, rebuilt indexes).
    pub fn notices(&self) -> &[LibraryNotice] {
        &self.notices
    }

    /// The loaded embedding model, for readers opened beside this writer.
    pub fn embedder_handle(&self) -> SharedEmbedder {
        Arc::clone(&self.embedder)
    }

    pub(crate) fn stores(&self) -> Result<MutexGuard<'_, Stores>> {
        self.stores.lock().map_err(|_| Error::Poisoned("the index writer"))
    }

    /// Removes a folder (or file) from the library: its documents leave all three stores.
    pub fn remove_root(&self, root: &Path, progress: &dyn ProgressSink) -> Result<Vec<PathBuf>> {
        self.stores()?.remove_root(root, progress)
    }

    /// Records documents that come already chunked and embedded (see
    /// [`PreparedDocument`](crate::index::PreparedDocument)) under `root`, in one commit.
    pub fn import_prepared(&self, root: &Path, docs: Vec<crate::index::PreparedDocument>, progress: &dyn ProgressSink) -> Result<()> {
        self.stores()?.import_prepared(root, docs, progress)
    }

    /// From now on, parse even where the worker's sandbox lacks a layer (the user chose to).
    pub fn accept_weak_sandbox(&mut self) {
        self.config.accept_weak_sandbox = true;
    }

    /// Indexes files and folders: changed files are parsed, chunked and made keyword-searchable
    /// first; then their vectors are computed unless `embed` is false. Stops cleanly between
    /// files (and between embedding batches) when `cancel` is set.
    pub fn index_paths(&self, roots: &[PathBuf], embed: bool, progress: &dyn ProgressSink, cancel: &AtomicBool) -> Result<IndexReport> {
        let mut stores = self.stores()?;
        let lanes = self.config.parse_workers.max(1);
        let mut parsers: Vec<Parser> = (0..lanes).map(|_| self.config.parser()).collect();
        let mut run = IndexRun {
            embedder: self.embedder.as_ref(),
            parsers: &mut parsers,
            progress,
            cancel,
            chunk_params: self.config.chunk,
            embed,
            max_file_bytes: self.config.max_file_bytes,
            max_text_bytes: self.config.max_text_bytes,
        };
        let mut report = stores.index(roots, &mut run)?;
        report.notices.extend(self.notices.iter().cloned());
        // The Models screen shows what embedding cost here; a failure to note it costs nothing.
        let _ = crate::embedder_catalog::record_embed_speed(&self.config.data_dir, &self.config.models.embedder_dir, report.embedded_tokens, report.embed_seconds);
        Ok(report)
    }
}

impl Access for Writer {
    fn with_stores<T>(&self, f: impl FnOnce(StoresRef<'_>) -> Result<T>) -> Result<T> {
        let stores = self.stores()?;
        f(StoresRef { catalog: &stores.catalog, lexical: &stores.lexical, vectors: &stores.vectors, snapshot: None })
    }

    fn engine_config(&self) -> &EngineConfig {
        &self.config
    }

    fn shared_embedder(&self) -> &SharedEmbedder {
        &self.embedder
    }
}
