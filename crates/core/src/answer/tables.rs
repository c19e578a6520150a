//! A figure read from a table is only checkable with its row and column labels, which often
//! sit in other passages of the same page (a statement split into several chunks). So when a
//! top hit is part of a table, the other passages of its page join the evidence right after
//! it, in reading order, while the evidence budget allows.

use super::tools::Toolbox;
use crate::retrieve::Hit;

/// Pages among the best hits whose tables are completed.
const TABLE_PAGES: usize = 2;
/// A passage is part of a table when this share of its lines carry figures.
const FIGURE_LINE_SHARE: f32 = 0.4;

/// Whether most of a passage's lines hold figures (a statement's rows: "Inventories 5,409 5,209").
pub fn looks_like_table(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() < 3 {
        return false;
    }
    let with_figures = lines
        .iter()
        .filter(|l| l.split_whitespace().any(|w| w.trim_matches(|c: char| "$€£%()—–-,.".contains(c)).chars().any(|c| c.is_ascii_digit())))
        .count();
    with_figures as f32 >= FIGURE_LINE_SHARE * lines.len() as f32
}

/// `hits` with the other passages of the best table pages spliced in after their first hit.
pub fn complete_tables(tools: &mut Toolbox<'_>, hits: Vec<Hit>) -> Vec<Hit> {
    let mut pages: Vec<(i64, u32)> = Vec::new();
    for h in &hits {
        if pages.len() == TABLE_PAGES {
            break;
        }
        let key = (h.doc_id, h.page);
        if !pages.contains(&key) && looks_like_table(&h.text) {
            pages.push(key);
        }
    }
    if pages.is_empty() {
        return hits;
    }
    let mut out: Vec<Hit> = Vec::with_capacity(hits.len() + 8);
    let mut done: Vec<(i64, u32)> = Vec::new();
    for hit in &hits {
        if out.iter().any(|h| h.chunk_id == hit.chunk_id) {
            continue;
        }
        out.push(hit.clone());
        let key = (hit.doc_id, hit.page);
        if pages.contains(&key) && !done.contains(&key) {
            done.push(key);
            for mate in tools.read_page(hit.doc_id, hit.page) {
                if mate.chunk_id != hit.chunk_id && !out.iter().any(|h| h.chunk_id == mate.chunk_id) {
                    out.push(Hit { score: hit.score, also_in: hit.also_in.clone(), ..mate });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_rows_are_a_table_and_prose_is_not() {
        assert!(looks_like_table("Cash and cash equivalents $ 1,980 $ 1,101\nReceivables, net 1,015 1,049\nCurrent assets\nMerchandise inventories 5,409 5,209"));
        assert!(!looks_like_table("We opened two stores.\nSales grew in most categories.\nIn 2019 we hired staff."), "a year is not a table");
    }
}
