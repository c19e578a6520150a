//! Files → `Document { pages }`. One file per format; `clean` removes running headers and
//! footers; `contained` is what a worker process runs for the formats parsed in isolation
//! (see the isolation module).

pub(crate) mod archive;
mod clean;
pub(crate) mod csv;
pub(crate) mod docx;
pub(crate) mod encoding;
pub(crate) mod epub;
pub(crate) mod html;
mod markdown_clean;
pub(crate) mod pdf;
pub(crate) mod reading_order;
pub(crate) mod cell_gaps;
mod source;
pub(crate) mod contained;
pub(crate) mod text;
mod xml;

use std::path::Path;

use serde::{Deserialize, Serialize};

// The front door: each format's parser (the fuzz tests and the isolated worker call them).
pub use archive::ZipLimits;
pub use csv::parse_csv;
pub use docx::parse_docx;
pub use epub::parse_epub;
pub use html::parse_html;
pub use pdf::{parse_pdf, PdfLimits};
pub use reading_order::{column_order, text_of};
pub use text::parse_text;
pub use clean::remove_running_lines;
pub use source::Source;

/// File formats Pagewise can index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Pdf,
    Markdown,
    Text,
    Docx,
    Html,
    Csv,
    Epub,
}

impl Format {
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "pdf" => Some(Format::Pdf),
            "md" | "markdown" => Some(Format::Markdown),
            "txt" | "text" => Some(Format::Text),
            "docx" => Some(Format::Docx),
            "html" | "htm" | "xhtml" => Some(Format::Html),
            "csv" | "tsv" => Some(Format::Csv),
            "epub" => Some(Format::Epub),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Markdown => "markdown",
            Format::Text => "text",
            Format::Docx => "docx",
            Format::Html => "html",
            Format::Csv => "csv",
            Format::Epub => "epub",
        }
    }

    /// Plain-text formats, whose size is checked before they are read.
    pub fn is_plain_text(self) -> bool {
        matches!(self, Format::Markdown | Format::Text | Format::Html | Format::Csv)
    }
}

/// One page of extracted text. The text is normalised (`\n` line ends, running headers and
/// footers removed) and is a pure function of the file's bytes, so byte offsets into it stay
/// valid whenever the same file is parsed again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Page {
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    pub format: Format,
    pub title: String,
    pub pages: Vec<Page>,
}

/// Why a file could not be parsed, in words a person can act on.
pub type ParseFailure = String;

/// Title fallback chain: metadata, else first heading-like line, else file name. Producer
/// junk (accession numbers, "Table of Contents", "Microsoft Word - x.docx") is not a title.
pub(crate) fn choose_title(metadata: Option<&str>, pages: &[Page], path: &Path) -> String {
    if let Some(t) = metadata.map(clean_metadata_title).filter(|t| !is_weak_title(t)) {
        return t;
    }
    let first_line = pages
        .iter()
        .flat_map(|p| p.text.lines())
        .map(|l| l.trim().trim_start_matches('#').trim())
        .find(|l| !l.is_empty());
    if let Some(line) = first_line.filter(|l| l.chars().count() <= 120 && !is_weak_title(l)) {
        return line.to_string();
    }
    file_stem(path)
}

fn clean_metadata_title(t: &str) -> String {
    let t = t.trim();
    let t = t.strip_prefix("Microsoft Word - ").unwrap_or(t);
    let t = [".docx", ".doc", ".pdf", ".odt"].iter().fold(t, |t, ext| t.strip_suffix(ext).unwrap_or(t));
    t.trim().to_string()
}

fn is_weak_title(t: &str) -> bool {
    let letters = t.chars().filter(|c| c.is_alphabetic()).count();
    let digits = t.chars().filter(|c| c.is_ascii_digit()).count();
    let lower = t.to_lowercase();
    t.is_empty()
        || t.chars().count() > 200
        || letters < 3
        || (!t.contains(' ') && digits * 3 >= t.chars().count())
        || ["table of contents", "contents", "untitled", "document", "title", "page 1"].contains(&lower.as_str())
}

pub(crate) fn file_stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Normalises line ends and strips characters that carry no text (NUL, form feeds).
pub(crate) fn normalise_text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push('\n');
            }
            '\u{0}' | '\u{feff}' => {}
            '\u{c}' | '\u{2}' => out.push('\n'),
            '\u{a0}' => out.push(' '),
            _ => out.push(c),
        }
    }
    // Trailing spaces before a newline carry nothing and vary between producers.
    let trimmed: Vec<&str> = out.lines().map(str::trim_end).collect();
    trimmed.join("\n").trim_matches('\n').to_string()
}
