//! The contract's drift checks: the generated TypeScript, the build script's permission list
//! and the window's capability all name the same commands as the table.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{bindings_config, command_specs, events::event_specs, typescript, COMMAND_NAMES};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn export_all(dir: &Path) {
    let cfg = bindings_config(dir);
    typescript::export_contract(dir, &command_specs(&cfg), &event_specs(&cfg));
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
    let committed = manifest_dir().join("../ui/src/bindings");
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

#[test]
fn the_contract_names_every_command_once_with_camel_case_arguments() {
    let cfg = bindings_config(Path::new("unused"));
    let ts = typescript::contract_ts(&command_specs(&cfg), &event_specs(&cfg));
    let mut names = COMMAND_NAMES.to_vec();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), COMMAND_NAMES.len(), "a command is listed twice");
    assert!(ts.contains("  view_page: { args: { docId: number; page: number; byteStart: number | null; byteEnd: number | null }; result: PageView };"), "{ts}");
    assert!(ts.contains("onEvent: Channel<AskStreamEvent>"), "{ts}");
    assert!(ts.contains("\"app-error\": AppError;"), "{ts}");
}

/// The quoted names inside the build script's `.commands(&[…])`.
fn build_script_commands() -> Vec<String> {
    let text = std::fs::read_to_string(manifest_dir().join("build.rs")).unwrap();
    let list = text.split(".commands(&[").nth(1).and_then(|rest| rest.split("])").next()).expect("build.rs lists the commands");
    list.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

#[test]
fn the_build_script_and_the_capability_grant_exactly_the_contract() {
    let contract: Vec<String> = COMMAND_NAMES.iter().map(|s| s.to_string()).collect();
    assert_eq!(build_script_commands(), contract, "src-tauri/build.rs must list the contract's commands, in order");
    let capability: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(manifest_dir().join("capabilities/main-window.json")).unwrap()).unwrap();
    let mut granted: Vec<String> = capability["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p.as_str()?.strip_prefix("allow-").map(|c| c.replace('-', "_")))
        .collect();
    let mut expected = contract.clone();
    granted.sort();
    expected.sort();
    assert_eq!(granted, expected, "capabilities/main-window.json must allow exactly the contract's commands");
}
