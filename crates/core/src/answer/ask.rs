//! One question → one checked answer: rewrite a follow-up, plan, gather evidence with the
//! tools, decide whether to abstain, generate (or extract), and attribute every sentence.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;

use super::abstain::{self, AbstainThresholds, LibraryView, RetrievalSignals};
use super::attribute::{self, AttributionCounts, Citation, Sentence, SentenceStatus, Vectors};
use super::evidence::EvidenceSet;
use super::extractive::extractive_sentences;
use super::generator::{GenerationEvent, GenerationRequest, GenerationStats, Generator};
use crate::lang::Lang;
use super::plan::{self, Plan, MAX_STEPS};
use super::prompt::{self, NOT_COVERED};
use super::tools::Toolbox;
use super::{asked, judge, lookup, mapreduce, repeat, rewrite};
pub use super::outcome::{Answer, AnswerMode, AskEvent, Timings};
pub(crate) use super::outcome::{collect_citations, ms, Sink};
use super::budget::{evidence_budget, evidence_for_first_token};
use super::stages::Stages;
use crate::answer::cite::split_claims;
use crate::embed::TextRole;
use crate::engine::{Queries, Reader};
use crate::error::{Error, Result};
use crate::retrieve::Hit;

#[derive(Debug, Clone)]
pub struct AskOptions {
    pub scope: Vec<PathBuf>,
    /// Passages retrieved per search.
    pub k: usize,
    /// Tokens of evidence in the prompt; `None` follows the model (see [`evidence_budget`]).
    /// Prompt processing on a laptop CPU runs at a few hundred tokens/s, so this decides the
    /// time to first token.
    pub evidence_tokens: Option<usize>,
    pub max_answer_tokens: usize,
    /// Constrain decoding with a grammar that only admits this answer's labels.
    pub constrained: bool,
    pub thresholds: AbstainThresholds,
    /// Skip the abstain check (the model and attribution still decide).
    pub never_abstain: bool,
    /// Ask the model whether the evidence states the answer even when the abstain rule does
    /// not use it, so evaluations can record it.
    pub record_judge: bool,
    /// Seconds the user is willing to wait for the model's first token: the evidence is cut
    /// to what this model reads in that time on this machine (its measured prompt speed).
    /// Ignored while `evidence_tokens` is set or the model has no measured speed yet.
    pub first_token_within_s: Option<f64>,
}

impl Default for AskOptions {
    fn default() -> Self {
        AskOptions {
            scope: Vec::new(),
            k: 8,
            evidence_tokens: None,
            max_answer_tokens: 160,
            constrained: false,
            thresholds: AbstainThresholds::default(),
            never_abstain: false,
            first_token_within_s: None,
            record_judge: false,
        }
    }
}

