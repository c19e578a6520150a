//! Reading order for multi-column pages, rebuilt from character boxes by recursive XY-cut.
//!
//! PDFium gives characters in content-stream order. Producers that draw a page row by row
//! across its columns make that order interleave the columns. The page is cut into runs
//! (characters on one baseline with no wide gap), and the runs are ordered by cutting the page
//! recursively: at a gutter — a vertical band no run crosses, with prose on both sides — left
//! before right; otherwise at the widest horizontal gap, top before bottom. The answer is
//! only used when a gutter was found: other pages (single column, tables, forms) keep
//! PDFium's text exactly, so they cannot get worse.

use crate::glyphs::Glyph;


/// A gap wider than this share of the line height ends a run: wider than the widest word
/// spaces of justified text (about half an em), narrower than column gutters (an em or more).
const RUN_GAP: f32 = 0.7;
/// A gutter is at least this share of the median run height wide.
const GUTTER: f32 = 0.7;
/// A side of a gutter reads as prose when it has this many runs...
const PROSE_RUNS: usize = 3;
/// ...whose median length is at least this many characters (table cells are shorter).
const PROSE_CHARS: usize = 15;

/// A run of glyphs (indexes into the page's glyphs) on one baseline.
#[derive(Debug, Clone, PartialEq)]
struct Run {
    glyphs: std::ops::Range<usize>,
    left: f32,
    bottom: f32,
    right: f32,
    top: f32,
    chars: usize,
}

/// The page's runs in reading order, as glyph ranges, when the page has columns; `None` when
/// no gutter was found or the order is the content order already.
pub fn column_order(glyphs: &[Glyph]) -> Option<Vec<std::ops::Range<usize>>> {
    let runs = runs(glyphs);
    if runs.len() < 2 * PROSE_RUNS {
        return None;
    }
    let mut heights: Vec<f32> = runs.iter().map(|r| r.top - r.bottom).collect();
    heights.sort_by(f32::total_cmp);
    let median_height = heights[heights.len() / 2].max(1.0);
    let mut order = Vec::with_capacity(runs.len());
    let mut split = false;
    let all: Vec<usize> = (0..runs.len()).collect();
    cut(&runs, all, median_height, &mut order, &mut split);
    if !split || order.windows(2).all(|w| w[0] < w[1]) {
        return None;
    }
    Some(order.into_iter().map(|i| runs[i].glyphs.clone()).collect())
}

/// Page text from glyph runs in the given order: runs on one line side by side are joined by
/// a space, others by a line break.
pub fn text_of(glyphs: &[Glyph], order: &[std::ops::Range<usize>]) -> String {
    let mut out = String::new();
    let mut previous: Option<(f32, f32, f32)> = None; // bottom, top, right of the last run
    for range in order {
        let boxed: Vec<&Glyph> = glyphs[range.clone()].iter().filter(|g| !g.generated).collect();
        let (Some(first), Some(last)) = (boxed.first(), boxed.last()) else { continue };
        if let Some((bottom, top, right)) = previous {
            let middle = (first.bottom + first.top) / 2.0;
            let same_line = middle > bottom && middle < top && first.left >= right;
            out.push(if same_line { ' ' } else { '\n' });
        }
        for g in &glyphs[range.clone()] {
            if !(g.generated && matches!(g.ch, '\r' | '\n')) {
                out.push(g.ch);
            }
        }
        previous = Some((first.bottom, first.top, last.right));
    }
    out
}

fn runs(glyphs: &[Glyph]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut start = 0usize;
    let mut last: Option<&Glyph> = None;
    for (i, g) in glyphs.iter().enumerate() {
        if g.generated {
            if matches!(g.ch, '\r' | '\n') {
                push_run(&mut runs, glyphs, start..i);
                start = i + 1;
                last = None;
            }
            continue;
        }
        if let Some(p) = last {
            let height = (p.top - p.bottom).max(g.top - g.bottom).max(1.0);
            let middle = (g.bottom + g.top) / 2.0;
            let other_line = middle < p.bottom || middle > p.top;
            let gap = g.left - p.right;
            if other_line || gap > RUN_GAP * height || g.right < p.left {
                push_run(&mut runs, glyphs, start..i);
                start = i;
            }
        }
        last = Some(g);
    }
    push_run(&mut runs, glyphs, start..glyphs.len());
    runs
}

fn push_run(runs: &mut Vec<Run>, glyphs: &[Glyph], range: std::ops::Range<usize>) {
    let boxed = glyphs[range.clone()].iter().filter(|g| !g.generated && !g.ch.is_whitespace());
    let mut run = Run { glyphs: range, left: f32::MAX, bottom: f32::MAX, right: f32::MIN, top: f32::MIN, chars: 0 };
    for g in boxed {
        run.left = run.left.min(g.left);
        run.bottom = run.bottom.min(g.bottom);
        run.right = run.right.max(g.right);
        run.top = run.top.max(g.top);
        run.chars += 1;
    }
    if run.chars > 0 {
        runs.push(run);
    }
}

/// Orders `ids` (indexes into `runs`) into `out`, cutting recursively.
fn cut(runs: &[Run], ids: Vec<usize>, height: f32, out: &mut Vec<usize>, split: &mut bool) {
    if ids.len() <= 1 {
        out.extend(ids);
        return;
    }
    if let Some(x) = gutter(runs, &ids, height) {
        let (left, right): (Vec<usize>, Vec<usize>) = ids.iter().partition(|&&i| runs[i].right <= x);
        if prose(runs, &left) && prose(runs, &right) {
            *split = true;
            cut(runs, left, height, out, split);
            cut(runs, right, height, out, split);
            return;
        }
    }
    match widest_horizontal_gap(runs, &ids) {
        Some(y) => {
            let (upper, lower): (Vec<usize>, Vec<usize>) = ids.iter().partition(|&&i| runs[i].bottom >= y);
            cut(runs, upper, height, out, split);
            cut(runs, lower, height, out, split);
        }
        None => {
            let mut ids = ids;
            ids.sort_unstable();
            out.extend(ids);
        }
    }
}

