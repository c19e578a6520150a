//! A stand-in HTTP server that records the headers of every request and answers 401: enough
//! to see whether a client sent it an API key.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

pub struct HeaderCapture {
    pub url: String,
    seen: Arc<Mutex<Vec<Vec<String>>>>,
}

impl HeaderCapture {
    pub fn start() -> HeaderCapture {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://127.0.0.1:{}/v1", listener.local_addr().unwrap().port());
        let seen: Arc<Mutex<Vec<Vec<String>>>> = Arc::default();
        let record = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let mut reader = BufReader::new(&stream);
                let mut headers = Vec::new();
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    headers.push(line.trim_end().to_string());
                    line.clear();
                }
                record.lock().unwrap().push(headers);
                let _ = (&stream).write_all(b"HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
            }
        });
        HeaderCapture { url, seen }
    }

    /// Every request so far, as its request line and header lines.
    pub fn requests(&self) -> Vec<Vec<String>> {
        self.seen.lock().unwrap().clone()
    }

    /// Whether any request carried an Authorization header.
    pub fn saw_authorization(&self) -> bool {
        self.requests().iter().flatten().any(|h| h.to_ascii_lowercase().starts_with("authorization:"))
    }
}
