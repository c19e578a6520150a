//! One indexing run over a set of roots, stage by stage: `survey` (the disk and the stores
//! as they are) → `triage` (what may have changed, by size and mtime) → `hash` (identical
//! content and moves need no parsing) → `parse` (parsing lanes, commits every few files, the
//! embedding lane beside them) → `finish` (vectors still pending, scan marks, notices).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::embed_lane::EmbedLane;
use super::catalog::{StoredFailure, StoredFile};
use super::commit::{hash_file, unembedded, Batch, IndexRun, Ingest, EMBED_BATCH, VECTOR_SAVE_EVERY};
use super::{MetaKey, Stores};
use crate::error::Result;
use crate::ingest::{scan, FileEntry, Scan};
use crate::isolation::{parse_many, ParseEvent, ParseJob};
use crate::parse::pdf::PageProgress;
use crate::progress::{FileOutcome, IndexReport, LibraryNotice, Progress};

/// Commit after this many files or this much time, whichever comes first: often enough that
/// documents become searchable quickly, rarely enough that commits stay cheap.
const COMMIT_FILES: usize = 24;
const COMMIT_EVERY: Duration = Duration::from_secs(3);
/// Files modified more recently than this are compared by content, not by size and mtime.
const RACY_MTIME_NS: i64 = 3_000_000_000;
/// Parses a file gets when each ends in a crash, a hang or an interrupted run.
const PARSE_TRIES: u32 = 2;
/// What a file is recorded as while it is being parsed.
const UNFINISHED_PARSE: &str = "parsing did not finish: the indexer stopped while reading this file";

impl Stores {
    /// Brings the index of `roots` up to date with the disk (see [`IndexPass`]).
    pub fn index(&mut self, roots: &[PathBuf], run: &mut IndexRun<'_>) -> Result<IndexReport> {
        IndexPass { stores: self, run, report: IndexReport::default(), batch: Batch::default() }.run(roots)
    }
}

/// The pass's state: the stores it writes, the run's settings, and what it reports.
struct IndexPass<'p, 'r> {
    stores: &'p mut Stores,
    run: &'p mut IndexRun<'r>,
    report: IndexReport,
    batch: Batch,
}

/// Stage `survey`: the disk and the stores when the pass began.
struct Survey {
    found: Scan,
    stored: Vec<StoredFile>,
    failures: HashMap<PathBuf, StoredFailure>,
    /// Roots whose PDFs an older text extraction read: they are read again, once.
    stale_roots: Vec<PathBuf>,
    /// Roots whose other files an older reader or chunker cut: read again, once.
    stale_text_roots: Vec<PathBuf>,
}

impl Survey {
    fn in_roots(&self, path: &Path) -> bool {
        self.found.roots.iter().any(|r| path.starts_with(r))
    }

    fn reread(&self, path: &Path) -> bool {
        let stale = if crate::viewer::is_pdf(path) { &self.stale_roots } else { &self.stale_text_roots };
        stale.iter().any(|r| path.starts_with(r))
    }

    /// Stored files under the roots that are not on disk: removed, unless one was moved.
    fn missing(&self) -> Vec<&StoredFile> {
        let on_disk: HashSet<&Path> = self.found.files.iter().map(|f| f.path.as_path()).collect();
        self.stored.iter().filter(|f| self.in_roots(&f.path) && !on_disk.contains(f.path.as_path())).collect()
    }
}

/// The stored files by path, and the first of each content.
struct Known<'s> {
    by_path: HashMap<&'s Path, &'s StoredFile>,
    by_hash: HashMap<&'s str, (i64, &'s Path)>,
}

