//! Questions to offer in an empty chat, made from what the library holds: a document's title
//! and one of its section headings. Deterministic, so the same library offers the same ones.

use crate::engine::Engine;
use crate::error::Result;

/// Up to `n` questions, one per document (newest documents first).
pub fn suggested_questions(engine: &Engine, n: usize) -> Result<Vec<String>> {
    engine.with_store(|store| {
        let mut documents = store.all_documents()?;
        documents.sort_by(|a, b| b.mtime_ns.cmp(&a.mtime_ns).then(a.doc_id.cmp(&b.doc_id)));
        let mut out = Vec::new();
        for (i, doc) in documents.iter().enumerate() {
            if out.len() >= n {
                break;
            }
            let title = short_title(&doc.title);
            let ids = store.chunk_ids_in_order(doc.doc_id)?;
            let chunks = store.chunks_by_ids(&ids[..ids.len().min(40)])?;
            let heading = ids
                .iter()
                .filter_map(|id| chunks.get(id))
                .filter_map(|c| c.heading_path.last())
                .map(|h| h.trim())
                .find(|h| h.len() > 3 && h.len() < 60 && !h.eq_ignore_ascii_case(&doc.title));
            let question = match (heading, i % 3) {
                (Some(h), 0 | 2) => format!("What does {title} say about {}?", h.trim_end_matches(':')),
                _ => format!("What are the main points of {title}?"),
            };
            out.push(question);
        }
        Ok(out)
    })
}

fn short_title(title: &str) -> String {
    let words: Vec<&str> = title.split_whitespace().collect();
    if words.len() > 8 {
        format!("“{}…”", words[..8].join(" "))
    } else {
        format!("“{}”", words.join(" "))
    }
}
