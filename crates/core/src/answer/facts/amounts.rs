//! Figures as amounts: a value, what it measures and how precisely it was written, whatever
//! the form. "$3.2 billion", "$3,200 million" and "3,200" under "(in millions)" are one
//! amount; "three" is 3; "1.2万" is 12,000; "百分之三十八" is 38%. Dates, clock times and
//! version numbers are not amounts (their digits are read by `periods`).

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use super::numerals::cjk_number;
use super::periods::non_amount_spans;
use crate::text::fold_width;

/// What a figure measures. Two amounts of different families are never the same figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// A bare number: compatible with any family (the unit is often written once only).
    Plain,
    Currency,
    Percent,
    /// Percentage points and basis points: a change of a percentage, not a percentage.
    Points,
    Bytes,
    Time,
    Power,
    Energy,
    Length,
    Mass,
    Volume,
    Count,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Amount {
    /// In base units: currency units, percent, bytes, seconds, watts, metres, grams, litres.
    pub value: f64,
    /// The number as written, before scale words and units ("3.2" of "$3.2 billion").
    pub written: f64,
    /// Digits after the decimal point as written: how precisely the figure was stated.
    pub decimals: u32,
    pub family: Family,
    /// A scale word or prefix was written ("billion", "万", "M" of "MW"): the value is not
    /// the written number.
    pub scaled: bool,
    /// Written in words ("three"): a claim's word may stand for no figure of the source at
    /// all ("two of the segments"), so it is only checked where the source has it.
    pub spelled: bool,
    /// Byte range in the text, unit and scale word included.
    pub span: Range<usize>,
}

impl Amount {
    /// Whether `other` (from a source) states this amount: the same family (or one left
    /// unwritten) and a value within the precision this one was written with ("$3.2 billion"
    /// is stated by $3,177 million; "12%" by 11.9%).
    pub fn stated_by(&self, other: &Amount) -> bool {
        if !families_agree(self.family, other.family) {
            return false;
        }
        // The same number with its scale written once and left out once: "5,000" in a claim
        // for "$5,000 million", or "$5,000 million" for "5,000" in a table whose caption the
        // passage lacks.
        // Units written on both sides are not left out: "32 bits" is not "32 bytes".
        let both_units = self.family == other.family && !matches!(self.family, Family::Plain | Family::Currency);
        if self.written == other.written && (!self.scaled || !other.scaled) && !(both_units && self.value != other.value) {
            return true;
        }
        let unit_of_last_digit = 10f64.powi(-(self.decimals as i32)) * (self.value / self.written.max(f64::MIN_POSITIVE)).abs();
        let tolerance = 0.5 * unit_of_last_digit;
        let close = |v: f64| (self.value - v).abs() <= tolerance + f64::EPSILON;
        if close(other.value) {
            return true;
        }
        // Financial tables give bare figures in thousands or millions, the caption often on
        // another page: "$1.46 billion" is the "1,464" of such a table.
        let bare_table_figure = !other.scaled && matches!(other.family, Family::Plain | Family::Currency);
        bare_table_figure && self.scaled && matches!(self.family, Family::Plain | Family::Currency) && (close(other.value * 1e3) || close(other.value * 1e6))
    }

    /// How far `other` is from this amount, relative to its size; the same digits are
    /// nearest whatever the scale written.
    pub fn distance(&self, other: &Amount) -> f64 {
        if self.written == other.written {
            return 0.0;
        }
        (self.value - other.value).abs() / self.value.abs().max(f64::MIN_POSITIVE)
    }

    /// The same digits as `other` at another scale or in another unit: "$3.2 billion" for
    /// "$3.2 million", "47 hours" for "47 minutes", "2%" for "2 percentage points".
    pub fn rescaled_from(&self, other: &Amount) -> bool {
        if self.stated_by(other) {
            return false;
        }
        let same_digits = (self.written - other.written).abs() <= 1e-9 * self.written.abs().max(1.0);
        let other_family = !families_agree(self.family, other.family) && self.family != Family::Plain && other.family != Family::Plain;
        let ratio = if other.value != 0.0 { self.value / other.value } else { 0.0 };
        let power_step = [1e3, 1e-3, 1e6, 1e-6, 1e4, 1e-4, 1e8, 1e-8, 1024.0, 1.0 / 1024.0, 60.0, 1.0 / 60.0, 100.0, 0.01]
            .iter()
            .any(|p| (ratio - p).abs() <= 1e-6 * p);
        (same_digits && (other_family || self.value != other.value)) || (power_step && families_agree(self.family, other.family))
    }
}

