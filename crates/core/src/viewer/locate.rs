//! Finds a quote among a page's characters. The indexed page text went through whitespace
//! normalisation and header removal, so byte offsets cannot be mapped back to PDFium's
//! characters; instead both sides are reduced to their letters and digits, which survive
//! every cleaning step, and the quote is matched on that.

use super::Rect;

/// One character of the page with its box in page points (PDF coordinates: y grows upwards).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CharBox {
    pub ch: char,
    pub left: f32,
    pub bottom: f32,
    pub right: f32,
    pub top: f32,
}

fn folded(c: char) -> impl Iterator<Item = char> {
    c.to_lowercase().filter(|c| c.is_alphanumeric())
}

/// Indexes (into `chars`) of the characters that spell `quote`, or an empty list.
/// When the whole quote is not found (a hyphenated line break, a ligature), its first and
/// last 48 letters are looked for, and everything between them is taken.
pub fn locate_quote(chars: &[CharBox], quote: &str) -> Vec<usize> {
    let mut stream: Vec<char> = Vec::with_capacity(chars.len());
    let mut owner: Vec<usize> = Vec::with_capacity(chars.len());
    for (i, c) in chars.iter().enumerate() {
        for f in folded(c.ch) {
            stream.push(f);
            owner.push(i);
        }
    }
    let needle: Vec<char> = quote.chars().flat_map(folded).collect();
    if needle.is_empty() || stream.is_empty() {
        return Vec::new();
    }
    let span = match find(&stream, &needle, 0) {
        Some(start) => Some((start, start + needle.len())),
        None => {
            let edge = needle.len().min(48);
            let head = &needle[..edge];
            let tail = &needle[needle.len() - edge..];
            find(&stream, head, 0).and_then(|s| {
                find(&stream, tail, s).map(|t| (s, t + tail.len())).filter(|(s, e)| e - s <= needle.len() * 2)
            })
        }
    };
    let Some((start, end)) = span else { return Vec::new() };
    let (first, last) = (owner[start], owner[end - 1]);
    (first..=last).filter(|&i| !chars[i].ch.is_whitespace()).collect()
}

/// Indexes of the characters that spell `tail` at the end of `context` where `context` is
/// found on the page: a table cell within its row, found by the row's text up to and
/// including the cell (the same figure can stand twice in a row; its place cannot).
pub fn locate_tail(chars: &[CharBox], context: &str, tail: &str) -> Vec<usize> {
    let wanted = tail.chars().flat_map(folded).count();
    if wanted == 0 {
        return Vec::new();
    }
    let mut taken = 0;
    let mut out: Vec<usize> = Vec::new();
    for &i in locate_quote(chars, context).iter().rev() {
        if taken >= wanted {
            break;
        }
        taken += folded(chars[i].ch).count();
        out.push(i);
    }
    out.reverse();
    if taken < wanted {
        return Vec::new();
    }
    // Signs and brackets fold away; the cell's own ("(2,980)", "Capacity (kW)") are kept.
    let signs = |text: &mut dyn Iterator<Item = char>| text.take_while(|c| !c.is_alphanumeric() && !c.is_whitespace()).count();
    let (leading, trailing) = (signs(&mut tail.trim_start().chars()), signs(&mut tail.trim_end().chars().rev()));
    let is_sign = |i: usize| chars.get(i).is_some_and(|c| !c.ch.is_alphanumeric() && !c.ch.is_whitespace());
    if let (Some(&first), Some(&last)) = (out.first(), out.last()) {
        let after: Vec<usize> = (last + 1..).take(trailing).take_while(|&i| is_sign(i)).collect();
        let before: Vec<usize> = (0..first).rev().take(leading).take_while(|&i| is_sign(i)).collect();
        out = before.into_iter().rev().chain(out).chain(after).collect();
    }
    out
}

fn find(haystack: &[char], needle: &[char], from: usize) -> Option<usize> {
    if needle.len() > haystack.len() {
        return None;
    }
    (from..=haystack.len() - needle.len()).find(|&i| haystack[i..i + needle.len()] == *needle)
}

