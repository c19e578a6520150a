//! Stage `draft` of asking: the model's answer to the evidence, streamed to the caller, or,
//! without a model or when it fails, the evidence sentences that best match the question.

use std::time::Instant;

use super::asker::Asker;
use super::evidence::EvidenceSet;
use super::generator::GenerationStats;
use super::notice::Notice;
use super::outcome::{Sink, Timings};
use super::prompt;
use super::stages::Stages;
use crate::error::{Error, Result};

/// What the model wrote, and what it cost.
pub(super) struct Generation {
    pub raw: String,
    pub stats: GenerationStats,
    pub first_token_ms: Option<f64>,
    /// The caller stopped the model before it finished.
    pub stopped: bool,
}

impl Generation {
    pub(super) fn record(&self, timings: &mut Timings) {
        timings.prompt_ms = self.stats.prompt_ms;
        timings.generation_ms = self.stats.generation_ms;
        timings.prompt_tokens = self.stats.prompt_tokens;
        timings.reused_prompt_tokens = self.stats.reused_prompt_tokens;
        timings.generated_tokens = self.stats.generated_tokens;
        timings.first_token_ms = self.first_token_ms;
    }
}

pub(super) enum Draft {
    Generated(Generation),
    /// No model wrote: the evidence sentences stand in, and the notice says why.
    Quotes { note: Notice },
}

impl Asker<'_> {
    pub(super) fn draft(&self, query: &str, evidence: &EvidenceSet, started: Instant, sink: &mut Sink<'_>) -> Result<Draft> {
        let Some(generator) = self.generator else { return Ok(Draft::Quotes { note: Notice::NoModel }) };
        let messages = prompt::answer_messages(query, evidence);
        match self.generate(generator, &messages, evidence, started, sink) {
            Ok((raw, stats, first_token_ms, stopped)) => Ok(Draft::Generated(Generation { raw, stats, first_token_ms, stopped })),
            Err(Error::Interrupted) => Err(Error::Interrupted),
            Err(e) => Ok(Draft::Quotes { note: Notice::GenerationFailed { error: e.to_string() } }),
        }
    }
}
