//! The named read queries: what the answer pipeline, the library service, the CLI and the
//! app ask of an index. A [`Reader`](super::Reader) and a [`Writer`](super::Writer) answer
//! them alike; the stores stay behind them.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::embed::{EmbedCount, SharedEmbedder};
use crate::error::Result;
use crate::index::catalog::{ChunkRecord, StoredFailure, VersionRecord, SCHEMA_VERSION};
use crate::index::{DocumentInfo, LexicalIndex, MetaKey, Catalog, VectorIndex};
use crate::retrieve::{LibrarySnapshot, Retriever, SearchParams, SearchResults};
use crate::viewer::ViewedDocument;

use super::EngineConfig;

pub(crate) mod sealed {
    use super::*;

    /// The three stores of one data dir, borrowed for one query.
    pub struct StoresRef<'a> {
        pub catalog: &'a Catalog,
        pub lexical: &'a LexicalIndex,
        pub vectors: &'a VectorIndex,
        /// A reader's snapshot of what searches read of the whole library.
        pub snapshot: Option<&'a LibrarySnapshot>,
    }

    /// How a reader or writer lends its stores; not for use outside the engine.
    pub trait Access {
        fn with_stores<T>(&self, f: impl FnOnce(StoresRef<'_>) -> Result<T>) -> Result<T>;
        fn engine_config(&self) -> &EngineConfig;
        fn shared_embedder(&self) -> &SharedEmbedder;
    }
}

use sealed::{Access, StoresRef};

/// Documents, failures and passage counts, as the stores hold them now.
#[derive(Debug, Clone)]
pub struct LibraryCounts {
    pub documents: Vec<DocumentInfo>,
    pub failures: HashMap<PathBuf, StoredFailure>,
    pub chunks: u64,
    pub embedded: u64,
}

/// Whether the three stores agree: every chunk in SQLite is in the keyword index, every
/// stored vector is in the vector index, and nothing else is; SQLite's integrity check passes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Consistency {
    pub sqlite_integrity_ok: bool,
    pub chunks: u64,
    pub lexical_missing: u64,
    pub lexical_extra: u64,
    pub lexical_duplicates: u64,
    pub vectors_missing: u64,
    pub vectors_extra: u64,
}

impl Consistency {
    pub fn is_consistent(&self) -> bool {
        self.sqlite_integrity_ok
            && self.lexical_missing == 0
            && self.lexical_extra == 0
            && self.lexical_duplicates == 0
            && self.vectors_missing == 0
            && self.vectors_extra == 0
    }
}

/// The read queries every open index answers.
pub trait Queries: Access {
    fn config(&self) -> &EngineConfig {
        self.engine_config()
    }

    fn data_dir(&self) -> &Path {
        &self.engine_config().data_dir
    }

    fn embedder(&self) -> &dyn EmbedCount {
        self.shared_embedder().as_ref()
    }

    /// Hybrid search (see [`SearchParams`]).
    fn search(&self, query: &str, params: &SearchParams) -> Result<SearchResults> {
        let embedder = self.shared_embedder().as_ref();
        self.with_stores(|s| Retriever { catalog: s.catalog, lexical: s.lexical, vectors: s.vectors, embedder, snapshot: s.snapshot }.search(query, params))
    }

    /// Every indexed document with its facets (organisation, period, kind, language).
    fn documents(&self) -> Result<Vec<DocumentInfo>> {
        self.with_stores(|s| s.catalog.all_documents())
    }

    fn document(&self, doc_id: i64) -> Result<Option<DocumentInfo>> {
        self.with_stores(|s| s.catalog.document_info(doc_id))
    }

    /// The indexed path of a document.
    fn document_path(&self, doc_id: i64) -> Result<Option<PathBuf>> {
        Ok(self.document(doc_id)?.map(|d| d.path))
    }

    /// What the viewer needs to know of a document.
    fn viewed_document(&self, doc_id: i64) -> Result<Option<ViewedDocument>> {
        Ok(self.document(doc_id)?.map(|d| ViewedDocument {
            doc_id: d.doc_id,
            title: d.title,
            path: d.path,
            page_count: d.page_count,
            mtime_ns: d.mtime_ns,
        }))
    }

    /// The indexed text of one page (1-based).
    fn page_text(&self, doc_id: i64, page: u32) -> Result<Option<String>> {
        self.with_stores(|s| s.catalog.page_text(doc_id, page))
    }

