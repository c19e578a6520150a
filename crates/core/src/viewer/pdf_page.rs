//! Page rendering and character boxes through PDFium.

use std::fs::File;
use std::path::Path;

use pdfium_render::prelude::*;

use super::locate::{locate_quote, locate_tail, merge_into_lines, CharBox};
use crate::glyphs::{page_glyphs, Glyph};
use crate::parse::reading_order::column_order;
use super::Rect;
use crate::error::{Error, Result};
use crate::ocr::{char_boxes, OCR_DPI};
use crate::pdfium::{recognise_page, with_pdfium};

#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PageSize {
    pub width_pt: f32,
    pub height_pt: f32,
    pub page_count: u32,
}

fn pdf_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Pdfium { path: path.to_path_buf(), message: e.to_string() }
}

/// A part of the highlighted passage to mark on its own (a table cell, its column's title):
/// `tail` as it ends `context`, the text of its line up to and including it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Focus {
    pub context: String,
    pub tail: String,
}

/// What the viewer asks of one page: an image `width_px` wide and/or the rectangles over
/// `quote` and over each `focus`.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PageRequest {
    pub page: u32,
    pub width_px: Option<u32>,
    pub quote: Option<String>,
    #[serde(default)]
    pub focus: Vec<Focus>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PageRender {
    #[serde(with = "png_base64")]
    pub png: Option<Vec<u8>>,
    pub rects: Vec<Rect>,
    /// The rectangles over the request's `focus` parts, all together.
    #[serde(default)]
    pub focus_rects: Vec<Rect>,
    pub size: PageSize,
}

