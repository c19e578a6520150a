use std::path::PathBuf;

/// Everything that can go wrong in the core library. Variants carry the path or document
/// they concern, so callers can report per file without guessing.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: cannot be indexed: {reason}")]
    Unparseable { path: PathBuf, reason: String },
    #[error("metadata store {path}: {source}")]
    Sqlite {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error("keyword index {path}: {message}")]
    Lexical { path: PathBuf, message: String },
    #[error("vector index {path}: {message}")]
    Vector { path: PathBuf, message: String },
    #[error("embedding model {path}: {message}")]
    Embedding { path: PathBuf, message: String },
    /// An embedder without a model file of ours: a server, or the embedding stage itself.
    #[error("embedding: {message}")]
    EmbeddingService { message: String },
    #[error("PDFium library {path}: {message}")]
    Pdfium { path: PathBuf, message: String },
    #[error("{path} is not a Pagewise data folder: it holds other files. Choose an empty folder or one Pagewise created (it has a .pagewise-data file)")]
    NotADataDir { path: PathBuf },
    #[error("{0}")]
    ModelsMissing(String),
    #[error("parse worker: {0}")]
    Worker(String),
    /// A thread panicked while holding this; what it guarded may be half-changed.
    #[error("{0}: an earlier call panicked while holding it; restart Pagewise")]
    Poisoned(&'static str),
    #[error("the parser's sandbox is incomplete: {missing}. Nothing was parsed. To parse anyway, accept this in Settings, pass --accept-weak-sandbox, or set PAGEWISE_ACCEPT_WEAK_SANDBOX=1")]
    WeakSandbox { missing: String },
    #[error("{path}: {message}")]
    Eval { path: PathBuf, message: String },
    #[error("language model {path}: {message}")]
    Generation { path: PathBuf, message: String },
    #[error("llama.cpp did not start: {0}")]
    LlamaBackend(String),
    #[error("an answer could not be written for its conversation: {0}")]
    AnswerRecord(String),
    #[error("model {path}: {message}")]
    Model { path: PathBuf, message: String },
    #[error("download {url}: {message}")]
    Download { url: String, message: String },
    #[error("endpoint {url}: {message}")]
    Endpoint { url: String, message: String },
    #[error("conversation store {path}: {source}")]
    Conversations {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error("conversation {0} does not exist")]
    NoSuchConversation(i64),
    #[error("watching {path}: {message}")]
    Watch { path: PathBuf, message: String },
    #[error("cannot start watching folders: {0}")]
    Watcher(String),
    #[error("the library's indexing thread has stopped")]
    LibraryStopped,
    #[error("interrupted")]
    Interrupted,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }
}
