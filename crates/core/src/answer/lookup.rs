//! Looking a figure up: the table row a question asks for ("capital expenditure in FY2018"),
//! found in the statement pages of the documents retrieval ranked first, so that the passage
//! holding it leads the evidence. Retrieval alone ranks prose that talks about a measure above
//! the statement row that gives it, because a row is mostly figures; measured on the dev
//! filings, the page with the asked figure reached the model's evidence for about half the
//! questions.
//!
//! A row matches when the question (or one of the accounting names below for the measure it
//! asks about) accounts for most of the row label's words, the period asked for is its
//! column's, and the cell holds a figure. The names are synonyms that hold across companies
//! and reporting standards, not any one library's wording.

use std::collections::HashSet;

use super::asked::{self, Want};
use super::facts::compare::fold;
use super::facts::table::table_cells;
use super::facts::{periods, Period};
use crate::engine::Queries;
use crate::error::Result;
use crate::retrieve::Hit;
use crate::text::content_terms;

/// Names of one measure that statements use interchangeably. A question that names any of
/// them matches rows labelled with any other.
const SAME_MEASURE: &[&[&str]] = &[
    &[
        "capital expenditure",
        "capex",
        "capital spending",
        "purchases of property plant and equipment",
        "payments for property plant and equipment",
        "additions to property plant and equipment",
        "acquisitions of property plant and equipment",
        "expenditures for property plant and equipment",
        "purchases of property and equipment",
        "additions to property and equipment",
        "payments for property and equipment",
    ],
    &["revenue", "net sales", "sales", "net revenue", "total revenue", "turnover"],
    &["net income", "net earnings", "net profit"],
    &["operating income", "operating profit", "income from operations", "earnings from operations"],
    &["cost of goods sold", "cost of sales", "cost of revenue", "cogs"],
    &["inventory", "merchandise inventory"],
    &["operating cash flow", "cash from operations", "net cash provided by operating activities", "cash provided by operations"],
    &["accounts receivable", "receivables", "trade receivables"],
    &["selling general and administrative", "sga"],
    &["earnings per share", "eps"],
    &["dividends paid", "cash dividends", "dividends"],
    &["research and development", "r&d"],
    &["depreciation and amortization", "depreciation"],
];

/// Row words that say which line of a statement it is without saying what it measures.
const GENERIC: &[&str] = &["total", "net", "other", "amount", "value", "current", "end", "year", "fiscal", "period", "usd"];

/// Statements a question can name, each with the titles its pages carry.
const STATEMENTS: &[(&[&str], &[&str])] = &[
    (&["cash flow"], &["cash flows", "cash flow"]),
    (&["balance sheet", "financial position"], &["balance sheet", "financial position", "financial condition"]),
    (
        &["income statement", "statement of operations", "statement of earnings", "p&l", "profit and loss"],
        &["statements of operations", "statements of income", "statements of earnings", "income statement", "statement of operations", "statement of income", "statement of earnings", "profit or loss", "profit and loss"],
    ),
];

/// How many documents, taken in retrieval's order, are read for rows.
const DOCUMENTS_READ: usize = 2;
/// Rows (from different passages) that join the evidence.
const ROWS_KEPT: usize = 2;
/// The share of a row label's words the question must account for.
const MIN_COVERAGE: f32 = 0.66;

/// A word as rows and questions are compared: lower case, plural and "-y"/"-ies" folded.
fn stem(term: &str) -> String {
    let folded = fold(&term.to_lowercase());
    match folded.strip_suffix('y') {
        Some(s) if s.chars().count() >= 4 => s.to_string(),
        _ => folded,
    }
}

pub(crate) fn words(text: &str) -> HashSet<String> {
    content_terms(&text.replace('&', " and ").replace("r and d", "r&d"))
        .into_iter()
        .filter(|t| !t.chars().any(|c| c.is_ascii_digit()))
        .map(|t| stem(&t))
        .collect()
}

/// What a question asks to look up: the words that may name the row and the periods asked.
#[derive(Debug, Clone)]
pub struct Asked {
    /// The question's own words, then each accounting name of a measure it names.
    names: Vec<HashSet<String>>,
    periods: Vec<Period>,
    /// Page titles of the statement the question names, if it names one.
    statement: Option<&'static [&'static str]>,
}

