//! One question inside a conversation: the previous turn makes follow-ups answerable, and the
//! answer is stored as the conversation's next turn. Shared by the CLI and the app.

use super::ask::{Answer, AskEvent, Asker};
use super::conversations::Conversations;
use crate::engine::Queries;
use crate::error::Result;
use crate::model_catalog::record_speed;

/// Asks `question` in conversation `conversation_id` (a new one when `None`) and records the
/// turn. The returned answer carries the conversation id.
pub fn ask_in_conversation(
    asker: &Asker<'_>,
    conversations: &Conversations,
    conversation_id: Option<i64>,
    question: &str,
    sink: &mut dyn FnMut(AskEvent<'_>) -> bool,
) -> Result<Answer> {
    let earlier = match conversation_id {
        Some(id) => conversations.turns(id)?,
        None => Vec::new(),
    };
    let previous = earlier.last().map(|t| t.standalone_query.clone());
    let mut answer = asker.ask(question, previous.as_deref(), sink)?;
    if let Some(generator) = asker.generator {
        let t = &answer.timings;
        let evaluated = t.prompt_tokens.saturating_sub(t.reused_prompt_tokens) as f64;
        // Short prompts (all reused) say little about prompt speed; keep real measurements.
        if evaluated >= 64.0 && t.prompt_ms > 0.0 && t.generation_ms > 0.0 && t.generated_tokens >= 8 {
            let prompt_rate = evaluated * 1000.0 / t.prompt_ms;
            let generation_rate = t.generated_tokens as f64 * 1000.0 / t.generation_ms;
            // A speed that cannot be saved is no reason to lose the answer.
            let _ = record_speed(asker.reader.data_dir(), &generator.info().path, prompt_rate, generation_rate);
        }
    }
    let id = match conversation_id {
        Some(id) => id,
        None => conversations.create(question)?,
    };
    answer.conversation_id = Some(id);
    answer.turn = Some(earlier.len());
    let standalone = answer.standalone_query.clone().unwrap_or_else(|| question.to_string());
    conversations.add_turn(id, question, &standalone, &answer)?;
    Ok(answer)
}
