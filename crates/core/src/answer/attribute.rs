//! Attribution after generation: every generated sentence is aligned with the evidence that
//! supports it, so trust rests on this check, not on the model's labels. A missing citation is
//! attached, a wrong one replaced, an unknown label dropped, and a sentence that no passage
//! supports is flagged.

use std::collections::HashMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::evidence::{EvidencePage, EvidencePassage, EvidenceSet};
use crate::lang::Lang;
use super::facts::Reason;
use super::support::{source_names, support, ClaimFacts, Support};
use crate::answer::cite::{Claim, LabelRef};
use crate::span::Span;

/// A sentence counts as supported by a passage at this blend of term recall (0.7) and
/// embedding similarity (0.3). Chosen so that a paraphrase sharing half its content words
/// with a passage passes and a sentence that only shares the topic does not (see the tests).
pub const SUPPORT_MIN: f32 = 0.45;

/// Support within this distance of [`SUPPORT_MIN`] (without a mismatch on any slot) is left to
/// the chat model as judge where one runs: paraphrases that share few words fall just under,
/// unstated facts worded like their source just over.
pub const UNSURE_BAND: f32 = 0.12;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Citation {
    pub label: String,
    /// Where the quote is: its byte range in the page's extracted text.
    #[serde(flatten)]
    #[cfg_attr(feature = "ts", ts(flatten))]
    pub span: Span,
    pub doc_path: PathBuf,
    pub doc_title: String,
    pub chunk_id: i64,
    pub quote: String,
    pub support: f32,
    /// Other files with the same content as the cited one.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub also_in: Vec<PathBuf>,
    /// Where the quote stands in a document without printed pages (Markdown, HTML, DOCX,
    /// EPUB, text): its heading path, "Defining an Enum › The Option Enum". Such a file is one
    /// "page", so a page number would say nothing.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub section: Option<String>,
    /// Parts marked on their own when the page opens: the table cells a computed answer used
    /// and their columns' titles (byte ranges of the page's text).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub focus: Option<Vec<(usize, usize)>>,
}

impl Citation {
    /// The text at `range` (bytes within the passage) of an evidence passage, cited.
    pub fn of(page: &EvidencePage, passage: &EvidencePassage, range: std::ops::Range<usize>, support: f32) -> Citation {
        Citation {
            label: page.label.clone(),
            span: passage.span.narrowed(range.clone()),
            doc_path: page.doc_path.clone(),
            doc_title: page.doc_title.clone(),
            chunk_id: passage.chunk_id,
            quote: passage.text[range].to_string(),
            support,
            also_in: page.also_in.clone(),
            section: section_label(&page.doc_path, &passage.heading_path),
            focus: None,
        }
    }
}

/// The heading path of a passage in a document without printed pages, joined for people;
/// `None` for PDFs (their page number is the place) and for passages under no heading.
pub fn section_label(doc_path: &std::path::Path, heading_path: &[String]) -> Option<String> {
    let paged = crate::parse::Format::from_path(doc_path) == Some(crate::parse::Format::Pdf);
    (!paged && !heading_path.is_empty()).then(|| heading_path.join(" › "))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum SentenceStatus {
    /// The model's own citation is supported.
    Kept,
    /// The model cited nothing; the supporting passage was attached.
    Attached,
    /// The model cited a passage that does not support the sentence; replaced.
    Replaced,
    /// No passage supports the sentence; it is shown flagged.
    Unsupported,
    /// The model said the documents do not cover the question.
    NotCovered,
    /// A sentence quoted from the evidence itself (extractive answers, and the quotes that
    /// lead an answer whose generated part is not fully supported).
    Quote,
    /// Computed by Pagewise from the cited table cells (re-read and re-computed when checked).
    Computed,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Sentence {
    pub text: String,
    pub status: SentenceStatus,
    pub citations: Vec<Citation>,
    /// Why an unsupported sentence is flagged: what its nearest source says otherwise.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reason: Option<Reason>,
    /// The rules could not settle this sentence (its best support lies near the threshold):
    /// where a chat model runs, it judges.
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub unsure: Option<Unsure>,
}

/// A sentence the rules could not settle: its best source unit, cited if the judge says it is
/// supported.
#[derive(Debug, Clone)]
pub struct Unsure {
    pub citation: Citation,
    pub score: f32,
}

impl Sentence {
    pub fn new(text: String, status: SentenceStatus, citations: Vec<Citation>) -> Sentence {
        Sentence { text, status, citations, reason: None, unsure: None }
    }
}

#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AttributionCounts {
    pub sentences: usize,
    pub kept: usize,
    pub attached: usize,
    pub replaced: usize,
    pub unsupported: usize,
    pub not_covered: usize,
    /// Labels that named no evidence block of this answer; removed from the text.
    pub invalid_labels_dropped: usize,
    /// Sentences the rules could not settle that the chat model judged.
    #[serde(default)]
    pub judged: usize,
}

/// Another answer part's counts added to these.
impl std::ops::AddAssign<&AttributionCounts> for AttributionCounts {
    fn add_assign(&mut self, c: &AttributionCounts) {
        self.sentences += c.sentences;
        self.kept += c.kept;
        self.attached += c.attached;
        self.replaced += c.replaced;
        self.unsupported += c.unsupported;
        self.not_covered += c.not_covered;
        self.invalid_labels_dropped += c.invalid_labels_dropped;
        self.judged += c.judged;
    }
}

/// Claim and passage vectors for the embedding half of the support score; without them the
/// score is term recall alone.
pub struct Vectors<'a> {
    pub claims: Vec<Option<Vec<f32>>>,
    pub passages: &'a HashMap<i64, Vec<f32>>,
}

