//! A generator that remembers what the model wrote for each exact prompt, so an evaluation of
//! the rules around generation (abstaining, checking, what is shown) can be re-run in seconds
//! instead of re-generating every answer. A prompt it has not seen goes to the model, and the
//! reply is added to the file. Only for evaluation: timings of a remembered reply are those
//! recorded when it was generated.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::fs::OpenOptions;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};
use pagewise_core::answer::{ChatMessage, GenerationEvent, GenerationRequest, GenerationStats, Generator, ModelInfo, Prompt, TokenStream};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone)]
struct Remembered {
    key: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    logprob: Option<f32>,
    #[serde(default)]
    prompt_tokens: usize,
    #[serde(default)]
    generated_tokens: usize,
    #[serde(default)]
    prompt_ms: f64,
    #[serde(default)]
    generation_ms: f64,
}

pub struct CachedGenerator {
    inner: Box<dyn Generator>,
    path: PathBuf,
    remembered: Mutex<HashMap<String, Remembered>>,
}

impl CachedGenerator {
    pub fn open(inner: Box<dyn Generator>, path: &Path) -> Result<CachedGenerator> {
        let mut remembered = HashMap::new();
        if path.exists() {
            let file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
            for line in BufReader::new(file).lines() {
                let line = line.with_context(|| format!("cannot read {}", path.display()))?;
                if let Ok(r) = serde_json::from_str::<Remembered>(&line) {
                    remembered.insert(r.key.clone(), r);
                }
            }
        }
        Ok(CachedGenerator { inner, path: path.to_path_buf(), remembered: Mutex::new(remembered) })
    }

    fn recall(&self, key: &str) -> Option<Remembered> {
        self.remembered.lock().ok().and_then(|m| m.get(key).cloned())
    }

    fn remember(&self, record: Remembered) {
        if let Ok(mut file) = OpenOptions::new().create(true).append(true).open(&self.path) {
            if let Ok(line) = serde_json::to_string(&record) {
                let _ = writeln!(file, "{line}");
            }
        }
        if let Ok(mut m) = self.remembered.lock() {
            m.insert(record.key.clone(), record);
        }
    }
}

fn key_of(kind: &str, prompt: &Prompt, rest: &[&str]) -> String {
    let mut h = DefaultHasher::new();
    kind.hash(&mut h);
    for part in &prompt.parts {
        part.text.hash(&mut h);
        part.markup.hash(&mut h);
    }
    rest.hash(&mut h);
    format!("{kind}:{:016x}", h.finish())
}

impl Generator for CachedGenerator {
    fn info(&self) -> &ModelInfo {
        self.inner.info()
    }

    fn render(&self, messages: &[ChatMessage]) -> pagewise_core::Result<Prompt> {
        self.inner.render(messages)
    }

    fn count_tokens(&self, text: &str) -> pagewise_core::Result<usize> {
        self.inner.count_tokens(text)
    }

    fn stream(&self, request: GenerationRequest) -> pagewise_core::Result<TokenStream> {
        let max = request.max_tokens.to_string();
        let grammar = request.grammar.clone().unwrap_or_default();
        let stop = request.stop.join("\u{1}");
        let key = key_of("stream", &request.prompt, &[&max, &grammar, &stop]);
        let (tx, rx) = std::sync::mpsc::channel();
        if let Some(r) = self.recall(&key) {
            let _ = tx.send(GenerationEvent::Token(r.text.clone()));
            let stats = GenerationStats { prompt_tokens: r.prompt_tokens, prompt_ms: r.prompt_ms, generated_tokens: r.generated_tokens, generation_ms: r.generation_ms, ..GenerationStats::default() };
            let _ = tx.send(GenerationEvent::Done(stats));
            return Ok(TokenStream::new(rx));
        }
        // Read the model's whole reply here, then hand it on: the caller sees one stream
        // either way, and only a finished reply is remembered.
        let inner = self.inner.stream(request)?;
        let mut text = String::new();
        while let Some(event) = inner.next_event() {
            match event {
                GenerationEvent::Token(t) => {
                    text.push_str(&t);
                    let _ = tx.send(GenerationEvent::Token(t));
                }
                GenerationEvent::Done(stats) => {
                    self.remember(Remembered {
                        key,
                        text,
                        logprob: None,
                        prompt_tokens: stats.prompt_tokens,
                        generated_tokens: stats.generated_tokens,
                        prompt_ms: stats.prompt_ms,
                        generation_ms: stats.generation_ms,
                    });
                    let _ = tx.send(GenerationEvent::Done(stats));
                    break;
                }
                GenerationEvent::Failed(e) => {
                    let _ = tx.send(GenerationEvent::Failed(e));
                    break;
                }
            }
        }
        Ok(TokenStream::new(rx))
    }

    fn continuation_logprob(&self, prompt: &Prompt, continuation: &str) -> pagewise_core::Result<f32> {
        let key = key_of("logprob", prompt, &[continuation]);
        if let Some(p) = self.recall(&key).and_then(|r| r.logprob) {
            return Ok(p);
        }
        let p = self.inner.continuation_logprob(prompt, continuation)?;
        self.remember(Remembered { key, text: String::new(), logprob: Some(p), prompt_tokens: 0, generated_tokens: 0, prompt_ms: 0.0, generation_ms: 0.0 });
        Ok(p)
    }
}
