//! The process's one PDFium. PDFium is not thread-safe and binds once per process, so the
//! library is bound lazily into a process-wide handle and every call goes through one lock.
//! Parsing and the viewer both use it.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use pdfium_render::prelude::Pdfium;

use crate::error::{Error, Result};

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
