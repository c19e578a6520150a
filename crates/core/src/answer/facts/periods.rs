//! Periods and versions a text names, in any form: "FY2023", "fiscal 2023" and "2023财年";
//! "Q2", "second quarter" and "第二季度"; "31 December 2024", "December 31, 2024", "2024-12-31"
//! and "2024年12月31日"; "v10.0.0" and "version 14". A claim is about the period it names, so
//! a fact moved to another year or quarter is another fact.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use crate::text::fold_width;
use crate::text::cached_regex as re;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Period {
    Year(i32),
    Quarter { year: Option<i32>, quarter: u8 },
    Half { year: Option<i32>, half: u8 },
    Month { year: Option<i32>, month: u8 },
    Date { year: Option<i32>, month: u8, day: u8 },
    /// A version number without a leading "v" and trailing ".0"s: "10", "14.2".
    Version(String),
}

/// A period as people read it in either language: "2026", "Q3 2026", "H1 2026", "2026-03",
/// "2026-03-31", "v14.2"; a part without a year leaves the year out.
impl std::fmt::Display for Period {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let year = |y: &Option<i32>| y.map(|y| format!(" {y}")).unwrap_or_default();
        match self {
            Period::Year(y) => write!(f, "{y}"),
            Period::Quarter { year: y, quarter } => write!(f, "Q{quarter}{}", year(y)),
            Period::Half { year: y, half } => write!(f, "H{half}{}", year(y)),
            Period::Month { year: Some(y), month } => write!(f, "{y}-{month:02}"),
            Period::Month { year: None, month } => write!(f, "--{month:02}"),
            Period::Date { year: Some(y), month, day } => write!(f, "{y}-{month:02}-{day:02}"),
            Period::Date { year: None, month, day } => write!(f, "--{month:02}-{day:02}"),
            Period::Version(v) => write!(f, "v{v}"),
        }
    }
}

impl Period {
    pub(crate) fn year(&self) -> Option<i32> {
        match self {
            Period::Year(y) => Some(*y),
            Period::Quarter { year, .. } | Period::Half { year, .. } | Period::Month { year, .. } | Period::Date { year, .. } => *year,
            Period::Version(_) => None,
        }
    }

    /// Whether `other` names this period (or a narrower one inside it).
    pub fn named_by(&self, other: &Period) -> bool {
        let years_fit = |a: Option<i32>, b: Option<i32>| a.is_none() || b.is_none() || a == b;
        match (self, other) {
            (Period::Year(y), o) => o.year() == Some(*y),
            (Period::Quarter { year, quarter }, Period::Quarter { year: y2, quarter: q2 }) => quarter == q2 && years_fit(*year, *y2),
            (Period::Half { year, half }, Period::Half { year: y2, half: h2 }) => half == h2 && years_fit(*year, *y2),
            (Period::Month { year, month }, Period::Month { year: y2, month: m2 } | Period::Date { year: y2, month: m2, .. }) => {
                month == m2 && years_fit(*year, *y2)
            }
            (Period::Date { year, month, day }, Period::Date { year: y2, month: m2, day: d2 }) => {
                month == m2 && day == d2 && years_fit(*year, *y2)
            }
            (Period::Version(a), Period::Version(b)) => a == b,
            _ => false,
        }
    }

    /// Whether `other` is a period of the same kind, so that naming it instead is a conflict
    /// rather than a silence.
    pub fn same_kind(&self, other: &Period) -> bool {
        match (self, other) {
            (Period::Year(_), o) => o.year().is_some(),
            (Period::Quarter { .. }, Period::Quarter { .. }) | (Period::Half { .. }, Period::Half { .. }) => true,
            (Period::Month { .. } | Period::Date { .. }, Period::Month { .. } | Period::Date { .. }) => true,
            (Period::Version(_), Period::Version(_)) => true,
            _ => false,
        }
    }
}

