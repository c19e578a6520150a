use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use pagewise_core::answer::SentenceStatus;
use pagewise_core::answer::{AnswerMode, AskOptions, Asker};
use pagewise_core::eval::{answer_cites_gold, load_questions, Question};
use pagewise_core::{grade, Queries, Reader};
use serde_json::json;

use crate::ask_cmd::choose_generator;
use crate::endpoint_args::EndpointArgs;
use crate::generation_cache::CachedGenerator;
use crate::CommandContext;

#[derive(Args)]
pub struct EvalAnswersArgs {
    /// Answerable questions, JSON lines with "question", "answer" (the gold figure or name) and
    /// "evidence": [{"doc", "page"}] or "doc". Lines with "canary" are prompt-injection probes.
    questions: PathBuf,
    /// Questions the library cannot answer (JSON lines with "question"); they should abstain.
    #[arg(long)]
    out_of_scope: Option<PathBuf>,
    #[arg(long, env = "PAGEWISE_CHAT_MODEL")]
    model: Option<PathBuf>,
    #[command(flatten)]
    endpoint: EndpointArgs,
    #[arg(long)]
    extractive: bool,
    #[arg(long)]
    constrained: bool,
    /// Tokens of evidence given to the model (decides time to first token); by default 700
    /// (at most half the model's context), 2,400 without a model.
    #[arg(long)]
    evidence_tokens: Option<usize>,
    /// The wait for the first token to cut the evidence to, as `ask --first-token-within`.
    #[arg(long)]
    first_token_within: Option<f64>,
    #[arg(long)]
    threads: Option<usize>,
    /// Skip the retrieval abstain check (to measure the model and attribution alone).
    #[arg(long)]
    never_abstain: bool,
    /// Leave figure questions to the model instead of computing them from statement cells
    /// (to measure what computing adds).
    #[arg(long)]
    no_compute: bool,
    /// Ask the model whether the evidence states the answer and record it (signals.model_yes).
    #[arg(long)]
    record_judge: bool,
    /// When the model finds no answer, show the best-matching source sentences in the rules'
    /// order instead of asking the model which of them answers (to measure what that adds).
    #[arg(long)]
    no_judge_quotes: bool,
    /// Write every answer (JSON lines) here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Only the first N questions of each set.
    #[arg(long)]
    limit: Option<usize>,
    /// Remember the model's reply to each exact prompt in this file and reuse it on later
    /// runs, to re-measure the rules around generation without generating again.
    #[arg(long)]
    generation_cache: Option<PathBuf>,
}

#[derive(Default)]
struct Tally {
    n: usize,
    graded: usize,
    correct: usize,
    correct_by_model: usize,
    page: usize,
    doc: usize,
    /// The gold page was among the pages the model was given.
    evidence_page: usize,
    evidence_tokens: Vec<f64>,
    abstained: usize,
    extractive: usize,
    probes: usize,
    injected_supported: usize,
    injected_shown: usize,
    invalid: usize,
    kept: usize,
    attached: usize,
    replaced: usize,
    unsupported: usize,
    sentences: usize,
    citations: usize,
    citations_valid: usize,
    first_token: Vec<f64>,
    first_evidence: Vec<f64>,
}

fn frac(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { 0.0 } else { v[v.len() / 2] }
}

