//! Table cells kept apart in a PDF page's text. PDFium writes one space wherever a gap
//! separates two characters on a line, so "North Valley 12 1,420 1,306" reads the same whether
//! the gaps were word spaces or the gutters between a table's columns, and a row cannot be
//! lined up with its header. A space that stands for a gap wider than any word space becomes a
//! tab: the text keeps its length and its words, and readers of the text (the prompt, the
//! claim check) can tell a table's cells.

use crate::glyphs::Glyph;

/// A gap wider than this share of the line height is a column gutter, not a word space
/// (justified text stretches its spaces to about half an em, rarely past one).
const CELL_GAP: f32 = 1.5;

/// `text` with each space that stands for a column gutter turned into a tab. `glyphs` are the
/// page's characters in the order `text` spells them; when they do not spell it exactly, the
/// text is returned as it is.
pub fn mark_cell_gaps(text: &str, glyphs: &[Glyph]) -> String {
    if text.chars().count() != glyphs.len() || !text.chars().zip(glyphs).all(|(c, g)| c == g.ch) {
        return text.to_string();
    }
    let mut out: Vec<char> = text.chars().collect();
    let mut previous: Option<&Glyph> = None;
    let mut gap_start: Option<usize> = None;
    for (i, g) in glyphs.iter().enumerate() {
        if matches!(g.ch, '\r' | '\n') {
            previous = None;
            gap_start = None;
            continue;
        }
        if g.ch == ' ' {
            if previous.is_some() && gap_start.is_none() {
                gap_start = Some(i);
            }
            continue;
        }
        if g.generated || g.ch.is_whitespace() {
            continue;
        }
        if let (Some(p), Some(at)) = (previous, gap_start) {
            let height = (p.top - p.bottom).max(g.top - g.bottom).max(1.0);
            let middle = (g.bottom + g.top) / 2.0;
            let same_line = middle > p.bottom && middle < p.top;
            if same_line && g.left - p.right > CELL_GAP * height {
                out[at] = '\t';
            }
        }
        previous = Some(g);
        gap_start = None;
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glyphs for `line`, each character 5 points wide and 10 high; `|` stands for a gutter
    /// of 40 points drawn as one space.
    fn glyphs(line: &str) -> (String, Vec<Glyph>) {
        let mut x = 0.0;
        let mut text = String::new();
        let mut out = Vec::new();
        for c in line.chars() {
            let (ch, width) = if c == '|' { (' ', 40.0) } else { (c, 5.0) };
            text.push(ch);
            out.push(Glyph { ch, left: x, bottom: 0.0, right: x + width, top: 10.0, generated: ch == ' ' });
            x += width;
        }
        (text, out)
    }

    #[test]
    fn gutters_become_tabs_and_word_spaces_stay() {
        let (text, g) = glyphs("North Valley|12|1,420");
        assert_eq!(mark_cell_gaps(&text, &g), "North Valley\t12\t1,420");
        let (prose, g) = glyphs("North Valley remains the largest");
        assert_eq!(mark_cell_gaps(&prose, &g), prose);
    }

    #[test]
    fn text_the_glyphs_do_not_spell_is_left_alone() {
        let (_, g) = glyphs("North Valley|12");
        assert_eq!(mark_cell_gaps("other text", &g), "other text");
    }
}
