//! Stage `check` of a computed answer ([`super::compute`]): each sentence cites the cells it
//! rests on, and is shown as computed only when every cell is cited, the cited row says the
//! figure the formula used, and the formula gives the value again; otherwise it is flagged.

use super::attribute::{Citation, Sentence, SentenceStatus};
use super::compute::{self, Computation};
use super::evidence::EvidenceSet;
use super::verdict::Checked;
use crate::lang::Lang;

/// The cell's row in the evidence, cited, with the cell and its column's title to mark;
/// `None` when the evidence does not hold it or the row there does not say the figure.
fn cite(operand: &compute::Operand, evidence: &EvidenceSet) -> Option<Citation> {
    let page = evidence.pages.iter().find(|p| p.doc_id == operand.doc_id && p.page == operand.page)?;
    let passage = page.passages.iter().find(|p| p.span.byte_start <= operand.line.start && operand.line.start < p.span.byte_end)?;
    let start = operand.line.start - passage.span.byte_start;
    let end = operand.line.end.min(passage.span.byte_end) - passage.span.byte_start;
    let row = passage.text.get(start..end)?;
    row.contains(&compute::as_written(operand)).then(|| {
        let mut citation = Citation::of(page, passage, start..end, 1.0);
        citation.focus = Some(std::iter::once(&operand.cell).chain(&operand.header).map(|r| (r.start, r.end)).collect());
        citation
    })
}

/// The computation's sentences, each with its cells cited and its status.
pub(super) fn checked(computation: &Computation, evidence: &EvidenceSet, question: &str) -> Checked {
    let sound = computation.recomputes();
    let sentences = compute::sentences(computation, Lang::of(question))
        .into_iter()
        .map(|(text, operands)| {
            let mut citations: Vec<Citation> = Vec::new();
            let mut all_cited = true;
            for operand in operands {
                match cite(operand, evidence) {
                    // One row cited for two of its cells (two years): both are marked.
                    Some(c) => match citations.iter_mut().find(|x| x.chunk_id == c.chunk_id && x.span == c.span) {
                        Some(same_row) => {
                            let marked = same_row.focus.get_or_insert_with(Vec::new);
                            for part in c.focus.unwrap_or_default() {
                                if !marked.contains(&part) {
                                    marked.push(part);
                                }
                            }
                        }
                        None => citations.push(c),
                    },
                    None => all_cited = false,
                }
            }
            let status = if sound && all_cited { SentenceStatus::Computed } else { SentenceStatus::Unsupported };
            Sentence { text, status, citations, reason: None, unsure: None }
        })
        .collect();
    Checked::Computed { sentences }
}
