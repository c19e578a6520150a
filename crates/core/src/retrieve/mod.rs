//! Query → ranked passages. The question is first routed to the documents it is about by their
//! facets (organisation, period, kind). BM25 and vector candidates are fused with weighted
//! reciprocal rank fusion, the keyword search widened by words of the first search's best
//! passages (`expand`); the pages of the fused candidates are then reranked by page features
//! (`rerank`). Every hit is joined with SQLite, so an entry that only a crashed commit left in
//! a derived index is never returned.

mod copies;
pub mod expand;
pub mod filter;
pub mod library_search;
pub mod rerank;
mod routing;
mod snapshot;
mod stages;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::Instant;

use copies::Copies;
use rerank::{PageCandidate, QuestionTerms, RerankWeights};
pub use routing::Routing;
pub use snapshot::LibrarySnapshot;
pub use stages::StageTimes;
use stages::ms_since;
pub(crate) use snapshot::LibraryFacts;
pub use routing::NameRoute;

use serde::Serialize;

use crate::embed::{Embedder, TextRole};
use crate::lang::Lang;
use crate::error::{Error, Result};
use crate::index::store::ChunkRecord;
use crate::index::{LexicalIndex, Store, VectorIndex};
use crate::span::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    Hybrid,
    Lexical,
    Vector,
}

/// Weighted reciprocal rank fusion: score = Σ weight / (k + rank), over the chunk's rank in
/// the keyword list, in the vector list, and its document's rank among document profiles
/// (which documents the question names or is about).
#[derive(Debug, Clone, Copy)]
pub struct Fusion {
    pub rrf_k: f32,
    pub lexical_weight: f32,
    pub vector_weight: f32,
    pub document_weight: f32,
    /// Weight of facet routing: a passage from the document that best fits the question's
    /// period and kind gains `route_weight / (rrf_k + 1)`, others in proportion to their fit.
    pub route_weight: f32,
}

impl Default for Fusion {
    /// Chosen on the dev set with `bench/fusion_grid.sh` (72 settings): k = 20 with vectors
    /// weighted 1.5 sits on a plateau where neighbouring weights score the same (recall@5
    /// 0.488 against 0.415 for k = 60 and equal weights); see README.md.
    fn default() -> Self {
        // route_weight 1: the best-fitting document counts as much as a first place in the
        // keyword list (set a priori, not fitted; see README.md for its sensitivity).
        Fusion { rrf_k: 20.0, lexical_weight: 1.0, vector_weight: 1.5, document_weight: 1.0, route_weight: 1.0 }
    }
}

#[derive(Debug, Clone)]
pub struct SearchParams {
    pub k: usize,
    pub mode: SearchMode,
    /// Folders or documents to search within; empty means everything.
    pub scope: Vec<PathBuf>,
    /// The documents to search within, already resolved (the answer pipeline resolves the
    /// user's scope once per question); when set, `scope` is not looked at.
    pub documents: Option<Vec<i64>>,
    /// Candidates taken from each retriever before fusion.
    pub candidates: usize,
    pub fusion: Fusion,
    /// Route by document facets: narrow to the organisations the question names and raise
    /// documents whose period and kind fit it.
    pub route: bool,
    /// Rerank the pages of the fused candidates by page-level features (hybrid mode).
    pub rerank: bool,
    /// Add words from the first search's best passages to the keyword search (hybrid mode).
    pub expand: bool,
    /// The query's embedding when the caller already has it (a second search of the same
    /// question need not embed it again).
    pub query_vector: Option<Vec<f32>>,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            k: 10,
            mode: SearchMode::Hybrid,
            scope: Vec::new(),
            documents: None,
            candidates: 100,
            fusion: Fusion::default(),
            route: true,
            rerank: true,
            expand: true,
            query_vector: None,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub rank: usize,
    pub chunk_id: i64,
    #[serde(flatten)]
    pub span: Span,
    pub doc_path: PathBuf,
    pub doc_title: String,
    pub score: f32,
    pub heading_path: Vec<String>,
    pub text: String,
    /// Other indexed files with the same content (byte-identical copies).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also_in: Vec<PathBuf>,
}