impl<'s> Known<'s> {
    fn of(stored: &'s [StoredFile]) -> Known<'s> {
        let mut by_hash = HashMap::new();
        for f in stored {
            by_hash.entry(f.content_hash.as_str()).or_insert((f.doc_id, f.path.as_path()));
        }
        Known { by_path: stored.iter().map(|f| (f.path.as_path(), f)).collect(), by_hash }
    }
}

/// Stage `parse` while files are parsing: which parses started and ended, and the embedding
/// lane with what it has returned since the last save.
struct Parsing<'t, 'scope> {
    to_parse: &'t [(&'t FileEntry, String)],
    attempts: Vec<u32>,
    started: Vec<bool>,
    finished: Vec<bool>,
    /// New documents take their ids from their place in the scan.
    first_new_doc_id: i64,
    last_commit: Instant,
    last_save: Instant,
    lane: Option<EmbedLane<'scope>>,
    arrived: Vec<(i64, Vec<f32>)>,
    /// Set when the embedding server stops answering: parsing goes on, vectors wait.
    server_away: Option<String>,
}

impl IndexPass<'_, '_> {
    fn run(mut self, roots: &[PathBuf]) -> Result<IndexReport> {
        let survey = self.survey(roots)?;
        let known = Known::of(&survey.stored);
        let mut missing = survey.missing();
        let to_check = self.triage(&survey, &known);
        self.run.progress.report(&Progress::Planned { to_check: to_check.len(), unchanged: self.report.unchanged, to_remove: missing.len() });
        // New documents get their ids from their place in the scan (path order), not from the
        // order in which parallel parsers finish: the same files give the same ids on any
        // machine, and the lower id of two identical files is the one indexed first.
        let first_new_doc_id = self.stores.catalog.next_document_id()?;
        let to_parse = self.hash(to_check, &survey, &known, &mut missing)?;
        let (stopped, server_away) = self.parse(&to_parse, first_new_doc_id, &survey, &known, &mut missing)?;
        self.report.interrupted |= stopped;
        self.finish(&survey, server_away)
    }

    /// Stage `survey`: scans the roots, records them, and forgets failures of files gone.
    fn survey(&mut self, roots: &[PathBuf]) -> Result<Survey> {
        let found = scan(roots);
        let catalog = &mut self.stores.catalog;
        for root in &found.roots {
            catalog.add_root(root)?;
        }
        self.report.failed.extend(found.errors.iter().cloned());
        self.run.progress.report(&Progress::Scanned { files: found.files.len() });
        let mut stale_roots = Vec::new();
        let mut stale_text_roots = Vec::new();
        for root in &found.roots {
            if catalog.meta(&MetaKey::PdfText(root.clone()))?.as_deref() != Some(super::meta::PDF_TEXT_VERSION) {
                stale_roots.push(root.clone());
            }
            if catalog.meta(&MetaKey::TextReading(root.clone()))?.as_deref() != Some(super::meta::TEXT_READING_VERSION) {
                stale_text_roots.push(root.clone());
            }
        }
        let survey = Survey { stored: catalog.files()?, failures: catalog.failures()?, found, stale_roots, stale_text_roots };
        // A failed file that is gone needs no report any more.
        let on_disk: HashSet<&Path> = survey.found.files.iter().map(|f| f.path.as_path()).collect();
        for path in survey.failures.keys().filter(|p| survey.in_roots(p) && !on_disk.contains(p.as_path())) {
            catalog.forget_failure(path)?;
        }
        Ok(survey)
    }

