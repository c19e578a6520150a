//! The three stores and their consistency. SQLite is the record of truth; the keyword and
//! vector indexes are derived from it and repaired from it when they disagree.

mod embed_lane;
pub(crate) mod feedback;
mod import;
pub(crate) mod lexical;
mod meta;
mod pass;
pub(crate) mod mixed_tokenizer;
pub(crate) mod stored_library;
pub(crate) mod catalog;
mod catalog_facets;
pub(crate) mod vector;
mod commit;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

pub use import::{PreparedChunk, PreparedDocument};
pub use lexical::{LexicalChunk, LexicalIndex};
pub use catalog::{Catalog, DocumentInfo};
pub use vector::{OpenMode, VectorIndex, VectorSettings};
pub use meta::MetaKey;
pub use feedback::{as_eval_questions, FeedbackStore, NewFeedback};
pub use commit::IndexRun;

pub use crate::data_dir::CONVERSATIONS_FILE;
pub(crate) use crate::data_dir::SQLITE_FILE;
use crate::data_dir;
use crate::error::Result;
use crate::progress::LibraryNotice;

pub(crate) const LEXICAL_DIR: &str = "lexical";
pub(crate) const VECTOR_FILE: &str = "vectors.usearch";

/// How a document is named to the embedder and the keyword index: its title and its file
/// name, since people refer to documents both ways and either one alone can be uninformative
/// ("UNITED STATES" is the first line of every SEC filing; "scan0001" says nothing).
pub fn document_label(title: &str, path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let words: String = stem.chars().map(|c| if c.is_alphanumeric() { c } else { ' ' }).collect();
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    let lower_title = title.to_lowercase();
    if words.is_empty() || words.split(' ').all(|w| lower_title.contains(&w.to_lowercase())) {
        title.to_string()
    } else if title.is_empty() {
        words
    } else {
        format!("{title} ({words})")
    }
}

/// What the document-level keyword entry holds: its label and the start of its first page,
/// where documents usually say what and whose they are.
pub(crate) fn document_profile(label: &str, first_page: &str) -> String {
    let mut end = first_page.len().min(3000);
    while !first_page.is_char_boundary(end) {
        end -= 1;
    }
    format!("{label}\n{}", &first_page[..end])
}

/// All three stores of one data dir, as the single writer owns them.
pub struct Stores {
    pub catalog: Catalog,
    pub lexical: LexicalIndex,
    pub vectors: VectorIndex,
    pub data_dir: PathBuf,
}

/// What `open` found and did.
#[derive(Debug, Default, Clone)]
pub struct OpenReport {
    pub notices: Vec<LibraryNotice>,
}

impl Stores {
    /// Opens or creates the stores for writing and brings them into agreement: a schema
    /// change empties everything, another embedding model clears the vectors, and a keyword
    /// or vector index that disagrees with SQLite is repaired from SQLite.
    pub fn open_writer(data_dir: &Path, model_id: &str, dimensions: usize, settings: VectorSettings) -> Result<(Stores, OpenReport)> {
        data_dir::claim(data_dir)?;
        let mut report = OpenReport::default();
        let (catalog, schema_rebuilt) = Catalog::open_writer(&data_dir.join(SQLITE_FILE))?;
        if schema_rebuilt {
            report.notices.push(LibraryNotice::RebuildingForNewVersion);
        }
        let (mut lexical, _) = LexicalIndex::open(&data_dir.join(LEXICAL_DIR), true)?;
        if schema_rebuilt {
            lexical.delete_all()?;
            lexical.commit()?;
        }
        let vector_path = data_dir.join(VECTOR_FILE);
        let old_model = catalog.meta(&MetaKey::EmbedModel)?;
        if old_model.as_deref().is_some_and(|m| m != model_id) {
            let (chunks, _) = catalog.chunk_counts()?;
            catalog.clear_vectors()?;
            data_dir::ensure_ours(data_dir)?;
            let _ = std::fs::remove_file(&vector_path);
            report.notices.push(LibraryNotice::ModelChanged { from: old_model.unwrap_or_default(), to: model_id.to_string(), passages: chunks });
        }
        catalog.set_meta(&MetaKey::EmbedModel, model_id)?;
        catalog.set_meta(&MetaKey::EmbedDimensions, &dimensions.to_string())?;
        let mut stores = Stores {
            vectors: VectorIndex::empty(&vector_path, dimensions, settings)?,
            catalog,
            lexical,
            data_dir: data_dir.to_path_buf(),
        };
        stores.load_or_rebuild_vectors(settings, true, &mut report)?;
        stores.reconcile_lexical(&mut report)?;
        stores.catalog.refresh_facets()?;
        // The stores just created their files with the default umask.
        data_dir::make_private(data_dir)?;
        Ok((stores, report))
    }

