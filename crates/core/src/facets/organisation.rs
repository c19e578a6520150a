//! Which organisation a document is from or about: the legal name that its first pages repeat
//! ("Best Buy Co., Inc.", "Amcor plc", "华为技术有限公司"), else a file-name word that the text
//! also uses ("BESTBUY" for "Best Buy"), else nothing.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;

/// File-name words that name a kind of document or a version, never an organisation.
const KIND_WORDS: &[&str] = &[
    "10k", "10q", "8k", "20f", "6k", "annual", "quarterly", "report", "earnings", "results", "release", "press", "contract",
    "agreement", "paper", "handbook", "manual", "guide", "draft", "final", "scan", "document", "doc", "dated", "copy", "new",
    "old", "v1", "v2", "notes", "minutes", "invoice", "policy", "q1", "q2", "q3", "q4", "fy", "the",
];

/// Words that end a legal entity name; stripped to get the name people use.
const LEGAL_SUFFIXES: &[&str] = &[
    "inc", "incorporated", "corporation", "corp", "company", "co", "plc", "ltd", "limited", "llc", "lp", "l.p", "gmbh",
    "ag", "sa", "s.a", "nv", "n.v", "se", "holdings", "group", "the", "cooperative", "co-operative", "association",
    "foundation", "society", "council",
];

fn entity_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // A run of capitalised words (allowing "&", "-", "'" and digits such as "3M") ended
        // by a legal suffix. Upper-case cover pages ("BEST BUY CO., INC.") match too.
        Regex::new(
            r"(?x)
            (?P<name>(?:[A-Z0-9][\w&'\.-]*\s+){0,4}?[A-Z0-9][\w&'\.-]*?)
            ,?\s+
            (?P<suffix>(?i:Inc\.?|Incorporated|Corporation|Corp\.|Company|Co\.(?:,?\s+Inc\.?)?|plc|Ltd\.?|Limited|LLC|L\.P\.|GmbH|AG|S\.A\.|N\.V\.|Cooperative|Co-operative|Association|Foundation|Society|Council))
            (?:[^\w]|$)",
        )
        .unwrap_or_else(|e| panic!("entity pattern: {e}"))
    })
}

fn cjk_entity_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?P<name>[\p{Han}]{2,16}?)(?P<suffix>股份有限公司|有限责任公司|有限公司|集团)")
            .unwrap_or_else(|e| panic!("cjk entity pattern: {e}"))
    })
}

const MONTHS: &[&str] = &[
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
];

/// Words that start sentences or headings and so look like names on a cover page.
const NOT_NAMES: &[&str] = &[
    "the", "a", "an", "and", "of", "for", "by", "in", "on", "to", "with", "our", "its", "this", "that", "each", "such",
    "all", "other", "certain", "any", "if", "as", "or", "form", "annual", "report", "quarterly", "securities", "exchange",
    "commission", "trust", "bank", "registrant", "nasdaq", "nyse", "stock", "market", "new", "york", "delaware", "inc",
    "company", "corporation", "name", "exact", "see", "note", "notes", "table", "item", "part",
];

/// The name without a leading "The" and the legal suffix, in the document's capitalisation
/// (title case when the document shouts): "THE BOEING COMPANY" → "Boeing".
pub fn short_name(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let mut start = 0;
    let mut end = words.len();
    while start < end && is_suffix(words[start]) {
        start += 1;
    }
    while end > start && is_suffix(words[end - 1]) {
        end -= 1;
    }
    words[start..end].iter().map(|w| w.trim_end_matches(',')).collect::<Vec<_>>().join(" ")
}

fn is_suffix(word: &str) -> bool {
    let w = word.trim_matches(|c: char| c == ',' || c == '.').to_ascii_lowercase();
    LEGAL_SUFFIXES.contains(&w.as_str()) || LEGAL_SUFFIXES.contains(&word.trim_end_matches(',').to_ascii_lowercase().as_str())
}