    /// Stage `triage`: the files whose size or mtime changed (or that are new, recent, or
    /// due for a re-read), and the failed ones skipped until they change.
    fn triage<'s>(&mut self, survey: &'s Survey, known: &Known<'_>) -> Vec<&'s FileEntry> {
        let mut to_check = Vec::new();
        let now_ns = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i64);
        for entry in &survey.found.files {
            // A file modified in the last few seconds may change again within the same mtime
            // tick (1–2 s on some file systems) without its size changing: hash it to be sure.
            let settled = now_ns - entry.mtime_ns > RACY_MTIME_NS;
            match known.by_path.get(entry.path.as_path()) {
                Some(s) if s.size == entry.size && s.mtime_ns == entry.mtime_ns && settled && !survey.reread(&entry.path) => {
                    self.report.unchanged += 1
                }
                _ => match survey.failures.get(&entry.path) {
                    // A file that failed stays failed until it changes, except that a crash,
                    // a hang or an interrupted parse gets one more try: those can be the
                    // machine's fault, not the file's.
                    Some(f) if f.size == entry.size && f.mtime_ns == entry.mtime_ns && !(may_retry(&f.reason) && f.attempts < PARSE_TRIES) => {
                        self.report.failed.push((entry.path.clone(), skipped_reason(f)));
                    }
                    _ => to_check.push(entry),
                },
            }
        }
        to_check
    }

    /// Stage `hash`: touched-but-identical files and moves need no parsing; returns the
    /// files that do, with their content hashes.
    fn hash<'s>(&mut self, to_check: Vec<&'s FileEntry>, survey: &Survey, known: &Known<'_>, missing: &mut Vec<&StoredFile>) -> Result<Vec<(&'s FileEntry, String)>> {
        let mut to_parse = Vec::new();
        for entry in to_check {
            if self.run.cancel.load(Ordering::Relaxed) {
                self.report.interrupted = true;
                break;
            }
            if let Some(content_hash) = self.classify(entry, known, missing, survey.reread(&entry.path))? {
                to_parse.push((entry, content_hash));
            }
        }
        Ok(to_parse)
    }

    /// Decides what a changed file needs: nothing (same content), a move, a failure, or
    /// parsing (returns its content hash).
    fn classify(&mut self, entry: &FileEntry, known: &Known<'_>, missing: &mut Vec<&StoredFile>, reread: bool) -> Result<Option<String>> {
        let outcome = if entry.size > self.run.max_file_bytes {
            let reason = format!("file of {} bytes, over the limit of {}", entry.size, self.run.max_file_bytes);
            self.stores.fail(entry, reason, 1, &mut self.report)?
        } else {
            let content_hash = match hash_file(&entry.path) {
                Ok(h) => h,
                Err(e) => {
                    let outcome = self.stores.fail(entry, format!("cannot read: {e}"), 1, &mut self.report)?;
                    self.run.progress.report(&Progress::FileDone { path: entry.path.clone(), outcome, pages: 0, chunks: 0 });
                    return Ok(None);
                }
            };
            match known.by_path.get(entry.path.as_path()).copied() {
                Some(s) if s.content_hash == content_hash && !reread => {
                    self.batch.touched.push((s.doc_id, entry.mtime_ns));
                    self.report.unchanged += 1;
                    FileOutcome::Unchanged
                }
                None => match missing.iter().position(|m| m.content_hash == content_hash) {
                    Some(pos) => {
                        let moved = missing.remove(pos);
                        self.batch.renames.push((moved.doc_id, entry.path.clone(), entry.mtime_ns));
                        self.batch.files += 1;
                        self.report.renamed.push((moved.path.clone(), entry.path.clone()));
                        FileOutcome::Renamed
                    }
                    None => return Ok(Some(content_hash)),
                },
                Some(_) => return Ok(Some(content_hash)),
            }
        };
        self.run.progress.report(&Progress::FileDone { path: entry.path.clone(), outcome, pages: 0, chunks: 0 });
        Ok(None)
    }

    /// Stage `parse`: parses the files in the run's lanes, committing every few files while
    /// the embedding lane embeds what was committed. Returns whether it was stopped, and why
    /// the embedding server stopped answering if it did.
    fn parse(
        &mut self,
        to_parse: &[(&FileEntry, String)],
        first_new_doc_id: i64,
        survey: &Survey,
        known: &Known<'_>,
        missing: &mut Vec<&StoredFile>,
    ) -> Result<(bool, Option<String>)> {
        let jobs: Vec<ParseJob> = to_parse.iter().map(|(e, _)| ParseJob { path: e.path.clone(), format: e.format, size: e.size }).collect();
        // Before a file is parsed, it is recorded as a parse that did not finish: should it
        // take the whole indexer down, the next run knows which file it was, and tries it only
        // once more. A parse that ends replaces the record (a commit clears it, a failure
        // rewrites it); one cut short by a stop is taken back in `settle`.
        let attempts = to_parse.iter().map(|(e, _)| prior_attempts(survey.failures.get(&e.path), e) + 1).collect();
        let progress = self.run.progress;
        let on_page = |i: usize, p: PageProgress| {
            if p.ocr {
                progress.report(&Progress::Ocr { path: to_parse[i].0.path.clone(), page: p.page, pages: p.pages });
            }
        };
        let (embedder, cancel, max_text_bytes) = (self.run.embedder, self.run.cancel, self.run.max_text_bytes);
        let parsers = std::mem::take(&mut self.run.parsers);
        let outcome = std::thread::scope(|scope| -> Result<(bool, Option<String>)> {
            let mut parsing = Parsing {
                to_parse,
                attempts,
                started: vec![false; to_parse.len()],
                finished: vec![false; to_parse.len()],
                first_new_doc_id,
                last_commit: Instant::now(),
                last_save: Instant::now(),
                // Passages committed while later files are still parsing are embedded meanwhile.
                lane: self.run.embed.then(|| EmbedLane::start(scope, embedder, cancel)),
                arrived: Vec::new(),
                server_away: None,
            };
            let stopped = parse_many(parsers, &jobs, max_text_bytes, cancel, &on_page, |i, event| {
                self.on_parse_event(&mut parsing, known, i, event)
            })?;
            let stopped = stopped || cancel.load(Ordering::Relaxed);
            self.settle(&mut parsing, survey, missing, stopped)?;
            Ok((stopped, parsing.server_away))
        });
        self.run.parsers = parsers;
        outcome
    }

    /// One parse started or ended: a started one is recorded as unfinished; an ended one is
    /// ingested or recorded as failed, and a commit follows when one is due.
    fn on_parse_event(&mut self, parsing: &mut Parsing<'_, '_>, known: &Known<'_>, i: usize, event: ParseEvent) -> Result<()> {
        let (entry, content_hash) = &parsing.to_parse[i];
        let parsed = match event {
            ParseEvent::Starting => {
                parsing.started[i] = true;
                return self.stores.catalog.record_failure(&entry.path, entry.size, entry.mtime_ns, UNFINISHED_PARSE, parsing.attempts[i]);
            }
            ParseEvent::Parsed(parsed) => parsed,
        };
        parsing.finished[i] = true;
        let outcome = match parsed {
            Ok(document) => {
                let existing = known.by_path.get(entry.path.as_path()).copied();
                let doc_id = existing.map_or(parsing.first_new_doc_id + i as i64, |s| s.doc_id);
                let (embedder, chunk_params) = (self.run.embedder, self.run.chunk_params);
                let ingest = Ingest { entry, content_hash, doc_id, existing, document, embedder, chunk_params };
                self.stores.ingest(ingest, &known.by_hash, &mut self.batch, &mut self.report)?
            }
            Err(reason) => self.stores.fail(entry, reason, parsing.attempts[i], &mut self.report)?,
        };
        let (pages, chunks) = match &outcome {
            FileOutcome::Indexed => self.batch.versions.last().map(|v| (v.pages.len(), v.chunks.len())).unwrap_or((0, 0)),
            _ => (0, 0),
        };
        self.run.progress.report(&Progress::FileDone { path: entry.path.clone(), outcome, pages, chunks });
        if self.batch.files >= COMMIT_FILES || parsing.last_commit.elapsed() >= COMMIT_EVERY {
            self.commit_and_embed(parsing, true)?;
            parsing.last_commit = Instant::now();
        }
        if parsing.last_save.elapsed() >= VECTOR_SAVE_EVERY && !parsing.arrived.is_empty() {
            self.stores.save_arrived(&mut parsing.arrived)?;
            parsing.last_save = Instant::now();
        }
        Ok(())
    }

    /// Commits the batch and hands its passages to the embedding lane (unless the server is
    /// away or `send` is false), taking whatever vectors the lane has ready.
    fn commit_and_embed(&mut self, parsing: &mut Parsing<'_, '_>, send: bool) -> Result<()> {
        let fresh = unembedded(&self.batch);
        self.stores.commit_batch(std::mem::take(&mut self.batch), self.run.progress)?;
        let Some(lane) = parsing.lane.as_mut() else { return Ok(()) };
        let mut results = Vec::new();
        if send && parsing.server_away.is_none() {
            lane.send(fresh, EMBED_BATCH, &mut results);
        }
        results.extend(lane.ready());
        self.take_embedded(results, parsing)
    }

    /// The end of stage `parse`: parses cut short by a stop are taken back, files gone are
    /// removed (unless the run was stopped), the last batch is committed and the embedding
    /// lane drained and saved.
    fn settle(&mut self, parsing: &mut Parsing<'_, '_>, survey: &Survey, missing: &mut Vec<&StoredFile>, stopped: bool) -> Result<()> {
        let cut_short = parsing.to_parse.iter().zip(parsing.started.iter().zip(&parsing.finished)).filter(|(_, (s, f))| **s && !**f);
        for ((entry, _), _) in cut_short {
            match survey.failures.get(&entry.path) {
                Some(f) => self.stores.catalog.record_failure(&entry.path, f.size, f.mtime_ns, &f.reason, f.attempts)?,
                None => self.stores.catalog.forget_failure(&entry.path)?,
            }
        }
        if !(self.report.interrupted || stopped) {
            for gone in std::mem::take(missing) {
                self.batch.removed.push(gone.doc_id);
                self.report.removed.push(gone.path.clone());
            }
        }
        let fresh = unembedded(&self.batch);
        self.stores.commit_batch(std::mem::take(&mut self.batch), self.run.progress)?;
        if let Some(mut lane) = parsing.lane.take() {
            let mut results = Vec::new();
            if !stopped && parsing.server_away.is_none() {
                lane.send(fresh, EMBED_BATCH, &mut results);
            }
            results.extend(lane.finish());
            self.take_embedded(results, parsing)?;
        }
        self.stores.save_arrived(&mut parsing.arrived)
    }

    fn take_embedded(&mut self, results: Vec<Result<super::embed_lane::Embedded>>, parsing: &mut Parsing<'_, '_>) -> Result<()> {
        let away = if self.run.embedder.served_remotely() { Some(&mut parsing.server_away) } else { None };
        self.stores.take_embedded(results, &mut parsing.arrived, &mut self.report, self.run.progress, away)
    }

    /// Stage `finish`: embeds what is still pending, marks the roots scanned, and says why
    /// vectors wait when the embedding server stopped answering.
    fn finish(mut self, survey: &Survey, mut server_away: Option<String>) -> Result<IndexReport> {
        if self.run.embed && !self.report.interrupted && server_away.is_none() {
            server_away = self.stores.embed_pending(self.run, &mut self.report)?;
        }
        if !self.report.interrupted {
            let now = super::catalog::now_secs().to_string();
            for root in &survey.found.roots {
                self.stores.catalog.set_meta(&MetaKey::last_scan(root), &now)?;
                self.stores.catalog.set_meta(&MetaKey::PdfText(root.clone()), super::meta::PDF_TEXT_VERSION)?;
                self.stores.catalog.set_meta(&MetaKey::TextReading(root.clone()), super::meta::TEXT_READING_VERSION)?;
            }
        }
        let (chunks, embedded) = self.stores.catalog.chunk_counts()?;
        self.report.pending_vectors = chunks - embedded;
        if let Some(why) = server_away {
            let notice = LibraryNotice::EmbeddingServerStopped { why, waiting: self.report.pending_vectors };
            self.run.progress.report(&Progress::Notice { notice: notice.clone() });
            self.report.notices.push(notice);
        }
        Ok(self.report)
    }
}

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

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::engine::test_library::test_library;
    use crate::engine::Queries;
    use crate::progress::Silent;

    fn names<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Vec<String> {
        let mut names: Vec<String> = paths.into_iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    /// Each stage on a real library (SQLite, Tantivy, usearch, MiniLM in a temp dir) after the
    /// changes a user makes between runs: a file touched with the same content, one moved, one
    /// added, one over the size limit.
    #[test]
    fn each_stage_of_a_pass_does_its_own_part() {
        let library = test_library();
        let notes = library.folder();
        let budget = std::fs::read(notes.join("budget.md")).unwrap();
        std::fs::write(notes.join("budget.md"), &budget).unwrap();
        std::fs::rename(notes.join("pumps.md"), notes.join("pumps-moved.md")).unwrap();
        std::fs::write(notes.join("orchard.md"), "# Orchard\n\nThe orchard has forty apple trees.\n").unwrap();
        std::fs::write(notes.join("big.txt"), "x".repeat(4096)).unwrap();

        let config = library.writer.config().clone();
        let embedder = library.writer.embedder_handle();
        let mut parsers = vec![config.parser()];
        let cancel = AtomicBool::new(false);
        let mut run = IndexRun {
            embedder: embedder.as_ref(),
            parsers: &mut parsers,
            progress: &Silent,
            cancel: &cancel,
            chunk_params: config.chunk,
            embed: true,
            max_file_bytes: 1024,
            max_text_bytes: config.max_text_bytes,
        };
        let mut stores = library.writer.stores().unwrap();
        let mut pass = IndexPass { stores: &mut stores, run: &mut run, report: IndexReport::default(), batch: Batch::default() };

        let survey = pass.survey(std::slice::from_ref(&notes)).unwrap();
        assert_eq!(names(survey.found.files.iter().map(|f| f.path.as_path())), ["big.txt", "budget.md", "orchard.md", "pumps-moved.md"]);
        assert_eq!(names(survey.stored.iter().map(|f| f.path.as_path())), ["budget.md", "pumps.md"]);
        let mut missing = survey.missing();
        assert_eq!(names(missing.iter().map(|f| f.path.as_path())), ["pumps.md"]);

        let known = Known::of(&survey.stored);
        let to_check = pass.triage(&survey, &known);
        // The touched file was just written, so it is checked by content like the new ones.
        assert_eq!(names(to_check.iter().map(|f| f.path.as_path())), ["big.txt", "budget.md", "orchard.md", "pumps-moved.md"]);

        let to_parse = pass.hash(to_check, &survey, &known, &mut missing).unwrap();
        assert_eq!(names(to_parse.iter().map(|(f, _)| f.path.as_path())), ["orchard.md"], "same content and moves need no parsing");
        assert!(missing.is_empty(), "the moved file is re-pointed, not removed");
        assert_eq!(pass.report.unchanged, 1);
        assert_eq!(names(pass.report.renamed.iter().map(|(_, to)| to.as_path())), ["pumps-moved.md"]);
        assert_eq!(names(pass.report.failed.iter().map(|(p, _)| p.as_path())), ["big.txt"]);
        assert!(pass.report.failed[0].1.contains("over the limit"), "{:?}", pass.report.failed);

        let first_new = pass.stores.catalog.next_document_id().unwrap();
        let (stopped, server_away) = pass.parse(&to_parse, first_new, &survey, &known, &mut missing).unwrap();
        assert!(!stopped && server_away.is_none());
        assert_eq!(names(pass.report.indexed.iter().map(|p| p.as_path())), ["orchard.md"]);
        assert!(pass.report.chunks >= 1 && pass.report.embedded >= 1, "{:?}", pass.report);

        let report = pass.finish(&survey, None).unwrap();
        assert_eq!((report.pending_vectors, report.interrupted), (0, false));
        assert!(report.notices.is_empty(), "{:?}", report.notices);
        assert_eq!(
            names(stores.catalog.files().unwrap().iter().map(|f| f.path.as_path())),
            ["budget.md", "orchard.md", "pumps-moved.md"],
            "the catalog holds what the disk holds, less the failed file"
        );
        assert!(stores.catalog.failures().unwrap().contains_key(&notes.join("big.txt")));
    }
}
