//! Whole-document tasks ("summarise this report", "main risks in X"): top-k chunks cannot
//! answer them, so the document is read in sections — a cited note per section (map), then one
//! answer from the notes (reduce). Every sentence is still attributed to its passages.

use std::collections::HashMap;
use std::time::Instant;

use serde_json::json;

use super::outcome::{collect_citations, ms, send, Answer, AnswerMode, AskEvent, Sink, Timings};
use super::stages::Stages;
use super::attribute::{self, AttributionCounts, Sentence};
use super::evidence::EvidenceSet;
use super::extractive::extractive_sentences;
use super::generator::GenerationStats;
use super::notice::Notice;
use super::prompt;
use super::tools::Toolbox;
use crate::engine::Queries;
use crate::error::{Error, Result};
use crate::retrieve::Hit;

/// Sections read per task; a long report is sampled by relevance to the task, in reading order.
const MAX_SECTIONS: usize = 6;

pub(crate) fn run(asker: &dyn Stages, tools: &mut Toolbox<'_>, task: &str, doc_ids: &[i64], sink: &mut Sink<'_>) -> Result<Answer> {
    let started = Instant::now();
    let lang = crate::lang::Lang::of(task);
    // The passages most relevant to the task within the documents, put back in reading order.
    let mut hits: Vec<Hit> = tools.search_docs(task, MAX_SECTIONS * 4, doc_ids).hits;
    if let Some(step) = tools.steps.last() {
        send(sink, AskEvent::Step(step))?;
    }
    hits.sort_by_key(|h| (h.span.doc_id, h.span.page, h.span.byte_start));
    let whole = EvidenceSet::from_hits(&hits, &tools.documents, usize::MAX, &|t| asker.count_tokens(t));
    let sections = split_sections(&whole, asker.evidence_tokens());
    let chunk_ids: Vec<i64> = whole.pages.iter().flat_map(|p| p.passages.iter().map(|x| x.chunk_id)).collect();
    let mut reading = Reading {
        task,
        started,
        vectors: asker.reader().vectors_of(&chunk_ids)?,
        counts: AttributionCounts::default(),
        timings: Timings::default(),
        total: sections.len() + usize::from(asker.generator().is_some()),
    };
    let mut notes: Vec<Sentence> = Vec::new();
    for (i, section) in sections.iter().enumerate() {
        send(sink, AskEvent::Progress { done: i, total: reading.total, what: "reading sections" })?;
        let t = Instant::now();
        let section_notes = reading.map_section(asker, i, section, sink)?;
        let pages: Vec<String> = section.pages.iter().map(|p| p.label.clone()).collect();
        tools.record("map_section", json!({"section": i + 1, "pages": pages}), format!("{} cited notes", section_notes.len()), t);
        if let Some(step) = tools.steps.last() {
            send(sink, AskEvent::Step(step))?;
        }
        notes.extend(section_notes);
    }
    let sentences = reading.reduce(asker, tools, notes, &whole, sink)?;
    let read = Notice::ReadSections { sections: sections.len(), documents: doc_ids.len() };
    let _ = sink(AskEvent::Progress { done: reading.total, total: reading.total, what: "reading sections" });
    Ok(Answer {
        question: task.to_string(),
        standalone_query: None,
        answer: attribute::render(&sentences, lang),
        citations: collect_citations(&sentences),
        abstained: sentences.is_empty(),
        mode: AnswerMode::MapReduce,
        sentences,
        steps: tools.steps.clone(),
        sources: whole.pages.clone(),
        attribution: reading.counts,
        signals: None,
        model: asker.generator().map(|g| g.info().name.clone()),
        raw_model_output: None,
        note: Some(read.english()),
        notices: vec![read],
        timings: Timings { total_ms: ms(started), ..reading.timings },
        conversation_id: None,
        turn: None,
    })
}

/// One task's reading: what the sections' and the combined answer's checks and generations
/// add up to.
struct Reading<'t> {
    task: &'t str,
    started: Instant,
    vectors: HashMap<i64, Vec<f32>>,
    counts: AttributionCounts,
    timings: Timings,
    /// Progress steps: the sections, and the combining when a model runs.
    total: usize,
}

