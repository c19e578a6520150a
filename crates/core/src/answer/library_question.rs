//! Questions about the library itself — "which documents mention X?", "how many 2023 annual
//! reports do I have?", "list the contracts", "what did I add this week?" — are answered from
//! the index (every passage, the documents' facets, when each was first indexed), not by a
//! model reading five passages. This recognises them, in English and Chinese; anything it is
//! not sure of stays an ordinary question.

use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use crate::index::DocumentInfo;
use crate::retrieve::filter::SearchFilter;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LibraryQuestion {
    /// The documents whose text holds a phrase, with how often.
    Mentions { phrase: String },
    /// The documents of a kind, year or organisation: counted, and listed.
    Documents { filter: SearchFilter, described: String },
    /// The documents first indexed within the last `days`.
    AddedWithin { days: u32 },
}

fn regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).unwrap_or_else(|_| unreachable!()))
}

const DOCUMENT_WORDS: &str = r"documents?|files?|docs?|reports?|papers?|pdfs?|articles?|notes?|contracts?|文档|文件|报告|资料|论文|文章|合同";

fn mentions(question: &str) -> Option<String> {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    let en = regex(
        &EN,
        &format!(
            r"(?i)^\s*(?:(?:which|what)\s+(?:of\s+my\s+)?(?:{DOCUMENT_WORDS})|(?:list|show|find)\s+(?:me\s+)?(?:all\s+)?(?:the\s+|my\s+)?(?:{DOCUMENT_WORDS})\s+(?:that|which))\s+(?:mention|mentions|talk\s+about|talks\s+about|discuss|discusses|contain|contains|refer\s+to|refers\s+to|say\s+anything\s+about|cover|covers)\s+(.+?)\s*[?？.!。]*\s*$"
        ),
    );
    let zh = regex(&ZH, r"^\s*(?:哪些|哪几份|哪几个|哪篇|什么)(?:文档|文件|报告|资料|论文|文章)(?:里|中)?(?:提到|提及|包含|涉及|讲到|说到|谈到)了?[“「\x22]?(.+?)[”」\x22]?\s*[?？。]*\s*$");
    let phrase = en.captures(question).or_else(|| zh.captures(question))?.get(1)?.as_str();
    let phrase = phrase.trim().trim_matches(|c: char| matches!(c, '"' | '\'' | '“' | '”' | '‘' | '’'));
    (!phrase.is_empty()).then(|| phrase.to_string())
}

fn added_within(question: &str) -> Option<u32> {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    let en = regex(
        &EN,
        &format!(r"(?i)^\s*(?:what|which)(?:\s+(?:{DOCUMENT_WORDS}))?\s+(did\s+i|have\s+i|were|was)\s+(?:added|add|indexed|index|put\s+in)\b\s*(today|this\s+week|this\s+month|recently|lately|in\s+the\s+last\s+(\d{{1,3}})\s+days?)?"),
    );
    let zh = regex(&ZH, r"(今天|今日|这周|本周|这个月|本月|最近)(?:我)?(?:新)?(?:添加|加入|新增|导入|加)了?(?:哪些|什么|几份|多少)");
    if let Some(c) = en.captures(question) {
        let by_me = c.get(1).is_some_and(|m| m.as_str().to_lowercase().contains(" i"));
        let when = c.get(2).map(|m| m.as_str().to_lowercase());
        // "What was added to the reserve?" is about a document's subject: without "I" it takes
        // a time ("…were added this week") to be about the library.
        if !by_me && when.is_none() {
            return None;
        }
        return Some(match when.as_deref().unwrap_or("") {
            "today" => 1,
            w if w.starts_with("this week") => 7,
            w if w.starts_with("this month") => 31,
            _ => c.get(3).and_then(|n| n.as_str().parse().ok()).unwrap_or(14),
        });
    }
    let c = zh.captures(question)?;
    Some(match c.get(1)?.as_str() {
        "今天" | "今日" => 1,
        "这周" | "本周" => 7,
        "这个月" | "本月" => 31,
        _ => 14,
    })
}

