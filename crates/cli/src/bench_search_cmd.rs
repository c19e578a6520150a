//! `pagewise-dev bench-search`: how fast the search view answers as someone types. Each query of
//! a file is typed out (every prefix from three characters on, two characters at a time, and
//! the whole query), each prefix searched as the app's search view does, and the latencies
//! summarised. The index is opened once, as the app holds it.

use std::io::BufRead;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use pagewise_core::retrieve::SearchFilter;
use pagewise_core::library::{search_library, SearchOrder};
use pagewise_core::Reader;

use crate::CommandContext;

#[derive(Args)]
pub struct BenchSearchArgs {
    /// One query per line (blank lines and lines starting with # are skipped).
    queries: PathBuf,
    #[arg(long)]
    json: bool,
}

fn prefixes(query: &str) -> Vec<String> {
    let chars: Vec<char> = query.chars().collect();
    let mut out: Vec<String> = (3..chars.len()).step_by(2).map(|n| chars[..n].iter().collect()).collect();
    out.push(query.to_string());
    out
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

pub fn run(ctx: &CommandContext, args: BenchSearchArgs) -> Result<i32> {
    let reader = Reader::open(ctx.config(Duration::from_secs(60))?)?;
    let file = std::fs::File::open(&args.queries).with_context(|| args.queries.display().to_string())?;
    let queries: Vec<String> = std::io::BufReader::new(file)
        .lines()
        .map_while(std::io::Result::ok)
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    // The first search loads what later ones reuse (the embedding model's weights in cache).
    search_library(&reader, "warm up", &SearchFilter::default(), SearchOrder::Relevance, 30)?;
    let mut latencies = Vec::new();
    for query in &queries {
        for prefix in prefixes(query) {
            let started = Instant::now();
            search_library(&reader, &prefix, &SearchFilter::default(), SearchOrder::Relevance, 30)?;
            latencies.push(started.elapsed().as_secs_f64() * 1e3);
        }
    }
    latencies.sort_by(f64::total_cmp);
    let (p50, p95, max) = (percentile(&latencies, 0.5), percentile(&latencies, 0.95), latencies.last().copied().unwrap_or(0.0));
    if args.json {
        println!("{}", serde_json::json!({ "queries": queries.len(), "searches": latencies.len(), "p50_ms": p50, "p95_ms": p95, "max_ms": max }));
    } else {
        println!("{} queries typed out, {} searches: P50 {p50:.1} ms, P95 {p95:.1} ms, max {max:.1} ms", queries.len(), latencies.len());
    }
    Ok(0)
}
