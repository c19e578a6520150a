//! The single writer's operations on the stores: ingest a parsed file, commit a batch (keyword
//! index → vector index → SQLite, in that order), embed pending chunks. A whole run over a set
//! of roots is an `IndexPass` (`pass.rs`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::catalog::{NewChunk, NewVersion, StoredFile};
use super::{document_label, document_profile, LexicalChunk, Stores};
use crate::chunk::{chunk_document, embedding_text, ChunkParams};
use super::embed_lane::Embedded;
use crate::embed::{EmbedCount, TextRole};
use crate::error::{Error, Result};
use crate::ingest::FileEntry;
use crate::isolation::Parser;
use crate::parse::Document;
use crate::progress::{FileOutcome, IndexReport, Progress, ProgressSink};

/// One indexing run's settings and collaborators.
pub struct IndexRun<'a> {
    pub embedder: &'a (dyn EmbedCount + 'a),
    /// One per parsing lane; several lanes parse files at once.
    pub parsers: &'a mut [Parser],
    pub progress: &'a dyn ProgressSink,
    pub cancel: &'a AtomicBool,
    pub chunk_params: ChunkParams,
    /// Embed now (true) or leave vectors pending (keyword-only run).
    pub embed: bool,
    pub max_file_bytes: u64,
    pub max_text_bytes: u64,
}


/// Passages per embedding call: the embedder sorts them by length into batches, and a wider
/// window to sort means less padding (128 cost 20% more time than 1,024 on the dev filings).
pub(super) const EMBED_BATCH: usize = 1024;
pub(super) const VECTOR_SAVE_EVERY: Duration = Duration::from_secs(20);

/// A parsed file on its way into the stores.
pub(super) struct Ingest<'a> {
    pub(super) entry: &'a FileEntry,
    pub(super) content_hash: &'a String,
    pub(super) doc_id: i64,
    pub(super) existing: Option<&'a StoredFile>,
    pub(super) document: Document,
    pub(super) embedder: &'a dyn EmbedCount,
    pub(super) chunk_params: ChunkParams,
}

#[derive(Default)]
pub(super) struct Batch {
    pub(super) versions: Vec<NewVersion>,
    pub(super) removed: Vec<i64>,
    pub(super) touched: Vec<(i64, i64)>,
    pub(super) renames: Vec<(i64, PathBuf, i64)>,
    pub(super) vector_changes: bool,
    pub(super) files: usize,
    pub(super) pages: usize,
    pub(super) chunks: usize,
}

pub(super) fn hash_file(path: &Path) -> std::io::Result<String> {
    let mut hasher = blake3::Hasher::new();
    let mut file = std::fs::File::open(path)?;
    std::io::copy(&mut file, &mut hasher)?;
    Ok(hasher.finalize().to_hex().to_string())
}

/// Stable across stores and runs: the document, its content and the chunk's place in it.
pub(super) fn chunk_id(doc_id: i64, content_hash: &str, ordinal: usize) -> i64 {
    let mut h = blake3::Hasher::new();
    h.update(&doc_id.to_le_bytes());
    h.update(content_hash.as_bytes());
    h.update(&(ordinal as u64).to_le_bytes());
    let bytes = h.finalize();
    let mut id = [0u8; 8];
    id.copy_from_slice(&bytes.as_bytes()[..8]);
    (u64::from_le_bytes(id) & (i64::MAX as u64)) as i64
}

fn reuse_key(title: &str, heading: &[String], text: &str) -> String {
    blake3::hash(embedding_text(title, heading, text).as_bytes()).to_hex().to_string()
}

impl Stores {
    /// Takes every document under `root` out of all three stores (in commit order), forgets
    /// its failures and stops tracking the root. Returns the removed paths.
    pub fn remove_root(&mut self, root: &Path, progress: &dyn ProgressSink) -> Result<Vec<PathBuf>> {
        let mut batch = Batch::default();
        let mut removed = Vec::new();
        for f in self.catalog.files()?.into_iter().filter(|f| f.path.starts_with(root)) {
            batch.removed.push(f.doc_id);
            removed.push(f.path);
        }
        self.commit_batch(batch, progress)?;
        for path in self.catalog.failures()?.into_keys().filter(|p| p.starts_with(root)) {
            self.catalog.forget_failure(&path)?;
        }
        self.catalog.remove_root(root)?;
        Ok(removed)
    }

    pub(super) fn fail(&mut self, entry: &FileEntry, reason: String, attempts: u32, report: &mut IndexReport) -> Result<FileOutcome> {
        self.catalog.record_failure(&entry.path, entry.size, entry.mtime_ns, &reason, attempts)?;
        report.failed.push((entry.path.clone(), reason.clone()));
        Ok(FileOutcome::Failed { reason })
    }

