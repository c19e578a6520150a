//! The evidence of one answer: retrieved passages grouped by (document, page), each page with
//! the label the model sees (`Doc2_p14`: document handle within this answer, 1-based page).

use std::collections::HashMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub use crate::facets::date_of;
use crate::index::DocumentInfo;
use crate::retrieve::Hit;
use crate::span::Span;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EvidencePassage {
    pub chunk_id: i64,
    #[serde(flatten)]
    #[cfg_attr(feature = "ts", ts(flatten))]
    pub span: Span,
    pub heading_path: Vec<String>,
    pub text: String,
    pub score: f32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EvidencePage {
    pub label: String,
    pub doc_handle: u32,
    pub doc_id: i64,
    pub doc_path: PathBuf,
    pub doc_title: String,
    pub page: u32,
    /// The document's modification date, YYYY-MM-DD.
    pub modified: String,
    pub passages: Vec<EvidencePassage>,
    /// Best retrieval score among the passages.
    pub score: f32,
    /// Other files with the same content (byte-identical copies of this document).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub also_in: Vec<PathBuf>,
    /// The document's organisation, kind, period and language, as extracted.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub facets: Option<crate::facets::DocumentFacets>,
}

impl EvidencePage {
    pub fn heading_path(&self) -> String {
        self.passages.iter().find(|p| !p.heading_path.is_empty()).map(|p| p.heading_path.join(" > ")).unwrap_or_default()
    }
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct EvidenceSet {
    pub pages: Vec<EvidencePage>,
}

pub fn label(doc_handle: u32, page: u32) -> String {
    format!("Doc{doc_handle}_p{page}")
}

impl EvidenceSet {
    /// Takes hits in rank order while they fit into `budget_tokens`; passages of one page
    /// share a block (in reading order) and documents get handles in order of first use.
    pub fn from_hits(
        hits: &[Hit],
        documents: &HashMap<i64, DocumentInfo>,
        budget_tokens: usize,
        count_tokens: &dyn Fn(&str) -> usize,
    ) -> EvidenceSet {
        let mut set = EvidenceSet::default();
        let mut handles: HashMap<i64, u32> = HashMap::new();
        let mut used = 0usize;
        for hit in hits {
            if set.pages.iter().flat_map(|p| &p.passages).any(|p| p.chunk_id == hit.chunk_id) {
                continue;
            }
            // Block header (label, title, date) costs about as much as a short heading line.
            // Priced as the model reads it: table rows carry their headers there.
            let cost = count_tokens(&super::facts::table::for_reader(&hit.text)) + 24;
            if used + cost > budget_tokens && !set.pages.is_empty() {
                continue;
            }
            used += cost;
            let passage = EvidencePassage {
                chunk_id: hit.chunk_id,
                span: hit.span.clone(),
                heading_path: hit.heading_path.clone(),
                text: hit.text.clone(),
                score: hit.score,
            };
            if let Some(page) = set.pages.iter_mut().find(|p| p.doc_id == hit.span.doc_id && p.page == hit.span.page) {
                page.passages.push(passage);
                page.passages.sort_by_key(|p| p.span.byte_start);
                page.score = page.score.max(hit.score);
                continue;
            }
            let next = handles.len() as u32 + 1;
            let handle = *handles.entry(hit.span.doc_id).or_insert(next);
            let modified = documents.get(&hit.span.doc_id).map(|d| date_of(d.mtime_ns)).unwrap_or_default();
            set.pages.push(EvidencePage {
                label: label(handle, hit.span.page),
                doc_handle: handle,
                doc_id: hit.span.doc_id,
                doc_path: hit.doc_path.clone(),
                doc_title: hit.doc_title.clone(),
                page: hit.span.page,
                modified,
                passages: vec![passage],
                score: hit.score,
                also_in: hit.also_in.clone(),
                facets: documents.get(&hit.span.doc_id).and_then(|d| d.facets.clone()),
            });
        }
        set
    }

    pub fn by_label(&self, doc_handle: u32, page: u32) -> Option<&EvidencePage> {
        self.pages.iter().find(|p| p.doc_handle == doc_handle && p.page == page)
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_unix_nanoseconds() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(1_709_337_600 * 1_000_000_000), "2024-03-02");
        assert_eq!(date_of(951_782_400 * 1_000_000_000), "2000-02-29");
    }

    fn hit(chunk_id: i64, doc_id: i64, page: u32, text: &str) -> Hit {
        Hit {
            rank: 0,
            chunk_id,
            span: Span { doc_id, page, byte_start: chunk_id as usize * 10, byte_end: chunk_id as usize * 10 + 5 },
            doc_path: PathBuf::from(format!("/d/{doc_id}.pdf")),
            doc_title: format!("Doc {doc_id}"),
            score: 1.0,
            heading_path: vec![],
            text: text.into(),
            also_in: vec![],
        }
    }

    #[test]
    fn pages_share_a_label_and_handles_follow_first_use() {
        let hits = vec![hit(3, 7, 2, "a b"), hit(1, 9, 5, "c"), hit(2, 7, 2, "d"), hit(4, 7, 3, "e")];
        let set = EvidenceSet::from_hits(&hits, &HashMap::new(), 10_000, &|t| t.len());
        let labels: Vec<&str> = set.pages.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(labels, ["Doc1_p2", "Doc2_p5", "Doc1_p3"]);
        assert_eq!(set.pages[0].passages.iter().map(|p| p.chunk_id).collect::<Vec<_>>(), [2, 3], "reading order");
    }

    #[test]
    fn budget_skips_passages_that_do_not_fit() {
        let long = "x".repeat(200);
        let hits = vec![hit(1, 1, 1, "short"), hit(2, 1, 2, &long), hit(3, 1, 3, "tiny")];
        let set = EvidenceSet::from_hits(&hits, &HashMap::new(), 80, &|t| t.len());
        let pages: Vec<u32> = set.pages.iter().map(|p| p.page).collect();
        assert_eq!(pages, [1, 3]);
    }
}
