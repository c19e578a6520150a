//! What every search reads of the whole library (passage counts, each document with its
//! facets), kept for the life of a reader. A reader is a snapshot (its keyword and vector
//! indexes do not move until it is reopened after a commit), and at a million passages these
//! two reads cost more than the rest of routing. The passages of each document a search was
//! routed to are kept too: at a million passages reading them is a tenth of a search, and
//! people ask about the same few documents again and again.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::Result;
use crate::index::{DocumentInfo, LexicalIndex, Catalog};

#[derive(Default)]
pub struct LibrarySnapshot {
    counts: OnceLock<(u64, u64)>,
    documents: OnceLock<Vec<DocumentInfo>>,
    /// Per document, its label for routing (title and file name), in lower case.
    labels: OnceLock<HashMap<i64, String>>,
    /// Per document, its passage ids, sorted.
    chunk_ids: Mutex<HashMap<i64, Arc<[i64]>>>,
    /// Per name a question carried, how many documents use it (routing asks again and again
    /// about the same few names).
    name_uses: Mutex<HashMap<String, u64>>,
}

/// Reads through a snapshot when there is one (a reader), or straight from the store (the
/// writer, whose library changes between searches).
#[derive(Clone, Copy)]
pub struct LibraryFacts<'a> {
    pub catalog: &'a Catalog,
    pub snapshot: Option<&'a LibrarySnapshot>,
}

impl<'a> LibraryFacts<'a> {
    /// (chunks, chunks with a vector).
    pub fn chunk_counts(&self) -> Result<(u64, u64)> {
        let Some(snapshot) = self.snapshot else { return self.catalog.chunk_counts() };
        if let Some(counts) = snapshot.counts.get() {
            return Ok(*counts);
        }
        let counts = self.catalog.chunk_counts()?;
        Ok(*snapshot.counts.get_or_init(|| counts))
    }

    pub fn documents(&self) -> Result<Cow<'a, [DocumentInfo]>> {
        let Some(snapshot) = self.snapshot else { return Ok(Cow::Owned(self.catalog.all_documents()?)) };
        if let Some(documents) = snapshot.documents.get() {
            return Ok(Cow::Borrowed(documents));
        }
        let documents = self.catalog.all_documents()?;
        Ok(Cow::Borrowed(snapshot.documents.get_or_init(|| documents)))
    }

    /// Each document's label for routing (title and file name), in lower case.
    pub fn routing_labels(&self) -> Result<Cow<'a, HashMap<i64, String>>> {
        let read = |documents: &[DocumentInfo]| -> HashMap<i64, String> {
            documents.iter().map(|d| (d.doc_id, crate::index::document_label(&d.title, &d.path).to_lowercase())).collect()
        };
        let Some(snapshot) = self.snapshot else { return Ok(Cow::Owned(read(&self.catalog.all_documents()?))) };
        if let Some(labels) = snapshot.labels.get() {
            return Ok(Cow::Borrowed(labels));
        }
        let labels = read(&self.documents()?);
        Ok(Cow::Borrowed(snapshot.labels.get_or_init(|| labels)))
    }

    /// How many documents use `name` in their text.
    pub fn documents_using(&self, lexical: &LexicalIndex, name: &str) -> Result<u64> {
        let Some(snapshot) = self.snapshot else { return lexical.documents_using(name) };
        let cached = snapshot.name_uses.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(name).copied();
        if let Some(n) = cached {
            return Ok(n);
        }
        let n = lexical.documents_using(name)?;
        snapshot.name_uses.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(name.to_string(), n);
        Ok(n)
    }

    /// The passage ids of `doc_ids`, sorted.
    pub fn chunk_ids_of_documents(&self, doc_ids: &[i64]) -> Result<Vec<i64>> {
        let Some(snapshot) = self.snapshot else { return self.catalog.chunk_ids_of_documents(doc_ids) };
        // A poisoned cache only means a search panicked while holding it; what it holds is
        // still whole lists, each inserted at once.
        let mut cache = snapshot.chunk_ids.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let missing: Vec<i64> = doc_ids.iter().copied().filter(|d| !cache.contains_key(d)).collect();
        if !missing.is_empty() {
            let mut read = self.catalog.chunk_ids_by_document(&missing)?;
            for doc in missing {
                let mut ids = read.remove(&doc).unwrap_or_default();
                ids.sort_unstable();
                cache.insert(doc, ids.into());
            }
        }
        let mut ids: Vec<i64> = Vec::with_capacity(doc_ids.iter().filter_map(|d| cache.get(d)).map(|ids| ids.len()).sum());
        for doc in doc_ids {
            if let Some(of_doc) = cache.get(doc) {
                ids.extend_from_slice(of_doc);
            }
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(ids)
    }
}
