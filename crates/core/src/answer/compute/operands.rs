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
pub(crate) fn part_of_year(column: &str) -> bool {
    crate::text::cached_regex(
        &PART_OF_YEAR,
        r"(?i)\b(three|six|nine|3|6|9|13|26|39|twelve weeks|thirteen|twenty-six)\s*(months?|weeks?)\b|\bquarter\b|\bq[1-4]\b|季度|半年",
    )
    .is_match(column)
}

static ONE_QUARTER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();

/// A column of one quarter ("Three Months Ended July 29, 2023", "13 weeks ended", "Q2").
fn one_quarter(column: &str) -> bool {
    crate::text::cached_regex(&ONE_QUARTER, r"(?i)\b(three|3)\s*months?\b|\b(13|thirteen|twelve|12)\s*weeks?\b|\bquarter\b|\bq[1-4]\b|季度").is_match(column)
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
    /// The row states the measure's opposite ("Income tax (expense)/benefit": a benefit where
    /// the measure is an expense), so its figure counts negated.
    pub reversed: bool,
    /// One of the classes summed for a measure the statement lists in parts.
    pub part: bool,
    pub doc_id: i64,
    pub page: u32,
    /// The row's line in the page's text.
    pub line: Range<usize>,
    /// The figure's cell in the page's text, and its column's title.
    pub cell: Range<usize>,
    pub header: Option<Range<usize>>,
}

struct PageTable {
    page: u32,
    /// The page's text, for the headings that have no figure of their own.
    text: String,
    cells: Vec<TableCell>,
    scale: f64,
    money: bool,
    /// The primary statement the page is, if it is one.
    statement: Option<Statement>,
}

/// The tables of the documents a computation may read, in retrieval's order.
pub(crate) struct Tables {
    documents: Vec<(i64, Vec<PageTable>)>,
    /// The days (month, day) the company's fiscal years end, from its annual reports: a balance
    /// "for FY2023" is the one at the year's end, not at a quarter's end in that calendar year.
    year_ends: Vec<(u8, u8)>,
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
                pages.push(PageTable { page, scale, money: head.contains('$'), statement: statement_of(&text), cells, text });
            }
            documents.push((doc_id, pages));
        }
        Ok(Tables { documents, year_ends: Vec::new() })
    }

    /// The days the fiscal years of these documents' company end, for reading balances by year.
    pub fn with_year_ends(mut self, year_ends: Vec<(u8, u8)>) -> Tables {
        self.year_ends = year_ends;
        self
    }

    /// The cell of a primary statement that states `measure` for `period`: on the page
    /// `beside` (the other operands') first, then on the statement that gives the measure,
    /// then in the document of the other operands, then in the first document, then on the
    /// first page. Notes are not read: their tables break figures down (a segment's revenue,
    /// one class of inventories) under the same row names.
    pub fn find(&self, measure: Measure, period: &Period, beside: Option<(i64, u32)>) -> Option<Operand> {
        let mut best: Option<((bool, bool, bool, usize, u32), Operand)> = None;
        for (rank, (doc_id, pages)) in self.documents.iter().enumerate() {
            for table in pages.iter().filter(|t| readable(t, measure)) {
                let Some(cell) = table.cells.iter().find(|c| states(c, measure, period) && self.at_year_end(c, measure, period)) else { continue };
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
                let reversed = measure.outflow && states_benefit(&cell.row);
                let value = signed(measure, reversed, number) * table.scale;
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
                    reversed,
                    part: false,
                    doc_id: *doc_id,
                    page: table.page,
                    line: cell.line.clone(),
                    cell: cell.cell.clone(),
                    header: cell.header.clone(),
                };
                best = Some((key, operand));
            }
        }
        best.map(|(_, o)| o)
    }
}

/// Whether `table` may give `measure`: a primary statement, and for a balance the balance
/// sheet only (elsewhere its row is a change).
fn readable(table: &PageTable, measure: Measure) -> bool {
    table.statement.is_some() && (measure.statement != Statement::Balance || table.statement == Some(Statement::Balance))
}

