use std::path::PathBuf;

use pagewise_core::model_catalog::{installed_chat_models, InstalledModel};
use tauri::Runtime;
use tauri_plugin_dialog::DialogExt;

use crate::contract::{AppError, CmdResult, Ctx};
use crate::dto::{ModelKind, ModelStatus};
use crate::secrets::KeySource;
use crate::settings::Settings;

pub fn model_status(ctx: &Ctx<impl Runtime>) -> CmdResult<ModelStatus> {
    let state = &ctx.state;
    let settings = state.settings();
    let local = if settings.use_endpoint {
        // The server is checked when asked (a network call), not on every status read.
        let model = if settings.endpoint_model.trim().is_empty() { "its only model" } else { settings.endpoint_model.trim() };
        Ok(PathBuf::from(format!("{model} at {}", settings.endpoint_url.trim())))
    } else {
        state.chat_model_path()
    };
    let (chat_model, chat_model_problem) = match local {
        Ok(path) => (Some(path), None),
        Err(problem) => (
            None,
            Some(format!("{problem} Answers are extractive (the best source sentences, cited) until a chat model is set in Settings; search works.")),
        ),
    };
    let embedder = settings
        .embed_model
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| pagewise_core::models::DEFAULT_EMBEDDER_DIR.to_string());
    Ok(ModelStatus { chat_model, chat_model_problem, embedder, gpu_supported: crate::GPU_BUILD, gpu_offload: settings.gpu_offload && crate::GPU_BUILD })
}

/// The chat models found on this machine (and the one chosen in Settings), with their size
/// and the speed measured from real answers here.
pub fn installed_models(ctx: &Ctx<impl Runtime>) -> CmdResult<Vec<InstalledModel>> {
    let chosen: Vec<PathBuf> = ctx.state.chat_model_path().ok().into_iter().collect();
    Ok(installed_chat_models(ctx.state.data_dir(), &chosen))
}

/// The models an OpenAI-compatible server at `url` offers, for the picker in Settings (a
/// network call the user starts).
pub fn endpoint_models(ctx: &Ctx<impl Runtime>, url: String) -> CmdResult<Vec<String>> {
    let url = url.trim();
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(AppError::invalid(format!("{url}: the server's address starts with http:// or https://")));
    }
    pagewise_core::openai::list_models(&ctx.state.endpoint_settings(url, "")).map_err(|e| AppError::failed(e.to_string()))
}

pub fn get_settings(ctx: &Ctx<impl Runtime>) -> CmdResult<Settings> {
    let mut settings = ctx.state.settings();
    settings.data_dir = ctx.state.data_dir().display().to_string();
    Ok(settings)
}

/// Saves the settings. A new chat model or GPU choice applies to the next answer; a new
/// embedding model or data location applies at the next start.
pub fn set_settings(ctx: &Ctx<impl Runtime>, mut settings: Settings) -> CmdResult<()> {
    // The page shows the data dir in effect (which may come from PAGEWISE_DATA_DIR or the
    // default) and sends it back on every save: that is not a choice, so the stored value stays.
    let stored = ctx.state.settings();
    let shown = ctx.state.data_dir().display().to_string();
    let asked = settings.data_dir.trim().to_string();
    if asked == shown || asked == stored.data_dir.trim() {
        settings.data_dir = stored.data_dir;
    } else if !asked.is_empty() {
        let dir = PathBuf::from(&asked);
        if !dir.is_absolute() {
            return Err(AppError::invalid(format!("{asked}: the data location must be a full path")));
        }
        pagewise_core::index::data_dir::check(&dir).map_err(|e| AppError::invalid(e.to_string()))?;
    }
    for (used, url) in [(settings.use_endpoint, &settings.endpoint_url), (settings.embed_use_endpoint, &settings.embed_endpoint_url)] {
        let url = url.trim();
        if used && !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(AppError::invalid(format!("{url}: the server's address starts with http:// or https://")));
        }
    }
    if let Some(model) = &settings.chat_model {
        if !model.is_file() {
            return Err(AppError::invalid(format!("{}: no such file", model.display())));
        }
    }
    if let Some(dir) = &settings.embed_model {
        if !dir.join("config.json").is_file() {
            return Err(AppError::invalid(format!(
                "{}: not a model folder (config.json, tokenizer.json and model.safetensors)",
                dir.display()
            )));
        }
    }
    ctx.state.save_settings(settings).map_err(AppError::failed)
}

pub fn pick_model_file(ctx: &Ctx<impl Runtime>, kind: ModelKind) -> CmdResult<Option<PathBuf>> {
    let dialog = ctx.app.dialog().file();
    let picked = match kind {
        ModelKind::Chat => dialog.set_title("Choose a GGUF chat model").add_filter("GGUF model", &["gguf"]).blocking_pick_file(),
        ModelKind::Embedder => dialog.set_title("Choose an embedding model folder").blocking_pick_folder(),
    };
    Ok(picked.and_then(|p| p.into_path().ok()))
}

/// Where the server's API key comes from (environment, keyring, private file, or none).
pub fn api_key_source(ctx: &Ctx<impl Runtime>) -> CmdResult<KeySource> {
    Ok(crate::secrets::source(ctx.state.config_dir()))
}

/// Keeps the API key in the OS keyring (or, without one, a file only this user can read);
/// an empty key forgets it. The page never reads a stored key back.
pub fn set_api_key(ctx: &Ctx<impl Runtime>, key: String) -> CmdResult<KeySource> {
    crate::secrets::store(ctx.state.config_dir(), &key).map_err(AppError::failed)
}