    fn load_or_rebuild_vectors(&mut self, settings: VectorSettings, save: bool, report: &mut OpenReport) -> Result<()> {
        let path = self.data_dir.join(VECTOR_FILE);
        let (vectors, rebuilt) = verified_vectors(&self.catalog, &path, self.vectors.dimensions(), settings, OpenMode::Owned)?;
        self.vectors = vectors;
        if rebuilt && save {
            let sum = self.vectors.save_atomic()?;
            self.catalog.set_meta(&MetaKey::VectorChecksum, &sum)?;
            report.notices.push(LibraryNotice::VectorsRebuilt { vectors: self.vectors.len() as u64 });
        }
        Ok(())
    }

    /// Removes keyword-index entries that SQLite does not know (left by a crash between the
    /// two commits) and re-adds chunks that SQLite has but the keyword index lacks.
    fn reconcile_lexical(&mut self, report: &mut OpenReport) -> Result<()> {
        let in_lexical: HashSet<i64> = self.lexical.all_chunk_ids()?.into_iter().collect();
        let in_store: HashSet<i64> = self.catalog.all_chunk_ids()?.into_iter().collect();
        if in_lexical == in_store {
            return Ok(());
        }
        let extra = in_lexical.difference(&in_store).count();
        let missing = in_store.difference(&in_lexical).count();
        // Rebuilding from SQLite is simple and cheap next to parsing and embedding.
        self.lexical.delete_all()?;
        for file in self.catalog.files()? {
            self.add_lexical_document(file.doc_id, &file.path)?;
        }
        self.lexical.commit()?;
        report.notices.push(LibraryNotice::KeywordIndexRebuilt { extra: extra as u64, missing: missing as u64 });
        Ok(())
    }

    /// (Re-)adds one document's chunks to the keyword index from SQLite.
    pub(crate) fn add_lexical_document(&mut self, doc_id: i64, path: &Path) -> Result<()> {
        let rows = self.catalog.lexical_rows_of(doc_id)?;
        let doc_title = self.catalog.document_title(doc_id)?.unwrap_or_default();
        let title_field = document_label(&doc_title, path);
        let first_page = self.catalog.page_text(doc_id, 1)?.unwrap_or_default();
        let headings: Vec<String> = rows.iter().map(|(_, h, _)| h.join(" > ")).collect();
        let chunks: Vec<LexicalChunk<'_>> = rows
            .iter()
            .zip(&headings)
            .map(|((id, _, text), heading)| LexicalChunk { chunk_id: *id, title: &title_field, heading, body: text })
            .collect();
        self.lexical.delete_document(doc_id)?;
        self.lexical.add_profile(doc_id, &document_profile(&title_field, &first_page))?;
        self.lexical.add_chunks(doc_id, &chunks)
    }
}

/// The vector index at `path` when its checksum and size agree with SQLite, else one rebuilt
/// in memory from SQLite's vectors; the flag says it was rebuilt (nothing to rebuild when
/// there are no vectors and no file). Readers and the writer both load vectors this way.
pub fn verified_vectors(
    catalog: &Catalog,
    path: &Path,
    dimensions: usize,
    settings: VectorSettings,
    mode: OpenMode,
) -> Result<(VectorIndex, bool)> {
    let expected = catalog.meta(&MetaKey::VectorChecksum)?;
    let (_, embedded) = catalog.chunk_counts()?;
    if let Some(v) = VectorIndex::load_verified(path, dimensions, expected.as_deref(), settings, mode)? {
        if v.len() as u64 == embedded {
            return Ok((v, false));
        }
    }
    let mut rebuilt = VectorIndex::empty(path, dimensions, settings)?;
    catalog.for_each_vector(|id, v| rebuilt.upsert(id, &v))?;
    Ok((rebuilt, embedded > 0 || path.exists()))
}
