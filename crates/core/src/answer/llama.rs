//! GGUF generation with llama.cpp. The model and its context live on one thread of their own:
//! requests arrive over a channel, tokens leave over a bounded channel per request, and a
//! dropped receiver stops generation at the next token. The context survives between requests,
//! so the KV entries of a shared prompt prefix (the fixed system prompt) are reused.

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::Instant;

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;

use super::generator::{
    ChatMessage, GenerationEvent, GenerationRequest, GenerationStats, Generator, ModelInfo, Prompt, Role, TokenStream, REPEAT_WINDOW,
};
use super::prompt;
use crate::error::{Error, Result};

/// Tokens in flight between the model thread and a slow reader before the thread waits.
const TOKEN_CHANNEL_BOUND: usize = 64;
const BATCH_TOKENS: usize = 512;
/// Context used when the model allows more: enough for the evidence budget and an answer,
/// small enough that the KV cache stays cheap on a laptop.
const DEFAULT_CONTEXT: u32 = 4096;

#[derive(Debug, Clone)]
pub struct LlamaSettings {
    pub model_path: PathBuf,
    pub context_tokens: u32,
    pub threads: usize,
    /// Layers offloaded to the GPU; only builds with the `cuda` or `metal` feature have one.
    pub gpu_layers: u32,
}

impl LlamaSettings {
    pub fn new(model_path: PathBuf) -> LlamaSettings {
        let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        let gpu_layers = if cfg!(any(feature = "cuda", feature = "metal")) { 999 } else { 0 };
        LlamaSettings { model_path, context_tokens: DEFAULT_CONTEXT, threads, gpu_layers }
    }
}

fn backend() -> Result<&'static LlamaBackend> {
    static BACKEND: OnceLock<std::result::Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            // llama.cpp logs every tensor at load; the CLI's own output is what people read.
            llama_cpp_2::send_logs_to_tracing(llama_cpp_2::LogOptions::default().with_logs_enabled(false));
            LlamaBackend::init().map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| Error::LlamaBackend(e.clone()))
}

/// Work for the model thread.
enum Job {
    Generate { request: GenerationRequest, events: SyncSender<GenerationEvent> },
    /// The mean log-probability of `continuation` right after `prompt` (teacher-forced).
    Score { prompt: Prompt, continuation: String, reply: SyncSender<std::result::Result<f32, String>> },
}