impl Asked {
    /// What was asked, without the words of `names` (the document's own organisation): a
    /// row "Other Boeing" is not what "how much cash did boeing have" asks for.
    fn without_names<'a>(&self, names: impl Iterator<Item = &'a String>) -> Asked {
        let drop: HashSet<String> = names.flat_map(|n| words(n)).collect();
        let mut out = self.clone();
        if let Some(own) = out.names.first_mut() {
            own.retain(|w| !drop.contains(w));
        }
        out
    }
}

/// Whether a question asks for a figure a table row could give: an amount, percentage or
/// count, or a value of a named period.
pub fn asks_for_figure(question: &str) -> Option<Asked> {
    let periods: Vec<Period> = periods(question).into_iter().map(|(p, _)| p).collect();
    let figure = matches!(asked::wanted(question), Some(Want::Money | Want::Percent | Want::Count));
    if !figure && periods.is_empty() {
        return None;
    }
    // Names the question gives (a company, a region) say whose figure, not which row: a row
    // labelled with the company's name is not its capital expenditure. An acronym ("EBITDA",
    // "EPS") names a measure unless it owns something ("AMCOR's"), and in a question written
    // in title case ("What Was AMCOR's Adjusted Non GAAP EBITDA") a capital says nothing.
    let long_words: Vec<&str> = question.split_whitespace().filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 4).collect();
    let title_case = long_words.len() >= 3 && long_words.iter().filter(|w| w.starts_with(char::is_uppercase)).count() * 5 >= long_words.len() * 3;
    let proper: HashSet<String> = question
        .split_whitespace()
        .skip(1)
        .filter(|w| {
            let owns = w.ends_with("'s") || w.ends_with("’s");
            let bare = w.trim_end_matches("'s").trim_end_matches("’s");
            let acronym = bare.chars().filter(|c| c.is_alphabetic()).count() >= 2 && !bare.chars().any(char::is_lowercase);
            owns || (!title_case && !acronym && bare.chars().next().is_some_and(char::is_uppercase))
        })
        .flat_map(|w| words(w.trim_end_matches("'s").trim_end_matches("’s")))
        .collect();
    let own: HashSet<String> = words(question).difference(&proper).cloned().collect();
    if own.is_empty() {
        return None;
    }
    let mut names = vec![own.clone()];
    for group in SAME_MEASURE {
        let sets: Vec<HashSet<String>> = group.iter().map(|n| words(n)).collect();
        if sets.iter().any(|s| !s.is_empty() && s.is_subset(&own)) {
            names.extend(sets);
        }
    }
    let lower = question.to_lowercase();
    let statement = STATEMENTS.iter().find(|(asked, _)| asked.iter().any(|a| lower.contains(a))).map(|(_, titles)| *titles);
    Some(Asked { names, periods, statement })
}

/// How well a row label answers what was asked: the share of its words that the question (or
/// one name of the asked measure) accounts for, plus a little for each word that says what is
/// measured, so "Total current assets" loses to "Total assets" for "total assets". `None`
/// below [`MIN_COVERAGE`] or when only generic words match.
fn row_score(asked: &Asked, row: &str) -> Option<f32> {
    let label = words(row);
    if label.is_empty() {
        return None;
    }
    let mut best: Option<f32> = None;
    for (i, name) in asked.names.iter().enumerate() {
        // The question's own words may say more than the row; an accounting name must all be there.
        if i > 0 && !name.is_subset(&label) {
            continue;
        }
        let shared: Vec<&String> = label.iter().filter(|w| name.contains(*w)).collect();
        let telling = shared.iter().filter(|w| !GENERIC.contains(&w.as_str())).count();
        if telling == 0 {
            continue;
        }
        let coverage = shared.len() as f32 / label.len() as f32;
        if coverage >= MIN_COVERAGE {
            let score = coverage + 0.05 * telling as f32;
            best = Some(best.map_or(score, |b: f32| b.max(score)));
        }
    }
    best
}

/// A figure as a table writes it: digits with separators, parentheses or a currency sign;
/// a dash for zero.
fn is_figure(value: &str) -> bool {
    super::numbers::number_of(value).is_some()
}

/// One row that answers what was asked, on one page.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundRow {
    pub page: u32,
    pub row: String,
    pub column: String,
    pub value: String,
    /// The row's line in the page's text.
    pub line: std::ops::Range<usize>,
    pub score: f32,
}

