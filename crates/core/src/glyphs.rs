//! A PDF page's characters with their boxes on the page as it is shown. PDFium gives boxes
//! in unrotated user space, whose origin is wherever the page's box puts it; the shown page
//! starts at its crop box and is turned by its /Rotate. Reading order (columns) and the
//! viewer's highlights both need the shown page.

use pdfium_render::prelude::{PdfPage, PdfPageRenderRotation};

/// One character with its box in page points on the shown page (y grows upwards).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glyph {
    pub ch: char,
    pub left: f32,
    pub bottom: f32,
    pub right: f32,
    pub top: f32,
    /// Inserted by PDFium (spaces and line breaks it inferred); its box means nothing.
    pub generated: bool,
}

/// The page's characters in content-stream order.
pub fn page_glyphs(page: &PdfPage<'_>) -> Vec<Glyph> {
    let Ok(text) = page.text() else { return Vec::new() };
    let frame = PageFrame::of(page);
    text.chars()
        .iter()
        .filter_map(|c| {
            let ch = c.unicode_char()?;
            let generated = c.is_generated().unwrap_or(false);
            let b = c.loose_bounds().ok()?;
            let shown = frame.show(Glyph { ch, left: b.left().value, bottom: b.bottom().value, right: b.right().value, top: b.top().value, generated });
            Some(shown)
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageFrame {
    /// The crop box's lower-left corner in user space.
    pub origin: (f32, f32),
    /// The unrotated width and height.
    pub size: (f32, f32),
    /// Clockwise quarter turns when shown (0–3).
    pub quarter_turns: u8,
}

impl PageFrame {
    /// Where the page's text sits on the shown page: its crop box (the media box when it has
    /// none) and its rotation.
    pub fn of(page: &PdfPage<'_>) -> PageFrame {
        let boundaries = page.boundaries();
        let bounds = boundaries.crop().or_else(|_| boundaries.media()).map(|b| b.bounds).unwrap_or_else(|_| page.page_size());
        let quarter_turns = match page.rotation() {
            Ok(PdfPageRenderRotation::Degrees90) => 1,
            Ok(PdfPageRenderRotation::Degrees180) => 2,
            Ok(PdfPageRenderRotation::Degrees270) => 3,
            _ => 0,
        };
        PageFrame { origin: (bounds.left().value, bounds.bottom().value), size: (bounds.width().value, bounds.height().value), quarter_turns }
    }

    /// A point in user space → the shown page, origin at its lower left.
    fn point(&self, x: f32, y: f32) -> (f32, f32) {
        let (u, v) = (x - self.origin.0, y - self.origin.1);
        let (w, h) = self.size;
        match self.quarter_turns % 4 {
            1 => (v, w - u),
            2 => (w - u, h - v),
            3 => (h - v, u),
            _ => (u, v),
        }
    }

    pub fn show(&self, g: Glyph) -> Glyph {
        let (ax, ay) = self.point(g.left, g.bottom);
        let (bx, by) = self.point(g.right, g.top);
        Glyph { left: ax.min(bx), bottom: ay.min(by), right: ax.max(bx), top: ay.max(by), ..g }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn char_box(left: f32, bottom: f32, right: f32, top: f32) -> Glyph {
        Glyph { ch: 'x', left, bottom, right, top, generated: false }
    }

    #[test]
    fn offsets_and_quarter_turns_move_boxes_onto_the_shown_page() {
        let letter = |turns| PageFrame { origin: (0.0, 0.0), size: (612.0, 792.0), quarter_turns: turns };
        // Near the unrotated top-left corner.
        let b = char_box(10.0, 770.0, 20.0, 782.0);
        assert_eq!(letter(0).show(b), b);
        // Turned clockwise, the top-left goes to the top-right of a 792 × 612 page.
        assert_eq!(letter(1).show(b), char_box(770.0, 592.0, 782.0, 602.0));
        assert_eq!(letter(2).show(b), char_box(592.0, 10.0, 602.0, 22.0));
        assert_eq!(letter(3).show(b), char_box(10.0, 10.0, 22.0, 20.0));
        let below = PageFrame { origin: (0.0, -792.0), size: (612.0, 792.0), quarter_turns: 0 };
        assert_eq!(below.show(char_box(72.0, -100.0, 80.0, -88.0)), char_box(72.0, 692.0, 80.0, 704.0));
    }
}
