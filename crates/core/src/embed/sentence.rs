//! A sentence embedder on candle: tokenise, sort by length so batches carry little padding,
//! run the encoder (BERT or XLM-RoBERTa), pool (mean or CLS), L2-normalise.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use super::config::{Pooling, SentenceConfig};
use super::coverage::ScriptCoverage;
use super::encoder::{Architecture, Encoder};
use super::{l2_normalise, Embedder, TextRole};
use crate::chunk::TokenCounter;
use crate::error::{Error, Result};
use crate::lang::Lang;

/// Texts per forward pass, and the padded-token budget of one batch.
const BATCH_TEXTS: usize = 32;
const BATCH_TOKENS: usize = 8192;

pub struct SentenceEmbedder {
    dir: PathBuf,
    model: Encoder,
    architecture: Architecture,
    coverage: ScriptCoverage,
    tokenizer: Tokenizer,
    /// Without truncation or padding: counts must see the whole text.
    counting_tokenizer: Tokenizer,
    config: SentenceConfig,
    device: Device,
    dimensions: usize,
    model_id: String,
    /// Queries embedded so far: each costs a forward pass on the question path.
    queries_embedded: std::sync::atomic::AtomicU64,
}

fn embed_err(dir: &Path, message: impl std::fmt::Display) -> Error {
    Error::Embedding { path: dir.to_path_buf(), message: message.to_string() }
}

/// CUDA or Metal when the build has them and a device answers; otherwise CPU.
fn pick_device() -> Device {
    #[cfg(feature = "cuda")]
    if let Ok(d) = Device::new_cuda(0) {
        return d;
    }
    #[cfg(feature = "metal")]
    if let Ok(d) = Device::new_metal(0) {
        return d;
    }
    Device::Cpu
}

impl SentenceEmbedder {
    /// How many query texts this embedder has embedded (for checking that a question is
    /// embedded once).
    pub fn queries_embedded(&self) -> u64 {
        self.queries_embedded.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub fn load(dir: &Path) -> Result<SentenceEmbedder> {
        let config_bytes = std::fs::read(dir.join("config.json")).map_err(|e| Error::io(dir.join("config.json"), e))?;
        let device = pick_device();
        let weights = dir.join("model.safetensors");
        // SAFETY: the weights file is memory-mapped read-only; Pagewise never writes to it.
        let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[&weights], DType::F32, &device) }
            .map_err(|e| embed_err(dir, format!("model.safetensors: {e}")))?;
        let loaded = Encoder::load(dir, &config_bytes, vb)?;
        let sentence = SentenceConfig::read(dir, loaded.max_tokens);
        let mut tokenizer =
            Tokenizer::from_file(dir.join("tokenizer.json")).map_err(|e| embed_err(dir, format!("tokenizer.json: {e}")))?;
        let mut counting_tokenizer = tokenizer.clone();
        counting_tokenizer.with_padding(None);
        counting_tokenizer.with_truncation(None).map_err(|e| embed_err(dir, format!("truncation: {e}")))?;
        // Shipped tokenizers often pad every input to a fixed length, which wastes most of
        // the compute on padding; pad to the longest text in the batch instead.
        // The pad token is the model's own (XLM-RoBERTa pads with 1, and its position ids
        // count from the pad index), whatever the shipped padding settings say.
        let pad_token = tokenizer.id_to_token(loaded.pad_token_id).unwrap_or_else(|| "[PAD]".into());
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            pad_id: loaded.pad_token_id,
            pad_token,
            ..Default::default()
        }));
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: sentence.max_seq_length, ..Default::default() }))
            .map_err(|e| embed_err(dir, format!("truncation: {e}")))?;
        let coverage = ScriptCoverage::of(&counting_tokenizer);
        let dimensions = loaded.hidden_size;
        let model_id = fingerprint(dir, &config_bytes, &weights, &sentence)?;
        Ok(SentenceEmbedder {
            dir: dir.to_path_buf(),
            model: loaded.encoder,
            architecture: loaded.architecture,
            coverage,
            tokenizer,
            counting_tokenizer,
            config: sentence,
            device,
            dimensions,
            model_id,
            queries_embedded: std::sync::atomic::AtomicU64::new(0),
        })
    }

    pub fn sentence_config(&self) -> &SentenceConfig {
        &self.config
    }

    pub fn architecture(&self) -> Architecture {
        self.architecture
    }

    pub fn coverage(&self) -> ScriptCoverage {
        self.coverage
    }

    fn forward(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        let err = |e: &dyn std::fmt::Display| embed_err(&self.dir, e);
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| err(&e))?;
        let ids: Vec<Tensor> = encodings
            .iter()
            .map(|e| Tensor::new(e.get_ids(), &self.device))
            .collect::<candle_core::Result<_>>()
            .map_err(|e| err(&e))?;
        let masks: Vec<Tensor> = encodings
            .iter()
            .map(|e| Tensor::new(e.get_attention_mask(), &self.device))
            .collect::<candle_core::Result<_>>()
            .map_err(|e| err(&e))?;
        let input_ids = Tensor::stack(&ids, 0).map_err(|e| err(&e))?;
        let mask = Tensor::stack(&masks, 0).map_err(|e| err(&e))?;
        let hidden = self.model.forward(&input_ids, &mask).map_err(|e| err(&e))?;
        let pooled = match self.config.pooling {
            Pooling::Cls => hidden.narrow(1, 0, 1).and_then(|t| t.squeeze(1)),
            Pooling::Mean => mask.to_dtype(DType::F32).and_then(|m| {
                let m = m.unsqueeze(2)?;
                let summed = hidden.broadcast_mul(&m)?.sum(1)?;
                let counts = m.sum(1)?.clamp(1e-9, f64::MAX)?;
                summed.broadcast_div(&counts)
            }),
        }
        .map_err(|e| err(&e))?;
        let mut rows: Vec<Vec<f32>> = pooled.to_vec2().map_err(|e| err(&e))?;
        rows.iter_mut().for_each(|r| l2_normalise(r));
        Ok(rows)
    }
}

