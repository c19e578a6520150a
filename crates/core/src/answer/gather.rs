//! Stage `gather` of asking: everything the question needs from the library, read once — the
//! plan's searches, the statement rows the question asks for, the evidence within the model's
//! budget, the passages' and the question's vectors, and the retrieval signals the abstain
//! rule reads. The stages after it read only what it returns.

use std::collections::HashMap;
use std::time::Instant;

use serde_json::json;

use super::abstain::{self, LibraryView, RetrievalSignals};
use super::asker::Asker;
use super::evidence::EvidenceSet;
use super::outcome::{ms, send, AskEvent, Sink};
use super::plan::{Plan, MAX_STEPS};
use super::stages::Stages;
use super::tools::{Found, Toolbox};
use super::compute::{self, Computation};
use super::lookup;
use crate::embed::TextRole;
use crate::engine::Queries;
use crate::error::Result;
use crate::index::DocumentInfo;
use crate::lang::Lang;
use crate::retrieve::{Hit, Ranking};

/// What the question needs, as read from the library.
pub(super) struct Gathered {
    /// What the model reads: the statement rows asked for first, then the hits, within the
    /// evidence budget.
    pub evidence: EvidenceSet,
    pub passage_vectors: HashMap<i64, Vec<f32>>,
    pub signals: RetrievalSignals,
    pub retrieve_ms: f64,
    /// The question's language when the embedding model does not read it.
    pub language_gap: Option<Lang>,
    /// The figure the question asks for, computed from statement cells, when it asks for one
    /// the statements give (their passages lead the evidence).
    pub computation: Option<Computation>,
}

/// The plan's searches merged, with the last search's candidate lists and embedding.
struct Searched {
    hits: Vec<Hit>,
    ranking: Option<Ranking>,
    /// The last searched query and its embedding.
    query_vector: Option<(String, Vec<f32>)>,
}

