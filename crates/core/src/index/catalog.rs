//! SQLite: the record of what is indexed. Documents, their versions, page texts, chunks (with
//! their vectors, so the vector index can always be rebuilt from here), failures, and the
//! schema and embedding-model versions.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};

use super::MetaKey;
use crate::chunk::Chunk;
use crate::error::{Error, Result};
use crate::span::Span;

/// Bump when the tables or the meaning of stored data change; a mismatch rebuilds everything.
pub const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS roots (path TEXT PRIMARY KEY, added_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    format TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    page_count INTEGER NOT NULL,
    indexed_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_hash ON documents(content_hash);
CREATE TABLE IF NOT EXISTS versions (
    document_id INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    indexed_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS versions_doc ON versions(document_id);
CREATE TABLE IF NOT EXISTS pages (
    document_id INTEGER NOT NULL,
    page INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (document_id, page)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    page INTEGER NOT NULL,
    byte_start INTEGER NOT NULL,
    byte_end INTEGER NOT NULL,
    heading_path TEXT NOT NULL,
    text TEXT NOT NULL,
    digest TEXT NOT NULL,
    token_count INTEGER NOT NULL,
    vector BLOB
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(document_id);
CREATE INDEX IF NOT EXISTS chunks_pending ON chunks(id) WHERE vector IS NULL;
-- Derived from documents and pages (recomputed when missing or when the rules change), so
-- an older catalog gains it without a rebuild.
CREATE TABLE IF NOT EXISTS document_facets (
    document_id INTEGER PRIMARY KEY,
    extractor INTEGER NOT NULL,
    facets TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS failures (
    path TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    at INTEGER NOT NULL
);
"#;

/// What the store remembers about a file on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFile {
    pub doc_id: i64,
    pub path: PathBuf,
    pub size: u64,
    pub mtime_ns: i64,
    pub content_hash: String,
}

#[derive(Debug, Clone)]
pub struct StoredFailure {
    pub reason: String,
    pub size: u64,
    pub mtime_ns: i64,
    /// Parses of this version of the file that ended this way in a row.
    pub attempts: u32,
}

/// A parsed, chunked file ready to be recorded.
#[derive(Debug, Clone)]
pub struct NewVersion {
    pub doc_id: i64,
    pub path: PathBuf,
    pub title: String,
    pub format: String,
    pub content_hash: String,
    pub size: u64,
    pub mtime_ns: i64,
    pub pages: Vec<String>,
    pub chunks: Vec<NewChunk>,
}

#[derive(Debug, Clone)]
pub struct NewChunk {
    pub id: i64,
    pub chunk: Chunk,
    /// Carried over when the same content was already embedded (a moved file).
    pub vector: Option<Vec<f32>>,
}

/// A chunk waiting for its vector.
#[derive(Debug, Clone)]
pub struct PendingChunk {
    pub id: i64,
    pub cursor: (i64, i64),
    pub title: String,
    pub path: PathBuf,
    pub heading_path: Vec<String>,
    pub text: String,
}

/// A document as answers and their sources show it.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DocumentInfo {
    pub doc_id: i64,
    pub path: PathBuf,
    pub title: String,
    pub mtime_ns: i64,
    pub page_count: u32,
    /// Organisation, period, kind and language, when extracted.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub facets: Option<crate::facets::DocumentFacets>,
}

/// One indexed version of a document.
#[derive(Debug, Clone, serde::Serialize)]
pub struct VersionRecord {
    pub content_hash: String,
    pub size: u64,
    pub mtime_ns: i64,
    /// Unix seconds.
    pub indexed_at: i64,
}

/// A chunk as search results need it.
#[derive(Debug, Clone)]
pub struct ChunkRecord {
    pub id: i64,
    pub span: Span,
    pub doc_path: PathBuf,
    pub doc_title: String,
    pub heading_path: Vec<String>,
    pub text: String,
    /// The chunk's place in its document and the document's content hash: together they name
    /// the same passage in every copy of a file.
    pub ordinal: i64,
    pub content_hash: String,
}

pub struct Catalog {
    pub(super) conn: Connection,
    pub(super) path: PathBuf,
}

pub(crate) fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

pub fn vector_to_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn blob_to_vector(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn chunk_record(r: &rusqlite::Row<'_>) -> rusqlite::Result<ChunkRecord> {
    let heading: String = r.get(7)?;
    Ok(ChunkRecord {
        id: r.get(0)?,
        span: Span {
            doc_id: r.get(1)?,
            page: r.get::<_, i64>(4)? as u32,
            byte_start: r.get::<_, i64>(5)? as usize,
            byte_end: r.get::<_, i64>(6)? as usize,
        },
        doc_path: PathBuf::from(r.get::<_, String>(2)?),
        doc_title: r.get(3)?,
        heading_path: serde_json::from_str(&heading).unwrap_or_default(),
        text: r.get(8)?,
        ordinal: r.get(9)?,
        content_hash: r.get(10)?,
    })
}

fn path_text(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

impl Catalog {
    /// Opens (creating) the store for writing. Returns `true` in the second field when an
    /// existing store had another schema version and was emptied.
    pub fn open_writer(path: &Path) -> Result<(Catalog, bool)> {
        let conn = Connection::open(path).map_err(|e| Self::err(path, e))?;
        let catalog = Catalog { conn, path: path.to_path_buf() };
        catalog.pragmas()?;
        let rebuilt = catalog.migrate()?;
        Ok((catalog, rebuilt))
    }

    /// Opens an existing store read-only; readers never block the writer (WAL).
    pub fn open_reader(path: &Path) -> Result<Catalog> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| Self::err(path, e))?;
        conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(|e| Self::err(path, e))?;
        let catalog = Catalog { conn, path: path.to_path_buf() };
        catalog.shadow_missing_facets()?;
        Ok(catalog)
    }

    /// A store written before facets existed has no facets table, and a reader cannot add
    /// one: an empty temporary table stands in until a writer opens the store and fills it.
    fn shadow_missing_facets(&self) -> Result<()> {
        let exists: i64 = self
            .conn
            .query_row("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='document_facets'", [], |r| r.get(0))
            .map_err(|e| self.e(e))?;
        if exists == 0 {
            self.conn
                .execute_batch("CREATE TEMP TABLE document_facets (document_id INTEGER PRIMARY KEY, extractor INTEGER NOT NULL, facets TEXT NOT NULL)")
                .map_err(|e| self.e(e))?;
        }
        Ok(())
    }

    fn err(path: &Path, source: rusqlite::Error) -> Error {
        Error::Sqlite { path: path.to_path_buf(), source }
    }

    fn e(&self, source: rusqlite::Error) -> Error {
        Self::err(&self.path, source)
    }

    fn pragmas(&self) -> Result<()> {
        self.conn
            .execute_batch("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
            .map_err(|e| self.e(e))?;
        self.conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(|e| self.e(e))
    }

    fn migrate(&self) -> Result<bool> {
        let has_meta: bool = self
            .conn
            .query_row("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'", [], |r| r.get::<_, i64>(0))
            .map_err(|e| self.e(e))?
            > 0;
        let mut rebuilt = false;
        if has_meta {
            let version: Option<i64> = self
                .conn
                .query_row("SELECT value FROM meta WHERE key='schema_version'", [], |r| r.get::<_, String>(0))
                .optional()
                .map_err(|e| self.e(e))?
                .and_then(|v| v.parse().ok());
            if version != Some(SCHEMA_VERSION) {
                self.conn
                    .execute_batch(
                        "DROP TABLE IF EXISTS documents; DROP TABLE IF EXISTS versions; DROP TABLE IF EXISTS pages;
                         DROP TABLE IF EXISTS chunks; DROP TABLE IF EXISTS failures; DROP TABLE IF EXISTS meta;
                         DROP TABLE IF EXISTS document_facets;",
                    )
                    .map_err(|e| self.e(e))?;
                rebuilt = true;
            }
        }
        self.conn.execute_batch(SCHEMA).map_err(|e| self.e(e))?;
        // Added after schema 1 shipped: a column, not a new schema, so no index is rebuilt.
        let has_attempts: bool = self
            .conn
            .query_row("SELECT count(*) FROM pragma_table_info('failures') WHERE name='attempts'", [], |r| r.get::<_, i64>(0))
            .map_err(|e| self.e(e))?
            > 0;
        if !has_attempts {
            self.conn.execute_batch("ALTER TABLE failures ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1").map_err(|e| self.e(e))?;
        }
        self.set_meta(&MetaKey::SchemaVersion, &SCHEMA_VERSION.to_string())?;
        Ok(rebuilt)
    }

    pub fn meta(&self, key: &MetaKey) -> Result<Option<String>> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key=?1", [key.as_key()], |r| r.get(0))
            .optional()
            .map_err(|e| self.e(e))
    }

    pub fn set_meta(&self, key: &MetaKey, value: &str) -> Result<()> {
        self.conn
            .execute(
                "INSERT INTO meta(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                [key.as_key().as_str(), value],
            )
            .map(|_| ())
            .map_err(|e| self.e(e))
    }

    pub fn add_root(&self, root: &Path) -> Result<()> {
        self.conn
            .execute("INSERT OR IGNORE INTO roots(path, added_at) VALUES (?1, ?2)", params![path_text(root), now_secs()])
            .map(|_| ())
            .map_err(|e| self.e(e))
    }

    /// When each document was first indexed (seconds since the epoch).
    pub fn first_indexed(&self) -> Result<HashMap<i64, i64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT d.id, COALESCE(MIN(v.indexed_at), d.indexed_at) FROM documents d LEFT JOIN versions v ON v.document_id = d.id GROUP BY d.id")
            .map_err(|e| self.e(e))?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))).map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    /// The document at `path` and its versions, oldest first.
    pub fn history(&self, path: &Path) -> Result<Option<(DocumentInfo, Vec<VersionRecord>)>> {
        let id: Option<i64> = self
            .conn
            .query_row("SELECT id FROM documents WHERE path=?1", [path_text(path)], |r| r.get(0))
            .optional()
            .map_err(|e| self.e(e))?;
        let Some(id) = id else { return Ok(None) };
        let Some(info) = self.document_info(id)? else { return Ok(None) };
        let mut stmt = self
            .conn
            .prepare("SELECT content_hash, size, mtime_ns, indexed_at FROM versions WHERE document_id=?1 ORDER BY indexed_at, rowid")
            .map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map([id], |r| Ok(VersionRecord { content_hash: r.get(0)?, size: r.get::<_, i64>(1)? as u64, mtime_ns: r.get(2)?, indexed_at: r.get(3)? }))
            .map_err(|e| self.e(e))?;
        let versions = rows.map(|r| r.map_err(|e| self.e(e))).collect::<Result<Vec<_>>>()?;
        Ok(Some((info, versions)))
    }

    pub fn remove_root(&self, root: &Path) -> Result<()> {
        self.conn.execute("DELETE FROM roots WHERE path=?1", [path_text(root)]).map(|_| ()).map_err(|e| self.e(e))
    }

    pub fn roots(&self) -> Result<Vec<PathBuf>> {
        let mut stmt = self.conn.prepare("SELECT path FROM roots ORDER BY path").map_err(|e| self.e(e))?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0)).map_err(|e| self.e(e))?;
        rows.map(|r| r.map(PathBuf::from).map_err(|e| self.e(e))).collect()
    }

    pub fn files(&self) -> Result<Vec<StoredFile>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, path, size, mtime_ns, content_hash FROM documents ORDER BY id")
            .map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(StoredFile {
                    doc_id: r.get(0)?,
                    path: PathBuf::from(r.get::<_, String>(1)?),
                    size: r.get::<_, i64>(2)? as u64,
                    mtime_ns: r.get(3)?,
                    content_hash: r.get(4)?,
                })
            })
            .map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    pub fn failures(&self) -> Result<HashMap<PathBuf, StoredFailure>> {
        let mut stmt = self.conn.prepare("SELECT path, reason, size, mtime_ns, attempts FROM failures").map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    PathBuf::from(r.get::<_, String>(0)?),
                    StoredFailure { reason: r.get(1)?, size: r.get::<_, i64>(2)? as u64, mtime_ns: r.get(3)?, attempts: r.get::<_, i64>(4)?.max(1) as u32 },
                ))
            })
            .map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    /// Records why a file failed; `attempts` counts the parses of this version that failed so.
    pub fn record_failure(&self, path: &Path, size: u64, mtime_ns: i64, reason: &str, attempts: u32) -> Result<()> {
        self.conn
            .execute(
                "INSERT INTO failures(path, reason, size, mtime_ns, at, attempts) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT(path) DO UPDATE SET reason=excluded.reason, size=excluded.size, mtime_ns=excluded.mtime_ns, at=excluded.at, attempts=excluded.attempts",
                params![path_text(path), reason, size as i64, mtime_ns, now_secs(), i64::from(attempts)],
            )
            .map(|_| ())
            .map_err(|e| self.e(e))
    }

    pub fn forget_failure(&self, path: &Path) -> Result<()> {
        self.conn.execute("DELETE FROM failures WHERE path=?1", [path_text(path)]).map(|_| ()).map_err(|e| self.e(e))
    }

    pub fn next_document_id(&self) -> Result<i64> {
        self.conn
            .query_row("SELECT coalesce(max(id), 0) + 1 FROM documents", [], |r| r.get(0))
            .map_err(|e| self.e(e))
    }

    pub fn chunk_ids_of(&self, doc_id: i64) -> Result<Vec<i64>> {
        let mut stmt = self.conn.prepare_cached("SELECT id FROM chunks WHERE document_id=?1").map_err(|e| self.e(e))?;
        let rows = stmt.query_map([doc_id], |r| r.get(0)).map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    /// Vectors of an indexed document by chunk digest, for reuse when the same content moves.
    pub fn vectors_by_digest(&self, doc_id: i64) -> Result<HashMap<String, Vec<f32>>> {
        let mut stmt = self
            .conn
            .prepare("SELECT digest, vector FROM chunks WHERE document_id=?1 AND vector IS NOT NULL")
            .map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map([doc_id], |r| Ok((r.get::<_, String>(0)?, blob_to_vector(&r.get::<_, Vec<u8>>(1)?))))
            .map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    /// Records new versions and removes documents in one transaction: the "this file is
    /// indexed" record that is written last, after the keyword and vector indexes.
    pub fn commit(
        &mut self,
        versions: &[NewVersion],
        removed: &[i64],
        touched: &[(i64, i64)],
        vector_checksum: Option<&str>,
    ) -> Result<()> {
        let path = self.path.clone();
        let e = |source| Self::err(&path, source);
        let tx = self.conn.transaction().map_err(e)?;
        let now = now_secs();
        for &doc_id in removed {
            for sql in [
                "DELETE FROM chunks WHERE document_id=?1",
                "DELETE FROM pages WHERE document_id=?1",
                "DELETE FROM versions WHERE document_id=?1",
                "DELETE FROM documents WHERE id=?1",
                "DELETE FROM document_facets WHERE document_id=?1",
            ] {
                tx.execute(sql, [doc_id]).map_err(e)?;
            }
        }
        for &(doc_id, mtime_ns) in touched {
            tx.execute("UPDATE documents SET mtime_ns=?2 WHERE id=?1", [doc_id, mtime_ns]).map_err(e)?;
        }
        for v in versions {
            write_version(&tx, v, now).map_err(e)?;
        }
        if let Some(sum) = vector_checksum {
            tx.execute(
                "INSERT INTO meta(key, value) VALUES ('vector_checksum', ?1) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                [sum],
            )
            .map_err(e)?;
        }
        tx.commit().map_err(e)
    }

    /// Chunks still waiting for a vector after `cursor` (document id, ordinal), with the
    /// text to embed, in document order.
    pub fn pending_chunks(&self, cursor: (i64, i64), limit: usize) -> Result<Vec<PendingChunk>> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT c.id, c.document_id, c.ordinal, d.title, c.heading_path, c.text, d.path
                 FROM chunks c JOIN documents d ON d.id = c.document_id
                 WHERE c.vector IS NULL AND (c.document_id, c.ordinal) > (?1, ?2)
                 ORDER BY c.document_id, c.ordinal LIMIT ?3",
            )
            .map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map(params![cursor.0, cursor.1, limit as i64], |r| {
                let heading: String = r.get(4)?;
                Ok(PendingChunk {
                    id: r.get(0)?,
                    cursor: (r.get(1)?, r.get(2)?),
                    title: r.get(3)?,
                    path: PathBuf::from(r.get::<_, String>(6)?),
                    heading_path: serde_json::from_str(&heading).unwrap_or_default(),
                    text: r.get(5)?,
                })
            })
            .map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    pub fn store_vectors(&mut self, vectors: &[(i64, Vec<f32>)], vector_checksum: &str) -> Result<()> {
        let path = self.path.clone();
        let e = |source| Self::err(&path, source);
        let tx = self.conn.transaction().map_err(e)?;
        {
            let mut stmt = tx.prepare_cached("UPDATE chunks SET vector=?2 WHERE id=?1").map_err(e)?;
            for (id, v) in vectors {
                stmt.execute(params![id, vector_to_blob(v)]).map_err(e)?;
            }
        }
        tx.execute(
            "INSERT INTO meta(key, value) VALUES ('vector_checksum', ?1) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            [vector_checksum],
        )
        .map_err(e)?;
        tx.commit().map_err(e)
    }

    /// Every stored vector, for rebuilding the vector index.
    pub fn for_each_vector(&self, mut f: impl FnMut(i64, Vec<f32>) -> Result<()>) -> Result<()> {
        let mut stmt = self.conn.prepare("SELECT id, vector FROM chunks WHERE vector IS NOT NULL").map_err(|e| self.e(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.e(e))?;
        while let Some(row) = rows.next().map_err(|e| self.e(e))? {
            let id: i64 = row.get(0).map_err(|e| self.e(e))?;
            let blob: Vec<u8> = row.get(1).map_err(|e| self.e(e))?;
            f(id, blob_to_vector(&blob))?;
        }
        Ok(())
    }

    pub fn clear_vectors(&self) -> Result<()> {
        self.conn.execute("UPDATE chunks SET vector=NULL WHERE vector IS NOT NULL", []).map(|_| ()).map_err(|e| self.e(e))
    }

    /// (chunks, chunks with vectors).
    pub fn chunk_counts(&self) -> Result<(u64, u64)> {
        self.conn
            // count(vector) would read every vector blob; the partial index answers the NULLs.
            .query_row(
                "SELECT (SELECT count(*) FROM chunks), (SELECT count(*) FROM chunks WHERE vector IS NULL)",
                [],
                |r| Ok((r.get::<_, i64>(0)? as u64, (r.get::<_, i64>(0)? - r.get::<_, i64>(1)?) as u64)),
            )
            .map_err(|e| self.e(e))
    }

    pub fn document_count(&self) -> Result<u64> {
        self.conn.query_row("SELECT count(*) FROM documents", [], |r| r.get::<_, i64>(0)).map(|n| n as u64).map_err(|e| self.e(e))
    }

    pub fn chunks_by_ids(&self, ids: &[i64]) -> Result<HashMap<i64, ChunkRecord>> {
        let mut out = HashMap::with_capacity(ids.len());
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT c.id, c.document_id, d.path, d.title, c.page, c.byte_start, c.byte_end, c.heading_path, c.text,
                        c.ordinal, d.content_hash
                 FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ?1",
            )
            .map_err(|e| self.e(e))?;
        for &id in ids {
            let row = stmt.query_row([id], chunk_record).optional().map_err(|e| self.e(e))?;
            if let Some(record) = row {
                out.insert(id, record);
            }
        }
        Ok(out)
    }

    /// Every indexed location of this content, oldest document first.
    pub fn copies_of(&self, content_hash: &str) -> Result<Vec<(i64, PathBuf)>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id, path FROM documents WHERE content_hash=?1 ORDER BY id")
            .map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map([content_hash], |r| Ok((r.get::<_, i64>(0)?, PathBuf::from(r.get::<_, String>(1)?))))
            .map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    /// The chunk at `ordinal` of a document.
    pub fn chunk_at(&self, doc_id: i64, ordinal: i64) -> Result<Option<ChunkRecord>> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT c.id, c.document_id, d.path, d.title, c.page, c.byte_start, c.byte_end, c.heading_path, c.text,
                        c.ordinal, d.content_hash
                 FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.document_id = ?1 AND c.ordinal = ?2",
            )
            .map_err(|e| self.e(e))?;
        stmt.query_row([doc_id, ordinal], chunk_record).optional().map_err(|e| self.e(e))
    }

    /// Documents whose path is `scope` or lies under it.
    /// The documents under any of `paths` (folders or files, canonicalised here), sorted.
    pub fn documents_under(&self, paths: &[PathBuf]) -> Result<Vec<i64>> {
        let mut ids = Vec::new();
        for p in paths {
            let canonical = p.canonicalize().unwrap_or_else(|_| p.clone());
            ids.extend(self.documents_in_scope(&canonical)?);
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(ids)
    }

    pub fn documents_in_scope(&self, scope: &Path) -> Result<Vec<i64>> {
        let exact = path_text(scope);
        let mut prefix = exact.clone();
        if !prefix.ends_with(std::path::MAIN_SEPARATOR) {
            prefix.push(std::path::MAIN_SEPARATOR);
        }
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM documents WHERE path = ?1 OR substr(path, 1, length(?2)) = ?2")
            .map_err(|e| self.e(e))?;
        let rows = stmt.query_map([exact, prefix], |r| r.get(0)).map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    /// The chunk ids of these documents, sorted ascending, in one statement (a search narrowed
    /// to a few hundred documents of a large library asks this for every question).
    pub fn chunk_ids_of_documents(&self, doc_ids: &[i64]) -> Result<Vec<i64>> {
        if doc_ids.is_empty() {
            return Ok(Vec::new());
        }
        // Integers only, so the list is written into the statement rather than bound one by
        // one past SQLite's limit on parameters.
        let list: Vec<String> = doc_ids.iter().map(i64::to_string).collect();
        // Sorted here: an ORDER BY may lead the planner to walk the whole table in id order.
        let sql = format!("SELECT id FROM chunks WHERE document_id IN ({})", list.join(","));
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.e(e))?;
        let rows = stmt.query_map([], |r| r.get(0)).map_err(|e| self.e(e))?;
        let mut ids = rows.map(|r| r.map_err(|e| self.e(e))).collect::<Result<Vec<i64>>>()?;
        ids.sort_unstable();
        Ok(ids)
    }

    /// The passage ids of each of `doc_ids` (in no order); a document without passages is
    /// absent.
    pub fn chunk_ids_by_document(&self, doc_ids: &[i64]) -> Result<HashMap<i64, Vec<i64>>> {
        let mut out: HashMap<i64, Vec<i64>> = HashMap::new();
        if doc_ids.is_empty() {
            return Ok(out);
        }
        // Integers only, so the list is written into the statement rather than bound one by
        // one past SQLite's limit on parameters.
        let list: Vec<String> = doc_ids.iter().map(i64::to_string).collect();
        let sql = format!("SELECT document_id, id FROM chunks WHERE document_id IN ({})", list.join(","));
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.e(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.e(e))?;
        while let Some(row) = rows.next().map_err(|e| self.e(e))? {
            let doc: i64 = row.get(0).map_err(|e| self.e(e))?;
            let id: i64 = row.get(1).map_err(|e| self.e(e))?;
            out.entry(doc).or_default().push(id);
        }
        Ok(out)
    }

    pub fn page_text(&self, doc_id: i64, page: u32) -> Result<Option<String>> {
        // Cached: reranking reads dozens of pages per search.
        let mut stmt = self.conn.prepare_cached("SELECT text FROM pages WHERE document_id=?1 AND page=?2").map_err(|e| self.e(e))?;
        stmt.query_row(params![doc_id, page], |r| r.get(0)).optional().map_err(|e| self.e(e))
    }

    pub fn integrity_ok(&self) -> Result<bool> {
        let result: String = self.conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).map_err(|e| self.e(e))?;
        Ok(result == "ok")
    }

    pub fn all_chunk_ids(&self) -> Result<Vec<i64>> {
        let mut stmt = self.conn.prepare("SELECT id FROM chunks").map_err(|e| self.e(e))?;
        let rows = stmt.query_map([], |r| r.get(0)).map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    /// Chunk texts of one document for re-adding to the keyword index.
    pub fn lexical_rows_of(&self, doc_id: i64) -> Result<Vec<(i64, Vec<String>, String)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, heading_path, text FROM chunks WHERE document_id=?1 ORDER BY ordinal")
            .map_err(|e| self.e(e))?;
        let rows = stmt
            .query_map([doc_id], |r| {
                let heading: String = r.get(1)?;
                Ok((r.get(0)?, serde_json::from_str(&heading).unwrap_or_default(), r.get(2)?))
            })
            .map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    pub fn document_title(&self, doc_id: i64) -> Result<Option<String>> {
        self.conn
            .query_row("SELECT title FROM documents WHERE id=?1", [doc_id], |r| r.get(0))
            .optional()
            .map_err(|e| self.e(e))
    }

    /// What an answer shows about a source document.
    pub fn document_info(&self, doc_id: i64) -> Result<Option<DocumentInfo>> {
        self.conn
            .query_row(&format!("{DOCUMENT_WITH_FACETS} WHERE d.id=?2"), params![crate::facets::EXTRACTOR_VERSION, doc_id], document_from_row)
            .optional()
            .map_err(|e| self.e(e))
    }

    pub fn all_documents(&self) -> Result<Vec<DocumentInfo>> {
        let mut stmt = self.conn.prepare(&format!("{DOCUMENT_WITH_FACETS} ORDER BY d.id")).map_err(|e| self.e(e))?;
        let rows = stmt.query_map([crate::facets::EXTRACTOR_VERSION], document_from_row).map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    /// Stored vectors of these chunks (those not yet embedded are absent).
    pub fn vectors_of(&self, ids: &[i64]) -> Result<HashMap<i64, Vec<f32>>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT vector FROM chunks WHERE id=?1 AND vector IS NOT NULL")
            .map_err(|e| self.e(e))?;
        let mut out = HashMap::new();
        for &id in ids {
            let blob: Option<Vec<u8>> = stmt.query_row([id], |r| r.get(0)).optional().map_err(|e| self.e(e))?;
            if let Some(b) = blob {
                out.insert(id, blob_to_vector(&b));
            }
        }
        Ok(out)
    }

    /// A document's chunk ids in reading order (page, then position on the page).
    pub fn chunk_ids_in_order(&self, doc_id: i64) -> Result<Vec<i64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM chunks WHERE document_id=?1 ORDER BY ordinal")
            .map_err(|e| self.e(e))?;
        let rows = stmt.query_map([doc_id], |r| r.get(0)).map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    /// Chunks that lie on one page, in order.
    pub fn chunk_ids_on_page(&self, doc_id: i64, page: u32) -> Result<Vec<i64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM chunks WHERE document_id=?1 AND page=?2 ORDER BY ordinal")
            .map_err(|e| self.e(e))?;
        let rows = stmt.query_map(params![doc_id, page], |r| r.get(0)).map_err(|e| self.e(e))?;
        rows.map(|r| r.map_err(|e| self.e(e))).collect()
    }

    pub fn rename_document(&self, doc_id: i64, new_path: &Path, mtime_ns: i64) -> Result<()> {
        self.conn
            .execute("UPDATE documents SET path=?2, mtime_ns=?3 WHERE id=?1", params![doc_id, path_text(new_path), mtime_ns])
            .map_err(|e| self.e(e))?;
        // The file name is one source of the facets.
        self.conn.execute("DELETE FROM document_facets WHERE document_id=?1", [doc_id]).map(|_| ()).map_err(|e| self.e(e))
    }
}

