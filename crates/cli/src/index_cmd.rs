use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pagewise_core::progress::{FileOutcome, IndexReport, Progress, ProgressSink};
use pagewise_core::Writer;

use crate::CommandContext;

#[derive(Args)]
pub struct IndexArgs {
    /// Files and folders to index.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print a JSON summary: indexed, unchanged, removed, failed [{path, reason}], ...
    #[arg(long)]
    json: bool,
    /// Make documents keyword-searchable only; vectors are computed by the next run.
    #[arg(long)]
    no_embed: bool,
    /// Seconds a single PDF page may take to parse (or to read by OCR) before the file is
    /// skipped.
    #[arg(long, default_value_t = 120)]
    parse_timeout: u64,
    /// Do not read scanned pages (no text layer) with Tesseract.
    #[arg(long)]
    no_ocr: bool,
}

/// Terminal: a live bar. Otherwise: one plain line per event worth logging.
struct Reporter {
    bar: Option<ProgressBar>,
    started: Instant,
    files_total: AtomicU64,
    files_done: AtomicU64,
    pages: AtomicU64,
    chunks: AtomicU64,
    last_line: Mutex<Instant>,
    embedding_started: Mutex<Option<Instant>>,
}

impl Reporter {
    fn new(show_bar: bool) -> Reporter {
        let bar = show_bar.then(|| {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template("{spinner} {prefix:>9} [{bar:30}] {pos}/{len} {msg} · ETA {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Reporter {
            bar,
            started: Instant::now(),
            files_total: AtomicU64::new(0),
            files_done: AtomicU64::new(0),
            pages: AtomicU64::new(0),
            chunks: AtomicU64::new(0),
            last_line: Mutex::new(Instant::now() - Duration::from_secs(10)),
            embedding_started: Mutex::new(None),
        }
    }

    fn plain(&self, line: String, force: bool) {
        if let Some(bar) = &self.bar {
            bar.println(line);
            return;
        }
        let mut last = self.last_line.lock().unwrap_or_else(|e| e.into_inner());
        if force || last.elapsed() >= Duration::from_secs(2) {
            eprintln!("{line}");
            *last = Instant::now();
        }
    }
}

impl ProgressSink for Reporter {
    fn report(&self, event: &Progress) {
        let secs = self.started.elapsed().as_secs_f64().max(0.001);
        match event {
            Progress::Notice { notice } => match &self.bar {
                Some(b) => b.println(format!("note: {notice}")),
                None => eprintln!("note: {notice}"),
            },
            Progress::Scanned { files } => self.plain(format!("scanned: {files} files"), true),
            Progress::Planned { to_check, unchanged, to_remove } => {
                self.files_total.store(*to_check as u64, Ordering::Relaxed);
                if let Some(b) = &self.bar {
                    b.set_prefix("parsing");
                    b.set_length(*to_check as u64);
                }
                self.plain(format!("plan: {to_check} to check, {unchanged} unchanged, {to_remove} gone"), true);
            }
            Progress::Ocr { path, page, pages } => {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                match &self.bar {
                    Some(b) => b.set_message(format!("OCR {name} p.{page}/{pages}")),
                    None => self.plain(format!("OCR {name}: page {page} of {pages}"), *page == *pages),
                }
            }
            Progress::FileDone { path, outcome, pages, chunks } => {
                let done = self.files_done.fetch_add(1, Ordering::Relaxed) + 1;
                let pages_total = self.pages.fetch_add(*pages as u64, Ordering::Relaxed) + *pages as u64;
                let chunks_total = self.chunks.fetch_add(*chunks as u64, Ordering::Relaxed) + *chunks as u64;
                let rate = pages_total as f64 / secs;
                if let Some(b) = &self.bar {
                    b.set_position(done);
                    b.set_message(format!("{pages_total} pages, {chunks_total} chunks, {rate:.0} pages/s"));
                    if let FileOutcome::Failed { reason } = outcome {
                        b.println(format!("skipped {}: {reason}", path.display()));
                    }
                } else {
                    let total = self.files_total.load(Ordering::Relaxed);
                    let failed = matches!(outcome, FileOutcome::Failed { .. });
                    let line = match outcome {
                        FileOutcome::Failed { reason } => format!("skipped {}: {reason}", path.display()),
                        _ => format!("parsed {done}/{total} files, {pages_total} pages, {chunks_total} chunks, {rate:.1} pages/s"),
                    };
                    self.plain(line, failed || done == total);
                }
            }
            // Embedding starts after the last commit of parsed files.
            Progress::Committed { .. } => {
                *self.embedding_started.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            }
            Progress::Embedding { done, total, tokens } => {
                let since = *self.embedding_started.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(Instant::now);
                let rate = *tokens as f64 / since.elapsed().as_secs_f64().max(0.001);
                if let Some(b) = &self.bar {
                    if b.prefix() != "embedding" {
                        self.started_embedding(b, *total);
                    }
                    b.set_position(*done);
                    b.set_message(format!("chunks, {rate:.0} tokens/s"));
                } else {
                    self.plain(format!("embedded {done}/{total} chunks ({tokens} tokens)"), done == total);
                }
            }
        }
    }
}

impl Reporter {
    fn started_embedding(&self, bar: &ProgressBar, total: u64) {
        bar.set_prefix("embedding");
        bar.set_length(total);
        bar.reset_eta();
    }
}

pub fn run(ctx: &CommandContext, args: IndexArgs) -> Result<i32> {
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let cancel = cancel.clone();
        ctrlc::set_handler(move || {
            if cancel.swap(true, Ordering::SeqCst) {
                // A second Ctrl-C means now; the stores are safe at any moment by design.
                std::process::exit(130);
            }
            eprintln!("\nstopping after the current step (Ctrl-C again to quit at once)…");
        })?;
    }
    let mut config = ctx.config(Duration::from_secs(args.parse_timeout))?;
    config.ocr = !args.no_ocr;
    let engine = Writer::open(config)?;
    let reporter = Reporter::new(!args.json && std::io::stderr().is_terminal());
    for n in engine.notices() {
        reporter.report(&Progress::Notice { notice: n.clone() });
    }
    let report = engine.index_paths(&args.paths, !args.no_embed, &reporter, &cancel)?;
    if let Some(b) = &reporter.bar {
        b.finish_and_clear();
    }
    if args.json {
        println!("{}", serde_json::to_string(&summary_json(&report))?);
    } else {
        print_summary(&report, reporter.started.elapsed());
    }
    Ok(if report.interrupted { 130 } else { 0 })
}

fn summary_json(r: &IndexReport) -> serde_json::Value {
    serde_json::json!({
        "indexed": r.indexed.len(),
        "unchanged": r.unchanged,
        "removed": r.removed.len(),
        "renamed": r.renamed.len(),
        "failed": r.failed.iter().map(|(p, reason)| serde_json::json!({"path": p, "reason": reason})).collect::<Vec<_>>(),
        "pages": r.pages,
        "chunks": r.chunks,
        "embedded": r.embedded,
        "embedded_tokens": r.embedded_tokens,
        "embed_seconds": r.embed_seconds,
        "pending_vectors": r.pending_vectors,
        "interrupted": r.interrupted,
        "notices": r.notices.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
    })
}

fn print_summary(r: &IndexReport, took: Duration) {
    println!(
        "indexed {} · unchanged {} · renamed {} · removed {} · failed {} — {} pages, {} chunks, {} embedded in {:.1} s",
        r.indexed.len(),
        r.unchanged,
        r.renamed.len(),
        r.removed.len(),
        r.failed.len(),
        r.pages,
        r.chunks,
        r.embedded,
        took.as_secs_f64()
    );
    if !r.failed.is_empty() {
        println!("not indexed:");
        for (path, reason) in &r.failed {
            println!("  {}: {reason}", path.display());
        }
    }
    if r.interrupted {
        println!("interrupted: run `pagewise index` again to continue where it stopped");
    } else if r.pending_vectors > 0 {
        println!("{} passages are keyword-searchable but not yet embedded; run `pagewise index` to embed them", r.pending_vectors);
    }
}
