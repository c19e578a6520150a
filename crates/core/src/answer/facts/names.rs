//! The names a clause is about: proper names ("North Valley", "Amcor"), acronyms ("EMEA"),
//! identifiers of code and configuration (`fs.readFile`, `work_mem`, `highWaterMark`,
//! `--max-old-space-size`), and in Chinese text the Latin-script names it carries ("Milvus",
//! "bge-m3"). A figure given to one of them is not a figure of another.

use std::sync::OnceLock;

use regex::Regex;

use crate::text::{is_cjk, is_stopword};

/// Capitalised words that are not names: months, days, units, currency codes, periods.
fn is_common_capitalised(word: &str) -> bool {
    matches!(
        word,
        "january" | "february" | "march" | "april" | "may" | "june" | "july" | "august" | "september" | "october" | "november"
            | "december" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday" | "q1" | "q2"
            | "q3" | "q4" | "fy" | "h1" | "h2" | "mw" | "kw" | "gw" | "kwh" | "mwh" | "gwh" | "usd" | "eur" | "gbp" | "rmb" | "cny"
            | "kb" | "mb" | "gb" | "tb" | "kib" | "mib" | "gib" | "ms" | "i" | "ok" | "id" | "note" | "see" | "also" | "yes"
            | "true" | "false" | "null" | "none" | "it" | "they" | "we" | "you" | "he" | "she" | "this" | "these" | "those"
            | "however" | "because" | "if" | "when" | "while" | "although" | "since" | "after" | "before" | "during" | "in" | "on"
            | "for" | "total" | "net" | "income" | "revenue" | "revenues" | "operating" | "other" | "table" | "figure" | "section"
            | "chapter" | "page" | "item" | "part" | "example" | "default" | "type" | "returns" | "return" | "hz" | "khz"
            | "mhz" | "ghz" | "kbps" | "mbps" | "gbps" | "qps" | "tps" | "rpm" | "pb" | "tib" | "cm" | "mm" | "km"
            | "kg" | "mb/s" | "gb/s" | "byte" | "bytes" | "bit" | "bits" | "b" | "kib/s" | "mib/s" | "sec" | "min" | "am" | "pm"
    )
}

fn identifier_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"`([^`]{2,60})`|(?:^|\s)--[a-z][a-z0-9-]{2,}|\b[A-Za-z_][A-Za-z0-9_]*(?:[._][A-Za-z0-9_]+)+(?:\(\))?|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Za-z_][A-Za-z0-9_]*\(\)")
            .unwrap_or_else(|_| unreachable!())
    })
}

fn normalise(name: &str) -> String {
    name.trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '-' && c != '.').trim_end_matches("()").to_lowercase()
}

/// Names in `text`, lower-cased, in order, each once. `sentence_start` tells whether the text
/// begins a sentence (its first word is capitalised by grammar, not because it is a name).
pub fn names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |n: String| {
        if n.chars().filter(|c| c.is_alphanumeric()).count() >= 2 && !is_common_capitalised(&n) && !out.contains(&n) {
            out.push(n);
        }
    };
    for m in identifier_regex().find_iter(text) {
        add(normalise(m.as_str()));
    }
    let cjk = text.chars().any(is_cjk);
    if cjk {
        // Latin-script words in Chinese text name tools, models, products and people.
        let latin: String = text.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_') { c } else { ' ' }).collect();
        for w in latin.split_whitespace() {
            let w = w.trim_matches(|c: char| c == '.' || c == '-');
            // "512TiB" and "2GiB" are figures with their units, not names.
            let figure = w.starts_with(|c: char| c.is_ascii_digit());
            if !figure && w.chars().any(|c| c.is_ascii_alphabetic()) && w.len() >= 2 && !is_common_capitalised(&w.to_lowercase()) {
                add(w.to_lowercase());
            }
        }
        return out;
    }
    // Each line starts a sentence too: a table row's label is capitalised because it starts.
    let words = text.lines().flat_map(|line| line.split_whitespace().enumerate());
    let mut sentence_start = true;
    for (nth, raw) in words {
        if nth == 0 {
            sentence_start = true;
        }
        let w = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '&');
        let w = w.strip_suffix("'s").or_else(|| w.strip_suffix("’s")).unwrap_or(w);
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        let capitalised = w.chars().next().is_some_and(char::is_uppercase) && letters >= 2;
        let acronym = letters >= 2 && w.chars().all(|c| !c.is_lowercase()) && w.chars().any(char::is_alphabetic);
        if (capitalised && !sentence_start) || (acronym && letters <= 6) {
            let lower = w.to_lowercase();
            if !is_stopword(&lower) && !is_common_capitalised(&lower) && !lower.chars().all(|c| c.is_ascii_digit()) {
                add(lower);
            }
        }
        sentence_start = raw.ends_with(['.', '!', '?', ':']) || w.is_empty() && raw.chars().all(|c| c == '-' || c == '•' || c == '*');
    }
    out
}

