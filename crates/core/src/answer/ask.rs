//! One question → one checked answer: rewrite a follow-up, plan, gather evidence with the
//! tools, decide whether to abstain, generate (or extract), and attribute every sentence.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;

use super::abstain::{self, AbstainThresholds, RetrievalSignals};
use super::attribute::{self, AttributionCounts, Citation, Sentence, SentenceStatus, Vectors};
use super::evidence::{EvidencePage, EvidenceSet};
use super::extractive::extractive_sentences;
use super::generator::{GenerationEvent, GenerationRequest, GenerationStats, Generator};
use super::plan::{self, Plan, MAX_STEPS};
use super::prompt::{self, NOT_COVERED};
use super::tools::{Step, Toolbox};
use super::{mapreduce, rewrite};
use crate::cite::split_claims;
use crate::embed::{Embedder, TextRole};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::retrieve::Hit;

#[derive(Debug, Clone)]
pub struct AskOptions {
    pub scope: Vec<PathBuf>,
    /// Passages retrieved per search.
    pub k: usize,
    /// Tokens of evidence in the prompt. Prompt processing on a laptop CPU runs at a few
    /// hundred tokens/s, so this decides the time to first token.
    pub evidence_tokens: usize,
    pub max_answer_tokens: usize,
    /// Constrain decoding with a grammar that only admits this answer's labels.
    pub constrained: bool,
    pub thresholds: AbstainThresholds,
    /// Skip the retrieval-based abstain check (the model and attribution still decide).
    pub never_abstain: bool,
}

impl Default for AskOptions {
    fn default() -> Self {
        AskOptions {
            scope: Vec::new(),
            k: 8,
            evidence_tokens: 700,
            max_answer_tokens: 160,
            constrained: false,
            thresholds: AbstainThresholds::default(),
            never_abstain: false,
        }
    }
}

/// What a caller sees while the answer is being made. Returning `false` from the sink
/// cancels: generation stops at the next token.
pub enum AskEvent<'a> {
    Step(&'a Step),
    Token(&'a str),
    Progress { done: usize, total: usize, what: &'a str },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum AnswerMode {
    Generated,
    Extractive,
    Abstained,
    MapReduce,
}

#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Timings {
    pub retrieve_ms: f64,
    pub prompt_ms: f64,
    pub first_token_ms: Option<f64>,
    pub generation_ms: f64,
    pub total_ms: f64,
    pub prompt_tokens: usize,
    pub reused_prompt_tokens: usize,
    pub generated_tokens: usize,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Answer {
    pub question: String,
    /// The query retrieval used when the question was a follow-up.
    pub standalone_query: Option<String>,
    pub answer: String,
    pub citations: Vec<Citation>,
    pub abstained: bool,
    pub mode: AnswerMode,
    pub sentences: Vec<Sentence>,
    pub steps: Vec<Step>,
    pub sources: Vec<EvidencePage>,
    pub attribution: AttributionCounts,
    pub signals: Option<RetrievalSignals>,
    pub model: Option<String>,
    pub raw_model_output: Option<String>,
    pub note: Option<String>,
    pub timings: Timings,
    pub conversation_id: Option<i64>,
    /// This answer's place in its conversation (0 for the first question).
    pub turn: Option<usize>,
}

pub struct Asker<'a> {
    pub engine: &'a Engine,
    pub generator: Option<&'a dyn Generator>,
    pub options: AskOptions,
}

pub(crate) type Sink<'s> = dyn FnMut(AskEvent<'_>) -> bool + 's;

