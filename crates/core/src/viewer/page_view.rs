//! What the viewer shows for one cited page: the document, the page, and where the passage
//! is on it — rectangles over the rendered PDF page, or a byte range of the page text.

use std::path::PathBuf;

use serde::Serialize;

use super::{Focus, PageRender, PageRequest, Rect};

/// The indexed facts about a document that the viewer needs.
#[derive(Debug, Clone)]
pub struct ViewedDocument {
    pub doc_id: i64,
    pub title: String,
    pub path: PathBuf,
    pub page_count: u32,
    /// The modification time the index saw, to tell whether the file changed since.
    pub mtime_ns: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PageKind {
    Pdf,
    Text,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PageView {
    pub doc_id: i64,
    pub title: String,
    pub path: PathBuf,
    pub page: u32,
    pub page_count: u32,
    pub kind: PageKind,
    pub width_pt: f32,
    pub height_pt: f32,
    /// PDF: rectangles over the rendered page that cover the passage.
    pub highlights: Vec<Rect>,
    /// PDF: rectangles over the parts of the passage marked on their own (a cited table cell
    /// and its column's title).
    pub focus: Vec<Rect>,
    /// Text sources: the page text, with the passage at this byte range.
    pub text: Option<String>,
    pub highlight_start: Option<usize>,
    pub highlight_end: Option<usize>,
    /// Text sources: the byte ranges of the parts marked on their own.
    pub focus_ranges: Vec<(usize, usize)>,
    /// The file changed since it was indexed: the highlight may be off.
    pub changed_since_indexed: bool,
    /// PDF: the passage to find on the rendered page (not sent to the page).
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    quote: Option<String>,
    /// PDF: the parts to find on the rendered page (not sent to the page).
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    focus_parts: Vec<Focus>,
}

pub fn is_pdf(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf"))
}

/// The byte range when it is a real, non-empty range of `text` on character boundaries.
fn valid_range(text: &str, start: Option<usize>, end: Option<usize>) -> Option<(usize, usize)> {
    match (start, end) {
        (Some(s), Some(e)) if s < e && e <= text.len() && text.is_char_boundary(s) && text.is_char_boundary(e) => Some((s, e)),
        _ => None,
    }
}

fn changed_on_disk(doc: &ViewedDocument) -> bool {
    std::fs::metadata(&doc.path)
        .and_then(|m| m.modified())
        .map(|t| t.duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as i64).unwrap_or(0) != doc.mtime_ns)
        .unwrap_or(true)
}

impl PageView {
    /// The view of `page` (clamped to the document) with the passage at `start..end` of the
    /// indexed page text, and `focus` (byte ranges, a cited cell and its column's title)
    /// marked on their own. A PDF page still needs [`PageView::render_request`] answered.
    pub fn new(doc: &ViewedDocument, page: u32, page_text: String, start: Option<usize>, end: Option<usize>, focus: &[(usize, usize)]) -> PageView {
        let page = page.clamp(1, doc.page_count.max(1));
        let range = valid_range(&page_text, start, end);
        let focus: Vec<(usize, usize)> = focus.iter().filter_map(|&(s, e)| valid_range(&page_text, Some(s), Some(e))).collect();
        let kind = if is_pdf(&doc.path) { PageKind::Pdf } else { PageKind::Text };
        let mut view = PageView {
            doc_id: doc.doc_id,
            title: doc.title.clone(),
            path: doc.path.clone(),
            page,
            page_count: doc.page_count,
            kind,
            width_pt: 0.0,
            height_pt: 0.0,
            highlights: Vec::new(),
            focus: Vec::new(),
            text: None,
            highlight_start: None,
            highlight_end: None,
            focus_ranges: Vec::new(),
            changed_since_indexed: changed_on_disk(doc),
            quote: None,
            focus_parts: Vec::new(),
        };
        match kind {
            PageKind::Pdf => {
                view.quote = range.map(|(s, e)| page_text[s..e].to_string());
                view.focus_parts = focus
                    .iter()
                    .map(|&(s, e)| {
                        let line_start = page_text[..s].rfind('\n').map_or(0, |i| i + 1);
                        Focus { context: page_text[line_start..e].to_string(), tail: page_text[s..e].to_string() }
                    })
                    .collect();
            }
            PageKind::Text => {
                view.highlight_start = range.map(|r| r.0);
                view.highlight_end = range.map(|r| r.1);
                view.focus_ranges = focus;
                view.text = Some(page_text);
            }
        }
        view
    }

    /// What to ask PDFium for this view (a PDF page: its size and the passage's rectangles).
    pub fn render_request(&self) -> Option<PageRequest> {
        (self.kind == PageKind::Pdf).then(|| PageRequest { page: self.page, width_px: None, quote: self.quote.clone(), focus: self.focus_parts.clone() })
    }

    /// The view completed with what PDFium answered.
    pub fn with_render(mut self, rendered: PageRender) -> PageView {
        self.highlights = rendered.rects;
        self.focus = rendered.focus_rects;
        self.width_pt = rendered.size.width_pt;
        self.height_pt = rendered.size.height_pt;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str) -> ViewedDocument {
        ViewedDocument { doc_id: 4, title: "T".into(), path: PathBuf::from(format!("/nowhere/{name}")), page_count: 3, mtime_ns: 0 }
    }

    #[test]
    fn text_pages_carry_the_passage_range_and_pdf_pages_ask_for_rectangles() {
        let text = "Ölpreis stieg. The pump was replaced.".to_string();
        let view = PageView::new(&doc("notes.md"), 9, text.clone(), Some(16), Some(38), &[(21, 25), (1, 5)]);
        assert_eq!((view.page, view.kind), (3, PageKind::Text));
        assert_eq!((view.highlight_start, view.highlight_end), (Some(16), Some(38)));
        assert_eq!(view.focus_ranges, vec![(21, 25)], "a focus inside a character is dropped");
        assert!(view.render_request().is_none());
        assert!(view.changed_since_indexed, "a file that is gone counts as changed");

        // A range inside a character is no range.
        let view = PageView::new(&doc("notes.md"), 1, text.clone(), Some(1), Some(5), &[]);
        assert_eq!(view.highlight_start, None);

        let pdf = PageView::new(&doc("report.PDF"), 2, text, Some(16), Some(38), &[(29, 37)]);
        let request = pdf.render_request().unwrap();
        assert_eq!((request.page, request.quote.as_deref(), request.width_px), (2, Some("The pump was replaced."), None));
        assert_eq!(request.focus, vec![Focus { context: "Ölpreis stieg. The pump was replaced".into(), tail: "replaced".into() }]);
        assert!(pdf.text.is_none());
        let size = super::super::PageSize { width_pt: 612.0, height_pt: 792.0, page_count: 3 };
        let done = pdf.with_render(PageRender { png: None, rects: vec![Rect { x: 0.1, y: 0.2, w: 0.3, h: 0.02 }], focus_rects: vec![Rect { x: 0.3, y: 0.2, w: 0.1, h: 0.02 }], size });
        assert_eq!((done.width_pt, done.highlights.len(), done.focus.len()), (612.0, 1, 1));
    }
}
