//! PDF text per page through PDFium (the process's one handle, see `crate::pdfium`).

use std::path::Path;

use pdfium_render::prelude::*;

use super::{choose_title, normalise_text, remove_running_lines, Document, Format, Page, ParseFailure, Source};
use crate::error::Result;
use crate::glyphs::page_glyphs;
use crate::ocr;
use super::cell_gaps::mark_cell_gaps;
use super::reading_order::{column_order, text_of as text_of_glyphs};
use crate::pdfium::{recognise_page, with_pdfium};

/// Limits that keep one file from exhausting the machine.
#[derive(Debug, Clone, Copy)]
pub struct PdfLimits {
    pub max_pages: usize,
    pub max_page_chars: usize,
    /// Read pages without a text layer with Tesseract (when it is installed).
    pub ocr: bool,
}

impl Default for PdfLimits {
    fn default() -> Self {
        PdfLimits { max_pages: 5_000, max_page_chars: 200_000, ocr: true }
    }
}

/// Parses a PDF into cleaned page texts. `Ok(Err(reason))` is a file that cannot be indexed;
/// `Err` is a problem with PDFium itself.
pub fn parse_pdf(lib: &Path, path: &Path, limits: PdfLimits) -> Result<Result<Document, ParseFailure>> {
    match Source::open(path) {
        Ok(source) => parse_pdf_reporting(lib, source, limits, &mut |_| {}),
        Err(reason) => Ok(Err(reason)),
    }
}

/// [`parse_pdf`], telling `progress` about each page as it is read (a worker uses it to show
/// that a long OCR run is alive).
pub fn parse_pdf_reporting(lib: &Path, source: Source<'_>, limits: PdfLimits, progress: &mut dyn FnMut(PageProgress)) -> Result<Result<Document, ParseFailure>> {
    with_pdfium(lib, |pdfium| Ok(parse_loaded(pdfium, source, limits, progress)))
}

/// One page read: its number, the page count, and whether it was read by OCR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PageProgress {
    pub page: u32,
    pub pages: u32,
    pub ocr: bool,
}

fn parse_loaded(pdfium: &Pdfium, source: Source<'_>, limits: PdfLimits, progress: &mut dyn FnMut(PageProgress)) -> Result<Document, ParseFailure> {
    let path = source.path;
    let document = match pdfium.load_pdf_from_reader(source.file, None) {
        Ok(d) => d,
        Err(e) => return Err(describe_load_error(&e)),
    };
    let page_count = document.pages().len() as usize;
    if page_count == 0 {
        return Err("PDF has no pages".into());
    }
    if page_count > limits.max_pages {
        return Err(format!("PDF has {page_count} pages, over the limit of {}", limits.max_pages));
    }
    let tesseract = if limits.ocr { ocr::tesseract() } else { None };
    let mut ocr_error = None;
    let mut texts = Vec::with_capacity(page_count);
    for (i, page) in document.pages().iter().enumerate() {
        // Pages with columns are read column by column; others keep PDFium's text as it is.
        let glyphs = page_glyphs(&page);
        let raw = match column_order(&glyphs) {
            Some(runs) => text_of_glyphs(&glyphs, &runs),
            None => mark_cell_gaps(&text_layer(&page), &glyphs),
        };
        let mut text = normalise_text(&raw);
        let mut by_ocr = false;
        if text.trim().is_empty() {
            if let Some(tesseract) = tesseract {
                match recognise_page(tesseract, &page) {
                    Ok(words) => {
                        text = normalise_text(&ocr::page_text(&words));
                        by_ocr = true;
                    }
                    Err(e) => ocr_error = Some(e),
                }
            }
        }
        progress(PageProgress { page: i as u32 + 1, pages: page_count as u32, ocr: by_ocr });
        if text.len() > limits.max_page_chars {
            let mut cut = limits.max_page_chars;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
        }
        texts.push(text);
    }
    if texts.iter().all(|t| t.trim().is_empty()) {
        let why = match (limits.ocr, tesseract, ocr_error) {
            (false, _, _) => "OCR is turned off".to_string(),
            (true, None, _) => "OCR needs Tesseract: install tesseract-ocr".to_string(),
            (true, Some(_), Some(e)) => format!("OCR failed: {e}"),
            (true, Some(_), None) => "OCR found no text either".to_string(),
        };
        return Err(format!("no text layer ({page_count} pages, scanned or image-only; {why})"));
    }
    remove_running_lines(&mut texts);
    let metadata_title = document
        .metadata()
        .get(PdfDocumentMetadataTagType::Title)
        .map(|tag| tag.value().to_string());
    let pages: Vec<Page> = texts.into_iter().map(|text| Page { text }).collect();
    let title = choose_title(metadata_title.as_deref(), &pages, path);
    Ok(Document { format: Format::Pdf, title, pages })
}

/// All of a page's text layer. pdfium-render's `all()` bounds the text by (0, 0, width,
/// height), which misses every character on a page whose box does not start at the origin,
/// and text above the rotated height on a rotated page (text coordinates are unrotated): such
/// pages were refused as "no text layer". The media box is where a page's text lives; text
/// that lies wholly outside it is still the file's text, so it is read character by character.
fn text_layer(page: &PdfPage) -> String {
    let Ok(text) = page.text() else { return String::new() };
    let bounds = page.boundaries().media().map(|b| b.bounds).unwrap_or_else(|_| page.page_size());
    let in_box = text.inside_rect(bounds);
    if !in_box.trim().is_empty() || text.is_empty() {
        return in_box;
    }
    text.chars().iter().filter_map(|c| c.unicode_string()).collect()
}

fn describe_load_error(e: &PdfiumError) -> String {
    match e {
        PdfiumError::PdfiumLibraryInternalError(internal) => match internal {
            PdfiumInternalError::PasswordError => "password-protected PDF".into(),
            PdfiumInternalError::SecurityError => "PDF uses an unsupported security handler".into(),
            PdfiumInternalError::FormatError => "malformed PDF (not a valid PDF structure)".into(),
            PdfiumInternalError::FileError => "PDF file could not be opened or read".into(),
            other => format!("PDFium could not open it: {other:?}"),
        },
        other => format!("PDFium could not open it: {other}"),
    }
}
