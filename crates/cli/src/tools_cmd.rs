//! Commands for inspecting and measuring parts on their own: what text a file yields, and
//! how fast the embedder runs on given texts.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use pagewise_core::embed::{SentenceEmbedder, Embedder, TextRole};
use std::sync::atomic::AtomicBool;

use pagewise_core::isolation::{parse_many, ParseEvent, ParseJob, Parser};
use pagewise_core::parse::{Document, Format};

use crate::CommandContext;

#[derive(Args)]
pub struct ParseArgs {
    /// Files to parse (PDF, Markdown, text).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print each page's text as JSON lines {path, page, text}; otherwise one summary line per file.
    #[arg(long)]
    json: bool,
    /// Print every figure of the pages' tables as JSON lines {path, page, row, column, periods,
    /// value, number, unit, scale}: what `extract` and computed answers read.
    #[arg(long, conflicts_with = "json")]
    tables: bool,
    /// Only these pages (with --json or --tables), e.g. 3 or 50-53; repeatable.
    #[arg(long = "page", value_parser = parse_page_range)]
    pages: Vec<std::ops::RangeInclusive<usize>>,
    /// Files parsed at once, each PDF in its own worker process (default: cores, at most 4).
    #[arg(long)]
    jobs: Option<usize>,
    /// Seconds a single PDF may take before it is skipped.
    #[arg(long, default_value_t = 120)]
    parse_timeout: u64,
}

/// "3" or "50-53": pages counted from 1.
fn parse_page_range(text: &str) -> std::result::Result<std::ops::RangeInclusive<usize>, String> {
    let number = |t: &str| t.trim().parse::<usize>().ok().filter(|n| *n >= 1).ok_or_else(|| format!("not a page number: {t:?}"));
    match text.split_once('-') {
        Some((a, b)) => Ok(number(a)?..=number(b)?),
        None => number(text).map(|n| n..=n),
    }
}

pub fn parse(ctx: &CommandContext, args: ParseArgs) -> Result<i32> {
    let config = ctx.config(std::time::Duration::from_secs(args.parse_timeout))?;
    let mut jobs = Vec::new();
    for path in &args.files {
        let format = Format::from_path(path).with_context(|| format!("{}: not a PDF, Markdown or text file", path.display()))?;
        let size = std::fs::metadata(path).with_context(|| path.display().to_string())?.len();
        jobs.push(ParseJob { path: path.clone(), format, size });
    }
    let lanes = args.jobs.unwrap_or(config.parse_workers).max(1);
    let mut parsers: Vec<Parser> = (0..lanes).map(|_| config.parser()).collect();
    let started = Instant::now();
    let mut results: Vec<Option<Result<Document, String>>> = vec![None; jobs.len()];
    parse_many(&mut parsers, &jobs, config.max_text_bytes, &AtomicBool::new(false), &|_, _| {}, |i, event| {
        let ParseEvent::Parsed(parsed) = event else { return Ok(()) };
        results[i] = Some(parsed);
        Ok(())
    })?;
    let secs = started.elapsed().as_secs_f64();
    let (mut pages_total, mut failed) = (0usize, 0usize);
    for (job, result) in jobs.iter().zip(results) {
        let path = &job.path;
        match result {
            Some(Ok(doc)) => {
                pages_total += doc.pages.len();
                let wanted = |n: usize| args.pages.is_empty() || args.pages.iter().any(|r| r.contains(&n));
                if args.tables {
                    for (i, page) in doc.pages.iter().enumerate().filter(|(i, _)| wanted(i + 1)) {
                        for cell in pagewise_core::extract::read_cells(&page.text) {
                            let mut line = serde_json::to_value(&cell)?;
                            line["path"] = serde_json::json!(path);
                            line["page"] = serde_json::json!(i + 1);
                            println!("{line}");
                        }
                    }
                } else if args.json {
                    for (i, page) in doc.pages.iter().enumerate().filter(|(i, _)| wanted(i + 1)) {
                        println!("{}", serde_json::json!({"path": path, "page": i + 1, "title": doc.title, "text": page.text}));
                    }
                } else {
                    let chars: usize = doc.pages.iter().map(|p| p.text.chars().count()).sum();
                    println!("{}: {} pages, {chars} characters, title {:?}", path.display(), doc.pages.len(), doc.title);
                }
            }
            Some(Err(reason)) => {
                failed += 1;
                eprintln!("{}: {reason}", path.display());
            }
            None => failed += 1,
        }
    }
    eprintln!(
        "{pages_total} pages in {secs:.2} s ({:.1} pages/s, {lanes} workers), {failed} failed",
        pages_total as f64 / secs.max(1e-9)
    );
    Ok(0)
}

#[derive(Args)]
pub struct EmbedBenchArgs {
    /// JSON lines with a "text" field.
    input: PathBuf,
}

/// Embeds every text as a passage and reports tokens per second (model load excluded).
pub fn embed_bench(ctx: &CommandContext, args: EmbedBenchArgs) -> Result<i32> {
    let models = pagewise_core::models::locate(Some(&ctx.data_dir), ctx.embed_model.as_deref())?;
    let embedder = SentenceEmbedder::load(&models.embedder_dir)?;
    let file = std::fs::File::open(&args.input).with_context(|| args.input.display().to_string())?;
    let mut texts = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let v: serde_json::Value = serde_json::from_str(&line?)?;
        texts.push(v["text"].as_str().unwrap_or_default().to_string());
    }
    use pagewise_core::chunk::TokenCounter;
    let max = embedder.sentence_config().max_seq_length;
    let tokens: usize = texts.iter().map(|t| embedder.count(t).min(max - 2) + 2).sum();
    let started = Instant::now();
    let vectors = embedder.embed(&texts, TextRole::Passage)?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{}",
        serde_json::json!({
            "texts": texts.len(), "tokens": tokens, "seconds": secs,
            "tokens_per_s": tokens as f64 / secs, "dimensions": embedder.dimensions(),
            "first_vector_head": vectors.first().map(|v| v.iter().take(4).copied().collect::<Vec<f32>>()),
            "backend": embedder.backend().name(), "candle_reason": embedder.candle_reason(),
            "threads": rayon_threads(),
        })
    );
    Ok(0)
}

