//! Text for pages that have none: scanned pages are read by Tesseract (Debian's
//! `tesseract-ocr`, run as a program so a crash in it costs one page). Words come back with
//! their boxes, so a citation on a scanned page can still be highlighted.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use crate::text::is_cjk;

/// The resolution pages are rendered at for recognition; Tesseract reads body text best at
/// about 300 dpi.
pub const OCR_DPI: u32 = 300;
/// Words Tesseract is less sure of than this (0–100) are dropped: on clean scans real words
/// score above 80, while the marks it reads into lines and pictures score below 30.
const MIN_CONFIDENCE: f32 = 30.0;
/// Languages used when their data is installed, in this order.
const LANGUAGES: [&str; 4] = ["eng", "chi_sim", "chi_tra", "jpn"];

/// One recognised word; the box is in pixels of the image, origin top-left.
#[derive(Debug, Clone, PartialEq)]
pub struct OcrWord {
    pub text: String,
    pub left: u32,
    pub top: u32,
    pub width: u32,
    pub height: u32,
    /// Block, paragraph and line numbers: words with the same triple share a line.
    pub line: (u32, u32, u32),
}

/// The Tesseract program and the languages it has data for.
#[derive(Debug, Clone)]
pub struct Tesseract {
    program: PathBuf,
    languages: String,
}

/// Tesseract as installed (`PAGEWISE_TESSERACT` names another program), or `None`.
pub fn tesseract() -> Option<&'static Tesseract> {
    static FOUND: OnceLock<Option<Tesseract>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let named = std::env::var_os("PAGEWISE_TESSERACT").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("tesseract"));
            // The full path: the worker's sandbox lets this one program run, and no other.
            let program = on_path(&named)?;
            let listed = Command::new(&program).arg("--list-langs").stderr(Stdio::null()).output().ok()?;
            let installed = String::from_utf8_lossy(&listed.stdout).into_owned();
            let have: Vec<&str> = LANGUAGES.iter().copied().filter(|l| installed.lines().any(|x| x.trim() == *l)).collect();
            (!have.is_empty()).then(|| Tesseract { program, languages: have.join("+") })
        })
        .as_ref()
}

/// `name` as a full path: itself when it names a directory, else the first match on `PATH`.
fn on_path(name: &Path) -> Option<PathBuf> {
    if name.components().count() > 1 {
        return name.canonicalize().ok();
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(name)).find(|p| p.is_file()).and_then(|p| p.canonicalize().ok())
}

impl Tesseract {
    /// The program's full path.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// Recognises the words of an 8-bit grayscale image `width` × `height` rendered at `dpi`.
    pub fn recognise(&self, gray: &[u8], width: u32, height: u32, dpi: u32) -> Result<Vec<OcrWord>, String> {
        let mut image = format!("P5\n{width} {height}\n255\n").into_bytes();
        image.extend_from_slice(gray);
        let mut command = Command::new(&self.program);
        // Tesseract needs only its language data; the session's sockets and keys stay here.
        command.env_clear();
        if let Some(data) = std::env::var_os("TESSDATA_PREFIX") {
            command.env("TESSDATA_PREFIX", data);
        }
        let mut child = command
            .args(["-", "-", "-l", &self.languages, "--dpi", &dpi.to_string(), "tsv"])
            // Tesseract's OpenMP threads fight each other on few cores: a dense 300 dpi page
            // took 26 s with its default threads and 6.4 s with one on a 2-core laptop.
            // Pages are read in parallel by the parsing lanes instead.
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.program.display()))?;
        // Write on a thread: Tesseract may start answering before it has read everything.
        let mut stdin = child.stdin.take().ok_or("tesseract has no stdin")?;
        let feeder = std::thread::spawn(move || stdin.write_all(&image));
        let output = child.wait_with_output().map_err(|e| format!("tesseract: {e}"))?;
        let _ = feeder.join();
        if !output.status.success() {
            return Err(format!("tesseract failed ({})", output.status));
        }
        Ok(parse_tsv(&String::from_utf8_lossy(&output.stdout)))
    }
}

