//! The process's one PDFium. PDFium is not thread-safe and binds once per process, so the
//! library is bound lazily into a process-wide handle and every call goes through one lock.
//! Parsing and the viewer both use it, and both read scanned pages through [`recognise_page`].

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use pdfium_render::prelude::{
    PdfPage, PdfPageImageObject, PdfPageObjectsCommon, PdfPagePaperSize, PdfRenderConfig, Pdfium, PdfiumError,
};

use crate::error::{Error, Result};
use crate::ocr::{OcrWord, Tesseract, OCR_DPI};

static PDFIUM: OnceLock<Result<Mutex<Pdfium>, String>> = OnceLock::new();

/// Binds the PDFium library at `lib` (only the first call binds; later calls reuse it).
fn pdfium(lib: &Path) -> Result<&'static Mutex<Pdfium>> {
    let bound = PDFIUM.get_or_init(|| {
        Pdfium::bind_to_library(lib).map(|bindings| Mutex::new(Pdfium::new(bindings))).map_err(|e| e.to_string())
    });
    bound.as_ref().map_err(|message| Error::Pdfium { path: lib.to_path_buf(), message: message.clone() })
}

/// Runs `f` with the process's PDFium handle held (PDFium allows one caller at a time).
pub fn with_pdfium<T>(lib: &Path, f: impl FnOnce(&Pdfium) -> Result<T>) -> Result<T> {
    let guard = pdfium(lib)?.lock().map_err(|_| Error::Pdfium {
        path: PathBuf::from(lib),
        message: "an earlier PDFium call panicked while holding it".into(),
    })?;
    f(&guard)
}

/// Pixels of the largest page OCR renders: A0 at 300 dpi (about 140 million).
const OCR_PIXEL_LIMIT: f64 = 150e6;

/// The words Tesseract reads on `page` rendered at [`OCR_DPI`], or why there are none.
pub fn recognise_page(tesseract: &Tesseract, page: &PdfPage<'_>) -> Result<Vec<OcrWord>, String> {
    let width_px = (page.width().value / 72.0 * OCR_DPI as f32).round().max(1.0) as i32;
    let height_px = (page.height().value / 72.0 * OCR_DPI as f32).round().max(1.0);
    // A page the size of a wall would take gigabytes as a bitmap; no document needs that.
    if f64::from(width_px) * f64::from(height_px) > OCR_PIXEL_LIMIT {
        return Err(format!("page of {:.0} × {:.0} pt is too large to read by OCR", page.width().value, page.height().value));
    }
    let config = PdfRenderConfig::new().set_target_width(width_px).render_form_data(true);
    let bitmap = page.render_with_config(&config).map_err(|e| format!("cannot render the page for OCR: {e}"))?;
    let (w, h) = (bitmap.width() as u32, bitmap.height() as u32);
    let gray: Vec<u8> = bitmap
        .as_rgba_bytes()
        .chunks_exact(4)
        .map(|p| ((u32::from(p[0]) * 299 + u32::from(p[1]) * 587 + u32::from(p[2]) * 114) / 1000) as u8)
        .collect();
    tesseract.recognise(&gray, w, h, OCR_DPI)
}

/// Writes `to`: a copy of the PDF `from` whose pages are only pictures of the original pages
/// rendered at `dpi` (no text layer), as a scanner would make it. For measuring OCR and for
/// tests of scanned documents.
pub fn write_image_only_copy(lib: &Path, from: &Path, to: &Path, dpi: u32) -> Result<u32> {
    let failed = |e: PdfiumError| Error::Pdfium { path: from.to_path_buf(), message: e.to_string() };
    with_pdfium(lib, |pdfium| {
        let source = pdfium.load_pdf_from_file(from, None).map_err(failed)?;
        let mut copy = pdfium.create_new_pdf().map_err(failed)?;
        let mut pages = 0;
        for page in source.pages().iter() {
            let (width, height) = (page.width(), page.height());
            let width_px = (width.value / 72.0 * dpi as f32).round().max(1.0) as i32;
            let bitmap = page.render_with_config(&PdfRenderConfig::new().set_target_width(width_px)).map_err(failed)?;
            let mut scanned = copy.pages_mut().create_page_at_end(PdfPagePaperSize::Custom(width, height)).map_err(failed)?;
            let mut picture = PdfPageImageObject::new(&copy).map_err(failed)?;
            picture.set_bitmap(&bitmap).map_err(failed)?;
            // An image object is drawn in a 1 × 1 point square until scaled to the page.
            picture.scale(width.value, height.value).map_err(failed)?;
            scanned.objects_mut().add_image_object(picture).map_err(failed)?;
            pages += 1;
        }
        copy.save_to_file(to).map_err(|e| Error::Pdfium { path: to.to_path_buf(), message: e.to_string() })?;
        Ok(pages)
    })
}
