//! The parent side of a worker process. PDFium is C++ fed with untrusted bytes, and ZIP-based
//! formats can be bombs: a crash, a hang or a runaway allocation there must cost one file
//! (or one picture in the viewer), not the indexer or the app. The parent sends one request
//! line and waits with a deadline; a child that dies or overruns is killed, the file is
//! reported, and the next request gets a fresh child.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use super::protocol::{Request, Response};
use super::open_file::open_regular;
use super::sandbox::Sandbox;
use crate::error::{Error, Result};
use crate::parse::pdf::PageProgress;
use crate::parse::{Document, Format, ParseFailure};
use crate::viewer::{PageRender, PageRequest};

/// The longest reply line the parent reads: a document at the text limit, JSON-escaped.
const REPLY_LIMIT: u64 = 3 * crate::parse::contained::DOCUMENT_TEXT_LIMIT as u64;

/// How to start a worker and what it may use.
#[derive(Debug, Clone)]
pub struct WorkerCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub timeout: Duration,
    /// Address-space limit of the worker in bytes (Unix); `None` for no limit.
    pub memory_limit: Option<u64>,
    /// Parse even when the sandbox lacks a layer (the user was told and chose to go on).
    pub accept_weak_sandbox: bool,
}

/// What the worker's environment keeps: where to find Tesseract and its languages, and the
/// locale. Everything else (session bus, keyring and SSH agent sockets, the display, API keys)
/// stays with the parent.
const KEPT_ENVIRONMENT: &[&str] = &["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TESSDATA_PREFIX", "PAGEWISE_TESSERACT", "PAGEWISE_WORKER_FAULTS", "PAGEWISE_SANDBOX_SKIP"];

struct RunningWorker {
    child: Child,
    stdin: ChildStdin,
    /// The parent's end of the socket that carries each request's open file.
    #[cfg(unix)]
    files: std::os::unix::net::UnixStream,
    /// Reply lines, or why reading stopped.
    lines: Receiver<std::result::Result<String, String>>,
}

/// One worker process at a time, restarted after a crash or timeout.
pub struct IsolatedWorker {
    command: WorkerCommand,
    running: Option<RunningWorker>,
    /// What the last worker said its sandbox holds.
    sandbox: Option<Sandbox>,
}

impl IsolatedWorker {
    pub fn new(command: WorkerCommand) -> Self {
        IsolatedWorker { command, running: None, sandbox: None }
    }

    /// Starts a worker (if none runs) and returns what its sandbox holds, without a request.
    pub fn sandbox(&mut self) -> Result<Sandbox> {
        if let Some(known) = self.sandbox {
            return Ok(known);
        }
        if self.running.is_none() {
            self.running = Some(self.start()?);
        }
        let Some(worker) = self.running.as_mut() else {
            return Err(Error::Worker("worker did not start".into()));
        };
        match worker.lines.recv_timeout(self.command.timeout) {
            Ok(Ok(line)) => match serde_json::from_str::<Response>(&line) {
                Ok(Response::Sandboxed(applied)) => {
                    self.sandbox = Some(applied);
                    Ok(applied)
                }
                Ok(Response::Broken(message)) => Err(Error::Worker(message)),
                _ => Err(Error::Worker(self.reap("did not say what its sandbox holds"))),
            },
            Ok(Err(why)) => Err(Error::Worker(self.reap(&why))),
            Err(_) => Err(Error::Worker(self.reap("did not start in time"))),
        }
    }

    /// Starts a worker if none runs and refuses to go on if its sandbox lacks a layer the user
    /// did not accept.
    pub fn admitted(&mut self) -> Result<()> {
        let applied = self.sandbox()?;
        self.admit(applied)
    }

    /// Refuses to go on with a sandbox that lacks a layer, unless the user accepted that.
    fn admit(&mut self, applied: Sandbox) -> Result<()> {
        self.sandbox = Some(applied);
        let missing = applied.missing();
        if missing.is_empty() || self.command.accept_weak_sandbox {
            return Ok(());
        }
        self.reap("");
        let missing: Vec<&str> = missing.iter().map(|m| m.describe()).collect();
        Err(Error::WeakSandbox { missing: missing.join("; ") })
    }