impl Tables {
    /// The classes a statement lists under `measure`'s heading (a line naming the measure with
    /// no figure, "Inventories, net", then "Raw materials and supplies 992", "Work in process
    /// and finished goods 1,221"), or its kinds listed without one ("Cost of products", "Cost
    /// of services"), each for `period`, when there are two or more and no row states the
    /// measure itself. The classes end at the first row that names none.
    pub fn find_parts(&self, measure: Measure, period: &Period, beside: Option<(i64, u32)>) -> Option<Vec<Operand>> {
        if measure.parts.is_empty() && measure.kinds.is_empty() {
            return None;
        }
        let mut best: Option<((bool, usize, u32), Vec<Operand>)> = None;
        for (rank, (doc_id, pages)) in self.documents.iter().enumerate() {
            for table in pages.iter().filter(|t| readable(t, measure) && t.statement == Some(measure.statement)) {
                let key = (beside != Some((*doc_id, table.page)), rank, table.page);
                if best.as_ref().is_some_and(|(k, _)| *k <= key) {
                    continue;
                }
                let Some(parts) = self.parts_on(table, measure, period) else { continue };
                let operands = parts
                    .into_iter()
                    .filter_map(|cell| {
                        let number = number_of(&cell.value)?;
                        Some(Operand {
                            measure,
                            period: period.clone(),
                            value: signed(measure, false, number) * table.scale,
                            written: cell.value.clone(),
                            scale: table.scale,
                            money: table.money || cell.value.contains('$'),
                            row: cell.row.clone(),
                            column: cell.column.clone(),
                            reversed: false,
                            part: true,
                            doc_id: *doc_id,
                            page: table.page,
                            line: cell.line.clone(),
                            cell: cell.cell.clone(),
                            header: cell.header.clone(),
                        })
                    })
                    .collect::<Vec<_>>();
                if operands.len() >= 2 {
                    best = Some((key, operands));
                }
            }
        }
        best.map(|(_, o)| o)
    }

    /// The cells of the classes under `measure`'s heading on `table`, for `period`.
    fn parts_on<'t>(&self, table: &'t PageTable, measure: Measure, period: &Period) -> Option<Vec<&'t TableCell>> {
        let mut offset = 0;
        let mut heading_end = None;
        for line in table.text.split_inclusive('\n') {
            let label = line.trim();
            if !label.chars().any(|c| c.is_ascii_digit()) && measure.is_label(label) {
                heading_end = Some(offset + line.len());
                break;
            }
            offset += line.len();
        }
        let Some(heading_end) = heading_end else { return self.kinds_on(table, measure, period) };
        let names_part = |row: &str| {
            let lower = row.to_lowercase();
            measure.parts.iter().any(|p| lower.contains(p))
        };
        let mut parts: Vec<&TableCell> = Vec::new();
        let mut rest = &table.text[heading_end..];
        let mut at = heading_end;
        while let Some(line) = rest.split_inclusive('\n').next() {
            let line_range = at..at + line.len();
            let in_line: Vec<&TableCell> = table.cells.iter().filter(|c| line_range.contains(&c.line.start)).collect();
            let Some(first) = in_line.first() else { break };
            if !names_part(&first.row) {
                break;
            }
            let cell = in_line.into_iter().find(|c| for_period(c, measure, period) && self.at_year_end(c, measure, period))?;
            parts.push(cell);
            at += line.len();
            rest = &rest[line.len()..];
        }
        (parts.len() >= 2).then_some(parts)
    }

    /// The rows of `table` that list the measure's kinds one after another ("Cost of products",
    /// "Cost of services"), at least two different ones, each with a figure for `period`.
    fn kinds_on<'t>(&self, table: &'t PageTable, measure: Measure, period: &Period) -> Option<Vec<&'t TableCell>> {
        if measure.kinds.is_empty() {
            return None;
        }
        let kind_of = |row: &str| {
            let lower = row.trim().to_lowercase();
            measure.kinds.iter().position(|k| lower == *k || lower.strip_prefix(k).is_some_and(|rest| rest.starts_with([' ', ','])))
        };
        let mut rows: Vec<(usize, usize, &TableCell)> = Vec::new();
        for (line_no, line) in table.text.lines().enumerate() {
            let line_start = line.as_ptr() as usize - table.text.as_ptr() as usize;
            let in_line: Vec<&TableCell> = table.cells.iter().filter(|c| c.line.start == line_start).collect();
            let Some(kind) = in_line.first().and_then(|c| kind_of(&c.row)) else {
                if rows.len() >= 2 {
                    break;
                }
                rows.clear();
                continue;
            };
            if rows.last().is_some_and(|(_, last, _)| *last + 1 != line_no) {
                rows.clear();
            }
            let cell = in_line.into_iter().find(|c| for_period(c, measure, period))?;
            rows.push((kind, line_no, cell));
        }
        let distinct: std::collections::HashSet<usize> = rows.iter().map(|(k, _, _)| *k).collect();
        (distinct.len() >= 2 && distinct.len() == rows.len()).then(|| rows.into_iter().map(|(_, _, c)| c).collect())
    }

    /// Whether a balance asked for a fiscal year stands in a column dated at one of the
    /// company's fiscal year ends (within a week: 52/53-week years move it); any column when
    /// no annual report says when its years end.
    fn at_year_end(&self, cell: &TableCell, measure: Measure, period: &Period) -> bool {
        if measure.statement != Statement::Balance || !matches!(period, Period::Year(_)) || self.year_ends.is_empty() {
            return true;
        }
        let dated: Vec<(u8, u8)> = periods(&cell.column)
            .into_iter()
            .filter_map(|(p, _)| if let Period::Date { month, day, .. } = p { Some((month, day)) } else { None })
            .collect();
        dated.is_empty() || dated.iter().any(|d| self.year_ends.iter().any(|end| days_apart(*d, *end) <= 7))
    }
}

