//! Follow-up questions ("and in 2022?", "what about its margin?") rewritten into standalone
//! queries from the previous turn, so retrieval sees what the user means.

use std::sync::OnceLock;

use regex::Regex;

use crate::text::{content_terms, years};

fn follow_up_opening() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)^\s*(and|what about|how about|and what about|same for|what of|or)\b|\b(it|its|it's|they|their|them|that|those|this one|the same)\b")
            .unwrap_or_else(|_| unreachable!())
    })
}

/// Capitalised words of the previous question that are not its first word: the names it is
/// about ("Boeing", "Best Buy").
fn names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, word) in text.split_whitespace().enumerate() {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric()).trim_end_matches("'s").trim_end_matches("’s");
        if i > 0 && w.chars().next().is_some_and(char::is_uppercase) && w.len() > 1 && !w.chars().all(|c| c.is_ascii_digit()) {
            let w = w.to_string();
            if !out.contains(&w) && !w.starts_with("FY") {
                out.push(w);
            }
        }
    }
    out
}

/// The standalone query for `question` given the previous standalone query; `None` when the
/// question already stands alone.
pub fn standalone(question: &str, previous: Option<&str>) -> Option<String> {
    let previous = previous?;
    let terms = content_terms(question);
    let new_years = years(question);
    let looks_dependent = follow_up_opening().is_match(question) || terms.len() <= 2;
    if !looks_dependent {
        return None;
    }
    let only_years = terms.iter().all(|t| new_years.contains(t) || t == "fy");
    if only_years && !new_years.is_empty() {
        // "and in 2022?" → the previous question with its years swapped for the new ones.
        let old_years = years(previous);
        let mut q = previous.to_string();
        if old_years.is_empty() {
            q = format!("{} in {}", q.trim_end_matches('?'), new_years.join(" and "));
        } else {
            for (i, old) in old_years.iter().enumerate() {
                let new = new_years.get(i).or(new_years.last()).map(String::as_str).unwrap_or(old);
                q = q.replace(old.as_str(), new);
            }
        }
        return Some(q);
    }
    let mut q = question.trim().trim_end_matches('?').to_string();
    static LEAD: OnceLock<Regex> = OnceLock::new();
    let lead = LEAD.get_or_init(|| Regex::new(r"(?i)^\s*(and what about|what about|how about|and|same for|what of)\s+").unwrap_or_else(|_| unreachable!()));
    q = lead.replace(&q, "").to_string();
    let subject = names(previous);
    let lower = q.to_lowercase();
    let missing: Vec<&String> = subject.iter().filter(|n| !lower.contains(&n.to_lowercase())).collect();
    if !missing.is_empty() {
        static PRONOUN: OnceLock<Regex> = OnceLock::new();
        let pronoun = PRONOUN.get_or_init(|| Regex::new(r"(?i)\b(its|their|it's|it|they|them)\b").unwrap_or_else(|_| unreachable!()));
        let who = missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ");
        if pronoun.is_match(&q) {
            q = pronoun.replace(&q, |c: &regex::Captures<'_>| {
                let p = c[1].to_lowercase();
                if p == "its" || p == "their" { format!("{who}'s") } else { who.clone() }
            }).to_string();
        } else {
            q = format!("{q} of {who}");
        }
    }
    let old_years = years(previous);
    if new_years.is_empty() && !old_years.is_empty() {
        q = format!("{q} in {}", old_years.join(" and "));
    }
    Some(format!("{q}?"))
}

#[cfg(test)]
mod tests {
    use super::standalone;

    #[test]
    fn a_new_year_replaces_the_old_one() {
        assert_eq!(
            standalone("and in 2022?", Some("What was Boeing's revenue in 2021?")).as_deref(),
            Some("What was Boeing's revenue in 2022?")
        );
    }

    #[test]
    fn pronouns_take_the_previous_subject_and_its_years() {
        assert_eq!(
            standalone("what about its margin?", Some("What was Best Buy's revenue in FY2023?")).as_deref(),
            Some("Best Buy's margin in 2023?")
        );
    }

    #[test]
    fn standalone_questions_are_left_alone() {
        assert_eq!(standalone("What was PepsiCo's capital expenditure in 2021?", Some("What was Boeing's revenue?")), None);
        assert_eq!(standalone("and in 2022?", None), None);
    }
}
