//! CSV and TSV as text: blocks of rows rendered as Markdown tables under their header, so a
//! block stays whole when it fits a chunk and every value keeps its column name.

use std::path::Path;

use super::encoding::decode_text;
use super::{file_stem, normalise_text, Document, Format, Page, ParseFailure};

const ROWS_PER_BLOCK: usize = 20;

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
    text.push_str(&format!("# {title}\n\n{} rows; columns: {}\n", body.len(), header.join(", ")));
    for (block, rows) in body.chunks(ROWS_PER_BLOCK).enumerate() {
        let first = block * ROWS_PER_BLOCK + 1;
        text.push_str(&format!("\n## Rows {first}–{}\n\n", first + rows.len() - 1));
        text.push_str(&table_line(header));
        text.push_str(&format!("|{}\n", " --- |".repeat(header.len())));
        for row in rows {
            text.push_str(&table_line(row));
        }
    }
    Ok(Document { format: Format::Csv, title, pages: vec![Page { text: normalise_text(&text) }] })
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
}