pub(crate) fn families_agree(a: Family, b: Family) -> bool {
    a == b || a == Family::Plain || b == Family::Plain || matches!((a, b), (Family::Count, Family::Plain) | (Family::Plain, Family::Count))
}

fn number_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)
            (?P<currency>[$€£¥]|US\$|USD\s?|EUR\s?|GBP\s?|RMB\s?|CNY\s?)?
            (?P<num>\d[\d,]*(?:\.\d+)?|\.\d+)
            (?P<suffix>
                \s?(?:%|percentage\s+points?|percent|per\s?cent|pp\b|pts?\b|basis\s+points?|bps\b|个百分点|百分点)
              | \s?(?:trillion|billion|million|thousand|bn|mn|tn|m|b|k)\b
              | \s?(?:万亿|亿|万|千)
            )?
            (?P<unit>
                \s?(?:[kmgtp]i?b|bytes?|bits?|kilobytes?|megabytes?|gigabytes?|terabytes?)\b
              | \s?(?:[kmgt]?wh|[kmgt]?w|[kmgt]?wp)\b
              | \s?(?:ns|nanoseconds?|[µμ]s|microseconds?|ms|milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\b
              | \s?(?:纳秒|微秒|毫秒|秒钟|秒|分钟|小时|天|周|个月|年|字节)
              | \s?(?:元|美元|欧元|英镑|人民币|pounds?|pence|dollars?|euros?|cents?|yuan)
              | \s?(?:km|kilometres?|kilometers?|metres?|meters?|cm|mm|miles?|feet|foot|inches|inch|米|公里)\b
              | \s?(?:kg|kilograms?|grams?|tonnes?|tons?|lbs?|吨|公斤|克)\b
              | \s?(?:litres?|liters?|gallons?|ml|升)\b
              | \s?(?:members?|people|persons?|staff|employees?|users?|customers?|students?|pupils?|volunteers?|人|名|位)
            )?",
        )
        .unwrap_or_else(|_| unreachable!())
    })
}

fn scale_of(suffix: &str) -> Option<f64> {
    Some(match suffix.trim().to_lowercase().as_str() {
        "trillion" | "tn" | "万亿" => 1e12,
        "billion" | "bn" | "b" => 1e9,
        "million" | "mn" | "m" => 1e6,
        "thousand" | "k" | "千" => 1e3,
        "亿" => 1e8,
        "万" => 1e4,
        _ => return None,
    })
}

