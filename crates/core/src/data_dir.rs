//! A data dir is ours or it is refused. Pagewise deletes and rebuilds files inside its data
//! dir (a keyword index with another schema, a stale vector file), so it must never treat a
//! user's folder as one: a data dir carries a marker file, and only a missing or empty
//! folder, or one with the marker, becomes a data dir. A folder from before the marker that
//! holds Pagewise's metadata store is adopted.

use std::path::{Path, PathBuf};

use crate::model_catalog::SPEED_FILE;
use crate::error::{Error, Result};

/// The metadata store, the record of truth of the index.
pub(crate) const SQLITE_FILE: &str = "pagewise.sqlite";
/// Conversations and feedback, beside the index (not part of it: a rebuild keeps them).
pub const CONVERSATIONS_FILE: &str = "conversations.sqlite";

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
/// missing, marks it when empty or legacy, refuses it when it is someone else's. The folder
/// and what it holds are made private to the user (every page and conversation is in it).
pub fn claim(dir: &Path) -> Result<PathBuf> {
    match inspect(dir) {
        Location::Ours => {
            make_private(dir)?;
            return Ok(dir.to_path_buf());
        }
        Location::Foreign => return Err(refused(dir)),
        Location::Missing => create_private(dir)?,
        Location::Empty | Location::Legacy => {}
    }
    make_private(dir)?;
    let marker = dir.join(MARKER_FILE);
    std::fs::write(&marker, MARKER_TEXT).map_err(|e| Error::io(&marker, e))?;
    Ok(dir.to_path_buf())
}

#[cfg(unix)]
fn create_private(dir: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir).map_err(|e| Error::io(dir, e))
}

#[cfg(not(unix))]
fn create_private(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
}

/// Takes group and other access off the data dir and everything in it (files the stores
/// created with the default umask, or a data dir from an earlier version). A file that cannot
/// be changed (owned by someone else) is left as it is: the folder's own mode already keeps
/// others out.
#[cfg(unix)]
pub fn make_private(dir: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let tighten = |path: &Path, meta: &std::fs::Metadata| -> std::io::Result<()> {
        let mode = meta.permissions().mode();
        if mode & 0o077 == 0 {
            return Ok(());
        }
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & 0o700))
    };
    let top = std::fs::symlink_metadata(dir).map_err(|e| Error::io(dir, e))?;
    tighten(dir, &top).map_err(|e| Error::io(dir, e))?;
    // Links are not followed: a link in the data dir must not make Pagewise change a file
    // elsewhere.
    for entry in walkdir::WalkDir::new(dir).min_depth(1).max_depth(4).follow_links(false).into_iter().flatten() {
        if entry.file_type().is_symlink() {
            continue;
        }
        if let Ok(meta) = entry.metadata() {
            let _ = tighten(entry.path(), &meta);
        }
    }
    Ok(())
}

#[cfg(not(unix))]
pub fn make_private(_dir: &Path) -> Result<()> {
    Ok(())
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

    #[test]
    #[cfg(unix)]
    fn a_data_dir_is_private_when_made_and_is_tightened_when_claimed_again() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let root = tempfile::tempdir().unwrap();
        let fresh = root.path().join("fresh");
        claim(&fresh).unwrap();
        assert_eq!(mode(&fresh), 0o700);

        // A data dir from an earlier version, open to everyone.
        let old = root.path().join("old");
        std::fs::create_dir_all(old.join("lexical")).unwrap();
        std::fs::write(old.join(MARKER_FILE), MARKER_TEXT).unwrap();
        std::fs::write(old.join(SQLITE_FILE), b"").unwrap();
        std::fs::write(old.join("lexical/meta.json"), b"{}").unwrap();
        let elsewhere = root.path().join("elsewhere.txt");
        std::fs::write(&elsewhere, b"x").unwrap();
        std::os::unix::fs::symlink(&elsewhere, old.join("link")).unwrap();
        for p in [&old, &old.join("lexical")] {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        for p in [&old.join(SQLITE_FILE), &old.join("lexical/meta.json"), &elsewhere] {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        claim(&old).unwrap();
        assert_eq!((mode(&old), mode(&old.join("lexical"))), (0o700, 0o700));
        assert_eq!((mode(&old.join(SQLITE_FILE)), mode(&old.join("lexical/meta.json"))), (0o600, 0o600));
        assert_eq!(mode(&elsewhere), 0o644, "a link's target outside is left alone");
    }
}
