//! The network log: one JSON line per HTTP request Pagewise sends, in the data dir's
//! `network-log.jsonl`, so that Settings → Network and `pagewise network-log` can show every
//! connection the app has made (and an empty list on a computer it never used the network
//! from). Only when, where, why, the method and the path are kept: never a body, a query
//! string or a key.
//!
//! The requests go out deep inside the core (an endpoint's retries, a download's redirect
//! hops), where the data dir is not known; the program's top (the CLI's `main`, the app's
//! start) names it once with [`record_to`]. A process that never calls it records nothing.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use ureq::http::Uri;

use crate::error::{Error, Result};
use crate::data_dir::{claim, inspect, Location};

/// The log's file name inside the data dir.
pub const LOG_FILE: &str = "network-log.jsonl";

/// Why a request went out: each of the app's few network features names itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "NetworkPurpose"))]
pub enum Purpose {
    /// A chat model downloaded by URL (each redirect hop is its own request).
    ModelDownload,
    /// The OpenAI-compatible server that writes answers.
    AnswerServer,
    /// The OpenAI-compatible server that computes passage vectors.
    EmbeddingServer,
    /// A server's model list, asked for by "Find models" in Settings.
    ServerModels,
}

impl Purpose {
    /// In words, for the command line.
    pub fn describe(self) -> &'static str {
        match self {
            Purpose::ModelDownload => "model download",
            Purpose::AnswerServer => "answer server",
            Purpose::EmbeddingServer => "embedding server",
            Purpose::ServerModels => "server's model list",
        }
    }
}

/// One request as the log keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Unix seconds.
    pub time: i64,
    /// The host as the URL names it (lower case; an IPv6 address in brackets).
    pub host: String,
    /// The port, the scheme's default when the URL names none.
    pub port: u16,
    pub purpose: Purpose,
    pub method: String,
    /// The URL's path without its query string, which may carry a token.
    pub path: String,
}

/// Consecutive requests to one host for one purpose, as Settings and the CLI show them: a
/// download's hundred retries or an indexing run's thousand embedding batches are one row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "NetworkLogRow"))]
pub struct Row {
    /// Unix seconds of the first and the last request of the row.
    pub first: i64,
    pub last: i64,
    pub host: String,
    pub port: u16,
    pub purpose: Purpose,
    pub count: u64,
}

/// The data dir whose log requests are appended to; `None` records nothing.
static DATA_DIR: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Records every request this process sends from now on in `data_dir`'s log. Called by the
/// program's top once the data dir is known; a later call (a test starting a second app)
/// replaces the first.
pub fn record_to(data_dir: &Path) {
    set_data_dir(Some(data_dir.to_path_buf()));
}

fn set_data_dir(dir: Option<PathBuf>) {
    *DATA_DIR.lock().unwrap_or_else(PoisonError::into_inner) = dir;
}

/// Logs one request to `url` about to be sent, when a data dir was named. Called before the
/// request, so that one which hangs or fails still shows; a retry is logged again, since it
/// connects again. Never fails: the log is for the user's eyes, and a full disk or a
/// read-only data dir must not stop a download or an answer.
pub(crate) fn record(purpose: Purpose, method: &str, url: &Uri) {
    let Some(dir) = DATA_DIR.lock().unwrap_or_else(PoisonError::into_inner).clone() else { return };
    let Some(entry) = entry_for(purpose, method, url, now()) else { return };
    let _ = append(&dir, &entry);
}

/// [`record`] for a URL in text; one that does not parse is not sent either (the HTTP client
/// refuses it before connecting), so there is nothing to log.
pub(crate) fn record_url(purpose: Purpose, method: &str, url: &str) {
    if let Ok(uri) = url.parse::<Uri>() {
        record(purpose, method, &uri);
    }
}

fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

fn entry_for(purpose: Purpose, method: &str, url: &Uri, time: i64) -> Option<Entry> {
    let host = url.host()?.to_ascii_lowercase();
    let port = url.port_u16().unwrap_or(if url.scheme_str() == Some("http") { 80 } else { 443 });
    Some(Entry { time, host, port, purpose, method: method.to_string(), path: url.path().to_string() })
}

/// Appends `entry` as one line. The line goes out in one write to a file opened for
/// appending, so the app and the CLI sharing a data dir do not interleave halves of lines;
/// there is no fsync, as a request costs far more than a write but an fsync could cost more
/// than a small request.
pub(crate) fn append(data_dir: &Path, entry: &Entry) -> Result<()> {
    // Nothing is written into a folder that is not Pagewise's (a user's folder passed as the
    // data dir); a missing or empty one becomes a data dir as before any other write there.
    match inspect(data_dir) {
        Location::Ours => {}
        Location::Foreign => return Ok(()),
        Location::Missing | Location::Empty | Location::Legacy => {
            claim(data_dir)?;
        }
    }
    let path = data_dir.join(LOG_FILE);
    let mut line = serde_json::to_string(entry).map_err(|e| Error::io(&path, std::io::Error::other(e)))?;
    line.push('\n');
    let mut file = OpenOptions::new().create(true).append(true).open(&path).map_err(|e| Error::io(&path, e))?;
    file.write_all(line.as_bytes()).map_err(|e| Error::io(&path, e))
}

/// Every request logged in `data_dir`, oldest first; none when nothing was ever logged. A
/// line that does not read as an entry (cut short by a crash) is skipped.
pub fn read(data_dir: &Path) -> Result<Vec<Entry>> {
    let path = data_dir.join(LOG_FILE);
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&path, e)),
    };
    let mut entries = Vec::new();
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|e| Error::io(&path, e))?;
        if let Ok(entry) = serde_json::from_str::<Entry>(&line) {
            entries.push(entry);
        }
    }
    Ok(entries)
}

