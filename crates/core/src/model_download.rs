//! Downloading a chat model by URL, only when the user asks: resumable (an interrupted
//! download continues from its `.part` file with an HTTP Range request), cancellable (the
//! part is kept for later), checked for free space before it starts, checked against a
//! sha256 when one is given, and refused unless it is a GGUF.

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::gguf::read_info;
use crate::model_install::{ensure_room, part_path};

#[derive(Debug, Clone)]
pub struct DownloadRequest {
    pub url: String,
    /// The folder the model goes into (the data dir's `models/llm`).
    pub dir: PathBuf,
    /// The file name; by default the URL's last path segment (it must end in `.gguf`).
    pub file_name: Option<String>,
    /// The expected sha256, in hex; a mismatch deletes the download.
    pub sha256: Option<String>,
}

/// How far a download is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DownloadProgress {
    pub done: u64,
    pub total: Option<u64>,
    /// Bytes that were already there from an earlier, interrupted run.
    pub resumed_from: u64,
}

/// Downloads `request`; `on_progress` hears about every megabyte and stops the download
/// (keeping the part for a later resume) by returning false. Returns the installed path.
pub fn download(request: &DownloadRequest, on_progress: &mut dyn FnMut(&DownloadProgress) -> bool) -> Result<PathBuf> {
    let url = request.url.trim();
    let fail = |message: String| Error::Download { url: url.to_string(), message };
    let name = match &request.file_name {
        Some(name) => name.clone(),
        None => name_from_url(url).ok_or_else(|| fail("the URL names no .gguf file; give the file name (--name NAME.gguf)".into()))?,
    };
    if name.contains(['/', '\\']) || name.starts_with('.') || !name.to_ascii_lowercase().ends_with(".gguf") {
        return Err(fail(format!("{name} is not a usable model file name (it must end in .gguf)")));
    }
    std::fs::create_dir_all(&request.dir).map_err(|e| Error::io(&request.dir, e))?;
    let target = request.dir.join(&name);
    if target.exists() {
        return Err(fail(format!("a model named {name} is already installed in {}", request.dir.display())));
    }
    let part = part_path(&target);
    let have = std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0);

    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(15)))
        .timeout_recv_response(Some(Duration::from_secs(60)))
        .http_status_as_error(false)
        .build()
        .into();
    // Identity encoding: byte ranges must count the file's own bytes.
    let mut call = agent.get(url).header("Accept-Encoding", "identity");
    if have > 0 {
        call = call.header("Range", &format!("bytes={have}-"));
    }
    let response = call.call().map_err(|e| fail(format!("cannot reach the server ({e})")))?;
    let status = response.status().as_u16();
    let length = response.headers().get("content-length").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    let (start, total) = match status {
        206 => {
            let range = response.headers().get("content-range").and_then(|v| v.to_str().ok()).and_then(parse_content_range);
            match range {
                Some((from, total)) if from == have => (have, total.or(length.map(|l| have + l))),
                _ => return Err(fail("the server sent a different part of the file than asked; delete the .part file and try again".into())),
            }
        }
        200 => (0, length),
        // Asked for bytes past the end: the part is already the whole file.
        416 if have > 0 => (have, Some(have)),
        401 | 403 => return Err(fail(format!("the server refused access (HTTP {status})"))),
        404 => return Err(fail("nothing at this URL (HTTP 404)".into())),
        _ => return Err(fail(format!("the server answered HTTP {status}"))),
    };
    if let Some(total) = total {
        ensure_room(&request.dir, total.saturating_sub(start))?;
    }
    let mut progress = DownloadProgress { done: start, total, resumed_from: start };
    if status != 416 {
        let mut file = OpenOptions::new()
            .create(true)
            .write(true)
            .append(start > 0)
            .truncate(start == 0)
            .open(&part)
            .map_err(|e| Error::io(&part, e))?;
        let mut body = response.into_body().into_reader();
        let mut buffer = vec![0u8; 256 * 1024];
        let mut reported = start;
        loop {
            let n = match body.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => {
                    return Err(fail(format!(
                        "interrupted after {} of {} ({e}); run the same download again to resume",
                        megabytes(progress.done),
                        total.map(megabytes).unwrap_or_else(|| "an unknown size".into())
                    )))
                }
            };
            file.write_all(&buffer[..n]).map_err(|e| {
                fail(format!("cannot write {} ({e}); free some space and run it again to resume", part.display()))
            })?;
            progress.done += n as u64;
            if progress.done - reported >= 1 << 20 {
                reported = progress.done;
                if !on_progress(&progress) {
                    return Err(Error::Interrupted);
                }
            }
        }
        file.sync_all().map_err(|e| Error::io(&part, e))?;
        on_progress(&progress);
    }
    if let Some(total) = total.filter(|t| progress.done != *t) {
        return Err(fail(format!("the server sent {} of {}; run it again to resume", megabytes(progress.done), megabytes(total))));
    }
    if let Some(expected) = &request.sha256 {
        let got = sha256_of(&part)?;
        if !got.eq_ignore_ascii_case(expected.trim()) {
            let _ = std::fs::remove_file(&part);
            return Err(fail(format!("checksum mismatch: expected sha256 {}, got {got}; the download was deleted", expected.trim())));
        }
    }
    if let Err(e) = read_info(&part) {
        let _ = std::fs::remove_file(&part);
        return Err(fail(format!("the file is not a usable model ({e}); it was deleted")));
    }
    std::fs::rename(&part, &target).map_err(|e| Error::io(&target, e))?;
    Ok(target)
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// The last path segment of `url` when it names a GGUF file.
fn name_from_url(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next()?;
    let last = path.rsplit('/').next()?;
    (last.to_ascii_lowercase().ends_with(".gguf") && last.len() > 5).then(|| last.to_string())
}

/// `bytes START-END/TOTAL` → (START, TOTAL); TOTAL may be `*`.
fn parse_content_range(value: &str) -> Option<(u64, Option<u64>)> {
    let rest = value.trim().strip_prefix("bytes ")?;
    let (range, total) = rest.split_once('/')?;
    let start = range.split_once('-')?.0.trim().parse().ok()?;
    Some((start, total.trim().parse().ok()))
}

fn sha256_of(path: &Path) -> Result<String> {
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer).map_err(|e| Error::io(path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ranges_are_read_strictly() {
        assert_eq!(name_from_url("https://h/x/Qwen2.5-7B.Q4_K_M.gguf?download=true").as_deref(), Some("Qwen2.5-7B.Q4_K_M.gguf"));
        assert_eq!(name_from_url("https://h/x/model.bin"), None);
        assert_eq!(name_from_url("https://h/.gguf"), None);
        assert_eq!(parse_content_range("bytes 100-199/200"), Some((100, Some(200))));
        assert_eq!(parse_content_range("bytes 5-9/*"), Some((5, None)));
        assert_eq!(parse_content_range("items 1-2/3"), None);
    }
}
