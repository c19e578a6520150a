//! A small HTTP file server on loopback for the model-download tests (the CLI's and the
//! app's): it honours or ignores Range requests, and can cut the first transfer short. Its
//! behaviour can change between requests while the URL stays the same (a download's part is
//! only resumed from the URL it came from).

#![allow(clippy::unwrap_used, dead_code)] // test helper; each test binary uses part of it

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

#[derive(Clone, Copy)]
pub struct Behaviour {
    /// Close the first response after this many body bytes.
    pub cut_first_after: Option<u64>,
    pub honour_ranges: bool,
    /// Send at about 3 MB/s, so that a test can act while a download runs.
    pub slow: bool,
}

pub struct FileServer {
    pub url: String,
    /// The Range header of every request, in order ("" when none).
    pub ranges: Arc<Mutex<Vec<String>>>,
    behaviour: Arc<Mutex<Behaviour>>,
}

impl FileServer {
    pub fn serve(file: PathBuf, name: &str, behaviour: Behaviour) -> FileServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/models/{name}", listener.local_addr().unwrap());
        let ranges = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&ranges);
        let shared = Arc::new(Mutex::new(behaviour));
        let current = Arc::clone(&shared);
        std::thread::spawn(move || {
            for (n, stream) in listener.incoming().enumerate() {
                let Ok(stream) = stream else { continue };
                let behaviour = *current.lock().unwrap();
                let cut = if n == 0 { behaviour.cut_first_after } else { None };
                let (file, seen) = (file.clone(), Arc::clone(&seen));
                // Each request on its own thread: a slow answer to a download that was
                // cancelled must not hold up the next request.
                std::thread::spawn(move || answer(stream, &file, behaviour, cut, &seen));
            }
        });
        FileServer { url, ranges, behaviour: shared }
    }

    /// Answers the requests from now on this way, at the same URL.
    pub fn set_behaviour(&self, behaviour: Behaviour) {
        *self.behaviour.lock().unwrap() = behaviour;
    }
}

fn answer(stream: TcpStream, file: &Path, behaviour: Behaviour, cut: Option<u64>, seen: &Mutex<Vec<String>>) -> std::io::Result<()> {
    let honour_ranges = behaviour.honour_ranges;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut range = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Range:").or_else(|| line.strip_prefix("range:")) {
            range = v.trim().to_string();
        }
    }
    seen.lock().unwrap().push(range.clone());
    let size = std::fs::metadata(file)?.len();
    let start = range.strip_prefix("bytes=").and_then(|r| r.trim_end_matches('-').parse::<u64>().ok()).filter(|_| honour_ranges);
    let mut out = stream;
    let head = match start {
        Some(s) if s >= size => format!("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{size}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
        Some(s) => format!("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {s}-{}/{size}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", size - 1, size - s),
        None => format!("HTTP/1.1 200 OK\r\nContent-Length: {size}\r\nAccept-Ranges: {}\r\nConnection: close\r\n\r\n", if honour_ranges { "bytes" } else { "none" }),
    };
    out.write_all(head.as_bytes())?;
    let from = start.filter(|s| *s < size).unwrap_or(0);
    if start.is_some_and(|s| s >= size) {
        return Ok(());
    }
    let mut body = std::fs::File::open(file)?;
    body.seek(SeekFrom::Start(from))?;
    let mut left = cut.unwrap_or(u64::MAX);
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let n = body.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        let n = n.min(left as usize);
        out.write_all(&buffer[..n])?;
        if behaviour.slow {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        left -= n as u64;
        if left == 0 {
            break; // dropping the stream cuts the transfer short
        }
    }
    Ok(())
}