impl Hit {
    /// A stored passage as the `rank`-th hit.
    pub fn of(rank: usize, record: ChunkRecord, score: f32, also_in: Vec<PathBuf>) -> Hit {
        Hit {
            rank,
            chunk_id: record.id,
            span: record.span,
            doc_path: record.doc_path,
            doc_title: record.doc_title,
            score,
            heading_path: record.heading_path,
            text: record.text,
            also_in,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct SearchResults {
    pub hits: Vec<Hit>,
    /// False while some chunks still wait for their vectors: the semantic half of the search
    /// saw only part of the library.
    pub semantic_complete: bool,
    pub pending_vectors: u64,
    pub total_chunks: u64,
    /// The keyword and vector candidate lists before fusion (best first, at most
    /// [`RANKING_KEPT`] each), whose score shapes say how well the library matches the query.
    #[serde(skip)]
    pub ranking: Ranking,
    /// Documents in the order routing and the document profiles put them (best first).
    #[serde(skip)]
    pub documents: Vec<i64>,
    /// The candidate pages reranking scored, in fused order (empty when it did not run).
    #[serde(skip)]
    pub pages: Vec<PageCandidate>,
    /// The query's embedding, so that a caller that needs it again does not embed twice.
    #[serde(skip)]
    pub query_vector: Option<Vec<f32>>,
    /// The question's language when the embedding model does not cover it: search then
    /// leaned on keywords.
    pub language_gap: Option<Lang>,
    /// Why the question got no vector (the embedder failed), when hybrid search fell back to
    /// keywords alone.
    pub vectors_unavailable: Option<String>,
    #[serde(skip)]
    pub stages: StageTimes,
    /// What routing made of the names the question carries, for the step trace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routing: Option<String>,
}

/// The vector list's share of its usual fusion weight when the embedding model does not read
/// the question's language. On the Chinese written questions with MiniLM, hybrid recall@1 was
/// 0.875 at the full weight, 0.950 at a fifth and 0.925 without vectors (README.md).
pub const UNCOVERED_VECTOR_SHARE: f32 = 0.2;

/// Candidates kept per retriever in [`SearchResults::ranking`].
pub const RANKING_KEPT: usize = 50;

#[derive(Debug, Clone, Default)]
pub struct Ranking {
    pub lexical: Vec<(i64, f32)>,
    pub vector: Vec<(i64, f32)>,
}

/// Documents ranked by profile; beyond this many the signal carries nothing.
const DOCUMENT_CANDIDATES: usize = 20;

pub struct Retriever<'a> {
    pub store: &'a Store,
    pub lexical: &'a LexicalIndex,
    pub vectors: &'a VectorIndex,
    pub embedder: &'a dyn Embedder,
    /// A reader's snapshot of the library's counts and documents; `None` reads them afresh.
    pub snapshot: Option<&'a LibrarySnapshot>,
}

impl Retriever<'_> {
    fn facts(&self) -> LibraryFacts<'_> {
        LibraryFacts { store: self.store, snapshot: self.snapshot }
    }

