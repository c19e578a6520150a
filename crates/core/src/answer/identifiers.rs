//! Identifiers a question names — model numbers, versions, codes, exact figures ("A100",
//! "P99", "Phi-3", "postgres 17", "1000 并发") — that no evidence passage writes. Such a name is
//! the most specific slot of a question: passages about "A10" or "P95" are near misses, and
//! whatever the model drafts from them answers another question. Then Pagewise says the
//! sources do not mention it, before generating anything.

use std::collections::HashSet;
use std::sync::OnceLock;

use regex::Regex;

use super::evidence::EvidenceSet;
use super::facts::{amounts, periods, Family};
use crate::text::cached_regex as re;

/// Letters and digits only, lower-cased, subscript digits as digits: "BGE-M3" = "bge m3"
/// = "bgem3", "CO₂" = "CO2".
fn squash(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '₀'..='₉' => char::from_u32(c as u32 - '₀' as u32 + '0' as u32).unwrap_or(c),
            _ => c,
        })
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Whether a token names a period (a year, "FY2023", "Q4", "FY2023Q1", "2H24"): the period
/// check has those.
fn is_period(token: &str) -> bool {
    static PERIOD: OnceLock<Regex> = OnceLock::new();
    let squashed = squash(token);
    let pattern = r"^(?:(?:19|20)\d\d|(?:fy|cy)\d{2}(?:\d{2})?(?:q[1-4]|h[12])?|(?:q[1-4]|h[12]|[1-4]q|[12]h)(?:fy|cy)?(?:\d{2}|\d{4})?|(?:\d{2}|\d{4})(?:q[1-4]|h[12]))$";
    re(&PERIOD, pattern).is_match(&squashed) || (squashed.chars().any(|c| c.is_ascii_alphabetic()) && !periods(token).is_empty())
}

/// The identifiers a question names, as written: words that mix letters and digits ("A100",
/// "gpt-4o", "E402"), and numbers of two digits or more that are no year and no percentage
/// ("1000 并发", "port 5432").
pub fn named_identifiers(question: &str) -> Vec<String> {
    static WORD: OnceLock<Regex> = OnceLock::new();
    static NUMBER: OnceLock<Regex> = OnceLock::new();
    let mut out: Vec<String> = Vec::new();
    for m in re(&WORD, r"[A-Za-z][A-Za-z0-9₀-₉]*(?:[-_.][A-Za-z0-9₀-₉]+)*").find_iter(question) {
        // A figure with its unit ("3am", "10ms", "2H24") starts with its digits: no name.
        if question[..m.start()].ends_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let token = m.as_str();
        let digits = token.chars().filter(|c| c.is_ascii_digit() || ('₀'..='₉').contains(c)).count();
        let letters = token.chars().filter(char::is_ascii_alphabetic).count();
        // "CO2", "H2O" are formulas a source may spell out ("carbon dioxide"); a name with
        // digits has two of them or a word around them ("P99", "A100", "Qwen2", "GPT-4").
        if digits > 0 && (digits >= 2 || letters >= 3) && !is_period(token) {
            out.push(token.to_string());
        }
    }
    for name in latin_names_in_cjk(question).chain(code_names(question)) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    for m in re(&NUMBER, r"\d[\d,]*(?:\.\d+)?").find_iter(question) {
        let before = question[..m.start()].chars().next_back();
        let after = question[m.end()..].trim_start();
        let glued = before.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ',' | '-' | '_' | '$' | '€' | '£' | '¥'))
            || question[m.end()..].chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '.');
        let digits = m.as_str().replace(',', "");
        let share = after.starts_with(['%', '％']) || after.starts_with("percent") || after.starts_with("个百分点");
        // "30 days", "5 GB": a quantity the question supposes ("like 30 days"), not a name.
        let quantity = amounts(&question[m.start()..], None)
            .first()
            .is_some_and(|a| a.span.start == 0 && !matches!(a.family, Family::Plain | Family::Count));
        if glued || share || quantity || digits.len() < 2 || is_period(&digits) {
            continue;
        }
        out.push(m.as_str().to_string());
    }
    out
}

/// In a Chinese (or Japanese) question, a Latin-script word of three letters or more written
/// with a capital ("Milvus", "ColBERT", "HNSW", "LangChain") is the name of a product or a
/// method: the question asks about that thing. Lower-case words ("bug", "overlap") are
/// borrowed common words the sources may say in Chinese.
fn latin_names_in_cjk(question: &str) -> impl Iterator<Item = String> + '_ {
    static LATIN: OnceLock<Regex> = OnceLock::new();
    let cjk = question.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c) || ('\u{3040}'..='\u{30ff}').contains(&c));
    re(&LATIN, r"[A-Za-z][A-Za-z]*(?:[-_.][A-Za-z0-9]+)*")
        .find_iter(question)
        .filter(move |m| {
            let token = m.as_str();
            let glued = question[..m.start()].ends_with(|c: char| c.is_ascii_alphanumeric()) || question[m.end()..].starts_with(|c: char| c.is_ascii_digit());
            cjk && !glued && token.chars().filter(char::is_ascii_alphabetic).count() >= 3 && token.chars().any(|c| c.is_ascii_uppercase())
        })
        .map(|m| m.as_str().to_string())
}