fn month_number(name: &str) -> Option<u8> {
    let n = name.to_lowercase();
    let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    months.iter().position(|m| n.starts_with(m)).map(|i| i as u8 + 1)
}

fn ordinal(word: &str) -> Option<u8> {
    Some(match word.to_lowercase().as_str() {
        "first" | "1st" | "一" | "1" => 1,
        "second" | "2nd" | "二" | "2" => 2,
        "third" | "3rd" | "三" | "3" => 3,
        "fourth" | "4th" | "四" | "4" => 4,
        _ => return None,
    })
}

fn year_of(digits: &str) -> Option<i32> {
    let n: i32 = digits.parse().ok()?;
    match digits.len() {
        4 if (1900..2100).contains(&n) => Some(n),
        2 => Some(2000 + n),
        _ => None,
    }
}

const MONTHS: &str = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?";

/// Every period the text names, with its byte range (in the width-folded text).
pub fn periods(original: &str) -> Vec<(Period, Range<usize>)> {
    let text = fold_width(original);
    let mut found = Found::default();
    dates(&text, &mut found);
    months_quarters_halves(&text, &mut found);
    cjk_years(&text, &mut found);
    for (v, r) in versions(&text) {
        found.push(Period::Version(v), r);
    }
    years(&text, &mut found);
    let mut out = found.out;
    for (_, r) in &mut out {
        *r = crate::text::unfold_range(original, &text, r.clone());
    }
    out.sort_by_key(|(_, r)| r.start);
    out
}

/// The periods found so far, each over text that no earlier, more specific one took (a date's
/// year is not a period of its own).
#[derive(Default)]
struct Found {
    out: Vec<(Period, Range<usize>)>,
    taken: Vec<Range<usize>>,
}

impl Found {
    fn push(&mut self, period: Period, range: Range<usize>) {
        if !self.taken.iter().any(|t| t.start < range.end && range.start < t.end) {
            self.taken.push(range.clone());
            self.out.push((period, range));
        }
    }
}

/// Dates in ISO, Chinese, day-month, month-day and US order (and Chinese months).
fn dates(text: &str, found: &mut Found) {
    static ISO: OnceLock<Regex> = OnceLock::new();
    for c in re(&ISO, r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b").captures_iter(text) {
        let (Some(y), Some(m), Some(d)) = (year_of(&c[1]), c[2].parse::<u8>().ok(), c[3].parse::<u8>().ok()) else { continue };
        if (1..=12).contains(&m) && (1..=31).contains(&d) {
            found.push(Period::Date { year: Some(y), month: m, day: d }, c.get(0).map_or(0..0, |g| g.range()));
        }
    }
    static CJK_DATE: OnceLock<Regex> = OnceLock::new();
    // Written in digits or in Chinese numerals ("二〇二五年十一月五日").
    let number = |s: &str| s.parse::<u32>().ok().or_else(|| super::numerals::cjk_number(s).map(|n| n as u32));
    for c in re(
        &CJK_DATE,
        r"(?:(\d{4}|[〇零一二三四五六七八九]{4})\s*年\s*)?(\d{1,2}|十[一二]?|[一二三四五六七八九])\s*月(?:\s*(\d{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])\s*[日号])?",
    )
    .captures_iter(text)
    {
        let year = c.get(1).and_then(|y| number(y.as_str())).and_then(|y| year_of(&y.to_string()));
        let Some(m) = number(&c[2]).and_then(|m| u8::try_from(m).ok()).filter(|m| (1..=12).contains(m)) else { continue };
        let range = c.get(0).map_or(0..0, |g| g.range());
        match c.get(3).and_then(|d| number(d.as_str())).and_then(|d| u8::try_from(d).ok()).filter(|d| (1..=31).contains(d)) {
            Some(d) => found.push(Period::Date { year, month: m, day: d }, range),
            None => found.push(Period::Month { year, month: m }, range),
        }
    }
    static DMY: OnceLock<Regex> = OnceLock::new();
    let dmy = format!(r"(?i)\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({MONTHS})(?:,?\s+(\d{{4}}))?\b");
    for c in re(&DMY, &dmy).captures_iter(text) {
        let (Some(d), Some(m)) = (c[1].parse::<u8>().ok(), month_number(&c[2])) else { continue };
        let year = c.get(3).and_then(|y| year_of(y.as_str()));
        found.push(Period::Date { year, month: m, day: d }, c.get(0).map_or(0..0, |g| g.range()));
    }
    static MDY: OnceLock<Regex> = OnceLock::new();
    let mdy = format!(r"(?i)\b({MONTHS})\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?\b");
    for c in re(&MDY, &mdy).captures_iter(text) {
        let (Some(m), Some(d)) = (month_number(&c[1]), c[2].parse::<u8>().ok()) else { continue };
        if d > 31 {
            continue;
        }
        let year = c.get(3).and_then(|y| year_of(y.as_str()));
        found.push(Period::Date { year, month: m, day: d }, c.get(0).map_or(0..0, |g| g.range()));
    }
    static US: OnceLock<Regex> = OnceLock::new();
    for c in re(&US, r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b").captures_iter(text) {
        let (Some(m), Some(d), Some(y)) = (c[1].parse::<u8>().ok(), c[2].parse::<u8>().ok(), year_of(&c[3])) else { continue };
        if (1..=12).contains(&m) {
            found.push(Period::Date { year: Some(y), month: m, day: d }, c.get(0).map_or(0..0, |g| g.range()));
        }
    }
}

