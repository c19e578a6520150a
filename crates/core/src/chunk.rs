//! Document → chunks. A chunk lies within one page, is a byte range of that page's text,
//! and carries the heading path above it. Pages are split at headings, blank lines and table
//! blocks; tables stay whole when they fit; no chunk's embedding text exceeds the embedding
//! model's token limit.

use serde::{Deserialize, Serialize};

use crate::parse::{Document, Format};

/// Counts tokens the way the embedding model will see them.
pub trait TokenCounter {
    /// Tokens of `text` without special tokens.
    fn count(&self, text: &str) -> usize;
}

#[derive(Debug, Clone, Copy)]
pub struct ChunkParams {
    /// Hard limit for title + heading path + text, including the model's two special tokens.
    pub max_tokens: usize,
}

impl Default for ChunkParams {
    fn default() -> Self {
        ChunkParams { max_tokens: 256 }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chunk {
    /// 1-based page number.
    pub page: u32,
    pub byte_start: usize,
    pub byte_end: usize,
    pub heading_path: Vec<String>,
    pub text: String,
    pub digest: String,
    pub token_count: usize,
}

/// What the embedder sees: title and heading path give a passage the context it lacks alone.
pub fn embedding_text(title: &str, heading_path: &[String], text: &str) -> String {
    let mut header = title.to_string();
    for h in heading_path {
        if !header.is_empty() {
            header.push_str(" > ");
        }
        header.push_str(h);
    }
    if header.is_empty() {
        text.to_string()
    } else {
        format!("{header}\n{text}")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Blank,
    Heading(usize),
    Table,
    Text,
}

#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    kind: LineKind,
    tokens: usize,
}

/// A run of lines that should stay together when it fits.
#[derive(Debug, Clone)]
struct Block {
    lines: std::ops::Range<usize>,
    tokens: usize,
    heading: Option<(usize, String)>,
}

/// `label` names the document to the embedder (see `index::document_label`); it counts
/// against the token limit.
pub fn chunk_document(doc: &Document, label: &str, counter: &dyn TokenCounter, params: ChunkParams) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut heading_stack: Vec<(usize, String)> = Vec::new();
    for (page_index, page) in doc.pages.iter().enumerate() {
        let lines = classify_lines(&page.text, doc.format, counter);
        let blocks = group_blocks(&page.text, &lines);
        let page_no = (page_index + 1) as u32;
        let mut current: Vec<Block> = Vec::new();
        let mut current_tokens = 0usize;
        let mut current_path: Vec<String> = path_of(&heading_stack);
        for block in blocks {
            if let Some((level, title)) = &block.heading {
                flush(label, page_no, &page.text, &lines, &mut current, &current_path, counter, params, &mut chunks);
                current_tokens = 0;
                heading_stack.retain(|(l, _)| *l < *level);
                heading_stack.push((*level, title.clone()));
                current_path = path_of(&heading_stack);
            }
            let budget = budget_for(label, &current_path, counter, params);
            let is_table = lines[block.lines.start].kind == LineKind::Table;
            let is_prose = !is_table && block.heading.is_none() && reads_as_prose(&page.text, &lines, &block);
            // Tables and prose go to separate chunks, so a quote from either reads cleanly; the
            // short label lines inside a statement ("Current assets", "Property and equipment")
            // stay with its rows, and the rows of one table fill a chunk instead of making a
            // chunk of every few rows, whose embedding would say little.
            let has_table = current.iter().any(|b| lines[b.lines.start].kind == LineKind::Table);
            let has_prose = current.iter().any(|b| b.heading.is_none() && lines[b.lines.start].kind != LineKind::Table && reads_as_prose(&page.text, &lines, b));
            let kind_changes = (is_table && has_prose) || (is_prose && has_table);
            if !current.is_empty() && (current_tokens + block.tokens > budget || kind_changes) {
                let heading_only = current.len() == 1 && current[0].heading.is_some();
                if !(heading_only && current_tokens + block.tokens <= budget) {
                    // A term line ("work_mem (integer)") names what follows it: it goes with
                    // that, not at the end of the chunk before.
                    let others_remain = current.len() > 1 && current[..current.len() - 1].iter().any(|b| b.heading.is_none());
                    let lead_in = match current.last() {
                        Some(last) if others_remain && is_prose && introduces_next(&page.text, &lines, last) => current.pop(),
                        _ => None,
                    };
                    flush(label, page_no, &page.text, &lines, &mut current, &current_path, counter, params, &mut chunks);
                    current_tokens = 0;
                    if let Some(lead_in) = lead_in {
                        current_tokens = lead_in.tokens;
                        current.push(lead_in);
                    }
                }
            }
            current_tokens += block.tokens;
            current.push(block);
        }
        flush(label, page_no, &page.text, &lines, &mut current, &current_path, counter, params, &mut chunks);
    }
    chunks
}

/// Most tokens a line that introduces the next block may have.
const LEAD_IN_TOKENS: usize = 16;

/// A single short line that ends no sentence (or ends with a colon) and is no table row or
/// heading: a term, a parameter's name and type, a caption, "For example:"; it is about the
/// block after it.
fn introduces_next(text: &str, lines: &[Line], block: &Block) -> bool {
    block.heading.is_none()
        && block.lines.len() == 1
        && block.tokens <= LEAD_IN_TOKENS
        && lines[block.lines.start].kind != LineKind::Table
        && {
            let line = text[lines[block.lines.start].start..lines[block.lines.start].end].trim();
            // A line of code ("UPDATE t SET a = 5;") is an example, not a name for what follows.
            let code = line.contains([';', '=', '{', '}']);
            !code && (!reads_as_prose(text, lines, block) || line.ends_with([':', '：']))
        }
}

/// Sentences, as opposed to a table's label lines: a block with a line that ends a sentence,
/// or a long one.
fn reads_as_prose(text: &str, lines: &[Line], block: &Block) -> bool {
    block.tokens > 40
        || lines[block.lines.clone()]
            .iter()
            .any(|l| text[l.start..l.end].trim_end().ends_with(['.', '!', '?', ':', '。', '！', '？', '：']))
}

fn path_of(stack: &[(usize, String)]) -> Vec<String> {
    stack.iter().map(|(_, t)| t.clone()).collect()
}

fn budget_for(label: &str, path: &[String], counter: &dyn TokenCounter, params: ChunkParams) -> usize {
    let header = counter.count(&embedding_text(label, path, ""));
    // Two special tokens, plus a margin because tokens of joined lines can exceed the sum.
    params.max_tokens.saturating_sub(header + 2 + 8).max(32)
}

#[allow(clippy::too_many_arguments)]
fn flush(
    label: &str,
    page: u32,
    text: &str,
    lines: &[Line],
    blocks: &mut Vec<Block>,
    path: &[String],
    counter: &dyn TokenCounter,
    params: ChunkParams,
    out: &mut Vec<Chunk>,
) {
    if blocks.is_empty() {
        return;
    }
    let first = blocks[0].lines.start;
    let last = blocks[blocks.len() - 1].lines.end;
    blocks.clear();
    let budget = budget_for(label, path, counter, params);
    emit_range(label, page, text, lines, first..last, path, counter, params, budget, out);
}

/// Emits lines[range] as one chunk, or splits it at line (then word) boundaries until every
/// piece fits.
#[allow(clippy::too_many_arguments)]
fn emit_range(
    label: &str,
    page: u32,
    text: &str,
    lines: &[Line],
    range: std::ops::Range<usize>,
    path: &[String],
    counter: &dyn TokenCounter,
    params: ChunkParams,
    budget: usize,
    out: &mut Vec<Chunk>,
) {
    let Some((start, end)) = trimmed_span(text, lines[range.start].start, lines[range.end - 1].end) else {
        return;
    };
    let body = &text[start..end];
    let tokens = counter.count(&embedding_text(label, path, body)) + 2;
    if tokens <= params.max_tokens {
        out.push(make_chunk(page, start, end, path, body, tokens));
        return;
    }
    if range.len() > 1 {
        let split = split_point(lines, range.clone());
        emit_range(label, page, text, lines, range.start..split, path, counter, params, budget, out);
        emit_range(label, page, text, lines, split..range.end, path, counter, params, budget, out);
        return;
    }
    // One line over the limit: cut at whitespace into pieces of about `budget` tokens.
    let mut piece_start = start;
    while piece_start < end {
        let piece_end = cut_at_budget(text, piece_start, end, counter, budget.max(16));
        if let Some((s, e)) = trimmed_span(text, piece_start, piece_end) {
            let body = &text[s..e];
            let tokens = counter.count(&embedding_text(label, path, body)) + 2;
            out.push(make_chunk(page, s, e, path, body, tokens));
        }
        piece_start = piece_end;
    }
}

/// Prefers a line that ends a sentence near the middle of the range.
fn split_point(lines: &[Line], range: std::ops::Range<usize>) -> usize {
    let total: usize = lines[range.clone()].iter().map(|l| l.tokens).sum();
    let mut acc = 0;
    let mut middle = range.start + 1;
    for i in range.clone() {
        acc += lines[i].tokens;
        if acc * 2 >= total {
            middle = (i + 1).clamp(range.start + 1, range.end - 1);
            break;
        }
    }
    middle
}

fn cut_at_budget(text: &str, start: usize, end: usize, counter: &dyn TokenCounter, budget: usize) -> usize {
    // Roughly 3 bytes per token for English; then shrink until it fits.
    let mut cut = (start + budget * 3).min(end);
    loop {
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        if cut < end {
            // Prefer the end of a sentence in the second half of the window (CJK text has no
            // spaces to cut at), then a space.
            let window = &text[start..cut];
            let sentence_end = window
                .char_indices()
                .filter(|&(i, c)| matches!(c, '。' | '！' | '？' | '；') || (matches!(c, '.' | '!' | '?') && window[i + 1..].starts_with(' ')))
                .map(|(i, c)| i + c.len_utf8())
                .filter(|&i| i * 2 >= window.len())
                .last();
            if let Some(at) = sentence_end {
                cut = start + at;
            } else if let Some(ws) = window.rfind(char::is_whitespace) {
                if ws > 0 {
                    cut = start + ws;
                }
            }
        }
        if cut <= start + 1 || counter.count(&text[start..cut]) <= budget {
            return cut.max(start + text[start..].chars().next().map_or(1, char::len_utf8));
        }
        cut = start + (cut - start) * 3 / 4;
    }
}

fn trimmed_span(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let slice = &text[start..end];
    let lead = slice.len() - slice.trim_start().len();
    let trail = slice.len() - slice.trim_end().len();
    let (s, e) = (start + lead, end - trail);
    (s < e && text[s..e].chars().any(char::is_alphanumeric)).then_some((s, e))
}

/// A passage's identity by content: equal text, equal digest, whichever file or page it is
/// in (vectors are reused by it when content moves).
pub fn digest(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex()[..16].to_string()
}

fn make_chunk(page: u32, start: usize, end: usize, path: &[String], body: &str, tokens: usize) -> Chunk {
    Chunk {
        page,
        byte_start: start,
        byte_end: end,
        heading_path: path.to_vec(),
        text: body.to_string(),
        digest: digest(body),
        token_count: tokens,
    }
}

fn classify_lines(text: &str, format: Format, counter: &dyn TokenCounter) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut offset = 0;
    let mut in_code = false;
    for raw in text.split('\n') {
        let start = offset;
        let end = offset + raw.len();
        offset = end + 1;
        let t = raw.trim();
        let kind = if t.is_empty() {
            LineKind::Blank
        } else if format != Format::Pdf && format != Format::Text {
            if t.starts_with("```") {
                in_code = !in_code;
                LineKind::Text
            } else if in_code {
                LineKind::Text
            } else if let Some(level) = markdown_heading_level(t) {
                LineKind::Heading(level)
            } else if t.starts_with('|') {
                LineKind::Table
            } else {
                LineKind::Text
            }
        } else if looks_numeric(t) {
            LineKind::Table
        } else if looks_like_heading(t) {
            LineKind::Heading(1)
        } else {
            LineKind::Text
        };
        let tokens = if t.is_empty() { 0 } else { counter.count(t) };
        lines.push(Line { start, end, kind, tokens });
    }
    mark_table_labels(&mut lines, text);
    lines
}

