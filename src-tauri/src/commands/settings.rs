use std::path::PathBuf;

use pagewise_core::model_catalog::{installed_chat_models, InstalledModel};
use pagewise_core::netlog::Row as NetworkLogRow;
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

/// Every connection the app has made from its data dir, grouped into runs to one host for one
/// purpose (Settings → Network); empty on a fresh install.
pub fn network_log(ctx: &Ctx<impl Runtime>) -> CmdResult<Vec<NetworkLogRow>> {
    Ok(pagewise_core::netlog::rows(ctx.state.data_dir())?)
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
        settings.data_dir = stored.data_dir.clone();
    } else if !asked.is_empty() {
        let dir = PathBuf::from(&asked);
        if !dir.is_absolute() {
            return Err(AppError::invalid(format!("{asked}: the data location must be a full path")));
        }
        pagewise_core::data_dir::check(&dir).map_err(|e| AppError::invalid(e.to_string()))?;
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
    let changes = needing_confirmation(ctx, &stored, &settings);
    if !changes.is_empty() {
        super::confirm::ask(ctx, "Change where answers come from", &changes.join("\n\n"), "Change")?;
    }
    // The page cannot turn this on; only the library view's system dialog can.
    settings.accept_weak_sandbox = stored.accept_weak_sandbox;
    ctx.state.save_settings(settings).map_err(AppError::failed)
}

/// What in `new` sends documents somewhere new or runs a model the user did not pick in a
/// system dialog, said for the confirmation.
fn needing_confirmation(ctx: &Ctx<impl Runtime>, old: &Settings, new: &Settings) -> Vec<String> {
    let mut changes = Vec::new();
    let answer_url = new.endpoint_url.trim();
    if new.use_endpoint && (!old.use_endpoint || answer_url != old.endpoint_url.trim()) {
        changes.push(format!("Send your questions, and the passages found for them, to the server at {answer_url}?"));
    }
    let embed_url = new.embed_endpoint_url.trim();
    if new.embed_use_endpoint && (!old.embed_use_endpoint || embed_url != old.embed_endpoint_url.trim()) {
        changes.push(format!("Send every passage of your library to the server at {embed_url} to compute its vectors?"));
    }
    if let Some(model) = new.chat_model.as_ref().filter(|m| old.chat_model.as_ref() != Some(*m)) {
        if !ctx.state.chosen_natively(model) {
            changes.push(format!("Answer with the chat model {}?", model.display()));
        }
    }
    changes
}

pub fn pick_model_file(ctx: &Ctx<impl Runtime>, kind: ModelKind) -> CmdResult<Option<PathBuf>> {
    let dialog = ctx.app.dialog().file();
    let picked = match kind {
        ModelKind::Chat => dialog.set_title("Choose a GGUF chat model").add_filter("GGUF model", &["gguf"]).blocking_pick_file(),
        ModelKind::Embedder => dialog.set_title("Choose an embedding model folder").blocking_pick_folder(),
    };
    let picked = picked.and_then(|p| p.into_path().ok());
    if let (ModelKind::Chat, Some(model)) = (kind, &picked) {
        ctx.state.remember_native_choice(model);
    }
    Ok(picked)
}

/// Where the server's API key comes from (environment, keyring, private file, or none).
pub fn api_key_source(ctx: &Ctx<impl Runtime>) -> CmdResult<KeySource> {
    Ok(crate::secrets::source(ctx.state.config_dir()))
}

/// Keeps the API key for the answer server in Settings, in the OS keyring (or, without one,
/// a file only this user can read); an empty key forgets it. The key is sent only to that
/// server's origin. The page never reads a stored key back.
pub fn set_api_key(ctx: &Ctx<impl Runtime>, key: String) -> CmdResult<KeySource> {
    let url = ctx.state.settings().endpoint_url;
    let origin = match pagewise_core::openai::origin_of(&url) {
        Some(origin) => origin,
        None if key.trim().is_empty() => String::new(),
        None => return Err(AppError::invalid("set the answer server's address before its key: a key is sent only to the server it was given for")),
    };
    crate::secrets::store(ctx.state.config_dir(), &key, &origin).map_err(AppError::failed)
}
