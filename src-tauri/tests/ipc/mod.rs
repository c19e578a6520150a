//! Calling the app's commands through Tauri's real IPC (the mock runtime), as the page does.
//! Shared by the app's integration tests.

#![allow(dead_code, clippy::unwrap_used)]

use serde_json::Value;
use tauri::ipc::{CallbackFn, InvokeBody, InvokeResponseBody};
use tauri::test::{get_ipc_response, INVOKE_KEY};
use tauri::webview::InvokeRequest;

/// The command's reply as the page gets it (JSON or raw bytes), or its error.
pub fn invoke_raw<W: AsRef<tauri::Webview<tauri::test::MockRuntime>>>(webview: &W, cmd: &str, body: Value) -> Result<InvokeResponseBody, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: InvokeBody::Json(body),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(webview, request)
}

/// A command that answers JSON.
pub fn invoke<W: AsRef<tauri::Webview<tauri::test::MockRuntime>>>(webview: &W, cmd: &str, body: Value) -> Result<Value, Value> {
    invoke_raw(webview, cmd, body).map(|r| match r {
        InvokeResponseBody::Json(text) => serde_json::from_str(&text).unwrap(),
        InvokeResponseBody::Raw(_) => panic!("{cmd} returned bytes"),
    })
}

/// A command that must succeed.
pub fn call<W: AsRef<tauri::Webview<tauri::test::MockRuntime>>>(webview: &W, cmd: &str, body: Value) -> Value {
    invoke(webview, cmd, body).unwrap_or_else(|e| panic!("{cmd} failed: {e}"))
}