/// In PDF tables each cell tends to land on its own line; a short label between numeric lines
/// is part of the table.
fn mark_table_labels(lines: &mut [Line], text: &str) {
    let numeric: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].kind == LineKind::Table).collect();
    for pair in numeric.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if b - a > 1 && b - a <= 4 {
            let short = (a + 1..b).all(|i| {
                let l = lines[i];
                matches!(l.kind, LineKind::Text) && text[l.start..l.end].trim().len() <= 90
            });
            if short {
                for l in &mut lines[a + 1..b] {
                    l.kind = LineKind::Table;
                }
            }
        }
    }
    // The row label or caption just above the first figures belongs to the table.
    for i in 1..lines.len() {
        if lines[i].kind == LineKind::Table && lines[i - 1].kind != LineKind::Table {
            for j in (i.saturating_sub(2)..i).rev() {
                let l = lines[j];
                let t = text[l.start..l.end].trim();
                if l.kind == LineKind::Text && !t.is_empty() && t.len() <= 60 && !t.ends_with('.') {
                    lines[j].kind = LineKind::Table;
                } else {
                    break;
                }
            }
        }
    }
    // A lone numeric line inside prose is not a table.
    for i in 0..lines.len() {
        if lines[i].kind == LineKind::Table {
            let prev = i > 0 && lines[i - 1].kind == LineKind::Table;
            let next = i + 1 < lines.len() && lines[i + 1].kind == LineKind::Table;
            if !prev && !next {
                lines[i].kind = LineKind::Text;
            }
        }
    }
}

