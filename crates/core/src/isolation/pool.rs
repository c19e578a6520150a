//! Parsing several files at once. PDFium is not thread-safe, so parallelism comes from
//! several worker processes, one per thread here; results come back in completion order,
//! through a bounded channel so parsed documents never pile up ahead of the writer.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use super::client::IsolatedWorker;
use crate::error::{Error, Result};
use crate::parse::contained::parse_contained;
use crate::parse::Source;
use crate::parse::pdf::{PageProgress, PdfLimits};
use crate::parse::{Document, Format, ParseFailure};

/// How one parsing lane parses files: in a worker process (the app and CLI) or in this
/// process (tests of the logic around parsing; PDFium calls are then serialised).
pub enum Parser {
    InProcess { pdfium_lib: PathBuf, limits: PdfLimits },
    Isolated(IsolatedWorker),
}

/// A file to parse.
#[derive(Debug, Clone)]
pub struct ParseJob {
    pub path: PathBuf,
    pub format: Format,
    pub size: u64,
}

impl Parser {
    /// `on_page` hears about each PDF page as it is read.
    pub fn parse(
        &mut self,
        path: &Path,
        format: Format,
        size: u64,
        max_text_bytes: u64,
        on_page: &mut dyn FnMut(PageProgress),
    ) -> Result<Result<Document, ParseFailure>> {
        // Plain text is refused by size before anything reads it; every format is then
        // parsed in the worker (or, for tests, by the same code in this process).
        if format.is_plain_text() && size > max_text_bytes {
            return Ok(Err(format!("text file of {size} bytes, over the limit of {max_text_bytes}")));
        }
        match self {
            Parser::InProcess { pdfium_lib, limits } => match Source::open(path) {
                Ok(source) => parse_contained(pdfium_lib, source, format, *limits, on_page),
                Err(reason) => Ok(Err(reason)),
            },
            Parser::Isolated(worker) => worker.parse(path, format, on_page),
        }
    }

    /// Whether this lane may parse at all: a worker whose sandbox lacks a layer the user did
    /// not accept may not. Asked before the first file, so no file is marked as started.
    pub fn ready(&mut self) -> Result<()> {
        match self {
            Parser::InProcess { .. } => Ok(()),
            Parser::Isolated(worker) => worker.admitted(),
        }
    }
}

/// What a parsing lane tells the calling thread.
enum LaneMessage {
    /// Job `i` is about to be parsed; the lane waits for the acknowledgement.
    Starting(usize, mpsc::SyncSender<()>),
    Parsed(usize, Result<Result<Document, ParseFailure>>),
    /// The lane cannot parse at all; it took no job.
    Unusable(Error),
}

/// What happens to job `i`, as the calling thread hears it.
pub enum ParseEvent {
    /// The job is about to be parsed; its lane waits until the handler returns (so a record
    /// of the parse can be on disk first).
    Starting,
    Parsed(Result<Document, ParseFailure>),
}

/// Parses `jobs` on all `parsers` at once and hands `on_event` (on the calling thread) each
/// job's start and then its result, as they happen; `on_page` hears (on the parsing threads)
/// about each PDF page of job `i` as it is read. Stops taking new jobs when `cancel` is set;
/// returns whether it stopped early.
pub fn parse_many<F>(
    parsers: &mut [Parser],
    jobs: &[ParseJob],
    max_text_bytes: u64,
    cancel: &AtomicBool,
    on_page: &(dyn Fn(usize, PageProgress) + Sync),
    mut on_event: F,
) -> Result<bool>
where
    F: FnMut(usize, ParseEvent) -> Result<()>,
{
    if parsers.is_empty() {
        return Err(Error::Worker("no parser".into()));
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::sync_channel::<LaneMessage>(parsers.len());
    let outcome = std::thread::scope(|scope| {
        for parser in parsers.iter_mut() {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed) {
                    break;
                }
                if next.load(Ordering::Relaxed) < jobs.len() {
                    if let Err(e) = parser.ready() {
                        let _ = tx.send(LaneMessage::Unusable(e));
                        break;
                    }
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let (ack_tx, ack_rx) = mpsc::sync_channel(1);
                if tx.send(LaneMessage::Starting(i, ack_tx)).is_err() || ack_rx.recv().is_err() {
                    break;
                }
                let result = parser.parse(&job.path, job.format, job.size, max_text_bytes, &mut |p| on_page(i, p));
                if tx.send(LaneMessage::Parsed(i, result)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut first_error = None;
        for message in rx {
            let handled = match message {
                // A lane whose start failed gets no acknowledgement and stops.
                LaneMessage::Starting(i, ack) => on_event(i, ParseEvent::Starting).map(|()| {
                    let _ = ack.send(());
                }),
                LaneMessage::Parsed(i, result) => result.and_then(|parsed| on_event(i, ParseEvent::Parsed(parsed))),
                LaneMessage::Unusable(e) => Err(e),
            };
            if let Err(e) = handled {
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
            }
        }
        first_error.map_or(Ok(()), Err)
    });
    outcome?;
    Ok(cancel.load(Ordering::Relaxed) && next.load(Ordering::Relaxed) < jobs.len())
}
