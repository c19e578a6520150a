//! Untrusted files are opened in worker processes: parsing for the indexer and rendering for
//! the viewer speak one protocol (`Parse` and `Render` requests) to one kind of worker, so a
//! crash or hang in PDFium or a ZIP bomb costs one file or one picture. This module sits above
//! `parse` and `viewer` and only calls down into them.

mod client;
#[cfg(unix)]
mod handoff;
mod open_file;
mod pool;
mod protocol;
pub(crate) mod sandbox;
#[cfg(all(feature = "test-hooks", target_os = "linux"))]
mod test_hooks;
mod worker;

pub use client::{IsolatedWorker, WorkerCommand};
pub use pool::{parse_many, ParseEvent, ParseJob, Parser};
pub use worker::serve;
pub use sandbox::{MissingLayer, Sandbox};
