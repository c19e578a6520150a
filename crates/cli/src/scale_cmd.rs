//! `pagewise-dev bench-scale`: a synthetic library of any size (real passage text re-used, random
//! but fixed vectors clustered like real embeddings) built straight into the three stores,
//! and the figures that matter at that size: opening the index, hybrid search latency with
//! the real query embedder, memory, disk, and adding to it.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use pagewise_core::index::{PreparedChunk, PreparedDocument};
use pagewise_core::progress::Silent;
use pagewise_core::retrieve::StageTimes;
use pagewise_core::{Queries, Reader, SearchParams, Writer};

use crate::CommandContext;

#[derive(Subcommand)]
pub enum ScaleCmd {
    /// Builds (or grows) a synthetic library to `--chunks` passages.
    Build(BuildArgs),
    /// Opens the library and runs hybrid searches: open time, latency percentiles, memory, disk.
    Query(QueryArgs),
    /// Adds `--chunks` more passages in one commit and times it.
    Add(AddArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// Passages in the finished library.
    #[arg(long, default_value_t = 1_000_000)]
    chunks: usize,
    /// JSON lines with a "text" field: the passage texts, re-used in turn.
    #[arg(long)]
    texts: PathBuf,
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Passages per import (one commit each).
    #[arg(long, default_value_t = 50_000)]
    group: usize,
}

#[derive(Args)]
pub struct QueryArgs {
    /// JSON lines with a "question" field.
    queries: PathBuf,
    /// Times each query is asked.
    #[arg(long, default_value_t = 3)]
    runs: usize,
}

#[derive(Args)]
pub struct AddArgs {
    #[arg(long, default_value_t = 1000)]
    chunks: usize,
    #[arg(long)]
    texts: PathBuf,
    #[arg(long, default_value_t = 11)]
    seed: u64,
}

/// Pages per synthetic document and passages per page.
const PAGES: usize = 50;
const PER_PAGE: usize = 4;
/// Clusters the vectors gather around, as real embeddings of a library do.
const CENTERS: usize = 256;

pub fn run(ctx: &CommandContext, cmd: ScaleCmd) -> Result<i32> {
    match cmd {
        ScaleCmd::Build(a) => build(ctx, a),
        ScaleCmd::Query(a) => query(ctx, a),
        ScaleCmd::Add(a) => add(ctx, a),
    }
}

/// splitmix64: a fixed seed gives the same library on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

fn normalised(mut v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
    v.iter_mut().for_each(|x| *x /= n);
    v
}

struct Synth {
    texts: Vec<String>,
    centers: Vec<Vec<f32>>,
    rng: Rng,
    dims: usize,
}

impl Synth {
    fn new(texts: Vec<String>, dims: usize, seed: u64) -> Synth {
        let mut rng = Rng(seed);
        let centers = (0..CENTERS).map(|_| normalised((0..dims).map(|_| rng.unit()).collect())).collect();
        Synth { texts, centers, rng, dims }
    }

    fn vector(&mut self) -> Vec<f32> {
        let c = (self.rng.next() % CENTERS as u64) as usize;
        // Noise of about half the center's length: neighbours within a cluster, as in text.
        let scale = 0.5 * (3.0 / self.dims as f32).sqrt();
        let v = (0..self.dims).map(|i| self.centers[c][i] + scale * self.rng.unit()).collect();
        normalised(v)
    }

    /// Document `n` of the library: `PAGES` pages of `PER_PAGE` passages.
    fn document(&mut self, root: &Path, n: usize, first_text: usize) -> PreparedDocument {
        let mut pages = Vec::with_capacity(PAGES);
        let mut chunks = Vec::with_capacity(PAGES * PER_PAGE);
        for p in 0..PAGES {
            let mut page = String::new();
            for i in 0..PER_PAGE {
                let text = &self.texts[(first_text + p * PER_PAGE + i) % self.texts.len()];
                if !page.is_empty() {
                    page.push_str("\n\n");
                }
                let start = page.len();
                page.push_str(text);
                chunks.push(PreparedChunk {
                    page: (p + 1) as u32,
                    byte_start: start,
                    byte_end: page.len(),
                    heading_path: Vec::new(),
                    text: text.clone(),
                    token_count: text.len() / 4,
                    vector: self.vector(),
                });
            }
            pages.push(page);
        }
        PreparedDocument {
            path: root.join(format!("synthetic-{n:06}.txt")),
            title: format!("Synthetic report {n}"),
            content_hash: format!("synthetic-{n}-{first_text}"),
            pages,
            chunks,
        }
    }
}

fn read_field(path: &Path, field: &str) -> Result<Vec<String>> {
    let file = std::fs::File::open(path).with_context(|| path.display().to_string())?;
    let mut out = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&line).with_context(|| format!("{}: not JSON lines", path.display()))?;
        if let Some(t) = v[field].as_str().filter(|t| !t.trim().is_empty()) {
            out.push(t.to_string());
        }
    }
    if out.is_empty() {
        bail!("{}: no \"{field}\" values", path.display());
    }
    Ok(out)
}

fn root_of(ctx: &CommandContext) -> PathBuf {
    ctx.data_dir.join("synthetic-library")
}

fn import(writer: &Writer, synth: &mut Synth, root: &Path, docs: std::ops::Range<usize>) -> Result<()> {
    let per_doc = PAGES * PER_PAGE;
    let batch: Vec<PreparedDocument> = docs.map(|n| synth.document(root, n, n * per_doc)).collect();
    writer.import_prepared(root, batch, &Silent)?;
    Ok(())
}

