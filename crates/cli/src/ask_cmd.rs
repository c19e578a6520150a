use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use pagewise_core::answer::ask_in_conversation;
use pagewise_core::answer::{Answer, AskEvent, AskOptions, Asker, Generator, LlamaGenerator, LlamaSettings};
use pagewise_core::{models, Reader};

use crate::endpoint_args::EndpointArgs;
use crate::CommandContext;

#[derive(Args)]
pub struct AskArgs {
    question: String,
    /// Print one JSON object: answer, citations, abstained, steps, sources, timings.
    #[arg(long)]
    json: bool,
    /// Only use these folders or documents as evidence (repeatable).
    #[arg(long)]
    scope: Vec<PathBuf>,
    /// Continue this conversation: the question may be a follow-up of its last turn.
    #[arg(long)]
    conversation: Option<i64>,
    /// Any GGUF chat model (default: llm/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf, or $PAGEWISE_CHAT_MODEL).
    #[arg(long, env = "PAGEWISE_CHAT_MODEL")]
    model: Option<PathBuf>,
    /// Answer without a language model: the best evidence sentences, cited.
    #[arg(long)]
    extractive: bool,
    /// Constrain decoding with a grammar that admits only this answer's labels.
    #[arg(long)]
    constrained: bool,
    /// Print each retrieval step as it happens.
    #[arg(long, short)]
    verbose: bool,
    /// Passages retrieved per search.
    #[arg(long, default_value_t = 8)]
    k: usize,
    /// Tokens of evidence given to the model (decides time to first token); by default 700
    /// (at most half the model's context), 2,400 without a model.
    #[arg(long)]
    evidence_tokens: Option<usize>,
    /// Seconds you are willing to wait for the model's first token: the evidence is cut to
    /// what this model reads in that time here (its prompt speed, measured from earlier
    /// answers; `pagewise models list` shows it). No effect before the model has answered once.
    #[arg(long, env = "PAGEWISE_FIRST_TOKEN_WITHIN")]
    first_token_within: Option<f64>,
    #[arg(long, default_value_t = AskOptions::default().max_answer_tokens)]
    max_tokens: usize,
    /// Answer even when retrieval finds nothing that covers the question.
    #[arg(long)]
    never_abstain: bool,
    /// Model threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Layers to offload to the GPU (builds with the cuda or metal feature).
    #[arg(long)]
    gpu_layers: Option<u32>,
    #[command(flatten)]
    endpoint: EndpointArgs,
}

/// The endpoint's model when one is named, else the local GGUF; `Ok(None)` only when a
/// local model cannot be loaded (the caller says why and answers extractively).
pub fn choose_generator(
    ctx: &CommandContext,
    endpoint: &EndpointArgs,
    model: Option<&std::path::Path>,
    threads: Option<usize>,
    gpu_layers: Option<u32>,
) -> Result<Result<Box<dyn Generator>, anyhow::Error>> {
    if let Some(remote) = endpoint.connect()? {
        return Ok(Ok(Box::new(remote)));
    }
    Ok(load_generator(ctx, model, threads, gpu_layers).map(|g| Box::new(g) as Box<dyn Generator>))
}

pub fn load_generator(ctx: &CommandContext, model: Option<&std::path::Path>, threads: Option<usize>, gpu_layers: Option<u32>) -> Result<LlamaGenerator> {
    let path = models::locate_chat_model(Some(&ctx.data_dir), model)?;
    let mut settings = LlamaSettings::new(path);
    if let Some(t) = threads {
        settings.threads = t;
    }
    if let Some(g) = gpu_layers {
        settings.gpu_layers = g;
    }
    Ok(LlamaGenerator::load(&settings)?)
}

pub fn options_from(args: &AskArgs) -> AskOptions {
    AskOptions {
        scope: args.scope.clone(),
        k: args.k,
        evidence_tokens: args.evidence_tokens,
        max_answer_tokens: args.max_tokens,
        constrained: args.constrained,
        never_abstain: args.never_abstain,
        first_token_within_s: args.first_token_within,
        ..AskOptions::default()
    }
}