impl Reading<'_> {
    /// The map step: the section's cited notes, written by the model and checked, or the
    /// page notes without a model (or when none of its notes could be checked).
    fn map_section(&mut self, asker: &dyn Stages, i: usize, section: &EvidenceSet, sink: &mut Sink<'_>) -> Result<Vec<Sentence>> {
        let Some(generator) = asker.generator() else { return Ok(page_notes(self.task, section)) };
        let messages = prompt::section_note_messages(self.task, section);
        let total = self.total;
        let (raw, stats, _, stopped) = asker.generate(generator, &messages, section, self.started, &mut |e| match e {
            // Section notes are intermediate; only progress and cancellation pass through.
            AskEvent::Token(_) => sink(AskEvent::Progress { done: i, total, what: "reading sections" }),
            other => sink(other),
        })?;
        if stopped {
            return Err(Error::Interrupted);
        }
        self.add(&stats);
        let (sentences, counts) = asker.check(self.task, &raw, section, &self.vectors)?;
        self.counts += &counts;
        let supported: Vec<Sentence> = sentences.into_iter().filter(|s| !s.citations.is_empty()).collect();
        Ok(if supported.is_empty() { page_notes(self.task, section) } else { supported })
    }

    /// The reduce step: one answer from the notes, checked against the whole set; the notes
    /// themselves without a model, or when the combined answer lost its support.
    fn reduce(&mut self, asker: &dyn Stages, tools: &mut Toolbox<'_>, notes: Vec<Sentence>, whole: &EvidenceSet, sink: &mut Sink<'_>) -> Result<Vec<Sentence>> {
        let Some(generator) = asker.generator().filter(|_| !notes.is_empty()) else { return Ok(notes) };
        let t = Instant::now();
        let lang = crate::lang::Lang::of(self.task);
        let notes_text = notes.iter().map(|n| attribute::render(std::slice::from_ref(n), lang)).collect::<Vec<_>>().join("\n");
        let messages = prompt::combine_notes_messages(self.task, &notes_text);
        // Stopped while combining: the partial text is still checked like a finished one.
        let (raw, stats, first, _stopped) = asker.generate(generator, &messages, whole, self.started, sink)?;
        self.timings.first_token_ms = first;
        self.add(&stats);
        let (combined, counts) = asker.check(self.task, &raw, whole, &self.vectors)?;
        self.counts += &counts;
        let supported: Vec<Sentence> = combined.into_iter().filter(|s| !s.citations.is_empty()).collect();
        tools.record("reduce", json!({"notes": notes.len()}), format!("{} cited sentences", supported.len()), t);
        Ok(if supported.is_empty() { notes } else { supported })
    }

    fn add(&mut self, stats: &GenerationStats) {
        self.timings.prompt_ms += stats.prompt_ms;
        self.timings.generation_ms += stats.generation_ms;
        self.timings.generated_tokens += stats.generated_tokens;
    }
}

/// Without a model (or when its note could not be checked): each page's sentence that best
/// matches the task, so every part of the section is represented and cited.
fn page_notes(task: &str, section: &EvidenceSet) -> Vec<Sentence> {
    section
        .pages
        .iter()
        .filter_map(|page| extractive_sentences(task, &EvidenceSet { pages: vec![page.clone()] }).into_iter().next())
        .collect()
}

/// Consecutive pages grouped into sections of about `budget` tokens (the page's passages
/// count by bytes/4 here; labels stay those of the whole set), at most [`MAX_SECTIONS`].
fn split_sections(whole: &EvidenceSet, budget: usize) -> Vec<EvidenceSet> {
    let mut sections: Vec<EvidenceSet> = Vec::new();
    let mut current = EvidenceSet::default();
    let mut used = 0;
    for page in &whole.pages {
        let cost: usize = page.passages.iter().map(|p| p.text.len() / 4 + 24).sum();
        if used + cost > budget && !current.pages.is_empty() {
            sections.push(std::mem::take(&mut current));
            used = 0;
        }
        used += cost;
        current.pages.push(page.clone());
    }
    if !current.pages.is_empty() {
        sections.push(current);
    }
    // Too many sections: merge neighbours pairwise until they fit, keeping reading order.
    while sections.len() > MAX_SECTIONS {
        let mut merged = Vec::with_capacity(sections.len().div_ceil(2));
        let mut iter = sections.into_iter();
        while let Some(mut a) = iter.next() {
            if let Some(b) = iter.next() {
                a.pages.extend(b.pages);
                // Keep a merged section within budget by dropping its lowest-scored pages.
                while a.pages.len() > 1 && a.pages.iter().map(|p| p.passages.iter().map(|x| x.text.len() / 4 + 24).sum::<usize>()).sum::<usize>() > budget {
                    if let Some((i, _)) = a.pages.iter().enumerate().min_by(|x, y| x.1.score.total_cmp(&y.1.score)) {
                        a.pages.remove(i);
                    }
                }
            }
            merged.push(a);
        }
        sections = merged;
    }
    sections
}
