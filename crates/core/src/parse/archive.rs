//! Reading members of ZIP-based formats (DOCX, EPUB) without trusting the archive: limits on
//! the number of entries, on each member's size (checked while reading, since the declared
//! size can lie) and on the expansion ratio, so a zip bomb costs a reported file, not memory.

use std::io::Read;

use super::ParseFailure;

#[derive(Debug, Clone, Copy)]
pub struct ZipLimits {
    pub max_entries: usize,
    /// Bytes one member may expand to.
    pub max_member_bytes: u64,
    /// Bytes all members read from one file may expand to.
    pub max_total_bytes: u64,
    /// Expanded size over compressed size, for members above 1 MiB.
    pub max_ratio: u64,
}

impl Default for ZipLimits {
    fn default() -> Self {
        ZipLimits { max_entries: 20_000, max_member_bytes: 64 << 20, max_total_bytes: 256 << 20, max_ratio: 200 }
    }
}

pub struct Archive {
    zip: zip::ZipArchive<std::fs::File>,
    limits: ZipLimits,
    read_total: u64,
}

impl Archive {
    pub fn open(file: std::fs::File, limits: ZipLimits, kind: &str) -> Result<Archive, ParseFailure> {
        let zip = zip::ZipArchive::new(file).map_err(|e| format!("not a valid {kind} file (damaged ZIP container: {e})"))?;
        if zip.len() > limits.max_entries {
            return Err(format!("{kind} has {} archive entries, over the limit of {}", zip.len(), limits.max_entries));
        }
        Ok(Archive { zip, limits, read_total: 0 })
    }

    /// The member `name` as text, or `Ok(None)` when it does not exist.
    pub fn read_text(&mut self, name: &str) -> Result<Option<String>, ParseFailure> {
        let limits = self.limits;
        let remaining = limits.max_total_bytes.saturating_sub(self.read_total);
        let mut member = match self.zip.by_name(name) {
            Ok(m) => m,
            Err(zip::result::ZipError::FileNotFound) => return Ok(None),
            Err(e) => return Err(format!("cannot read {name} from the archive: {e}")),
        };
        let (declared, compressed) = (member.size(), member.compressed_size().max(1));
        if declared > limits.max_member_bytes || (declared > 1 << 20 && declared / compressed > limits.max_ratio) {
            return Err(format!(
                "{name} expands to {declared} bytes from {compressed} (zip bomb protection: at most {} bytes and {}× per member)",
                limits.max_member_bytes, limits.max_ratio
            ));
        }
        let cap = limits.max_member_bytes.min(remaining);
        let mut bytes = Vec::new();
        (&mut member).take(cap + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {name}: {e}"))?;
        if bytes.len() as u64 > cap {
            return Err(format!("{name} expands past {cap} bytes (zip bomb protection)"));
        }
        self.read_total += bytes.len() as u64;
        String::from_utf8(bytes).map(Some).map_err(|_| format!("{name} is not UTF-8 text"))
    }
}
