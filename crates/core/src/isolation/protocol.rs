//! What the parent and a worker process say to each other: one JSON line per request and
//! one per response.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::parse::pdf::PageProgress;
use crate::parse::{Document, Format};
use crate::viewer::{PageRender, PageRequest};

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Request {
    /// Parse a file (any format).
    Parse { path: PathBuf, format: Format },
    /// Render a PDF page (and/or find a quote on it) for the viewer.
    Render { path: PathBuf, page: PageRequest },
}

impl Request {
    pub(super) fn path(&self) -> &std::path::Path {
        match self {
            Request::Parse { path, .. } | Request::Render { path, .. } => path,
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Response {
    /// The first line a worker sends: what its sandbox holds.
    Sandboxed(super::sandbox::Sandbox),
    /// A page of the file being parsed was read; the parent waits on (OCR takes seconds a page).
    Progress(PageProgress),
    Parsed(Document),
    Rendered(PageRender),
    /// This file cannot be parsed or rendered; the reason.
    Failed(String),
    /// PDFium itself is unusable (library missing or not loadable).
    Broken(String),
}

pub(super) fn encode(response: &Response) -> String {
    serde_json::to_string(response).unwrap_or_else(|e| format!("{{\"broken\":\"encode: {e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_responses_survive_the_line_format() {
        let request = Request::Render { path: "/a b/ü.pdf".into(), page: PageRequest { page: 3, width_px: Some(800), quote: Some("x\ny".into()), focus: vec![crate::viewer::Focus { context: "a 1 2".into(), tail: "2".into() }] } };
        let line = serde_json::to_string(&request).unwrap();
        assert!(!line.contains('\n'), "one request is one line: {line}");
        match serde_json::from_str::<Request>(&line).unwrap() {
            Request::Render { path, page } => {
                assert_eq!((path.to_str(), page.page, page.quote.as_deref()), (Some("/a b/ü.pdf"), 3, Some("x\ny")));
                assert_eq!(page.focus[0].tail, "2", "the cell to mark goes to the worker too");
            }
            other => panic!("{other:?}"),
        }
        let broken = encode(&Response::Broken("no library".into()));
        assert!(matches!(serde_json::from_str::<Response>(&broken).unwrap(), Response::Broken(m) if m == "no library"));
    }
}