/// Kinds and file types by the words people use for them.
fn types_named(what: &str) -> Vec<&'static str> {
    const NAMES: &[(&str, &str)] = &[
        (r"annual\s+reports?|10-?ks?\b|年报|年度报告", "annual-report"),
        (r"quarterly\s+reports?|10-?qs?\b|季报|季度报告", "quarterly-report"),
        (r"current\s+reports?|8-?ks?\b", "current-report"),
        (r"earnings\s+releases?", "earnings-release"),
        (r"contracts?|agreements?|合同|协议", "contract"),
        (r"\bpapers?\b|论文", "paper"),
        (r"handbooks?|manuals?|手册", "handbook"),
        (r"minutes|meeting\s+notes|会议纪要|会议记录", "minutes"),
        (r"\bpdfs?\b", "pdf"),
        (r"markdown|\bmd\s+files?", "md"),
        (r"word\s+(?:documents?|files?)|\bdocx\b", "docx"),
        (r"spreadsheets?|\bcsv\b", "csv"),
        (r"web\s+pages?|\bhtml\b", "html"),
        (r"text\s+files?|\btxt\b", "txt"),
        (r"e-?books?|\bepub\b", "epub"),
    ];
    static COMPILED: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    let compiled = COMPILED.get_or_init(|| NAMES.iter().filter_map(|(p, t)| Regex::new(&format!("(?i){p}")).ok().map(|r| (r, *t))).collect());
    compiled.iter().filter(|(r, _)| r.is_match(what)).map(|(_, t)| *t).collect()
}

fn documents_of(question: &str, documents: &[DocumentInfo]) -> Option<(SearchFilter, String)> {
    static COUNT_EN: OnceLock<Regex> = OnceLock::new();
    static LIST_EN: OnceLock<Regex> = OnceLock::new();
    static COUNT_ZH: OnceLock<Regex> = OnceLock::new();
    let count_en = regex(&COUNT_EN, r"(?i)^\s*how\s+many\s+(.+?)\s+(?:do\s+i\s+have|have\s+i\s+got|are\s+there|are\s+in\s+(?:my|the)\s+library|did\s+i\s+(?:add|index)|have\s+i\s+(?:added|indexed))\b");
    let list_en = regex(&LIST_EN, r"(?i)^\s*(?:list|show)\s+(?:me\s+)?(?:all\s+)?(?:the\s+|my\s+)?(.+?)\s*[?？.!。]*\s*$");
    let count_zh = regex(&COUNT_ZH, r"^\s*(?:我)?(?:一共|总共)?有多少(?:份|个|篇)?(.+?)\s*[?？。]*\s*$|^\s*(.+?)(?:一共|总共)?有(?:几|多少)(?:份|个|篇)\s*[?？。]*\s*$");
    let listed = list_en.captures(question).and_then(|c| c.get(1)).map(|m| m.as_str().to_string());
    // "List the risks in the annual report" asks what a document says: a list is of documents
    // only when it starts with what they are ("the contracts that…", "my 2023 annual reports").
    let listed = listed.filter(|what| starts_with_document_word(what));
    let what = match count_en.captures(question).or_else(|| count_zh.captures(question)).and_then(|c| c.get(1).or_else(|| c.get(2))) {
        Some(m) => m.as_str().to_string(),
        None => listed?,
    };
    let types: Vec<String> = types_named(&what).into_iter().map(str::to_string).collect();
    static ANY_DOC: OnceLock<Regex> = OnceLock::new();
    let any_document = regex(&ANY_DOC, &format!(r"(?i)(?:\b(?:{DOCUMENT_WORDS})\b|文档|文件|报告|资料)")).is_match(&what);
    // Only a question about documents: "how many members are there" is about a document's
    // subject, and stays an ordinary question.
    if types.is_empty() && !any_document {
        return None;
    }
    let years: Vec<i32> = crate::text::years(&what).iter().filter_map(|y| y.parse().ok()).collect();
    let lower = what.to_lowercase();
    let mut organisations: Vec<String> = Vec::new();
    for doc in documents {
        let Some(f) = &doc.facets else { continue };
        let Some(org) = &f.organisation else { continue };
        let named = std::iter::once(org.to_lowercase()).chain(f.aliases.iter().cloned()).any(|name| name.len() >= 3 && lower.contains(&name));
        if named && !organisations.contains(org) {
            organisations.push(org.clone());
        }
    }
    Some((SearchFilter { folders: Vec::new(), types, organisations, years, languages: Vec::new() }, what.trim().to_string()))
}

