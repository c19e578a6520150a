//! usearch: approximate nearest neighbours by cosine over chunk vectors. The index is a
//! cache of the vectors in SQLite: it is saved atomically with a checksum recorded in SQLite,
//! and rebuilt from SQLite whenever the two disagree.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use usearch::{Index, IndexOptions, MetricKind, ScalarKind};

use crate::error::{Error, Result};

/// HNSW and storage settings. Chosen by `bench/vector_recall` against exact search on the
/// dev library's real chunk vectors (see README.md for the figures).
#[derive(Debug, Clone, Copy)]
pub struct VectorSettings {
    pub quantization: ScalarKind,
    pub connectivity: usize,
    pub expansion_add: usize,
    pub expansion_search: usize,
}

impl Default for VectorSettings {
    fn default() -> Self {
        VectorSettings { quantization: ScalarKind::F16, connectivity: 16, expansion_add: 128, expansion_search: 64 }
    }
}

pub struct VectorIndex {
    index: Index,
    path: PathBuf,
    dimensions: usize,
}

fn verr(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Vector { path: path.to_path_buf(), message: e.to_string() }
}

/// blake3 of a file, hex.
pub fn file_checksum(path: &Path) -> Result<String> {
    let mut hasher = blake3::Hasher::new();
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    std::io::copy(&mut file, &mut hasher).map_err(|e| Error::io(path, e))?;
    Ok(hasher.finalize().to_hex().to_string())
}

impl VectorIndex {
    pub fn empty(path: &Path, dimensions: usize, settings: VectorSettings) -> Result<VectorIndex> {
        let options = IndexOptions {
            dimensions,
            metric: MetricKind::Cos,
            quantization: settings.quantization,
            connectivity: settings.connectivity,
            expansion_add: settings.expansion_add,
            expansion_search: settings.expansion_search,
            multi: false,
        };
        let index = Index::new(&options).map_err(|e| verr(path, e))?;
        index.reserve(1024).map_err(|e| verr(path, e))?;
        Ok(VectorIndex { index, path: path.to_path_buf(), dimensions })
    }

    /// Loads the saved index if its checksum is `expected` and its shape matches; `None`
    /// means it must be rebuilt.
    pub fn load_verified(path: &Path, dimensions: usize, expected: Option<&str>, settings: VectorSettings) -> Result<Option<VectorIndex>> {
        if !path.exists() {
            return Ok(None);
        }
        match expected {
            Some(sum) if file_checksum(path)? == sum => {}
            _ => return Ok(None),
        }
        let index = match Index::restore(&path.to_string_lossy()) {
            Ok(index) => index,
            Err(_) => return Ok(None),
        };
        if index.dimensions() != dimensions || index.scalar_kind() != settings.quantization {
            return Ok(None);
        }
        index.change_expansion_search(settings.expansion_search);
        Ok(Some(VectorIndex { index, path: path.to_path_buf(), dimensions }))
    }

    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    pub fn len(&self) -> usize {
        self.index.size()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn contains(&self, id: i64) -> bool {
        self.index.contains(id as u64)
    }

    /// Adds or replaces the vector of `id`.
    pub fn upsert(&mut self, id: i64, vector: &[f32]) -> Result<()> {
        if vector.len() != self.dimensions {
            return Err(verr(&self.path, format!("vector of {} dimensions, index has {}", vector.len(), self.dimensions)));
        }
        let key = id as u64;
        if self.index.contains(key) {
            self.index.remove(key).map_err(|e| verr(&self.path, e))?;
        }
        if self.index.size() + 1 > self.index.capacity() {
            let grown = (self.index.capacity() * 2).max(1024);
            self.index.reserve(grown).map_err(|e| verr(&self.path, e))?;
        }
        self.index.add(key, vector).map_err(|e| verr(&self.path, e))
    }

    pub fn remove(&mut self, id: i64) -> Result<()> {
        self.index.remove(id as u64).map(|_| ()).map_err(|e| verr(&self.path, e))
    }

    /// Nearest `k` chunk ids with cosine similarity, optionally only among `allowed`.
    pub fn search(&self, query: &[f32], k: usize, allowed: Option<&HashSet<i64>>) -> Result<Vec<(i64, f32)>> {
        if self.index.size() == 0 {
            return Ok(Vec::new());
        }
        let matches = match allowed {
            Some(set) => self.index.filtered_search(query, k, |key| set.contains(&(key as i64))),
            None => self.index.search(query, k),
        }
        .map_err(|e| verr(&self.path, e))?;
        // Similarities are rounded before ranking: SIMD kernels differ between CPUs in the last
        // bits, and such noise must not reorder near-equal passages (ties then go by id).
        let mut hits: Vec<(i64, f32)> =
            matches.keys.iter().zip(matches.distances.iter()).map(|(&key, &d)| (key as i64, ((1.0 - d) * 1e4).round() / 1e4)).collect();
        super::lexical::sort_ranked(&mut hits);
        Ok(hits)
    }

    /// Exact search, the recall baseline.
    pub fn exact_search(&self, query: &[f32], k: usize) -> Result<Vec<i64>> {
        let matches = self.index.exact_search(query, k).map_err(|e| verr(&self.path, e))?;
        Ok(matches.keys.iter().map(|&k| k as i64).collect())
    }

    /// Writes the index to a temporary file, syncs it, renames it over the old one and syncs
    /// the folder, so a crash leaves either the old or the new file. Returns its checksum.
    pub fn save_atomic(&self) -> Result<String> {
        let tmp = self.path.with_extension("usearch.tmp");
        self.index.save(&tmp.to_string_lossy()).map_err(|e| verr(&tmp, e))?;
        let file = std::fs::OpenOptions::new().write(true).open(&tmp).map_err(|e| Error::io(&tmp, e))?;
        file.sync_all().map_err(|e| Error::io(&tmp, e))?;
        drop(file);
        let sum = file_checksum(&tmp)?;
        std::fs::rename(&tmp, &self.path).map_err(|e| Error::io(&self.path, e))?;
        if let Some(dir) = self.path.parent() {
            if let Ok(d) = std::fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(sum)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

