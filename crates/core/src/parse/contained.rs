//! What a worker process runs for a file, of every format: PDF through PDFium, the ZIP-based
//! DOCX and EPUB, and HTML, CSV, Markdown and text. Every parser runs there, under the
//! worker's time and memory limits, so no file can cost more than itself. Tests run it
//! in-process.

use std::io::Read;
use std::path::Path;

use super::archive::ZipLimits;
use super::csv::parse_csv;
use super::docx::parse_docx;
use super::epub::parse_epub;
use super::html::parse_html;
use super::pdf::{parse_pdf_reporting, PageProgress, PdfLimits};
use super::text::parse_text;
use super::{Document, Format, ParseFailure, Source};
use crate::error::Result;

/// The most a text file may hold, read by the worker whatever size the parent saw (a file
/// can grow between the check and the read).
pub const TEXT_INPUT_LIMIT: u64 = 64 * 1024 * 1024;
/// The most text a parsed document may carry back to the parent.
pub const DOCUMENT_TEXT_LIMIT: usize = 64 * 1024 * 1024;

/// Parses one file. `progress` hears about each PDF page as it is read.
pub fn parse_contained(
    pdfium_lib: &Path,
    source: Source<'_>,
    format: Format,
    limits: PdfLimits,
    progress: &mut dyn FnMut(PageProgress),
) -> Result<Result<Document, ParseFailure>> {
    let path = source.path;
    let parsed = match format {
        Format::Pdf => parse_pdf_reporting(pdfium_lib, source, limits, progress)?,
        Format::Docx => parse_docx(source, ZipLimits::default()),
        Format::Epub => parse_epub(source, ZipLimits::default()),
        Format::Html | Format::Csv | Format::Markdown | Format::Text => read_capped(source.file).and_then(|bytes| match format {
            Format::Html => parse_html(path, &bytes),
            Format::Csv => parse_csv(path, &bytes),
            _ => parse_text(path, &bytes, format),
        }),
    };
    Ok(parsed.and_then(within_output_limit))
}

fn read_capped(file: std::fs::File) -> std::result::Result<Vec<u8>, ParseFailure> {
    let mut bytes = Vec::new();
    file.take(TEXT_INPUT_LIMIT + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > TEXT_INPUT_LIMIT {
        return Err(format!("text file over the limit of {} MB", TEXT_INPUT_LIMIT >> 20));
    }
    Ok(bytes)
}

fn within_output_limit(doc: Document) -> std::result::Result<Document, ParseFailure> {
    let bytes: usize = doc.pages.iter().map(|p| p.text.len()).sum();
    if bytes > DOCUMENT_TEXT_LIMIT {
        return Err(format!("yields {} MB of text, over the limit of {} MB", bytes >> 20, DOCUMENT_TEXT_LIMIT >> 20));
    }
    Ok(doc)
}
