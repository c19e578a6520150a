//! One search as its named stages, the ones [`StageTimes`] reports: `route` (scope, routing,
//! weights) → `lexical` and `embed` side by side → `vector` → `expand` → `fetch` → `rank`
//! (fusion, page reranking, the choice of hits, and the search again without the route when
//! routing narrowed to a few documents). Each stage takes what the one before returned.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use super::copies::Copies;
use super::rerank::{self, PageCandidate, QuestionTerms, RerankWeights};
use super::stage_times::ms_since;
use super::{
    expand, fuse, merge_fallback, Fusion, Hit, Ranking, Retriever, Routing, SearchMode, SearchParams, SearchResults,
    StageTimes, DOCUMENT_CANDIDATES, FALLBACK_ROUTED_DOCUMENTS, RANKING_KEPT, UNCOVERED_VECTOR_SHARE,
};
use crate::embed::TextRole;
use crate::error::{Error, Result};
use crate::index::catalog::ChunkRecord;
use crate::lang::Lang;

pub(crate) type Ranked = Vec<(i64, f32)>;
pub(crate) type Records = HashMap<i64, ChunkRecord>;

/// Stage `route`: what the search may look at and how its lists weigh.
pub(crate) struct Plan {
    /// The user's scope before routing narrowed it: the search without the route uses it.
    pub(crate) user_scope: Option<Vec<i64>>,
    pub(crate) routing: Routing,
    /// The documents searched: the user's scope narrowed by routing (`None`: all).
    pub(crate) scope: Option<Vec<i64>>,
    /// Candidates taken from each list.
    pub(crate) candidates: usize,
    pub(crate) language_gap: Option<Lang>,
    pub(crate) fusion: Fusion,
}

impl Plan {
    /// Routing narrowed to so few documents that the name it routed on may not be what the
    /// question is about.
    fn falls_back(&self) -> bool {
        !self.routing.named.is_empty() && self.routing.named.len() <= FALLBACK_ROUTED_DOCUMENTS
    }
}

/// Stages `lexical` and `embed`: the first candidate lists.
pub(crate) struct FirstLists {
    pub(crate) lexical: Ranked,
    /// Documents ranked by their profiles.
    pub(crate) documents: Ranked,
    pub(crate) query_vector: Option<Vec<f32>>,
    /// Why the question got no vector, when hybrid search goes on with keywords alone.
    pub(crate) vectors_unavailable: Option<String>,
}

