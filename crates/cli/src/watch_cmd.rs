//! `pagewise watch`: keeps folders indexed as they change, until Ctrl-C; and `pagewise
//! status`: how each folder stands against the disk.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use pagewise_core::library::{health, FolderState, LibraryService, LibraryStatus};
use pagewise_core::{Queries, Writer};

use crate::CommandContext;

#[derive(Args)]
pub struct WatchArgs {
    /// Folders or files to add and watch (folders already in the index are watched too).
    paths: Vec<PathBuf>,
    /// Print every status change as one JSON object per line.
    #[arg(long)]
    json: bool,
}

/// What was last printed per folder, so only changes are printed.
#[derive(Default)]
struct Printed {
    states: HashMap<PathBuf, FolderState>,
    failures: HashMap<PathBuf, usize>,
}

fn print_changes(status: &LibraryStatus, printed: &mut Printed) {
    for f in &status.folders {
        if printed.states.get(&f.path) != Some(&f.state) {
            let detail = match f.state {
                FolderState::UpToDate => format!("{} files, {} pages", f.files_total, f.pages),
                FolderState::Indexing => String::new(),
                _ => f.error.clone().unwrap_or_default(),
            };
            println!("{}: {:?} {detail}", f.path.display(), f.state);
            printed.states.insert(f.path.clone(), f.state);
        }
        let seen = printed.failures.entry(f.path.clone()).or_default();
        for failed in f.failed.iter().skip(*seen) {
            println!("  failed: {}: {}", failed.path.display(), failed.reason);
        }
        *seen = f.failed.len();
    }
    if let Some(notice) = &status.notice {
        println!("note: {notice}");
    }
}

pub fn watch(ctx: &CommandContext, args: WatchArgs) -> Result<i32> {
    let engine = Writer::open(ctx.config(Duration::from_secs(60))?)?;
    for n in engine.notices() {
        eprintln!("note: {n}");
    }
    let json = args.json;
    let printed = Mutex::new(Printed::default());
    let service = LibraryService::start(
        engine,
        Box::new(move |status| {
            if json {
                if let Ok(line) = serde_json::to_string(status) {
                    println!("{line}");
                }
            } else if let Ok(mut printed) = printed.lock() {
                print_changes(status, &mut printed);
            }
        }),
    )?;
    if !args.paths.is_empty() {
        service.add(args.paths)?;
    }
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst))?;
    }
    eprintln!("watching; Ctrl-C stops (an interrupted folder continues at the next start)");
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100));
    }
    service.cancel();
    drop(service);
    Ok(0)
}

pub fn status(ctx: &CommandContext, json: bool) -> Result<i32> {
    let h = health(&ctx.data_dir)?;
    let sandbox = sandbox_report(ctx);
    if json {
        let mut out = serde_json::to_value(&h)?;
        out["sandbox"] = serde_json::to_value(&sandbox)?;
        println!("{out}");
        return Ok(0);
    }

    for f in &h.folders {
        let availability = if f.available { "" } else { " (unavailable)" };
        println!(
            "{}{availability}: {} files, {} indexed, {} failed, {} pending, oldest unindexed change {} s",
            f.path.display(),
            f.files,
            f.indexed,
            f.failed.len(),
            f.pending,
            f.freshness_s
        );
        for failed in &f.failed {
            println!("  failed: {}: {}", failed.path.display(), failed.reason);
        }
    }
    println!(
        "{} documents, {} passages ({} waiting for vectors); SQLite {} B, keyword index {} B, vectors {} B",
        h.documents, h.chunks, h.pending_vectors, h.stores.sqlite_bytes, h.stores.keyword_index_bytes, h.stores.vector_index_bytes
    );
    println!("{}", sandbox.line());
    Ok(0)
}

/// What the parser's sandbox holds here, as `status` reports it.
#[derive(serde::Serialize)]
struct SandboxReport {
    applied: Option<pagewise_core::isolation::Sandbox>,
    missing: Vec<&'static str>,
    accepted: bool,
    error: Option<String>,
}

impl SandboxReport {
    fn line(&self) -> String {
        match (&self.error, self.missing.is_empty()) {
            (Some(e), _) => format!("Parser sandbox: could not be checked: {e}"),
            (None, true) => "Parser sandbox: complete".to_string(),
            (None, false) if self.accepted => format!("Parser sandbox: INCOMPLETE (accepted): {}", self.missing.join("; ")),
            (None, false) => format!("Parser sandbox: INCOMPLETE: {}. Indexing stops until you pass --accept-weak-sandbox", self.missing.join("; ")),
        }
    }
}

fn sandbox_report(ctx: &CommandContext) -> SandboxReport {
    let checked = ctx.config(Duration::from_secs(30)).map_err(|e| e.to_string()).and_then(|c| {
        let mut worker = c.isolated_worker().map_err(|e| e.to_string())?;
        worker.sandbox().map_err(|e| e.to_string())
    });
    match checked {
        Ok(applied) => SandboxReport {
            applied: Some(applied),
            missing: applied.missing().iter().map(|m| m.describe()).collect(),
            accepted: ctx.accept_weak_sandbox,
            error: None,
        },
        Err(e) => SandboxReport { applied: None, missing: Vec::new(), accepted: ctx.accept_weak_sandbox, error: Some(e) },
    }
}

/// `pagewise history FILE`: the versions of one document the index has seen.
pub fn history(ctx: &CommandContext, file: &std::path::Path, json: bool) -> Result<i32> {
    let path = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let reader = pagewise_core::Reader::open(ctx.config(Duration::from_secs(60))?)?;
    let Some((doc, versions)) = reader.history(&path)? else {
        anyhow::bail!("{} is not in the index", path.display());
    };
    if json {
        println!("{}", serde_json::json!({ "document": doc, "versions": versions }));
        return Ok(0);
    }
    println!("{} ({} pages)", doc.title, doc.page_count);
    for v in versions {
        println!(
            "  {}  modified {}  indexed {}  {} bytes",
            &v.content_hash[..16.min(v.content_hash.len())],
            pagewise_core::answer::date_of(v.mtime_ns),
            pagewise_core::answer::date_of(v.indexed_at * 1_000_000_000),
            v.size
        );
    }
    Ok(0)
}
