//! Computed answers: a figure question ("FY2022 operating margin", "quick ratio between FY2022
//! and FY2023", "3-year average net profit margin") answered by Pagewise itself, not the
//! model: each operand read from one statement cell and cited, the formula shown with the
//! figures as the table writes them, the result computed in code. A question whose operands
//! the statements do not all give gets no computation (the model answers as before).

pub(crate) mod measures;
mod operands;
mod render;
mod request;

use measures::{Asked, Expr, Shown};
pub(crate) use operands::{part_of_year, Operand, Tables};
pub(crate) use request::Over;

use crate::answer::facts::Period;
use crate::engine::Queries;
use crate::error::Result;
use crate::facets::parse_question;
use crate::index::DocumentInfo;

/// Documents, in retrieval's order, whose tables a computation reads.
const DOCUMENTS_READ: usize = 3;

/// The value of one period, with the formula as figures and the cells it read.
#[derive(Debug, Clone)]
pub(crate) struct PeriodValue {
    pub period: Period,
    pub value: f64,
    /// "(Total current assets 5,853 − Inventories 2,232) / Total current liabilities 5,182".
    pub formula: String,
    pub operands: Vec<Operand>,
    /// The formula over measures, for the check to run again.
    expr: Expr,
}

/// A computation done: what was computed, over which periods, and each period's value.
#[derive(Debug, Clone)]
pub(crate) struct Computation {
    pub name: String,
    pub shown: Shown,
    pub over: Over,
    pub values: Vec<PeriodValue>,
    /// The scale the question asked amounts in.
    pub scale: Option<f64>,
    pub decimals: Option<usize>,
}

impl Computation {
    /// Every cell the computation read, once.
    pub fn operands(&self) -> impl Iterator<Item = &Operand> {
        self.values.iter().flat_map(|v| &v.operands)
    }

    /// Whether each period's value is what its formula gives from the cells as written (the
    /// check of a computed answer: the figures are re-read, the arithmetic re-run).
    pub fn recomputes(&self) -> bool {
        self.values.iter().all(|v| {
            let again = rerun(&v.expr, &v.operands);
            again.is_some_and(|x| v.value.is_finite() && (x - v.value).abs() <= 1e-9 * x.abs().max(1.0))
        })
    }
}

/// `expr` over the figures of `operands` as their cells write them.
fn rerun(expr: &Expr, operands: &[Operand]) -> Option<f64> {
    match expr {
        Expr::Of(m) => {
            let mut parts: Vec<&Operand> = operands.iter().filter(|o| o.measure == *m && o.part).collect();
            if parts.is_empty() {
                return operands.iter().find(|o| o.measure == *m).and_then(operands::read_again);
            }
            // A measure used twice in a formula pushed its classes twice: each counts once.
            parts.dedup_by(|a, b| (a.doc_id, a.page, &a.line) == (b.doc_id, b.page, &b.line));
            parts.iter().map(|o| operands::read_again(o)).sum()
        }
        Expr::Add(a, b) => Some(rerun(a, operands)? + rerun(b, operands)?),
        Expr::Sub(a, b) => Some(rerun(a, operands)? - rerun(b, operands)?),
        Expr::Div(a, b) => {
            let d = rerun(b, operands)?;
            (d != 0.0).then_some(rerun(a, operands)? / d)
        }
    }
}