/// The model's own verdict that the evidence does not answer the question, in any of the
/// languages answers are given in.
pub fn is_not_covered(text: &str) -> bool {
    let lower = text.to_lowercase();
    Lang::all().iter().any(|l| lower.contains(l.not_covered().trim_end_matches(['.', '。']).to_lowercase().as_str()))
        || [
            "not covered", "do not contain", "does not contain", "no information", "not mentioned", "cannot be determined", "not provided",
            "do not cover", "does not cover", "没有涉及", "没有提到", "未提及", "没有相关信息", "无法确定", "没有提供",
        ]
        .iter()
        .any(|p| lower.contains(p))
}

fn citation(page: &EvidencePage, passage: &EvidencePassage, support: &Support) -> Citation {
    Citation::of(page, passage, support.unit.clone(), support.score)
}

/// The best passage of one page for a claim, with its support (and the page's closest near
/// miss in `conflict`).
fn best_on_page<'e>(page: &'e EvidencePage, claim: &ClaimFacts, claim_vec: Option<&Vec<f32>>, vectors: &HashMap<i64, Vec<f32>>) -> (&'e EvidencePassage, Support) {
    let mut best: Option<(&EvidencePassage, Support)> = None;
    let mut near_miss: Option<(f32, Reason)> = None;
    // The title and the file name ("BOEING_2022_10K") say whose document it is.
    let stem = page.doc_path.file_stem().map(|s| s.to_string_lossy().replace(['_', '-'], " ")).unwrap_or_default();
    let context = format!("{} {stem}", page.doc_title);
    for p in &page.passages {
        let s = support(claim, claim_vec, p, &context, vectors.get(&p.chunk_id));
        if let Some((raw, reason)) = s.conflict {
            if near_miss.is_none_or(|(n, _)| raw > n) {
                near_miss = Some((raw, reason));
            }
        }
        if best.as_ref().is_none_or(|(_, b)| s.score > b.score) {
            best = Some((p, s));
        }
    }
    // Pages always hold at least one passage (EvidenceSet builds them that way).
    let (passage, mut support) = best.unwrap_or((&page.passages[0], Support { score: 0.0, unit: 0..0, conflict: None }));
    support.conflict = near_miss;
    (passage, support)
}

