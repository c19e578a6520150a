//! The transformer under a sentence embedder: BERT (MiniLM, bge-small, e5-small) or
//! XLM-RoBERTa (multilingual-e5, bge-m3 dense), chosen by `config.json`.

use std::path::Path;

use candle_core::Tensor;
use candle_nn::VarBuilder;
use candle_transformers::models::{bert, xlm_roberta};
use serde::Deserialize;

use crate::error::{Error, Result};

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

pub enum Encoder {
    Bert(bert::BertModel),
    XlmRoberta(xlm_roberta::XLMRobertaModel),
}

/// The encoder and the facts about it the embedder needs.
pub struct LoadedEncoder {
    pub encoder: Encoder,
    pub architecture: Architecture,
    pub hidden_size: usize,
    /// The longest input the position table allows, in tokens.
    pub max_tokens: usize,
    pub pad_token_id: u32,
}

fn load_err(dir: &Path, message: impl std::fmt::Display) -> Error {
    Error::Embedding { path: dir.to_path_buf(), message: message.to_string() }
}

impl Encoder {
    pub fn load(dir: &Path, config: &[u8], vb: VarBuilder) -> Result<LoadedEncoder> {
        let architecture = Architecture::of(config).map_err(|e| load_err(dir, format!("config.json: {e}")))?;
        match architecture {
            Architecture::Bert => {
                let c: bert::Config = serde_json::from_slice(config).map_err(|e| load_err(dir, format!("config.json: {e}")))?;
                let model = bert::BertModel::load(vb, &c).map_err(|e| load_err(dir, format!("not a BERT model: {e}")))?;
                Ok(LoadedEncoder {
                    encoder: Encoder::Bert(model),
                    architecture,
                    hidden_size: c.hidden_size,
                    max_tokens: c.max_position_embeddings,
                    pad_token_id: c.pad_token_id as u32,
                })
            }
            Architecture::XlmRoberta => {
                let c: xlm_roberta::Config =
                    serde_json::from_slice(config).map_err(|e| load_err(dir, format!("config.json: {e}")))?;
                // Exports of XLMRobertaModel name tensors from the root; those of task models
                // put them under "roberta.".
                let vb = if vb.contains_tensor("embeddings.word_embeddings.weight") { vb } else { vb.pp("roberta") };
                let model =
                    xlm_roberta::XLMRobertaModel::new(&c, vb).map_err(|e| load_err(dir, format!("not an XLM-RoBERTa model: {e}")))?;
                // Positions start after the padding index, so the table holds that many fewer tokens.
                let max_tokens = c.max_position_embeddings.saturating_sub(c.pad_token_id as usize + 1).max(1);
                Ok(LoadedEncoder {
                    encoder: Encoder::XlmRoberta(model),
                    architecture,
                    hidden_size: c.hidden_size,
                    max_tokens,
                    pad_token_id: c.pad_token_id,
                })
            }
        }
    }

    /// Hidden states, `[batch, tokens, hidden]`.
    pub fn forward(&self, input_ids: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
        let token_type_ids = input_ids.zeros_like()?;
        match self {
            Encoder::Bert(m) => m.forward(input_ids, &token_type_ids, Some(mask)),
            Encoder::XlmRoberta(m) => m.forward(input_ids, mask, &token_type_ids, None, None, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn architecture_comes_from_the_config() {
        assert_eq!(Architecture::of(br#"{"model_type":"bert"}"#), Ok(Architecture::Bert));
        assert_eq!(Architecture::of(br#"{"model_type":"xlm-roberta"}"#), Ok(Architecture::XlmRoberta));
        assert_eq!(Architecture::of(br#"{"architectures":["XLMRobertaModel"]}"#), Ok(Architecture::XlmRoberta));
        assert_eq!(Architecture::of(br#"{"hidden_size":384}"#), Ok(Architecture::Bert));
        assert!(Architecture::of(br#"{"model_type":"llama"}"#).unwrap_err().contains("llama"));
    }
}
