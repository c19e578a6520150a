//! The indexing thread: the single writer of one data dir. Commands arrive over a channel;
//! folders are indexed one at a time, in the order asked; progress updates the shared status
//! that callers read and are told about. Searching goes through a reader that is reopened
//! after each commit, so it never waits for the writer.

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::folder::{FailedFile, FolderState, FolderStatus, LibraryStatus, RunTracker, SandboxState};
use super::watch::{FolderWatcher, WatchEvent};
use crate::embed::SharedEmbedder;
use crate::engine::{EngineConfig, LibraryCounts, Queries, Reader, Writer};
use crate::error::{Error, Result};
use crate::index::catalog::now_secs;
use crate::progress::{LibraryNotice, Progress, ProgressSink, Silent};

/// Told about every status change (at most every `EMIT_EVERY` unless the change matters).
pub type StatusListener = Box<dyn Fn(&LibraryStatus) + Send + Sync>;

const EMIT_EVERY: Duration = Duration::from_millis(250);
/// How often folders that are unavailable, or that could not be watched, are looked at again
/// (the fallback for drives that come back and for systems out of watch handles).
const RECHECK_EVERY: Duration = Duration::from_secs(30);

enum Command {
    Index(Vec<PathBuf>),
    Changed(Vec<PathBuf>),
    /// Watch events were lost: every folder is checked again.
    RescanAll(String),
    Remove(PathBuf, Sender<Result<()>>),
    ReindexAll,
    Recheck,
    /// The user chose to parse with an incomplete sandbox.
    AcceptWeakSandbox,
    Wake,
    Shutdown,
}

struct Shared {
    config: EngineConfig,
    embedder: SharedEmbedder,
    status: Mutex<LibraryStatus>,
    /// Set by pause; the running folder stops after its current file and waits.
    paused: AtomicBool,
    /// Stops the running folder (pause, cancel, remove).
    cancel_run: AtomicBool,
    /// Set by cancel: drop the queue too.
    cancel_all: AtomicBool,
    reader: Mutex<Option<Arc<Reader>>>,
    reader_stale: AtomicBool,
    listener: StatusListener,
    last_emit: Mutex<Instant>,
}

impl Shared {
    fn status(&self) -> MutexGuard<'_, LibraryStatus> {
        self.status.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn publish(&self, urgent: bool) {
        let snapshot = {
            let mut last = self.last_emit.lock().unwrap_or_else(|p| p.into_inner());
            if !urgent && last.elapsed() < EMIT_EVERY {
                return;
            }
            *last = Instant::now();
            self.status().clone()
        };
        (self.listener)(&snapshot);
    }

    fn update_folder(&self, root: &Path, urgent: bool, f: impl FnOnce(&mut FolderStatus)) {
        {
            let mut status = self.status();
            if let Some(folder) = status.folders.iter_mut().find(|s| s.path == root) {
                f(folder);
            }
            status.busy = status.folders.iter().any(|s| {
                matches!(s.state, FolderState::Queued | FolderState::Indexing | FolderState::Embedding | FolderState::Paused)
            });
        }
        self.publish(urgent);
    }
}

pub struct LibraryService {
    shared: Arc<Shared>,
    commands: Sender<Command>,
    thread: Option<JoinHandle<()>>,
}

