//! What a GGUF model file says about itself, read from its header without loading it: the
//! architecture, name, quantisation, context length, license and whether it carries a chat
//! template. The file is untrusted (a user's import, a download): every count and length is
//! bounded, and large arrays (the vocabulary) are skipped, not read.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GgufInfo {
    pub version: u32,
    pub architecture: Option<String>,
    pub name: Option<String>,
    /// The weights' quantisation (`Q4_K_M`, `Q8_0`, `F16` …).
    pub quantisation: Option<String>,
    /// Tokens the model was trained to attend over.
    pub context_length: Option<u64>,
    pub license: Option<String>,
    pub has_chat_template: bool,
}

/// Metadata entries a header may declare (real models have a few dozen).
const MAX_ENTRIES: u64 = 100_000;
/// Longest string value kept (a chat template is a few KB; longer ones are only skipped).
const MAX_KEPT_STRING: u64 = 1 << 20;

/// Reads the header of the GGUF file at `path`.
pub fn read_info(path: &Path) -> Result<GgufInfo> {
    let bad = |message: String| Error::Model { path: path.to_path_buf(), message };
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let size = file.metadata().map_err(|e| Error::io(path, e))?.len();
    let mut header = Header { reader: BufReader::new(file), size, read: 0 };
    let mut magic = [0u8; 4];
    header.exact(&mut magic).map_err(|_| bad("not a GGUF model file (too short)".into()))?;
    if &magic != b"GGUF" {
        return Err(bad("not a GGUF model file (it does not start with GGUF)".into()));
    }
    let version = header.u32().map_err(bad)?;
    if !(2..=3).contains(&version) {
        return Err(bad(format!("GGUF version {version} is not supported (2 and 3 are)")));
    }
    let _tensors = header.u64().map_err(bad)?;
    let entries = header.u64().map_err(bad)?;
    if entries > MAX_ENTRIES {
        return Err(bad(format!("GGUF header declares {entries} metadata entries")));
    }
    let mut info = GgufInfo { version, ..GgufInfo::default() };
    let mut file_type = None;
    let mut contexts: Vec<(String, u64)> = Vec::new();
    for _ in 0..entries {
        let key = header.string(MAX_KEPT_STRING).map_err(bad)?.unwrap_or_default();
        let kind = header.u32().map_err(bad)?;
        let value = header.value(kind, &key).map_err(bad)?;
        match (key.as_str(), value) {
            ("general.architecture", Value::Text(v)) => info.architecture = Some(v),
            ("general.name", Value::Text(v)) => info.name = Some(v),
            ("general.license", Value::Text(v)) => info.license = Some(v),
            ("general.file_type", Value::Number(v)) => file_type = Some(v),
            ("tokenizer.chat_template", _) => info.has_chat_template = true,
            (k, Value::Number(v)) if k.ends_with(".context_length") => contexts.push((k.to_string(), v)),
            _ => {}
        }
    }
    let arch_key = info.architecture.as_ref().map(|a| format!("{a}.context_length"));
    info.context_length = contexts.iter().find(|(k, _)| Some(k) == arch_key.as_ref()).or(contexts.first()).map(|(_, v)| *v);
    info.quantisation = file_type.map(quantisation_name);
    Ok(info)
}

enum Value {
    Number(u64),
    Text(String),
    Other,
}

struct Header {
    reader: BufReader<File>,
    size: u64,
    read: u64,
}

impl Header {
    fn exact(&mut self, buf: &mut [u8]) -> std::io::Result<()> {
        self.reader.read_exact(buf)?;
        self.read += buf.len() as u64;
        Ok(())
    }

    fn skip(&mut self, bytes: u64) -> std::result::Result<(), String> {
        if self.read.saturating_add(bytes) > self.size {
            return Err("GGUF header runs past the end of the file".into());
        }
        let step = i64::try_from(bytes).map_err(|_| "GGUF header length out of range".to_string())?;
        self.reader.seek_relative(step).map_err(|e| e.to_string())?;
        self.read += bytes;
        Ok(())
    }

