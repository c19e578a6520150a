//! What the library reports per folder, and how indexing progress updates it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use crate::progress::{FileOutcome, Progress};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum FolderState {
    Queued,
    Indexing,
    Embedding,
    Paused,
    /// Cancelled by the user; partly indexed until it is indexed again.
    Stopped,
    UpToDate,
    /// The folder is not there (an unplugged drive): its documents are kept.
    Unavailable,
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FailedFile {
    pub path: PathBuf,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FolderStatus {
    /// Names the folder in commands from the app's page, which never names a path itself.
    pub id: String,
    pub path: PathBuf,
    pub state: FolderState,
    pub files_total: u64,
    pub files_done: u64,
    pub pages: u64,
    pub chunks: u64,
    pub embedded: u64,
    pub embed_total: u64,
    pub rate_files_per_s: Option<f64>,
    pub eta_s: Option<f64>,
    pub failed: Vec<FailedFile>,
    /// Unix seconds of the last completed run.
    pub last_indexed: Option<i64>,
    pub error: Option<String>,
    /// The scanned file being read by OCR now, and how far (OCR takes seconds a page).
    pub ocr: Option<OcrActivity>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OcrActivity {
    pub path: PathBuf,
    pub page: u32,
    pub pages: u32,
}

#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LibraryStatus {
    pub folders: Vec<FolderStatus>,
    pub documents: u64,
    pub chunks: u64,
    pub pending_vectors: u64,
    pub paused: bool,
    /// True while a folder is being indexed or waits for it.
    pub busy: bool,
    /// A problem with the library as a whole (the index cannot be read).
    pub error: Option<String>,
    /// Something the user should know that is not an error (a rescan after lost events).
    pub notice: Option<crate::progress::LibraryNotice>,
    /// The parser's sandbox, once checked; `None` where files are parsed in-process.
    pub sandbox: Option<SandboxState>,
}

/// What the parser's sandbox lacks on this machine, and whether the user chose to parse anyway
/// (until then no file is parsed).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SandboxState {
    /// Each missing layer ([`MissingLayer::describe`] says what it means for the user's files).
    pub missing: Vec<crate::isolation::sandbox::MissingLayer>,
    pub accepted: bool,
    /// Why the sandbox could not be checked (the worker did not start).
    pub error: Option<String>,
}

/// A folder's id: stable for its path, and meaningless as a path.
pub fn folder_id(path: &Path) -> String {
    let digest = blake3::hash(path.as_os_str().as_encoded_bytes());
    format!("f{}", &digest.to_hex()[..16])
}

impl FolderStatus {
    pub fn new(path: PathBuf, state: FolderState) -> FolderStatus {
        FolderStatus {
            id: folder_id(&path),
            path,
            state,
            files_total: 0,
            files_done: 0,
            pages: 0,
            chunks: 0,
            embedded: 0,
            embed_total: 0,
            rate_files_per_s: None,
            eta_s: None,
            failed: Vec::new(),
            last_indexed: None,
            error: None,
            ocr: None,
        }
    }

    pub fn contains(&self, path: &Path) -> bool {
        path.starts_with(&self.path)
    }
}

/// Follows one indexing run of one folder and keeps its status current.
pub(crate) struct RunTracker {
    started: Instant,
    embed_started: Option<Instant>,
    /// Files already up to date when the run began: not part of the rate.
    skipped: u64,
}

impl RunTracker {
    pub(crate) fn start(status: &mut FolderStatus) -> RunTracker {
        status.state = FolderState::Indexing;
        status.files_done = 0;
        status.files_total = 0;
        status.pages = 0;
        status.chunks = 0;
        status.embedded = 0;
        status.embed_total = 0;
        status.rate_files_per_s = None;
        status.eta_s = None;
        status.error = None;
        status.ocr = None;
        RunTracker { started: Instant::now(), embed_started: None, skipped: 0 }
    }