/// Checks each claim of an answer to `question` against the evidence (see the module doc).
pub fn attribute(question: &str, claims: &[Claim], evidence: &EvidenceSet, vectors: &Vectors<'_>) -> (Vec<Sentence>, AttributionCounts) {
    let mut counts = AttributionCounts::default();
    let mut out = Vec::with_capacity(claims.len());
    let names = source_names(evidence.pages.iter().flat_map(|p| p.passages.iter().map(|x| x.text.as_str())));
    for (i, claim) in claims.iter().enumerate() {
        counts.sentences += 1;
        let valid: Vec<&LabelRef> = claim.labels.iter().filter(|l| evidence.by_label(l.doc, l.page).is_some()).collect();
        counts.invalid_labels_dropped += claim.labels.len() - valid.len();
        if is_not_covered(&claim.text) {
            counts.not_covered += 1;
            out.push(Sentence::new(claim.text.clone(), SentenceStatus::NotCovered, Vec::new()));
            continue;
        }
        let check = ClaimCheck {
            text: &claim.text,
            facts: ClaimFacts::of(&claim.text).in_reply_to(question, &names),
            claim_vec: vectors.claims.get(i).and_then(|v| v.as_ref()),
            evidence,
            passages: vectors.passages,
        };
        match check.kept(&valid) {
            Some(sentence) => {
                counts.kept += 1;
                out.push(sentence);
            }
            None => out.push(check.elsewhere(!valid.is_empty(), &mut counts)),
        }
    }
    (out, counts)
}

/// One claim against the evidence.
struct ClaimCheck<'a> {
    text: &'a str,
    facts: ClaimFacts,
    claim_vec: Option<&'a Vec<f32>>,
    evidence: &'a EvidenceSet,
    passages: &'a HashMap<i64, Vec<f32>>,
}

impl<'a> ClaimCheck<'a> {
    fn best_on(&self, page: &'a EvidencePage) -> (&'a EvidencePassage, Support) {
        best_on_page(page, &self.facts, self.claim_vec, self.passages)
    }

    /// The sentence with the model's own citations that hold, if any does; one that holds
    /// only just is left for the judge.
    fn kept(&self, valid: &[&LabelRef]) -> Option<Sentence> {
        let mut kept = Vec::new();
        for l in valid {
            if let Some(page) = self.evidence.by_label(l.doc, l.page) {
                let (passage, s) = self.best_on(page);
                if s.score >= SUPPORT_MIN {
                    kept.push(citation(page, passage, &s));
                }
            }
        }
        let best = kept.iter().max_by(|a, b| a.support.total_cmp(&b.support)).cloned()?;
        let mut sentence = Sentence::new(self.text.to_string(), SentenceStatus::Kept, kept);
        if best.support < SUPPORT_MIN + UNSURE_BAND {
            sentence.unsure = Some(Unsure { score: best.support, citation: best });
        }
        Some(sentence)
    }

    /// The best page of all attached (or replacing the model's citations), unless a near
    /// miss elsewhere matches much better; otherwise the sentence flagged with the reason.
    fn elsewhere(&self, model_cited: bool, counts: &mut AttributionCounts) -> Sentence {
        let pages = &self.evidence.pages;
        let best = pages
            .iter()
            .map(|page| (page, self.best_on(page)))
            // On equal support the earlier (better-ranked) page wins.
            .fold(None, |best: Option<(&EvidencePage, (&EvidencePassage, Support))>, candidate| match best {
                Some(b) if b.1 .1.score >= candidate.1 .1.score => Some(b),
                _ => Some(candidate),
            });
        let near_misses: Vec<(f32, Reason)> = pages.iter().filter_map(|page| self.best_on(page).1.conflict).collect();
        // A near miss on another page that matches much better is what the sources say.
        let best_score = best.as_ref().map_or(0.0, |b| b.1 .1.score);
        let contradicted = near_misses.iter().any(|(raw, _)| *raw >= best_score + super::support::CONTRADICTION_MARGIN);
        match best {
            Some((page, (passage, s))) if s.score >= SUPPORT_MIN && !contradicted => {
                let status = if model_cited { SentenceStatus::Replaced } else { SentenceStatus::Attached };
                if model_cited {
                    counts.replaced += 1;
                } else {
                    counts.attached += 1;
                }
                let mut sentence = Sentence::new(self.text.to_string(), status, vec![citation(page, passage, &s)]);
                if s.score < SUPPORT_MIN + UNSURE_BAND {
                    sentence.unsure = Some(Unsure { citation: citation(page, passage, &s), score: s.score });
                }
                sentence
            }
            best => {
                counts.unsupported += 1;
                let mut sentence = Sentence::new(self.text.to_string(), SentenceStatus::Unsupported, Vec::new());
                // The closest near miss over all pages names the reason; without one, nothing
                // states the claim.
                let near_miss = near_misses.into_iter().fold(None, |acc: Option<(f32, Reason)>, c| if acc.is_none_or(|a| c.0 > a.0) { Some(c) } else { acc });
                sentence.reason = Some(near_miss.map_or(Reason::NotStated, |(_, r)| r));
                if let Some((page, (passage, s))) = best {
                    if near_miss.is_none() && s.score >= SUPPORT_MIN - UNSURE_BAND {
                        sentence.unsure = Some(Unsure { citation: citation(page, passage, &s), score: s.score });
                    }
                }
                sentence
            }
        }
    }
}

