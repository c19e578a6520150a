//! Putting a chat model into the data dir's `models/llm/` folder, from a file the user picks
//! or a URL: the file must be a GGUF (its header is read first), there must be room for it,
//! and it appears under its final name only when complete (written as `NAME.part`, then
//! renamed), so a half-copied model is never offered.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::gguf::read_info;

/// Space left free beyond the model itself, so installing a model never fills the disk the
/// index lives on.
pub const SPACE_MARGIN: u64 = 256 << 20;

/// Where installed chat models go in a data dir.
pub fn models_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("models").join("llm")
}

/// Copies the GGUF at `source` into `dir` (made if missing); returns the installed path.
pub fn import(source: &Path, dir: &Path) -> Result<PathBuf> {
    let refuse = |message: String| Error::Model { path: source.to_path_buf(), message };
    read_info(source)?;
    let name = source.file_name().ok_or_else(|| refuse("has no file name".into()))?;
    let size = std::fs::metadata(source).map_err(|e| Error::io(source, e))?.len();
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let target = dir.join(name);
    if target.exists() {
        return Err(refuse(format!("a model named {} is already installed in {}", name.to_string_lossy(), dir.display())));
    }
    ensure_room(dir, size)?;
    let part = part_path(&target);
    let copied = std::fs::copy(source, &part).map_err(|e| Error::io(&part, e));
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&part);
        return Err(e);
    }
    std::fs::rename(&part, &target).map_err(|e| Error::io(&target, e))?;
    Ok(target)
}

/// `NAME.part`, where an unfinished copy or download of `target` lives.
pub fn part_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".part");
    target.with_file_name(name)
}

/// Bytes free for this user on the file system holding `dir`.
pub fn free_space(dir: &Path) -> Result<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let c_path = std::ffi::CString::new(dir.as_os_str().as_bytes())
            .map_err(|_| Error::Model { path: dir.to_path_buf(), message: "path holds a NUL byte".into() })?;
        // SAFETY: statvfs fills the struct it is given; the path is a valid C string.
        let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
        if unsafe { libc::statvfs(c_path.as_ptr(), &mut stats) } != 0 {
            return Err(Error::io(dir, std::io::Error::last_os_error()));
        }
        Ok(u64::from(stats.f_bavail).saturating_mul(u64::from(stats.f_frsize)))
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(u64::MAX)
    }
}

/// Refuses when `dir` lacks room for `bytes` more plus [`SPACE_MARGIN`].
pub fn ensure_room(dir: &Path, bytes: u64) -> Result<()> {
    let free = free_space(dir)?;
    if free < bytes.saturating_add(SPACE_MARGIN) {
        return Err(Error::Model {
            path: dir.to_path_buf(),
            message: format!(
                "not enough free space: the model needs {:.1} MB and {:.0} MB are kept free, but only {:.1} MB are free",
                bytes as f64 / 1e6,
                SPACE_MARGIN as f64 / 1e6,
                free as f64 / 1e6
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gguf::tests::tiny_gguf;

    #[test]
    fn a_gguf_is_imported_once_and_anything_else_is_refused() {
        let from = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let model = from.path().join("tiny.gguf");
        std::fs::write(&model, tiny_gguf(&[("general.architecture", "llama")], &[])).unwrap_or_else(|e| panic!("{e}"));
        let dir = models_dir(data.path());
        let installed = import(&model, &dir).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(installed, dir.join("tiny.gguf"));
        assert_eq!(std::fs::read(&installed).ok(), std::fs::read(&model).ok());
        assert!(!part_path(&installed).exists());
        assert!(import(&model, &dir).unwrap_err().to_string().contains("already installed"));
        let notes = from.path().join("notes.gguf");
        std::fs::write(&notes, "just text").unwrap_or_else(|e| panic!("{e}"));
        assert!(import(&notes, &dir).unwrap_err().to_string().contains("not a GGUF"));
        assert!(!dir.join("notes.gguf").exists());
        assert!(free_space(data.path()).unwrap_or(0) > 0);
        assert!(ensure_room(data.path(), u64::MAX / 2).unwrap_err().to_string().contains("not enough free space"));
    }
}
