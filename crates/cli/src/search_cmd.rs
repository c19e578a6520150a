use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use pagewise_core::answer::attribute::section_label;
use pagewise_core::{Queries, Reader, SearchMode, SearchParams};

use crate::Context_;

#[derive(Args)]
pub struct SearchArgs {
    query: String,
    /// Number of passages.
    #[arg(long, default_value_t = 10)]
    k: usize,
    /// One JSON object per line: rank, doc_path, doc_title, page, score, chunk_id, text,
    /// heading_path.
    #[arg(long)]
    json: bool,
    #[arg(long, value_enum, default_value = "hybrid")]
    mode: ModeArg,
    /// Only search within these folders or documents (repeatable).
    #[arg(long)]
    scope: Vec<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum ModeArg {
    Hybrid,
    #[value(alias = "keyword")]
    Lexical,
    Vector,
}

impl From<ModeArg> for SearchMode {
    fn from(m: ModeArg) -> SearchMode {
        match m {
            ModeArg::Hybrid => SearchMode::Hybrid,
            ModeArg::Lexical => SearchMode::Lexical,
            ModeArg::Vector => SearchMode::Vector,
        }
    }
}

pub fn run(ctx: &Context_, args: SearchArgs) -> Result<i32> {
    let engine = Reader::open(ctx.config(Duration::from_secs(60))?)?;
    for n in engine.notices() {
        eprintln!("note: {n}");
    }
    let params = SearchParams { k: args.k, mode: args.mode.into(), scope: args.scope, ..Default::default() };
    let results = engine.search(&args.query, &params)?;
    // Without a query vector the coverage of passage vectors says nothing about this search.
    if !results.semantic_complete && params.mode != SearchMode::Lexical && results.vectors_unavailable.is_none() {
        eprintln!(
            "note: semantic search covers {} of {} passages; the rest are still being embedded (keyword search covers all)",
            results.total_chunks - results.pending_vectors,
            results.total_chunks
        );
    }
    if let Some(why) = &results.vectors_unavailable {
        eprintln!("note: keyword search only: the question could not be embedded ({why})");
    }
    if let Some(routing) = &results.routing {
        eprintln!("note: names: {routing}");
    }
    if let Some(lang) = results.language_gap {
        eprintln!("note: {}", lang.keyword_search_note());
    }
    for hit in &results.hits {
        if args.json {
            let mut line = serde_json::json!({
                "rank": hit.rank,
                "doc_path": hit.doc_path,
                "doc_title": hit.doc_title,
                "page": hit.span.page,
                "score": hit.score,
                "chunk_id": hit.chunk_id,
                "text": hit.text,
                "heading_path": hit.heading_path,
            });
            if !hit.also_in.is_empty() {
                line["also_in"] = serde_json::json!(hit.also_in);
            }
            println!("{line}");
        } else {
            let snippet: String = hit.text.split_whitespace().collect::<Vec<_>>().join(" ");
            let snippet: String = snippet.chars().take(240).collect();
            let place = section_label(&hit.doc_path, &hit.heading_path).unwrap_or_else(|| format!("p.{}", hit.span.page));
            println!("{:>2}. {} · {place} · {:.4}\n    {}\n    {snippet}", hit.rank, hit.doc_title, hit.score, hit.doc_path.display());
            if !hit.also_in.is_empty() {
                let copies: Vec<String> = hit.also_in.iter().map(|p| p.display().to_string()).collect();
                println!("    also in: {}", copies.join(", "));
            }
        }
    }
    if results.hits.is_empty() && !args.json {
        println!("no passages match");
    }
    Ok(0)
}