pub fn run(ctx: &CommandContext, args: AskArgs) -> Result<i32> {
    let engine = Reader::open(ctx.config(Duration::from_secs(60))?)?;
    for n in engine.notices() {
        eprintln!("note: {n}");
    }
    let generator = if args.extractive {
        None
    } else {
        match choose_generator(ctx, &args.endpoint, args.model.as_deref(), args.threads, args.gpu_layers)? {
            Ok(g) => Some(g),
            // Search still works without generation: say why and answer extractively.
            Err(e) => {
                eprintln!("note: answering without a language model: {e}");
                None
            }
        }
    };
    let conversations = ctx.conversations()?;
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let cancel = Arc::clone(&cancel);
        // Ctrl-C stops generation at the next token; a second Ctrl-C exits at once.
        let _ = ctrlc::set_handler(move || {
            if cancel.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    }
    let asker = Asker { reader: &engine, generator: generator.as_deref(), options: options_from(&args) };
    let stream_tokens = !args.json;
    let tty = std::io::stdout().is_terminal();
    let verbose = args.verbose;
    let mut stdout = std::io::stdout();
    let mut streamed_any = false;
    let mut sink = |event: AskEvent<'_>| {
        match event {
            AskEvent::Step(step) if verbose => {
                eprintln!("step {}: {} {} → {}", step.index, step.tool, step.input, step.observation);
            }
            AskEvent::Evidence(quotes) if stream_tokens && !quotes.is_empty() => {
                // The sources' own words first: readable while the model works.
                let _ = writeln!(stdout, "{}", if tty { "\x1b[1mFrom the sources\x1b[0m" } else { "From the sources" });
                for q in quotes {
                    let labels: String = q.citations.iter().map(|c| format!(" [{}]", c.label)).collect();
                    let _ = writeln!(stdout, "  “{}”{labels}", q.text);
                }
                let _ = writeln!(stdout);
                let _ = stdout.flush();
            }
            AskEvent::Token(t) if stream_tokens => {
                if !streamed_any {
                    let _ = writeln!(stdout, "{}", if tty { "\x1b[1mModel\x1b[0m" } else { "Model" });
                }
                let _ = write!(stdout, "{t}");
                let _ = stdout.flush();
                streamed_any = true;
            }
            _ => {}
        }
        !cancel.load(Ordering::SeqCst)
    };
    let answer = match ask_in_conversation(&asker, &conversations, args.conversation, &args.question, &mut sink) {
        Ok(a) => a,
        Err(pagewise_core::Error::Interrupted) => {
            eprintln!("\ncancelled");
            return Ok(130);
        }
        Err(e) => return Err(e.into()),
    };
    let json = serde_json::to_value(&answer).context("cannot serialise the answer")?;
    if args.json {
        println!("{json}");
    } else {
        print_answer(&answer, streamed_any);
    }
    Ok(0)
}

fn print_answer(answer: &Answer, streamed: bool) {
    let tty = std::io::stdout().is_terminal();
    if streamed {
        println!("\n");
        println!("{}", if tty { "\x1b[1mChecked answer\x1b[0m" } else { "Checked answer" });
    }
    println!("{}", answer.answer);
    if let Some(note) = &answer.note {
        println!("\n({note})");
    }
    if !answer.citations.is_empty() {
        println!("\nSources:");
        for (i, c) in answer.citations.iter().enumerate() {
            let quote: String = c.quote.split_whitespace().collect::<Vec<_>>().join(" ");
            let quote: String = quote.chars().take(200).collect();
            let place = c.section.clone().unwrap_or_else(|| format!("p.{}", c.span.page));
            println!("  {}. [{}] {} · {place} · {}\n     \"{}\"", i + 1, c.label, c.doc_title, c.doc_path.display(), quote);
            if !c.also_in.is_empty() {
                let copies: Vec<String> = c.also_in.iter().map(|p| p.display().to_string()).collect();
                println!("     also in: {}", copies.join(", "));
            }
        }
    }
    let a = &answer.attribution;
    if a.sentences > 0 {
        println!(
            "\nchecked {} sentences: {} cited by the model, {} citations attached, {} replaced, {} unsupported, {} invalid labels dropped",
            a.sentences, a.kept, a.attached, a.replaced, a.unsupported, a.invalid_labels_dropped
        );
    }
    if let Some(id) = answer.conversation_id {
        println!("conversation {id} (continue with --conversation {id})");
    }
}
