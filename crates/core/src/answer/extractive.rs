//! The answer when generation is unavailable or its output cannot be verified: the evidence
//! sentences that best match the question, each cited.

use std::collections::HashSet;

use super::answerability::{answer_kind, has_kind, AnswerKind};
use super::attribute::{Citation, Sentence, SentenceStatus};
use super::evidence::EvidenceSet;
use super::guard;
use crate::text::{content_terms, sentences, term_recall};

/// Sentences taken for an extractive answer.
const SENTENCES: usize = 3;

pub fn extractive_sentences(question: &str, evidence: &EvidenceSet) -> Vec<Sentence> {
    let terms = content_terms(question);
    let kind = answer_kind(question);
    let mut scored = Vec::new();
    for (page_rank, page) in evidence.pages.iter().enumerate() {
        for passage in &page.passages {
            // Text addressed to an assistant is never quoted as an answer.
            let flagged = guard::flagged(&passage.text);
            for range in sentences(&passage.text) {
                if flagged.iter().any(|f| f.start < range.end && range.start < f.end) {
                    continue;
                }
                let text = &passage.text[range.clone()];
                // CJK sentences have no spaces: two characters count as a word.
                let words = text.split_whitespace().count() + text.chars().filter(|c| crate::text::is_cjk(*c)).count() / 2;
                if words < 4 {
                    continue;
                }
                let sentence_terms: HashSet<String> = content_terms(text).into_iter().collect();
                // Matching the question matters most, then holding the kind of answer asked for
                // (a figure for "how many", a date for "when"); earlier-ranked pages break ties.
                let kind_bonus = if kind != AnswerKind::Other && has_kind(text, kind) { 0.25 } else { 0.0 };
                let score = term_recall(&terms, &sentence_terms) + kind_bonus + 0.3 / (page_rank as f32 + 1.0);
                scored.push((score, page, passage, range));
            }
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out: Vec<Sentence> = Vec::new();
    let mut used_passages = HashSet::new();
    let best = scored.first().map(|s| s.0).unwrap_or(0.0);
    for (score, page, passage, range) in scored {
        // Further sentences only when they match the question nearly as well as the best.
        if out.len() == SENTENCES || (!out.is_empty() && score < best * 0.6) {
            break;
        }
        if !used_passages.insert(passage.chunk_id) {
            continue;
        }
        let text = passage.text[range.clone()].split_whitespace().collect::<Vec<_>>().join(" ");
        out.push(Sentence {
            text: text.clone(),
            status: SentenceStatus::Quote,
            citations: vec![Citation::of(page, passage, range, score.min(1.0))],
        });
    }
    out
}
