//! `Engine`: the one façade the CLI, the app and the tests use. It opens the stores of one
//! data dir either as their single writer or as a reader that never blocks the writer.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use crate::chunk::ChunkParams;
use crate::embed::{BertEmbedder, Embedder};
use crate::error::{Error, Result};
use crate::index::store::Store;
use crate::index::{IndexRun, LexicalIndex, Parser, Stores, VectorIndex, VectorSettings};
use crate::models::ModelPaths;
use crate::parse::pdf::PdfLimits;
use crate::parse::worker::{IsolatedParser, WorkerCommand};
use crate::progress::{IndexReport, ProgressSink};
use crate::retrieve::{Retriever, SearchParams, SearchResults};

/// How PDFs are parsed.
#[derive(Debug, Clone)]
pub enum PdfParsing {
    /// In this process: only for tests of the logic around parsing.
    InProcess,
    /// In a worker process started with this program and arguments (the PDFium library path
    /// is appended), killed after `timeout`.
    Worker { program: PathBuf, args: Vec<String>, timeout: Duration, memory_limit: Option<u64> },
}

#[derive(Debug, Clone)]
pub struct EngineConfig {
    pub data_dir: PathBuf,
    pub models: ModelPaths,
    pub pdf: PdfParsing,
    pub vector: VectorSettings,
    pub chunk: ChunkParams,
    pub max_file_bytes: u64,
    pub max_text_bytes: u64,
    /// Files parsed at once (worker processes for PDFs).
    pub parse_workers: usize,
}

impl EngineConfig {
    pub fn new(data_dir: PathBuf, models: ModelPaths) -> EngineConfig {
        EngineConfig {
            data_dir,
            models,
            pdf: PdfParsing::InProcess,
            vector: VectorSettings::default(),
            chunk: ChunkParams::default(),
            max_file_bytes: 512 * 1024 * 1024,
            max_text_bytes: 32 * 1024 * 1024,
            parse_workers: std::thread::available_parallelism().map(|n| n.get().min(4)).unwrap_or(1),
        }
    }
}

impl EngineConfig {
    /// One parsing lane as configured: a PDF worker process, or PDFium in this process.
    pub fn parser(&self) -> Parser {
        match &self.pdf {
            PdfParsing::InProcess => Parser::InProcess { pdfium_lib: self.models.pdfium_lib.clone(), limits: PdfLimits::default() },
            PdfParsing::Worker { program, args, timeout, memory_limit } => {
                let mut args = args.clone();
                args.push(self.models.pdfium_lib.to_string_lossy().into_owned());
                Parser::Isolated(IsolatedParser::new(WorkerCommand {
                    program: program.clone(),
                    args,
                    timeout: *timeout,
                    memory_limit: *memory_limit,
                }))
            }
        }
    }
}

/// The platform's data directory for Pagewise.
pub fn default_data_dir() -> PathBuf {
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("."));
    if cfg!(target_os = "macos") {
        home.join("Library/Application Support/Pagewise")
    } else if cfg!(target_os = "windows") {
        std::env::var_os("APPDATA").map(PathBuf::from).unwrap_or(home).join("Pagewise")
    } else {
        std::env::var_os("XDG_DATA_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".local/share")).join("pagewise")
    }
}

struct ReadStores {
    store: Store,
    lexical: LexicalIndex,
    vectors: VectorIndex,
}

enum Access {
    Writer(Mutex<Stores>),
    /// Behind a lock so an engine can be shared between threads (SQLite connections are not
    /// `Sync`); readers of one process take turns, and never wait for the writer.
    Reader(Mutex<ReadStores>),
}

pub struct Engine {
    config: EngineConfig,
    embedder: Arc<BertEmbedder>,
    access: Access,
    notices: Vec<String>,
}

