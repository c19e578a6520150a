//! Whether two folders hold the same files: the bundled sample is not offered beside a folder
//! that is a copy of it (the sample folder given as an argument, or the bundle's own copy found
//! by another path), which would list "sample" twice.

use std::path::{Path, PathBuf};

/// More files than this in either folder and they are taken to differ: the check must stay
/// instant on a large folder, and the sample is three files.
const MAX_FILES: usize = 200;

/// The files under `dir` as (path relative to it, size), sorted; `None` when it cannot be
/// read or holds more than [`MAX_FILES`].
fn listing(dir: &Path) -> Option<Vec<(PathBuf, u64)>> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).ok()? {
            let entry = entry.ok()?;
            let meta = entry.metadata().ok()?;
            if meta.is_dir() {
                pending.push(entry.path());
            } else {
                out.push((entry.path().strip_prefix(dir).ok()?.to_path_buf(), meta.len()));
                if out.len() > MAX_FILES {
                    return None;
                }
            }
        }
    }
    out.sort();
    Some(out)
}

/// Same folder by another path, or the same file names with the same sizes and bytes.
pub fn same_content(a: &Path, b: &Path) -> bool {
    if let (Ok(x), Ok(y)) = (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        if x == y {
            return true;
        }
    }
    let (Some(x), Some(y)) = (listing(a), listing(b)) else {
        return false;
    };
    x == y && x.iter().all(|(rel, _)| matches!((std::fs::read(a.join(rel)), std::fs::read(b.join(rel))), (Ok(p), Ok(q)) if p == q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_the_same_and_an_edit_is_not() {
        let root = tempfile::tempdir().unwrap();
        let (a, b) = (root.path().join("a"), root.path().join("b"));
        for dir in [&a, &b] {
            std::fs::create_dir_all(dir.join("sub")).unwrap();
            std::fs::write(dir.join("notes.md"), "# Notes\nsame").unwrap();
            std::fs::write(dir.join("sub/x.txt"), "x").unwrap();
        }
        assert!(same_content(&a, &b));
        assert!(same_content(&a, &root.path().join("b/../a")));
        std::fs::write(b.join("notes.md"), "# Notes\nsome").unwrap();
        assert!(!same_content(&a, &b), "same size, other bytes");
        std::fs::write(b.join("notes.md"), "# Notes\nsame").unwrap();
        std::fs::write(b.join("extra.txt"), "").unwrap();
        assert!(!same_content(&a, &b));
    }
}