/// The family and base-unit factor of a unit word.
fn unit_of(unit: &str) -> Option<(Family, f64)> {
    let u = unit.trim();
    let lower = u.to_lowercase();
    let l = lower.as_str();
    let bytes = |prefix: char, binary: bool| {
        let step: f64 = if binary { 1024.0 } else { 1000.0 };
        match prefix {
            'k' => step,
            'm' => step.powi(2),
            'g' => step.powi(3),
            't' => step.powi(4),
            'p' => step.powi(5),
            _ => 1.0,
        }
    };
    Some(match l {
        "b" | "byte" | "bytes" => (Family::Bytes, 1.0),
        "bit" | "bits" => (Family::Bytes, 0.125),
        "kb" | "kib" | "mb" | "mib" | "gb" | "gib" | "tb" | "tib" | "pb" | "pib" => {
            // People write KB for 1,024 bytes as often as for 1,000; both read as the same step.
            let prefix = l.chars().next().unwrap_or('b');
            (Family::Bytes, bytes(prefix, true))
        }
        "字节" => (Family::Bytes, 1.0),
        "kilobyte" | "kilobytes" => (Family::Bytes, 1024.0),
        "megabyte" | "megabytes" => (Family::Bytes, 1024.0 * 1024.0),
        "gigabyte" | "gigabytes" => (Family::Bytes, 1024.0f64.powi(3)),
        "terabyte" | "terabytes" => (Family::Bytes, 1024.0f64.powi(4)),
        "ns" | "nanosecond" | "nanoseconds" | "纳秒" => (Family::Time, 1e-9),
        "µs" | "μs" | "microsecond" | "microseconds" | "微秒" => (Family::Time, 1e-6),
        "ms" | "millisecond" | "milliseconds" | "毫秒" => (Family::Time, 0.001),
        "s" | "sec" | "secs" | "second" | "seconds" | "秒" | "秒钟" => (Family::Time, 1.0),
        "min" | "mins" | "minute" | "minutes" | "分钟" => (Family::Time, 60.0),
        "h" | "hr" | "hrs" | "hour" | "hours" | "小时" => (Family::Time, 3600.0),
        "day" | "days" | "天" => (Family::Time, 86_400.0),
        "week" | "weeks" | "周" => (Family::Time, 604_800.0),
        "month" | "months" | "个月" => (Family::Time, 2_629_800.0),
        "year" | "years" | "年" => (Family::Time, 31_557_600.0),
        "元" | "人民币" | "yuan" | "美元" | "欧元" | "英镑" | "pound" | "pounds" | "dollar" | "dollars" | "euro" | "euros" => {
            (Family::Currency, 1.0)
        }
        "pence" | "cent" | "cents" => (Family::Currency, 0.01),
        "km" | "kilometre" | "kilometres" | "kilometer" | "kilometers" | "公里" => (Family::Length, 1000.0),
        "m" | "metre" | "metres" | "meter" | "meters" | "米" => (Family::Length, 1.0),
        "cm" => (Family::Length, 0.01),
        "mm" => (Family::Length, 0.001),
        "mile" | "miles" => (Family::Length, 1609.344),
        "foot" | "feet" => (Family::Length, 0.3048),
        "inch" | "inches" => (Family::Length, 0.0254),
        "kg" | "kilogram" | "kilograms" | "公斤" => (Family::Mass, 1000.0),
        "gram" | "grams" | "克" => (Family::Mass, 1.0),
        "tonne" | "tonnes" | "ton" | "tons" | "吨" => (Family::Mass, 1e6),
        "lb" | "lbs" => (Family::Mass, 453.592),
        "litre" | "litres" | "liter" | "liters" | "升" => (Family::Volume, 1.0),
        "ml" => (Family::Volume, 0.001),
        "gallon" | "gallons" => (Family::Volume, 3.785),
        _ if l.ends_with("wh") || l.ends_with('w') || l.ends_with("wp") => {
            let family = if l.ends_with("wh") { Family::Energy } else { Family::Power };
            let factor = match l.chars().next() {
                Some('k') if l.len() > 1 => 1e3,
                Some('m') if l.len() > 1 => 1e6,
                Some('g') if l.len() > 1 => 1e9,
                Some('t') if l.len() > 1 => 1e12,
                _ => 1.0,
            };
            (family, factor)
        }
        _ => (Family::Count, 1.0),
    })
}

