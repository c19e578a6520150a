//! The Pagewise desktop app: a thin Tauri shell. The contract with the page (commands,
//! events, errors) is in `contract/`; what each command does, a few lines over
//! `pagewise-core`, in `commands/`; state in `state.rs`; the web UI lives in `ui/`.

pub mod commands;
pub mod contract;
pub mod dto;
mod same_content;
pub mod secrets;
pub mod settings;
pub mod state;

use std::path::PathBuf;

use tauri::{DragDropEvent, Manager, Runtime, WindowEvent};

use crate::contract::{events, AppError};
use crate::state::{AppState, StartOptions};

/// The hidden argument that turns this executable into an isolated PDF parser process.
pub const PARSE_WORKER_ARG: &str = "__parse-worker";

/// Whether this build can offload models to a GPU.
pub const GPU_BUILD: bool = cfg!(any(feature = "cuda", feature = "metal"));

pub use contract::with_commands;

/// Files dropped on the window from the desktop are added by the shell itself (the page
/// never sees their paths as input it could forge), then the page is told.
pub fn on_drop<R: Runtime>(window: &tauri::Window<R>, paths: Vec<PathBuf>) {
    let state = window.state::<AppState>().inner().clone();
    let window = window.clone();
    std::thread::spawn(move || {
        let result = state.library().and_then(|l| l.add(paths).map_err(AppError::from));
        match result {
            Ok(added) => events::FILES_DROPPED.emit(&window, &added),
            Err(error) => events::APP_ERROR.emit(&window, &error),
        }
    });
}

/// The bundled sample folder: next to the executable's resources, else in the source tree.
fn sample_dir<R: Runtime>(app: &tauri::App<R>) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PAGEWISE_SAMPLE_DIR") {
        return Some(PathBuf::from(dir)).filter(|d| !d.as_os_str().is_empty());
    }
    let bundled = app.path().resource_dir().ok().map(|d| d.join("sample")).filter(|d| d.is_dir());
    bundled.or_else(|| Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/sample")).filter(|d| d.is_dir()))
}

/// Starts the app: `add` are files and folders to add at once (command-line arguments).
pub fn run(add: Vec<PathBuf>, offer_sample: bool) -> Result<(), String> {
    let builder = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_opener::init())
        .setup(move |app| {
            let handle = app.handle().clone();
            let options = StartOptions {
                config_dir: settings::config_dir(),
                data_dir: None,
                worker_program: None,
                confirm: None,
                add: add.clone(),
                sample_dir: if offer_sample { sample_dir(app) } else { None },
            };
            let state = AppState::start(
                options,
                Box::new(move |status| {
                    events::LIBRARY_STATUS.emit(&handle, status);
                }),
            );
            app.manage(state);
            Ok(())
        })
        .on_window_event(|window, event| {
            if let WindowEvent::DragDrop(DragDropEvent::Drop { paths, .. }) = event {
                on_drop(window, paths.clone());
            }
        });
    with_commands(builder).run(tauri::generate_context!()).map_err(|e| e.to_string())
}
