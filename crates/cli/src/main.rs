//! The `pagewise` command: index, search and evaluate local documents from a terminal or a
//! script. All domain logic lives in `pagewise-core`; this file parses arguments, drives the
//! engine and formats what it returns for people (or as JSON for scripts).

mod ask_cmd;
mod bench_search_cmd;
mod claims_cmd;
mod conversations_cmd;
mod documents_cmd;
mod endpoint_args;
mod eval_answers_cmd;
mod eval_cmd;
mod extract_cmd;
mod index_cmd;
mod models_cmd;
mod network_log_cmd;
mod scale_cmd;
mod search_cmd;
mod tools_cmd;
mod watch_cmd;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use pagewise_core::parse::pdf::PdfLimits;
use pagewise_core::{models, EngineConfig, PdfParsing};

#[derive(Parser)]
#[command(name = "pagewise", version, about = "Local document search with page-level citations")]
struct Cli {
    /// Where the index lives (default: the platform data dir, or $PAGEWISE_DATA_DIR).
    #[arg(long, global = true, env = "PAGEWISE_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// An embedding model folder, BERT or XLM-RoBERTa (model.safetensors, tokenizer.json, config.json).
    #[arg(long, global = true, env = "PAGEWISE_EMBED_MODEL")]
    embed_model: Option<PathBuf>,
    /// Compute passage and query vectors on an OpenAI-compatible server (POST /v1/embeddings)
    /// instead of this machine: its base URL. Uses the network: every passage is sent there.
    /// A library embedded this way is re-embedded when the server or model changes; the key,
    /// if needed, comes from $PAGEWISE_EMBED_API_KEY (never the answer server's
    /// $PAGEWISE_API_KEY), and is sent only over https or to this computer.
    #[arg(long, global = true, env = "PAGEWISE_EMBED_ENDPOINT")]
    embed_endpoint: Option<String>,
    /// The embedding model to ask the server for (default: the only one it serves).
    #[arg(long, global = true, env = "PAGEWISE_EMBED_ENDPOINT_MODEL")]
    embed_endpoint_model: Option<String>,
    /// Parse files even when the parser's sandbox lacks a layer on this machine (`pagewise
    /// status` names what is missing). Without it, indexing stops and says what is missing.
    #[arg(long, global = true, env = "PAGEWISE_ACCEPT_WEAK_SANDBOX")]
    accept_weak_sandbox: bool,
    #[command(subcommand)]
    command: Command,
}

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
    /// Answer evaluation: gold-page citations, abstaining, label validity, time to first token.
    #[command(name = "eval-answers")]
    EvalAnswers(eval_answers_cmd::EvalAnswersArgs),
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
    /// Page-level retrieval evaluation: recall@1/5/10 and MRR@10 per search mode.
    Eval(eval_cmd::EvalArgs),
    /// The chat models installed here, with size and the speed measured on this machine.
    #[command(subcommand)]
    Models(models_cmd::ModelsCmd),
    /// Print the text Pagewise extracts from files (per page with --json).
    Parse(tools_cmd::ParseArgs),
    /// Measure embedding speed on given texts (JSON lines with "text").
    #[command(name = "bench-embed")]
    BenchEmbed(tools_cmd::EmbedBenchArgs),
    /// Search-view latency as someone types: each query of a file searched prefix by prefix
    /// (P50/P95/max ms).
    BenchSearch(bench_search_cmd::BenchSearchArgs),
    /// The claim check on a labelled claim set: recall and precision of the "unsupported" flag.
    #[command(name = "bench-claims")]
    BenchClaims(claims_cmd::ClaimsBenchArgs),
    /// Measure llama.cpp prompt and generation speed on a prompt file (fixed length, greedy).
    #[command(name = "bench-generate")]
    BenchGenerate(tools_cmd::GenerateBenchArgs),
    /// A synthetic library of any size for measuring scale: build, query (open time, latency,
    /// memory, disk) and add (bench/scale.sh).
    #[command(name = "bench-scale", subcommand)]
    BenchScale(scale_cmd::ScaleCmd),
    /// Write an image-only copy of a PDF (every page a picture, no text layer), as a scanner
    /// would: for measuring OCR and for testing scanned documents.
    ImageOnlyCopy {
        from: PathBuf,
        to: PathBuf,
        /// Resolution of the page pictures.
        #[arg(long, default_value_t = 300)]
        dpi: u32,
    },
    /// Render a PDF page as the viewer does (in the worker process), with the highlight of a
    /// quote: prints the picture's size and the highlight rectangles.
    Render(tools_cmd::RenderArgs),
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
    ParseWorker {
        /// Leave pages without a text layer empty instead of reading them with Tesseract.
        #[arg(long = "no-ocr")]
        no_ocr: bool,
        pdfium_lib: PathBuf,
    },
}

pub(crate) struct Context_ {
    pub data_dir: PathBuf,
    pub embed_model: Option<PathBuf>,
    pub embed_endpoint: Option<pagewise_core::openai::EndpointSettings>,
    pub accept_weak_sandbox: bool,
}

