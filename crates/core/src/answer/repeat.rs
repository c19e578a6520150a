//! Small models loop: the same sentence again and again. The sampler's repeat penalty makes
//! that rarer; this guard ends generation at the first sentence that repeats an earlier one,
//! and removes repeats from what is shown.

use crate::text::sentences;

/// A sentence reduced to its letters and digits, lower-cased, for comparing.
pub fn normalised(sentence: &str) -> String {
    sentence.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Whether `a` repeats `b`: equal once normalised, or one holds the other whole (a sentence
/// written again with a clause added or dropped).
pub fn repeats(a: &str, b: &str) -> bool {
    let (a, b) = (normalised(a), normalised(b));
    if a.is_empty() || b.is_empty() {
        return false;
    }
    a == b || (a.chars().count() >= 24 && b.contains(&a)) || (b.chars().count() >= 24 && a.contains(&b))
}

/// Where text streamed so far should be cut because its last finished sentence repeats an
/// earlier one: the byte offset at which that sentence starts.
pub fn cut_at_repeat(text: &str) -> Option<usize> {
    let trimmed = text.trim_end();
    if !trimmed.ends_with(['.', '!', '?', '。', '！', '？', '\n']) && !text.ends_with('\n') {
        return None;
    }
    let ranges = sentences(text);
    let (last, earlier) = ranges.split_last()?;
    let last_text = &text[last.clone()];
    earlier.iter().any(|r| repeats(&text[r.clone()], last_text)).then_some(last.start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_sentence_is_cut() {
        let t = "She leads the team. She is responsible for the work. She leads the team.";
        let at = cut_at_repeat(t).unwrap();
        assert_eq!(t[..at].trim_end(), "She leads the team. She is responsible for the work.");
        assert_eq!(cut_at_repeat("She leads the team. She is responsible for the work."), None);
        assert_eq!(cut_at_repeat("She leads the team. She lead"), None, "an unfinished sentence waits");
    }

    #[test]
    fn repeats_ignore_case_punctuation_and_a_kept_whole() {
        assert!(repeats("Logs are kept for 30 days.", "logs are kept for 30 days"));
        assert!(repeats("Logs are kept in hot storage for 30 days.", "Logs are kept in hot storage for 30 days, then archived."));
        assert!(!repeats("Logs are kept for 30 days.", "Backups are kept for 90 days."));
    }
}
