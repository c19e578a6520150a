use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use pagewise_core::eval::{evaluate, load_questions};
use pagewise_core::{Engine, Fusion, SearchMode, SearchParams};

use crate::Context_;

#[derive(Args)]
pub struct EvalArgs {
    /// JSON lines: {"id", "question", "evidence": [{"doc", "page"}]}; doc is the file name
    /// without extension, page is 1-based.
    questions: PathBuf,
    #[arg(long, default_value_t = 10)]
    k: usize,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Also write the JSON report (with per-question ranks) to this file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Reciprocal-rank-fusion constant and weights (for measuring alternatives).
    #[arg(long, default_value_t = Fusion::default().rrf_k)]
    rrf_k: f32,
    #[arg(long, default_value_t = Fusion::default().lexical_weight)]
    lexical_weight: f32,
    #[arg(long, default_value_t = Fusion::default().vector_weight)]
    vector_weight: f32,
    #[arg(long, default_value_t = Fusion::default().document_weight)]
    document_weight: f32,
    #[arg(long, default_value_t = Fusion::default().route_weight)]
    route_weight: f32,
    #[arg(long, default_value_t = SearchParams::default().candidates)]
    candidates: usize,
    /// Measure without routing by document facets (organisation, period, kind).
    #[arg(long)]
    no_route: bool,
    /// Measure without searching each sentence of a question of several sentences.
    #[arg(long)]
    no_split: bool,
    /// Measure with passages ranked one by one instead of gathered into pages.
    #[arg(long)]
    no_pages: bool,
}

pub fn run(ctx: &Context_, args: EvalArgs) -> Result<i32> {
    let engine = Engine::open_reader(ctx.config(Duration::from_secs(60))?)?;
    for n in engine.notices() {
        eprintln!("note: {n}");
    }
    let questions = load_questions(&args.questions)?;
    let base = SearchParams {
        candidates: args.candidates,
        fusion: Fusion {
            rrf_k: args.rrf_k,
            lexical_weight: args.lexical_weight,
            vector_weight: args.vector_weight,
            document_weight: args.document_weight,
            route_weight: args.route_weight,
            part_weight: Fusion::default().part_weight,
        },
        split_sentences: !args.no_split,
        route: !args.no_route,
        by_page: !args.no_pages,
        ..Default::default()
    };
    let modes = [SearchMode::Lexical, SearchMode::Vector, SearchMode::Hybrid];
    let report = evaluate(&engine, &questions, args.k, &modes, &base)?;
    let json = serde_json::json!({ "k": report.k, "questions": questions.len(), "modes": report.modes });
    if let Some(path) = &args.out {
        std::fs::write(path, serde_json::to_string_pretty(&report)?)?;
    }
    if args.json {
        println!("{json}");
    } else {
        println!("{} questions, page level, k = {}", questions.len(), args.k);
        println!("{:<8} {:>9} {:>9} {:>10} {:>8} {:>10} {:>10}", "mode", "recall@1", "recall@5", "recall@10", "MRR@10", "p50 ms", "p95 ms");
        for m in &report.modes {
            println!(
                "{:<8} {:>9.3} {:>9.3} {:>10.3} {:>8.3} {:>10.1} {:>10.1}",
                m.mode, m.recall_at_1, m.recall_at_5, m.recall_at_10, m.mrr_at_10, m.latency_ms_p50, m.latency_ms_p95
            );
        }
        println!("{json}");
    }
    Ok(0)
}
