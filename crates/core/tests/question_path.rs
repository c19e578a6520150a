//! The question path over real stores and the real embedding model: a plain question is
//! embedded once, not once for the search and again for attribution.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use pagewise_core::answer::{AskOptions, Asker};
use pagewise_core::progress::Silent;
use pagewise_core::{models, EngineConfig, Queries, Reader, Writer};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

#[test]
fn a_plain_question_is_embedded_once() {
    std::env::set_var("PAGEWISE_MODELS_DIR", repo().join("models"));
    let data = tempfile::tempdir().unwrap();
    let config = EngineConfig::new(data.path().to_path_buf(), models::locate(None, None).expect("models: run models/fetch.sh"));
    let writer = Writer::open(config.clone()).unwrap();
    writer.index_paths(&[repo().join("assets/sample")], true, &Silent, &AtomicBool::new(false)).unwrap();
    let engine = Reader::open_sharing(config, writer.embedder_handle()).unwrap();

    let asker = Asker { reader: &engine, generator: None, options: AskOptions::default() };
    let before = engine.embedder().queries_embedded();
    let answer = asker.ask("how long do we keep logs in hot storage?", None, &mut |_| true).unwrap();
    assert!(!answer.abstained, "{}", answer.answer);
    assert!(answer.answer.contains("30 days"), "{}", answer.answer);
    assert_eq!(engine.embedder().queries_embedded() - before, 1, "the question was embedded more than once");
}

/// Figure questions over a real statements PDF (read by PDFium, embedded by MiniLM): the
/// answer is computed from cited statement cells, never from the note that repeats a row
/// name, and not at all for a company the library does not hold or a question of why.
#[test]
fn figures_are_computed_from_cited_statement_cells() {
    use pagewise_core::answer::{Answer, AnswerMode, SentenceStatus};
    std::env::set_var("PAGEWISE_MODELS_DIR", repo().join("models"));
    let data = tempfile::tempdir().unwrap();
    let folder = tempfile::tempdir().unwrap();
    std::fs::copy(repo().join("tests/fixtures/statements.pdf"), folder.path().join("northwind-2023.pdf")).unwrap();
    let config = EngineConfig::new(data.path().to_path_buf(), models::locate(None, None).expect("models: run models/fetch.sh"));
    let writer = Writer::open(config.clone()).unwrap();
    writer.index_paths(&[folder.path().to_path_buf()], true, &Silent, &AtomicBool::new(false)).unwrap();
    let engine = Reader::open_sharing(config, writer.embedder_handle()).unwrap();
    let asker = Asker { reader: &engine, generator: None, options: AskOptions::default() };
    let ask = |q: &str| -> Answer { asker.ask(q, None, &mut |_| true).unwrap() };

    let ratio = ask("What was Northwind Ceramics' current ratio in 2023?");
    assert_eq!(ratio.mode, AnswerMode::Computed, "{}", ratio.answer);
    let sentence = &ratio.sentences[0];
    assert_eq!(sentence.status, SentenceStatus::Computed);
    assert!(sentence.text.contains("18,700") && sentence.text.contains("9,350") && sentence.text.ends_with("= 2.00."), "{}", sentence.text);
    assert_eq!(sentence.citations.len(), 2);
    for c in &sentence.citations {
        assert_eq!(c.span.page, 3, "the balance sheet");
        assert!(c.quote.starts_with("Total current"), "the cited row: {}", c.quote);
        // The cell the formula used and its column's title, marked when the page opens.
        let text = engine.page_text(c.span.doc_id, 3).unwrap().unwrap();
        let marked: Vec<&str> = c.focus.iter().flatten().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(marked.len(), 2, "{marked:?}");
        assert!(["18,700", "9,350"].contains(&marked[0]) && marked[1] == "December 31, 2023", "{marked:?}");
    }

    let quick = ask("Did the quick ratio improve from 2022 to 2023?");
    assert_eq!(quick.mode, AnswerMode::Computed, "{}", quick.answer);
    assert!(quick.sentences[0].text.contains("rose by 0.12"), "{}", quick.answer);
    assert!(quick.answer.contains("1.09") && quick.answer.contains("1.21"), "{}", quick.answer);
    assert!(quick.sentences.iter().flat_map(|s| &s.citations).all(|c| c.span.page == 3), "never the note's inventories");

    // Listed in two classes under an "Inventories:" heading with no total: their sum.
    let inventories = ask("What were total inventories at the end of 2023?");
    assert_eq!(inventories.mode, AnswerMode::Computed, "{}", inventories.answer);
    assert!(inventories.answer.contains("Raw materials and supplies 3,000 + Finished goods 4,400) = $7,400 thousand"), "{}", inventories.answer);
    assert_eq!(inventories.sentences[0].citations.len(), 2, "each class's row cited");

    // Tax shown as "(expense)/benefit": the expense is the row's figure negated.
    let tax = ask("effective tax rate in 2023");
    assert_eq!(tax.mode, AnswerMode::Computed, "{}", tax.answer);
    assert!(tax.answer.contains("income tax expense 1,775 (row “Income tax (expense)/benefit”: (1,775)) / Income before income taxes 7,100 = 25.0%"), "{}", tax.answer);
    assert_eq!(tax.sentences[0].status, SentenceStatus::Computed);

    let defined = ask("What is the 2023 asset coverage? Asset coverage is defined as: total assets / total liabilities.");
    assert!(defined.answer.contains("Asset coverage for 2023 = Total assets 40,000 / Total liabilities 17,350 = 2.31"), "{}", defined.answer);

    let margin = ask("operating margin 2023?");
    assert!(margin.answer.contains("7,500 / Revenue 48,200 = 15.6%"), "{}", margin.answer);

    for not_computed in ["What was Globex's current ratio in 2023?", "What drove the increase in inventories in 2023?"] {
        assert_ne!(ask(not_computed).mode, AnswerMode::Computed, "{not_computed}");
    }
}
