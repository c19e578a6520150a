//! The `pagewise` command: index folders, search them, ask questions with checked citations,
//! keep folders indexed, and manage models and conversations, from a terminal or a script.
//! The commands that measure Pagewise (evaluations, benchmarks) are `pagewise-dev`.

use std::path::PathBuf;

use clap::Subcommand;
use pagewise_cli::*;

#[derive(Subcommand)]
enum Command {
    /// Index files and folders (only what changed since the last run).
    Index(index_cmd::IndexArgs),
    /// Keep folders indexed as files are created, changed, moved and deleted (until Ctrl-C).
    Watch(watch_cmd::WatchArgs),
    /// Per folder: files, indexed, failed (with reasons), pending, last scan, freshness, store sizes.
    Status {
        #[arg(long)]
        json: bool,
    },
    /// Every indexed document with its organisation, kind, period and language (what routing uses).
    Documents {
        #[arg(long)]
        json: bool,
    },
    /// The versions of an indexed file: content hash, modified and indexed times.
    History {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Search the index; prints ranked passages with document, page and score.
    Search(search_cmd::SearchArgs),
    /// Read the same fields from the tables of many documents into one row per document, each
    /// value with its page, row and column (--csv FILE, or --json)
    Extract(extract_cmd::ExtractArgs),
    /// Answer a question from the indexed documents, with checked [Doc_p] citations.
    Ask(ask_cmd::AskArgs),
    /// List, show, rename and delete conversations.
    #[command(subcommand)]
    Conversations(conversations_cmd::ConversationsCmd),
    /// Export an answer as Markdown with numbered sources, or its provenance as CSV.
    Export {
        conversation: i64,
        /// The answer's place in the conversation (0 for the first).
        #[arg(long, default_value_t = 0)]
        turn: usize,
        #[arg(long, value_enum, default_value = "markdown")]
        format: conversations_cmd::ExportFormat,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// "Does not support this" reports on citations; export them as evaluation questions.
    #[command(subcommand)]
    Feedback(conversations_cmd::FeedbackCmd),
    /// The chat models installed here, with size and the speed measured on this machine.
    #[command(subcommand)]
    Models(models_cmd::ModelsCmd),
    /// Print the text Pagewise extracts from files (per page with --json).
    Parse(tools_cmd::ParseArgs),
    /// Every network connection Pagewise has made from this data dir: when, to which host,
    /// and why (model download, answer server, embedding server). Nothing else connects.
    #[command(name = "network-log")]
    NetworkLog {
        #[arg(long)]
        json: bool,
    },
    /// Check that SQLite, the keyword index and the vector index agree (repairing on open).
    Verify {
        #[arg(long)]
        json: bool,
    },
    /// Internal: the isolated PDF parser process.
    #[command(name = "__parse-worker", hide = true)]
    ParseWorker(WorkerArgs),
}

fn main() {
    let (command, ctx) = start::<Command>("pagewise", "Local document search with page-level citations");
    let result = match command {
        Command::Index(args) => index_cmd::run(&ctx, args),
        Command::Search(args) => search_cmd::run(&ctx, args),
        Command::Ask(args) => ask_cmd::run(&ctx, args),
        Command::Watch(args) => watch_cmd::watch(&ctx, args),
        Command::Status { json } => watch_cmd::status(&ctx, json),
        Command::Documents { json } => documents_cmd::run(&ctx, json),
        Command::Extract(args) => extract_cmd::run(&ctx, args),
        Command::History { file, json } => watch_cmd::history(&ctx, &file, json),
        Command::Models(cmd) => models_cmd::run(&ctx, cmd),
        Command::Conversations(cmd) => conversations_cmd::conversations(&ctx, cmd),
        Command::Export { conversation, turn, format, out } => conversations_cmd::export(&ctx, conversation, turn, format, out),
        Command::Feedback(cmd) => conversations_cmd::feedback(&ctx, cmd),
        Command::Parse(args) => tools_cmd::parse(&ctx, args),
        Command::NetworkLog { json } => network_log_cmd::run(&ctx, json),
        Command::Verify { json } => verify(&ctx, json),
        Command::ParseWorker(args) => parse_worker(args),
    };
    exit_with("pagewise", result)
}
