//! The commands of the `pagewise` binary (what a user runs: index, search, ask, watch, …) and
//! of `pagewise-dev` (what measures Pagewise: evaluations and benchmarks), over one context.
//! All domain logic lives in `pagewise-core`; these modules parse arguments, drive the engine
//! and format what it returns for people (or as JSON for scripts).

pub mod ask_cmd;
pub mod bench_search_cmd;
pub mod claims_cmd;
pub mod conversations_cmd;
pub mod documents_cmd;
pub mod endpoint_args;
pub mod eval_answers_cmd;
pub mod eval_cmd;
pub mod extract_cmd;
pub mod generation_cache;
pub mod index_cmd;
pub mod models_cmd;
pub mod network_log_cmd;
pub mod scale_cmd;
pub mod search_cmd;
pub mod tools_cmd;
pub mod watch_cmd;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context as _, Result};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use pagewise_core::answer::Conversations;
use pagewise_core::parse::PdfLimits;
use pagewise_core::{models, EngineConfig, PdfParsing};

/// The options every command of both binaries takes.
#[derive(Args)]
pub struct GlobalArgs {
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
}

/// Both binaries' command line: the global options and one of the binary's commands.
#[derive(Parser)]
#[command(version)]
struct CommandLine<C: Subcommand> {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: C,
}

/// Prepares the process, reads the command line of the binary `name` and opens the context
/// its command runs in.
pub fn start<C: Subcommand>(name: &'static str, about: &'static str) -> (C, CommandContext) {
    pagewise_core::prepare_process();
    let matches = CommandLine::<C>::command().name(name).bin_name(name).about(about).get_matches();
    let line = CommandLine::<C>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    (line.command, CommandContext::of(line.global))
}

/// What every command runs in: the data dir and the models it uses.
pub struct CommandContext {
    pub data_dir: PathBuf,
    pub embed_model: Option<PathBuf>,
    pub embed_endpoint: Option<pagewise_core::openai::EndpointSettings>,
    pub accept_weak_sandbox: bool,
}

impl CommandContext {
    /// The context of one run; every request it sends is logged in its data dir, for
    /// `pagewise network-log`.
    pub fn of(global: GlobalArgs) -> CommandContext {
        let context = CommandContext {
            data_dir: global.data_dir.unwrap_or_else(pagewise_core::default_data_dir),
            embed_model: global.embed_model,
            accept_weak_sandbox: global.accept_weak_sandbox,
            embed_endpoint: global.embed_endpoint.map(|url| pagewise_core::openai::EndpointSettings {
                model: global.embed_endpoint_model,
                // Its own key: the answer server's key never goes to the embedding server.
                api_key: std::env::var("PAGEWISE_EMBED_API_KEY").ok(),
                ..pagewise_core::openai::EndpointSettings::new(url)
            }),
        };
        pagewise_core::netlog::record_to(&context.data_dir);
        context
    }

    /// The conversations kept in this data dir.
    pub fn conversations(&self) -> Result<Conversations> {
        Ok(Conversations::open(&self.data_dir)?)
    }

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

/// The isolated parser process each binary starts for the files it reads (`__parse-worker`).
#[derive(Args)]
pub struct WorkerArgs {
    /// Leave pages without a text layer empty instead of reading them with Tesseract.
    #[arg(long = "no-ocr")]
    pub no_ocr: bool,
    pub pdfium_lib: PathBuf,
}

pub fn parse_worker(args: WorkerArgs) -> Result<i32> {
    let limits = PdfLimits { ocr: !args.no_ocr, ..PdfLimits::default() };
    pagewise_core::isolation::serve(&args.pdfium_lib, limits).map(|_| 0).map_err(anyhow::Error::from)
}

/// Ends the process with the command's exit code, or 2 and the error.
pub fn exit_with(program: &str, result: Result<i32>) -> ! {
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("{program}: {e:#}");
            std::process::exit(2);
        }
    }
}

pub fn verify(ctx: &CommandContext, json: bool) -> Result<i32> {
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