/// Tesseract's TSV: level, page, block, paragraph, line, word, left, top, width, height,
/// confidence, text. Level 5 rows are words.
fn parse_tsv(tsv: &str) -> Vec<OcrWord> {
    let mut words = Vec::new();
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.splitn(12, '\t').collect();
        if cols.len() < 12 || cols[0] != "5" {
            continue;
        }
        let text = cols[11].trim();
        let confidence: f32 = cols[10].parse().unwrap_or(0.0);
        // Specks, rules and pictures come back as low-confidence strings of marks.
        if confidence < MIN_CONFIDENCE || !text.chars().any(char::is_alphanumeric) {
            continue;
        }
        let n = |i: usize| cols[i].parse::<u32>().unwrap_or(0);
        words.push(OcrWord { text: text.to_string(), left: n(6), top: n(7), width: n(8), height: n(9), line: (n(2), n(3), n(4)) });
    }
    words
}

/// The page text from its words: lines as lines, paragraphs apart, and no space put between
/// two CJK words (Tesseract splits Chinese into single characters or short runs).
pub fn page_text(words: &[OcrWord]) -> String {
    let mut text = String::new();
    let mut previous: Option<&OcrWord> = None;
    for word in words {
        if let Some(p) = previous {
            if p.line != word.line {
                text.push_str(if (p.line.0, p.line.1) != (word.line.0, word.line.1) { "\n\n" } else { "\n" });
            } else if !(p.text.chars().last().is_some_and(is_cjk) && word.text.chars().next().is_some_and(is_cjk)) {
                text.push(' ');
            }
        }
        text.push_str(&word.text);
        previous = Some(word);
    }
    text
}

/// A recognised character with its box in page points (PDF coordinates: y grows upwards),
/// a word's width shared evenly among its characters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OcrChar {
    pub ch: char,
    pub left: f32,
    pub bottom: f32,
    pub right: f32,
    pub top: f32,
}

pub fn char_boxes(words: &[OcrWord], dpi: u32, page_height_pt: f32) -> Vec<OcrChar> {
    let scale = 72.0 / dpi as f32;
    let mut out = Vec::new();
    for w in words {
        let chars: Vec<char> = w.text.chars().collect();
        let each = w.width as f32 / chars.len().max(1) as f32;
        let top = page_height_pt - w.top as f32 * scale;
        let bottom = page_height_pt - (w.top + w.height) as f32 * scale;
        for (i, ch) in chars.into_iter().enumerate() {
            let left = (w.left as f32 + each * i as f32) * scale;
            out.push(OcrChar { ch, left, bottom, right: left + each * scale, top });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSV: &str = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
1\t1\t0\t0\t0\t0\t0\t0\t2550\t3300\t-1\t
5\t1\t1\t1\t1\t1\t300\t400\t200\t50\t96.5\tInstalled
5\t1\t1\t1\t1\t2\t520\t400\t180\t50\t95.1\tcapacity:
5\t1\t1\t1\t2\t1\t300\t470\t120\t50\t91.0\t5,000
5\t1\t1\t1\t2\t2\t430\t470\t60\t50\t90.0\tkW
5\t1\t1\t1\t2\t3\t500\t470\t90\t50\t12.0\t=~-
5\t1\t1\t1\t2\t4\t600\t470\t90\t50\t91.0\t——
5\t1\t2\t1\t1\t1\t300\t700\t60\t50\t88.0\t错误
5\t1\t2\t1\t1\t2\t360\t700\t30\t50\t87.0\t率
5\t1\t2\t1\t1\t3\t390\t700\t30\t50\t87.0\t \n";

    #[test]
    fn words_lines_and_paragraphs_come_back_from_the_tsv() {
        let words = parse_tsv(TSV);
        assert_eq!(words.len(), 6, "the empty word, the unsure one and the marks are dropped");
        assert_eq!(page_text(&words), "Installed capacity:\n5,000 kW\n\n错误率");
        let chars = char_boxes(&words[..1], 300, 792.0);
        assert_eq!(chars.len(), 9);
        assert_eq!(chars[0].ch, 'I');
        assert!((chars[0].left - 72.0).abs() < 0.01, "300 px at 300 dpi is one inch");
        assert!((chars[0].top - (792.0 - 96.0)).abs() < 0.01);
        assert!(chars[8].right <= (300.0 + 200.0) * 72.0 / 300.0 + 0.01);
    }
}
