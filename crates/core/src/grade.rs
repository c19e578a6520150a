//! Whether an answer is right: the gold figure or name stands in a sentence of the answer that
//! carries a citation. Numbers match within 1% after scale words and units ("$1.58 billion"
//! states "$1,577 million"); names and phrases match once case, punctuation and spacing are
//! set aside. Model wording never matters, so the same grade holds on any CPU.

use std::collections::HashSet;

use crate::answer::attribute::Sentence;
use crate::answer::numbers::{quantities, same_amount};
use crate::text::{content_terms, term_recall};
use crate::answer::Answer;

/// Relative difference under which two amounts are the same figure.
pub const NUMBER_TOLERANCE: f64 = 0.01;

/// Letters and digits only, lower-cased: "2.4-metre" and "2.4 metre" compare equal.
fn squash(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Spelling variants that mean the same unit.
fn unify_units(text: &str) -> String {
    let lower = text.to_lowercase();
    lower.replace("meters", "metres").replace("meter", "metre").replace("litres", "liters").replace("litre", "liter")
}

/// The gold's figures that identify the answer: all of them when there are few, otherwise the
/// first (long reference answers restate the question's own numbers after the figure).
fn gold_figures(gold: &str) -> Vec<crate::answer::numbers::Quantity> {
    let figures: Vec<_> = quantities(gold).into_iter().filter(|q| !q.year_like).collect();
    if figures.len() <= 3 { figures } else { figures.into_iter().take(1).collect() }
}

/// Whether `text` states `gold`.
pub fn states(text: &str, gold: &str) -> bool {
    let figures = gold_figures(gold);
    if !figures.is_empty() {
        let found = quantities(text);
        return figures.iter().all(|g| found.iter().any(|f| same_amount(g, f, NUMBER_TOLERANCE)));
    }
    let (g, t) = (squash(&unify_units(gold)), squash(&unify_units(text)));
    if g.is_empty() {
        return false;
    }
    if t.contains(&g) {
        return true;
    }
    // A long reference answer: most of its content words must be there.
    let gold_terms = content_terms(gold);
    if gold_terms.len() >= 6 {
        let terms: HashSet<String> = content_terms(text).into_iter().collect();
        return term_recall(&gold_terms, &terms) >= 0.6;
    }
    false
}

/// The sentences of an answer that carry a citation (what it asserts with support).
pub fn supported_text(sentences: &[Sentence]) -> String {
    sentences.iter().filter(|s| !s.citations.is_empty()).map(|s| s.text.as_str()).collect::<Vec<_>>().join(" ")
}

/// The gold read in the scale its question asks for: "$5409.00" answers "… Answer in USD
/// millions" as $5,409 million. `None` when the question names no scale, or the gold has one
/// already or more than one figure.
fn gold_in_asked_scale(question: &str, gold: &str) -> Option<String> {
    static SCALE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let asked = crate::text::cached_regex(&SCALE, r"(?i)\bin (?:usd |us\$ ?|\$ ?)?(thousands|millions|billions)\b|\b(?:usd|us\$) ?(thousands|millions|billions)\b")
        .captures(question)?;
    let unit = asked.get(1).or(asked.get(2))?.as_str().trim_end_matches('s');
    let lower = gold.to_lowercase();
    let scaled = ["thousand", "million", "billion", "bn", "mn", "%", "percent"].iter().any(|w| lower.contains(w));
    (!scaled && gold_figures(gold).len() == 1).then(|| format!("{} {unit}", gold.trim()))
}

/// An answer is correct when it did not abstain and its supported sentences state the gold
/// (as written, or in the scale its question asks for).
pub fn is_correct(answer: &Answer, gold: &str) -> bool {
    let text = supported_text(&answer.sentences);
    !answer.abstained && (states(&text, gold) || gold_in_asked_scale(&answer.question, gold).is_some_and(|g| states(&text, &g)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_match_within_one_percent_after_units() {
        assert!(states("The telescope has a 2.4-meter mirror.", "2.4 metre"));
        assert!(states("Capex was $1.58 billion in FY2018.", "$1577.00 million"));
        assert!(states("North Valley has 1,420 kW installed.", "1,420 kW"));
        assert!(!states("North Valley has 5,000 kW installed.", "1,420 kW"));
        assert!(states("错误率从38%降到了1.2%。", "从38%降到1.2%"));
        assert!(!states("错误率降到了1.2%。", "从38%降到1.2%"), "both figures of a short gold must be there");
    }

    #[test]
    fn a_gold_figure_reads_in_the_scale_its_question_asks_for() {
        let question = "What is the year end FY2019 total amount of inventories? Answer in USD millions.";
        let gold = gold_in_asked_scale(question, "$5409.00").unwrap();
        assert!(states("Inventories for 2019: $5,409 million.", &gold));
        assert!(!states("Inventories for 2019: $5,409 thousand.", &gold));
        assert_eq!(gold_in_asked_scale("What is capex in 2021?", "$4.60"), None);
        assert_eq!(gold_in_asked_scale(question, "$4.6 billion"), None, "the gold names its scale");
    }

    #[test]
    fn names_match_without_case_or_spacing() {
        assert!(states("The buddy is assigned by Maria Okafor.", "maria okafor"));
        assert!(states("推荐使用 bge-reranker-v2-m3 方案。", "bge-reranker-v2-m3"));
        assert!(!states("The buddy is assigned by the lead.", "Maria Okafor"));
    }
}
