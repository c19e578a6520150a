//! The two decisions of asking: before drafting, whether the gathered evidence may answer at
//! all ([`Verdict`]); after it, what of the checked draft is shown ([`Checked`]): the model's
//! sentences, the source sentences instead, or nothing but the nearest passages.

use super::abstain::{self, RetrievalSignals};
use super::asker::Asker;
use super::asked;
use super::asked_names;
use super::attribute::{Citation, Sentence, SentenceStatus};
use super::evidence::EvidenceSet;
use super::identifiers;
use super::facts::Reason;
use super::judge;
use super::notice::{Abstention, Notice};
use super::repeat;

/// Whether the gathered evidence may answer the question.
#[derive(Debug, PartialEq)]
pub(super) enum Verdict {
    Answerable,
    /// The library does not state the asked fact: why.
    Abstain(Abstention),
}

/// What is shown of a checked draft.
#[derive(Debug)]
pub(super) enum Checked {
    /// The sources name the subject but not the asked fact: the nearest passages, nothing else.
    Abstained { why: Abstention, near_miss: Option<Reason> },
    /// The evidence sentences that best match the question (and after them any model
    /// sentences no source supports), with why they stand in for the model's answer.
    Quoted { sentences: Vec<Sentence>, note: Notice },
    /// The model's sentences, checked.
    Generated { sentences: Vec<Sentence>, note: Option<Notice> },
    /// Sentences Pagewise computed from cited cells, checked by re-reading and re-computing.
    Computed { sentences: Vec<Sentence> },
}

impl Checked {
    pub(super) fn abstained(why: Abstention) -> Checked {
        Checked::Abstained { why, near_miss: None }
    }

    /// What the answer says about itself when this is shown.
    pub(super) fn notice(&self) -> Option<Notice> {
        match self {
            Checked::Abstained { why, near_miss } => Some(Notice::Abstained { why: why.clone(), near_miss: *near_miss }),
            Checked::Quoted { note, .. } => Some(note.clone()),
            Checked::Generated { note, .. } => note.clone(),
            Checked::Computed { .. } => Some(Notice::Computed),
        }
    }
}

impl Asker<'_> {
    /// Before drafting: no evidence, weak retrieval (the abstain rule), or evidence only of
    /// other periods than the one asked about.
    pub(super) fn verdict(&self, query: &str, evidence: &EvidenceSet, signals: &RetrievalSignals) -> Verdict {
        if evidence.is_empty() || self.abstains(signals) {
            return Verdict::Abstain(Abstention::NoPassage);
        }
        if self.options.never_abstain {
            return Verdict::Answerable;
        }
        if let Some(period) = asked::missing_period(query, evidence) {
            return Verdict::Abstain(Abstention::OtherPeriods { period: period.to_string() });
        }
        match identifiers::unmentioned_identifier(query, evidence).or_else(|| identifiers::unmentioned_owner(query, evidence)) {
            Some(name) => Verdict::Abstain(Abstention::NotMentioned { name }),
            None => Verdict::Answerable,
        }
    }

    /// The model as a judge: does the evidence state the answer? Its prompt shares the
    /// evidence with the answer prompt, so this costs a few tokens; it is asked only when the
    /// abstain rule uses it (or an evaluation records it). `signals` gets its yes-probability.
    pub(super) fn judged(&self, query: &str, evidence: &EvidenceSet, signals: &mut RetrievalSignals) -> Verdict {
        let wants_judge = self.options.thresholds.min_model_yes.is_some() || self.options.record_judge;
        if let (Some(generator), true) = (self.generator, wants_judge) {
            signals.model_yes = judge::evidence_answers(generator, query, evidence);
        }
        if signals.model_yes.is_some() && self.abstains(signals) {
            return Verdict::Abstain(Abstention::ModelJudged);
        }
        Verdict::Answerable
    }

    fn abstains(&self, signals: &RetrievalSignals) -> bool {
        !self.options.never_abstain && abstain::should_abstain(signals, &self.options.thresholds)
    }
}