impl Asker<'_> {
    /// Answers `question`; `previous` is the standalone query of the previous turn, if any.
    pub fn ask(&self, question: &str, previous: Option<&str>, sink: &mut Sink<'_>) -> Result<Answer> {
        let started = Instant::now();
        let mut tools = Toolbox::new(self.engine, &self.options.scope)?;
        let standalone = rewrite::standalone(question, previous);
        if let Some(q) = &standalone {
            let t = Instant::now();
            let step = tools.record("rewrite", json!({"question": question, "previous": previous}), q.clone(), t);
            if !sink(AskEvent::Step(step)) {
                return Err(Error::Interrupted);
            }
        }
        let query = standalone.clone().unwrap_or_else(|| question.to_string());
        let documents: Vec<_> = tools.documents.values().cloned().collect();
        let the_plan = plan::plan(&query, &documents, tools.scope.as_deref());
        let t = Instant::now();
        let step = tools.record("plan", json!({"query": query}), serde_json::to_string(&the_plan).unwrap_or_default(), t);
        if !sink(AskEvent::Step(step)) {
            return Err(Error::Interrupted);
        }
        if let Plan::WholeDocument { doc_ids } = &the_plan {
            let mut answer = mapreduce::run(self, &mut tools, &query, doc_ids, sink)?;
            answer.question = question.to_string();
            answer.standalone_query = standalone;
            answer.timings.total_ms = ms(started);
            return Ok(answer);
        }
        let hits = self.gather(&mut tools, &query, &the_plan, sink)?;
        let retrieve_ms = ms(started);
        let count = |t: &str| self.count_tokens(t);
        let evidence = EvidenceSet::from_hits(&hits, &tools.documents, self.options.evidence_tokens, &count);
        let query_vector = self.engine.embedder().embed(&[query.clone()], TextRole::Query)?.into_iter().next();
        let chunk_ids: Vec<i64> = evidence.pages.iter().flat_map(|p| p.passages.iter().map(|x| x.chunk_id)).collect();
        let passage_vectors = self.engine.with_store(|s| s.vectors_of(&chunk_ids))?;
        let frequencies = |words: &[String]| self.engine.document_frequencies(words).unwrap_or_else(|_| vec![1; words.len()]);
        let signals = abstain::signals(&query, &evidence, query_vector.as_deref(), &passage_vectors, &frequencies);
        let mut answer = Answer {
            question: question.to_string(),
            standalone_query: standalone,
            answer: String::new(),
            citations: Vec::new(),
            abstained: false,
            mode: AnswerMode::Generated,
            sentences: Vec::new(),
            steps: Vec::new(),
            sources: evidence.pages.clone(),
            attribution: AttributionCounts::default(),
            signals: Some(signals.clone()),
            model: self.generator.map(|g| g.info().name.clone()),
            raw_model_output: None,
            note: None,
            timings: Timings { retrieve_ms, ..Timings::default() },
            conversation_id: None,
            turn: None,
        };
        if evidence.is_empty() || (!self.options.never_abstain && abstain::should_abstain(&signals, &self.options.thresholds)) {
            abstain_with_nearest(&mut answer, &evidence, "retrieval found no passage that covers the question");
        } else {
            match self.generator {
                Some(generator) => {
                    let messages = prompt::answer_messages(&query, &evidence);
                    let generated = self.generate(generator, &messages, &evidence, started, sink);
                    match generated {
                        Ok((raw, stats, first_token_ms, stopped)) => {
                            answer.timings.prompt_ms = stats.prompt_ms;
                            answer.timings.generation_ms = stats.generation_ms;
                            answer.timings.prompt_tokens = stats.prompt_tokens;
                            answer.timings.reused_prompt_tokens = stats.reused_prompt_tokens;
                            answer.timings.generated_tokens = stats.generated_tokens;
                            answer.timings.first_token_ms = first_token_ms;
                            self.finish_generated(&mut answer, &query, &raw, &evidence, &passage_vectors)?;
                            answer.raw_model_output = Some(raw);
                            if stopped {
                                answer.note = Some("Stopped before the model finished: the answer is incomplete.".into());
                            }
                        }
                        Err(Error::Interrupted) => return Err(Error::Interrupted),
                        Err(e) => {
                            extract(&mut answer, &query, &evidence);
                            answer.note = Some(format!("Extractive answer: generation failed ({e})."));
                        }
                    }
                }
                None => {
                    extract(&mut answer, &query, &evidence);
                    answer.note = Some("Extractive answer: no language model is loaded; these are the source sentences that best match the question.".into());
                }
            }
        }
        answer.steps = tools.steps;
        answer.timings.total_ms = ms(started);
        Ok(answer)
    }

    pub(crate) fn count_tokens(&self, text: &str) -> usize {
        match self.generator {
            Some(g) => g.count_tokens(text).unwrap_or(text.len() / 4),
            None => text.len() / 4,
        }
    }

    /// Runs the plan's searches (at most [`MAX_STEPS`]) and merges their hits so that each
    /// sub-query is represented near the top.
    fn gather(&self, tools: &mut Toolbox<'_>, query: &str, the_plan: &Plan, sink: &mut Sink<'_>) -> Result<Vec<Hit>> {
        let k = self.options.k;
        let lists: Vec<Vec<Hit>> = match the_plan {
            Plan::Decompose { subqueries } => {
                let per = (k / subqueries.len()).max(3);
                let mut lists = Vec::new();
                for sq in subqueries.iter().take(MAX_STEPS - 2) {
                    lists.push(tools.search_docs(&sq.query, per, &sq.doc_ids));
                    if let Some(step) = tools.steps.last() {
                        if !sink(AskEvent::Step(step)) {
                            return Err(Error::Interrupted);
                        }
                    }
                }
                lists
            }
            _ => {
                let hits = tools.search_docs(query, k, &[]);
                if let Some(step) = tools.steps.last() {
                    if !sink(AskEvent::Step(step)) {
                        return Err(Error::Interrupted);
                    }
                }
                vec![hits]
            }
        };
        let mut merged = Vec::new();
        let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
        for i in 0..longest {
            for list in &lists {
                if let Some(h) = list.get(i) {
                    if !merged.iter().any(|m: &Hit| m.chunk_id == h.chunk_id) {
                        merged.push(h.clone());
                    }
                }
            }
        }
        Ok(merged)
    }

    /// Streams one generation, forwarding tokens to the sink. Returns the raw text, the
    /// model's figures, the time from `started` to the first token, and whether the sink
    /// stopped it early.
    pub(crate) fn generate(
        &self,
        generator: &dyn Generator,
        messages: &[super::generator::ChatMessage],
        evidence: &EvidenceSet,
        started: Instant,
        sink: &mut Sink<'_>,
    ) -> Result<(String, GenerationStats, Option<f64>, bool)> {
        let prompt_text = generator.render(messages)?;
        let grammar = self.options.constrained.then(|| label_grammar(evidence));
        let stop = if generator.info().has_chat_template {
            Vec::new()
        } else {
            vec!["\nQuestion:".to_string(), "\nEvidence:".to_string(), "\n\n\n".to_string()]
        };
        let stream = generator.stream(GenerationRequest { prompt: prompt_text, max_tokens: self.options.max_answer_tokens, grammar, stop, ignore_eos: false })?;
        let mut raw = String::new();
        let mut first_token_ms = None;
        let mut generated = 0usize;
        loop {
            match stream.next_event_timeout(Duration::from_millis(200)) {
                Err(()) => {
                    if !sink(AskEvent::Progress { done: 0, total: 0, what: "waiting for the model" }) {
                        return Err(Error::Interrupted);
                    }
                }
                Ok(Some(GenerationEvent::Token(t))) => {
                    if first_token_ms.is_none() {
                        first_token_ms = Some(ms(started));
                    }
                    raw.push_str(&t);
                    generated += 1;
                    if !sink(AskEvent::Token(&t)) {
                        // Stopped by the user: what was written so far is still checked and
                        // shown. Dropping `stream` stops the model.
                        let stats = GenerationStats { generated_tokens: generated, ..GenerationStats::default() };
                        return Ok((raw, stats, first_token_ms, true));
                    }
                }
                Ok(Some(GenerationEvent::Done(stats))) => {
                    // A completion-style model runs on into the next "Question"; cut it there.
                    for marker in ["\nQuestion", "\nEvidence", "\n\n\n"] {
                        if let Some(at) = raw.find(marker).filter(|_| !generator.info().has_chat_template) {
                            raw.truncate(at);
                        }
                    }
                    return Ok((raw, stats, first_token_ms, false));
                }
                Ok(Some(GenerationEvent::Failed(message))) => {
                    return Err(Error::Generation { path: PathBuf::from(&generator.info().name), message })
                }
                Ok(None) => {
                    return Err(Error::Generation { path: PathBuf::from(&generator.info().name), message: "the model thread stopped".into() })
                }
            }
        }
    }

    pub(crate) fn check(&self, raw: &str, evidence: &EvidenceSet, passage_vectors: &HashMap<i64, Vec<f32>>) -> Result<(Vec<Sentence>, AttributionCounts)> {
        let claims = split_claims(raw);
        let texts: Vec<String> = claims.iter().map(|c| c.text.clone()).collect();
        let claim_vectors = if texts.is_empty() { Vec::new() } else { self.engine.embedder().embed(&texts, TextRole::Query)? };
        let vectors = Vectors { claims: claim_vectors.into_iter().map(Some).collect(), passages: passage_vectors };
        Ok(attribute::attribute(&claims, evidence, &vectors))
    }

    fn finish_generated(&self, answer: &mut Answer, query: &str, raw: &str, evidence: &EvidenceSet, passage_vectors: &HashMap<i64, Vec<f32>>) -> Result<()> {
        let (sentences, counts) = self.check(raw, evidence, passage_vectors)?;
        answer.attribution = counts;
        let supported = sentences.iter().filter(|s| !s.citations.is_empty()).count();
        let said_not_covered = sentences.iter().any(|s| s.status == SentenceStatus::NotCovered);
        if supported == 0 && said_not_covered {
            abstain_with_nearest(answer, evidence, "the model found that the evidence does not answer the question");
            answer.sentences = sentences;
            return Ok(());
        }
        if supported == 0 {
            extract(answer, query, evidence);
            answer.sentences.extend(sentences);
            answer.note = Some("Extractive answer: no sentence of the model's answer could be matched to the sources, so these are the source sentences that best match the question.".into());
            return Ok(());
        }
        let shown: Vec<Sentence> = sentences.into_iter().filter(|s| s.status != SentenceStatus::NotCovered).collect();
        answer.answer = attribute::render(&shown);
        answer.citations = collect_citations(&shown);
        answer.sentences = shown;
        answer.mode = AnswerMode::Generated;
        Ok(())
    }
}

