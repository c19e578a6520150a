//! The shell's commands through Tauri's real IPC and permission checks (`tauri::test`), with
//! the real core behind them: SQLite, Tantivy and usearch in a temp dir, PDFium, MiniLM and
//! the default GGUF model.

mod ipc;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pagewise_app::state::{AppState, StartOptions};
use pagewise_app::with_commands;
use pagewise_core::index::FeedbackStore;
use pagewise_core::library::LibraryStatus;
use serde_json::{json, Value};
use tauri::ipc::InvokeResponseBody;
use tauri::test::mock_builder;
use tauri::WebviewWindowBuilder;

fn sample_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/sample")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

enum Reply {
    Json(Value),
    Raw(Vec<u8>),
}

fn invoke<W: AsRef<tauri::Webview<tauri::test::MockRuntime>>>(webview: &W, cmd: &str, body: Value) -> Result<Reply, Value> {
    ipc::invoke_raw(webview, cmd, body).map(|r| match r {
        InvokeResponseBody::Json(text) => Reply::Json(serde_json::from_str(&text).unwrap()),
        InvokeResponseBody::Raw(bytes) => Reply::Raw(bytes),
    })
}

fn call<W: AsRef<tauri::Webview<tauri::test::MockRuntime>>>(webview: &W, cmd: &str, body: Value) -> Value {
    match invoke(webview, cmd, body) {
        Ok(Reply::Json(v)) => v,
        Ok(Reply::Raw(_)) => panic!("{cmd} returned bytes"),
        Err(e) => panic!("{cmd} failed: {e}"),
    }
}

