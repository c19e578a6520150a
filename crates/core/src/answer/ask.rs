//! One question → one checked answer: rewrite a follow-up, plan, then either answer from the
//! index (questions about the library), map-reduce (whole documents), or run the line of
//! typed stages: `gather` (`Gathered`) → `verdict` (`Verdict`) → `draft` (`Draft`) → check
//! (`Checked`) → the `Answer`, built once.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;

use super::abstain::RetrievalSignals;
use super::attribute::{self, AttributionCounts, Citation, Sentence, Vectors};
use super::budget::{evidence_budget, evidence_for_first_token};
use super::draft::{Draft, Generation};
use super::evidence::EvidenceSet;
use super::extractive::extractive_sentences;
use super::gather::Gathered;
use super::generator::{GenerationEvent, GenerationRequest, GenerationStats, Generator};
use super::plan::{self, Plan};
use super::prompt::NOT_COVERED;
use super::stages::Stages;
use super::tools::{Step, Toolbox};
use super::notice::{self, Notice};
use super::verdict::{self, Checked, Verdict};
use super::{computed, judge, mapreduce, repeat, rewrite};
pub use super::asker::{AskOptions, Asker};
pub use super::outcome::{Answer, AnswerMode, AskEvent, Timings};
pub(crate) use super::outcome::{collect_citations, ms, send, Sink};
use crate::answer::cite::split_claims;
use crate::embed::TextRole;
use crate::engine::{Queries, Reader};
use crate::error::{Error, Result};
use crate::lang::Lang;

/// The question as asked and as searched.
struct Question {
    text: String,
    /// The follow-up rewritten to stand alone, when it was one.
    standalone: Option<String>,
}

impl Question {
    /// What retrieval and the checks read: the standalone form when there is one.
    fn query(&self) -> &str {
        self.standalone.as_deref().unwrap_or(&self.text)
    }
}

