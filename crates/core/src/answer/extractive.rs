//! The answer when generation is unavailable or its output cannot be verified: the evidence
//! sentences that best match the question, each cited.

use std::collections::HashSet;

use super::answerability::{answer_kind, has_kind, AnswerKind};
use super::attribute::{Citation, Sentence, SentenceStatus};
use super::evidence::EvidenceSet;
use super::guard;
use crate::text::{content_terms, has_term, sentences, term_recall, weighted_term_recall};

/// Sentences taken for an extractive answer.
const SENTENCES: usize = 3;

/// What naming a setting, function or command adds to a sentence's score when the question
/// asks which one (less than the kind bonus: the name must still be about the question).
const NAME_BONUS: f32 = 0.15;

/// Sentences after a quote that may still finish it: "… the queue of pending connections.
/// The actual length is set by the OS. The default value of this parameter is 511."
const FOLLOWING_REACH: usize = 2;

/// Longest quote, in bytes, that a sentence and the one it refers back to may make together.
const JOINED_QUOTE_BYTES: usize = 600;

pub fn extractive_sentences(question: &str, evidence: &EvidenceSet) -> Vec<Sentence> {
    ranked_quotes(question, evidence, SENTENCES, true)
}

/// The `limit` evidence sentences that best match the question, one per passage, best first;
/// `close_only` keeps only those that match nearly as well as the best.
pub fn ranked_quotes(question: &str, evidence: &EvidenceSet, limit: usize, close_only: bool) -> Vec<Sentence> {
    let terms = content_terms(question);
    let kind = answer_kind(question);
    let wants_name = asks_for_name(question);
    let mut candidates = Vec::new();
    for (page_rank, page) in evidence.pages.iter().enumerate() {
        for passage in &page.passages {
            // Text addressed to an assistant is never quoted as an answer.
            let flagged = guard::flagged(&passage.text);
            let code = code_blocks(&passage.text);
            let units = sentences(&passage.text).into_iter().flat_map(|range| between_rules(&passage.text, without_fence_lines(&passage.text, range)));
            for range in units {
                if range.is_empty() || flagged.iter().any(|f| f.start < range.end && range.start < f.end) {
                    continue;
                }
                let text = &passage.text[range.clone()];
                // A heading names a part of the document and states nothing.
                if !text.contains('\n') && text.trim_start().starts_with('#') {
                    continue;
                }
                // Code says what a program does, not what the manual states: a line of it
                // quoted alone ("scrypt(password, 'salt', 24, (err, key) => {") answers nothing.
                if code.iter().any(|c| c.start <= range.start && range.end <= c.end) || looks_like_code(text) {
                    continue;
                }
                // A table's header row names columns and states nothing.
                if super::facts::table::is_header_line(text) {
                    continue;
                }
                // CJK sentences have no spaces: two characters count as a word.
                let words = text.split_whitespace().count() + text.chars().filter(|c| crate::text::is_cjk(*c)).count() / 2;
                if words < 4 {
                    continue;
                }
                // A table row is read with its columns' headers ("output" is a word of the
                // row "Eastern Hills 7 1,150 1,081" under "Output 2024 (MWh)").
                let headers = super::facts::table::headers_of_rows(&passage.text, range.clone());
                let sentence_terms: HashSet<String> = content_terms(text).into_iter().chain(content_terms(&headers)).collect();
                // Matching the question matters most, then holding the kind of answer asked for
                // (a figure for "how many", a date for "when"); earlier-ranked pages break ties.
                let kind_bonus = if kind != AnswerKind::Other && has_kind(text, kind) { 0.25 } else { 0.0 };
                let name_bonus = if wants_name && names_identifier(text) { NAME_BONUS } else { 0.0 };
                let prior = kind_bonus + name_bonus + 0.3 / (page_rank as f32 + 1.0);
                candidates.push((prior, sentence_terms, page, passage, range));
            }
        }
    }
    let weights = local_weights(&terms, candidates.iter().map(|c| &c.1));
    let mut scored: Vec<_> = candidates
        .into_iter()
        .map(|(prior, sentence_terms, page, passage, range)| {
            let matched = 0.5 * term_recall(&terms, &sentence_terms) + 0.5 * weighted_term_recall(&terms, &weights, &sentence_terms);
            (matched + prior, page, passage, range)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out: Vec<Sentence> = Vec::new();
    let mut used_passages = HashSet::new();
    let best = scored.first().map(|s| s.0).unwrap_or(0.0);
    for (score, page, passage, range) in scored {
        // Further sentences only when they match the question nearly as well as the best.
        if out.len() == limit || (close_only && !out.is_empty() && score < best * 0.6) {
            break;
        }
        if !used_passages.insert(passage.chunk_id) {
            continue;
        }
        let range = with_antecedent(&passage.text, range);
        let range = with_following_answer(&passage.text, range, kind);
        let range = with_term(&passage.text, range);
        let text = super::facts::table::row_for_reader(&passage.text, range.clone()).unwrap_or_else(|| {
            passage.text[range.clone()].split_whitespace().filter(|w| !w.starts_with("```") && !w.chars().all(|c| c == '#')).collect::<Vec<_>>().join(" ")
        });
        out.push(Sentence::new(text.clone(), SentenceStatus::Quote, vec![Citation::of(page, passage, range, score.min(1.0))]));
    }
    out
}

/// Each question term weighted by how few of the candidate sentences hold it: a word every
/// passage shares (the library's subject, "postgres", "node") cannot tell them apart, while
/// the word only one sentence holds is what the question turns on.
fn local_weights<'a>(terms: &[String], candidates: impl Iterator<Item = &'a HashSet<String>>) -> Vec<f32> {
    let mut holding = vec![0usize; terms.len()];
    let mut n = 0usize;
    for sentence_terms in candidates {
        n += 1;
        for (i, t) in terms.iter().enumerate() {
            if has_term(t, sentence_terms) {
                holding[i] += 1;
            }
        }
    }
    holding.iter().map(|&h| ((n as f32 + 1.0) / (h as f32 + 1.0)).ln()).collect()
}

/// A sentence that refers back ("If exceeded, the child process is terminated", "The default
/// is 4.0.") is quoted from the sentence it refers to, so that the quote names what it is
/// about (`maxBuffer`, the random page cost) instead of starting mid-thought.
fn with_antecedent(passage: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let units = sentences(passage);
    let Some(j) = units.iter().position(|u| u.start <= range.start && range.start < u.end) else { return range };
    let Some(mut k) = super::facts::antecedent::antecedent(passage, &units, j) else { return range };
    // A manual's synopsis stands fenced before the sentence about it ("gen_random_uuid () →
    // uuid" / "This function returns a version 4 (random) UUID."): the fence is no sentence.
    let fence_only = |k: usize| without_fence_lines(passage, units[k].clone()).is_empty();
    while k > 0 && fence_only(k) {
        k -= 1;
    }
    let antecedent = &passage[without_fence_lines(passage, units[k].clone())];
    if k + 3 >= j && !antecedent.is_empty() && !looks_like_code(antecedent) && range.end.saturating_sub(units[k].start) <= JOINED_QUOTE_BYTES {
        units[k].start..range.end
    } else {
        range
    }
}

/// Longest term line, in characters, that a description below it may be about.
const TERM_CHARS: usize = 100;

/// The term a paragraph describes, when the paragraph opens at `start` right under a line of
/// its own that names a setting, option or function: a manual's definition list
/// ("statement_timeout (integer)") or an API heading ("### `--max-old-space-size=SIZE`").
fn term_before(passage: &str, units: &[std::ops::Range<usize>], start: usize) -> Option<std::ops::Range<usize>> {
    let j = units.iter().position(|u| u.start <= start && start < u.end)?;
    if j == 0 || units[j].start != start {
        return None;
    }
    let term = units[j - 1].clone();
    let line = passage[term.clone()].trim();
    if !passage[term.end..start].contains("\n\n") || line.contains('\n') || line.starts_with("```") {
        return None;
    }
    // A caption over a table or a notice ("> Stability: 1") is no term the text describes.
    if passage[start..].starts_with(['|', '>']) || passage[units[j].clone()].contains('|') {
        return None;
    }
    let name = line.trim_start_matches('#').trim();
    let is_term = name.chars().count() <= TERM_CHARS
        && name.split_whitespace().count() <= 10
        && !name.ends_with(['.', '!', '?', '。', ':', '：', ';', ','])
        && !is_rule_line(name)
        && !looks_like_code(name)
        && names_identifier(name);
    is_term.then_some(term)
}

/// A quote that opens a description, started at the term it describes, so that "Abort any
/// statement that takes more than the specified amount of time" says which setting does.
fn with_term(passage: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    match term_before(passage, &sentences(passage), range.start) {
        Some(term) if range.end - term.start <= JOINED_QUOTE_BYTES => term.start..range.end,
        _ => range,
    }
}

/// A sentence that matches the question but lacks the kind of answer it asks for (no figure
/// for "how much") is quoted together with the next sentence when that one has it: writers
/// put the setting first and the figure after ("We added a routing layer. Errors fell from
/// 38% to 1.2%."), and one quote per passage would otherwise leave the figure out. The
/// sentence after that one counts too when it refers back ("The default value of this
/// parameter is 511", "**Default:** `1000`") within the same paragraph.
fn with_following_answer(passage: &str, range: std::ops::Range<usize>, kind: AnswerKind) -> std::ops::Range<usize> {
    if kind == AnswerKind::Other || states(&passage[range.clone()], kind) {
        return range;
    }
    let units = sentences(passage);
    let Some(first) = units.iter().position(|u| u.start >= range.end) else { return range };
    for (step, j) in (first..units.len()).take(FOLLOWING_REACH).enumerate() {
        let next = units[j].clone();
        // A blank line ends the paragraph the quote is about.
        if passage[range.end..next.start].contains("\n\n") {
            break;
        }
        let refers_back = step == 0 || super::facts::antecedent::antecedent(passage, &units, j).is_some();
        if refers_back && states(&passage[next.clone()], kind) && next.end - range.start <= JOINED_QUOTE_BYTES {
            return range.start..next.end;
        }
    }
    range
}

/// Byte ranges of fenced code blocks (```), which are quoted as code, never as statements.
fn code_blocks(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut fences = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            fences.push((offset, offset + line.len(), line.trim() == "```"));
        }
        offset += line.len();
    }
    let mut blocks = Vec::new();
    let mut open: Option<usize> = None;
    // With an odd number of fences the passage was cut inside a block, at its start or at its
    // end: the end that reads less like prose is the code.
    let starts_inside = fences.len() % 2 == 1
        && fences.first().zip(fences.last()).is_some_and(|(&(first, _, bare), &(_, last_end, _))| {
            bare && !text[..first].trim().is_empty() && prose_lines(&text[..first]) < prose_lines(&text[last_end..])
        });
    for (i, &(start, end, _)) in fences.iter().enumerate() {
        if i == 0 && starts_inside {
            blocks.push(0..end);
            continue;
        }
        match open.take() {
            Some(begin) => blocks.push(begin..end),
            None => open = Some(start),
        }
    }
    // A passage cut inside a block: the rest of it is code.
    if let Some(start) = open {
        blocks.push(start..text.len());
    }
    blocks
}