/// Days between two days of the year, either way round the year's end.
fn days_apart(a: (u8, u8), b: (u8, u8)) -> u32 {
    const BEFORE: [u32; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let day = |(m, d): (u8, u8)| BEFORE[usize::from(m.clamp(1, 12)) - 1] + u32::from(d);
    let gap = day(a).abs_diff(day(b));
    gap.min(365 - gap.min(365))
}

/// An operand's figure read again from its cell as written, at the page's scale (the check of
/// a computed answer does not trust the value it computed with).
pub(crate) fn read_again(operand: &Operand) -> Option<f64> {
    let n = number_of(&operand.written)?;
    Some(signed(operand.measure, operand.reversed, n) * operand.scale)
}

/// A cell's figure as the measure counts it: an outflow as the amount spent whatever its sign,
/// and a row of the opposite (a benefit) negated, its sign kept.
fn signed(measure: Measure, reversed: bool, number: f64) -> f64 {
    match (reversed, measure.outflow) {
        (true, _) => -number,
        (false, true) => number.abs(),
        (false, false) => number,
    }
}

/// Whether an expense row's label says its figures are benefits: the words outside
/// parentheses name the benefit ("Income tax (expense)/benefit", "Income tax benefit",
/// "(Provision for) benefit from income taxes"), so a positive figure is a benefit and an
/// expense is in parentheses; "Provision for (benefit from) income taxes" states the expense.
pub(crate) fn states_benefit(label: &str) -> bool {
    let mut outside = String::new();
    let mut depth = 0usize;
    for c in label.to_lowercase().chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => outside.push(c),
            _ => {}
        }
    }
    outside.split(|c: char| !c.is_alphabetic()).any(|w| w == "benefit" || w == "benefits")
}

/// Whether `cell` is a figure of `measure` for `period`.
fn states(cell: &TableCell, measure: Measure, period: &Period) -> bool {
    measure.is_label(&cell.row) && for_period(cell, measure, period)
}