fn months_quarters_halves(text: &str, found: &mut Found) {
    static MONTH_YEAR: OnceLock<Regex> = OnceLock::new();
    let my = format!(r"(?i)\b({MONTHS})(?:\s+of)?\s+(\d{{4}})\b");
    for c in re(&MONTH_YEAR, &my).captures_iter(text) {
        let (Some(m), Some(y)) = (month_number(&c[1]), year_of(&c[2])) else { continue };
        found.push(Period::Month { year: Some(y), month: m }, c.get(0).map_or(0..0, |g| g.range()));
    }
    static QUARTER: OnceLock<Regex> = OnceLock::new();
    let quarter = re(
        &QUARTER,
        r"(?i)\bQ([1-4])(?:\s*(?:FY\s*)?'?(\d{4}|\d{2})\b)?|\b([1-4])Q\s*'?(\d{2}|\d{4})?\b|\b(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal\s+)?quarter(?:\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?)?(\d{4}))?|(?:(\d{4})\s*年\s*)?第?([一二三四1-4])\s*季度",
    );
    for c in quarter.captures_iter(text) {
        let q = c.get(1).or(c.get(3)).or(c.get(5)).or(c.get(8)).and_then(|g| ordinal(g.as_str()));
        let year = c.get(2).or(c.get(4)).or(c.get(6)).or(c.get(7)).and_then(|g| year_of(g.as_str()));
        if let Some(q) = q {
            found.push(Period::Quarter { year, quarter: q }, c.get(0).map_or(0..0, |g| g.range()));
        }
    }
    static HALF: OnceLock<Regex> = OnceLock::new();
    let half = re(&HALF, r"(?i)\bH([12])(?:\s*'?(\d{4}|\d{2}))?\b|\b(first|second)\s+half(?:\s+of\s+(\d{4}))?|(?:(\d{4})\s*年\s*)?([上下])半年");
    for c in half.captures_iter(text) {
        let h = match (c.get(1), c.get(3), c.get(6)) {
            (Some(n), _, _) => n.as_str().parse::<u8>().ok(),
            (_, Some(w), _) => ordinal(w.as_str()),
            (_, _, Some(z)) => Some(if z.as_str() == "上" { 1 } else { 2 }),
            _ => None,
        };
        let year = c.get(2).or(c.get(4)).or(c.get(5)).and_then(|g| year_of(g.as_str()));
        if let Some(h) = h {
            found.push(Period::Half { year, half: h }, c.get(0).map_or(0..0, |g| g.range()));
        }
    }
}