/// Lines that end as sentences do.
fn prose_lines(text: &str) -> usize {
    text.lines().filter(|l| l.trim_end().ends_with(['.', '。', '!', '?', '！', '？', ':', '：'])).count()
}

/// Whether a line is a rule: a horizontal line, or the underline of a plain-text heading
/// ("Review of last quarter" / "----------------------").
fn is_rule_line(line: &str) -> bool {
    let t = line.trim();
    t.chars().filter(|c| matches!(c, '-' | '=' | '_' | '*' | '~')).count() >= 3 && t.chars().all(|c| matches!(c, '-' | '=' | '_' | '*' | '~' | ' '))
}

/// A sentence's range cut at the rule lines inside it: plain-text notes run a heading, its
/// underline and the next paragraph together when no stop ends the heading. A line right above
/// a rule is that heading, and is left out.
fn between_rules(text: &str, range: std::ops::Range<usize>) -> Vec<std::ops::Range<usize>> {
    let mut parts = Vec::new();
    let mut start = range.start;
    let mut offset = range.start;
    for line in text[range.clone()].split_inclusive('\n') {
        if is_rule_line(line) {
            let before = text[start..offset].trim();
            let heading = !before.is_empty() && !before.contains('\n') && !before.ends_with(['.', '!', '?', '。']);
            if !heading {
                parts.push(start..offset);
            }
            start = offset + line.len();
        }
        offset += line.len();
    }
    parts.push(start..range.end);
    parts
        .into_iter()
        .map(|r| {
            let t = &text[r.clone()];
            let lead = t.len() - t.trim_start().len();
            let trail = t.len() - t.trim_end().len();
            if lead + trail >= t.len() {
                r.end..r.end
            } else {
                r.start + lead..r.end - trail
            }
        })
        .filter(|r| !r.is_empty())
        .collect()
}

