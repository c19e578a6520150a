//! The chat model as a judge, where one runs: "do these passages state the answer?" and "is
//! this sentence stated in the passages?", each read off one forward pass as the probability
//! of yes against no. Both prompts extend the answer prompt, whose evidence is already in the
//! model's KV cache, so a judgement costs the few tokens of its own question.

use super::attribute::{Sentence, SentenceStatus};
use super::evidence::EvidenceSet;
use super::notice::{Abstention, Notice};
use super::verdict::Checked;
use super::generator::{ChatMessage, Generator};
use crate::lang::Lang;
use super::prompt::{self, answer_messages, fill};

const CLAIM_CHECK_EN: &str = include_str!("../../prompts/claim_check_en.txt");
const CLAIM_CHECK_ZH: &str = include_str!("../../prompts/claim_check_zh.txt");
const QUOTE_CHECK: &str = include_str!("../../prompts/quote_check_en.txt");

/// The words for yes and for no in the question's language (two spellings each).
fn yes_no(lang: Lang) -> ([&'static str; 2], [&'static str; 2]) {
    match lang {
        Lang::Zh | Lang::Ja => (["是", "是的"], ["否", "不"]),
        Lang::En | Lang::Ko => (["Yes", "yes"], ["No", "no"]),
    }
}

/// P(yes) / (P(yes) + P(no)) for the model's first token after `messages`.
pub fn yes_probability(generator: &dyn Generator, messages: &[ChatMessage], lang: Lang) -> Option<f32> {
    let (yes, no) = yes_no(lang);
    let prompt = generator.render(messages).ok()?;
    let mass = |words: [&str; 2]| -> Option<f32> {
        let mut total = 0.0f32;
        for w in words {
            total += generator.continuation_logprob(&prompt, w).ok()?.exp();
        }
        Some(total)
    };
    let (y, n) = (mass(yes)?, mass(no)?);
    (y + n > 0.0).then(|| y / (y + n))
}

/// The model's probability that the evidence states the answer to `question`.
pub fn evidence_answers(generator: &dyn Generator, question: &str, evidence: &EvidenceSet) -> Option<f32> {
    let (messages, _, _) = prompt::judge_messages(question, evidence);
    yes_probability(generator, &messages, Lang::of(question))
}

/// The model's probability that the evidence states `claim` (a sentence of an answer to
/// `question`).
pub fn claim_supported(generator: &dyn Generator, question: &str, evidence: &EvidenceSet, claim: &str) -> Option<f32> {
    let lang = Lang::of(question);
    let template = if matches!(lang, Lang::Zh | Lang::Ja) { CLAIM_CHECK_ZH } else { CLAIM_CHECK_EN };
    let mut messages = answer_messages(question, evidence);
    if let Some(user) = messages.last_mut() {
        user.content.push_str(fill(template, &[("claim", claim.trim())]).trim_end());
    }
    yes_probability(generator, &messages, lang)
}

/// The model's probability that `quote`, a sentence of the evidence, answers `question`:
/// whether it gives what is asked, not only whether it is stated (a quote always is). Asked in
/// English whatever the question's language: asked in Chinese, the default model said 是 with
/// probability ≥ 0.85 to every sentence, answer or not (README.md, "Abstaining").
pub fn quote_answers(generator: &dyn Generator, question: &str, evidence: &EvidenceSet, quote: &str) -> Option<f32> {
    let mut messages = answer_messages(question, evidence);
    if let Some(user) = messages.last_mut() {
        user.content.push_str(fill(QUOTE_CHECK, &[("quote", quote.trim())]).trim_end());
    }
    yes_probability(generator, &messages, Lang::En)
}

/// Below this yes for every source sentence put to it, the model's "not covered" stands: the
/// answer abstains. Chosen over five libraries (sample folder, Chinese articles, dev filings,
/// the Node.js and PostgreSQL manuals) as the highest value under which no right answer fell;
/// the lowest right answer's best yes was 0.44 (README.md, "Abstaining").
pub const QUOTE_YES_FLOOR: f32 = 0.42;