impl LibraryService {
    /// Starts the indexing thread with `writer` (the data dir's one writer). Every folder the
    /// library already has is checked at once (size + mtime), so changes made while the
    /// program was closed, and an interrupted run, are picked up where they were left.
    pub fn start(writer: Writer, listener: StatusListener) -> Result<LibraryService> {
        let roots = writer.roots()?;
        let shared = Arc::new(Shared {
            config: writer.config().clone(),
            embedder: writer.embedder_handle(),
            status: Mutex::new(LibraryStatus::default()),
            paused: AtomicBool::new(false),
            cancel_run: AtomicBool::new(false),
            cancel_all: AtomicBool::new(false),
            reader: Mutex::new(None),
            reader_stale: AtomicBool::new(true),
            listener,
            last_emit: Mutex::new(Instant::now() - EMIT_EVERY),
        });
        {
            let mut status = shared.status();
            status.folders = roots.iter().map(|r| FolderStatus::new(r.clone(), FolderState::Queued)).collect();
        }
        refresh_counts(&writer, &shared, None)?;
        let (commands, receiver) = channel();
        let watch_commands = commands.clone();
        let watcher = FolderWatcher::new(move |event| {
            let command = match event {
                WatchEvent::Changed(paths) => Command::Changed(paths),
                WatchEvent::Overflow(message) => Command::RescanAll(message),
            };
            let _ = watch_commands.send(command);
        })?;
        let thread_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("pagewise-indexer".into())
            .spawn(move || {
                let mut worker = Worker { writer, shared: thread_shared, queue: VecDeque::new(), watcher, unwatched: HashSet::new() };
                worker.run(receiver, roots);
            })
            .map_err(|e| Error::Worker(format!("cannot start the indexing thread: {e}")))?;
        Ok(LibraryService { shared, commands, thread: Some(thread) })
    }

    pub fn status(&self) -> LibraryStatus {
        self.shared.status().clone()
    }

    /// Adds files or folders: they are indexed (in the background) and watched from then on.
    pub fn add(&self, paths: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
        let mut added = Vec::new();
        for path in paths {
            let canonical = std::fs::canonicalize(&path).map_err(|e| Error::io(&path, e))?;
            added.push(canonical);
        }
        {
            let mut status = self.shared.status();
            for path in &added {
                match status.folders.iter_mut().find(|f| &f.path == path) {
                    Some(f) => f.state = FolderState::Queued,
                    None => status.folders.push(FolderStatus::new(path.clone(), FolderState::Queued)),
                }
            }
            status.folders.sort_by(|a, b| a.path.cmp(&b.path));
            status.busy = true;
        }
        self.shared.publish(true);
        self.send(Command::Index(added.clone()))?;
        Ok(added)
    }

    /// Removes a folder from the library and its documents from the index; waits until done.
    pub fn remove(&self, root: &Path) -> Result<()> {
        let running = self.shared.status().folders.iter().any(|f| {
            f.path == root && matches!(f.state, FolderState::Indexing | FolderState::Embedding)
        });
        if running {
            self.shared.cancel_run.store(true, Ordering::SeqCst);
        }
        let (reply, answer) = channel();
        self.send(Command::Remove(root.to_path_buf(), reply))?;
        answer.recv().map_err(|_| Error::LibraryStopped)?
    }

    pub fn pause(&self) {
        self.shared.paused.store(true, Ordering::SeqCst);
        self.shared.cancel_run.store(true, Ordering::SeqCst);
        self.shared.status().paused = true;
        self.shared.publish(true);
    }

    pub fn resume(&self) -> Result<()> {
        self.shared.paused.store(false, Ordering::SeqCst);
        self.shared.status().paused = false;
        self.shared.publish(true);
        self.send(Command::Wake)
    }

    /// Stops the running folder and drops the queue; what was indexed stays searchable and a
    /// later run continues from there.
    pub fn cancel(&self) {
        self.shared.cancel_all.store(true, Ordering::SeqCst);
        self.shared.cancel_run.store(true, Ordering::SeqCst);
        let _ = self.send(Command::Wake);
    }

    /// Drops every document and indexes every folder again from the files.
    pub fn reindex_all(&self) -> Result<()> {
        self.shared.cancel_run.store(true, Ordering::SeqCst);
        self.send(Command::ReindexAll)
    }

    /// Looks again at unavailable and unwatched folders now (this also happens every 30 s).
    pub fn recheck(&self) -> Result<()> {
        self.send(Command::Recheck)
    }

    /// Parses files even though the sandbox lacks a layer (the library view said which), and
    /// checks every folder again.
    pub fn accept_weak_sandbox(&self) -> Result<()> {
        self.send(Command::AcceptWeakSandbox)
    }

