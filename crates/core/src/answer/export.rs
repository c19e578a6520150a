//! An answer as the user takes it away: Markdown with numbered sources, and its provenance
//! as CSV (one row per cited claim). Works on stored answers (the JSON of a conversation
//! turn), so an answer from last week exports the same as one from now.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::outcome::Answer;
use crate::error::{Error, Result};
use crate::span::Span;

#[derive(Debug, Clone, Deserialize)]
pub struct CitationRecord {
    pub doc_path: PathBuf,
    pub doc_title: String,
    #[serde(flatten)]
    pub span: Span,
    pub chunk_id: i64,
    pub quote: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SentenceRecord {
    pub text: String,
    #[serde(default)]
    pub status: String,
    #[serde(default)]
    pub citations: Vec<CitationRecord>,
}

/// The parts of a stored [`super::Answer`] that exporting needs.
#[derive(Debug, Clone, Deserialize)]
pub struct AnswerRecord {
    pub question: String,
    pub answer: String,
    #[serde(default)]
    pub sentences: Vec<SentenceRecord>,
    #[serde(default)]
    pub citations: Vec<CitationRecord>,
    #[serde(default)]
    pub abstained: bool,
    pub model: Option<String>,
}

impl AnswerRecord {
    /// The citation of passage `chunk_id` in this answer, wherever it is cited.
    pub fn citation_of(&self, chunk_id: i64) -> Option<&CitationRecord> {
        self.sentences.iter().flat_map(|s| &s.citations).chain(&self.citations).find(|c| c.chunk_id == chunk_id)
    }

    /// The record of a stored turn's answer; a turn whose answer could not be read has none.
    pub fn of(answer: Option<&Answer>) -> Result<AnswerRecord> {
        let answer = answer.ok_or_else(|| Error::AnswerRecord("the stored answer of this turn cannot be read".into()))?;
        let value = serde_json::to_value(answer).map_err(|e| Error::AnswerRecord(e.to_string()))?;
        AnswerRecord::from_json(&value)
    }

    pub fn from_json(value: &serde_json::Value) -> Result<AnswerRecord> {
        serde_json::from_value(value.clone())
            .map_err(|e| Error::Eval { path: PathBuf::from("stored answer"), message: e.to_string() })
    }