/// Units a text names without a figure: "(in MHz)", "taken as kilobytes", "measured in
/// milliseconds", "单位为毫秒". Each as a family (by name; frequency has none among amounts)
/// and the factor of its step.
pub fn named_units(text: &str) -> Vec<(String, f64)> {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    let en = EN.get_or_init(|| Regex::new(r"(?i)\b(?:in|as|of)\s+([a-zµμ]+)\b").unwrap_or_else(|_| unreachable!()));
    let zh = ZH.get_or_init(|| Regex::new(r"(?:单位[为是]|以)\s*([\p{Han}a-zA-Z]{1,3}?)(?:为单位|[，。；）)]|$)").unwrap_or_else(|_| unreachable!()));
    let mut out = Vec::new();
    for c in en.captures_iter(text).chain(zh.captures_iter(text)) {
        let Some(word) = c.get(1).map(|m| m.as_str()) else { continue };
        let lower = word.to_lowercase();
        let hertz = match lower.as_str() {
            "hz" | "hertz" => Some(1.0),
            "khz" => Some(1e3),
            "mhz" => Some(1e6),
            "ghz" => Some(1e9),
            _ => None,
        };
        if let Some(f) = hertz {
            out.push(("frequency".to_string(), f));
            continue;
        }
        // Bare letters ("in s", "as m") are too often words; a unit named alone is spelled out
        // or a known abbreviation of two letters or more.
        if lower.chars().count() < 2 || matches!(lower.as_str(), "pounds" | "pound" | "dollars" | "euros" | "years" | "year" | "months" | "month" | "weeks" | "week" | "days" | "day") {
            continue;
        }
        // `unit_of` reads any word ending in "w" as watts after a figure; alone, only the
        // units themselves are.
        let electric = matches!(lower.as_str(), "kw" | "mw" | "gw" | "wh" | "kwh" | "mwh" | "gwh" | "twh" | "kwp" | "mwp");
        match unit_of(word) {
            Some((Family::Count | Family::Currency, _)) | None => {}
            Some((Family::Power | Family::Energy, _)) if !electric => {}
            Some((family, factor)) => out.push((format!("{family:?}"), factor)),
        }
    }
    out
}

/// Every amount in `text`. `caption_scale` is the scale a table's caption gives its bare
/// figures ("(in millions)"): applied to figures written without a scale or a percent.
pub fn amounts(text: &str, caption_scale: Option<f64>) -> Vec<Amount> {
    let folded = fold_width(text);
    let masked = non_amount_spans(&folded);
    let mut out: Vec<Amount> = number_regex().captures_iter(&folded).filter_map(|c| digit_amount(&folded, &c, &masked, caption_scale)).collect();
    let unmasked = |a: &Amount| !masked.iter().any(|m| m.start < a.span.end && a.span.start < m.end);
    let fractions: Vec<Amount> = fraction_amounts(&folded).into_iter().filter(unmasked).collect();
    // "two-thirds" holds the number word "two": the fraction is the amount.
    let outside_fractions = |a: &Amount| !fractions.iter().any(|f| f.span.start < a.span.end && a.span.start < f.span.end);
    out.extend(word_amounts(&folded).into_iter().filter(unmasked).filter(outside_fractions));
    out.extend(fractions);
    out.extend(cjk_amounts(&folded).into_iter().filter(unmasked));
    for a in &mut out {
        a.span = crate::text::unfold_range(text, &folded, a.span.clone());
    }
    out.sort_by_key(|a| a.span.start);
    out
}

/// The amount a match of [`number_regex`] writes in digits, unless it is masked, part of a
/// name, or no number.
fn digit_amount(folded: &str, c: &regex::Captures<'_>, masked: &[Range<usize>], caption_scale: Option<f64>) -> Option<Amount> {
    let (Some(whole), Some(num)) = (c.get(0), c.name("num")) else { return None };
    if masked.iter().any(|m| m.start < num.end() && num.start() < m.end) {
        return None;
    }
    // A digit glued to letters before it is part of a name ("Q2", "A320", "bge-m3").
    let before = folded[..num.start()].chars().next_back();
    if c.name("currency").is_none() && before.is_some_and(|b| b.is_ascii_alphabetic() || b == '-' && folded[..num.start()].trim_end_matches('-').ends_with(|x: char| x.is_ascii_alphabetic())) {
        return None;
    }
    // A number glued to letters after it that are no unit is part of a name ("787s",
    // "3M", "PPOCRv5").
    let unit_written = c.name("unit").is_some_and(|u| !u.as_str().trim().is_empty()) || c.name("suffix").is_some_and(|u| !u.as_str().trim().is_empty());
    if !unit_written && folded[whole.end()..].chars().next().is_some_and(|ch| ch.is_ascii_alphabetic()) {
        return None;
    }
    let digits = num.as_str().replace(',', "");
    let Ok(written) = digits.parse::<f64>() else { return None };
    let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len() as u32);
    let currency = c.name("currency").is_some();
    let mut suffix = c.name("suffix").map_or("", |m| m.as_str());
    let mut unit = c.name("unit").map_or("", |m| m.as_str());
    // One-letter scales only after money ("$5m"); "2.4 m" is a length, "5 s" a time. A
    // lower-case "k" glued to the figure is a thousand whatever it counts ("67k 次/秒").
    let glued_thousand = suffix == "k" && unit.is_empty();
    if !currency && !glued_thousand && matches!(suffix.trim().to_ascii_lowercase().as_str(), "m" | "b" | "k") {
        if unit.is_empty() {
            unit = suffix;
        }
        suffix = "";
    }
    // A unit word written as the first of two capitalised words opens a name: "77.6 million
    // Foot Locker shares" counts shares, not feet.
    let mut span_end = whole.end();
    if starts_a_name(unit.trim(), &folded[whole.end()..]) {
        span_end = whole.end() - unit.len();
        unit = "";
    }
    // "86 G" and "2 T" are sizes in gigabytes and terabytes.
    if unit.trim().is_empty() && suffix.is_empty() {
        let next = &folded[whole.end()..];
        let letter = next.trim_start_matches(' ').chars().next();
        let after = next.trim_start_matches(' ').chars().nth(1);
        if matches!(letter, Some('G' | 'T')) && !after.is_some_and(|c| c.is_alphanumeric()) {
            unit = if letter == Some('G') { "gb" } else { "tb" };
        }
    }
    let (family, factor) = family_of(suffix, unit, currency);
    let scale = scale_of(suffix);
    let scaled = scale.is_some() || factor != 1.0;
    let mut value = written * scale.unwrap_or(1.0) * factor;
    if !scaled && matches!(family, Family::Plain | Family::Currency) {
        if let Some(caption) = caption_scale {
            value *= caption;
        }
    }
    Some(Amount { value, written, decimals, family, scaled: scaled || caption_scale.is_some(), spelled: false, span: whole.start()..span_end })
}

