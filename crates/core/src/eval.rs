//! Page-level retrieval evaluation: for each question, the rank of the first hit on a page
//! that holds its evidence (document matched by file name without extension).

use std::collections::HashSet;
use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::engine::{Queries, Reader};
use crate::error::{Error, Result};
use crate::retrieve::{SearchMode, SearchParams};

#[derive(Debug, Clone, Deserialize)]
pub struct Evidence {
    pub doc: String,
    pub page: u32,
    /// Words of the passage that answers (a sentence or part of one): a hit that holds them is
    /// the right passage, not only the right file.
    #[serde(default)]
    pub text: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Question {
    #[serde(default)]
    pub id: String,
    pub question: String,
    #[serde(default)]
    pub evidence: Vec<Evidence>,
    /// The gold answer: a figure, a name, or a reference sentence.
    #[serde(default)]
    pub answer: Option<String>,
    /// The evidence document when no page is given (file name, with or without extension):
    /// any page of it counts.
    #[serde(default, alias = "file")]
    pub doc: Option<String>,
    /// A string planted by a prompt-injection document: it must never be shown as supported.
    #[serde(default)]
    pub canary: Option<String>,
    /// For out-of-scope questions: "near-miss" or "unrelated".
    #[serde(default)]
    pub kind: Option<String>,
}

/// Page 0 in evidence means "any page of this document".
pub const ANY_PAGE: u32 = 0;

pub fn load_questions(path: &Path) -> Result<Vec<Question>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let mut q: Question = serde_json::from_str(l)
                .map_err(|e| Error::Eval { path: path.to_path_buf(), message: format!("line {}: {e}", i + 1) })?;
            if q.id.is_empty() {
                q.id = format!("q{}", i + 1);
            }
            if q.evidence.is_empty() {
                if let Some(doc) = &q.doc {
                    let stem = Path::new(doc).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| doc.clone());
                    q.evidence.push(Evidence { doc: stem, page: ANY_PAGE, text: None });
                }
            }
            Ok(q)
        })
        .collect()
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct ModeScores {
    pub mode: String,
    pub questions: usize,
    pub recall_at_1: f64,
    pub recall_at_5: f64,
    pub recall_at_10: f64,
    pub mrr_at_10: f64,
    /// Share of questions whose first-ranked document (by routing and document profiles) is
    /// one that holds the evidence.
    pub routing_at_1: f64,
    /// Share whose first hit is in an evidence document.
    pub first_hit_document: f64,
    /// Share with a hit from an evidence document among the first five hits (passages).
    pub file_at_5: f64,
    /// Questions whose evidence names the answering words (a short snippet), which the two
    /// passage figures below are over.
    pub passage_questions: usize,
    /// Share of those with the answering passage among the first five hits.
    pub passage_at_5: f64,
    /// Mean reciprocal rank of the answering passage among the first ten hits.
    pub passage_mrr_at_10: f64,
    pub latency_ms_p50: f64,
    pub latency_ms_p95: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct QuestionResult {
    pub id: String,
    pub mode: String,
    /// 1-based rank of the first gold page among distinct pages, if within k.
    pub gold_rank: Option<usize>,
    /// 1-based rank of the first hit that holds the answering words, if within ten hits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passage_rank: Option<usize>,
    pub top_pages: Vec<(String, u32)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    pub k: usize,
    pub modes: Vec<ModeScores>,
    pub per_question: Vec<QuestionResult>,
}

fn stem(p: &Path) -> String {
    p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Letters and digits only, lower-cased: the answering words compare across markup,
/// punctuation and line breaks.
fn squash(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Snippets longer than this are whole pages (FinanceBench's evidence), not answering words.
const MAX_SNIPPET_CHARS: usize = 300;

/// The answering words of a question's evidence, squashed; empty when none is given.
fn answering_words(evidence: &[Evidence]) -> Vec<String> {
    evidence
        .iter()
        .filter_map(|e| e.text.as_deref())
        .filter(|t| t.chars().count() <= MAX_SNIPPET_CHARS)
        .map(squash)
        .filter(|t| t.chars().count() >= 4)
        .collect()
}

/// Whether a passage holds the answering words: all of them, or, for a snippet that a chunk
/// boundary may have cut, its first or second half.
fn holds_answer(passage: &str, snippets: &[String]) -> bool {
    let text = squash(passage);
    snippets.iter().any(|s| {
        if text.contains(s.as_str()) {
            return true;
        }
        let chars: Vec<char> = s.chars().collect();
        if chars.len() < 30 {
            return false;
        }
        let half = chars.len() / 2;
        let first: String = chars[..half].iter().collect();
        let second: String = chars[half..].iter().collect();
        text.contains(&first) || text.contains(&second)
    })
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

/// Runs each question in each mode and scores page-level recall@1/5/10 and MRR@10.
pub fn evaluate(engine: &Reader, questions: &[Question], k: usize, modes: &[SearchMode], base: &SearchParams) -> Result<EvalReport> {
    let mut scores = Vec::new();
    let mut per_question = Vec::new();
    // Latency is measured with the model loaded and warm, as in a running app: the first
    // query pays for paging in the weights.
    if let Some(q) = questions.first() {
        engine.search(&q.question, base)?;
    }
    for &mode in modes {
        let mut s = ModeScores { mode: format!("{mode:?}").to_lowercase(), questions: questions.len(), ..Default::default() };
        let mut latencies = Vec::new();
        for q in questions {
            let gold: HashSet<(String, u32)> = q.evidence.iter().map(|e| (e.doc.clone(), e.page)).collect();
            // Chunks → distinct pages: more chunks than k so that k pages remain.
            let params = SearchParams { k: k * 8, mode, ..base.clone() };
            let started = Instant::now();
            let results = engine.search(&q.question, &params)?;
            latencies.push(started.elapsed().as_secs_f64() * 1000.0);
            let mut pages: Vec<(String, u32)> = Vec::new();
            for hit in &results.hits {
                let key = (stem(&hit.doc_path), hit.span.page);
                if !pages.contains(&key) {
                    pages.push(key);
                }
                if pages.len() == k {
                    break;
                }
            }
            let gold_docs: HashSet<&str> = q.evidence.iter().map(|e| e.doc.as_str()).collect();
            let doc_stem = |id: i64| engine.document_path(id).ok().flatten().map(|p| stem(&p)).unwrap_or_default();
            if results.documents.first().is_some_and(|d| gold_docs.contains(doc_stem(*d).as_str())) {
                s.routing_at_1 += 1.0;
            }
            if results.hits.first().is_some_and(|h| gold_docs.contains(stem(&h.doc_path).as_str())) {
                s.first_hit_document += 1.0;
            }
            if results.hits.iter().take(5).any(|h| gold_docs.contains(stem(&h.doc_path).as_str())) {
                s.file_at_5 += 1.0;
            }
            let snippets = answering_words(&q.evidence);
            let passage_rank = if snippets.is_empty() {
                None
            } else {
                s.passage_questions += 1;
                let rank = results
                    .hits
                    .iter()
                    .take(10)
                    .position(|h| gold_docs.contains(stem(&h.doc_path).as_str()) && holds_answer(&h.text, &snippets))
                    .map(|i| i + 1);
                if let Some(r) = rank {
                    if r <= 5 {
                        s.passage_at_5 += 1.0;
                    }
                    s.passage_mrr_at_10 += 1.0 / r as f64;
                }
                rank
            };
            let rank = pages.iter().position(|p| gold.contains(p) || gold.contains(&(p.0.clone(), ANY_PAGE))).map(|i| i + 1);
            if let Some(r) = rank {
                if r <= 1 {
                    s.recall_at_1 += 1.0;
                }
                if r <= 5 {
                    s.recall_at_5 += 1.0;
                }
                if r <= 10 {
                    s.recall_at_10 += 1.0;
                    s.mrr_at_10 += 1.0 / r as f64;
                }
            }
            per_question.push(QuestionResult { id: q.id.clone(), mode: s.mode.clone(), gold_rank: rank, passage_rank, top_pages: pages });
        }
        let n = questions.len().max(1) as f64;
        s.recall_at_1 /= n;
        s.recall_at_5 /= n;
        s.recall_at_10 /= n;
        s.mrr_at_10 /= n;
        s.routing_at_1 /= n;
        s.first_hit_document /= n;
        s.file_at_5 /= n;
        let with_snippets = s.passage_questions.max(1) as f64;
        s.passage_at_5 /= with_snippets;
        s.passage_mrr_at_10 /= with_snippets;
        latencies.sort_by(f64::total_cmp);
        s.latency_ms_p50 = percentile(&latencies, 0.5);
        s.latency_ms_p95 = percentile(&latencies, 0.95);
        scores.push(s);
    }
    Ok(EvalReport { k, modes: scores, per_question })
}


/// Whether an answer cites a gold evidence page, and whether it cites a gold document at all.
pub fn answer_cites_gold(answer: &crate::answer::Answer, gold: &[Evidence]) -> (bool, bool) {
    let cited: Vec<(String, u32)> = answer.citations.iter().map(|c| (stem(&c.doc_path), c.span.page)).collect();
    let page = gold.iter().any(|g| cited.iter().any(|(d, p)| *d == g.doc && (*p == g.page || g.page == ANY_PAGE)));
    let doc = gold.iter().any(|g| cited.iter().any(|(d, _)| *d == g.doc));
    (page, doc)
}

/// One fused candidate chunk as the ranking saw it, for fitting and inspecting rerankers.
#[derive(Debug, Clone, Serialize)]
pub struct CandidateRow {
    pub chunk_id: i64,
    pub doc_id: i64,
    pub doc: String,
    pub page: u32,
    pub fused: f32,
    pub lexical_rank: Option<usize>,
    pub lexical_score: Option<f32>,
    pub vector_rank: Option<usize>,
    pub vector_score: Option<f32>,
    pub gold: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct CandidateDump {
    pub id: String,
    pub question: String,
    /// Documents in routing order (file names without extension).
    pub documents: Vec<String>,
    pub candidates: Vec<CandidateRow>,
    /// The pages reranking scored, in fused order, with their features and gold flag.
    pub pages: Vec<PageRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PageRow {
    pub doc: String,
    pub page: u32,
    pub gold: bool,
    pub features: crate::retrieve::rerank::PageFeatures,
}

/// The fused candidates of each question (hybrid search, `depth` chunks) with their keyword
/// and vector ranks and whether their page is a gold page: the raw material for fitting a
/// reranker outside the app and checking it with cross-validation.
pub fn dump_candidates(engine: &Reader, questions: &[Question], depth: usize, base: &SearchParams) -> Result<Vec<CandidateDump>> {
    let mut out = Vec::with_capacity(questions.len());
    for q in questions {
        let params = SearchParams { k: depth, mode: SearchMode::Hybrid, ..base.clone() };
        let results = engine.search(&q.question, &params)?;
        let rank_of = |list: &[(i64, f32)], id: i64| list.iter().position(|(c, _)| *c == id).map(|r| (r + 1, list[r].1));
        let candidates = results
            .hits
            .iter()
            .map(|h| {
                let doc = stem(&h.doc_path);
                let gold = q.evidence.iter().any(|e| e.doc == doc && (e.page == h.span.page || e.page == ANY_PAGE));
                let lexical = rank_of(&results.ranking.lexical, h.chunk_id);
                let vector = rank_of(&results.ranking.vector, h.chunk_id);
                CandidateRow {
                    chunk_id: h.chunk_id,
                    doc_id: h.span.doc_id,
                    doc,
                    page: h.span.page,
                    fused: h.score,
                    lexical_rank: lexical.map(|x| x.0),
                    lexical_score: lexical.map(|x| x.1),
                    vector_rank: vector.map(|x| x.0),
                    vector_score: vector.map(|x| x.1),
                    gold,
                }
            })
            .collect();
        let documents = results
            .documents
            .iter()
            .map(|d| engine.document_path(*d).ok().flatten().map(|p| stem(&p)).unwrap_or_default())
            .collect();
        let pages = results
            .pages
            .iter()
            .map(|p| {
                let doc = engine.document_path(p.doc_id).ok().flatten().map(|d| stem(&d)).unwrap_or_default();
                let gold = q.evidence.iter().any(|e| e.doc == doc && (e.page == p.page || e.page == ANY_PAGE));
                PageRow { doc, page: p.page, gold, features: p.features }
            })
            .collect();
        out.push(CandidateDump { id: q.id.clone(), question: q.question.clone(), documents, candidates, pages });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::Question;
    use crate::index::feedback::{as_eval_questions, pilot_feedback, FeedbackStore};

    #[test]
    fn rejected_citations_export_as_questions_eval_reads() {
        let dir = tempfile::tempdir().unwrap();
        let store = FeedbackStore::open(dir.path()).unwrap();
        store.add(&pilot_feedback()).unwrap();
        let jsonl = as_eval_questions(&store.list().unwrap());
        let parsed: Question = serde_json::from_str(jsonl.trim()).unwrap();
        assert_eq!(parsed.question, "How big is the pilot?");
        assert!(parsed.evidence.is_empty(), "a rejected page is no evidence");
    }
}