impl Asker<'_> {
    pub(super) fn gather(&self, tools: &mut Toolbox<'_>, query: &str, the_plan: &Plan, started: Instant, sink: &mut Sink<'_>) -> Result<Gathered> {
        let searched = self.search_plan(tools, query, the_plan, sink)?;
        // The abstain rule's thresholds were fitted on 700 tokens of passages in fused order
        // (before page reranking); it keeps seeing that, whatever the model is given.
        let mut fused_order = searched.hits.clone();
        fused_order.sort_by(|a, b| b.score.total_cmp(&a.score));
        let count = |t: &str| self.count_tokens(t);
        let calibrated = EvidenceSet::from_hits(&fused_order, &tools.documents, abstain::SIGNAL_EVIDENCE_TOKENS, &count);
        // The statement row the question asks for leads the evidence (not the abstain rule's
        // view above, which keeps the retrieval it was fitted on).
        let hits = self.with_statement_rows(tools, query, searched.hits, sink)?;
        let (hits, computation, cells_cost) = self.with_computation(tools, query, hits, sink)?;
        let retrieve_ms = ms(started);
        // The cells a computation read are cited whatever the model's budget (it writes none of it).
        let evidence = EvidenceSet::from_hits(&hits, &tools.documents, self.evidence_tokens() + cells_cost, &count);
        // A plain plan searched with this very query: its embedding is already there.
        let query_vector = match searched.query_vector {
            Some((searched, vector)) if searched == query => Some(vector),
            _ => self.reader.embedder().embed(&[query.to_string()], TextRole::Query)?.into_iter().next(),
        };
        let mut chunk_ids: Vec<i64> =
            evidence.pages.iter().chain(&calibrated.pages).flat_map(|p| p.passages.iter().map(|x| x.chunk_id)).collect();
        chunk_ids.sort_unstable();
        chunk_ids.dedup();
        let passage_vectors = self.reader.vectors_of(&chunk_ids)?;
        let frequencies = |words: &[String]| self.reader.document_frequencies(words).unwrap_or_else(|_| vec![1; words.len()]);
        // For a plan of several searches this is the last one's: each covers part of the question.
        let library = LibraryView { frequencies: &frequencies, chunks: self.reader.passage_count()?, ranking: searched.ranking.as_ref() };
        let signals = abstain::signals(query, &calibrated, query_vector.as_deref(), &passage_vectors, &library);
        let lang = Lang::of(query);
        let language_gap = (!self.reader.embedder().covers(lang)).then_some(lang);
        Ok(Gathered { evidence, passage_vectors, signals, retrieve_ms, language_gap, computation })
    }

    /// Runs the plan's searches (at most [`MAX_STEPS`]) and merges their hits so that each
    /// sub-query is represented near the top.
    fn search_plan(&self, tools: &mut Toolbox<'_>, query: &str, the_plan: &Plan, sink: &mut Sink<'_>) -> Result<Searched> {
        // Enough passages to fill the evidence budget (passages average about 100 tokens).
        let k = self.options.k.max(self.evidence_tokens() / 90);
        let searches: Vec<(&str, usize, &[i64])> = match the_plan {
            Plan::Decompose { subqueries } => {
                let per = (k / subqueries.len()).max(3);
                subqueries.iter().take(MAX_STEPS - 2).map(|sq| (sq.query.as_str(), per, sq.doc_ids.as_slice())).collect()
            }
            _ => vec![(query, k, &[])],
        };
        let mut searched = Searched { hits: Vec::new(), ranking: None, query_vector: None };
        let mut lists = Vec::new();
        for (text, k, doc_ids) in searches {
            let Found { hits, ranking, query_vector } = tools.search_docs(text, k, doc_ids);
            if let Some(step) = tools.steps.last() {
                send(sink, AskEvent::Step(step))?;
            }
            lists.push(hits);
            // A failed search keeps the lists of the one before.
            if ranking.is_some() {
                searched.ranking = ranking;
                searched.query_vector = query_vector.map(|v| (text.to_string(), v));
            }
        }
        let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
        for i in 0..longest {
            for hit in lists.iter().filter_map(|list| list.get(i)) {
                if !searched.hits.iter().any(|m| m.chunk_id == hit.chunk_id) {
                    searched.hits.push(hit.clone());
                }
            }
        }
        Ok(searched)
    }

    /// `hits` led by the passages that hold the table rows the question asks for
    /// ([`lookup::statement_rows`]), each once; the lookup is a step of the trace.
    fn with_statement_rows(&self, tools: &mut Toolbox<'_>, query: &str, hits: Vec<Hit>, sink: &mut Sink<'_>) -> Result<Vec<Hit>> {
        let t = Instant::now();
        let (rows, found) = lookup::statement_rows(self.reader, query, &hits)?;
        if rows.is_empty() {
            return Ok(hits);
        }
        let said: Vec<String> = found.iter().map(|r| format!("p.{} {} · {}: {}", r.page, r.row, r.column, r.value)).collect();
        send(sink, AskEvent::Step(tools.record("lookup_rows", json!({"query": query}), said.join("\n"), t)))?;
        let leading: Vec<i64> = rows.iter().map(|r| r.chunk_id).collect();
        let mut led = rows;
        led.extend(hits.into_iter().filter(|h| !leading.contains(&h.chunk_id)));
        Ok(led)
    }

    /// The computation the question asks for ([`compute::compute`]) over the documents of
    /// `hits`, with the passages of the cells it read leading `hits` and the tokens they take;
    /// a step of the trace.
    fn with_computation(&self, tools: &mut Toolbox<'_>, query: &str, hits: Vec<Hit>, sink: &mut Sink<'_>) -> Result<(Vec<Hit>, Option<Computation>, usize)> {
        if !self.options.compute {
            return Ok((hits, None, 0));
        }
        let t = Instant::now();
        let mut ranked = Vec::new();
        for h in &hits {
            if let Some(d) = tools.documents.get(&h.span.doc_id).filter(|d| !ranked.iter().any(|r: &DocumentInfo| r.doc_id == d.doc_id)) {
                ranked.push(d.clone());
            }
        }
        // The rest of the library after them: a year's annual report may not be among the hits.
        let mut rest: Vec<&DocumentInfo> = tools.documents.values().filter(|d| !ranked.iter().any(|r| r.doc_id == d.doc_id)).collect();
        rest.sort_by_key(|d| d.doc_id);
        ranked.extend(rest.into_iter().cloned());
        let Some(computation) = compute::compute(self.reader, query, &ranked)? else { return Ok((hits, None, 0)) };
        let formulas: Vec<String> = computation.values.iter().map(|v| format!("{}: {} = {}", v.period, v.formula, v.value)).collect();
        send(sink, AskEvent::Step(tools.record("compute", json!({"query": query, "metric": computation.name}), formulas.join("\n"), t)))?;
        let top = hits.iter().map(|h| h.score).fold(0.0f32, f32::max);
        let mut led: Vec<Hit> = Vec::new();
        for operand in computation.operands() {
            let passages = self.reader.page_passages(operand.doc_id, operand.page)?;
            let Some(record) = passages.into_iter().find(|p| p.span.byte_start <= operand.line.start && operand.line.start < p.span.byte_end) else {
                continue;
            };
            if led.iter().any(|h| h.chunk_id == record.id) {
                continue;
            }
            let also_in = hits.iter().find(|h| h.span.doc_id == operand.doc_id).map(|h| h.also_in.clone()).unwrap_or_default();
            led.push(Hit::of(led.len() + 1, record, top + 1.0, also_in));
        }
        let leading: Vec<i64> = led.iter().map(|h| h.chunk_id).collect();
        let cost = led.iter().map(|h| self.count_tokens(&super::facts::table::for_reader(&h.text)) + 24).sum();
        led.extend(hits.into_iter().filter(|h| !leading.contains(&h.chunk_id)));
        Ok((led, Some(computation), cost))
    }
}
