//! The formats that are parsed in isolation (PDF through PDFium, and the ZIP-based DOCX and
//! EPUB): what the worker process runs for a file, and what tests run in-process.

use std::path::Path;

use super::archive::ZipLimits;
use super::docx::parse_docx;
use super::epub::parse_epub;
use super::pdf::{parse_pdf, PdfLimits};
use super::{Document, Format, ParseFailure};
use crate::error::Result;

/// Parses a file of a format that needs isolation (see [`Format::needs_isolation`]); what
/// the worker process runs, and what tests run in-process.
pub fn parse_contained(pdfium_lib: &Path, path: &Path, format: Format, limits: PdfLimits) -> Result<Result<Document, ParseFailure>> {
    match format {
        Format::Pdf => parse_pdf(pdfium_lib, path, limits),
        Format::Docx => Ok(parse_docx(path, ZipLimits::default())),
        Format::Epub => Ok(parse_epub(path, ZipLimits::default())),
        other => Ok(Err(format!("{} files are not parsed in the worker", other.as_str()))),
    }
}