/// Whether `cell` is a figure (of a measure like `measure`) for `period`.
fn for_period(cell: &TableCell, measure: Measure, period: &Period) -> bool {
    if number_of(&cell.value).is_none() || cell.value.contains('%') {
        return false;
    }
    if matches!(period, Period::Year(_)) && part_of_year(&cell.column) {
        return false;
    }
    // A flow at a date is the quarter ending then, not the half or nine months ending with it.
    if matches!(period, Period::Date { .. }) && measure.statement != Statement::Balance && !one_quarter(&cell.column) {
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
                text: text.to_string(),
                cells: table_cells(text),
                scale: page_scale(text),
                money: text.contains('$'),
                statement: statement_of(text),
            })
            .collect();
        Tables { documents: vec![(7, pages)], year_ends: Vec::new() }
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
    fn a_balance_for_a_fiscal_year_is_at_its_end() {
        let quarter = "Condensed Consolidated Balance Sheets\n($ in millions) (unaudited)\nJuly 29, 2023\tJanuary 28, 2023\tJuly 30, 2022\nCash and cash equivalents\t$\t1,093\t$\t1,874\t$\t840";
        let cash = super::super::measures::CASH;
        let t = tables(&[quarter]).with_year_ends(vec![(1, 28), (2, 2)]);
        assert_eq!(t.find(cash, &Period::Year(2023), None).unwrap().written, "$1,874", "the year's end, not the quarter's");
        assert_eq!(t.find(cash, &Period::Year(2022), None), None, "July 2022 ends no fiscal year");
        let q2 = Period::Date { year: Some(2023), month: 7, day: 29 };
        assert_eq!(t.find(cash, &q2, None).unwrap().written, "$1,093");
        assert_eq!(days_apart((12, 30), (1, 3)), 4);
    }

    #[test]
    fn a_measure_listed_in_classes_is_their_sum() {
        let balance = "Consolidated Balance Sheets\n($ in millions)\nAs of June 30,\t2023\t2022\nCurrent assets:\nCash and cash equivalents\t$\t689 $\t775\nInventories, net\nRaw materials and supplies\t992\t1,114\nWork in process and finished goods\t1,221\t1,325\nPrepaid expenses and other current assets\t531\t512\nTotal current assets\t5,308\t5,853";
        let t = tables(&[balance]);
        assert!(t.find(INVENTORIES, &Period::Year(2023), None).is_none(), "no row states inventories whole");
        let parts = t.find_parts(INVENTORIES, &Period::Year(2023), None).unwrap();
        let written: Vec<&str> = parts.iter().map(|o| o.written.as_str()).collect();
        assert_eq!(written, ["992", "1,221"], "the classes, not the prepaid expenses after them");
        assert!(parts.iter().all(|o| o.part && o.page == 1));
        assert_eq!(t.find_parts(INVENTORIES, &Period::Year(2022), None).unwrap().iter().map(|o| o.value).sum::<f64>(), 2_439e6);
        assert!(tables(&[BALANCE]).find_parts(CURRENT_ASSETS, &Period::Year(2019), None).is_none(), "a measure without classes");
    }

    #[test]
    fn a_measure_listed_as_its_kinds_is_their_sum() {
        use super::super::measures::COST_OF_SALES;
        let income = "Consolidated Statements of Operations\n(Dollars in millions)\nYears ended December 31,\t2022\t2021\nSales of products\t$55,893\t$51,386\nTotal revenues\t66,608\t62,286\nCost of products\t(53,969)\t(49,954)\nCost of services\t(9,109)\t(9,283)\nTotal costs and expenses\t(63,106)\t(59,269)";
        let t = tables(&[income]);
        assert!(t.find(COST_OF_SALES, &Period::Year(2022), None).is_none(), "no row states it whole");
        let parts = t.find_parts(COST_OF_SALES, &Period::Year(2022), None).unwrap();
        let written: Vec<&str> = parts.iter().map(|o| o.written.as_str()).collect();
        assert_eq!(written, ["(53,969)", "(9,109)"]);
        assert_eq!(parts.iter().map(|o| o.value).sum::<f64>(), 63_078e6, "amounts spent");
        let one_kind = "Consolidated Statements of Operations\n(Dollars in millions)\nYears ended December 31,\t2022\t2021\nTotal revenues\t66,608\t62,286\nCost of products\t(53,969)\t(49,954)\nGeneral and administrative\t(4,187)\t(4,157)";
        assert!(tables(&[one_kind]).find_parts(COST_OF_SALES, &Period::Year(2022), None).is_none(), "one kind is not the whole");
    }

    #[test]
    fn a_benefit_row_counts_as_a_negative_expense() {
        let income = "Consolidated Statements of Operations\n(Dollars in millions)\nYears ended December 31,\t2022\t2021\n(Loss)/earnings before income taxes\t(5,022)\t(5,033)\nIncome tax (expense)/benefit\t(31)\t743";
        let t = tables(&[income]);
        let tax = super::super::measures::INCOME_TAX;
        let (y2022, y2021) = (t.find(tax, &Period::Year(2022), None).unwrap(), t.find(tax, &Period::Year(2021), None).unwrap());
        assert_eq!((y2022.value, y2022.reversed), (31e6, true), "an expense in parentheses");
        assert_eq!(y2021.value, -743e6, "a benefit is a negative expense");
        assert_eq!(read_again(&y2021), Some(-743e6));
        assert_eq!(t.find(super::super::measures::PRETAX_INCOME, &Period::Year(2022), None).unwrap().value, -5_022e6);
        assert!(!states_benefit("Provision for (benefit from) income taxes"));
        assert!(states_benefit("(Provision for) benefit from income taxes"));
        assert!(!states_benefit("Provision for income taxes"));
    }

    #[test]
    fn an_outflow_is_the_amount_spent() {
        let found = tables(&[CASH_FLOWS]).find(CAPEX, &Period::Year(2018), None).unwrap();
        assert_eq!((found.written.as_str(), found.value), ("(1,577)", 1.577e9));
    }
}
