//! Folder watching: notify with a debouncer, so that a save (often several events) or a burst
//! of copies becomes one re-scan of the folder. The incremental indexer then does only what
//! changed (size + mtime, confirmed by content hash).

use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};

use crate::error::{Error, Result};

const DEBOUNCE: Duration = Duration::from_millis(700);

/// What the watcher reports: paths that changed, or that events were lost (rescan all).
#[derive(Debug)]
pub(crate) enum WatchEvent {
    Changed(Vec<PathBuf>),
    Overflow(String),
}

pub(crate) struct FolderWatcher {
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
}

impl FolderWatcher {
    pub(crate) fn new(on_event: impl Fn(WatchEvent) + Send + 'static) -> Result<FolderWatcher> {
        let debouncer = new_debouncer(DEBOUNCE, None, move |result: DebounceEventResult| match result {
            Ok(events) => {
                // Reading a file (the indexer itself hashes and parses them) is not a change.
                let paths: Vec<PathBuf> = events
                    .into_iter()
                    .filter(|e| !matches!(e.event.kind, EventKind::Access(_)))
                    .flat_map(|e| e.event.paths)
                    .collect();
                if !paths.is_empty() {
                    on_event(WatchEvent::Changed(paths));
                }
            }
            Err(errors) => {
                let message = errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ");
                on_event(WatchEvent::Overflow(message));
            }
        })
        .map_err(|e| Error::Watcher(e.to_string()))?;
        Ok(FolderWatcher { debouncer })
    }

    pub(crate) fn watch(&mut self, root: &Path) -> Result<()> {
        let mode = if root.is_dir() { RecursiveMode::Recursive } else { RecursiveMode::NonRecursive };
        self.debouncer.watch(root, mode).map_err(|e| Error::Watch { path: root.to_path_buf(), message: e.to_string() })
    }

    pub(crate) fn unwatch(&mut self, root: &Path) {
        // A folder that is already gone cannot be unwatched; nothing is left to release.
        let _ = self.debouncer.unwatch(root);
    }
}
