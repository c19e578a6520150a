//! The same fields read from the tables of many documents: one row per document, each value
//! with the row and column it was read from, its unit and scale, and its page, or the reason
//! the document has none. A field is matched against row labels and column headers together
//! ("capacity" is a column, "net sales" a row, "north valley capacity" one cell); the cell
//! whose row and column say least besides the field wins ("Total" over "North Valley" for
//! "capacity"), and among equals the first in the document (statements before their notes,
//! the latest year first). A field that names a statement measure ("total assets", "net
//! sales", "capex") with a period is read first as computed answers read it: from the primary
//! statements only, under any of the measure's row names.

use std::collections::HashSet;
use std::path::PathBuf;

use serde::Serialize;

use crate::answer::compute::measures::measure_named;
use crate::answer::compute::{Operand, Tables};
use crate::answer::facts::amounts::caption_scale;
use crate::answer::facts::compare::fold;
use crate::answer::facts::table::{header_family, table_cells, TableCell};
use crate::answer::numbers::number_of;
use crate::answer::facts::{amounts, periods, Period};
use crate::engine::Queries;
use crate::error::Result;
use crate::text::content_terms;

/// What to read, and from which documents.
#[derive(Debug, Clone)]
pub struct ExtractRequest {
    pub fields: Vec<String>,
    /// Only columns (or rows) of this period: "2024", "FY2022", "Q3 2023".
    pub period: Option<String>,
    pub documents: Vec<i64>,
}

/// One field of one document.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExtractedValue {
    pub field: String,
    /// The figure as the table writes it; `None` with a `reason` when there is none.
    pub value: Option<String>,
    /// The figure as a number, before the caption's scale: "(2,980)" is -2980, "—" is 0.
    pub number: Option<f64>,
    /// The kind of unit its column or cell gives: "power", "currency", "percent", ….
    pub unit: Option<String>,
    /// The scale the page's caption gives bare figures: "thousands", "millions", ….
    pub scale: Option<String>,
    pub row: Option<String>,
    pub column: Option<String>,
    pub page: Option<u32>,
    /// The row as it stands on the page, to find and highlight it.
    pub quote: Option<String>,
    /// The row's byte range in the page's text (what the viewer highlights).
    pub byte_start: Option<usize>,
    pub byte_end: Option<usize>,
    /// The figure's own cell and its column's title on the page (byte ranges of the page's
    /// text), which the viewer marks within the highlighted row.
    pub cell_start: Option<usize>,
    pub cell_end: Option<usize>,
    pub header_start: Option<usize>,
    pub header_end: Option<usize>,
    pub reason: Option<String>,
}

/// One document's row of the extraction.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExtractedDocument {
    pub doc_id: i64,
    pub path: PathBuf,
    pub title: String,
    pub values: Vec<ExtractedValue>,
}

/// A table cell found on a page, with the page's caption scale.
struct PageCell {
    page: u32,
    cell: TableCell,
    scale: Option<f64>,
    quote: String,
}

fn terms(text: &str) -> HashSet<String> {
    content_terms(text).into_iter().filter(|t| !t.as_bytes()[0].is_ascii_digit()).map(|t| fold(&t)).collect()
}

fn scale_name(scale: f64) -> &'static str {
    match scale as u64 {
        1_000 => "thousands",
        10_000 => "ten thousands",
        1_000_000 => "millions",
        100_000_000 => "hundred millions",
        _ => "billions",
    }
}

fn unit_of(cell: &TableCell) -> Option<String> {
    let family = header_family(&cell.column)
        .or_else(|| amounts(&cell.value, None).first().map(|a| a.family).filter(|f| *f != crate::answer::facts::Family::Plain))?;
    Some(format!("{family:?}").to_lowercase())
}

