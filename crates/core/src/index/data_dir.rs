//! A data dir is ours or it is refused. Pagewise deletes and rebuilds files inside its data
//! dir (a keyword index with another schema, a stale vector file), so it must never treat a
//! user's folder as one: a data dir carries a marker file, and only a missing or empty
//! folder, or one with the marker, becomes a data dir. A folder from before the marker that
//! holds Pagewise's metadata store is adopted.

use std::path::{Path, PathBuf};

use super::{CONVERSATIONS_FILE, SQLITE_FILE};
use crate::model_catalog::SPEED_FILE;
use crate::error::{Error, Result};

pub const MARKER_FILE: &str = ".pagewise-data";
const MARKER_TEXT: &str = "This folder holds a Pagewise index. Pagewise may delete and rebuild files here.\n";

/// What a folder is, as a data location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    Missing,
    Empty,
    Ours,
    /// A data dir from before the marker (it holds Pagewise's metadata store).
    Legacy,
    /// Anything else: a user's folder, or not a folder.
    Foreign,
}

pub fn inspect(dir: &Path) -> Location {
    match std::fs::symlink_metadata(dir) {
        Err(_) => Location::Missing,
        Ok(m) if !m.is_dir() => Location::Foreign,
        Ok(_) if dir.join(MARKER_FILE).is_file() => Location::Ours,
        Ok(_) if dir.join(SQLITE_FILE).is_file() || dir.join(CONVERSATIONS_FILE).is_file() => Location::Legacy,
        // Models placed in DATA_DIR/models before the first index do not make it foreign.
        Ok(_) => match std::fs::read_dir(dir).map(|entries| entries.flatten().all(|e| e.file_name() == "models" || e.file_name() == SPEED_FILE)) {
            Ok(true) => Location::Empty,
            _ => Location::Foreign,
        },
    }
}

fn refused(dir: &Path) -> Error {
    Error::NotADataDir { path: dir.to_path_buf() }
}

/// Whether `dir` may become a data dir, without touching it (for Settings).
pub fn check(dir: &Path) -> Result<()> {
    match inspect(dir) {
        Location::Foreign => Err(refused(dir)),
        _ => Ok(()),
    }
}

/// Makes `dir` a data dir before anything is written there: creates it with the marker when
/// missing, marks it when empty or legacy, refuses it when it is someone else's.
pub fn claim(dir: &Path) -> Result<PathBuf> {
    match inspect(dir) {
        Location::Ours => return Ok(dir.to_path_buf()),
        Location::Foreign => return Err(refused(dir)),
        Location::Missing => std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?,
        Location::Empty | Location::Legacy => {}
    }
    let marker = dir.join(MARKER_FILE);
    std::fs::write(&marker, MARKER_TEXT).map_err(|e| Error::io(&marker, e))?;
    Ok(dir.to_path_buf())
}

/// Fails unless `dir` is already a marked data dir: the guard before deleting inside it.
pub fn ensure_ours(dir: &Path) -> Result<()> {
    match inspect(dir) {
        Location::Ours => Ok(()),
        _ => Err(refused(dir)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_missing_empty_marked_or_legacy_folders_become_data_dirs() {
        let root = tempfile::tempdir().unwrap();
        let fresh = root.path().join("new/index");
        claim(&fresh).unwrap();
        assert_eq!(inspect(&fresh), Location::Ours);

        let empty = root.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        claim(&empty).unwrap();
        assert!(empty.join(MARKER_FILE).is_file());

        let legacy = root.path().join("legacy");
        std::fs::create_dir(&legacy).unwrap();
        std::fs::write(legacy.join(SQLITE_FILE), b"").unwrap();
        assert_eq!(inspect(&legacy), Location::Legacy);
        claim(&legacy).unwrap();
        assert_eq!(inspect(&legacy), Location::Ours);

        let users = root.path().join("Documents");
        std::fs::create_dir_all(users.join("lexical")).unwrap();
        std::fs::write(users.join("lexical/notes.txt"), b"mine").unwrap();
        let err = claim(&users).unwrap_err().to_string();
        assert!(err.contains("not a Pagewise data folder"), "{err}");
        assert!(check(&users).is_err() && ensure_ours(&users).is_err());
        assert!(!users.join(MARKER_FILE).exists());
        assert_eq!(std::fs::read(users.join("lexical/notes.txt")).unwrap(), b"mine");

        let file = root.path().join("a-file");
        std::fs::write(&file, b"x").unwrap();
        assert!(claim(&file).is_err());
    }
}