impl Asker<'_> {
    /// Answers `question`; `previous` is the standalone query of the previous turn, if any.
    /// Questions about the library itself are answered from the index, whole-document tasks
    /// by map-reduce, and the rest by the line gather → verdict → draft → check → answer.
    pub fn ask(&self, question: &str, previous: Option<&str>, sink: &mut Sink<'_>) -> Result<Answer> {
        let started = Instant::now();
        let mut tools = Toolbox::new(self.reader, &self.options.scope)?;
        let asked = Question { text: question.to_string(), standalone: rewrite::standalone(question, previous) };
        if let Some(q) = &asked.standalone {
            let step = tools.record("rewrite", json!({"question": question, "previous": previous}), q.clone(), Instant::now());
            send(sink, AskEvent::Step(step))?;
        }
        let query = asked.query().to_string();
        let mut documents: Vec<_> = tools.documents.values().cloned().collect();
        documents.sort_by_key(|d| d.doc_id);
        // "Which documents mention X?", "how many 2023 reports do I have?": the index knows.
        if let Some(about_library) = super::library_question::recognise(&query, &documents) {
            let observation = serde_json::to_string(&about_library).unwrap_or_default();
            send(sink, AskEvent::Step(tools.record("plan", json!({"query": query}), observation, Instant::now())))?;
            let answer = super::library_answer::run(&mut tools, question, &about_library, &|t| self.count_tokens(t))?;
            return Ok(Answer { standalone_query: asked.standalone, ..answer.finished(started) });
        }
        let used_by = |word: &str| self.reader.documents_using(word).unwrap_or(u64::MAX);
        let the_plan = plan::plan(&query, &documents, tools.scope.as_deref(), &used_by);
        let observation = serde_json::to_string(&the_plan).unwrap_or_default();
        send(sink, AskEvent::Step(tools.record("plan", json!({"query": query}), observation, Instant::now())))?;
        if let Plan::WholeDocument { doc_ids } = &the_plan {
            let answer = mapreduce::run(self, &mut tools, &query, doc_ids, sink)?;
            return Ok(Answer { question: asked.text, standalone_query: asked.standalone, ..answer.finished(started) });
        }
        let gathered = self.gather(&mut tools, &query, &the_plan, started, sink)?;
        let mut timings = Timings { retrieve_ms: gathered.retrieve_ms, ..Timings::default() };
        let mut signals = gathered.signals.clone();
        let (checked, generation, attribution) = match self.verdict(&query, &gathered.evidence, &signals) {
            Verdict::Abstain(why) => (Checked::abstained(why), None, AttributionCounts::default()),
            Verdict::Answerable => {
                let quotes = extractive_sentences(&query, &gathered.evidence);
                timings.first_evidence_ms = Some(ms(started));
                send(sink, AskEvent::Evidence(&quotes))?;
                // A computed figure needs neither the model's judgement nor its draft.
                if let Some(c) = &gathered.computation {
                    (computed::checked(c, &gathered.evidence, &query), None, AttributionCounts::default())
                } else {
                    match self.judged(&query, &gathered.evidence, &mut signals) {
                        Verdict::Abstain(why) => (Checked::abstained(why), None, AttributionCounts::default()),
                        Verdict::Answerable => self.drafted_and_checked(&query, &gathered, quotes, started, &mut timings, sink)?,
                    }
                }
            }
        };
        let answered = Answered { asked, gathered, signals, checked, generation, attribution, steps: tools.steps, timings };
        Ok(self.assemble(answered, started))
    }

    /// Stages `draft` and `check`: the model's sentences checked against the evidence, or
    /// the quotes when no model wrote.
    fn drafted_and_checked(
        &self,
        query: &str,
        gathered: &Gathered,
        quotes: Vec<Sentence>,
        started: Instant,
        timings: &mut Timings,
        sink: &mut Sink<'_>,
    ) -> Result<(Checked, Option<Generation>, AttributionCounts)> {
        match self.draft(query, &gathered.evidence, started, sink)? {
            Draft::Quotes { note } => Ok((Checked::Quoted { sentences: quotes, note }, None, AttributionCounts::default())),
            Draft::Generated(generation) => {
                let checking = Instant::now();
                let (sentences, counts) = self.check(query, &generation.raw, &gathered.evidence, &gathered.passage_vectors)?;
                let checked = verdict::settle(query, sentences, quotes, &gathered.evidence, self.options.never_abstain);
                let checked = match checked {
                    Checked::Quoted { sentences, note: Notice::ModelFoundNothing } if self.options.judge_quotes => match self.generator {
                        Some(generator) => judge::judged_quotes(generator, query, &gathered.evidence, sentences, self.options.never_abstain),
                        None => Checked::Quoted { sentences, note: Notice::ModelFoundNothing },
                    },
                    other => other,
                };
                timings.check_ms = Some(ms(checking));
                Ok((checked, Some(generation), counts))
            }
        }
    }

    /// The answer, built once from what the stages returned.
    fn assemble(&self, answered: Answered, started: Instant) -> Answer {
        let Answered { asked, gathered, signals, checked, generation, attribution, steps, mut timings } = answered;
        let lang = Lang::of(&asked.text);
        let mut notices: Vec<Notice> = checked.notice().into_iter().collect();
        let (text, citations, sentences, mode) = match checked {
            Checked::Abstained { .. } => {
                let (text, citations) = nearest_passages(&gathered.evidence, lang);
                (text, citations, Vec::new(), AnswerMode::Abstained)
            }
            Checked::Quoted { sentences, .. } => {
                (attribute::render(&sentences, lang), collect_citations(&sentences), sentences, AnswerMode::Extractive)
            }
            Checked::Generated { sentences, .. } => {
                (attribute::render(&sentences, lang), collect_citations(&sentences), sentences, AnswerMode::Generated)
            }
            Checked::Computed { sentences } => {
                (attribute::render(&sentences, lang), collect_citations(&sentences), sentences, AnswerMode::Computed)
            }
        };
        if let Some(generation) = &generation {
            generation.record(&mut timings);
            if generation.stopped {
                notices = vec![Notice::Stopped];
            }
        }
        notices.extend(gathered.language_gap.map(|lang| Notice::KeywordSearch { lang }));
        timings.total_ms = ms(started);
        Answer {
            question: asked.text,
            standalone_query: asked.standalone,
            answer: text,
            citations,
            abstained: mode == AnswerMode::Abstained,
            mode,
            sentences,
            steps,
            sources: gathered.evidence.pages,
            attribution,
            signals: Some(signals),
            model: self.generator.map(|g| g.info().name.clone()),
            raw_model_output: generation.map(|g| g.raw),
            note: notice::english(&notices),
            notices,
            timings,
            conversation_id: None,
            turn: None,
        }
    }
}

/// What the stages of one plain answer returned.
struct Answered {
    asked: Question,
    gathered: Gathered,
    /// The retrieval signals, with the model's judgement when it was asked.
    signals: RetrievalSignals,
    checked: Checked,
    generation: Option<Generation>,
    attribution: AttributionCounts,
    steps: Vec<Step>,
    timings: Timings,
}

/// The not-covered sentence with the nearest passages, cited.
fn nearest_passages(evidence: &EvidenceSet, lang: Lang) -> (String, Vec<Citation>) {
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
    if nearest.is_empty() {
        return (lang.not_covered().to_string(), nearest);
    }
    let labels: String = nearest.iter().map(|c| format!("[{}]", c.label)).collect();
    let end = if lang == Lang::En { "." } else { "。" };
    (format!("{} {} {labels}{end}", lang.not_covered(), lang.nearest_passages()), nearest)
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
    fn reader(&self) -> &Reader {
        self.reader
    }

    fn generator(&self) -> Option<&dyn Generator> {
        self.generator
    }

    fn evidence_tokens(&self) -> usize {
        if let Some(tokens) = self.options.evidence_tokens {
            return tokens;
        }
        let default = evidence_budget(self.generator.map(|g| g.info()));
        let measured = self.generator.and_then(|g| crate::model_catalog::measured_speed(self.reader.data_dir(), &g.info().path));
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
        let claim_vectors = if texts.is_empty() { Vec::new() } else { self.reader.embedder().embed(&texts, TextRole::Query)? };
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