/// The middle of the widest vertical band that no run crosses, with runs on both sides.
fn gutter(runs: &[Run], ids: &[usize], height: f32) -> Option<f32> {
    let mut spans: Vec<(f32, f32)> = ids.iter().map(|&i| (runs[i].left, runs[i].right)).collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut best: Option<(f32, f32)> = None; // width, middle
    let mut reach = spans[0].1;
    for &(left, right) in &spans[1..] {
        let width = left - reach;
        if width >= GUTTER * height && best.is_none_or(|(w, _)| width > w) {
            best = Some((width, (left + reach) / 2.0));
        }
        reach = reach.max(right);
    }
    best.map(|(_, middle)| middle)
}

/// The y in the middle of the widest horizontal band that no run crosses.
fn widest_horizontal_gap(runs: &[Run], ids: &[usize]) -> Option<f32> {
    let mut spans: Vec<(f32, f32)> = ids.iter().map(|&i| (runs[i].top, runs[i].bottom)).collect();
    spans.sort_by(|a, b| b.0.total_cmp(&a.0)); // from the top of the page down
    let mut best: Option<(f32, f32)> = None;
    let mut floor = spans[0].1;
    for &(top, bottom) in &spans[1..] {
        let width = floor - top;
        if width > 0.0 && best.is_none_or(|(w, _)| width > w) {
            best = Some((width, (floor + top) / 2.0));
        }
        floor = floor.min(bottom);
    }
    best.map(|(_, middle)| middle)
}

fn prose(runs: &[Run], ids: &[usize]) -> bool {
    if ids.len() < PROSE_RUNS {
        return false;
    }
    let mut lengths: Vec<usize> = ids.iter().map(|&i| runs[i].chars).collect();
    lengths.sort_unstable();
    lengths[lengths.len() / 2] >= PROSE_CHARS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glyphs of `text` from `x` on the baseline `y`, 5 pt wide and 10 pt tall, with a
    /// generated line break after it when `newline`.
    fn line(out: &mut Vec<Glyph>, text: &str, x: f32, y: f32, newline: bool) {
        for (i, ch) in text.chars().enumerate() {
            let left = x + i as f32 * 5.0;
            out.push(Glyph { ch, left, bottom: y, right: left + 5.0, top: y + 10.0, generated: false });
        }
        if newline {
            out.push(Glyph { ch: '\n', left: 0.0, bottom: 0.0, right: 0.0, top: 0.0, generated: true });
        }
    }

    fn two_columns_drawn_row_by_row(title: bool) -> Vec<Glyph> {
        let mut g = Vec::new();
        if title {
            line(&mut g, "A title that runs across the whole page width", 50.0, 760.0, true);
        }
        for row in 0..6 {
            let y = 700.0 - row as f32 * 14.0;
            // Left column line, then the right column line on the same baseline.
            line(&mut g, &format!("left column line number {row} reads on"), 50.0, y, false);
            line(&mut g, &format!("right column line number {row} reads on"), 320.0, y, true);
        }
        line(&mut g, "7", 300.0, 40.0, true);
        g
    }

    #[test]
    fn interleaved_columns_are_read_left_column_first() {
        for title in [false, true] {
            let glyphs = two_columns_drawn_row_by_row(title);
            let order = column_order(&glyphs).expect("columns found");
            let text = text_of(&glyphs, &order);
            let lines: Vec<&str> = text.lines().collect();
            let at = |needle: &str| lines.iter().position(|l| l.contains(needle)).unwrap();
            assert!(at("left column line number 5") < at("right column line number 0"), "{text}");
            assert!(at("right column line number 0") < at("right column line number 5"), "{text}");
            if title {
                assert_eq!(at("A title"), 0, "{text}");
            }
            assert_eq!(lines.last(), Some(&"7"), "{text}");
        }
    }

    #[test]
    fn single_columns_and_tables_keep_their_order() {
        let mut prose = Vec::new();
        for row in 0..10 {
            line(&mut prose, &format!("a single column of prose, line {row} of the page"), 50.0, 700.0 - row as f32 * 14.0, true);
        }
        assert_eq!(column_order(&prose), None);

        // Rows of short cells with wide gaps between them: a table, read row by row.
        let mut table = Vec::new();
        for row in 0..8 {
            let y = 700.0 - row as f32 * 14.0;
            line(&mut table, &format!("Item {row}"), 50.0, y, false);
            line(&mut table, "1,234", 250.0, y, false);
            line(&mut table, "5,678", 400.0, y, true);
        }
        assert_eq!(column_order(&table), None);
    }

    #[test]
    fn columns_already_in_order_are_left_alone() {
        let mut g = Vec::new();
        for (x, side) in [(50.0, "left"), (320.0, "right")] {
            for row in 0..6 {
                line(&mut g, &format!("{side} column line number {row} reads on"), x, 700.0 - row as f32 * 14.0, true);
            }
        }
        assert_eq!(column_order(&g), None);
    }

    #[test]
    fn runs_on_one_line_are_joined_by_a_space() {
        let mut g = Vec::new();
        line(&mut g, "Revenue", 50.0, 700.0, false);
        line(&mut g, "1,234", 200.0, 700.0, true);
        let order = vec![0..7, 7..13];
        assert_eq!(text_of(&g, &order), "Revenue 1,234");
    }
}
