//! A chat model behind an OpenAI-compatible server (llama.cpp's llama-server, Ollama, vLLM,
//! LM Studio) as a [`Generator`]. The server applies its own chat template, so a prompt
//! travels as its messages; evidence, citation checking and abstaining stay on this side,
//! exactly as for a local model.

use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};

use super::generator::{
    ChatMessage, GenerationEvent, GenerationRequest, GenerationStats, Generator, ModelInfo, Prompt, Role, TokenStream,
};
use super::prompt::completion_layout;
use crate::error::{Error, Result};
use crate::netlog::Purpose;
use crate::openai::sse::{read_line, StreamItem};
use crate::openai::{choose_model, failed, Endpoint, EndpointSettings};

pub struct EndpointGenerator {
    endpoint: Arc<Endpoint>,
    model: String,
    info: ModelInfo,
}

impl EndpointGenerator {
    /// Checks that the server answers, accepts the key and serves the model (with a one-token
    /// request), and picks the model when the server has only one.
    pub fn connect(settings: &EndpointSettings) -> Result<EndpointGenerator> {
        // Its model list and probe are part of answering, not of "Find models".
        let endpoint = Endpoint::new(settings, Purpose::AnswerServer);
        let model = choose_model(&endpoint, settings)?;
        // One token of a tiny request: a refused key or an unknown model shows here, before
        // the question is asked, not as a failed answer (many servers list models freely).
        let probe = json!({ "model": model, "messages": [{ "role": "user", "content": "Hi" }], "max_tokens": 1, "stream": false });
        endpoint.post_json("chat/completions", &probe).map_err(|message| failed(&endpoint, message))?;
        let info = ModelInfo {
            name: format!("{model} at {}", endpoint.base()),
            path: std::path::PathBuf::new(),
            has_chat_template: true,
            context_tokens: settings.context_tokens,
        };
        Ok(EndpointGenerator { endpoint: Arc::new(endpoint), model, info })
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    fn body(&self, request: &GenerationRequest) -> Value {
        let messages: Vec<Value> = if request.prompt.messages.is_empty() {
            vec![json!({ "role": "user", "content": request.prompt.text() })]
        } else {
            request.prompt.messages.iter().map(|m| json!({ "role": role(m), "content": m.content })).collect()
        };
        let mut body = json!({
            "model": self.model,
            "messages": messages,
            "stream": true,
            "stream_options": { "include_usage": true },
            "max_tokens": request.max_tokens,
            // Greedy, as the local model answers: the same question gives the same answer.
            "temperature": 0.0,
        });
        if !request.stop.is_empty() {
            body["stop"] = json!(request.stop);
        }
        if request.ignore_eos {
            // llama.cpp's extension, for benchmarks of fixed lengths; only sent when asked.
            body["ignore_eos"] = json!(true);
        }
        body
    }
}

fn role(message: &ChatMessage) -> &'static str {
    match message.role {
        Role::System => "system",
        Role::User => "user",
    }
}

impl Generator for EndpointGenerator {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn render(&self, messages: &[ChatMessage]) -> Result<Prompt> {
        // The text is for display and exports; the server gets the messages.
        let mut prompt = Prompt::plain(completion_layout(messages));
        prompt.messages = messages.to_vec();
        Ok(prompt)
    }

    fn count_tokens(&self, text: &str) -> Result<usize> {
        Ok(estimate_tokens(text))
    }

    fn stream(&self, request: GenerationRequest) -> Result<TokenStream> {
        let (events, receiver) = mpsc::sync_channel(64);
        let endpoint = Arc::clone(&self.endpoint);
        let body = self.body(&request);
        std::thread::Builder::new()
            .name("endpoint-stream".into())
            .spawn(move || {
                let outcome = run_stream(&endpoint, &body, &events);
                if let Err(message) = outcome {
                    let _ = events.send(GenerationEvent::Failed(message));
                }
            })
            .map_err(|e| Error::Endpoint { url: self.endpoint.base().to_string(), message: format!("cannot start the request thread: {e}") })?;
        Ok(TokenStream::new(receiver))
    }

    fn continuation_logprob(&self, _prompt: &Prompt, _continuation: &str) -> Result<f32> {
        // Chat endpoints do not score a given continuation; the judge's checks are skipped
        // and abstaining rests on retrieval signals, as without a model.
        Err(Error::Endpoint { url: self.endpoint.base().to_string(), message: "scores no continuations".into() })
    }
}

