//! Rows of the tables in a passage, read through the tabs the PDF parser puts where a column
//! gutter was (`parse::cell_gaps`). A row's figure belongs to its column: "12" under "Sites"
//! is not a capacity in kW because "Capacity (kW)" stands two columns on. The claim check
//! asks which column a figure stands in; the prompt shows each figure with its column's
//! header, so a small model does not have to count columns.

use std::ops::Range;

use super::amounts::{amounts, Family};

/// Lines above a row searched for its header (section rows and other rows lie between): a
/// statement page runs to 70 rows under one header.
const HEADER_REACH: usize = 80;
/// A row shown with its headers may be at most this many times as long as the row itself;
/// past it the headers cost more of the evidence budget than they help.
const ANNOTATED_GROWTH: usize = 4;

/// A cell of a table row: its text, and where it stands in the line (a currency sign drawn
/// as a cell of its own included).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub text: String,
    pub range: Range<usize>,
}

/// Whether `line` is drawn as a table row: cells split by the parser's tabs, or by pipes as
/// Markdown, CSV, DOCX and HTML tables are written ("| North Valley | 12 |").
pub fn is_table_line(line: &str) -> bool {
    line.contains('\t') || line.trim_start().starts_with('|') || line.contains(" | ")
}

/// The raw cells of a table line, as byte ranges of the line.
fn raw_cells(line: &str) -> Vec<Range<usize>> {
    let separator = if line.contains('\t') { '\t' } else { '|' };
    let mut out = Vec::new();
    let mut start = 0;
    for (at, c) in line.char_indices() {
        if c == separator {
            out.push(start..at);
            start = at + c.len_utf8();
        }
    }
    out.push(start..line.len());
    out
}

const CURRENCY_SIGNS: [&str; 4] = ["$", "€", "£", "¥"];

/// The cells of a table line, with a lone currency sign joined to the figure it stands before
/// ("$ ⇥ 3,642 $ ⇥ 3,507" is "$3,642", "$3,507"); empty when the line is no table row.
pub fn cells_of(line: &str) -> Vec<Cell> {
    if !is_table_line(line) {
        return Vec::new();
    }
    let mut out: Vec<Cell> = Vec::new();
    let mut carried: Option<(String, usize)> = None;
    for range in raw_cells(line) {
        let mut text = line[range.clone()].trim().to_string();
        let mut start = range.start;
        if let Some((sign, from)) = carried.take() {
            text = format!("{sign}{text}");
            start = from;
        }
        let mut end = range.end;
        for sign in CURRENCY_SIGNS {
            if text == sign {
                carried = Some((text.clone(), start));
                text.clear();
            } else if let Some(rest) = text.strip_suffix(sign).filter(|r| r.ends_with(' ')) {
                let sign_at = line[range.clone()].rfind(sign).map_or(range.end, |i| range.start + i);
                carried = Some((sign.to_string(), sign_at));
                end = sign_at;
                text = rest.trim_end().to_string();
            }
        }
        if !text.is_empty() {
            out.push(Cell { text, range: start..end });
        }
    }
    if let Some((sign, from)) = carried {
        out.push(Cell { text: sign, range: from..line.len() });
    }
    out
}

/// The cells' texts of a table line (see [`cells_of`]).
pub fn cells(line: &str) -> Vec<String> {
    cells_of(line).into_iter().map(|c| c.text).collect()
}

/// A Markdown table's rule under its header ("| --- | :---: |").
fn is_rule(cells: &[String]) -> bool {
    !cells.is_empty() && cells.iter().all(|c| c.chars().all(|ch| matches!(ch, '-' | ':' | '=' | ' ')))
}

/// A time of day as timetables write it: "05:48", "23:10", "6:05".
fn is_time(cell: &str) -> bool {
    let Some((h, m)) = cell.split_once(':') else { return false };
    (1..=2).contains(&h.len()) && m.len() == 2 && h.chars().chain(m.chars()).all(|c| c.is_ascii_digit())
}

/// A cell that holds one figure: "1,420", "(2,980)", "$0.309", "12%", "05:48", or a dash for
/// none.
fn is_value(cell: &str) -> bool {
    if matches!(cell, "—" | "–" | "-" | "n/a" | "N/A" | "nm" | "NM") || is_time(cell) {
        return true;
    }
    let letters = cell.chars().filter(|c| c.is_alphabetic()).count();
    let digits = cell.chars().any(|c| c.is_ascii_digit() || ('０'..='９').contains(&c));
    digits && letters <= 3 && amounts(cell, None).len() == 1
}

