//! XLM-RoBERTa sentence models (multilingual-e5, bge-m3 dense) load and embed beside BERT ones.
//! The test writes a tiny model itself: random weights in the tensor layout Hugging Face
//! exports, and a real sentencepiece-style (Unigram) tokenizer file with XLM-R's special tokens.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Device};
use candle_nn::{VarBuilder, VarMap};
use candle_transformers::models::xlm_roberta;
use pagewise_core::embed::{Architecture, Backend, Embedder, SentenceEmbedder, TextRole};
use pagewise_core::lang::Lang;
use tokenizers::models::unigram::Unigram;
use tokenizers::pre_tokenizers::metaspace::{Metaspace, PrependScheme};
use tokenizers::processors::roberta::RobertaProcessing;
use tokenizers::{AddedToken, Tokenizer};

const HIDDEN: usize = 32;

fn config(vocab: usize) -> serde_json::Value {
    serde_json::json!({
        "architectures": ["XLMRobertaModel"],
        "model_type": "xlm-roberta",
        "hidden_size": HIDDEN,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "intermediate_size": 64,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "layer_norm_eps": 1e-5,
        "max_position_embeddings": 66,
        "type_vocab_size": 1,
        "vocab_size": vocab,
        "pad_token_id": 1,
        "bos_token_id": 0,
        "eos_token_id": 2,
        "position_embedding_type": "absolute"
    })
}

/// XLM-R's layout: <s>=0, <pad>=1, </s>=2, <unk>=3, then pieces.
fn write_tokenizer(dir: &Path, han_pieces: usize) -> usize {
    let mut vocab: Vec<(String, f64)> = ["<s>", "<pad>", "</s>", "<unk>"].iter().map(|t| (t.to_string(), 0.0)).collect();
    for word in ["▁", "▁the", "▁heat", "▁pump", "▁was", "▁replaced", "▁in", "▁march", "▁logs", "▁are", "▁kept", "▁days"] {
        vocab.push((word.to_string(), -2.0));
    }
    for c in 'a'..='z' {
        vocab.push((c.to_string(), -5.0));
    }
    for c in (0x4E00u32..).filter_map(char::from_u32).take(han_pieces) {
        vocab.push((c.to_string(), -6.0));
    }
    let size = vocab.len();
    let mut tokenizer = Tokenizer::new(Unigram::from(vocab, Some(3), false).unwrap());
    tokenizer.with_pre_tokenizer(Some(Metaspace::new('▁', PrependScheme::Always, true)));
    tokenizer.with_post_processor(Some(RobertaProcessing::new(("</s>".into(), 2), ("<s>".into(), 0))));
    tokenizer.add_special_tokens(["<s>", "<pad>", "</s>", "<unk>"].map(|t| AddedToken::from(t, true))).unwrap();
    tokenizer.save(dir.join("tokenizer.json"), false).unwrap();
    size
}

