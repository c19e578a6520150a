//! Pagewise as a library: index folders of PDFs, Markdown and text into SQLite, Tantivy and
//! usearch, and search them by page with hybrid (keyword + semantic) retrieval.
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! use pagewise_core::{models, Engine, EngineConfig, SearchParams, progress::Silent};
//!
//! let data = std::path::PathBuf::from("/tmp/pagewise-data");
//! let config = EngineConfig::new(data.clone(), models::locate(Some(&data), None)?);
//! let engine = Engine::open_writer(config)?;
//! engine.index_paths(&["assets/sample".into()], true, &Silent, &AtomicBool::new(false))?;
//! for hit in engine.search("battery pilot", &SearchParams::default())?.hits {
//!     println!("{} p.{}: {}", hit.doc_title, hit.page, hit.text);
//! }
//! # Ok::<(), pagewise_core::Error>(())
//! ```

pub mod answer;
pub mod chunk;
pub mod cite;
pub mod embed;
pub mod engine;
mod error;
pub mod eval;
pub mod index;
pub mod ingest;
pub mod models;
pub mod parse;
pub mod progress;
pub mod retrieve;

pub use engine::{default_data_dir, Consistency, Engine, EngineConfig, PdfParsing};
pub use error::{Error, Result};
pub use retrieve::{Fusion, Hit, SearchMode, SearchParams, SearchResults};