fn is_year(cell: &str) -> bool {
    let digits = cell.trim_start_matches("FY").trim_start_matches("fy");
    digits.len() == 4 && digits.chars().all(|c| c.is_ascii_digit()) && matches!(&digits[..2], "19" | "20")
}

/// A data row: a label and figures after it.
fn is_data_row(cells: &[String]) -> bool {
    cells.len() >= 2 && cells[1..].iter().all(|c| is_value(c)) && !cells[1..].iter().all(|c| is_year(c))
}

/// A short cell that names rather than states: a unit ("g/dL"), a range ("13.0-17.0", "up to
/// 60 m3"), a code. Longer text is prose that happens to hold a tab.
fn is_short_text(cell: &str) -> bool {
    cell.chars().count() <= 24 && cell.split_whitespace().count() <= 4 && !cell.ends_with('.')
}

/// A record: a label, at least one figure, and otherwise short cells ("Haemoglobin ⇥ 13.8 ⇥
/// g/dL ⇥ 13.0-17.0"), read like a data row: each cell under its column's title.
fn is_record_row(cells: &[String]) -> bool {
    is_data_row(cells)
        || (cells.len() >= 2
            && cells[1..].iter().any(|c| is_value(c) && !is_year(c))
            && cells[1..].iter().all(|c| is_value(c) || is_short_text(c)))
}

/// A cell that states figures rather than naming a column: a number of three digits or more
/// that is no year, as in a row whose two figures share one cell ("Total assets ⇥ $ 5,370,411
/// $ 4,764,379").
fn holds_figures(cell: &str) -> bool {
    cell.split(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.')).map(|t| t.trim_matches([',', '.'])).any(|t| {
        t.chars().filter(char::is_ascii_digit).count() >= 3 && !is_year(t)
    })
}

/// A line of notes in brackets over each column ("(Unaudited) ⇥ (Unaudited)"): it says how
/// the figures were made, not what they are.
fn is_annotation(cells: &[String]) -> bool {
    cells.iter().all(|c| c.starts_with('(') && c.ends_with(')'))
}

/// A header row: its cells name columns (words, or the years of a financial table).
fn is_header_row(cells: &[String]) -> bool {
    cells.len() >= 2
        && !is_annotation(cells)
        && (cells.iter().skip(1).all(|c| is_year(c)) || !cells[1..].iter().any(|c| (is_value(c) && !is_year(c)) || holds_figures(c)))
}

/// The headers of a row's value columns: one title per value cell, and the cells of a
/// spanning header above them when there is one ("Six Months Ended December 31," over
/// "2022 ⇥ 2021"), each spanning `width` titles.
struct Headers {
    titles: Vec<String>,
    spans: Vec<String>,
    width: usize,
}

impl Headers {
    /// The whole header of value column `j`: "Six Months Ended December 31, 2022".
    fn full(&self, j: usize) -> Option<String> {
        let title = self.titles.get(j)?;
        Some(match self.spans.get(j / self.width.max(1)) {
            Some(span) => format!("{span} {title}"),
            None => title.clone(),
        })
    }
}

/// Whether a line's cells can head a table's columns.
fn heads_columns(cells: &[String]) -> bool {
    !cells.is_empty() && !is_rule(cells) && !is_data_row(cells) && is_header_row(cells)
}

/// A piece of a header cell wrapped over several lines, which PDFium writes as a line of its
/// own: one or two words and no cells ("Net", "Income", "(Diluted").
fn is_header_fragment(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && !is_table_line(line) && line.split_whitespace().count() <= 2 && line.chars().count() <= 16
}

/// A fragment that opens a bracket it does not close ("(Diluted"): the cell goes on below.
/// Section labels under a header ("Current assets", "Commitments (Note 13)") close theirs.
fn opens_bracket(line: &str) -> bool {
    is_header_fragment(line) && line.matches('(').count() > line.matches(')').count()
}

/// Whether a line that heads columns is only part of a header whose cells wrap: a closing
/// bracket opens it ("cents)(1) EBITDA ⇥ EBIT"), or the header fragments that follow it (see
/// `below`, the lines under it) leave a bracket open. Its cells are not the columns' titles,
/// and a row lined up with them would be misread ("Adjusted EBITDA ⇥ 2,117 ⇥ 2,018" under
/// "EBITDA ⇥ EBIT" instead of under the two years).
fn is_wrapped_header(cells: &[String], below: &[&str]) -> bool {
    let opens_inside = cells.first().is_some_and(|c| c.find(')').is_some_and(|close| c.find('(').is_none_or(|open| close < open)));
    opens_inside || below.iter().take_while(|l| is_header_fragment(l)).any(|l| opens_bracket(l))
}

