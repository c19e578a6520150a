//! A sentence embedder on candle: tokenise, sort by length so batches carry little padding,
//! run the encoder (BERT or XLM-RoBERTa), pool (mean or CLS), L2-normalise.

use std::path::{Path, PathBuf};

use candle_core::Device;
use tokenizers::{Encoding, Tokenizer, TruncationParams};

use super::config::{Pooling, SentenceConfig};
use super::coverage::ScriptCoverage;
use super::config::Architecture;
use super::encoder::{Backend, Encoder};
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
    /// Truncates at the model's sequence limit; padding is added per batch.
    tokenizer: Tokenizer,
    /// Without truncation or padding: counts must see the whole text.
    counting_tokenizer: Tokenizer,
    config: SentenceConfig,
    pad_token_id: u32,
    dimensions: usize,
    model_id: String,
    /// Why the model runs on the CPU in a GPU build.
    device_notice: Option<crate::progress::LibraryNotice>,
    /// Queries embedded so far: each costs a forward pass on the question path.
    queries_embedded: std::sync::atomic::AtomicU64,
}

fn embed_err(dir: &Path, message: impl std::fmt::Display) -> Error {
    Error::Embedding { path: dir.to_path_buf(), message: message.to_string() }
}

/// CUDA or Metal when the build has them and a device answers; otherwise the CPU, with a
/// notice when a GPU build found no GPU.
fn pick_device() -> (Device, Option<crate::progress::LibraryNotice>) {
    #[cfg(feature = "cuda")]
    match Device::new_cuda(0) {
        Ok(d) => return (d, None),
        Err(e) => return (Device::Cpu, Some(crate::progress::LibraryNotice::NoGpu { gpu: "CUDA".into(), why: e.to_string() })),
    }
    #[cfg(feature = "metal")]
    match Device::new_metal(0) {
        Ok(d) => return (d, None),
        Err(e) => return (Device::Cpu, Some(crate::progress::LibraryNotice::NoGpu { gpu: "Metal".into(), why: e.to_string() })),
    }
    #[allow(unreachable_code)]
    (Device::Cpu, None)
}

impl SentenceEmbedder {
    pub fn load(dir: &Path) -> Result<SentenceEmbedder> {
        SentenceEmbedder::load_with(dir, None)
    }

    /// Loads with a chosen backend (`None`: the best this build and device have).
    pub fn load_with(dir: &Path, backend: Option<Backend>) -> Result<SentenceEmbedder> {
        let config_bytes = std::fs::read(dir.join("config.json")).map_err(|e| Error::io(dir.join("config.json"), e))?;
        let (device, device_notice) = pick_device();
        let weights = dir.join("model.safetensors");
        let loaded = Encoder::load(dir, &config_bytes, &device, backend)?;
        let sentence = SentenceConfig::read(dir, loaded.max_tokens);
        let mut tokenizer =
            Tokenizer::from_file(dir.join("tokenizer.json")).map_err(|e| embed_err(dir, format!("tokenizer.json: {e}")))?;
        // Shipped tokenizers often pad every input to a fixed length, which wastes most of
        // the compute on padding; batches are padded to their longest text here instead,
        // with the model's own pad token (XLM-RoBERTa pads with 1, and its position ids
        // count from the pad index), whatever the shipped padding settings say.
        tokenizer.with_padding(None);
        let mut counting_tokenizer = tokenizer.clone();
        counting_tokenizer.with_truncation(None).map_err(|e| embed_err(dir, format!("truncation: {e}")))?;
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
            pad_token_id: loaded.pad_token_id,
            dimensions,
            model_id,
            device_notice,
            queries_embedded: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// Which implementation runs the model here.
    pub fn backend(&self) -> Backend {
        self.model.backend()
    }

    /// Why candle runs on the CPU although the build has BLAS (a model the BLAS encoder
    /// does not run), if it does.
    pub fn candle_reason(&self) -> Option<&str> {
        self.model.candle_reason()
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

    /// Pooled, unit-length vectors of one batch of tokenised texts.
    fn forward(&self, batch: &[&Encoding]) -> Result<Vec<Vec<f32>>> {
        let lengths: Vec<usize> = batch.iter().map(|e| e.get_ids().len()).collect();
        let width = lengths.iter().copied().max().unwrap_or(0).max(1);
        let mut ids = vec![self.pad_token_id; batch.len() * width];
        for (row, e) in ids.chunks_exact_mut(width).zip(batch) {
            row[..e.get_ids().len()].copy_from_slice(e.get_ids());
        }
        let hidden = self.model.forward(&ids, &lengths, width).map_err(|e| embed_err(&self.dir, e))?;
        Ok(pool(&hidden, &lengths, width, self.dimensions, self.config.pooling))
    }
}

/// Mean of each text's real tokens, or its first ([CLS]) token; then unit length.
fn pool(hidden: &[f32], lengths: &[usize], width: usize, dims: usize, pooling: Pooling) -> Vec<Vec<f32>> {
    lengths
        .iter()
        .enumerate()
        .map(|(b, &len)| {
            let text = &hidden[b * width * dims..(b + 1) * width * dims];
            let mut v = match pooling {
                Pooling::Cls => text[..dims].to_vec(),
                Pooling::Mean => {
                    let mut sum = vec![0.0f32; dims];
                    for token in text.chunks_exact(dims).take(len) {
                        sum.iter_mut().zip(token).for_each(|(s, x)| *s += x);
                    }
                    let n = len.max(1) as f32;
                    sum.iter_mut().for_each(|s| *s /= n);
                    sum
                }
            };
            l2_normalise(&mut v);
            v
        })
        .collect()
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

    fn queries_embedded(&self) -> u64 {
        self.queries_embedded.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn notice(&self) -> Option<crate::progress::LibraryNotice> {
        self.device_notice.clone()
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
        // Each text is tokenised once; its length sorts it into a batch of similar lengths,
        // so batches carry little padding.
        let encodings = self.tokenizer.encode_batch(prefixed, true).map_err(|e| embed_err(&self.dir, e))?;
        let mut order: Vec<usize> = (0..encodings.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(encodings[i].get_ids().len()));
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); encodings.len()];
        let mut start = 0;
        while start < order.len() {
            let longest = encodings[order[start]].get_ids().len().max(1);
            let fit = (BATCH_TOKENS / longest).clamp(1, BATCH_TEXTS);
            let end = (start + fit).min(order.len());
            let batch: Vec<&Encoding> = order[start..end].iter().map(|&i| &encodings[i]).collect();
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