    fn start(&self) -> Result<RunningWorker> {
        let mut cmd = Command::new(&self.command.program);
        cmd.args(&self.command.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        cmd.env_clear();
        for name in KEPT_ENVIRONMENT {
            if let Some(value) = std::env::var_os(name) {
                cmd.env(name, value);
            }
        }
        #[cfg(unix)]
        let (files, worker_end) = std::os::unix::net::UnixStream::pair()
            .map_err(|e| Error::Worker(format!("cannot make the worker's file channel: {e}")))?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            use std::os::unix::process::CommandExt;
            let worker_fd = worker_end.as_raw_fd();
            let memory_limit = self.command.memory_limit;
            // SAFETY: dup2, fcntl and setrlimit are async-signal-safe and touch only the child.
            unsafe {
                cmd.pre_exec(move || {
                    // The worker finds its end at a fixed number, kept open across exec.
                    let placed = if worker_fd == super::handoff::WORKER_FD {
                        libc::fcntl(worker_fd, libc::F_SETFD, 0)
                    } else {
                        libc::dup2(worker_fd, super::handoff::WORKER_FD)
                    };
                    if placed < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    // Whatever else the parent had open (a library's descriptors opened without
                    // close-on-exec) stays behind; kernels before 5.9 lack the call.
                    #[cfg(target_os = "linux")]
                    libc::syscall(libc::SYS_close_range, super::handoff::WORKER_FD as u32 + 1, u32::MAX, 0u32);
                    if let Some(limit) = memory_limit {
                        let rl = libc::rlimit { rlim_cur: limit as libc::rlim_t, rlim_max: limit as libc::rlim_t };
                        // A worker that could not be limited does not run: fail closed.
                        if libc::setrlimit(libc::RLIMIT_AS, &rl) != 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                    }
                    Ok(())
                });
            }
        }
        let mut child = cmd.spawn().map_err(|e| {
            Error::Worker(format!("cannot start {}: {e}", self.command.program.display()))
        })?;
        let stdin = child.stdin.take().ok_or_else(|| Error::Worker("worker has no stdin".into()))?;
        let stdout = child.stdout.take().ok_or_else(|| Error::Worker("worker has no stdout".into()))?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                // A reply is read only up to the cap: a worker cannot make the parent hold
                // more than that, whatever it writes.
                let mut line = Vec::new();
                match (&mut reader).take(REPLY_LIMIT + 1).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if line.len() as u64 > REPLY_LIMIT => {
                        let _ = tx.send(Err(format!("sent a reply over {} MB", REPLY_LIMIT >> 20)));
                        break;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end().to_string();
                        if tx.send(Ok(text)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        #[cfg(unix)]
        drop(worker_end);
        Ok(RunningWorker {
            child,
            stdin,
            #[cfg(unix)]
            files,
            lines,
        })
    }

    /// Parses one file. `Ok(Err(reason))` is a file-level failure (including a crash or
    /// timeout of the worker); `Err` means the worker cannot run at all.
    /// `on_page` hears about each PDF page the worker has read.
    pub fn parse(&mut self, path: &Path, format: Format, on_page: &mut dyn FnMut(PageProgress)) -> Result<Result<Document, ParseFailure>> {
        let request = Request::Parse { path: path.to_path_buf(), format };
        Ok(match self.exchange(&request, on_page)? {
            Ok(Response::Parsed(doc)) => Ok(doc),
            Ok(Response::Failed(reason)) => Err(reason),
            Ok(_) => Err("the parser answered something else".into()),
            Err(reason) => Err(reason),
        })
    }

    /// Renders a PDF page for the viewer in the worker, so a PDFium crash on a hostile file
    /// costs the picture, not the app.
    pub fn render(&mut self, path: &Path, page: PageRequest) -> Result<Result<PageRender, ParseFailure>> {
        let request = Request::Render { path: path.to_path_buf(), page };
        Ok(match self.exchange(&request, &mut |_| {})? {
            Ok(Response::Rendered(rendered)) => Ok(rendered),
            Ok(Response::Failed(reason)) => Err(reason),
            Ok(_) => Err("the worker answered something else".into()),
            Err(reason) => Err(reason),
        })
    }

    /// Sends one request; `Ok(Err(reason))` when the worker crashed, hung or garbled.
    fn exchange(&mut self, request: &Request, on_page: &mut dyn FnMut(PageProgress)) -> Result<Result<Response, ParseFailure>> {
        if self.running.is_none() {
            self.running = Some(self.start()?);
        }
        let Some(worker) = self.running.as_mut() else {
            return Err(Error::Worker("worker did not start".into()));
        };
        // The parent opens the file: the worker's sandbox lets it open none by path.
        let file = match open_regular(request.path()) {
            Ok(file) => file,
            Err(reason) => return Ok(Err(reason)),
        };
        #[cfg(unix)]
        if super::handoff::send(&worker.files, &file).is_err() {
            let reason = self.reap("exited before the request");
            return Ok(Err(reason));
        }
        #[cfg(not(unix))]
        drop(file);
        let Some(worker) = self.running.as_mut() else {
            return Err(Error::Worker("worker did not start".into()));
        };
        let request = serde_json::to_string(request).map_err(|e| Error::Worker(e.to_string()))?;
        if writeln!(worker.stdin, "{request}").and_then(|_| worker.stdin.flush()).is_err() {
            let reason = self.reap("exited before the request");
            return Ok(Err(reason));
        }
        // The deadline is per step: a page read (by OCR, seconds each) starts it again, so a
        // long scan finishes while a worker stuck on one page is still stopped.
        loop {
            let Some(worker) = self.running.as_mut() else {
                return Err(Error::Worker("worker did not start".into()));
            };
            return match worker.lines.recv_timeout(self.command.timeout) {
                Ok(Err(why)) => Ok(Err(self.reap(&why))),
                Ok(Ok(line)) => match serde_json::from_str::<Response>(&line) {
                    Ok(Response::Progress(page)) => {
                        on_page(page);
                        continue;
                    }
                    Ok(Response::Sandboxed(applied)) => {
                        self.admit(applied)?;
                        continue;
                    }
                    Ok(Response::Broken(message)) => Err(Error::Worker(message)),
                    Ok(response) => Ok(Ok(response)),
                    Err(e) => {
                        let reason = self.reap(&format!("sent an unreadable answer ({e})"));
                        Ok(Err(reason))
                    }
                },
                Err(RecvTimeoutError::Timeout) => {
                    let secs = self.command.timeout.as_secs_f32();
                    self.reap("");
                    Ok(Err(format!("parser timed out after {secs:.0} s on one step (file skipped)")))
                }
                Err(RecvTimeoutError::Disconnected) => Ok(Err(self.reap("crashed"))),
            };
        }
    }

    /// Kills and waits for the current worker; describes how it ended.
    fn reap(&mut self, what: &str) -> String {
        let Some(mut worker) = self.running.take() else {
            return format!("parser {what}");
        };
        let _ = worker.child.kill();
        let status = worker.child.wait();
        let how = match status {
            #[cfg(unix)]
            Ok(s) if std::os::unix::process::ExitStatusExt::signal(&s).is_some() => {
                format!(" (signal {})", std::os::unix::process::ExitStatusExt::signal(&s).unwrap_or(0))
            }
            Ok(s) => format!(" ({s})"),
            Err(_) => String::new(),
        };
        format!("parser {what}{how} while reading this file (file skipped)")
    }
}

impl Drop for IsolatedWorker {
    fn drop(&mut self) {
        if let Some(mut worker) = self.running.take() {
            drop(worker.stdin);
            let _ = worker.child.kill();
            let _ = worker.child.wait();
        }
    }
}
