//! CSV and TSV as text: blocks of rows rendered as Markdown tables under their header, so a
//! block stays whole when it fits a chunk and every value keeps its column name.

use std::path::Path;

use super::encoding::decode_text;
use super::{file_stem, normalise_text, Document, Format, Page, ParseFailure};

const ROWS_PER_BLOCK: usize = 20;
/// Columns per rendered table: wider blocks are split into several tables, each led by the
/// first column, so every value stays next to its column name and its row's key.
const COLUMNS_PER_TABLE: usize = 12;
/// Column names listed in the summary line.
const NAMED_COLUMNS: usize = 40;
/// The most text one CSV renders to, and the most per byte of the file: rendering repeats
/// each block's header, so a file of long names over short rows could otherwise grow a
/// hundredfold. The rest of the rows are left out, with a notice.
const TEXT_LIMIT: usize = 16 * 1024 * 1024;
const TEXT_PER_INPUT_BYTE: usize = 8;
/// Characters of a column name in table headers, and of the row key repeated before a later
/// column group.
const HEADER_CHARS: usize = 64;

pub fn parse_csv(path: &Path, bytes: &[u8]) -> Result<Document, ParseFailure> {
    let (raw, _) = decode_text(bytes)?;
    let delimiter = sniff_delimiter(path, &raw);
    let rows = split_records(&raw, delimiter);
    let Some((header, body)) = rows.split_first() else { return Err("empty CSV file".into()) };
    if body.is_empty() && header.iter().all(|c| c.trim().is_empty()) {
        return Err("empty CSV file".into());
    }
    let mut text = String::new();
    let title = file_stem(path);
    let named: Vec<&str> = header.iter().map(|c| c.trim()).filter(|c| !c.is_empty()).collect();
    let listed = named.iter().take(NAMED_COLUMNS).copied().collect::<Vec<_>>().join(", ");
    let more = if named.len() > NAMED_COLUMNS { format!(" and {} more", named.len() - NAMED_COLUMNS) } else { String::new() };
    text.push_str(&format!("# {title}\n\n{} rows; columns: {listed}{more}\n", body.len()));
    let limit = (TEXT_PER_INPUT_BYTE * bytes.len() + 64 * 1024).min(TEXT_LIMIT);
    for (block, rows) in body.chunks(ROWS_PER_BLOCK).enumerate() {
        if text.len() > limit {
            let left = body.len() - block * ROWS_PER_BLOCK;
            text.push_str(&format!("\n(The last {left} rows are not indexed: the table is over the size limit.)\n"));
            break;
        }
        let first = block * ROWS_PER_BLOCK + 1;
        text.push_str(&format!("\n## Rows {first}–{}\n\n", first + rows.len() - 1));
        render_block(&mut text, header, rows);
    }
    Ok(Document { format: Format::Csv, title, pages: vec![Page { text: normalise_text(&text) }] })
}

/// The block's rows as tables over the columns where some row holds a value: a column empty
/// in every row says nothing, however wide the header.
fn render_block(text: &mut String, header: &[String], rows: &[Vec<String>]) {
    let width = rows.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let mut used: Vec<usize> = (0..width).filter(|&i| rows.iter().any(|r| r.get(i).is_some_and(|c| !c.trim().is_empty()))).collect();
    if used.is_empty() {
        used.push(0);
    }
    let cell = |r: &[String], i: usize| r.get(i).cloned().unwrap_or_default();
    let groups: Vec<&[usize]> = used.chunks(COLUMNS_PER_TABLE).collect();
    for (g, group) in groups.iter().enumerate() {
        let mut columns: Vec<usize> = group.to_vec();
        if g > 0 {
            columns.insert(0, used[0]);
            text.push('\n');
        }
        // A later group shows only the rows that hold something in it, so a few long rows
        // do not repeat every short row once per group.
        let shown: Vec<&Vec<String>> =
            rows.iter().filter(|r| g == 0 || group.iter().any(|&i| r.get(i).is_some_and(|c| !c.trim().is_empty()))).collect();
        let names: Vec<String> = columns.iter().map(|&i| cell(header, i).chars().take(HEADER_CHARS).collect()).collect();
        text.push_str(&table_line(&names));
        text.push_str(&format!("|{}\n", " --- |".repeat(columns.len())));
        for row in shown {
            // The key repeated before a later group is context: cut like a column name, so
            // one long first cell is not copied once per group.
            let cells: Vec<String> = columns
                .iter()
                .enumerate()
                .map(|(k, &i)| if g > 0 && k == 0 { cell(row, i).chars().take(HEADER_CHARS).collect() } else { cell(row, i) })
                .collect();
            text.push_str(&table_line(&cells));
        }
    }
}

