//! The embedding models on this machine: what each is (architecture, vector size, sequence
//! limit, whether its vocabulary reads Chinese), its size on disk, and how fast it embedded
//! passages here, measured from real indexing runs and kept in the data dir.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::embed::{Architecture, ScriptCoverage, SentenceConfig};
use crate::error::{Error, Result};
use crate::lang::Lang;
use crate::models::{candidate_model_dirs, has_embedder_files};

const EMBED_SPEED_FILE: &str = "embed-speed.json";

/// Passage tokens per second measured while indexing on this machine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EmbedSpeed {
    pub tokens_per_s: f64,
    /// Indexing runs the figure averages (weighted by tokens).
    pub runs: u32,
    #[serde(default)]
    pub tokens: u64,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct InstalledEmbedder {
    pub path: PathBuf,
    pub name: String,
    pub size_bytes: u64,
    /// "bert" or "xlm-roberta"; `None` when config.json cannot be read.
    pub architecture: Option<String>,
    pub dimensions: Option<usize>,
    pub max_tokens: Option<usize>,
    /// Whether its vocabulary reads Chinese (else search leans on keywords for Chinese text).
    pub reads_chinese: Option<bool>,
    pub in_use: bool,
    pub speed: Option<EmbedSpeed>,
}

#[derive(Deserialize)]
struct ConfigFacts {
    #[serde(default)]
    hidden_size: Option<usize>,
    #[serde(default)]
    max_position_embeddings: Option<usize>,
}

/// A model is known by its folder name and the size of its weights.
fn key(dir: &Path) -> Option<String> {
    let size = std::fs::metadata(dir.join("model.safetensors")).ok()?.len();
    Some(format!("{}:{size}", dir.file_name()?.to_string_lossy()))
}

fn speeds(data_dir: &Path) -> BTreeMap<String, EmbedSpeed> {
    std::fs::read_to_string(data_dir.join(EMBED_SPEED_FILE)).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

/// Adds one indexing run's embedding figures to the model's average. Runs shorter than a
/// second say little and are left out.
pub fn record_embed_speed(data_dir: &Path, model_dir: &Path, tokens: u64, seconds: f64) -> Result<()> {
    if tokens == 0 || seconds < 1.0 {
        return Ok(());
    }
    let Some(key) = key(model_dir) else { return Ok(()) };
    let mut all = speeds(data_dir);
    let entry = all.entry(key).or_default();
    let before = entry.tokens as f64;
    let secs_before = if entry.tokens_per_s > 0.0 { before / entry.tokens_per_s } else { 0.0 };
    entry.tokens += tokens;
    entry.tokens_per_s = entry.tokens as f64 / (secs_before + seconds);
    entry.runs += 1;
    let text = serde_json::to_string_pretty(&all).map_err(|e| Error::Embedding { path: model_dir.to_path_buf(), message: e.to_string() })?;
    let tmp = data_dir.join(format!("{EMBED_SPEED_FILE}.tmp"));
    std::fs::write(&tmp, text).map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, data_dir.join(EMBED_SPEED_FILE)).map_err(|e| Error::io(data_dir, e))
}

fn folder_size(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir).into_iter().flatten().filter_map(|e| e.metadata().ok()).filter(|m| m.is_file()).map(|m| m.len()).sum()
}

fn describe(dir: &Path, in_use: bool, measured: &BTreeMap<String, EmbedSpeed>) -> InstalledEmbedder {
    let config = std::fs::read(dir.join("config.json")).ok();
    let facts: Option<ConfigFacts> = config.as_deref().and_then(|c| serde_json::from_slice(c).ok());
    let architecture = config.as_deref().and_then(|c| Architecture::of(c).ok());
    let positions = facts.as_ref().and_then(|f| f.max_position_embeddings);
    let max_tokens = positions.map(|p| SentenceConfig::read(dir, p).max_seq_length);
    let reads_chinese = tokenizers::Tokenizer::from_file(dir.join("tokenizer.json")).ok().map(|t| ScriptCoverage::of(&t).covers(Lang::Zh));
    InstalledEmbedder {
        path: dir.to_path_buf(),
        name: dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        size_bytes: folder_size(dir),
        architecture: architecture.map(|a| a.name().to_string()),
        dimensions: facts.and_then(|f| f.hidden_size),
        max_tokens,
        reads_chinese,
        in_use,
        speed: key(dir).and_then(|k| measured.get(&k).copied()),
    }
}

/// Model folders (`config.json`, `tokenizer.json`, `model.safetensors`) in every model
/// location, plus `chosen` (the folder Settings name); `in_use` marks the one indexing uses.
pub fn installed_embedders(data_dir: &Path, chosen: Option<&Path>, in_use: Option<&Path>) -> Vec<InstalledEmbedder> {
    let measured = speeds(data_dir);
    let mut dirs: Vec<PathBuf> = Vec::new();
    for models in candidate_model_dirs(Some(data_dir)) {
        let Ok(entries) = std::fs::read_dir(&models) else { continue };
        let mut found: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| has_embedder_files(p)).collect();
        found.sort();
        dirs.extend(found);
    }
    dirs.extend(chosen.filter(|d| has_embedder_files(d)).map(Path::to_path_buf));
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let in_use = in_use.map(canonical);
    let mut seen = std::collections::HashSet::new();
    dirs.into_iter()
        .filter(|d| seen.insert(canonical(d)))
        .map(|d| {
            let used = in_use.as_ref().is_some_and(|u| *u == canonical(&d));
            describe(&d, used, &measured)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_average_over_runs_by_tokens() {
        let data = tempfile::tempdir().unwrap();
        let model = data.path().join("models/tiny-embedder");
        std::fs::create_dir_all(&model).unwrap();
        for f in ["config.json", "tokenizer.json"] {
            std::fs::write(model.join(f), b"{}").unwrap();
        }
        std::fs::write(model.join("model.safetensors"), b"weights").unwrap();
        record_embed_speed(data.path(), &model, 1000, 1.0).unwrap();
        record_embed_speed(data.path(), &model, 3000, 2.0).unwrap();
        // Too short to count.
        record_embed_speed(data.path(), &model, 10, 0.1).unwrap();
        let listed = installed_embedders(data.path(), None, Some(&model));
        let tiny = listed.iter().find(|m| m.name == "tiny-embedder").unwrap();
        assert_eq!(tiny.speed, Some(EmbedSpeed { tokens_per_s: 4000.0 / 3.0, runs: 2, tokens: 4000 }));
        assert!(tiny.in_use);
        assert_eq!(tiny.architecture.as_deref(), Some("bert"), "a config that names nothing is BERT");
        assert_eq!(tiny.reads_chinese, None, "an unreadable tokenizer says nothing");
    }
}
