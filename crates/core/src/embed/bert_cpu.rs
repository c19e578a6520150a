//! The BERT / XLM-RoBERTa encoder on the CPU with the platform's BLAS.
//!
//! candle's CPU matmul reached about a quarter of this machine's sgemm peak on MiniLM and its
//! per-op buffers cost page faults; here every linear layer is one sgemm over all the batch's
//! tokens (split into row blocks across threads), Q, K and V come from one fused product,
//! attention reads them in place with strides and skips padding, and bias, GELU, residual and
//! layer norm are fused row passes. The weights are read with candle's safetensors loader,
//! and GPU devices keep candle's models.

use std::path::Path;

use candle_core::safetensors::MmapedSafetensors;
use candle_core::{DType, Device};
use rayon::prelude::*;
use serde::Deserialize;

use super::blas::{gemm_ab, gemm_abt, Mat, MatMut};
use super::config::Architecture;
use super::kernels::{add_bias, bias_gelu, residual_layer_norm, softmax_rows};

/// The `config.json` fields this encoder needs.
#[derive(Debug, Clone, Deserialize)]
pub struct BertShape {
    pub hidden_size: usize,
    pub num_attention_heads: usize,
    pub num_hidden_layers: usize,
    pub intermediate_size: usize,
    #[serde(default = "default_eps")]
    pub layer_norm_eps: f64,
    #[serde(default = "default_act")]
    pub hidden_act: String,
    #[serde(default)]
    pub pad_token_id: usize,
}

fn default_eps() -> f64 {
    1e-12
}

fn default_act() -> String {
    "gelu".into()
}

struct Linear {
    /// `out × in`, as PyTorch stores it.
    weight: Vec<f32>,
    bias: Vec<f32>,
    out: usize,
    inp: usize,
}

struct Norm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
}

struct Layer {
    /// Query, key and value stacked: `3h × h`.
    qkv: Linear,
    attention_out: Linear,
    attention_norm: Norm,
    intermediate: Linear,
    output: Linear,
    output_norm: Norm,
}

pub struct BertCpu {
    architecture: Architecture,
    shape: BertShape,
    word: Vec<f32>,
    position: Vec<f32>,
    positions: usize,
    token_type: Vec<f32>,
    embedding_norm: Norm,
    layers: Vec<Layer>,
    vocab: usize,
}

/// One padded batch of token ids, right-padded to `width`.
pub struct TokenBatch<'a> {
    pub ids: &'a [u32],
    /// Real tokens per text; the rest of its row is padding.
    pub lengths: &'a [usize],
    pub width: usize,
}

struct Tensors {
    file: MmapedSafetensors,
    prefix: String,
}

impl Tensors {
    fn open(weights: &Path, architecture: Architecture, model_type: Option<&str>) -> Result<Tensors, String> {
        // SAFETY: the weights file is memory-mapped read-only; Pagewise never writes to it.
        let file = unsafe { MmapedSafetensors::new(weights) }.map_err(|e| format!("model.safetensors: {e}"))?;
        let mut prefixes = vec![String::new()];
        prefixes.push(match architecture {
            Architecture::Bert => "bert.".into(),
            Architecture::XlmRoberta => "roberta.".into(),
        });
        if let Some(t) = model_type {
            prefixes.push(format!("{t}."));
        }
        let prefix = prefixes
            .into_iter()
            .find(|p| file.get(&format!("{p}embeddings.word_embeddings.weight")).is_ok())
            .ok_or("no embeddings.word_embeddings.weight tensor")?;
        Ok(Tensors { file, prefix })
    }

    fn get(&self, names: &[&str], len: usize) -> Result<Vec<f32>, String> {
        for name in names {
            let full = format!("{}{name}", self.prefix);
            if self.file.get(&full).is_err() {
                continue;
            }
            let values: Vec<f32> = self
                .file
                .load(&full, &Device::Cpu)
                .and_then(|t| t.to_dtype(DType::F32))
                .and_then(|t| t.flatten_all())
                .and_then(|t| t.to_vec1())
                .map_err(|e| format!("{full}: {e}"))?;
            if values.len() != len {
                return Err(format!("{full}: {} values, expected {len}", values.len()));
            }
            return Ok(values);
        }
        Err(format!("no tensor {}{}", self.prefix, names[0]))
    }

    fn linear(&self, name: &str, out: usize, inp: usize) -> Result<Linear, String> {
        Ok(Linear {
            weight: self.get(&[&format!("{name}.weight")], out * inp)?,
            bias: self.get(&[&format!("{name}.bias")], out)?,
            out,
            inp,
        })
    }

    fn norm(&self, name: &str, h: usize) -> Result<Norm, String> {
        Ok(Norm {
            gamma: self.get(&[&format!("{name}.weight"), &format!("{name}.gamma")], h)?,
            beta: self.get(&[&format!("{name}.bias"), &format!("{name}.beta")], h)?,
        })
    }

