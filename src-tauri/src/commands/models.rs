//! The Models screen: the chat and embedding models on this machine, importing a GGUF file
//! the user picks, and downloading one by URL — the one command here that uses the network,
//! and only when the user starts it.

use std::sync::atomic::Ordering;
use std::time::Instant;

use pagewise_core::embedder_catalog::{installed_embedders, InstalledEmbedder};
use pagewise_core::model_catalog::{installed_chat_models, InstalledModel};
use pagewise_core::model_download::{download, DownloadRequest};
use pagewise_core::model_install::{import, models_dir};
use tauri::ipc::Channel;
use tauri::Runtime;
use tauri_plugin_dialog::DialogExt;

use crate::contract::{AppError, CmdResult, Ctx};
use crate::dto::DownloadEvent;

/// The models' listing of one installed file, after an import or a download.
fn listed(ctx: &Ctx<impl Runtime>, path: &std::path::Path) -> CmdResult<InstalledModel> {
    installed_chat_models(ctx.state.data_dir(), &[path.to_path_buf()])
        .into_iter()
        .find(|m| m.path == path)
        .ok_or_else(|| AppError::failed(format!("{} was installed but cannot be listed", path.display())))
}

/// The embedding models found in the model folders (and the one chosen in Settings).
pub fn installed_embedding_models(ctx: &Ctx<impl Runtime>) -> CmdResult<Vec<InstalledEmbedder>> {
    let settings = ctx.state.settings();
    let in_use = ctx.state.engine_config().ok().map(|c| c.models.embedder_dir);
    Ok(installed_embedders(ctx.state.data_dir(), settings.embed_model.as_deref(), in_use.as_deref()))
}

/// Copies a GGUF the user picks in the native dialog into the data dir's models; `None`
/// when the dialog was cancelled.
pub fn import_model(ctx: &Ctx<impl Runtime>) -> CmdResult<Option<InstalledModel>> {
    let picked = ctx.app.dialog().file().set_title("Import a GGUF chat model").add_filter("GGUF model", &["gguf"]).blocking_pick_file();
    let Some(source) = picked.and_then(|p| p.into_path().ok()) else { return Ok(None) };
    let installed = import(&source, &models_dir(ctx.state.data_dir())).map_err(|e| AppError::invalid(e.to_string()))?;
    // Picked in the system dialog: choosing it needs no second confirmation. A download,
    // started from the page, does.
    ctx.state.remember_native_choice(&installed);
    listed(ctx, &installed).map(Some)
}

/// Downloads a GGUF by URL into the data dir's models, reporting progress on `on_progress`.
/// An interrupted or cancelled download keeps its part and resumes when asked again.
pub fn download_model(
    ctx: &Ctx<impl Runtime>,
    url: String,
    sha256: Option<String>,
    file_name: Option<String>,
    on_progress: Channel<DownloadEvent>,
) -> CmdResult<InstalledModel> {
    let url = url.trim().to_string();
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(AppError::invalid(format!("{url}: a download address starts with http:// or https://")));
    }
    let cancel = ctx.state.begin_download().ok_or_else(|| AppError::invalid("a download is already running; wait for it or cancel it"))?;
    let _running = DownloadGuard { ctx_state: ctx.state.clone() };
    let request = DownloadRequest {
        url,
        dir: models_dir(ctx.state.data_dir()),
        file_name: file_name.map(|n| n.trim().to_string()).filter(|n| !n.is_empty()),
        sha256: sha256.map(|s| s.trim().to_ascii_lowercase()).filter(|s| !s.is_empty()),
    };
    let started = Instant::now();
    let mut report = |p: &pagewise_core::model_download::DownloadProgress| {
        let secs = started.elapsed().as_secs_f64().max(1e-3);
        let event = DownloadEvent {
            done_bytes: p.done,
            total_bytes: p.total,
            resumed_from_bytes: p.resumed_from,
            bytes_per_s: (p.done - p.resumed_from) as f64 / secs,
        };
        on_progress.send(event).is_ok() && !cancel.load(Ordering::SeqCst)
    };
    match download(&request, &mut report) {
        Ok(path) => listed(ctx, &path),
        Err(pagewise_core::Error::Interrupted) => Err(AppError::new(crate::contract::ErrorKind::Stopped, "the download was cancelled; start it again to resume where it stopped")),
        Err(e) => Err(AppError::failed(e.to_string())),
    }
}

/// Stops the running download after its current piece; the part stays for a resume.
pub fn cancel_download(ctx: &Ctx<impl Runtime>) -> CmdResult<()> {
    ctx.state.cancel_download();
    Ok(())
}

/// Clears the running download's flag however the download ends.
struct DownloadGuard {
    ctx_state: crate::state::AppState,
}

impl Drop for DownloadGuard {
    fn drop(&mut self) {
        self.ctx_state.end_download();
    }
}