fn wait_for<W: AsRef<tauri::Webview<tauri::test::MockRuntime>>>(webview: &W, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(240);
    loop {
        let status = call(webview, "library_status", json!({}));
        if done(&status) {
            return status;
        }
        assert!(Instant::now() < until, "timed out waiting for {what}; last status {status:#}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn folder<'a>(status: &'a Value, path: &Path) -> Option<&'a Value> {
    status["folders"].as_array()?.iter().find(|f| f["path"].as_str() == Some(path.to_str().unwrap()))
}

#[test]
fn commands_index_answer_view_export_and_respect_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let sample = dir.path().join("sample");
    copy_dir(&sample_dir(), &sample);
    let extra = dir.path().join("extra");
    std::fs::create_dir_all(&extra).unwrap();
    std::fs::write(extra.join("broken.pdf"), b"%PDF-1.7\nthis is not really a PDF").unwrap();
    // Indexed normally; the worker is made to crash when the viewer renders it.
    std::fs::copy(sample_dir().join("field-guide-solar-2024.pdf"), extra.join("manual-crash-viewer.pdf")).unwrap();
    std::env::set_var("PAGEWISE_WORKER_FAULTS", "1");
    std::fs::write(extra.join("notes.md"), "# Garden\n\nThe greenhouse heater was replaced in March by Ostara Supplies.\n").unwrap();

    let heard: Arc<Mutex<Vec<LibraryStatus>>> = Arc::default();
    let heard_by_listener = Arc::clone(&heard);
    let state = AppState::start(
        StartOptions {
            config_dir: dir.path().join("config"),
            data_dir: Some(dir.path().join("data")),
            add: Vec::new(),
            sample_dir: Some(sample.clone()),
            worker_program: Some(PathBuf::from(env!("CARGO_BIN_EXE_pagewise-app"))),
            confirm: Some(std::sync::Arc::new(|_| true)),
        },
        Box::new(move |status| heard_by_listener.lock().unwrap().push(status.clone())),
    );
    // The plugins are registered as in the app, so refusing their commands is the permission check at work.
    let builder = mock_builder().plugin(tauri_plugin_dialog::init()).plugin(tauri_plugin_opener::init());
    let app = with_commands(builder).manage(state).build(tauri::generate_context!()).unwrap();
    let webview = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    let sample = sample.canonicalize().unwrap();
    let extra = extra.canonicalize().unwrap();

    // First start: the sample folder is added and indexed without being asked.
    let status = wait_for(&webview, "the sample folder", |s| {
        folder(s, &sample).is_some_and(|f| f["state"] == "up_to_date")
    });
    assert_eq!(status["documents"], 3, "{status:#}");
    assert!(heard.lock().unwrap().iter().any(|s| s.folders.iter().any(|f| f.files_total > 0)), "status changes were pushed");

    let suggestions = call(&webview, "suggested_questions", json!({}));
    assert_eq!(suggestions.as_array().unwrap().len(), 3, "{suggestions}");

    // The page cannot add a path: only the native dialog and a drop on the window add folders.
    let refused = invoke(&webview, "add_paths", json!({ "paths": ["/"] })).err();
    assert!(refused.is_some(), "the page added a path");
    assert!(folder(&call(&webview, "library_status", json!({})), Path::new("/")).is_none());

    // A second folder with a broken file, dropped on the window: indexed, and the failure
    // listed with its reason.
    pagewise_app::on_drop(&webview.as_ref().window(), vec![extra.clone()]);
    let status = wait_for(&webview, "the extra folder", |s| folder(s, &extra).is_some_and(|f| f["state"] == "up_to_date"));
    let failed = &folder(&status, &extra).unwrap()["failed"];
    assert_eq!(failed.as_array().unwrap().len(), 1, "{status:#}");
    assert!(failed[0]["path"].as_str().unwrap().ends_with("broken.pdf"));
    assert!(!failed[0]["reason"].as_str().unwrap().is_empty());
    assert_eq!(call(&webview, "list_documents", json!({})).as_array().unwrap().len(), 5);

    // Search, with no model: passages with the words marked, facets of the whole library, a
    // facet that narrows, and a passage the viewer opens.
    let no_filter = json!({ "folders": [], "types": [], "organisations": [], "years": [], "languages": [] });
    let found = call(&webview, "search_library", json!({ "query": "cooperative members", "filter": no_filter, "order": "relevance" }));
    let rows = found["rows"].as_array().unwrap();
    assert!(!rows.is_empty(), "{found:#}");
    assert!(rows[0]["doc_path"].as_str().unwrap().ends_with("field-guide-solar-2024.pdf"), "{found:#}");
    let (text, marks) = (rows[0]["text"].as_str().unwrap(), rows[0]["matches"].as_array().unwrap());
    let marked: Vec<String> = marks.iter().map(|m| text[m[0].as_u64().unwrap() as usize..m[1].as_u64().unwrap() as usize].to_lowercase()).collect();
    assert!(marked.iter().any(|m| m.starts_with("member")), "{marked:?}");
    let types: Vec<&str> = found["facets"]["types"].as_array().unwrap().iter().map(|v| v["value"].as_str().unwrap()).collect();
    assert!(types.contains(&"pdf") && types.contains(&"md"), "{types:?}");
    let only_md = json!({ "folders": [], "types": ["md"], "organisations": [], "years": [], "languages": [] });
    let narrowed = call(&webview, "search_library", json!({ "query": "cooperative members", "filter": only_md, "order": "date" }));
    assert!(narrowed["rows"].as_array().unwrap().iter().all(|r| r["doc_path"].as_str().unwrap().ends_with(".md")), "{narrowed:#}");
    let view = call(&webview, "view_page", json!({ "docId": rows[0]["doc_id"], "page": rows[0]["page"], "byteStart": rows[0]["byte_start"], "byteEnd": rows[0]["byte_end"] }));
    assert_eq!(view["page"], rows[0]["page"], "{view:#}");

    // A question about the library itself is answered from the index, each document cited.
    let library = call(&webview, "ask", json!({ "question": "Which documents mention Brightwater?", "conversationId": null, "scope": [], "onEvent": "__CHANNEL__:9" }));
    assert_eq!(library["mode"], "library", "{library:#}");
    let cited = library["citations"].as_array().unwrap();
    assert!(!cited.is_empty() && cited.iter().all(|c| c["quote"].as_str().unwrap().contains("Brightwater")), "{library:#}");
    // It is kept as a conversation like any answer.
    let kept = library["conversation_id"].as_i64().unwrap();
    assert_eq!(call(&webview, "open_conversation", json!({ "id": kept })).as_array().unwrap().len(), 1);
    call(&webview, "delete_conversation", json!({ "id": kept }));

    // Ask: the tokens stream over a channel; the answer cites the page that holds the fact.
    let answer = call(
        &webview,
        "ask",
        json!({
            "question": "What was the total installed capacity of the Brightwater Solar Cooperative at the end of 2024?",
            "conversationId": null,
            "scope": [],
            "onEvent": "__CHANNEL__:7"
        }),
    );
    assert_eq!(answer["abstained"], false, "{answer:#}");
    let citations = answer["citations"].as_array().unwrap();
    let pilot = citations.iter().find(|c| c["page"] == 3 && c["doc_path"].as_str().unwrap().ends_with("field-guide-solar-2024.pdf"));
    let pilot = pilot.unwrap_or_else(|| panic!("no citation of the field guide's page 3: {answer:#}"));
    // The byte-identical copy in `extra` (added second) is another location of the same
    // source: never cited instead of the original, and named beside it.
    assert!(
        citations.iter().all(|c| !c["doc_path"].as_str().unwrap().ends_with("manual-crash-viewer.pdf")),
        "the later copy must not be cited: {answer:#}"
    );
    let copy = extra.join("manual-crash-viewer.pdf");
    assert_eq!(pilot["also_in"], json!([copy]), "{answer:#}");
    let source = answer["sources"].as_array().unwrap().iter().find(|p| p["label"] == pilot["label"]).unwrap();
    assert_eq!(source["also_in"], json!([copy]), "the sources panel names the copy");
    let conversation = answer["conversation_id"].as_i64().unwrap();
    assert_eq!(answer["turn"], 0);

    // The viewer: the cited passage is found on the rendered page.
    let view = call(
        &webview,
        "view_page",
        json!({ "docId": pilot["doc_id"], "page": 3, "byteStart": pilot["byte_start"], "byteEnd": pilot["byte_end"] }),
    );
    assert_eq!(view["kind"], "pdf");
    let rects = view["highlights"].as_array().unwrap();
    assert!(!rects.is_empty(), "{view:#}");
    for r in rects {
        let (x, y, w, h) = (r["x"].as_f64().unwrap(), r["y"].as_f64().unwrap(), r["w"].as_f64().unwrap(), r["h"].as_f64().unwrap());
        assert!(w > 0.0 && h > 0.0 && x + w <= 1.0 && y + h <= 1.0, "{r}");
    }
    match invoke(&webview, "page_image", json!({ "docId": pilot["doc_id"], "page": 3, "widthPx": 600 })) {
        Ok(Reply::Raw(png)) => assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n"),
        _ => panic!("page_image did not return PNG bytes"),
    }
    // Text sources open at the byte range.
    let notes = call(&webview, "list_documents", json!({}))
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["path"].as_str().unwrap().ends_with("notes.md"))
        .cloned()
        .unwrap();
    let text_view = call(&webview, "view_page", json!({ "docId": notes["doc_id"], "page": 1, "byteStart": 0, "byteEnd": 8 }));
    assert_eq!(text_view["kind"], "text");
    assert_eq!(text_view["highlight_end"], 8);
    let missing = invoke(&webview, "view_page", json!({ "docId": 999_999, "page": 1, "byteStart": null, "byteEnd": null })).err();
    assert_eq!(missing.as_ref().map(|e| &e["kind"]), Some(&json!("not_found")), "errors cross as a kind: {missing:?}");
    // PDFium crashing while rendering costs that picture, not the app: the next page renders.
    let crashing = call(&webview, "list_documents", json!({}))
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["path"].as_str().unwrap().ends_with("manual-crash-viewer.pdf"))
        .cloned()
        .unwrap();
    let crashed = invoke(&webview, "page_image", json!({ "docId": crashing["doc_id"], "page": 1, "widthPx": 400 }));
    let message = crashed.err().expect("the crashing render is reported").to_string();
    assert!(message.contains("crashed"), "{message}");
    assert!(matches!(invoke(&webview, "page_image", json!({ "docId": pilot["doc_id"], "page": 1, "widthPx": 400 })), Ok(Reply::Raw(_))));

    // Export and feedback.
    // Copy's Markdown comes from the core for the answer the page holds, and is the same for
    // the turn as stored.
    let markdown = call(&webview, "answer_markdown", json!({ "answer": answer }));
    let markdown = markdown.as_str().unwrap();
    assert!(markdown.contains("### Sources") && markdown.contains("field-guide-solar-2024.pdf"), "{markdown}");
    let stored = call(&webview, "open_conversation", json!({ "id": conversation }))[0]["answer"].clone();
    assert_eq!(call(&webview, "answer_markdown", json!({ "answer": stored })).as_str(), Some(markdown));
    // The table view: one row per document, the field's cell with its page and row to open.
    let table = call(&webview, "extract_table", json!({ "fields": ["capacity", " capacity "], "period": null }));
    let guide = table.as_array().unwrap().iter().find(|d| d["path"].as_str().unwrap().ends_with("field-guide-solar-2024.pdf")).unwrap();
    assert_eq!(guide["values"].as_array().unwrap().len(), 1, "a field typed twice is read once");
    let capacity = &guide["values"][0];
    assert_eq!((capacity["value"].as_str(), capacity["page"].as_u64()), (Some("5,000"), Some(3)), "{capacity}");
    assert!(capacity["byte_end"].as_u64() > capacity["byte_start"].as_u64(), "{capacity}");
    // Opening the cell marks the figure and its column's title within the highlighted row.
    let focus = json!([[capacity["cell_start"], capacity["cell_end"]], [capacity["header_start"], capacity["header_end"]]]);
    let cell_view = call(
        &webview,
        "view_page",
        json!({ "docId": guide["doc_id"], "page": 3, "byteStart": capacity["byte_start"], "byteEnd": capacity["byte_end"], "focus": focus }),
    );
    let (row, marked) = (cell_view["highlights"].as_array().unwrap(), cell_view["focus"].as_array().unwrap());
    assert_eq!((row.len(), marked.len()), (1, 2), "the row, then the cell and the title: {cell_view:#}");
    let (row_top, cell_top, title_top) = (row[0]["y"].as_f64().unwrap(), marked[0]["y"].as_f64().unwrap(), marked[1]["y"].as_f64().unwrap());
    assert!((cell_top - row_top).abs() < 0.01 && title_top < cell_top, "the cell on the row, the title above it: {cell_view:#}");
    assert!(marked[0]["w"].as_f64().unwrap() < row[0]["w"].as_f64().unwrap() / 3.0, "the cell, not the row: {cell_view:#}");
    let blank = invoke(&webview, "extract_table", json!({ "fields": ["  "], "period": null })).err();
    assert_eq!(blank.as_ref().map(|e| &e["kind"]), Some(&json!("invalid_input")), "{blank:?}");
    let claim = answer["sentences"][0]["text"].as_str().unwrap_or("claim");
    call(
        &webview,
        "report_citation",
        json!({ "conversationId": conversation, "turn": 0, "sentence": claim, "chunkId": pilot["chunk_id"], "label": pilot["label"] }),
    );
    let feedback = FeedbackStore::open(&dir.path().join("data")).unwrap().list().unwrap();
    assert_eq!(feedback.len(), 1);
    assert_eq!(feedback[0].page, 3);
    assert!(invoke(
        &webview,
        "report_citation",
        json!({ "conversationId": conversation, "turn": 0, "sentence": claim, "chunkId": 12345, "label": "Doc9_p9" })
    )
    .is_err());

    // Conversations: follow-up, rename, delete.
    let follow_up = call(&webview, "ask", json!({ "question": "Who chairs its board?", "conversationId": conversation, "scope": [], "onEvent": "__CHANNEL__:8" }));
    assert_eq!(follow_up["turn"], 1);
    assert_eq!(call(&webview, "open_conversation", json!({ "id": conversation })).as_array().unwrap().len(), 2);
    call(&webview, "rename_conversation", json!({ "id": conversation, "title": "Pilot" }));
    assert_eq!(call(&webview, "list_conversations", json!({}))[0]["title"], "Pilot");
    call(&webview, "delete_conversation", json!({ "id": conversation }));
    assert!(call(&webview, "list_conversations", json!({})).as_array().unwrap().is_empty());

    // Settings: a missing model file is refused.
    let refused = invoke(&webview, "set_settings", json!({ "settings": { "chat_model": "/nowhere/x.gguf", "embed_model": null, "gpu_offload": false, "data_dir": "" } })).err();
    assert_eq!(refused.as_ref().map(|e| &e["kind"]), Some(&json!("invalid_input")), "{refused:?}");
    let empty = invoke(&webview, "ask", json!({ "question": "  ", "conversationId": null, "scope": [], "onEvent": "__CHANNEL__:9" })).err();
    assert_eq!(empty.as_ref().map(|e| &e["kind"]), Some(&json!("invalid_input")), "{empty:?}");
    let settings = call(&webview, "get_settings", json!({}));
    assert_eq!(settings["data_dir"], dir.path().join("data").display().to_string());
    // Saving sends the shown data dir back; it is not written as a choice.
    let mut unchanged = settings.clone();
    unchanged["skip_ocr"] = json!(true);
    call(&webview, "set_settings", json!({ "settings": unchanged }));
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("config/settings.json")).unwrap()).unwrap();
    assert_eq!(stored["data_dir"], "", "{stored}");
    assert_eq!(stored["skip_ocr"], true);
    // A user's folder is refused as a data location, and nothing in it is touched.
    let users = dir.path().join("users-folder");
    std::fs::create_dir_all(users.join("lexical")).unwrap();
    std::fs::write(users.join("lexical/notes.txt"), "mine").unwrap();
    let mut elsewhere = settings.clone();
    elsewhere["data_dir"] = json!(users.display().to_string());
    let refused = invoke(&webview, "set_settings", json!({ "settings": elsewhere })).err();
    assert_eq!(refused.as_ref().map(|e| &e["kind"]), Some(&json!("invalid_input")), "{refused:?}");
    assert!(refused.unwrap()["message"].as_str().unwrap().contains("not a Pagewise data folder"));
    assert_eq!(std::fs::read_to_string(users.join("lexical/notes.txt")).unwrap(), "mine");
    let mut fresh = settings.clone();
    fresh["data_dir"] = json!(dir.path().join("new-data").display().to_string());
    call(&webview, "set_settings", json!({ "settings": fresh }));
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("config/settings.json")).unwrap()).unwrap();
    assert_eq!(stored["data_dir"], dir.path().join("new-data").display().to_string());
    let model = call(&webview, "model_status", json!({}));
    assert!(model["chat_model"].is_string(), "{model}");

    // The window gets this app's commands and nothing else.
    for forbidden in ["plugin:dialog|open", "plugin:dialog|save", "plugin:opener|open_url", "plugin:opener|open_path"] {
        let refused = invoke(&webview, forbidden, json!({ "path": "/etc/passwd", "url": "https://example.com", "options": {} }));
        let message = refused.err().unwrap_or_else(|| panic!("{forbidden} is allowed")).to_string();
        assert!(message.contains("not allowed"), "{forbidden}: {message}");
    }

    // Folders are removed by id: a path, `/`, or an id the library does not list is refused.
    for args in [json!({ "folderId": "/" }), json!({ "folderId": extra }), json!({ "path": "/" })] {
        let refused = invoke(&webview, "remove_folder", args.clone()).err();
        assert!(refused.is_some(), "{args} was accepted");
    }
    let refused = invoke(&webview, "remove_folder", json!({ "folderId": "/" })).err().unwrap();
    assert_eq!(refused["kind"], "not_found", "{refused}");
    assert_eq!(call(&webview, "library_status", json!({}))["documents"], 5);
    // Removing a folder removes its documents from the index.
    let id = folder(&call(&webview, "library_status", json!({})), &extra).unwrap()["id"].clone();
    call(&webview, "remove_folder", json!({ "folderId": id }));
    let status = call(&webview, "library_status", json!({}));
    assert!(folder(&status, &extra).is_none());
    assert_eq!(status["documents"], 3, "{status:#}");
    assert_eq!(call(&webview, "list_documents", json!({})).as_array().unwrap().len(), 3);
}