    /// The passages of one page, in reading order.
    fn page_passages(&self, doc_id: i64, page: u32) -> Result<Vec<ChunkRecord>> {
        self.with_stores(|s| in_order(s.catalog, &s.catalog.chunk_ids_on_page(doc_id, page)?))
    }

    /// The first `n` passages of a document, in reading order.
    fn leading_passages(&self, doc_id: i64, n: usize) -> Result<Vec<ChunkRecord>> {
        self.with_stores(|s| {
            let ids = s.catalog.chunk_ids_in_order(doc_id)?;
            in_order(s.catalog, &ids[..ids.len().min(n)])
        })
    }

    /// The documents under any of `paths` (folders or files; canonicalised here).
    fn documents_under(&self, paths: &[PathBuf]) -> Result<Vec<i64>> {
        self.with_stores(|s| s.catalog.documents_under(paths))
    }

    /// The stored vectors of these passages (those that have one).
    fn vectors_of(&self, chunk_ids: &[i64]) -> Result<HashMap<i64, Vec<f32>>> {
        self.with_stores(|s| s.catalog.vectors_of(chunk_ids))
    }

    /// How many passages the library holds.
    fn passage_count(&self) -> Result<u64> {
        self.with_stores(|s| Ok(s.catalog.chunk_counts()?.0))
    }

    fn library_counts(&self) -> Result<LibraryCounts> {
        self.with_stores(|s| {
            let (chunks, embedded) = s.catalog.chunk_counts()?;
            Ok(LibraryCounts { documents: s.catalog.all_documents()?, failures: s.catalog.failures()?, chunks, embedded })
        })
    }

    /// The folders and files the library was asked to index, in path order.
    fn roots(&self) -> Result<Vec<PathBuf>> {
        self.with_stores(|s| s.catalog.roots())
    }

    /// The index's schema and embedding model: enough to know which index produced a citation.
    fn index_version(&self) -> Result<String> {
        let model = self.with_stores(|s| s.catalog.meta(&MetaKey::EmbedModel))?.unwrap_or_default();
        Ok(format!("schema {SCHEMA_VERSION} · {model}"))
    }

    /// The content hash of every indexed file, by path.
    fn content_hashes(&self) -> Result<HashMap<PathBuf, String>> {
        self.with_stores(|s| Ok(s.catalog.files()?.into_iter().map(|f| (f.path, f.content_hash)).collect()))
    }

    /// The versions of one document the index has seen.
    fn history(&self, path: &Path) -> Result<Option<(DocumentInfo, Vec<VersionRecord>)>> {
        self.with_stores(|s| s.catalog.history(path))
    }

    /// How many chunks of the library use each word (see [`LexicalIndex::document_frequencies`]).
    fn document_frequencies(&self, words: &[String]) -> Result<Vec<u64>> {
        self.with_stores(|s| s.lexical.document_frequencies(words))
    }

    /// How many documents use every word of `phrase` in their text.
    /// When each document was first indexed (seconds since the epoch), by document id.
    fn first_indexed(&self) -> Result<HashMap<i64, i64>> {
        self.with_stores(|s| s.catalog.first_indexed())
    }

    fn documents_using(&self, phrase: &str) -> Result<u64> {
        self.with_stores(|s| crate::retrieve::LibraryFacts { catalog: s.catalog, snapshot: s.snapshot }.documents_using(s.lexical, phrase))
    }

    /// Checks that the three stores agree (see [`Consistency`]).
    fn verify(&self) -> Result<Consistency> {
        self.with_stores(consistency)
    }
}

impl<T: Access> Queries for T {}

fn in_order(catalog: &Catalog, ids: &[i64]) -> Result<Vec<ChunkRecord>> {
    let mut records = catalog.chunks_by_ids(ids)?;
    Ok(ids.iter().filter_map(|id| records.remove(id)).collect())
}