/// The threads the embedder's work is shared over (`RAYON_NUM_THREADS`, else one per CPU).
fn rayon_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}

#[derive(clap::Args)]
pub struct GenerateBenchArgs {
    /// GGUF model file.
    #[arg(long)]
    model: PathBuf,
    /// Raw prompt text (chat-template tokens in it are parsed as special tokens).
    #[arg(long)]
    prompt_file: PathBuf,
    #[arg(long)]
    threads: usize,
    /// Tokens generated per run, past end-of-generation (greedy).
    #[arg(long)]
    n_predict: usize,
    #[arg(long, default_value_t = 3)]
    runs: usize,
}

/// Prompt-processing and generation speed of the app's llama.cpp generator, printed in the
/// same JSON lines as bench/generate_peer.py so the two can be compared.
pub fn generate_bench(args: GenerateBenchArgs) -> Result<i32> {
    use pagewise_core::answer::{GenerationEvent, GenerationRequest, Prompt};
    use pagewise_core::answer::{Generator, LlamaGenerator, LlamaSettings};
    let prompt = std::fs::read_to_string(&args.prompt_file).with_context(|| format!("cannot read {}", args.prompt_file.display()))?;
    let mut prompt_rates = Vec::new();
    let mut gen_rates = Vec::new();
    for _ in 0..args.runs {
        // A fresh model per run: each run must evaluate the whole prompt, as the peer does.
        let mut settings = LlamaSettings::new(args.model.clone());
        settings.threads = args.threads;
        let generator = LlamaGenerator::load(&settings)?;
        // The peer evaluates the file as it is, control tokens included, with no repeat penalty.
        let request = GenerationRequest { ignore_eos: true, repeat_penalty: 1.0, ..GenerationRequest::new(Prompt::markup(prompt.clone()), args.n_predict) };
        let stream = generator.stream(request)?;
        let stats = loop {
            match stream.next_event() {
                Some(GenerationEvent::Token(_)) => {}
                Some(GenerationEvent::Done(stats)) => break stats,
                Some(GenerationEvent::Failed(e)) => anyhow::bail!("generation failed: {e}"),
                None => anyhow::bail!("the model thread stopped"),
            }
        };
        let line = serde_json::json!({
            "prompt_tokens": stats.prompt_tokens,
            "prompt_s": stats.prompt_ms / 1000.0,
            "prompt_tok_s": stats.prompt_tokens_per_s(),
            "gen_tokens": stats.generated_tokens,
            "gen_s": stats.generation_ms / 1000.0,
            "gen_tok_s": stats.generation_tokens_per_s(),
        });
        println!("{line}");
        prompt_rates.push(stats.prompt_tokens_per_s());
        gen_rates.push(stats.generation_tokens_per_s());
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    println!("{}", serde_json::json!({"median": true, "prompt_tok_s": median(&mut prompt_rates), "gen_tok_s": median(&mut gen_rates)}));
    Ok(0)
}

/// `pagewise-dev image-only-copy FROM TO`: every page of FROM as a `dpi` picture, no text layer.
pub fn image_only_copy(ctx: &CommandContext, from: &Path, to: &Path, dpi: u32) -> Result<i32> {
    let pdfium = pagewise_core::models::locate(Some(&ctx.data_dir), None)?.pdfium_lib;
    let pages = pagewise_core::pdfium::write_image_only_copy(&pdfium, from, to, dpi)?;
    println!("{}: {pages} pages as {dpi} dpi pictures", to.display());
    Ok(0)
}

#[derive(clap::Args)]
pub struct RenderArgs {
    pub pdf: PathBuf,
    /// Page number (1-based).
    #[arg(long, default_value_t = 1)]
    pub page: u32,
    /// Width of the picture in pixels (at most 4096; very tall pages come out narrower).
    #[arg(long, default_value_t = 1200)]
    pub width: u32,
    /// A passage to highlight on the page.
    #[arg(long)]
    pub quote: Option<String>,
    /// Where to write the PNG.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn render(ctx: &CommandContext, args: RenderArgs) -> Result<i32> {
    let config = ctx.config(std::time::Duration::from_secs(60))?;
    let mut worker = config.isolated_worker()?;
    let request = pagewise_core::viewer::PageRequest { page: args.page, width_px: Some(args.width), quote: args.quote, focus: Vec::new() };
    let rendered = match worker.render(&args.pdf, request)? {
        Ok(r) => r,
        Err(reason) => {
            eprintln!("{}: {reason}", args.pdf.display());
            return Ok(1);
        }
    };
    let png = rendered.png.unwrap_or_default();
    let dimension = |at: usize| png.get(at..at + 4).and_then(|b| b.try_into().ok()).map(u32::from_be_bytes).unwrap_or(0);
    if let Some(out) = &args.out {
        std::fs::write(out, &png).with_context(|| format!("cannot write {}", out.display()))?;
    }
    println!(
        "page {} of {}: {} × {} px ({:.0} × {:.0} pt), {} highlight rectangles",
        args.page,
        rendered.size.page_count,
        dimension(16),
        dimension(20),
        rendered.size.width_pt,
        rendered.size.height_pt,
        rendered.rects.len()
    );
    Ok(0)
}