/// A sentence's range without the fence lines (```) a line-based splitter leaves at its ends.
fn without_fence_lines(text: &str, mut range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    while text[range.clone()].starts_with("```") {
        match text[range.clone()].find('\n') {
            Some(nl) => range.start += nl + 1,
            None => return range.end..range.end,
        }
        range.start += text[range.clone()].len() - text[range.clone()].trim_start().len();
    }
    while let Some(nl) = text[range.clone()].rfind('\n') {
        if !text[range.start + nl + 1..range.end].trim_start().starts_with("```") {
            break;
        }
        range.end = range.start + text[range.start..range.start + nl].trim_end().len();
    }
    range
}

/// A line of a program rather than a sentence: a comment, a statement ending in ";" or "{",
/// or dense with brackets and operators.
fn looks_like_code(text: &str) -> bool {
    let t = text.trim();
    if t.starts_with("//") || t.starts_with("/*") || t.ends_with('{') || t.ends_with(';') || t.contains("=>") {
        return true;
    }
    // Brackets are left out: prose cites "tracepath(8)" and writes "(2^32 - 1) bytes".
    let symbols = t.chars().filter(|c| matches!(c, '{' | '}' | ';' | '=' | '[' | ']' | '$')).count();
    symbols * 12 > t.chars().count()
}

