//! Years, fiscal years, quarters and calendar dates as people write them in documents and
//! questions, in English and Chinese ("FY2018", "fiscal 2023", "Q2", "second quarter",
//! "July 1, 2022", "1st July 2022", "2022-07-01", "2022年7月1日", "第二季度").

use std::sync::OnceLock;

use regex::Regex;

/// A calendar date; ordered, and comparable in approximate days through [`Date::day_number`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

impl Date {
    pub fn day_number(self) -> i64 {
        self.year as i64 * 372 + self.month as i64 * 31 + self.day as i64
    }

    pub fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    pub fn parse_iso(s: &str) -> Option<Date> {
        let mut it = s.split('-');
        let year = it.next()?.parse().ok()?;
        let month = it.next()?.parse().ok()?;
        let day = it.next()?.parse().ok()?;
        valid(year, month, day)
    }
}

fn valid(year: i32, month: u32, day: u32) -> Option<Date> {
    ((1900..=2099).contains(&year) && (1..=12).contains(&month) && (1..=31).contains(&day)).then_some(Date {
        year,
        month: month as u8,
        day: day as u8,
    })
}

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

fn month_number(word: &str) -> Option<u32> {
    let w = word.to_ascii_lowercase();
    MONTHS.iter().position(|m| w.starts_with(m)).map(|i| i as u32 + 1)
}

fn is_year(n: u32) -> bool {
    (1900..=2099).contains(&n)
}

/// Standalone four-digit years (1900–2099), in order of appearance. A digit run that is part
/// of a larger number ("$2,018", "12018", "2018.5") is not a year.
pub fn years(text: &str) -> Vec<i32> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i - start != 4 {
            continue;
        }
        let before = start.checked_sub(1).map(|b| bytes[b]);
        let after = bytes.get(i).copied();
        let after2 = bytes.get(i + 1).copied();
        // "2021-2023" and "2021/22" are ranges of years; "555-2023" and "1,2023" are numbers.
        let previous_is_year = start >= 5
            && bytes[start - 5..start - 1].iter().all(u8::is_ascii_digit)
            && (start == 5 || !bytes[start - 6].is_ascii_digit())
            && text[start - 5..start - 1].parse::<u32>().is_ok_and(is_year);
        let glued_before = match before {
            Some(b'-' | b'/') => start >= 2 && bytes[start - 2].is_ascii_digit() && !previous_is_year,
            Some(b'.' | b',') => start >= 2 && bytes[start - 2].is_ascii_digit(),
            _ => false,
        };
        let glued_after = matches!(after, Some(b',' | b'.' | b'/')) && after2.is_some_and(|c| c.is_ascii_digit());
        if glued_before || glued_after || before == Some(b'$') {
            continue;
        }
        if let Ok(n) = text[start..i].parse::<u32>() {
            if is_year(n) {
                out.push(n as i32);
            }
        }
    }
    out
}

fn two_or_four_digit_year(s: &str) -> Option<i32> {
    let n: u32 = s.parse().ok()?;
    match s.len() {
        2 => Some(2000 + n as i32),
        4 if is_year(n) => Some(n as i32),
        _ => None,
    }
}

fn fiscal_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?:\bFY\s?'?(\d{4}|\d{2})(?:\b|Q[1-4])|\bfiscal\s+(?:year\s+)?(\d{4})\b|\b(\d{4})\s+fiscal\s+year\b|(\d{4})\s*(?:财年|财政年度|年度))")
            .unwrap_or_else(|e| panic!("fiscal year pattern: {e}"))
    })
}

/// Years named as fiscal years: "FY2018", "FY 18", "fiscal 2023", "fiscal year 2022",
/// "2022 fiscal year", "2022财年", "2022年度".
pub fn fiscal_years(text: &str) -> Vec<i32> {
    fiscal_regex()
        .captures_iter(text)
        .filter_map(|c| (1..=4).find_map(|i| c.get(i)).and_then(|m| two_or_four_digit_year(m.as_str())))
        .collect()
}

