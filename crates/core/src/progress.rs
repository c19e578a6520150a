//! What indexing reports while it runs. The core never prints; callers implement the sink.

use std::path::PathBuf;

use serde::Serialize;

/// Something about the library the user should know that is not an error (a rebuild, a model
/// change, a server away), as a code with its parameters: the app says it in the user's
/// language, the CLI in English (`Display`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum LibraryNotice {
    /// The library is being opened (the app's first seconds).
    Starting,
    /// The index was built by another version: everything is rebuilt from the files.
    RebuildingForNewVersion,
    ModelChanged { from: String, to: String, passages: u64 },
    VectorsRebuilt { vectors: u64 },
    KeywordIndexRebuilt { extra: u64, missing: u64 },
    /// A reader whose embedder is not the one the index was embedded with searches by keyword.
    EmbeddedWithOtherModel { model: String, current: String },
    /// A GPU build found no GPU (`gpu`: "CUDA", "Metal").
    NoGpu { gpu: String, why: String },
    EmbeddingServerUnreachable { why: String },
    /// The server stopped answering during a run: `waiting` passages have no vector yet.
    EmbeddingServerStopped { why: String, waiting: u64 },
    /// The folder watcher lost change events: every folder is checked again.
    EventsLost { why: String },
}

impl std::fmt::Display for LibraryNotice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LibraryNotice::Starting => f.write_str("starting…"),
            LibraryNotice::RebuildingForNewVersion => f.write_str("index was built by another version of Pagewise: rebuilding it from the files"),
            LibraryNotice::ModelChanged { from, to, passages } => write!(f, "embedding model changed ({from} → {to}): re-embedding {passages} chunks"),
            LibraryNotice::VectorsRebuilt { vectors } => write!(f, "vector index did not match the metadata store: rebuilt it from {vectors} stored vectors"),
            LibraryNotice::KeywordIndexRebuilt { extra, missing } => {
                write!(f, "keyword index disagreed with the metadata store ({extra} extra, {missing} missing): rebuilt it")
            }
            LibraryNotice::EmbeddedWithOtherModel { model, current } => {
                write!(f, "index was embedded with {model}, not {current}: run `pagewise index` to re-embed; searching by keyword only")
            }
            LibraryNotice::NoGpu { gpu, why } => write!(f, "no {gpu} GPU answered ({why}); embedding on the CPU"),
            LibraryNotice::EmbeddingServerUnreachable { why } => write!(f, "the embedding server does not answer ({why}); searching by keywords until it does"),
            LibraryNotice::EmbeddingServerStopped { why, waiting } => write!(
                f,
                "the embedding server stopped answering ({why}); {waiting} passages are keyword-searchable and wait for their vectors, which the next index run makes once the server answers"
            ),
            LibraryNotice::EventsLost { why } => write!(f, "change events were lost ({why}); checking every folder again"),
        }
    }
}

/// Notices as the English sentences the CLI's JSON has always carried.
fn notices_as_text<S: serde::Serializer>(notices: &[LibraryNotice], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(notices.iter().map(|n| n.to_string()))
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Progress {
    /// Something the user should know (a rebuild, a model change).
    Notice { notice: LibraryNotice },
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
    #[serde(serialize_with = "notices_as_text")]
    pub notices: Vec<LibraryNotice>,
}