fn title_case_if_shouting(name: &str) -> String {
    let letters: Vec<char> = name.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() < 4 || letters.iter().any(|c| c.is_lowercase()) {
        return name.to_string();
    }
    name.split(' ')
        .map(|w| {
            // Short all-caps words with digits or of two letters are kept ("3M", "AG", "US").
            if w.len() <= 2 || w.chars().any(|c| c.is_ascii_digit()) {
                return w.to_string();
            }
            let mut chars = w.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars.flat_map(|c| c.to_lowercase())).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Lower-case letters and digits only: "Best Buy" → "bestbuy", "Foot Locker" → "footlocker".
pub fn squash(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(|c| c.to_lowercase()).collect()
}

/// The organisation named most often with a legal suffix in `text` (the first pages), with
/// its full name as written; ties go to the name seen first.
#[cfg(test)]
pub fn legal_name(text: &str) -> Option<String> {
    legal_names(text).into_iter().next()
}

/// Organisations named with a legal suffix in `text`, most often named first, keeping those
/// named at least a third as often as the first: both parties of a contract, not every
/// company a long report mentions once.
pub fn legal_names(text: &str) -> Vec<String> {
    let mut counts: HashMap<String, (usize, usize, String)> = HashMap::new();
    let mut order = 0;
    for line in text.lines() {
        for c in entity_regex().captures_iter(line) {
            let (Some(name), Some(suffix)) = (c.name("name"), c.name("suffix")) else { continue };
            let words: Vec<&str> = name.as_str().split_whitespace().collect();
            // Drop leading words that are sentence words, figures or dates, not part of a name;
            // a name never runs across the end of a sentence.
            let after_stop = words.iter().rposition(|w| w.ends_with('.') && w.len() > 3 && !is_suffix(w)).map_or(0, |i| i + 1);
            let first_real = words
                .iter()
                .enumerate()
                .skip(after_stop)
                .find(|(_, w)| {
                    let lower = w.to_ascii_lowercase();
                    let bare = lower.trim_matches(|c: char| c == ',' || c == '.');
                    !NOT_NAMES.contains(&bare) && !MONTHS.contains(&bare) && bare.chars().any(char::is_alphabetic)
                })
                .map(|(i, _)| i);
            let Some(first_real) = first_real else { continue };
            let name_words = &words[first_real..];
            if name_words.is_empty() || name_words.iter().all(|w| w.chars().all(|c| !c.is_alphabetic())) {
                continue;
            }
            // The name as written, from its first real word through the suffix ("Acme
            // Widgets, Inc." keeps its comma).
            let skipped: usize = words[..first_real].iter().map(|w| w.len()).sum();
            let from = name.as_str()[skipped..].find(name_words[0]).map(|i| name.start() + skipped + i).unwrap_or(name.start());
            let full = line[from..suffix.end()].split_whitespace().collect::<Vec<_>>().join(" ");
            let key = squash(&short_name(&full));
            if key.len() < 2 {
                continue;
            }
            order += 1;
            let entry = counts.entry(key).or_insert((0, order, full));
            entry.0 += 1;
        }
        for c in cjk_entity_regex().captures_iter(line) {
            let (Some(name), Some(suffix)) = (c.name("name"), c.name("suffix")) else { continue };
            // Without word breaks the match may start mid-sentence ("本报告由华为技术"): keep the
            // longest tail of the name that the text repeats as often as its last two characters.
            let chars: Vec<char> = name.as_str().chars().collect();
            let tail = |n: usize| chars[chars.len() - n..].iter().collect::<String>();
            let count = |n: usize| text.matches(&format!("{}{}", tail(n), suffix.as_str())).count();
            let base = count(2);
            let mut keep = 2;
            while keep < chars.len() && count(keep + 1) == base {
                keep += 1;
            }
            let key = tail(keep);
            let full = format!("{key}{}", suffix.as_str());
            order += 1;
            let entry = counts.entry(key).or_insert((0, order, full));
            entry.0 += 1;
        }
    }
    let mut ranked: Vec<(usize, usize, String)> = counts.into_values().collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let top = ranked.first().map(|r| r.0).unwrap_or(0);
    ranked
        .into_iter()
        .filter(|r| r.0 * 3 >= top)
        .take(4)
        .map(|(_, _, full)| title_case_if_shouting(full.trim_end_matches([',', '.']).trim()))
        .map(|s| if s.ends_with("Inc") || s.ends_with("Co") || s.ends_with("Corp") || s.ends_with("Ltd") { format!("{s}.") } else { s })
        .collect()
}

/// A leading file-name word that names an organisation: one the text also uses (compared
/// without spaces and case), is not a year or a document-type word, and is not a common word
/// of the text's own sentences.
pub fn file_name_organisation(stem: &str, text: &str) -> Option<String> {
    let first = stem.split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty())?;
    let lower = first.to_lowercase();
    if first.len() < 2
        || first.chars().all(|c| c.is_ascii_digit())
        || KIND_WORDS.contains(&lower.as_str())
        || super::dates::years(first).len() == 1
    {
        return None;
    }
    // People write organisation names in capitals in file names ("AMCOR", "BestBuy"); a
    // lower-case word ("meeting-notes", "team-handbook") names a topic.
    if !first.chars().next().is_some_and(|c| c.is_uppercase()) {
        return None;
    }
    let squashed_text = squash(text);
    if squashed_text.matches(&lower).count() < 2 {
        return None;
    }
    // A word the text mostly writes in lower case is an ordinary word ("Report", "Budget").
    let mut capitalised = 0;
    let mut plain = 0;
    for w in text.split(|c: char| !c.is_alphanumeric()) {
        if w.eq_ignore_ascii_case(first) {
            if w.chars().next().is_some_and(|c| c.is_uppercase()) {
                capitalised += 1;
            } else {
                plain += 1;
            }
        }
    }
    (capitalised >= plain).then(|| first.to_string())
}

/// The lower-case names a question may use for these organisations (the document's own
/// first).
pub fn aliases(organisations: &[String], file_word: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for org in organisations {
        let short = short_name(org).to_lowercase();
        if !short.is_empty() {
            out.push(short.clone());
            let squashed = squash(&short);
            if squashed != short {
                out.push(squashed);
            }
        }
        let full = org.to_lowercase();
        if !out.contains(&full) {
            out.push(full);
        }
    }
    if let Some(word) = file_word {
        let w = word.to_lowercase();
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out.retain(|a| a.chars().filter(|c| c.is_alphanumeric()).count() >= 2);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_names_from_cover_pages() {
        let cover = "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nBEST BUY CO., INC.\n(Exact name of registrant)\nBest Buy Co., Inc. had 100 stores.";
        assert_eq!(legal_name(cover).as_deref(), Some("Best Buy Co., Inc."));
        let boeing = "THE BOEING COMPANY\nThe Boeing Company and subsidiaries. The Boeing Company";
        assert_eq!(short_name(&legal_name(boeing).unwrap_or_default()), "Boeing");
        assert_eq!(legal_name("Amcor plc announced. Amcor plc results, with Deutsche Bank Trust Company Americas").as_deref(), Some("Amcor plc"));
        assert_eq!(legal_name("本报告由华为技术有限公司发布。华为技术有限公司").as_deref(), Some("华为技术有限公司"));
        assert_eq!(legal_name("the weather was fine and nobody signed anything"), None);
        let lease = "This Agreement is made between Northgate Properties Ltd (the Landlord) and Halden Robotics Ltd. (the Tenant).";
        assert_eq!(legal_names(lease), vec!["Northgate Properties Ltd.".to_string(), "Halden Robotics Ltd.".to_string()]);
        let coop = legal_name("Brightwater Solar Cooperative Annual Report 2024\nThe Brightwater Solar Cooperative was founded");
        assert_eq!(coop.as_deref(), Some("Brightwater Solar Cooperative"));
        assert_eq!(short_name("Brightwater Solar Cooperative"), "Brightwater Solar");
        let dated = legal_names("The year ended 31 December 2023. Acme Cranes Ltd. builds cranes.");
        assert_eq!(dated, vec!["Acme Cranes Ltd.".to_string()]);
    }

    #[test]
    fn file_name_words_that_the_text_uses() {
        assert_eq!(file_name_organisation("BESTBUY_2023_10K", "Best Buy Co., Inc. ... Best Buy stores").as_deref(), Some("BESTBUY"));
        assert_eq!(file_name_organisation("2023_annual_report", "annual report 2023"), None);
        assert_eq!(file_name_organisation("scan0001", "a lease between two parties"), None);
        assert_eq!(file_name_organisation("meeting-notes", "Meeting notes. The meeting ran long; meeting again"), None);
        assert_eq!(file_name_organisation("Budget_2024", "The budget for 2024: budget lines and the Budget"), None);
    }

    #[test]
    fn aliases_drop_legal_suffixes() {
        let a = aliases(&["Foot Locker, Inc.".to_string()], Some("FOOTLOCKER"));
        assert!(a.contains(&"foot locker".to_string()) && a.contains(&"footlocker".to_string()), "{a:?}");
    }
}