fn table_line(cells: &[String]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| c.split_whitespace().collect::<Vec<_>>().join(" ").replace('|', "/")).collect();
    format!("| {} |\n", cells.join(" | "))
}

fn sniff_delimiter(path: &Path, text: &str) -> char {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("tsv")) {
        return '\t';
    }
    let first = text.lines().next().unwrap_or_default();
    [',', ';', '\t', '|'].into_iter().max_by_key(|d| first.matches(*d).count()).unwrap_or(',')
}

/// RFC 4180 records: quoted fields may hold delimiters, doubled quotes and line breaks.
fn split_records(text: &str, delimiter: char) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' if quoted => quoted = false,
            '"' if field.is_empty() => quoted = true,
            c if c == delimiter && !quoted => record.push(std::mem::take(&mut field)),
            '\n' if !quoted => {
                record.push(std::mem::take(&mut field));
                if record.iter().any(|f| !f.trim().is_empty()) {
                    records.push(std::mem::take(&mut record));
                }
                record.clear();
            }
            '\r' if !quoted => {}
            c => field.push(c),
        }
    }
    record.push(field);
    if record.iter().any(|f| !f.trim().is_empty()) {
        records.push(record);
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_become_tables_under_their_header() {
        let csv = "Region,Sites,\"Capacity, kW\"\nNorth Valley,12,\"1,420\"\n\"Say \"\"hi\"\"\",9,960\n";
        let doc = parse_csv(Path::new("/d/capacity.csv"), csv.as_bytes()).unwrap();
        let text = &doc.pages[0].text;
        assert!(text.starts_with("# capacity\n\n2 rows; columns: Region, Sites, Capacity, kW"), "{text}");
        assert!(text.contains("| Region | Sites | Capacity, kW |\n| --- | --- | --- |\n| North Valley | 12 | 1,420 |\n| Say \"hi\" | 9 | 960 |"), "{text}");
        let semicolons = parse_csv(Path::new("/d/x.csv"), b"a;b\n1;2\n").unwrap();
        assert!(semicolons.pages[0].text.contains("| 1 | 2 |"));
        assert!(parse_csv(Path::new("/d/e.csv"), b"\n\n").is_err());
    }

    #[test]
    fn a_header_wider_than_its_rows_costs_only_the_columns_that_hold_something() {
        // The hostile shape: a header of 100,000 empty columns over 200,000 short rows.
        let mut csv = String::from("a");
        csv.push_str(&",".repeat(100_000));
        csv.push('\n');
        for i in 0..200_000 {
            csv.push_str(&format!("{i},x\n"));
        }
        let doc = parse_csv(Path::new("/d/wide.csv"), csv.as_bytes()).unwrap();
        let text = &doc.pages[0].text;
        assert!(text.len() < 8 * csv.len(), "{} bytes of text from {} bytes", text.len(), csv.len());
        assert!(text.contains("| a |  |\n| --- | --- |\n| 0 | x |"), "{}", &text[..300]);
        assert!(text.contains("| 199999 | x |"));
    }

    #[test]
    fn wide_tables_are_split_by_columns_and_keep_the_row_key() {
        let header: Vec<String> = (0..30).map(|i| format!("c{i}")).collect();
        let row: Vec<String> = (0..30).map(|i| format!("v{i}")).collect();
        let csv = format!("{}\n{}\n", header.join(","), row.join(","));
        let text = parse_csv(Path::new("/d/w.csv"), csv.as_bytes()).unwrap().pages[0].text.clone();
        assert!(text.contains("| c0 | c1 |") && text.contains("| c0 | c12 |") && text.contains("| c0 | c24 |"), "{text}");
        assert!(text.contains("| v0 | v24 | v25 |"), "{text}");
        assert!(text.contains("columns: c0, c1,"));
    }

    #[test]
    fn output_is_capped_with_a_notice() {
        let mut csv = String::from("name,notes\n");
        let long = "y".repeat(2000);
        for i in 0..20_000 {
            csv.push_str(&format!("r{i},{long}\n"));
        }
        let text = parse_csv(Path::new("/d/big.csv"), csv.as_bytes()).unwrap().pages[0].text.clone();
        assert!(text.len() < TEXT_LIMIT + 200_000, "{}", text.len());
        assert!(text.contains("rows are not indexed: the table is over the size limit"));
    }
}