/// What of the model's checked sentences is shown, given the question and the evidence
/// sentences that best match it (`quotes`).
pub(super) fn settle(question: &str, sentences: Vec<Sentence>, quotes: Vec<Sentence>, evidence: &EvidenceSet, never_abstain: bool) -> Checked {
    let sentences = without_repeats(sentences);
    let supported = sentences.iter().filter(|s| !s.citations.is_empty()).count();
    let said_not_covered = sentences.iter().any(|s| s.status == SentenceStatus::NotCovered);
    // The sources may name the subject and still not state the asked fact: the supported
    // sentences give figures of another kind than asked (a percentage for an amount) or no
    // value at all but the question's own (a count answered by a description, "who" answered
    // by the name the question gives), or only
    // other periods than the one asked about (2025's meeting for "the 2026 AGM"). Then the
    // answer says so and shows the nearest passages, nothing else. An answer with nothing
    // supported is not abstained on here: measured on the sample and the Chinese articles,
    // the model says "not covered" of answerable questions about as often as of near misses
    // (README.md, "Abstaining"), so the source sentences are shown instead.
    let wrong_kind = asked::wanted(question).is_some_and(|w| {
        supported > 0 && (asked::gives_other_kind(w, &sentences) || asked::lacks_asked_value(question, w, &sentences))
    }) || (supported > 0 && asked::names_only_the_asked(question, &sentences));
    let wrong_period = supported > 0 && asked::gives_other_period(question, &sentences);
    // A source that quotes the question ("users ask “…”") has not answered it.
    let only_quoted = supported > 0
        && sentences.iter().filter(|s| !s.citations.is_empty()).all(|s| {
            asked::quotes_the_question(question, &s.text) || s.citations.iter().all(|c| asked::quotes_the_question(question, &c.quote))
        });
    if !never_abstain && only_quoted {
        return Checked::abstained(Abstention::NothingStated);
    }
    if !never_abstain && (wrong_kind || wrong_period) {
        let why = if wrong_kind { Abstention::OtherKind } else { Abstention::CheckedOtherPeriods };
        return Checked::Abstained { why, near_miss: sentences.iter().find_map(|s| s.reason) };
    }
    // The model's own "not covered" is not taken as abstaining: measured, small models say it
    // as often of questions the passages answer as of ones they do not (README.md,
    // "Abstaining"). Retrieval has already judged that the library is not silent, so the best
    // source sentences are shown instead, and the note says what the model said, unless those
    // sentences do not state the asked slots either (no value of the asked kind, or not the
    // asked period): then nothing in the sources answers.
    if supported == 0 && !never_abstain && !asked::quotes_answer(question, &quotes) {
        return Checked::abstained(Abstention::NothingStated);
    }
    // The question names things the evidence writes as names ("harwood and lyle", "redis"):
    // what is shown must be about one of them (the sentence, its document's title or its
    // section names it). Figures about another site, product or person answer another question.
    // Each name the question gives is named by one of them ("harwood and lyle": both).
    let names = asked_names::asked_names(question, evidence);
    if !never_abstain && !names.is_empty() {
        let answering: Vec<&Sentence> = if supported > 0 {
            sentences.iter().filter(|s| !s.citations.is_empty()).collect()
        } else {
            quotes.iter().filter(|q| asked::quotes_answer(question, std::slice::from_ref(*q))).collect()
        };
        // A source sentence names a thing itself; the model's sentence only by what it cites:
        // "the riverside club pays 14 pence per kWh", citing the school's price, is no answer.
        let mut named: Vec<&str> = Vec::new();
        for s in answering {
            if supported == 0 {
                named.extend(names.named_by(&s.text));
            }
            named.extend(names.named_by(&quote_context(s, evidence)));
        }
        if names.words.iter().any(|w| !named.contains(&w.as_str())) {
            return Checked::abstained(Abstention::OtherSubject { name: names.phrase });
        }
    }
    if supported == 0 {
        let model_said = sentences.into_iter().filter(|s| s.status == SentenceStatus::Unsupported);
        let note = if said_not_covered { Notice::ModelFoundNothing } else { Notice::NothingMatched };
        return Checked::Quoted { sentences: quotes.into_iter().chain(model_said).collect(), note };
    }
    let mut shown: Vec<Sentence> = sentences.into_iter().filter(|s| s.status != SentenceStatus::NotCovered).collect();
    if !shown.iter().any(|s| s.status == SentenceStatus::Unsupported) {
        return Checked::Generated { sentences: shown, note: None };
    }
    // Lead with what the sources say; the model's checked sentences follow, and the unchecked
    // ones come last, marked.
    shown.sort_by_key(|s| s.status == SentenceStatus::Unsupported);
    let ordered = without_repeats(quotes.into_iter().chain(shown).collect());
    Checked::Generated { sentences: ordered, note: Some(Notice::SourcesFirst) }
}

