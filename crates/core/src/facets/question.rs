//! The facets a question names: years ("FY2018", "in 2022", "2022年"), a quarter ("Q2 of
//! FY2024"), dates ("May 26, 2023"), kinds of document ("10-K", "annual report", "8k filing",
//! "合同"), and its words, against which organisation names are matched.

use serde::Serialize;

use super::dates::{self, Date};
use super::DocKind;

#[derive(Debug, Clone, Default, Serialize)]
pub struct QuestionFacets {
    /// Every year named, fiscal or calendar, ascending and distinct.
    pub years: Vec<i32>,
    pub quarter: Option<u8>,
    #[serde(skip)]
    pub dates: Vec<Date>,
    pub kinds: Vec<DocKind>,
    /// Lower-case words, possessives removed ("3M's" → "3m"); CJK runs kept whole.
    #[serde(skip)]
    pub words: Vec<String>,
    /// The question without spaces or punctuation, lower case (for CJK names and names
    /// people write as one word, "Footlocker").
    #[serde(skip)]
    pub squashed: String,
    /// Words written with a capital other than the first ("Globex" in "how often are Globex
    /// cranes inspected"), lower case: names people shorten ("Globex" for "Globex Lifting").
    #[serde(skip)]
    pub capitalised: Vec<String>,
}

impl QuestionFacets {
    /// Whether the question uses this name: as a run of its words, or (for names of one
    /// word, or CJK) inside the squashed question.
    pub fn names(&self, alias: &str) -> bool {
        let alias_words: Vec<&str> = alias.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
        if alias_words.is_empty() {
            return false;
        }
        let cjk = alias.chars().any(is_cjk);
        if cjk {
            return self.squashed.contains(&super::organisation::squash(alias));
        }
        if self.words.windows(alias_words.len()).any(|w| w.iter().zip(&alias_words).all(|(a, b)| a == b)) {
            return true;
        }
        // "Footlocker" for "Foot Locker": two adjacent question words squashed, or one word.
        if alias_words.len() == 1 && alias_words[0].len() >= 5 {
            let target = alias_words[0];
            return self.words.windows(2).any(|w| {
                target.len() == w[0].len() + w[1].len() && target.starts_with(w[0].as_str()) && target.ends_with(w[1].as_str())
            });
        }
        false
    }
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x3040..=0x30FF | 0xAC00..=0xD7AF)
}

/// Phrases in questions that ask for a kind of document.
const KIND_CUES: &[(DocKind, &[&str])] = &[
    (DocKind::AnnualReport, &["10-k", "10k", "annual report", "annual filing", "20-f", "年报", "年度报告"]),
    (DocKind::QuarterlyReport, &["10-q", "10q", "quarterly report", "quarterly filing", "interim report", "季报", "季度报告"]),
    (DocKind::CurrentReport, &["8-k", "8k", "current report", "6-k"]),
    (DocKind::EarningsRelease, &["earnings release", "earnings call", "press release", "earnings report", "业绩公告"]),
    (DocKind::Contract, &["contract", "agreement", "lease", "合同", "协议"]),
    (DocKind::Paper, &["paper", "the study", "the authors", "论文"]),
    (DocKind::Handbook, &["handbook", "manual", "user guide", "field guide", "手册", "指南"]),
    (DocKind::Minutes, &["minutes", "meeting notes", "the meeting", "会议纪要"]),
];

pub fn parse_question(question: &str) -> QuestionFacets {
    let lower = question.to_lowercase();
    let mut years: Vec<i32> = dates::fiscal_years(question);
    years.extend(dates::years(question));
    years.extend(dates::cjk_years(question));
    let quarters = dates::quarters(question);
    years.extend(quarters.iter().filter_map(|(_, y)| *y));
    let found_dates = dates::dates(question);
    years.extend(found_dates.iter().map(|d| d.year));
    years.sort_unstable();
    years.dedup();
    let words: Vec<String> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '&'))
        .map(|w| w.trim_end_matches("'s").trim_end_matches("’s").trim_matches(|c| c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let mut kinds: Vec<DocKind> = Vec::new();
    for (kind, cues) in KIND_CUES {
        let hit = cues.iter().any(|cue| {
            if cue.chars().any(is_cjk) {
                lower.contains(cue)
            } else {
                let cue_words: Vec<&str> = cue.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
                let joined = cue_words.join("");
                words.windows(cue_words.len()).any(|w| w.iter().zip(&cue_words).all(|(a, b)| a == b))
                    || words.iter().any(|w| *w == joined)
            }
        });
        if hit {
            kinds.push(*kind);
        }
    }
    let capitalised: Vec<String> = question
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .skip(1)
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .map(|w| w.trim_end_matches("'s").trim_end_matches("’s").to_lowercase())
        .collect();
    QuestionFacets {
        capitalised,
        years,
        quarter: quarters.first().map(|(q, _)| *q),
        dates: found_dates,
        kinds,
        squashed: super::organisation::squash(question),
        words,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_quarters_and_kinds() {
        let q = parse_question("Was there any drop in Cash between FY 2023 and Q2 of FY2024 in the 10-Q?");
        assert_eq!(q.years, vec![2023, 2024]);
        assert_eq!(q.quarter, Some(2));
        assert_eq!(q.kinds, vec![DocKind::QuarterlyReport]);
        let q = parse_question("What was the key agenda of the AMCOR's 8k filing dated 1st July 2022?");
        assert_eq!(q.kinds, vec![DocKind::CurrentReport]);
        assert_eq!(q.dates.len(), 1);
        assert!(q.names("amcor"));
        let q = parse_question("2022年的营收是多少？");
        assert_eq!(q.years, vec![2022]);
        let plain = parse_question("how do I reset the router");
        assert!(plain.years.is_empty() && plain.quarter.is_none() && plain.dates.is_empty() && plain.kinds.is_empty());
    }

    #[test]
    fn names_as_words_and_squashed() {
        let q = parse_question("What is 3M's FY2018 capex? Compare with Footlocker and Best Buy.");
        assert!(q.names("3m"));
        assert!(q.names("foot locker") || q.names("footlocker"));
        assert!(q.names("best buy"));
        assert!(!q.names("best western"));
        assert!(!q.names("locker room"), "every word of a name must be there");
        let zh = parse_question("华为的研发投入是多少？");
        assert!(zh.names("华为"));
    }
}
