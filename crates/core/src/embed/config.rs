//! What an embedding model's folder says about it: the architecture (`config.json`), and what
//! sentence-transformers writes beside it (pooling, normalisation, prompts and the sequence
//! limit). Missing files mean the common defaults (mean pooling, no prompts).

use std::path::Path;

use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pooling {
    Mean,
    Cls,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SentenceConfig {
    pub pooling: Pooling,
    pub max_seq_length: usize,
    pub query_prefix: String,
    pub passage_prefix: String,
}

#[derive(Deserialize)]
struct PoolingFile {
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
}

#[derive(Deserialize)]
struct Module {
    #[serde(default)]
    path: String,
    #[serde(rename = "type", default)]
    kind: String,
}

#[derive(Deserialize)]
struct BertConfigFile {
    #[serde(default)]
    max_seq_length: Option<usize>,
}

#[derive(Deserialize, Default)]
struct StConfigFile {
    #[serde(default)]
    prompts: std::collections::HashMap<String, String>,
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Option<T> {
    let bytes = std::fs::read(path).ok()?;
    serde_json::from_slice(&bytes).ok()
}

impl SentenceConfig {
    /// Reads the sentence-transformers files in `dir`. `model_max_positions` caps the length.
    pub fn read(dir: &Path, model_max_positions: usize) -> SentenceConfig {
        let modules: Vec<Module> = read_json(&dir.join("modules.json")).unwrap_or_default();
        let pooling_dir = modules
            .iter()
            .find(|m| m.kind.ends_with("Pooling"))
            .map(|m| dir.join(&m.path))
            .unwrap_or_else(|| dir.join("1_Pooling"));
        let pooling = match read_json::<PoolingFile>(&pooling_dir.join("config.json")) {
            Some(p) if p.pooling_mode_cls_token && !p.pooling_mode_mean_tokens => Pooling::Cls,
            Some(_) => Pooling::Mean,
            // bge ships without sentence-transformers files more often than others, and is CLS.
            None if dir.to_string_lossy().to_lowercase().contains("bge") => Pooling::Cls,
            None => Pooling::Mean,
        };
        let max_seq_length = read_json::<BertConfigFile>(&dir.join("sentence_bert_config.json"))
            .and_then(|c| c.max_seq_length)
            .unwrap_or(512)
            .min(model_max_positions);
        let st: StConfigFile = read_json(&dir.join("config_sentence_transformers.json")).unwrap_or_default();
        let is_e5 = dir.file_name().is_some_and(|n| n.to_string_lossy().to_lowercase().contains("e5"));
        // e5 models were trained with these prefixes but older releases do not declare them.
        let default_query = if is_e5 { "query: " } else { "" };
        let default_passage = if is_e5 { "passage: " } else { "" };
        let query_prefix = st.prompts.get("query").cloned().unwrap_or_else(|| default_query.into());
        let passage_prefix = st
            .prompts
            .get("document")
            .or_else(|| st.prompts.get("passage"))
            .cloned()
            .unwrap_or_else(|| default_passage.into());
        SentenceConfig { pooling, max_seq_length, query_prefix, passage_prefix }
    }
}

/// What `config.json` says about the architecture; the rest of the file is read by the model.
#[derive(Deserialize)]
struct ArchitectureFields {
    #[serde(default)]
    model_type: Option<String>,
    #[serde(default)]
    architectures: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Architecture {
    Bert,
    XlmRoberta,
}

impl Architecture {
    /// `model_type` first; `architectures` for configs written without it; BERT otherwise,
    /// as sentence-transformers exports of BERT models often say nothing.
    pub fn of(config: &[u8]) -> std::result::Result<Architecture, String> {
        let fields: ArchitectureFields = serde_json::from_slice(config).map_err(|e| e.to_string())?;
        let named = |s: &str| {
            let s = s.to_ascii_lowercase().replace(['-', '_'], "");
            if s.contains("xlmroberta") || s == "roberta" || s.starts_with("roberta") {
                Some(Architecture::XlmRoberta)
            } else if s.contains("bert") {
                Some(Architecture::Bert)
            } else {
                None
            }
        };
        if let Some(t) = &fields.model_type {
            return named(t).ok_or_else(|| format!("model_type \"{t}\" is not BERT or XLM-RoBERTa"));
        }
        Ok(fields.architectures.iter().find_map(|a| named(a)).unwrap_or(Architecture::Bert))
    }

    pub fn name(self) -> &'static str {
        match self {
            Architecture::Bert => "bert",
            Architecture::XlmRoberta => "xlm-roberta",
        }
    }
}
