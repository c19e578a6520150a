use pagewise_core::Queries;
use pagewise_core::answer::Answer;
use pagewise_core::answer::Turn;
use pagewise_core::answer::{provenance_csv, to_markdown, AnswerRecord};
use pagewise_core::index::{FeedbackStore, NewFeedback};
use tauri::Runtime;
use tauri_plugin_dialog::DialogExt;

use crate::contract::{AppError, CmdResult, Ctx};
use crate::dto::ExportFormat;
use crate::state::AppState;

fn stored_turn(state: &AppState, conversation_id: i64, turn: usize) -> CmdResult<Turn> {
    let turns = state.conversations()?.turns(conversation_id)?;
    turns.into_iter().nth(turn).ok_or_else(|| AppError::not_found(format!("conversation {conversation_id} has no answer {}", turn + 1)))
}

fn record(state: &AppState, conversation_id: i64, turn: usize) -> CmdResult<AnswerRecord> {
    Ok(AnswerRecord::of(stored_turn(state, conversation_id, turn)?.answer.as_ref())?)
}

/// The answer the page shows, as Markdown with its citations: built here, the one place
/// (export and Copy alike), whether or not the answer was saved.
pub fn answer_markdown(_ctx: &Ctx<impl Runtime>, answer: Answer) -> CmdResult<String> {
    Ok(to_markdown(&AnswerRecord::of(Some(&answer))?))
}

/// Asks where to save with the native dialog (on the Rust side), then writes the file.
pub fn export_answer(ctx: &Ctx<impl Runtime>, conversation_id: i64, turn: usize, format: ExportFormat) -> CmdResult<Option<String>> {
    let answer = record(&ctx.state, conversation_id, turn)?;
    let (content, extension) = match format {
        ExportFormat::Markdown => (to_markdown(&answer), "md"),
        ExportFormat::Csv => {
            let reader = ctx.state.library()?.reader().map_err(AppError::not_indexed)?;
            let index_version = reader.index_version()?;
            let hashes = reader.content_hashes()?;
            let hash_of = |p: &std::path::Path| hashes.get(p).cloned();
            (provenance_csv(&answer, &index_version, &hash_of), "csv")
        }
    };
    let name = format!("pagewise-answer-{conversation_id}-{}.{extension}", turn + 1);
    let Some(target) = ctx.app.dialog().file().set_file_name(&name).add_filter(extension, &[extension]).blocking_save_file() else {
        return Ok(None);
    };
    let path = target.into_path().map_err(AppError::failed)?;
    std::fs::write(&path, content).map_err(|e| AppError::failed(format!("{}: {e}", path.display())))?;
    Ok(Some(path.display().to_string()))
}

pub fn report_citation(
    ctx: &Ctx<impl Runtime>,
    conversation_id: i64,
    turn: usize,
    sentence: String,
    chunk_id: i64,
    label: String,
) -> CmdResult<i64> {
    let stored = stored_turn(&ctx.state, conversation_id, turn)?;
    let answer = AnswerRecord::of(stored.answer.as_ref())?;
    let cited = answer
        .citation_of(chunk_id)
        .ok_or_else(|| AppError::not_found("that citation is not part of this answer"))?;
    let feedback = NewFeedback {
        conversation_id: Some(conversation_id),
        turn: Some(turn as i64),
        question: &stored.question,
        claim: &sentence,
        label: &label,
        doc_path: &cited.doc_path,
        page: cited.span.page,
        chunk_id,
    };
    Ok(FeedbackStore::open(ctx.state.data_dir())?.add(&feedback)?)
}