    fn u32(&mut self) -> std::result::Result<u32, String> {
        let mut b = [0u8; 4];
        self.exact(&mut b).map_err(|_| truncated())?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> std::result::Result<u64, String> {
        let mut b = [0u8; 8];
        self.exact(&mut b).map_err(|_| truncated())?;
        Ok(u64::from_le_bytes(b))
    }

    /// A length-prefixed string: `Some` when at most `keep` bytes, else skipped.
    fn string(&mut self, keep: u64) -> std::result::Result<Option<String>, String> {
        let len = self.u64()?;
        if len > keep {
            self.skip(len)?;
            return Ok(None);
        }
        if self.read.saturating_add(len) > self.size {
            return Err("GGUF header runs past the end of the file".into());
        }
        let mut bytes = vec![0u8; len as usize];
        self.exact(&mut bytes).map_err(|_| truncated())?;
        Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
    }

    fn value(&mut self, kind: u32, key: &str) -> std::result::Result<Value, String> {
        Ok(match kind {
            0 | 1 | 7 => Value::Number(self.fixed(1)?),
            2 | 3 => Value::Number(self.fixed(2)?),
            4 | 5 => Value::Number(self.fixed(4)?),
            6 => {
                self.skip(4)?;
                Value::Other
            }
            10 | 11 => Value::Number(self.u64()?),
            12 => {
                self.skip(8)?;
                Value::Other
            }
            8 => self.string(MAX_KEPT_STRING)?.map(Value::Text).unwrap_or(Value::Other),
            9 => {
                let element = self.u32()?;
                let count = self.u64()?;
                match element {
                    8 => {
                        for _ in 0..count {
                            self.string(0)?;
                        }
                    }
                    9 => return Err(format!("GGUF entry {key} nests arrays")),
                    other => {
                        let width = fixed_width(other).ok_or_else(|| format!("GGUF entry {key} has arrays of unknown type {other}"))?;
                        self.skip(count.checked_mul(width).ok_or("GGUF array length out of range")?)?;
                    }
                }
                Value::Other
            }
            other => return Err(format!("GGUF entry {key} has unknown type {other}")),
        })
    }

    fn fixed(&mut self, width: usize) -> std::result::Result<u64, String> {
        let mut b = [0u8; 8];
        self.exact(&mut b[..width]).map_err(|_| truncated())?;
        Ok(u64::from_le_bytes(b))
    }
}

fn fixed_width(kind: u32) -> Option<u64> {
    match kind {
        0 | 1 | 7 => Some(1),
        2 | 3 => Some(2),
        4..=6 => Some(4),
        10..=12 => Some(8),
        _ => None,
    }
}

fn truncated() -> String {
    "GGUF header is cut short".into()
}

/// llama.cpp's `llama_ftype` numbers as the names model pages use.
fn quantisation_name(file_type: u64) -> String {
    let name = match file_type {
        0 => "F32",
        1 => "F16",
        2 => "Q4_0",
        3 => "Q4_1",
        7 => "Q8_0",
        8 => "Q5_0",
        9 => "Q5_1",
        10 => "Q2_K",
        11 => "Q3_K_S",
        12 => "Q3_K_M",
        13 => "Q3_K_L",
        14 => "Q4_K_S",
        15 => "Q4_K_M",
        16 => "Q5_K_S",
        17 => "Q5_K_M",
        18 => "Q6_K",
        19 => "IQ2_XXS",
        20 => "IQ2_XS",
        21 => "Q2_K_S",
        22 => "IQ3_XS",
        23 => "IQ3_XXS",
        24 => "IQ1_S",
        25 => "IQ4_NL",
        26 => "IQ3_S",
        27 => "IQ3_M",
        28 => "IQ2_S",
        29 => "IQ2_M",
        30 => "IQ4_XS",
        31 => "IQ1_M",
        32 => "BF16",
        36 => "TQ1_0",
        37 => "TQ2_0",
        other => return format!("type {other}"),
    };
    name.to_string()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A GGUF header with the given entries (strings and u32s) and a vocabulary array.
    pub(crate) fn tiny_gguf(entries: &[(&str, &str)], numbers: &[(&str, u32)]) -> Vec<u8> {
        let mut out = b"GGUF".to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend(0u64.to_le_bytes());
        out.extend(((entries.len() + numbers.len() + 1) as u64).to_le_bytes());
        let string = |out: &mut Vec<u8>, s: &str| {
            out.extend((s.len() as u64).to_le_bytes());
            out.extend(s.as_bytes());
        };
        for (k, v) in entries {
            string(&mut out, k);
            out.extend(8u32.to_le_bytes());
            string(&mut out, v);
        }
        for (k, v) in numbers {
            string(&mut out, k);
            out.extend(4u32.to_le_bytes());
            out.extend(v.to_le_bytes());
        }
        string(&mut out, "tokenizer.ggml.tokens");
        out.extend(9u32.to_le_bytes());
        out.extend(8u32.to_le_bytes());
        out.extend(3u64.to_le_bytes());
        for t in ["a", "bb", "<s>"] {
            string(&mut out, t);
        }
        out
    }

    fn info_of(bytes: &[u8]) -> Result<GgufInfo> {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("m.gguf");
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{e}"));
        read_info(&path)
    }

    #[test]
    fn header_fields_are_read_and_arrays_skipped() {
        let bytes = tiny_gguf(
            &[("general.architecture", "llama"), ("general.name", "Tiny"), ("general.license", "apache-2.0"), ("tokenizer.chat_template", "{{x}}")],
            &[("general.file_type", 15), ("llama.context_length", 8192)],
        );
        let info = info_of(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(info.architecture.as_deref(), Some("llama"));
        assert_eq!(info.name.as_deref(), Some("Tiny"));
        assert_eq!(info.license.as_deref(), Some("apache-2.0"));
        assert_eq!(info.quantisation.as_deref(), Some("Q4_K_M"));
        assert_eq!(info.context_length, Some(8192));
        assert!(info.has_chat_template);
    }

    #[test]
    fn damaged_and_hostile_headers_are_refused_by_name() {
        let good = tiny_gguf(&[("general.architecture", "llama")], &[]);
        assert!(info_of(b"PK\x03\x04 not a model").unwrap_err().to_string().contains("not a GGUF model file"));
        assert!(info_of(&good[..good.len() - 3]).unwrap_err().to_string().contains("cut short") || info_of(&good[..good.len() - 3]).unwrap_err().to_string().contains("past the end"));
        // A vocabulary that claims 2^60 entries of 8 bytes: refused without allocating.
        let mut huge = b"GGUF".to_vec();
        huge.extend(3u32.to_le_bytes());
        huge.extend(0u64.to_le_bytes());
        huge.extend(1u64.to_le_bytes());
        huge.extend(5u64.to_le_bytes());
        huge.extend(b"a.big");
        huge.extend(9u32.to_le_bytes());
        huge.extend(10u32.to_le_bytes());
        huge.extend((1u64 << 60).to_le_bytes());
        let refused = info_of(&huge).unwrap_err().to_string();
        assert!(refused.contains("past the end") || refused.contains("out of range"), "{refused}");
        let mut many = b"GGUF".to_vec();
        many.extend(3u32.to_le_bytes());
        many.extend(0u64.to_le_bytes());
        many.extend(u64::MAX.to_le_bytes());
        assert!(info_of(&many).unwrap_err().to_string().contains("metadata entries"));
    }
}
