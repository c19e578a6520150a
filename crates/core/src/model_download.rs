//! Downloading a chat model by URL, only when the user asks: resumable (an interrupted
//! download continues from its `.part` file with an HTTP Range request, under `If-Range`
//! so that a file changed on the server starts over), cancellable (the part is kept for
//! later), bounded in size and in the disk space it may take, checked against a sha256
//! when one is given, and refused unless it is a GGUF.
//!
//! The address is held to a few rules, because a URL pasted from a model page is not
//! trusted: https, or plain http only with a sha256 to check the bytes against; at most five
//! redirects, never from https down to http, and never onto this machine or the local
//! network unless the first URL already was there.

mod fetch;
mod part;
mod policy;
#[cfg(test)]
mod tests;

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::gguf::read_info;
use crate::model_install::{ensure_room, free_space, SPACE_MARGIN};

use fetch::Resume;
use part::{validator_of, Part};

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

/// Bounds on one download.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DownloadLimits {
    /// The largest model file accepted, in bytes: a server that announces or sends more is
    /// cut off and what arrived is deleted.
    pub max_bytes: u64,
}

/// The largest chat models people run locally are about 20 GB; this leaves room for
/// bigger ones while still stopping a server whose body never ends.
pub const DEFAULT_MAX_BYTES: u64 = 64 << 30;

impl Default for DownloadLimits {
    fn default() -> Self {
        DownloadLimits { max_bytes: DEFAULT_MAX_BYTES }
    }
}

/// Free space is checked again this often while bytes arrive: the size may be unknown
/// up front, and other programs write to the same disk.
const SPACE_CHECK_EVERY: u64 = 64 << 20;

/// Downloads `request` within the [default limits](DownloadLimits::default); see
/// [`download_with_limits`].
pub fn download(request: &DownloadRequest, on_progress: &mut dyn FnMut(&DownloadProgress) -> bool) -> Result<PathBuf> {
    download_with_limits(request, &DownloadLimits::default(), on_progress)
}

/// Downloads `request`; `on_progress` hears about every megabyte and stops the download
/// (keeping the part for a later resume) by returning false. Returns the installed path.
pub fn download_with_limits(
    request: &DownloadRequest,
    limits: &DownloadLimits,
    on_progress: &mut dyn FnMut(&DownloadProgress) -> bool,
) -> Result<PathBuf> {
    let url = request.url.trim();
    let fail = |message: String| Error::Download { url: url.to_string(), message };
    let sha256 = expected_sha256(request.sha256.as_deref()).map_err(fail)?;
    let first = policy::check_first_url(url, sha256.is_some()).map_err(fail)?;
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
    let part = Part::new(&target, url);

    let (response, start, total) = open(&first, &part, sha256.is_some()).map_err(fail)?;
    let announced = total.unwrap_or(start);
    if announced > limits.max_bytes {
        part.discard();
        return Err(fail(format!("the file is {}, more than the {} a download may be", megabytes(announced), megabytes(limits.max_bytes))));
    }
    ensure_room(&request.dir, total.map_or(0, |t| t.saturating_sub(start)))?;
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .append(start > 0)
        .truncate(start == 0)
        .open(&part.path)
        .map_err(|e| Error::io(&part.path, e))?;
    let validator = validator_of(response.headers());
    if start == 0 || (validator.is_some() && part.validator().is_none()) {
        part.set_validator(validator.as_deref())?;
    }
    let mut progress = DownloadProgress { done: start, total, resumed_from: start };
    let receiving = Receiving { dir: &request.dir, part: &part, max_bytes: limits.max_bytes, fail: &fail };
    receiving.copy(&mut response.into_body().into_reader(), file, &mut progress, on_progress)?;
    on_progress(&progress);

    if let Some(total) = total.filter(|t| progress.done != *t) {
        return Err(fail(format!("the server sent {} of {}; run it again to resume", megabytes(progress.done), megabytes(total))));
    }
    if let Some(expected) = &sha256 {
        let got = sha256_of(&part.path)?;
        if got != *expected {
            part.discard();
            return Err(fail(format!("checksum mismatch: expected sha256 {expected}, got {got}; the download was deleted")));
        }
    }
    if let Err(e) = read_info(&part.path) {
        part.discard();
        return Err(fail(format!("the file is not a usable model ({e}); it was deleted")));
    }
    part.finish(&target)?;
    Ok(target)
}

