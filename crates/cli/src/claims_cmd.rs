//! `pagewise-dev bench-claims`: the claim check on labelled claim sets, so its recall on
//! unsupported claims and its false alarms on supported ones can be measured per kind of error,
//! per language and per library, on the half of the sources it was calibrated on and on the
//! half it never was.

use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use pagewise_core::answer::{attribute, SentenceStatus, Vectors};
use pagewise_core::answer::Claim;
use pagewise_core::answer::{label, EvidencePage, EvidencePassage, EvidenceSet};
use pagewise_core::answer::settle_unsure;
use pagewise_core::answer::{source_names, ClaimFacts};
use pagewise_core::embed::{Embedder, SentenceEmbedder, TextRole};
use serde_json::json;

use crate::CommandContext;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Split {
    /// Sources the rules' thresholds may be read off.
    Calibrate,
    /// Sources never looked at while calibrating.
    Test,
    All,
}

#[derive(Args)]
pub struct ClaimsBenchArgs {
    /// Files or folders of JSON lines: {"id", "claim", "label": "supported"|"unsupported",
    /// "kind", "lang", "library", "source", "question", "evidence": [{"title", "page",
    /// "heading_path", "text"}]}. A folder means every .jsonl file in it.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Which sources to check: each source document falls in one half by a hash of its name.
    #[arg(long, value_enum, default_value = "all")]
    split: Split,
    /// Write one prediction per claim here (JSON lines).
    #[arg(long)]
    out: Option<PathBuf>,
    /// A GGUF chat model that judges the claims the rules leave unsure, as answers do.
    #[arg(long)]
    judge: Option<PathBuf>,
    /// With --judge: also ask the judge about every claim and record its probability of
    /// "yes" in --out (for studying when to ask it; the verdicts stay those of the policy).
    #[arg(long, requires = "judge")]
    judge_all: bool,
}

/// The half a source document falls in: a hash of its library and name, so that no document
/// has claims on both sides and the assignment never changes.
pub fn split_of(library: &str, source: &str) -> Split {
    // FNV-1a: stable across Rust versions, unlike the standard hasher.
    let hash = format!("{library}/{source}").bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    if hash % 2 == 0 {
        Split::Calibrate
    } else {
        Split::Test
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    claims: usize,
    flagged: usize,
}

#[derive(Default)]
struct Totals {
    tp: usize,
    fn_: usize,
    fp: usize,
    tn: usize,
    by_kind: BTreeMap<String, Tally>,
    by_lang: BTreeMap<String, [Tally; 2]>,
    by_library: BTreeMap<String, [Tally; 2]>,
    reasons: BTreeMap<String, BTreeMap<String, usize>>,
    rules_ms: Vec<f64>,
    judged: usize,
    judge_ms: f64,
}

/// The .jsonl files of the inputs, folders read recursively, in name order.
fn files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut entries: Vec<PathBuf> =
                std::fs::read_dir(input).with_context(|| input.display().to_string())?.filter_map(|e| e.ok().map(|e| e.path())).collect();
            entries.sort();
            for path in entries {
                if path.is_dir() {
                    out.extend(files(&[path])?);
                } else if path.extension().is_some_and(|x| x == "jsonl") {
                    out.push(path);
                }
            }
        } else {
            out.push(input.clone());
        }
    }
    Ok(out)
}

fn evidence_of(item: &serde_json::Value) -> (EvidenceSet, Vec<String>) {
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
                heading_path,
                text,
                score: 1.0,
            }],
            score: 1.0,
            also_in: Vec::new(),
            facets: None,
        });
    }
    (EvidenceSet { pages }, texts)
}