/// Whether the question asks which setting, option, function or command does something.
fn asks_for_name(question: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(r"(?i)\b(?:which|what)\s+(?:\w+\s+)?(?:setting|option|flag|parameter|function|method|command|variable|api|call|helper|module|class|event|property|field|switch)s?\b|\bwhat\s+(?:should|do|can)\s+i\s+(?:call|use|set|run|pass)\b|\bis\s+there\s+an?\s+(?:\w+\s+){0,3}(?:helper|function|method|option|setting|flag|command|api|parser|library|tool|built[- ]?in(?:to)?)\b|哪个(?:参数|选项|命令|函数|方法|配置|设置)|用什么(?:命令|函数|参数|方法)")
            .unwrap_or_else(|_| unreachable!())
    })
    .is_match(question)
}

/// Whether a sentence names a setting, function or command the way manuals write one:
/// in backticks, as a `--flag`, or as a camelCase, snake_case or dotted identifier.
fn names_identifier(text: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(r"`[^`\s][^`]*`|(?:^|\s)--?[a-z][\w-]{2,}|\b[a-z]+[A-Z]\w+|\b[a-z]+_[a-z_]+\b|\b\w+\.\w+\(")
            .unwrap_or_else(|_| unreachable!())
    })
    .is_match(text)
}

/// A written figure that stands on its own: not the digits of a name ("NAMEDATALEN-1",
/// "ext4", "mkfs.ext2(8)" is a manual section, "UTF-8").
fn stated_figure_regex() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| regex::Regex::new(r"(?:^|[^A-Za-z0-9_\-.])[0-9０-９]").unwrap_or_else(|_| unreachable!()))
}

/// A manual page's section after its name: "tracepath(8)", "mkfs.ext4(8)".
fn manual_section_regex() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| regex::Regex::new(r"[A-Za-z0-9_.-]\([0-9][a-z]?\)").unwrap_or_else(|_| unreachable!()))
}