/// One formula of `expr` for `period` from the tables, with its operands; `None` when a cell
/// is missing or a divisor is zero.
fn evaluate(expr: &Expr, period: &Period, tables: &Tables, used: &mut Vec<Operand>) -> Option<(f64, String)> {
    match expr {
        Expr::Of(measure) => {
            let beside = used.first().map(|o| (o.doc_id, o.page));
            let found = tables.find(*measure, period, beside);
            // The classes on the other operands' page beat a row of the measure elsewhere.
            let on_beside = |o: &Operand| beside == Some((o.doc_id, o.page));
            if !found.as_ref().is_some_and(on_beside) {
                match tables.find_parts(*measure, period, beside) {
                    Some(parts) if found.is_none() || parts.iter().all(on_beside) => return in_parts(*measure, parts, used),
                    _ => {}
                }
            }
            let found = found?;
            // Figures of one formula come from one document's statements, in one scale: mixed,
            // they would be added as if they were alike.
            if used.first().is_some_and(|o| o.scale != found.scale || o.doc_id != found.doc_id) {
                return None;
            }
            let text = if found.reversed {
                // The figure the formula uses is the row's negated: say so beside the row's own.
                format!("{} {} (row “{}”: {})", found.measure.name, render::negated(&found), render::row_name(&found.row), render::as_written(&found))
            } else {
                format!("{} {}", render::row_name(&found.row), render::as_written(&found))
            };
            let value = found.value;
            used.push(found);
            Some((value, text))
        }
        Expr::Add(a, b) => {
            let ((x, tx), (y, ty)) = (evaluate(a, period, tables, used)?, evaluate(b, period, tables, used)?);
            Some((x + y, format!("{tx} + {ty}")))
        }
        Expr::Sub(a, b) => {
            let ((x, tx), (y, ty)) = (evaluate(a, period, tables, used)?, evaluate(b, period, tables, used)?);
            Some((x - y, format!("{tx} − {ty}")))
        }
        Expr::Div(a, b) => {
            let ((x, tx), (y, ty)) = (evaluate(a, period, tables, used)?, evaluate(b, period, tables, used)?);
            let tx = if matches!(**a, Expr::Of(_)) { tx } else { format!("({tx})") };
            let ty = if matches!(**b, Expr::Of(_)) { ty } else { format!("({ty})") };
            (y != 0.0).then(|| (x / y, format!("{tx} / {ty}")))
        }
    }
}

/// A measure the statement lists in classes, as their sum: "inventories (Raw materials 992 +
/// Finished goods 1,221)".
fn in_parts(measure: measures::Measure, parts: Vec<Operand>, used: &mut Vec<Operand>) -> Option<(f64, String)> {
    if used.first().is_some_and(|o| parts.iter().any(|p| o.scale != p.scale || o.doc_id != p.doc_id)) {
        return None;
    }
    let value = parts.iter().map(|p| p.value).sum();
    let named: Vec<String> = parts.iter().map(|p| format!("{} {}", render::row_name(&p.row), render::as_written(p))).collect();
    used.extend(parts);
    Some((value, format!("{} ({})", measure.name, named.join(" + "))))
}

/// The first of `formulas` the tables give every operand of, for `period`, whose columns are
/// headed `column` (the quarter's end date where the period is a fiscal quarter).
fn value_for(formulas: &[Expr], period: &Period, column: &Period, tables: &Tables) -> Option<PeriodValue> {
    formulas.iter().find_map(|f| {
        let mut operands = Vec::new();
        let (value, formula) = evaluate(f, column, tables, &mut operands)?;
        Some(PeriodValue { period: period.clone(), value, formula, operands, expr: f.clone() })
    })
}

/// The days (month, day) the fiscal years end, from the annual reports among `doc_ids`.
fn year_ends(ranked: &[DocumentInfo], doc_ids: &[i64]) -> Vec<(u8, u8)> {
    ranked
        .iter()
        .filter(|d| doc_ids.contains(&d.doc_id))
        .filter_map(|d| d.facets.as_ref())
        .filter(|f| f.kind == crate::facets::DocKind::AnnualReport && f.period.quarter.is_none())
        .filter_map(|f| parse_date(f.period.date.as_deref()?))
        .filter_map(|p| if let Period::Date { month, day, .. } = p { Some((month, day)) } else { None })
        .collect()
}

/// The latest fiscal year an annual report among `doc_ids` covers.
fn latest_fiscal_year(ranked: &[DocumentInfo], doc_ids: &[i64]) -> Option<i32> {
    ranked
        .iter()
        .filter(|d| doc_ids.contains(&d.doc_id))
        .filter_map(|d| d.facets.as_ref())
        .filter(|f| f.kind == crate::facets::DocKind::AnnualReport && f.period.quarter.is_none())
        .filter_map(|f| f.period.year)
        .max()
}