/// The rows of one page's tables that answer `asked`, best first.
pub fn rows_on_page(asked: &Asked, page: u32, text: &str) -> Vec<FoundRow> {
    let head: String = text.chars().take(400).collect::<String>().to_lowercase();
    let statement_bonus = match asked.statement {
        Some(titles) if titles.iter().any(|t| head.contains(t)) => 0.5,
        _ => 0.0,
    };
    let mut found: Vec<FoundRow> = Vec::new();
    for cell in table_cells(text) {
        if !is_figure(&cell.value) {
            continue;
        }
        if !asked.periods.is_empty() {
            let stated: Vec<Period> = periods(&cell.column).into_iter().chain(periods(&cell.row)).map(|(p, _)| p).collect();
            if !asked.periods.iter().any(|p| stated.iter().any(|s| p.named_by(s))) {
                continue;
            }
            // A year asked for is not a quarter or a half that ends in it.
            let years_only = asked.periods.iter().all(|p| matches!(p, Period::Year(_)));
            if years_only && super::compute::part_of_year(&cell.column) {
                continue;
            }
        }
        let Some(score) = row_score(asked, &cell.row) else { continue };
        // One entry per row: its first matching column (the latest year, as statements order them).
        if found.iter().any(|f| f.line == cell.line) {
            continue;
        }
        found.push(FoundRow { page, row: cell.row, column: cell.column, value: cell.value, line: cell.line, score: score + statement_bonus });
    }
    found.sort_by(|a, b| b.score.total_cmp(&a.score));
    found
}