fn build(ctx: &CommandContext, a: BuildArgs) -> Result<i32> {
    let config = ctx.config(std::time::Duration::from_secs(60))?;
    let writer = Writer::open(config)?;
    let dims = writer.embedder().dimensions();
    let mut synth = Synth::new(read_field(&a.texts, "text")?, dims, a.seed);
    let root = root_of(ctx);
    let per_doc = PAGES * PER_PAGE;
    let have = writer.library_counts()?.documents.len();
    let want = a.chunks.div_ceil(per_doc);
    let group = (a.group / per_doc).max(1);
    let started = Instant::now();
    let mut n = have;
    while n < want {
        let end = (n + group).min(want);
        import(&writer, &mut synth, &root, n..end)?;
        n = end;
        eprintln!("bench-scale: {} passages, {:.0} s", n * per_doc, started.elapsed().as_secs_f64());
    }
    println!("{}", serde_json::json!({ "chunks": want * per_doc, "documents": want, "build_seconds": started.elapsed().as_secs_f64() }));
    Ok(0)
}

/// Resident and peak memory of this process, in MB (Linux).
fn memory_mb() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status.lines().find_map(|l| l.strip_prefix(name)).and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok()).map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn disk_mb(dir: &Path) -> f64 {
    fn walk(dir: &Path) -> u64 {
        std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| match e.metadata() {
                        Ok(m) if m.is_dir() => walk(&e.path()),
                        Ok(m) => m.len(),
                        Err(_) => 0,
                    })
                    .sum()
            })
            .unwrap_or(0)
    }
    walk(dir) as f64 / 1e6
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// P50 and P95 of each search stage, to say which part makes a slow percentile slow.
fn stage_percentiles(stages: &[StageTimes]) -> serde_json::Value {
    let fields: [(&str, fn(&StageTimes) -> f64); 8] = [
        ("route", |s| s.route_ms),
        ("lexical", |s| s.lexical_ms),
        ("embed", |s| s.embed_ms),
        ("vector", |s| s.vector_ms),
        ("expand", |s| s.expand_ms),
        ("fetch", |s| s.fetch_ms),
        ("rank", |s| s.rank_ms),
        ("total", |s| s.total_ms),
    ];
    let mut out = serde_json::Map::new();
    for (name, field) in fields {
        let mut values: Vec<f64> = stages.iter().map(field).collect();
        values.sort_by(|x, y| x.total_cmp(y));
        let round = |v: f64| (v * 10.0).round() / 10.0;
        out.insert(name.into(), serde_json::json!({ "p50": round(percentile(&values, 50.0)), "p95": round(percentile(&values, 95.0)) }));
    }
    serde_json::Value::Object(out)
}

fn query(ctx: &CommandContext, a: QueryArgs) -> Result<i32> {
    let queries = read_field(&a.queries, "question")?;
    let config = ctx.config(std::time::Duration::from_secs(60))?;
    let started = Instant::now();
    let reader = Reader::open(config)?;
    let open_ms = started.elapsed().as_secs_f64() * 1000.0;
    for n in reader.notices() {
        eprintln!("note: {n}");
    }
    let params = SearchParams::default();
    let first = Instant::now();
    reader.search(&queries[0], &params)?;
    let first_ms = first.elapsed().as_secs_f64() * 1000.0;
    let mut times = Vec::with_capacity(queries.len() * a.runs);
    let mut stages = Vec::with_capacity(queries.len() * a.runs);
    for _ in 0..a.runs.max(1) {
        for q in &queries {
            let t = Instant::now();
            let results = reader.search(q, &params)?;
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            if results.hits.is_empty() {
                bail!("no hits for {q:?}");
            }
            stages.push(results.stages);
        }
    }
    times.sort_by(|x, y| x.total_cmp(y));
    let stage_percentiles = stage_percentiles(&stages);
    let (rss, peak) = memory_mb();
    let counts = reader.library_counts()?;
    println!(
        "{}",
        serde_json::json!({
            "chunks": counts.chunks, "documents": counts.documents.len(), "open_ms": open_ms, "first_query_ms": first_ms,
            "queries": times.len(), "p50_ms": percentile(&times, 50.0), "p95_ms": percentile(&times, 95.0),
            "max_ms": times.last().copied().unwrap_or(0.0), "rss_mb": rss, "peak_rss_mb": peak, "disk_mb": disk_mb(&ctx.data_dir),
            "stages": stage_percentiles,
        })
    );
    Ok(0)
}

fn add(ctx: &CommandContext, a: AddArgs) -> Result<i32> {
    let config = ctx.config(std::time::Duration::from_secs(60))?;
    let opened = Instant::now();
    let writer = Writer::open(config)?;
    let open_ms = opened.elapsed().as_secs_f64() * 1000.0;
    let dims = writer.embedder().dimensions();
    let mut synth = Synth::new(read_field(&a.texts, "text")?, dims, a.seed);
    let root = ctx.data_dir.join("added-library");
    let have = writer.library_counts()?.documents.len();
    let docs = a.chunks.div_ceil(PAGES * PER_PAGE);
    let started = Instant::now();
    import(&writer, &mut synth, &root, have..have + docs)?;
    let add_ms = started.elapsed().as_secs_f64() * 1000.0;
    println!("{}", serde_json::json!({ "added_chunks": docs * PAGES * PER_PAGE, "writer_open_ms": open_ms, "add_ms": add_ms }));
    Ok(0)
}
