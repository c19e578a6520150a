//! Search's stages one by one on a small real library: each hands the next what it needs
//! (`retrieve::search`).

use super::test_library::test_library;
use crate::lang::Lang;
use crate::retrieve::search::{document_order, fuse_with_documents, Records};
use crate::retrieve::{SearchMode, SearchParams, StageTimes};

fn doc_of(records: &Records, id: i64) -> std::path::PathBuf {
    records[&id].doc_path.clone()
}

#[test]
fn each_stage_hands_the_next_what_it_needs_on_a_real_library() {
    let lib = test_library();
    lib.with_retriever(|r| {
        let docs = r.catalog.all_documents()?;
        let budget = docs.iter().find(|d| d.path.ends_with("budget.md")).unwrap().doc_id;
        let query = "who replaced the Kettlewick heat pump";
        let params = SearchParams::default();

        // route: no scope and no organisation named → everything; an English question
        // is read by MiniLM.
        let plan = r.plan(query, &params)?;
        assert_eq!((plan.scope.clone(), plan.language_gap), (None, None));
        assert_eq!(plan.candidates, params.candidates);
        let scoped = r.plan(query, &SearchParams { documents: Some(vec![budget, budget]), ..params.clone() })?;
        assert_eq!(scoped.scope, Some(vec![budget]), "the caller's documents, once each");
        let chinese = r.plan("热泵是谁换的", &params)?;
        assert_eq!(chinese.language_gap, Some(Lang::Zh));
        assert!(chinese.fusion.vector_weight < plan.fusion.vector_weight, "vectors count less where the model cannot read");

        // lexical and embed: the keyword list finds the pump's passage; the query has its vector.
        let mut stages = StageTimes::default();
        let first = r.first_lists(query, &params, &plan, &mut stages)?;
        assert!(!first.lexical.is_empty());
        let query_vector = first.query_vector.clone().expect("hybrid search embeds the question");
        assert_eq!(query_vector.len(), r.embedder.dimensions());
        assert!(first.vectors_unavailable.is_none());
        let keyword_only = r.first_lists(query, &SearchParams { mode: SearchMode::Lexical, ..params.clone() }, &plan, &mut stages)?;
        assert!(keyword_only.query_vector.is_none(), "a keyword search does not embed");

        // vector: within the plan's scope only.
        let everywhere = r.vector_list(Some(&query_vector), &plan)?;
        let in_budget = r.vector_list(Some(&query_vector), &scoped)?;
        assert!(everywhere.len() > in_budget.len() && !in_budget.is_empty());
        let budget_records = r.fetch(&[], &in_budget)?;
        assert!(in_budget.iter().all(|(id, _)| doc_of(&budget_records, *id).ends_with("budget.md")));
        assert!(r.vector_list(None, &plan)?.is_empty());

        // expand keeps what the keyword list found; fetch reads every candidate once.
        let lexical = r.expand(query, &params, &plan, first.lexical.clone(), &everywhere)?;
        assert!(first.lexical.iter().all(|(id, _)| lexical.iter().any(|(l, _)| l == id)), "{lexical:?}");
        let records = r.fetch(&lexical, &everywhere)?;
        let mut ids: Vec<i64> = lexical.iter().chain(&everywhere).map(|(id, _)| *id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(records.len(), ids.len());

        // rank: the pump's passage leads, and k caps the hits.
        let fused = fuse_with_documents(&lexical, &everywhere, &first.documents, &records, &plan, params.mode);
        let (fused, pages) = r.rerank(query, fused, &records)?;
        assert!(!pages.is_empty());
        assert!(doc_of(&records, fused[0].0).ends_with("pumps.md"));
        let order = document_order(&fused, &records, &first.documents, &plan);
        assert_eq!(order.len(), 2, "{order:?}");
        let hits = r.choose_hits(fused.clone(), &records, None, 1)?;
        assert_eq!(hits.len(), 1);
        assert!(hits[0].text.contains("Ostara Supplies"), "{}", hits[0].text);
        assert_eq!(r.choose_hits(fused, &records, None, 10)?.len(), records.len());

        // The whole line gives the same first hit and times each stage.
        let results = r.search(query, &params)?;
        assert_eq!(results.hits[0].chunk_id, hits[0].chunk_id);
        assert!(results.stages.total_ms >= results.stages.rank_ms);
        assert!(results.semantic_complete);
        Ok(())
    });
}