/// Names written the way code writes them: a command-line flag ("--allow-fs-read"), a dotted
/// path of words ("util.styleText", "import.meta.dirname", "package.json"), snake_case
/// ("pg_stat_statements", "work_mem"), camelCase ("allocUnsafe") and PascalCase with a capital
/// inside ("WebSocket", "PepsiCo": a product's or a company's own spelling). A question that names an
/// API, an option or a setting asks about that one; the manual's neighbouring ones are near
/// misses. Abbreviations ("e.g.", "U.S.") are no paths: each part has two letters or more.
fn code_names(question: &str) -> impl Iterator<Item = String> + '_ {
    static CODE: OnceLock<Regex> = OnceLock::new();
    re(
        &CODE,
        r"--[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*|\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+|\b[a-z0-9]+(?:_[a-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z]+[A-Z][A-Za-z0-9]*\b",
    )
    .find_iter(question)
    .filter(|m| {
        let token = m.as_str().trim_start_matches('-');
        let dotted_parts_are_words = !token.contains('.') || token.split('.').all(|p| p.chars().filter(char::is_ascii_alphanumeric).count() >= 2);
        token.chars().filter(char::is_ascii_alphabetic).count() >= 3 && dotted_parts_are_words
    })
    .map(|m| m.as_str().to_string())
}

/// What the evidence writes, squashed: each word, the parts of a hyphenated or dotted one
/// ("bge", "m3" of "bge-m3-large"), and each pair of neighbouring words or parts ("Phi 3" for
/// "Phi-3", "Python 3.11" for "python3.11").
fn written_tokens(text: &str) -> HashSet<String> {
    static TOKEN: OnceLock<Regex> = OnceLock::new();
    let mut out: HashSet<String> = HashSet::new();
    let mut wholes: Vec<String> = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    for m in re(&TOKEN, r"[A-Za-z0-9₀-₉]+(?:[-_.,][A-Za-z0-9₀-₉]+)*").find_iter(text) {
        wholes.push(squash(m.as_str()));
        parts.extend(m.as_str().split(['-', '_', '.']).map(squash));
    }
    for list in [&wholes, &parts] {
        out.extend(list.iter().cloned());
        out.extend(list.windows(2).map(|w| format!("{}{}", w[0], w[1])));
    }
    out
}

/// The first identifier the question names that no evidence passage, heading, title or file
/// name writes.
pub fn unmentioned_identifier(question: &str, evidence: &EvidenceSet) -> Option<String> {
    let named = named_identifiers(question);
    if named.is_empty() {
        return None;
    }
    let mut written: HashSet<String> = HashSet::new();
    for page in &evidence.pages {
        written.extend(written_tokens(&page.doc_title));
        written.extend(written_tokens(&page.doc_path.to_string_lossy()));
        for p in &page.passages {
            written.extend(written_tokens(&p.text));
            written.extend(p.heading_path.iter().flat_map(|h| written_tokens(h)));
        }
    }
    let mut texts: Vec<&str> = Vec::new();
    for page in &evidence.pages {
        texts.extend(page.passages.iter().map(|p| p.text.as_str()));
        texts.extend(page.passages.iter().flat_map(|p| p.heading_path.iter().map(String::as_str)));
    }
    let code = written_code(&texts);
    named.into_iter().find(|name| match code_form(name) {
        Some(form) => !code.contains(&form),
        None => !written.contains(&squash(name)),
    })
}

/// A flag ("--run") or a dotted API name ("crypto.hash", "fs.mkdir") as code writes it:
/// lower-cased, a flag with its dashes. Such a name is one token: "run" and "crypto … hash"
/// written apart do not mention it.
fn code_form(name: &str) -> Option<String> {
    let lower = name.to_lowercase();
    let dotted = !name.starts_with('-') && name.split('.').count() >= 2 && name.split('.').all(|p| p.chars().any(|c| c.is_ascii_alphabetic()));
    (name.starts_with("--") || dotted).then(|| if dotted { squash(&lower) } else { lower })
}

