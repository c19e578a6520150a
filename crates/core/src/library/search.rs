//! The search view: passages for a query, narrowed by facets and sorted by relevance or by
//! the document's date, each with the words that matched — no model involved.

use std::collections::HashMap;
use std::ops::Range;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::retrieve::filter::{facet_counts, FacetCounts, SearchFilter};
use crate::retrieve::{SearchMode, SearchParams};
use crate::engine::Queries;
use crate::error::Result;
use crate::index::DocumentInfo;
use crate::text::is_cjk;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SearchOrder {
    #[default]
    Relevance,
    /// Newest document first (its period, else its file's modification time).
    Date,
}

/// One passage found.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SearchRow {
    pub doc_id: i64,
    pub doc_title: String,
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub doc_path: std::path::PathBuf,
    pub page: u32,
    /// The passage's place in the page text, for the viewer's highlight.
    pub byte_start: usize,
    pub byte_end: usize,
    pub heading: String,
    pub text: String,
    /// Byte ranges of `text` holding the query's words.
    pub matches: Vec<(usize, usize)>,
    pub score: f32,
    /// "Acme Inc. · annual report · FY2023 · en", when known.
    pub about: String,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LibrarySearch {
    pub rows: Vec<SearchRow>,
    /// The facet values of the whole library, for the filter menus.
    pub facets: FacetCounts,
    /// Documents the filter admits (all of them without a filter).
    pub documents_admitted: u32,
    pub elapsed_ms: f64,
}

/// Searches `reader` for `query` within what `filter` admits. Keyword and vector search are
/// fused as for questions; query expansion and page reranking, which serve answers, are left
/// out so results come as the user types.
pub fn search_library(reader: &impl Queries, query: &str, filter: &SearchFilter, order: SearchOrder, k: usize) -> Result<LibrarySearch> {
    let started = Instant::now();
    let docs = reader.documents()?;
    let admitted: Vec<&DocumentInfo> = docs.iter().filter(|d| filter.admits(d)).collect();
    let mut rows = Vec::new();
    if !query.trim().is_empty() && !admitted.is_empty() {
        let params = SearchParams {
            k: k.max(1),
            mode: SearchMode::Hybrid,
            documents: (!filter.is_empty()).then(|| admitted.iter().map(|d| d.doc_id).collect()),
            rerank: false,
            expand: false,
            ..SearchParams::default()
        };
        let by_id: HashMap<i64, &DocumentInfo> = docs.iter().map(|d| (d.doc_id, d)).collect();
        for hit in reader.search(query, &params)?.hits {
            let about = by_id.get(&hit.span.doc_id).and_then(|d| d.facets.as_ref()).map(|f| f.summary()).unwrap_or_default();
            rows.push(SearchRow {
                doc_id: hit.span.doc_id,
                doc_title: hit.doc_title,
                doc_path: hit.doc_path,
                page: hit.span.page,
                byte_start: hit.span.byte_start,
                byte_end: hit.span.byte_end,
                heading: hit.heading_path.join(" › "),
                matches: matches(&hit.text, query).into_iter().map(|r| (r.start, r.end)).collect(),
                text: hit.text,
                score: hit.score,
                about,
            });
        }
        if order == SearchOrder::Date {
            let date = |row: &SearchRow| by_id.get(&row.doc_id).map(|d| document_date(d)).unwrap_or_default();
            rows.sort_by_cached_key(|row| std::cmp::Reverse(date(row)));
        }
    }
    Ok(LibrarySearch {
        rows,
        facets: facet_counts(&docs),
        documents_admitted: admitted.len() as u32,
        elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
    })
}

/// A sortable date: the period's date or year when the document states one, else its file's
/// modification time.
fn document_date(doc: &DocumentInfo) -> (i64, i64) {
    let stated = doc.facets.as_ref().and_then(|f| {
        f.period.date.as_deref().and_then(|d| d.get(..4)?.parse::<i64>().ok()).or(f.period.year.map(i64::from))
    });
    (stated.unwrap_or(1970 + doc.mtime_ns / 31_556_952_000_000_000), doc.mtime_ns)
}

/// Where the query's words occur in `text`, merged; a word also matches as the start of a
/// longer one ("optimiz" in "optimization"), and a Chinese run by itself or by its pairs.
pub fn matches(text: &str, query: &str) -> Vec<Range<usize>> {
    let lower = text.to_lowercase();
    // Lower-casing can change lengths outside ASCII; then only exact-case matches are safe.
    let folded = lower.len() == text.len();
    let haystack = if folded { lower.as_str() } else { text };
    let mut found: Vec<Range<usize>> = Vec::new();
    for word in query_words(query) {
        let needle = if folded { word.to_lowercase() } else { word };
        let hits: Vec<Range<usize>> = haystack.match_indices(&needle).map(|(i, m)| i..i + m.len()).filter(|r| starts_a_word(haystack, r.start, &needle)).collect();
        if hits.is_empty() && needle.chars().all(is_cjk) && needle.chars().count() > 2 {
            let chars: Vec<char> = needle.chars().collect();
            for pair in chars.windows(2) {
                let pair: String = pair.iter().collect();
                found.extend(haystack.match_indices(&pair).map(|(i, m)| i..i + m.len()));
            }
        }
        found.extend(hits);
    }
    found.sort_by_key(|r| (r.start, r.end));
    let mut merged: Vec<Range<usize>> = Vec::new();
    for r in found {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    merged
}

fn starts_a_word(text: &str, at: usize, needle: &str) -> bool {
    if needle.chars().next().is_some_and(is_cjk) {
        return true;
    }
    // Chinese has no spaces: a word right after a Chinese character still starts there.
    !text[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() && !is_cjk(c))
}

/// The words of a query worth marking: letters and digits of two or more characters (one for
/// Chinese), without common function words.
fn query_words(query: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut push = |w: &mut String| {
        let word = std::mem::take(w);
        let long_enough = word.chars().count() >= 2 || word.chars().all(is_cjk);
        if !word.is_empty() && long_enough && !crate::text::is_stopword(&word.to_lowercase()) && !words.contains(&word) {
            words.push(word);
        }
    };
    let mut last_cjk = None;
    for c in query.chars() {
        let cjk = is_cjk(c);
        if !(c.is_alphanumeric()) || last_cjk.is_some_and(|was| was != cjk) {
            push(&mut current);
        }
        if c.is_alphanumeric() {
            current.push(c);
        }
        last_cjk = Some(cjk);
    }
    push(&mut current);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(text: &str, query: &str) -> Vec<String> {
        matches(text, query).into_iter().map(|r| text[r].to_string()).collect()
    }

    #[test]
    fn query_words_are_marked_as_words_or_word_starts_in_any_case() {
        assert_eq!(marked("Capital expenditures rose; the capex plan", "capital expenditure"), ["Capital", "expenditure"]);
        assert_eq!(marked("Optimization of the optimizer", "optimiz"), ["Optimiz", "optimiz"]);
        assert_eq!(marked("reinstall the unit", "install"), Vec::<String>::new(), "not inside a word");
        assert_eq!(marked("The pump and the fan", "the pump"), ["pump"], "function words are not marked");
    }

    #[test]
    fn chinese_is_marked_by_run_or_by_pairs() {
        assert_eq!(marked("热泵的季节性能系数为3.4", "季节性能"), ["季节性能"]);
        assert_eq!(marked("季节的性能系数", "季节性能"), ["季节", "性能"]);
        assert_eq!(marked("安装 heat pump 于2024年", "heat 2024"), ["heat", "2024"]);
    }
}