impl Retriever<'_> {
    pub fn search(&self, query: &str, params: &SearchParams) -> Result<SearchResults> {
        let started = Instant::now();
        let mut stages = StageTimes::default();
        let (total_chunks, embedded) = self.facts().chunk_counts()?;
        let plan = self.plan(query, params)?;
        stages.route_ms = ms_since(started);
        let first = self.first_lists(query, params, &plan, &mut stages)?;
        let began = Instant::now();
        let vector = self.vector_list(first.query_vector.as_deref(), &plan)?;
        stages.vector_ms = ms_since(began);
        // The ranking kept for abstaining is the question's own keyword list: the abstain rule
        // was fitted on it.
        let ranking = Ranking {
            lexical: first.lexical.iter().take(RANKING_KEPT).copied().collect(),
            vector: vector.iter().take(RANKING_KEPT).copied().collect(),
        };
        let began = Instant::now();
        let lexical = self.expand(query, params, &plan, first.lexical, &vector)?;
        stages.expand_ms = ms_since(began);
        let began = Instant::now();
        let records = self.fetch(&lexical, &vector)?;
        stages.fetch_ms = ms_since(began);
        let began = Instant::now();
        let fused = fuse_with_documents(&lexical, &vector, &first.documents, &records, &plan, params.mode);
        let (fused, pages) = if params.rerank && params.mode == SearchMode::Hybrid && !fused.is_empty() {
            self.rerank(query, fused, &records)?
        } else {
            (fused, Vec::new())
        };
        let documents = document_order(&fused, &records, &first.documents, &plan);
        let mut hits = self.choose_hits(fused, &records, plan.scope.as_deref(), params.k)?;
        if plan.falls_back() {
            hits = self.with_unrouted(query, params, &plan, hits, first.query_vector.clone())?;
        }
        stages.rank_ms = ms_since(began);
        stages.total_ms = ms_since(started);
        Ok(SearchResults {
            hits,
            semantic_complete: embedded == total_chunks,
            pending_vectors: total_chunks - embedded,
            total_chunks,
            ranking,
            documents,
            pages,
            query_vector: first.query_vector,
            language_gap: plan.language_gap,
            vectors_unavailable: first.vectors_unavailable,
            stages,
            routing: plan.routing.describe(),
        })
    }

    /// Stage `route`. Only hybrid search is routed: a keyword or vector search is what the
    /// user asked for, over what the user scoped.
    pub(crate) fn plan(&self, query: &str, params: &SearchParams) -> Result<Plan> {
        let user_scope = match &params.documents {
            Some(ids) => {
                let mut ids = ids.clone();
                ids.sort_unstable();
                ids.dedup();
                Some(ids)
            }
            None => self.scope_documents(&params.scope)?,
        };
        let routing = if params.route && params.mode == SearchMode::Hybrid {
            self.route(query, user_scope.as_deref())?
        } else {
            Routing::default()
        };
        let scope = routing.narrow(user_scope.clone());
        // An embedding model that cannot read the question's script gives near-random
        // vectors; they then only break ties between keyword matches.
        let lang = Lang::of(query);
        let language_gap = (params.mode != SearchMode::Lexical && !self.embedder.covers(lang)).then_some(lang);
        let fusion = match language_gap {
            Some(_) => Fusion { vector_weight: params.fusion.vector_weight * UNCOVERED_VECTOR_SHARE, ..params.fusion },
            None => params.fusion,
        };
        Ok(Plan { user_scope, routing, scope, candidates: params.candidates.max(params.k), language_gap, fusion })
    }

    /// Stages `lexical` and `embed`. The query embedding is the slow part; keyword and
    /// document search run beside it.
    pub(crate) fn first_lists(&self, query: &str, params: &SearchParams, plan: &Plan, stages: &mut StageTimes) -> Result<FirstLists> {
        let wants_vector = params.mode != SearchMode::Lexical && !self.vectors.is_empty() && params.query_vector.is_none();
        let embedder = self.embedder;
        let scope = plan.scope.as_deref();
        let (embedded, lexical, documents) = std::thread::scope(|threads| {
            let embedding = wants_vector.then(|| {
                threads.spawn(move || {
                    let began = Instant::now();
                    embedder.embed(&[query.to_string()], TextRole::Query).map(|v| (v, ms_since(began)))
                })
            });
            let began = Instant::now();
            let lexical =
                if params.mode != SearchMode::Vector { self.lexical.search(query, plan.candidates, scope)? } else { Vec::new() };
            let documents = self.lexical.search_documents(query, DOCUMENT_CANDIDATES, scope)?;
            stages.lexical_ms = ms_since(began);
            let embedded = match embedding {
                Some(handle) => handle
                    .join()
                    .map_err(|_| Error::EmbeddingService { message: "query embedding panicked".into() })?
                    .map(|(vectors, ms)| (vectors.into_iter().next(), ms)),
                None => Ok((None, 0.0)),
            };
            Ok::<_, Error>((embedded, lexical, documents))
        })?;
        // Hybrid search still has its keyword half when the embedder fails (a server that
        // stopped answering); a search by meaning alone has nothing to fall back on.
        let (query_vector, vectors_unavailable) = match embedded {
            Ok((vector, ms)) => {
                stages.embed_ms = ms;
                (vector.or_else(|| params.query_vector.clone()), None)
            }
            Err(e) if params.mode == SearchMode::Hybrid => (None, Some(e.to_string())),
            Err(e) => return Err(e),
        };
        Ok(FirstLists { lexical, documents, query_vector, vectors_unavailable })
    }

    /// Stage `vector`, within the planned scope.
    pub(crate) fn vector_list(&self, query_vector: Option<&[f32]>, plan: &Plan) -> Result<Ranked> {
        let Some(query_vector) = query_vector else { return Ok(Vec::new()) };
        let allowed = match &plan.scope {
            Some(docs) => Some(self.facts().chunk_ids_of_documents(docs)?),
            None => None,
        };
        self.vectors.search(query_vector, plan.candidates, allowed.as_deref())
    }

    /// Stage `expand`: the keyword list searched again with words of the first fused
    /// list's best passages (hybrid search only).
    pub(crate) fn expand(&self, query: &str, params: &SearchParams, plan: &Plan, lexical: Ranked, vector: &[(i64, f32)]) -> Result<Ranked> {
        if !params.expand || params.mode != SearchMode::Hybrid {
            return Ok(lexical);
        }
        let first: Vec<i64> = fuse(&lexical, vector, plan.fusion).iter().take(expand::FEEDBACK_PASSAGES).map(|x| x.0).collect();
        let passages = self.catalog.chunks_by_ids(&first)?;
        let texts: Vec<&str> = first.iter().filter_map(|id| passages.get(id).map(|r| r.text.as_str())).collect();
        let words = expand::feedback_words(query, &texts, self.lexical)?;
        if words.is_empty() {
            return Ok(lexical);
        }
        self.lexical.search_expanded(query, &words, plan.candidates, plan.scope.as_deref())
    }

    /// Stage `fetch`: every candidate passage read from SQLite, so that an entry only a
    /// crashed commit left in a derived index is dropped here.
    pub(crate) fn fetch(&self, lexical: &[(i64, f32)], vector: &[(i64, f32)]) -> Result<Records> {
        let mut ids: Vec<i64> = lexical.iter().chain(vector).map(|(id, _)| *id).collect();
        ids.sort_unstable();
        ids.dedup();
        self.catalog.chunks_by_ids(&ids)
    }

    /// Part of stage `rank`: the fused passages reordered by their pages' features, with a
    /// passage that ends mid-sentence kept before the strong passage that finishes it.
    pub(crate) fn rerank(&self, query: &str, fused: Ranked, records: &Records) -> Result<(Ranked, Vec<PageCandidate>)> {
        let page_of: HashMap<i64, rerank::Place> = records.iter().map(|(id, r)| (*id, rerank::place_of(r))).collect();
        let question = QuestionTerms::new(query, self.lexical)?;
        let passage_texts: HashMap<i64, String> = records.iter().map(|(id, r)| (*id, r.text.clone())).collect();
        let pages = rerank::page_candidates(&fused, &page_of, &passage_texts, &question, self.catalog)?;
        let weights = RerankWeights::default();
        let passage_score = |chunk: i64, nth: usize| {
            records.get(&chunk).map(|r| weights.score(&question.features(nth, &r.text))).unwrap_or(f32::MIN)
        };
        let strong: HashSet<i64> = fused.iter().take(rerank::STRONG_PASSAGES).map(|(id, _)| *id).collect();
        let fused = rerank::reorder(fused, &page_of, &pages, &weights, &passage_score);
        let by_place: HashMap<(i64, i64), i64> = records.values().map(|r| ((r.span.doc_id, r.ordinal), r.id)).collect();
        let next_of: HashMap<i64, i64> = records
            .values()
            .filter(|r| rerank::ends_mid_sentence(&r.text))
            .filter_map(|r| by_place.get(&(r.span.doc_id, r.ordinal + 1)).map(|next| (r, *next)))
            .filter(|(r, next)| strong.contains(next) && records.get(next).is_some_and(|n| n.span.page == r.span.page))
            .map(|(r, next)| (r.id, next))
            .collect();
        Ok((rerank::keep_sentences_whole(fused, &next_of), pages))
    }

    /// Part of stage `rank`: the first `k` passages, each byte-identical copy once.
    pub(crate) fn choose_hits(&self, fused: Ranked, records: &Records, scope: Option<&[i64]>, k: usize) -> Result<Vec<Hit>> {
        let mut hits = Vec::with_capacity(k);
        let mut copies = Copies::default();
        let mut seen = HashSet::new();
        for (id, score) in fused {
            let Some(found) = records.get(&id) else { continue };
            let (record, also_in) = copies.canonical(self.catalog, found, scope)?;
            if !seen.insert(record.id) {
                continue;
            }
            hits.push(Hit::of(hits.len() + 1, record, score, also_in));
            if hits.len() == k {
                break;
            }
        }
        Ok(hits)
    }

    /// Part of stage `rank`: the routed hits merged with the same search without the route.
    fn with_unrouted(&self, query: &str, params: &SearchParams, plan: &Plan, hits: Vec<Hit>, query_vector: Option<Vec<f32>>) -> Result<Vec<Hit>> {
        let unrouted = SearchParams {
            route: false,
            documents: plan.user_scope.clone(),
            scope: Vec::new(),
            query_vector,
            ..params.clone()
        };
        let fallback = self.search(query, &unrouted)?;
        Ok(merge_fallback(hits, fallback.hits, params.k, plan.fusion.rrf_k))
    }
}