/// The flags and dotted names the texts write, in [`code_form`].
fn written_code(texts: &[&str]) -> HashSet<String> {
    static CODE: OnceLock<Regex> = OnceLock::new();
    let mut out = HashSet::new();
    for text in texts {
        for m in re(&CODE, r"--[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*|[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+").find_iter(text) {
            let token = m.as_str();
            if token.starts_with("--") {
                out.insert(token.to_lowercase());
            } else {
                // "fsPromises.mkdir" is how the docs write what a user calls "fs.promises.mkdir";
                // squashed they are one name. Each dotted tail is written too: "require('node:fs').promises.mkdir".
                let parts: Vec<&str> = token.split('.').collect();
                for start in 0..parts.len().saturating_sub(1) {
                    out.insert(squash(&parts[start..].join(".")));
                }
            }
        }
    }
    out
}

/// In an English question, a capitalised word inside the question that owns something
/// ("What was Target's comparable sales growth?") names a company, a person or a product. When
/// no evidence passage, heading, title or file name writes it with its capital, the passages
/// are about others (a retailer's filing says "target" only as a common word), and whatever the
/// model drafts from them answers for someone else.
pub fn unmentioned_owner(question: &str, evidence: &EvidenceSet) -> Option<String> {
    static OWNER: OnceLock<Regex> = OnceLock::new();
    let owners: Vec<&str> = re(&OWNER, r"\b(\p{Lu}[\p{L}&\-]*)['’]s\b")
        .captures_iter(question)
        .filter_map(|c| c.get(1))
        .filter(|m| !question[..m.start()].trim().is_empty())
        .map(|m| m.as_str())
        .collect();
    if owners.is_empty() {
        return None;
    }
    let mut texts: Vec<String> = Vec::new();
    for page in &evidence.pages {
        texts.push(page.doc_title.clone());
        texts.push(page.doc_path.to_string_lossy().into_owned());
        for p in &page.passages {
            texts.push(p.text.clone());
            texts.extend(p.heading_path.iter().cloned());
        }
    }
    let writes = |name: &str| {
        let upper = name.to_uppercase();
        texts.iter().any(|t| [name, upper.as_str()].iter().any(|n| written_as_word(t, n)))
    };
    owners.into_iter().find(|name| !writes(name)).map(str::to_string)
}

