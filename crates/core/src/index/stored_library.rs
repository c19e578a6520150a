//! What the metadata store holds about the library as a whole, read in one go without a
//! model or the other stores: what `pagewise status` compares against the disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::catalog::{Catalog, StoredFailure, StoredFile};
use super::{MetaKey, SQLITE_FILE};
use crate::error::Result;

pub struct StoredLibrary {
    pub files: Vec<StoredFile>,
    pub failures: HashMap<PathBuf, StoredFailure>,
    pub documents: u64,
    pub chunks: u64,
    pub embedded: u64,
    /// Each root with the Unix seconds of its last completed scan.
    pub roots: Vec<(PathBuf, Option<i64>)>,
}

/// Reads the library's state from the metadata store of `data_dir`.
pub fn stored_library(data_dir: &Path) -> Result<StoredLibrary> {
    let catalog = Catalog::open_reader(&data_dir.join(SQLITE_FILE))?;
    let (chunks, embedded) = catalog.chunk_counts()?;
    let mut roots = Vec::new();
    for root in catalog.roots()? {
        let last_scan = catalog.meta(&MetaKey::last_scan(&root))?.and_then(|v| v.parse().ok());
        roots.push((root, last_scan));
    }
    Ok(StoredLibrary {
        files: catalog.files()?,
        failures: catalog.failures()?,
        documents: catalog.document_count()?,
        chunks,
        embedded,
        roots,
    })
}
