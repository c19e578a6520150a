use std::path::PathBuf;
use std::sync::atomic::Ordering;

use pagewise_core::answer::{ConversationSummary, Turn};
use pagewise_core::answer::ask_in_conversation;
use pagewise_core::answer::suggested_questions as suggest;
use pagewise_core::answer::{Answer, AskEvent, AskOptions, Asker};
use tauri::ipc::Channel;
use tauri::Runtime;

use crate::contract::{AppError, CmdResult, Ctx};
use crate::dto::AskStreamEvent;
use crate::settings::Settings;

/// How the app asks: within the user's scope, and cutting the evidence to the first-token wait
/// the user set, if any.
fn ask_options(settings: &Settings, scope: Vec<PathBuf>) -> AskOptions {
    let first_token_within_s = settings.first_token_within_s.filter(|s| s.is_finite() && *s > 0.0);
    AskOptions { scope, first_token_within_s, ..AskOptions::default() }
}

/// Steps and tokens stream over `on_event`. Stopping (or a newer question) ends generation
/// at the next token and returns what was checked so far.
pub fn ask(
    ctx: &Ctx<impl Runtime>,
    question: String,
    conversation_id: Option<i64>,
    scope: Vec<PathBuf>,
    on_event: Channel<AskStreamEvent>,
) -> CmdResult<Answer> {
    let state = &ctx.state;
    let question = question.trim().to_string();
    if question.is_empty() {
        return Err(AppError::invalid("type a question first"));
    }
    let reader = state.library()?.reader().map_err(AppError::not_indexed)?;
    // Without a local model the answer is extractive and the status banner says why; a
    // server the user chose that cannot be used is an error, not a quiet fallback.
    let generator = match state.generator() {
        Ok(g) => Some(g),
        Err(problem) if state.uses_endpoint() => return Err(AppError::failed(problem)),
        Err(_) => None,
    };
    let cancel = state.begin_answer();
    let asker = Asker {
        reader: &reader,
        generator: generator.as_deref(),
        options: ask_options(&state.settings(), scope),
    };
    let conversations = state.conversations()?;
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
    Ok(ask_in_conversation(&asker, &conversations, conversation_id, &question, &mut sink)?)
}

pub fn stop_answer(ctx: &Ctx<impl Runtime>) -> CmdResult<()> {
    ctx.state.stop_answer();
    Ok(())
}

pub fn suggested_questions(ctx: &Ctx<impl Runtime>) -> CmdResult<Vec<String>> {
    match ctx.state.library()?.reader() {
        Ok(reader) => Ok(suggest(&reader, 3)?),
        Err(_) => Ok(Vec::new()),
    }
}

pub fn list_conversations(ctx: &Ctx<impl Runtime>) -> CmdResult<Vec<ConversationSummary>> {
    Ok(ctx.state.conversations()?.list()?)
}

pub fn open_conversation(ctx: &Ctx<impl Runtime>, id: i64) -> CmdResult<Vec<Turn>> {
    Ok(ctx.state.conversations()?.turns(id)?)
}

pub fn rename_conversation(ctx: &Ctx<impl Runtime>, id: i64, title: String) -> CmdResult<()> {
    let title = title.trim();
    if title.is_empty() {
        return Err(AppError::invalid("a conversation needs a name"));
    }
    Ok(ctx.state.conversations()?.rename(id, title)?)
}

pub fn delete_conversation(ctx: &Ctx<impl Runtime>, id: i64) -> CmdResult<()> {
    Ok(ctx.state.conversations()?.delete(id)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_token_wait_the_user_set_reaches_the_asker() {
        let set = Settings { first_token_within_s: Some(8.0), ..Settings::default() };
        assert_eq!(ask_options(&set, Vec::new()).first_token_within_s, Some(8.0));
        for unset in [None, Some(0.0), Some(-3.0), Some(f64::NAN)] {
            let s = Settings { first_token_within_s: unset, ..Settings::default() };
            assert_eq!(ask_options(&s, vec![PathBuf::from("/docs")]).first_token_within_s, None, "{unset:?}");
        }
        assert_eq!(ask_options(&Settings::default(), vec![PathBuf::from("/docs")]).scope, vec![PathBuf::from("/docs")]);
    }
}