/// One figure of a page's tables as Pagewise reads it, for `pagewise parse --tables`: what a
/// user checks against the page before trusting an extraction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadCell {
    pub row: String,
    pub column: String,
    /// The periods its column header names, as people read them ("2023", "2023-06-30", "Q2 2024").
    pub periods: Vec<String>,
    pub value: String,
    pub number: Option<f64>,
    pub unit: Option<String>,
    /// The scale the page's caption gives bare figures ("millions").
    pub scale: Option<String>,
    /// The row's byte range in the page's text.
    pub line_start: usize,
    pub line_end: usize,
    /// The figure's cell in the page's text.
    pub cell_start: usize,
    pub cell_end: usize,
}

/// Every figure of the tables on a page (its text as the parser wrote it) with its row, column,
/// periods, unit and scale.
pub fn read_cells(text: &str) -> Vec<ReadCell> {
    let scale = caption_scale(text).map(|s| scale_name(s).to_string());
    table_cells(text)
        .into_iter()
        .map(|cell| ReadCell {
            periods: periods(&cell.column).into_iter().map(|(p, _)| p.to_string()).collect(),
            number: number_of(&cell.value),
            unit: unit_of(&cell),
            scale: scale.clone(),
            line_start: cell.line.start,
            line_end: cell.line.end,
            cell_start: cell.cell.start,
            cell_end: cell.cell.end,
            row: cell.row,
            column: cell.column,
            value: cell.value,
        })
        .collect()
}

/// How well `cell` answers `field` (terms already taken apart): `None` when the field's words
/// are not all in its row label and column header, or the period is not its column's (or
/// row's); else the share of the row's and column's words the field accounts for.
fn score(field: &HashSet<String>, period: Option<&Period>, cell: &TableCell) -> Option<f32> {
    let mut named: HashSet<String> = terms(&cell.row);
    named.extend(terms(&cell.column));
    if field.is_empty() || !field.is_subset(&named) {
        return None;
    }
    if let Some(p) = period {
        let stated: Vec<Period> = periods(&cell.column).into_iter().chain(periods(&cell.row)).map(|(q, _)| q).collect();
        if !stated.iter().any(|q| p.named_by(q)) {
            return None;
        }
        // A year's figure is not a quarter's or a half's that ends in that year, as computed
        // answers read the statements.
        if matches!(p, Period::Year(_)) && crate::answer::compute::part_of_year(&cell.column) {
            return None;
        }
    }
    // A field that names only a column ("capacity") is the table's total when it has one,
    // not the figure of whichever row comes first.
    let row = cell.row.trim().to_lowercase();
    let names_no_row = field.is_disjoint(&terms(&cell.row));
    let total = ["total", "合计", "总计"].iter().any(|t| row.starts_with(t));
    let bonus = if names_no_row && total { 1.0 } else { 0.0 };
    Some(field.len() as f32 / named.len().max(1) as f32 + bonus)
}

/// A statement cell read as computed answers read it, with its row as it stands on its page.
fn value_of_operand(q: &impl Queries, field: &str, o: &Operand) -> Result<ExtractedValue> {
    let text = q.page_text(o.doc_id, o.page)?.unwrap_or_default();
    let quote = text.get(o.line.clone()).map(|row| row.split_whitespace().collect::<Vec<_>>().join(" "));
    Ok(ExtractedValue {
        field: field.to_string(),
        value: Some(o.written.clone()),
        number: number_of(&o.written),
        unit: o.money.then(|| "currency".to_string()),
        scale: (o.scale > 1.0).then(|| scale_name(o.scale).to_string()),
        row: Some(o.row.clone()),
        column: Some(o.column.clone()),
        page: Some(o.page),
        quote,
        byte_start: Some(o.line.start),
        byte_end: Some(o.line.end),
        cell_start: Some(o.cell.start),
        cell_end: Some(o.cell.end),
        header_start: o.header.as_ref().map(|h| h.start),
        header_end: o.header.as_ref().map(|h| h.end),
        reason: None,
    })
}

