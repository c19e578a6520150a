use std::path::PathBuf;

use pagewise_core::Queries;
use pagewise_core::index::DocumentInfo;
use pagewise_core::library::LibraryStatus;
use tauri::Runtime;
use tauri_plugin_dialog::DialogExt;

use crate::contract::{AppError, CmdResult, Ctx, ErrorKind};

pub fn library_status(ctx: &Ctx<impl Runtime>) -> CmdResult<LibraryStatus> {
    Ok(ctx.state.library_status())
}

/// The native folder picker runs on the Rust side, so the page never names a path itself.
pub fn add_folder_dialog(ctx: &Ctx<impl Runtime>) -> CmdResult<Vec<PathBuf>> {
    let Some(picked) = ctx.app.dialog().file().set_title("Add folders to Pagewise").blocking_pick_folders() else {
        return Ok(Vec::new());
    };
    let paths: Vec<PathBuf> = picked.into_iter().filter_map(|p| p.into_path().ok()).collect();
    Ok(ctx.state.library()?.add(paths)?)
}

/// Removes a folder the library watches, named by its id: the page cannot name a path, so
/// it can only remove what the library lists (never `/`, never a folder it does not watch).
pub fn remove_folder(ctx: &Ctx<impl Runtime>, folder_id: String) -> CmdResult<()> {
    let status = ctx.state.library_status();
    let Some(folder) = status.folders.iter().find(|f| f.id == folder_id) else {
        return Err(AppError::new(ErrorKind::NotFound, format!("no folder {folder_id:?} in the library")));
    };
    Ok(ctx.state.library()?.remove(&folder.path)?)
}

pub fn pause_indexing(ctx: &Ctx<impl Runtime>) -> CmdResult<()> {
    ctx.state.library()?.pause();
    Ok(())
}

pub fn resume_indexing(ctx: &Ctx<impl Runtime>) -> CmdResult<()> {
    Ok(ctx.state.library()?.resume()?)
}

pub fn cancel_indexing(ctx: &Ctx<impl Runtime>) -> CmdResult<()> {
    ctx.state.library()?.cancel();
    Ok(())
}

pub fn reindex_all(ctx: &Ctx<impl Runtime>) -> CmdResult<()> {
    Ok(ctx.state.library()?.reindex_all()?)
}

/// Parses files although the parser's sandbox lacks a layer (the library view says which),
/// once the user agrees in a system dialog; kept in Settings for the next start.
pub fn accept_weak_sandbox(ctx: &Ctx<impl Runtime>) -> CmdResult<()> {
    let missing: Vec<&str> = ctx.state.library_status().sandbox.map(|s| s.missing.iter().map(|m| m.describe()).collect()).unwrap_or_default();
    let missing = missing.join("\n");
    let question = format!("Parse documents although the parser's sandbox is incomplete?\n\n{missing}");
    super::confirm::ask(ctx, "Parse with an incomplete sandbox", &question, "Parse anyway")?;
    let mut settings = ctx.state.settings();
    settings.accept_weak_sandbox = true;
    ctx.state.save_settings(settings).map_err(AppError::failed)?;
    Ok(ctx.state.library()?.accept_weak_sandbox()?)
}

pub fn list_documents(ctx: &Ctx<impl Runtime>) -> CmdResult<Vec<DocumentInfo>> {
    match ctx.state.library()?.reader() {
        Ok(reader) => Ok(reader.documents()?),
        // Nothing indexed yet.
        Err(_) => Ok(Vec::new()),
    }
}
