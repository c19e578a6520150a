//! `pagewise extract`: the same fields read from the tables of every indexed document under
//! the given folders or files, one row per document, each value with its page, row and column
//! (CSV or JSON), or the reason a document has none.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use pagewise_core::extract::{extract, to_csv, ExtractRequest};
use pagewise_core::{Queries, Reader};

use crate::CommandContext;

#[derive(clap::Args, Debug)]
pub struct ExtractArgs {
    /// Indexed folders or files to read (default: the whole library).
    pub paths: Vec<PathBuf>,
    /// A field to read, as a row label, a column header or both ("revenue", "capacity",
    /// "north valley capacity"); repeat for more columns.
    #[arg(long = "field", required = true)]
    pub fields: Vec<String>,
    /// Only values of this period's column (or row): "2024", "FY2022", "Q3 2023".
    #[arg(long)]
    pub period: Option<String>,
    /// Write CSV to this file (formula-like cells escaped).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &CommandContext, args: ExtractArgs) -> Result<i32> {
    let engine = Reader::open(ctx.config(Duration::from_secs(60))?)?;
    let documents = if args.paths.is_empty() {
        engine.documents()?.into_iter().map(|d| d.doc_id).collect()
    } else {
        let paths: Vec<PathBuf> = args
            .paths
            .iter()
            .map(|p| p.canonicalize().with_context(|| format!("{}", p.display())))
            .collect::<Result<_>>()?;
        engine.documents_under(&paths)?
    };
    if documents.is_empty() {
        bail!("no indexed documents there: run `pagewise index` on them first");
    }
    let request = ExtractRequest { fields: args.fields.clone(), period: args.period.clone(), documents };
    let rows = extract(&engine, &request)?;
    if let Some(path) = &args.csv {
        std::fs::write(path, to_csv(&rows, &args.fields)).with_context(|| format!("writing {}", path.display()))?;
        eprintln!("wrote {} rows to {}", rows.len(), path.display());
    }
    if args.json {
        println!("{}", serde_json::to_string(&rows)?);
        return Ok(0);
    }
    if args.csv.is_some() {
        return Ok(0);
    }
    for d in &rows {
        println!("{}", d.path.display());
        for v in &d.values {
            match (&v.value, v.page) {
                (Some(value), Some(page)) => {
                    let unit = [v.unit.as_deref(), v.scale.as_deref()].into_iter().flatten().collect::<Vec<_>>().join(", ");
                    let unit = if unit.is_empty() { String::new() } else { format!(" ({unit})") };
                    println!(
                        "  {}: {value}{unit}  — p.{page}, row \"{}\", column \"{}\"",
                        v.field,
                        v.row.as_deref().unwrap_or(""),
                        v.column.as_deref().unwrap_or("")
                    );
                }
                _ => println!("  {}: — {}", v.field, v.reason.as_deref().unwrap_or("")),
            }
        }
    }
    Ok(0)
}
