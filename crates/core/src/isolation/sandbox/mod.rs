//! The worker's sandbox on Linux, entered before it reads its first request and inherited by
//! what it starts (Tesseract):
//! - no network and no way out through local sockets: seccomp refuses `socket()` for every
//!   family (the worker's only channel is the descriptor it inherited) and io_uring, which
//!   could issue calls around the filter; Landlock (ABI 4+) also refuses TCP bind and connect,
//!   and (ABI 6+) scopes abstract sockets and signals to the worker's own domain;
//! - no damage to files: Landlock refuses creating, writing, truncating, renaming and removing
//!   files anywhere except `/dev/null`; seccomp refuses what Landlock does not cover (modes,
//!   owners, extended attributes, times, truncation on kernels before Landlock ABI 3), the
//!   kernel keyring, tracing and signals to other processes;
//! - no reads of user files: Landlock lets the worker read only what [`Allowed`] names (system
//!   libraries and data, PDFium, Tesseract's languages) and run only Tesseract. The file a
//!   request is about arrives as an open handle from the parent, which Landlock does not check
//!   again; the worker cannot open it, or any other document, by its path.
//!
//! macOS and Windows get no sandbox beyond the separate process, its time limit and (macOS)
//! its address-space limit; there the worker opens the file by path. [`Sandbox::missing`] says
//! what a platform or kernel could not give, so the user is told.

mod elf;
#[cfg(target_os = "linux")]
mod landlock;
#[cfg(target_os = "linux")]
mod seccomp;

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// What was applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sandbox {
    /// The seccomp filter: no sockets, no changes to file metadata, no signals out.
    pub syscalls: bool,
    /// Landlock: reads limited to system files, no writes, no programs but Tesseract. False on
    /// kernels without it (before 5.13): a taken-over parser could then read the user's files.
    pub files: bool,
    /// Landlock ABI 6+: abstract sockets and signals scoped to the worker.
    pub scoped: bool,
}

/// A layer the sandbox lacks, named for the notice the user sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum MissingLayer {
    /// No sandbox on this platform at all (macOS, Windows).
    Platform,
    /// Landlock is not available: the parser can read any file the user can.
    FileAccess,
}

impl MissingLayer {
    pub fn describe(self) -> &'static str {
        match self {
            MissingLayer::Platform => "this platform has no parser sandbox: a parser taken over by a hostile file could read and change your files and use the network",
            MissingLayer::FileAccess => "Landlock is not available on this kernel (Linux 5.13 or later, enabled): a parser taken over by a hostile file could read any file you can",
        }
    }
}

impl Sandbox {
    /// What a user should be told is missing (empty when every layer that matters holds).
    pub fn missing(&self) -> Vec<MissingLayer> {
        if !self.syscalls {
            return vec![MissingLayer::Platform];
        }
        // Without Landlock's scopes the seccomp filter still refuses sockets and signals out.
        if self.files {
            Vec::new()
        } else {
            vec![MissingLayer::FileAccess]
        }
    }
}

/// What a sandboxed worker may still read and execute.
#[derive(Debug, Clone, Default)]
pub struct Allowed {
    /// Directories whose whole tree may be read.
    pub trees: Vec<PathBuf>,
    /// Single files that may be read.
    pub files: Vec<PathBuf>,
    /// Programs that may be run, with the ELF interpreters they name.
    pub programs: Vec<PathBuf>,
}

impl Allowed {
    /// The system's libraries and shared data (fonts for PDFium, Tesseract's languages), the
    /// PDFium library wherever it lies, and Tesseract (`tesseract`, the one program the worker
    /// runs) with its language data. Paths that do not exist are left out.
    pub fn for_worker(pdfium_lib: &Path, tesseract: Option<&Path>) -> Allowed {
        let mut trees: Vec<PathBuf> = ["/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/sys/devices/system/cpu"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let mut files: Vec<PathBuf> = ["/etc/ld.so.cache", "/proc/cpuinfo"].iter().map(PathBuf::from).collect();
        files.push(pdfium_lib.to_path_buf());
        let mut programs = Vec::new();
        if let Some(program) = tesseract {
            trees.extend(program.parent().filter(|p| !p.as_os_str().is_empty()).map(Path::to_path_buf));
            programs.extend(elf::interpreter(program));
            programs.push(program.to_path_buf());
        }
        trees.extend(std::env::var_os("TESSDATA_PREFIX").map(PathBuf::from));
        trees.retain(|p| p.exists());
        files.retain(|p| p.is_file());
        programs.retain(|p| p.is_file());
        Allowed { trees, files, programs }
    }
}

/// Layers a test build may be told to leave out, to see what the user is told then.
#[derive(Debug, Clone, Copy, Default)]
pub struct Skip {
    pub landlock: bool,
}

#[cfg(target_os = "linux")]
pub fn enter(allowed: &Allowed, skip: Skip) -> io::Result<Sandbox> {
    // Required for an unprivileged seccomp filter and for Landlock; also keeps set-uid
    // programs from gaining rights.
    // SAFETY: prctl with these arguments only changes this process's flags.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let landlocked = if skip.landlock { landlock::Applied::default() } else { landlock::restrict(allowed)? };
    seccomp::apply()?;
    Ok(Sandbox { syscalls: true, files: landlocked.files, scoped: landlocked.scoped })
}

#[cfg(not(target_os = "linux"))]
pub fn enter(_allowed: &Allowed, _skip: Skip) -> io::Result<Sandbox> {
    Ok(Sandbox { syscalls: false, files: false, scoped: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_missing_is_named_per_layer() {
        let full = Sandbox { syscalls: true, files: true, scoped: true };
        assert!(full.missing().is_empty());
        assert!(Sandbox { scoped: false, ..full }.missing().is_empty(), "seccomp covers sockets and signals without scopes");
        assert_eq!(Sandbox { files: false, scoped: false, ..full }.missing(), vec![MissingLayer::FileAccess]);
        assert_eq!(Sandbox { syscalls: false, files: false, scoped: false }.missing(), vec![MissingLayer::Platform]);
    }
}
