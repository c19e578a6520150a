//! The names a question asks about, as the evidence writes them. People type names in lower
//! case ("how much did the audit by harwood and lyle cost", "redis 缓存的命中率"); the evidence
//! writes them as names ("Harwood and Lyle", "Redis"). A source sentence shown in place of an
//! answer that names none of them, nor its document or section does, is about something else:
//! "curtailment at Coastal Strip cost £9,800 in lost income" does not say what the Riverside
//! outage cost.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use regex::Regex;

use super::evidence::EvidenceSet;
use super::facts::{amounts, Family};
use crate::text::{cached_regex as re, is_cjk, is_stopword};

/// How a word is written across the evidence.
#[derive(Default)]
struct Spelling {
    /// Written with a capital after a lower-case word inside a sentence ("visits to the Fenwick
    /// array"): a name, not a sentence's first word nor a word of a Title Case heading.
    capitalised_inside: bool,
    /// Written with lower-case letters after its capital somewhere ("Redis", not only "RAG"):
    /// a word only ever in capitals is an acronym for a measure or a method (EPS, GAAP, QPS).
    mixed_case: bool,
    /// Written in lower case somewhere: a common word ("board", "battery"), not a name.
    lower: bool,
}

/// What a question names, as the evidence writes names.
#[derive(Debug, Default, PartialEq)]
pub struct AskedNames {
    /// The question's words that are names, lower-cased.
    pub words: Vec<String>,
    /// The question's text from the first of them to the last ("harwood and lyle"), to say
    /// what the sources were not about.
    pub phrase: String,
}

impl AskedNames {
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The names `text` writes.
    pub fn named_by(&self, text: &str) -> Vec<&str> {
        let written: Vec<&str> = words(text).map(|(_, w)| w).collect();
        self.words.iter().filter(|n| written.iter().any(|w| n.eq_ignore_ascii_case(w))).map(String::as_str).collect()
    }
}

/// The question's words that the evidence writes only as names: each is a word of a name
/// written with a capital inside a sentence and never in lower case.
pub fn asked_names(question: &str, evidence: &EvidenceSet) -> AskedNames {
    let mut spelling: HashMap<String, Spelling> = HashMap::new();
    for page in &evidence.pages {
        for p in &page.passages {
            record_spellings(&p.text, &mut spelling);
        }
    }
    // "School" of "Fenwick Primary School" is a name's word, yet "schools" says it is a noun.
    let common: HashSet<String> = spelling.iter().filter(|(_, s)| s.lower).map(|(w, _)| singular(w).to_string()).collect();
    let mut names = AskedNames::default();
    let mut span: Option<(usize, usize)> = None;
    for (start, word) in words(question) {
        let lower = word.to_lowercase();
        let name = spelling.get(&lower).is_some_and(|s| s.capitalised_inside && s.mixed_case && !s.lower) && !common.contains(singular(&lower));
        if !name || is_stopword(&lower) || names_a_date(&lower) || names_a_unit(&lower) {
            continue;
        }
        span = Some((span.map_or(start, |(first, _)| first), start + word.len()));
        if !names.words.contains(&lower) {
            names.words.push(lower);
        }
    }
    if let Some((first, last)) = span {
        names.phrase = question[first..last].to_string();
    }
    names
}

/// A word without its plural ending: "schools" and "school" are one noun.
fn singular(word: &str) -> &str {
    word.strip_suffix("es").filter(|w| w.ends_with(['s', 'x', 'h'])).or_else(|| word.strip_suffix('s').filter(|w| w.len() >= 3 && !w.ends_with('s'))).unwrap_or(word)
}

/// Units are capitalised ("MWh", "GHz") and name no thing.
fn names_a_unit(word: &str) -> bool {
    amounts(&format!("2 {word}"), None).iter().any(|a| a.family != Family::Plain && a.span.end == 2 + word.len())
}

/// Months and weekdays are capitalised, yet they are periods (the period slot's), not names.
fn names_a_date(word: &str) -> bool {
    const DATES: [&str; 19] = [
        "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "may",
    ];
    DATES.contains(&word)
}

/// Latin-script words of three letters or more, with their byte offsets; a possessive "'s"
/// is not part of the word.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    static WORD: OnceLock<Regex> = OnceLock::new();
    re(&WORD, r"[A-Za-z][A-Za-z]{2,}").find_iter(text).map(|m| (m.start(), m.as_str()))
}

fn record_spellings(text: &str, spelling: &mut HashMap<String, Spelling>) {
    for (start, word) in words(text) {
        let entry = spelling.entry(word.to_lowercase()).or_default();
        let first = word.chars().next().unwrap_or('a');
        if first.is_lowercase() {
            entry.lower = true;
            continue;
        }
        entry.mixed_case |= word.chars().skip(1).any(char::is_lowercase);
        if !opens_sentence(&text[..start]) && after_lower_case_word(&text[..start]) {
            entry.capitalised_inside = true;
        }
    }
}

