use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use pagewise_core::eval::{evaluate, load_questions, ModeScores, Question};
use pagewise_core::{Fusion, Reader, SearchMode, SearchParams};

use crate::CommandContext;

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
    /// Hybrid search with every stage and without each (routing, page reranking, query expansion), in one table.
    #[arg(long)]
    stages: bool,
    /// Measure without routing by document facets (organisation, period, kind).
    #[arg(long)]
    no_route: bool,
    /// Measure without reranking pages by page-level features.
    #[arg(long)]
    no_rerank: bool,
    /// Measure without query expansion from the first search's best passages.
    #[arg(long)]
    no_expand: bool,
    /// Write each question's fused candidates (keyword and vector ranks, gold flag) as JSON
    /// lines to this file, for fitting and checking rerankers; prints nothing else.
    #[arg(long, value_name = "FILE")]
    dump_candidates: Option<PathBuf>,
}

pub fn run(ctx: &CommandContext, args: EvalArgs) -> Result<i32> {
    let engine = Reader::open(ctx.config(Duration::from_secs(60))?)?;
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
        },
        route: !args.no_route,
        rerank: !args.no_rerank,
        expand: !args.no_expand,
        ..Default::default()
    };
    if let Some(path) = &args.dump_candidates {
        let dumps = pagewise_core::eval::dump_candidates(&engine, &questions, args.k * 8, &base)?;
        let mut text = String::new();
        for d in &dumps {
            text.push_str(&serde_json::to_string(d)?);
            text.push('\n');
        }
        std::fs::write(path, text)?;
        return Ok(0);
    }
    if args.stages {
        return stages(&engine, &questions, args.k, &base, args.json, args.out.as_deref());
    }
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
        print_header("mode");
        for m in &report.modes {
            print_row(&m.mode, m);
        }
        println!("{json}");
    }
    Ok(0)
}

fn print_header(first: &str) {
    println!(
        "{first:<14} {:>9} {:>9} {:>10} {:>8} {:>10} {:>10} {:>8} {:>9} {:>8} {:>8}",
        "recall@1", "recall@5", "recall@10", "MRR@10", "routing@1", "1st doc", "file@5", "passage@5", "p50 ms", "p95 ms"
    );
}

fn print_row(name: &str, m: &ModeScores) {
    println!(
        "{name:<14} {:>9.3} {:>9.3} {:>10.3} {:>8.3} {:>10.3} {:>10.3} {:>8.3} {:>9.3} {:>8.1} {:>8.1}",
        m.recall_at_1,
        m.recall_at_5,
        m.recall_at_10,
        m.mrr_at_10,
        m.routing_at_1,
        m.first_hit_document,
        m.file_at_5,
        m.passage_at_5,
        m.latency_ms_p50,
        m.latency_ms_p95
    );
}

/// Hybrid search with every stage, then without each one, then with none: what each stage
/// adds on this library. `out` receives each configuration's per-question ranks.
fn stages(engine: &Reader, questions: &[Question], k: usize, base: &SearchParams, json: bool, out: Option<&std::path::Path>) -> Result<i32> {
    let configs: Vec<(&str, SearchParams)> = vec![
        ("all stages", base.clone()),
        ("no reranking", SearchParams { rerank: false, ..base.clone() }),
        ("no expansion", SearchParams { expand: false, ..base.clone() }),
        ("no routing", SearchParams { route: false, ..base.clone() }),
        ("none", SearchParams { route: false, rerank: false, expand: false, ..base.clone() }),
    ];
    let mut rows = Vec::new();
    if !json {
        println!("{} questions, hybrid search, page level, k = {k}", questions.len());
        print_header("stages");
    }
    for (name, params) in configs {
        let report = evaluate(engine, questions, k, &[SearchMode::Hybrid], &params)?;
        let Some(m) = report.modes.into_iter().next() else { continue };
        if !json {
            print_row(name, &m);
        }
        rows.push(serde_json::json!({ "stages": name, "scores": m, "per_question": report.per_question }));
    }
    if let Some(path) = out {
        std::fs::write(path, serde_json::to_string_pretty(&rows)?)?;
    }
    if json {
        println!("{}", serde_json::json!({ "k": k, "questions": questions.len(), "stages": rows }));
    }
    Ok(0)
}
