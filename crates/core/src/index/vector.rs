//! usearch: approximate nearest neighbours by cosine over chunk vectors. The index is a
//! cache of the vectors in SQLite: it is saved atomically with a seal recorded in SQLite (a
//! checksum and the file's identity), and rebuilt from SQLite whenever the two disagree.

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
    /// A memory-mapped view of the saved file: searched in place, never changed.
    view: bool,
}

/// Below this many allowed passages a filtered search scores each of them exactly: cheaper
/// than walking the graph past the passages the filter rejects, and never misses one.
/// (10,000 vectors of 384 dimensions are about 4 million multiply-adds, a few milliseconds.)
pub const EXACT_SCAN_LIMIT: usize = 10_000;

/// How a vector file is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// Read into memory and verified by its checksum: the writer, which changes it.
    Owned,
    /// Mapped from disk and verified by the file identity in its seal (inode, size and
    /// modification time), falling back to the checksum when that differs: readers, which
    /// reopen after every commit and must not read and hash the whole file each time.
    View,
}

/// What SQLite records of a saved vector file: `blake3hex` (older stores) or
/// `blake3hex;SIZE;INODE;MTIME_NS`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seal {
    checksum: String,
    identity: Option<FileIdentity>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileIdentity {
    size: u64,
    inode: u64,
    mtime_ns: i128,
}

impl FileIdentity {
    fn of(path: &Path) -> Option<FileIdentity> {
        let meta = std::fs::metadata(path).ok()?;
        let mtime_ns = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos() as i128;
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(&meta);
        #[cfg(not(unix))]
        let inode = 0;
        Some(FileIdentity { size: meta.len(), inode, mtime_ns })
    }
}

impl Seal {
    fn parse(text: &str) -> Seal {
        let mut parts = text.split(';');
        let checksum = parts.next().unwrap_or_default().to_string();
        let numbers: Vec<&str> = parts.collect();
        let identity = match numbers.as_slice() {
            [size, inode, mtime] => match (size.parse(), inode.parse(), mtime.parse()) {
                (Ok(size), Ok(inode), Ok(mtime_ns)) => Some(FileIdentity { size, inode, mtime_ns }),
                _ => None,
            },
            _ => None,
        };
        Seal { checksum, identity }
    }

