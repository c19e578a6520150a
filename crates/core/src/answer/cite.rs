//! Citation labels in generated text: parsed leniently (small models write `[Doc1 p14]`,
//! `[Doc1_p14, Doc2_p3]`, `(Doc1, page 14)`), split off their sentences, and later checked
//! against the evidence of the answer. Quotes are located as byte ranges in the page text.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use crate::text::{content_terms, sentences, term_recall};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct LabelRef {
    pub doc: u32,
    pub page: u32,
}

impl LabelRef {
    pub fn label(&self) -> String {
        super::evidence::label(self.doc, self.page)
    }
}

/// One sentence of generated text with the labels written after (or inside) it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub text: String,
    pub labels: Vec<LabelRef>,
}

const REF: &str = r"doc(?:ument)?\s*_?\s*(\d{1,3})\s*(?:[_,:;\-]\s*)?(?:p(?:g|age|\.)?|pages?)\s*\.?\s*_?\s*(\d{1,5})";

fn ref_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(&format!("(?i){REF}")).unwrap_or_else(|_| unreachable!()))
}

fn group_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let sep = r"\s*(?:[,;&]|\band\b)?\s*";
        Regex::new(&format!(r"(?i)[\[(【]\s*(?:source:?\s*)?{REF}(?:{sep}{REF})*\s*[\])】]|{REF}")).unwrap_or_else(|_| unreachable!())
    })
}

/// Every label group in `text`: its byte span and the references inside it, in order.
pub fn find_labels(text: &str) -> Vec<(Range<usize>, Vec<LabelRef>)> {
    group_regex()
        .find_iter(text)
        .map(|m| {
            let refs = ref_regex()
                .captures_iter(m.as_str())
                .filter_map(|c| Some(LabelRef { doc: c[1].parse().ok()?, page: c[2].parse().ok()? }))
                .collect();
            (m.range(), refs)
        })
        .collect()
}

/// Splits generated text into sentences and hands each the labels that follow it. A label
/// group written after a sentence's full stop belongs to that sentence, not the next one.
pub fn split_claims(text: &str) -> Vec<Claim> {
    let groups = find_labels(text);
    let mut clean = String::with_capacity(text.len());
    let mut anchors: Vec<(usize, Vec<LabelRef>)> = Vec::new();
    let mut last = 0;
    for (span, refs) in groups {
        clean.push_str(&text[last..span.start]);
        anchors.push((clean.trim_end().len(), refs));
        last = span.end;
    }
    clean.push_str(&text[last..]);
    let ranges = sentences(&clean);
    let mut claims: Vec<Claim> = ranges
        .iter()
        .map(|r| Claim { text: tidy(&clean[r.clone()]), labels: Vec::new() })
        .collect();
    for (at, refs) in anchors {
        // The last sentence that starts before the label owns it; a label before any text
        // goes to the first sentence.
        let owner = ranges.iter().rposition(|r| r.start < at).unwrap_or(0);
        if let Some(claim) = claims.get_mut(owner) {
            for r in refs {
                if !claim.labels.contains(&r) {
                    claim.labels.push(r);
                }
            }
        }
    }
    claims.retain(|c| c.text.chars().any(char::is_alphanumeric));
    claims
}

/// Removes the spaces left before punctuation where a label was cut out.
fn tidy(s: &str) -> String {
    let mut out = s.split_whitespace().collect::<Vec<_>>().join(" ");
    for p in [" .", " ,", " ;", " :", " !", " ?"] {
        out = out.replace(p, &p[1..]);
    }
    out.trim_matches(|c: char| c == ',' || c == ';' || c.is_whitespace()).to_string()
}

/// The part of a passage that best supports a claim: its best sentence by shared terms.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Quote {
    /// Byte range inside the passage text.
    pub range: Range<usize>,
    pub text: String,
    pub support: f32,
}