/// Random weights under `prefix` ("" as XLMRobertaModel exports, "roberta" as task models do).
fn write_model(dir: &Path, prefix: &str, han_pieces: usize) {
    let vocab = write_tokenizer(dir, han_pieces);
    let config = config(vocab);
    std::fs::write(dir.join("config.json"), serde_json::to_vec_pretty(&config).unwrap()).unwrap();
    let parsed: xlm_roberta::Config = serde_json::from_value(config).unwrap();
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu);
    let vb = if prefix.is_empty() { vb } else { vb.pp(prefix) };
    xlm_roberta::XLMRobertaModel::new(&parsed, vb).unwrap();
    varmap.save(dir.join("model.safetensors")).unwrap();
    let pooling = dir.join("1_Pooling");
    std::fs::create_dir_all(&pooling).unwrap();
    std::fs::write(pooling.join("config.json"), r#"{"pooling_mode_mean_tokens": true}"#).unwrap();
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn a_tiny_xlm_roberta_model_loads_and_embeds() {
    for prefix in ["", "roberta"] {
        let dir = tempfile::tempdir().unwrap();
        write_model(dir.path(), prefix, 40);
        let embedder = SentenceEmbedder::load(dir.path()).unwrap_or_else(|e| panic!("prefix {prefix:?}: {e}"));
        assert_eq!(embedder.architecture(), Architecture::XlmRoberta);
        assert_eq!(embedder.dimensions(), HIDDEN);
        // 66 positions, counted from after the padding index: 64 tokens fit.
        assert_eq!(embedder.sentence_config().max_seq_length, 64);

        let texts: Vec<String> =
            ["the heat pump was replaced in march", "logs are kept days", "一丁七万丈三上下"].iter().map(|s| s.to_string()).collect();
        let batch = embedder.embed(&texts, TextRole::Passage).unwrap();
        assert_eq!(batch.len(), 3);
        for v in &batch {
            assert_eq!(v.len(), HIDDEN);
            assert!(v.iter().all(|x| x.is_finite()));
            assert!((cosine(v, v) - 1.0).abs() < 1e-4, "not unit length");
        }
        assert!(cosine(&batch[0], &batch[1]) < 0.999, "different texts, same vector");
        // Padding must not leak into a text's vector: alone or padded in a batch, the same.
        for (i, text) in texts.iter().enumerate() {
            let alone = embedder.embed(std::slice::from_ref(text), TextRole::Passage).unwrap();
            assert!(cosine(&alone[0], &batch[i]) > 0.9999, "text {i} changed when batched (prefix {prefix:?})");
        }
        // Inputs beyond the position table are cut, not an error.
        let long = vec!["the heat pump ".repeat(200)];
        assert_eq!(embedder.embed(&long, TextRole::Query).unwrap()[0].len(), HIDDEN);
    }
}

#[test]
fn coverage_of_a_language_follows_the_vocabulary() {
    let few = tempfile::tempdir().unwrap();
    write_model(few.path(), "", 40);
    let few = SentenceEmbedder::load(few.path()).unwrap();
    assert!(few.covers(Lang::En));
    assert!(!few.covers(Lang::Zh), "{:?}", few.coverage());

    let many = tempfile::tempdir().unwrap();
    write_model(many.path(), "", 3000);
    let many = SentenceEmbedder::load(many.path()).unwrap();
    assert!(many.covers(Lang::Zh), "{:?}", many.coverage());
    assert!(!many.covers(Lang::Ko));
}

#[test]
fn a_config_of_another_architecture_is_refused_with_its_name() {
    let dir = tempfile::tempdir().unwrap();
    write_model(dir.path(), "", 10);
    let mut config: HashMap<String, serde_json::Value> =
        serde_json::from_slice(&std::fs::read(dir.path().join("config.json")).unwrap()).unwrap();
    config.insert("model_type".into(), "gpt2".into());
    std::fs::write(dir.path().join("config.json"), serde_json::to_vec(&config).unwrap()).unwrap();
    let err = SentenceEmbedder::load(dir.path()).err().expect("a GPT-2 config loaded as an embedder").to_string();
    assert!(err.contains("gpt2"), "{err}");
}

#[test]
fn the_blas_encoder_gives_candles_vectors_for_xlm_roberta() {
    for prefix in ["", "roberta"] {
        let dir = tempfile::tempdir().unwrap();
        write_model(dir.path(), prefix, 40);
        let blas = SentenceEmbedder::load_with(dir.path(), Some(Backend::Blas)).unwrap();
        let candle = SentenceEmbedder::load_with(dir.path(), Some(Backend::Candle)).unwrap();
        let texts: Vec<String> = ["the heat pump was replaced in march", "logs are kept days", "一丁七万", ""].iter().map(|s| s.to_string()).collect();
        let a = blas.embed(&texts, TextRole::Passage).unwrap();
        let b = candle.embed(&texts, TextRole::Passage).unwrap();
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            assert!(cosine(x, y) > 0.9999, "prefix {prefix:?}, text {i}: cosine {}", cosine(x, y));
        }
    }
}
