//! `pagewise-dev`: what measures Pagewise — retrieval and answer evaluations, the claim-check
//! bench, speed benchmarks (embedding, generation, search as you type, scale) and the tools
//! that make test material (image-only PDFs, rendered pages). Kept out of the user's
//! `pagewise --help`; it takes the same data dir and model options.

use std::path::PathBuf;

use clap::Subcommand;
use pagewise_cli::*;

#[derive(Subcommand)]
enum Command {    /// Answer evaluation: gold-page citations, abstaining, label validity, time to first token.
    #[command(name = "eval-answers")]
    EvalAnswers(eval_answers_cmd::EvalAnswersArgs),
    /// Page-level retrieval evaluation: recall@1/5/10 and MRR@10 per search mode.
    Eval(eval_cmd::EvalArgs),
    /// Measure embedding speed on given texts (JSON lines with "text").
    #[command(name = "bench-embed")]
    BenchEmbed(tools_cmd::EmbedBenchArgs),
    /// Search-view latency as someone types: each query of a file searched prefix by prefix
    /// (P50/P95/max ms).
    BenchSearch(bench_search_cmd::BenchSearchArgs),
    /// The claim check on a labelled claim set: recall and precision of the "unsupported" flag.
    #[command(name = "bench-claims")]
    BenchClaims(claims_cmd::ClaimsBenchArgs),
    /// Measure llama.cpp prompt and generation speed on a prompt file (fixed length, greedy).
    #[command(name = "bench-generate")]
    BenchGenerate(tools_cmd::GenerateBenchArgs),
    /// A synthetic library of any size for measuring scale: build, query (open time, latency,
    /// memory, disk) and add (bench/scale.sh).
    #[command(name = "bench-scale", subcommand)]
    BenchScale(scale_cmd::ScaleCmd),
    /// Write an image-only copy of a PDF (every page a picture, no text layer), as a scanner
    /// would: for measuring OCR and for testing scanned documents.
    ImageOnlyCopy {
        from: PathBuf,
        to: PathBuf,
        /// Resolution of the page pictures.
        #[arg(long, default_value_t = 300)]
        dpi: u32,
    },
    /// Render a PDF page as the viewer does (in the worker process), with the highlight of a
    /// quote: prints the picture's size and the highlight rectangles.
    Render(tools_cmd::RenderArgs),
    /// Internal: the isolated PDF parser process.
    #[command(name = "__parse-worker", hide = true)]
    ParseWorker(WorkerArgs),
}

fn main() {
    let (command, ctx) = start::<Command>("pagewise-dev", "Evaluations and benchmarks of Pagewise");
    let result = match command {
        Command::Eval(args) => eval_cmd::run(&ctx, args),
        Command::EvalAnswers(args) => eval_answers_cmd::run(&ctx, args),
        Command::BenchClaims(args) => claims_cmd::run(&ctx, args),
        Command::BenchEmbed(args) => tools_cmd::embed_bench(&ctx, args),
        Command::BenchSearch(args) => bench_search_cmd::run(&ctx, args),
        Command::BenchGenerate(args) => tools_cmd::generate_bench(args),
        Command::BenchScale(cmd) => scale_cmd::run(&ctx, cmd),
        Command::ImageOnlyCopy { from, to, dpi } => tools_cmd::image_only_copy(&ctx, &from, &to, dpi),
        Command::Render(args) => tools_cmd::render(&ctx, args),
        Command::ParseWorker(args) => parse_worker(args),
    };
    exit_with("pagewise-dev", result)
}
