//! What a figure question asks to compute, read from its words: the metric or measure, over
//! which periods (one, a change from one to another, an average), and in which unit and
//! precision the answer should be given.

use super::measures::{asked_in, Asked, Shown};
use crate::answer::asked::Want;
use crate::answer::facts::{periods, Period};
use crate::text::cached_regex;

/// Over which periods the value is asked.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Over {
    At(Period),
    /// From the earlier period to the later one.
    Change { from: Period, to: Period },
    Average(Vec<Period>),
}

impl Over {
    pub fn periods(&self) -> Vec<Period> {
        match self {
            Over::At(p) => vec![p.clone()],
            Over::Change { from, to } => vec![from.clone(), to.clone()],
            Over::Average(ps) => ps.clone(),
        }
    }
}

/// One computation a question asks for.
pub(crate) struct Request {
    pub asked: Asked,
    /// `None`: the question asks how the figure has moved without naming a year ("are gross
    /// margins historically consistent?"); the latest fiscal year of the statements and the
    /// one before it are compared.
    pub over: Option<Over>,
    /// The scale the question wants amounts in ("in USD millions": 1e6).
    pub scale: Option<f64>,
    /// Decimal places the question asks for.
    pub decimals: Option<usize>,
}

/// Sorts periods in time: by year, then by the part of the year.
fn when(p: &Period) -> (i32, u32) {
    match p {
        Period::Year(y) => (*y, 99),
        Period::Quarter { year, quarter } => (year.unwrap_or(0), u32::from(*quarter) * 3),
        Period::Half { year, half } => (year.unwrap_or(0), u32::from(*half) * 6),
        Period::Month { year, month } => (year.unwrap_or(0), u32::from(*month)),
        Period::Date { year, month, .. } => (year.unwrap_or(0), u32::from(*month)),
        Period::Version(_) => (0, 0),
    }
}

fn asks_change(lower: &str) -> bool {
    cached_regex(
        &CHANGE,
        r"\b(chang(e[ds]?|ing)|growth|grow(ing)?|grew|increas(e[ds]?|ing)|decreas(e[ds]?|ing)|declin(e[ds]?|ing)|improv(e[ds]?|ing)|drop(ped)?|compar(e[ds]?|ing)|vs\.?|versus|between|consistent)\b|变化|增长|下降|增加|减少|同比",
    )
    .is_match(lower)
}

static CHANGE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
static TREND: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
static AGAINST: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();

/// A question about how one figure has moved over the years, naming none ("historically
/// consistent", "an improving margin profile", "趋势"); not a comparison with something else.
fn asks_trend(lower: &str) -> bool {
    let trend = cached_regex(
        &TREND,
        r"\b(historical(ly)?|trends?|over (the )?(years|time)|consistent|stable|improv(e[ds]?|ing)|declin(e[ds]?|ing)|deteriorat(e[ds]?|ing))\b|趋势|历年",
    );
    let against = cached_regex(&AGAINST, r"\b(between|compar(e[ds]?|ing|ison)|vs\.?|versus|peers?|competitors?|industry)\b|相比|对比");
    trend.is_match(lower) && !against.is_match(lower)
}
static QUALIFIED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
static EXPLAINS: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();

/// A figure the company defines itself ("adjusted EBITDA", "organic growth", "excluding FX"):
/// not computable from the statements, whatever its name.
fn qualified(lower: &str) -> bool {
    cached_regex(
        &QUALIFIED,
        r"\b(adjusted|non[- ]?gaap|excluding|exclude[sd]?|organic|constant currency|core|pro forma|underlying|real (change|growth))\b|调整后|剔除|不含",
    )
    .is_match(lower)
}

/// A question about why or how, not how much ("what drove the increase in inventories").
/// "… and explain why" after a metric still asks for the metric.
fn explains(lower: &str, asked: &Asked) -> bool {
    let why = cached_regex(&EXPLAINS, r"\b(why|drove|drive[ns]?|driver|reasons?|explain|cause[ds]?|nature|purpose)\b|为什么|原因|导致");
    match asked {
        Asked::Measure(_) => why.is_match(lower),
        Asked::Metric(_) | Asked::Defined { .. } => why.find_iter(lower).any(|m| !matches!(m.as_str(), "why" | "explain")),
    }
}