fn quarter_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)
            (?:\b(?P<y1>\d{4})\s*-?\s*Q(?P<q1>[1-4])\b)
          | (?:\bFY\s?'?(?P<y2>\d{4}|\d{2})\s*-?\s*Q(?P<q2>[1-4])\b)
          | (?:\bQ(?P<q3>[1-4])(?:\s*(?:of\s+)?(?:FY|fiscal(?:\s+year)?)?\s*'?(?P<y3>\d{4}|\d{2})\b)?)
          | (?:\b(?P<q4>[1-4])Q\s*'?(?P<y4>\d{4}|\d{2})?\b)
          | (?:\b(?P<w5>first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter(?:\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?(?P<y5>\d{4})\b)?)
          | (?:第?(?P<w6>[一二三四1-4])季度)
            ",
        )
        .unwrap_or_else(|e| panic!("quarter pattern: {e}"))
    })
}

fn quarter_word(w: &str) -> Option<u8> {
    match w.to_ascii_lowercase().as_str() {
        "first" | "1st" | "一" | "1" => Some(1),
        "second" | "2nd" | "二" | "2" => Some(2),
        "third" | "3rd" | "三" | "3" => Some(3),
        "fourth" | "4th" | "四" | "4" => Some(4),
        _ => None,
    }
}

/// Quarters with the year written beside them, if any: "Q2 of FY2024" → (2, Some(2024)),
/// "2023Q2" → (2, Some(2023)), "second quarter" → (2, None), "第二季度" → (2, None).
pub fn quarters(text: &str) -> Vec<(u8, Option<i32>)> {
    // File names glue words with underscores, which `\b` reads as letters.
    let text = text.replace('_', " ");
    let mut out = Vec::new();
    for c in quarter_regex().captures_iter(&text) {
        let pick = |q: &str, y: &str| {
            let quarter = c.name(q).and_then(|m| quarter_word(m.as_str()))?;
            Some((quarter, c.name(y).and_then(|m| two_or_four_digit_year(m.as_str()))))
        };
        if let Some(found) = pick("q1", "y1")
            .or_else(|| pick("q2", "y2"))
            .or_else(|| pick("q3", "y3"))
            .or_else(|| pick("q4", "y4"))
            .or_else(|| pick("w5", "y5"))
            .or_else(|| pick("w6", "none"))
        {
            out.push(found);
        }
    }
    out
}

fn date_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)
            (?:\b(?P<m1>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y1>\d{4})\b)
          | (?:\b(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?\s+(?P<y2>\d{4})\b)
          | (?:\b(?P<y3>\d{4})[-_/](?P<m3>\d{1,2})[-_/](?P<d3>\d{1,2})\b)
          | (?:(?P<y4>\d{4})\s*年\s*(?P<m4>\d{1,2})\s*月\s*(?P<d4>\d{1,2})\s*日)
            ",
        )
        .unwrap_or_else(|e| panic!("date pattern: {e}"))
    })
}

/// Calendar dates in order of appearance.
pub fn dates(text: &str) -> Vec<Date> {
    let mut out = Vec::new();
    for c in date_regex().captures_iter(text) {
        let num = |name: &str| c.name(name).and_then(|m| m.as_str().parse::<u32>().ok());
        let found = if let (Some(m), Some(d), Some(y)) = (c.name("m1"), num("d1"), num("y1")) {
            month_number(m.as_str()).and_then(|m| valid(y as i32, m, d))
        } else if let (Some(d), Some(m), Some(y)) = (num("d2"), c.name("m2"), num("y2")) {
            month_number(m.as_str()).and_then(|m| valid(y as i32, m, d))
        } else if let (Some(y), Some(m), Some(d)) = (num("y3"), num("m3"), num("d3")) {
            valid(y as i32, m, d)
        } else if let (Some(y), Some(m), Some(d)) = (num("y4"), num("m4"), num("d4")) {
            valid(y as i32, m, d)
        } else {
            None
        };
        out.extend(found);
    }
    out
}

/// Years written as "2022年" or "2022 年" (where `\b` finds no word boundary).
pub fn cjk_years(text: &str) -> Vec<i32> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"(\d{4})\s*年").unwrap_or_else(|e| panic!("cjk year pattern: {e}")));
    re.captures_iter(text)
        .filter_map(|c| c.get(1)?.as_str().parse::<u32>().ok().filter(|n| is_year(*n)).map(|n| n as i32))
        .collect()
}

/// YYYY-MM-DD (UTC) of a Unix time in nanoseconds, by the days-from-civil inverse
/// (Howard Hinnant's algorithm), so no calendar crate is needed for one date.
pub fn date_of(mtime_ns: i64) -> String {
    let days = mtime_ns.div_euclid(86_400_000_000_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_skip_parts_of_larger_numbers() {
        assert_eq!(years("In 2022 sales were $2,018 million, up from 12018 units; FY 2023."), vec![2022, 2023]);
        assert_eq!(years("December 31, 2018, and 2017"), vec![2018, 2017]);
        assert_eq!(years("retreat 2021-2023, call 555-2023"), vec![2021, 2023]);
    }

    #[test]
    fn fiscal_years_in_several_spellings() {
        assert_eq!(fiscal_years("FY2018 capex vs FY 17, fiscal 2023 and fiscal year 2021, 2020 fiscal year"), vec![2018, 2017, 2023, 2021, 2020]);
        assert_eq!(fiscal_years("FY2023Q1 guidance"), vec![2023]);
        assert_eq!(fiscal_years("2022财年收入"), vec![2022]);
    }

    #[test]
    fn quarters_with_and_without_years() {
        assert_eq!(quarters("Q2 of FY2024"), vec![(2, Some(2024))]);
        assert_eq!(quarters("AMCOR_2023Q2_10Q"), vec![(2, Some(2023))]);
        assert_eq!(quarters("As of FY2023Q1"), vec![(1, Some(2023))]);
        assert_eq!(quarters("results for the second quarter of fiscal 2024"), vec![(2, Some(2024))]);
        assert_eq!(quarters("第三季度营收"), vec![(3, None)]);
        assert!(quarters("quarterly dividends").is_empty());
    }

    #[test]
    fn dates_in_several_spellings() {
        let d = |y, m, dd| Date { year: y, month: m, day: dd };
        assert_eq!(dates("filing dated 1st July 2022"), vec![d(2022, 7, 1)]);
        assert_eq!(dates("As of May 26, 2023, the total"), vec![d(2023, 5, 26)]);
        assert_eq!(dates("8K_dated-2022-07-01"), vec![d(2022, 7, 1)]);
        assert_eq!(dates("2023年5月30日召开"), vec![d(2023, 5, 30)]);
        assert!(dates("May 2023").is_empty());
    }

    #[test]
    fn chinese_years() {
        assert_eq!(cjk_years("2022年营收增长，2021 年持平"), vec![2022, 2021]);
    }
}