fn consistency(s: StoresRef<'_>) -> Result<Consistency> {
    let sqlite_ids: HashSet<i64> = s.catalog.all_chunk_ids()?.into_iter().collect();
    let lexical_ids: Vec<i64> = s.lexical.all_chunk_ids()?;
    let lexical_set: HashSet<i64> = lexical_ids.iter().copied().collect();
    let (_, embedded) = s.catalog.chunk_counts()?;
    let mut vectors_missing = 0u64;
    s.catalog.for_each_vector(|id, _| {
        if !s.vectors.contains(id) {
            vectors_missing += 1;
        }
        Ok(())
    })?;
    Ok(Consistency {
        sqlite_integrity_ok: s.catalog.integrity_ok()?,
        chunks: sqlite_ids.len() as u64,
        lexical_missing: sqlite_ids.difference(&lexical_set).count() as u64,
        lexical_extra: lexical_set.difference(&sqlite_ids).count() as u64,
        lexical_duplicates: (lexical_ids.len() - lexical_set.len()) as u64,
        vectors_missing,
        vectors_extra: (s.vectors.len() as u64).saturating_sub(embedded - vectors_missing),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_library::test_library;

    #[test]
    fn a_reader_and_the_writer_answer_the_named_queries_alike() {
        let lib = test_library();
        let (reader, writer) = (&lib.reader, &lib.writer);
        let docs = reader.documents().unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(writer.documents().unwrap().len(), 2);
        let pumps = docs.iter().find(|d| d.path.ends_with("pumps.md")).unwrap();

        let text = reader.page_text(pumps.doc_id, 1).unwrap().unwrap();
        assert!(text.contains("Ostara Supplies"), "{text}");
        assert_eq!(reader.page_text(pumps.doc_id, 99).unwrap(), None);
        let passages = reader.page_passages(pumps.doc_id, 1).unwrap();
        assert!(!passages.is_empty());
        assert!(passages.windows(2).all(|w| w[0].span.byte_start <= w[1].span.byte_start), "reading order");
        assert!(passages.iter().all(|p| text.get(p.span.byte_start..p.span.byte_end).is_some()), "passages point into the page text");
        assert_eq!(reader.leading_passages(pumps.doc_id, 1).unwrap().len(), 1);

        let viewed = reader.viewed_document(pumps.doc_id).unwrap().unwrap();
        assert_eq!((viewed.path.as_path(), viewed.page_count), (pumps.path.as_path(), pumps.page_count));
        assert!(reader.viewed_document(123_456).unwrap().is_none());

        let canonical_folder = lib.folder().canonicalize().unwrap();
        assert_eq!(reader.documents_under(&[lib.folder()]).unwrap().len(), 2);
        assert_eq!(reader.documents_under(&[canonical_folder.join("budget.md")]).unwrap().len(), 1);
        assert_eq!(reader.roots().unwrap(), vec![canonical_folder]);

        let hashes = reader.content_hashes().unwrap();
        assert_eq!(hashes.len(), 2);
        assert!(hashes.values().all(|h| h.len() >= 16));
        let version = reader.index_version().unwrap();
        assert!(version.starts_with(&format!("schema {SCHEMA_VERSION} · ")) && version.len() > 12, "{version}");

        let counts = writer.library_counts().unwrap();
        assert_eq!((counts.documents.len(), counts.chunks, counts.embedded), (2, reader.passage_count().unwrap(), counts.chunks));
        let ids: Vec<i64> = passages.iter().map(|p| p.id).collect();
        let vectors = reader.vectors_of(&ids).unwrap();
        assert_eq!(vectors.len(), ids.len());
        assert!(vectors.values().all(|v| v.len() == reader.embedder().dimensions()));
        assert!(reader.verify().unwrap().is_consistent());
        assert!(writer.verify().unwrap().is_consistent());
    }

    #[test]
    fn a_readers_snapshot_gives_the_stores_passages_and_labels_and_keeps_them() {
        let lib = test_library();
        lib.reader
            .with_stores(|s| {
                assert!(s.snapshot.is_some(), "a reader keeps a snapshot");
                let facts = crate::retrieve::LibraryFacts { catalog: s.catalog, snapshot: s.snapshot };
                let docs: Vec<i64> = s.catalog.all_documents()?.iter().map(|d| d.doc_id).collect();
                assert_eq!(docs.len(), 2);
                let all = s.catalog.chunk_ids_of_documents(&docs)?;
                assert!(all.len() >= 3, "{all:?}");
                let sets = [vec![docs[0]], vec![docs[1]], docs.clone(), vec![docs[1], docs[0], docs[1]], vec![999_999], vec![]];
                for _ in 0..2 {
                    // The second round is answered from the snapshot's cache.
                    for set in &sets {
                        assert_eq!(facts.chunk_ids_of_documents(set)?, s.catalog.chunk_ids_of_documents(set)?, "{set:?}");
                    }
                }
                let labels = facts.routing_labels()?;
                for d in s.catalog.all_documents()? {
                    let label = &labels[&d.doc_id];
                    assert_eq!(label, &crate::index::document_label(&d.title, &d.path).to_lowercase());
                    assert!(!label.is_empty());
                }
                Ok(())
            })
            .unwrap();
    }
}
