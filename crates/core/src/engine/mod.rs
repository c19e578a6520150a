//! The façade the CLI, the app and the tests use over the stores of one data dir: a
//! [`Writer`] (the single writer: indexing, removing) or a [`Reader`] (searching, never
//! blocking the writer). Both answer the named read queries of [`Queries`]; nothing outside
//! `index/` sees the stores themselves.

mod queries;
mod reader;
mod writer;
#[cfg(test)]
pub(crate) mod test_library;
#[cfg(test)]
mod search_stages;

pub use queries::{Consistency, LibraryCounts, Queries};
pub use reader::Reader;
pub use writer::Writer;

use std::path::PathBuf;
use std::time::Duration;

use crate::chunk::ChunkParams;
use crate::error::{Error, Result};
use crate::index::VectorSettings;
use crate::isolation::{IsolatedWorker, Parser, WorkerCommand};
use crate::models::ModelPaths;
use crate::parse::pdf::PdfLimits;

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
    /// Read scanned pages (no text layer) with Tesseract when it is installed.
    pub ocr: bool,
    /// Vectors from an OpenAI-compatible server instead of the local model (whose tokenizer
    /// still sizes chunks); `None` embeds on this machine.
    pub embed_endpoint: Option<crate::openai::EndpointSettings>,
    /// Parse even when the worker's sandbox lacks a layer: the user was told what is missing
    /// and chose to go on.
    pub accept_weak_sandbox: bool,
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
            ocr: true,
            embed_endpoint: None,
            accept_weak_sandbox: false,
        }
    }

    /// The embedder this configuration names: the local model, or the server (checked now:
    /// unreachable, a refused key or an unknown model is an error here, not mid-indexing).
    pub fn load_embedder(&self) -> Result<crate::embed::SharedEmbedder> {
        match &self.embed_endpoint {
            None => Ok(std::sync::Arc::new(crate::embed::SentenceEmbedder::load(&self.models.embedder_dir)?)),
            Some(settings) => {
                use crate::embed::{AwaitedEndpointEmbedder, EndpointEmbedder};
                use crate::openai::EndpointSettings;
                let counter = crate::embed::TokenizerCounter::load(&self.models.embedder_dir)?;
                let recorded = self.recorded_embedder();
                // A library whose vectors came from this server still opens without it, and
                // the stand-in tries again later: one quick try, so that a laptop off its
                // network does not wait out the retries on every start and search.
                let awaitable = recorded.as_ref().is_some_and(|(id, dims)| AwaitedEndpointEmbedder::recorded_model(settings, id, *dims).is_some());
                let quick = EndpointSettings { retries: 0, ..settings.clone() };
                let failure = match EndpointEmbedder::connect(if awaitable { &quick } else { settings }, Box::new(counter)) {
                    Ok(server) => return Ok(std::sync::Arc::new(server)),
                    Err(failure) => failure,
                };
                let Some((model_id, dimensions)) = recorded else { return Err(failure) };
                let counter = crate::embed::TokenizerCounter::load(&self.models.embedder_dir)?;
                match AwaitedEndpointEmbedder::for_recorded(settings, &model_id, dimensions, Box::new(counter), failure.to_string()) {
                    Some(awaited) => Ok(std::sync::Arc::new(awaited)),
                    None => Err(failure),
                }
            }
        }
    }

    /// The embedding model and vector size the library in the data dir was embedded with.
    fn recorded_embedder(&self) -> Option<(String, usize)> {
        let db = self.data_dir.join(crate::index::SQLITE_FILE);
        if !db.is_file() {
            return None;
        }
        let catalog = crate::index::Catalog::open_reader(&db).ok()?;
        let model = catalog.meta(&crate::index::MetaKey::EmbedModel).ok()??;
        let dimensions = catalog.meta(&crate::index::MetaKey::EmbedDimensions).ok()??.parse().ok()?;
        Some((model, dimensions))
    }
}

/// The worker argument that turns OCR off (before the PDFium library path).
pub const NO_OCR_ARG: &str = "--no-ocr";

impl EngineConfig {
    /// One parsing lane as configured: a worker process, or PDFium in this process.
    pub fn parser(&self) -> Parser {
        match self.isolated_worker() {
            Ok(worker) => Parser::Isolated(worker),
            Err(_) => Parser::InProcess { pdfium_lib: self.models.pdfium_lib.clone(), limits: PdfLimits { ocr: self.ocr, ..PdfLimits::default() } },
        }
    }

    /// A worker process as configured (the viewer renders pages only in one); an error when
    /// this configuration parses in-process.
    pub fn isolated_worker(&self) -> Result<IsolatedWorker> {
        match &self.pdf {
            PdfParsing::InProcess => Err(Error::Worker("no worker process is configured".into())),
            PdfParsing::Worker { program, args, timeout, memory_limit } => {
                let mut args = args.clone();
                if !self.ocr {
                    args.push(NO_OCR_ARG.into());
                }
                args.push(self.models.pdfium_lib.to_string_lossy().into_owned());
                Ok(IsolatedWorker::new(WorkerCommand {
                    program: program.clone(),
                    args,
                    timeout: *timeout,
                    memory_limit: *memory_limit,
                    accept_weak_sandbox: self.accept_weak_sandbox,
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
