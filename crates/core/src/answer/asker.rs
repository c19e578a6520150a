//! Who asks: the options a question is asked with and the reader and model it is asked of.
//! The stages of asking (`gather`, `verdict`, `draft`, and the line in `ask`) are its methods.

use std::path::PathBuf;

use super::abstain::AbstainThresholds;
use super::generator::Generator;
use crate::engine::Reader;

#[derive(Debug, Clone)]
pub struct AskOptions {
    pub scope: Vec<PathBuf>,
    /// Passages retrieved per search.
    pub k: usize,
    /// Tokens of evidence in the prompt; `None` follows the model (see [`evidence_budget`]).
    /// Prompt processing on a laptop CPU runs at a few hundred tokens/s, so this decides the
    /// time to first token.
    pub evidence_tokens: Option<usize>,
    pub max_answer_tokens: usize,
    /// Constrain decoding with a grammar that only admits this answer's labels.
    pub constrained: bool,
    pub thresholds: AbstainThresholds,
    /// Skip the abstain check (the model and attribution still decide).
    pub never_abstain: bool,
    /// Ask the model whether the evidence states the answer even when the abstain rule does
    /// not use it, so evaluations can record it.
    pub record_judge: bool,
    /// Seconds the user is willing to wait for the model's first token: the evidence is cut
    /// to what this model reads in that time on this machine (its measured prompt speed).
    /// Ignored while `evidence_tokens` is set or the model has no measured speed yet.
    pub first_token_within_s: Option<f64>,
    /// Compute figure questions from statement cells ([`super::compute`]); off, the model
    /// answers them as before (to measure what computing adds).
    pub compute: bool,
    /// When the model finds no answer in the passages, ask it of each of the best-matching
    /// source sentences whether that one answers the question: show them in its order, or
    /// abstain when it says no to all. Off, the sentences are shown in the rules' order (to
    /// measure what the judging adds).
    pub judge_quotes: bool,
}

impl Default for AskOptions {
    fn default() -> Self {
        AskOptions {
            scope: Vec::new(),
            k: 8,
            evidence_tokens: None,
            max_answer_tokens: 160,
            constrained: false,
            thresholds: AbstainThresholds::default(),
            never_abstain: false,
            first_token_within_s: None,
            record_judge: false,
            compute: true,
            judge_quotes: true,
        }
    }
}

pub struct Asker<'a> {
    pub reader: &'a Reader,
    pub generator: Option<&'a dyn Generator>,
    pub options: AskOptions,
}
