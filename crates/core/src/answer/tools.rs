//! The tools a retrieval plan calls: `search_docs`, `search_keyword` and `read_page`. Each
//! call is recorded as a step; a failing call becomes an observation, never an abort.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::engine::{Queries, Reader};
use crate::error::Result;
use crate::index::DocumentInfo;
use crate::retrieve::{Hit, Ranking, SearchMode, SearchParams};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Step {
    pub index: usize,
    pub tool: String,
    pub input: serde_json::Value,
    pub observation: String,
    pub ms: f64,
}

pub struct Toolbox<'a> {
    pub reader: &'a Reader,
    pub documents: HashMap<i64, DocumentInfo>,
    /// Documents the user limited the question to; `None` means the whole library.
    pub scope: Option<Vec<i64>>,
    pub steps: Vec<Step>,
}

/// What one search found: its hits and, when it ran, its candidate lists (for judging how
/// well the library matched) and the query's embedding.
#[derive(Default)]
pub struct Found {
    pub hits: Vec<Hit>,
    pub ranking: Option<Ranking>,
    pub query_vector: Option<Vec<f32>>,
}

impl<'a> Toolbox<'a> {
    pub fn new(reader: &'a Reader, scope_paths: &[PathBuf]) -> Result<Toolbox<'a>> {
        let documents: HashMap<i64, DocumentInfo> =
            reader.documents()?.into_iter().map(|d| (d.doc_id, d)).collect();
        let scope = if scope_paths.is_empty() { None } else { Some(reader.documents_under(scope_paths)?) };
        Ok(Toolbox { reader, documents, scope, steps: Vec::new() })
    }

    pub fn record(&mut self, tool: &str, input: serde_json::Value, observation: String, started: Instant) -> &Step {
        let index = self.steps.len() + 1;
        self.steps.push(Step { index, tool: tool.into(), input, observation, ms: started.elapsed().as_secs_f64() * 1000.0 });
        &self.steps[index - 1]
    }

    /// The documents a search may look at: the filter within the user's scope.
    fn allowed(&self, doc_filter: &[i64]) -> Option<Vec<i64>> {
        match (&self.scope, doc_filter.is_empty()) {
            (None, true) => None,
            (None, false) => Some(doc_filter.to_vec()),
            (Some(s), true) => Some(s.clone()),
            (Some(s), false) => Some(doc_filter.iter().filter(|d| s.contains(d)).copied().collect()),
        }
    }

    fn search(&mut self, tool: &str, query: &str, k: usize, doc_filter: &[i64], mode: SearchMode) -> Found {
        let started = Instant::now();
        let allowed = self.allowed(doc_filter);
        let input = json!({"query": query, "k": k, "doc_filter": doc_filter});
        if allowed.as_ref().is_some_and(|a| a.is_empty()) {
            self.record(tool, input, "error: no indexed document matches the filter and scope".into(), started);
            return Found::default();
        }
        let params = SearchParams { k, mode, documents: allowed, ..SearchParams::default() };
        match self.reader.search(query, &params) {
            Ok(results) => {
                let seen: Vec<String> = results.hits.iter().take(5).map(|h| format!("{} p.{}", h.doc_title, h.span.page)).collect();
                let mut observation = format!("{} passages; top: {}", results.hits.len(), seen.join("; "));
                if let Some(routing) = &results.routing {
                    observation.push_str(&format!("; names: {routing}"));
                }
                self.record(tool, input, observation, started);
                Found { hits: results.hits, ranking: Some(results.ranking), query_vector: results.query_vector }
            }
            Err(e) => {
                self.record(tool, input, format!("error: {e}"), started);
                Found::default()
            }
        }
    }

    pub fn search_docs(&mut self, query: &str, k: usize, doc_filter: &[i64]) -> Found {
        self.search("search_docs", query, k, doc_filter, SearchMode::Hybrid)
    }

    pub fn search_keyword(&mut self, term: &str, k: usize, doc_filter: &[i64]) -> Vec<Hit> {
        self.search("search_keyword", term, k, doc_filter, SearchMode::Lexical).hits
    }

    /// The passages of one page, as hits in reading order.
    pub fn read_page(&mut self, doc_id: i64, page: u32) -> Vec<Hit> {
        let started = Instant::now();
        let input = json!({"doc": doc_id, "page": page});
        let Some(info) = self.documents.get(&doc_id).cloned() else {
            self.record("read_page", input, format!("error: no document {doc_id}"), started);
            return Vec::new();
        };
        if page == 0 || page > info.page_count {
            self.record("read_page", input, format!("error: {} has pages 1–{}", info.title, info.page_count), started);
            return Vec::new();
        }
        let result = self.reader.page_passages(doc_id, page);
        match result {
            Ok(records) => {
                let hits: Vec<Hit> = records
                    .into_iter()
                    .enumerate()
                    .map(|(i, r)| Hit::of(i + 1, r, 0.0, Vec::new()))
                    .collect();
                self.record("read_page", input, format!("{} passages on {} p.{page}", hits.len(), info.title), started);
                hits
            }
            Err(e) => {
                self.record("read_page", input, format!("error: {e}"), started);
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_library::test_library;

    #[test]
    fn tools_record_numbered_steps_and_keep_to_the_scope() {
        let lib = test_library();
        let mut tools = Toolbox::new(&lib.reader, &[]).unwrap();
        assert!(tools.scope.is_none());
        let found = tools.search_docs("who replaced the heat pump", 5, &[]);
        let hits = found.hits;
        assert!(hits[0].doc_path.ends_with("pumps.md"), "{:?}", hits.iter().map(|h| &h.doc_path).collect::<Vec<_>>());
        assert!(found.query_vector.is_some_and(|v| !v.is_empty()), "the query's embedding comes back with the hits");
        assert!(found.ranking.is_some_and(|r| !r.lexical.is_empty()));
        let pumps = hits[0].span.doc_id;
        let page = tools.read_page(pumps, 1);
        assert!(page.iter().any(|h| h.text.contains("Ostara")));
        assert!(tools.read_page(pumps, 7).is_empty(), "a page past the end reads nothing");
        assert!(tools.read_page(999, 1).is_empty());
        let steps: Vec<(usize, &str)> = tools.steps.iter().map(|s| (s.index, s.tool.as_str())).collect();
        assert_eq!(steps, vec![(1, "search_docs"), (2, "read_page"), (3, "read_page"), (4, "read_page")]);
        assert!(tools.steps[2].observation.starts_with("error:"), "{}", tools.steps[2].observation);

        // The scope is resolved to documents once; searches stay inside it.
        let budget = lib.folder().join("budget.md");
        let mut scoped = Toolbox::new(&lib.reader, &[budget]).unwrap();
        let scope = scoped.scope.clone().unwrap();
        assert_eq!(scope.len(), 1);
        let hits = scoped.search_docs("who replaced the heat pump", 5, &[]).hits;
        assert!(hits.iter().all(|h| h.span.doc_id == scope[0]), "a hit outside the scope");
        assert!(scoped.search_docs("heat pump", 5, &[pumps]).hits.is_empty(), "a filter outside the scope finds nothing");
        assert!(scoped.steps[1].observation.starts_with("error:"));
    }
}