/// What a sentence's place says about it: the titles, file names and organisations of the
/// documents it cites, the section headings of the passages it cites and the text leading up
/// to it there. A passage about one thing need not repeat its name in each sentence ("准确率从
/// 64% 提到 91%" after a sentence about a risk agent).
fn quote_context(quote: &Sentence, evidence: &EvidenceSet) -> String {
    let mut context = String::new();
    for c in &quote.citations {
        context.push_str(&c.doc_title);
        context.push('\n');
        // Filings are titled "UNITED STATES" (their cover page); the company is the document's
        // organisation and in its file name.
        context.push_str(&c.doc_path.file_name().map(|n| n.to_string_lossy().replace(['_', '-'], " ")).unwrap_or_default());
        context.push('\n');
        for page in evidence.pages.iter().filter(|page| page.passages.iter().any(|p| p.chunk_id == c.chunk_id)) {
            if let Some(facets) = &page.facets {
                context.push_str(facets.organisation.as_deref().unwrap_or_default());
                context.push('\n');
                context.push_str(&facets.aliases.join("\n"));
                context.push('\n');
            }
            for p in page.passages.iter().filter(|p| p.chunk_id == c.chunk_id) {
                context.push_str(&p.heading_path.join("\n"));
                context.push('\n');
                context.push_str(lead_up(p, c));
                context.push('\n');
            }
        }
    }
    context
}