/// A "YYYY-MM-DD" date as a period.
fn parse_date(date: &str) -> Option<Period> {
    let mut parts = date.splitn(3, '-').map(str::parse::<u32>);
    let (Some(Ok(y)), Some(Ok(m)), Some(Ok(day))) = (parts.next(), parts.next(), parts.next()) else { return None };
    Some(Period::Date { year: i32::try_from(y).ok(), month: u8::try_from(m).ok()?, day: u8::try_from(day).ok()? })
}

/// The date a fiscal quarter ends, from the report of that quarter among `ranked`: tables head
/// a quarter's columns with its end date ("July 29, 2023"), and which quarter of which fiscal
/// year a date falls in is the company's own calendar, which only its report says.
fn quarter_end(period: &Period, ranked: &[DocumentInfo], doc_ids: &[i64]) -> Option<Period> {
    let Period::Quarter { year: Some(year), quarter } = period else { return None };
    ranked.iter().filter(|d| doc_ids.contains(&d.doc_id)).find_map(|d| {
        let stated = &d.facets.as_ref()?.period;
        if stated.year != Some(*year) || stated.quarter != Some(*quarter) {
            return None;
        }
        parse_date(stated.date.as_deref()?)
    })
}

/// Capitalised words that name no one: units and the terms of statements.
const NOT_NAMES: &[&str] = &["usd", "eur", "gbp", "rmb", "gaap", "ifrs", "ebitda", "ebit", "fy", "capex", "eps", "sg&a", "r&d", "pp&e", "yoy"];

/// Words a question starts with that name no one.
const OPENERS: &[&str] = &[
    "what", "how", "which", "who", "whom", "whose", "when", "where", "why", "is", "are", "was", "were", "did", "does", "do", "has", "have",
    "had", "can", "could", "should", "would", "will", "give", "list", "show", "tell", "compute", "calculate", "find", "please", "according",
    "based", "using", "in", "for", "from", "between", "by", "the", "a", "an", "total", "net", "gross", "operating", "current", "quick",
    "average", "year", "fiscal", "annual", "quarterly",
];

/// Whether the question names someone, apart from words that start its sentences ("… in USD
/// millions. Answer in …") and the terms of statements; a first word that is no opener counts
/// ("Nike gross margin, fiscal 2023?").
fn names_someone(question: &str, capitalised: &[String]) -> bool {
    let first = question.split_whitespace().next().unwrap_or("");
    let first_plain = first.trim_matches(|c: char| !c.is_alphanumeric()).trim_end_matches("'s").to_lowercase();
    if first.chars().next().is_some_and(char::is_uppercase) && !OPENERS.contains(&first_plain.as_str()) && !NOT_NAMES.contains(&first_plain.as_str()) && !first_plain.starts_with("fy") {
        return true;
    }
    let starts: Vec<String> = question
        .split(['.', '?', '!', ';', ':'])
        .filter_map(|s| s.split_whitespace().next())
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .collect();
    let period_word = |w: &str| w.starts_with("fy") || (w.len() == 2 && (w.starts_with('q') || w.starts_with('h')) && w[1..].chars().all(|c| c.is_ascii_digit()));
    capitalised.iter().any(|w| !starts.contains(w) && !NOT_NAMES.contains(&w.as_str()) && !period_word(w) && !measures::statement_word(w))
}