    /// Chunks a parsed file, adds it to the keyword index and queues its SQLite record.
    pub(super) fn ingest(
        &mut self,
        job: Ingest<'_>,
        by_hash: &HashMap<&str, (i64, &Path)>,
        batch: &mut Batch,
        report: &mut IndexReport,
    ) -> Result<FileOutcome> {
        let Ingest { entry, content_hash, doc_id, existing, document, embedder, chunk_params } = job;
        let content_hash = content_hash.clone();
        // Unchanged passages of an edited file, or a copy of an indexed file, keep their vectors.
        let mut reusable = match existing {
            Some(s) => self.reusable_vectors(s.doc_id, &s.path)?,
            None => HashMap::new(),
        };
        if let Some(&twin) = by_hash.get(content_hash.as_str()) {
            reusable.extend(self.reusable_vectors(twin.0, twin.1)?);
        }
        let label = document_label(&document.title, &entry.path);
        let chunks = chunk_document(&document, &label, embedder, chunk_params);
        let new_chunks: Vec<NewChunk> = chunks
            .into_iter()
            .enumerate()
            .map(|(ordinal, chunk)| NewChunk {
                id: chunk_id(doc_id, &content_hash, ordinal),
                vector: reusable.get(&reuse_key(&label, &chunk.heading_path, &chunk.text)).cloned(),
                chunk,
            })
            .collect();
        let title_field = label.clone();
        let headings: Vec<String> = new_chunks.iter().map(|c| c.chunk.heading_path.join(" > ")).collect();
        let lexical: Vec<LexicalChunk<'_>> = new_chunks
            .iter()
            .zip(&headings)
            .map(|(c, h)| LexicalChunk { chunk_id: c.id, title: &title_field, heading: h, body: &c.chunk.text })
            .collect();
        self.lexical.delete_document(doc_id)?;
        let first_page = document.pages.first().map(|p| p.text.as_str()).unwrap_or_default();
        self.lexical.add_profile(doc_id, &document_profile(&label, first_page))?;
        self.lexical.add_chunks(doc_id, &lexical)?;
        if let Some(s) = existing {
            for old in self.catalog.chunk_ids_of(s.doc_id)? {
                if self.vectors.contains(old) {
                    self.vectors.remove(old)?;
                    batch.vector_changes = true;
                }
            }
        }
        for c in &new_chunks {
            if let Some(v) = &c.vector {
                self.vectors.upsert(c.id, v)?;
                batch.vector_changes = true;
            }
        }
        batch.files += 1;
        batch.pages += document.pages.len();
        batch.chunks += new_chunks.len();
        report.pages += document.pages.len();
        report.chunks += new_chunks.len();
        report.indexed.push(entry.path.clone());
        batch.versions.push(NewVersion {
            doc_id,
            path: entry.path.clone(),
            title: document.title,
            format: document.format.as_str().to_string(),
            content_hash,
            size: entry.size,
            mtime_ns: entry.mtime_ns,
            pages: document.pages.into_iter().map(|p| p.text).collect(),
            chunks: new_chunks,
        });
        Ok(FileOutcome::Indexed)
    }

    fn reusable_vectors(&self, doc_id: i64, path: &Path) -> Result<HashMap<String, Vec<f32>>> {
        let title = document_label(&self.catalog.document_title(doc_id)?.unwrap_or_default(), path);
        let by_digest = self.catalog.vectors_by_digest(doc_id)?;
        let rows = self.catalog.lexical_rows_of(doc_id)?;
        let mut out = HashMap::new();
        for (_, heading, text) in rows {
            if let Some(v) = by_digest.get(&crate::chunk::digest(&text)) {
                out.insert(reuse_key(&title, &heading, &text), v.clone());
            }
        }
        Ok(out)
    }

    /// Keyword index first, then the vector index, then SQLite: SQLite's record is what says a
    /// file is indexed, so a crash in between only leaves work to redo.
    pub(super) fn commit_batch(&mut self, batch: Batch, progress: &dyn ProgressSink) -> Result<()> {
        if batch.versions.is_empty() && batch.removed.is_empty() && batch.touched.is_empty() && batch.renames.is_empty() {
            return Ok(());
        }
        let mut vector_changes = batch.vector_changes;
        for &doc_id in &batch.removed {
            self.lexical.delete_document(doc_id)?;
            for id in self.catalog.chunk_ids_of(doc_id)? {
                if self.vectors.contains(id) {
                    self.vectors.remove(id)?;
                    vector_changes = true;
                }
            }
        }
        for (doc_id, path, mtime_ns) in &batch.renames {
            self.catalog.rename_document(*doc_id, path, *mtime_ns)?;
            self.add_lexical_document(*doc_id, path)?;
        }
        self.lexical.commit()?;
        let checksum = if vector_changes { Some(self.vectors.save_atomic()?) } else { None };
        self.catalog.commit(&batch.versions, &batch.removed, &batch.touched, checksum.as_deref())?;
        self.catalog.refresh_facets()?;
        progress.report(&Progress::Committed { files: batch.files, pages: batch.pages, chunks: batch.chunks });
        Ok(())
    }

