//! Plain text and Markdown: one page per file.

use std::path::Path;

use super::{choose_title, file_stem, normalise_text, Document, Format, Page, ParseFailure};

/// Parses UTF-8 text or Markdown bytes. Binary content (NUL bytes) and empty files are
/// refused with a reason.
pub fn parse_text(path: &Path, bytes: &[u8], format: Format) -> Result<Document, ParseFailure> {
    if bytes.is_empty() {
        return Err("empty file".into());
    }
    let probe = &bytes[..bytes.len().min(8192)];
    if probe.contains(&0) {
        return Err("binary file (contains NUL bytes), not text".into());
    }
    let decoded = match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        // Legacy single-byte text is far more common than anything else that is not UTF-8.
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    };
    let text = normalise_text(&decoded);
    if text.trim().is_empty() {
        return Err("no text (only whitespace)".into());
    }
    let pages = vec![Page { text }];
    let title = match format {
        Format::Markdown => markdown_title(&pages[0].text).unwrap_or_else(|| file_stem(path)),
        _ => choose_title(None, &[], path),
    };
    Ok(Document { format, title, pages })
}

fn markdown_title(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}