fn group_blocks(text: &str, lines: &[Line]) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let kind = lines[i].kind;
        if kind == LineKind::Blank {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if let LineKind::Heading(level) = kind {
            let title = text[lines[start].start..lines[start].end].trim().trim_start_matches('#').trim();
            blocks.push(Block {
                lines: start..i,
                tokens: lines[start].tokens,
                heading: Some((level, title.chars().take(120).collect())),
            });
            continue;
        }
        while i < lines.len() && lines[i].kind == kind {
            i += 1;
        }
        let tokens = lines[start..i].iter().map(|l| l.tokens).sum();
        blocks.push(Block { lines: start..i, tokens, heading: None });
    }
    blocks
}

fn markdown_heading_level(t: &str) -> Option<usize> {
    let hashes = t.chars().take_while(|&c| c == '#').count();
    ((1..=6).contains(&hashes) && t[hashes..].starts_with(' ')).then_some(hashes)
}

fn is_number_token(w: &str) -> bool {
    let core = w.trim_matches(|c: char| "$€£%()[],.;:*—–-".contains(c));
    !core.is_empty() && core.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '.')
}

/// A table cell or row: mostly figures ("$", "1,875", "(862)", "12.5%", "2023 2022").
fn looks_numeric(t: &str) -> bool {
    let words: Vec<&str> = t.split_whitespace().collect();
    let numbers = words.iter().filter(|w| is_number_token(w)).count();
    let symbols = words.iter().filter(|w| matches!(**w, "$" | "€" | "£" | "%" | "—" | "–" | "-")).count();
    !words.is_empty() && (numbers + symbols) * 2 >= words.len() && (numbers > 0 || symbols == words.len())
}