/// Whether a unit word is rather the first word of a name: a capitalised word (not an
/// abbreviation such as "MW" or "GB") followed by another capitalised word.
fn starts_a_name(unit: &str, after: &str) -> bool {
    let mut letters = unit.chars();
    let capitalised = letters.next().is_some_and(char::is_uppercase) && unit.chars().count() >= 3 && letters.all(char::is_lowercase);
    // Text laid out in lines may break a name across them: "Foot\nLocker".
    let next_word = after.starts_with(char::is_whitespace).then(|| after.trim_start());
    capitalised && next_word.is_some_and(|rest| rest.chars().next().is_some_and(char::is_uppercase))
}

/// The family and the factor to its base unit from what follows a figure: its suffix (a
/// scale, percent, points, basis points) or its unit; money whatever the unit.
fn family_of(suffix: &str, unit: &str, currency: bool) -> (Family, f64) {
    let lower_suffix = suffix.trim().to_lowercase();
    let (mut family, mut factor) = if lower_suffix.contains("basis") || lower_suffix == "bps" {
        (Family::Points, 0.01)
    } else if lower_suffix.contains("point") || lower_suffix == "pp" || lower_suffix.starts_with("pt") || lower_suffix.contains("百分点") {
        (Family::Points, 1.0)
    } else if lower_suffix == "%" || lower_suffix.starts_with("per") {
        (Family::Percent, 1.0)
    } else {
        (Family::Plain, 1.0)
    };
    if family == Family::Plain {
        if let Some((f, k)) = unit_of(unit).filter(|_| !unit.trim().is_empty()) {
            family = f;
            factor = k;
        }
    }
    if currency {
        family = Family::Currency;
    }
    (family, factor)
}

