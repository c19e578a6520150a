//! What the document viewer needs: a page rendered to PNG and the rectangles over it that
//! cover a cited passage (PDF), or the page text with the passage's byte range (text files).

mod locate;
mod page_view;
mod pdf_page;

pub use locate::{locate_quote, locate_tail, merge_into_lines, CharBox};
pub use page_view::{is_pdf, PageKind, PageView, ViewedDocument};
pub use pdf_page::{highlight_rects, render_page_png, render_view, Focus, PageRender, PageRequest, PageSize};

use serde::Serialize;

/// A rectangle as fractions of the page (origin top-left), so it scales with any zoom.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}
