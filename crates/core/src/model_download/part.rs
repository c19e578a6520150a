//! The unfinished download: `NAME.<key>.part`, keyed by the URL so that another URL never
//! continues onto its bytes, and `NAME.<key>.part.validator` beside it, the server's ETag or
//! Last-Modified the bytes were sent under, for a resume's `If-Range`.

use std::path::{Path, PathBuf};

use ureq::http::HeaderMap;

use crate::error::{Error, Result};

pub(super) struct Part {
    pub path: PathBuf,
    validator: PathBuf,
}

impl Part {
    pub fn new(target: &Path, url: &str) -> Part {
        let key = blake3::hash(url.as_bytes()).to_hex();
        let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let path = target.with_file_name(format!("{name}.{}.part", &key[..16]));
        let validator = target.with_file_name(format!("{name}.{}.part.validator", &key[..16]));
        Part { path, validator }
    }

    pub fn len(&self) -> u64 {
        std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0)
    }

    pub fn validator(&self) -> Option<String> {
        let text = std::fs::read_to_string(&self.validator).ok()?;
        let text = text.trim();
        // It goes back into a header: anything a header cannot carry means the file is damaged.
        (!text.is_empty() && text.bytes().all(|b| b == b'\t' || (b' '..=b'~').contains(&b))).then(|| text.to_string())
    }

    /// Records the validator of the response the part's bytes now come from; none means
    /// the part can only be resumed when a checksum will vouch for it.
    pub fn set_validator(&self, validator: Option<&str>) -> Result<()> {
        match validator {
            Some(v) => std::fs::write(&self.validator, v).map_err(|e| Error::io(&self.validator, e)),
            None => match std::fs::remove_file(&self.validator) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&self.validator, e)),
                _ => Ok(()),
            },
        }
    }

    /// Deletes the part and its validator; a failure leaves a file that the next run
    /// overwrites, so it is not worth an error of its own.
    pub fn discard(&self) {
        let _ = std::fs::remove_file(&self.path);
        let _ = std::fs::remove_file(&self.validator);
    }

    /// Moves the finished part to `target`, then drops what other URLs or older versions
    /// left for the same name: with the model installed they can never be finished.
    pub fn finish(&self, target: &Path) -> Result<()> {
        std::fs::rename(&self.path, target).map_err(|e| Error::io(target, e))?;
        let _ = std::fs::remove_file(&self.validator);
        let (Some(dir), Some(name)) = (target.parent(), target.file_name().and_then(|n| n.to_str())) else {
            return Ok(());
        };
        let stale_prefix = format!("{name}.");
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let file = entry.file_name();
                let Some(file) = file.to_str() else { continue };
                let rest = file.strip_prefix(&stale_prefix).unwrap_or("");
                if rest == "part" || is_keyed_part(rest) {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
        Ok(())
    }
}

/// `<16 hex>.part` or `<16 hex>.part.validator`.
fn is_keyed_part(rest: &str) -> bool {
    let Some((key, suffix)) = rest.split_once('.') else { return false };
    key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit()) && (suffix == "part" || suffix == "part.validator")
}

/// What a resume can name in `If-Range`: a strong ETag, or else the Last-Modified date (a
/// weak ETag may not be used there).
pub(super) fn validator_of(headers: &HeaderMap) -> Option<String> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim).filter(|v| !v.is_empty());
    header("etag").filter(|tag| !tag.starts_with("W/")).or_else(|| header("last-modified")).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_keyed_by_url_and_finishing_clears_every_part_of_the_name() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let target = dir.path().join("m.gguf");
        let a = Part::new(&target, "https://a/m.gguf");
        let b = Part::new(&target, "https://b/m.gguf");
        assert_ne!(a.path, b.path);
        assert_eq!(a.path, Part::new(&target, "https://a/m.gguf").path);
        let a_name = a.path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        assert!(a_name.starts_with("m.gguf.") && a_name.ends_with(".part"), "{a_name}");

        std::fs::write(&a.path, b"old").unwrap_or_else(|e| panic!("{e}"));
        a.set_validator(Some("\"v1\"")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.validator().as_deref(), Some("\"v1\""));
        std::fs::write(dir.path().join("m.gguf.part"), b"legacy").unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.path().join("other.gguf.0123456789abcdef.part"), b"keep").unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&b.path, b"new").unwrap_or_else(|e| panic!("{e}"));
        b.finish(&target).unwrap_or_else(|e| panic!("{e}"));

        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap_or_else(|e| panic!("{e}"))
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["m.gguf", "other.gguf.0123456789abcdef.part"]);
    }

    #[test]
    fn a_weak_etag_gives_way_to_last_modified() {
        let mut headers = HeaderMap::new();
        headers.insert("last-modified", "Tue, 01 Apr 2025 10:00:00 GMT".parse().unwrap_or_else(|e| panic!("{e}")));
        headers.insert("etag", "W/\"weak\"".parse().unwrap_or_else(|e| panic!("{e}")));
        assert_eq!(validator_of(&headers).as_deref(), Some("Tue, 01 Apr 2025 10:00:00 GMT"));
        headers.insert("etag", "\"strong\"".parse().unwrap_or_else(|e| panic!("{e}")));
        assert_eq!(validator_of(&headers).as_deref(), Some("\"strong\""));
        assert_eq!(validator_of(&HeaderMap::new()), None);
    }
}
