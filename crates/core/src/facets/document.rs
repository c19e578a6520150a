//! A document's facets from what every format has: its title (which for PDFs comes from the
//! PDF metadata when that is meaningful), its file name and its first pages. The rules are
//! about how documents in general announce themselves (a cover line, a "for the period
//! ended" date, an abstract), not about any one collection.

use std::collections::HashMap;
use std::path::Path;

use super::dates::{self, Date};
use super::organisation;
use super::{DocKind, DocumentFacets, Period};

/// Bumped when the rules change, so stored facets are recomputed from stored pages.
pub const EXTRACTOR_VERSION: i64 = 1;

/// How many leading pages announce what a document is.
const FIRST_PAGES: usize = 3;
/// Characters of those pages that are read.
const FIRST_CHARS: usize = 12_000;

pub struct FacetSource<'a> {
    pub title: &'a str,
    pub path: &'a Path,
    /// Page texts in order; only the first few are read.
    pub pages: &'a [String],
}

pub fn extract(source: &FacetSource<'_>) -> DocumentFacets {
    let stem = source.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    // Underscores glue words together for `\b`; file names use them as spaces.
    let name_words = stem.replace(['_', '.'], " ");
    let mut head = String::new();
    for page in source.pages.iter().take(FIRST_PAGES) {
        if head.len() >= FIRST_CHARS {
            break;
        }
        head.push_str(page);
        head.push('\n');
    }
    let mut end = head.len().min(FIRST_CHARS);
    while !head.is_char_boundary(end) {
        end -= 1;
    }
    head.truncate(end);

    let language = language(&format!("{}\n{head}", source.title)).to_string();
    let kind = kind(source.title, &name_words, &head);
    let organisations = organisation::legal_names(&format!("{}\n{head}", source.title));
    let file_word = organisation::file_name_organisation(&stem, &format!("{}\n{head}", source.title));
    let display = organisations.first().cloned().or_else(|| file_word.clone());
    let aliases = organisation::aliases(&organisations, file_word.as_deref());
    let (period, years) = period(&name_words, source.title, &head, kind);
    DocumentFacets { organisation: display, aliases, period, kind, language, years }
}

/// Han, kana and hangul shares decide CJK; Latin text is told apart by its commonest words.
fn language(text: &str) -> &'static str {
    let (mut han, mut kana, mut hangul, mut latin, mut cyrillic, mut arabic) = (0usize, 0usize, 0usize, 0usize, 0usize, 0usize);
    for c in text.chars() {
        match c as u32 {
            0x4E00..=0x9FFF | 0x3400..=0x4DBF => han += 1,
            0x3040..=0x30FF => kana += 1,
            0xAC00..=0xD7AF => hangul += 1,
            0x0400..=0x04FF => cyrillic += 1,
            0x0600..=0x06FF => arabic += 1,
            _ if c.is_ascii_alphabetic() || ('\u{C0}'..='\u{24F}').contains(&c) => latin += 1,
            _ => {}
        }
    }
    // A CJK character carries about as much as a short Latin word.
    let cjk = han + kana + hangul;
    if cjk * 4 > latin && cjk >= 20 {
        return if kana * 10 > cjk {
            "ja"
        } else if hangul * 2 > cjk {
            "ko"
        } else {
            "zh"
        };
    }
    if cyrillic > latin && cyrillic >= 40 {
        return "ru";
    }
    if arabic > latin && arabic >= 40 {
        return "ar";
    }
    if latin < 40 {
        return "und";
    }
    const STOPWORDS: &[(&str, &[&str])] = &[
        ("en", &["the", "and", "of", "to", "is", "in", "for", "with", "that", "on"]),
        ("de", &["der", "die", "und", "das", "ist", "nicht", "mit", "den", "von", "zu"]),
        ("fr", &["le", "la", "les", "et", "des", "est", "une", "pour", "dans", "du"]),
        ("es", &["el", "los", "las", "y", "es", "una", "para", "por", "con", "del"]),
        ("it", &["il", "di", "che", "della", "per", "una", "sono", "gli", "con", "nel"]),
        ("nl", &["de", "het", "een", "van", "en", "is", "dat", "niet", "voor", "met"]),
        ("pt", &["o", "os", "da", "do", "em", "uma", "para", "com", "não", "que"]),
    ];
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for word in text.split(|c: char| !c.is_alphabetic()).filter(|w| !w.is_empty()).take(3000) {
        let w = word.to_lowercase();
        for (lang, words) in STOPWORDS {
            if words.contains(&w.as_str()) {
                *counts.entry(lang).or_default() += 1;
            }
        }
    }
    STOPWORDS
        .iter()
        .map(|(lang, _)| (*lang, counts.get(lang).copied().unwrap_or(0)))
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .filter(|(_, n)| *n >= 5)
        .map(|(lang, _)| lang)
        .unwrap_or("und")
}

