//! Does the evidence hold an answer of the kind the question asks for, about the thing it
//! asks about? "What's the capacity of the Holloway Farm array?" wants a quantity that stands
//! in the same clause as Holloway Farm; a passage that names Holloway Farm beside another
//! project's capacity shares every word with the question and still does not answer it.
//! This is the claim check (support.rs) run the other way round: from the question to the
//! evidence, before anything is generated.

use std::collections::HashSet;
use std::sync::OnceLock;

use regex::Regex;

use super::evidence::EvidenceSet;
use super::numbers::quantities;
use crate::text::{content_terms, sentences, term_recall, years};
use crate::text::cached_regex as regex;

/// The kind of answer a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    Quantity,
    Date,
    Person,
    Other,
}

pub fn answer_kind(question: &str) -> AnswerKind {
    static QUANTITY: OnceLock<Regex> = OnceLock::new();
    static DATE: OnceLock<Regex> = OnceLock::new();
    static PERSON: OnceLock<Regex> = OnceLock::new();
    let q = question.to_lowercase();
    if regex(&DATE, r"\bwhen\b|\bwhat (?:year|date|day|month|time)\b|\bwhich (?:year|date|day|month)\b|\bhow long ago\b|什么时候|哪一?年|哪天|何时|几月|几号").is_match(&q) {
        AnswerKind::Date
    } else if regex(
        &QUANTITY,
        r"\bhow (?:many|much|long|big|large|far|often|old|high|tall|fast|heavy)\b|\b(?:capacity|size|price|cost|fee|charge|amount|number of|percentage|percent|proportion|fraction|threshold|rate|total|salary|budget|revenue|income|profit|margin|ratio|population|area|length|height|weight|distance|duration|speed|volume|temperature|stipend|deposit|interest)\b|多少|几[个位次倍天年月种台]|多大|多久|多长|多高|比例|百分之|占比|几倍",
    )
    .is_match(&q)
    {
        AnswerKind::Quantity
    } else if regex(&PERSON, r"\bwho\b|\bwhom\b|\bwhose\b|谁").is_match(&q) {
        AnswerKind::Person
    } else {
        AnswerKind::Other
    }
}

/// Words that say what kind of answer is wanted, not what it is about.
const KIND_WORDS: &[&str] = &[
    "capacity", "price", "fee", "charge", "many", "much", "long", "big", "large", "far", "often", "old", "high", "tall", "year", "date", "day", "month", "time", "percentage",
    "percent", "share", "proportion", "rate", "price", "cost", "amount", "number", "size", "total", "who", "whom", "whose", "kind",
    "type", "name", "called", "get", "got", "now", "currently", "exactly", "roughly", "approximately", "anything", "say", "says",
];

/// Whether a word only says what kind of answer is wanted ("how many", "price").
pub fn is_kind_word(word: &str) -> bool {
    KIND_WORDS.contains(&word)
}

/// Whether a piece of text holds a value of the kind asked for.
pub fn has_kind(clause: &str, kind: AnswerKind) -> bool {
    match kind {
        AnswerKind::Quantity => quantities(clause).iter().any(|q| !q.year_like) || regex_word_numbers().is_match(&clause.to_lowercase()),
        AnswerKind::Date => !years(clause).is_empty() || regex_dates().is_match(&clause.to_lowercase()),
        AnswerKind::Person => clause
            .split_whitespace()
            .skip(1)
            .any(|w| w.chars().next().is_some_and(char::is_uppercase) && w.chars().filter(|c| c.is_alphabetic()).count() > 1),
        AnswerKind::Other => true,
    }
}

fn regex_word_numbers() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    regex(&RE, r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|dozen|half|once|twice|weekly|daily|monthly|annually|yearly|hourly|fortnightly|biweekly|every (?:other|second|third|fourth))\b|[一二三四五六七八九十百千万亿两]")
}

fn regex_dates() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    regex(
        &RE,
        r"\b(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|yesterday|tomorrow|\d{1,2}:\d\d|\d{1,2}/\d{1,2})\b|[年月日]",
    )
}

/// Clauses as the claim check cuts them, for the same reason: a value belongs to its clause.
fn clauses(unit: &str) -> Vec<&str> {
    super::facts::compare::clauses(unit).into_iter().map(|r| &unit[r]).collect()
}

