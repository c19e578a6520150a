//! The BLAS encoder gives the vectors candle's models give, on the real all-MiniLM-L6-v2
//! (short, long, truncated, Chinese and empty texts) and on a tiny XLM-RoBERTa (whose
//! positions count after the padding index), and a text's vector does not depend on the
//! batch it is padded in.

#![allow(clippy::unwrap_used)] // test helpers: a failed step should stop the test loudly

use pagewise_core::embed::{Backend, Embedder, SentenceEmbedder, TextRole};
use pagewise_core::models;

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn texts() -> Vec<String> {
    let long = "The cooperative's battery bank stores energy for the evening peak and the inverters are checked each quarter. ".repeat(30);
    vec![
        "total installed capacity at the end of 2024".into(),
        "How many days of paid vacation do employees get?".into(),
        long,
        "检索增强生成在回答问题前先检索相关文档。".into(),
        String::new(),
        "Net revenue was $1,577 million in fiscal 2023, up 4% (Table 3: segment results by region)".into(),
    ]
}

#[test]
fn blas_and_candle_agree_on_minilm() {
    let dir = models::locate(None, None).expect("models: run models/fetch.sh").embedder_dir;
    let blas = SentenceEmbedder::load_with(&dir, Some(Backend::Blas)).unwrap();
    let candle = SentenceEmbedder::load_with(&dir, Some(Backend::Candle)).unwrap();
    assert_eq!(blas.backend(), Backend::Blas);
    assert_eq!(candle.backend(), Backend::Candle);
    assert_eq!(blas.model_id(), candle.model_id(), "the backend is not part of the model's identity");
    let texts = texts();
    let a = blas.embed(&texts, TextRole::Passage).unwrap();
    let b = candle.embed(&texts, TextRole::Passage).unwrap();
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(x.len(), 384);
        let norm: f32 = x.iter().map(|v| v * v).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "text {i}: unit length, got {norm}");
        let c = cosine(x, y);
        assert!(c > 0.9999, "text {i}: cosine to candle {c}");
    }
    // Alone or padded beside a long text: the same vector.
    let alone = blas.embed(&texts[..1], TextRole::Query).unwrap();
    let batched = blas.embed(&[texts[2].clone(), texts[0].clone()], TextRole::Query).unwrap();
    assert!(cosine(&alone[0], &batched[1]) > 0.99999, "padding changed a vector: {}", cosine(&alone[0], &batched[1]));
    // And what the vectors are for: a paraphrase is nearer than an unrelated sentence.
    let v = blas
        .embed(&["the solar farm's capacity".into(), "how large is the solar installation".into(), "the cafeteria menu on friday".into()], TextRole::Passage)
        .unwrap();
    assert!(cosine(&v[0], &v[1]) > cosine(&v[0], &v[2]) + 0.2, "{} vs {}", cosine(&v[0], &v[1]), cosine(&v[0], &v[2]));
}
