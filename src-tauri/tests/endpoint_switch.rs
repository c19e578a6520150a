//! Settings switch answers to an OpenAI-compatible server and back, through Tauri's real IPC:
//! llama.cpp's llama-server on loopback, the real library and the same small GGUF locally.

#[path = "../../crates/cli/tests/header_capture.rs"]
mod header_capture;
#[path = "../../crates/cli/tests/llama_server.rs"]
mod llama_server;
mod ipc;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use llama_server::Server;
use pagewise_app::state::{AppState, StartOptions};
use pagewise_app::with_commands;
use ipc::{call, invoke};
use serde_json::{json, Value};
use tauri::test::mock_builder;
use tauri::WebviewWindowBuilder;

const SMALL_MODEL: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";

fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../models")
}



fn ask<W: AsRef<tauri::Webview<tauri::test::MockRuntime>>>(webview: &W) -> Result<Value, Value> {
    let question = "What was the total installed capacity of the Brightwater Solar Cooperative at the end of 2024?";
    invoke(webview, "ask", json!({ "question": question, "conversationId": null, "scope": [], "onEvent": "__CHANNEL__:7" }))
}

#[test]
fn settings_switch_answers_to_a_server_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/sample");
    std::env::set_var("PAGEWISE_MODELS_DIR", models_dir());
    std::env::remove_var("PAGEWISE_API_KEY");
    // The system dialog's answers: what was asked, and whether to say yes.
    let asked: std::sync::Arc<std::sync::Mutex<Vec<String>>> = Default::default();
    let agree = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let (asked_log, agreeing) = (std::sync::Arc::clone(&asked), std::sync::Arc::clone(&agree));
    let state = AppState::start(
        StartOptions {
            config_dir: dir.path().join("config"),
            data_dir: Some(dir.path().join("data")),
            add: Vec::new(),
            sample_dir: Some(sample),
            worker_program: Some(PathBuf::from(env!("CARGO_BIN_EXE_pagewise-app"))),
            confirm: Some(std::sync::Arc::new(move |question: &str| {
                asked_log.lock().unwrap().push(question.to_string());
                agreeing.load(std::sync::atomic::Ordering::SeqCst)
            })),
        },
        Box::new(|_| {}),
    );
    let app = with_commands(mock_builder().plugin(tauri_plugin_dialog::init()).plugin(tauri_plugin_opener::init()))
        .manage(state)
        .build(tauri::generate_context!())
        .unwrap();
    let webview = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    let deadline = Instant::now() + Duration::from_secs(600);
    while call(&webview, "library_status", json!({}))["documents"] != 3 || call(&webview, "library_status", json!({}))["busy"] == true {
        assert!(Instant::now() < deadline, "the sample was not indexed");
        std::thread::sleep(Duration::from_millis(300));
    }
    let local_model = models_dir().join("llm").join(SMALL_MODEL);
    let settings = |use_endpoint: bool, url: &str| {
        let mut s = call(&webview, "get_settings", json!({}));
        s["chat_model"] = json!(local_model);
        s["use_endpoint"] = json!(use_endpoint);
        s["endpoint_url"] = json!(url);
        s["endpoint_model"] = json!("");
        s
    };

    // Local first.
    call(&webview, "set_settings", json!({ "settings": settings(false, "") }));
    let local = ask(&webview).unwrap();
    assert_eq!(local["model"], SMALL_MODEL, "{local:#}");
    // Settings → Network: a local answer connects nowhere.
    assert_eq!(call(&webview, "network_log", json!({})), json!([]));

    // The server wants a key. Without one it is refused, with a clear reason.
    let key = "sk-pagewise-test-7d1c";
    let server = Server::start(&models_dir(), SMALL_MODEL, "small-on-server", &["--api-key", key]);
    assert_eq!(call(&webview, "endpoint_models", json!({ "url": server.url })), json!(["small-on-server"]));
    // Sending questions to a server is confirmed in the system dialog; a "no" changes nothing.
    agree.store(false, std::sync::atomic::Ordering::SeqCst);
    let declined = invoke(&webview, "set_settings", json!({ "settings": settings(true, &server.url) })).err().unwrap();
    assert_eq!(declined["kind"], "declined", "{declined}");
    assert_eq!(call(&webview, "get_settings", json!({}))["use_endpoint"], false);
    agree.store(true, std::sync::atomic::Ordering::SeqCst);
    asked.lock().unwrap().clear();
    call(&webview, "set_settings", json!({ "settings": settings(true, &server.url) }));
    let questions = asked.lock().unwrap().clone();
    assert!(questions.len() == 1 && questions[0].contains(&server.url), "{questions:?}");
    // The chat model already in use needs no new confirmation.
    call(&webview, "set_settings", json!({ "settings": settings(true, &server.url) }));
    assert_eq!(asked.lock().unwrap().len(), 1);
    assert_eq!(call(&webview, "api_key_source", json!({}))["kind"], "none");
    let refused = ask(&webview).unwrap_err();
    assert!(refused.to_string().contains("refused the API key"), "{refused}");

    // The key is kept in the OS keyring where one answers (this test runs a second time under
    // a real gnome-keyring with PAGEWISE_EXPECT_KEYRING=1), else in a file only this user reads.
    let stored = call(&webview, "set_api_key", json!({ "key": key }));
    let key_file = dir.path().join("config/api-key");
    if std::env::var("PAGEWISE_EXPECT_KEYRING").is_ok_and(|v| v == "1") {
        assert_eq!(stored["kind"], "keyring", "{stored}");
        assert!(!key_file.exists(), "a key in the keyring is not also in a file");
    } else {
        assert_eq!(stored["kind"], "file", "{stored}");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the key file is readable by its owner only");
    }
    assert_eq!(call(&webview, "api_key_source", json!({})), stored);
    // The key belongs to that server: "Find models" for another one (an embedding server on
    // this computer) sends none.
    let other = header_capture::HeaderCapture::start();
    let _ = invoke(&webview, "endpoint_models", json!({ "url": other.url }));
    assert!(!other.requests().is_empty(), "the other server was asked");
    assert!(!other.saw_authorization(), "the key went to another server: {:?}", other.requests());
    let status = call(&webview, "model_status", json!({}));
    assert_eq!(status["chat_model"].as_str().unwrap(), format!("its only model at {}", server.url), "{status}");
    let remote = ask(&webview).unwrap();
    assert_eq!(remote["model"].as_str().unwrap(), format!("small-on-server at {}", server.url), "{remote:#}");
    assert!(!remote["raw_model_output"].as_str().unwrap_or("").trim().is_empty(), "the server wrote the answer: {remote:#}");
    assert_eq!(remote["abstained"], false, "{remote:#}");
    assert!(!remote["citations"].as_array().unwrap().is_empty(), "answers through the server are cited: {remote:#}");
    // Settings → Network lists each of those, in order: a model list, the refused answer, the
    // other server's model list, the answer.
    let logged = call(&webview, "network_log", json!({}));
    let port = |url: &str| url.split(['/', ':']).nth(4).unwrap().parse::<u16>().unwrap();
    let rows: Vec<(String, u16, String)> = logged
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["host"].as_str().unwrap().to_string(), r["port"].as_u64().unwrap() as u16, r["purpose"].as_str().unwrap().to_string()))
        .collect();
    let expected = [(port(&server.url), "server_models"), (port(&server.url), "answer_server"), (port(&other.url), "server_models"), (port(&server.url), "answer_server")];
    assert_eq!(rows, expected.map(|(p, why)| ("127.0.0.1".to_string(), p, why.to_string())), "{logged}");

    // A server that stopped: the answer says so.
    drop(server);
    // The answer falls back to cited source sentences and names the problem.
    match ask(&webview) {
        Err(e) => assert!(e.to_string().contains("cannot reach"), "{e}"),
        Ok(a) => assert!(a["note"].as_str().unwrap_or("").contains("cannot reach"), "{a:#}"),
    }

    // Forgetting the key leaves nothing behind.
    assert_eq!(call(&webview, "set_api_key", json!({ "key": "" }))["kind"], "none");
    assert!(!key_file.exists());

    // Back to this computer: the URL is kept for next time, answers are local again.
    call(&webview, "set_settings", json!({ "settings": settings(false, "http://127.0.0.1:9/v1") }));
    let back = ask(&webview).unwrap();
    assert_eq!(back["model"], SMALL_MODEL, "{back:#}");
    assert_eq!(call(&webview, "get_settings", json!({}))["endpoint_url"], "http://127.0.0.1:9/v1");

    // Addresses that are not http(s) are refused.
    let refused = invoke(&webview, "set_settings", json!({ "settings": settings(true, "file:///etc/passwd") })).err().unwrap();
    assert_eq!(refused["kind"], "invalid_input", "{refused}");
    let refused = invoke(&webview, "endpoint_models", json!({ "url": "ftp://x" })).err().unwrap();
    assert_eq!(refused["kind"], "invalid_input", "{refused}");
}
