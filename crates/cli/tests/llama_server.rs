//! llama.cpp's llama-server (built by models/llama-server.sh) on a free loopback port, for
//! the tests of generation through an OpenAI-compatible server. Shared by the CLI's and the
//! app's tests.

#![allow(dead_code, clippy::unwrap_used)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Server {
    child: Child,
    pub url: String,
}

impl Server {
    /// Starts llama-server on a free loopback port serving `model` as `alias`.
    pub fn start(models: &Path, model: &str, alias: &str, extra: &[&str]) -> Server {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        Server::start_on(port, models, model, alias, extra)
    }

    /// The same on a given port: a server that comes back where it was.
    pub fn start_on(port: u16, models: &Path, model: &str, alias: &str, extra: &[&str]) -> Server {
        let program = models.join("bin/llama-server");
        assert!(program.exists(), "{} is missing: run models/llama-server.sh", program.display());
        let child = Command::new(&program)
            .arg("-m")
            .arg(models.join("llm").join(model))
            .args(["--alias", alias, "--host", "127.0.0.1", "--port", &port.to_string(), "-c", "4096", "-t", "2", "-np", "1"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let server = Server { child, url: format!("http://127.0.0.1:{port}/v1") };
        let deadline = Instant::now() + Duration::from_secs(120);
        while health(port) != Some(200) {
            assert!(Instant::now() < deadline, "llama-server did not become ready on port {port}");
            std::thread::sleep(Duration::from_millis(200));
        }
        server
    }

    pub fn port(&self) -> u16 {
        self.url.trim_start_matches("http://127.0.0.1:").trim_end_matches("/v1").parse().unwrap()
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The HTTP status of GET /health, or `None` while nothing listens.
fn health(port: u16) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    stream.write_all(b"GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut head = String::new();
    stream.read_to_string(&mut head).ok()?;
    head.split_whitespace().nth(1)?.parse().ok()
}

