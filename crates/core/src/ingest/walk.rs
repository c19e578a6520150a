use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::parse::Format;

/// A file that Pagewise can index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    /// Canonical path (symlinks resolved), the file's identity in the stores.
    pub path: PathBuf,
    pub size: u64,
    pub mtime_ns: i64,
    pub format: Format,
}

#[derive(Debug, Default)]
pub struct Scan {
    pub files: Vec<FileEntry>,
    /// Paths that could not be read, with the reason.
    pub errors: Vec<(PathBuf, String)>,
    /// Canonical roots that exist.
    pub roots: Vec<PathBuf>,
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.to_string_lossy().starts_with('.')
}

fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}

/// Walks files and folders. Hidden entries are skipped, by name and by where a link leads;
/// symlinks are followed only when they stay inside one of the roots; each file is reported once (a loop or a second link
/// to the same file changes nothing).
pub fn scan(roots: &[PathBuf]) -> Scan {
    let mut out = Scan::default();
    for root in roots {
        match root.canonicalize() {
            Ok(c) => out.roots.push(c),
            Err(e) => out.errors.push((root.clone(), format!("cannot open: {e}"))),
        }
    }
    let canonical_roots = out.roots.clone();
    // Judged on where a link leads: a visible `notes.txt` pointing into `.ssh/` is hidden.
    let inside = |p: &Path| {
        canonical_roots
            .iter()
            .filter_map(|r| p.strip_prefix(r).ok())
            .any(|relative| !relative.components().any(|c| is_hidden(c.as_os_str())))
    };
    let mut seen: HashSet<PathBuf> = HashSet::new();
    for root in &canonical_roots {
        let walker = walkdir::WalkDir::new(root).follow_links(true).sort_by_file_name().into_iter();
        let walker = walker.filter_entry(|e| e.depth() == 0 || !is_hidden(e.file_name()));
        for entry in walker {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    // A symlink loop is reported by walkdir; it is not the user's problem.
                    if e.loop_ancestor().is_none() {
                        let path = e.path().map(Path::to_path_buf).unwrap_or_else(|| root.clone());
                        out.errors.push((path, e.to_string()));
                    }
                    continue;
                }
            };
            if entry.file_type().is_dir() {
                continue;
            }
            let Some(format) = Format::from_path(entry.path()) else { continue };
            let canonical = match entry.path().canonicalize() {
                Ok(c) => c,
                Err(e) => {
                    out.errors.push((entry.path().to_path_buf(), format!("cannot resolve: {e}")));
                    continue;
                }
            };
            if !inside(&canonical) || !seen.insert(canonical.clone()) {
                continue;
            }
            match std::fs::metadata(&canonical) {
                Ok(meta) if meta.is_file() => out.files.push(FileEntry {
                    path: canonical,
                    size: meta.len(),
                    mtime_ns: mtime_ns(&meta),
                    format,
                }),
                Ok(_) => {}
                Err(e) => out.errors.push((canonical, format!("cannot read metadata: {e}"))),
            }
        }
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_hidden_follows_inner_links_and_survives_loops() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::create_dir_all(root.join(".hidden")).unwrap();
        std::fs::write(root.join("a.txt"), "a").unwrap();
        std::fs::write(root.join("sub/b.md"), "b").unwrap();
        std::fs::write(root.join(".hidden/c.txt"), "c").unwrap();
        std::fs::write(root.join("ignored.bin"), "x").unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret.txt"), "s").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, root.join("link-out")).unwrap();
            std::os::unix::fs::symlink(&root, root.join("sub/loop")).unwrap();
            std::os::unix::fs::symlink(root.join("a.txt"), root.join("alias.txt")).unwrap();
            // Visible names that lead into a hidden folder (a key under a watched home).
            std::os::unix::fs::symlink(root.join(".hidden/c.txt"), root.join("notes.txt")).unwrap();
            std::os::unix::fs::symlink(root.join(".hidden"), root.join("visible")).unwrap();
        }
        let scan = scan(std::slice::from_ref(&root));
        let names: Vec<String> = scan
            .files
            .iter()
            .map(|f| f.path.strip_prefix(root.canonicalize().unwrap()).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["a.txt", "sub/b.md"]);
    }
}