/// Whether the word before is in lower case, or Chinese: a capital after it is a name's, not a
/// Title Case heading's ("Consolidated Balance Sheets").
fn after_lower_case_word(before: &str) -> bool {
    let trimmed = before.trim_end_matches([' ', '"', '\'', '“', '‘', '(', '-']);
    trimmed.chars().next_back().is_some_and(|c| c.is_lowercase() || is_cjk(c) || c == ',' || c == '，' || c.is_ascii_digit())
}

/// Whether a word after `before` opens a sentence, a line or a list item, where any word is
/// capitalised.
fn opens_sentence(before: &str) -> bool {
    // A table cell ("Region\tSites") and a numbered heading ("### 1.2 What we own") open too.
    if before.ends_with('\t') {
        return true;
    }
    let line = before.rsplit('\n').next().unwrap_or(before);
    if line.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | '#' | ' ' | ')')) {
        return true;
    }
    let trimmed = before.trim_end_matches([' ', '"', '\'', '“', '‘', '(', '*', '#', '-', '•']);
    match trimmed.chars().next_back() {
        None => true,
        Some(c) => matches!(c, '.' | '!' | '?' | ':' | ';' | '\n' | '\r' | '|' | '。' | '！' | '？' | '：' | '；'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::evidence::{EvidencePage, EvidencePassage};
    use crate::span::Span;

    fn evidence(texts: &[&str]) -> EvidenceSet {
        let passages = texts
            .iter()
            .enumerate()
            .map(|(i, t)| EvidencePassage { chunk_id: i as i64, span: Span { doc_id: 1, page: 1, byte_start: 0, byte_end: t.len() }, heading_path: Vec::new(), text: t.to_string(), score: 1.0 })
            .collect();
        EvidenceSet {
            pages: vec![EvidencePage {
                label: "Doc1_p1".into(),
                doc_handle: 1,
                doc_id: 1,
                doc_path: "report.pdf".into(),
                doc_title: "Annual report".into(),
                page: 1,
                modified: String::new(),
                passages,
                score: 1.0,
                also_in: Vec::new(),
                facets: None,
            }],
        }
    }

    #[test]
    fn names_are_words_the_evidence_capitalises_inside_sentences_and_never_writes_in_lower_case() {
        let e = evidence(&[
            "The accounts were audited by Harwood and Lyle. Board members met in March.",
            "The board approved the budget. An outage at the Riverside bowls club lasted eleven days.",
            "Curtailment at Coastal Strip cost £9,800. 热点元数据缓存到 Redis 里。",
        ]);
        let audit = asked_names("how much did the audit by harwood and lyle cost", &e);
        assert_eq!(audit.words, vec!["harwood", "lyle"]);
        assert_eq!(audit.phrase, "harwood and lyle");
        assert!(asked_names("what did the board approve", &e).is_empty(), "board is written in lower case");
        assert_eq!(asked_names("income lost from the riverside outage?", &e).words, vec!["riverside"]);
        assert_eq!(asked_names("Redis 缓存的命中率大概多少？", &e).words, vec!["redis"]);
        assert!(asked_names("what did curtailment cost", &e).is_empty(), "a sentence's first word is no name");
        assert!(asked_names("anything on in march?", &e).is_empty(), "a month is a period");
        let school = evidence(&["Visits to the Fenwick Primary School array went on; 17 schools took part and 874 MWh came from it."]);
        assert_eq!(asked_names("how many MWh did the fenwick school array make", &school).words, vec!["fenwick"], "a unit and a plural noun are no names");
        let headed = evidence(&["### 1.2 What we own\nRegion\tSites\tCapacity (kW)\nCoastal Strip\t4\t300\nExports from our Coastal Strip sites were curtailed."]);
        assert_eq!(asked_names("how long were the coastal sites curtailed and what did it cost", &headed).words, vec!["coastal"], "headings and table headers are no names");
        let filing = evidence(&["CONSOLIDATED BALANCE SHEETS\nTotal current assets 4,200\nThe Company reports non-GAAP EPS. Net earnings at Best Buy rose."]);
        assert_eq!(asked_names("what does the balance sheet say about best buy's gaap eps", &filing).words, vec!["best", "buy"], "headings and acronyms are no names");
    }

    #[test]
    fn a_name_is_found_in_any_case() {
        let names = AskedNames { words: vec!["riverside".to_string()], phrase: "riverside".into() };
        assert_eq!(names.named_by("The Riverside outage lasted eleven days."), vec!["riverside"]);
        assert!(names.named_by("Curtailment at Coastal Strip cost £9,800.").is_empty());
        assert!(names.named_by("Riversides").is_empty());
    }
}