/// Phrases that announce a kind of document, with weights. The file name and title count
/// more than the text, where a phrase may only be referred to.
const KIND_RULES: &[(DocKind, &[&str])] = &[
    (DocKind::AnnualReport, &["form 10-k", "form 20-f", "annual report", "for the fiscal year ended", "年度报告", "年报"]),
    (DocKind::QuarterlyReport, &["form 10-q", "quarterly report", "for the quarterly period ended", "interim report", "half-year report", "季度报告", "半年度报告"]),
    (DocKind::CurrentReport, &["form 8-k", "current report", "date of report", "form 6-k"]),
    (DocKind::EarningsRelease, &["earnings release", "reports first quarter", "reports second quarter", "reports third quarter", "reports fourth quarter", "full year results", "quarter results", "financial results for", "业绩公告"]),
    (DocKind::Contract, &["this agreement", "witnesseth", "hereinafter", "the parties agree", "terms and conditions", "in witness whereof", "合同", "协议"]),
    (DocKind::Paper, &["abstract", "arxiv", "proceedings of", "keywords:", "doi:", "et al.", "摘要", "关键词"]),
    (DocKind::Handbook, &["handbook", "user guide", "manual", "field guide", "instructions for", "how to use", "手册", "指南"]),
    (DocKind::Minutes, &["minutes", "meeting notes", "attendees", "action items", "present:", "agenda", "会议纪要", "参会"]),
];

/// File-name words that name a kind outright.
const KIND_FILE_WORDS: &[(DocKind, &[&str])] = &[
    (DocKind::AnnualReport, &["10k", "10-k", "20f", "annual"]),
    (DocKind::QuarterlyReport, &["10q", "10-q", "quarterly", "interim"]),
    (DocKind::CurrentReport, &["8k", "8-k", "6k"]),
    (DocKind::EarningsRelease, &["earnings", "results"]),
    (DocKind::Contract, &["contract", "agreement", "lease", "nda"]),
    (DocKind::Paper, &["paper", "arxiv", "preprint"]),
    (DocKind::Handbook, &["handbook", "manual", "guide"]),
    (DocKind::Minutes, &["minutes", "meeting"]),
];

/// How much of the first page announces the kind (a cover, a heading, an abstract); a body
/// that talks about manuals or abstracts is not one.
const OPENING_CHARS: usize = 2_000;

