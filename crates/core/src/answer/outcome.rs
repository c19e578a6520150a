//! What answering produces and reports, at the bottom of `answer/`: the answer, its timings,
//! the events a caller sees while it is made, and the helpers every answering strategy (plain
//! asking, map-reduce) shares.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::abstain::RetrievalSignals;
use super::attribute::{AttributionCounts, Citation, Sentence};
use super::evidence::EvidencePage;
use super::notice::Notice;
use super::tools::Step;

/// What a caller sees while the answer is being made. Returning `false` from the sink
/// cancels: generation stops at the next token.
pub enum AskEvent<'a> {
    Step(&'a Step),
    /// The evidence sentences that best match the question, cited, sent as soon as retrieval
    /// is done: the user reads them while the model is still working.
    Evidence(&'a [Sentence]),
    Token(&'a str),
    Progress { done: usize, total: usize, what: &'a str },
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum AnswerMode {
    #[default]
    Generated,
    Extractive,
    Abstained,
    MapReduce,
    /// A question about the library itself, answered from the index.
    Library,
    /// A figure computed by Pagewise from cited table cells; the model wrote none of it.
    Computed,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Timings {
    pub retrieve_ms: f64,
    /// From the question to the cited evidence quotes being shown.
    pub first_evidence_ms: Option<f64>,
    pub prompt_ms: f64,
    pub first_token_ms: Option<f64>,
    pub generation_ms: f64,
    /// From the model's last token to the checked answer: each sentence checked against its
    /// sources, and the model asked as judge where the check uses it.
    pub check_ms: Option<f64>,
    pub total_ms: f64,
    pub prompt_tokens: usize,
    pub reused_prompt_tokens: usize,
    pub generated_tokens: usize,
}

/// One answer: what the pipeline returns, what the app is sent, and what a conversation stores
/// (read back with the defaults for what older versions did not write).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Answer {
    pub question: String,
    /// The query retrieval used when the question was a follow-up.
    pub standalone_query: Option<String>,
    pub answer: String,
    pub citations: Vec<Citation>,
    pub abstained: bool,
    pub mode: AnswerMode,
    pub sentences: Vec<Sentence>,
    pub steps: Vec<Step>,
    pub sources: Vec<EvidencePage>,
    pub attribution: AttributionCounts,
    pub signals: Option<RetrievalSignals>,
    pub model: Option<String>,
    pub raw_model_output: Option<String>,
    /// What the answer says about itself, in English (the command line's wording).
    pub note: Option<String>,
    /// The same as codes with parameters, for the app to say in the user's language (turns
    /// stored before they existed have none).
    pub notices: Vec<Notice>,
    pub timings: Timings,
    pub conversation_id: Option<i64>,
    /// This answer's place in its conversation (0 for the first question).
    pub turn: Option<usize>,
}

impl Answer {
    /// The answer with its total time since `started`.
    pub(crate) fn finished(mut self, started: Instant) -> Answer {
        self.timings.total_ms = ms(started);
        self
    }
}

pub(crate) type Sink<'s> = dyn FnMut(AskEvent<'_>) -> bool + 's;

/// Passes an event to the caller; the caller's "stop" ends the answer.
pub(crate) fn send(sink: &mut Sink<'_>, event: AskEvent<'_>) -> crate::error::Result<()> {
    if sink(event) {
        Ok(())
    } else {
        Err(crate::error::Error::Interrupted)
    }
}

pub(crate) fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

pub(crate) fn collect_citations(sentences: &[Sentence]) -> Vec<Citation> {
    let mut out: Vec<Citation> = Vec::new();
    for c in sentences.iter().flat_map(|s| &s.citations) {
        if !out.iter().any(|o| o.label == c.label && o.span.byte_start == c.span.byte_start) {
            out.push(c.clone());
        }
    }
    out
}
