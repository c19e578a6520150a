//! Documents that arrive already chunked and embedded (a library built elsewhere, or a
//! synthetic one for measuring scale) go into the three stores in the writer's commit order,
//! without parsing or embedding.

use std::path::{Path, PathBuf};

use super::catalog::{NewChunk, NewVersion};
use crate::chunk::Chunk;
use super::commit::{chunk_id, Batch};
use super::{document_label, document_profile, LexicalChunk, Stores};
use crate::error::{Error, Result};
use crate::progress::ProgressSink;

/// One page-bounded passage with its vector.
#[derive(Debug, Clone)]
pub struct PreparedChunk {
    /// 1-based.
    pub page: u32,
    /// Byte range of `text` in its page's text.
    pub byte_start: usize,
    pub byte_end: usize,
    pub heading_path: Vec<String>,
    pub text: String,
    pub token_count: usize,
    pub vector: Vec<f32>,
}

#[derive(Debug, Clone)]
pub struct PreparedDocument {
    pub path: PathBuf,
    pub title: String,
    pub content_hash: String,
    pub pages: Vec<String>,
    pub chunks: Vec<PreparedChunk>,
}

impl Stores {
    /// Records `docs` under `root` as indexed files (new document ids, after the existing
    /// ones) in one commit; each chunk must lie within its page and carry a vector of the
    /// index's size. A commit rewrites the vector file, so callers import in large groups.
    pub fn import_prepared(&mut self, root: &Path, docs: Vec<PreparedDocument>, progress: &dyn ProgressSink) -> Result<()> {
        self.catalog.add_root(root)?;
        let mut next_id = self.catalog.next_document_id()?;
        let mut batch = Batch::default();
        for doc in docs {
            let doc_id = next_id;
            next_id += 1;
            let bad = |message: String| Error::Unparseable { path: doc.path.clone(), reason: message };
            let mut chunks = Vec::with_capacity(doc.chunks.len());
            for (ordinal, c) in doc.chunks.into_iter().enumerate() {
                let page_text = doc.pages.get((c.page as usize).wrapping_sub(1)).ok_or_else(|| bad(format!("chunk {ordinal} names page {}", c.page)))?;
                if page_text.get(c.byte_start..c.byte_end) != Some(c.text.as_str()) {
                    return Err(bad(format!("chunk {ordinal} is not its page's text at {}..{}", c.byte_start, c.byte_end)));
                }
                if c.vector.len() != self.vectors.dimensions() {
                    return Err(bad(format!("chunk {ordinal} has {} dimensions, the index {}", c.vector.len(), self.vectors.dimensions())));
                }
                let chunk = Chunk {
                    page: c.page,
                    byte_start: c.byte_start,
                    byte_end: c.byte_end,
                    digest: crate::chunk::digest(&c.text),
                    heading_path: c.heading_path,
                    text: c.text,
                    token_count: c.token_count,
                };
                chunks.push(NewChunk { id: chunk_id(doc_id, &doc.content_hash, ordinal), chunk, vector: Some(c.vector) });
            }
            let label = document_label(&doc.title, &doc.path);
            let headings: Vec<String> = chunks.iter().map(|c| c.chunk.heading_path.join(" > ")).collect();
            let lexical: Vec<LexicalChunk<'_>> =
                chunks.iter().zip(&headings).map(|(c, h)| LexicalChunk { chunk_id: c.id, title: &label, heading: h, body: &c.chunk.text }).collect();
            self.lexical.add_profile(doc_id, &document_profile(&label, doc.pages.first().map(String::as_str).unwrap_or_default()))?;
            self.lexical.add_chunks(doc_id, &lexical)?;
            for c in &chunks {
                if let Some(v) = &c.vector {
                    self.vectors.upsert(c.id, v)?;
                }
            }
            batch.vector_changes = true;
            batch.files += 1;
            batch.pages += doc.pages.len();
            batch.chunks += chunks.len();
            let size = doc.pages.iter().map(|p| p.len() as u64).sum();
            batch.versions.push(NewVersion {
                doc_id,
                path: doc.path,
                title: doc.title,
                format: "text".into(),
                content_hash: doc.content_hash,
                size,
                mtime_ns: 0,
                pages: doc.pages,
                chunks,
            });
        }
        self.commit_batch(batch, progress)
    }
}