    /// A reader of the current index (reopened after each commit). Fails until the first
    /// folder has been committed.
    pub fn reader(&self) -> Result<Arc<Reader>> {
        let mut slot = self.shared.reader.lock().unwrap_or_else(|p| p.into_inner());
        let stale = self.shared.reader_stale.swap(false, Ordering::SeqCst);
        match slot.as_ref() {
            Some(engine) if !stale => Ok(Arc::clone(engine)),
            _ => {
                let opened = Reader::open_sharing(self.shared.config.clone(), Arc::clone(&self.shared.embedder));
                match opened {
                    Ok(engine) => {
                        let engine = Arc::new(engine);
                        *slot = Some(Arc::clone(&engine));
                        Ok(engine)
                    }
                    Err(e) => {
                        self.shared.reader_stale.store(true, Ordering::SeqCst);
                        Err(e)
                    }
                }
            }
        }
    }

    pub fn config(&self) -> &EngineConfig {
        &self.shared.config
    }

    fn send(&self, command: Command) -> Result<()> {
        self.commands.send(command).map_err(|_| Error::LibraryStopped)
    }
}

impl Drop for LibraryService {
    fn drop(&mut self) {
        self.shared.cancel_run.store(true, Ordering::SeqCst);
        let _ = self.commands.send(Command::Shutdown);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Documents, chunks and failures per folder, as the stores hold them now. `settle` changes a
/// folder's state under the same lock, so no one reads a finished state beside old counts.
fn refresh_counts(engine: &Writer, shared: &Shared, settle: Option<(&Path, &dyn Fn(&mut FolderStatus))>) -> Result<()> {
    let counts = engine.library_counts();
    let mut status = shared.status();
    if let Some((root, change)) = settle {
        if let Some(folder) = status.folders.iter_mut().find(|f| f.path == root) {
            change(folder);
        }
        status.busy = status.folders.iter().any(|s| {
            matches!(s.state, FolderState::Queued | FolderState::Indexing | FolderState::Embedding | FolderState::Paused)
        });
    }
    let LibraryCounts { documents: docs, failures, chunks, embedded } = counts?;
    status.documents = docs.len() as u64;
    status.chunks = chunks;
    status.pending_vectors = chunks - embedded;
    for folder in status.folders.iter_mut() {
        if matches!(folder.state, FolderState::Indexing | FolderState::Embedding) {
            continue;
        }
        let inside: Vec<_> = docs.iter().filter(|d| folder.contains(&d.path)).collect();
        let indexed = inside.len() as u64;
        folder.pages = inside.iter().map(|d| u64::from(d.page_count)).sum();
        let mut failed: Vec<FailedFile> = failures
            .iter()
            .filter(|(p, _)| folder.contains(p))
            .map(|(p, f)| FailedFile { path: p.clone(), reason: f.reason.clone() })
            .collect();
        failed.sort_by(|a, b| a.path.cmp(&b.path));
        folder.files_total = indexed + failed.len() as u64;
        folder.files_done = folder.files_total;
        folder.failed = failed;
    }
    Ok(())
}

struct Worker {
    writer: Writer,
    shared: Arc<Shared>,
    queue: VecDeque<PathBuf>,
    watcher: FolderWatcher,
    /// Folders whose watch could not be set up; re-scanned on every recheck.
    unwatched: HashSet<PathBuf>,
}

/// Reports a run's progress into the folder's status.
struct FolderProgress<'a> {
    shared: &'a Shared,
    root: &'a Path,
    tracker: Mutex<RunTracker>,
}

impl ProgressSink for FolderProgress<'_> {
    fn report(&self, event: &Progress) {
        match event {
            Progress::Committed { .. } => self.shared.reader_stale.store(true, Ordering::SeqCst),
            // A run's notice (vectors waiting for an absent server) is the library's news.
            Progress::Notice { notice } => {
                self.shared.status().notice = Some(notice.clone());
                self.shared.publish(true);
            }
            _ => {}
        }
        let mut tracker = self.tracker.lock().unwrap_or_else(|p| p.into_inner());
        let mut urgent = false;
        self.shared.update_folder(self.root, false, |folder| urgent = tracker.apply(folder, event));
        if urgent {
            self.shared.publish(true);
        }
    }
}