/// Source sentences put to the model as judge when it found no answer in the passages, and
/// how many of them are shown.
const JUDGED_QUOTES: usize = 6;
const SHOWN_QUOTES: usize = 3;

/// The model found no answer in the passages (`shown` holds the rules' best source sentences
/// and its own unsupported ones), yet it may recognise one when shown a single sentence: each
/// of the best-matching source sentences is put to it (the evidence is in its cache, so each
/// costs the sentence's tokens) and they are shown in the order of its yes. When it says no to
/// all of them, its "not covered" stands and the answer abstains: the sources name the subject
/// (retrieval found them) but not the asked fact.
pub(super) fn judged_quotes(generator: &dyn Generator, question: &str, evidence: &EvidenceSet, shown: Vec<Sentence>, never_abstain: bool) -> Checked {
    let unjudged = |sentences| Checked::Quoted { sentences, note: Notice::ModelFoundNothing };
    let candidates = super::extractive::ranked_quotes(question, evidence, JUDGED_QUOTES, false);
    let mut judged: Vec<(f32, Sentence)> = candidates
        .into_iter()
        .filter_map(|q| quote_answers(generator, question, evidence, &q.text).map(|yes| (yes, q)))
        .collect();
    if judged.is_empty() {
        return unjudged(shown);
    }
    judged.sort_by(|a, b| b.0.total_cmp(&a.0));
    if judged[0].0 < QUOTE_YES_FLOOR && !never_abstain {
        return Checked::abstained(Abstention::ModelJudged);
    }
    let model_said = shown.into_iter().filter(|s| s.status == SentenceStatus::Unsupported);
    let quotes = judged.into_iter().take(SHOWN_QUOTES).map(|(_, q)| q);
    unjudged(quotes.chain(model_said).collect())
}

/// The judge's probability of "yes" at or above which a sentence the rules left unsure is
/// taken as supported.
pub const JUDGE_YES: f32 = 0.5;