    fn text(&self) -> String {
        match self.identity {
            Some(id) => format!("{};{};{};{}", self.checksum, id.size, id.inode, id.mtime_ns),
            None => self.checksum.clone(),
        }
    }
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
        Ok(VectorIndex { index, path: path.to_path_buf(), dimensions, view: false })
    }

    /// Loads the saved index if it matches the seal SQLite recorded (`expected`) and its
    /// shape matches; `None` means it must be rebuilt.
    pub fn load_verified(
        path: &Path,
        dimensions: usize,
        expected: Option<&str>,
        settings: VectorSettings,
        mode: OpenMode,
    ) -> Result<Option<VectorIndex>> {
        if !path.exists() {
            return Ok(None);
        }
        let Some(seal) = expected.map(Seal::parse) else { return Ok(None) };
        // Windows cannot rename a file over one that is mapped, and the writer saves by
        // renaming: readers there read the file instead.
        let view = mode == OpenMode::View && cfg!(unix);
        let same_file = view && seal.identity.is_some() && seal.identity == FileIdentity::of(path);
        if !same_file && file_checksum(path)? != seal.checksum {
            return Ok(None);
        }
        if view {
            start_reading_ahead(path);
        }
        let restored = if view { Index::restore_view(&path.to_string_lossy()) } else { Index::restore(&path.to_string_lossy()) };
        let Ok(index) = restored else { return Ok(None) };
        if index.dimensions() != dimensions || index.scalar_kind() != settings.quantization {
            return Ok(None);
        }
        index.change_expansion_search(settings.expansion_search);
        Ok(Some(VectorIndex { index, path: path.to_path_buf(), dimensions, view }))
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

    fn refuse_view(&self) -> Result<()> {
        if self.view {
            return Err(verr(&self.path, "a vector file opened for reading cannot be changed"));
        }
        Ok(())
    }

    /// Adds or replaces the vector of `id`.
    pub fn upsert(&mut self, id: i64, vector: &[f32]) -> Result<()> {
        self.refuse_view()?;
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
        self.refuse_view()?;
        self.index.remove(id as u64).map(|_| ()).map_err(|e| verr(&self.path, e))
    }

    /// Nearest `k` chunk ids with cosine similarity, optionally only among `allowed` (chunk
    /// ids, sorted ascending).
    pub fn search(&self, query: &[f32], k: usize, allowed: Option<&[i64]>) -> Result<Vec<(i64, f32)>> {
        if self.index.size() == 0 {
            return Ok(Vec::new());
        }
        if let Some(ids) = allowed.filter(|ids| ids.len() <= EXACT_SCAN_LIMIT) {
            return self.scan(query, k, ids);
        }
        let matches = match allowed {
            Some(ids) => self.index.filtered_search(query, k, |key| ids.binary_search(&(key as i64)).is_ok()),
            None => self.index.search(query, k),
        }
        .map_err(|e| verr(&self.path, e))?;
        let mut hits: Vec<(i64, f32)> =
            matches.keys.iter().zip(matches.distances.iter()).map(|(&key, &d)| (key as i64, rounded_similarity(1.0 - d))).collect();
        super::lexical::sort_ranked(&mut hits);
        Ok(hits)
    }

    /// Exact cosine against each of `ids` that has a vector.
    fn scan(&self, query: &[f32], k: usize, ids: &[i64]) -> Result<Vec<(i64, f32)>> {
        let query_norm = query.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::MIN_POSITIVE);
        let mut vector = vec![0f32; self.dimensions];
        let mut hits: Vec<(i64, f32)> = Vec::with_capacity(ids.len().min(k * 4));
        for &id in ids {
            let found = self.index.get(id as u64, &mut vector).map_err(|e| verr(&self.path, e))?;
            if found == 0 {
                continue;
            }
            let (dot, norm) = vector.iter().zip(query).fold((0f32, 0f32), |(d, n), (v, q)| (d + v * q, n + v * v));
            hits.push((id, rounded_similarity(dot / (query_norm * norm.sqrt().max(f32::MIN_POSITIVE)))));
        }
        super::lexical::sort_ranked(&mut hits);
        hits.truncate(k);
        Ok(hits)
    }

    /// Exact search, the recall baseline.
    pub fn exact_search(&self, query: &[f32], k: usize) -> Result<Vec<i64>> {
        let matches = self.index.exact_search(query, k).map_err(|e| verr(&self.path, e))?;
        Ok(matches.keys.iter().map(|&k| k as i64).collect())
    }

    /// Writes the index to a temporary file, syncs it, renames it over the old one and syncs
    /// the folder, so a crash leaves either the old or the new file. Returns its seal, for
    /// SQLite to record.
    pub fn save_atomic(&self) -> Result<String> {
        self.refuse_view()?;
        let tmp = self.path.with_extension("usearch.tmp");
        self.index.save(&tmp.to_string_lossy()).map_err(|e| verr(&tmp, e))?;
        let file = std::fs::OpenOptions::new().write(true).open(&tmp).map_err(|e| Error::io(&tmp, e))?;
        file.sync_all().map_err(|e| Error::io(&tmp, e))?;
        drop(file);
        // The identity is taken before the rename, which keeps the inode and the times.
        let seal = Seal { checksum: file_checksum(&tmp)?, identity: FileIdentity::of(&tmp) };
        std::fs::rename(&tmp, &self.path).map_err(|e| Error::io(&self.path, e))?;
        if let Some(dir) = self.path.parent() {
            if let Ok(d) = std::fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(seal.text())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Asks the kernel to start reading the whole file into the page cache, without waiting: a
/// mapped index is otherwise read page by page, a random read per graph node, by the first
/// searches after a cold start.
fn start_reading_ahead(path: &Path) {
    #[cfg(target_os = "linux")]
    if let Ok(file) = std::fs::File::open(path) {
        // On its own thread: queuing the reads of a large file takes a while itself.
        std::thread::spawn(move || {
            use std::os::fd::AsRawFd;
            // SAFETY: a valid descriptor for the whole call; the advice reads nothing into
            // memory that this process owns.
            unsafe {
                libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_WILLNEED);
            }
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = path;
}

/// Similarities are rounded before ranking: SIMD kernels differ between CPUs in the last bits,
/// and such noise must not reorder near-equal passages (ties then go by id).
fn rounded_similarity(similarity: f32) -> f32 {
    (similarity * 1e4).round() / 1e4
}


#[cfg(test)]
mod tests {
    use super::*;

    /// Fixed pseudo-random unit vectors.
    fn vectors(n: usize, dims: usize) -> Vec<Vec<f32>> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        (0..n)
            .map(|_| {
                let v: Vec<f32> = (0..dims)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        (state % 2000) as f32 / 1000.0 - 1.0
                    })
                    .collect();
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                v.into_iter().map(|x| x / norm).collect()
            })
            .collect()
    }

    fn filled(path: &Path, all: &[Vec<f32>]) -> VectorIndex {
        let mut index = VectorIndex::empty(path, all[0].len(), VectorSettings::default()).unwrap();
        for (i, v) in all.iter().enumerate() {
            index.upsert(i as i64 + 1, v).unwrap();
        }
        index
    }

    fn exact_among(all: &[Vec<f32>], query: &[f32], ids: &[i64], k: usize) -> Vec<i64> {
        let mut scored: Vec<(i64, f32)> =
            ids.iter().map(|&id| (id, all[id as usize - 1].iter().zip(query).map(|(a, b)| a * b).sum::<f32>())).collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        scored.into_iter().take(k).map(|x| x.0).collect()
    }

    #[test]
    fn a_reader_maps_the_saved_file_and_notices_an_in_place_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.usearch");
        let all = vectors(300, 16);
        let seal = filled(&path, &all).save_atomic().unwrap();
        assert_eq!(seal.split(';').count(), 4, "checksum, size, inode, mtime: {seal}");
        let settings = VectorSettings::default();
        let owned = VectorIndex::load_verified(&path, 16, Some(&seal), settings, OpenMode::Owned).unwrap().unwrap();
        let mut view = VectorIndex::load_verified(&path, 16, Some(&seal), settings, OpenMode::View).unwrap().unwrap();
        assert_eq!(view.len(), 300);
        assert_eq!(view.search(&all[7], 5, None).unwrap(), owned.search(&all[7], 5, None).unwrap());
        assert_eq!(view.search(&all[7], 1, None).unwrap()[0].0, 8);
        assert!(view.upsert(1, &all[0]).is_err() && view.remove(1).is_err() && view.save_atomic().is_err(), "a view stays as saved");
        // An older store recorded the checksum alone: still accepted, by hashing.
        let checksum = seal.split(';').next().unwrap();
        assert!(VectorIndex::load_verified(&path, 16, Some(checksum), settings, OpenMode::View).unwrap().is_some());
        drop((owned, view));

        // Rewritten in place (same inode): the identity no longer matches, so the checksum decides.
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 9] ^= 0xff;
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, bytes).unwrap();
        for mode in [OpenMode::View, OpenMode::Owned] {
            assert!(VectorIndex::load_verified(&path, 16, Some(&seal), settings, mode).unwrap().is_none(), "{mode:?}");
        }
    }

    #[test]
    fn a_filtered_search_finds_the_nearest_allowed_passages() {
        let dir = tempfile::tempdir().unwrap();
        let all = vectors(EXACT_SCAN_LIMIT + 2_000, 16);
        let index = filled(&dir.path().join("v.usearch"), &all);
        let query = &all[0];
        // A small set is scanned exactly.
        let few: Vec<i64> = (1..=all.len() as i64).filter(|id| id % 97 == 3).collect();
        let hits = index.search(query, 10, Some(few.as_slice())).unwrap();
        assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), exact_among(&all, query, &few, 10));
        assert!(hits.windows(2).all(|w| w[0].1 >= w[1].1));
        // An id without a vector is passed over.
        assert!(index.search(query, 10, Some(&[999_999i64][..])).unwrap().is_empty());
        // A large set goes through the graph, and keeps to the set.
        let many: Vec<i64> = (1..=all.len() as i64).filter(|id| id % 10 != 0).collect();
        assert!(many.len() > EXACT_SCAN_LIMIT);
        let hits = index.search(query, 10, Some(many.as_slice())).unwrap();
        assert_eq!(hits.len(), 10);
        assert!(hits.iter().all(|(id, _)| many.binary_search(id).is_ok()));
        let exact = exact_among(&all, query, &many, 10);
        let found = hits.iter().filter(|(id, _)| exact.contains(id)).count();
        assert!(found >= 8, "graph search found {found} of the exact 10");
    }
}
