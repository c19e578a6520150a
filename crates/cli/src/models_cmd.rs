use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use clap::Subcommand;
use pagewise_core::data_dir::claim;
use pagewise_core::model_catalog::{installed_chat_models, InstalledModel};
use pagewise_core::model_download::{download, DownloadProgress, DownloadRequest};
use pagewise_core::model_install::{import, models_dir};
use pagewise_core::models;

use crate::CommandContext;

#[derive(Subcommand)]
pub enum ModelsCmd {
    /// Installed GGUF chat models: which one answers by default, size, quantisation, context
    /// length, license and measured speed.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Copies a GGUF file into the data dir's models folder (checked: a GGUF header, room).
    Import { file: PathBuf },
    /// Downloads a GGUF by URL into the data dir's models folder. This uses the network, and
    /// only this command does: an interrupted download resumes when run again; Ctrl-C stops
    /// it (keeping what arrived); `--sha256` checks the file.
    Download {
        url: String,
        /// The expected sha256 (hex); a mismatch deletes the download.
        #[arg(long)]
        sha256: Option<String>,
        /// The file name (default: the URL's last segment).
        #[arg(long)]
        name: Option<String>,
    },
}

pub fn run(ctx: &CommandContext, cmd: ModelsCmd) -> Result<i32> {
    match cmd {
        ModelsCmd::List { json } => list(ctx, json),
        ModelsCmd::Import { file } => {
            // Models go inside the data dir, which must be Pagewise's.
            claim(&ctx.data_dir)?;
            let installed = import(&file, &models_dir(&ctx.data_dir))?;
            println!("{}", installed.display());
            Ok(0)
        }
        ModelsCmd::Download { url, sha256, name } => {
            claim(&ctx.data_dir)?;
            let request = DownloadRequest { url, dir: models_dir(&ctx.data_dir), file_name: name, sha256 };
            let cancel = Arc::new(AtomicBool::new(false));
            {
                let cancel = Arc::clone(&cancel);
                let _ = ctrlc::set_handler(move || cancel.store(true, Ordering::SeqCst));
            }
            let started = Instant::now();
            let mut stderr = std::io::stderr();
            let mut report = |p: &DownloadProgress| {
                let rate = (p.done - p.resumed_from) as f64 / 1e6 / started.elapsed().as_secs_f64().max(1e-3);
                let _ = match p.total {
                    Some(t) if t > 0 => write!(stderr, "\rdownloaded {:.1} of {:.1} MB ({:.0}%), {rate:.1} MB/s   ", p.done as f64 / 1e6, t as f64 / 1e6, p.done as f64 * 100.0 / t as f64),
                    _ => write!(stderr, "\rdownloaded {:.1} MB, {rate:.1} MB/s   ", p.done as f64 / 1e6),
                };
                !cancel.load(Ordering::SeqCst)
            };
            match download(&request, &mut report) {
                Ok(path) => {
                    eprintln!();
                    println!("{}", path.display());
                    Ok(0)
                }
                Err(pagewise_core::Error::Interrupted) => {
                    eprintln!("\nstopped; run the same command again to resume");
                    Ok(130)
                }
                Err(e) => {
                    eprintln!();
                    Err(e.into())
                }
            }
        }
    }
}

fn list(ctx: &CommandContext, json: bool) -> Result<i32> {
    let default = models::locate_chat_model(Some(&ctx.data_dir), None).ok();
    let extra: Vec<_> = default.iter().cloned().collect();
    let installed = installed_chat_models(&ctx.data_dir, &extra);
    if json {
        for m in &installed {
            let mut v = serde_json::to_value(m)?;
            v["default"] = serde_json::json!(default.as_ref() == Some(&m.path));
            println!("{v}");
        }
        return Ok(0);
    }
    if installed.is_empty() {
        println!("no chat models installed: run models/fetch.sh, `pagewise models import FILE.gguf`, or pass --model FILE.gguf to ask");
    }
    for m in &installed {
        let mark = if default.as_ref() == Some(&m.path) { "*" } else { " " };
        println!("{mark} {:<48} {:>7.1} MB  {}\n    {}\n    {}", m.name, m.size_bytes as f64 / 1e6, describe(m), speed(m), m.path.display());
    }
    Ok(0)
}

fn describe(m: &InstalledModel) -> String {
    let Some(g) = &m.gguf else { return "GGUF header unreadable".into() };
    let mut parts = Vec::new();
    parts.extend(g.architecture.clone());
    parts.extend(g.quantisation.clone());
    parts.extend(g.context_length.map(|c| format!("context {c}")));
    parts.push(g.license.clone().map(|l| format!("license {l}")).unwrap_or_else(|| "license not stated".into()));
    if !g.has_chat_template {
        parts.push("no chat template (completion prompt)".into());
    }
    parts.join(", ")
}

fn speed(m: &InstalledModel) -> String {
    match &m.speed {
        Some(s) => format!("prompt {:.0} tok/s, generation {:.1} tok/s (measured over {} answers)", s.prompt_tokens_per_s, s.generation_tokens_per_s, s.answers),
        None => "speed not measured yet (ask a question with it)".to_string(),
    }
}