/// A measure the statement lists in classes under its heading, as their sum: the value says
/// the figures added ("3,000 + 4,400"), the row names the classes, the quote and the range
/// cover their lines.
fn value_of_parts(q: &impl Queries, field: &str, parts: &[Operand]) -> Result<ExtractedValue> {
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return Ok(value_of(field, None, "no table row matches".to_string()));
    };
    let mut value = value_of_operand(q, field, first)?;
    let text = q.page_text(first.doc_id, first.page)?.unwrap_or_default();
    let span = first.line.start..last.line.end;
    value.value = Some(parts.iter().map(|o| o.written.as_str()).collect::<Vec<_>>().join(" + "));
    value.number = parts.iter().map(|o| number_of(&o.written)).sum();
    value.row = Some(parts.iter().map(|o| o.row.as_str()).collect::<Vec<_>>().join(" + "));
    value.quote = text.get(span.clone()).map(|rows| rows.split_whitespace().collect::<Vec<_>>().join(" "));
    value.byte_start = Some(span.start);
    value.byte_end = Some(span.end);
    // A sum of several rows has no one cell to mark.
    (value.cell_start, value.cell_end, value.header_start, value.header_end) = (None, None, None, None);
    Ok(value)
}

fn value_of(field: &str, found: Option<&PageCell>, reason: String) -> ExtractedValue {
    match found {
        Some(c) => ExtractedValue {
            field: field.to_string(),
            value: Some(c.cell.value.clone()),
            number: number_of(&c.cell.value),
            unit: unit_of(&c.cell),
            scale: c.scale.map(|s| scale_name(s).to_string()),
            row: Some(c.cell.row.clone()),
            column: Some(c.cell.column.clone()),
            page: Some(c.page),
            quote: Some(c.quote.clone()),
            byte_start: Some(c.cell.line.start),
            byte_end: Some(c.cell.line.end),
            cell_start: Some(c.cell.cell.start),
            cell_end: Some(c.cell.cell.end),
            header_start: c.cell.header.as_ref().map(|h| h.start),
            header_end: c.cell.header.as_ref().map(|h| h.end),
            reason: None,
        },
        None => ExtractedValue {
            field: field.to_string(),
            value: None,
            number: None,
            unit: None,
            scale: None,
            row: None,
            column: None,
            page: None,
            quote: None,
            byte_start: None,
            byte_end: None,
            cell_start: None,
            cell_end: None,
            header_start: None,
            header_end: None,
            reason: Some(reason),
        },
    }
}

/// Reads `request.fields` from each document's tables.
pub fn extract(q: &impl Queries, request: &ExtractRequest) -> Result<Vec<ExtractedDocument>> {
    let period: Option<Period> = request.period.as_deref().and_then(|p| periods(p).into_iter().next().map(|(q, _)| q));
    let fields: Vec<(String, HashSet<String>)> = request.fields.iter().map(|f| (f.clone(), terms(f))).collect();
    let mut out = Vec::new();
    for &doc_id in &request.documents {
        let Some(info) = q.document(doc_id)? else { continue };
        let mut cells: Vec<PageCell> = Vec::new();
        for page in 1..=info.page_count {
            let Some(text) = q.page_text(doc_id, page)? else { continue };
            let scale = caption_scale(&text);
            for cell in table_cells(&text) {
                let quote = text[cell.line.clone()].split_whitespace().collect::<Vec<_>>().join(" ");
                cells.push(PageCell { page, cell, scale, quote });
            }
        }
        let statements = match &period {
            Some(_) if fields.iter().any(|(f, _)| measure_named(f).is_some()) => Some(Tables::read(q, &[doc_id])?),
            _ => None,
        };
        let mut values = Vec::new();
        for (field, wanted) in &fields {
            let from_statements = match (&statements, &period, measure_named(field)) {
                (Some(tables), Some(p), Some(m)) => tables.find(m, p, None),
                _ => None,
            };
            if let Some(operand) = from_statements {
                values.push(value_of_operand(q, field, &operand)?);
                continue;
            }
            let in_classes = match (&statements, &period, measure_named(field)) {
                (Some(tables), Some(p), Some(m)) => tables.find_parts(m, p, None),
                _ => None,
            };
            if let Some(parts) = in_classes {
                values.push(value_of_parts(q, field, &parts)?);
                continue;
            }
            values.push({
                let mut best: Option<(f32, &PageCell)> = None;
                // A measure's field takes only a row of that measure, wherever it stands: "net
                // sales" is not "Gain on sale of subsidiary, net".
                let measure = measure_named(field);
                for c in cells.iter().filter(|c| measure.is_none_or(|m| m.is_label(&c.cell.row))) {
                    if let Some(s) = score(wanted, period.as_ref(), &c.cell) {
                        if best.is_none_or(|(b, _)| s > b) {
                            best = Some((s, c));
                        }
                    }
                }
                let reason = match (cells.is_empty(), &request.period) {
                    (true, _) => "no table with a header row was read in this document".to_string(),
                    (false, Some(p)) => format!("no table row or column matches \"{field}\" for {p}"),
                    (false, None) => format!("no table row or column matches \"{field}\""),
                };
                value_of(field, best.map(|(_, c)| c), reason)
            });
        }
        out.push(ExtractedDocument { doc_id, path: info.path, title: info.title, values });
    }
    Ok(out)
}

