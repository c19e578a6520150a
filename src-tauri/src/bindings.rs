//! The TypeScript types of everything that crosses between the shell and the page are
//! generated from the Rust definitions into `ui/src/bindings/`. This test fails when the
//! committed files are stale; `UPDATE_BINDINGS=1 cargo test -p pagewise-app bindings`
//! rewrites them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pagewise_core::answer::conversation::{ConversationSummary, Turn};
use pagewise_core::answer::Answer;
use pagewise_core::index::DocumentInfo;
use pagewise_core::library::LibraryStatus;
use pagewise_core::model_catalog::InstalledModel;
use ts_rs::{Config, TS};

use crate::dto::{AskStreamEvent, ExportFormat, ModelKind, ModelStatus, PageView};
use crate::settings::Settings;

fn export_all(dir: &Path) {
    let config = Config::new().with_large_int("number").with_out_dir(dir);
    LibraryStatus::export_all(&config).unwrap();
    DocumentInfo::export_all(&config).unwrap();
    Answer::export_all(&config).unwrap();
    Turn::export_all(&config).unwrap();
    ConversationSummary::export_all(&config).unwrap();
    AskStreamEvent::export_all(&config).unwrap();
    ModelStatus::export_all(&config).unwrap();
    PageView::export_all(&config).unwrap();
    Settings::export_all(&config).unwrap();
    ExportFormat::export_all(&config).unwrap();
    ModelKind::export_all(&config).unwrap();
    InstalledModel::export_all(&config).unwrap();
}

fn read_dir(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    for entry in walk(dir) {
        let text = std::fs::read_to_string(&entry).unwrap();
        out.insert(entry.strip_prefix(dir).unwrap().to_path_buf(), text);
    }
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return files };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "ts") {
            files.push(p);
        }
    }
    files
}

#[test]
fn typescript_bindings_are_up_to_date() {
    let committed = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../ui/src/bindings");
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        let _ = std::fs::remove_dir_all(&committed);
        export_all(&committed);
        return;
    }
    let fresh = tempfile::tempdir().unwrap();
    export_all(fresh.path());
    let expected = read_dir(fresh.path());
    let actual = read_dir(&committed);
    let stale: Vec<String> = expected
        .iter()
        .filter(|(name, text)| actual.get(*name) != Some(text))
        .map(|(name, _)| name.display().to_string())
        .chain(actual.keys().filter(|k| !expected.contains_key(*k)).map(|k| format!("{} (no longer generated)", k.display())))
        .collect();
    assert!(stale.is_empty(), "ui/src/bindings is stale for {stale:?}: run UPDATE_BINDINGS=1 cargo test -p pagewise-app bindings");
}