pub fn run(ctx: &CommandContext, args: ClaimsBenchArgs) -> Result<i32> {
    let models = pagewise_core::models::locate(Some(&ctx.data_dir), ctx.embed_model.as_deref())?;
    let embedder = SentenceEmbedder::load(&models.embedder_dir)?;
    let judge = match &args.judge {
        Some(path) => Some(crate::ask_cmd::load_generator(ctx, Some(path), None, None)?),
        None => None,
    };
    let mut out = match &args.out {
        Some(p) => Some(std::fs::File::create(p).with_context(|| p.display().to_string())?),
        None => None,
    };
    let mut t = Totals::default();
    for path in files(&args.inputs)? {
        let file = std::fs::File::open(&path).with_context(|| path.display().to_string())?;
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let item: serde_json::Value =
                serde_json::from_str(&line).with_context(|| format!("{} line {}", path.display(), n + 1))?;
            let library = item["library"].as_str().unwrap_or("unknown");
            let source = item["source"].as_str().unwrap_or_else(|| item["id"].as_str().unwrap_or_default());
            // Claims written for calibration only (after the first measurement on the test
            // half) say so; the rest fall by their source.
            let split = match item["split"].as_str() {
                Some("calibrate") => Split::Calibrate,
                Some("test") => Split::Test,
                _ => split_of(library, source),
            };
            if args.split != Split::All && split != args.split {
                continue;
            }
            let judging = Judging { judge: judge.as_ref().map(|g| g as &dyn pagewise_core::answer::Generator), every_claim: args.judge_all };
            check_one(&item, &embedder, &judging, &mut t, out.as_mut(), split, library)?;
        }
    }
    print_summary(&t, args.judge.is_some())?;
    Ok(0)
}

/// The chat model that judges, and whether it is asked about every claim or only the unsure.
struct Judging<'a> {
    judge: Option<&'a dyn pagewise_core::answer::Generator>,
    every_claim: bool,
}

fn check_one(
    item: &serde_json::Value,
    embedder: &SentenceEmbedder,
    judging: &Judging<'_>,
    t: &mut Totals,
    out: Option<&mut std::fs::File>,
    split: Split,
    library: &str,
) -> Result<()> {
    let claim = item["claim"].as_str().unwrap_or_default().to_string();
    let question = item["question"].as_str().unwrap_or_default();
    let (evidence, texts) = evidence_of(item);
    let passage_vectors: HashMap<i64, Vec<f32>> =
        embedder.embed(&texts, TextRole::Passage)?.into_iter().enumerate().map(|(i, v)| (i as i64 + 1, v)).collect();
    let claim_vector = embedder.embed(std::slice::from_ref(&claim), TextRole::Query)?;
    let vectors = Vectors { claims: claim_vector.into_iter().map(Some).collect(), passages: &passage_vectors };
    let began = Instant::now();
    let (mut sentences, mut counts) = attribute(question, &[Claim { text: claim.clone(), labels: Vec::new() }], &evidence, &vectors);
    t.rules_ms.push(began.elapsed().as_secs_f64() * 1000.0);
    let unsure = sentences.first().and_then(|s| s.unsure.as_ref().map(|u| u.score));
    let rules_flagged = sentences.first().is_none_or(|s| s.status == SentenceStatus::Unsupported);
    let judge = judging.judge;
    let judge_yes = match judge {
        Some(g) if judging.every_claim => pagewise_core::answer::claim_supported(g, question, &evidence, &claim),
        _ => None,
    };
    if let Some(generator) = judge {
        let began = Instant::now();
        let judged = settle_unsure(generator, question, &evidence, &mut sentences, &mut counts);
        if judged > 0 {
            t.judged += judged;
            t.judge_ms += began.elapsed().as_secs_f64() * 1000.0;
        }
    }
    let sentence = sentences.first();
    let flagged = sentence.is_none_or(|s| s.status == SentenceStatus::Unsupported);
    let unsupported = item["label"].as_str() == Some("unsupported");
    match (unsupported, flagged) {
        (true, true) => t.tp += 1,
        (true, false) => t.fn_ += 1,
        (false, true) => t.fp += 1,
        (false, false) => t.tn += 1,
    }
    let kind = item["kind"].as_str().unwrap_or(if unsupported { "unsupported" } else { "supported" }).to_string();
    let lang = item["lang"].as_str().unwrap_or("en").to_string();
    let add = |tally: &mut Tally| {
        tally.claims += 1;
        tally.flagged += usize::from(flagged);
    };
    add(t.by_kind.entry(kind.clone()).or_default());
    add(&mut t.by_lang.entry(lang.clone()).or_default()[usize::from(unsupported)]);
    add(&mut t.by_library.entry(library.to_string()).or_default()[usize::from(unsupported)]);
    let reason = sentence.and_then(|s| s.reason).map(|r| serde_json::to_value(r).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default());
    if let (true, Some(r)) = (flagged, &reason) {
        *t.reasons.entry(kind.clone()).or_default().entry(r.clone()).or_default() += 1;
    }
    if let Some(f) = out {
        use std::io::Write;
        let support = sentence.and_then(|s| s.citations.first().map(|c| c.support));
        // The best unit of every passage with its score and mismatch, to read why.
        let names = source_names(evidence.pages.iter().flat_map(|p| p.passages.iter().map(|x| x.text.as_str())));
        let facts = ClaimFacts::of(&claim).in_reply_to(question, &names);
        let units: Vec<serde_json::Value> = evidence
            .pages
            .iter()
            .flat_map(|p| p.passages.iter().map(move |x| (p, x)))
            .map(|(p, x)| {
                let s = pagewise_core::answer::support(&facts, vectors.claims[0].as_ref(), x, &p.doc_title, passage_vectors.get(&x.chunk_id));
                json!({"score": s.score, "unit": x.text.get(s.unit.clone()).unwrap_or_default(), "near_miss": s.conflict.map(|(raw, r)| json!([raw, r]))})
            })
            .collect();
        writeln!(
            f,
            "{}",
            json!({"id": item["id"], "label": item["label"], "kind": kind, "lang": lang, "library": library,
                   "split": if split == Split::Calibrate { "calibrate" } else { "test" },
                   "flagged": flagged, "reason": reason, "support": support, "unsure": unsure, "judged": counts.judged > 0,
                   "rules_flagged": rules_flagged, "judge_yes": judge_yes,
                   "claim": claim, "units": units})
        )?;
    }
    Ok(())
}

