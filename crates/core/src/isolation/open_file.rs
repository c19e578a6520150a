//! How the parent opens the file a request is about. Paths in the stores are canonical (links
//! resolved at the scan), so a link found on the way now was swapped in after the scan, to
//! point the parser or the viewer at a file outside the folders: it is refused.

use std::fs::File;
use std::path::Path;

use crate::parse::ParseFailure;

/// Opens `path` for reading without following any link on the way, refusing anything but a
/// regular file (a FIFO swapped in after the scan would otherwise block the parent on open or
/// the worker on read).
pub(super) fn open_regular(path: &Path) -> Result<File, ParseFailure> {
    let file = open_no_links(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            "cannot read: the path now passes through a link (it changed after indexing)".to_string()
        } else {
            format!("cannot read: {e}")
        }
    })?;
    match file.metadata() {
        Ok(m) if m.is_file() => Ok(file),
        Ok(_) => Err("not a regular file".into()),
        Err(e) => Err(format!("cannot read: {e}")),
    }
}

#[cfg(target_os = "linux")]
fn open_no_links(path: &Path) -> std::io::Result<File> {
    use std::os::fd::FromRawFd;
    use std::os::unix::ffi::OsStrExt;

    #[repr(C)]
    struct OpenHow {
        flags: u64,
        mode: u64,
        resolve: u64,
    }
    const RESOLVE_NO_SYMLINKS: u64 = 0x04;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).map_err(std::io::Error::other)?;
    let how = OpenHow { flags: (libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC) as u64, mode: 0, resolve: RESOLVE_NO_SYMLINKS };
    // SAFETY: both pointers are valid for the sizes given and outlive the call.
    let fd = unsafe { libc::syscall(libc::SYS_openat2, libc::AT_FDCWD, c_path.as_ptr(), &how as *const OpenHow, std::mem::size_of::<OpenHow>()) };
    if fd >= 0 {
        // SAFETY: the kernel just returned this descriptor to us alone.
        return Ok(unsafe { File::from_raw_fd(fd as libc::c_int) });
    }
    let error = std::io::Error::last_os_error();
    // Kernels before 5.6 lack openat2, and some container runtimes' filters answer EPERM for
    // calls they do not know: the last component, at least, is then not followed.
    if matches!(error.raw_os_error(), Some(libc::ENOSYS | libc::EPERM)) {
        return open_last_not_followed(path);
    }
    Err(error)
}

#[cfg(all(unix, not(target_os = "linux")))]
fn open_no_links(path: &Path) -> std::io::Result<File> {
    open_last_not_followed(path)
}

#[cfg(unix)]
fn open_last_not_followed(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK | libc::O_NOFOLLOW);
    options.open(path)
}

#[cfg(not(unix))]
fn open_no_links(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_link_anywhere_on_the_path_is_refused_and_a_plain_file_opens() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("docs")).unwrap();
        std::fs::write(root.join("docs/a.txt"), "a").unwrap();
        std::fs::write(root.join("secret.txt"), "s").unwrap();
        assert!(open_regular(&root.join("docs/a.txt")).is_ok());
        std::os::unix::fs::symlink(root.join("secret.txt"), root.join("docs/b.txt")).unwrap();
        std::os::unix::fs::symlink(root.join("docs"), root.join("via")).unwrap();
        for linked in [root.join("docs/b.txt"), root.join("via/a.txt")] {
            let refused = open_regular(&linked).unwrap_err();
            assert!(refused.contains("passes through a link"), "{}: {refused}", linked.display());
        }
    }
}
