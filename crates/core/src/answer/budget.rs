//! How much evidence the model reads: the default budget per model, and the budget that
//! keeps the first token within the wait the user set.

/// Evidence a chat model gets by default, and what extractive answers read. On the dev
/// filings, with page reranking, the gold page is among the evidence for 63% of questions at
/// 700 tokens, 71% at 1,000 and 78% at 2,400 (README.md). A chat model pays for more: Qwen2.5 1.5B on
/// 2 laptop cores takes a median 51 s to its first token with a 2,048-token budget and 26 s
/// with 1,200, and with 1,200 it answered a question about the sample folder from the wrong
/// sentence of the now-complete library. So models keep 700 until the evidence can be cut
/// by relevance; extractive answers, which cost nothing to read, get 2,400.
const MODEL_EVIDENCE: usize = 700;

const EXTRACTIVE_EVIDENCE: usize = 2_400;

/// The evidence budget that follows the model: 700 tokens, or half the context of a model
/// whose context is smaller than 1,400 (the rest holds instructions and the answer); 2,400
/// without a model.
pub fn evidence_budget(model: Option<&super::generator::ModelInfo>) -> usize {
    match model {
        Some(info) => MODEL_EVIDENCE.min(info.context_tokens / 2),
        None => EXTRACTIVE_EVIDENCE,
    }
}

/// Prompt tokens besides the evidence that a question costs once the fixed instructions are
/// in the model's cache: the question, the evidence's labels and the chat template's turns.
const QUESTION_PROMPT_TOKENS: usize = 120;

/// Fewer evidence tokens than this hold one or two passages: too little to answer from, so a
/// target shorter than this costs is not met rather than met with nothing to read.
const MIN_EVIDENCE: usize = 200;

/// The evidence budget that lets the first token come within `seconds` for a model that reads
/// `prompt_tokens_per_s` on this machine: what it reads in that time, less the question's own
/// tokens, between [`MIN_EVIDENCE`] and the model's `default` budget.
pub fn evidence_for_first_token(seconds: f64, prompt_tokens_per_s: f64, default: usize) -> usize {
    if !(seconds > 0.0 && prompt_tokens_per_s > 0.0) {
        return default;
    }
    let readable = (seconds * prompt_tokens_per_s) as usize;
    readable.saturating_sub(QUESTION_PROMPT_TOKENS).clamp(MIN_EVIDENCE.min(default), default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_token_target_cuts_the_evidence_to_what_the_model_reads_in_time() {
        // 50 prompt tokens/s (the 1.5B model on 2 cores): 10 s read 500 tokens, 120 of them
        // the question's own.
        assert_eq!(evidence_for_first_token(10.0, 50.0, MODEL_EVIDENCE), 380);
        assert_eq!(evidence_for_first_token(60.0, 50.0, MODEL_EVIDENCE), MODEL_EVIDENCE, "never more than the default");
        assert_eq!(evidence_for_first_token(1.0, 50.0, MODEL_EVIDENCE), MIN_EVIDENCE, "never less than a passage or two");
        assert_eq!(evidence_for_first_token(0.0, 50.0, MODEL_EVIDENCE), MODEL_EVIDENCE, "no target");
        assert_eq!(evidence_for_first_token(5.0, 0.0, MODEL_EVIDENCE), MODEL_EVIDENCE, "no measured speed");
        assert_eq!(evidence_for_first_token(1.0, 50.0, 150), 150, "a small model's own budget stands");
    }
}
