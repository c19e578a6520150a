//! Questions to offer in an empty chat, made from what the library holds: a document's title
//! and one of its section headings. Deterministic, so the same library offers the same ones.

use crate::engine::{Queries, Reader};
use crate::error::Result;

/// Up to `n` questions, one per document (newest documents first).
pub fn suggested_questions(engine: &Reader, n: usize) -> Result<Vec<String>> {
    let mut documents = engine.documents()?;
    documents.sort_by(|a, b| b.mtime_ns.cmp(&a.mtime_ns).then(a.doc_id.cmp(&b.doc_id)));
    let mut out = Vec::new();
    for (i, doc) in documents.iter().enumerate() {
        if out.len() >= n {
            break;
        }
        let title = short_title(&doc.title);
        let passages = engine.leading_passages(doc.doc_id, 40)?;
        let heading = passages
            .iter()
            .filter_map(|c| c.heading_path.last())
            .map(|h| strip_numbering(h.trim()))
            .find(|h| usable_heading(h, &doc.title));
        let question = match (heading, i % 3) {
            (Some(h), 0 | 2) => format!("What does {title} say about {}?", h.trim_end_matches(':')),
            _ => format!("What are the main points of {title}?"),
        };
        out.push(question);
    }
    Ok(out)
}

/// "2.3 Code review" → "Code review".
fn strip_numbering(heading: &str) -> &str {
    let rest = heading.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let prefix = &heading[..heading.len() - rest.len()];
    // A section number ("2.3", "4"), not a year or an amount.
    let numbering = !prefix.is_empty() && (prefix.contains('.') || prefix.len() <= 2);
    if numbering && rest.starts_with(' ') { rest.trim_start() } else { heading }
}

/// A heading worth asking about: short, not shouting, and not just the document's name.
fn usable_heading(heading: &str, title: &str) -> bool {
    let letters: Vec<char> = heading.chars().filter(|c| c.is_alphabetic()).collect();
    let shouting = letters.len() > 3 && letters.iter().all(|c| c.is_uppercase());
    let (h, t) = (heading.to_lowercase(), title.to_lowercase().replace(['-', '_'], " "));
    letters.len() > 3 && heading.len() < 60 && !shouting && !h.contains(&t) && !t.contains(&h)
}

fn short_title(title: &str) -> String {
    let title = if title.contains(' ') { title.to_string() } else { title.replace(['-', '_'], " ") };
    let words: Vec<&str> = title.split_whitespace().collect();
    if words.len() > 8 {
        format!("“{}…”", words[..8].join(" "))
    } else {
        format!("“{}”", words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_are_cleaned_and_title_echoes_skipped() {
        assert_eq!(strip_numbering("2.3 Code review"), "Code review");
        assert_eq!(strip_numbering("2024 results"), "2024 results");
        assert!(!usable_heading("HARBOURLINE PLATFORM TEAM - MEETING NOTES", "meeting-notes"));
        assert!(!usable_heading("Meeting notes", "meeting-notes"));
        assert!(usable_heading("Code review", "Harbourline Platform Team Handbook"));
        assert_eq!(short_title("meeting-notes"), "“meeting notes”");
    }
}
