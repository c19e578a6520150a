//! A start where the parser's sandbox lacks Landlock (made so in test builds): the library
//! says what is missing, reads no file, and reads them once the user agrees in the system
//! dialog (answered here by the test's confirmation).

mod ipc;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ipc::{call, invoke};
use pagewise_app::state::{AppState, StartOptions};
use pagewise_app::with_commands;
use serde_json::{json, Value};
use tauri::test::mock_builder;
use tauri::WebviewWindowBuilder;

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn without_landlock_nothing_is_read_until_the_user_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    std::fs::write(docs.join("pump.md"), "# Pump log\n\nThe Tarnwick pump was serviced in March.\n").unwrap();
    std::env::set_var("PAGEWISE_MODELS_DIR", PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../models"));
    std::env::set_var("PAGEWISE_SANDBOX_SKIP", "landlock");
    let asked: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = Arc::clone(&asked);
    let state = AppState::start(
        StartOptions {
            config_dir: dir.path().join("config"),
            data_dir: Some(dir.path().join("data")),
            add: vec![docs.clone()],
            sample_dir: None,
            worker_program: Some(PathBuf::from(env!("CARGO_BIN_EXE_pagewise-app"))),
            confirm: Some(Arc::new(move |question: &str| {
                log.lock().unwrap().push(question.to_string());
                true
            })),
        },
        Box::new(|_| {}),
    );
    let app = with_commands(mock_builder().plugin(tauri_plugin_dialog::init()).plugin(tauri_plugin_opener::init()))
        .manage(state)
        .build(tauri::generate_context!())
        .unwrap();
    let webview = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    let status = || call(&webview, "library_status", json!({}));

    wait_for("the sandbox check", || status()["sandbox"]["missing"] == json!(["file_access"]));
    wait_for("the folder to settle", || status()["busy"] == false);
    let before: Value = status();
    assert_eq!(before["documents"], 0, "nothing is read before the user agrees: {before:#}");
    assert_eq!(before["sandbox"]["accepted"], false);
    let folder_text = before["folders"].to_string();
    assert!(folder_text.contains("sandbox is incomplete"), "the folder says why it stopped: {before:#}");
    // The page cannot turn it on through Settings.
    let mut settings = call(&webview, "get_settings", json!({}));
    settings["accept_weak_sandbox"] = json!(true);
    call(&webview, "set_settings", json!({ "settings": settings }));
    assert_eq!(call(&webview, "get_settings", json!({}))["accept_weak_sandbox"], false);

    invoke(&webview, "accept_weak_sandbox", json!({})).unwrap();
    let questions = asked.lock().unwrap().clone();
    assert!(questions.len() == 1 && questions[0].contains("Landlock"), "{questions:?}");
    wait_for("the folder to be read", || status()["documents"] == 1);
    assert_eq!(status()["sandbox"]["accepted"], true);
    assert_eq!(call(&webview, "get_settings", json!({}))["accept_weak_sandbox"], true, "kept for the next start");
}
