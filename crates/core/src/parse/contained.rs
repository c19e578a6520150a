//! The formats that are parsed in isolation (PDF through PDFium, and the ZIP-based DOCX and
//! EPUB): what the worker process runs for a file, and what tests run in-process.

use std::path::Path;

use super::archive::ZipLimits;
use super::docx::parse_docx;
use super::epub::parse_epub;
use super::pdf::{parse_pdf_reporting, PageProgress, PdfLimits};
use super::{Document, Format, ParseFailure};
use crate::error::Result;

/// Parses a file of a format that needs isolation (see [`Format::needs_isolation`]); what
/// the worker process runs, and what tests run in-process.
/// `progress` hears about each PDF page as it is read.
pub fn parse_contained(
    pdfium_lib: &Path,
    path: &Path,
    format: Format,
    limits: PdfLimits,
    progress: &mut dyn FnMut(PageProgress),
) -> Result<Result<Document, ParseFailure>> {
    match format {
        Format::Pdf => parse_pdf_reporting(pdfium_lib, path, limits, progress),
        Format::Docx => Ok(parse_docx(path, ZipLimits::default())),
        Format::Epub => Ok(parse_epub(path, ZipLimits::default())),
        other => Ok(Err(format!("{} files are not parsed in the worker", other.as_str()))),
    }
}
