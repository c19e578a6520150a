//! Landlock for the worker: read-only access to what [`Allowed`] names, execution of its
//! programs only, no writes anywhere but `/dev/null`, no TCP (ABI 4+), and abstract sockets
//! and signals scoped to the worker's own domain (ABI 6+).

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;

use super::Allowed;

const CREATE_RULESET: libc::c_long = 444;
const ADD_RULE: libc::c_long = 445;
const RESTRICT_SELF: libc::c_long = 446;
const CREATE_RULESET_VERSION: u32 = 1;
const RULE_PATH_BENEATH: u32 = 1;

const EXECUTE: u64 = 1 << 0;
const WRITE_FILE: u64 = 1 << 1;
const READ_FILE: u64 = 1 << 2;
const READ_DIR: u64 = 1 << 3;
const REMOVE_DIR: u64 = 1 << 4;
const REMOVE_FILE: u64 = 1 << 5;
const MAKE_ANY: u64 = 0b111_1111 << 6; // char, dir, reg, sock, fifo, block, sym
const REFER: u64 = 1 << 13; // ABI 2
const TRUNCATE: u64 = 1 << 14; // ABI 3
const NET_BIND_TCP: u64 = 1 << 0; // ABI 4
const NET_CONNECT_TCP: u64 = 1 << 1;
const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1 << 0; // ABI 6
const SCOPE_SIGNAL: u64 = 1 << 1;

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// Which parts took effect.
#[derive(Debug, Clone, Copy, Default)]
pub struct Applied {
    pub files: bool,
    pub scoped: bool,
}

/// Applies what this kernel's Landlock supports; nothing where the kernel lacks it.
pub fn restrict(allowed: &Allowed) -> io::Result<Applied> {
    // SAFETY: a version query passes no pointer.
    let abi = unsafe { libc::syscall(CREATE_RULESET, std::ptr::null::<RulesetAttr>(), 0usize, CREATE_RULESET_VERSION) };
    if abi < 1 {
        return Ok(Applied::default());
    }
    let mut fs = EXECUTE | WRITE_FILE | READ_FILE | READ_DIR | REMOVE_DIR | REMOVE_FILE | MAKE_ANY;
    if abi >= 2 {
        fs |= REFER;
    }
    let truncate = if abi >= 3 { TRUNCATE } else { 0 };
    fs |= truncate;
    let scoped = abi >= 6;
    let attr = RulesetAttr {
        handled_access_fs: fs,
        handled_access_net: NET_BIND_TCP | NET_CONNECT_TCP,
        scoped: if scoped { SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL } else { 0 },
    };
    // Older ABIs know only the leading fields.
    let size = match abi {
        1..=3 => std::mem::size_of::<u64>(),
        4 | 5 => 2 * std::mem::size_of::<u64>(),
        _ => std::mem::size_of::<RulesetAttr>(),
    };
    // SAFETY: attr is valid for `size` bytes.
    let ruleset = unsafe { libc::syscall(CREATE_RULESET, &attr as *const RulesetAttr, size, 0u32) };
    if ruleset < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned this descriptor to us alone.
    let ruleset: OwnedFd = unsafe { std::os::fd::FromRawFd::from_raw_fd(ruleset as libc::c_int) };
    for tree in &allowed.trees {
        add_rule(&ruleset, tree, READ_FILE | READ_DIR)?;
    }
    for file in &allowed.files {
        add_rule(&ruleset, file, READ_FILE)?;
    }
    for program in &allowed.programs {
        add_rule(&ruleset, program, EXECUTE | READ_FILE)?;
    }
    // Spawning Tesseract with stderr to /dev/null opens it for writing.
    add_rule(&ruleset, Path::new("/dev/null"), READ_FILE | WRITE_FILE | truncate)?;
    // SAFETY: ruleset is an open Landlock ruleset.
    if unsafe { libc::syscall(RESTRICT_SELF, ruleset.as_raw_fd(), 0u32) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(Applied { files: true, scoped })
}

fn add_rule(ruleset: &OwnedFd, path: &Path, access: u64) -> io::Result<()> {
    let opened = std::fs::File::open(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    let rule = PathBeneathAttr { allowed_access: access, parent_fd: opened.as_raw_fd() };
    // SAFETY: rule is a valid path-beneath attribute; both descriptors are open.
    let added = unsafe { libc::syscall(ADD_RULE, ruleset.as_raw_fd(), RULE_PATH_BENEATH, &rule as *const PathBeneathAttr, 0u32) };
    if added != 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(e.kind(), format!("{}: {e}", path.display())));
    }
    Ok(())
}