/// PNG bytes travel base64-encoded in the worker's JSON lines.
mod png_base64 {
    use base64::Engine as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(png: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match png {
            Some(bytes) => s.serialize_some(&base64::engine::general_purpose::STANDARD.encode(bytes)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        let text: Option<String> = Option::deserialize(d)?;
        text.map(|t| base64::engine::general_purpose::STANDARD.decode(t).map_err(serde::de::Error::custom)).transpose()
    }
}

/// Answers a [`PageRequest`] with one load of the document, read through `file` (the worker
/// gets the handle from its parent and cannot open `path` itself).
pub fn render_view(pdfium_lib: &Path, path: &Path, file: File, request: &PageRequest) -> Result<PageRender> {
    with_pdfium(pdfium_lib, |pdfium| {
        let document = pdfium.load_pdf_from_reader(file, None).map_err(|e| pdf_error(path, e))?;
        let png = match request.width_px {
            Some(w) => Some(render_loaded(&document, path, request.page, w)?.0),
            None => None,
        };
        let (chars, size) = page_chars(&document, path, request.page, request.quote.as_deref().is_some_and(|q| !q.is_empty()) || !request.focus.is_empty())?;
        let chosen = locate_quote(&chars, request.quote.as_deref().unwrap_or(""));
        let rects = merge_into_lines(&chars, &chosen, size.width_pt, size.height_pt);
        let focus_rects = request
            .focus
            .iter()
            .flat_map(|f| merge_into_lines(&chars, &locate_tail(&chars, &f.context, &f.tail), size.width_pt, size.height_pt))
            .collect();
        Ok(PageRender { png, rects, focus_rects, size })
    })
}

/// Runs `f` on the PDF at `path`, opened here (for callers outside a worker).
fn with_document<T>(pdfium_lib: &Path, path: &Path, f: impl FnOnce(&PdfDocument<'_>) -> Result<T>) -> Result<T> {
    let file = File::open(path).map_err(|e| Error::Io { path: path.to_path_buf(), source: e })?;
    with_pdfium(pdfium_lib, |pdfium| f(&pdfium.load_pdf_from_reader(file, None).map_err(|e| pdf_error(path, e))?))
}

/// Pixels of the largest picture the viewer renders (4096 × 4096, 64 MB as RGBA).
const RENDER_PIXEL_LIMIT: u32 = 4096 * 4096;

/// Renders page `page` (1-based) of the PDF at `path` to a PNG `width_px` pixels wide (less
/// when the page is so tall that the picture would pass [`RENDER_PIXEL_LIMIT`]).
pub fn render_page_png(pdfium_lib: &Path, path: &Path, page: u32, width_px: u32) -> Result<(Vec<u8>, PageSize)> {
    with_document(pdfium_lib, path, |document| render_loaded(document, path, page, width_px))
}

fn render_loaded(document: &PdfDocument<'_>, path: &Path, page: u32, width_px: u32) -> Result<(Vec<u8>, PageSize)> {
    let width_px = width_px.clamp(64, 4096);
    let size = page_size(document, path, page)?;
    let pdf_page = document.pages().get(page_index(path, page)?).map_err(|e| pdf_error(path, e))?;
    // Width alone does not bound a picture: a page 20 times taller than wide at 4096 px
    // wide is 80,000 px tall. The height is capped so the bitmap stays under the limit.
    let max_height = (RENDER_PIXEL_LIMIT / width_px).max(64);
    let config = PdfRenderConfig::new()
        .set_target_width(width_px as Pixels)
        .set_maximum_height(max_height as Pixels)
        .render_form_data(true);
    let bitmap = pdf_page.render_with_config(&config).map_err(|e| pdf_error(path, e))?;
    let (w, h) = (bitmap.width() as u32, bitmap.height() as u32);
    let rgba = bitmap.as_rgba_bytes();
    Ok((encode_png(path, w, h, &rgba)?, size))
}

/// The rectangles (fractions of the page) that cover `quote` on page `page` (1-based).
pub fn highlight_rects(pdfium_lib: &Path, path: &Path, page: u32, quote: &str) -> Result<(Vec<Rect>, PageSize)> {
    with_document(pdfium_lib, path, |document| highlight_loaded(document, path, page, quote))
}

fn highlight_loaded(document: &PdfDocument<'_>, path: &Path, page: u32, quote: &str) -> Result<(Vec<Rect>, PageSize)> {
    let (chars, size) = page_chars(document, path, page, !quote.is_empty())?;
    let chosen = locate_quote(&chars, quote);
    Ok((merge_into_lines(&chars, &chosen, size.width_pt, size.height_pt), size))
}

/// The page's characters with their boxes, in the order its indexed text has; for a scanned
/// page whose boxes are `wanted`, those of its OCR.
fn page_chars(document: &PdfDocument<'_>, path: &Path, page: u32, wanted: bool) -> Result<(Vec<CharBox>, PageSize)> {
    let size = page_size(document, path, page)?;
    let pdf_page = document.pages().get(page_index(path, page)?).map_err(|e| pdf_error(path, e))?;
    // The characters in the page's reading order, which is the order its indexed text has.
    let glyphs = page_glyphs(&pdf_page);
    let ordered: Vec<&Glyph> = match column_order(&glyphs) {
        Some(runs) => runs.into_iter().flat_map(|r| &glyphs[r]).collect(),
        None => glyphs.iter().collect(),
    };
    let mut chars: Vec<CharBox> = ordered
        .into_iter()
        .filter(|g| !g.generated)
        .map(|g| CharBox { ch: g.ch, left: g.left, bottom: g.bottom, right: g.right, top: g.top })
        .collect();
    // A scanned page: its indexed text came from OCR, so the same OCR gives the boxes.
    if wanted && !chars.iter().any(|c| c.ch.is_alphanumeric()) {
        if let Some(words) = crate::ocr::tesseract().and_then(|t| recognise_page(t, &pdf_page).ok()) {
            chars = char_boxes(&words, OCR_DPI, size.height_pt)
                .into_iter()
                .map(|c| CharBox { ch: c.ch, left: c.left, bottom: c.bottom, right: c.right, top: c.top })
                .collect();
        }
    }
    Ok((chars, size))
}

fn page_index(path: &Path, page: u32) -> Result<i32> {
    page.checked_sub(1).and_then(|p| i32::try_from(p).ok()).ok_or_else(|| pdf_error(path, format!("no page {page}")))
}

fn page_size(document: &PdfDocument<'_>, path: &Path, page: u32) -> Result<PageSize> {
    let count = document.pages().len() as u32;
    if page == 0 || page > count {
        return Err(pdf_error(path, format!("page {page} is outside 1..={count}")));
    }
    let p = document.pages().get(page_index(path, page)?).map_err(|e| pdf_error(path, e))?;
    Ok(PageSize { width_pt: p.width().value, height_pt: p.height().value, page_count: count })
}

fn encode_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(|e| pdf_error(path, e))?;
    writer.write_image_data(rgba).map_err(|e| pdf_error(path, e))?;
    writer.finish().map_err(|e| pdf_error(path, e))?;
    Ok(out)
}