pub fn run(ctx: &CommandContext, args: EvalAnswersArgs) -> Result<i32> {
    let engine = Reader::open(ctx.config(Duration::from_secs(60))?)?;
    let generator = if args.extractive { None } else { Some(choose_generator(ctx, &args.endpoint, args.model.as_deref(), args.threads, None)??) };
    let generator: Option<Box<dyn pagewise_core::answer::Generator>> = match (generator, &args.generation_cache) {
        (Some(g), Some(path)) => Some(Box::new(CachedGenerator::open(g, path)?)),
        (g, _) => g,
    };
    let options = AskOptions {
        evidence_tokens: args.evidence_tokens,
        first_token_within_s: args.first_token_within,
        constrained: args.constrained,
        never_abstain: args.never_abstain,
        record_judge: args.record_judge,
        judge_quotes: !args.no_judge_quotes,
        compute: !args.no_compute,
        ..AskOptions::default()
    };
    let asker = Asker { reader: &engine, generator: generator.as_deref(), options };
    let limit = args.limit.unwrap_or(usize::MAX);
    let mut out = match &args.out {
        Some(p) => Some(std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?),
        None => None,
    };
    let answerable = load_questions(&args.questions)?;
    let mut t = Tally::default();
    for q in answerable.iter().take(limit) {
        let answer = asker.ask(&q.question, None, &mut |_| true)?;
        let (page, doc) = answer_cites_gold(&answer, &q.evidence);
        let in_evidence = evidence_holds_gold(&answer, &q.evidence);
        t.evidence_page += usize::from(in_evidence);
        t.evidence_tokens.push(answer.sources.iter().flat_map(|p| &p.passages).map(|x| x.text.len() as f64 / 4.0).sum());
        let correct = q.answer.as_deref().map(|gold| grade::is_correct(&answer, gold));
        // The same, counting only the model's own checked sentences, not the source quotes
        // shown when it failed: this is what tells models apart.
        let by_model = q.answer.as_deref().is_some_and(|gold| !answer.abstained && grade::states(&model_supported_text(&answer), gold));
        t.correct_by_model += usize::from(by_model);
        score(&mut t, &engine, q, &answer, page, doc, correct)?;
        eprintln!(
            "{:<22} correct {:<5} page {:<5} abstained {:<5} {}",
            q.id,
            correct.map_or("-".to_string(), |c| c.to_string()),
            page,
            answer.abstained,
            answer.answer.chars().take(90).collect::<String>().replace('\n', " ")
        );
        if let Some(f) = out.as_mut() {
            writeln!(f, "{}", json!({"set": "answerable", "id": q.id, "gold": q.answer, "correct": correct, "gold_page": page, "gold_doc": doc, "answer": answer}))?;
        }
    }
    let mut oos_n = 0usize;
    let mut oos_abstained = 0usize;
    if let Some(path) = &args.out_of_scope {
        for q in load_questions(path)?.iter().take(limit) {
            let answer = asker.ask(&q.question, None, &mut |_| true)?;
            oos_n += 1;
            oos_abstained += usize::from(answer.abstained);
            eprintln!("{:<22} abstained {:<5} {}", q.id, answer.abstained, answer.answer.chars().take(90).collect::<String>().replace('\n', " "));
            if let Some(f) = out.as_mut() {
                writeln!(f, "{}", json!({"set": "out_of_scope", "id": q.id, "kind": q.kind, "answer": answer}))?;
            }
        }
    }
    let summary = json!({
        "model": generator.as_ref().map(|g| g.info().name.clone()),
        "constrained": args.constrained,
        "answerable": t.n,
        "graded": t.graded,
        "correct": frac(t.correct, t.graded),
        "correct_by_model": frac(t.correct_by_model, t.graded),
        "cites_gold_page": frac(t.page, t.n),
        "cites_gold_doc": frac(t.doc, t.n),
        "gold_page_in_evidence": frac(t.evidence_page, t.n),
        "evidence_tokens_median": median(&mut t.evidence_tokens),
        "abstained_answerable": frac(t.abstained, t.n),
        "extractive_answers": t.extractive,
        "out_of_scope": oos_n,
        "abstained_out_of_scope": frac(oos_abstained, oos_n),
        "injection_probes": t.probes,
        "injected_shown_as_supported": t.injected_supported,
        "injected_shown_at_all": t.injected_shown,
        "citations": t.citations,
        "citations_valid": frac(t.citations_valid, t.citations),
        "invalid_labels_dropped": t.invalid,
        "sentences": t.sentences,
        "kept": t.kept, "attached": t.attached, "replaced": t.replaced, "unsupported": t.unsupported,
        "first_evidence_ms_median": median(&mut t.first_evidence),
        "first_token_ms_median": median(&mut t.first_token),
    });
    println!("{}", serde_json::to_string_pretty(&summary)?);
    Ok(0)
}

/// Whether a gold page was among the evidence pages (what the model read), whatever it cited.
fn evidence_holds_gold(answer: &pagewise_core::answer::Answer, gold: &[pagewise_core::eval::Evidence]) -> bool {
    answer.sources.iter().any(|p| {
        let stem = p.doc_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        gold.iter().any(|g| g.doc == stem && (g.page == p.page || g.page == pagewise_core::eval::ANY_PAGE))
    })
}

/// The sentences the model wrote that passed the claim check.
fn model_supported_text(answer: &pagewise_core::answer::Answer) -> String {
    answer
        .sentences
        .iter()
        .filter(|s| matches!(s.status, SentenceStatus::Kept | SentenceStatus::Attached | SentenceStatus::Replaced))
        .map(|s| s.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn score(
    t: &mut Tally,
    engine: &Reader,
    q: &Question,
    answer: &pagewise_core::answer::Answer,
    page: bool,
    doc: bool,
    correct: Option<bool>,
) -> Result<()> {
    t.n += 1;
    t.page += usize::from(page && !answer.abstained);
    t.doc += usize::from(doc && !answer.abstained);
    t.abstained += usize::from(answer.abstained);
    t.extractive += usize::from(answer.mode == AnswerMode::Extractive);
    if let Some(c) = correct {
        t.graded += 1;
        t.correct += usize::from(c);
    }
    if let Some(canary) = &q.canary {
        let canary = canary.to_lowercase();
        t.probes += 1;
        let supported = answer.sentences.iter().any(|s| !s.citations.is_empty() && s.status != SentenceStatus::Unsupported && s.text.to_lowercase().contains(&canary));
        let shown = answer.answer.to_lowercase().contains(&canary);
        t.injected_supported += usize::from(supported);
        t.injected_shown += usize::from(shown);
    }
    let a = &answer.attribution;
    t.invalid += a.invalid_labels_dropped;
    t.kept += a.kept;
    t.attached += a.attached;
    t.replaced += a.replaced;
    t.unsupported += a.unsupported;
    t.sentences += a.sentences;
    if let Some(ms) = answer.timings.first_token_ms {
        t.first_token.push(ms);
    }
    if let Some(ms) = answer.timings.first_evidence_ms {
        t.first_evidence.push(ms);
    }
    // Every returned citation must name a source of this answer and a page that exists.
    for c in &answer.citations {
        t.citations += 1;
        let in_sources = answer.sources.iter().any(|s| s.label == c.label && s.page == c.span.page && s.doc_path == c.doc_path);
        let page_exists = !engine.page_passages(c.span.doc_id, c.span.page)?.is_empty();
        t.citations_valid += usize::from(in_sources && page_exists);
    }
    Ok(())
}
