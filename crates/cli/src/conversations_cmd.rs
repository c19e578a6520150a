//! Conversations, answer export and citation feedback from the command line: the same
//! operations the app offers, over the same `conversations.sqlite`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Subcommand, ValueEnum};
use pagewise_core::answer::{provenance_csv, to_markdown, AnswerRecord};
use pagewise_core::index::{as_eval_questions, FeedbackStore, NewFeedback};
use pagewise_core::{Queries, Reader};

use crate::CommandContext;

#[derive(Subcommand)]
pub enum ConversationsCmd {
    /// List conversations, newest first.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Print a conversation's turns as JSON.
    Show { id: i64 },
    Rename { id: i64, title: String },
    Delete { id: i64 },
}

#[derive(Subcommand)]
pub enum FeedbackCmd {
    /// Record that a citation of an answer does not support its claim.
    Add {
        #[arg(long)]
        conversation: i64,
        /// The answer's place in the conversation (0 for the first).
        #[arg(long, default_value_t = 0)]
        turn: usize,
        /// The cited passage (chunk id from `ask --json`).
        #[arg(long)]
        chunk: i64,
        /// The claim the passage was cited for.
        #[arg(long)]
        claim: String,
    },
    /// List the reports as JSON lines.
    List,
    /// Write the reports as evaluation questions (JSONL) for `pagewise-dev eval` / `eval-answers`.
    Export {
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Markdown,
    Csv,
}

fn turn_record(ctx: &CommandContext, conversation: i64, turn: usize) -> Result<(String, AnswerRecord)> {
    let turns = ctx.conversations()?.turns(conversation)?;
    let Some(t) = turns.into_iter().nth(turn) else { bail!("conversation {conversation} has no turn {turn}") };
    Ok((t.question, AnswerRecord::of(t.answer.as_ref())?))
}

pub fn conversations(ctx: &CommandContext, cmd: ConversationsCmd) -> Result<i32> {
    let store = ctx.conversations()?;
    match cmd {
        ConversationsCmd::List { json } => {
            for c in store.list()? {
                if json {
                    println!("{}", serde_json::to_string(&c)?);
                } else {
                    println!("{:>5}  {:>3} turns  {}", c.id, c.turns, c.title);
                }
            }
        }
        ConversationsCmd::Show { id } => println!("{}", serde_json::to_string_pretty(&store.turns(id)?)?),
        ConversationsCmd::Rename { id, title } => store.rename(id, &title)?,
        ConversationsCmd::Delete { id } => store.delete(id)?,
    }
    Ok(0)
}

/// `pagewise export`: an answer as Markdown with numbered sources, or its provenance as CSV.
pub fn export(ctx: &CommandContext, conversation: i64, turn: usize, format: ExportFormat, out: Option<PathBuf>) -> Result<i32> {
    let (_, record) = turn_record(ctx, conversation, turn)?;
    let text = match format {
        ExportFormat::Markdown => to_markdown(&record),
        ExportFormat::Csv => {
            let reader = Reader::open(ctx.config(Duration::from_secs(60))?)?;
            let hashes = reader.content_hashes()?;
            let hash_of = |p: &std::path::Path| hashes.get(p).cloned();
            provenance_csv(&record, &reader.index_version()?, &hash_of)
        }
    };
    match out {
        Some(path) => std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(0)
}

pub fn feedback(ctx: &CommandContext, cmd: FeedbackCmd) -> Result<i32> {
    let store = FeedbackStore::open(&ctx.data_dir)?;
    match cmd {
        FeedbackCmd::Add { conversation, turn, chunk, claim } => {
            let (question, record) = turn_record(ctx, conversation, turn)?;
            let cited = record
                .citation_of(chunk)
                .with_context(|| format!("passage {chunk} is not cited in that answer"))?;
            let id = store.add(&NewFeedback {
                conversation_id: Some(conversation),
                turn: Some(turn as i64),
                question: &question,
                claim: &claim,
                label: "",
                doc_path: &cited.doc_path,
                page: cited.span.page,
                chunk_id: chunk,
            })?;
            println!("recorded feedback {id}");
        }
        FeedbackCmd::List => {
            for f in store.list()? {
                println!("{}", serde_json::to_string(&f)?);
            }
        }
        FeedbackCmd::Export { out } => {
            let items = store.list()?;
            let text = as_eval_questions(&items);
            match out {
                Some(path) => {
                    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
                    eprintln!("{} questions written to {}", items.len(), path.display());
                }
                None => print!("{text}"),
            }
        }
    }
    Ok(0)
}
