use std::path::PathBuf;
use std::sync::atomic::Ordering;

use pagewise_core::answer::conversation::{ConversationSummary, Turn};
use pagewise_core::answer::session::ask_in_conversation;
use pagewise_core::answer::suggest::suggested_questions as suggest;
use pagewise_core::answer::{Answer, AskEvent, AskOptions, Asker, Conversations, Generator};
use pagewise_core::Error;
use tauri::ipc::Channel;
use tauri::State;

use super::{blocking, text, CmdResult};
use crate::dto::AskStreamEvent;
use crate::state::AppState;

/// Answers on a blocking thread; steps and tokens stream over `on_event`. Stopping (or a
/// newer question) ends generation at the next token and returns what was checked so far.
#[tauri::command]
pub async fn ask(
    state: State<'_, AppState>,
    question: String,
    conversation_id: Option<i64>,
    scope: Vec<PathBuf>,
    on_event: Channel<AskStreamEvent>,
) -> CmdResult<Answer> {
    let state = state.inner().clone();
    blocking(move || {
        let question = question.trim().to_string();
        if question.is_empty() {
            return Err("type a question first".into());
        }
        let reader = state.library()?.reader().map_err(|e| format!("nothing is indexed yet ({e})"))?;
        // Without a model the answer is extractive; the status banner already says why.
        let generator = state.generator().ok();
        let cancel = state.begin_answer();
        let asker = Asker {
            engine: &reader,
            generator: generator.as_deref().map(|g| g as &dyn Generator),
            options: AskOptions { scope, ..AskOptions::default() },
        };
        let conversations = Conversations::open(state.data_dir()).map_err(text)?;
        let mut sink = |event: AskEvent<'_>| {
            let message = match event {
                AskEvent::Step(step) => AskStreamEvent::Step { step: step.clone() },
                AskEvent::Evidence(quotes) => AskStreamEvent::Evidence { quotes: quotes.to_vec() },
                AskEvent::Token(t) => AskStreamEvent::Token { text: t.to_string() },
                AskEvent::Progress { done, total, what } => {
                    AskStreamEvent::Progress { done: done as u32, total: total as u32, what: what.to_string() }
                }
            };
            // A closed window cannot take more tokens: stop.
            on_event.send(message).is_ok() && !cancel.load(Ordering::SeqCst)
        };
        match ask_in_conversation(&asker, &conversations, conversation_id, &question, &mut sink) {
            Ok(answer) => Ok(answer),
            Err(Error::Interrupted) => Err("stopped".into()),
            Err(e) => Err(e.to_string()),
        }
    })
    .await
}

#[tauri::command]
pub fn stop_answer(state: State<'_, AppState>) {
    state.stop_answer();
}

#[tauri::command]
pub async fn suggested_questions(state: State<'_, AppState>) -> CmdResult<Vec<String>> {
    let state = state.inner().clone();
    blocking(move || match state.library()?.reader() {
        Ok(reader) => suggest(&reader, 3).map_err(text),
        Err(_) => Ok(Vec::new()),
    })
    .await
}

#[tauri::command]
pub async fn list_conversations(state: State<'_, AppState>) -> CmdResult<Vec<ConversationSummary>> {
    let state = state.inner().clone();
    blocking(move || Conversations::open(state.data_dir()).and_then(|c| c.list()).map_err(text)).await
}

#[tauri::command]
pub async fn open_conversation(state: State<'_, AppState>, id: i64) -> CmdResult<Vec<Turn>> {
    let state = state.inner().clone();
    blocking(move || Conversations::open(state.data_dir()).and_then(|c| c.turns(id)).map_err(text)).await
}

#[tauri::command]
pub async fn rename_conversation(state: State<'_, AppState>, id: i64, title: String) -> CmdResult<()> {
    let state = state.inner().clone();
    let title = title.trim().to_string();
    if title.is_empty() {
        return Err("a conversation needs a name".into());
    }
    blocking(move || Conversations::open(state.data_dir()).and_then(|c| c.rename(id, &title)).map_err(text)).await
}

#[tauri::command]
pub async fn delete_conversation(state: State<'_, AppState>, id: i64) -> CmdResult<()> {
    let state = state.inner().clone();
    blocking(move || Conversations::open(state.data_dir()).and_then(|c| c.delete(id)).map_err(text)).await
}