    pub fn search(&self, query: &str, params: &SearchParams) -> Result<SearchResults> {
        let started = Instant::now();
        let mut stages = StageTimes::default();
        let (total_chunks, embedded) = self.facts().chunk_counts()?;
        let user_scope = match &params.documents {
            Some(ids) => {
                let mut ids = ids.clone();
                ids.sort_unstable();
                ids.dedup();
                Some(ids)
            }
            None => self.scope_documents(&params.scope)?,
        };
        // Only hybrid search is routed: a keyword or vector search is what the user asked for,
        // over what the user scoped.
        let routing = if params.route && params.mode == SearchMode::Hybrid {
            self.route(query, user_scope.as_deref())?
        } else {
            Routing::default()
        };
        let unrouted_scope = user_scope.clone();
        let scope_docs = routing.narrow(user_scope);
        let candidates = params.candidates.max(params.k);
        // An embedding model that cannot read the question's script gives near-random
        // vectors; they then only break ties between keyword matches.
        let lang = Lang::of(query);
        let language_gap = (params.mode != SearchMode::Lexical && !self.embedder.covers(lang)).then_some(lang);
        let fusion = match language_gap {
            Some(_) => Fusion { vector_weight: params.fusion.vector_weight * UNCOVERED_VECTOR_SHARE, ..params.fusion },
            None => params.fusion,
        };

        // The query embedding is the slow part; keyword and document search run beside it.
        let wants_vector = params.mode != SearchMode::Lexical && !self.vectors.is_empty() && params.query_vector.is_none();
        let embedder = self.embedder;
        stages.route_ms = ms_since(started);
        let (query_vector, lexical, documents, embed_ms) = std::thread::scope(|scope| {
            let embedding = wants_vector.then(|| {
                scope.spawn(move || {
                    let began = Instant::now();
                    embedder.embed(&[query.to_string()], TextRole::Query).map(|v| (v, ms_since(began)))
                })
            });
            let began = Instant::now();
            let lexical = if params.mode != SearchMode::Vector {
                self.lexical.search(query, candidates, scope_docs.as_deref())?
            } else {
                Vec::new()
            };
            let documents = self.lexical.search_documents(query, DOCUMENT_CANDIDATES, scope_docs.as_deref())?;
            stages.lexical_ms = ms_since(began);
            let (query_vector, embed_ms) = match embedding {
                Some(handle) => {
                    let outcome = handle
                        .join()
                        .map_err(|_| Error::EmbeddingService { message: "query embedding panicked".into() })?;
                    match outcome {
                        Ok((vectors, ms)) => (Ok(vectors.into_iter().next()), ms),
                        Err(e) => (Err(e), 0.0),
                    }
                }
                None => (Ok(None), 0.0),
            };
            Ok::<_, Error>((query_vector, lexical, documents, embed_ms))
        })?;
        // Hybrid search still has its keyword half when the embedder fails (a server that
        // stopped answering); a search by meaning alone has nothing to fall back on.
        let (query_vector, vectors_unavailable) = match query_vector {
            Ok(v) => (v.or_else(|| params.query_vector.clone()), None),
            Err(e) if params.mode == SearchMode::Hybrid => (None, Some(e.to_string())),
            Err(e) => return Err(e),
        };
        stages.embed_ms = embed_ms;
        let began = Instant::now();
        let vector = match &query_vector {
            Some(qv) => {
                let allowed: Option<Vec<i64>> = match &scope_docs {
                    Some(docs) => Some(self.facts().chunk_ids_of_documents(docs)?),
                    None => None,
                };
                self.vectors.search(qv, candidates, allowed.as_deref())?
            }
            None => Vec::new(),
        };
        stages.vector_ms = ms_since(began);
        let began = Instant::now();
        // The ranking kept for abstaining is the question's own keyword list: the abstain rule
        // was fitted on it.
        let plain_lexical: Vec<(i64, f32)> = lexical.iter().take(RANKING_KEPT).copied().collect();
        let mut lexical = lexical;
        if params.expand && params.mode == SearchMode::Hybrid {
            let first: Vec<i64> = fuse(&lexical, &vector, fusion).iter().take(expand::FEEDBACK_PASSAGES).map(|x| x.0).collect();
            let passages = self.store.chunks_by_ids(&first)?;
            let texts: Vec<&str> = first.iter().filter_map(|id| passages.get(id).map(|r| r.text.as_str())).collect();
            let words = expand::feedback_words(query, &texts, self.lexical)?;
            if !words.is_empty() {
                lexical = self.lexical.search_expanded(query, &words, candidates, scope_docs.as_deref())?;
            }
        }
        stages.expand_ms = ms_since(began);
        let began = Instant::now();
        let mut ids: Vec<i64> = lexical.iter().chain(&vector).map(|(id, _)| *id).collect();
        ids.sort_unstable();
        ids.dedup();
        let records = self.store.chunks_by_ids(&ids)?;
        stages.fetch_ms = ms_since(began);
        let began = Instant::now();
        let profile_weight = if params.mode == SearchMode::Hybrid { fusion.document_weight } else { 0.0 };
        let doc_rank: HashMap<i64, usize> = documents.iter().enumerate().map(|(rank, (doc, _))| (*doc, rank)).collect();
        let mut fused = fuse(&lexical, &vector, fusion);
        for (id, score) in &mut fused {
            let Some(record) = records.get(id) else { continue };
            if let Some(rank) = doc_rank.get(&record.span.doc_id) {
                *score += profile_weight / (fusion.rrf_k + *rank as f32 + 1.0);
            }
            if let Some(fit) = routing.fit.get(&record.span.doc_id) {
                *score += fusion.route_weight * fit / (fusion.rrf_k + 1.0);
            }
        }
        fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut pages = Vec::new();
        if params.rerank && params.mode == SearchMode::Hybrid && !fused.is_empty() {
            let page_of: HashMap<i64, rerank::Place> = records.iter().map(|(id, r)| (*id, rerank::place_of(r))).collect();
            let question = QuestionTerms::new(query, self.lexical)?;
            let passage_texts: HashMap<i64, String> = records.iter().map(|(id, r)| (*id, r.text.clone())).collect();
            pages = rerank::page_candidates(&fused, &page_of, &passage_texts, &question, self.store)?;
            let weights = RerankWeights::default();
            let passage_score = |chunk: i64, nth: usize| {
                records.get(&chunk).map(|r| weights.score(&question.features(nth, &r.text))).unwrap_or(f32::MIN)
            };
            let strong: HashSet<i64> = fused.iter().take(rerank::STRONG_PASSAGES).map(|(id, _)| *id).collect();
            fused = rerank::reorder(fused, &page_of, &pages, &weights, &passage_score);
            let by_place: HashMap<(i64, i64), i64> = records.values().map(|r| ((r.span.doc_id, r.ordinal), r.id)).collect();
            let next_of: HashMap<i64, i64> = records
                .values()
                .filter(|r| rerank::ends_mid_sentence(&r.text))
                .filter_map(|r| by_place.get(&(r.span.doc_id, r.ordinal + 1)).map(|next| (r, *next)))
                .filter(|(r, next)| strong.contains(next) && records.get(next).is_some_and(|n| n.span.page == r.span.page))
                .map(|(r, next)| (r.id, next))
                .collect();
            fused = rerank::keep_sentences_whole(fused, &next_of);

        }
        let mut routed_docs: Vec<i64> = Vec::new();
        for (id, _) in &fused {
            if let Some(r) = records.get(id) {
                if !routed_docs.contains(&r.span.doc_id) {
                    routed_docs.push(r.span.doc_id);
                }
            }
        }
        let in_scope: Vec<i64> = match &scope_docs {
            Some(d) => d.clone(),
            None => documents.iter().map(|(d, _)| *d).chain(routing.fit.keys().copied()).chain(routed_docs).collect(),
        };
        let mut considered = in_scope;
        considered.sort_unstable();
        considered.dedup();
        let document_order = routing.ranked(&considered, &documents);
        let mut hits = Vec::with_capacity(params.k);
        let mut copies = Copies::default();
        let mut seen = HashSet::new();
        for (id, score) in fused {
            let Some(found) = records.get(&id) else { continue };
            let (r, also_in) = copies.canonical(self.store, found, scope_docs.as_deref())?;
            if !seen.insert(r.id) {
                continue;
            }
            hits.push(Hit::of(hits.len() + 1, r, score, also_in));
            if hits.len() == params.k {
                break;
            }
        }
        if routing.named.len() <= FALLBACK_ROUTED_DOCUMENTS && !routing.named.is_empty() {
            let unrouted = SearchParams {
                route: false,
                documents: unrouted_scope,
                scope: Vec::new(),
                query_vector: query_vector.clone(),
                ..params.clone()
            };
            let fallback = self.search(query, &unrouted)?;
            hits = merge_fallback(hits, fallback.hits, params.k, fusion.rrf_k);
        }
        stages.rank_ms = ms_since(began);
        stages.total_ms = ms_since(started);
        Ok(SearchResults {
            hits,
            semantic_complete: embedded == total_chunks,
            pending_vectors: total_chunks - embedded,
            total_chunks,
            ranking: Ranking {
                lexical: plain_lexical,
                vector: vector.iter().take(RANKING_KEPT).copied().collect(),
            },
            documents: document_order,
            pages,
            query_vector,
            language_gap,
            vectors_unavailable,
            stages,
            routing: routing.describe(),
        })
    }

