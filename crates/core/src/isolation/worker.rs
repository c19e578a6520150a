//! The worker side: a child process that answers parse and render requests from stdin until
//! it closes. Started by the binaries' hidden worker subcommand.

use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Duration;

use super::protocol::{encode, Request, Response};
use crate::parse::contained::parse_contained;
use crate::parse::pdf::PdfLimits;
use crate::viewer::render_view;

pub fn serve(pdfium_lib: &Path, limits: PdfLimits) -> std::io::Result<()> {
    // Before any request: a worker that cannot be sandboxed parses nothing (fail closed).
    let sandbox = super::sandbox::enter().map_err(|e| format!("the parser's sandbox could not be set up: {e}"));
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
        if fault_injection {
            inject_fault(&request);
        }
        let response = match &sandbox {
            Err(why) => Response::Broken(why.clone()),
            Ok(_) if fault_injection && request.path().to_string_lossy().contains("sandbox-probe") => probe_sandbox(request.path()),
            Ok(_) => answer(pdfium_lib, limits, &request, &mut stdout),
        };
        writeln!(stdout, "{}", encode(&response))?;
        stdout.flush()?;
    }
    Ok(())
}

fn answer(pdfium_lib: &Path, limits: PdfLimits, request: &Request, out: &mut impl Write) -> Response {
    match request {
        Request::Parse { path, format } => {
            let mut tell = |p| {
                let _ = writeln!(out, "{}", encode(&Response::Progress(p))).and_then(|_| out.flush());
            };
            match parse_contained(pdfium_lib, path, *format, limits, &mut tell) {
                Ok(Ok(doc)) => Response::Parsed(doc),
                Ok(Err(reason)) => Response::Failed(reason),
                Err(e) => Response::Broken(e.to_string()),
            }
        }
        Request::Render { path, page } => match render_view(pdfium_lib, path, page) {
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
/// socket and a file beside the probe, and reports each outcome.
fn probe_sandbox(path: &Path) -> Response {
    let outcome = |r: std::io::Result<()>| match r {
        Ok(()) => "allowed".to_string(),
        Err(e) => format!("refused ({e})"),
    };
    let tcp = outcome(std::net::TcpStream::connect_timeout(&([127, 0, 0, 1], 9).into(), Duration::from_millis(200)).map(|_| ()));
    let udp = outcome(std::net::UdpSocket::bind("127.0.0.1:0").map(|_| ()));
    let beside = path.with_extension("written");
    let write = outcome(std::fs::write(&beside, b"x"));
    Response::Failed(format!("tcp: {tcp}; udp: {udp}; write: {write}"))
}
