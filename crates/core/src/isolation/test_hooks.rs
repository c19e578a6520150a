//! Hooks that let the test suite prove the isolation from inside a real worker; compiled only
//! with the `test-hooks` feature (the test builds), never into what users run. Each acts only
//! when its environment variable is set.

use std::ffi::CString;
use std::fs::File;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::Duration;

use super::protocol::{Request, Response};
use super::sandbox::Skip;

const FAULTS: &str = "PAGEWISE_WORKER_FAULTS";
/// `landlock`: the worker starts as on a kernel without Landlock.
const SKIP: &str = "PAGEWISE_SANDBOX_SKIP";

pub(super) fn skipped_layers() -> Skip {
    let skip = std::env::var(SKIP).unwrap_or_default();
    Skip { landlock: skip.split(',').any(|s| s.trim() == "landlock") }
}

/// Files named to crash or hang the worker (while parsing, or only while rendering).
pub(super) fn inject_fault(request: &Request) {
    if std::env::var_os(FAULTS).is_none() {
        return;
    }
    let name = request.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let rendering = matches!(request, Request::Render { .. });
    if name.contains("crash-worker") || (rendering && name.contains("crash-viewer")) {
        std::process::abort();
    }
    if name.contains("hang-worker") {
        loop {
            std::thread::sleep(Duration::from_secs(60));
        }
    }
}

/// A file named `sandbox-probe…` makes the worker try what a taken-over parser would, and
/// report each outcome. Its lines may name targets: `unix: <socket path>` (a listening
/// socket, such as a session bus) and `outside: <file>` (a file the user owns elsewhere).
pub(super) fn probe_if_asked(request: &Request, file: &File) -> Option<Response> {
    let path = request.path();
    if std::env::var_os(FAULTS).is_none() || !path.to_string_lossy().contains("sandbox-probe") {
        return None;
    }
    let mut text = String::new();
    let read_handle = outcome((&*file).read_to_string(&mut text).map(|_| ()));
    let target = |key: &str| text.lines().find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_string()));
    let mut report = vec![
        ("tcp", outcome(std::net::TcpStream::connect_timeout(&([127, 0, 0, 1], 9).into(), Duration::from_millis(200)).map(|_| ()))),
        ("udp", outcome(std::net::UdpSocket::bind("127.0.0.1:0").map(|_| ()))),
        ("write", outcome(std::fs::write(path.with_extension("written"), b"x"))),
        ("read by path", outcome(std::fs::read(path).map(|_| ()))),
        ("read by handle", read_handle),
        ("abstract socket", outcome(abstract_connect())),
        ("exec", outcome(std::process::Command::new("/bin/sh").args(["-c", "exit 0"]).status().map(|_| ()))),
        ("signal parent", outcome(errno(signal_parent()))),
        ("env key", if std::env::var_os("PAGEWISE_API_KEY").is_some() { "present".into() } else { "absent".into() }),
    ];
    if let Some(socket) = target("unix:") {
        report.push(("unix socket", outcome(std::os::unix::net::UnixStream::connect(socket).map(|_| ()))));
    }
    if let Some(outside) = target("outside:") {
        let outside = Path::new(&outside);
        let open_to_all = <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o777);
        report.push(("chmod", outcome(std::fs::set_permissions(outside, open_to_all))));
        report.push(("truncate", outcome(with_c_path(outside, |p| {
            // SAFETY: p is a NUL-terminated path that outlives the call.
            unsafe { libc::truncate(p, 0) }
        }))));
        report.push(("setxattr", outcome(with_c_path(outside, |p| {
            // SAFETY: every pointer is valid for the length given and outlives the call.
            unsafe { libc::setxattr(p, c"user.pagewise".as_ptr(), b"x".as_ptr().cast(), 1, 0) }
        }))));
    }
    let joined: Vec<String> = report.into_iter().map(|(what, how)| format!("{what}: {how}")).collect();
    Some(Response::Failed(joined.join("; ")))
}

fn outcome(r: std::io::Result<()>) -> String {
    match r {
        Ok(()) => "allowed".to_string(),
        Err(e) => format!("refused ({e})"),
    }
}

fn abstract_connect() -> std::io::Result<()> {
    use std::os::linux::net::SocketAddrExt;
    let address = std::os::unix::net::SocketAddr::from_abstract_name(b"pagewise-sandbox-probe")?;
    std::os::unix::net::UnixStream::connect_addr(&address).map(|_| ())
}

fn signal_parent() -> libc::c_int {
    // SAFETY: signal 0 only checks whether the parent could be signalled.
    unsafe { libc::kill(libc::getppid(), 0) }
}

fn errno(returned: libc::c_int) -> std::io::Result<()> {
    if returned == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

fn with_c_path(path: &Path, call: impl FnOnce(*const libc::c_char) -> libc::c_int) -> std::io::Result<()> {
    let c = CString::new(path.as_os_str().as_bytes()).map_err(std::io::Error::other)?;
    errno(call(c.as_ptr()))
}