    /// The sentences with their citations; an answer without sentence records is one sentence.
    fn claims(&self) -> Vec<SentenceRecord> {
        if self.sentences.is_empty() {
            vec![SentenceRecord { text: self.answer.clone(), status: String::new(), citations: self.citations.clone() }]
        } else {
            self.sentences.clone()
        }
    }
}

/// Numbers sources in order of first citation; the same passage always gets the same number.
fn number_sources(claims: &[SentenceRecord]) -> (Vec<&CitationRecord>, HashMap<(PathBuf, u32, usize), usize>) {
    let mut order = Vec::new();
    let mut numbers = HashMap::new();
    for c in claims.iter().flat_map(|s| &s.citations) {
        let key = (c.doc_path.clone(), c.span.page, c.span.byte_start);
        if !numbers.contains_key(&key) {
            order.push(c);
            numbers.insert(key, order.len());
        }
    }
    (order, numbers)
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Characters that make Markdown (CommonMark with GitHub's tables and strikethrough) do
/// something: links, images, raw HTML, emphasis, code, headings, tables.
const MARKDOWN_ACTIVE: &[char] = &['\\', '`', '*', '_', '[', ']', '(', ')', '!', '<', '>', '#', '|', '~'];

/// Text from documents or a model, on one line, as literal Markdown text: a quote holding
/// `![x](http://…)` or `<img src=…>` would otherwise fetch an image when the export is viewed.
fn literal(text: &str) -> String {
    let line = one_line(text);
    let mut out = String::with_capacity(line.len() + line.len() / 8);
    for c in line.chars() {
        if MARKDOWN_ACTIVE.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Escaped text that begins a line: there a leading `-`, `+` or `1.` would start a list.
fn literal_at_line_start(escaped: String) -> String {
    if escaped.starts_with(['-', '+']) {
        return format!("\\{escaped}");
    }
    let digits = escaped.len() - escaped.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && escaped[digits..].starts_with('.') {
        return format!("{}\\{}", &escaped[..digits], &escaped[digits..]);
    }
    escaped
}

/// A code span that holds `text` whatever backticks it contains: the fence is one backtick
/// longer than its longest run inside.
fn code_span(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

pub fn to_markdown(answer: &AnswerRecord) -> String {
    let claims = answer.claims();
    let (order, numbers) = number_sources(&claims);
    let mut out = format!("## {}\n\n", literal(&answer.question));
    let body: Vec<String> = claims.iter().map(|s| claim_markdown(s, &numbers)).collect();
    out.push_str(&literal_at_line_start(body.join(" ")));
    out.push_str("\n\n");
    if !order.is_empty() {
        out.push_str("### Sources\n\n");
        for (i, c) in order.iter().enumerate() {
            out.push_str(&format!(
                "{}. {} — {}, page {}: “{}”\n",
                i + 1,
                literal(&c.doc_title),
                code_span(&c.doc_path.display().to_string()),
                c.span.page,
                literal(&c.quote)
            ));
        }
    }
    if let Some(model) = &answer.model {
        out.push_str(&format!("\n*Answered by {} with Pagewise.*\n", literal(model)));
    }
    out
}

/// One claim, escaped, with the numbers of its sources and a note when nothing supports it.
fn claim_markdown(s: &SentenceRecord, numbers: &HashMap<(PathBuf, u32, usize), usize>) -> String {
    let mut refs: Vec<usize> = s.citations.iter().filter_map(|c| numbers.get(&(c.doc_path.clone(), c.span.page, c.span.byte_start)).copied()).collect();
    refs.dedup();
    let marks: String = refs.iter().map(|n| format!("[{n}]")).collect();
    let flag = if s.status == "unsupported" { " *(not supported by the sources)*" } else { "" };
    format!("{}{}{flag}", literal(&s.text), if marks.is_empty() { String::new() } else { format!(" {marks}") })
}

/// A CSV cell. One that starts like a formula (=, +, -, @, tab, carriage return) gets a
/// leading apostrophe: claims and quotes come from documents and models, and a spreadsheet
/// would otherwise run `=HYPERLINK(…)` or `=cmd|…` when the export is opened.
pub(crate) fn csv_field(text: &str) -> String {
    // A plain negative number ("-2980") is a figure, not a formula: left for the sheet to read.
    let formula_like = text.starts_with(['=', '+', '-', '@', '\t', '\r']) && text.parse::<f64>().is_err();
    let text = if formula_like { format!("'{text}") } else { text.to_string() };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// One row per (claim, citation): question, claim, file, page, byte range, the cited file's
/// content hash, model and index version. Uncited claims get a row with empty source fields.
pub fn provenance_csv(answer: &AnswerRecord, index_version: &str, content_hash_of: &dyn Fn(&Path) -> Option<String>) -> String {
    let mut out = String::from("question,claim,file,page,byte_start,byte_end,content_hash,model,index_version\n");
    let model = answer.model.clone().unwrap_or_else(|| "none (extractive)".into());
    for s in answer.claims() {
        let claim = one_line(&s.text);
        if s.citations.is_empty() {
            let row = [one_line(&answer.question), claim.clone(), String::new(), String::new(), String::new(), String::new(), String::new(), model.clone(), index_version.to_string()];
            out.push_str(&row.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
        for c in &s.citations {
            let row = [
                one_line(&answer.question),
                claim.clone(),
                c.doc_path.display().to_string(),
                c.span.page.to_string(),
                c.span.byte_start.to_string(),
                c.span.byte_end.to_string(),
                content_hash_of(&c.doc_path).unwrap_or_default(),
                model.clone(),
                index_version.to_string(),
            ];
            out.push_str(&row.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(","));
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> AnswerRecord {
        AnswerRecord::from_json(&serde_json::json!({
            "question": "How big is the pilot?",
            "answer": "It stores 4 MWh. It serves 300 homes.",
            "abstained": false,
            "model": "SmolLM2",
            "sentences": [
                {"text": "It stores 4 MWh.", "status": "kept", "citations": [
                    {"doc_path": "/d/a.pdf", "doc_title": "Field guide", "page": 3, "chunk_id": 7, "byte_start": 10, "byte_end": 40, "quote": "stores \"4 MWh\", a lot"}]},
                {"text": "It serves 300 homes.", "status": "unsupported", "citations": []},
                {"text": "Again 4 MWh.", "status": "attached", "citations": [
                    {"doc_path": "/d/a.pdf", "doc_title": "Field guide", "page": 3, "chunk_id": 7, "byte_start": 10, "byte_end": 40, "quote": "stores \"4 MWh\", a lot"}]}
            ],
            "citations": []
        }))
        .unwrap()
    }

    #[test]
    fn markdown_numbers_each_source_once_and_flags_unsupported_claims() {
        let md = to_markdown(&sample());
        assert!(md.starts_with("## How big is the pilot?"));
        assert!(md.contains("It stores 4 MWh. [1]"));
        assert!(md.contains("It serves 300 homes. *(not supported by the sources)*"));
        assert!(md.contains("Again 4 MWh. [1]"));
        assert_eq!(md.matches("1. Field guide — `/d/a.pdf`, page 3").count(), 1);
        assert!(!md.contains("2. "));
    }

    /// Whether `needle` occurs with nothing escaping its first character.
    fn unescaped(md: &str, needle: &str) -> bool {
        md.match_indices(needle).any(|(i, _)| !md[..i].ends_with('\\'))
    }

    #[test]
    fn document_text_in_markdown_renders_as_text() {
        let mut answer = sample();
        let quote = "See ![x](http://example.com/a.png) and <img src=\"http://example.com/b.png\"> | *a* _b_ `c` #d ~~e~~";
        answer.sentences[0].citations[0].quote = quote.into();
        answer.sentences[0].citations[0].doc_title = "[Guide](http://example.com/c)".into();
        answer.sentences[0].text = "- 4 MWh ![y](http://example.com/d.png)".into();
        answer.model = Some("<img src=x>".into());
        let md = to_markdown(&answer);
        for active in ["![", "<img", "](", "<"] {
            assert!(!unescaped(&md, active), "{active} in {md}");
        }
        assert!(md.contains(r#"See \!\[x\]\(http://example.com/a.png\) and \<img src="http://example.com/b.png"\> \| \*a\* \_b\_ \`c\` \#d \~\~e\~\~"#), "{md}");
        assert!(md.contains(r"1. \[Guide\]\(http://example.com/c\) — `/d/a.pdf`, page 3"), "{md}");
        assert!(md.contains("\n\n\\- 4 MWh \\!\\[y\\]\\(http://example.com/d.png\\) [1]"), "{md}");
        assert!(md.contains(r"*Answered by \<img src=x\> with Pagewise.*"), "{md}");
    }

    #[test]
    fn claims_that_look_like_lists_stay_paragraphs() {
        assert_eq!(literal_at_line_start(literal("1. Revenue rose.")), r"1\. Revenue rose.");
        assert_eq!(literal_at_line_start(literal("+5% in 2023")), r"\+5% in 2023");
        assert_eq!(literal_at_line_start(literal("2023 was good.")), "2023 was good.");
        assert_eq!(literal_at_line_start(literal("> quoted")), r"\> quoted");
    }

    #[test]
    fn paths_with_backticks_stay_inside_their_code_span() {
        assert_eq!(code_span("/d/a.pdf"), "`/d/a.pdf`");
        assert_eq!(code_span("/d/a`b``.pdf"), "```/d/a`b``.pdf```");
        assert_eq!(code_span("`x"), "`` `x ``");
    }

    #[test]
    fn csv_quotes_fields_and_keeps_one_row_per_claim_and_citation() {
        let csv = provenance_csv(&sample(), "schema 1", &|p| Some(format!("hash-of-{}", p.display())));
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 4, "{csv}");
        assert_eq!(lines[1], "How big is the pilot?,It stores 4 MWh.,/d/a.pdf,3,10,40,hash-of-/d/a.pdf,SmolLM2,schema 1");
        assert_eq!(lines[2], "How big is the pilot?,It serves 300 homes.,,,,,,SmolLM2,schema 1");
        assert_eq!(csv_field("a \"b\", c"), "\"a \"\"b\"\", c\"");
    }

    #[test]
    fn csv_cells_that_look_like_formulas_are_not_formulas() {
        assert_eq!(csv_field("=HYPERLINK(\"http://x\",\"click\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"click\"\")\"");
        assert_eq!(csv_field("+1-2"), "'+1-2");
        assert_eq!(csv_field("-cmd|' /C calc'!A0"), "'-cmd|' /C calc'!A0");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("\t=1"), "'\t=1");
        assert_eq!(csv_field("It stores 4 MWh."), "It stores 4 MWh.");
        let mut answer = sample();
        answer.sentences[0].text = "=HYPERLINK(\"http://evil\")".into();
        let csv = provenance_csv(&answer, "schema 1", &|_| None);
        assert!(csv.lines().nth(1).unwrap().contains(",\"'=HYPERLINK("), "{csv}");
    }
}
