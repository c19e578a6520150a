//! What every search reads of the whole library (passage counts, each document with its
//! facets), kept for the life of a reader. A reader is a snapshot (its keyword and vector
//! indexes do not move until it is reopened after a commit), and at a million passages these
//! two reads cost more than the rest of routing.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::error::Result;
use crate::index::{DocumentInfo, Store};

#[derive(Default)]
pub struct LibrarySnapshot {
    counts: OnceLock<(u64, u64)>,
    documents: OnceLock<Vec<DocumentInfo>>,
}

/// Reads through a snapshot when there is one (a reader), or straight from the store (the
/// writer, whose library changes between searches).
#[derive(Clone, Copy)]
pub struct LibraryFacts<'a> {
    pub store: &'a Store,
    pub snapshot: Option<&'a LibrarySnapshot>,
}

impl<'a> LibraryFacts<'a> {
    /// (chunks, chunks with a vector).
    pub fn chunk_counts(&self) -> Result<(u64, u64)> {
        let Some(snapshot) = self.snapshot else { return self.store.chunk_counts() };
        if let Some(counts) = snapshot.counts.get() {
            return Ok(*counts);
        }
        let counts = self.store.chunk_counts()?;
        Ok(*snapshot.counts.get_or_init(|| counts))
    }

    pub fn documents(&self) -> Result<Cow<'a, [DocumentInfo]>> {
        let Some(snapshot) = self.snapshot else { return Ok(Cow::Owned(self.store.all_documents()?)) };
        if let Some(documents) = snapshot.documents.get() {
            return Ok(Cow::Borrowed(documents));
        }
        let documents = self.store.all_documents()?;
        Ok(Cow::Borrowed(snapshot.documents.get_or_init(|| documents)))
    }
}
