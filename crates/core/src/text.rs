//! Small text tools shared by retrieval, citation, attribution, abstaining and query rewriting:
//! content terms, sentences, numbers and scripts.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

const STOPWORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down",
    "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers",
    "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my",
    "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "out", "over", "own", "same",
    "she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when",
    "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "per", "via", "please",
    "tell", "give", "show", "explain", "describe", "much", "many", "was", "did", "does", "based", "answer", "question",
    "using", "use", "according", "within", "provided", "information", "state", "whether", "fy",
    // Words about the answer itself, not its subject ("Based on the documents provided, …").
    "document", "documents", "evidence", "quoted", "passage", "passages", "based", "given", "mentioned", "says", "stated",
    "states", "shown", "shows", "text",
    // How people type: contractions without the apostrophe.
    "whats", "hows", "whos", "wheres", "whens", "dont", "doesnt", "didnt", "isnt", "arent", "im", "ive", "thats", "theres",
];

fn stopwords() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| STOPWORDS.iter().copied().collect())
}

fn word_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // Numbers keep their inner separators ("1,234.5", "12.3%") so they compare as one term;
    // runs of CJK script (written without spaces) are one match, cut into terms below.
    RE.get_or_init(|| {
        // Letters of other scripts stop at CJK ("ms错误率" is "ms" and 错误率).
        Regex::new(
            r"\d[\d,]*(?:\.\d+)?|[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]+|[\p{L}&&[^\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]][\p{L}'&\-&&[^\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]]*",
        )
            .unwrap_or_else(|_| unreachable!())
    })
}

/// A regex compiled on first use and kept: `cell` is the caller's static. The patterns are
/// literals that the tests exercise, so one that does not compile cannot ship.
pub(crate) fn cached_regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).unwrap_or_else(|_| unreachable!()))
}

pub fn is_stopword(word: &str) -> bool {
    stopwords().contains(word)
}

pub fn is_han(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{2A6DF}')
}

pub fn is_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}')
}

pub fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7AF}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}')
}

/// A character of a script written without spaces between words.
pub fn is_cjk(c: char) -> bool {
    is_han(c) || is_kana(c) || is_hangul(c)
}

/// Full-width ASCII (Ｑ２, ２０２２) as ASCII, so numbers and names compare across scripts.
pub fn fold_width(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| ('\u{FF01}'..='\u{FF5E}').contains(&c) || c == '\u{3000}') {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            c => c,
        })
        .collect::<String>()
        .into()
}

/// A byte range of `fold_width(original)` as a byte range of `original` (the fold maps each
/// character to one character, so positions correspond character by character).
pub fn unfold_range(original: &str, folded: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    if original.len() == folded.len() {
        return range;
    }
    let to_original = |at: usize| -> usize {
        let chars = folded[..at.min(folded.len())].chars().count();
        original.char_indices().nth(chars).map_or(original.len(), |(i, _)| i)
    };
    to_original(range.start)..to_original(range.end)
}

/// Characters that carry grammar, not content, in Chinese: a run of Han text is cut at them.
const CJK_FUNCTION_CHARS: &str = "的了吗呢吧啊呀么是在和与及或把被这那哪就也都还又而着过得地之其个";
/// Question words and fillers that say nothing about what is asked.
const CJK_STOP_BIGRAMS: &[&str] = &[
    "什么", "多少", "怎么", "如何", "为何", "哪些", "哪个", "是否", "可以", "能否", "有没", "没有", "请问", "一下", "为什", "怎样",
    "哪里", "几个", "有多", "到底", "大概", "一个", "这个", "那个",
];

/// Terms of a CJK run: overlapping character pairs of each stretch between function
/// characters (a lone character stands for itself). Pairs need no dictionary and match
/// across differently segmented phrasings.
fn cjk_terms(run: &str, out: &mut Vec<String>) {
    if run.chars().count() == 1 {
        out.push(run.to_string());
        return;
    }
    // Question words are cut out first, so no pair straddles them ("后多", "少分" in 后多少分钟).
    let mut cleaned = run.to_string();
    for stop in CJK_STOP_BIGRAMS {
        cleaned = cleaned.replace(stop, "|");
    }
    for piece in cleaned.split(|c: char| c == '|' || CJK_FUNCTION_CHARS.contains(c)) {
        let chars: Vec<char> = piece.chars().collect();
        for pair in chars.windows(2) {
            out.push(pair.iter().collect());
        }
    }
}

