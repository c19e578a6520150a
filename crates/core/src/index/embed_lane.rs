//! Embedding beside parsing: passages that the parse loop has just committed (keyword-
//! searchable, vectors pending) go over a bounded channel to a thread that embeds them while
//! later files are still being parsed; the writer thread collects the vectors and stores them
//! in the vector index and SQLite itself, so the stores keep their one writer.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Instant;

use crate::embed::{EmbedCount, TextRole};
use crate::error::{Error, Result};

/// Batches waiting for the embedding thread; a full queue holds the parse loop back, so
/// parsing never runs far ahead of embedding (memory stays bounded).
const QUEUED: usize = 2;

/// What one embedded batch brings back.
pub(super) struct Embedded {
    pub vectors: Vec<(i64, Vec<f32>)>,
    pub tokens: u64,
    pub seconds: f64,
}

pub(super) struct EmbedLane<'scope> {
    jobs: Option<SyncSender<Vec<(i64, String)>>>,
    results: Receiver<Result<Embedded>>,
    thread: Option<ScopedJoinHandle<'scope, ()>>,
    sent: usize,
    received: usize,
}

impl<'scope> EmbedLane<'scope> {
    /// Starts the embedding thread in `scope`. It skips what is still queued once `cancel` is
    /// set.
    pub fn start<'env>(scope: &'scope Scope<'scope, 'env>, embedder: &'scope dyn EmbedCount, cancel: &'scope AtomicBool) -> EmbedLane<'scope> {
        let (jobs, queue) = sync_channel::<Vec<(i64, String)>>(QUEUED);
        let (done, results) = sync_channel::<Result<Embedded>>(QUEUED + 1);
        let thread = scope.spawn(move || {
            for batch in queue {
                if cancel.load(Ordering::Relaxed) {
                    // Skipped batches stay pending in SQLite; the next run embeds them.
                    if done.send(Ok(Embedded { vectors: Vec::new(), tokens: 0, seconds: 0.0 })).is_err() {
                        break;
                    }
                    continue;
                }
                let started = Instant::now();
                let texts: Vec<String> = batch.iter().map(|(_, t)| t.clone()).collect();
                let tokens = texts.iter().map(|t| embedder.count(t).min(512) as u64 + 2).sum();
                let outcome = embedder.embed(&texts, TextRole::Passage).and_then(|vectors| {
                    if vectors.len() != batch.len() {
                        return Err(Error::EmbeddingService { message: "embedder returned a wrong number of vectors".into() });
                    }
                    let vectors = batch.iter().map(|(id, _)| *id).zip(vectors).collect();
                    Ok(Embedded { vectors, tokens, seconds: started.elapsed().as_secs_f64() })
                });
                if done.send(outcome).is_err() {
                    break;
                }
            }
        });
        EmbedLane { jobs: Some(jobs), results, thread: Some(thread), sent: 0, received: 0 }
    }

    /// Queues passages (id, the text to embed), in batches of at most `batch` passages;
    /// blocks while the queue is full. Results that arrive meanwhile go to `arrived`.
    pub fn send(&mut self, passages: Vec<(i64, String)>, batch: usize, arrived: &mut Vec<Result<Embedded>>) {
        let mut rest = passages;
        while !rest.is_empty() {
            let tail = rest.split_off(rest.len().min(batch));
            let job = std::mem::replace(&mut rest, tail);
            let Some(jobs) = &self.jobs else { return };
            // Waiting here while the thread is busy: take what it finishes, so neither side
            // waits for the other with both queues full.
            let mut job = Some(job);
            while let Some(j) = job.take() {
                match jobs.try_send(j) {
                    Ok(()) => self.sent += 1,
                    Err(std::sync::mpsc::TrySendError::Full(j)) => {
                        match self.results.recv() {
                            Ok(r) => {
                                self.received += 1;
                                arrived.push(r);
                            }
                            Err(_) => return,
                        }
                        job = Some(j);
                    }
                    Err(std::sync::mpsc::TrySendError::Disconnected(_)) => return,
                }
            }
        }
    }

    /// Results that are ready now, without waiting.
    pub fn ready(&mut self) -> Vec<Result<Embedded>> {
        let mut out = Vec::new();
        while let Ok(r) = self.results.try_recv() {
            self.received += 1;
            out.push(r);
        }
        out
    }

    /// Waits for every queued batch (skipped ones, after a cancel, bring no vectors).
    pub fn finish(mut self) -> Vec<Result<Embedded>> {
        self.jobs = None;
        let mut out = Vec::new();
        while self.received < self.sent {
            match self.results.recv() {
                Ok(r) => {
                    self.received += 1;
                    out.push(r);
                }
                Err(_) => break,
            }
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        out
    }
}