fn looks_like_heading(t: &str) -> bool {
    let chars = t.chars().count();
    if !(3..=80).contains(&chars) || t.ends_with(['.', ',', ';', ':']) {
        return false;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() > 10 || !t.chars().any(char::is_alphabetic) {
        return false;
    }
    let letters: Vec<char> = t.chars().filter(|c| c.is_alphabetic()).collect();
    let all_caps = letters.len() >= 4 && letters.iter().all(|c| c.is_uppercase());
    let numbered = words[0].trim_end_matches('.').split('.').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        && words.len() > 1;
    let small = ["and", "of", "the", "in", "for", "to", "a", "an", "on", "or", "with", "by", "&"];
    let content: Vec<&&str> = words.iter().filter(|w| !small.contains(&w.to_lowercase().as_str())).collect();
    let capitalised = content.iter().filter(|w| w.chars().next().is_some_and(char::is_uppercase)).count();
    let title_case = words.len() >= 2 && !content.is_empty() && capitalised == content.len();
    all_caps || numbered || title_case
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Page;

    /// Whitespace words stand in for a tokenizer in these unit tests.
    struct Words;
    impl TokenCounter for Words {
        fn count(&self, text: &str) -> usize {
            text.split_whitespace().count()
        }
    }

    fn doc(format: Format, pages: &[&str]) -> Document {
        Document {
            format,
            title: "T".into(),
            pages: pages.iter().map(|p| Page { text: p.to_string() }).collect(),
        }
    }

    fn check_invariants(d: &Document, chunks: &[Chunk], max: usize) {
        for c in chunks {
            let page = &d.pages[(c.page - 1) as usize].text;
            assert!(c.byte_start < c.byte_end && c.byte_end <= page.len());
            assert_eq!(&page[c.byte_start..c.byte_end], c.text);
            assert!(!c.text.trim().is_empty());
            assert!(c.token_count <= max, "{} > {max}", c.token_count);
        }
    }

    #[test]
    fn splits_at_headings_and_keeps_markdown_path() {
        let d = doc(Format::Markdown, &["# Guide\nintro text\n## Costs\nmeals are cheap\n### Travel\ntrains only"]);
        let chunks = chunk_document(&d, "T", &Words, ChunkParams::default());
        check_invariants(&d, &chunks, 256);
        let paths: Vec<Vec<String>> = chunks.iter().map(|c| c.heading_path.clone()).collect();
        assert_eq!(paths, vec![vec!["Guide".to_string()], vec!["Guide".into(), "Costs".into()], vec!["Guide".into(), "Costs".into(), "Travel".into()]]);
        assert!(chunks[2].text.contains("trains only"));
    }

    #[test]
    fn table_stays_whole_and_separate() {
        let page = "Some prose here about revenue.\nMore prose.\nRevenue\n$\n1,200\n$\n1,100\nCosts\n(300)\n(250)\nAfter the table prose.";
        let d = doc(Format::Pdf, &[page]);
        let chunks = chunk_document(&d, "T", &Words, ChunkParams::default());
        check_invariants(&d, &chunks, 256);
        let table = chunks.iter().find(|c| c.text.contains("1,200")).expect("table chunk");
        assert!(table.text.contains("(250)") && table.text.contains("Revenue"));
        assert!(!table.text.contains("After the table"));
    }

    #[test]
    fn a_statement_with_label_lines_is_one_chunk() {
        let page = "Balance sheet\nCurrent assets\nCash 1,980 1,101\nInventories 5,409 5,209\nTotal current assets 8,870 9,829\nProperty and equipment\nLand 637 623\nTotal assets 12,901 13,049\nThe notes are part of these statements.";
        let d = doc(Format::Pdf, &[page]);
        let chunks = chunk_document(&d, "T", &Words, ChunkParams::default());
        check_invariants(&d, &chunks, 256);
        let table = chunks.iter().find(|c| c.text.contains("Inventories")).expect("table chunk");
        assert!(table.text.contains("Land 637") && table.text.contains("Cash 1,980"), "{:?}", chunks.iter().map(|c| &c.text).collect::<Vec<_>>());
        assert!(!table.text.contains("notes are part"));
    }

    #[test]
    fn a_term_line_goes_with_the_text_it_names() {
        let description = |what: &str| format!("Sets the {what} used by each operation. {}", "More words about the setting follow here. ".repeat(5));
        let page = format!(
            "## Memory\n\nshared_buffers (integer)\n\n{}\n\nhuge_pages (enum)\n\n{}\n\nFor example:\n\n{}\n\nUPDATE t SET a = 5;\n\n{}\n",
            description("shared memory"),
            description("huge pages"),
            description("example value"),
            description("last value")
        );
        let d = doc(Format::Html, &[&page]);
        let chunks = chunk_document(&d, "T", &Words, ChunkParams { max_tokens: 70 });
        check_invariants(&d, &chunks, 70);
        let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
        assert!(texts.iter().any(|t| t.starts_with("huge_pages (enum)\n\nSets the huge pages")), "{texts:?}");
        assert!(texts.iter().any(|t| t.starts_with("For example:\n\nSets the example value")), "{texts:?}");
        assert!(texts.iter().all(|t| !t.ends_with("(enum)") && !t.ends_with("example:")), "{texts:?}");
        // A line of code is an example of what came before.
        assert!(texts.iter().any(|t| t.starts_with("Sets the last value")), "{texts:?}");
    }

    #[test]
    fn long_text_is_split_under_the_limit_and_deterministic() {
        let long: String = (0..2000).map(|i| format!("word{i} ")).collect();
        let page = format!("Heading Of Page\n{long}\nshort line.\n{long}");
        let d = doc(Format::Pdf, &[&page, "second page text"]);
        let a = chunk_document(&d, "T", &Words, ChunkParams { max_tokens: 100 });
        let b = chunk_document(&d, "T", &Words, ChunkParams { max_tokens: 100 });
        assert_eq!(a, b);
        check_invariants(&d, &a, 100);
        assert!(a.len() > 40);
        assert_eq!(a.last().map(|c| c.page), Some(2));
    }
}