/// Consecutive entries to the same host and port for the same purpose, as one row each,
/// oldest first.
pub fn group(entries: &[Entry]) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for e in entries {
        match rows.last_mut() {
            Some(row) if row.host == e.host && row.port == e.port && row.purpose == e.purpose => {
                row.last = e.time;
                row.count += 1;
            }
            _ => rows.push(Row { first: e.time, last: e.time, host: e.host.clone(), port: e.port, purpose: e.purpose, count: 1 }),
        }
    }
    rows
}

/// The grouped log of `data_dir` ([`read`], then [`group`]).
pub fn rows(data_dir: &Path) -> Result<Vec<Row>> {
    Ok(group(&read(data_dir)?))
}

/// `YYYY-MM-DD HH:MM UTC` of unix seconds, for the command line.
pub fn utc_time(secs: i64) -> String {
    let date = crate::facets::date_of(secs.saturating_mul(1_000_000_000));
    let of_day = secs.rem_euclid(86_400);
    format!("{date} {:02}:{:02} UTC", of_day / 3600, of_day % 3600 / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(time: i64, host: &str, purpose: Purpose) -> Entry {
        Entry { time, host: host.into(), port: 443, purpose, method: "POST".into(), path: "/v1/embeddings".into() }
    }

    #[test]
    fn consecutive_requests_to_one_host_for_one_purpose_are_one_row() {
        let entries = [
            entry(10, "llm.example", Purpose::ServerModels),
            entry(20, "llm.example", Purpose::AnswerServer),
            entry(21, "llm.example", Purpose::AnswerServer),
            entry(25, "llm.example", Purpose::AnswerServer),
            entry(30, "emb.example", Purpose::EmbeddingServer),
            entry(40, "llm.example", Purpose::AnswerServer),
        ];
        let rows = group(&entries);
        let summary: Vec<_> = rows.iter().map(|r| (r.host.as_str(), r.purpose, r.first, r.last, r.count)).collect();
        assert_eq!(
            summary,
            [
                ("llm.example", Purpose::ServerModels, 10, 10, 1),
                ("llm.example", Purpose::AnswerServer, 20, 25, 3),
                ("emb.example", Purpose::EmbeddingServer, 30, 30, 1),
                ("llm.example", Purpose::AnswerServer, 40, 40, 1),
            ]
        );
        assert!(group(&[]).is_empty());
    }

    #[test]
    fn an_entry_keeps_host_port_and_path_but_no_query() {
        let uri: Uri = "https://Mirror.Example/models/a.gguf?token=secret".parse().unwrap();
        let e = entry_for(Purpose::ModelDownload, "GET", &uri, 7).unwrap();
        assert_eq!((e.host.as_str(), e.port, e.path.as_str(), e.method.as_str()), ("mirror.example", 443, "/models/a.gguf", "GET"));
        let uri: Uri = "http://127.0.0.1:8080/v1/models".parse().unwrap();
        assert_eq!(entry_for(Purpose::ServerModels, "GET", &uri, 7).unwrap().port, 8080);
        let line = serde_json::to_string(&e).unwrap();
        assert!(!line.contains("secret") && line.contains("\"purpose\":\"model_download\""), "{line}");
    }

    #[test]
    fn requests_are_appended_in_the_data_dir_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        assert!(read(&data).unwrap().is_empty(), "a fresh data dir has no log");
        append(&data, &entry(1, "a.example", Purpose::EmbeddingServer)).unwrap();
        append(&data, &entry(2, "a.example", Purpose::EmbeddingServer)).unwrap();
        // A line cut short by a crash is skipped, and later ones still count.
        std::fs::OpenOptions::new().append(true).open(data.join(LOG_FILE)).unwrap().write_all(b"{\"time\":3,\"ho").unwrap();
        std::fs::OpenOptions::new().append(true).open(data.join(LOG_FILE)).unwrap().write_all(b"\n").unwrap();
        append(&data, &entry(4, "b.example", Purpose::AnswerServer)).unwrap();
        let read_back = read(&data).unwrap();
        assert_eq!(read_back.iter().map(|e| e.time).collect::<Vec<_>>(), [1, 2, 4]);
        assert_eq!(rows(&data).unwrap().len(), 2);
        // The missing folder became a data dir, as before any other write there.
        assert_eq!(inspect(&data), Location::Ours);
    }

    #[test]
    fn nothing_is_written_into_a_folder_that_is_not_a_data_dir() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        append(dir.path(), &entry(1, "a.example", Purpose::AnswerServer)).unwrap();
        assert!(!dir.path().join(LOG_FILE).exists());
    }

    #[test]
    fn a_recorded_request_lands_in_the_named_data_dir() {
        let dir = tempfile::tempdir().unwrap();
        record_to(dir.path());
        // Other tests in this process send requests too (to 127.0.0.1); this host is this
        // test's own.
        record_url(Purpose::AnswerServer, "POST", "https://netlog-test.invalid/v1/chat/completions?key=k");
        // Off again, so the other tests' requests do not bring the temporary folder back.
        set_data_dir(None);
        let entries = read(dir.path()).unwrap();
        let ours: Vec<_> = entries.iter().filter(|e| e.host == "netlog-test.invalid").collect();
        assert_eq!(ours.len(), 1, "{entries:?}");
        assert_eq!((ours[0].purpose, ours[0].path.as_str(), ours[0].method.as_str()), (Purpose::AnswerServer, "/v1/chat/completions", "POST"));
        assert!(ours[0].time > 1_600_000_000);
    }

    #[test]
    fn times_read_as_utc() {
        assert_eq!(utc_time(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_time(1_709_337_600 + 13 * 3600 + 5 * 60 + 59), "2024-03-02 13:05 UTC");
    }
}