/// The extraction as CSV: one row per document; per field its value, unit (with scale), and
/// source ("report.pdf p.3 · row North Valley · column Capacity (kW)") or why it is empty.
pub fn to_csv(documents: &[ExtractedDocument], fields: &[String]) -> String {
    use crate::answer::export::csv_field;
    let mut header = vec!["document".to_string(), "title".to_string()];
    for f in fields {
        header.extend([f.clone(), format!("{f} unit"), format!("{f} source")]);
    }
    let mut out = header.iter().map(|h| csv_field(h)).collect::<Vec<_>>().join(",");
    out.push('\n');
    for d in documents {
        let mut row = vec![d.path.display().to_string(), d.title.clone()];
        for v in &d.values {
            let unit = [v.unit.clone(), v.scale.clone()].into_iter().flatten().collect::<Vec<_>>().join(", ");
            let source = match (&v.page, &v.row, &v.column) {
                (Some(page), Some(r), Some(c)) => {
                    let file = d.path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                    format!("{file} p.{page} · row {r} · column {c}")
                }
                _ => v.reason.clone().unwrap_or_default(),
            };
            // A spreadsheet reads the number; the page's own writing is one click away.
            let value = match (v.number, &v.value) {
                (Some(n), _) => format!("{n}"),
                (None, Some(w)) => w.clone(),
                (None, None) => String::new(),
            };
            row.extend([value, unit, source]);
        }
        out.push_str(&row.iter().map(|c| csv_field(c)).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(row: &str, column: &str) -> TableCell {
        TableCell { row: row.into(), column: column.into(), value: "1".into(), line: 0..1, cell: 0..1, header: None }
    }

    #[test]
    fn a_field_is_matched_on_row_and_column_together() {
        let capacity = terms("capacity");
        let total = score(&capacity, None, &cell("Total", "Capacity (kW)")).unwrap();
        let region = score(&capacity, None, &cell("Riverside", "Capacity (kW)")).unwrap();
        assert!(total > region, "a column's field is the table's total");
        let revenue = terms("revenue");
        let exact = score(&revenue, None, &cell("Revenue", "2022")).unwrap();
        let segment = score(&revenue, None, &cell("Revenue from services", "2022")).unwrap();
        assert!(exact > segment, "the row that says least besides the field");
        assert_eq!(score(&terms("north valley capacity"), None, &cell("Riverside", "Capacity (kW)")), None);
        assert!(score(&terms("north valley capacity"), None, &cell("North Valley", "Capacity (kW)")).is_some());
        assert!(score(&terms("net sales"), None, &cell("Net sales", "Six Months Ended December 31, 2022")).is_some());
    }

    #[test]
    fn a_pages_cells_carry_period_and_scale() {
        let page = "Consolidated Statements of Income\n($ in millions)\nFor the years ended June 30,\t2023\t2022\nNet sales\t$\t14,694 $\t14,544\nCost of sales\t(11,969)\t(11,909)\n";
        let cells = read_cells(page);
        assert_eq!(cells.len(), 4, "{cells:?}");
        let cost = cells.iter().find(|c| c.row == "Cost of sales" && c.periods == ["2022"]).unwrap();
        assert_eq!((cost.value.as_str(), cost.number, cost.scale.as_deref()), ("(11,909)", Some(-11909.0), Some("millions")));
        assert_eq!(&page[cost.line_start..cost.line_end], "Cost of sales\t(11,969)\t(11,909)");
        assert!(read_cells("no table here").is_empty());
    }

    #[test]
    fn figures_as_tables_write_them_are_numbers() {
        assert_eq!(number_of("1,420"), Some(1420.0));
        assert_eq!(number_of("(2,980)"), Some(-2980.0));
        assert_eq!(number_of("$0.309"), Some(0.309));
        assert_eq!(number_of("12.5%"), Some(12.5));
        assert_eq!(number_of("—"), Some(0.0));
        assert_eq!(number_of("n/a"), None);
    }

    #[test]
    fn a_year_is_not_a_quarter_ending_in_it() {
        let fy = Period::Year(2023);
        assert!(score(&terms("adjusted EBITDA"), Some(&fy), &cell("Adjusted EBITDA", "Three Months Ended June 30, 2023")).is_none());
        assert!(score(&terms("adjusted EBITDA"), Some(&fy), &cell("Adjusted EBITDA", "Twelve Months Ended June 30, 2023")).is_some());
    }

    #[test]
    fn a_period_must_be_the_columns() {
        let sales = terms("net sales");
        let fy22 = periods("FY2022").into_iter().next().map(|(p, _)| p).unwrap();
        assert!(score(&sales, Some(&fy22), &cell("Net sales", "2022")).is_some());
        assert_eq!(score(&sales, Some(&fy22), &cell("Net sales", "2021")), None);
    }

    #[test]
    fn csv_names_each_values_source_or_why_it_is_empty() {
        let found = PageCell { page: 3, cell: TableCell { value: "=1,420".into(), ..cell("North Valley", "Capacity (kW)") }, scale: None, quote: String::new() };
        let documents = vec![ExtractedDocument {
            doc_id: 1,
            path: PathBuf::from("/lib/report.pdf"),
            title: "Report".into(),
            values: vec![value_of("capacity", Some(&found), String::new()), value_of("revenue", None, "no table row or column matches \"revenue\"".into())],
        }];
        let csv = to_csv(&documents, &["capacity".into(), "revenue".into()]);
        assert!(csv.starts_with("document,title,capacity,capacity unit,capacity source,revenue,revenue unit,revenue source\n"), "{csv}");
        assert!(csv.contains("'=1,420"), "a formula-like value is escaped: {csv}");
        assert!(csv.contains("power,report.pdf p.3 · row North Valley · column Capacity (kW)"), "{csv}");
        assert!(csv.contains("\"no table row or column matches \"\"revenue\"\"\""), "{csv}");
        let spelled = PageCell { page: 3, cell: TableCell { value: "(2,980)".into(), ..cell("Cost of sales", "2022") }, scale: Some(1e6), quote: String::new() };
        let documents = vec![ExtractedDocument { doc_id: 2, path: PathBuf::from("/lib/10-K.pdf"), title: "10-K".into(), values: vec![value_of("cost of sales", Some(&spelled), String::new())] }];
        let csv = to_csv(&documents, &["cost of sales".into()]);
        assert!(csv.ends_with(",-2980,millions,10-K.pdf p.3 · row Cost of sales · column 2022\n"), "a negative in parentheses is a number: {csv}");
    }
}