pub struct Asker<'a> {
    pub engine: &'a Reader,
    pub generator: Option<&'a dyn Generator>,
    pub options: AskOptions,
}

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
        let mut documents: Vec<_> = tools.documents.values().cloned().collect();
        documents.sort_by_key(|d| d.doc_id);
        // "Which documents mention X?", "how many 2023 reports do I have?": the index knows.
        if let Some(asked) = super::library_question::recognise(&query, &documents) {
            let t = Instant::now();
            let step = tools.record("plan", json!({"query": query}), serde_json::to_string(&asked).unwrap_or_default(), t);
            if !sink(AskEvent::Step(step)) {
                return Err(Error::Interrupted);
            }
            let mut answer = super::library_answer::run(&mut tools, question, &asked, &|t| self.count_tokens(t))?;
            answer.standalone_query = standalone;
            answer.timings.total_ms = ms(started);
            return Ok(answer);
        }
        let used_by = |word: &str| self.engine.documents_using(word).unwrap_or(u64::MAX);
        let the_plan = plan::plan(&query, &documents, tools.scope.as_deref(), &used_by);
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
        // The abstain rule's thresholds were fitted on 700 tokens of passages in fused order
        // (before page reranking); it keeps seeing that, whatever the model is given.
        let mut fused_order = hits.clone();
        fused_order.sort_by(|a, b| b.score.total_cmp(&a.score));
        let calibrated = EvidenceSet::from_hits(&fused_order, &tools.documents, abstain::SIGNAL_EVIDENCE_TOKENS, &|t| self.count_tokens(t));
        // The statement row the question asks for leads the evidence (not the abstain rule's
        // view above, which keeps the retrieval it was fitted on).
        let hits = self.with_statement_rows(&mut tools, &query, hits, sink)?;
        let retrieve_ms = ms(started);
        let count = |t: &str| self.count_tokens(t);
        let evidence = EvidenceSet::from_hits(&hits, &tools.documents, self.evidence_tokens(), &count);
        // A plain plan searched with this very query: its embedding is already there.
        let query_vector = match tools.last_query_vector.take() {
            Some((searched, vector)) if searched == query => Some(vector),
            _ => self.engine.embedder().embed(std::slice::from_ref(&query), TextRole::Query)?.into_iter().next(),
        };
        let mut chunk_ids: Vec<i64> =
            evidence.pages.iter().chain(&calibrated.pages).flat_map(|p| p.passages.iter().map(|x| x.chunk_id)).collect();
        chunk_ids.sort_unstable();
        chunk_ids.dedup();
        let passage_vectors = self.engine.vectors_of(&chunk_ids)?;
        let frequencies = |words: &[String]| self.engine.document_frequencies(words).unwrap_or_else(|_| vec![1; words.len()]);
        let chunks = self.engine.passage_count()?;
        // For a plan of several searches this is the last one's: each covers part of the question.
        let ranking = tools.last_ranking.as_ref();
        let library = LibraryView { frequencies: &frequencies, chunks, ranking };
        let signals = abstain::signals(&query, &calibrated, query_vector.as_deref(), &passage_vectors, &library);
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
        let lang = Lang::of(question);
        let abstains = |s: &RetrievalSignals| !self.options.never_abstain && abstain::should_abstain(s, &self.options.thresholds);
        let missing_period = if self.options.never_abstain { None } else { asked::missing_period(&query, &evidence) };
        if evidence.is_empty() || abstains(&signals) {
            abstain_with_nearest(&mut answer, &evidence, "retrieval found no passage that covers the question", lang);
        } else if let Some(period) = missing_period {
            let why = format!("the sources state other periods than the one asked about ({period:?})");
            abstain_with_nearest(&mut answer, &evidence, &why, lang);
        } else {
            let quotes = extractive_sentences(&query, &evidence);
            answer.timings.first_evidence_ms = Some(ms(started));
            if !sink(AskEvent::Evidence(&quotes)) {
                return Err(Error::Interrupted);
            }
            let messages = prompt::answer_messages(&query, &evidence);
            // The model as a judge: does the evidence state the answer? Its prompt shares the
            // evidence with the answer prompt, so this costs a few tokens; it is asked only when
            // the abstain rule uses it (or an evaluation records it).
            let mut signals = signals;
            let wants_judge = self.options.thresholds.min_model_yes.is_some() || self.options.record_judge;
            if let (Some(generator), true) = (self.generator, wants_judge) {
                signals.model_yes = judge::evidence_answers(generator, &query, &evidence);
                answer.signals = Some(signals.clone());
            }
            if signals.model_yes.is_some() && abstains(&signals) {
                abstain_with_nearest(&mut answer, &evidence, "the model judged that the passages do not answer the question", lang);
                answer.steps = tools.steps;
                answer.timings.total_ms = ms(started);
                return Ok(answer);
            }
            match self.generator {
                Some(generator) => {
                    let generated = self.generate(generator, &messages, &evidence, started, sink);
                    match generated {
                        Ok((raw, stats, first_token_ms, stopped)) => {
                            answer.timings.prompt_ms = stats.prompt_ms;
                            answer.timings.generation_ms = stats.generation_ms;
                            answer.timings.prompt_tokens = stats.prompt_tokens;
                            answer.timings.reused_prompt_tokens = stats.reused_prompt_tokens;
                            answer.timings.generated_tokens = stats.generated_tokens;
                            answer.timings.first_token_ms = first_token_ms;
                            let checked = Checked { raw: &raw, evidence: &evidence, passage_vectors: &passage_vectors, quotes, lang };
                            self.finish_generated(&mut answer, checked)?;
                            answer.raw_model_output = Some(raw);
                            if stopped {
                                answer.note = Some("Stopped before the model finished: the answer is incomplete.".into());
                            }
                        }
                        Err(Error::Interrupted) => return Err(Error::Interrupted),
                        Err(e) => {
                            show_quotes(&mut answer, quotes, lang);
                            answer.note = Some(format!("Extractive answer: generation failed ({e})."));
                        }
                    }
                }
                None => {
                    show_quotes(&mut answer, quotes, lang);
                    answer.note = Some("Extractive answer: no language model is loaded; these are the source sentences that best match the question.".into());
                }
            }
        }
        if !self.engine.embedder().covers(Lang::of(&query)) {
            let gap = Lang::of(&query).keyword_search_note();
            answer.note = Some(match answer.note.take() {
                Some(n) => format!("{n} {gap}"),
                None => gap.to_string(),
            });
        }
        answer.steps = tools.steps;
        answer.timings.total_ms = ms(started);
        Ok(answer)
    }

    /// Runs the plan's searches (at most [`MAX_STEPS`]) and merges their hits so that each
    /// sub-query is represented near the top.
    fn gather(&self, tools: &mut Toolbox<'_>, query: &str, the_plan: &Plan, sink: &mut Sink<'_>) -> Result<Vec<Hit>> {
        // Enough passages to fill the evidence budget (passages average about 100 tokens).
        let k = self.options.k.max(self.evidence_tokens() / 90);
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

    /// `hits` led by the passages that hold the table rows the question asks for
    /// ([`lookup::statement_rows`]), each once; the lookup is a step of the trace.
    fn with_statement_rows(&self, tools: &mut Toolbox<'_>, query: &str, hits: Vec<Hit>, sink: &mut Sink<'_>) -> Result<Vec<Hit>> {
        let t = Instant::now();
        let (rows, found) = lookup::statement_rows(self.engine, query, &hits)?;
        if rows.is_empty() {
            return Ok(hits);
        }
        let said: Vec<String> = found.iter().map(|r| format!("p.{} {} · {}: {}", r.page, r.row, r.column, r.value)).collect();
        let step = tools.record("lookup_rows", json!({"query": query}), said.join("\n"), t);
        if !sink(AskEvent::Step(step)) {
            return Err(Error::Interrupted);
        }
        let leading: Vec<i64> = rows.iter().map(|r| r.chunk_id).collect();
        let mut led = rows;
        led.extend(hits.into_iter().filter(|h| !leading.contains(&h.chunk_id)));
        Ok(led)
    }

    fn finish_generated(&self, answer: &mut Answer, checked: Checked<'_>) -> Result<()> {
        let Checked { raw, evidence, passage_vectors, quotes, lang } = checked;
        let (sentences, counts) = self.check(&answer.standalone_query.clone().unwrap_or_else(|| answer.question.clone()), raw, evidence, passage_vectors)?;
        answer.attribution = counts;
        let sentences = without_repeats(sentences);
        let supported = sentences.iter().filter(|s| !s.citations.is_empty()).count();
        let said_not_covered = sentences.iter().any(|s| s.status == SentenceStatus::NotCovered);
        // The sources may name the subject and still not state the asked fact: the supported
        // sentences give figures of another kind than asked (a percentage for an amount), or
        // only other periods than the one asked about (2025's meeting for "the 2026 AGM").
        // Then the answer says so and shows the nearest passages, nothing else. An answer with
        // nothing supported is not abstained on here: measured on the sample and the Chinese
        // articles, the model says "not covered" of answerable questions about as often as of
        // near misses (README.md, "Abstaining"), so the source sentences are shown instead.
        let question = answer.standalone_query.clone().unwrap_or_else(|| answer.question.clone());
        let wrong_kind = asked::wanted(&question).is_some_and(|w| supported > 0 && asked::gives_other_kind(w, &sentences));
        let wrong_period = supported > 0 && asked::gives_other_period(&question, &sentences);
        if !self.options.never_abstain && (wrong_kind || wrong_period) {
            let why = if wrong_kind {
                "the sources name the subject but no checked sentence gives the kind of value asked for"
            } else {
                "the checked sentences are about other periods than the one asked about"
            };
            let reasons = sentences.iter().filter_map(|s| s.reason).collect::<Vec<_>>();
            abstain_with_nearest(answer, evidence, why, lang);
            if let Some(r) = reasons.first() {
                answer.note = Some(format!("{} Nearest near miss: {}.", answer.note.clone().unwrap_or_default(), r.label(Lang::En)));
            }
            return Ok(());
        }
        // The model's own "not covered" is not taken as abstaining: measured, small models say
        // it as often of questions the passages answer as of ones they do not (README.md,
        // "Abstaining"). Retrieval has already judged that the library is not silent, so the
        // best source sentences are shown instead, and the note says what the model said,
        // unless those sentences do not state the asked slots either (no value of the asked
        // kind, or not the asked period): then nothing in the sources answers.
        if supported == 0 && !self.options.never_abstain && !asked::quotes_answer(&question, &quotes) {
            abstain_with_nearest(answer, evidence, "neither the model nor the best source sentences state a value of the kind or period asked for", lang);
            return Ok(());
        }
        if supported == 0 {
            let model_said = sentences.into_iter().filter(|s| s.status == SentenceStatus::Unsupported);
            show_quotes(answer, quotes.into_iter().chain(model_said).collect(), lang);
            answer.note = Some(if said_not_covered {
                "The model found no answer in these passages; these are the source sentences that best match the question.".into()
            } else {
                "Extractive answer: no sentence of the model's answer could be matched to the sources, so these are the source sentences that best match the question.".into()
            });
            return Ok(());
        }
        let mut shown: Vec<Sentence> = sentences.into_iter().filter(|s| s.status != SentenceStatus::NotCovered).collect();
        if shown.iter().any(|s| s.status == SentenceStatus::Unsupported) {
            // Lead with what the sources say; the model's checked sentences follow, and the
            // unchecked ones come last, marked.
            let mut ordered: Vec<Sentence> = quotes;
            shown.sort_by_key(|s| s.status == SentenceStatus::Unsupported);
            ordered.extend(shown);
            shown = without_repeats(ordered);
            answer.note = Some("Some of the model's sentences could not be matched to the sources: the source sentences come first.".into());
        }
        answer.answer = attribute::render(&shown, lang);
        answer.citations = collect_citations(&shown);
        answer.sentences = shown;
        answer.mode = AnswerMode::Generated;
        Ok(())
    }
}

