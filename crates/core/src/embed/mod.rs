//! Text → vectors. `BertEmbedder` runs any BERT-family safetensors model with candle; the
//! trait lets the logic around embedding be tested without a model.

mod bert;
mod config;

pub use bert::BertEmbedder;
pub use config::{Pooling, SentenceConfig};

use crate::error::Result;

/// Whether text is a search query or a passage; some models (e5, bge) embed them differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextRole {
    Query,
    Passage,
}

pub trait Embedder: Send + Sync {
    /// Identifies the model and its settings; a different id means stored vectors are stale.
    fn model_id(&self) -> &str;
    fn dimensions(&self) -> usize;
    /// Unit-length vectors, one per input, in input order.
    fn embed(&self, texts: &[String], role: TextRole) -> Result<Vec<Vec<f32>>>;
}

pub(crate) fn l2_normalise(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}
