//! What is on disk: walks roots and reports files (path, size, mtime). Knows nothing of the
//! stores; the writer compares this with what it has indexed.

mod walk;

pub use walk::{scan, FileEntry, Scan};