impl Engine {
    /// Opens the data dir as its single writer, repairing the stores if they disagree.
    pub fn open_writer(config: EngineConfig) -> Result<Engine> {
        let embedder = Arc::new(BertEmbedder::load(&config.models.embedder_dir)?);
        let (stores, report) =
            Stores::open_writer(&config.data_dir, embedder.model_id(), embedder.dimensions(), config.vector)?;
        Ok(Engine { config, embedder, access: Access::Writer(Mutex::new(stores)), notices: report.notices })
    }

    /// Opens an existing index for searching only. A vector file that does not match the
    /// metadata store is rebuilt in memory, never trusted.
    pub fn open_reader(config: EngineConfig) -> Result<Engine> {
        let embedder = Arc::new(BertEmbedder::load(&config.models.embedder_dir)?);
        Engine::open_reader_sharing(config, embedder)
    }

    /// Opens a reader that shares an already loaded embedder (a long-running process reopens
    /// its reader after every commit; loading the model each time would cost seconds).
    pub fn open_reader_sharing(config: EngineConfig, embedder: Arc<BertEmbedder>) -> Result<Engine> {
        let db = config.data_dir.join(crate::index::SQLITE_FILE);
        if !db.exists() {
            return Err(Error::Io {
                path: config.data_dir.clone(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no index here yet; run `pagewise index PATH` first"),
            });
        }
        let store = Store::open_reader(&db)?;
        let mut notices = Vec::new();
        if let Some(model) = store.meta(&crate::index::MetaKey::EmbedModel)? {
            if model != embedder.model_id() {
                notices.push(format!(
                    "index was embedded with {model}, not {}: run `pagewise index` to re-embed; searching by keyword only",
                    embedder.model_id()
                ));
            }
        }
        let (lexical, _) = LexicalIndex::open(&config.data_dir.join(crate::index::LEXICAL_DIR), false)?;
        let path = config.data_dir.join(crate::index::VECTOR_FILE);
        let dims = embedder.dimensions();
        // Vectors of another model would answer nonsense: keyword search only until re-embedded.
        let vectors = if notices.is_empty() {
            crate::index::verified_vectors(&store, &path, dims, config.vector)?.0
        } else {
            VectorIndex::empty(&path, dims, config.vector)?
        };
        Ok(Engine { config, embedder, access: Access::Reader(Mutex::new(ReadStores { store, lexical, vectors })), notices })
    }

    /// What opening found and repaired (schema or model changes, rebuilt indexes).
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    pub fn embedder(&self) -> &BertEmbedder {
        &self.embedder
    }

    pub fn shared_embedder(&self) -> Arc<BertEmbedder> {
        Arc::clone(&self.embedder)
    }

    /// Removes a folder (or file) from the library: its documents leave all three stores.
    pub fn remove_root(&self, root: &Path, progress: &dyn ProgressSink) -> Result<Vec<PathBuf>> {
        self.writer()?.remove_root(root, progress)
    }

    /// The folders and files the library was asked to index, in path order.
    pub fn roots(&self) -> Result<Vec<PathBuf>> {
        self.with_store(|s| s.roots())
    }

    fn writer(&self) -> Result<MutexGuard<'_, Stores>> {
        match &self.access {
            Access::Writer(m) => m.lock().map_err(|_| Error::Worker("an earlier indexing run panicked".into())),
            Access::Reader(_) => Err(Error::Io {
                path: self.config.data_dir.clone(),
                source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, "opened read-only"),
            }),
        }
    }

    /// Indexes files and folders: changed files are parsed, chunked and made keyword-searchable
    /// first; then their vectors are computed unless `embed` is false. Stops cleanly between
    /// files (and between embedding batches) when `cancel` is set.
    pub fn index_paths(&self, roots: &[PathBuf], embed: bool, progress: &dyn ProgressSink, cancel: &AtomicBool) -> Result<IndexReport> {
        let mut stores = self.writer()?;
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
        Ok(report)
    }

    /// Runs `f` with the three stores, whichever way the engine was opened.
    fn with_stores<T>(&self, f: impl FnOnce(&Store, &LexicalIndex, &VectorIndex) -> Result<T>) -> Result<T> {
        let poisoned = || Error::Worker("an earlier call panicked while holding the index".into());
        match &self.access {
            Access::Writer(m) => {
                let stores = m.lock().map_err(|_| poisoned())?;
                f(&stores.store, &stores.lexical, &stores.vectors)
            }
            Access::Reader(m) => {
                let stores = m.lock().map_err(|_| poisoned())?;
                f(&stores.store, &stores.lexical, &stores.vectors)
            }
        }
    }

    pub fn search(&self, query: &str, params: &SearchParams) -> Result<SearchResults> {
        self.with_stores(|store, lexical, vectors| {
            Retriever { store, lexical, vectors, embedder: self.embedder.as_ref() }.search(query, params)
        })
    }

    /// The indexed path of a document.
    pub fn document_path(&self, doc_id: i64) -> Result<Option<PathBuf>> {
        self.with_store(|s| Ok(s.document_info(doc_id)?.map(|d| d.path)))
    }

    /// Every indexed document with its facets (organisation, period, kind, language).
    pub fn documents(&self) -> Result<Vec<crate::index::DocumentInfo>> {
        self.with_store(|s| s.all_documents())
    }

    /// Runs `f` against the metadata store (pages, documents, stored vectors).
    pub fn with_store<T>(&self, f: impl FnOnce(&Store) -> Result<T>) -> Result<T> {
        self.with_stores(|store, _, _| f(store))
    }

    /// How many chunks of the library use each word (see [`LexicalIndex::document_frequencies`]).
    pub fn document_frequencies(&self, words: &[String]) -> Result<Vec<u64>> {
        self.with_stores(|_, lexical, _| lexical.document_frequencies(words))
    }

    /// Checks that the three stores agree: every chunk in SQLite is in the keyword index, every
    /// stored vector is in the vector index, and nothing else is; SQLite's integrity check passes.
    pub fn verify(&self) -> Result<Consistency> {
        self.with_stores(|store, lexical, vectors| {
            let sqlite_ids: std::collections::HashSet<i64> = store.all_chunk_ids()?.into_iter().collect();
            let lexical_ids: Vec<i64> = lexical.all_chunk_ids()?;
            let lexical_set: std::collections::HashSet<i64> = lexical_ids.iter().copied().collect();
            let (_, embedded) = store.chunk_counts()?;
            let mut vectors_missing = 0u64;
            store.for_each_vector(|id, _| {
                if !vectors.contains(id) {
                    vectors_missing += 1;
                }
                Ok(())
            })?;
            Ok(Consistency {
                sqlite_integrity_ok: store.integrity_ok()?,
                chunks: sqlite_ids.len() as u64,
                lexical_missing: sqlite_ids.difference(&lexical_set).count() as u64,
                lexical_extra: lexical_set.difference(&sqlite_ids).count() as u64,
                lexical_duplicates: (lexical_ids.len() - lexical_set.len()) as u64,
                vectors_missing,
                vectors_extra: (vectors.len() as u64).saturating_sub(embedded - vectors_missing),
            })
        })
    }

    pub fn data_dir(&self) -> &Path {
        &self.config.data_dir
    }
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Consistency {
    pub sqlite_integrity_ok: bool,
    pub chunks: u64,
    pub lexical_missing: u64,
    pub lexical_extra: u64,
    pub lexical_duplicates: u64,
    pub vectors_missing: u64,
    pub vectors_extra: u64,
}

impl Consistency {
    pub fn is_consistent(&self) -> bool {
        self.sqlite_integrity_ok
            && self.lexical_missing == 0
            && self.lexical_extra == 0
            && self.lexical_duplicates == 0
            && self.vectors_missing == 0
            && self.vectors_extra == 0
    }
}