/// Merges the boxes of the chosen characters into one rectangle per text line, as
/// fractions of a page `width` × `height` points with the origin at the top left.
pub fn merge_into_lines(chars: &[CharBox], chosen: &[usize], width: f32, height: f32) -> Vec<Rect> {
    let mut lines: Vec<CharBox> = Vec::new();
    for &i in chosen {
        let c = chars[i];
        if c.right <= c.left || c.top <= c.bottom {
            continue;
        }
        let same_line = lines.last().is_some_and(|l| {
            let overlap = l.top.min(c.top) - l.bottom.max(c.bottom);
            overlap > 0.5 * (c.top - c.bottom).min(l.top - l.bottom) && c.left >= l.left - 2.0
        });
        match lines.last_mut() {
            Some(l) if same_line => {
                l.left = l.left.min(c.left);
                l.right = l.right.max(c.right);
                l.bottom = l.bottom.min(c.bottom);
                l.top = l.top.max(c.top);
            }
            _ => lines.push(c),
        }
    }
    if width <= 0.0 || height <= 0.0 {
        return Vec::new();
    }
    lines
        .into_iter()
        .map(|l| Rect {
            x: (l.left / width).clamp(0.0, 1.0),
            y: ((height - l.top) / height).clamp(0.0, 1.0),
            w: ((l.right - l.left) / width).clamp(0.0, 1.0),
            h: ((l.top - l.bottom) / height).clamp(0.0, 1.0),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lays out `lines` as 6-point-wide characters, 12 points per line, from the top of an
    /// 800-point page.
    fn layout(lines: &[&str]) -> Vec<CharBox> {
        let mut out = Vec::new();
        for (row, line) in lines.iter().enumerate() {
            let top = 780.0 - 12.0 * row as f32;
            for (col, ch) in line.chars().enumerate() {
                let left = 50.0 + 6.0 * col as f32;
                out.push(CharBox { ch, left, right: left + 5.0, bottom: top - 10.0, top });
            }
            out.push(CharBox { ch: '\n', left: 0.0, right: 0.0, bottom: 0.0, top: 0.0 });
        }
        out
    }

    #[test]
    fn finds_a_quote_across_a_line_break_and_gives_one_rect_per_line() {
        let chars = layout(&["The pilot in Harlow stores", "energy for 300 homes."]);
        let chosen = locate_quote(&chars, "Harlow stores energy for 300");
        let text: String = chosen.iter().map(|&i| chars[i].ch).collect();
        assert_eq!(text, "Harlowstoresenergyfor300");
        let rects = merge_into_lines(&chars, &chosen, 600.0, 800.0);
        assert_eq!(rects.len(), 2);
        assert!(rects[0].y < rects[1].y, "lines run top to bottom");
        assert!((rects[0].x - (50.0 + 6.0 * 13.0) / 600.0).abs() < 1e-4, "starts at 'Harlow'");
    }

    #[test]
    fn tolerates_hyphenation_and_spacing_differences() {
        let chars = layout(&["a long para-", "graph about battery storage in the town"]);
        let chosen = locate_quote(&chars, "long paragraph  about battery   storage");
        assert!(!chosen.is_empty());
    }

    #[test]
    fn a_cell_is_found_at_the_end_of_its_row_even_when_its_figure_repeats() {
        let chars = layout(&["Cash at beginning of year   850   850   743"]);
        let second = locate_tail(&chars, "Cash at beginning of year 850 850", "850");
        let text: String = second.iter().map(|&i| chars[i].ch).collect();
        assert_eq!(text, "850");
        let first_850 = chars.iter().position(|c| c.ch == '8').unwrap();
        assert!(second[0] > first_850 + 2, "the second 850, not the first");
        assert!(locate_tail(&chars, "Cash at end of year 850", "850").is_empty(), "a row not on the page marks nothing");
        let chars = layout(&["Region  Sites  Capacity (kW)", "Cost of sales  (2,980)  (2,862)"]);
        let spelled = |found: Vec<usize>| found.iter().map(|&i| chars[i].ch).collect::<String>();
        assert_eq!(spelled(locate_tail(&chars, "Region Sites Capacity (kW)", "Capacity (kW)")), "Capacity(kW)");
        assert_eq!(spelled(locate_tail(&chars, "Cost of sales (2,980)", "(2,980)")), "(2,980)");
        assert!(locate_tail(&chars, "Cash at beginning of year", "").is_empty());
    }

    #[test]
    fn an_absent_quote_highlights_nothing() {
        let chars = layout(&["nothing to see here"]);
        assert!(locate_quote(&chars, "quarterly revenue grew").is_empty());
        assert!(locate_quote(&chars, "").is_empty());
    }
}