/// Lower-cased content words and normalised numbers ("1,234" → "1234"), stopwords removed;
/// CJK text as character pairs.
pub fn content_terms(text: &str) -> Vec<String> {
    let text = fold_width(text);
    let mut out = Vec::new();
    for m in word_regex().find_iter(&text) {
        let raw = m.as_str();
        if raw.as_bytes()[0].is_ascii_digit() {
            let n = raw.replace(',', "");
            out.push(n.trim_end_matches('.').to_string());
            continue;
        }
        if raw.chars().next().is_some_and(is_cjk) {
            cjk_terms(raw, &mut out);
            continue;
        }
        let w = raw.trim_end_matches(['\'', '-']).to_lowercase();
        let w = w.strip_suffix("'s").unwrap_or(&w).to_string();
        if w.chars().count() > 1 && !stopwords().contains(w.as_str()) {
            out.push(w);
        }
    }
    out
}

/// Characters of question words ("什么", "多少", "哪里" …): they say what is asked, not about what.
const CJK_QUESTION_CHARS: &str = "什么多少怎如何为谁哪几吗呢请问";

/// Terms for measuring how much of a question a text covers: content words, and for CJK text
/// single characters (pairs would count every differently segmented phrasing as missing).
pub fn coverage_terms(text: &str) -> Vec<String> {
    let folded = fold_width(text);
    let mut out = Vec::new();
    for m in word_regex().find_iter(&folded) {
        let raw = m.as_str();
        if raw.chars().next().is_some_and(is_cjk) {
            out.extend(
                raw.chars().filter(|c| !CJK_FUNCTION_CHARS.contains(*c) && !CJK_QUESTION_CHARS.contains(*c)).map(|c| c.to_string()),
            );
        } else {
            out.extend(content_terms(raw));
        }
    }
    out
}

pub fn is_number(term: &str) -> bool {
    term.as_bytes().first().is_some_and(u8::is_ascii_digit)
}

/// Four-digit years (1900–2099) mentioned in the text, in order, without repeats: "2022",
/// "FY2022", "2022年" and "２０２２" alike, but not the middle of a longer number.
pub fn years(text: &str) -> Vec<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"\d+(?:[.,]\d+)*").unwrap_or_else(|_| unreachable!()));
    let text = fold_width(text);
    let mut out: Vec<String> = Vec::new();
    for m in re.find_iter(&text) {
        let y = m.as_str();
        if y.len() == 4 && (y.starts_with("19") || y.starts_with("20")) && !out.iter().any(|o| o == y) {
            out.push(y.to_string());
        }
    }
    out
}