fn starts_with_document_word(what: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let kinds = r"annual\s+reports?|quarterly\s+reports?|current\s+reports?|earnings\s+releases?|agreements?|handbooks?|manuals?|minutes|meeting\s+notes|markdown|word\s+documents?|spreadsheets?|web\s+pages?|text\s+files?|e-?books?|10-?[kq]s?";
    regex(&RE, &format!(r"(?i)^(?:(?:19|20)\d\d\s+)?(?:{kinds}|{DOCUMENT_WORDS})\b")).is_match(what.trim())
}

/// The question as a question about the library, when it is one.
pub fn recognise(question: &str, documents: &[DocumentInfo]) -> Option<LibraryQuestion> {
    if let Some(phrase) = mentions(question) {
        return Some(LibraryQuestion::Mentions { phrase });
    }
    if let Some(days) = added_within(question) {
        return Some(LibraryQuestion::AddedWithin { days });
    }
    documents_of(question, documents).map(|(filter, described)| LibraryQuestion::Documents { filter, described })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is(q: &str) -> Option<LibraryQuestion> {
        recognise(q, &[])
    }

    #[test]
    fn questions_about_the_library_are_recognised_in_english_and_chinese() {
        assert_eq!(is("Which documents mention heat pumps?"), Some(LibraryQuestion::Mentions { phrase: "heat pumps".into() }));
        assert_eq!(is("which files talk about \"battery storage\""), Some(LibraryQuestion::Mentions { phrase: "battery storage".into() }));
        assert_eq!(is("list the reports that mention goodwill impairment"), Some(LibraryQuestion::Mentions { phrase: "goodwill impairment".into() }));
        assert_eq!(is("哪些文档提到了热泵？"), Some(LibraryQuestion::Mentions { phrase: "热泵".into() }));
        assert_eq!(is("What did I add this week?"), Some(LibraryQuestion::AddedWithin { days: 7 }));
        assert_eq!(is("what files were added recently"), Some(LibraryQuestion::AddedWithin { days: 14 }));
        assert_eq!(is("这周添加了哪些文件？"), Some(LibraryQuestion::AddedWithin { days: 7 }));
        match is("How many 2023 annual reports do I have?") {
            Some(LibraryQuestion::Documents { filter, .. }) => assert_eq!((filter.types, filter.years), (vec!["annual-report".to_string()], vec![2023])),
            other => panic!("{other:?}"),
        }
        match is("list the contracts") {
            Some(LibraryQuestion::Documents { filter, .. }) => assert_eq!(filter.types, ["contract"]),
            other => panic!("{other:?}"),
        }
        match is("我有多少份2022年的年报？") {
            Some(LibraryQuestion::Documents { filter, .. }) => assert_eq!((filter.types, filter.years), (vec!["annual-report".to_string()], vec![2022])),
            other => panic!("{other:?}"),
        }
        match is("how many PDFs are there") {
            Some(LibraryQuestion::Documents { filter, .. }) => assert_eq!(filter.types, ["pdf"]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn questions_about_what_documents_say_stay_ordinary() {
        for q in [
            "How many members did the cooperative have at the end of 2024?",
            "How many people are there in the platform team?",
            "What was the capital expenditure in 2022?",
            "Summarise the annual report",
            "Which sites have batteries?",
            "show the installed capacity",
            "公司有多少员工？",
            "What did the board decide about the dividend?",
            "What was added to the reserve in 2023?",
            "list the risks in the annual report",
        ] {
            assert_eq!(is(q), None, "{q}");
        }
    }
}
