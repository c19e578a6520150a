//! Prompts live in `crates/core/prompts/*.txt`; this file only fills their `{{slots}}`.

use super::evidence::EvidenceSet;
use super::generator::{ChatMessage, Role};

pub const ANSWER_SYSTEM: &str = include_str!("../../prompts/answer_system.txt");
const ANSWER_USER: &str = include_str!("../../prompts/answer_user.txt");
const EVIDENCE_BLOCK: &str = include_str!("../../prompts/evidence_block.txt");
const COMPLETION_LAYOUT: &str = include_str!("../../prompts/completion_layout.txt");
const SECTION_NOTE_USER: &str = include_str!("../../prompts/section_note_user.txt");
const COMBINE_NOTES_USER: &str = include_str!("../../prompts/combine_notes_user.txt");

/// The sentence the system prompt asks for when the evidence does not answer the question.
pub const NOT_COVERED: &str = "The documents do not cover this.";

/// Replaces each `{{name}}` with its value; a slot without a value is left visible so a
/// template typo shows up in the prompt snapshot test.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{{{name}}}}}"), value);
    }
    out
}

pub fn evidence_text(evidence: &EvidenceSet) -> String {
    let mut blocks = Vec::with_capacity(evidence.pages.len());
    for page in &evidence.pages {
        let heading = page.heading_path();
        let heading = if heading.is_empty() { String::new() } else { format!(" — {heading}") };
        let text = page.passages.iter().map(|p| p.text.trim()).collect::<Vec<_>>().join("\n…\n");
        blocks.push(
            fill(
                EVIDENCE_BLOCK,
                &[("label", &page.label), ("title", &page.doc_title), ("heading", &heading), ("modified", &page.modified), ("text", &text)],
            )
            .trim_end()
            .to_string(),
        );
    }
    blocks.join("\n\n")
}

pub fn answer_messages(question: &str, evidence: &EvidenceSet) -> Vec<ChatMessage> {
    vec![
        ChatMessage { role: Role::System, content: ANSWER_SYSTEM.trim_end().to_string() },
        ChatMessage {
            role: Role::User,
            content: fill(ANSWER_USER, &[("evidence", &evidence_text(evidence)), ("question", question.trim())]).trim_end().to_string(),
        },
    ]
}

pub fn section_note_messages(task: &str, evidence: &EvidenceSet) -> Vec<ChatMessage> {
    vec![
        ChatMessage { role: Role::System, content: ANSWER_SYSTEM.trim_end().to_string() },
        ChatMessage {
            role: Role::User,
            content: fill(SECTION_NOTE_USER, &[("evidence", &evidence_text(evidence)), ("task", task.trim())]).trim_end().to_string(),
        },
    ]
}

pub fn combine_notes_messages(task: &str, notes: &str) -> Vec<ChatMessage> {
    vec![
        ChatMessage { role: Role::System, content: ANSWER_SYSTEM.trim_end().to_string() },
        ChatMessage {
            role: Role::User,
            content: fill(COMBINE_NOTES_USER, &[("notes", notes), ("task", task.trim())]).trim_end().to_string(),
        },
    ]
}

/// The layout for base models without a chat template: instructions, the request, and an
/// open "Answer:" for the model to continue.
pub fn completion_layout(messages: &[ChatMessage]) -> String {
    let system: Vec<&str> = messages.iter().filter(|m| m.role == Role::System).map(|m| m.content.as_str()).collect();
    let user: Vec<&str> = messages.iter().filter(|m| m.role == Role::User).map(|m| m.content.as_str()).collect();
    fill(COMPLETION_LAYOUT, &[("system", &system.join("\n\n")), ("user", &user.join("\n\n"))]).trim_end().to_string()
}
