//! Pagewise as a library: index folders of PDFs, Markdown and text into SQLite, Tantivy and
//! usearch, and search them by page with hybrid (keyword + semantic) retrieval.
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! use pagewise_core::{models, EngineConfig, Queries, SearchParams, Writer, progress::Silent};
//!
//! let data = std::path::PathBuf::from("/tmp/pagewise-data");
//! let config = EngineConfig::new(data.clone(), models::locate(Some(&data), None)?);
//! let engine = Writer::open(config)?;
//! engine.index_paths(&["assets/sample".into()], true, &Silent, &AtomicBool::new(false))?;
//! for hit in engine.search("battery pilot", &SearchParams::default())?.hits {
//!     println!("{} p.{}: {}", hit.doc_title, hit.span.page, hit.text);
//! }
//! # Ok::<(), pagewise_core::Error>(())
//! ```

pub mod answer;
pub mod chunk;
pub mod data_dir;
pub mod embed;
pub mod embedder_catalog;
pub mod engine;
mod error;
pub mod eval;
pub mod extract;
pub(crate) mod facets;
pub mod glyphs;
pub(crate) mod gguf;
pub mod grade;
pub mod index;
pub(crate) mod ingest;
pub mod isolation;
pub mod lang;
pub mod library;
pub mod model_catalog;
pub mod model_download;
pub mod model_install;
pub mod models;
pub mod netlog;
pub(crate) mod ocr;
pub mod openai;
pub mod parse;
pub mod pdfium;
pub mod progress;
pub mod retrieve;
pub mod span;
pub mod text;
pub mod viewer;

pub use engine::{default_data_dir, Consistency, EngineConfig, PdfParsing, Queries, Reader, Writer};
pub use error::{Error, Result};
pub use retrieve::{Fusion, Hit, SearchMode, SearchParams, SearchResults};

/// Process-wide settings that must be made before other threads exist: call it first thing in
/// `main`. The allocator keeps large buffers on the heap (candle and the encoder allocate
/// fresh buffers per step; with glibc's default thresholds each large one is a new mmap,
/// zeroed page by page — a sixth of embedding time went to page faults in a profile), and the
/// BLAS library is told which kernels fit this CPU before it loads.
pub fn prepare_process() {
    #[cfg(feature = "blas")]
    embed::prepare_blas();
    tune_allocator();
}

fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator thresholds; called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 512 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}