/// Settles the sentences the rules left unsure (their support lies near the threshold and no
/// slot disagrees) by asking the model whether the evidence states each one. A yes attaches
/// the sentence's best source; a no flags it as not stated. Returns how many were judged.
pub fn settle_unsure(
    generator: &dyn Generator,
    question: &str,
    evidence: &EvidenceSet,
    sentences: &mut [super::attribute::Sentence],
    counts: &mut super::attribute::AttributionCounts,
) -> usize {
    use super::attribute::SentenceStatus;
    use super::facts::Reason;
    let mut judged = 0;
    for s in sentences.iter_mut() {
        let Some(unsure) = s.unsure.take() else { continue };
        let Some(yes) = claim_supported(generator, question, evidence, &s.text) else { continue };
        judged += 1;
        let supported = yes >= JUDGE_YES;
        match (s.status, supported) {
            (SentenceStatus::Unsupported, true) => {
                s.status = SentenceStatus::Attached;
                s.citations = vec![unsure.citation];
                s.reason = None;
                counts.unsupported -= 1;
                counts.attached += 1;
            }
            (SentenceStatus::Kept | SentenceStatus::Attached | SentenceStatus::Replaced, false) => {
                match s.status {
                    SentenceStatus::Kept => counts.kept -= 1,
                    SentenceStatus::Attached => counts.attached -= 1,
                    _ => counts.replaced -= 1,
                }
                s.status = SentenceStatus::Unsupported;
                s.citations.clear();
                s.reason = Some(Reason::NotStated);
                counts.unsupported += 1;
            }
            _ => {}
        }
    }
    counts.judged += judged;
    judged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::evidence::{EvidencePage, EvidencePassage};
    use crate::answer::generator::{GenerationRequest, ModelInfo, Prompt, TokenStream};

    /// A judge that says yes to the sentence holding `answer` with probability `yes`, and no
    /// with probability 0.8 to every other sentence. Stands in for the chat model so that what
    /// is done with its yes can be tested; the real model is tested in the CLI's trust tests.
    struct ScriptedJudge {
        info: ModelInfo,
        answer: &'static str,
        yes: f32,
    }

    impl Generator for ScriptedJudge {
        fn info(&self) -> &ModelInfo {
            &self.info
        }
        fn render(&self, messages: &[ChatMessage]) -> crate::error::Result<Prompt> {
            Ok(Prompt::plain(messages.iter().map(|m| m.content.as_str()).collect::<Vec<_>>().join("\n")))
        }
        fn count_tokens(&self, text: &str) -> crate::error::Result<usize> {
            Ok(text.len() / 4)
        }
        fn stream(&self, _request: GenerationRequest) -> crate::error::Result<TokenStream> {
            unreachable!("the judge only scores")
        }
        fn continuation_logprob(&self, prompt: &Prompt, continuation: &str) -> crate::error::Result<f32> {
            let text = &prompt.parts[0].text;
            let asked = text.rsplit("Sentence from the passages:").next().unwrap_or_default();
            let yes = if asked.contains(self.answer) { self.yes } else { 0.2 };
            let p = if continuation.eq_ignore_ascii_case("yes") { yes } else { 1.0 - yes };
            // Two spellings of each word share the probability.
            Ok((p / 2.0).ln())
        }
    }

    fn evidence() -> EvidenceSet {
        let text = "The cooperative runs panels on the roofs of schools across the valley. The board meets on the first Monday of each month in the town hall. The school pays 14 pence per kWh for the power it uses from the panels on its roof.";
        let page = EvidencePage {
            label: "Doc1_p1".into(),
            doc_handle: 1,
            doc_id: 1,
            doc_path: "/library/report.md".into(),
            doc_title: "Report".into(),
            page: 1,
            modified: "2024-03-02".into(),
            passages: text
                .split_inclusive(". ")
                .enumerate()
                .map(|(i, t)| EvidencePassage {
                    chunk_id: i as i64 + 1,
                    span: crate::span::Span { doc_id: 1, page: 1, byte_start: 0, byte_end: t.len() },
                    heading_path: vec![],
                    text: t.trim().into(),
                    score: 0.5,
                })
                .collect(),
            score: 0.5,
            also_in: vec![],
            facets: None,
        };
        EvidenceSet { pages: vec![page] }
    }

    fn judge(answer: &'static str, yes: f32) -> ScriptedJudge {
        ScriptedJudge { info: ModelInfo { name: "judge".into(), path: "".into(), has_chat_template: true, context_tokens: 4096 }, answer, yes }
    }

    #[test]
    fn the_sentence_the_model_says_answers_is_shown_first() {
        let evidence = evidence();
        let question = "what does the school pay for the panels on its roof";
        // The rules rank the price first; the model's order wins.
        assert!(super::super::extractive::extractive_sentences(question, &evidence)[0].text.contains("14 pence"));
        let Checked::Quoted { sentences, note } = judged_quotes(&judge("roofs of schools", 0.9), question, &evidence, Vec::new(), false) else {
            panic!("a sentence the model says answers is shown");
        };
        assert_eq!(note, Notice::ModelFoundNothing);
        assert!(sentences[0].text.contains("roofs of schools"), "{:?}", sentences.iter().map(|s| &s.text).collect::<Vec<_>>());
        assert!(sentences.len() <= SHOWN_QUOTES);
    }

    #[test]
    fn the_answer_abstains_when_the_model_says_no_to_every_sentence() {
        let evidence = evidence();
        let question = "what does the school pay for the panels on its roof";
        let judged = judged_quotes(&judge("14 pence", QUOTE_YES_FLOOR - 0.05), question, &evidence, Vec::new(), false);
        assert!(matches!(judged, Checked::Abstained { why: Abstention::ModelJudged, .. }), "{judged:?}");
        // Unless the user asked never to abstain: then the sentences are still shown.
        let shown = judged_quotes(&judge("14 pence", QUOTE_YES_FLOOR - 0.05), question, &evidence, Vec::new(), true);
        assert!(matches!(shown, Checked::Quoted { .. }), "{shown:?}");
    }
}
