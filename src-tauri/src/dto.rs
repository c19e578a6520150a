//! Types that only the shell's commands send; the core's own types cross as they are. All of
//! them are exported to TypeScript (see `bindings.rs`).

use std::path::PathBuf;

use pagewise_core::answer::attribute::Sentence;
use pagewise_core::answer::tools::Step;
use pagewise_core::viewer::Rect;
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum PageKind {
    Pdf,
    Text,
}

#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct PageView {
    pub doc_id: i64,
    pub title: String,
    pub path: PathBuf,
    pub page: u32,
    pub page_count: u32,
    pub kind: PageKind,
    pub width_pt: f32,
    pub height_pt: f32,
    /// PDF: rectangles over the rendered page that cover the passage.
    pub highlights: Vec<Rect>,
    /// Text sources: the page text, with the passage at this byte range.
    pub text: Option<String>,
    pub highlight_start: Option<usize>,
    pub highlight_end: Option<usize>,
    /// The file changed since it was indexed: the highlight may be off.
    pub changed_since_indexed: bool,
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