/// Number words in English ("three", "twenty-five", "two million"): from two up, since "one"
/// is mostly an article or a pronoun.
fn word_amounts(text: &str) -> Vec<Amount> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?P<tens>twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[-\s](?P<ones>one|two|three|four|five|six|seven|eight|nine))?\b(?:\s(?P<tscale>hundred|thousand|million|billion))?|\b(?P<small>two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|dozen|hundred)\b(?:\s(?P<scale>hundred|thousand|million|billion))?(?:\s(?P<pct>percent|per cent))?",
        )
        .unwrap_or_else(|_| unreachable!())
    });
    let word = |w: &str| -> f64 {
        match w.to_lowercase().as_str() {
            "one" => 1.0,
            "two" => 2.0,
            "three" => 3.0,
            "four" => 4.0,
            "five" => 5.0,
            "six" => 6.0,
            "seven" => 7.0,
            "eight" => 8.0,
            "nine" => 9.0,
            "ten" => 10.0,
            "eleven" => 11.0,
            "twelve" | "dozen" => 12.0,
            "thirteen" => 13.0,
            "fourteen" => 14.0,
            "fifteen" => 15.0,
            "sixteen" => 16.0,
            "seventeen" => 17.0,
            "eighteen" => 18.0,
            "nineteen" => 19.0,
            "twenty" => 20.0,
            "thirty" => 30.0,
            "forty" => 40.0,
            "fifty" => 50.0,
            "sixty" => 60.0,
            "seventy" => 70.0,
            "eighty" => 80.0,
            "ninety" => 90.0,
            "hundred" => 100.0,
            "thousand" => 1e3,
            "million" => 1e6,
            "billion" => 1e9,
            _ => 0.0,
        }
    };
    re.captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let base = match (c.name("tens"), c.name("small")) {
                (Some(t), _) => word(t.as_str()) + c.name("ones").map_or(0.0, |o| word(o.as_str())),
                (None, Some(s)) => word(s.as_str()),
                _ => return None,
            };
            let scale = c.name("scale").or(c.name("tscale")).map_or(1.0, |s| word(s.as_str()));
            let percent = c.name("pct").is_some();
            let value = base * scale;
            Some(Amount {
                value,
                written: value,
                decimals: 0,
                family: if percent { Family::Percent } else { Family::Plain },
                scaled: false,
                spelled: true,
                span: whole.range(),
            })
        })
        .collect()
}

/// Fractions in words as percentages: "one-third", "three-quarters", "two thirds of",
/// "三分之一". A source that says "one-third of revenue" states a claim's "33% of revenue".
/// Without a hyphen or a following "of", "one quarter" is as often a fiscal quarter.
fn fraction_amounts(text: &str) -> Vec<Amount> {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    let en = EN.get_or_init(|| {
        Regex::new(r"(?i)\b(?P<num>one|two|three|four)(?:-(?P<den>halfs?|halves|thirds?|quarters?|fifths?)\b|\s(?P<den_of>halfs?|halves|thirds?|quarters?|fifths?)\s+of\b)")
            .unwrap_or_else(|_| unreachable!())
    });
    let zh = ZH.get_or_init(|| Regex::new(r"(?P<den>[二三四五六七八九十])分之(?P<num>[一二三四五六七八九])").unwrap_or_else(|_| unreachable!()));
    let number = |w: &str| match w.to_lowercase().as_str() {
        "one" => Some(1.0),
        "two" => Some(2.0),
        "three" => Some(3.0),
        "four" => Some(4.0),
        w if w.starts_with("hal") => Some(2.0),
        w if w.starts_with("third") => Some(3.0),
        w if w.starts_with("quarter") => Some(4.0),
        w if w.starts_with("fifth") => Some(5.0),
        w => cjk_number(w),
    };
    let mut out = Vec::new();
    let found = en.captures_iter(text).map(|c| (c.get(0), c.name("num"), c.name("den").or(c.name("den_of"))));
    let found_zh = zh.captures_iter(text).map(|c| (c.get(0), c.name("num"), c.name("den")));
    for (whole, num, den) in found.chain(found_zh) {
        let (Some(whole), Some(num), Some(den)) = (whole, num, den) else { continue };
        let (Some(n), Some(d)) = (number(num.as_str()), number(den.as_str())) else { continue };
        if n >= d {
            continue;
        }
        let value = 100.0 * n / d;
        out.push(Amount { value, written: value, decimals: 0, family: Family::Percent, scaled: false, spelled: true, span: whole.range() });
    }
    out
}