    /// Rows of an embedding table; the count comes from the file.
    fn table(&self, name: &str, h: usize) -> Result<(Vec<f32>, usize), String> {
        let full = format!("{}{name}", self.prefix);
        let view = self.file.get(&full).map_err(|_| format!("no tensor {full}"))?;
        let rows = view.shape().first().copied().unwrap_or(0);
        Ok((self.get(&[name], rows * h)?, rows))
    }
}

impl BertCpu {
    /// Loads the encoder, or says why this model is not one it runs (then candle's is used).
    pub fn load(weights: &Path, config: &[u8], architecture: Architecture) -> Result<BertCpu, String> {
        let shape: BertShape = serde_json::from_slice(config).map_err(|e| format!("config.json: {e}"))?;
        if !matches!(shape.hidden_act.as_str(), "gelu" | "gelu_python") {
            return Err(format!("activation {} (this encoder runs exact GELU)", shape.hidden_act));
        }
        let model_type: Option<String> =
            serde_json::from_slice::<serde_json::Value>(config).ok().and_then(|v| v.get("model_type")?.as_str().map(String::from));
        let h = shape.hidden_size;
        if shape.num_attention_heads == 0 || h % shape.num_attention_heads != 0 {
            return Err(format!("{h} hidden units do not split into {} heads", shape.num_attention_heads));
        }
        super::blas::available()?;
        let t = Tensors::open(weights, architecture, model_type.as_deref())?;
        let (word, vocab) = t.table("embeddings.word_embeddings.weight", h)?;
        let (position, positions) = t.table("embeddings.position_embeddings.weight", h)?;
        let (token_type, _) = t.table("embeddings.token_type_embeddings.weight", h)?;
        let embedding_norm = t.norm("embeddings.LayerNorm", h)?;
        let mut layers = Vec::with_capacity(shape.num_hidden_layers);
        for i in 0..shape.num_hidden_layers {
            let p = format!("encoder.layer.{i}");
            let q = t.linear(&format!("{p}.attention.self.query"), h, h)?;
            let k = t.linear(&format!("{p}.attention.self.key"), h, h)?;
            let v = t.linear(&format!("{p}.attention.self.value"), h, h)?;
            let qkv = Linear {
                weight: [q.weight, k.weight, v.weight].concat(),
                bias: [q.bias, k.bias, v.bias].concat(),
                out: 3 * h,
                inp: h,
            };
            layers.push(Layer {
                qkv,
                attention_out: t.linear(&format!("{p}.attention.output.dense"), h, h)?,
                attention_norm: t.norm(&format!("{p}.attention.output.LayerNorm"), h)?,
                intermediate: t.linear(&format!("{p}.intermediate.dense"), shape.intermediate_size, h)?,
                output: t.linear(&format!("{p}.output.dense"), h, shape.intermediate_size)?,
                output_norm: t.norm(&format!("{p}.output.LayerNorm"), h)?,
            });
        }
        Ok(BertCpu { architecture, shape, word, position, positions, token_type, embedding_norm, layers, vocab })
    }

    /// Hidden states of every token, `texts × width × hidden`, row-major. Rows of padding
    /// hold zeros.
    pub fn forward(&self, batch: &TokenBatch) -> Vec<f32> {
        let h = self.shape.hidden_size;
        let tokens = batch.lengths.len() * batch.width;
        let eps = self.shape.layer_norm_eps as f32;
        let mut x = self.embed(batch);
        let mut qkv = vec![0.0; tokens * 3 * h];
        let mut context = vec![0.0; tokens * h];
        let mut projected = vec![0.0; tokens * h];
        let mut intermediate = vec![0.0; tokens * self.shape.intermediate_size];
        for layer in &self.layers {
            linear(&x, &layer.qkv, &mut qkv);
            self.attention(&qkv, batch, &mut context);
            linear(&context, &layer.attention_out, &mut projected);
            rows_in_parallel(&mut projected, &x, h, |p, r| residual_layer_norm(p, r, &layer.attention_norm.gamma, &layer.attention_norm.beta, eps));
            std::mem::swap(&mut x, &mut projected);
            linear_gelu(&x, &layer.intermediate, &mut intermediate);
            linear(&intermediate, &layer.output, &mut projected);
            rows_in_parallel(&mut projected, &x, h, |p, r| residual_layer_norm(p, r, &layer.output_norm.gamma, &layer.output_norm.beta, eps));
            std::mem::swap(&mut x, &mut projected);
        }
        // Padding rows took part in the row-wise steps only; clear them for the caller.
        for (b, &len) in batch.lengths.iter().enumerate() {
            x[(b * batch.width + len.min(batch.width)) * h..(b + 1) * batch.width * h].fill(0.0);
        }
        x
    }