    /// Routing among the documents the user's scope allows (all when it is empty).
    fn route(&self, query: &str, scope: Option<&[i64]>) -> Result<Routing> {
        let all = self.facts().documents()?;
        let labels = self.facts().routing_labels()?;
        let documents: Vec<crate::facets::RoutedDocument<'_>> = all
            .iter()
            .filter(|d| scope.is_none_or(|s| s.binary_search(&d.doc_id).is_ok()))
            .filter_map(|d| {
                let label = labels.get(&d.doc_id).map(String::as_str).unwrap_or_default();
                d.facets.as_ref().map(|facets| crate::facets::RoutedDocument { doc_id: d.doc_id, facets, label })
            })
            .collect();
        // A failed count reads as "used everywhere": no narrowing rather than a wrong one.
        let used_by = |name: &str| self.facts().documents_using(self.lexical, name).unwrap_or(u64::MAX);
        Ok(Routing::decide(query, &documents, &used_by))
    }

    fn scope_documents(&self, scope: &[PathBuf]) -> Result<Option<Vec<i64>>> {
        if scope.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.store.documents_under(scope)?))
    }

}

/// Routing that narrows a search to this many documents or fewer also searches without the
/// route, in case the name it routed on was not what the question is about.
const FALLBACK_ROUTED_DOCUMENTS: usize = 3;