pub(crate) fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

pub(crate) fn collect_citations(sentences: &[Sentence]) -> Vec<Citation> {
    let mut out: Vec<Citation> = Vec::new();
    for c in sentences.iter().flat_map(|s| &s.citations) {
        if !out.iter().any(|o| o.label == c.label && o.byte_start == c.byte_start) {
            out.push(c.clone());
        }
    }
    out
}

fn extract(answer: &mut Answer, query: &str, evidence: &EvidenceSet) {
    let sentences = extractive_sentences(query, evidence);
    answer.answer = attribute::render(&sentences);
    answer.citations = collect_citations(&sentences);
    answer.sentences = sentences;
    answer.mode = AnswerMode::Extractive;
}

/// Says that the documents do not cover the question and lists the nearest passages, cited.
fn abstain_with_nearest(answer: &mut Answer, evidence: &EvidenceSet, why: &str) {
    answer.abstained = true;
    answer.mode = AnswerMode::Abstained;
    let nearest: Vec<Citation> = evidence
        .pages
        .iter()
        .take(3)
        .map(|page| {
            let p = &page.passages[0];
            let end = p.text.char_indices().nth(240).map(|(i, _)| i).unwrap_or(p.text.len());
            Citation {
                label: page.label.clone(),
                doc_id: page.doc_id,
                doc_path: page.doc_path.clone(),
                doc_title: page.doc_title.clone(),
                page: page.page,
                chunk_id: p.chunk_id,
                byte_start: p.byte_start,
                byte_end: p.byte_start + end,
                quote: p.text[..end].to_string(),
                support: 0.0,
            }
        })
        .collect();
    answer.answer = if nearest.is_empty() {
        NOT_COVERED.to_string()
    } else {
        let labels: String = nearest.iter().map(|c| format!("[{}]", c.label)).collect();
        format!("{NOT_COVERED} The nearest passages are {labels}.")
    };
    answer.citations = nearest;
    answer.note = Some(format!("Abstained: {why}."));
}

/// A GBNF grammar under which the model can only write this answer's labels: free text
/// without brackets, each sentence closed by one valid label, or the not-covered sentence.
pub fn label_grammar(evidence: &EvidenceSet) -> String {
    let labels: Vec<String> = evidence.pages.iter().map(|p| format!("\"{}\"", p.label)).collect();
    let labels = if labels.is_empty() { "\"Doc1_p1\"".to_string() } else { labels.join(" | ") };
    format!(
        "root ::= nc | claim (\" \" claim)? (\" \" claim)? (\" \" claim)?\n\
         nc ::= \"{NOT_COVERED}\"\n\
         claim ::= [^\\[\\]\\n] [^\\[\\]\\n]* \"[\" label \"]\" \".\"?\n\
         label ::= {labels}\n"
    )
}
