//! Document facets in SQLite: derived from each document's title, path and first pages, and
//! recomputed from them whenever a row is missing or was written by older rules.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::params;

use super::catalog::Catalog;
use crate::error::Result;
use crate::facets::{self, DocumentFacets, FacetSource, EXTRACTOR_VERSION};

/// Pages read to extract facets (the rules look at the first three).
const FACET_PAGES: i64 = 3;

impl Catalog {
    /// Facets of every document, by document id (documents whose facets are not computed yet
    /// are absent).
    pub fn all_facets(&self) -> Result<HashMap<i64, DocumentFacets>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT document_id, facets FROM document_facets WHERE extractor=?1")
            .map_err(|e| self.sqlite_error(e))?;
        let rows = stmt
            .query_map([EXTRACTOR_VERSION], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
            .map_err(|e| self.sqlite_error(e))?;
        let mut out = HashMap::new();
        for row in rows {
            let (id, json) = row.map_err(|e| self.sqlite_error(e))?;
            // A row that does not parse is recomputed by the next refresh; until then the
            // document has no facets.
            if let Ok(f) = serde_json::from_str::<DocumentFacets>(&json) {
                out.insert(id, f);
            }
        }
        Ok(out)
    }

    pub fn facets_of(&self, doc_id: i64) -> Result<Option<DocumentFacets>> {
        use rusqlite::OptionalExtension;
        let json: Option<String> = self
            .conn
            .query_row(
                "SELECT facets FROM document_facets WHERE document_id=?1 AND extractor=?2",
                params![doc_id, EXTRACTOR_VERSION],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sqlite_error(e))?;
        Ok(json.and_then(|j| serde_json::from_str(&j).ok()))
    }

    /// Computes facets for documents that lack them (new, changed, renamed, or written by
    /// older rules). Returns how many were computed.
    pub fn refresh_facets(&self) -> Result<usize> {
        let missing: Vec<(i64, PathBuf, String)> = {
            let mut stmt = self
                .conn
                .prepare(
                    "SELECT d.id, d.path, d.title FROM documents d
                     LEFT JOIN document_facets f ON f.document_id = d.id AND f.extractor = ?1
                     WHERE f.document_id IS NULL ORDER BY d.id",
                )
                .map_err(|e| self.sqlite_error(e))?;
            let rows = stmt
                .query_map([EXTRACTOR_VERSION], |r| Ok((r.get(0)?, PathBuf::from(r.get::<_, String>(1)?), r.get(2)?)))
                .map_err(|e| self.sqlite_error(e))?;
            rows.collect::<std::result::Result<_, _>>().map_err(|e| self.sqlite_error(e))?
        };
        for (doc_id, path, title) in &missing {
            let pages = self.first_pages(*doc_id, FACET_PAGES)?;
            let facets = facets::extract(&FacetSource { title, path: Path::new(path), pages: &pages });
            let json = serde_json::to_string(&facets).unwrap_or_else(|_| "{}".into());
            self.conn
                .execute(
                    "INSERT INTO document_facets(document_id, extractor, facets) VALUES (?1, ?2, ?3)
                     ON CONFLICT(document_id) DO UPDATE SET extractor=excluded.extractor, facets=excluded.facets",
                    params![doc_id, EXTRACTOR_VERSION, json],
                )
                .map_err(|e| self.sqlite_error(e))?;
        }
        Ok(missing.len())
    }

    fn first_pages(&self, doc_id: i64, n: i64) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT text FROM pages WHERE document_id=?1 ORDER BY page LIMIT ?2")
            .map_err(|e| self.sqlite_error(e))?;
        let rows = stmt.query_map(params![doc_id, n], |r| r.get(0)).map_err(|e| self.sqlite_error(e))?;
        rows.collect::<std::result::Result<_, _>>().map_err(|e| self.sqlite_error(e))
    }

    fn sqlite_error(&self, source: rusqlite::Error) -> crate::error::Error {
        crate::error::Error::Sqlite { path: self.path.clone(), source }
    }
}