/// Whether `text` mentions `name` (as whole words, case aside), or spells out an acronym
/// ("AGM" for "annual general meeting").
pub fn mentions(text_lower: &str, name: &str) -> bool {
    if name.chars().any(is_cjk) {
        return text_lower.contains(name);
    }
    // An abbreviation the text spells out ("sg&a" for "selling, general and administrative").
    let letters: String = name.chars().filter(|c| !matches!(c, '&' | '.')).collect();
    if (3..=6).contains(&letters.len()) && letters.chars().all(|c| c.is_ascii_lowercase()) && spells_out(text_lower, &letters) {
        return true;
    }
    // A Latin name glued to Chinese text ("CPU加载", "v1.1.4版本") still stands alone.
    let whole = text_lower.match_indices(name).any(|(at, _)| {
        let before = text_lower[..at].chars().next_back();
        let after = text_lower[at + name.len()..].chars().next();
        let inner = |c: Option<char>| c.is_some_and(|c| (c.is_alphanumeric() && !is_cjk(c)) || c == '_');
        !inner(before) && !inner(after)
    });
    // Text extracted without punctuation writes "linux-image-NNN.prerm" as "linux-imageNNNprerm".
    let squash = |t: &str| t.chars().filter(|c| c.is_alphanumeric()).collect::<String>();
    if !whole && name.chars().any(|c| !c.is_alphanumeric()) && squash(name).chars().count() >= 4 && squash(text_lower).contains(&squash(name)) {
        return true;
    }
    // Another form of the same word: "Russian" for "Russia", "Flexibles" for "Flexible".
    whole || (name.len() >= 6 && name.chars().all(|c| c.is_ascii_alphabetic()) && {
        let stem = &name[..name.len() - 2];
        text_lower.split(|c: char| !c.is_alphanumeric()).any(|w| w.starts_with(stem) && w.len() <= name.len() + 2)
    })
}

/// Whether consecutive words of `text` start with the letters of `acronym`.
fn spells_out(text_lower: &str, acronym: &str) -> bool {
    let initials: Vec<char> = text_lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).filter_map(|w| w.chars().next()).collect();
    let want: Vec<char> = acronym.chars().collect();
    initials.windows(want.len()).any(|w| w == want.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_identifiers_and_latin_words_in_chinese() {
        assert_eq!(names("North Valley has 1,420 kW in March."), vec!["valley"]);
        assert_eq!(names("The Flexibles segment grew in EMEA."), vec!["flexibles", "emea"]);
        let code = names("Use fs.readFile() with highWaterMark or --max-old-space-size and `work_mem`.");
        for n in ["fs.readfile", "highwatermark", "--max-old-space-size", "work_mem"] {
            assert!(code.iter().any(|c| c == n.trim_start_matches('-') || c == n), "{n} in {code:?}");
        }
        assert_eq!(names("客服场景用 text2vec-large-chinese，论文库用 m3e-base"), vec!["text2vec-large-chinese", "m3e-base"]);
        assert!(mentions("the north valley region", "valley"));
        assert!(mentions("valleys", "valley"), "another form of the word");
        assert!(mentions("facilities in russia", "russian"));
        assert!(!mentions("the acmeville store", "acme"));
        assert!(mentions("re-elected at the 2024 annual general meeting", "agm"));
        assert!(names("Full-time employees get 27 days").is_empty());
    }
}