pub struct LlamaGenerator {
    info: ModelInfo,
    path: PathBuf,
    model: Arc<LlamaModel>,
    jobs: Mutex<Option<Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl LlamaGenerator {
    pub fn load(settings: &LlamaSettings) -> Result<LlamaGenerator> {
        let path = settings.model_path.clone();
        let fail = |message: String| Error::Generation { path: path.clone(), message };
        if !path.is_file() {
            return Err(fail("no such file; run models/fetch.sh or choose another GGUF".into()));
        }
        let backend = backend()?;
        let params = LlamaModelParams::default().with_n_gpu_layers(settings.gpu_layers);
        let model = LlamaModel::load_from_file(backend, &path, &params).map_err(|e| fail(format!("cannot load: {e}")))?;
        let model = Arc::new(model);
        // Evidence must not hold this model's own control tokens, whatever their family.
        super::guard::set_served_tokens(&control_tokens(&model));
        let context_tokens = settings.context_tokens.min(model.n_ctx_train()).max(512);
        let has_chat_template = model.chat_template(None).is_ok();
        let info = ModelInfo {
            name: path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            path: path.clone(),
            has_chat_template,
            context_tokens: context_tokens as usize,
        };
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let thread_model = Arc::clone(&model);
        let threads = settings.threads.max(1) as i32;
        let thread_path = path.clone();
        let thread = std::thread::Builder::new()
            .name("pagewise-llm".into())
            .spawn(move || model_thread(&thread_model, backend, context_tokens, threads, &thread_path, job_rx))
            .map_err(|e| fail(format!("cannot start the model thread: {e}")))?;
        Ok(LlamaGenerator {
            info,
            path,
            model,
            jobs: Mutex::new(Some(jobs)),
            thread: Mutex::new(Some(thread)),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The token ids this prompt is evaluated as.
    pub fn prompt_tokens(&self, prompt: &Prompt) -> Vec<i32> {
        tokenize_prompt(&self.model.vocab(), prompt).into_iter().map(|t| t.0).collect()
    }

    pub fn is_control_token(&self, token: i32) -> bool {
        self.model.vocab().is_control(LlamaToken(token))
    }
}

impl Drop for LlamaGenerator {
    fn drop(&mut self) {
        if let Ok(mut jobs) = self.jobs.lock() {
            jobs.take();
        }
        if let Some(handle) = self.thread.lock().ok().and_then(|mut t| t.take()) {
            let _ = handle.join();
        }
    }
}

impl Generator for LlamaGenerator {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn render(&self, messages: &[ChatMessage]) -> Result<Prompt> {
        if let Ok(template) = self.model.chat_template(None) {
            // The template is applied to placeholders; the messages' text is put back in
            // afterwards as plain text, so nothing in it can become a control token.
            let slots: Vec<String> = (0..messages.len()).map(slot).collect();
            let chat: std::result::Result<Vec<LlamaChatMessage>, _> = messages
                .iter()
                .zip(&slots)
                .map(|(m, slot)| {
                    let role = match m.role {
                        Role::System => "system",
                        Role::User => "user",
                    };
                    LlamaChatMessage::new(role.into(), slot.clone())
                })
                .collect();
            let chat = chat.map_err(|e| Error::Generation { path: self.path.clone(), message: e.to_string() })?;
            // A template llama.cpp cannot apply falls back to the completion layout below.
            if let Ok(rendered) = self.model.apply_chat_template(&template, &chat, true) {
                if let Some(prompt) = fill_slots(&rendered, messages) {
                    return Ok(prompt);
                }
            }
        }
        Ok(Prompt::plain(prompt::completion_layout(messages)))
    }

    fn count_tokens(&self, text: &str) -> Result<usize> {
        Ok(self.model.vocab().tokenize(text.as_bytes(), false, false).len())
    }

    fn stream(&self, request: GenerationRequest) -> Result<TokenStream> {
        let (events, receiver) = mpsc::sync_channel(TOKEN_CHANNEL_BOUND);
        let jobs = self.jobs.lock().map_err(|_| Error::Generation { path: self.path.clone(), message: "model thread lock poisoned".into() })?;
        let sender = jobs.as_ref().ok_or_else(|| Error::Generation { path: self.path.clone(), message: "model is shutting down".into() })?;
        sender
            .send(Job::Generate { request, events })
            .map_err(|_| Error::Generation { path: self.path.clone(), message: "the model thread has stopped".into() })?;
        Ok(TokenStream::new(receiver))
    }

    fn continuation_logprob(&self, prompt: &Prompt, continuation: &str) -> Result<f32> {
        let fail = |message: String| Error::Generation { path: self.path.clone(), message };
        let (reply, answer) = mpsc::sync_channel(1);
        {
            let jobs = self.jobs.lock().map_err(|_| fail("model thread lock poisoned".into()))?;
            let sender = jobs.as_ref().ok_or_else(|| fail("model is shutting down".into()))?;
            sender
                .send(Job::Score { prompt: prompt.clone(), continuation: continuation.to_string(), reply })
                .map_err(|_| fail("the model thread has stopped".into()))?;
        }
        answer.recv().map_err(|_| fail("the model thread stopped".into()))?.map_err(fail)
    }
}

/// A placeholder no document or question contains (private-use characters around it).
fn slot(i: usize) -> String {
    format!("\u{E000}pagewise-message-{i}\u{E001}")
}

/// Splits a template rendered over placeholders into markup and the messages' own text.
/// `None` when the template dropped or repeated a message (then the completion layout is used).
fn fill_slots(rendered: &str, messages: &[ChatMessage]) -> Option<Prompt> {
    let mut prompt = Prompt::default();
    let mut rest = rendered;
    for (i, m) in messages.iter().enumerate() {
        let s = slot(i);
        let at = rest.find(&s)?;
        prompt.push(&rest[..at], true);
        prompt.push(&m.content, false);
        rest = &rest[at + s.len()..];
    }
    if rest.contains('\u{E000}') {
        return None;
    }
    prompt.push(rest, true);
    Some(prompt)
}

/// Tokens of a prompt: markup with control tokens parsed, message text without.
fn tokenize_prompt(vocab: &llama_cpp_2::vocab::LlamaVocab<'_>, prompt: &Prompt) -> Vec<LlamaToken> {
    let mut tokens = Vec::new();
    for part in &prompt.parts {
        let first = tokens.is_empty();
        tokens.extend(vocab.tokenize(part.text.as_bytes(), first, part.markup));
    }
    tokens
}

fn model_thread(model: &LlamaModel, backend: &LlamaBackend, n_ctx: u32, threads: i32, path: &Path, jobs: Receiver<Job>) {
    let params = LlamaContextParams::default()
        .with_n_ctx(NonZeroU32::new(n_ctx))
        .with_n_batch(BATCH_TOKENS as u32)
        .with_n_threads(threads)
        .with_n_threads_batch(threads);
    let mut context = match model.new_context(backend, params) {
        Ok(c) => Some(c),
        Err(e) => {
            let message = format!("{}: cannot create a context: {e}", path.display());
            // Every job is answered with the failure, so callers never hang.
            for job in jobs {
                match job {
                    Job::Generate { events, .. } => drop(events.send(GenerationEvent::Failed(message.clone()))),
                    Job::Score { reply, .. } => drop(reply.send(Err(message.clone()))),
                }
            }
            return;
        }
    };
    let mut cached: Vec<LlamaToken> = Vec::new();
    for job in jobs {
        let Some(ctx) = context.as_mut() else { break };
        match job {
            Job::Generate { request, events } => match run_job(model, ctx, &mut cached, &request, &events) {
                Ok(stats) => drop(events.send(GenerationEvent::Done(stats))),
                Err(message) => {
                    cached.clear();
                    ctx.clear_kv_cache();
                    drop(events.send(GenerationEvent::Failed(message)));
                }
            },
            Job::Score { prompt, continuation, reply } => {
                let scored = score_continuation(model, ctx, &mut cached, &prompt, &continuation);
                if scored.is_err() {
                    cached.clear();
                    ctx.clear_kv_cache();
                }
                drop(reply.send(scored));
            }
        }
    }
}

/// A prompt evaluated into the context, reusing the KV entries of the longest common prefix
/// with what `cached` says the context holds. Returns the batch whose last entry has logits,
/// how many tokens were reused, and the time it took.
fn evaluate_prompt(
    ctx: &mut LlamaContext<'_>,
    cached: &mut Vec<LlamaToken>,
    prompt_tokens: &[LlamaToken],
    reserve: usize,
) -> std::result::Result<(LlamaBatch<'static>, usize, f64), String> {
    if prompt_tokens.is_empty() {
        return Err("empty prompt".into());
    }
    let n_ctx = ctx.n_ctx() as usize;
    if prompt_tokens.len() + reserve > n_ctx {
        return Err(format!("prompt has {} tokens; the context holds {n_ctx}", prompt_tokens.len()));
    }
    let mut reused = cached.iter().zip(prompt_tokens).take_while(|(a, b)| a == b).count();
    // The last prompt token is always evaluated again: its logits start the answer.
    reused = reused.min(prompt_tokens.len() - 1);
    if ctx.kv_cache_seq_rm(0, Some(reused as u32), None).is_err() {
        ctx.clear_kv_cache();
        reused = 0;
    }
    cached.truncate(reused);
    let started = Instant::now();
    let mut batch = LlamaBatch::new(BATCH_TOKENS, 1);
    let rest = &prompt_tokens[reused..];
    for (chunk_index, chunk) in rest.chunks(BATCH_TOKENS).enumerate() {
        batch.clear();
        let base = reused + chunk_index * BATCH_TOKENS;
        for (i, token) in chunk.iter().enumerate() {
            let is_last = base + i == prompt_tokens.len() - 1;
            batch.add(*token, (base + i) as i32, &[0], is_last).map_err(|e| e.to_string())?;
        }
        ctx.decode(&mut batch).map_err(|e| format!("prompt evaluation failed: {e}"))?;
        cached.extend_from_slice(chunk);
    }
    Ok((batch, reused, started.elapsed().as_secs_f64() * 1000.0))
}

fn log_softmax_at(logits: &[f32], token: LlamaToken) -> f32 {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
    logits.get(token.0 as usize).map_or(f32::NEG_INFINITY, |l| l - max - sum.ln())
}

/// The mean log-probability per token of `continuation` after `prompt`. The prompt's KV
/// entries stay in the context, so an answer generated next from the same prompt reuses them.
fn score_continuation(
    model: &LlamaModel,
    ctx: &mut LlamaContext<'_>,
    cached: &mut Vec<LlamaToken>,
    prompt: &Prompt,
    continuation: &str,
) -> std::result::Result<f32, String> {
    let vocab = model.vocab();
    let prompt_tokens = tokenize_prompt(&vocab, prompt);
    let forced = vocab.tokenize(continuation.as_bytes(), false, false);
    if forced.is_empty() {
        return Err("nothing to score".into());
    }
    let (batch, _, _) = evaluate_prompt(ctx, cached, &prompt_tokens, forced.len() + 8)?;
    let mut total = log_softmax_at(ctx.get_logits_ith(batch.n_tokens() - 1), forced[0]);
    let mut forced_batch = LlamaBatch::new(forced.len().max(1), 1);
    for (i, token) in forced.iter().enumerate() {
        forced_batch.add(*token, (prompt_tokens.len() + i) as i32, &[0], true).map_err(|e| e.to_string())?;
    }
    ctx.decode(&mut forced_batch).map_err(|e| format!("scoring failed: {e}"))?;
    cached.extend_from_slice(&forced);
    for (i, token) in forced.iter().enumerate().skip(1) {
        total += log_softmax_at(ctx.get_logits_ith(i as i32 - 1), *token);
    }
    Ok(total / forced.len() as f32)
}

/// Runs one request. `cached` holds the tokens whose KV entries are in the context; the
/// common prefix with the new prompt is kept and only the rest is evaluated.
fn run_job(
    model: &LlamaModel,
    ctx: &mut LlamaContext<'_>,
    cached: &mut Vec<LlamaToken>,
    request: &GenerationRequest,
    events: &SyncSender<GenerationEvent>,
) -> std::result::Result<GenerationStats, String> {
    let vocab = model.vocab();
    let prompt_tokens = tokenize_prompt(&vocab, &request.prompt);
    let (mut batch, reused, prompt_ms) = evaluate_prompt(ctx, cached, &prompt_tokens, 8)?;
    let n_ctx = ctx.n_ctx() as usize;

    let mut chain = Vec::new();
    if request.repeat_penalty != 1.0 {
        chain.push(LlamaSampler::penalties(vocab.n_tokens(), REPEAT_WINDOW, request.repeat_penalty, 0.0, 0.0));
    }
    if let Some(grammar) = &request.grammar {
        chain.push(LlamaSampler::grammar(model, grammar, "root").map_err(|e| format!("invalid grammar: {e}"))?);
    }
    chain.push(LlamaSampler::greedy());
    // Only generated tokens feed the penalty: an answer must be free to repeat the evidence's
    // figures and names.
    let mut sampler = LlamaSampler::chain_simple(chain);
    let generation_started = Instant::now();
    let mut stats = GenerationStats {
        prompt_tokens: prompt_tokens.len(),
        reused_prompt_tokens: reused,
        prompt_ms,
        ..GenerationStats::default()
    };
    let mut text = String::new();
    let mut pending_bytes: Vec<u8> = Vec::new();
    let mut logits_index = batch.n_tokens() - 1;
    let mut position = prompt_tokens.len();
    loop {
        if stats.generated_tokens >= request.max_tokens || position + 1 >= n_ctx {
            stats.hit_token_limit = true;
            break;
        }
        let token = sampler.sample(ctx, logits_index);
        if vocab.is_eog(token) && !request.ignore_eos {
            break;
        }
        stats.generated_tokens += 1;
        pending_bytes.extend(vocab.token_to_piece(token, false, None));
        let piece = take_valid_utf8(&mut pending_bytes);
        text.push_str(&piece);
        if let Some(stop) = request.stop.iter().find(|s| text.ends_with(s.as_str())) {
            let keep = piece.len().saturating_sub(stop.len());
            if keep > 0 && events.send(GenerationEvent::Token(piece[..keep].to_string())).is_err() {
                break;
            }
            break;
        }
        if !piece.is_empty() && events.send(GenerationEvent::Token(piece)).is_err() {
            break; // the receiver is gone: the request was cancelled
        }
        batch.clear();
        batch.add(token, position as i32, &[0], true).map_err(|e| e.to_string())?;
        ctx.decode(&mut batch).map_err(|e| format!("generation failed: {e}"))?;
        cached.push(token);
        position += 1;
        logits_index = 0;
    }
    stats.generation_ms = generation_started.elapsed().as_secs_f64() * 1000.0;
    Ok(stats)
}

/// Splits off the longest valid UTF-8 prefix; a character cut between two tokens waits for
/// the next piece. Bytes that can never be valid are replaced, so nothing stalls.
fn take_valid_utf8(bytes: &mut Vec<u8>) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => {
            let out = s.to_string();
            bytes.clear();
            out
        }
        Err(e) if e.error_len().is_none() => {
            let valid = e.valid_up_to();
            let out = String::from_utf8_lossy(&bytes[..valid]).into_owned();
            bytes.drain(..valid);
            out
        }
        Err(_) => {
            let out = String::from_utf8_lossy(bytes).into_owned();
            bytes.clear();
            out
        }
    }
}

/// The text of every control token in `model`'s vocabulary (`<|im_start|>`, `<end_of_turn>`…).
fn control_tokens(model: &LlamaModel) -> Vec<String> {
    let vocab = model.vocab();
    vocab.tokens().filter(|t| vocab.is_control(*t)).map(|t| String::from_utf8_lossy(&vocab.token_to_piece(t, true, None)).into_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::take_valid_utf8;

    #[test]
    fn utf8_split_across_tokens_is_held_back() {
        let euro = "€".as_bytes();
        let mut pending = euro[..2].to_vec();
        assert_eq!(take_valid_utf8(&mut pending), "");
        pending.extend_from_slice(&euro[2..]);
        assert_eq!(take_valid_utf8(&mut pending), "€");
        assert!(pending.is_empty());
    }
}

