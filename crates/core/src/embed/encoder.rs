//! The transformer under a sentence embedder: BERT (MiniLM, bge-small, e5-small) or
//! XLM-RoBERTa (multilingual-e5, bge-m3 dense), chosen by `config.json`.

use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::{bert, xlm_roberta};

use super::config::Architecture;
use crate::error::{Error, Result};

fn model_backend(model: &Model) -> Backend {
    match model {
        #[cfg(feature = "blas")]
        Model::Blas(_) => Backend::Blas,
        Model::Candle(_) => Backend::Candle,
    }
}

/// Which implementation runs the encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The CPU encoder on the platform's BLAS (`bert_cpu.rs`).
    Blas,
    /// candle's models: the GPU devices, and the CPU where there is no BLAS build.
    Candle,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Blas => "blas",
            Backend::Candle => "candle",
        }
    }
}

enum Model {
    #[cfg(feature = "blas")]
    Blas(super::bert_cpu::BertCpu),
    Candle(CandleModel),
}

enum CandleModel {
    Bert(bert::BertModel),
    XlmRoberta(xlm_roberta::XLMRobertaModel),
}

pub struct Encoder {
    model: Model,
    device: Device,
    /// Why the BLAS encoder is not the one running, where it could have been.
    candle_reason: Option<String>,
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

/// Whether to try the BLAS encoder: where the build has it and the device is the CPU,
/// unless candle is asked for (`wanted`, or `PAGEWISE_EMBED_BACKEND=candle` for comparisons).
fn wants_blas(device: &Device, wanted: Option<Backend>) -> bool {
    let asked = wanted.unwrap_or_else(|| match std::env::var("PAGEWISE_EMBED_BACKEND").as_deref() {
        Ok("candle") => Backend::Candle,
        _ => Backend::Blas,
    });
    cfg!(feature = "blas") && device.is_cpu() && asked == Backend::Blas
}

impl Encoder {
    /// Loads the model for `device`; `wanted` forces a backend (`None`: BLAS on the CPU where
    /// the build has it, candle otherwise).
    pub fn load(dir: &Path, config: &[u8], device: &Device, wanted: Option<Backend>) -> Result<LoadedEncoder> {
        let architecture = Architecture::of(config).map_err(|e| load_err(dir, format!("config.json: {e}")))?;
        let weights = dir.join("model.safetensors");
        let (hidden_size, max_positions, pad_token_id) = match architecture {
            Architecture::Bert => {
                let c: bert::Config = serde_json::from_slice(config).map_err(|e| load_err(dir, format!("config.json: {e}")))?;
                (c.hidden_size, c.max_position_embeddings, c.pad_token_id)
            }
            Architecture::XlmRoberta => {
                let c: xlm_roberta::Config =
                    serde_json::from_slice(config).map_err(|e| load_err(dir, format!("config.json: {e}")))?;
                // Positions start after the padding index, so the table holds that many fewer tokens.
                let max = c.max_position_embeddings.saturating_sub(c.pad_token_id as usize + 1).max(1);
                (c.hidden_size, max, c.pad_token_id as usize)
            }
        };
        let (model, candle_reason) = Self::load_model(dir, config, &weights, architecture, device, wanted)?;
        if wanted.is_some_and(|w| w != model_backend(&model)) {
            return Err(load_err(dir, format!("the {} encoder cannot run here ({})", wanted.map_or("", |w| w.name()), candle_reason.as_deref().unwrap_or("not in this build"))));
        }
        Ok(LoadedEncoder {
            encoder: Encoder { model, device: device.clone(), candle_reason },
            architecture,
            hidden_size,
            max_tokens: max_positions,
            pad_token_id: pad_token_id as u32,
        })
    }

    fn load_model(
        dir: &Path,
        config: &[u8],
        weights: &Path,
        architecture: Architecture,
        device: &Device,
        wanted: Option<Backend>,
    ) -> Result<(Model, Option<String>)> {
        let mut candle_reason = None;
        #[cfg(feature = "blas")]
        if wants_blas(device, wanted) {
            match super::bert_cpu::BertCpu::load(weights, config, architecture) {
                Ok(model) => return Ok((Model::Blas(model), None)),
                // A model this encoder does not run (another activation, odd tensor names)
                // still runs on candle.
                Err(reason) => candle_reason = Some(reason),
            }
        }
        #[cfg(not(feature = "blas"))]
        let _ = wants_blas(device, wanted);
        // SAFETY: the weights file is memory-mapped read-only; Pagewise never writes to it.
        let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[weights], DType::F32, device) }
            .map_err(|e| load_err(dir, format!("model.safetensors: {e}")))?;
        match architecture {
            Architecture::Bert => {
                let c: bert::Config = serde_json::from_slice(config).map_err(|e| load_err(dir, format!("config.json: {e}")))?;
                bert::BertModel::load(vb, &c).map(|m| (Model::Candle(CandleModel::Bert(m)), candle_reason)).map_err(|e| load_err(dir, format!("not a BERT model: {e}")))
            }
            Architecture::XlmRoberta => {
                let c: xlm_roberta::Config =
                    serde_json::from_slice(config).map_err(|e| load_err(dir, format!("config.json: {e}")))?;
                // Exports of XLMRobertaModel name tensors from the root; those of task models
                // put them under "roberta.".
                let vb = if vb.contains_tensor("embeddings.word_embeddings.weight") { vb } else { vb.pp("roberta") };
                xlm_roberta::XLMRobertaModel::new(&c, vb)
                    .map(|m| (Model::Candle(CandleModel::XlmRoberta(m)), candle_reason))
                    .map_err(|e| load_err(dir, format!("not an XLM-RoBERTa model: {e}")))
            }
        }
    }

    /// Why candle runs this model on the CPU although the build has BLAS, if it does.
    pub fn candle_reason(&self) -> Option<&str> {
        self.candle_reason.as_deref()
    }

    pub fn backend(&self) -> Backend {
        model_backend(&self.model)
    }

    /// Hidden states, `texts × width × hidden` row-major, of right-padded token ids
    /// (`ids` holds `lengths.len() × width` ids, padding after each text's real tokens).
    pub fn forward(&self, ids: &[u32], lengths: &[usize], width: usize) -> candle_core::Result<Vec<f32>> {
        match &self.model {
            #[cfg(feature = "blas")]
            Model::Blas(m) => Ok(m.forward(&super::bert_cpu::TokenBatch { ids, lengths, width })),
            Model::Candle(model) => {
                let texts = lengths.len();
                let input_ids = Tensor::from_slice(ids, (texts, width), &self.device)?;
                let mask: Vec<u32> = lengths.iter().flat_map(|&len| (0..width).map(move |i| u32::from(i < len))).collect();
                let mask = Tensor::from_slice(&mask, (texts, width), &self.device)?;
                let token_type_ids = input_ids.zeros_like()?;
                let hidden = match model {
                    CandleModel::Bert(m) => m.forward(&input_ids, &token_type_ids, Some(&mask))?,
                    CandleModel::XlmRoberta(m) => m.forward(&input_ids, &mask, &token_type_ids, None, None, None)?,
                };
                hidden.flatten_all()?.to_vec1()
            }
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