/// Years written in Chinese numerals ("二〇二四年").
fn cjk_years(text: &str, found: &mut Found) {
    static CJK_YEAR: OnceLock<Regex> = OnceLock::new();
    for c in re(&CJK_YEAR, r"([〇零一二三四五六七八九]{4})\s*年").captures_iter(text) {
        let digits: String = c[1]
            .chars()
            .map(|ch| match ch {
                '〇' | '零' => '0',
                '一' => '1',
                '二' => '2',
                '三' => '3',
                '四' => '4',
                '五' => '5',
                '六' => '6',
                '七' => '7',
                '八' => '8',
                _ => '9',
            })
            .collect();
        if let Some(y) = year_of(&digits) {
            found.push(Period::Year(y), c.get(1).map_or(0..0, |g| g.range()));
        }
    }
}

/// Fiscal and bare years, each where no other period took it.
fn years(text: &str, found: &mut Found) {
    static YEAR: OnceLock<Regex> = OnceLock::new();
    let year = re(&YEAR, r"(?i)\bFY\s?'?(\d{4}|\d{2})\b|\bfiscal\s+(?:year\s+)?(\d{4})\b|(\d{4})\s*(?:财年|年度|财政年度)|((?:19|20)\d{2})");
    for c in year.captures_iter(text) {
        let Some(g) = c.get(1).or(c.get(2)).or(c.get(3)).or(c.get(4)) else { continue };
        let Some(y) = year_of(g.as_str()) else { continue };
        if c.get(4).is_some() {
            // A bare year stands alone: not inside a longer number ("120221", "2,024", "20.23").
            let before = text[..g.start()].chars().next_back();
            let rest = &text[g.end()..];
            // A separator glues only when a digit follows it: "2021." ends a sentence, "2021.5"
            // is a number.
            let glued_after = rest.starts_with(|ch: char| ch.is_ascii_digit() || ch == '%' || ch.is_ascii_alphabetic())
                || ((rest.starts_with('.') || rest.starts_with(',')) && rest[1..].starts_with(|ch: char| ch.is_ascii_digit()));
            let glued_before = before.is_some_and(|ch| ch.is_ascii_digit() || ch == '.' || ch == ',' || ch.is_ascii_alphabetic());
            if glued_before || glued_after {
                continue;
            }
        }
        // A year followed by a unit is a figure ("2022 kW", "2,024 members"), not a year.
        if c.get(4).is_some() && unit_follows(&text[g.end()..]) {
            continue;
        }
        let range = c.get(0).map_or(0..0, |g| g.range());
        if !found.taken.iter().any(|t| t.start <= g.start() && g.end() <= t.end) {
            found.out.push((Period::Year(y), g.start().min(range.end)..g.end()));
            found.taken.push(g.range());
        }
    }
}

/// Whether the text right after a number starts with a unit: then the number is an amount.
fn unit_follows(after: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(
        &RE,
        r"(?i)^\s?(?:[kmgt]?wh?|[kmgt]?wp|members?|people|persons?|employees?|staff|users?|customers?|units?|shares?|tonnes?|tons?|kg|km|miles?|hours?|days?|minutes?|seconds?|[kmgt]i?b|bytes?|pounds?|dollars?|euros?|yuan|元|人|个|名|台|次|条|项)\b",
    )
    .is_match(after)
}

