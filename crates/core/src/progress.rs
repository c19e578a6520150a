//! What indexing reports while it runs. The core never prints; callers implement the sink.

use std::path::PathBuf;

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Progress {
    /// Something the user should know (a rebuild, a model change).
    Notice { message: String },
    Scanned { files: usize },
    Planned { to_check: usize, unchanged: usize, to_remove: usize },
    /// A scanned page of `path` was read by OCR (seconds a page, so it is worth saying).
    Ocr { path: PathBuf, page: u32, pages: u32 },
    FileDone { path: PathBuf, outcome: FileOutcome, pages: usize, chunks: usize },
    /// Files up to here are searchable by keyword.
    Committed { files: usize, pages: usize, chunks: usize },
    Embedding { done: u64, total: u64, tokens: u64 },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileOutcome {
    Indexed,
    Unchanged,
    Renamed,
    Failed { reason: String },
}

pub trait ProgressSink: Send + Sync {
    fn report(&self, event: &Progress);
}

impl<F: Fn(&Progress) + Send + Sync> ProgressSink for F {
    fn report(&self, event: &Progress) {
        self(event)
    }
}

/// A sink that drops everything.
pub struct Silent;

impl ProgressSink for Silent {
    fn report(&self, _: &Progress) {}
}

/// The outcome of one indexing run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct IndexReport {
    pub indexed: Vec<PathBuf>,
    pub unchanged: usize,
    pub renamed: Vec<(PathBuf, PathBuf)>,
    pub removed: Vec<PathBuf>,
    pub failed: Vec<(PathBuf, String)>,
    pub pages: usize,
    pub chunks: usize,
    /// Chunks embedded in this run, with their token count.
    pub embedded: u64,
    pub embedded_tokens: u64,
    /// Seconds spent computing those vectors.
    pub embed_seconds: f64,
    /// Chunks still waiting for a vector (non-zero after an interrupted or keyword-only run).
    pub pending_vectors: u64,
    pub interrupted: bool,
    pub notices: Vec<String>,
}
