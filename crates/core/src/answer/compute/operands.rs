//! The figures a computation needs, each read from one cell of a statement table: the row
//! that states the measure, the column of the period, and the page's scale ("$ in millions").
//! Statement pages (balance sheet, income and cash-flow statements) come before the notes
//! that repeat their figures; the documents retrieval ranked first before the others.

use std::ops::Range;

use super::measures::{Measure, Statement};
use crate::answer::facts::table::{table_cells, TableCell};
use crate::answer::facts::{caption_scale, periods, Period};
use crate::answer::numbers::number_of;
use crate::engine::Queries;
use crate::error::Result;

/// Page titles of the primary statements, each with the statement it is, in the languages
/// filings come in.
const STATEMENT_TITLES: &[(&str, Statement)] = &[
    ("balance sheet", Statement::Balance),
    ("financial position", Statement::Balance),
    ("financial condition", Statement::Balance),
    ("资产负债表", Statement::Balance),
    ("cash flow", Statement::CashFlow),
    ("现金流量表", Statement::CashFlow),
    ("statements of operations", Statement::Income),
    ("statement of operations", Statement::Income),
    ("statements of income", Statement::Income),
    ("statement of income", Statement::Income),
    ("statements of earnings", Statement::Income),
    ("statement of earnings", Statement::Income),
    ("income statement", Statement::Income),
    ("profit or loss", Statement::Income),
    ("利润表", Statement::Income),
];

static PART_OF_YEAR: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();

/// A column of part of a year ("Three Months Ended", "26 weeks", "Q2"): not a fiscal year's.
fn part_of_year(column: &str) -> bool {
    crate::text::cached_regex(
        &PART_OF_YEAR,
        r"(?i)\b(three|six|nine|3|6|9|13|26|39|twelve weeks|thirteen|twenty-six)\s*(months?|weeks?)\b|\bquarter\b|\bq[1-4]\b|季度|半年",
    )
    .is_match(column)
}

/// One figure read from a table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Operand {
    pub measure: Measure,
    pub period: Period,
    /// In units (the page's scale applied); an outflow as the amount spent.
    pub value: f64,
    /// The cell as written ("(1,577)").
    pub written: String,
    /// The page's scale for bare figures (1e6 under "in millions"; 1 when it names none).
    pub scale: f64,
    pub money: bool,
    pub row: String,
    pub column: String,
    pub doc_id: i64,
    pub page: u32,
    /// The row's line in the page's text.
    pub line: Range<usize>,
}

struct PageTable {
    page: u32,
    cells: Vec<TableCell>,
    scale: f64,
    money: bool,
    /// The primary statement the page is, if it is one.
    statement: Option<Statement>,
}

/// The tables of the documents a computation may read, in retrieval's order.
pub(crate) struct Tables {
    documents: Vec<(i64, Vec<PageTable>)>,
}

static BARE_SCALE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();

/// The scale a page gives its bare figures: a caption ("$ in millions") or a scale alone in
/// parentheses ("(Millions)"); 1 when it names none.
fn page_scale(head: &str) -> f64 {
    if let Some(s) = caption_scale(head) {
        return s;
    }
    let bare = crate::text::cached_regex(&BARE_SCALE, r"(?i)\((?:\$\s*)?(thousands|millions|billions)\)");
    match bare.captures(head).and_then(|c| c.get(1)).map(|m| m.as_str().to_lowercase()) {
        Some(s) if s == "thousands" => 1e3,
        Some(s) if s == "millions" => 1e6,
        Some(_) => 1e9,
        None => 1.0,
    }
}

fn statement_of(text: &str) -> Option<Statement> {
    let head: String = text.chars().take(300).collect::<String>().to_lowercase();
    // A consolidating statement breaks the figures down by legal entity, column by column.
    let titled = (head.contains("statement") || head.contains("balance sheet") || head.chars().any(crate::text::is_cjk)) && !head.contains("consolidating");
    STATEMENT_TITLES.iter().filter(|_| titled).find(|(t, _)| head.contains(t)).map(|(_, s)| *s)
}

impl Tables {
    /// Reads every page of `doc_ids` that holds a table.
    pub fn read(q: &impl Queries, doc_ids: &[i64]) -> Result<Tables> {
        let mut documents = Vec::new();
        for &doc_id in doc_ids {
            let Some(info) = q.document(doc_id)? else { continue };
            let mut pages = Vec::new();
            for page in 1..=info.page_count {
                let Some(text) = q.page_text(doc_id, page)? else { continue };
                let cells = table_cells(&text);
                if cells.is_empty() {
                    continue;
                }
                let head: String = text.chars().take(400).collect();
                let scale = page_scale(&head);
                pages.push(PageTable { page, scale, money: head.contains('$'), statement: statement_of(&text), cells });
            }
            documents.push((doc_id, pages));
        }
        Ok(Tables { documents })
    }

