//! The chat models installed on this machine, and how fast each one ran here. Speeds are
//! measured from real answers (prompt and generation tokens per second) and kept in the data
//! dir, so Settings and `pagewise models list` can say what a model costs on this laptop.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::gguf::{read_info, GgufInfo};
use crate::models::candidate_model_dirs;

pub(crate) const SPEED_FILE: &str = "model-speed.json";

/// Tokens per second measured on this machine, with how many answers they average.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ModelSpeed {
    pub prompt_tokens_per_s: f64,
    pub generation_tokens_per_s: f64,
    pub answers: u32,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct InstalledModel {
    pub path: PathBuf,
    pub name: String,
    pub size_bytes: u64,
    pub speed: Option<ModelSpeed>,
    /// What the file's GGUF header says (quantisation, context length, license); `None` for
    /// a file whose header cannot be read.
    pub gguf: Option<GgufInfo>,
}

/// A model is known by its file name and size: a re-downloaded copy elsewhere is the same.
fn key(name: &str, size: u64) -> String {
    format!("{name}:{size}")
}

fn speeds(data_dir: &Path) -> BTreeMap<String, ModelSpeed> {
    std::fs::read_to_string(data_dir.join(SPEED_FILE)).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

/// Adds one answer's measurement to the model's running average.
pub fn record_speed(data_dir: &Path, model: &Path, prompt_tokens_per_s: f64, generation_tokens_per_s: f64) -> Result<()> {
    if !(prompt_tokens_per_s > 0.0 && generation_tokens_per_s > 0.0) {
        return Ok(());
    }
    let size = std::fs::metadata(model).map(|m| m.len()).map_err(|e| Error::io(model, e))?;
    let name = model.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut all = speeds(data_dir);
    let entry = all.entry(key(&name, size)).or_default();
    let n = f64::from(entry.answers);
    entry.prompt_tokens_per_s = (entry.prompt_tokens_per_s * n + prompt_tokens_per_s) / (n + 1.0);
    entry.generation_tokens_per_s = (entry.generation_tokens_per_s * n + generation_tokens_per_s) / (n + 1.0);
    entry.answers += 1;
    let text = serde_json::to_string_pretty(&all).map_err(|e| Error::Generation { path: model.to_path_buf(), message: e.to_string() })?;
    std::fs::create_dir_all(data_dir).map_err(|e| Error::io(data_dir, e))?;
    let tmp = data_dir.join(format!("{SPEED_FILE}.tmp"));
    std::fs::write(&tmp, text).map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, data_dir.join(SPEED_FILE)).map_err(|e| Error::io(data_dir, e))
}

/// The speed measured here for this model file, if it has answered before.
pub fn measured_speed(data_dir: &Path, model: &Path) -> Option<ModelSpeed> {
    let size = std::fs::metadata(model).ok()?.len();
    let name = model.file_name()?.to_string_lossy().into_owned();
    speeds(data_dir).get(&key(&name, size)).copied()
}

/// GGUF files in the `llm/` folder of every model location, and any `extra` file (the
/// user's own choice), each once, with its measured speed.
pub fn installed_chat_models(data_dir: &Path, extra: &[PathBuf]) -> Vec<InstalledModel> {
    let measured = speeds(data_dir);
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in candidate_model_dirs(Some(data_dir)) {
        let Ok(entries) = std::fs::read_dir(dir.join("llm")) else { continue };
        let mut found: Vec<PathBuf> =
            entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("gguf"))).collect();
        found.sort();
        files.extend(found);
    }
    files.extend(extra.iter().filter(|p| p.is_file()).cloned());
    let mut out: Vec<InstalledModel> = Vec::new();
    for path in files {
        let Ok(meta) = std::fs::metadata(&path) else { continue };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if out.iter().any(|m| m.name == name && m.size_bytes == meta.len()) {
            continue;
        }
        let speed = measured.get(&key(&name, meta.len())).copied();
        let gguf = read_info(&path).ok();
        out.push(InstalledModel { path, name, size_bytes: meta.len(), speed, gguf });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_average_per_model_file() {
        let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let llm = data.path().join("models/llm");
        std::fs::create_dir_all(&llm).unwrap_or_else(|e| panic!("{e}"));
        let model = llm.join("tiny.gguf");
        std::fs::write(&model, b"GGUF....").unwrap_or_else(|e| panic!("{e}"));
        record_speed(data.path(), &model, 100.0, 10.0).unwrap_or_else(|e| panic!("{e}"));
        record_speed(data.path(), &model, 300.0, 30.0).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(measured_speed(data.path(), &model).map(|s| s.prompt_tokens_per_s), Some(200.0));
        assert_eq!(measured_speed(data.path(), &data.path().join("elsewhere.gguf")), None);
        let listed = installed_chat_models(data.path(), &[]);
        let tiny = listed.iter().find(|m| m.name == "tiny.gguf").unwrap_or_else(|| panic!("{listed:?}"));
        assert_eq!(tiny.speed, Some(ModelSpeed { prompt_tokens_per_s: 200.0, generation_tokens_per_s: 20.0, answers: 2 }));
        assert_eq!(tiny.size_bytes, 8);
    }
}
