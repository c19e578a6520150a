//! The OpenAI-compatible server's API key: kept in the OS keyring (Secret Service on Linux,
//! Keychain on macOS, Credential Manager on Windows) where one answers, else in a file in the
//! config dir that only this user can read. `PAGEWISE_API_KEY`, when set, wins over both.
//! A stored key carries the origin of the server it was given for, and is sent only there.

use std::path::{Path, PathBuf};

use serde::Serialize;

const SERVICE: &str = "app.pagewise.desktop";
const ACCOUNT: &str = "openai-compatible-api-key";
const KEY_FILE: &str = "api-key";

/// Where the key the app uses comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KeySource {
    /// No key: servers that need none work.
    None,
    /// `PAGEWISE_API_KEY` in the app's environment.
    Environment,
    /// The OS keyring.
    Keyring,
    /// A file readable only by this user (there is no keyring on this system).
    File { path: PathBuf },
}

fn entry() -> Option<keyring::Entry> {
    keyring::Entry::new(SERVICE, ACCOUNT).ok()
}

fn key_file(config_dir: &Path) -> PathBuf {
    config_dir.join(KEY_FILE)
}

/// How a key and its origin are kept: `origin`, a newline, the key. A key stored before
/// origins were kept is one line.
fn encode(origin: &str, key: &str) -> String {
    format!("{origin}\n{key}")
}

fn decode(stored: &str) -> Option<(Option<String>, String)> {
    let stored = stored.trim_end();
    let (origin, key) = match stored.split_once('\n') {
        Some((origin, key)) => (Some(origin.trim().to_string()), key.trim().to_string()),
        None => (None, stored.trim().to_string()),
    };
    (!key.is_empty()).then_some((origin, key))
}

/// Stores `key` (empty: forgets it) for the server at `origin` in the keyring, or in the
/// fallback file where the keyring cannot be used; says where it went.
pub fn store(config_dir: &Path, key: &str, origin: &str) -> Result<KeySource, String> {
    let key = key.trim();
    if key.is_empty() {
        forget(config_dir)?;
        return Ok(source(config_dir));
    }
    let stored = encode(origin, key);
    if let Some(entry) = entry() {
        if entry.set_password(&stored).is_ok() {
            // The key lives in one place only.
            remove_file(config_dir)?;
            return Ok(KeySource::Keyring);
        }
    }
    write_private(&key_file(config_dir), &stored)?;
    Ok(KeySource::File { path: key_file(config_dir) })
}

/// The key and the origin it was stored for (none from the environment or an older
/// version): the environment's, else the keyring's, else the file's.
pub fn load(config_dir: &Path) -> Option<(Option<String>, String)> {
    if let Some(key) = std::env::var("PAGEWISE_API_KEY").ok().filter(|k| !k.trim().is_empty()) {
        return Some((None, key.trim().to_string()));
    }
    if let Some(stored) = entry().and_then(|e| e.get_password().ok()) {
        return decode(&stored);
    }
    std::fs::read_to_string(key_file(config_dir)).ok().and_then(|stored| decode(&stored))
}

/// Where [`load`] finds the key.
pub fn source(config_dir: &Path) -> KeySource {
    if std::env::var("PAGEWISE_API_KEY").is_ok_and(|k| !k.trim().is_empty()) {
        KeySource::Environment
    } else if entry().is_some_and(|e| e.get_password().is_ok()) {
        KeySource::Keyring
    } else if key_file(config_dir).is_file() {
        KeySource::File { path: key_file(config_dir) }
    } else {
        KeySource::None
    }
}

fn forget(config_dir: &Path) -> Result<(), String> {
    if let Some(entry) = entry() {
        match entry.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => {}
            // No keyring to forget from: only the file can hold the key.
            Err(keyring::Error::NoStorageAccess(_) | keyring::Error::PlatformFailure(_)) => {}
            Err(e) => return Err(format!("cannot remove the key from the keyring: {e}")),
        }
    }
    remove_file(config_dir)
}

fn remove_file(config_dir: &Path) -> Result<(), String> {
    match std::fs::remove_file(key_file(config_dir)) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: {e}", key_file(config_dir).display())),
    }
}

/// Written with mode 0600 from the start, so the key is never readable by others.
fn write_private(path: &Path, key: &str) -> Result<(), String> {
    use std::io::Write;
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let tmp = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&tmp).map_err(fail)?;
    file.write_all(key.as_bytes()).map_err(fail)?;
    file.sync_all().map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_keeps_its_origin_and_an_old_key_has_none() {
        assert_eq!(decode(&encode("https://api.example.com:443", "sk-1")), Some((Some("https://api.example.com:443".into()), "sk-1".into())));
        assert_eq!(decode("sk-old\n"), Some((None, "sk-old".into())));
        assert_eq!(decode("  \n"), None);
    }
}
