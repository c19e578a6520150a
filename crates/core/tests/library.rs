//! The library service over real stores and the real embedding model: background indexing
//! with pause, resume and cancel; a restart that continues instead of starting over; watched
//! folders whose new, changed and deleted files reach search by themselves; removal.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pagewise_core::library::{FolderState, LibraryService, LibraryStatus};
use pagewise_core::{models, EngineConfig, Queries, SearchMode, SearchParams, Writer};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn config(data: &Path) -> EngineConfig {
    std::env::set_var("PAGEWISE_MODELS_DIR", repo().join("models"));
    EngineConfig::new(data.to_path_buf(), models::locate(None, None).expect("models: run models/fetch.sh"))
}

fn notes(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..n {
        let text = format!("# Note {i}\n\nSite {i} logged an inverter check and {} kWh of output on day {}.\n", i * 17, i % 28 + 1);
        std::fs::write(dir.join(format!("note-{i:04}.md")), text).unwrap();
    }
}

fn start(data: &Path) -> (LibraryService, Arc<Mutex<Vec<LibraryStatus>>>) {
    let heard: Arc<Mutex<Vec<LibraryStatus>>> = Arc::default();
    let sink = Arc::clone(&heard);
    let service = LibraryService::start(
        Writer::open(config(data)).unwrap(),
        Box::new(move |s| sink.lock().unwrap().push(s.clone())),
    )
    .unwrap();
    (service, heard)
}

fn wait(service: &LibraryService, what: &str, timeout: Duration, done: impl Fn(&LibraryStatus) -> bool) -> LibraryStatus {
    let until = Instant::now() + timeout;
    loop {
        let status = service.status();
        if done(&status) {
            return status;
        }
        assert!(Instant::now() < until, "timed out waiting for {what}: {status:#?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn state(status: &LibraryStatus, root: &Path) -> Option<FolderState> {
    status.folders.iter().find(|f| f.path == root).map(|f| f.state)
}

fn hits(service: &LibraryService, query: &str) -> Vec<PathBuf> {
    let params = SearchParams { mode: SearchMode::Lexical, ..SearchParams::default() };
    service.reader().unwrap().search(query, &params).unwrap().hits.into_iter().map(|h| h.doc_path).collect()
}

#[test]
fn pause_resume_cancel_and_restart_continue_where_they_left_off() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("notes");
    notes(&folder, 400);
    let folder = folder.canonicalize().unwrap();
    let data = dir.path().join("data");
    {
        let (service, heard) = start(&data);
        service.add(vec![folder.clone()]).unwrap();
        wait(&service, "indexing to start", Duration::from_secs(60), |s| {
            s.folders.iter().any(|f| f.files_done > 0 && f.files_total == 400)
        });
        service.pause();
        let paused = wait(&service, "the pause", Duration::from_secs(60), |s| state(s, &folder) == Some(FolderState::Paused));
        assert!(paused.paused);
        let done_when_paused = paused.folders[0].files_done;
        std::thread::sleep(Duration::from_millis(500));
        assert_eq!(state(&service.status(), &folder), Some(FolderState::Paused), "nothing runs while paused");

        service.resume().unwrap();
        wait(&service, "indexing to resume", Duration::from_secs(60), |s| {
            matches!(state(s, &folder), Some(FolderState::Indexing | FolderState::Embedding | FolderState::UpToDate))
        });
        service.cancel();
        let stopped = wait(&service, "the cancel", Duration::from_secs(60), |s| {
            matches!(state(s, &folder), Some(FolderState::Stopped | FolderState::UpToDate))
        });
        assert!(!stopped.busy);
        assert!(stopped.documents >= done_when_paused.min(1), "what was indexed stays: {stopped:#?}");
        assert!(!heard.lock().unwrap().is_empty(), "status changes were pushed");
    }
    // A new process continues: nothing is indexed twice and the folder ends up complete.
    let (service, heard) = start(&data);
    let done = wait(&service, "the restart to finish", Duration::from_secs(240), |s| state(s, &folder) == Some(FolderState::UpToDate));
    assert_eq!(done.documents, 400);
    assert_eq!(done.pending_vectors, 0);
    assert_eq!(done.folders[0].files_total, 400);
    let consistency = service.reader().unwrap().verify().unwrap();
    assert!(consistency.is_consistent(), "{consistency:?}");
    assert_eq!(consistency.chunks, 400);
    let updates = heard.lock().unwrap();
    assert!(updates.iter().any(|s| s.folders.iter().any(|f| f.rate_files_per_s.is_some() || f.embed_total > 0)), "progress was reported");
    assert!(updates.iter().any(|s| s.folders.iter().any(|f| f.eta_s.is_some())), "an ETA was reported");
}

#[test]
fn watched_folders_follow_the_disk_and_removal_leaves_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("watched");
    notes(&folder, 3);
    let folder = folder.canonicalize().unwrap();
    let (service, _) = start(&dir.path().join("data"));
    service.add(vec![folder.clone()]).unwrap();
    wait(&service, "the first run", Duration::from_secs(60), |s| state(s, &folder) == Some(FolderState::UpToDate));

    let new_file = folder.join("greenhouse.md");
    std::fs::write(&new_file, "# Greenhouse\n\nThe heater was replaced by Ostara Supplies in March.\n").unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while !hits(&service, "Ostara").contains(&new_file) {
        assert!(Instant::now() < until, "a new file in a watched folder never became searchable");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::fs::write(&new_file, "# Greenhouse\n\nThe heater was replaced by Brannock Heating in April.\n").unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while !hits(&service, "Brannock").contains(&new_file) || hits(&service, "Ostara").contains(&new_file) {
        assert!(Instant::now() < until, "an edited file was not re-indexed");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::fs::remove_file(&new_file).unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while hits(&service, "Brannock").contains(&new_file) {
        assert!(Instant::now() < until, "a deleted file stayed searchable");
        std::thread::sleep(Duration::from_millis(100));
    }

    service.remove(&folder).unwrap();
    let status = service.status();
    assert!(status.folders.is_empty());
    assert_eq!(status.documents, 0);
    assert!(hits(&service, "inverter").is_empty());
}

#[test]
fn a_missing_folder_is_marked_unavailable_and_keeps_its_documents() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("drive");
    notes(&folder, 2);
    let folder = folder.canonicalize().unwrap();
    let data = dir.path().join("data");
    {
        let (service, _) = start(&data);
        service.add(vec![folder.clone()]).unwrap();
        wait(&service, "the first run", Duration::from_secs(60), |s| state(s, &folder) == Some(FolderState::UpToDate));
    }
    let moved = dir.path().join("unplugged");
    std::fs::rename(&folder, &moved).unwrap();
    let (service, _) = start(&data);
    let status = wait(&service, "the check at start", Duration::from_secs(60), |s| state(s, &folder) == Some(FolderState::Unavailable));
    assert_eq!(status.documents, 2, "an unplugged drive does not wipe its documents");
    assert!(status.folders[0].error.is_some());
    // The drive comes back with a new file on it: the folder is watched and indexed again.
    std::fs::rename(&moved, &folder).unwrap();
    std::fs::write(folder.join("new.md"), "# New\n\nWritten while the drive was away.\n").unwrap();
    service.recheck().unwrap();
    let back = wait(&service, "the folder to come back", Duration::from_secs(60), |s| {
        state(s, &folder) == Some(FolderState::UpToDate) && s.documents == 3
    });
    assert!(back.folders[0].error.is_none());
}
