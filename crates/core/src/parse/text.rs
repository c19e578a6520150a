//! Plain text and Markdown: one page per file.

use std::path::Path;

use super::encoding::decode_text;
use super::{choose_title, file_stem, normalise_text, Document, Format, Page, ParseFailure};

/// Parses text or Markdown bytes (UTF-8, UTF-16 with a BOM, or Windows-1252). Binary content (NUL bytes) and empty files are
/// refused with a reason.
pub fn parse_text(path: &Path, bytes: &[u8], format: Format) -> Result<Document, ParseFailure> {
    if bytes.is_empty() {
        return Err("empty file".into());
    }
    let (decoded, _) = decode_text(bytes)?;
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
