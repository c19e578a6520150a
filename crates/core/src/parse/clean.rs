//! Running headers, footers and page numbers repeat on most pages and drown real text in
//! keyword search. They are found by comparing the first and last lines of all pages of one
//! document, so the result depends only on the file and stays the same on every parse.

use std::collections::HashMap;

/// How many lines at the top and bottom of a page are candidates.
const EDGE_LINES: usize = 2;

/// Removes lines that repeat at the top or bottom of at least half the pages (digits
/// ignored, so "Page 3 of 9" matches "Page 4 of 9"), explicit page labels at the edges
/// ("Page 3", "- 3 -"), and bare numbers on the first or last line that count up with the
/// page index (a lone figure from a table keeps its place).
pub fn remove_running_lines(pages: &mut [String]) {
    let min_pages = 3;
    // Top and bottom are counted apart: a header repeats at the top, a footer at the bottom.
    let mut top: HashMap<String, usize> = HashMap::new();
    let mut bottom: HashMap<String, usize> = HashMap::new();
    if pages.len() >= min_pages {
        for page in pages.iter() {
            let lines: Vec<&str> = page.lines().collect();
            let n = lines.len();
            let mut seen = std::collections::HashSet::new();
            for (i, line) in lines.iter().enumerate() {
                let key = shape(line);
                // Bare figures are left to the page-number rule: table cells repeat too.
                if !key.chars().any(char::is_alphabetic) {
                    continue;
                }
                if i < EDGE_LINES && seen.insert((true, key.clone())) {
                    *top.entry(key.clone()).or_default() += 1;
                }
                if i + EDGE_LINES >= n && seen.insert((false, key.clone())) {
                    *bottom.entry(key).or_default() += 1;
                }
            }
        }
    }
    let first_offset = page_number_offset(pages, |p| p.lines().next());
    let last_offset = page_number_offset(pages, |p| p.lines().last());
    let threshold = (pages.len() / 2).max(min_pages);
    for (index, page) in pages.iter_mut().enumerate() {
        let lines: Vec<&str> = page.lines().collect();
        let n = lines.len();
        let counts_up = |line: &str, offset: Option<i64>| {
            offset.is_some_and(|o| bare_number(line).is_some_and(|v| v - index as i64 == o))
        };
        let keep: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|(i, line)| {
                let (at_top, at_bottom) = (*i < EDGE_LINES, *i + EDGE_LINES >= n);
                if !at_top && !at_bottom {
                    return true;
                }
                let key = shape(line);
                let repeated = (at_top && top.get(&key).is_some_and(|&c| c >= threshold))
                    || (at_bottom && bottom.get(&key).is_some_and(|&c| c >= threshold));
                let numbered = (*i == 0 && counts_up(line, first_offset))
                    || (*i + 1 == n && counts_up(line, last_offset));
                !(repeated || numbered || is_page_label(line))
            })
            .map(|(_, l)| *l)
            .collect();
        let cleaned = keep.join("\n").trim_matches('\n').to_string();
        *page = cleaned;
    }
}

/// The offset between printed page numbers and page indexes when at least a third of the
/// pages (and three or more) agree on it.
fn page_number_offset(pages: &[String], edge: impl Fn(&str) -> Option<&str>) -> Option<i64> {
    let mut offsets: HashMap<i64, usize> = HashMap::new();
    for (i, page) in pages.iter().enumerate() {
        if let Some(v) = edge(page).and_then(bare_number) {
            *offsets.entry(v - i as i64).or_default() += 1;
        }
    }
    let (offset, count) = offsets.into_iter().max_by_key(|&(o, c)| (c, -o))?;
    (count >= 3 && count * 3 >= pages.len()).then_some(offset)
}

fn bare_number(line: &str) -> Option<i64> {
    let t = line.trim();
    (!t.is_empty() && t.len() <= 4 && t.chars().all(|c| c.is_ascii_digit())).then(|| t.parse().ok())?
}

/// The line with digits and spacing folded, lowercased.
fn shape(line: &str) -> String {
    let mut out = String::new();
    let mut last_digit = false;
    for c in line.trim().chars() {
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('#');
            }
            last_digit = true;
        } else {
            last_digit = false;
            if !c.is_whitespace() {
                out.extend(c.to_lowercase());
            }
        }
    }
    out
}

/// "Page 12", "Page 12 of 40", "- 12 -", "12 / 40".
fn is_page_label(line: &str) -> bool {
    let t = line.trim();
    let lower = t.to_lowercase();
    if let Some(rest) = lower.strip_prefix("page ") {
        let words: Vec<&str> = rest.split_whitespace().collect();
        return matches!(words.as_slice(), [n] | [n, "of", _] if n.chars().all(|c| c.is_ascii_digit()));
    }
    let dashed = t.strip_prefix("- ").and_then(|r| r.strip_suffix(" -"));
    if let Some(n) = dashed {
        return !n.is_empty() && n.chars().all(|c| c.is_ascii_digit());
    }
    match t.split_once(" / ") {
        Some((a, b)) => [a, b].iter().all(|w| !w.is_empty() && w.len() <= 4 && w.chars().all(|c| c.is_ascii_digit())),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_repeated_headers_footers_and_numbers() {
        let words = ["alpha", "beta", "gamma", "delta"];
        let mut pages: Vec<String> = (1..=4)
            .map(|i| format!("ACME Corp Annual Report\nAbout {w}.\nMiddle {w}.\nEnd {w}.\nPage {i} of 4", w = words[i - 1]))
            .collect();
        remove_running_lines(&mut pages);
        for (i, p) in pages.iter().enumerate() {
            let w = words[i];
            assert_eq!(p, &format!("About {w}.\nMiddle {w}.\nEnd {w}."));
        }
    }

    #[test]
    fn keeps_lines_that_do_not_repeat() {
        let mut pages = vec!["Intro\nalpha".to_string(), "Methods\nbeta".into(), "Results\ngamma".into()];
        let before = pages.clone();
        remove_running_lines(&mut pages);
        assert_eq!(pages, before);
    }

    #[test]
    fn page_label_shapes() {
        for yes in ["- 12 -", "Page 3", "page 3 of 10", "3 / 10"] {
            assert!(is_page_label(yes), "{yes}");
        }
        for no in ["2023", "Revenue 12", "Page break here", "", "12"] {
            assert!(!is_page_label(no), "{no}");
        }
    }

    #[test]
    fn bare_numbers_removed_only_when_they_count_with_pages() {
        let words = ["alpha", "beta", "gamma", "delta"];
        let mut pages: Vec<String> = (0..4).map(|i| format!("Body {w}\nmore {w}\n{}", i + 7, w = words[i])).collect();
        remove_running_lines(&mut pages);
        assert_eq!(pages[0], "Body alpha\nmore alpha");
        let mut table: Vec<String> = ["a\n689", "b\n17", "c\n4"].iter().map(|s| s.to_string()).collect();
        let before = table.clone();
        remove_running_lines(&mut table);
        assert_eq!(table, before);
    }
}
