//! The single writer: compares the files on disk with what is indexed, parses and chunks
//! what changed, commits keyword index → vector index → SQLite in that order, then embeds
//! pending chunks in the background of the keyword-searchable index.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::store::{NewChunk, NewVersion, StoredFailure, StoredFile};
use super::{document_label, document_profile, LexicalChunk, Stores};
use crate::chunk::{chunk_document, embedding_text, ChunkParams};
use super::embed_lane::{EmbedLane, Embedded};
use crate::embed::{EmbedCount, TextRole};
use crate::error::{Error, Result};
use crate::ingest::{scan, FileEntry};
use crate::isolation::{parse_many, ParseEvent, ParseJob, Parser};
use crate::parse::pdf::PageProgress;
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


/// Commit after this many files or this much time, whichever comes first: often enough that
/// documents become searchable quickly, rarely enough that commits stay cheap.
const COMMIT_FILES: usize = 24;
const COMMIT_EVERY: Duration = Duration::from_secs(3);
/// Passages per embedding call: the embedder sorts them by length into batches, and a wider
/// window to sort means less padding (128 cost 20% more time than 1,024 on the dev filings).
const EMBED_BATCH: usize = 1024;
/// Files modified more recently than this are compared by content, not by size and mtime.
const RACY_MTIME_NS: i64 = 3_000_000_000;
const VECTOR_SAVE_EVERY: Duration = Duration::from_secs(20);

/// A parsed file on its way into the stores.
struct Ingest<'a> {
    entry: &'a FileEntry,
    content_hash: &'a String,
    doc_id: i64,
    existing: Option<&'a StoredFile>,
    document: Document,
    embedder: &'a dyn EmbedCount,
    chunk_params: ChunkParams,
}

#[derive(Default)]
pub(super) struct Batch {
    pub(super) versions: Vec<NewVersion>,
    removed: Vec<i64>,
    touched: Vec<(i64, i64)>,
    renames: Vec<(i64, PathBuf, i64)>,
    pub(super) vector_changes: bool,
    pub(super) files: usize,
    pub(super) pages: usize,
    pub(super) chunks: usize,
}

