//! Where a passage is: a byte range of one page's indexed text in one document. Search hits,
//! stored chunks, evidence and citations all name their passage with it, so a passage is
//! located the same way from the index to the viewer.

use std::ops::Range;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Span {
    /// Stored answers name their citations by path first; a record without the id still reads.
    #[serde(default)]
    pub doc_id: i64,
    /// 1-based.
    pub page: u32,
    /// Byte range in the page's indexed text.
    pub byte_start: usize,
    pub byte_end: usize,
}

impl Span {
    pub fn bytes(&self) -> Range<usize> {
        self.byte_start..self.byte_end
    }

    /// The part of this span at `range`, counted in bytes from the span's start.
    pub fn narrowed(&self, range: Range<usize>) -> Span {
        Span { byte_start: self.byte_start + range.start, byte_end: self.byte_start + range.end, ..self.clone() }
    }

    /// The span's text in its page's text; `None` when the range does not fit that text (the
    /// file changed since it was indexed).
    pub fn text_in<'t>(&self, page_text: &'t str) -> Option<&'t str> {
        page_text.get(self.bytes())
    }

    /// Whether two spans share any byte of the same page.
    pub fn overlaps(&self, other: &Span) -> bool {
        self.doc_id == other.doc_id && self.page == other.page && self.byte_start < other.byte_end && other.byte_start < self.byte_end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_narrow_locate_and_overlap() {
        let page = "Intro. The pump was replaced in March.";
        let span = Span { doc_id: 3, page: 2, byte_start: 7, byte_end: 38 };
        assert_eq!(span.text_in(page), Some("The pump was replaced in March."));
        let quote = span.narrowed(4..8);
        assert_eq!((quote.byte_start, quote.byte_end, quote.text_in(page)), (11, 15, Some("pump")));
        assert!(span.overlaps(&quote) && quote.overlaps(&span));
        assert!(!span.overlaps(&Span { page: 3, ..quote.clone() }));
        assert!(!Span { byte_end: 7, ..span.clone() }.overlaps(&Span { byte_start: 7, ..span.clone() }), "touching is not overlapping");
        assert_eq!(Span { byte_end: 99, ..span }.text_in(page), None);
        // The wire format stays flat: doc_id, page, byte_start, byte_end.
        let json = serde_json::to_value(&quote).unwrap();
        assert_eq!(json, serde_json::json!({ "doc_id": 3, "page": 2, "byte_start": 11, "byte_end": 15 }));
    }
}
