//! The worker's sandbox on Linux, entered before it reads its first request and inherited by
//! what it starts (Tesseract):
//! - no network: a seccomp filter lets `socket()` make only local (AF_UNIX) sockets and
//!   refuses io_uring, which could issue network calls around it; Landlock (ABI 4+) also
//!   refuses TCP bind and connect;
//! - no writes: Landlock refuses creating, writing, truncating, renaming and removing files
//!   anywhere except `/dev/null` (pipes to the parent are already open and unaffected);
//! - no reads of user files: Landlock lets the worker read and run only what [`Allowed`]
//!   names (system libraries and data, PDFium, Tesseract and its language data). The file a
//!   request is about arrives as an open handle from the parent, which Landlock does not
//!   check again; the worker cannot open it, or any other document, by its path.
//!
//! macOS and Windows get no sandbox beyond the separate process, its time limit and (macOS)
//! its address-space limit; there the worker opens the file by path.

use std::io;
use std::path::{Path, PathBuf};

/// What was applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sandbox {
    pub network: bool,
    /// False on kernels without Landlock (before 5.13): file access is then not restricted.
    pub files: bool,
}

/// What a sandboxed worker may still read and execute.
#[derive(Debug, Clone, Default)]
pub struct Allowed {
    /// Directories whose whole tree may be read and executed.
    pub trees: Vec<PathBuf>,
    /// Single files that may be read and executed.
    pub files: Vec<PathBuf>,
}

impl Allowed {
    /// The system's libraries and shared data (fonts for PDFium, Tesseract's program and
    /// languages), the PDFium library wherever it lies, and a Tesseract or language data the
    /// user named elsewhere. Paths that do not exist are left out.
    pub fn for_worker(pdfium_lib: &Path) -> Allowed {
        let mut trees: Vec<PathBuf> = ["/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/sys/devices/system/cpu"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let mut files: Vec<PathBuf> = ["/etc/ld.so.cache", "/proc/cpuinfo"].iter().map(PathBuf::from).collect();
        files.push(pdfium_lib.to_path_buf());
        if let Some(program) = std::env::var_os("PAGEWISE_TESSERACT").map(PathBuf::from) {
            trees.extend(program.parent().filter(|p| !p.as_os_str().is_empty()).map(Path::to_path_buf));
        }
        trees.extend(std::env::var_os("TESSDATA_PREFIX").map(PathBuf::from));
        trees.retain(|p| p.exists());
        files.retain(|p| p.is_file());
        Allowed { trees, files }
    }
}

#[cfg(target_os = "linux")]
pub fn enter(allowed: &Allowed) -> io::Result<Sandbox> {
    // Required for an unprivileged seccomp filter and for Landlock; also keeps set-uid
    // programs from gaining rights.
    // SAFETY: prctl with these arguments only changes this process's flags.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let files = landlock::restrict(allowed)?;
    seccomp::deny_network()?;
    Ok(Sandbox { network: true, files })
}

#[cfg(not(target_os = "linux"))]
pub fn enter(_allowed: &Allowed) -> io::Result<Sandbox> {
    Ok(Sandbox { network: false, files: false })
}

#[cfg(target_os = "linux")]
mod seccomp {
    use std::io;

    use libc::{sock_filter, sock_fprog};

    #[cfg(target_arch = "x86_64")]
    const ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
    #[cfg(target_arch = "aarch64")]
    const ARCH: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64

    const LD_W_ABS: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
    const JEQ_K: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
    const RET_K: u16 = (libc::BPF_RET | libc::BPF_K) as u16;
    // Offsets in struct seccomp_data: nr, arch, then args (the low half of args[0] at 16).
    const NR: u32 = 0;
    const ARCH_AT: u32 = 4;
    const ARG0: u32 = 16;

    fn op(code: u16, jt: u8, jf: u8, k: u32) -> sock_filter {
        sock_filter { code, jt, jf, k }
    }

    pub fn deny_network() -> io::Result<()> {
        let filter = [
            op(LD_W_ABS, 0, 0, ARCH_AT),
            op(JEQ_K, 1, 0, ARCH),
            op(RET_K, 0, 0, libc::SECCOMP_RET_KILL_PROCESS),
            op(LD_W_ABS, 0, 0, NR),
            op(JEQ_K, 5, 0, libc::SYS_io_uring_setup as u32),
            op(JEQ_K, 0, 2, libc::SYS_socket as u32),
            op(LD_W_ABS, 0, 0, ARG0),
            op(JEQ_K, 0, 1, libc::AF_UNIX as u32),
            op(RET_K, 0, 0, libc::SECCOMP_RET_ALLOW),
            op(RET_K, 0, 0, libc::SECCOMP_RET_ERRNO | libc::EACCES as u32),
            op(RET_K, 0, 0, libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
        ];
        let program = sock_fprog { len: filter.len() as u16, filter: filter.as_ptr().cast_mut() };
        // SAFETY: the program outlives the call, which copies it into the kernel.
        let done = unsafe { libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &program as *const sock_fprog, 0, 0) };
        if done != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

#[cfg(target_os = "linux")]
mod landlock {
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

    #[repr(C)]
    struct RulesetAttr {
        handled_access_fs: u64,
        handled_access_net: u64,
    }

    #[repr(C, packed)]
    struct PathBeneathAttr {
        allowed_access: u64,
        parent_fd: i32,
    }

    /// Returns whether Landlock was applied (false where the kernel lacks it).
    pub fn restrict(allowed: &Allowed) -> io::Result<bool> {
        // SAFETY: a version query passes no pointer.
        let abi = unsafe { libc::syscall(CREATE_RULESET, std::ptr::null::<RulesetAttr>(), 0usize, CREATE_RULESET_VERSION) };
        if abi < 1 {
            return Ok(false);
        }
        let mut fs = EXECUTE | WRITE_FILE | READ_FILE | READ_DIR | REMOVE_DIR | REMOVE_FILE | MAKE_ANY;
        if abi >= 2 {
            fs |= REFER;
        }
        let truncate = if abi >= 3 { TRUNCATE } else { 0 };
        fs |= truncate;
        let attr = RulesetAttr { handled_access_fs: fs, handled_access_net: NET_BIND_TCP | NET_CONNECT_TCP };
        // ABI 1–3 know only the file-system field.
        let size = if abi >= 4 { std::mem::size_of::<RulesetAttr>() } else { std::mem::size_of::<u64>() };
        // SAFETY: attr is valid for `size` bytes.
        let ruleset = unsafe { libc::syscall(CREATE_RULESET, &attr as *const RulesetAttr, size, 0u32) };
        if ruleset < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the kernel just returned this descriptor to us alone.
        let ruleset: OwnedFd = unsafe { std::os::fd::FromRawFd::from_raw_fd(ruleset as libc::c_int) };
        for tree in &allowed.trees {
            add_rule(&ruleset, tree, EXECUTE | READ_FILE | READ_DIR)?;
        }
        for file in &allowed.files {
            add_rule(&ruleset, file, EXECUTE | READ_FILE)?;
        }
        // Spawning Tesseract with stderr to /dev/null opens it for writing.
        add_rule(&ruleset, Path::new("/dev/null"), READ_FILE | WRITE_FILE | truncate)?;
        // SAFETY: ruleset is an open Landlock ruleset.
        if unsafe { libc::syscall(RESTRICT_SELF, ruleset.as_raw_fd(), 0u32) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(true)
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
}
