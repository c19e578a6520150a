//! The commands the window may call. Each is a few lines over the core; errors cross as text.

pub mod chat;
pub mod export;
pub mod library;
pub mod settings;
pub mod viewer;

/// Errors as the UI shows them.
pub type CmdResult<T> = Result<T, String>;

pub(crate) fn text<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// Runs CPU-heavy or blocking work off the async runtime.
pub(crate) async fn blocking<T: Send + 'static>(f: impl FnOnce() -> CmdResult<T> + Send + 'static) -> CmdResult<T> {
    tauri::async_runtime::spawn_blocking(f).await.map_err(|e| format!("the task failed: {e}"))?
}