/// The cited text with what comes just before it in the passage (about two sentences): where
/// a passage names what it is about ("风控 Agent 换成 RAG 以后…"), not what the rest of a long
/// passage goes on to.
fn lead_up<'a>(passage: &'a super::evidence::EvidencePassage, citation: &Citation) -> &'a str {
    const BEFORE: usize = 300;
    let text = passage.text.as_str();
    let Some(end) = citation.span.byte_end.checked_sub(passage.span.byte_start) else { return "" };
    let end = floor_boundary(text, end.min(text.len()));
    let start = floor_boundary(text, end.saturating_sub(citation.span.byte_end - citation.span.byte_start.min(citation.span.byte_end)).saturating_sub(BEFORE));
    &text[start..end]
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Each sentence once: a later sentence that repeats an earlier one is dropped.
fn without_repeats(sentences: Vec<Sentence>) -> Vec<Sentence> {
    let mut out: Vec<Sentence> = Vec::with_capacity(sentences.len());
    for s in sentences {
        if !out.iter().any(|o| repeat::repeats(&o.text, &s.text)) {
            out.push(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cited(text: &str) -> Sentence {
        crate::answer::attribute::cited_sentence(text)
    }

    fn flagged(text: &str, reason: Option<Reason>) -> Sentence {
        Sentence { reason, ..Sentence::new(text.into(), SentenceStatus::Unsupported, Vec::new()) }
    }

    fn texts(sentences: &[Sentence]) -> Vec<&str> {
        sentences.iter().map(|s| s.text.as_str()).collect()
    }

    #[test]
    fn supported_sentences_are_shown_once_and_unchecked_ones_after_the_sources() {
        let quote = cited("Capital expenditure was $471 million in 2023.");
        let model = vec![cited("Capital spending was $471 million."), cited("Capital spending was $471 million.")];
        match settle("what was capital expenditure in 2023", model, vec![quote.clone()], &EvidenceSet::default(), false) {
            Checked::Generated { sentences, note: None } => assert_eq!(texts(&sentences), vec!["Capital spending was $471 million."]),
            other => panic!("{other:?}"),
        }
        let mixed = vec![flagged("It was approved by the board.", None), cited("Capital spending was $471 million.")];
        match settle("what was capital expenditure in 2023", mixed, vec![quote], &EvidenceSet::default(), false) {
            Checked::Generated { sentences, note: Some(note) } => {
                assert_eq!(
                    texts(&sentences),
                    vec!["Capital expenditure was $471 million in 2023.", "Capital spending was $471 million.", "It was approved by the board."]
                );
                assert_eq!(note, Notice::SourcesFirst);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_percentage_for_an_amount_abstains_with_the_near_miss_unless_told_never_to() {
        let question = "What was capital expenditure in 2023, in USD millions?";
        let model = vec![cited("About 38% of capital spending was in the United States."), flagged("It rose.", Some(Reason::Direction))];
        match settle(question, model.clone(), Vec::new(), &EvidenceSet::default(), false) {
            Checked::Abstained { why, near_miss } => {
                assert_eq!(why, Abstention::OtherKind);
                assert_eq!(near_miss, Some(Reason::Direction));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(settle(question, model, Vec::new(), &EvidenceSet::default(), true), Checked::Generated { .. }));
    }

    #[test]
    fn an_answer_that_repeats_the_question_abstains() {
        // "Who chaired it before Helen Marsh?" answered with Helen Marsh; "how many panels"
        // answered with a description.
        for (question, answer) in [
            ("who chaired the coop board before helen marsh?", "Helen Marsh has chaired the board since 2019."),
            ("how many solar panels does the coop own altogether?", "The cooperative owns community solar installations on schools and farm buildings."),
        ] {
            match settle(question, vec![cited(answer)], Vec::new(), &EvidenceSet::default(), false) {
                Checked::Abstained { why, .. } => assert_eq!(why, Abstention::OtherKind, "{question}"),
                other => panic!("{question}: {other:?}"),
            }
        }
        let answered = settle("who chairs the coop board?", vec![cited("Helen Marsh has chaired the board since 2019.")], Vec::new(), &EvidenceSet::default(), false);
        assert!(matches!(answered, Checked::Generated { note: None, .. }), "{answered:?}");
    }

    /// One page, one passage starting at byte 0 of the page.
    fn evidence_of(text: &str) -> EvidenceSet {
        use crate::answer::evidence::{EvidencePage, EvidencePassage};
        use crate::span::Span;
        let passage = EvidencePassage { chunk_id: 1, span: Span { doc_id: 1, page: 1, byte_start: 0, byte_end: text.len() }, heading_path: vec![], text: text.into(), score: 1.0 };
        EvidenceSet {
            pages: vec![EvidencePage {
                label: "Doc1_p1".into(),
                doc_handle: 1,
                doc_id: 1,
                doc_path: "/d/report.pdf".into(),
                doc_title: "Annual report".into(),
                page: 1,
                modified: String::new(),
                passages: vec![passage],
                score: 1.0,
                also_in: vec![],
                facets: None,
            }],
        }
    }

    /// The model's sentence, citing `quote` of `passage`.
    fn citing(text: &str, passage: &str, quote: &str) -> Sentence {
        let mut s = cited(text);
        let start = passage.find(quote).unwrap();
        s.citations[0].span.byte_start = start;
        s.citations[0].span.byte_end = start + quote.len();
        s.citations[0].quote = quote.into();
        s
    }

    #[test]
    fn an_answer_must_be_about_what_the_question_names() {
        let passage = "The largest new array is on Fenwick Primary School. The school buys its power at 14 pence per kWh. \
            Elsewhere, an outage lasted eleven days at the Riverside bowls club after a faulty isolator was found.";
        let evidence = evidence_of(passage);
        let question = "what does the riverside bowls club pay per unit";
        // The model names the club; the passage it cites before the price does not.
        let model = vec![citing("The Riverside bowls club pays 14 pence per kWh.", passage, "The school buys its power at 14 pence per kWh.")];
        match settle(question, model, Vec::new(), &evidence, false) {
            Checked::Abstained { why: Abstention::OtherSubject { name }, .. } => assert_eq!(name, "riverside"),
            other => panic!("{other:?}"),
        }
        let school = vec![citing("Fenwick Primary School pays 14 pence per kWh.", passage, "The school buys its power at 14 pence per kWh.")];
        assert!(matches!(settle("what does the fenwick school pay per unit", school, Vec::new(), &evidence, false), Checked::Generated { .. }));
        // Source sentences shown in place of an answer name it themselves, with a figure of the asked kind.
        let quote = |text: &str| Sentence::new(text.into(), SentenceStatus::Quote, citing(text, passage, text).citations);
        let said = vec![flagged("The club pays a fixed price.", None)];
        let quotes = vec![quote("The school buys its power at 14 pence per kWh.")];
        assert!(matches!(settle(question, said.clone(), quotes, &evidence, false), Checked::Abstained { why: Abstention::OtherSubject { .. }, .. }));
        assert!(matches!(settle(question, said, Vec::new(), &evidence, true), Checked::Quoted { .. } | Checked::Generated { .. }), "unless told never to abstain");
    }

    #[test]
    fn nothing_supported_shows_the_quotes_when_they_answer_and_abstains_when_they_do_not() {
        let question = "how many members does the cooperative have";
        let model = vec![flagged("The cooperative has many members.", None)];
        let answering = vec![cited("The cooperative had 1,240 members at the end of 2024.")];
        match settle(question, model.clone(), answering, &EvidenceSet::default(), false) {
            Checked::Quoted { sentences, note } => {
                assert_eq!(texts(&sentences), vec!["The cooperative had 1,240 members at the end of 2024.", "The cooperative has many members."]);
                assert_eq!(note, Notice::NothingMatched);
            }
            other => panic!("{other:?}"),
        }
        let silent = vec![cited("The cooperative was founded by residents of the valley.")];
        assert!(matches!(settle(question, model, silent, &EvidenceSet::default(), false), Checked::Abstained { why: Abstention::NothingStated, near_miss: None }));
    }
}
