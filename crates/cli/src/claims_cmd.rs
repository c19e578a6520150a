//! `pagewise bench-claims`: the claim check on a labelled claim set, so its recall on
//! unsupported claims and its false alarms on supported ones can be measured and compared.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use pagewise_core::answer::attribute::{attribute, SentenceStatus, Vectors};
use pagewise_core::answer::evidence::{label, EvidencePage, EvidencePassage, EvidenceSet};
use pagewise_core::answer::support::{source_names, support, ClaimFacts};
use pagewise_core::answer::cite::Claim;
use pagewise_core::embed::{SentenceEmbedder, Embedder, TextRole};
use serde_json::json;

use crate::Context_;

#[derive(Args)]
pub struct ClaimsBenchArgs {
    /// JSON lines: {"id", "claim", "label": "supported"|"unsupported", "evidence": [{"title",
    /// "page", "heading_path", "text"}]}.
    input: PathBuf,
    /// Write one prediction per claim here (JSON lines).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also ask this GGUF chat model, as a judge, whether each claim is stated in its evidence.
    #[arg(long)]
    judge: Option<PathBuf>,
}

pub fn run(ctx: &Context_, args: ClaimsBenchArgs) -> Result<i32> {
    let models = pagewise_core::models::locate(Some(&ctx.data_dir), ctx.embed_model.as_deref())?;
    let embedder = SentenceEmbedder::load(&models.embedder_dir)?;
    let judge = match &args.judge {
        Some(path) => Some(crate::ask_cmd::load_generator(ctx, Some(path), None, None)?),
        None => None,
    };
    let file = std::fs::File::open(&args.input).with_context(|| args.input.display().to_string())?;
    let mut out = match &args.out {
        Some(p) => Some(std::fs::File::create(p).with_context(|| p.display().to_string())?),
        None => None,
    };
    let (mut tp, mut fn_, mut fp, mut tn) = (0usize, 0usize, 0usize, 0usize);
    for line in std::io::BufReader::new(file).lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let item: serde_json::Value = serde_json::from_str(&line)?;
        let claim = item["claim"].as_str().unwrap_or_default().to_string();
        let mut pages = Vec::new();
        let mut texts = Vec::new();
        for (i, e) in item["evidence"].as_array().into_iter().flatten().enumerate() {
            let text = e["text"].as_str().unwrap_or_default().to_string();
            let heading_path: Vec<String> =
                e["heading_path"].as_array().into_iter().flatten().filter_map(|h| h.as_str().map(String::from)).collect();
            let handle = i as u32 + 1;
            let page = e["page"].as_u64().unwrap_or(1) as u32;
            texts.push(text.clone());
            pages.push(EvidencePage {
                label: label(handle, page),
                doc_handle: handle,
                doc_id: i64::from(handle),
                doc_path: PathBuf::from(e["title"].as_str().unwrap_or_default()),
                doc_title: e["title"].as_str().unwrap_or_default().to_string(),
                page,
                modified: String::new(),
                passages: vec![EvidencePassage {
                    chunk_id: i as i64 + 1,
                    span: pagewise_core::span::Span { doc_id: i64::from(handle), page, byte_start: 0, byte_end: text.len() },
                    heading_path, text, score: 1.0 }],
                score: 1.0,
                also_in: Vec::new(),
                facets: None,
            });
        }
        let evidence = EvidenceSet { pages };
        let passage_vectors: HashMap<i64, Vec<f32>> =
            embedder.embed(&texts, TextRole::Passage)?.into_iter().enumerate().map(|(i, v)| (i as i64 + 1, v)).collect();
        let claim_vector = embedder.embed(std::slice::from_ref(&claim), TextRole::Query)?;
        let vectors = Vectors { claims: claim_vector.into_iter().map(Some).collect(), passages: &passage_vectors };
        let question = item["question"].as_str().unwrap_or_default();
        let (sentences, _) = attribute(question, &[Claim { text: claim.clone(), labels: Vec::new() }], &evidence, &vectors);
        let flagged = sentences.first().is_none_or(|s| s.status == SentenceStatus::Unsupported);
        let unsupported = item["label"].as_str() == Some("unsupported");
        match (unsupported, flagged) {
            (true, true) => tp += 1,
            (true, false) => fn_ += 1,
            (false, true) => fp += 1,
            (false, false) => tn += 1,
        }
        if let Some(f) = out.as_mut() {
            use std::io::Write;
            // The best support over all passages, flagged or not, for threshold sweeps.
            let names = source_names(evidence.pages.iter().flat_map(|p| p.passages.iter().map(|x| x.text.as_str())));
            let facts = ClaimFacts::of(&claim).in_reply_to(question, &names);
            let support = evidence
                .pages
                .iter()
                .flat_map(|p| p.passages.iter().map(move |x| (p, x)))
                .map(|(p, x)| support(&facts, vectors.claims[0].as_ref(), x, &p.doc_title, passage_vectors.get(&x.chunk_id)).score)
                .fold(0.0f32, f32::max);
            let judged = judge.as_ref().and_then(|g| pagewise_core::answer::judge::claim_supported(g, question, &evidence, &claim));
            writeln!(f, "{}", json!({"id": item["id"], "label": item["label"], "flagged": flagged, "support": support, "judge_yes": judged}))?;
        }
    }
    let frac = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let summary = json!({
        "claims": tp + fn_ + fp + tn,
        "unsupported": tp + fn_,
        "supported": fp + tn,
        "recall_unsupported": frac(tp, tp + fn_),
        "precision_unsupported": frac(tp, tp + fp),
        "supported_flagged": frac(fp, fp + tn),
    });
    println!("{}", serde_json::to_string_pretty(&summary)?);
    Ok(0)
}