/// Version numbers: "v10.0.0", "1.2.3", "version 14", "版本 3.2".
fn versions(text: &str) -> Vec<(String, Range<usize>)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = re(&RE, r"(?i)\bv(\d+(?:\.\d+)*)\b|\b(\d+\.\d+\.\d+(?:\.\d+)*)\b|\b(?:version|release)\s*(\d+(?:\.\d+)*)|版本\s*(\d+(?:\.\d+)*|[一二三四五六七八九十]+)|\b(\d+(?:\.\d+)+)\s*版");
    re.captures_iter(text)
        .filter_map(|c| {
            let chinese = c.get(4).filter(|g| !g.as_str().starts_with(|ch: char| ch.is_ascii_digit()));
            let converted = chinese.and_then(|g| super::numerals::cjk_number(g.as_str())).map(|n| format!("{n}"));
            let v = match &converted {
                Some(n) => n.as_str(),
                None => c.get(1).or(c.get(2)).or(c.get(3)).or(c.get(4)).or(c.get(5))?.as_str(),
            };
            let mut parts: Vec<&str> = v.split('.').collect();
            while parts.len() > 1 && parts.last() == Some(&"0") {
                parts.pop();
            }
            Some((parts.join("."), c.get(0)?.range()))
        })
        .collect()
}

/// Byte ranges whose digits are not amounts: dates, clock times, version numbers, quarter
/// and half-year codes and years.
pub fn non_amount_spans(text: &str) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = periods(text).into_iter().map(|(_, r)| r).collect();
    static TIME: OnceLock<Regex> = OnceLock::new();
    out.extend(re(&TIME, r"\b\d{1,2}:\d{2}(?::\d{2})?\b|\d{1,2}\s*[点时]\s*\d{1,2}\s*分(?:\s*\d{1,2}\s*秒)?").find_iter(text).map(|m| m.range()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Period> {
        periods(text).into_iter().map(|(p, _)| p).collect()
    }

    #[test]
    fn dates_in_any_form_are_one_date() {
        let iso = kinds("as of 2024-12-31");
        for other in ["on 31 December 2024", "December 31, 2024", "2024年12月31日", "二〇二四年十二月三十一日", "12/31/2024"] {
            let p = kinds(other);
            assert!(p.iter().any(|o| iso[0].named_by(o)), "{other}: {p:?}");
        }
        assert!(!iso[0].named_by(&kinds("30 December 2024")[0]));
    }

    #[test]
    fn periods_read_the_same_in_either_language() {
        let shown: Vec<String> = ["FY2023", "Q2 2023", "2023年上半年", "as of 2024-12-31", "Added in: v14.2.0"]
            .iter()
            .flat_map(|t| kinds(t))
            .map(|p| p.to_string())
            .collect();
        assert_eq!(shown, ["2023", "Q2 2023", "H1 2023", "2024-12-31", "v14.2"]);
    }

    #[test]
    fn fiscal_years_quarters_halves_and_versions() {
        assert_eq!(kinds("FY2023 and fiscal 2022"), vec![Period::Year(2023), Period::Year(2022)]);
        assert_eq!(kinds("2023财年"), vec![Period::Year(2023)]);
        assert_eq!(kinds("in Q2 2023"), vec![Period::Quarter { year: Some(2023), quarter: 2 }]);
        assert_eq!(kinds("the second quarter of fiscal 2023"), vec![Period::Quarter { year: Some(2023), quarter: 2 }]);
        assert_eq!(kinds("2023年第二季度"), vec![Period::Quarter { year: Some(2023), quarter: 2 }]);
        assert_eq!(kinds("上半年"), vec![Period::Half { year: None, half: 1 }]);
        assert_eq!(kinds("Added in: v10.0.0"), vec![Period::Version("10".into())]);
        assert!(kinds("2022 kW of capacity").is_empty());
        assert_eq!(kinds("in 2022 the board"), vec![Period::Year(2022)]);
        assert!(Period::Year(2024).named_by(&kinds("31 December 2024")[0]));
        assert!(Period::Year(2023).same_kind(&Period::Year(2024)));
        assert!(!Period::Quarter { year: None, quarter: 2 }.named_by(&Period::Quarter { year: None, quarter: 3 }));
    }
}
