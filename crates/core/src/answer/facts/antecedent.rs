//! Which earlier sentence a sentence refers back to. "The default value of this parameter is
//! 511" says nothing on its own about what has that default; two sentences earlier, "All
//! `listen()` methods can take a `backlog` parameter to specify the maximum length of the
//! queue of pending connections" does. A claim joining the two ("the default length of the
//! pending connections queue is 511") is what the source says, read as a person reads it.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

/// How many sentences back a reference may reach.
const REACH: usize = 3;

/// "this parameter", "these options", "the same value", "该参数", "此选项": the noun named.
fn demonstrative_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:this|that|these|those|the\s+same|such)\s+([a-z][a-z_-]{2,})\b|(?:该|此|这个|这些|这一|上述)(\p{Han}{2})")
            .unwrap_or_else(|_| unreachable!())
    })
}

/// A sentence that opens with a pronoun as its subject ("It defaults to 5", "Its default
/// is", "They are", "其默认值", "它"), gives a default without saying of what ("The
/// default is 4.0.", "**Default:** `16384`", "默认值为"), or opens with a condition on what was
/// just named ("If exceeded, the child process is terminated", "Otherwise", "否则"): it is
/// about what the sentence before was about, as reference manuals write.
fn pronoun_opening_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^\W*(?:(?:It|Its|They|Their|This|These)\b|(?:The\s+)?[Dd]efault(?:\s+value)?(?:\s+is\b|\s+to\b|s\s+to\b|\W*:)|If\s+(?:exceeded|not|so|set|unset|omitted|enabled|disabled|specified|true|false|zero)\b|Otherwise\b|In\s+(?:that|this)\s+case\b|When\s+(?:set|enabled|disabled|omitted|exceeded)\b|其|它|它们|该值|否则|(?:如果|若)超[过出]|默认值?[为是：:])")
            .unwrap_or_else(|_| unreachable!())
    })
}

/// Whether the "that" at `at` joins a clause ("Jonas reported that build queues …", "so that
/// writes …") rather than pointing back ("of that parameter", "That option …"): it points back
/// at the start of a sentence or after a preposition.
fn is_conjunction_that(sentence: &str, at: usize) -> bool {
    let Some(word) = sentence.get(at..).and_then(|rest| rest.split_whitespace().next()) else { return false };
    if !word.eq_ignore_ascii_case("that") {
        return false;
    }
    let before = sentence[..at].trim_end();
    let previous = before.rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or("").to_lowercase();
    const POINTING: [&str; 12] = ["", "of", "in", "on", "for", "to", "with", "from", "by", "at", "about", "under"];
    !POINTING.contains(&previous.as_str())
}

/// Whether `text` names `noun` (or its plural or singular) as a word.
fn names(text: &str, noun: &str) -> bool {
    let lower = text.to_lowercase();
    if noun.chars().next().is_some_and(|c| !c.is_ascii()) {
        return lower.contains(noun);
    }
    let singular = noun.strip_suffix('s').filter(|s| s.len() >= 3);
    lower
        .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '-')
        .any(|w| w == noun || singular.is_some_and(|s| w == s) || w.strip_suffix('s').is_some_and(|s| s == noun))
}

/// The earlier unit that unit `j` refers back to, if it refers back: the nearest of the
/// [`REACH`] units before it that names the noun of its "this …", or the unit right before a
/// sentence that opens with a pronoun.
pub fn antecedent(text: &str, units: &[Range<usize>], j: usize) -> Option<usize> {
    let own = text.get(units.get(j)?.clone())?;
    let earliest = j.saturating_sub(REACH);
    for caps in demonstrative_regex().captures_iter(own) {
        if caps.get(0).is_some_and(|m| is_conjunction_that(own, m.start())) {
            continue;
        }
        let Some(noun) = caps.get(1).or_else(|| caps.get(2)).map(|m| m.as_str().to_lowercase()) else { continue };
        if let Some(k) = (earliest..j).rev().find(|&k| text.get(units[k].clone()).is_some_and(|u| names(u, &noun))) {
            return Some(k);
        }
    }
    (j > 0 && pronoun_opening_regex().is_match(own.trim_start())).then(|| j - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::sentences;

    fn refers(text: &str, j: usize) -> Option<String> {
        let units = sentences(text);
        antecedent(text, &units, j).map(|k| text[units[k].clone()].to_string())
    }

    #[test]
    fn a_demonstrative_refers_to_the_nearest_sentence_naming_its_noun() {
        let text = "All listen() methods can take a backlog parameter to specify the maximum length of the queue. The actual length is set by the OS. The default value of this parameter is 511 (not 512).";
        assert_eq!(refers(text, 2).as_deref(), Some("All listen() methods can take a backlog parameter to specify the maximum length of the queue."));
        let zh = "work_mem 参数设置排序可用的内存。超过时写入临时文件。该参数默认为 4MB。";
        assert_eq!(refers(zh, 2).as_deref(), Some("work_mem 参数设置排序可用的内存。"));
    }

    #[test]
    fn a_pronoun_subject_refers_to_the_sentence_before() {
        let text = "The timeout applies to idle sockets. It defaults to 5 seconds.";
        assert_eq!(refers(text, 1).as_deref(), Some("The timeout applies to idle sockets."));
        let manual = "Sets the planner's estimate of the cost of a non-sequentially-fetched disk page. The default is 4.0.";
        assert_eq!(refers(manual, 1).as_deref(), Some("Sets the planner's estimate of the cost of a non-sequentially-fetched disk page."));
        assert!(refers("Must be a power of two greater than one.\n\n**Default:** `16384`.", 1).is_some());
        assert!(refers("The default keep-alive timeout of the server is 5 seconds. The default timeout is 10 seconds.", 1).is_none());
        let condition = "Largest amount of data in bytes allowed on stdout or stderr. If exceeded, the child process is terminated.";
        assert_eq!(refers(condition, 1).as_deref(), Some("Largest amount of data in bytes allowed on stdout or stderr."));
        assert!(refers("Set a limit on open files. If you need more, raise it.", 1).is_none());
    }

    #[test]
    fn a_that_joining_a_clause_points_at_nothing() {
        let text = "Build agent capacity was discussed at length. Jonas reported that build queues exceed 20 minutes.";
        assert_eq!(refers(text, 1), None);
        let pointing = "The queue holds pending connections. The length of that queue is 511.";
        assert!(refers(pointing, 1).is_some());
    }

    #[test]
    fn a_sentence_that_names_its_subject_refers_to_nothing() {
        let text = "The backlog parameter sets the queue length. The default keep-alive timeout is 5 seconds. This parameter is new.";
        assert_eq!(refers(text, 1), None);
        // The noun must stand within reach: a "this parameter" with no parameter before it
        // refers to nothing this passage shows.
        assert_eq!(refers("Sockets close after a while. The default of this option is 5.", 1), None);
    }
}
