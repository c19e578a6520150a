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