/// The documents a computation may read: those of the first hits, and of those only the ones
/// of an organisation the question names when it names one; none when the question names
/// someone the library does not hold (another company's figures would be wrong, not missing).
fn documents_for(question: &str, ranked: &[DocumentInfo], years: &[i32]) -> Vec<i64> {
    let facets = parse_question(question);
    let named: Vec<&DocumentInfo> = ranked
        .iter()
        .filter(|d| d.facets.as_ref().is_some_and(|f| f.organisation.iter().chain(&f.aliases).any(|n| facets.names(n))))
        .collect();
    let chosen: Vec<&DocumentInfo> = if !named.is_empty() {
        named
    } else if !names_someone(question, &facets.capitalised) {
        // Figures of one answer are one organisation's: that of the first document retrieved.
        let first = ranked.first().and_then(|d| d.facets.as_ref()).and_then(|f| f.organisation.as_deref());
        ranked.iter().filter(|d| first.is_none() || d.facets.as_ref().and_then(|f| f.organisation.as_deref()) == first).collect()
    } else {
        Vec::new()
    };
    // The annual report of a year asked for is where that year's statements stand, however
    // far down retrieval ranked it.
    let annual_of_asked = |d: &&&DocumentInfo| {
        d.facets.as_ref().is_some_and(|f| f.kind == crate::facets::DocKind::AnnualReport && f.period.year.is_some_and(|y| years.contains(&y)))
    };
    let mut read: Vec<i64> = chosen.iter().take(DOCUMENTS_READ).map(|d| d.doc_id).collect();
    for d in chosen.iter().skip(DOCUMENTS_READ).filter(annual_of_asked).take(2) {
        read.push(d.doc_id);
    }
    read
}

/// The computation `question` asks for, from the tables of `ranked` (documents in retrieval's
/// order), when the statements give every operand.
pub(crate) fn compute(q: &impl Queries, question: &str, ranked: &[DocumentInfo]) -> Result<Option<Computation>> {
    let Some(request) = request::read(question) else { return Ok(None) };
    let years: Vec<i32> = request.over.iter().flat_map(Over::periods).filter_map(|p| p.year()).collect();
    let doc_ids = documents_for(question, ranked, &years);
    if doc_ids.is_empty() {
        return Ok(None);
    }
    let over = match request.over {
        Some(over) => over,
        None => match latest_fiscal_year(ranked, &doc_ids) {
            Some(y) => Over::Change { from: Period::Year(y - 1), to: Period::Year(y) },
            None => return Ok(None),
        },
    };
    let tables = Tables::read(q, &doc_ids)?.with_year_ends(year_ends(ranked, &doc_ids));
    let (name, shown, formulas) = match &request.asked {
        Asked::Metric(m) => (m.name.to_string(), m.shown, (m.formulas)()),
        Asked::Measure(m) => (m.name.to_string(), Shown::Amount, vec![Expr::Of(*m)]),
        Asked::Defined { name, expr, shown } => (name.clone(), *shown, vec![expr.clone()]),
    };
    let mut values = Vec::new();
    for period in over.periods() {
        let column = match period {
            Period::Quarter { .. } => match quarter_end(&period, ranked, &doc_ids) {
                Some(date) => date,
                None => return Ok(None),
            },
            _ => period.clone(),
        };
        let Some(value) = value_for(&formulas, &period, &column, &tables) else { return Ok(None) };
        values.push(value);
    }
    Ok(Some(Computation { name, shown, over, values, scale: request.scale, decimals: request.decimals }))
}

pub(crate) use render::{as_written, sentences};

#[cfg(test)]
mod tests {
    use super::measures::{CURRENT_ASSETS, CURRENT_LIABILITIES, INVENTORIES};
    use super::*;

    fn operand(measure: measures::Measure, written: &str) -> Operand {
        Operand {
            measure,
            period: Period::Year(2019),
            value: crate::answer::numbers::number_of(written).unwrap() * 1e6,
            written: written.into(),
            scale: 1e6,
            money: true,
            row: measure.name.into(),
            column: "2019".into(),
            reversed: false,
            part: false,
            doc_id: 1,
            page: 52,
            line: 0..10,
            cell: 5..10,
            header: None,
        }
    }