fn hash_file(path: &Path) -> std::io::Result<String> {
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
    /// Brings the index of `roots` up to date with the disk.
    pub fn index(&mut self, roots: &[PathBuf], run: &mut IndexRun<'_>) -> Result<IndexReport> {
        let mut report = IndexReport::default();
        let found = scan(roots);
        for root in &found.roots {
            self.store.add_root(root)?;
        }
        for (path, reason) in &found.errors {
            report.failed.push((path.clone(), reason.clone()));
        }
        run.progress.report(&Progress::Scanned { files: found.files.len() });

        let stored = self.store.files()?;
        let in_roots = |p: &Path| found.roots.iter().any(|r| p.starts_with(r));
        let by_path: HashMap<&Path, &StoredFile> = stored.iter().map(|f| (f.path.as_path(), f)).collect();
        let mut by_hash: HashMap<&str, (i64, &Path)> = HashMap::new();
        for f in &stored {
            by_hash.entry(f.content_hash.as_str()).or_insert((f.doc_id, f.path.as_path()));
        }
        let on_disk: std::collections::HashSet<&Path> = found.files.iter().map(|f| f.path.as_path()).collect();
        // Stored files under these roots that are gone: removed, unless one was moved.
        let mut missing: Vec<&StoredFile> =
            stored.iter().filter(|f| in_roots(&f.path) && !on_disk.contains(f.path.as_path())).collect();
        let failures = self.store.failures()?;
        // A failed file that is gone needs no report any more.
        for path in failures.keys().filter(|p| in_roots(p) && !on_disk.contains(p.as_path())) {
            self.store.forget_failure(path)?;
        }

        // PDFs read by an older text extraction are read again, once, under each such root.
        let mut stale_roots: Vec<&PathBuf> = Vec::new();
        for root in &found.roots {
            if self.store.meta(&super::MetaKey::PdfText(root.clone()))?.as_deref() != Some(super::meta::PDF_TEXT_VERSION) {
                stale_roots.push(root);
            }
        }
        let reread = |p: &Path| crate::viewer::is_pdf(p) && stale_roots.iter().any(|r| p.starts_with(r));

        let mut to_check = Vec::new();
        let now_ns = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i64);
        for entry in &found.files {
            // A file modified in the last few seconds may change again within the same mtime
            // tick (1–2 s on some file systems) without its size changing: hash it to be sure.
            let settled = now_ns - entry.mtime_ns > RACY_MTIME_NS;
            match by_path.get(entry.path.as_path()) {
                Some(s) if s.size == entry.size && s.mtime_ns == entry.mtime_ns && settled && !reread(&entry.path) => report.unchanged += 1,
                _ => match failures.get(&entry.path) {
                    // A file that failed stays failed until it changes, except that a crash,
                    // a hang or an interrupted parse gets one more try: those can be the
                    // machine's fault, not the file's.
                    Some(f) if f.size == entry.size && f.mtime_ns == entry.mtime_ns && !(may_retry(&f.reason) && f.attempts < PARSE_TRIES) => {
                        report.failed.push((entry.path.clone(), skipped_reason(f)));
                    }
                    _ => to_check.push(entry),
                },
            }
        }
        run.progress.report(&Progress::Planned { to_check: to_check.len(), unchanged: report.unchanged, to_remove: missing.len() });

        // New documents get their ids from their place in the scan (path order), not from the
        // order in which parallel parsers finish: the same files give the same ids on any
        // machine, and the lower id of two identical files is the one indexed first.
        let first_new_doc_id = self.store.next_document_id()?;
        let mut batch = Batch::default();
        // Hash first: touched-but-identical files and moves need no parsing at all.
        let mut to_parse: Vec<(&FileEntry, String)> = Vec::new();
        for entry in to_check {
            if run.cancel.load(Ordering::Relaxed) {
                report.interrupted = true;
                break;
            }
            if let Some(content_hash) = self.classify(entry, run, &by_path, &mut missing, &mut batch, &mut report, reread(&entry.path))? {
                to_parse.push((entry, content_hash));
            }
        }
        let jobs: Vec<ParseJob> =
            to_parse.iter().map(|(e, _)| ParseJob { path: e.path.clone(), format: e.format, size: e.size }).collect();
        // Before a file is parsed, it is recorded as a parse that did not finish: should it
        // take the whole indexer down, the next run knows which file it was, and tries it only
        // once more. A parse that ends replaces the record (a commit clears it, a failure
        // rewrites it); one cut short by a stop is taken back below.
        let attempts: Vec<u32> = to_parse.iter().map(|(e, _)| prior_attempts(failures.get(&e.path), e) + 1).collect();
        let mut started = vec![false; to_parse.len()];
        let mut finished = vec![false; to_parse.len()];
        let mut last_commit = Instant::now();
        let progress = run.progress;
        let (embedder, chunk_params) = (run.embedder, run.chunk_params);
        let on_page = |i: usize, p: PageProgress| {
            if p.ocr {
                progress.report(&Progress::Ocr { path: to_parse[i].0.path.clone(), page: p.page, pages: p.pages });
            }
        };
        let (embed, cancel) = (run.embed, run.cancel);
        let remote = embedder.served_remotely();
        // Set when the embedding server stops answering: parsing goes on, vectors wait.
        let mut server_away: Option<String> = None;
        let stopped = std::thread::scope(|scope| -> Result<bool> {
            // Passages committed while later files are still parsing are embedded meanwhile.
            let mut lane = embed.then(|| EmbedLane::start(scope, embedder, cancel));
            let mut arrived: Vec<(i64, Vec<f32>)> = Vec::new();
            let mut last_save = Instant::now();
            let stopped = parse_many(run.parsers, &jobs, run.max_text_bytes, cancel, &on_page, |i, event| {
                let (entry, content_hash) = &to_parse[i];
                let parsed = match event {
                    ParseEvent::Starting => {
                        started[i] = true;
                        return self.store.record_failure(&entry.path, entry.size, entry.mtime_ns, UNFINISHED_PARSE, attempts[i]);
                    }
                    ParseEvent::Parsed(parsed) => parsed,
                };
                finished[i] = true;
                let outcome = match parsed {
                    Ok(document) => {
                        let existing = by_path.get(entry.path.as_path()).copied();
                        let doc_id = existing.map_or(first_new_doc_id + i as i64, |s| s.doc_id);
                        let ingest = Ingest { entry, content_hash, doc_id, existing, document, embedder, chunk_params };
                        self.ingest(ingest, &by_hash, &mut batch, &mut report)?
                    }
                    Err(reason) => self.fail(entry, reason, attempts[i], &mut report)?,
                };
                let (pages, chunks) = match &outcome {
                    FileOutcome::Indexed => batch.versions.last().map(|v| (v.pages.len(), v.chunks.len())).unwrap_or((0, 0)),
                    _ => (0, 0),
                };
                progress.report(&Progress::FileDone { path: entry.path.clone(), outcome, pages, chunks });
                if batch.files >= COMMIT_FILES || last_commit.elapsed() >= COMMIT_EVERY {
                    let fresh = unembedded(&batch);
                    self.commit_batch(std::mem::take(&mut batch), progress)?;
                    last_commit = Instant::now();
                    if let Some(lane) = lane.as_mut() {
                        let mut results = Vec::new();
                        if server_away.is_none() {
                            lane.send(fresh, EMBED_BATCH, &mut results);
                        }
                        results.extend(lane.ready());
                        let away = if remote { Some(&mut server_away) } else { None };
                        self.take_embedded(results, &mut arrived, &mut report, progress, away)?;
                    }
                }
                if last_save.elapsed() >= VECTOR_SAVE_EVERY && !arrived.is_empty() {
                    self.save_arrived(&mut arrived)?;
                    last_save = Instant::now();
                }
                Ok(())
            })?;
            let stopped = stopped || cancel.load(Ordering::Relaxed);
            let cut_short = to_parse.iter().zip(started.iter().zip(&finished)).filter(|(_, (s, f))| **s && !**f);
            for ((entry, _), _) in cut_short {
                match failures.get(&entry.path) {
                    Some(f) => self.store.record_failure(&entry.path, f.size, f.mtime_ns, &f.reason, f.attempts)?,
                    None => self.store.forget_failure(&entry.path)?,
                }
            }
            if !(report.interrupted || stopped) {
                for gone in std::mem::take(&mut missing) {
                    batch.removed.push(gone.doc_id);
                    report.removed.push(gone.path.clone());
                }
            }
            let fresh = unembedded(&batch);
            self.commit_batch(std::mem::take(&mut batch), run.progress)?;
            if let Some(mut lane) = lane.take() {
                let mut results = Vec::new();
                if !stopped && server_away.is_none() {
                    lane.send(fresh, EMBED_BATCH, &mut results);
                }
                results.extend(lane.finish());
                let away = if remote { Some(&mut server_away) } else { None };
                self.take_embedded(results, &mut arrived, &mut report, progress, away)?;
            }
            self.save_arrived(&mut arrived)?;
            Ok(stopped)
        })?;
        report.interrupted |= stopped;

        if run.embed && !report.interrupted && server_away.is_none() {
            server_away = self.embed_pending(run, &mut report)?;
        }
        if !report.interrupted {
            let now = super::store::now_secs().to_string();
            for root in &found.roots {
                self.store.set_meta(&super::MetaKey::last_scan(root), &now)?;
                self.store.set_meta(&super::MetaKey::PdfText(root.clone()), super::meta::PDF_TEXT_VERSION)?;
            }
        }
        report.pending_vectors = {
            let (chunks, embedded) = self.store.chunk_counts()?;
            chunks - embedded
        };
        if let Some(why) = server_away {
            let message = format!(
                "the embedding server stopped answering ({why}); {} passages are keyword-searchable and wait for their vectors, which the next index run makes once the server answers",
                report.pending_vectors
            );
            run.progress.report(&Progress::Notice { message: message.clone() });
            report.notices.push(message);
        }
        Ok(report)
    }

    /// Takes every document under `root` out of all three stores (in commit order), forgets
    /// its failures and stops tracking the root. Returns the removed paths.
    pub fn remove_root(&mut self, root: &Path, progress: &dyn ProgressSink) -> Result<Vec<PathBuf>> {
        let mut batch = Batch::default();
        let mut removed = Vec::new();
        for f in self.store.files()?.into_iter().filter(|f| f.path.starts_with(root)) {
            batch.removed.push(f.doc_id);
            removed.push(f.path);
        }
        self.commit_batch(batch, progress)?;
        for path in self.store.failures()?.into_keys().filter(|p| p.starts_with(root)) {
            self.store.forget_failure(&path)?;
        }
        self.store.remove_root(root)?;
        Ok(removed)
    }

    fn fail(&mut self, entry: &FileEntry, reason: String, attempts: u32, report: &mut IndexReport) -> Result<FileOutcome> {
        self.store.record_failure(&entry.path, entry.size, entry.mtime_ns, &reason, attempts)?;
        report.failed.push((entry.path.clone(), reason.clone()));
        Ok(FileOutcome::Failed { reason })
    }

    /// Decides what a changed file needs: nothing (same content), a move, a failure, or
    /// parsing (returns its content hash).
    fn classify(
        &mut self,
        entry: &FileEntry,
        run: &IndexRun<'_>,
        by_path: &HashMap<&Path, &StoredFile>,
        missing: &mut Vec<&StoredFile>,
        batch: &mut Batch,
        report: &mut IndexReport,
        reread: bool,
    ) -> Result<Option<String>> {
        let outcome = if entry.size > run.max_file_bytes {
            let reason = format!("file of {} bytes, over the limit of {}", entry.size, run.max_file_bytes);
            self.fail(entry, reason, 1, report)?
        } else {
            let content_hash = match hash_file(&entry.path) {
                Ok(h) => h,
                Err(e) => {
                    let outcome = self.fail(entry, format!("cannot read: {e}"), 1, report)?;
                    run.progress.report(&Progress::FileDone { path: entry.path.clone(), outcome, pages: 0, chunks: 0 });
                    return Ok(None);
                }
            };
            let existing = by_path.get(entry.path.as_path()).copied();
            match existing {
                Some(s) if s.content_hash == content_hash && !reread => {
                    batch.touched.push((s.doc_id, entry.mtime_ns));
                    report.unchanged += 1;
                    FileOutcome::Unchanged
                }
                None => match missing.iter().position(|m| m.content_hash == content_hash) {
                    Some(pos) => {
                        let moved = missing.remove(pos);
                        batch.renames.push((moved.doc_id, entry.path.clone(), entry.mtime_ns));
                        batch.files += 1;
                        report.renamed.push((moved.path.clone(), entry.path.clone()));
                        FileOutcome::Renamed
                    }
                    None => return Ok(Some(content_hash)),
                },
                Some(_) => return Ok(Some(content_hash)),
            }
        };
        run.progress.report(&Progress::FileDone { path: entry.path.clone(), outcome, pages: 0, chunks: 0 });
        Ok(None)
    }

    /// Chunks a parsed file, adds it to the keyword index and queues its SQLite record.
    fn ingest(
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
            .map(|(ordinal, c)| NewChunk {
                id: chunk_id(doc_id, &content_hash, ordinal),
                vector: reusable.get(&reuse_key(&label, &c.heading_path, &c.text)).cloned(),
                page: c.page,
                byte_start: c.byte_start,
                byte_end: c.byte_end,
                heading_path: c.heading_path,
                text: c.text,
                digest: c.digest,
                token_count: c.token_count,
            })
            .collect();
        let title_field = label.clone();
        let headings: Vec<String> = new_chunks.iter().map(|c| c.heading_path.join(" > ")).collect();
        let lexical: Vec<LexicalChunk<'_>> = new_chunks
            .iter()
            .zip(&headings)
            .map(|(c, h)| LexicalChunk { chunk_id: c.id, title: &title_field, heading: h, body: &c.text })
            .collect();
        self.lexical.delete_document(doc_id)?;
        let first_page = document.pages.first().map(|p| p.text.as_str()).unwrap_or_default();
        self.lexical.add_profile(doc_id, &document_profile(&label, first_page))?;
        self.lexical.add_chunks(doc_id, &lexical)?;
        if let Some(s) = existing {
            for old in self.store.chunk_ids_of(s.doc_id)? {
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
        let title = document_label(&self.store.document_title(doc_id)?.unwrap_or_default(), path);
        let by_digest = self.store.vectors_by_digest(doc_id)?;
        let rows = self.store.lexical_rows_of(doc_id)?;
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
            for id in self.store.chunk_ids_of(doc_id)? {
                if self.vectors.contains(id) {
                    self.vectors.remove(id)?;
                    vector_changes = true;
                }
            }
        }
        for (doc_id, path, mtime_ns) in &batch.renames {
            self.store.rename_document(*doc_id, path, *mtime_ns)?;
            self.add_lexical_document(*doc_id, path)?;
        }
        self.lexical.commit()?;
        let checksum = if vector_changes { Some(self.vectors.save_atomic()?) } else { None };
        self.store.commit(&batch.versions, &batch.removed, &batch.touched, checksum.as_deref())?;
        self.store.refresh_facets()?;
        progress.report(&Progress::Committed { files: batch.files, pages: batch.pages, chunks: batch.chunks });
        Ok(())
    }

    /// Embeds chunks that have no vector yet, in batches, saving the vector index and then
    /// SQLite every so often. Stops cleanly between batches when cancelled, and keeps what
    /// it has when an embedding server stops answering (returned as why).
    fn embed_pending(&mut self, run: &mut IndexRun<'_>, report: &mut IndexReport) -> Result<Option<String>> {
        let (chunks, embedded) = self.store.chunk_counts()?;
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
            let pending = self.store.pending_chunks(cursor, EMBED_BATCH)?;
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
    fn take_embedded(
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
    fn save_arrived(&mut self, arrived: &mut Vec<(i64, Vec<f32>)>) -> Result<()> {
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
        self.store.store_vectors(unsaved, &checksum)?;
        unsaved.clear();
        Ok(())
    }
}

/// The passages of a batch that still need a vector, with the text to embed.
fn unembedded(batch: &Batch) -> Vec<(i64, String)> {
    batch
        .versions
        .iter()
        .flat_map(|v| {
            let label = document_label(&v.title, &v.path);
            v.chunks.iter().filter(|c| c.vector.is_none()).map(move |c| (c.id, embedding_text(&label, &c.heading_path, &c.text)))
        })
        .collect()
}

/// Parses a file gets when each ends in a crash, a hang or an interrupted run.
const PARSE_TRIES: u32 = 2;
/// What a file is recorded as while it is being parsed.
const UNFINISHED_PARSE: &str = "parsing did not finish: the indexer stopped while reading this file";

/// Failures that may be the machine's and not the file's: the worker crashed or timed out
/// (its reasons start "parser "), or the indexer itself stopped mid-parse.
fn may_retry(reason: &str) -> bool {
    reason.starts_with("parser ") || reason == UNFINISHED_PARSE
}

/// Failed parses of this version of the file so far (0 for a new or changed file).
fn prior_attempts(failure: Option<&StoredFailure>, entry: &FileEntry) -> u32 {
    failure.filter(|f| f.size == entry.size && f.mtime_ns == entry.mtime_ns).map_or(0, |f| f.attempts)
}

fn skipped_reason(f: &StoredFailure) -> String {
    if may_retry(&f.reason) && f.attempts >= PARSE_TRIES {
        format!("{} — {} times; skipped until the file changes", f.reason, f.attempts)
    } else {
        f.reason.clone()
    }
}