/// The routed hits fused with those of the same search without the route (reciprocal ranks,
/// equal weights): a passage both searches find leads, a passage only the unrouted search
/// finds can still come in ahead of weak routed ones.
fn merge_fallback(routed: Vec<Hit>, fallback: Vec<Hit>, k: usize, rrf_k: f32) -> Vec<Hit> {
    let mut scores: HashMap<i64, f32> = HashMap::new();
    for list in [&routed, &fallback] {
        for (rank, hit) in list.iter().enumerate() {
            *scores.entry(hit.chunk_id).or_default() += 1.0 / (rrf_k + rank as f32 + 1.0);
        }
    }
    let mut merged: Vec<Hit> = Vec::new();
    for hit in routed.into_iter().chain(fallback) {
        if !merged.iter().any(|m| m.chunk_id == hit.chunk_id) {
            merged.push(hit);
        }
    }
    // Stable: equal fused scores keep routed order first.
    let score = |h: &Hit| scores.get(&h.chunk_id).copied().unwrap_or(0.0);
    merged.sort_by(|a, b| score(b).total_cmp(&score(a)));
    merged.truncate(k);
    for (i, hit) in merged.iter_mut().enumerate() {
        hit.rank = i + 1;
    }
    merged
}

/// Fuses two ranked lists; a list that is empty contributes nothing.
pub fn fuse(lexical: &[(i64, f32)], vector: &[(i64, f32)], fusion: Fusion) -> Vec<(i64, f32)> {
    let mut scores: HashMap<i64, f32> = HashMap::new();
    for (rank, (id, _)) in lexical.iter().enumerate() {
        *scores.entry(*id).or_default() += fusion.lexical_weight / (fusion.rrf_k + rank as f32 + 1.0);
    }
    for (rank, (id, _)) in vector.iter().enumerate() {
        *scores.entry(*id).or_default() += fusion.vector_weight / (fusion.rrf_k + rank as f32 + 1.0);
    }
    let mut out: Vec<(i64, f32)> = scores.into_iter().collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rrf_rewards_agreement_and_keeps_single_list_order() {
        let lex = vec![(1, 9.0), (2, 8.0), (3, 7.0)];
        let vec_ = vec![(3, 0.9), (4, 0.8)];
        let fused = fuse(&lex, &vec_, Fusion::default());
        assert_eq!(fused[0].0, 3, "in both lists beats first in one");
        let only_lex = fuse(&lex, &[], Fusion::default());
        assert_eq!(only_lex.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2, 3]);
    }
}
