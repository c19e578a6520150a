//! Numbers as people write them: "1,234.5", "$4.2 billion", "12%", "5.0 MW", "3.2亿", "２０２２年".
//! Each becomes a quantity with its value after scale words and SI prefixes, so that "5,000 kW"
//! and "5.0 MW", or "$1,577 million" and "$1.577 billion", compare equal.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use crate::text::fold_width;

#[derive(Debug, Clone, PartialEq)]
pub struct Quantity {
    /// The number as written, separators removed ("1234.5").
    pub digits: String,
    /// The value with scale words applied ("4.2 billion" → 4.2e9; "5 MW" → 5e6 W).
    pub value: f64,
    /// Byte range in the (width-folded) text, scale word and unit included.
    pub span: Range<usize>,
    /// A four-digit number between 1900 and 2099 written alone: probably a year.
    pub year_like: bool,
    pub percent: bool,
    /// What the number measures, when the word after it says so clearly (time, money, people,
    /// length, mass, volume, energy): "14 days" and "14 pounds" are not the same figure.
    pub measure: Option<Measure>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    Time,
    Money,
    People,
    Length,
    Mass,
    Volume,
    Energy,
}

fn measure_of(word: &str) -> Option<Measure> {
    let w = word.to_lowercase();
    let w = w.trim_end_matches('s');
    Some(match w {
        "second" | "minute" | "min" | "hour" | "hr" | "day" | "week" | "month" | "year" | "yr" | "decade" | "分钟" | "小时" | "天" | "周"
        | "个月" | "年" | "秒" => Measure::Time,
        "pound" | "pence" | "penny" | "dollar" | "euro" | "cent" | "yuan" | "rmb" | "usd" | "eur" | "gbp" | "元" | "万元" | "亿元" => {
            Measure::Money
        }
        "member" | "people" | "person" | "staff" | "employee" | "pupil" | "student" | "user" | "customer" | "volunteer" | "resident"
        | "人" | "名" | "位" => Measure::People,
        "metre" | "meter" | "km" | "kilometre" | "kilometer" | "mile" | "cm" | "mm" | "foot" | "feet" | "inch" | "米" | "公里" => {
            Measure::Length
        }
        "kg" | "kilogram" | "gram" | "tonne" | "ton" | "lb" | "吨" | "公斤" | "克" => Measure::Mass,
        "litre" | "liter" | "gallon" | "ml" | "升" => Measure::Volume,
        "w" | "wh" | "wp" => Measure::Energy,
        _ => return None,
    })
}

/// The word after a number (after its scale word, if any), for [`Quantity::measure`].
fn measure_after(text: &str, suffix: &str) -> Option<Measure> {
    let unit = suffix.trim().to_lowercase();
    if unit.ends_with("wh") {
        return Some(Measure::Energy);
    }
    if unit.ends_with('w') || unit.ends_with("wp") {
        return Some(Measure::Energy);
    }
    let rest = text.trim_start();
    let word: String = rest.chars().take_while(|c| c.is_alphabetic()).take(12).collect();
    measure_of(&word)
}

fn number_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)
            (?P<num>\d[\d,]*(?:\.\d+)?|\.\d+)
            (?P<suffix>
                \s?(?:%|percent|per\s?cent)
              | \s?(?:trillion|billion|million|thousand|bn|mn|tn|m|b|k)\b
              | \s?(?:万亿|亿|万|千)
              | \s?(?:[kmgt]?wh?|[kmgt]?wp)\b
            )?",
        )
        .unwrap_or_else(|_| unreachable!())
    })
}

fn scale_of(suffix: &str) -> (f64, bool) {
    let s = suffix.trim().to_lowercase();
    let percent = s == "%" || s.starts_with("per");
    let scale = match s.as_str() {
        "trillion" | "tn" | "万亿" => 1e12,
        "billion" | "bn" | "b" => 1e9,
        "million" | "mn" | "m" => 1e6,
        "thousand" | "k" | "千" => 1e3,
        "亿" => 1e8,
        "万" => 1e4,
        _ => match s.as_bytes().first() {
            // SI prefixes of watts and watt-hours: kW, MWh, GW.
            Some(b'k') if s.len() >= 2 => 1e3,
            Some(b'm') if s.len() >= 2 => 1e6,
            Some(b'g') if s.len() >= 2 => 1e9,
            Some(b't') if s.len() >= 2 => 1e12,
            _ => 1.0,
        },
    };
    (scale, percent)
}