/// Whether `text` holds `word` exactly (case included) with no letter glued to either side;
/// an underscore or digit next to it counts as a boundary ("TARGET_2022_10K").
fn written_as_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphabetic) && !after.is_some_and(|c| c.is_lowercase())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(text: &str, path: &str) -> EvidenceSet {
        use crate::answer::evidence::{EvidencePage, EvidencePassage};
        use crate::span::Span;
        let passage = EvidencePassage { chunk_id: 1, span: Span { doc_id: 1, page: 1, byte_start: 0, byte_end: text.len() }, heading_path: vec![], text: text.into(), score: 1.0 };
        EvidenceSet {
            pages: vec![EvidencePage {
                label: "Doc1_p1".into(),
                doc_handle: 1,
                doc_id: 1,
                doc_path: path.into(),
                doc_title: String::new(),
                page: 1,
                modified: String::new(),
                passages: vec![passage],
                score: 1.0,
                also_in: vec![],
                facets: None,
            }],
        }
    }

    #[test]
    fn identifiers_are_names_with_digits_and_exact_figures_but_not_periods() {
        assert_eq!(named_identifiers("BGE-M3 在 A100 上能跑到多少 QPS？"), vec!["BGE-M3", "A100", "QPS"]);
        assert_eq!(named_identifiers("RAG 管道在 1000 并发下 P95 延迟能压到多少？"), vec!["P95", "RAG", "1000"]);
        assert!(named_identifiers("how much co2 did the panels save last year?").is_empty(), "a formula");
        assert!(named_identifiers("got paged at 3am, can i come in late tomorrow?").is_empty(), "a time of day");
        assert_eq!(named_identifiers("is Qwen2-7B or GPT-4 faster"), vec!["Qwen2-7B", "GPT-4"]);
        assert!(named_identifiers("As of FY2023Q1, why did Pepsico raise full year guidance for FY2023?").is_empty());
        assert!(named_identifiers("what was revenue in Q4 2022 and 2H24").is_empty());
        assert!(named_identifiers("What was the key agenda of the filing dated 1st July 2022?").is_empty());
        assert!(named_identifiers("Are there categories that represent more than 20% of revenue?").is_empty());
        assert!(named_identifiers("what happens after 3 failed logins, and what costs $120?").is_empty());
        assert_eq!(named_identifiers("when are we upgrading to postgres 17?"), vec!["17"]);
        assert!(named_identifiers("what happens if I pass a huge number of ms to setTimeout, like 30 days?").iter().all(|n| n != "30"), "a supposed duration");
        assert!(named_identifiers("how do I cap the heap at 4096 MB").iter().all(|n| n != "4096"));
    }

    #[test]
    fn capitalised_latin_words_in_a_chinese_question_are_names() {
        assert_eq!(named_identifiers("Milvus 和 Pinecone 哪个向量库更快？"), vec!["Milvus", "Pinecone"]);
        assert_eq!(named_identifiers("ColBERT 跟 BGE-M3 比中文检索效果谁好？"), vec!["BGE-M3", "ColBERT"]);
        assert!(named_identifiers("transformers 升级出 bug 那回，回滚用了多长时间？").is_empty(), "lower-case words are common words");
        assert!(named_identifiers("Which vendor did Milvus pick?").is_empty(), "an English question's capitals are not judged here");
        assert!(named_identifiers("跑 7B 模型要多大显存？").is_empty());
    }

    #[test]
    fn a_capitalised_owner_must_be_written_with_its_capital() {
        let retailer = evidence("Comparable sales declined 9.9%. We met our target for store openings.", "/f/BESTBUY_2023_10K.pdf");
        assert_eq!(unmentioned_owner("What was Target's comparable sales growth in fiscal 2022?", &retailer), Some("Target".into()));
        assert_eq!(unmentioned_owner("What was Best Buy's comparable sales growth?", &evidence("Best Buy reported lower sales.", "/f/a.pdf")), None);
        assert_eq!(unmentioned_owner("What was Target's revenue?", &evidence("Net sales were $107 billion.", "/f/TARGET_2022_10K.pdf")), None, "the file name writes it");
        assert_eq!(unmentioned_owner("Target's revenue in 2022?", &retailer), None, "a question's first word is not judged");
        assert_eq!(unmentioned_owner("how did the Company's margin change", &evidence("The Company's margin rose.", "/f/a.pdf")), None);
    }

    #[test]
    fn names_written_as_code_are_identifiers() {
        assert_eq!(named_identifiers("how do I print colored text with util.styleText?"), vec!["util.styleText"]);
        assert_eq!(named_identifiers("how do I grant read access to a folder with --allow-fs-read?"), vec!["--allow-fs-read"]);
        assert_eq!(named_identifiers("how big is the pool that allocUnsafe carves buffers out of"), vec!["allocUnsafe"]);
        assert_eq!(named_identifiers("how do I open a connection with node's global WebSocket client?"), vec!["WebSocket"]);
        assert!(named_identifiers("How did Revenue change in Fiscal 2023?").is_empty(), "capitalised words are not names");
        assert_eq!(named_identifiers("which statements eat the most time in pg_stat_statements"), vec!["pg_stat_statements"]);
        assert!(named_identifiers("e.g. the U.S. office, how many desks?").is_empty(), "abbreviations");
        assert!(named_identifiers("What was Target's comparable sales growth?").is_empty());
        assert!(named_identifiers("how do I make a folder and its parents in one go in node?").is_empty());
        let written = written_tokens("Use `util.inspect()` with colors, or `fs.watch(filename[, options])`; see import.meta.url and work_mem.");
        assert!(written.contains(&squash("fs.watch")) && written.contains(&squash("work_mem")) && written.contains(&squash("import.meta.url")));
        assert!(!written.contains(&squash("util.styleText")) && !written.contains(&squash("import.meta.dirname")));
    }

    #[test]
    fn flags_and_dotted_names_are_mentioned_only_as_written() {
        let docs = evidence("Use `fsPromises.mkdir(path)` or node --max-old-space-size=4096 to run the script in package.json; the crypto module's hash.digest() returns a hash.", "/d/fs.md");
        assert_eq!(unmentioned_identifier("how do I run a package.json script with node --run?", &docs).as_deref(), Some("--run"));
        assert_eq!(unmentioned_identifier("is there a one-shot crypto.hash() for strings?", &docs).as_deref(), Some("crypto.hash"));
        assert_eq!(unmentioned_identifier("what does --max-old-space-size do", &docs), None);
        assert_eq!(unmentioned_identifier("does fs.promises.mkdir make parents?", &docs), None, "fsPromises.mkdir is its name in the docs");
        assert_eq!(unmentioned_identifier("what does hash.digest return", &docs), None);
    }

    #[test]
    fn an_identifier_is_mentioned_in_any_spelling() {
        let written = written_tokens("单卡 A10 可支撑 120 QPS. Phi 3 runs on 1,000 requests; CO₂ saved; bge-m3-large");
        for name in ["A10", "Phi-3", "1000", "1,000", "CO2", "bge-m3", "BGE M3"] {
            assert!(written.contains(&squash(name)), "{name}");
        }
        assert!(!written.contains(&squash("A100")));
        assert!(!written.contains(&squash("P99")));
    }
}
