//! From PDF user space to the page as it is shown. Character boxes come in unrotated user
//! space, whose origin is wherever the page's box puts it; the rendered page starts at its
//! crop box and is turned by its /Rotate. Without this, highlights on rotated pages and on
//! pages whose box does not start at (0, 0) land in the wrong place or off the page.

use super::locate::CharBox;

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

    pub fn show(&self, c: CharBox) -> CharBox {
        let (ax, ay) = self.point(c.left, c.bottom);
        let (bx, by) = self.point(c.right, c.top);
        CharBox { ch: c.ch, left: ax.min(bx), bottom: ay.min(by), right: ax.max(bx), top: ay.max(by) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn char_box(left: f32, bottom: f32, right: f32, top: f32) -> CharBox {
        CharBox { ch: 'x', left, bottom, right, top }
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