/// Asks for the file, resuming `part` where it can. Returns the answer, the offset its
/// body starts at, and the whole file's size when the server tells it.
fn open(first: &ureq::http::Uri, part: &Part, checksummed: bool) -> Result<(ureq::http::Response<ureq::Body>, u64, Option<u64>), String> {
    let mut started_over = false;
    loop {
        let have = part.len();
        let validator = part.validator();
        // Without a validator only the checksum can tell that the bytes here and the rest
        // the server sends now are one file.
        let resume = (have > 0 && (validator.is_some() || checksummed)).then_some(Resume { from: have, validator: validator.as_deref() });
        let response = fetch::get(first, resume.as_ref())?;
        let status = response.status().as_u16();
        let length = response.headers().get("content-length").and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok());
        match status {
            // A full answer to a Range request: the file changed (If-Range) or the server
            // ignores ranges; either way the body is the whole file.
            200 => return Ok((response, 0, length)),
            206 => {
                let from = resume.as_ref().map_or(0, |r| r.from);
                let range = response.headers().get("content-range").and_then(|v| v.to_str().ok()).and_then(parse_content_range);
                // A server that honours Range but not If-Range would splice two versions;
                // a validator other than the part's own shows it.
                let same_file = match (resume.as_ref().and_then(|r| r.validator), validator_of(response.headers())) {
                    (Some(ours), Some(theirs)) => ours == theirs,
                    _ => true,
                };
                match range {
                    Some((start, total)) if start == from && same_file => return Ok((response, from, total.or(length.map(|l| from + l)))),
                    _ if started_over => return Err("the server sent a different part of the file than asked".into()),
                    _ => {}
                }
            }
            // The part does not fit the file the server has now; only a full download and
            // its checks can say the file is complete, so the part is not taken as it.
            416 if resume.is_some() && !started_over => {}
            416 => return Err("the server cannot send the part of the file asked for (HTTP 416)".into()),
            401 | 403 => return Err(format!("the server refused access (HTTP {status})")),
            404 => return Err("nothing at this URL (HTTP 404)".into()),
            _ => return Err(format!("the server answered HTTP {status}")),
        }
        part.discard();
        started_over = true;
    }
}

/// Where the body's bytes go, and the bounds they must keep to.
struct Receiving<'a> {
    dir: &'a Path,
    part: &'a Part,
    max_bytes: u64,
    fail: &'a dyn Fn(String) -> Error,
}

impl Receiving<'_> {
    /// Writes `body` to `file` and syncs it; the file is closed when this returns, so that
    /// a part cut at the cap can be deleted (on Windows an open file cannot).
    fn copy(
        &self,
        body: &mut dyn Read,
        mut file: std::fs::File,
        progress: &mut DownloadProgress,
        on_progress: &mut dyn FnMut(&DownloadProgress) -> bool,
    ) -> Result<()> {
        let fail = self.fail;
        let mut buffer = vec![0u8; 256 * 1024];
        let mut reported = progress.done;
        let mut next_space_check = progress.done + SPACE_CHECK_EVERY;
        loop {
            let n = match body.read(&mut buffer) {
                Ok(0) => return file.sync_all().map_err(|e| Error::io(&self.part.path, e)),
                Ok(n) => n,
                Err(e) => {
                    return Err(fail(format!(
                        "interrupted after {} of {} ({e}); run the same download again to resume",
                        megabytes(progress.done),
                        progress.total.map(megabytes).unwrap_or_else(|| "an unknown size".into())
                    )))
                }
            };
            // Checked before writing: a server without Content-Length (chunked) could
            // otherwise send until the disk is full.
            if progress.done + n as u64 > self.max_bytes {
                drop(file);
                self.part.discard();
                return Err(fail(format!(
                    "the server sent more than the {} a download may be; stopped and deleted what arrived",
                    megabytes(self.max_bytes)
                )));
            }
            file.write_all(&buffer[..n]).map_err(|e| {
                fail(format!("cannot write {} ({e}); free some space and run it again to resume", self.part.path.display()))
            })?;
            progress.done += n as u64;
            if progress.done >= next_space_check {
                next_space_check = progress.done + SPACE_CHECK_EVERY;
                self.check_space(progress)?;
            }
            if progress.done - reported >= 1 << 20 {
                reported = progress.done;
                if !on_progress(progress) {
                    return Err(Error::Interrupted);
                }
            }
        }
    }

    /// Stops before the disk fills: what is left to come (all of [`SPACE_MARGIN`] when the
    /// size is unknown) must still fit. The part stays for a resume once space is freed.
    fn check_space(&self, progress: &DownloadProgress) -> Result<()> {
        let left = progress.total.map_or(0, |t| t.saturating_sub(progress.done));
        let free = free_space(self.dir)?;
        if free < left.saturating_add(SPACE_MARGIN) {
            return Err((self.fail)(format!(
                "stopped after {}: {} has {} free, and {} more are needed with {} kept free; free some space and run it \
                 again to resume",
                megabytes(progress.done),
                self.dir.display(),
                megabytes(free),
                megabytes(left),
                megabytes(SPACE_MARGIN)
            )));
        }
        Ok(())
    }
}

/// The expected sha256 in lower case, when one is given; a malformed one is refused now
/// rather than after the whole download.
fn expected_sha256(given: Option<&str>) -> Result<Option<String>, String> {
    let Some(hex) = given.map(str::trim).filter(|h| !h.is_empty()) else { return Ok(None) };
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("{hex} is not a sha256 (64 hexadecimal digits)"));
    }
    Ok(Some(hex.to_ascii_lowercase()))
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
