//! The user's choices, kept as JSON in the config dir (not the data dir: the data dir is
//! itself one of the choices).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct Settings {
    /// A GGUF chat model; `None` uses the default model.
    pub chat_model: Option<PathBuf>,
    /// An embedding model folder (BERT or XLM-RoBERTa); `None` uses the default model.
    pub embed_model: Option<PathBuf>,
    pub gpu_offload: bool,
    /// Leave scanned pages (no text layer) unread instead of reading them with Tesseract.
    pub skip_ocr: bool,
    /// Where the index lives; empty means the platform default.
    pub data_dir: String,
    /// Generate answers with an OpenAI-compatible server instead of the local chat model
    /// (the one network feature; off by default). The API key comes from PAGEWISE_API_KEY.
    pub use_endpoint: bool,
    /// The server's base URL, kept when switched off so switching back is one click.
    pub endpoint_url: String,
    /// The model to ask the server for; empty takes its only model.
    pub endpoint_model: String,
    /// Compute passage and query vectors on an OpenAI-compatible server (`/v1/embeddings`)
    /// instead of the local embedding model; applies at the next start and re-embeds the
    /// library in the background.
    pub embed_use_endpoint: bool,
    pub embed_endpoint_url: String,
    /// The embedding model to ask for; empty takes the server's only model.
    pub embed_endpoint_model: String,
    /// Parse files even though the parser's sandbox lacks a layer on this machine (the library
    /// view names it); chosen by the user in a native confirmation.
    pub accept_weak_sandbox: bool,
    /// Seconds the user is willing to wait for the model's first word: the evidence is cut to
    /// what the model reads in that time on this machine (its measured prompt speed). `None`
    /// (or 0) sets no limit.
    pub first_token_within_s: Option<f64>,
    /// The bundled sample folder was offered once; removing it keeps it removed.
    #[ts(skip)]
    pub sample_offered: bool,
}

pub fn config_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PAGEWISE_CONFIG_DIR") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("."));
    if cfg!(target_os = "macos") {
        home.join("Library/Preferences/Pagewise")
    } else if cfg!(target_os = "windows") {
        std::env::var_os("APPDATA").map(PathBuf::from).unwrap_or(home).join("Pagewise")
    } else {
        std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".config")).join("pagewise")
    }
}

impl Settings {
    fn file(dir: &Path) -> PathBuf {
        dir.join("settings.json")
    }

    /// Missing or unreadable settings are the defaults: a broken file must not stop the app.
    pub fn load(dir: &Path) -> Settings {
        std::fs::read_to_string(Settings::file(dir)).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
    }

    /// Written to a temporary file and renamed, so a crash never leaves half a file.
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        let tmp = dir.join("settings.json.tmp");
        std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, Settings::file(dir)).map_err(|e| format!("{}: {e}", dir.display()))
    }

    /// The data dir in effect: `PAGEWISE_DATA_DIR`, else the setting, else the default.
    pub fn effective_data_dir(&self) -> PathBuf {
        match std::env::var_os("PAGEWISE_DATA_DIR") {
            Some(dir) => PathBuf::from(dir),
            None if !self.data_dir.trim().is_empty() => PathBuf::from(self.data_dir.trim()),
            None => pagewise_core::default_data_dir(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_a_broken_file_gives_defaults() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Settings::load(dir.path()), Settings::default());
        let s = Settings { chat_model: Some("/m/a.gguf".into()), gpu_offload: true, first_token_within_s: Some(8.0), ..Settings::default() };
        s.save(dir.path()).unwrap();
        assert_eq!(Settings::load(dir.path()), s);
        std::fs::write(dir.path().join("settings.json"), "{not json").unwrap();
        assert_eq!(Settings::load(dir.path()), Settings::default());
    }
}
