//! Whether retrieval found evidence that can answer the question at all. Two signals, both
//! computed from the evidence actually handed to the model:
//! - coverage: the share of the question's content terms that occur in the evidence (or in
//!   the titles of its documents); a question about a company, year or metric the library does
//!   not hold leaves its distinguishing terms uncovered;
//! - similarity: the best cosine between the question and an evidence passage.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::evidence::EvidenceSet;
use super::text::{content_terms, cosine, term_recall};

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RetrievalSignals {
    pub coverage: f32,
    pub top_cosine: f32,
    /// Question terms that no evidence passage or title contains.
    pub missing_terms: Vec<String>,
    /// Names (capitalised words after the first) and years of the question that no evidence
    /// passage or title contains: the company or year is probably not in the library.
    pub missing_names: Vec<String>,
    /// Question words that no chunk of the whole library uses.
    pub unknown_terms: Vec<String>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct AbstainThresholds {
    pub min_cosine: f32,
    /// Abstain when a name the question asks about is in none of the evidence.
    pub require_names: bool,
}

impl Default for AbstainThresholds {
    /// Set with `bench/abstain.sh` on the dev library's 41 answerable questions and the 40
    /// out-of-scope ones in bench/data (see bench/README.md for the sweep and held-out check).
    fn default() -> Self {
        AbstainThresholds { min_cosine: 0.45, require_names: true }
    }
}

/// A capitalised word of the question: a candidate name of a company, product or place.
struct Name {
    word: String,
    /// First word of the question: capitalised by grammar, not necessarily a name.
    first: bool,
    /// All capitals (USD, GAAP): usually a unit or acronym, not a name.
    acronym: bool,
}

/// Capitalised words, skipping those capitalised only because a sentence starts there.
fn names(question: &str) -> Vec<Name> {
    let mut out: Vec<Name> = Vec::new();
    let mut sentence_start = true;
    for (i, raw) in question.split_whitespace().enumerate() {
        let w = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '&');
        let w = w.strip_suffix("'s").or_else(|| w.strip_suffix("’s")).unwrap_or(w);
        let capitalised = w.chars().next().is_some_and(char::is_uppercase) && w.chars().count() > 2;
        if capitalised && (i == 0 || !sentence_start) && !w.chars().any(|c| c.is_ascii_digit()) {
            let word = w.to_lowercase();
            if !super::text::is_stopword(&word) && !out.iter().any(|n| n.word == word) {
                out.push(Name { word, first: i == 0, acronym: w.chars().all(|c| !c.is_lowercase()) });
            }
        }
        sentence_start = raw.ends_with(['.', '?', '!', ':']);
    }
    out
}

pub fn signals(
    question: &str,
    evidence: &EvidenceSet,
    query_vector: Option<&[f32]>,
    passage_vectors: &HashMap<i64, Vec<f32>>,
    library_frequencies: &dyn Fn(&[String]) -> Vec<u64>,
) -> RetrievalSignals {
    let mut terms = content_terms(question);
    terms.sort();
    terms.dedup();
    let mut found: HashSet<String> = HashSet::new();
    for page in &evidence.pages {
        found.extend(content_terms(&page.doc_title));
        if let Some(name) = page.doc_path.file_stem() {
            found.extend(content_terms(&name.to_string_lossy().replace(['_', '-'], " ")));
        }
        for p in &page.passages {
            found.extend(content_terms(&p.text));
            found.extend(p.heading_path.iter().flat_map(|h| content_terms(h)));
        }
    }
    let coverage = term_recall(&terms, &found);
    let missing_terms = terms.iter().filter(|t| term_recall(std::slice::from_ref(t), &found) == 0.0).cloned().collect();
    let top_cosine = match query_vector {
        Some(q) => evidence
            .pages
            .iter()
            .flat_map(|p| &p.passages)
            .filter_map(|p| passage_vectors.get(&p.chunk_id))
            .map(|v| cosine(q, v))
            .fold(0.0f32, f32::max),
        // Without vectors only coverage can speak; similarity must not veto on its own.
        None => 1.0,
    };
    // Titles and file names often write names without spaces ("BESTBUY_2019_10K").
    let joined: String = {
        let all_names = names(question);
        all_names.iter().map(|n| n.word.as_str()).collect::<Vec<_>>().join("")
    };
    let found_joined = joined.len() > 3 && found.iter().any(|f| f.contains(&joined));
    let question_names = names(question);
    let name_words: Vec<String> = question_names.iter().map(|n| n.word.clone()).collect();
    let name_frequencies = library_frequencies(&name_words);
    let missing_names = question_names
        .iter()
        .zip(name_frequencies)
        .filter(|(n, df)| {
            let in_evidence = found_joined || content_terms(&n.word).iter().any(|t| term_recall(std::slice::from_ref(t), &found) > 0.0);
            // A first word or an acronym counts only when the library never uses it.
            !in_evidence && ((!n.first && !n.acronym) || *df == 0)
        })
        .map(|(n, _)| n.word.clone())
        .collect();
    let candidates: Vec<String> =
        terms.iter().filter(|t| (t.len() >= 3 && !super::text::is_number(t)) || t.len() == 4 && super::text::is_number(t)).cloned().collect();
    let frequencies = library_frequencies(&candidates);
    let unknown_terms = candidates.into_iter().zip(frequencies).filter(|(_, df)| *df == 0).map(|(t, _)| t).collect();
    RetrievalSignals { coverage, top_cosine, missing_terms, missing_names, unknown_terms }
}

pub fn should_abstain(s: &RetrievalSignals, t: &AbstainThresholds) -> bool {
    s.top_cosine < t.min_cosine || (t.require_names && !s.missing_names.is_empty())
}
