//! What the answer pipeline needs from a language model, independent of llama.cpp, so the
//! logic around generation can be tested with a scripted model and the app can swap models.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use serde::Serialize;

use crate::error::Result;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    System,
    User,
}

#[derive(Debug, Clone)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModelInfo {
    /// File name of the model, shown in answers and provenance exports.
    pub name: String,
    /// False for base models: they get a completion-style prompt instead of a chat template.
    pub has_chat_template: bool,
    /// Tokens the context holds (prompt and answer together).
    pub context_tokens: usize,
}

#[derive(Debug, Clone)]
pub struct GenerationRequest {
    /// The full prompt text, already rendered for this model (see [`Generator::render`]).
    pub prompt: String,
    pub max_tokens: usize,
    /// A GBNF grammar the output must follow (constrained decoding), if any.
    pub grammar: Option<String>,
    /// Generation ends when the output ends with one of these (they are not returned).
    pub stop: Vec<String>,
    /// Keep generating past end-of-generation tokens (benchmarks compare fixed lengths).
    pub ignore_eos: bool,
}

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct GenerationStats {
    pub prompt_tokens: usize,
    /// Prompt tokens whose KV entries were reused from the previous request.
    pub reused_prompt_tokens: usize,
    pub prompt_ms: f64,
    pub generated_tokens: usize,
    pub generation_ms: f64,
    pub hit_token_limit: bool,
}

impl GenerationStats {
    pub fn prompt_tokens_per_s(&self) -> f64 {
        let evaluated = (self.prompt_tokens - self.reused_prompt_tokens) as f64;
        if self.prompt_ms > 0.0 { evaluated * 1000.0 / self.prompt_ms } else { 0.0 }
    }

    pub fn generation_tokens_per_s(&self) -> f64 {
        if self.generation_ms > 0.0 { self.generated_tokens as f64 * 1000.0 / self.generation_ms } else { 0.0 }
    }
}

#[derive(Debug)]
pub enum GenerationEvent {
    Token(String),
    Done(GenerationStats),
    Failed(String),
}

/// The receiving end of one generation. Dropping it cancels the generation: the model thread
/// notices at its next token and stops.
pub struct TokenStream {
    pub(crate) events: Receiver<GenerationEvent>,
}

impl TokenStream {
    pub fn new(events: Receiver<GenerationEvent>) -> TokenStream {
        TokenStream { events }
    }

    /// The next event; `None` once the model thread has finished or died.
    pub fn next_event(&self) -> Option<GenerationEvent> {
        self.events.recv().ok()
    }

    /// Like [`Self::next_event`], but gives up after `timeout` so the caller can check for
    /// cancellation; `Err(())` means nothing arrived yet.
    #[allow(clippy::result_unit_err)]
    pub fn next_event_timeout(&self, timeout: Duration) -> Result<Option<GenerationEvent>, ()> {
        match self.events.recv_timeout(timeout) {
            Ok(e) => Ok(Some(e)),
            Err(RecvTimeoutError::Timeout) => Err(()),
            Err(RecvTimeoutError::Disconnected) => Ok(None),
        }
    }
}

pub trait Generator: Send + Sync {
    fn info(&self) -> &ModelInfo;

    /// Renders messages into this model's prompt format: its own chat template when the GGUF
    /// has one, the completion layout otherwise.
    fn render(&self, messages: &[ChatMessage]) -> Result<String>;

    fn count_tokens(&self, text: &str) -> Result<usize>;

    /// Starts generating on the model's own thread; tokens arrive through a bounded channel.
    fn stream(&self, request: GenerationRequest) -> Result<TokenStream>;
}