/// A header line's titles for a row of `values` value cells, with the spanning header line
/// above it (when that one divides the columns evenly); `None` when they do not line up.
fn line_up(header: Vec<String>, spanning: Option<Vec<String>>, values: usize) -> Option<Headers> {
    let titles: Vec<String> = if header.len() == values + 1 {
        header[1..].to_vec()
    } else if header.len() == values {
        header
    } else {
        return None;
    };
    Some(match spanning.filter(|c| !c.is_empty() && !is_rule(c)) {
        Some(span) if span.len() >= 2 && values % span.len() == 0 && !span.iter().any(|c| is_value(c)) => {
            Headers { titles, width: values / span.len(), spans: span }
        }
        _ => Headers { titles, spans: Vec::new(), width: values },
    })
}

/// The headers of the row that starts at `line_start` in `passage` and has `values` value
/// cells: the nearest line above that heads columns, within [`HEADER_REACH`] lines.
fn headers_for(passage: &str, line_start: usize, values: usize) -> Option<Headers> {
    let above: Vec<&str> = passage[..line_start].lines().rev().take(HEADER_REACH).collect();
    for (i, line) in above.iter().enumerate() {
        let header = cells(line);
        let below: Vec<&str> = above[..i].iter().rev().copied().collect();
        if heads_columns(&header) && !is_wrapped_header(&header, &below) {
            return line_up(header, above.get(i + 1).map(|l| cells(l)), values);
        }
    }
    None
}

/// A row as the model reads it: "North Valley | Sites: 12 | Capacity (kW): 1,420", or under
/// a spanning header "Net sales | Three Months Ended December 31: 2022 $3,642, 2021 $3,507".
fn annotated(row: &[String], headers: &Headers) -> String {
    let values = &row[1..];
    let mut parts = vec![row[0].clone()];
    if headers.spans.is_empty() {
        parts.extend(values.iter().zip(&headers.titles).map(|(v, h)| format!("{h}: {v}")));
    } else {
        for (k, span) in headers.spans.iter().enumerate() {
            let range = k * headers.width..((k + 1) * headers.width).min(values.len());
            let figures: Vec<String> = range.map(|j| format!("{} {}", headers.titles[j], values[j])).collect();
            parts.push(format!("{}: {}", span.trim_end_matches(','), figures.join(", ")));
        }
    }
    parts.join(" | ")
}

/// The column a figure of a table row stands in.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub header: String,
    /// The unit its header gives ("Capacity (kW)": power), if any.
    pub family: Option<Family>,
    /// The units the row's other columns give.
    pub other_families: Vec<Family>,
    /// The whole headers of the row's other columns.
    pub other_headers: Vec<String>,
}

/// The unit a header names, in parentheses or as the header itself: "Capacity (kW)",
/// "Output 2024 (MWh)", "%", "Headcount (people)".
pub fn header_family(header: &str) -> Option<Family> {
    let inner = match (header.rfind('('), header.rfind(')')) {
        (Some(open), Some(close)) if open < close => &header[open + 1..close],
        _ => header,
    };
    let found = amounts(&format!("1 {}", inner.trim()), None);
    match found.as_slice() {
        [one] if one.family != Family::Plain && one.span.end >= 2 + inner.trim().len() => Some(one.family),
        _ => None,
    }
}

/// The column of the figure at byte `at` of `text` (a row of `passage`'s tables), when the
/// row is a table row under a header that lines up with it.
pub fn column_at(text: &str, at: usize, passage: &str) -> Option<Column> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = &text[line_start..line_end];
    let cells = cells_of(line);
    let row: Vec<String> = cells.iter().map(|c| c.text.clone()).collect();
    if !is_data_row(&row) {
        return None;
    }
    let in_line = at - line_start;
    let cell_index = cells.iter().position(|c| c.range.start <= in_line && in_line < c.range.end)?;
    let value_index = cell_index.checked_sub(1)?;
    let row_at = passage.find(line)?;
    let headers = headers_for(passage, row_at, row.len() - 1)?;
    let header = headers.full(value_index)?;
    let family = header_family(&headers.titles[value_index]);
    let others = || (0..headers.titles.len()).filter(|j| *j != value_index);
    let other_families = others().filter_map(|j| header_family(&headers.titles[j])).collect();
    let other_headers = others().filter_map(|j| headers.full(j)).collect();
    Some(Column { header, family, other_families, other_headers })
}