/// What generation produced and what it is checked against.
struct Checked<'a> {
    raw: &'a str,
    evidence: &'a EvidenceSet,
    passage_vectors: &'a HashMap<i64, Vec<f32>>,
    /// The evidence sentences that best match the question.
    quotes: Vec<Sentence>,
    lang: Lang,
}

/// Each sentence once: a later sentence that repeats an earlier one is dropped.
fn without_repeats(sentences: Vec<Sentence>) -> Vec<Sentence> {
    let mut out: Vec<Sentence> = Vec::with_capacity(sentences.len());
    for s in sentences {
        if !out.iter().any(|o| repeat::repeats(&o.text, &s.text)) {
            out.push(s);
        }
    }
    out
}

/// The answer made of evidence quotes (and, after them, any unsupported model sentences).
fn show_quotes(answer: &mut Answer, sentences: Vec<Sentence>, lang: Lang) {
    answer.answer = attribute::render(&sentences, lang);
    answer.citations = collect_citations(&sentences);
    answer.sentences = sentences;
    answer.mode = AnswerMode::Extractive;
}

/// Says that the documents do not cover the question and lists the nearest passages, cited.
fn abstain_with_nearest(answer: &mut Answer, evidence: &EvidenceSet, why: &str, lang: Lang) {
    answer.abstained = true;
    answer.mode = AnswerMode::Abstained;
    let nearest: Vec<Citation> = evidence
        .pages
        .iter()
        .take(3)
        .map(|page| {
            let p = &page.passages[0];
            let end = p.text.char_indices().nth(240).map(|(i, _)| i).unwrap_or(p.text.len());
            Citation::of(page, p, 0..end, 0.0)
        })
        .collect();
    answer.answer = if nearest.is_empty() {
        lang.not_covered().to_string()
    } else {
        let labels: String = nearest.iter().map(|c| format!("[{}]", c.label)).collect();
        let end = if lang == Lang::En { "." } else { "。" };
        format!("{} {} {labels}{end}", lang.not_covered(), lang.nearest_passages())
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

impl Stages for Asker<'_> {
    fn engine(&self) -> &Reader {
        self.engine
    }

    fn generator(&self) -> Option<&dyn Generator> {
        self.generator
    }

    fn evidence_tokens(&self) -> usize {
        if let Some(tokens) = self.options.evidence_tokens {
            return tokens;
        }
        let default = evidence_budget(self.generator.map(|g| g.info()));
        let measured = self.generator.and_then(|g| crate::model_catalog::measured_speed(self.engine.data_dir(), &g.info().path));
        match (self.options.first_token_within_s, measured) {
            (Some(seconds), Some(speed)) => evidence_for_first_token(seconds, speed.prompt_tokens_per_s, default),
            _ => default,
        }
    }

    fn count_tokens(&self, text: &str) -> usize {
        match self.generator {
            Some(g) => g.count_tokens(text).unwrap_or(text.len() / 4),
            None => text.len() / 4,
        }
    }

    /// Streams one generation, forwarding tokens to the sink. Returns the raw text, the
    /// model's figures, the time from `started` to the first token, and whether the sink
    /// stopped it early.
    fn generate(
        &self,
        generator: &dyn Generator,
        messages: &[super::generator::ChatMessage],
        evidence: &EvidenceSet,
        started: Instant,
        sink: &mut Sink<'_>,
    ) -> Result<(String, GenerationStats, Option<f64>, bool)> {
        let prompt = generator.render(messages)?;
        let grammar = self.options.constrained.then(|| label_grammar(evidence));
        let stop = if generator.info().has_chat_template {
            Vec::new()
        } else {
            vec!["\nQuestion:".to_string(), "\nEvidence:".to_string(), "\n\n\n".to_string()]
        };
        let request = GenerationRequest { grammar, stop, ..GenerationRequest::new(prompt, self.options.max_answer_tokens) };
        let stream = generator.stream(request)?;
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
                    if let Some(at) = repeat::cut_at_repeat(&raw) {
                        // The model began to loop: keep what came before, stop the model.
                        raw.truncate(at);
                        let stats = GenerationStats { generated_tokens: generated, ..GenerationStats::default() };
                        return Ok((raw, stats, first_token_ms, false));
                    }
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

    fn check(&self, question: &str, raw: &str, evidence: &EvidenceSet, passage_vectors: &HashMap<i64, Vec<f32>>) -> Result<(Vec<Sentence>, AttributionCounts)> {
        let claims = split_claims(raw);
        let texts: Vec<String> = claims.iter().map(|c| c.text.clone()).collect();
        let claim_vectors = if texts.is_empty() { Vec::new() } else { self.engine.embedder().embed(&texts, TextRole::Query)? };
        let vectors = Vectors { claims: claim_vectors.into_iter().map(Some).collect(), passages: passage_vectors };
        let (mut sentences, mut counts) = attribute::attribute(question, &claims, evidence, &vectors);
        // The evidence is already in the model's cache from the answer prompt: each judgement
        // costs the sentence's own tokens.
        if let Some(generator) = self.generator {
            judge::settle_unsure(generator, question, evidence, &mut sentences, &mut counts);
        }
        Ok((sentences, counts))
    }
}
