//! The rendered answer prompt for a fixed input, compared with a checked-in snapshot so any
//! change to the prompt files or the evidence layout shows up in review.
//! Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p pagewise-core --test prompt_snapshot`.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use pagewise_core::answer::{EvidencePage, EvidencePassage, EvidenceSet};
use pagewise_core::answer::{answer_messages, completion_layout};

fn evidence() -> EvidenceSet {
    let page = |handle: u32, page: u32, title: &str, heading: &[&str], text: &str| EvidencePage {
        label: format!("Doc{handle}_p{page}"),
        doc_handle: handle,
        doc_id: handle as i64,
        doc_path: PathBuf::from(format!("/library/{title}.pdf")),
        doc_title: title.into(),
        page,
        modified: "2024-03-02".into(),
        passages: vec![EvidencePassage {
            chunk_id: (handle * 100 + page) as i64,
            span: pagewise_core::span::Span { doc_id: handle as i64, page, byte_start: 0, byte_end: text.len() },
            heading_path: heading.iter().map(|h| h.to_string()).collect(),
            text: text.into(),
            score: 0.5,
        }],
        score: 0.5,
        also_in: vec![],
        facets: None,
    };
    EvidenceSet {
        pages: vec![
            page(1, 14, "Annual report 2023", &["Risk factors", "Supply chain"], "Two suppliers provide 60% of our cells."),
            page(2, 3, "Board minutes", &[], "The board approved the Lisbon plant on 4 May."),
        ],
    }
}

#[test]
fn answer_prompt_matches_the_snapshot() {
    let messages = answer_messages("Who supplies our battery cells?", &evidence());
    let rendered = format!(
        "=== system ===\n{}\n=== user ===\n{}\n=== completion layout (base models) ===\n{}\n",
        messages[0].content,
        messages[1].content,
        completion_layout(&messages)
    );
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/answer_prompt.txt");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &rendered).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert_eq!(rendered, expected, "prompt changed; review and regenerate the snapshot");
    assert!(!rendered.contains("{{"), "unfilled slot");
}
