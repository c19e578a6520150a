//! Text → vectors. `SentenceEmbedder` runs a BERT or XLM-RoBERTa safetensors model: on the
//! CPU through the platform's BLAS (`bert_cpu.rs`), on GPUs with candle; the trait lets the
//! logic around embedding be tested without a model.

#[cfg(feature = "blas")]
mod bert_cpu;
#[cfg(feature = "blas")]
mod blas;
mod config;
mod counter;
mod coverage;
mod encoder;
mod endpoint_embedder;
#[cfg(feature = "blas")]
mod kernels;
mod sentence;

pub use config::{Pooling, SentenceConfig};

/// Names the BLAS kernels for this CPU before the library loads (see `blas::choose_kernels`);
/// call before other threads exist.
#[cfg(feature = "blas")]
pub fn prepare_blas() {
    blas::choose_kernels();
}
pub use counter::TokenizerCounter;
pub use coverage::ScriptCoverage;
pub use config::Architecture;
pub use endpoint_embedder::{AwaitedEndpointEmbedder, EndpointEmbedder};
pub use encoder::Backend;
pub use sentence::SentenceEmbedder;

use crate::error::Result;
use crate::lang::Lang;

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
    /// Whether text in `lang` gets meaningful vectors; search leans on keywords where not.
    fn covers(&self, _lang: Lang) -> bool {
        true
    }
    /// Query texts embedded so far (for checking that a question is embedded once).
    fn queries_embedded(&self) -> u64 {
        0
    }
    /// Something the user should know about how the model runs (a GPU build on a machine
    /// without a GPU).
    fn notice(&self) -> Option<crate::progress::LibraryNotice> {
        None
    }
    /// Whether vectors come over the network, from a server that may be away for a while (a
    /// laptop off its network). An indexing run then keeps what it parsed keyword-searchable
    /// and leaves the vectors pending, instead of ending on the server's error.
    fn served_remotely(&self) -> bool {
        false
    }
}

/// An embedder that also counts tokens the way chunks are sized.
pub trait EmbedCount: Embedder + crate::chunk::TokenCounter {}
impl<T: Embedder + crate::chunk::TokenCounter> EmbedCount for T {}

/// The embedder an open index shares between its writer and readers: a local model or an
/// OpenAI-compatible server.
pub type SharedEmbedder = std::sync::Arc<dyn EmbedCount>;

pub(crate) fn l2_normalise(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}