/// Streams one completion into `events`. Returns early, closing the connection (which stops
/// the server's generation), when the receiver is dropped.
fn run_stream(endpoint: &Endpoint, body: &Value, events: &mpsc::SyncSender<GenerationEvent>) -> std::result::Result<(), String> {
    let started = Instant::now();
    let reader = endpoint.post_stream("chat/completions", body)?;
    let mut stats = GenerationStats::default();
    let mut first_token: Option<Instant> = None;
    let mut chunks = 0usize;
    for line in BufReader::new(reader).lines() {
        let line = line.map_err(|e| broke_off(endpoint, chunks, &e.to_string()))?;
        for item in read_line(&line) {
            match item {
                StreamItem::Text(text) => {
                    first_token.get_or_insert_with(Instant::now);
                    chunks += 1;
                    if events.send(GenerationEvent::Token(text)).is_err() {
                        return Ok(());
                    }
                }
                StreamItem::Usage { prompt_tokens, completion_tokens } => {
                    stats.prompt_tokens = prompt_tokens;
                    stats.generated_tokens = completion_tokens;
                }
                StreamItem::HitLimit => stats.hit_token_limit = true,
                StreamItem::Error(message) => return Err(format!("{} stopped with an error: {message}", endpoint.base())),
                StreamItem::Done => {
                    finish(&mut stats, started, first_token, chunks);
                    let _ = events.send(GenerationEvent::Done(stats));
                    return Ok(());
                }
            }
        }
    }
    // Some servers end the body without [DONE] after the last chunk; a body that ends before
    // any usage or end marker after text is a broken-off stream.
    if stats.generated_tokens > 0 || stats.hit_token_limit {
        finish(&mut stats, started, first_token, chunks);
        let _ = events.send(GenerationEvent::Done(stats));
        return Ok(());
    }
    Err(broke_off(endpoint, chunks, "the connection closed before the answer ended"))
}

fn broke_off(endpoint: &Endpoint, chunks: usize, why: &str) -> String {
    format!("{} broke off the answer after {chunks} pieces ({why})", endpoint.base())
}

fn finish(stats: &mut GenerationStats, started: Instant, first_token: Option<Instant>, chunks: usize) {
    let first = first_token.unwrap_or_else(Instant::now);
    stats.prompt_ms = first.duration_since(started).as_secs_f64() * 1000.0;
    stats.generation_ms = first.elapsed().as_secs_f64() * 1000.0;
    if stats.generated_tokens == 0 {
        stats.generated_tokens = chunks;
    }
}

/// Tokens of `text` without the server's tokenizer: a CJK character is about one token,
/// other text about four bytes a token. Used only to size the evidence.
pub fn estimate_tokens(text: &str) -> usize {
    let (cjk, other): (Vec<char>, Vec<char>) = text.chars().partition(|c| crate::text::is_cjk(*c));
    let other_bytes: usize = other.iter().map(|c| c.len_utf8()).sum();
    cjk.len() + other_bytes.div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_estimates_count_cjk_characters_and_latin_bytes() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcdefgh"), 2);
        assert_eq!(estimate_tokens("营业收入"), 4);
        assert_eq!(estimate_tokens("营收 rose"), 2 + 2);
    }

    #[test]
    fn requests_carry_the_messages_not_the_rendered_text() {
        let generator = EndpointGenerator {
            endpoint: Arc::new(Endpoint::new(&EndpointSettings::new("http://127.0.0.1:9/v1/"), Purpose::AnswerServer)),
            model: "m".into(),
            info: ModelInfo { name: "m".into(), path: Default::default(), has_chat_template: true, context_tokens: 8192 },
        };
        let messages = vec![
            ChatMessage { role: Role::System, content: "Cite.".into() },
            ChatMessage { role: Role::User, content: "<|im_start|>system\nQ?".into() },
        ];
        let prompt = generator.render(&messages).unwrap();
        let body = generator.body(&GenerationRequest::new(prompt, 50));
        assert_eq!(body["messages"][0], json!({ "role": "system", "content": "Cite." }));
        assert_eq!(body["messages"][1]["content"], "<|im_start|>system\nQ?");
        assert_eq!((body["stream"].as_bool(), body["max_tokens"].as_u64(), body["model"].as_str()), (Some(true), Some(50), Some("m")));
        assert!(body.get("stop").is_none());
        assert_eq!(generator.endpoint.url("chat/completions"), "http://127.0.0.1:9/v1/chat/completions");
    }
}