impl Worker {
    fn run(&mut self, commands: Receiver<Command>, initial: Vec<PathBuf>) {
        self.check_sandbox();
        for root in initial {
            if let Err(e) = self.watcher.watch(&root) {
                self.mark_watch_error(&root, &e);
            }
            self.queue.push_back(root);
        }
        loop {
            let idle = self.queue.is_empty() || self.shared.paused.load(Ordering::SeqCst);
            let command = if idle {
                match commands.recv_timeout(RECHECK_EVERY) {
                    Ok(c) => Some(c),
                    Err(RecvTimeoutError::Timeout) => {
                        self.recheck();
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            } else {
                match commands.recv_timeout(Duration::from_millis(1)) {
                    Ok(c) => Some(c),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            };
            if let Some(command) = command {
                if !self.handle(command) {
                    return;
                }
                continue;
            }
            if self.shared.cancel_all.swap(false, Ordering::SeqCst) {
                self.stop_queue();
                continue;
            }
            if let Some(root) = self.queue.pop_front() {
                self.index(root);
            }
        }
    }

    /// Asks a worker what its sandbox holds, so the library view can say what is missing
    /// before any file is refused.
    fn check_sandbox(&mut self) {
        let config = self.writer.config();
        let Ok(mut worker) = config.isolated_worker() else { return };
        let state = match worker.sandbox() {
            Ok(applied) => SandboxState {
                missing: applied.missing(),
                accepted: config.accept_weak_sandbox,
                error: None,
            },
            Err(e) => SandboxState { missing: Vec::new(), accepted: config.accept_weak_sandbox, error: Some(e.to_string()) },
        };
        self.shared.status().sandbox = Some(state);
        self.shared.publish(true);
    }

    /// Returns false on shutdown.
    fn handle(&mut self, command: Command) -> bool {
        match command {
            Command::Index(paths) => {
                for path in paths {
                    if let Err(e) = self.watcher.watch(&path) {
                        self.mark_watch_error(&path, &e);
                    }
                    self.enqueue(path);
                }
            }
            Command::Changed(paths) => {
                let data_dir = self.shared.config.data_dir.clone();
                let roots: Vec<PathBuf> = self.shared.status().folders.iter().map(|f| f.path.clone()).collect();
                for path in paths.iter().filter(|p| !p.starts_with(&data_dir)) {
                    for root in &roots {
                        let inside = path.strip_prefix(root).map(|rel| !is_hidden(rel)).unwrap_or(false);
                        if inside || root.starts_with(path) {
                            self.enqueue(root.clone());
                        }
                    }
                }
            }
            Command::RescanAll(message) => {
                self.shared.status().notice = Some(LibraryNotice::EventsLost { why: message });
                let roots: Vec<PathBuf> = self.shared.status().folders.iter().map(|f| f.path.clone()).collect();
                for root in roots {
                    self.enqueue(root);
                }
            }
            Command::Remove(root, reply) => {
                self.queue.retain(|r| r != &root);
                self.unwatched.remove(&root);
                self.watcher.unwatch(&root);
                let result = self.writer.remove_root(&root, &Silent).map(|_| ());
                self.shared.reader_stale.store(true, Ordering::SeqCst);
                self.shared.status().folders.retain(|f| f.path != root);
                self.refresh();
                self.shared.publish(true);
                let _ = reply.send(result);
            }
            Command::ReindexAll => {
                self.shared.cancel_run.store(false, Ordering::SeqCst);
                let roots: Vec<PathBuf> = self.shared.status().folders.iter().map(|f| f.path.clone()).collect();
                for root in roots {
                    if let Err(e) = self.writer.remove_root(&root, &Silent) {
                        self.shared.update_folder(&root, true, |f| {
                            f.state = FolderState::Error;
                            f.error = Some(e.to_string());
                        });
                        continue;
                    }
                    self.shared.update_folder(&root, false, |f| {
                        f.failed.clear();
                        f.state = FolderState::Queued;
                    });
                    self.enqueue(root);
                }
                self.shared.reader_stale.store(true, Ordering::SeqCst);
                self.shared.publish(true);
            }
            Command::Recheck => self.recheck(),
            Command::AcceptWeakSandbox => {
                self.writer.accept_weak_sandbox();
                if let Some(sandbox) = self.shared.status().sandbox.as_mut() {
                    sandbox.accepted = true;
                }
                self.shared.publish(true);
                let roots: Vec<PathBuf> = self.shared.status().folders.iter().map(|f| f.path.clone()).collect();
                for root in roots {
                    self.enqueue(root);
                }
            }
            Command::Wake => {}
            Command::Shutdown => return false,
        }
        true
    }

    fn enqueue(&mut self, root: PathBuf) {
        if !self.queue.contains(&root) {
            self.shared.update_folder(&root, false, |f| {
                if !matches!(f.state, FolderState::Indexing | FolderState::Embedding) {
                    f.state = FolderState::Queued;
                }
            });
            self.queue.push_back(root);
        }
    }

    /// Re-reads the counts; a failure is shown as the library's error rather than lost.
    fn refresh(&self) {
        self.settle_and_refresh(None);
    }

    fn settle_and_refresh(&self, settle: Option<(&Path, &dyn Fn(&mut FolderStatus))>) {
        let result = refresh_counts(&self.writer, &self.shared, settle);
        self.shared.status().error = result.err().map(|e| format!("cannot read the index: {e}"));
    }

    fn stop_queue(&mut self) {
        for root in std::mem::take(&mut self.queue) {
            self.shared.update_folder(&root, false, |f| f.state = FolderState::Stopped);
        }
        self.refresh();
        self.shared.publish(true);
    }

    fn mark_watch_error(&mut self, root: &Path, e: &Error) {
        self.unwatched.insert(root.to_path_buf());
        self.shared.update_folder(root, true, |f| {
            f.error = Some(format!("not watched for changes ({e}); checked every {} s instead", RECHECK_EVERY.as_secs()))
        });
    }

    /// Folders that came back are watched and indexed again; folders without a watch are
    /// re-scanned (cheap: size and mtime decide what is redone). Passages left waiting by an
    /// embedding server that was away are embedded once it answers.
    fn recheck(&mut self) {
        self.embed_waiting();
        let folders: Vec<(PathBuf, FolderState)> = self.shared.status().folders.iter().map(|f| (f.path.clone(), f.state)).collect();
        for (root, state) in folders {
            if state == FolderState::Unavailable && root.exists() {
                match self.watcher.watch(&root) {
                    Ok(()) => {
                        self.unwatched.remove(&root);
                    }
                    Err(e) => self.mark_watch_error(&root, &e),
                }
                self.shared.update_folder(&root, true, |f| f.error = None);
                self.enqueue(root);
            } else if self.unwatched.contains(&root) && state != FolderState::Unavailable {
                if self.watcher.watch(&root).is_ok() {
                    self.unwatched.remove(&root);
                    self.shared.update_folder(&root, true, |f| f.error = None);
                }
                self.enqueue(root);
            }
        }
    }

    /// A run over no folder embeds the library's pending passages without re-scanning any.
    /// Only for a server's embedder: a local model's passages wait only after the user
    /// stopped a run, and a stop must hold.
    fn embed_waiting(&mut self) {
        if !self.shared.embedder.served_remotely() || !self.queue.is_empty() || self.shared.paused.load(Ordering::SeqCst) {
            return;
        }
        let waiting = {
            let status = self.shared.status();
            status.pending_vectors > 0 && !status.folders.iter().any(|f| matches!(f.state, FolderState::Stopped | FolderState::Paused))
        };
        if !waiting {
            return;
        }
        self.shared.cancel_run.store(false, Ordering::SeqCst);
        // The server's absence is already told by the run that left the passages waiting.
        if let Ok(report) = self.writer.index_paths(&[], true, &Silent, &self.shared.cancel_run) {
            if report.embedded > 0 {
                if report.pending_vectors == 0 {
                    // Whatever the notice said (most likely that vectors were waiting) is over.
                    self.shared.status().notice = None;
                }
                self.shared.reader_stale.store(true, Ordering::SeqCst);
                self.refresh();
                self.shared.publish(true);
            }
        }
    }

    fn index(&mut self, root: PathBuf) {
        if !root.exists() {
            self.shared.update_folder(&root, true, |f| {
                f.state = FolderState::Unavailable;
                f.error = Some("not found (moved, deleted or on a drive that is not connected); its documents are kept".into());
            });
            return;
        }
        self.shared.cancel_run.store(false, Ordering::SeqCst);
        let tracker = {
            let mut status = self.shared.status();
            match status.folders.iter_mut().find(|f| f.path == root) {
                Some(folder) => RunTracker::start(folder),
                None => return,
            }
        };
        self.shared.publish(true);
        let sink = FolderProgress { shared: &self.shared, root: &root, tracker: Mutex::new(tracker) };
        let result = self.writer.index_paths(std::slice::from_ref(&root), true, &sink, &self.shared.cancel_run);
        self.shared.reader_stale.store(true, Ordering::SeqCst);
        let paused = self.shared.paused.load(Ordering::SeqCst);
        match result {
            Ok(report) if report.interrupted => {
                if paused {
                    self.queue.push_front(root.clone());
                }
                let state = if paused { FolderState::Paused } else { FolderState::Stopped };
                self.settle_and_refresh(Some((&root, &|f: &mut FolderStatus| {
                    f.state = state;
                    f.rate_files_per_s = None;
                    f.eta_s = None;
                })));
            }
            Ok(_) => {
                let finished = now_secs();
                self.settle_and_refresh(Some((&root, &|f: &mut FolderStatus| {
                    f.state = FolderState::UpToDate;
                    f.last_indexed = Some(finished);
                    f.rate_files_per_s = None;
                    f.eta_s = None;
                })));
            }
            Err(e) => {
                let error = e.to_string();
                self.settle_and_refresh(Some((&root, &|f: &mut FolderStatus| {
                    f.state = FolderState::Error;
                    f.error = Some(error.clone());
                })));
            }
        }
        self.shared.publish(true);
    }
}

/// Hidden entries are not indexed (see the walker), so their changes need no re-scan.
fn is_hidden(relative: &Path) -> bool {
    relative.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_library::{test_library, TestLibrary};

    fn wait_until(service: &LibraryService, what: &str, done: impl Fn(&LibraryStatus) -> bool) -> LibraryStatus {
        let until = Instant::now() + Duration::from_secs(120);
        loop {
            let status = service.status();
            if done(&status) {
                return status;
            }
            assert!(Instant::now() < until, "timed out waiting for {what}: {status:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    #[test]
    fn the_service_reports_the_stores_and_follows_additions_and_removals() {
        let TestLibrary { dir, writer, reader: _ } = test_library();
        let heard = Arc::new(Mutex::new(0usize));
        let counter = Arc::clone(&heard);
        let service = LibraryService::start(writer, Box::new(move |_| *counter.lock().unwrap() += 1)).unwrap();
        // At start the counts come from the stores, before any folder is looked at again.
        let status = service.status();
        assert_eq!((status.documents, status.folders.len()), (2, 1));
        assert!(status.chunks > 0);
        let status = wait_until(&service, "the startup check", |s| s.folders.iter().all(|f| f.state == FolderState::UpToDate));
        assert_eq!(status.folders[0].files_total, 2);
        assert_eq!(service.reader().unwrap().documents().unwrap().len(), 2);

        // A path that does not exist is refused whole; nothing is queued.
        assert!(service.add(vec![dir.path().join("nowhere")]).is_err());
        assert_eq!(service.status().folders.len(), 1);

        let more = dir.path().join("more");
        std::fs::create_dir_all(&more).unwrap();
        std::fs::write(more.join("minutes.md"), "# Minutes\n\nThe board approved the solar roof on 3 May.\n").unwrap();
        let added = service.add(vec![more.clone()]).unwrap();
        assert_eq!(added, vec![more.canonicalize().unwrap()]);
        let status = wait_until(&service, "the new folder", |s| s.documents == 3 && !s.busy);
        assert_eq!(status.folders.len(), 2);
        // The reader is reopened after the commit: it sees the new document.
        assert_eq!(service.reader().unwrap().documents().unwrap().len(), 3);

        service.remove(&added[0]).unwrap();
        let status = wait_until(&service, "the removal", |s| s.documents == 2);
        assert_eq!(status.folders.len(), 1);
        assert_eq!(service.reader().unwrap().documents().unwrap().len(), 2);
        assert!(*heard.lock().unwrap() > 0, "status changes are told");
    }

    /// The real MiniLM behind a switch, standing for an embedding server that goes away.
    struct Switchable {
        model: SharedEmbedder,
        away: Arc<AtomicBool>,
    }

    impl crate::embed::Embedder for Switchable {
        fn model_id(&self) -> &str {
            self.model.model_id()
        }
        fn dimensions(&self) -> usize {
            self.model.dimensions()
        }
        fn embed(&self, texts: &[String], role: crate::embed::TextRole) -> Result<Vec<Vec<f32>>> {
            if self.away.load(Ordering::SeqCst) {
                return Err(Error::EmbeddingService { message: "cannot reach http://10.0.0.5:8080/v1".into() });
            }
            self.model.embed(texts, role)
        }
        fn served_remotely(&self) -> bool {
            true
        }
    }

    impl crate::chunk::TokenCounter for Switchable {
        fn count(&self, text: &str) -> usize {
            self.model.count(text)
        }
    }

    #[test]
    fn passages_added_while_the_embedding_server_is_away_are_embedded_when_it_answers() {
        let TestLibrary { dir, writer, reader } = test_library();
        let config = EngineConfig::new(dir.path().join("data"), crate::models::locate(None, None).unwrap());
        let away = Arc::new(AtomicBool::new(true));
        let embedder: SharedEmbedder = Arc::new(Switchable { model: writer.embedder_handle(), away: Arc::clone(&away) });
        drop((reader, writer));
        let writer = Writer::open_with_embedder(config, embedder).unwrap();
        let service = LibraryService::start(writer, Box::new(|_| {})).unwrap();
        wait_until(&service, "the startup check", |s| s.folders.iter().all(|f| f.state == FolderState::UpToDate));

        let more = dir.path().join("more");
        std::fs::create_dir_all(&more).unwrap();
        std::fs::write(more.join("minutes.md"), "# Minutes\n\nThe board approved the solar roof on 3 May.\n").unwrap();
        service.add(vec![more]).unwrap();
        let status = wait_until(&service, "the new folder", |s| s.documents == 3 && !s.busy);
        assert!(status.pending_vectors > 0, "{status:?}");
        assert!(
            matches!(&status.notice, Some(LibraryNotice::EmbeddingServerStopped { why, waiting }) if why.contains("cannot reach") && *waiting > 0),
            "{status:?}"
        );
        assert!(status.folders.iter().all(|f| f.state == FolderState::UpToDate && f.error.is_none()), "the run is not a failure: {status:?}");
        let hits = service.reader().unwrap().search("solar roof", &crate::retrieve::SearchParams::default()).unwrap();
        assert!(hits.hits.first().is_some_and(|h| h.doc_path.ends_with("minutes.md")), "keyword-searchable meanwhile");

        // Still away: a recheck leaves them waiting.
        service.recheck().unwrap();
        std::thread::sleep(Duration::from_millis(500));
        assert_eq!(service.status().pending_vectors, status.pending_vectors);
        away.store(false, Ordering::SeqCst);
        service.recheck().unwrap();
        let status = wait_until(&service, "the waiting passages' vectors", |s| s.pending_vectors == 0);
        assert_eq!(status.notice, None, "the waiting is over");
    }
}
