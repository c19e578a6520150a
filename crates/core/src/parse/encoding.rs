//! Text bytes → `String`: a byte-order mark decides (UTF-8, UTF-16 LE/BE); otherwise valid
//! UTF-8 is UTF-8, and anything else is read as Windows-1252, the legacy encoding most text
//! files that are not UTF-8 turn out to use (it is also a superset of Latin-1's printables).

use encoding_rs::{UTF_16BE, UTF_16LE, WINDOWS_1252};

use super::ParseFailure;

/// The decoded text and the name of the encoding it was read as.
pub fn decode_text(bytes: &[u8]) -> Result<(String, &'static str), ParseFailure> {
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return std::str::from_utf8(rest).map(|s| (s.to_string(), "UTF-8")).map_err(|e| format!("invalid UTF-8 after its byte-order mark: {e}"));
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        let (text, had_errors) = UTF_16LE.decode_without_bom_handling(rest);
        return if had_errors { Err("invalid UTF-16 (little-endian) text".into()) } else { Ok((text.into_owned(), "UTF-16LE")) };
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        let (text, had_errors) = UTF_16BE.decode_without_bom_handling(rest);
        return if had_errors { Err("invalid UTF-16 (big-endian) text".into()) } else { Ok((text.into_owned(), "UTF-16BE")) };
    }
    // NUL bytes without a UTF-16 mark: binary data, not text.
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Err("binary file (contains NUL bytes), not text".into());
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok((s.to_string(), "UTF-8")),
        Err(_) => {
            let (text, _, _) = WINDOWS_1252.decode(bytes);
            Ok((text.into_owned(), "windows-1252"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_boms_utf8_and_falls_back_to_windows_1252() {
        assert_eq!(decode_text("naïve".as_bytes()).unwrap(), ("naïve".into(), "UTF-8"));
        assert_eq!(decode_text(b"\xEF\xBB\xBFhi").unwrap(), ("hi".into(), "UTF-8"));
        let utf16le: Vec<u8> = [0xFF, 0xFE].into_iter().chain("Grüße".encode_utf16().flat_map(|u| u.to_le_bytes())).collect();
        assert_eq!(decode_text(&utf16le).unwrap(), ("Grüße".into(), "UTF-16LE"));
        let utf16be: Vec<u8> = [0xFE, 0xFF].into_iter().chain("Grüße".encode_utf16().flat_map(|u| u.to_be_bytes())).collect();
        assert_eq!(decode_text(&utf16be).unwrap(), ("Grüße".into(), "UTF-16BE"));
        // "café – “quoted”" in Windows-1252: é, en dash and curly quotes.
        assert_eq!(decode_text(b"caf\xe9 \x96 \x93quoted\x94").unwrap(), ("café – “quoted”".into(), "windows-1252"));
        assert!(decode_text(b"\x00\x01\x02binary").unwrap_err().contains("binary"));
    }
}