/// A document with its facets (read by the current extractor; `?1` is its version), as
/// `document_from_row` reads it.
const DOCUMENT_WITH_FACETS: &str = "SELECT d.id, d.path, d.title, d.mtime_ns, d.page_count, f.facets FROM documents d
     LEFT JOIN document_facets f ON f.document_id = d.id AND f.extractor = ?1";

fn document_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<DocumentInfo> {
    Ok(DocumentInfo {
        doc_id: r.get(0)?,
        path: PathBuf::from(r.get::<_, String>(1)?),
        title: r.get(2)?,
        mtime_ns: r.get(3)?,
        page_count: r.get::<_, i64>(4)? as u32,
        facets: r.get::<_, Option<String>>(5)?.and_then(|j| serde_json::from_str(&j).ok()),
    })
}

/// One new version of a document in place of what was stored of it: its record, its pages
/// and its passages; its failure, if one was recorded, is forgotten.
fn write_version(tx: &rusqlite::Transaction<'_>, v: &NewVersion, now: i64) -> rusqlite::Result<()> {
    let p = path_text(&v.path);
    for sql in ["DELETE FROM chunks WHERE document_id=?1", "DELETE FROM pages WHERE document_id=?1", "DELETE FROM document_facets WHERE document_id=?1"] {
        tx.execute(sql, [v.doc_id])?;
    }
    tx.execute(
        "INSERT INTO documents(id, path, title, format, content_hash, size, mtime_ns, page_count, indexed_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT(id) DO UPDATE SET path=excluded.path, title=excluded.title, format=excluded.format,
           content_hash=excluded.content_hash, size=excluded.size, mtime_ns=excluded.mtime_ns,
           page_count=excluded.page_count, indexed_at=excluded.indexed_at",
        params![v.doc_id, p, v.title, v.format, v.content_hash, v.size as i64, v.mtime_ns, v.pages.len() as i64, now],
    )?;
    tx.execute(
        "INSERT INTO versions(document_id, content_hash, size, mtime_ns, indexed_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![v.doc_id, v.content_hash, v.size as i64, v.mtime_ns, now],
    )?;
    let mut page_stmt = tx.prepare_cached("INSERT INTO pages(document_id, page, text) VALUES (?1, ?2, ?3)")?;
    for (i, text) in v.pages.iter().enumerate() {
        page_stmt.execute(params![v.doc_id, (i + 1) as i64, text])?;
    }
    let mut chunk_stmt = tx.prepare_cached(
        "INSERT INTO chunks(id, document_id, ordinal, page, byte_start, byte_end, heading_path, text, digest, token_count, vector)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
    for (ordinal, NewChunk { id, chunk: c, vector }) in v.chunks.iter().enumerate() {
        let heading = serde_json::to_string(&c.heading_path).unwrap_or_else(|_| "[]".into());
        chunk_stmt.execute(params![
            id,
            v.doc_id,
            ordinal as i64,
            c.page,
            c.byte_start as i64,
            c.byte_end as i64,
            heading,
            c.text,
            c.digest,
            c.token_count as i64,
            vector.as_deref().map(vector_to_blob),
        ])?;
    }
    tx.execute("DELETE FROM failures WHERE path=?1", [p])?;
    Ok(())
}