fn print_summary(t: &Totals, judged: bool) -> Result<()> {
    let frac = |a: usize, b: usize| if b == 0 { serde_json::Value::Null } else { json!((a as f64 / b as f64 * 1000.0).round() / 1000.0) };
    let rate = |x: &Tally| json!({"claims": x.claims, "flagged": frac(x.flagged, x.claims)});
    let pair = |x: &[Tally; 2]| json!({"recall_unsupported": frac(x[1].flagged, x[1].claims), "supported_flagged": frac(x[0].flagged, x[0].claims), "claims": x[0].claims + x[1].claims});
    let mut rules = t.rules_ms.clone();
    rules.sort_by(f64::total_cmp);
    let median = rules.get(rules.len() / 2).copied().unwrap_or(0.0);
    let summary = json!({
        "claims": t.tp + t.fn_ + t.fp + t.tn,
        "unsupported": t.tp + t.fn_,
        "supported": t.fp + t.tn,
        "recall_unsupported": frac(t.tp, t.tp + t.fn_),
        "precision_unsupported": frac(t.tp, t.tp + t.fp),
        "supported_flagged": frac(t.fp, t.fp + t.tn),
        "by_kind": t.by_kind.iter().map(|(k, v)| (k.clone(), rate(v))).collect::<BTreeMap<_, _>>(),
        "by_lang": t.by_lang.iter().map(|(k, v)| (k.clone(), pair(v))).collect::<BTreeMap<_, _>>(),
        "by_library": t.by_library.iter().map(|(k, v)| (k.clone(), pair(v))).collect::<BTreeMap<_, _>>(),
        "reasons_by_kind": t.reasons,
        "rules_ms_per_claim_median": (median * 100.0).round() / 100.0,
        "judged": if judged { json!(t.judged) } else { serde_json::Value::Null },
        "judge_ms_per_judged_claim": if t.judged > 0 { json!((t.judge_ms / t.judged as f64).round()) } else { serde_json::Value::Null },
    });
    println!("{}", serde_json::to_string_pretty(&summary)?);
    Ok(())
}
