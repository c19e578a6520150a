//! The worker side: a child process that answers parse and render requests from stdin until
//! it closes. Started by the binaries' hidden worker subcommand.

use std::fs::File;
use std::io::{BufRead, Write};
use std::path::Path;

use super::protocol::{encode, Request, Response};
use super::sandbox::{Allowed, Skip};
use crate::parse::contained::parse_contained;
use crate::parse::pdf::PdfLimits;
use crate::parse::Source;
use crate::viewer::render_view;

pub fn serve(pdfium_lib: &Path, limits: PdfLimits) -> std::io::Result<()> {
    // PDFium and Tesseract are found and loaded before the sandbox closes the file system;
    // a failure here is reported with the first request, as before.
    let _ = crate::pdfium::with_pdfium(pdfium_lib, |_| Ok(()));
    let tesseract = if limits.ocr { crate::ocr::tesseract().map(|t| t.program()) } else { None };
    // Tesseract must not inherit the channel for handles.
    #[cfg(unix)]
    super::handoff::keep_from_children();
    let allowed = Allowed::for_worker(pdfium_lib, tesseract);
    // Before any request: a worker that cannot be sandboxed parses nothing (fail closed).
    let sandbox = super::sandbox::enter(&allowed, skipped_layers()).map_err(|e| format!("the parser's sandbox could not be set up: {e}"));
    let mut stdout = std::io::stdout().lock();
    // The parent hears first what the sandbox holds, so the user can be told what is missing.
    let first = match &sandbox {
        Ok(applied) => Response::Sandboxed(*applied),
        Err(why) => Response::Broken(why.clone()),
    };
    writeln!(stdout, "{}", encode(&first))?;
    stdout.flush()?;
    let stdin = std::io::stdin();
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
        #[cfg(all(feature = "test-hooks", target_os = "linux"))]
        super::test_hooks::inject_fault(&request);
        let response = match (&sandbox, file) {
            (Err(why), _) => Response::Broken(why.clone()),
            (Ok(_), Err(e)) => Response::Failed(format!("cannot read: {e}")),
            (Ok(_), Ok(file)) => answer(pdfium_lib, limits, &request, file, &mut stdout),
        };
        writeln!(stdout, "{}", encode(&response))?;
        stdout.flush()?;
    }
    Ok(())
}

#[cfg(all(feature = "test-hooks", target_os = "linux"))]
fn skipped_layers() -> Skip {
    super::test_hooks::skipped_layers()
}

#[cfg(not(all(feature = "test-hooks", target_os = "linux")))]
fn skipped_layers() -> Skip {
    Skip::default()
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
    #[cfg(all(feature = "test-hooks", target_os = "linux"))]
    if let Some(probed) = super::test_hooks::probe_if_asked(request, &file) {
        return probed;
    }
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
