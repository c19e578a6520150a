use std::path::PathBuf;

use pagewise_core::index::DocumentInfo;
use pagewise_core::library::LibraryStatus;
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_dialog::DialogExt;

use super::{blocking, text, CmdResult};
use crate::state::AppState;

#[tauri::command]
pub fn library_status(state: State<'_, AppState>) -> LibraryStatus {
    state.library_status()
}

/// The native folder picker runs on the Rust side, so the page never names a path itself.
#[tauri::command]
pub async fn add_folder_dialog<R: Runtime>(app: AppHandle<R>, state: State<'_, AppState>) -> CmdResult<Vec<PathBuf>> {
    let state = state.inner().clone();
    blocking(move || {
        let Some(picked) = app.dialog().file().set_title("Add folders to Pagewise").blocking_pick_folders() else {
            return Ok(Vec::new());
        };
        let paths: Vec<PathBuf> = picked.into_iter().filter_map(|p| p.into_path().ok()).collect();
        state.library()?.add(paths).map_err(text)
    })
    .await
}

#[tauri::command]
pub async fn add_paths(state: State<'_, AppState>, paths: Vec<PathBuf>) -> CmdResult<Vec<PathBuf>> {
    let state = state.inner().clone();
    blocking(move || state.library()?.add(paths).map_err(text)).await
}

#[tauri::command]
pub async fn remove_folder(state: State<'_, AppState>, path: PathBuf) -> CmdResult<()> {
    let state = state.inner().clone();
    blocking(move || state.library()?.remove(&path).map_err(text)).await
}

#[tauri::command]
pub async fn pause_indexing(state: State<'_, AppState>) -> CmdResult<()> {
    state.library()?.pause();
    Ok(())
}

#[tauri::command]
pub async fn resume_indexing(state: State<'_, AppState>) -> CmdResult<()> {
    state.library()?.resume().map_err(text)
}

#[tauri::command]
pub async fn cancel_indexing(state: State<'_, AppState>) -> CmdResult<()> {
    state.library()?.cancel();
    Ok(())
}

#[tauri::command]
pub async fn reindex_all(state: State<'_, AppState>) -> CmdResult<()> {
    state.library()?.reindex_all().map_err(text)
}

#[tauri::command]
pub async fn list_documents(state: State<'_, AppState>) -> CmdResult<Vec<DocumentInfo>> {
    let state = state.inner().clone();
    blocking(move || match state.library()?.reader() {
        Ok(reader) => reader.with_store(|s| s.all_documents()).map_err(text),
        // Nothing indexed yet.
        Err(_) => Ok(Vec::new()),
    })
    .await
}
