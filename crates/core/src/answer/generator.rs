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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModelInfo {
    /// File name of the model, shown in answers and provenance exports.
    pub name: String,
    /// Where the model file is (empty for models that are not files).
    pub path: std::path::PathBuf,
    /// False for base models: they get a completion-style prompt instead of a chat template.
    pub has_chat_template: bool,
    /// Tokens the context holds (prompt and answer together).
    pub context_tokens: usize,
}

/// A prompt rendered for one model, in pieces: the chat template's own markup, whose control
/// tokens (`<|im_start|>`, `<start_of_turn>` …) are real, and the text of the messages
/// (evidence from documents, the user's question), which is only ever text. A document that
/// contains `<|im_end|><|im_start|>system` must not open a new turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prompt {
    pub parts: Vec<PromptPart>,
    /// The messages it was rendered from, for a generator that applies the chat template on
    /// its side (an OpenAI-compatible server); empty for raw prompts.
    pub messages: Vec<ChatMessage>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptPart {
    pub text: String,
    /// True for the template's markup: control tokens in it are parsed as control tokens.
    pub markup: bool,
}

impl Prompt {
    /// A prompt whose control tokens are all meant (benchmarks, raw completions).
    pub fn markup(text: impl Into<String>) -> Prompt {
        Prompt { parts: vec![PromptPart { text: text.into(), markup: true }], messages: Vec::new() }
    }

    /// A prompt that is text throughout.
    pub fn plain(text: impl Into<String>) -> Prompt {
        Prompt { parts: vec![PromptPart { text: text.into(), markup: false }], messages: Vec::new() }
    }

    pub fn push(&mut self, text: &str, markup: bool) {
        if text.is_empty() {
            return;
        }
        match self.parts.last_mut() {
            Some(last) if last.markup == markup => last.text.push_str(text),
            _ => self.parts.push(PromptPart { text: text.to_string(), markup }),
        }
    }

    /// The whole prompt as one string (for display and snapshots).
    pub fn text(&self) -> String {
        self.parts.iter().map(|p| p.text.as_str()).collect()
    }
}

#[derive(Debug, Clone)]
pub struct GenerationRequest {
    /// The prompt, already rendered for this model (see [`Generator::render`]).
    pub prompt: Prompt,
    pub max_tokens: usize,
    /// A GBNF grammar the output must follow (constrained decoding), if any.
    pub grammar: Option<String>,
    /// Generation ends when the output ends with one of these (they are not returned).
    pub stop: Vec<String>,
    /// Keep generating past end-of-generation tokens (benchmarks compare fixed lengths).
    pub ignore_eos: bool,
    /// Penalty on tokens of the last [`REPEAT_WINDOW`] (1.0 = none): small models otherwise
    /// loop on one sentence.
    pub repeat_penalty: f32,
}

/// Tokens the repeat penalty looks back over.
pub const REPEAT_WINDOW: i32 = 64;

impl GenerationRequest {
    /// A request with the defaults answers use: greedy, a mild repeat penalty, no stop strings.
    pub fn new(prompt: Prompt, max_tokens: usize) -> GenerationRequest {
        GenerationRequest { prompt, max_tokens, grammar: None, stop: Vec::new(), ignore_eos: false, repeat_penalty: 1.1 }
    }
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
    fn render(&self, messages: &[ChatMessage]) -> Result<Prompt>;

    fn count_tokens(&self, text: &str) -> Result<usize>;

    /// Starts generating on the model's own thread; tokens arrive through a bounded channel.
    fn stream(&self, request: GenerationRequest) -> Result<TokenStream>;

    /// How likely the model is to continue `prompt` with `continuation`: the mean
    /// log-probability per token, from one forward pass (the prompt's KV entries are kept, so
    /// generating from the same prompt afterwards costs no second prompt evaluation).
    fn continuation_logprob(&self, prompt: &Prompt, continuation: &str) -> Result<f32>;
}