/// The answer text with normalised labels after each sentence and unsupported sentences
/// marked, so the flag survives copying the text anywhere.
pub fn render(sentences: &[Sentence], lang: Lang) -> String {
    let mut parts = Vec::new();
    for s in sentences {
        let mut text = s.text.clone();
        let mut labels: Vec<&str> = s.citations.iter().map(|c| c.label.as_str()).collect();
        labels.dedup();
        if !labels.is_empty() {
            let joined = labels.iter().map(|l| format!("[{l}]")).collect::<String>();
            text = insert_before_final_punctuation(&text, &joined);
        } else if s.status == SentenceStatus::Unsupported {
            text.push(' ');
            match s.reason.filter(|r| *r != Reason::NotStated) {
                // The mark says what the nearest source says otherwise, in the answer's language.
                Some(reason) if lang == Lang::En => text.push_str(&format!("(not supported: {})", reason.label(lang))),
                Some(reason) if lang == Lang::Zh => text.push_str(&format!("（不符合来源：{}）", reason.label(lang))),
                _ => text.push_str(lang.unsupported_mark()),
            }
        }
        parts.push(text);
    }
    // CJK sentences are not separated by spaces.
    parts.join(if lang == Lang::En { " " } else { "" })
}

fn insert_before_final_punctuation(text: &str, labels: &str) -> String {
    match text.char_indices().last() {
        Some((i, c)) if matches!(c, '.' | '!' | '?') => format!("{} {labels}{}", text[..i].trim_end(), c),
        Some((i, c)) if matches!(c, '。' | '！' | '？' | '；') => format!("{}{labels}{}", text[..i].trim_end(), c),
        _ => format!("{text} {labels}"),
    }
}