    /// Embeds chunks that have no vector yet, in batches, saving the vector index and then
    /// SQLite every so often. Stops cleanly between batches when cancelled, and keeps what
    /// it has when an embedding server stops answering (returned as why).
    pub(super) fn embed_pending(&mut self, run: &mut IndexRun<'_>, report: &mut IndexReport) -> Result<Option<String>> {
        let (chunks, embedded) = self.catalog.chunk_counts()?;
        let total = chunks - embedded;
        if total == 0 {
            return Ok(None);
        }
        let mut server_away = None;
        let mut done = 0u64;
        let mut unsaved: Vec<(i64, Vec<f32>)> = Vec::new();
        let mut last_save = Instant::now();
        let mut cursor = (i64::MIN, i64::MIN);
        loop {
            if run.cancel.load(Ordering::Relaxed) {
                report.interrupted = true;
                break;
            }
            let pending = self.catalog.pending_chunks(cursor, EMBED_BATCH)?;
            let Some(last) = pending.last() else { break };
            cursor = last.cursor;
            let texts: Vec<String> = pending
                .iter()
                .map(|p| embedding_text(&document_label(&p.title, &p.path), &p.heading_path, &p.text))
                .collect();
            let tokens: u64 = texts.iter().map(|t| run.embedder.count(t).min(512) as u64 + 2).sum();
            let started = Instant::now();
            let vectors = match run.embedder.embed(&texts, TextRole::Passage) {
                Ok(vectors) => vectors,
                Err(e) if run.embedder.served_remotely() => {
                    server_away = Some(e.to_string());
                    break;
                }
                Err(e) => return Err(e),
            };
            report.embed_seconds += started.elapsed().as_secs_f64();
            if vectors.len() != pending.len() {
                return Err(Error::EmbeddingService { message: "embedder returned a wrong number of vectors".into() });
            }
            for (p, v) in pending.iter().zip(vectors) {
                self.vectors.upsert(p.id, &v)?;
                unsaved.push((p.id, v));
            }
            done += pending.len() as u64;
            report.embedded += pending.len() as u64;
            report.embedded_tokens += tokens;
            run.progress.report(&Progress::Embedding { done, total, tokens: report.embedded_tokens });
            if last_save.elapsed() >= VECTOR_SAVE_EVERY {
                self.save_vectors(&mut unsaved)?;
                last_save = Instant::now();
            }
        }
        self.save_vectors(&mut unsaved)?;
        Ok(server_away)
    }

    /// Vectors from the embedding lane: counted now, stored at the next save. With
    /// `server_away` (a remote embedder), a failed batch records why instead of ending the
    /// run; its passages stay pending.
    pub(super) fn take_embedded(
        &mut self,
        results: Vec<Result<Embedded>>,
        arrived: &mut Vec<(i64, Vec<f32>)>,
        report: &mut IndexReport,
        progress: &dyn ProgressSink,
        mut server_away: Option<&mut Option<String>>,
    ) -> Result<()> {
        for result in results {
            let embedded = match (result, server_away.as_deref_mut()) {
                (Ok(embedded), _) => embedded,
                (Err(e), Some(away)) => {
                    away.get_or_insert_with(|| e.to_string());
                    continue;
                }
                (Err(e), None) => return Err(e),
            };
            report.embedded += embedded.vectors.len() as u64;
            report.embedded_tokens += embedded.tokens;
            report.embed_seconds += embedded.seconds;
            arrived.extend(embedded.vectors);
        }
        let total = (report.chunks as u64).max(report.embedded);
        progress.report(&Progress::Embedding { done: report.embedded, total, tokens: report.embedded_tokens });
        Ok(())
    }

    /// Puts arrived vectors into the vector index and saves it, then SQLite: until then the
    /// file on disk (which a commit of the parse loop may write) holds none of them, so the
    /// stores never disagree.
    pub(super) fn save_arrived(&mut self, arrived: &mut Vec<(i64, Vec<f32>)>) -> Result<()> {
        for (id, v) in arrived.iter() {
            self.vectors.upsert(*id, v)?;
        }
        self.save_vectors(arrived)
    }

    fn save_vectors(&mut self, unsaved: &mut Vec<(i64, Vec<f32>)>) -> Result<()> {
        if unsaved.is_empty() {
            return Ok(());
        }
        let checksum = self.vectors.save_atomic()?;
        self.catalog.store_vectors(unsaved, &checksum)?;
        unsaved.clear();
        Ok(())
    }
}

/// The passages of a batch that still need a vector, with the text to embed.
pub(super) fn unembedded(batch: &Batch) -> Vec<(i64, String)> {
    batch
        .versions
        .iter()
        .flat_map(|v| {
            let label = document_label(&v.title, &v.path);
            v.chunks.iter().filter(|c| c.vector.is_none()).map(move |c| (c.id, embedding_text(&label, &c.chunk.heading_path, &c.chunk.text)))
        })
        .collect()
}
