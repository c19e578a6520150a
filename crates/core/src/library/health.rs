//! How the index stands against the disk, per folder: what `pagewise status` reports. Reads
//! the stored library (see `index::snapshot`) and walks the folders (size + mtime); needs no model and never blocks the writer.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::folder::FailedFile;
use crate::error::Result;
use crate::index::stored_library::{stored_library, StoredLibrary};
use crate::index::catalog::now_secs;
use crate::index::{LEXICAL_DIR, SQLITE_FILE, VECTOR_FILE};
use crate::ingest::scan;

#[derive(Debug, Clone, Serialize)]
pub struct FolderHealth {
    pub path: PathBuf,
    pub available: bool,
    /// Indexable files on disk now.
    pub files: u64,
    pub indexed: u64,
    pub failed: Vec<FailedFile>,
    /// Files new or changed since they were indexed, plus indexed files that are gone.
    pub pending: u64,
    /// Unix seconds of the last completed scan.
    pub last_scan: Option<i64>,
    /// Age in seconds of the oldest change not yet in the index (0 when up to date).
    pub freshness_s: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct StoreSizes {
    pub sqlite_bytes: u64,
    pub keyword_index_bytes: u64,
    pub vector_index_bytes: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Health {
    pub folders: Vec<FolderHealth>,
    pub documents: u64,
    pub chunks: u64,
    pub pending_vectors: u64,
    pub stores: StoreSizes,
}

fn size_of(path: &Path) -> u64 {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => std::fs::read_dir(path)
            .map(|entries| entries.flatten().map(|e| size_of(&e.path())).sum())
            .unwrap_or(0),
        Ok(m) => m.len(),
        Err(_) => 0,
    }
}

pub fn health(data_dir: &Path) -> Result<Health> {
    let StoredLibrary { files: stored, failures, documents, chunks, embedded, roots } = stored_library(data_dir)?;
    let now_ns = i128::from(now_secs()) * 1_000_000_000;
    let mut folders = Vec::new();
    for (root, last_scan) in roots {
        let inside: HashMap<&Path, (u64, i64)> =
            stored.iter().filter(|f| f.path.starts_with(&root)).map(|f| (f.path.as_path(), (f.size, f.mtime_ns))).collect();
        let mut failed: Vec<FailedFile> = failures
            .iter()
            .filter(|(p, _)| p.starts_with(&root))
            .map(|(p, f)| FailedFile { path: p.clone(), reason: f.reason.clone() })
            .collect();
        failed.sort_by(|a, b| a.path.cmp(&b.path));
        let available = root.exists();
        let (mut files, mut pending, mut oldest_change) = (0u64, 0u64, None::<i64>);
        if available {
            let found = scan(std::slice::from_ref(&root));
            files = found.files.len() as u64;
            let on_disk: std::collections::HashSet<&Path> = found.files.iter().map(|f| f.path.as_path()).collect();
            for f in &found.files {
                let indexed_same = inside.get(f.path.as_path()) == Some(&(f.size, f.mtime_ns));
                let failed_same = failures.get(&f.path).is_some_and(|x| x.size == f.size && x.mtime_ns == f.mtime_ns);
                if !indexed_same && !failed_same {
                    pending += 1;
                    oldest_change = Some(oldest_change.map_or(f.mtime_ns, |o| o.min(f.mtime_ns)));
                }
            }
            let gone = inside.keys().filter(|p| !on_disk.contains(*p)).count() as u64;
            pending += gone;
            if gone > 0 && oldest_change.is_none() {
                // A deletion has no timestamp of its own; it happened after the last scan.
                oldest_change = last_scan.map(|s| s * 1_000_000_000);
            }
        }
        let freshness_s = oldest_change.map(|t| ((now_ns - i128::from(t)).max(0) / 1_000_000_000) as u64).unwrap_or(0);
        folders.push(FolderHealth { path: root, available, files, indexed: inside.len() as u64, failed, pending, last_scan, freshness_s });
    }
    Ok(Health {
        folders,
        documents,
        chunks,
        pending_vectors: chunks - embedded,
        stores: StoreSizes {
            sqlite_bytes: size_of(&data_dir.join(SQLITE_FILE))
                + size_of(&data_dir.join(format!("{SQLITE_FILE}-wal")))
                + size_of(&data_dir.join(format!("{SQLITE_FILE}-shm"))),
            keyword_index_bytes: size_of(&data_dir.join(LEXICAL_DIR)),
            vector_index_bytes: size_of(&data_dir.join(VECTOR_FILE)),
        },
    })
}