/// The headers of the table rows in `passage[unit]`, joined: what a row's bare figures are
/// figures of ("Capacity (kW)"), which a claim about the row names and the row itself does not.
pub fn headers_of_rows(passage: &str, unit: std::ops::Range<usize>) -> String {
    let text = &passage[unit.clone()];
    if !is_table_line(text) {
        return String::new();
    }
    let mut out: Vec<String> = Vec::new();
    let mut offset = unit.start;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let row = cells(line.trim_end_matches('\n'));
        // The row's own line starts at or before the unit: a unit is a line or more.
        let line_start = passage[..start].rfind('\n').map_or(0, |i| i + 1);
        if let Some(headers) = is_data_row(&row).then(|| headers_for(passage, line_start, row.len() - 1)).flatten() {
            out.extend((0..row.len() - 1).filter_map(|j| headers.full(j)));
        }
    }
    out.join(" ")
}

/// `passage[range]` shown with its columns' headers when it is one table row under a header
/// ("Town Centre | Sites: 14 | Capacity (kW): 640 | Output 2024 (MWh): 563").
pub fn row_for_reader(passage: &str, range: std::ops::Range<usize>) -> Option<String> {
    let line = passage[range.clone()].trim();
    if !is_table_line(line) || line.contains('\n') {
        return None;
    }
    let row = cells(line);
    let line_start = passage[..range.start].rfind('\n').map_or(0, |i| i + 1);
    is_data_row(&row).then(|| headers_for(passage, line_start, row.len() - 1)).flatten().map(|h| annotated(&row, &h))
}

/// Whether `line` is a table's header row (its cells name columns): a quote of it states
/// nothing.
pub fn is_header_line(line: &str) -> bool {
    let line = line.trim();
    is_table_line(line) && !line.contains('\n') && heads_columns(&cells(line))
}

/// The byte ranges (in the passage) of the titles a header line gives `values` value cells,
/// by the rule [`line_up`] follows; empty when they do not line up.
fn title_ranges(header: &[Cell], line: &str, line_start: usize, values: usize) -> Vec<Range<usize>> {
    let titles = match header.len() {
        n if n == values + 1 => &header[1..],
        n if n == values => header,
        _ => return Vec::new(),
    };
    titles.iter().map(|c| {
        let r = trimmed(line, c.range.clone());
        line_start + r.start..line_start + r.end
    }).collect()
}

/// `range` of `line` without the white space at its ends.
fn trimmed(line: &str, range: Range<usize>) -> Range<usize> {
    let part = &line[range.clone()];
    let start = range.start + (part.len() - part.trim_start().len());
    start..(start + part.trim().len()).max(start)
}

/// A table line seen by [`walk`]: its cells with their byte ranges in the passage, and for a
/// record (see [`is_record_row`]) the headers it lines up with and the byte ranges of their
/// titles.
struct Walked<'a> {
    range: Range<usize>,
    row: &'a [String],
    cells: Vec<Range<usize>>,
    headers: Option<Headers>,
    titles: Vec<Range<usize>>,
}

/// Each line of `passage` in order, with its byte range (newline excluded), its cells (empty
/// for a line that is no table row) and, for a data row, the headers it lines up with. One
/// pass: the latest line that heads columns is kept for the rows under it.
/// A header line as [`walk`] keeps it: its cells, its byte range, the table line before it,
/// and how many lines ago it was.
type SeenHeader = (Vec<Cell>, Range<usize>, Option<Vec<String>>, usize);

fn walk(passage: &str, mut visit: impl FnMut(Walked<'_>)) {
    let mut header: Option<SeenHeader> = None;
    // The header before the latest, taken back when the latest turns out to be wrapped; and
    // how many header fragments have followed the latest.
    let mut earlier: Option<SeenHeader> = None;
    let mut fragments: Option<usize> = None;
    let mut previous: Option<Vec<String>> = None;
    let mut offset = 0;
    for line in passage.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.strip_suffix('\n').unwrap_or(line);
        if let Some((_, _, _, age)) = header.as_mut() {
            *age += 1;
        }
        if let Some((_, _, _, age)) = earlier.as_mut() {
            *age += 1;
        }
        let range = start..start + body.len();
        if !is_table_line(body) {
            fragments = match fragments {
                Some(n) if is_header_fragment(body) => Some(n + 1),
                _ => None,
            };
            if fragments.is_some() && opens_bracket(body) {
                header = earlier.take();
                fragments = None;
            }
            visit(Walked { range, row: &[], cells: Vec::new(), headers: None, titles: Vec::new() });
            previous = None;
            continue;
        }
        let found = cells_of(body);
        let row: Vec<String> = found.iter().map(|c| c.text.clone()).collect();
        fragments = None;
        if heads_columns(&row) {
            let opens_inside = is_wrapped_header(&row, &[]);
            let new = Some((found.clone(), range.clone(), previous.take(), 0));
            if !opens_inside {
                earlier = std::mem::replace(&mut header, new);
                fragments = Some(0);
            }
        }
        let lined_up = is_record_row(&row)
            .then(|| header.as_ref().filter(|(_, _, _, age)| *age <= HEADER_REACH))
            .flatten()
            .and_then(|(h, at, span, _)| {
                let titles: Vec<String> = h.iter().map(|c| c.text.clone()).collect();
                line_up(titles, span.clone(), row.len() - 1).map(|headers| (headers, title_ranges(h, &passage[at.clone()], at.start, row.len() - 1)))
            });
        let (headers, titles) = match lined_up {
            Some((h, t)) => (Some(h), t),
            None => (None, Vec::new()),
        };
        let cells = found
            .iter()
            .map(|c| {
                let r = trimmed(body, c.range.clone());
                start + r.start..start + r.end
            })
            .collect();
        visit(Walked { range, row: &row, cells, headers, titles });
        previous = Some(row);
    }
}