/// The best evidence unit's answer to the question: the share of the question's distinctive
/// terms it holds (with the page's title and headings as context), counted only when a clause
/// of it holds both a distinctive term and a value of the kind asked for. 0 to 1.
///
/// `frequencies` gives how many chunks of the library use each term; the rarer half of the
/// question's terms (at least two) are its distinctive ones.
pub fn typed_match(question: &str, evidence: &EvidenceSet, frequencies: &dyn Fn(&[String]) -> Vec<u64>) -> f32 {
    let kind = answer_kind(question);
    let mut terms: Vec<String> = content_terms(question).into_iter().filter(|t| !KIND_WORDS.contains(&t.as_str())).collect();
    terms.sort();
    terms.dedup();
    if terms.is_empty() {
        return 0.0;
    }
    let df = frequencies(&terms);
    let mut ranked: Vec<(u64, String)> = df.into_iter().zip(terms).collect();
    ranked.sort();
    let keep = ranked.len().div_ceil(2).max(2).min(ranked.len());
    // A question word no passage uses ("pick up" where the page says "collected") still
    // counts against the share, but cannot be what a clause is required to hold: any of the
    // question's words ties the value to the subject.
    let all_terms: Vec<String> = ranked.iter().map(|(_, t)| t.clone()).collect();
    let distinctive: Vec<String> = ranked.into_iter().take(keep).map(|(_, t)| t).collect();
    let mut best = 0.0f32;
    for page in &evidence.pages {
        let context: String = format!("{} {}", page.doc_title, page.heading_path());
        for passage in &page.passages {
            for unit in sentences(&passage.text) {
                let text = &passage.text[unit];
                let mut unit_terms: HashSet<String> = content_terms(text).into_iter().collect();
                unit_terms.extend(content_terms(&context));
                let share = term_recall(&distinctive, &unit_terms);
                if share <= best {
                    continue;
                }
                let typed = clauses(text).iter().any(|clause| {
                    let clause_terms: HashSet<String> = content_terms(clause).into_iter().collect();
                    has_kind(clause, kind) && (term_recall(&all_terms, &clause_terms) > 0.0 || kind == AnswerKind::Other)
                });
                if typed {
                    best = share;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::evidence::{EvidencePage, EvidencePassage};

    fn evidence(text: &str) -> EvidenceSet {
        EvidenceSet {
            pages: vec![EvidencePage {
                label: "Doc1_p5".into(),
                doc_handle: 1,
                doc_id: 1,
                doc_path: "/d/report.pdf".into(),
                doc_title: "Annual report".into(),
                page: 5,
                modified: String::new(),
                passages: vec![EvidencePassage { chunk_id: 1, span: crate::span::Span { doc_id: 1, page: 5, byte_start: 0, byte_end: text.len() }, heading_path: vec![], text: text.into(), score: 1.0 }],
                score: 1.0,
                also_in: vec![],
                facets: None,
            }],
        }
    }

    fn rare_first(words: &[String]) -> Vec<u64> {
        // Names are rare, everything else common.
        words.iter().map(|w| if ["holloway", "farm", "kettlewick"].contains(&w.as_str()) { 1 } else { 10 }).collect()
    }

    #[test]
    fn kinds_of_questions() {
        assert_eq!(answer_kind("how long do we keep logs in hot storage?"), AnswerKind::Quantity);
        assert_eq!(answer_kind("when did the pilot start"), AnswerKind::Date);
        assert_eq!(answer_kind("who chairs the board"), AnswerKind::Person);
        assert_eq!(answer_kind("错误率从多少降到了多少？"), AnswerKind::Quantity);
        assert_eq!(answer_kind("what does the battery do"), AnswerKind::Other);
        assert_eq!(answer_kind("whats the capacity of the holloway farm array"), AnswerKind::Quantity);
    }

    #[test]
    fn a_value_must_stand_with_the_thing_asked_about() {
        let near_miss = evidence("Eight projects with a combined 1.1 MW are in development, including a ground-mounted array at Holloway Farm.");
        assert!(typed_match("whats the capacity of the holloway farm array", &near_miss, &rare_first) < 0.5);
        let answer = evidence("A 500 kWh battery was installed beside the 220 kW array at Kettlewick.");
        assert!(typed_match("how big is the kettlewick battery", &answer, &rare_first) >= 0.99);
    }

    #[test]
    fn a_frequency_in_words_answers_how_often() {
        assert!(has_kind("Garden waste is collected every second Wednesday", AnswerKind::Quantity));
        assert!(has_kind("Bins go out fortnightly", AnswerKind::Quantity));
        assert!(!has_kind("Garden waste is collected by the council", AnswerKind::Quantity));
    }

    #[test]
    fn a_word_the_library_lacks_does_not_hide_the_answer() {
        let mut e = evidence("General waste is collected every week on your usual day.\n\nGarden waste is collected every second Wednesday between March and November.");
        e.pages[0].doc_title = "Tolworth Borough Council - Bin collections".into();
        // "pick" is in no passage (df 0), so it ranks rarest.
        let df = |words: &[String]| words.iter().map(|w| match w.as_str() { "pick" => 0, "tolworth" => 1, _ => 3 }).collect();
        assert!(typed_match("how often do they pick up garden waste in tolworth", &e, &df) >= 0.5);
    }
}