/// Whether the question asks for a value of the kind the computation gives: an amount for a
/// measure, or any value for a metric (a margin, a ratio).
fn asks_value(question: &str, asked: &Asked) -> bool {
    match (asked, crate::answer::asked::wanted(question)) {
        (Asked::Metric(m), Some(Want::Money)) => m.shown == Shown::Amount,
        (Asked::Metric(_) | Asked::Defined { .. }, _) => true,
        (Asked::Measure(_), want) => {
            let lower = question.trim_start().to_lowercase();
            let plain_ask = ["how much", "what is", "what was", "what were", "what are", "what's"].iter().any(|a| lower.starts_with(a) || lower.contains(&format!(" {a} ")));
            // "Was there any drop in cash between …" asks for the change, a figure too.
            matches!(want, Some(Want::Money | Want::Count)) || plain_ask || lower.contains("多少") || asks_change(&lower)
        }
    }
}
static SCALE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
static DECIMALS: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();

fn wanted_scale(lower: &str) -> Option<f64> {
    let found = cached_regex(&SCALE, r"\bin (?:usd |us\$ ?|\$ ?|dollars? )?(thousands|millions|billions)\b|\b(?:usd|us\$|\$) ?(thousands|millions|billions)\b")
        .captures(lower)?;
    match found.get(1).or(found.get(2))?.as_str() {
        "thousands" => Some(1e3),
        "millions" => Some(1e6),
        _ => Some(1e9),
    }
}

fn wanted_decimals(lower: &str) -> Option<usize> {
    let found = cached_regex(&DECIMALS, r"\b(one|two|three|zero|no|1|2|3|0) decimal").captures(lower)?;
    match found.get(1)?.as_str() {
        "zero" | "no" | "0" => Some(0),
        "one" | "1" => Some(1),
        "two" | "2" => Some(2),
        _ => Some(3),
    }
}

/// The periods named in the question, once each, in time order; an average's range ("FY2015 -
/// FY2017") spelled out year by year.
fn asked_periods(question: &str, average: bool) -> Vec<Period> {
    let mut found: Vec<Period> = Vec::new();
    for p in with_their_years(question) {
        if !found.contains(&p) && !matches!(p, Period::Version(_)) {
            found.push(p);
        }
    }
    found.sort_by_key(when);
    let years: Vec<i32> = found.iter().filter_map(|p| if let Period::Year(y) = p { Some(*y) } else { None }).collect();
    if average && years.len() == found.len() && years.len() >= 2 {
        let (first, last) = (years[0], years[years.len() - 1]);
        if last - first < 10 {
            return (first..=last).map(Period::Year).collect();
        }
    }
    found
}

static OF_YEAR: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();

/// The periods `question` names, a quarter or half joined to the year that follows it ("Q2 of
/// FY2024" is the second quarter of fiscal 2024, not a quarter and a year).
fn with_their_years(question: &str) -> Vec<Period> {
    let text = crate::text::fold_width(question);
    let found = periods(question);
    let joins = cached_regex(&OF_YEAR, r"(?i)^\s*(?:of|in)?\s*(?:the\s+)?(?:fiscal(?:\s+year)?\s*|fy\s*)?$");
    let mut out = Vec::new();
    let mut i = 0;
    while i < found.len() {
        let (period, at) = &found[i];
        let next = found.get(i + 1).filter(|(p, next_at)| {
            matches!(p, Period::Year(_)) && text.get(at.end..next_at.start).is_some_and(|between| joins.is_match(between))
        });
        match (period, next) {
            (Period::Quarter { year: None, quarter }, Some((Period::Year(y), _))) => {
                out.push(Period::Quarter { year: Some(*y), quarter: *quarter });
                i += 2;
            }
            (Period::Half { year: None, half }, Some((Period::Year(y), _))) => {
                out.push(Period::Half { year: Some(*y), half: *half });
                i += 2;
            }
            _ => {
                out.push(period.clone());
                i += 1;
            }
        }
    }
    out
}