/// `passage` as the model reads it: each table row with its columns' headers beside its
/// figures ("North Valley | Sites: 12 | Capacity (kW): 1,420"), other cells split by " | ".
pub fn for_reader(passage: &str) -> String {
    if !passage.lines().any(is_table_line) {
        return passage.to_string();
    }
    let mut out = String::with_capacity(passage.len() * 2);
    let mut first = true;
    walk(passage, |w| {
        let Walked { range, row, headers, .. } = w;
        if !std::mem::take(&mut first) {
            out.push('\n');
        }
        let body = &passage[range];
        if row.is_empty() {
            out.push_str(body);
            return;
        }
        let annotated = headers.map(|h| annotated(row, &h)).filter(|a| a.len() <= ANNOTATED_GROWTH * body.len());
        // Rows without a header to line up with stay as they are written; tabs read as " | ".
        out.push_str(&annotated.unwrap_or_else(|| if body.contains('\t') { row.join(" | ") } else { body.to_string() }));
    });
    if passage.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// One figure of a table with what it is a figure of.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TableCell {
    /// The row's label ("North Valley", "Net sales").
    pub row: String,
    /// The column's whole header ("Capacity (kW)", "Six Months Ended December 31, 2022").
    pub column: String,
    /// The figure as written ("1,420", "$3,642", "(2,980)").
    pub value: String,
    /// The row's line in the text (byte range), for citing and highlighting it.
    pub line: Range<usize>,
    /// The figure's own byte range in the text (a currency sign in a cell of its own included),
    /// so the viewer can mark the cell within its row.
    pub cell: Range<usize>,
    /// The byte range of its column's title on the header line, when the header lines up.
    pub header: Option<Range<usize>>,
}

/// A row label without the footnote marks after it: "Total capital expenditures (2)",
/// "Revenue*", "Net sales¹" are "Total capital expenditures", "Revenue", "Net sales".
fn without_footnote_marks(label: &str) -> String {
    let mut out = label.trim_end().trim_end_matches(['*', '†', '‡', '¹', '²', '³', '⁴', '⁵']).trim_end();
    while let Some(open) = out.rfind('(').filter(|_| out.ends_with(')')) {
        let mark = &out[open + 1..out.len() - 1];
        let is_mark = (1..=2).contains(&mark.len()) && mark.chars().all(|c| c.is_ascii_digit() || c.is_ascii_lowercase());
        if !is_mark || open == 0 {
            break;
        }
        out = out[..open].trim_end();
    }
    out.to_string()
}

/// The start of a row label wrapped from the line above: that line is plain text (no cells),
/// does not close a heading or a sentence, and the row's own label goes on in lower case
/// ("Changes in operating assets and liabilities, excluding … and" over "currency ⇥ (207)").
fn wrapped_from<'a>(above: Option<&'a str>, label: &str) -> Option<&'a str> {
    let above = above?.trim();
    let continues = label.chars().next().is_some_and(|c| c.is_lowercase());
    (continues && !above.is_empty() && !above.ends_with([':', '.', ';']) && above.chars().any(|c| c.is_alphabetic())).then_some(above)
}

