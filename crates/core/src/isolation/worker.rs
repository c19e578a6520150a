//! The worker side: a child process that answers parse and render requests from stdin until
//! it closes. Started by the binaries' hidden worker subcommand.

use std::fs::File;
use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Duration;

use super::protocol::{encode, Request, Response};
use crate::parse::contained::parse_contained;
use crate::parse::pdf::PdfLimits;
use crate::parse::Source;
use crate::viewer::render_view;

pub fn serve(pdfium_lib: &Path, limits: PdfLimits) -> std::io::Result<()> {
    // PDFium and Tesseract are found and loaded before the sandbox closes the file system;
    // a failure here is reported with the first request, as before.
    let _ = crate::pdfium::with_pdfium(pdfium_lib, |_| Ok(()));
    if limits.ocr {
        let _ = crate::ocr::tesseract();
    }
    let allowed = super::sandbox::Allowed::for_worker(pdfium_lib);
    // Before any request: a worker that cannot be sandboxed parses nothing (fail closed).
    let sandbox = super::sandbox::enter(&allowed).map_err(|e| format!("the parser's sandbox could not be set up: {e}"));
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let fault_injection = std::env::var_os("PAGEWISE_WORKER_FAULTS").is_some();
    for line in stdin.lock().lines() {
        let request: Request = match serde_json::from_str(&line?) {
            Ok(r) => r,
            Err(e) => {
                writeln!(stdout, "{}", encode(&Response::Broken(format!("bad request: {e}"))))?;
                continue;
            }
        };
        // Every request comes with its open file; it is taken even when unused, so the next
        // request gets its own.
        let file = received_file(&request);
        if fault_injection {
            inject_fault(&request);
        }
        let response = match (&sandbox, file) {
            (Err(why), _) => Response::Broken(why.clone()),
            (Ok(_), Err(e)) => Response::Failed(format!("cannot read: {e}")),
            (Ok(_), Ok(file)) if fault_injection && request.path().to_string_lossy().contains("sandbox-probe") => probe_sandbox(request.path(), file),
            (Ok(_), Ok(file)) => answer(pdfium_lib, limits, &request, file, &mut stdout),
        };
        writeln!(stdout, "{}", encode(&response))?;
        stdout.flush()?;
    }
    Ok(())
}

#[cfg(unix)]
fn received_file(_request: &Request) -> std::io::Result<File> {
    super::handoff::receive(super::handoff::WORKER_FD)
}

/// Without descriptor passing the worker opens the file itself (and has no sandbox).
#[cfg(not(unix))]
fn received_file(request: &Request) -> std::io::Result<File> {
    File::open(request.path())
}

fn answer(pdfium_lib: &Path, limits: PdfLimits, request: &Request, file: File, out: &mut impl Write) -> Response {
    match request {
        Request::Parse { path, format } => {
            let mut tell = |p| {
                let _ = writeln!(out, "{}", encode(&Response::Progress(p))).and_then(|_| out.flush());
            };
            match parse_contained(pdfium_lib, Source { path, file }, *format, limits, &mut tell) {
                Ok(Ok(doc)) => Response::Parsed(doc),
                Ok(Err(reason)) => Response::Failed(reason),
                Err(e) => Response::Broken(e.to_string()),
            }
        }
        Request::Render { path, page } => match render_view(pdfium_lib, path, file, page) {
            Ok(rendered) => Response::Rendered(rendered),
            Err(e) => Response::Failed(e.to_string()),
        },
    }
}

/// Lets tests prove the isolation with files named to crash or hang the worker (while
/// parsing, or only while rendering for the viewer).
fn inject_fault(request: &Request) {
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

/// Lets tests see the sandbox from inside a real worker: tries a TCP connection, a UDP
/// socket, writing a file beside the probe, reading the probe by its path and through the
/// handle it was given, and reports each outcome.
fn probe_sandbox(path: &Path, mut file: File) -> Response {
    let outcome = |r: std::io::Result<()>| match r {
        Ok(()) => "allowed".to_string(),
        Err(e) => format!("refused ({e})"),
    };
    let tcp = outcome(std::net::TcpStream::connect_timeout(&([127, 0, 0, 1], 9).into(), Duration::from_millis(200)).map(|_| ()));
    let udp = outcome(std::net::UdpSocket::bind("127.0.0.1:0").map(|_| ()));
    let beside = path.with_extension("written");
    let write = outcome(std::fs::write(&beside, b"x"));
    let read_path = outcome(std::fs::read(path).map(|_| ()));
    let read_handle = outcome(std::io::Read::read_to_end(&mut file, &mut Vec::new()).map(|_| ()));
    Response::Failed(format!("tcp: {tcp}; udp: {udp}; write: {write}; read by path: {read_path}; read by handle: {read_handle}"))
}
