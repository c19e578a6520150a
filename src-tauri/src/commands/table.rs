//! The table view: the same fields read from the tables of every document in the library (one
//! row per document, each value with its page, row and column, or why there is none), and the
//! same rows saved as CSV where the user chooses.

use pagewise_core::extract::{extract, to_csv, ExtractRequest, ExtractedDocument};
use pagewise_core::Queries;
use tauri::Runtime;
use tauri_plugin_dialog::DialogExt;

use crate::contract::{AppError, CmdResult, Ctx};

/// The fields the user typed, trimmed, each once; an error when none is left.
fn fields_of(fields: Vec<String>) -> CmdResult<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for f in fields.iter().map(|f| f.trim()).filter(|f| !f.is_empty()) {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(f)) {
            out.push(f.to_string());
        }
    }
    if out.is_empty() {
        return Err(AppError::invalid("name a field to read, such as revenue or capacity"));
    }
    Ok(out)
}

fn rows(ctx: &Ctx<impl Runtime>, fields: &[String], period: Option<String>) -> CmdResult<Vec<ExtractedDocument>> {
    let reader = ctx.state.library()?.reader().map_err(AppError::not_indexed)?;
    let documents = reader.documents()?.into_iter().map(|d| d.doc_id).collect();
    let period = period.map(|p| p.trim().to_string()).filter(|p| !p.is_empty());
    Ok(extract(reader.as_ref(), &ExtractRequest { fields: fields.to_vec(), period, documents })?)
}

pub fn extract_table(ctx: &Ctx<impl Runtime>, fields: Vec<String>, period: Option<String>) -> CmdResult<Vec<ExtractedDocument>> {
    let fields = fields_of(fields)?;
    rows(ctx, &fields, period)
}

/// Asks where to save with the native dialog, then writes the table as CSV (formula-like
/// cells escaped); `None` when the user cancels.
pub fn export_table_csv(ctx: &Ctx<impl Runtime>, fields: Vec<String>, period: Option<String>) -> CmdResult<Option<String>> {
    let fields = fields_of(fields)?;
    let csv = to_csv(&rows(ctx, &fields, period)?, &fields);
    let Some(target) = ctx.app.dialog().file().set_file_name("pagewise-table.csv").add_filter("csv", &["csv"]).blocking_save_file() else {
        return Ok(None);
    };
    let path = target.into_path().map_err(AppError::failed)?;
    std::fs::write(&path, csv).map_err(|e| AppError::failed(format!("{}: {e}", path.display())))?;
    Ok(Some(path.display().to_string()))
}
