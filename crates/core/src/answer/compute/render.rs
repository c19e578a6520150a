//! A computation as the sentences of an answer: per period the formula with the figures as
//! the tables write them and the result; then the change or the average. Each sentence comes
//! with the cells it rests on, for its citations.

use super::measures::Shown;
use super::operands::Operand;
use super::{Computation, Over, PeriodValue};
use crate::lang::Lang;

/// A row label as a formula names it: without footnote marks and trailing colons.
pub(crate) fn row_name(row: &str) -> String {
    row.trim().trim_end_matches([':', '*', '¹', '²', '³']).trim().to_string()
}

/// A cell's figure as the table writes it, an outflow as the amount spent ("(1,577)" → "1,577").
pub(crate) fn as_written(o: &Operand) -> String {
    let w = o.written.trim().trim_start_matches('$').trim();
    if o.measure.outflow && !o.reversed {
        w.trim_start_matches('(').trim_end_matches(')').trim_start_matches('-').to_string()
    } else {
        w.to_string()
    }
}

/// A reversed row's figure as the formula counts it, in the table's notation: "(31)" of an
/// "(expense)/benefit" row is an expense of "31", its "743" an expense of "(743)".
pub(crate) fn negated(o: &Operand) -> String {
    let w = as_written(o);
    match w.strip_prefix('(').and_then(|r| r.strip_suffix(')')).or_else(|| w.strip_prefix('-')) {
        Some(inner) => inner.trim().to_string(),
        None if matches!(w.as_str(), "—" | "–" | "-") => w,
        None => format!("({w})"),
    }
}

/// Digits grouped by thousands, with `decimals` places.
fn grouped(value: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, value.abs());
    let (whole, fraction) = text.split_once('.').map_or((text.as_str(), None), |(w, f)| (w, Some(f)));
    let mut out = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = fraction {
        out.push('.');
        out.push_str(f);
    }
    if value < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.insert(0, '-');
    }
    out
}

fn scale_word(scale: f64, lang: Lang) -> &'static str {
    match (scale as u64, lang) {
        (1_000, Lang::Zh) => "千",
        (1_000_000, Lang::Zh) => "百万",
        (1_000_000_000, Lang::Zh) => "十亿",
        (1_000, _) => " thousand",
        (1_000_000, _) => " million",
        (1_000_000_000, _) => " billion",
        _ => "",
    }
}

/// A value as the answer states it: a percentage, a ratio, or an amount in the scale asked
/// for (else the tables'), with the currency sign when the tables give money.
fn stated(c: &Computation, value: f64, lang: Lang) -> String {
    match c.shown {
        Shown::Percent => format!("{}%", grouped(value * 100.0, c.decimals.unwrap_or(1))),
        Shown::Times => grouped(value, c.decimals.unwrap_or(2)),
        Shown::Amount => {
            let first = c.operands().next();
            let source_scale = first.map_or(1.0, |o| o.scale);
            let scale = c.scale.unwrap_or(source_scale).max(1.0);
            let decimals = c.decimals.unwrap_or(if scale > source_scale { 2 } else { 0 });
            let sign = if c.operands().any(|o| o.money) { "$" } else { "" };
            format!("{sign}{}{}", grouped(value / scale, decimals), scale_word(scale, lang))
        }
    }
}

fn period_sentence(c: &Computation, v: &PeriodValue, lang: Lang) -> String {
    let result = stated(c, v.value, lang);
    match (v.operands.as_slice(), lang) {
        ([only], Lang::Zh) => format!("{}（{}）：{}，见“{}”一行。", c.name, v.period, result, row_name(&only.row)),
        ([only], _) => format!("{} for {}: {} (row “{}”, column “{}”).", capitalised(&c.name), v.period, result, row_name(&only.row), only.column.trim()),
        (_, Lang::Zh) => format!("{}（{}）= {} = {}。", c.name, v.period, v.formula, result),
        _ => format!("{} for {} = {} = {}.", capitalised(&c.name), v.period, v.formula, result),
    }
}

fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|f| f.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The change from the first period's value to the last's: in percentage points for a
/// percentage, and as a difference and a percentage for a ratio or an amount.
fn change_sentence(c: &Computation, lang: Lang) -> Option<String> {
    let (first, last) = (c.values.first()?, c.values.last()?);
    let diff = last.value - first.value;
    let by = match c.shown {
        Shown::Percent => format!("{} percentage points", grouped(diff.abs() * 100.0, c.decimals.unwrap_or(1))),
        Shown::Times if first.value != 0.0 => {
            format!("{} ({}%)", grouped(diff.abs(), c.decimals.unwrap_or(2)), grouped((diff / first.value.abs()).abs() * 100.0, 1))
        }
        Shown::Times => grouped(diff.abs(), c.decimals.unwrap_or(2)),
        Shown::Amount if first.value != 0.0 => {
            format!("{} ({}%)", stated(c, diff.abs(), lang), grouped((diff / first.value.abs()).abs() * 100.0, 1))
        }
        Shown::Amount => stated(c, diff.abs(), lang),
    };
    let sentence = match (lang, diff.partial_cmp(&0.0)?) {
        (Lang::Zh, std::cmp::Ordering::Equal) => format!("{}从{}到{}没有变化。", c.name, first.period, last.period),
        (Lang::Zh, o) => format!("{}从{}到{}{}了{}。", c.name, first.period, last.period, if o.is_gt() { "上升" } else { "下降" }, by),
        (_, std::cmp::Ordering::Equal) => format!("From {} to {}, {} did not change.", first.period, last.period, c.name),
        (_, o) => format!("From {} to {}, {} {} by {}.", first.period, last.period, c.name, if o.is_gt() { "rose" } else { "fell" }, by),
    };
    Some(sentence)
}

fn average_sentence(c: &Computation, lang: Lang) -> Option<String> {
    let (first, last) = (c.values.first()?, c.values.last()?);
    let mean = c.values.iter().map(|v| v.value).sum::<f64>() / c.values.len() as f64;
    Some(match lang {
        Lang::Zh => format!("{}至{}的平均{}为{}。", first.period, last.period, c.name, stated(c, mean, lang)),
        _ => format!("The average {} from {} to {} is {}.", c.name, first.period, last.period, stated(c, mean, lang)),
    })
}

/// The answer's sentences, each with the cells it rests on: the summary (change, average)
/// first, where there is one, then each period's formula.
pub(crate) fn sentences(c: &Computation, lang: Lang) -> Vec<(String, Vec<&Operand>)> {
    let mut out = Vec::new();
    let summary = match c.over {
        Over::At(_) => None,
        Over::Change { .. } => change_sentence(c, lang),
        Over::Average(_) => average_sentence(c, lang),
    };
    if let Some(text) = summary {
        out.push((text, c.operands().collect()));
    }
    for v in &c.values {
        out.push((period_sentence(c, v, lang), v.operands.iter().collect()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_grouped_with_their_places() {
        assert_eq!(grouped(5409.0, 0), "5,409");
        assert_eq!(grouped(4.626, 2), "4.63");
        assert_eq!(grouped(-1234567.891, 1), "-1,234,567.9");
        assert_eq!(grouped(-0.001, 1), "0.0");
        assert_eq!(grouped(0.6933, 2), "0.69");
    }
}
