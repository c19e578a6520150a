//! Text bytes → `String`. A byte-order mark decides (UTF-8, UTF-16 LE/BE); otherwise valid
//! UTF-8 is UTF-8; otherwise the encoding the file declares (HTML `<meta charset>`, an XML
//! declaration) if it names one; otherwise the encoding `chardetng` finds most likely (the
//! detector Firefox uses: GB18030, Big5, Shift-JIS, EUC-KR, Windows-125x, …). A file that still
//! decodes to many replacement characters is refused rather than indexed as garbage.

use chardetng::EncodingDetector;
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

use super::ParseFailure;

/// Above this share of undecodable or control characters the guess is wrong or the file is
/// not text.
const MAX_IMPLAUSIBLE_SHARE: f64 = 0.02;
/// Declarations are looked for this far into the file, as browsers do.
const DECLARATION_WINDOW: usize = 1024;

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
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Ok((s.to_string(), "UTF-8"));
    }
    let encoding = declared_encoding(bytes).unwrap_or_else(|| {
        let mut detector = EncodingDetector::new();
        detector.feed(bytes, true);
        detector.guess(None, false)
    });
    let (text, _, _) = encoding.decode(bytes);
    let total = text.chars().count().max(1);
    let implausible = text.chars().filter(|&c| implausible_in_text(c)).count();
    if implausible as f64 / total as f64 > MAX_IMPLAUSIBLE_SHARE {
        return Err(format!(
            "cannot tell the text encoding: read as {}, {implausible} of {total} characters are undecodable or control characters",
            encoding.name()
        ));
    }
    Ok((text.into_owned(), encoding.name()))
}

/// Single-byte encodings decode every byte to something, so a wrong guess shows as control
/// characters rather than as replacement characters.
fn implausible_in_text(c: char) -> bool {
    c == '\u{FFFD}' || (c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c'))
}

/// The encoding a file names for itself near its start: `<meta charset="…">`,
/// `<meta http-equiv="Content-Type" content="…; charset=…">` or `<?xml … encoding="…"?>`.
/// Declarations of UTF-16 are ignored (the bytes were not UTF-16, or a mark would have said so).
fn declared_encoding(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(DECLARATION_WINDOW)]).to_ascii_lowercase();
    let label = ["charset=", "encoding="].iter().find_map(|key| {
        let at = head.find(key)? + key.len();
        let value = head[at..].trim_start_matches(['"', '\'', ' ']);
        let end = value.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == ':' || c == '.')).unwrap_or(value.len());
        Some(value[..end].to_string())
    })?;
    let encoding = Encoding::for_label(label.as_bytes())?;
    (encoding != UTF_16LE && encoding != UTF_16BE).then_some(encoding)
}

#[cfg(test)]
mod tests {
    use encoding_rs::{BIG5, EUC_KR, GB18030, SHIFT_JIS};

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

    const ZH_HANS: &str = "客服团队在客户投诉后三十分钟内更新了标准作业流程，错误率从百分之三十八降到了百分之一点二。";
    const ZH_HANT: &str = "客服團隊在客戶投訴後三十分鐘內更新了標準作業流程，錯誤率從百分之三十八降到了百分之一點二。";

    #[test]
    fn east_asian_legacy_encodings_are_detected() {
        let (gb, _, _) = GB18030.encode(ZH_HANS);
        let (text, name) = decode_text(&gb).unwrap();
        assert_eq!(text, ZH_HANS);
        assert!(name == "GBK" || name == "gb18030", "{name}");
        let (big5, _, _) = BIG5.encode(ZH_HANT);
        assert_eq!(decode_text(&big5).unwrap(), (ZH_HANT.to_string(), "Big5"));
        let ja = "会議の議事録：新しい手順は三月に導入され、問い合わせへの回答時間が半分になりました。";
        let (sjis, _, _) = SHIFT_JIS.encode(ja);
        assert_eq!(decode_text(&sjis).unwrap(), (ja.to_string(), "Shift_JIS"));
        let ko = "회의록: 새로운 절차는 삼월에 도입되었고 문의에 대한 응답 시간이 절반으로 줄었습니다.";
        let (euc_kr, _, _) = EUC_KR.encode(ko);
        assert_eq!(decode_text(&euc_kr).unwrap(), (ko.to_string(), "EUC-KR"));
    }

    #[test]
    fn a_declared_charset_wins_over_the_guess() {
        let page = format!("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gbk\"></head><body><p>{ZH_HANS}</p></body></html>");
        let (bytes, _, _) = GB18030.encode(&page);
        assert_eq!(decode_text(&bytes).unwrap(), (page.clone(), "GBK"));
        let xml = format!("<?xml version=\"1.0\" encoding=\"Big5\"?><doc>{ZH_HANT}</doc>");
        let (bytes, _, _) = BIG5.encode(&xml);
        assert_eq!(decode_text(&bytes).unwrap(), (xml, "Big5"));
        // A declaration of an encoding the bytes cannot be (UTF-16 without a mark) is ignored.
        let utf16_claim = page.replace("charset=gbk", "charset=utf-16");
        let (bytes, _, _) = GB18030.encode(&utf16_claim);
        assert_eq!(decode_text(&bytes).unwrap().0, utf16_claim);
    }

    #[test]
    fn bytes_that_decode_to_garbage_are_refused() {
        // Random bytes without NUL (so not caught as binary): no encoding reads them as text.
        let mut state = 0x2545_f491_u32;
        let noise: Vec<u8> = (0..4000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state % 255) as u8 + 1
            })
            .collect();
        let refused = decode_text(&noise).unwrap_err();
        assert!(refused.contains("cannot tell the text encoding"), "{refused}");
    }
}