    fn report(doc_id: i64, kind: crate::facets::DocKind, year: i32, quarter: Option<u8>, date: &str) -> DocumentInfo {
        DocumentInfo {
            doc_id,
            path: std::path::PathBuf::from(format!("/library/{doc_id}.pdf")),
            title: format!("report {doc_id}"),
            mtime_ns: 0,
            page_count: 80,
            facets: Some(crate::facets::DocumentFacets {
                organisation: Some("Globex".into()),
                kind,
                period: crate::facets::Period { year: Some(year), quarter, date: Some(date.into()) },
                language: "en".into(),
                ..Default::default()
            }),
        }
    }

    #[test]
    fn a_fiscal_quarter_ends_on_the_date_its_own_report_gives() {
        use crate::facets::DocKind;
        let ranked = vec![
            report(1, DocKind::AnnualReport, 2023, None, "2024-02-03"),
            report(2, DocKind::QuarterlyReport, 2024, Some(2), "2023-07-29"),
            report(3, DocKind::QuarterlyReport, 2024, Some(3), "2023-10-28"),
        ];
        let q2 = Period::Quarter { year: Some(2024), quarter: 2 };
        assert_eq!(quarter_end(&q2, &ranked, &[1, 2, 3]), Some(Period::Date { year: Some(2023), month: 7, day: 29 }));
        assert_eq!(quarter_end(&q2, &ranked, &[1, 3]), None, "only a report among the documents read counts");
        assert_eq!(quarter_end(&Period::Quarter { year: Some(2024), quarter: 1 }, &ranked, &[1, 2, 3]), None, "no report of that quarter");
        assert_eq!(quarter_end(&Period::Year(2024), &ranked, &[1, 2, 3]), None);
        assert_eq!(year_ends(&ranked, &[1, 2, 3]), vec![(2, 3)], "only annual reports give the year's end");
        assert_eq!(parse_date("2024-02-03"), Some(Period::Date { year: Some(2024), month: 2, day: 3 }));
        assert_eq!(parse_date("February 3, 2024"), None);
    }

    #[test]
    fn a_sentence_start_or_a_unit_names_no_one() {
        let words = |q: &str| parse_question(q).capitalised;
        let q = "What is the 2023 asset coverage? Asset coverage is defined as total assets / total liabilities. Answer in USD millions.";
        assert!(!names_someone(q, &words(q)));
        let q = "What was Globex's current ratio in 2023?";
        assert!(names_someone(q, &words(q)));
        let q = "Nike gross margin, fiscal 2023?";
        assert!(names_someone(q, &words(q)), "a name that starts the question");
        let q = "Operating margin 2023?";
        assert!(!names_someone(q, &words(q)));
        let q = "Was there any drop in Cash & Cash equivalents between FY 2023 and Q2 of FY2024?";
        assert!(!names_someone(q, &words(q)), "the words of a measure and a quarter");
    }

    #[test]
    fn the_check_rereads_the_cells_and_reruns_the_formula() {
        let expr = Expr::Div(Box::new(Expr::Sub(Box::new(Expr::Of(CURRENT_ASSETS)), Box::new(Expr::Of(INVENTORIES)))), Box::new(Expr::Of(CURRENT_LIABILITIES)));
        let operands = vec![operand(CURRENT_ASSETS, "8,870"), operand(INVENTORIES, "5,409"), operand(CURRENT_LIABILITIES, "7,513")];
        let value = PeriodValue { period: Period::Year(2019), value: (8870.0 - 5409.0) / 7513.0, formula: String::new(), operands, expr };
        let mut computation =
            Computation { name: "quick ratio".into(), shown: Shown::Times, over: Over::At(Period::Year(2019)), values: vec![value], scale: None, decimals: None };
        assert!(computation.recomputes());
        let (text, cited) = &sentences(&computation, crate::lang::Lang::En)[0];
        assert!(text.ends_with("= 0.46."), "{text}");
        assert_eq!(cited.len(), 3);
        computation.values[0].value = 0.47;
        assert!(!computation.recomputes(), "a result the formula does not give is caught");
        computation.values[0].value = (8870.0 - 5409.0) / 7513.0;
        computation.values[0].operands[1].written = "5,490".into();
        assert!(!computation.recomputes(), "a figure its cell does not say is caught");
    }
}
