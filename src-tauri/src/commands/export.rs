use pagewise_core::answer::conversation::Turn;
use pagewise_core::answer::export::{provenance_csv, to_markdown, AnswerRecord};
use pagewise_core::answer::feedback::{FeedbackStore, NewFeedback};
use pagewise_core::answer::Conversations;
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_dialog::DialogExt;

use super::{blocking, text, CmdResult};
use crate::dto::ExportFormat;
use crate::state::AppState;

fn stored_turn(state: &AppState, conversation_id: i64, turn: usize) -> CmdResult<Turn> {
    let turns = Conversations::open(state.data_dir()).and_then(|c| c.turns(conversation_id)).map_err(text)?;
    turns.into_iter().nth(turn).ok_or_else(|| format!("conversation {conversation_id} has no answer {}", turn + 1))
}

fn record(state: &AppState, conversation_id: i64, turn: usize) -> CmdResult<AnswerRecord> {
    AnswerRecord::from_json(&stored_turn(state, conversation_id, turn)?.answer).map_err(text)
}

#[tauri::command]
pub async fn answer_markdown(state: State<'_, AppState>, conversation_id: i64, turn: usize) -> CmdResult<String> {
    let state = state.inner().clone();
    blocking(move || Ok(to_markdown(&record(&state, conversation_id, turn)?))).await
}

/// Asks where to save with the native dialog (on the Rust side), then writes the file.
#[tauri::command]
pub async fn export_answer<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    conversation_id: i64,
    turn: usize,
    format: ExportFormat,
) -> CmdResult<Option<String>> {
    let state = state.inner().clone();
    blocking(move || {
        let answer = record(&state, conversation_id, turn)?;
        let (content, extension) = match format {
            ExportFormat::Markdown => (to_markdown(&answer), "md"),
            ExportFormat::Csv => {
                let reader = state.library()?.reader().map_err(text)?;
                let index_version = index_version(&reader)?;
                let hashes = reader.with_store(|s| s.files()).map_err(text)?;
                let hash_of = |p: &std::path::Path| hashes.iter().find(|f| f.path == p).map(|f| f.content_hash.clone());
                (provenance_csv(&answer, &index_version, &hash_of), "csv")
            }
        };
        let name = format!("pagewise-answer-{conversation_id}-{}.{extension}", turn + 1);
        let Some(target) = app.dialog().file().set_file_name(&name).add_filter(extension, &[extension]).blocking_save_file() else {
            return Ok(None);
        };
        let path = target.into_path().map_err(text)?;
        std::fs::write(&path, content).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Some(path.display().to_string()))
    })
    .await
}

/// The index's schema and embedding model: enough to know which index produced a citation.
pub(crate) fn index_version(reader: &pagewise_core::Engine) -> CmdResult<String> {
    let model = reader.with_store(|s| s.meta(&pagewise_core::index::MetaKey::EmbedModel)).map_err(text)?.unwrap_or_default();
    Ok(format!("schema {} · {model}", pagewise_core::index::store::SCHEMA_VERSION))
}

#[tauri::command]
pub async fn report_citation(
    state: State<'_, AppState>,
    conversation_id: i64,
    turn: usize,
    sentence: String,
    chunk_id: i64,
    label: String,
) -> CmdResult<i64> {
    let state = state.inner().clone();
    blocking(move || {
        let stored = stored_turn(&state, conversation_id, turn)?;
        let answer = AnswerRecord::from_json(&stored.answer).map_err(text)?;
        let cited = answer
            .sentences
            .iter()
            .flat_map(|s| &s.citations)
            .chain(&answer.citations)
            .find(|c| c.chunk_id == chunk_id)
            .ok_or_else(|| "that citation is not part of this answer".to_string())?;
        let feedback = NewFeedback {
            conversation_id: Some(conversation_id),
            turn: Some(turn as i64),
            question: &stored.question,
            claim: &sentence,
            label: &label,
            doc_path: &cited.doc_path,
            page: cited.page,
            chunk_id,
        };
        FeedbackStore::open(state.data_dir()).and_then(|f| f.add(&feedback)).map_err(text)
    })
    .await
}