/// Chinese numerals that count something: before a measure word or a unit ("三个", "两周",
/// "十二人"), after 百分之 (a percentage), or with a place value ("三千五百"). A lone "一" is
/// left alone: it is an article far more often than a figure.
fn cjk_amounts(text: &str) -> Vec<Amount> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?P<pct>百分之)?(?P<num>[零〇一二两三四五六七八九十百千万亿]+(?:点[零〇一二三四五六七八九]+)?)(?P<unit>个百分点|个月|个|位|名|人|次|天|周|年|分钟|小时|秒|倍|种|家|条|项|台|张|款|篇|本|岁|元|美元|毫秒|字节|级|层|步|份|组|类|部|件|块|页|章|版|代|届|轮|场|批|笔|所|座|户|辆)?",
        )
        .unwrap_or_else(|_| unreachable!())
    });
    let mut out = Vec::new();
    for c in re.captures_iter(text) {
        let (Some(whole), Some(num)) = (c.get(0), c.name("num")) else { continue };
        let digits = num.as_str();
        let percent = c.name("pct").is_some();
        let unit = c.name("unit").map_or("", |u| u.as_str());
        let place_value = digits.chars().count() >= 2 && digits.contains(['十', '百', '千', '万', '亿']);
        // "第四阶段" is the fourth stage: an ordinal, compared as its number ("第 4 阶段").
        let ordinal = text[..whole.start()].trim_end().ends_with('第');
        // A lone 一 is an article ("一个系统") unless a unit of time or a count follows it
        // ("一小时", "一天", "一次").
        let one_counts = digits == "一" && !unit.is_empty() && unit != "个";
        if !(percent || !unit.is_empty() || place_value || ordinal) || (!ordinal && !one_counts && ["一", "万", "亿", "千", "百"].contains(&digits)) {
            continue;
        }
        let Some(value) = cjk_number(digits) else { continue };
        let (family, factor) = if percent {
            (Family::Percent, 1.0)
        } else if unit == "个百分点" {
            (Family::Points, 1.0)
        } else if let Some(u) = unit_of(unit) {
            u
        } else {
            (Family::Count, 1.0)
        };
        // "一周" is as often "a week" ("一周报警几次") as one week: checked where the source has
        // a figure for it, never required.
        let spelled = one_counts;
        out.push(Amount { value: value * factor, written: value, decimals: 0, family, scaled: factor != 1.0, spelled, span: whole.range() });
    }
    out
}

