use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use pagewise_core::answer::section_label;
use pagewise_core::retrieve::SearchFilter;
use pagewise_core::{Queries, Reader, SearchMode, SearchParams};

use crate::CommandContext;

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
    /// Only documents of this kind (annual-report, quarterly-report, contract, paper…) or file
    /// type (pdf, md, docx…); repeatable.
    #[arg(long = "type")]
    types: Vec<String>,
    /// Only documents of this organisation (as `pagewise documents` names it); repeatable.
    #[arg(long = "org")]
    organisations: Vec<String>,
    /// Only documents about this year (their fiscal or stated period); repeatable.
    #[arg(long = "year")]
    years: Vec<i32>,
    /// Only documents in this language (en, zh…); repeatable.
    #[arg(long = "lang")]
    languages: Vec<String>,
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

pub fn run(ctx: &CommandContext, args: SearchArgs) -> Result<i32> {
    let engine = Reader::open(ctx.config(Duration::from_secs(60))?)?;
    for n in engine.notices() {
        eprintln!("note: {n}");
    }
    let filter = SearchFilter { folders: Vec::new(), types: args.types, organisations: args.organisations, years: args.years, languages: args.languages };
    // Facets narrow to the documents they admit, within the scope when one is given.
    let documents = if filter.is_empty() {
        None
    } else {
        let within = if args.scope.is_empty() { None } else { Some(engine.documents_under(&args.scope)?) };
        let admitted: Vec<i64> = engine
            .documents()?
            .iter()
            .filter(|d| filter.admits(d) && within.as_ref().is_none_or(|w| w.contains(&d.doc_id)))
            .map(|d| d.doc_id)
            .collect();
        if admitted.is_empty() {
            eprintln!("note: no document has these facets (see `pagewise documents`)");
            return Ok(0);
        }
        Some(admitted)
    };
    let params = SearchParams { k: args.k, mode: args.mode.into(), scope: args.scope, documents, ..Default::default() };
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
