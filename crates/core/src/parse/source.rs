//! A file handed to a parser: the path names it (titles, messages); its bytes come only
//! through the open handle. A sandboxed worker may not open paths at all, so its parent
//! opens each file and passes the handle across.

use std::fs::File;
use std::path::Path;

use super::ParseFailure;

pub struct Source<'a> {
    pub path: &'a Path,
    pub file: File,
}

impl<'a> Source<'a> {
    /// Opens `path` for reading (in the parent, or in tests that parse in-process).
    pub fn open(path: &'a Path) -> Result<Source<'a>, ParseFailure> {
        let file = File::open(path).map_err(|e| format!("cannot read: {e}"))?;
        Ok(Source { path, file })
    }
}