/// The scale a table caption gives bare figures: "(in millions)", "($ in thousands, except
/// per share data)", "($ million, except per share amounts)", "(Millions)", "单位：万元",
/// "（单位：亿元）". A currency sign must stand right before the word: "$3.2 billion" is an
/// amount, not a caption.
pub fn caption_scale(text: &str) -> Option<f64> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)\bin\s+(thousands|millions|billions)\b|[$€£¥]\s*(thousand|million|billion)s?\b|\((thousands|millions|billions)\)|单位[:：]\s*(千元|万元|亿元|百万元|千|万|亿|百万)")
            .unwrap_or_else(|_| unreachable!())
    });
    let c = re.captures(text)?;
    let word = (1..=4).find_map(|i| c.get(i))?.as_str().to_lowercase();
    Some(match word.as_str() {
        "thousands" | "thousand" | "千元" | "千" => 1e3,
        "millions" | "million" | "百万元" | "百万" => 1e6,
        "billions" | "billion" => 1e9,
        "万元" | "万" => 1e4,
        "亿元" | "亿" => 1e8,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Amount {
        amounts(text, None).into_iter().next().unwrap_or_else(|| panic!("no amount in {text}"))
    }

    #[test]
    fn the_same_amount_in_any_form() {
        assert!(one("$3.2 billion").stated_by(&one("$3,200 million")));
        assert!(one("$3.2 billion").stated_by(&amounts("Revenue 3,200", Some(1e6))[0]));
        assert!(one("$1.58 billion").stated_by(&one("$1,577 million")));
        assert!(one("three stores").stated_by(&one("3 stores")));
        assert!(one("1.2万人").stated_by(&one("12,000 people")));
        assert!(one("百分之三十八").stated_by(&one("38%")));
        assert!(one("about 12%").stated_by(&one("11.9%")));
        assert!(one("64 KiB").stated_by(&one("65536 bytes")));
        assert!(!one("32 bits").stated_by(&one("32 bytes")), "a unit written on both sides");
        let shares = amounts("About 77.6 million Foot Locker shares were represented", None);
        assert_eq!(shares.len(), 1);
        assert_eq!(shares[0].family, Family::Plain, "Foot Locker is a name, not feet");
        assert_eq!(amounts("a 12 Foot fence", None)[0].family, Family::Length);
        assert_eq!(amounts("its 2,998 Foot\nLocker stores", None)[0].family, Family::Plain);
        assert!(one("0.1 microseconds").stated_by(&one("100 nanoseconds")));
        assert!(one("100 nanoseconds").rescaled_from(&one("100 microseconds")));
        assert!(one("32 bits").rescaled_from(&one("32 bytes")));
        assert!(one("256 bits").stated_by(&one("32 bytes")));
        assert!(one("5.0 MW").stated_by(&one("5,000 kW")));
        assert!(one("三千五百元").stated_by(&one("3,500元")));
        assert!(one("30 minutes").stated_by(&one("half an hour 30 min")));
        assert!(one("33%").stated_by(&one("one-third of revenue")));
        assert!(one("75%").stated_by(&one("three-quarters of sales")));
        assert!(one("25%").stated_by(&one("四分之一的用户")));
        assert!(!one("40%").stated_by(&one("one-third of revenue")));
        assert_eq!(amounts("two-thirds of it", None).len(), 1, "the fraction, not its 'two'");
        assert!(amounts("one quarter later", None).is_empty(), "a fiscal quarter");
    }

    #[test]
    fn another_scale_or_unit_is_not_the_same_amount() {
        assert!(!one("$3.2 billion").stated_by(&one("$3.2 million")));
        assert!(one("$3.2 billion").rescaled_from(&one("$3.2 million")));
        assert!(one("47 hours").rescaled_from(&one("47 minutes")));
        assert!(one("2%").rescaled_from(&one("2 percentage points")));
        assert!(!one("2%").stated_by(&one("200 basis points")));
        assert!(one("2 percentage points").stated_by(&one("200 basis points")));
        assert!(one("16 MB").rescaled_from(&one("16 KB")));
        assert!(one("3.2亿").rescaled_from(&one("3.2万")));
        assert!(!one("12.4%").stated_by(&one("11.9%")));
    }

    #[test]
    fn dates_times_and_versions_are_not_amounts() {
        assert!(amounts("on 2024-12-31 at 19:00 with v10.0.0", None).is_empty(), "{:?}", amounts("on 2024-12-31 at 19:00 with v10.0.0", None));
        assert!(amounts("31 December 2024", None).is_empty());
        assert!(amounts("第二季度", None).is_empty());
        assert_eq!(amounts("Q2 revenue rose 5%", None).len(), 1);
    }

    #[test]
    fn chinese_numerals() {
        assert_eq!(cjk_number("三千五百"), Some(3500.0));
        assert_eq!(cjk_number("十二"), Some(12.0));
        assert_eq!(cjk_number("两"), Some(2.0));
        assert_eq!(cjk_number("一万二千"), Some(12_000.0));
        assert_eq!(cjk_number("三点五"), Some(3.5));
        assert!(amounts("一个系统", None).is_empty(), "a lone 一 is an article");
        assert_eq!(one("三个百分点").family, Family::Points);
        assert_eq!(cjk_number("一九〇〇"), Some(1900.0), "digits read by position");
        assert!(one("四十八字节").stated_by(&one("48 字节")));
        assert!(!one("四十八字节").rescaled_from(&one("48 字节")));
        assert!(one("5 级").stated_by(&one("五级")));
        assert!(one("6.7 万次").stated_by(&one("67k 次/秒")), "a glued k is a thousand");
        assert!(!one("256 KB").stated_by(&one("256 MB")));
        assert_eq!(caption_scale("(in millions, except per share data)"), Some(1e6));
        assert_eq!(caption_scale("单位：万元"), Some(1e4));
        assert_eq!(caption_scale("($ million, except per share amounts)"), Some(1e6));
        assert_eq!(caption_scale("Income (US$ thousands)"), Some(1e3));
        assert_eq!(caption_scale("(Millions)"), Some(1e6));
        assert_eq!(caption_scale("Revenue rose to $3.2 billion."), None);
    }
}
