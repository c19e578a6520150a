//! Query expansion from the library's own vocabulary: words that the passages a first search
//! ranks highest use often, that the rest of the library uses rarely, and that the question
//! does not contain (pseudo-relevance feedback: "capital expenditure" finds passages that also
//! say "purchases of property, plant and equipment", so those words join the keyword search).

use std::collections::{HashMap, HashSet};

use crate::text::content_terms;
use crate::error::Result;
use crate::index::LexicalIndex;

/// Passages of the first search that feed the expansion.
pub const FEEDBACK_PASSAGES: usize = 8;
/// Words added to the keyword query.
pub const EXPANSION_WORDS: usize = 5;
/// Weight of the strongest added word against a word of the question.
pub const EXPANSION_WEIGHT: f32 = 0.3;

/// Words to add, with their weights (at most [`EXPANSION_WEIGHT`]).
pub fn feedback_words(question: &str, passages: &[&str], lexical: &LexicalIndex) -> Result<Vec<(String, f32)>> {
    let asked: HashSet<String> = content_terms(question).into_iter().collect();
    let mut weight: HashMap<String, f32> = HashMap::new();
    for (rank, passage) in passages.iter().take(FEEDBACK_PASSAGES).enumerate() {
        let terms: Vec<String> = content_terms(passage)
            .into_iter()
            .filter(|t| t.chars().count() > 2 && !t.starts_with(|c: char| c.is_ascii_digit()) && !asked.contains(t))
            .collect();
        if terms.is_empty() {
            continue;
        }
        let share = 1.0 / terms.len() as f32 / (1.0 + rank as f32).sqrt();
        for t in terms {
            *weight.entry(t).or_default() += share;
        }
    }
    let mut candidates: Vec<(String, f32)> = weight.into_iter().collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    candidates.truncate(40);
    let words: Vec<String> = candidates.iter().map(|(t, _)| t.clone()).collect();
    let df = lexical.document_frequencies(&words)?;
    let n = lexical.num_docs().max(1) as f32;
    let mut scored: Vec<(String, f32)> = candidates
        .into_iter()
        .zip(df)
        // A word only these passages use says nothing about the rest of the library; one in
        // a tenth of it says nothing at all.
        .filter(|(_, d)| *d >= 2 && (*d as f32) < n / 10.0)
        .map(|((t, w), d)| (t, w * ((n + 1.0) / (d as f32 + 1.0)).ln()))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.truncate(EXPANSION_WORDS);
    let top = scored.first().map(|x| x.1).unwrap_or(1.0).max(f32::MIN_POSITIVE);
    Ok(scored.into_iter().map(|(t, w)| (t, EXPANSION_WEIGHT * w / top)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::LexicalChunk;

    #[test]
    fn words_the_best_passages_share_and_the_library_rarely_uses_are_added() {
        let dir = tempfile::tempdir().unwrap();
        let (mut index, _) = LexicalIndex::open(dir.path(), true).unwrap();
        let mut bodies: Vec<String> = vec![
            "Capital expenditure rose; purchases of property and equipment were 410.".into(),
            "Purchases of property and equipment funded new stores.".into(),
            "Equipment purchases for warehouses are planned.".into(),
        ];
        // The rest of the library talks about other things, but the word "company" is everywhere.
        for i in 0..40 {
            bodies.push(format!("The company held meeting number {i} about staff training and company culture."));
        }
        let chunks: Vec<LexicalChunk<'_>> =
            bodies.iter().enumerate().map(|(i, b)| LexicalChunk { chunk_id: i as i64 + 1, title: "", heading: "", body: b }).collect();
        index.add_chunks(1, &chunks).unwrap();
        index.commit().unwrap();
        index.reload().unwrap();
        let passages = ["Capital expenditure rose; purchases of property and equipment were 410 for the company.", "Purchases of property and equipment funded new stores for the company."];
        let words = feedback_words("capital expenditure in 2023", &passages, &index).unwrap();
        let names: Vec<&str> = words.iter().map(|(w, _)| w.as_str()).collect();
        assert!(names.contains(&"purchases") && names.contains(&"equipment"), "{words:?}");
        assert!(!names.contains(&"company"), "a word most of the library uses is no expansion: {words:?}");
        assert!(!names.contains(&"capital") && !names.contains(&"410"), "question words and figures stay out: {words:?}");
        assert!(words.iter().all(|(_, w)| *w > 0.0 && *w <= EXPANSION_WEIGHT + 1e-6), "{words:?}");
    }
}
