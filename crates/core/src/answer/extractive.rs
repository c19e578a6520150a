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

/// Longest quote, in bytes, that a sentence and the one it refers back to may make together.
const JOINED_QUOTE_BYTES: usize = 600;

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
                // A table's header row names columns and states nothing.
                if super::facts::table::is_header_line(text) {
                    continue;
                }
                // CJK sentences have no spaces: two characters count as a word.
                let words = text.split_whitespace().count() + text.chars().filter(|c| crate::text::is_cjk(*c)).count() / 2;
                if words < 4 {
                    continue;
                }
                // A table row is read with its columns' headers ("output" is a word of the
                // row "Eastern Hills 7 1,150 1,081" under "Output 2024 (MWh)").
                let headers = super::facts::table::headers_of_rows(&passage.text, range.clone());
                let sentence_terms: HashSet<String> = content_terms(text).into_iter().chain(content_terms(&headers)).collect();
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
        let range = with_antecedent(&passage.text, range);
        let range = with_following_answer(&passage.text, range, kind);
        let text = super::facts::table::row_for_reader(&passage.text, range.clone())
            .unwrap_or_else(|| passage.text[range.clone()].split_whitespace().collect::<Vec<_>>().join(" "));
        out.push(Sentence::new(text.clone(), SentenceStatus::Quote, vec![Citation::of(page, passage, range, score.min(1.0))]));
    }
    out
}

/// A sentence that refers back ("If exceeded, the child process is terminated", "The default
/// is 4.0.") is quoted from the sentence it refers to, so that the quote names what it is
/// about (`maxBuffer`, the random page cost) instead of starting mid-thought.
fn with_antecedent(passage: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let units = sentences(passage);
    let Some(j) = units.iter().position(|u| u.start <= range.start && range.start < u.end) else { return range };
    match super::facts::antecedent::antecedent(passage, &units, j) {
        Some(k) if k + 2 >= j && range.end.saturating_sub(units[k].start) <= JOINED_QUOTE_BYTES => units[k].start..range.end,
        _ => range,
    }
}

/// A sentence that matches the question but lacks the kind of answer it asks for (no figure
/// for "how much") is quoted together with the next sentence when that one has it: writers
/// put the setting first and the figure after ("We added a routing layer. Errors fell from
/// 38% to 1.2%."), and one quote per passage would otherwise leave the figure out.
fn with_following_answer(passage: &str, range: std::ops::Range<usize>, kind: AnswerKind) -> std::ops::Range<usize> {
    if kind == AnswerKind::Other || states(&passage[range.clone()], kind) {
        return range;
    }
    match sentences(passage).into_iter().find(|next| next.start >= range.end) {
        Some(next) if states(&passage[next.clone()], kind) => range.start..next.end,
        _ => range,
    }
}

/// Whether a sentence states an answer of `kind`; for quantities a written figure, since
/// number words ("one layer", "一层") are as often wording as answers.
fn states(sentence: &str, kind: AnswerKind) -> bool {
    match kind {
        AnswerKind::Quantity => sentence.chars().any(|c| c.is_ascii_digit() || ('０'..='９').contains(&c)),
        _ => has_kind(sentence, kind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_that_refers_back_is_quoted_with_what_it_refers_to() {
        let text = "* `maxBuffer` {number} Largest amount of data in bytes allowed on stdout or stderr. If exceeded, the child process is terminated and any output is truncated. Some other note follows here.";
        let start = text.find("If exceeded").unwrap();
        let end = text.find(" Some other").unwrap();
        let joined = with_antecedent(text, start..end);
        assert!(text[joined.clone()].starts_with("* `maxBuffer` {number} Largest amount"), "{}", &text[joined]);
        // A sentence that names its own subject is quoted alone.
        let alone = text.find("Some other").unwrap()..text.len();
        assert_eq!(with_antecedent(text, alone.clone()), alone);
    }

    #[test]
    fn a_figure_in_the_next_sentence_joins_the_quote() {
        let text = "After the support assistant gained a metadata routing layer, every knowledge snippet had to name its device range and date. Errors fell from 38% to 1.2%. The team was pleased.";
        let first = 0..text.find(" Errors").unwrap();
        let joined = with_following_answer(text, first.clone(), answer_kind("how much did errors fall after the routing layer?"));
        assert_eq!(&text[joined], "After the support assistant gained a metadata routing layer, every knowledge snippet had to name its device range and date. Errors fell from 38% to 1.2%.");
        // Not for questions that ask for no figure, nor when the sentence has one already.
        assert_eq!(with_following_answer(text, first.clone(), answer_kind("what did the routing layer require?")), first);
        let zh = "后来我们在向量检索前加了一层元数据路由层，检索时先按机型日期做硬过滤。错误率直接从38%降到1.2%。这说明管道很重要。";
        let first = 0..zh.find("错误率").unwrap();
        let joined = with_following_answer(zh, first, answer_kind("加了元数据路由层之后，错误率从多少降到多少？"));
        assert!(zh[joined].ends_with("错误率直接从38%降到1.2%。"));
    }
}