/// Sentence byte ranges: ends at ., ! or ? followed by space and an upper-case letter, digit
/// or opening bracket, at 。！？；, and at line breaks (lists, table rows). Trimmed; empty
/// ones skipped.
pub fn sentences(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0usize;
    let mut i = 0usize;
    let push = |out: &mut Vec<Range<usize>>, s: usize, e: usize| {
        let slice = &text[s..e];
        let lead = slice.len() - slice.trim_start().len();
        let trail = slice.len() - slice.trim_end().len();
        if s + lead < e - trail {
            out.push(s + lead..e - trail);
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        let boundary = if b == b'\n' {
            // PDF text wraps lines inside sentences; a line break ends a sentence only after
            // terminal punctuation, at a blank line, or before a list item.
            let before = text[..i].trim_end();
            let after = text[i + 1..].trim_start_matches([' ', '\t']);
            let ends_sentence = before.ends_with(['.', '!', '?', ':', ';']) || before.is_empty();
            let blank = after.starts_with('\n');
            let list_item = after.starts_with(['-', '•', '*', '#', '|']);
            let last_line = before.rsplit('\n').next().unwrap_or(before);
            let heading = last_line.len() <= 60 && after.starts_with(|c: char| c.is_uppercase()) && !last_line.ends_with(',');
            (ends_sentence || blank || list_item || heading).then_some(i + 1)
        } else if b >= 0xE0 && cjk_terminator(&text[i..]) {
            // 。！？； end a sentence with or without a following space.
            Some(i + text[i..].chars().next().map_or(1, char::len_utf8))
        } else if matches!(b, b'.' | b'!' | b'?') && i + 1 < bytes.len() && bytes[i + 1] == b' ' {
            let next = text[i + 1..].trim_start().chars().next();
            let prev_is_initial = i >= 2 && bytes[i - 2] == b' ' && bytes[i - 1].is_ascii_uppercase();
            (next.is_some_and(|c| c.is_uppercase() || c.is_ascii_digit() || c == '(' || c == '[' || c == '"') && !prev_is_initial)
                .then_some(i + 1)
        } else {
            None
        };
        if let Some(end) = boundary {
            push(&mut out, start, end);
            start = end;
        }
        i += 1;
    }
    push(&mut out, start, text.len());
    out
}

fn cjk_terminator(rest: &str) -> bool {
    rest.starts_with(['。', '！', '？', '；', '…']) && !rest[3..].starts_with(['。', '！', '？', '”', '」', '）'])
}

/// Share of the claim's terms found in the passage's terms (numbers must match exactly).
pub fn term_recall(claim_terms: &[String], passage_terms: &HashSet<String>) -> f32 {
    if claim_terms.is_empty() {
        return 0.0;
    }
    let found = claim_terms.iter().filter(|t| passage_terms.contains(*t) || stem_match(t, passage_terms)).count();
    found as f32 / claim_terms.len() as f32
}

/// Whether the term is among the passage's terms, as itself or by its stem.
pub fn has_term(term: &str, passage_terms: &HashSet<String>) -> bool {
    passage_terms.contains(term) || stem_match(term, passage_terms)
}

/// Share of the claim's terms found in the passage's terms, each weighted (`weights` in the
/// order of `claim_terms`).
pub fn weighted_term_recall(claim_terms: &[String], weights: &[f32], passage_terms: &HashSet<String>) -> f32 {
    let total: f32 = weights.iter().sum();
    if claim_terms.is_empty() || total <= 0.0 {
        return 0.0;
    }
    let found: f32 = claim_terms.iter().zip(weights).filter(|(t, _)| has_term(t, passage_terms)).map(|(_, w)| *w).sum();
    found / total
}

/// "revenues" finds "revenue", "increased" finds "increase": a crude suffix fold is enough
/// for support scoring and avoids a stemmer dependency.
fn stem_match(term: &str, set: &HashSet<String>) -> bool {
    if is_number(term) || term.len() < 5 {
        return false;
    }
    let root = stem(term);
    set.iter().any(|t| t.len() >= 4 && stem(t) == root)
}

fn stem(t: &str) -> &str {
    for suffix in ["ings", "ing", "ies", "ed", "es", "s"] {
        if let Some(s) = t.strip_suffix(suffix) {
            if s.len() >= 4 {
                return s;
            }
        }
    }
    t
}

pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if na == 0.0 || nb == 0.0 { 0.0 } else { dot / (na * nb) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_fold_case_numbers_and_stopwords() {
        assert_eq!(content_terms("What was Boeing's revenue of $1,234.5 million in FY2022?"), vec![
            "boeing", "revenue", "1234.5", "million", "2022"
        ]);
    }

    #[test]
    fn sentences_split_on_terminal_punctuation_and_lines() {
        let t = "Revenue rose 5.2% in 2023. It was driven by U. S. sales! Margins fell.\n- a list item";
        let parts: Vec<&str> = sentences(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(parts, ["Revenue rose 5.2% in 2023.", "It was driven by U. S. sales!", "Margins fell.", "- a list item"]);
    }

    #[test]
    fn years_are_found_with_fiscal_prefix() {
        assert_eq!(years("FY2022 vs 2021 and FY 2022"), vec!["2022", "2021"]);
        assert_eq!(years("2022年营收增长，２０２３年持平；编号 120221 不是年份"), vec!["2022", "2023"]);
    }

    #[test]
    fn chinese_text_becomes_character_pairs_and_sentences() {
        let terms = content_terms("错误率从多少降到了多少？");
        assert!(terms.contains(&"错误".to_string()) && terms.contains(&"误率".to_string()), "{terms:?}");
        assert!(!terms.contains(&"多少".to_string()));
        assert_eq!(content_terms("Ｑ２营收３.２亿"), content_terms("Q2营收3.2亿"));
        assert_eq!(content_terms("680ms错误率"), ["680", "ms", "错误", "误率"]);
        let t = "错误率从38%降到1.2%。召回率提升了！下一步呢？";
        let parts: Vec<&str> = sentences(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(parts, ["错误率从38%降到1.2%。", "召回率提升了！", "下一步呢？"]);
    }
}
