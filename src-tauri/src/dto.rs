//! Types that only the shell's commands send; the core's own types cross as they are. All of
//! them are exported to TypeScript (see `bindings.rs`).

use std::path::PathBuf;

use pagewise_core::answer::Sentence;
use pagewise_core::answer::Step;
use serde::Serialize;

/// What `ask` streams while the answer is being made.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AskStreamEvent {
    Step { step: Step },
    /// The best-matching evidence sentences, cited, before the model's first token.
    Evidence { quotes: Vec<Sentence> },
    Token { text: String },
    Progress { done: u32, total: u32, what: String },
}

#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct ModelStatus {
    pub chat_model: Option<PathBuf>,
    /// Why there is no chat model, and how to get one; answers are extractive meanwhile.
    pub chat_model_problem: Option<String>,
    pub embedder: String,
    /// This build can offload to a GPU (built with the cuda or metal feature).
    pub gpu_supported: bool,
    pub gpu_offload: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    Markdown,
    Csv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ModelKind {
    Chat,
    Embedder,
}

/// How far a model download is, sent about once a megabyte.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct DownloadEvent {
    pub done_bytes: u64,
    /// `None` when the server does not say how large the file is.
    pub total_bytes: Option<u64>,
    /// What an earlier, interrupted download had already fetched.
    pub resumed_from_bytes: u64,
    pub bytes_per_s: f64,
}
