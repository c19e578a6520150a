use std::path::PathBuf;

use pagewise_core::model_catalog::{installed_chat_models, InstalledModel};
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_dialog::DialogExt;

use super::{blocking, CmdResult};
use crate::dto::{ModelKind, ModelStatus};
use crate::settings::Settings;
use crate::state::AppState;

#[tauri::command]
pub fn model_status(state: State<'_, AppState>) -> ModelStatus {
    let settings = state.settings();
    let (chat_model, chat_model_problem) = match state.chat_model_path() {
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
    ModelStatus { chat_model, chat_model_problem, embedder, gpu_supported: crate::GPU_BUILD, gpu_offload: settings.gpu_offload && crate::GPU_BUILD }
}

/// The chat models found on this machine (and the one chosen in Settings), with their size
/// and the speed measured from real answers here.
#[tauri::command]
pub async fn installed_models(state: State<'_, AppState>) -> CmdResult<Vec<InstalledModel>> {
    let state = state.inner().clone();
    blocking(move || {
        let chosen: Vec<PathBuf> = state.chat_model_path().ok().into_iter().collect();
        Ok(installed_chat_models(state.data_dir(), &chosen))
    })
    .await
}

#[tauri::command]
pub fn get_settings(state: State<'_, AppState>) -> Settings {
    let mut settings = state.settings();
    settings.data_dir = state.data_dir().display().to_string();
    settings
}

/// Saves the settings. A new chat model or GPU choice applies to the next answer; a new
/// embedding model or data location applies at the next start.
#[tauri::command]
pub fn set_settings(state: State<'_, AppState>, settings: Settings) -> CmdResult<()> {
    if let Some(model) = &settings.chat_model {
        if !model.is_file() {
            return Err(format!("{}: no such file", model.display()));
        }
    }
    if let Some(dir) = &settings.embed_model {
        if !dir.join("config.json").is_file() {
            return Err(format!("{}: not a model folder (config.json, tokenizer.json and model.safetensors)", dir.display()));
        }
    }
    state.save_settings(settings)
}

#[tauri::command]
pub async fn pick_model_file<R: Runtime>(app: AppHandle<R>, kind: ModelKind) -> CmdResult<Option<PathBuf>> {
    blocking(move || {
        let dialog = app.dialog().file();
        let picked = match kind {
            ModelKind::Chat => dialog.set_title("Choose a GGUF chat model").add_filter("GGUF model", &["gguf"]).blocking_pick_file(),
            ModelKind::Embedder => dialog.set_title("Choose an embedding model folder").blocking_pick_folder(),
        };
        Ok(picked.and_then(|p| p.into_path().ok()))
    })
    .await
}
