//! Byte-identical files as one source with several locations.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::error::Result;
use crate::index::catalog::ChunkRecord;
use crate::index::Catalog;

/// Identical files are one source with several locations. A passage found in any copy is
/// shown from the copy indexed first (the lowest document id) among those the search may
/// look at, and names the other locations; so which copy is cited never depends on tie order.
#[derive(Default)]
pub(super) struct Copies {
    by_hash: HashMap<String, Vec<(i64, PathBuf)>>,
}

impl Copies {
    pub(super) fn canonical(&mut self, catalog: &Catalog, found: &ChunkRecord, scope: Option<&[i64]>) -> Result<(ChunkRecord, Vec<PathBuf>)> {
        if !self.by_hash.contains_key(&found.content_hash) {
            let list = catalog.copies_of(&found.content_hash)?;
            self.by_hash.insert(found.content_hash.clone(), list);
        }
        let list = self.by_hash.get(&found.content_hash).map(Vec::as_slice).unwrap_or_default();
        if list.len() <= 1 {
            return Ok((found.clone(), Vec::new()));
        }
        let allowed = |doc: i64| scope.is_none_or(|s| s.binary_search(&doc).is_ok());
        let chosen = match list.iter().find(|(doc, _)| allowed(*doc)) {
            Some((doc, _)) if *doc != found.span.doc_id => catalog.chunk_at(*doc, found.ordinal)?.unwrap_or_else(|| found.clone()),
            _ => found.clone(),
        };
        let also_in = list.iter().filter(|(doc, _)| *doc != chosen.span.doc_id).map(|(_, p)| p.clone()).collect();
        Ok((chosen, also_in))
    }
}