/// Every number in `text`, in order.
pub fn quantities(text: &str) -> Vec<Quantity> {
    let folded = fold_width(text);
    let mut out = Vec::new();
    for c in number_regex().captures_iter(&folded) {
        let (Some(whole), Some(num)) = (c.get(0), c.name("num")) else { continue };
        // A digit glued to letters before it is part of a name ("Q2", "A320", "bge-m3").
        let before = folded[..num.start()].chars().next_back();
        if before.is_some_and(|b| b.is_ascii_alphabetic()) {
            continue;
        }
        let digits = num.as_str().replace(',', "");
        let Ok(base) = digits.parse::<f64>() else { continue };
        let mut suffix = c.name("suffix").map_or("", |m| m.as_str());
        // "$5m" is five million, "2.4 m" is a length: one-letter scales only after money.
        let money = folded[..num.start()].trim_end().ends_with(['$', '£', '€', '¥']);
        if !money && matches!(suffix.trim().to_ascii_lowercase().as_str(), "m" | "b" | "k") {
            suffix = "";
        }
        let (scale, percent) = scale_of(suffix);
        let year_like = suffix.is_empty()
            && digits.len() == 4
            && !digits.contains('.')
            && (digits.starts_with("19") || digits.starts_with("20"));
        let measure = if money { Some(Measure::Money) } else { measure_after(&folded[whole.end()..], suffix) };
        out.push(Quantity { digits, value: base * scale, span: whole.range(), year_like, percent, measure });
    }
    out
}

/// Whether two written numbers state the same amount: equal digits, or values within
/// `tolerance` (relative) once scale words and units are applied.
pub fn same_amount(a: &Quantity, b: &Quantity, tolerance: f64) -> bool {
    if a.percent != b.percent {
        return false;
    }
    if let (Some(x), Some(y)) = (a.measure, b.measure) {
        if x != y {
            return false;
        }
    }
    // The same digits with a unit written once and left out once ("5,000" and "5,000 kW").
    if a.digits == b.digits {
        return true;
    }
    let close = |x: f64, y: f64| (x - y).abs() <= tolerance * x.abs().max(y.abs()).max(f64::MIN_POSITIVE);
    close(a.value, b.value)
}

/// A table figure as a number: thousands separators, currency signs and a percent sign
/// dropped, parentheses for a negative, a dash for zero; `None` for anything else.
pub(crate) fn number_of(written: &str) -> Option<f64> {
    let w = written.trim();
    if matches!(w, "—" | "–" | "-") {
        return Some(0.0);
    }
    let (negative, inner) = match w.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        Some(inner) => (true, inner),
        None => (false, w),
    };
    let digits: String = inner.chars().filter(|c| !matches!(c, ',' | '$' | '€' | '£' | '¥' | '%' | ' ')).collect();
    let (negative, digits) = match digits.strip_prefix('-') {
        Some(rest) => (!negative, rest.to_string()),
        None => (negative, digits),
    };
    let value: f64 = digits.parse().ok()?;
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> Quantity {
        quantities(text).into_iter().next().unwrap_or_else(|| panic!("no number in {text}"))
    }

    #[test]
    fn scales_units_and_years() {
        assert_eq!(q("$4.2 billion").value, 4.2e9);
        assert_eq!(q("1,420 kW").value, 1.42e6);
        assert!(same_amount(&q("5,000 kW"), &q("5.0 MW"), 0.01));
        assert!(same_amount(&q("$1,577 million"), &q("$1.577 billion"), 0.01));
        assert!(same_amount(&q("3.2亿"), &q("320,000,000"), 0.01));
        assert!(!same_amount(&q("5,000 kW"), &q("1,420 kW"), 0.01));
        assert!(q("in 2022").year_like && q("２０２２年").year_like);
        assert!(!q("2022 kW").year_like);
        assert!(q("12.5%").percent && !same_amount(&q("12.5%"), &q("12.5 million"), 0.01));
        assert!(quantities("Q2 and A320").is_empty());
        assert_eq!(q("a 2.4 m mirror").value, 2.4);
        assert_eq!(q("$5m").value, 5e6);
        assert!(!same_amount(&q("14 days"), &q("14 pounds"), 0.01));
        assert!(same_amount(&q("14 days"), &q("14"), 0.01));
        assert!(same_amount(&q("£120,000"), &q("120,000 pounds"), 0.01));
    }
}