    fn embed(&self, batch: &TokenBatch) -> Vec<f32> {
        let h = self.shape.hidden_size;
        let mut x = vec![0.0; batch.lengths.len() * batch.width * h];
        for (b, &len) in batch.lengths.iter().enumerate() {
            for i in 0..batch.width {
                let id = (batch.ids[b * batch.width + i] as usize).min(self.vocab.saturating_sub(1));
                let real = i < len;
                // XLM-RoBERTa counts positions after the padding index; padding sits at it.
                let pos = match self.architecture {
                    Architecture::Bert => i,
                    Architecture::XlmRoberta if real => self.shape.pad_token_id + 1 + i,
                    Architecture::XlmRoberta => self.shape.pad_token_id,
                }
                .min(self.positions.saturating_sub(1));
                let row = &mut x[(b * batch.width + i) * h..(b * batch.width + i + 1) * h];
                let (w, p, t) = (&self.word[id * h..(id + 1) * h], &self.position[pos * h..(pos + 1) * h], &self.token_type[..h]);
                for j in 0..h {
                    row[j] = w[j] + p[j] + t[j];
                }
            }
        }
        let norm = &self.embedding_norm;
        let eps = self.shape.layer_norm_eps as f32;
        x.par_chunks_mut(h * 64).for_each(|rows| residual_layer_norm(rows, &[], &norm.gamma, &norm.beta, eps));
        x
    }

    /// Scaled dot-product attention of every text and head, reading Q, K and V in place in
    /// the fused projection and attending only to the text's real tokens.
    fn attention(&self, qkv: &[f32], batch: &TokenBatch, context: &mut [f32]) {
        let h = self.shape.hidden_size;
        let heads = self.shape.num_attention_heads;
        let d = h / heads;
        let scale = 1.0 / (d as f32).sqrt();
        let width = batch.width;
        // One task per text, all heads: each writes only its own rows of `context`.
        context.par_chunks_mut(width * h).enumerate().for_each(|(b, ctx)| {
            let len = batch.lengths[b].min(width);
            ctx.fill(0.0);
            if len == 0 {
                return;
            }
            let base = b * width * 3 * h;
            let rows = &qkv[base..base + width * 3 * h];
            let mut scores = vec![0.0; len * len];
            for head in 0..heads {
                let q = Mat { data: &rows[head * d..], rows: len, cols: d, stride: 3 * h };
                let k = Mat { data: &rows[h + head * d..], rows: len, cols: d, stride: 3 * h };
                let v = Mat { data: &rows[2 * h + head * d..], rows: len, cols: d, stride: 3 * h };
                gemm_abt(scale, q, k, 0.0, MatMut { data: &mut scores, rows: len, cols: len, stride: len });
                softmax_rows(&mut scores, len);
                let s = Mat { data: &scores, rows: len, cols: len, stride: len };
                gemm_ab(1.0, s, v, 0.0, MatMut { data: &mut ctx[head * d..], rows: len, cols: d, stride: h });
            }
        });
    }
}

/// Rows per task: large enough for sgemm to run near its peak, small enough to share out.
const BLOCK_ROWS: usize = 128;

/// `out = x · Wᵀ + b`, row blocks in parallel.
fn linear(x: &[f32], layer: &Linear, out: &mut [f32]) {
    project(x, layer, out, |rows| add_bias(rows, &layer.bias));
}

/// `out = GELU(x · Wᵀ + b)`, bias and activation applied while the block is in cache.
fn linear_gelu(x: &[f32], layer: &Linear, out: &mut [f32]) {
    project(x, layer, out, |rows| bias_gelu(rows, &layer.bias));
}

fn project(x: &[f32], layer: &Linear, out: &mut [f32], finish: impl Fn(&mut [f32]) + Sync) {
    let block = block_rows(x.len() / layer.inp);
    out.par_chunks_mut(block * layer.out).zip(x.par_chunks(block * layer.inp)).for_each(|(o, xi)| {
        let rows = xi.len() / layer.inp;
        let w = Mat { data: &layer.weight, rows: layer.out, cols: layer.inp, stride: layer.inp };
        gemm_abt(1.0, Mat { data: xi, rows, cols: layer.inp, stride: layer.inp }, w, 0.0, MatMut { data: o, rows, cols: layer.out, stride: layer.out });
        finish(o);
    });
}

/// Splits the rows so that every thread gets work, in blocks no smaller than sgemm likes.
fn block_rows(rows: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    rows.div_ceil(threads).clamp(1, BLOCK_ROWS.max(rows.div_ceil(threads * 4)))
}

fn rows_in_parallel(rows: &mut [f32], residual: &[f32], width: usize, f: impl Fn(&mut [f32], &[f32]) + Sync) {
    let block = block_rows(rows.len() / width) * width;
    rows.par_chunks_mut(block).zip(residual.par_chunks(block)).for_each(|(r, res)| f(r, res));
}