    /// Applies one progress event. Returns true when the change is worth showing at once
    /// (a state change or a failure) rather than at the next throttled update.
    pub(crate) fn apply(&mut self, status: &mut FolderStatus, event: &Progress) -> bool {
        match event {
            Progress::Scanned { files } => {
                status.files_total = *files as u64;
                false
            }
            Progress::Planned { to_check, unchanged, .. } => {
                status.files_total = (*to_check + *unchanged) as u64;
                status.files_done = *unchanged as u64;
                self.skipped = *unchanged as u64;
                false
            }
            Progress::Ocr { path, page, pages } => {
                status.ocr = Some(OcrActivity { path: path.clone(), page: *page, pages: *pages });
                false
            }
            Progress::FileDone { path, outcome, pages, chunks } => {
                if status.ocr.as_ref().is_some_and(|o| &o.path == path) {
                    status.ocr = None;
                }
                status.files_done += 1;
                status.pages += *pages as u64;
                status.chunks += *chunks as u64;
                let elapsed = self.started.elapsed().as_secs_f64();
                let worked = status.files_done.saturating_sub(self.skipped);
                if elapsed > 0.2 && worked > 0 {
                    let rate = worked as f64 / elapsed;
                    status.rate_files_per_s = Some(rate);
                    status.eta_s = Some(status.files_total.saturating_sub(status.files_done) as f64 / rate);
                }
                if let FileOutcome::Failed { reason } = outcome {
                    status.failed.retain(|f| &f.path != path);
                    status.failed.push(FailedFile { path: path.clone(), reason: reason.clone() });
                    return true;
                }
                if matches!(outcome, FileOutcome::Indexed) {
                    status.failed.retain(|f| &f.path != path);
                }
                false
            }
            Progress::Committed { .. } | Progress::Notice { .. } => false,
            Progress::Embedding { done, total, .. } => {
                let first = status.state != FolderState::Embedding;
                status.state = FolderState::Embedding;
                status.embedded = *done;
                status.embed_total = *total;
                let started = *self.embed_started.get_or_insert_with(Instant::now);
                let elapsed = started.elapsed().as_secs_f64();
                if elapsed > 0.2 && *done > 0 {
                    status.eta_s = Some((*total - *done) as f64 * elapsed / *done as f64);
                }
                first
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_counts_files_failures_and_embedding() {
        let mut status = FolderStatus::new("/docs".into(), FolderState::Queued);
        let mut run = RunTracker::start(&mut status);
        assert_eq!(status.state, FolderState::Indexing);
        run.apply(&mut status, &Progress::Planned { to_check: 3, unchanged: 2, to_remove: 0 });
        assert_eq!((status.files_done, status.files_total), (2, 5));
        run.apply(&mut status, &Progress::Ocr { path: "/docs/a.pdf".into(), page: 2, pages: 4 });
        assert_eq!(status.ocr, Some(OcrActivity { path: "/docs/a.pdf".into(), page: 2, pages: 4 }));
        run.apply(&mut status, &Progress::FileDone { path: "/docs/a.pdf".into(), outcome: FileOutcome::Indexed, pages: 4, chunks: 9 });
        assert_eq!(status.ocr, None, "the scan is done");
        let urgent = run.apply(
            &mut status,
            &Progress::FileDone { path: "/docs/b.pdf".into(), outcome: FileOutcome::Failed { reason: "encrypted".into() }, pages: 0, chunks: 0 },
        );
        assert!(urgent);
        assert_eq!((status.files_done, status.pages, status.chunks), (4, 4, 9));
        assert_eq!(status.failed, vec![FailedFile { path: "/docs/b.pdf".into(), reason: "encrypted".into() }]);
        assert!(run.apply(&mut status, &Progress::Embedding { done: 10, total: 40, tokens: 900 }));
        assert_eq!(status.state, FolderState::Embedding);
        assert_eq!((status.embedded, status.embed_total), (10, 40));
    }
}