impl Context_ {
    pub fn config(&self, worker_timeout: Duration) -> Result<EngineConfig> {
        let models = models::locate(Some(&self.data_dir), self.embed_model.as_deref())?;
        let mut config = EngineConfig::new(self.data_dir.clone(), models);
        config.embed_endpoint = self.embed_endpoint.clone();
        config.accept_weak_sandbox = self.accept_weak_sandbox;
        // Fewer parsing processes on a busy machine, or more on a big one.
        if let Some(n) = std::env::var("PAGEWISE_PARSE_WORKERS").ok().and_then(|v| v.parse::<usize>().ok()) {
            config.parse_workers = n.clamp(1, 32);
        }
        let program = std::env::current_exe().context("cannot find the pagewise executable for the PDF worker")?;
        config.pdf = PdfParsing::Worker {
            program,
            args: vec!["__parse-worker".into()],
            timeout: worker_timeout,
            memory_limit: Some(4 << 30),
        };
        Ok(config)
    }
}

fn main() {
    pagewise_core::prepare_process();
    let cli = Cli::parse();
    let ctx = Context_ {
        data_dir: cli.data_dir.unwrap_or_else(pagewise_core::default_data_dir),
        embed_model: cli.embed_model,
        accept_weak_sandbox: cli.accept_weak_sandbox,
        embed_endpoint: cli.embed_endpoint.map(|url| pagewise_core::openai::EndpointSettings {
            model: cli.embed_endpoint_model,
            // Its own key: the answer server's key never goes to the embedding server.
            api_key: std::env::var("PAGEWISE_EMBED_API_KEY").ok(),
            ..pagewise_core::openai::EndpointSettings::new(url)
        }),
    };
    // Every request this run sends is logged in its data dir, for `pagewise network-log`.
    pagewise_core::netlog::record_to(&ctx.data_dir);
    let result = match cli.command {
        Command::Index(args) => index_cmd::run(&ctx, args),
        Command::Search(args) => search_cmd::run(&ctx, args),
        Command::Eval(args) => eval_cmd::run(&ctx, args),
        Command::Ask(args) => ask_cmd::run(&ctx, args),
        Command::EvalAnswers(args) => eval_answers_cmd::run(&ctx, args),
        Command::Watch(args) => watch_cmd::watch(&ctx, args),
        Command::Status { json } => watch_cmd::status(&ctx, json),
        Command::Documents { json } => documents_cmd::run(&ctx, json),
        Command::Extract(args) => extract_cmd::run(&ctx, args),
        Command::History { file, json } => watch_cmd::history(&ctx, &file, json),
        Command::Models(cmd) => models_cmd::run(&ctx, cmd),
        Command::BenchClaims(args) => claims_cmd::run(&ctx, args),
        Command::Conversations(cmd) => conversations_cmd::conversations(&ctx, cmd),
        Command::Export { conversation, turn, format, out } => conversations_cmd::export(&ctx, conversation, turn, format, out),
        Command::Feedback(cmd) => conversations_cmd::feedback(&ctx, cmd),
        Command::Parse(args) => tools_cmd::parse(&ctx, args),
        Command::BenchEmbed(args) => tools_cmd::embed_bench(&ctx, args),
        Command::BenchSearch(args) => bench_search_cmd::run(&ctx, args),
        Command::BenchGenerate(args) => tools_cmd::generate_bench(args),
        Command::BenchScale(cmd) => scale_cmd::run(&ctx, cmd),
        Command::ImageOnlyCopy { from, to, dpi } => tools_cmd::image_only_copy(&ctx, &from, &to, dpi),
        Command::Render(args) => tools_cmd::render(&ctx, args),
        Command::NetworkLog { json } => network_log_cmd::run(&ctx, json),
        Command::Verify { json } => verify(&ctx, json),
        Command::ParseWorker { pdfium_lib, no_ocr } => pagewise_core::isolation::serve(&pdfium_lib, PdfLimits { ocr: !no_ocr, ..PdfLimits::default() })
            .map(|_| 0)
            .map_err(anyhow::Error::from),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("pagewise: {e:#}");
            std::process::exit(2);
        }
    }
}

fn verify(ctx: &Context_, json: bool) -> Result<i32> {
    let config = ctx.config(Duration::from_secs(60))?;
    // Opening for writing repairs what a crash left; where that cannot run (a full disk, a
    // read-only medium) the stores are still checked, read-only.
    let c = match pagewise_core::Writer::open(config.clone()) {
        Ok(engine) => {
            for n in engine.notices() {
                eprintln!("note: {n}");
            }
            pagewise_core::Queries::verify(&engine)?
        }
        Err(e) => {
            eprintln!("note: cannot open the index for repair ({e}); checking it read-only");
            pagewise_core::Queries::verify(&pagewise_core::Reader::open(config)?)?
        }
    };
    if json {
        println!("{}", serde_json::to_string(&c)?);
    } else {
        println!(
            "chunks {} · keyword index: {} missing, {} extra, {} duplicated · vectors: {} missing, {} extra · sqlite integrity {}",
            c.chunks,
            c.lexical_missing,
            c.lexical_extra,
            c.lexical_duplicates,
            c.vectors_missing,
            c.vectors_extra,
            if c.sqlite_integrity_ok { "ok" } else { "FAILED" }
        );
    }
    Ok(if c.is_consistent() { 0 } else { 1 })
}