pub fn best_quote(claim: &str, passage: &str) -> Option<Quote> {
    let claim_terms = content_terms(claim);
    let mut best: Option<Quote> = None;
    for range in sentences(passage) {
        let sentence = &passage[range.clone()];
        if sentence.chars().filter(|c| c.is_alphanumeric()).count() < 3 {
            continue;
        }
        let terms: HashSet<String> = content_terms(sentence).into_iter().collect();
        let support = term_recall(&claim_terms, &terms);
        if best.as_ref().is_none_or(|b| support > b.support) {
            best = Some(Quote { range: range.clone(), text: sentence.to_string(), support });
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(text: &str) -> Vec<(u32, u32)> {
        find_labels(text).into_iter().flat_map(|(_, r)| r).map(|r| (r.doc, r.page)).collect()
    }

    #[test]
    fn labels_in_the_forms_small_models_write() {
        assert_eq!(refs("Sales rose [Doc1_p14]."), [(1, 14)]);
        assert_eq!(refs("Sales rose [Doc1 p14]."), [(1, 14)]);
        assert_eq!(refs("Sales rose [doc1_P14]."), [(1, 14)]);
        assert_eq!(refs("Sales rose [Doc1_p14, Doc2_p3]."), [(1, 14), (2, 3)]);
        assert_eq!(refs("Sales rose (Doc1, page 14)."), [(1, 14)]);
        assert_eq!(refs("Sales rose [Doc 2, p. 7; Doc3_p1]."), [(2, 7), (3, 1)]);
        assert_eq!(refs("Sales rose Doc4_p2 and more."), [(4, 2)]);
        assert_eq!(refs("Sales rose [Source: Doc1_p9]"), [(1, 9)]);
        assert_eq!(refs("Sales rose 【Doc1_p9】"), [(1, 9)]);
    }

    #[test]
    fn adversarial_strings_do_not_become_labels() {
        assert!(refs("See [1] and (page 14) and Doc1 and p14 alone").is_empty());
        assert!(refs("the docket p 14").is_empty());
        assert!(refs("[Doc_p14] [DocX_p2] [Doc1_p] [Doc1_pX]").is_empty());
        assert!(refs("Doc99999999_p1").is_empty(), "absurd handles are not labels");
        assert!(refs("").is_empty());
        // A label split by a newline or nested brackets still parses to what it names.
        assert_eq!(refs("[[Doc1_p2]]"), [(1, 2)]);
    }

    #[test]
    fn labels_attach_to_the_sentence_before_them() {
        let claims = split_claims("Revenue was $5 million [Doc1_p2]. Margins fell. [Doc2_p7] Costs rose (Doc1, page 3).");
        assert_eq!(claims.len(), 3);
        assert_eq!(claims[0], Claim { text: "Revenue was $5 million.".into(), labels: vec![LabelRef { doc: 1, page: 2 }] });
        assert_eq!(claims[1].text, "Margins fell.");
        assert_eq!(claims[1].labels, vec![LabelRef { doc: 2, page: 7 }]);
        assert_eq!(claims[2].labels, vec![LabelRef { doc: 1, page: 3 }]);
    }

    #[test]
    fn text_without_labels_and_label_only_text() {
        let claims = split_claims("No labels here. None at all.");
        assert!(claims.iter().all(|c| c.labels.is_empty()));
        assert_eq!(claims.len(), 2);
        assert!(split_claims("[Doc1_p1] [Doc2_p2]").is_empty(), "labels alone are no claim");
    }

    #[test]
    fn quote_is_the_best_supporting_sentence() {
        let passage = "The company operates 1,200 stores. Revenue grew 4% to $43.5 billion in fiscal 2023. Other notes.";
        let q = best_quote("Revenue was $43.5 billion in 2023", passage).unwrap();
        assert_eq!(q.text, "Revenue grew 4% to $43.5 billion in fiscal 2023.");
        assert_eq!(&passage[q.range.clone()], q.text);
    }
}
