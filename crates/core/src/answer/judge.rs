//! The chat model as a judge, where one runs: "do these passages state the answer?" and "is
//! this sentence stated in the passages?", each read off one forward pass as the probability
//! of yes against no. Both prompts extend the answer prompt, whose evidence is already in the
//! model's KV cache, so a judgement costs the few tokens of its own question.

use super::evidence::EvidenceSet;
use super::generator::{ChatMessage, Generator};
use crate::lang::Lang;
use super::prompt::{self, answer_messages, fill};

const CLAIM_CHECK_EN: &str = include_str!("../../prompts/claim_check_en.txt");
const CLAIM_CHECK_ZH: &str = include_str!("../../prompts/claim_check_zh.txt");

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