/// The passages holding the rows `question` asks for, from the first documents of `hits`,
/// as hits that rank above every retrieved one; with the rows found, for the trace.
pub fn statement_rows(q: &impl Queries, question: &str, hits: &[Hit]) -> Result<(Vec<Hit>, Vec<FoundRow>)> {
    let Some(asked) = asks_for_figure(question) else { return Ok((Vec::new(), Vec::new())) };
    let mut doc_ids: Vec<i64> = Vec::new();
    for h in hits {
        if !doc_ids.contains(&h.span.doc_id) {
            doc_ids.push(h.span.doc_id);
        }
    }
    doc_ids.truncate(DOCUMENTS_READ);
    let mut rows: Vec<(i64, FoundRow)> = Vec::new();
    for &doc_id in &doc_ids {
        let Some(info) = q.document(doc_id)? else { continue };
        let asked = match &info.facets {
            Some(f) => asked.without_names(f.organisation.iter().chain(&f.aliases)),
            None => asked.clone(),
        };
        for page in 1..=info.page_count {
            let Some(text) = q.page_text(doc_id, page)? else { continue };
            rows.extend(rows_on_page(&asked, page, &text).into_iter().map(|r| (doc_id, r)));
        }
    }
    // Best first; among equals, the document retrieval ranked first and the earlier page
    // (statements come before the notes that repeat their figures).
    rows.sort_by(|(da, a), (db, b)| {
        let rank = |d: &i64| doc_ids.iter().position(|x| x == d).unwrap_or(usize::MAX);
        b.score.total_cmp(&a.score).then(rank(da).cmp(&rank(db))).then(a.page.cmp(&b.page))
    });
    let top = hits.iter().map(|h| h.score).fold(0.0f32, f32::max);
    let mut out: Vec<Hit> = Vec::new();
    let mut kept: Vec<FoundRow> = Vec::new();
    for (doc_id, row) in rows {
        if out.len() >= ROWS_KEPT {
            break;
        }
        let passages = q.page_passages(doc_id, row.page)?;
        let Some(record) = passages.into_iter().find(|p| p.span.byte_start <= row.line.start && row.line.start < p.span.byte_end) else {
            continue;
        };
        if out.iter().any(|h| h.chunk_id == record.id) {
            continue;
        }
        let also_in = hits.iter().find(|h| h.span.doc_id == doc_id).map(|h| h.also_in.clone()).unwrap_or_default();
        // Just above the best retrieved passage, so it leads the evidence in that order.
        let score = top + 1e-3 * (ROWS_KEPT - out.len()) as f32;
        out.push(Hit::of(out.len() + 1, record, score, also_in));
        kept.push(row);
    }
    Ok((out, kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASH_FLOWS: &str = "Consolidated Statement of Cash Flows\nYears ended December 31\t2018\t2017\t2016\n(Millions)\nNet income including noncontrolling interest\t$\t5,363\t$\t4,869\t$\t5,058\nDepreciation and amortization\t1,488\t1,544\t1,474\nPurchases of property, plant and equipment (PP&E)\t(1,577)\t(1,373)\t(1,420)\nProceeds from sale of PP&E and other assets\t262\t49\t58";
    const NOTE: &str = "Note 8. Supplemental information\nCapital expenditures in 2018 rose as the company invested in new plants; see the table.\nRegion\t2018\t2017\nUnited States share of capital spending\t45%\t42%";

    #[test]
    fn an_accounting_name_finds_the_statement_row_for_the_year() {
        let asked = asks_for_figure("What is the FY2018 capital expenditure amount (in USD millions) from the cash flow statement?").unwrap();
        let rows = rows_on_page(&asked, 60, CASH_FLOWS);
        let best = &rows[0];
        assert!(best.row.starts_with("Purchases of property, plant and equipment"), "{rows:?}");
        assert_eq!(best.value, "(1,577)");
        assert!(best.column.contains("2018"), "{best:?}");
        let asked_2017 = asks_for_figure("capex in 2017?").unwrap();
        assert_eq!(rows_on_page(&asked_2017, 60, CASH_FLOWS)[0].value, "(1,373)");
    }

    #[test]
    fn the_named_statement_outranks_a_note_that_shares_the_words() {
        let asked = asks_for_figure("What was capital spending in 2018 according to the cash flow statement?").unwrap();
        let statement = rows_on_page(&asked, 60, CASH_FLOWS);
        let note = rows_on_page(&asked, 80, NOTE);
        assert!(!statement.is_empty());
        assert!(note.iter().all(|n| n.score < statement[0].score), "{note:?} vs {statement:?}");
    }

    #[test]
    fn a_year_asked_for_is_not_a_quarter_ending_in_it() {
        let asked = asks_for_figure("What was the adjusted EBITDA for FY 2023?").unwrap();
        let quarter = "($ million)\tThree Months Ended June 30, 2022\tThree Months Ended June 30, 2023\nAdjusted EBITDA\t609\t540";
        let year = "($ million)\tTwelve Months Ended June 30, 2022\tTwelve Months Ended June 30, 2023\nAdjusted EBITDA\t2,117\t2,018";
        assert!(rows_on_page(&asked, 11, quarter).is_empty());
        assert_eq!(rows_on_page(&asked, 12, year)[0].value, "2,018");
        let title_cased = asks_for_figure("What Was AMCOR's Adjusted Non GAAP EBITDA for FY 2023").unwrap();
        assert_eq!(rows_on_page(&title_cased, 12, year)[0].value, "2,018", "capitals of a title-cased question are no names");
        let owner = "Region\t2024\t2023\nAMCOR\t960\t874";
        assert!(rows_on_page(&asks_for_figure("What was AMCOR's EBITDA in 2024?").unwrap(), 1, owner).is_empty(), "an owner names no row");
    }

    #[test]
    fn rows_that_share_only_generic_words_or_another_period_are_not_found() {
        let asked = asks_for_figure("What was total revenue in 2016?").unwrap();
        assert!(rows_on_page(&asked, 60, CASH_FLOWS).is_empty());
        let asked = asks_for_figure("depreciation in 2015?").unwrap();
        assert!(rows_on_page(&asked, 60, CASH_FLOWS).is_empty(), "no 2015 column");
        assert!(asks_for_figure("what does the handbook say about on-call?").is_none());
        let asked = asks_for_figure("What was Riverside's capacity in 2024?").unwrap();
        let regions = "Region\t2024\t2023\nRiverside\t960\t874\nTotal\t5,000\t4,100";
        assert!(rows_on_page(&asked, 1, regions).is_empty(), "a name says whose figure, not which row");
        let asked = asks_for_figure("how much cash did northwind have in 2024").unwrap();
        let segments = "Segment\t2024\t2023\nOther Northwind\t5\t8\nCash\t14,647\t12,713";
        let own_name = ["northwind".to_string()];
        let rows = rows_on_page(&asked.without_names(own_name.iter()), 1, segments);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].value, "14,647");
    }
}
