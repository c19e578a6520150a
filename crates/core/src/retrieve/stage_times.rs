//! Where one search spent its time, stage by stage, so that a slow percentile can be traced to
//! the part that causes it instead of guessed at. The query embedding runs beside the keyword
//! searches, so the stages overlap and need not add up to the total.

use std::time::Instant;

#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct StageTimes {
    /// Library counts, scope and routing by document facets.
    pub route_ms: f64,
    /// Keyword search over passages and over document profiles.
    pub lexical_ms: f64,
    /// The question's embedding (on its own thread, beside `lexical_ms`).
    pub embed_ms: f64,
    /// The vector search, including the allowed set when routing narrowed the library.
    pub vector_ms: f64,
    /// Reading the first passages and the widened keyword search.
    pub expand_ms: f64,
    /// Reading the candidate passages from SQLite.
    pub fetch_ms: f64,
    /// Fusion, page reranking and the choice of hits.
    pub rank_ms: f64,
    pub total_ms: f64,
}

/// Milliseconds since `since`.
pub(crate) fn ms_since(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}
