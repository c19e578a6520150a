//! A reader of one data dir: searching and the named queries, never blocking the writer.

use std::sync::Mutex;

use super::queries::sealed::{Access, StoresRef};
use super::EngineConfig;
use crate::embed::SharedEmbedder;
use crate::error::{Error, Result};
use crate::index::{self, LexicalIndex, MetaKey, Catalog, VectorIndex};
use crate::retrieve::LibrarySnapshot;
use crate::progress::LibraryNotice;

struct ReadStores {
    catalog: Catalog,
    lexical: LexicalIndex,
    vectors: VectorIndex,
    snapshot: LibrarySnapshot,
}

pub struct Reader {
    config: EngineConfig,
    embedder: SharedEmbedder,
    /// Behind a lock so a reader can be shared between threads (SQLite connections are not
    /// `Sync`); readers of one process take turns, and never wait for the writer.
    stores: Mutex<ReadStores>,
    notices: Vec<LibraryNotice>,
}

impl Reader {
    /// Opens an existing index for searching only. A vector file that does not match the
    /// metadata store is rebuilt in memory, never trusted.
    pub fn open(config: EngineConfig) -> Result<Reader> {
        let embedder = config.load_embedder()?;
        Reader::open_sharing(config, embedder)
    }

    /// Opens a reader that shares an already loaded embedder (a long-running process reopens
    /// its reader after every commit; loading the model each time would cost seconds).
    pub fn open_sharing(config: EngineConfig, embedder: SharedEmbedder) -> Result<Reader> {
        let db = config.data_dir.join(index::SQLITE_FILE);
        if !db.exists() {
            return Err(Error::Io {
                path: config.data_dir.clone(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no index here yet; run `pagewise index PATH` first"),
            });
        }
        let catalog = Catalog::open_reader(&db)?;
        let mut notices: Vec<LibraryNotice> = embedder.notice().into_iter().collect();
        if let Some(model) = catalog.meta(&MetaKey::EmbedModel)? {
            if model != embedder.model_id() {
                notices.push(LibraryNotice::EmbeddedWithOtherModel { model, current: embedder.model_id().to_string() });
            }
        }
        let (lexical, _) = LexicalIndex::open(&config.data_dir.join(index::LEXICAL_DIR), false)?;
        let path = config.data_dir.join(index::VECTOR_FILE);
        let dims = embedder.dimensions();
        // Vectors of another model would answer nonsense: keyword search only until re-embedded.
        let model_matches = catalog.meta(&MetaKey::EmbedModel)?.is_none_or(|m| m == embedder.model_id());
        let vectors = if model_matches {
            index::verified_vectors(&catalog, &path, dims, config.vector, index::OpenMode::View)?.0
        } else {
            VectorIndex::empty(&path, dims, config.vector)?
        };
        Ok(Reader { config, embedder, stores: Mutex::new(ReadStores { catalog, lexical, vectors, snapshot: LibrarySnapshot::default() }), notices })
    }

    /// What opening found (an index embedded with another model).
    pub fn notices(&self) -> &[LibraryNotice] {
        &self.notices
    }
}

impl Access for Reader {
    fn with_stores<T>(&self, f: impl FnOnce(StoresRef<'_>) -> Result<T>) -> Result<T> {
        let stores = self.stores.lock().map_err(|_| Error::Poisoned("the index"))?;
        f(StoresRef { catalog: &stores.catalog, lexical: &stores.lexical, vectors: &stores.vectors, snapshot: Some(&stores.snapshot) })
    }

    fn engine_config(&self) -> &EngineConfig {
        &self.config
    }

    fn shared_embedder(&self) -> &SharedEmbedder {
        &self.embedder
    }
}