/// A cheap but specific identity: config, size and head of the weights, and settings.
fn fingerprint(dir: &Path, config: &[u8], weights: &Path, sentence: &SentenceConfig) -> Result<String> {
    use std::io::Read;
    let mut hasher = blake3::Hasher::new();
    hasher.update(config);
    let meta = std::fs::metadata(weights).map_err(|e| Error::io(weights, e))?;
    hasher.update(&meta.len().to_le_bytes());
    let mut head = vec![0u8; 1 << 20];
    let mut file = std::fs::File::open(weights).map_err(|e| Error::io(weights, e))?;
    let n = file.read(&mut head).map_err(|e| Error::io(weights, e))?;
    hasher.update(&head[..n]);
    hasher.update(format!("{sentence:?}").as_bytes());
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(format!("{name}@{}", &hasher.finalize().to_hex()[..16]))
}

impl Embedder for SentenceEmbedder {
    fn model_id(&self) -> &str {
        &self.model_id
    }

    fn dimensions(&self) -> usize {
        self.dimensions
    }

    fn covers(&self, lang: Lang) -> bool {
        self.coverage.covers(lang)
    }

    fn embed(&self, texts: &[String], role: TextRole) -> Result<Vec<Vec<f32>>> {
        if role == TextRole::Query {
            self.queries_embedded.fetch_add(texts.len() as u64, std::sync::atomic::Ordering::Relaxed);
        }
        let prefix = match role {
            TextRole::Query => &self.config.query_prefix,
            TextRole::Passage => &self.config.passage_prefix,
        };
        let prefixed: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
        // Token lengths decide the batches: similar lengths together means little padding.
        let lengths: Vec<usize> = prefixed.iter().map(|t| self.count(t).min(self.config.max_seq_length)).collect();
        let mut order: Vec<usize> = (0..prefixed.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(lengths[i]));
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); prefixed.len()];
        let mut start = 0;
        while start < order.len() {
            let longest = lengths[order[start]].max(1) + 2;
            let fit = (BATCH_TOKENS / longest).clamp(1, BATCH_TEXTS);
            let end = (start + fit).min(order.len());
            let batch: Vec<String> = order[start..end].iter().map(|&i| prefixed[i].clone()).collect();
            let vectors = self.forward(&batch)?;
            for (&i, v) in order[start..end].iter().zip(vectors) {
                out[i] = v;
            }
            start = end;
        }
        Ok(out)
    }
}

impl TokenCounter for SentenceEmbedder {
    fn count(&self, text: &str) -> usize {
        self.counting_tokenizer.encode_fast(text, false).map(|e| e.len()).unwrap_or(text.len() / 3)
    }
}
