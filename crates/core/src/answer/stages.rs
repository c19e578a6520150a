//! The stages an answering strategy is built from (evidence budget, token counting, streaming
//! generation, attribution), so that strategies such as map-reduce use them without depending
//! on the plain-asking pipeline that implements them.

use std::collections::HashMap;
use std::time::Instant;

use super::attribute::{AttributionCounts, Sentence};
use super::evidence::EvidenceSet;
use super::generator::{ChatMessage, GenerationStats, Generator};
use super::outcome::Sink;
use crate::engine::Reader;
use crate::error::Result;

pub(crate) trait Stages {
    fn reader(&self) -> &Reader;
    fn generator(&self) -> Option<&dyn Generator>;
    /// Tokens of evidence the model (or extractive answering) reads.
    fn evidence_tokens(&self) -> usize;
    fn count_tokens(&self, text: &str) -> usize;
    /// Streams one generation to the sink: raw text, figures, time to first token, stopped.
    fn generate(
        &self,
        generator: &dyn Generator,
        messages: &[ChatMessage],
        evidence: &EvidenceSet,
        started: Instant,
        sink: &mut Sink<'_>,
    ) -> Result<(String, GenerationStats, Option<f64>, bool)>;
    /// Splits model output into claims and attributes each to the evidence.
    fn check(&self, question: &str, raw: &str, evidence: &EvidenceSet, passage_vectors: &HashMap<i64, Vec<f32>>) -> Result<(Vec<Sentence>, AttributionCounts)>;
}