/// Part of stage `rank`: the keyword and vector lists fused, each passage raised by its
/// document's rank among the document profiles (hybrid search) and by routing's fit.
pub(crate) fn fuse_with_documents(lexical: &[(i64, f32)], vector: &[(i64, f32)], documents: &[(i64, f32)], records: &Records, plan: &Plan, mode: SearchMode) -> Ranked {
    let fusion = plan.fusion;
    let profile_weight = if mode == SearchMode::Hybrid { fusion.document_weight } else { 0.0 };
    let doc_rank: HashMap<i64, usize> = documents.iter().enumerate().map(|(rank, (doc, _))| (*doc, rank)).collect();
    let mut fused = fuse(lexical, vector, fusion);
    for (id, score) in &mut fused {
        let Some(record) = records.get(id) else { continue };
        if let Some(rank) = doc_rank.get(&record.span.doc_id) {
            *score += profile_weight / (fusion.rrf_k + *rank as f32 + 1.0);
        }
        if let Some(fit) = plan.routing.fit.get(&record.span.doc_id) {
            *score += fusion.route_weight * fit / (fusion.rrf_k + 1.0);
        }
    }
    fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    fused
}

/// Part of stage `rank`: the documents in routing's order, among those the search could
/// have been about (the scope, or the profiles', routing's and the hits' documents).
pub(crate) fn document_order(fused: &[(i64, f32)], records: &Records, documents: &[(i64, f32)], plan: &Plan) -> Vec<i64> {
    let mut considered: Vec<i64> = match &plan.scope {
        Some(scope) => scope.clone(),
        None => {
            let mut hit_docs: Vec<i64> = Vec::new();
            for record in fused.iter().filter_map(|(id, _)| records.get(id)) {
                if !hit_docs.contains(&record.span.doc_id) {
                    hit_docs.push(record.span.doc_id);
                }
            }
            documents.iter().map(|(d, _)| *d).chain(plan.routing.fit.keys().copied()).chain(hit_docs).collect()
        }
    };
    considered.sort_unstable();
    considered.dedup();
    plan.routing.ranked(&considered, documents)
}