fn kind(title: &str, name_words: &str, head: &str) -> DocKind {
    let mut end = head.len().min(OPENING_CHARS);
    while !head.is_char_boundary(end) {
        end -= 1;
    }
    let lower_head = head[..end].to_lowercase();
    let lower_title = title.to_lowercase();
    let name_lower = name_words.to_lowercase();
    let file_words: Vec<&str> = name_lower.split(|c: char| !c.is_alphanumeric() && c != '-').collect();
    let mut scores: HashMap<DocKind, f32> = HashMap::new();
    for (kind, words) in KIND_FILE_WORDS {
        if words.iter().any(|w| file_words.contains(w)) {
            *scores.entry(*kind).or_default() += 3.0;
        }
    }
    for (kind, phrases) in KIND_RULES {
        for phrase in *phrases {
            if lower_title.contains(phrase) {
                *scores.entry(*kind).or_default() += 2.0;
            }
            // The first mention counts most; repeats add a little (a contract says "this
            // Agreement" dozens of times, a 10-K mentions an agreement once).
            let n = lower_head.matches(phrase).count();
            if n > 0 {
                *scores.entry(*kind).or_default() += 1.0 + ((n - 1) as f32).min(4.0) * 0.25;
            }
        }
    }
    scores
        .into_iter()
        .filter(|(_, s)| *s >= 2.0)
        .max_by(|a, b| a.1.total_cmp(&b.1).then((b.0 as u8).cmp(&(a.0 as u8))))
        .map(|(k, _)| k)
        .unwrap_or_default()
}

/// The (fiscal) year, quarter and as-of date, and the years the first pages keep coming back
/// to. The file name wins where it states a year or quarter (people name files by period);
/// then fiscal-year phrases; then the as-of date; then the commonest year.
fn period(name_words: &str, title: &str, head: &str, kind: DocKind) -> (Period, Vec<i32>) {
    let named_quarter = dates::quarters(name_words).into_iter().next();
    let named_dates = dates::dates(name_words);
    let named_years = dates::years(name_words);

    let text = format!("{title}\n{head}");
    let fiscal = dates::fiscal_years(&text);
    let as_of = as_of_date(&text).or_else(|| named_dates.first().copied());
    let mut year_counts: HashMap<i32, usize> = HashMap::new();
    for y in dates::years(&text).into_iter().chain(dates::cjk_years(&text)) {
        *year_counts.entry(y).or_default() += 1;
    }
    let commonest = |counts: &HashMap<i32, usize>| {
        counts.iter().max_by(|a, b| a.1.cmp(b.1).then(a.0.cmp(b.0))).map(|(y, _)| *y)
    };
    let mut fiscal_counts: HashMap<i32, usize> = HashMap::new();
    for y in &fiscal {
        *fiscal_counts.entry(*y).or_default() += 1;
    }
    let year = named_quarter
        .and_then(|(_, y)| y)
        .or_else(|| named_years.first().copied())
        .or_else(|| commonest(&fiscal_counts))
        .or_else(|| as_of.map(|d| d.year))
        .or_else(|| commonest(&year_counts));
    let periodic = matches!(kind, DocKind::QuarterlyReport | DocKind::EarningsRelease);
    let quarter = named_quarter.map(|(q, _)| q).or_else(|| {
        if !periodic {
            return None;
        }
        let mut counts: HashMap<u8, usize> = HashMap::new();
        for (q, _) in dates::quarters(head) {
            *counts.entry(q).or_default() += 1;
        }
        counts.into_iter().max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0))).map(|(q, _)| q)
    });
    let mut years: Vec<i32> = year_counts.iter().filter(|(_, n)| **n >= 2).map(|(y, _)| *y).collect();
    years.extend(year);
    years.sort_unstable();
    years.dedup();
    (Period { year, quarter, date: as_of.map(Date::iso) }, years)
}