    /// The cell of a primary statement that states `measure` for `period`: on the page
    /// `beside` (the other operands') first, then on the statement that gives the measure,
    /// then in the document of the other operands, then in the first document, then on the
    /// first page. Notes are not read: their tables break figures down (a segment's revenue,
    /// one class of inventories) under the same row names.
    pub fn find(&self, measure: Measure, period: &Period, beside: Option<(i64, u32)>) -> Option<Operand> {
        let mut best: Option<((bool, bool, bool, usize, u32), Operand)> = None;
        for (rank, (doc_id, pages)) in self.documents.iter().enumerate() {
            // A balance is read from the balance sheet only: elsewhere its row is a change.
            let readable = |t: &&PageTable| t.statement.is_some() && (measure.statement != Statement::Balance || t.statement == Some(Statement::Balance));
            for table in pages.iter().filter(readable) {
                let Some(cell) = table.cells.iter().find(|c| states(c, measure, period)) else { continue };
                let key = (
                    beside != Some((*doc_id, table.page)),
                    table.statement != Some(measure.statement),
                    beside.is_some_and(|(d, _)| d != *doc_id),
                    rank,
                    table.page,
                );
                if best.as_ref().is_some_and(|(k, _)| *k <= key) {
                    continue;
                }
                let Some(number) = number_of(&cell.value) else { continue };
                let value = if measure.outflow { number.abs() } else { number } * table.scale;
                let money = table.money || cell.value.contains('$');
                let operand = Operand {
                    measure,
                    period: period.clone(),
                    value,
                    written: cell.value.clone(),
                    scale: table.scale,
                    money,
                    row: cell.row.clone(),
                    column: cell.column.clone(),
                    doc_id: *doc_id,
                    page: table.page,
                    line: cell.line.clone(),
                };
                best = Some((key, operand));
            }
        }
        best.map(|(_, o)| o)
    }
}

/// An operand's figure read again from its cell as written, at the page's scale (the check of
/// a computed answer does not trust the value it computed with).
pub(crate) fn read_again(operand: &Operand) -> Option<f64> {
    let n = number_of(&operand.written)?;
    Some(if operand.measure.outflow { n.abs() } else { n } * operand.scale)
}

/// Whether `cell` is a figure of `measure` for `period`.
fn states(cell: &TableCell, measure: Measure, period: &Period) -> bool {
    if number_of(&cell.value).is_none() || cell.value.contains('%') || !measure.is_label(&cell.row) {
        return false;
    }
    if matches!(period, Period::Year(_)) && part_of_year(&cell.column) {
        return false;
    }
    let stated: Vec<Period> = periods(&cell.column).into_iter().chain(periods(&cell.row)).map(|(p, _)| p).collect();
    stated.iter().any(|s| period.named_by(s)) && !stated.iter().any(|s| matches!(s, Period::Year(_)) && !period.named_by(s))
}

#[cfg(test)]
mod tests {
    use super::super::measures::{CAPEX, CURRENT_ASSETS, INVENTORIES};
    use super::*;

    fn tables(pages: &[&str]) -> Tables {
        let pages = pages
            .iter()
            .enumerate()
            .map(|(i, text)| PageTable {
                page: i as u32 + 1,
                cells: table_cells(text),
                scale: page_scale(text),
                money: text.contains('$'),
                statement: statement_of(text),
            })
            .collect();
        Tables { documents: vec![(7, pages)] }
    }

    const NOTE: &str = "Note 5. Inventories\n(in millions)\tFebruary 2, 2019\tFebruary 3, 2018\nMerchandise inventories\t5,400\t5,200";
    const BALANCE: &str = "Consolidated Balance Sheets\n$ in millions, except per share and share amounts\nFebruary 2, 2019\tFebruary 3, 2018\nAssets\nCurrent assets\nCash and cash equivalents\t$\t1,980 $\t1,101\nMerchandise inventories\t5,409\t5,209\nOther current assets\t466\t438\nTotal current assets\t8,870\t9,829";
    const CASH_FLOWS: &str = "Consolidated Statement of Cash Flows\nYears ended December 31\t2018\t2017\n(Millions)\nPurchases of property, plant and equipment (PP&E)\t(1,577)\t(1,373)";

    #[test]
    fn the_statement_row_for_the_period_with_the_page_scale() {
        let t = tables(&[NOTE, BALANCE]);
        let found = t.find(INVENTORIES, &Period::Year(2019), None).unwrap();
        assert_eq!((found.page, found.written.as_str(), found.value, found.money), (2, "5,409", 5.409e9, true), "the statement, not the note before it");
        assert_eq!(t.find(INVENTORIES, &Period::Year(2018), None).unwrap().value, 5.209e9);
        assert_eq!(t.find(CURRENT_ASSETS, &Period::Year(2019), None).unwrap().written, "8,870", "not 'Other current assets'");
        assert!(t.find(INVENTORIES, &Period::Year(2017), None).is_none(), "no column of that year");
    }

    #[test]
    fn a_balance_comes_from_the_balance_sheet_and_never_from_a_note() {
        let changes = "Consolidated Statements of Cash Flows\n(In thousands)\tJanuary 28, 2023\tJanuary 29, 2022\nMerchandise inventories\t(104,233)\t(331,003)";
        let balance = "Consolidated Balance Sheets\n(In thousands)\tJanuary 28, 2023\tJanuary 29, 2022\nMerchandise inventories, net\t1,603,451\t1,499,218";
        let found = tables(&[changes, balance]).find(INVENTORIES, &Period::Year(2023), None).unwrap();
        assert_eq!((found.page, found.value), (2, 1_603_451_000.0), "the level, not the change");
        assert!(tables(&[NOTE]).find(INVENTORIES, &Period::Year(2019), None).is_none(), "a note's table is not read");
        let quarter = "Condensed Consolidated Statements of Income\n(in millions)\tThree Months Ended July 29, 2023\tThree Months Ended July 30, 2022\nRevenue\t9,583\t10,329";
        assert!(tables(&[quarter]).find(super::super::measures::REVENUE, &Period::Year(2023), None).is_none(), "a quarter is not the year");
    }

    #[test]
    fn an_outflow_is_the_amount_spent() {
        let found = tables(&[CASH_FLOWS]).find(CAPEX, &Period::Year(2018), None).unwrap();
        assert_eq!((found.written.as_str(), found.value), ("(1,577)", 1.577e9));
    }
}