/// A sentence kept with its citation of page 1 of one document, for the tests of what is
/// done with checked sentences.
#[cfg(test)]
pub(crate) fn cited_sentence(text: &str) -> Sentence {
    let citation = Citation {
        label: "Doc1_p1".into(),
        span: Span { doc_id: 1, page: 1, byte_start: 0, byte_end: 1 },
        doc_path: "/d/a.pdf".into(),
        doc_title: "A".into(),
        chunk_id: 1,
        quote: text.into(),
        support: 1.0,
        also_in: vec![],
        section: None,
        focus: None,
    };
    Sentence::new(text.into(), SentenceStatus::Kept, vec![citation])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence() -> EvidenceSet {
        let passage = |id: i64, text: &str| EvidencePassage {
            chunk_id: id,
            span: Span { doc_id: 1, page: 1, byte_start: 100, byte_end: 100 + text.len() },
            heading_path: vec![],
            text: text.into(),
            score: 1.0,
        };
        let page = |handle: u32, page: u32, p: EvidencePassage| EvidencePage {
            label: crate::answer::evidence::label(handle, page),
            doc_handle: handle,
            doc_id: handle as i64,
            doc_path: PathBuf::from(format!("/d/{handle}.pdf")),
            doc_title: format!("Report {handle}"),
            page,
            modified: "2024-01-01".into(),
            passages: vec![p],
            score: 1.0,
            also_in: vec![],
            facets: None,
        };
        EvidenceSet {
            pages: vec![
                page(1, 4, passage(10, "Total revenue was $43.5 billion in fiscal 2023. The company has 1,000 stores.")),
                page(2, 9, passage(20, "The board approved a dividend of $0.92 per share in March.")),
            ],
        }
    }

    fn claim(text: &str, labels: &[(u32, u32)]) -> Claim {
        Claim { text: text.into(), labels: labels.iter().map(|&(doc, page)| LabelRef { doc, page }).collect() }
    }

    #[test]
    fn keeps_attaches_replaces_drops_and_flags() {
        let ev = evidence();
        let none = HashMap::new();
        let vectors = Vectors { claims: vec![], passages: &none };
        let claims = vec![
            claim("Total revenue was $43.5 billion in fiscal 2023.", &[(1, 4)]),
            claim("The board approved a dividend of $0.92 per share.", &[]),
            claim("The company has 1,000 stores.", &[(2, 9)]),
            claim("Revenue was $43.5 billion.", &[(7, 1)]),
            claim("The CEO enjoys sailing on weekends.", &[(1, 4)]),
            claim("The documents do not cover this.", &[]),
        ];
        let (sentences, counts) = attribute("", &claims, &ev, &vectors);
        let statuses: Vec<SentenceStatus> = sentences.iter().map(|s| s.status).collect();
        assert_eq!(statuses, [
            SentenceStatus::Kept,
            SentenceStatus::Attached,
            SentenceStatus::Replaced,
            SentenceStatus::Attached,
            SentenceStatus::Unsupported,
            SentenceStatus::NotCovered,
        ]);
        assert_eq!(counts.invalid_labels_dropped, 1, "Doc7_p1 names no evidence");
        assert_eq!(sentences[2].citations[0].label, "Doc1_p4");
        let c = &sentences[0].citations[0];
        assert_eq!(c.quote, "Total revenue was $43.5 billion in fiscal 2023.");
        assert_eq!((c.span.byte_start, c.span.byte_end), (100, 100 + c.quote.len()));
    }

    #[test]
    fn a_wrong_number_is_not_supported() {
        let ev = evidence();
        let none = HashMap::new();
        let vectors = Vectors { claims: vec![], passages: &none };
        let (s, _) = attribute("", &[claim("Total revenue was $51.2 billion in fiscal 2023.", &[(1, 4)])], &ev, &vectors);
        assert_eq!(s[0].status, SentenceStatus::Unsupported);
    }

    #[test]
    fn a_planted_reversal_is_flagged_not_attached() {
        let passage = EvidencePassage {
            chunk_id: 7,
            span: Span { doc_id: 1, page: 2, byte_start: 0, byte_end: 0 },
            heading_path: vec!["Lease".into()],
            text: "The lease for the Mercer Street office was signed by both parties on 3 May 2024. Rent is reviewed every five years.".into(),
            score: 1.0,
        };
        let ev = EvidenceSet {
            pages: vec![EvidencePage {
                label: crate::answer::evidence::label(1, 2),
                doc_handle: 1,
                doc_id: 1,
                doc_path: PathBuf::from("/d/lease.pdf"),
                doc_title: "Office lease".into(),
                page: 2,
                modified: String::new(),
                passages: vec![passage],
                score: 1.0,
                also_in: vec![],
                facets: None,
            }],
        };
        let none = HashMap::new();
        let vectors = Vectors { claims: vec![], passages: &none };
        let claims = [
            claim("The lease for the Mercer Street office was not signed.", &[(1, 2)]),
            claim("The lease for the Mercer Street office was never signed by both parties.", &[]),
            claim("Both parties signed the Mercer Street office lease on 3 May 2024.", &[]),
        ];
        let (s, counts) = attribute("was the office lease signed", &claims, &ev, &vectors);
        for reversed in &s[..2] {
            assert_eq!(reversed.status, SentenceStatus::Unsupported, "{}", reversed.text);
            assert!(reversed.citations.is_empty());
            assert_eq!(reversed.reason, Some(Reason::Negation), "{}", reversed.text);
        }
        assert_eq!(s[2].status, SentenceStatus::Attached);
        assert_eq!(counts.unsupported, 2);
        assert!(render(&s, Lang::En).contains("(not supported: the source says the opposite)"));
    }

    #[test]
    fn rendering_puts_labels_before_the_full_stop_and_flags_unsupported() {
        let ev = evidence();
        let none = HashMap::new();
        let vectors = Vectors { claims: vec![], passages: &none };
        let (s, _) = attribute(
            "",
            &[claim("Total revenue was $43.5 billion in fiscal 2023.", &[]), claim("Pigs can fly.", &[])],
            &ev,
            &vectors,
        );
        assert_eq!(render(&s, Lang::En), "Total revenue was $43.5 billion in fiscal 2023 [Doc1_p4]. Pigs can fly. (not supported by the sources)");
    }
}