/// Whether a sentence states an answer of `kind`; for quantities a written figure, since
/// number words ("one layer", "一层") are as often wording as answers.
fn states(sentence: &str, kind: AnswerKind) -> bool {
    match kind {
        AnswerKind::Quantity => stated_figure_regex().is_match(&manual_section_regex().replace_all(sentence, "")),
        _ => has_kind(sentence, kind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::evidence::{EvidencePage, EvidencePassage};

    fn page_with_text(text: &str) -> EvidencePage {
        EvidencePage {
            label: "Doc1_p1".into(),
            doc_handle: 1,
            doc_id: 1,
            doc_path: "/library/crypto.md".into(),
            doc_title: "Crypto".into(),
            page: 1,
            modified: "2024-03-02".into(),
            passages: vec![EvidencePassage {
                chunk_id: 7,
                span: crate::span::Span { doc_id: 1, page: 1, byte_start: 0, byte_end: text.len() },
                heading_path: vec![],
                text: text.into(),
                score: 0.5,
            }],
            score: 0.5,
            also_in: vec![],
            facets: None,
        }
    }

    #[test]
    fn a_description_is_quoted_with_the_term_it_describes() {
        let text = "Statement Behavior\n\nstatement_timeout (integer)\n\nAbort any statement that takes more than the specified amount of time. A value of zero (the default) disables the timeout.";
        let page = page_with_text(text);
        let evidence = EvidenceSet { pages: vec![page] };
        let quotes = extractive_sentences("which setting aborts a statement that takes more than some amount of time", &evidence);
        assert!(quotes[0].text.starts_with("statement_timeout (integer) Abort any statement"), "{}", quotes[0].text);
        // An API heading is the term of the paragraph under it; its marks are not quoted.
        let heading = "### `--max-old-space-size=SIZE` (in megabytes)\n\nSets the max memory size of V8's old memory section.";
        let start = heading.find("Sets").unwrap();
        let quoted = with_term(heading, start..heading.len());
        assert_eq!(quoted.start, 0);
        // A later sentence of the description, a plain heading and a table's caption are not.
        let later = text.find("A value").unwrap();
        assert_eq!(with_term(text, later..text.len()).start, later);
        let plain = "## Memory management\n\nThe heap grows as objects are allocated.";
        let start = plain.find("The heap").unwrap();
        assert_eq!(with_term(plain, start..plain.len()).start, start);
        let caption = "Table 4.1. files used by `pam_unix`\n\nfile | permission | user | group\n--- | --- | --- | ---";
        let start = caption.find("file |").unwrap();
        assert_eq!(with_term(caption, start..caption.len()).start, start);
    }

    #[test]
    fn a_sentence_that_refers_back_is_quoted_with_what_it_refers_to() {
        let text = "* `maxBuffer` {number} Largest amount of data in bytes allowed on stdout or stderr. If exceeded, the child process is terminated and any output is truncated. Some other note follows here.";
        let start = text.find("If exceeded").unwrap();
        let end = text.find(" Some other").unwrap();
        let joined = with_antecedent(text, start..end);
        assert!(text[joined.clone()].starts_with("* `maxBuffer` {number} Largest amount"), "{}", &text[joined]);
        // A sentence that names its own subject is quoted alone.
        let alone = text.find("Some other").unwrap()..text.len();
        assert_eq!(with_antecedent(text, alone.clone()), alone);
    }

    #[test]
    fn a_figure_two_sentences_on_joins_the_quote_when_it_refers_back() {
        let text = "All listen() methods can take a backlog parameter to specify the maximum length of the queue of pending connections. The actual length will be determined by the OS. The default value of this parameter is 511 (not 512).";
        let first = 0..text.find(" The actual").unwrap();
        let joined = with_following_answer(text, first.clone(), answer_kind("default length of the pending connections queue?"));
        assert_eq!(&text[joined], text);
        // Not past a sentence that does not refer back, nor past the end of the paragraph.
        let other = "The queue holds pending connections. The OS decides its length. Sockets are closed after 511 seconds.";
        let first = 0..other.find(" The OS").unwrap();
        assert_eq!(with_following_answer(other, first.clone(), answer_kind("how long is the queue?")), first);
        let paragraphs = "The queue holds pending connections.\n\nThe default value of this queue is 511.";
        let first = 0..paragraphs.find("\n").unwrap();
        assert_eq!(with_following_answer(paragraphs, first.clone(), answer_kind("how long is the queue?")), first);
    }

    #[test]
    fn code_is_never_quoted() {
        let page = page_with_text(
            "```js\nconst key = crypto.scryptSync(password, 'salt', 24);\nconsole.log(key.length);\n```\n\nThe default cost parameter N of scrypt is 16384 and must be a power of two.",
        );
        let quotes = extractive_sentences("what's the default cost factor for scrypt?", &EvidenceSet { pages: vec![page] });
        assert!(!quotes.is_empty());
        assert!(quotes.iter().all(|q| !q.text.contains("console.log") && !q.text.contains("scryptSync")), "{:?}", quotes.iter().map(|q| &q.text).collect::<Vec<_>>());
        assert!(looks_like_code("if (err) throw err;"));
        assert!(looks_like_code("// Server has a 5 seconds keep-alive timeout by default"));
        assert!(!looks_like_code("The `child_process.exec()` method spawns a shell and runs a command within it."));
        assert!(!looks_like_code("这个过程是 路径 MTU (PMTU) 发现 (RFC1191) ， tracepath(8) 命令能够自动完成这个"));
    }

    #[test]
    fn a_passage_cut_inside_a_code_block_starts_with_code() {
        let text = "rtt min/avg/max = 191.3/191.3/191.3 ms\n```\n\nThis process is path MTU discovery, which tracepath(8) does.\n\n```\n$ ping -c 1\n```\n\nThe end.";
        let blocks = code_blocks(text);
        let prose = text.find("This process").unwrap();
        assert!(blocks.iter().all(|b| !b.contains(&prose)), "{blocks:?}");
        assert!(blocks.iter().any(|b| b.contains(&text.find("rtt").unwrap())));
        assert!(blocks.iter().any(|b| b.contains(&text.find("$ ping").unwrap())));
        // A passage that ends inside a block: the rest of it is code, even when a block
        // closed before it.
        let cut = "The pg_trgm module provides GiST and GIN index operator classes.\nInequality operators are not supported.\n\n```\nCREATE TABLE t (t text);\n```\n\nor\n\n```\nCREATE INDEX i ON t USING GIN (t);";
        let blocks = code_blocks(cut);
        assert!(blocks.iter().all(|b| !b.contains(&0)), "{blocks:?}");
        assert!(blocks.iter().any(|b| b.contains(&cut.find("CREATE INDEX").unwrap())));
        // A passage that ends inside a block: the rest of it is code.
        let open = "Run this:\n\n```sh\napt-get install meson\n";
        assert_eq!(code_blocks(open), vec![open.find("```").unwrap()..open.len()]);
        let synopsis = "PostgreSQL includes one function to generate a UUID:\n\n```\n\ngen_random_uuid () → uuid\n\n```\n\nThis function returns a version 4 (random) UUID.";
        let this = synopsis.find("This function").unwrap();
        let joined = with_antecedent(synopsis, this..synopsis.len());
        assert!(synopsis[joined].starts_with("gen_random_uuid () → uuid"));
        let fenced = "```\nThis function returns a version 4 (random) UUID.";
        assert_eq!(&fenced[without_fence_lines(fenced, 0..fenced.len())], "This function returns a version 4 (random) UUID.");
    }

    #[test]
    fn a_question_asking_which_setting_prefers_a_sentence_that_names_one() {
        assert!(asks_for_name("exec kills my child process when the output is big - which setting raises that limit?"));
        assert!(asks_for_name("is there an argv parser built into node?"));
        assert!(asks_for_name("new Buffer('abc') warns, what should I call instead?"));
        assert!(!asks_for_name("how long does the server keep a connection open?"));
        assert!(names_identifier("* `maxBuffer` {number} Largest amount of data in bytes allowed on stdout or stderr."));
        assert!(names_identifier("Set the log_min_duration_statement parameter."));
        assert!(names_identifier("Run it with --max-old-space-size to raise the limit."));
        assert!(!names_identifier("The child process is terminated and any output is truncated."));
    }

    #[test]
    fn rules_and_plain_text_headings_are_not_quoted() {
        let text = "Build agent capacity\n-----------------------\nJonas reported that build queues regularly exceed 20 minutes on Monday mornings.";
        let parts: Vec<&str> = between_rules(text, 0..text.len()).into_iter().map(|r| &text[r]).collect();
        assert_eq!(parts, vec!["Jonas reported that build queues regularly exceed 20 minutes on Monday mornings."]);
        let list = "The freeze starts on 16 December.\n------------\n[ ] Priya - rehearsal - 29 Oct 2024";
        let parts: Vec<&str> = between_rules(list, 0..list.len()).into_iter().map(|r| &list[r]).collect();
        assert_eq!(parts, vec!["The freeze starts on 16 December.", "[ ] Priya - rehearsal - 29 Oct 2024"]);
        let notes = "the changes.\n\n3. Build agent capacity\n-----------------------\nJonas reported that build queues regularly exceed 20 minutes on Monday\nmornings. Options discussed: more agents.\n";
        let quotes = extractive_sentences("how bad are monday build queues now?", &EvidenceSet { pages: vec![page_with_text(notes)] });
        assert!(quotes[0].text.starts_with("Jonas reported"), "{:?}", quotes.iter().map(|q| &q.text).collect::<Vec<_>>());
        let plain = "No rule here, just a sentence.";
        assert_eq!(between_rules(plain, 0..plain.len()), vec![0..plain.len()]);
        let page = page_with_text("# Platform Team Handbook\n\nThe Platform Team builds and runs the shared services.");
        let quotes = extractive_sentences("what does the platform team do?", &EvidenceSet { pages: vec![page] });
        assert!(quotes.iter().all(|q| !q.text.starts_with('#')), "{:?}", quotes.iter().map(|q| &q.text).collect::<Vec<_>>());
    }

    #[test]
    fn digits_of_a_name_are_no_figure() {
        assert!(!states("The system uses no more than NAMEDATALEN-1 bytes of an identifier.", AnswerKind::Quantity));
        assert!(!states("Format it with mkfs.ext4(8) first.", AnswerKind::Quantity));
        assert!(states("By default, NAMEDATALEN is 64 so the maximum identifier length is 63 bytes.", AnswerKind::Quantity));
        assert!(states("错误率直接从38%降到1.2%。", AnswerKind::Quantity));
        assert!(states("**Default:** `1000`.", AnswerKind::Quantity));
        assert!(states("The default value is four megabytes (4MB).", AnswerKind::Quantity));
    }

    #[test]
    fn a_figure_in_the_next_sentence_joins_the_quote() {
        let text = "After the support assistant gained a metadata routing layer, every knowledge snippet had to name its device range and date. Errors fell from 38% to 1.2%. The team was pleased.";
        let first = 0..text.find(" Errors").unwrap();
        let joined = with_following_answer(text, first.clone(), answer_kind("how much did errors fall after the routing layer?"));
        assert_eq!(&text[joined], "After the support assistant gained a metadata routing layer, every knowledge snippet had to name its device range and date. Errors fell from 38% to 1.2%.");
        // Not for questions that ask for no figure, nor when the sentence has one already.
        assert_eq!(with_following_answer(text, first.clone(), answer_kind("what did the routing layer require?")), first);
        let zh = "后来我们在向量检索前加了一层元数据路由层，检索时先按机型日期做硬过滤。错误率直接从38%降到1.2%。这说明管道很重要。";
        let first = 0..zh.find("错误率").unwrap();
        let joined = with_following_answer(zh, first, answer_kind("加了元数据路由层之后，错误率从多少降到多少？"));
        assert!(zh[joined].ends_with("错误率直接从38%降到1.2%。"));
    }
}