/// The date a document speaks as of: the date after "period ended", "as of", "dated",
/// "date of report" or "effective", else the first full date on the first page.
fn as_of_date(text: &str) -> Option<Date> {
    let lower = text.to_lowercase();
    const CUES: &[&str] =
        &["period ended", "year ended", "quarter ended", "date of report", "dated", "as of", "effective", "截至", "日期"];
    let mut best: Option<(usize, Date)> = None;
    for cue in CUES {
        if let Some(at) = lower.find(cue) {
            let from = at + cue.len();
            let mut end = (from + 80).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            if !text.is_char_boundary(from) {
                continue;
            }
            if let Some(d) = dates::dates(&text[from..end]).into_iter().next() {
                if best.is_none_or(|(pos, _)| at < pos) {
                    best = Some((at, d));
                }
            }
        }
    }
    best.map(|(_, d)| d).or_else(|| {
        let first_page = text.get(..text.len().min(3000)).unwrap_or(text);
        dates::dates(first_page).into_iter().next()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn facets(title: &str, file: &str, pages: &[&str]) -> DocumentFacets {
        let pages: Vec<String> = pages.iter().map(|s| s.to_string()).collect();
        let path = PathBuf::from(file);
        extract(&FacetSource { title, path: &path, pages: &pages })
    }

    #[test]
    fn an_annual_filing_cover() {
        let f = facets(
            "UNITED STATES",
            "/lib/BESTBUY_2023_10K.pdf",
            &["UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\n(Mark One) ANNUAL REPORT PURSUANT TO SECTION 13\nFor the fiscal year ended January 28, 2023\nBEST BUY CO., INC.\n(Exact name of registrant as specified in its charter)\nBest Buy Co., Inc. and the fiscal 2023 results of the company in fiscal 2023 and fiscal 2022."],
        );
        assert_eq!(f.kind, DocKind::AnnualReport);
        assert_eq!(f.organisation.as_deref(), Some("Best Buy Co., Inc."));
        assert_eq!(f.period.year, Some(2023));
        assert_eq!(f.period.date.as_deref(), Some("2023-01-28"));
        assert!(f.aliases.contains(&"best buy".to_string()) && f.aliases.contains(&"bestbuy".to_string()), "{:?}", f.aliases);
        assert_eq!(f.language, "en");
    }

    #[test]
    fn a_quarterly_report_without_a_telling_file_name() {
        let f = facets(
            "",
            "/lib/report.pdf",
            &["FORM 10-Q\nQUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d)\nFor the quarterly period ended July 29, 2023\nAcme Widgets, Inc.\nResults for the second quarter of fiscal 2024 and the second quarter of fiscal 2023. Acme Widgets, Inc. is"],
        );
        assert_eq!(f.kind, DocKind::QuarterlyReport);
        assert_eq!(f.organisation.as_deref(), Some("Acme Widgets, Inc."));
        assert_eq!(f.period.quarter, Some(2));
        assert_eq!(f.period.date.as_deref(), Some("2023-07-29"));
    }

    #[test]
    fn a_contract_a_paper_and_a_chinese_article() {
        let contract = facets(
            "",
            "/lib/lease.pdf",
            &["LEASE AGREEMENT\nThis Agreement is made on 3 March 2021 between Northwind Traders Ltd (hereinafter the Landlord) and the Tenant. The parties agree as follows. This Agreement may be ended"],
        );
        assert_eq!(contract.kind, DocKind::Contract);
        assert_eq!(contract.period.date.as_deref(), Some("2021-03-03"));
        assert_eq!(contract.organisation.as_deref(), Some("Northwind Traders Ltd."));
        let paper = facets(
            "Attention Is All You Need",
            "/lib/1706.03762.pdf",
            &["Attention Is All You Need\nAbstract\nThe dominant sequence transduction models are based on complex recurrent networks. Keywords: attention\nProceedings of the 31st Conference, 2017"],
        );
        assert_eq!(paper.kind, DocKind::Paper);
        assert_eq!(paper.period.year, Some(2017));
        let zh = facets("", "/lib/rag.txt", &["检索增强生成（RAG）在2023年成为企业知识库的主流方案。本文介绍其架构、评估与落地经验，并讨论向量数据库的选择。"]);
        assert_eq!(zh.language, "zh");
        assert_eq!(zh.period.year, Some(2023));
    }

    #[test]
    fn the_file_name_period_wins() {
        let f = facets("", "/lib/AMCOR_2023Q2_10Q.pdf", &["Amcor plc quarterly report for the period ended December 31, 2022. Amcor plc"]);
        assert_eq!((f.period.year, f.period.quarter), (Some(2023), Some(2)));
        assert_eq!(f.kind, DocKind::QuarterlyReport);
    }
}
