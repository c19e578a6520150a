use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use pagewise_core::answer::{AskOptions, Asker, Generator};
use pagewise_core::eval::{answer_cites_gold, load_questions};
use pagewise_core::Engine;
use serde_json::json;

use crate::ask_cmd::load_generator;
use crate::Context_;

#[derive(Args)]
pub struct EvalAnswersArgs {
    /// Answerable questions, JSON lines with "evidence": [{"doc", "page"}].
    questions: PathBuf,
    /// Questions the library cannot answer (JSON lines with "question"); they should abstain.
    #[arg(long)]
    out_of_scope: Option<PathBuf>,
    #[arg(long, env = "PAGEWISE_CHAT_MODEL")]
    model: Option<PathBuf>,
    #[arg(long)]
    extractive: bool,
    #[arg(long)]
    constrained: bool,
    #[arg(long, default_value_t = AskOptions::default().evidence_tokens)]
    evidence_tokens: usize,
    #[arg(long)]
    threads: Option<usize>,
    /// Skip the retrieval abstain check (to measure the model and attribution alone).
    #[arg(long)]
    never_abstain: bool,
    /// Write every answer (JSON lines) here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Only the first N questions of each set.
    #[arg(long)]
    limit: Option<usize>,
}

pub fn run(ctx: &Context_, args: EvalAnswersArgs) -> Result<i32> {
    let engine = Engine::open_reader(ctx.config(Duration::from_secs(60))?)?;
    let generator = if args.extractive { None } else { Some(load_generator(ctx, args.model.as_deref(), args.threads, None)?) };
    let options = AskOptions {
        evidence_tokens: args.evidence_tokens,
        constrained: args.constrained,
        never_abstain: args.never_abstain,
        ..AskOptions::default()
    };
    let asker = Asker { engine: &engine, generator: generator.as_ref().map(|g| g as &dyn Generator), options };
    let limit = args.limit.unwrap_or(usize::MAX);
    let mut out = match &args.out {
        Some(p) => Some(std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?),
        None => None,
    };
    let answerable = load_questions(&args.questions)?;
    let (mut page_hits, mut doc_hits, mut abstained, mut n) = (0usize, 0usize, 0usize, 0usize);
    let (mut invalid, mut kept, mut attached, mut replaced, mut unsupported, mut sentences) = (0, 0, 0, 0, 0, 0);
    let mut ttft = Vec::new();
    let mut citations_total = 0usize;
    let mut citations_valid = 0usize;
    let mut extractive = 0usize;
    for q in answerable.iter().take(limit) {
        let answer = asker.ask(&q.question, None, &mut |_| true)?;
        let (page, doc) = answer_cites_gold(&answer, &q.evidence);
        n += 1;
        page_hits += usize::from(page && !answer.abstained);
        doc_hits += usize::from(doc && !answer.abstained);
        abstained += usize::from(answer.abstained);
        extractive += usize::from(answer.mode == pagewise_core::answer::AnswerMode::Extractive);
        let a = &answer.attribution;
        invalid += a.invalid_labels_dropped;
        kept += a.kept;
        attached += a.attached;
        replaced += a.replaced;
        unsupported += a.unsupported;
        sentences += a.sentences;
        if let Some(t) = answer.timings.first_token_ms {
            ttft.push(t);
        }
        // Every returned citation must name a source of this answer and a page that exists.
        for c in &answer.citations {
            citations_total += 1;
            let in_sources = answer.sources.iter().any(|s| s.label == c.label && s.page == c.page && s.doc_path == c.doc_path);
            let page_exists = engine.with_store(|s| Ok(s.chunk_ids_on_page(s_doc(&answer, &c.label), c.page)?.len()))? > 0;
            citations_valid += usize::from(in_sources && page_exists);
        }
        eprintln!("{:<28} page {:<5} doc {:<5} abstained {:<5} {}", q.id, page, doc, answer.abstained, answer.answer.chars().take(90).collect::<String>());
        if let Some(f) = out.as_mut() {
            writeln!(f, "{}", json!({"set": "answerable", "id": q.id, "gold_page": page, "gold_doc": doc, "answer": answer}))?;
        }
    }
    let mut oos_n = 0usize;
    let mut oos_abstained = 0usize;
    if let Some(path) = &args.out_of_scope {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()).take(limit) {
            let v: serde_json::Value = serde_json::from_str(line)?;
            let question = v["question"].as_str().unwrap_or_default();
            let answer = asker.ask(question, None, &mut |_| true)?;
            oos_n += 1;
            oos_abstained += usize::from(answer.abstained);
            eprintln!("{:<28} abstained {:<5} {}", v["id"].as_str().unwrap_or(""), answer.abstained, answer.answer.chars().take(90).collect::<String>());
            if let Some(f) = out.as_mut() {
                writeln!(f, "{}", json!({"set": "out_of_scope", "id": v["id"], "kind": v["kind"], "answer": answer}))?;
            }
        }
    }
    ttft.sort_by(f64::total_cmp);
    let median = |v: &[f64]| if v.is_empty() { 0.0 } else { v[v.len() / 2] };
    let frac = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let summary = json!({
        "model": generator.as_ref().map(|g| g.info().name.clone()),
        "constrained": args.constrained,
        "answerable": n,
        "cites_gold_page": frac(page_hits, n),
        "cites_gold_doc": frac(doc_hits, n),
        "abstained_answerable": frac(abstained, n),
        "extractive_answers": extractive,
        "out_of_scope": oos_n,
        "abstained_out_of_scope": frac(oos_abstained, oos_n),
        "citations": citations_total,
        "citations_valid": frac(citations_valid, citations_total),
        "invalid_labels_dropped": invalid,
        "sentences": sentences,
        "kept": kept, "attached": attached, "replaced": replaced, "unsupported": unsupported,
        "first_token_ms_median": median(&ttft),
    });
    println!("{}", serde_json::to_string_pretty(&summary)?);
    Ok(0)
}

/// The document id behind a label of this answer (0 when unknown, which finds no page).
fn s_doc(answer: &pagewise_core::answer::Answer, label: &str) -> i64 {
    answer.sources.iter().find(|s| s.label == label).map(|s| s.doc_id).unwrap_or(0)
}