/// The computation `question` asks for, when it names a metric or measure and the periods.
pub(crate) fn read(question: &str) -> Option<Request> {
    let asked = asked_in(question)?;
    let lower = question.to_lowercase();
    if qualified(&lower) || explains(&lower, &asked) || !asks_value(question, &asked) {
        return None;
    }
    let average = lower.contains("average") || lower.contains("平均");
    let periods = asked_periods(question, average);
    let over = match periods.as_slice() {
        [] if asks_trend(&lower) && !average => return Some(Request { asked, over: None, scale: wanted_scale(&lower), decimals: wanted_decimals(&lower) }),
        [] => return None,
        [Period::Year(y)] if asks_change(&lower) && !average => Over::Change { from: Period::Year(y - 1), to: Period::Year(*y) },
        [only] => Over::At(only.clone()),
        many if average => Over::Average(many.to_vec()),
        [from, to] if asks_change(&lower) => Over::Change { from: from.clone(), to: to.clone() },
        _ => return None,
    };
    Some(Request { asked, over: Some(over), scale: wanted_scale(&lower), decimals: wanted_decimals(&lower) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_period_a_change_or_an_average() {
        let r = read("What is the year end FY2019 total amount of inventories for Best Buy? Answer in USD millions.").unwrap();
        assert_eq!((r.over, r.scale), (Some(Over::At(Period::Year(2019))), Some(1e6)));
        let r = read("Has AMCOR's quick ratio improved or declined between FY2023 and FY2022? If the quick ratio is not useful here, state that and explain why.").unwrap();
        assert_eq!(r.over, Some(Over::Change { from: Period::Year(2022), to: Period::Year(2023) }));
        let r = read("what is the FY2015 - FY2017 3 year average net profit margin (as a %)? Answer in units of percents and round to one decimal place.").unwrap();
        assert_eq!(r.over, Some(Over::Average(vec![Period::Year(2015), Period::Year(2016), Period::Year(2017)])));
        assert_eq!(r.decimals, Some(1));
        let r = read("Does AMCOR have an improving gross margin profile as of FY2023?").unwrap();
        assert_eq!(r.over, Some(Over::Change { from: Period::Year(2022), to: Period::Year(2023) }));
        let r = read("How much did operating income grow in FY2022?").unwrap();
        assert_eq!(r.over, Some(Over::Change { from: Period::Year(2021), to: Period::Year(2022) }));
        assert_eq!(read("What is the FY2021 capital expenditure amount (in USD billions) for PepsiCo?").unwrap().scale, Some(1e9));
        let r = read("Was there any drop in Cash & Cash equivalents between FY 2023 and Q2 of FY2024?").unwrap();
        assert_eq!(r.over, Some(Over::Change { from: Period::Year(2023), to: Period::Quarter { year: Some(2024), quarter: 2 } }), "a quarter of a fiscal year");
    }

    #[test]
    fn a_trend_without_a_year_is_asked_of_the_latest_years() {
        let r = read("Are Best Buy's gross margins historically consistent (not fluctuating more than roughly 2% each year)?").unwrap();
        assert_eq!(r.over, None);
        assert!(read("Is gross margin improving?").unwrap().over.is_none());
        assert!(read("How does gross margin compare with its peers?").is_none(), "a comparison with others");
    }

    #[test]
    fn no_computation_without_a_measure_or_a_period() {
        assert!(read("What was revenue?").is_none(), "no period");
        assert!(read("Who chairs the board in 2023?").is_none(), "no measure");
        assert!(read("total revenue in 2019, 2020 and 2021").is_none(), "three periods, neither an average nor a change");
        assert!(read("What Was AMCOR's Adjusted Non GAAP EBITDA for FY 2023").is_none(), "the company's own measure");
        assert!(read("What drove the increase in merchandise inventories balance at end of FY2023?").is_none(), "why, not how much");
        assert!(read("Are there product categories that represent more than 20% of Boeing's revenue for FY2022?").is_none(), "a share, not the revenue");
    }
}