/// Every figure of the tables in `text` (a page) that lines up with a header. A row label
/// wrapped over two lines is read whole, and the row's line then spans both.
pub fn table_cells(text: &str) -> Vec<TableCell> {
    let mut out = Vec::new();
    let mut plain_above: Option<Range<usize>> = None;
    walk(text, |w| {
        let above = std::mem::replace(&mut plain_above, w.row.is_empty().then(|| w.range.clone()));
        let Some(headers) = w.headers else { return };
        let (row, range) = (w.row, w.range);
        let (label, line) = match wrapped_from(above.clone().map(|r| &text[r]), &row[0]) {
            Some(first) => (format!("{first} {}", row[0]), above.map_or(range.start, |r| r.start)..range.end),
            None => (row[0].clone(), range.clone()),
        };
        for (j, value) in row[1..].iter().enumerate() {
            if let (Some(column), Some(cell)) = (headers.full(j), w.cells.get(j + 1)) {
                out.push(TableCell {
                    row: without_footnote_marks(&label),
                    column,
                    value: value.clone(),
                    line: line.clone(),
                    cell: cell.clone(),
                    header: w.titles.get(j).cloned(),
                });
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAPACITY: &str = "Table 1. Installed capacity by region\nRegion\tSites\tCapacity (kW)\tOutput 2024 (MWh)\nNorth Valley\t12\t1,420\t1,306\nRiverside\t9\t960\t874\nNorth Valley remains the largest region.";
    const INCOME: &str = "Three Months Ended December 31,\tSix Months Ended December 31,\n($ in millions)\t2022\t2021\t2022\t2021\nNet sales\t$\t3,642 $\t3,507 $\t7,354 $\t6,927\nCost of sales\t(2,980)\t(2,862)\t(6,024)\t(5,632)";

    #[test]
    fn a_figure_takes_its_columns_header_and_unit() {
        let at = CAPACITY.find("12\t").unwrap();
        let sites = column_at(CAPACITY, at, CAPACITY).unwrap();
        assert_eq!(sites.header, "Sites");
        assert_eq!(sites.family, None);
        assert_eq!(sites.other_families, vec![Family::Power, Family::Energy]);
        let capacity = column_at(CAPACITY, CAPACITY.find("1,420").unwrap(), CAPACITY).unwrap();
        assert_eq!(capacity.family, Some(Family::Power));
        let prose = CAPACITY.find("largest").unwrap();
        assert_eq!(column_at(CAPACITY, prose, CAPACITY), None);
    }

    #[test]
    fn currency_signs_in_cells_of_their_own_do_not_shift_columns() {
        assert_eq!(cells("Net sales\t$\t3,642 $\t3,507"), vec!["Net sales", "$3,642", "$3,507"]);
        let at = INCOME.find("7,354").unwrap();
        let column = column_at(INCOME, at, INCOME).unwrap();
        assert_eq!(column.header, "Six Months Ended December 31, 2022");
    }

    #[test]
    fn the_reader_sees_each_figure_with_its_header() {
        let read = for_reader(CAPACITY);
        assert!(read.contains("North Valley | Sites: 12 | Capacity (kW): 1,420 | Output 2024 (MWh): 1,306"), "{read}");
        assert!(read.contains("Region | Sites | Capacity (kW)"), "{read}");
        assert!(read.ends_with("North Valley remains the largest region."));
        let income = for_reader(INCOME);
        assert!(income.contains("Cost of sales | Three Months Ended December 31: 2022 (2,980), 2021 (2,862) | Six Months Ended December 31: 2022 (6,024), 2021 (5,632)"), "{income}");
        assert_eq!(for_reader("no tables here"), "no tables here");
    }

    #[test]
    fn a_rows_headers_are_found_for_its_unit() {
        let start = CAPACITY.find("Riverside").unwrap();
        let end = start + "Riverside\t9\t960\t874".len();
        assert_eq!(headers_of_rows(CAPACITY, start..end), "Sites Capacity (kW) Output 2024 (MWh)");
        assert_eq!(headers_of_rows(CAPACITY, 0..10), "");
    }

    #[test]
    fn a_quoted_row_carries_its_headers() {
        let start = CAPACITY.find("Riverside").unwrap();
        let end = start + "Riverside\t9\t960\t874".len();
        assert_eq!(row_for_reader(CAPACITY, start..end).unwrap(), "Riverside | Sites: 9 | Capacity (kW): 960 | Output 2024 (MWh): 874");
        assert!(is_header_line("Region\tSites\tCapacity (kW)\tOutput 2024 (MWh)"));
        assert!(!is_header_line("Riverside\t9\t960\t874"));
        assert!(!is_header_line("North Valley remains the largest region."));
    }

    #[test]
    fn pipe_tables_are_read_like_tabbed_ones() {
        let markdown = "| Region | Sites | Capacity (kW) |\n| --- | ---: | ---: |\n| North Valley | 12 | 1,420 |\n| Riverside | 9 | 960 |";
        assert_eq!(cells("| North Valley | 12 | 1,420 |"), vec!["North Valley", "12", "1,420"]);
        let at = markdown.find("1,420").unwrap();
        let column = column_at(markdown, at, markdown).unwrap();
        assert_eq!((column.header.as_str(), column.family), ("Capacity (kW)", Some(Family::Power)));
        let read = for_reader(markdown);
        assert!(read.contains("North Valley | Sites: 12 | Capacity (kW): 1,420\n"), "{read}");
        assert!(read.starts_with("| Region | Sites | Capacity (kW) |\n| --- |"), "{read}");
        let html = "Region | Sites | Capacity (kW) | \nNorth Valley | 12 | 1,420 | ";
        assert_eq!(column_at(html, html.find("1,420").unwrap(), html).unwrap().header, "Capacity (kW)");
        assert_eq!(for_reader("Plain prose, no table."), "Plain prose, no table.");
    }

    #[test]
    fn every_figure_of_a_page_comes_with_its_row_and_column() {
        let cells = table_cells(CAPACITY);
        assert_eq!(cells.len(), 6);
        let capacity = cells.iter().find(|c| c.row == "North Valley" && c.column == "Capacity (kW)").unwrap();
        assert_eq!(capacity.value, "1,420");
        assert_eq!(&CAPACITY[capacity.line.clone()], "North Valley\t12\t1,420\t1,306");
        let income = table_cells(INCOME);
        assert!(income.iter().any(|c| c.row == "Cost of sales" && c.column == "Six Months Ended December 31, 2021" && c.value == "(5,632)"));
    }

    #[test]
    fn each_figure_knows_its_cell_and_its_columns_title_on_the_page() {
        let cells = table_cells(CAPACITY);
        let capacity = cells.iter().find(|c| c.row == "Riverside" && c.column == "Capacity (kW)").unwrap();
        assert_eq!(&CAPACITY[capacity.cell.clone()], "960");
        assert_eq!(&CAPACITY[capacity.header.clone().unwrap()], "Capacity (kW)");
        let income = table_cells(INCOME);
        let sales = income.iter().find(|c| c.row == "Net sales" && c.column == "Six Months Ended December 31, 2022").unwrap();
        assert_eq!(&INCOME[sales.cell.clone()], "$\t7,354", "the sign's cell is part of the figure's");
        assert_eq!(&INCOME[sales.header.clone().unwrap()], "2022");
        assert_eq!(sales.header.clone().unwrap().start, INCOME.find("\t2022\t2021\nNet").unwrap() + 1, "its own title, the second 2022 on the header line");
    }

    #[test]
    fn a_row_label_wrapped_over_two_lines_is_read_whole() {
        let page = "($ million)\t2022\t2023\nNet income\t815\t1,058\nChanges in operating assets and liabilities, excluding effect of acquisitions, and\ncurrency\t(207)\t(265)\nCash flows from investing activities:\nBusiness acquisitions\t(12)\t(177)\n";
        let cells = table_cells(page);
        let changes = cells.iter().find(|c| c.value == "(207)").unwrap();
        assert_eq!(changes.row, "Changes in operating assets and liabilities, excluding effect of acquisitions, and currency");
        assert!(page[changes.line.clone()].starts_with("Changes in") && page[changes.line.clone()].ends_with("(265)"));
        let acquisitions = cells.iter().find(|c| c.value == "(12)").unwrap();
        assert_eq!(acquisitions.row, "Business acquisitions", "a heading ending in a colon is not part of the label");
    }

    #[test]
    fn a_long_statement_keeps_its_header() {
        let mut page = String::from("($ in millions)\t2023\t2022\n");
        for i in 0..70 {
            page.push_str(&format!("Row {i}\t{i}\t{}\n", i + 1));
        }
        let cells = table_cells(&page);
        assert!(cells.iter().any(|c| c.row == "Row 69" && c.column == "2022" && c.value == "70"), "{}", cells.len());
    }

    #[test]
    fn records_with_units_ranges_and_times_are_read_cell_by_cell() {
        let lab = "Test\tResult\tUnit\tReference range\nHaemoglobin\t13.8\tg/dL\t13.0-17.0\nFasting glucose\t6.3\tmmol/L\t3.9-5.6\nResults outside the range are discussed\twith your doctor at the follow-up visit.";
        let cells = table_cells(lab);
        let glucose: Vec<(&str, &str)> = cells.iter().filter(|c| c.row == "Fasting glucose").map(|c| (c.column.as_str(), c.value.as_str())).collect();
        assert_eq!(glucose, vec![("Result", "6.3"), ("Unit", "mmol/L"), ("Reference range", "3.9-5.6")]);
        assert!(!cells.iter().any(|c| c.row.starts_with("Results outside")), "prose with a tab is no record");
        assert_eq!(for_reader(lab).lines().nth(1), Some("Haemoglobin | Result: 13.8 | Unit: g/dL | Reference range: 13.0-17.0"), "the model reads each cell with its title");
        let timetable = "Stop\tWeekdays first\tSaturday first\nMarket Square\t05:48\t06:28\n";
        let first = table_cells(timetable).into_iter().find(|c| c.column == "Saturday first").unwrap();
        assert_eq!((first.row.as_str(), first.value.as_str()), ("Market Square", "06:28"));
        assert!(for_reader(timetable).contains("Market Square | Weekdays first: 05:48 | Saturday first: 06:28"));
        assert!(is_time("6:05") && !is_time("13.05") && !is_time("2024:1"));
    }

    #[test]
    fn footnote_marks_leave_row_labels() {
        assert_eq!(without_footnote_marks("Total capital expenditures (2)"), "Total capital expenditures");
        assert_eq!(without_footnote_marks("Revenue*"), "Revenue");
        assert_eq!(without_footnote_marks("Net sales (a) (1)"), "Net sales");
        assert_eq!(without_footnote_marks("Capacity (kW)"), "Capacity (kW)");
        assert_eq!(without_footnote_marks("Income (loss)"), "Income (loss)");
    }

    #[test]
    fn a_header_whose_cells_wrap_does_not_title_the_rows() {
        let page = "Twelve Months Ended June 30, 2022\tTwelve Months Ended June 30, 2023\n($ million)\tEBITDA\tEBIT\nNet\nIncome\nEPS\n(Diluted\nUS\ncents)(1) EBITDA\tEBIT\nNet\nIncome\nNet income attributable to Amcor\t805\t805\t805\t52.9\t1,048\t1,048\t1,048\t70.5\nAdjusted EBITDA\t2,117\t2,018\nInterest paid, net\t(119)\t(248)\n";
        let cells = table_cells(page);
        let adjusted: Vec<(&str, &str)> = cells.iter().filter(|c| c.row == "Adjusted EBITDA").map(|c| (c.column.as_str(), c.value.as_str())).collect();
        assert_eq!(adjusted, vec![("Twelve Months Ended June 30, 2022", "2,117"), ("Twelve Months Ended June 30, 2023", "2,018")]);
        assert!(!cells.iter().any(|c| c.row.starts_with("Net income")), "eight figures under two titles line up with nothing");
        let at = page.find("2,018").unwrap();
        assert_eq!(column_at(page, at, page).unwrap().header, "Twelve Months Ended June 30, 2023");
        // Section labels under a header are no part of it.
        let plain = "($ million)\t2022\t2023\nAssets\nCurrent assets\nCash\t10\t12\nCommitments (Note 13)\nLeases\t3\t4\n";
        assert_eq!(column_at(plain, plain.find("12").unwrap(), plain).unwrap().header, "2023");
        assert_eq!(column_at(plain, plain.find("\t4").unwrap() + 1, plain).unwrap().header, "2023");
    }

    #[test]
    fn rows_with_figures_and_notes_in_brackets_head_no_columns() {
        let page = "January 28, January 29,\n2023\t2022\n(Unaudited)\t(Unaudited)\nCash\t737,877\t431,560\nTotal assets\t$ 5,370,411 $ 4,764,379\nAccounts payable\t559,527\t552,730\n";
        assert!(!is_header_line("Total assets\t$ 5,370,411 $ 4,764,379"));
        assert!(!is_header_line("(Unaudited)\t(Unaudited)"));
        assert!(is_header_line("Region\tOutput 2024 (MWh)\t13 Weeks Ended"));
        let cells = table_cells(page);
        let payable: Vec<(&str, &str)> = cells.iter().filter(|c| c.row == "Accounts payable").map(|c| (c.column.as_str(), c.value.as_str())).collect();
        assert_eq!(payable, vec![("2023", "559,527"), ("2022", "552,730")], "under the years, not under 'Total assets'");
        let cash = cells.iter().find(|c| c.row == "Cash" && c.value == "737,877").unwrap();
        assert_eq!(cash.column, "2023");
    }

    #[test]
    fn rows_without_a_matching_header_are_split_plainly() {
        let read = for_reader("A\tB\nx\t1\t2\t3");
        assert_eq!(read, "A | B\nx | 1 | 2 | 3");
    }
}
