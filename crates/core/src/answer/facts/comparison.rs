//! Comparisons a claim turns around without changing a word the overlap could see: the two
//! sides swapped ("grep 比 rg 更快" where the source says rg is faster than grep), or the
//! comparative reversed on the very property the source compares ("faster to input" where it
//! says "slower to input, but faster to process"; "faster and more reliable" for "slower and
//! less reliable").

use std::sync::OnceLock;

use regex::Regex;

use super::compare::fold;
use super::names::names;
use super::polarity::{directions, opposed, Direction};
use crate::text::{cached_regex as re, content_terms};

/// The comparatives a text states, each with the property it compares when the text names it
/// right after ("faster to input": input; "less reliable": reliable; "更快": none).
pub fn comparatives(text: &str) -> Vec<(Direction, String)> {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    let en = re(
        &EN,
        r"(?i)\b(?P<speed>faster|quicker|slower)\b(?:\s+(?:to|at|in|for)\s+(?P<what>[a-z]+))?|\b(?P<longer>takes?\s+longer|took\s+longer)\b|\b(?P<degree>more|less|fewer|higher|lower|greater|smaller|better|worse)\s+(?P<property>[a-z]{4,})\b",
    );
    let zh = re(&ZH, r"(?:更|较|更加|还要|要|变得?)(?P<zh>快|慢|高|低|大|小|多|少|好|差|强|弱|长|短|丰富|简单|复杂|稳定|准确|精确)");
    // Speed said as a quality: "它是相当慢的", "is quite fast".
    static QUALITY: OnceLock<Regex> = OnceLock::new();
    let quality = re(&QUALITY, r"(?i)(?:很|相当|非常|比较|太|特别|十分|极其)(?P<zhq>快|慢)|\b(?:is|are|was|were)\s+(?:very\s+|quite\s+|relatively\s+|fairly\s+|rather\s+|pretty\s+)?(?P<enq>fast|quick|slow)\b");
    // A speed that goes up or down ("转换速度大幅提升", "speed decreased").
    static SPEED: OnceLock<Regex> = OnceLock::new();
    let speed = re(&SPEED, r"(?i)(?:\bspeeds?\b|速度)\W{0,2}\w{0,8}?(?P<up>提升|提高|加快|increas\w*|improv\w*)|(?:\bspeeds?\b|速度)\W{0,2}\w{0,8}?(?P<down>下降|降低|减慢|decreas\w*|dropp?\w*)");
    // A time relative to a named moment: "before 2004", "since lenny", "lenny 之后", "2004 及之后".
    static ANCHORED_EN: OnceLock<Regex> = OnceLock::new();
    static ANCHORED_ZH: OnceLock<Regex> = OnceLock::new();
    let anchored_en = re(&ANCHORED_EN, r"(?i)\b(?P<when>before|prior\s+to|until|after|since|following)\s+(?:version\s+|v)?(?P<anchor>[\w.-]*\w)");
    let anchored_zh = re(&ANCHORED_ZH, r"(?P<anchor>[A-Za-z0-9][\w.-]*)\s*(?:年|版本?)?\s*(?:及|或)?\s*(?P<when>之前|以前|之后|以后)");
    let mut out = Vec::new();
    for c in en.captures_iter(text) {
        if let Some(speed) = c.name("speed") {
            let d = if speed.as_str().eq_ignore_ascii_case("slower") { Direction::Slower } else { Direction::Faster };
            out.push((d, c.name("what").map_or(String::new(), |w| fold(&w.as_str().to_lowercase()))));
        } else if c.name("longer").is_some() {
            out.push((Direction::Slower, String::new()));
        } else if let (Some(degree), Some(property)) = (c.name("degree"), c.name("property")) {
            let property = property.as_str().to_lowercase();
            if matches!(property.as_str(), "than" | "that" | "this" | "those" | "these" | "with" | "from") {
                continue;
            }
            let up = matches!(degree.as_str().to_lowercase().as_str(), "more" | "higher" | "greater" | "better");
            out.push((if up { Direction::Up } else { Direction::Down }, fold(&property)));
        }
    }
    for c in quality.captures_iter(text) {
        let Some(word) = c.name("zhq").or(c.name("enq")) else { continue };
        let slow = matches!(word.as_str().to_lowercase().as_str(), "慢" | "slow");
        out.push((if slow { Direction::Slower } else { Direction::Faster }, String::new()));
    }
    for c in speed.captures_iter(text) {
        out.push((if c.name("up").is_some() { Direction::Faster } else { Direction::Slower }, String::new()));
    }
    for c in anchored_en.captures_iter(text).chain(anchored_zh.captures_iter(text)) {
        let (Some(when), Some(anchor)) = (c.name("when"), c.name("anchor")) else { continue };
        let before = matches!(when.as_str().to_lowercase().split_whitespace().next(), Some("before" | "prior" | "until" | "之前" | "以前"));
        out.push((if before { Direction::Before } else { Direction::After }, format!("@{}", anchor.as_str().to_lowercase())));
    }
    for c in zh.captures_iter(text) {
        let Some(word) = c.name("zh") else { continue };
        let d = match word.as_str() {
            "快" => Direction::Faster,
            "慢" => Direction::Slower,
            "低" | "小" | "少" | "差" | "弱" | "短" => Direction::Down,
            _ => Direction::Up,
        };
        // "更丰富" and "更稳定" compare different things: the word itself is the property.
        let property = if matches!(d, Direction::Faster | Direction::Slower) || word.as_str().chars().count() == 1 { String::new() } else { word.as_str().to_string() };
        out.push((d, property));
    }
    out
}

/// The sentences of a text, each ending at its terminator (or a blank line).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n);
        let ends = matches!(c, '。' | '！' | '？' | '；') || (matches!(c, '.' | '!' | '?') && next.is_none_or(char::is_whitespace)) || (c == '\n' && next == Some('\n'));
        if ends {
            let end = i + c.len_utf8();
            if text[start..end].trim().chars().any(char::is_alphanumeric) {
                out.push(&text[start..end]);
            }
            start = end;
        }
    }
    if text[start..].trim().chars().any(char::is_alphanumeric) {
        out.push(&text[start..]);
    }
    out
}

/// Whether the claim reverses a comparative on a property that a sentence of the unit about
/// the same thing compares the other way only: the sentence shares two of the claim's words
/// (or a name), states the opposite comparative on the property, and never the claim's.
pub fn comparative_reversed(claim: &str, unit: &str) -> bool {
    let claimed = comparatives(claim);
    if claimed.is_empty() {
        return false;
    }
    let claim_terms: Vec<String> = content_terms(claim).into_iter().map(|t| fold(&t)).collect();
    let claim_names = names(claim);
    let all = sentences(unit);
    all.iter().enumerate().any(|(i, sentence)| {
        let stated = comparatives(sentence);
        if stated.is_empty() {
            return false;
        }
        let terms: Vec<String> = content_terms(sentence).into_iter().map(|t| fold(&t)).collect();
        let shared = claim_terms.iter().filter(|t| terms.contains(t)).count();
        let sentence_names = names(sentence);
        // "它是相当慢的" is about what the sentence before names.
        let refers_back = opens_with_pronoun(sentence) && i > 0 && names(all[i - 1]).iter().any(|n| claim_names.contains(n));
        let same_subject = shared >= 2 || claim_names.iter().any(|n| sentence_names.contains(n)) || refers_back;
        same_subject
            && claimed.iter().any(|(d, p)| {
                let opposite = stated.iter().any(|(s, q)| *s == d.opposite() && q == p);
                let same = stated.iter().any(|(s, q)| s == d && q == p);
                opposite && !same
            })
    })
}

/// Whether a sentence opens by referring back: "它是相当慢的", "It is slower".
fn opens_with_pronoun(sentence: &str) -> bool {
    let t = sentence.trim_start();
    ["它", "其", "这", "该", "They ", "It ", "This ", "These "].iter().any(|p| t.starts_with(p))
}

/// The names on each side of a comparison ("A is faster than B", "A 比 B 更快"): those
/// before the marker in its sentence, and those right after it; with the comparative said.
fn sides(sentence: &str) -> Option<(Vec<String>, Vec<String>, Vec<Direction>)> {
    static THAN: OnceLock<Regex> = OnceLock::new();
    let than = re(&THAN, r"(?i)\bthan\b|比");
    let m = than.find(sentence)?;
    let before = &sentence[..m.start()];
    let after = &sentence[m.end()..];
    // The other side is what stands right after the marker: up to the comparative or the
    // clause's end.
    let stop = after.find(['，', ',', '。', '.', '；', ';', '的', '更', '还']).unwrap_or(after.len());
    let other = &after[..stop];
    // Chinese says the comparative after the other side ("比 B 更快"); English before "than".
    let said = if m.as_str() == "比" { directions(&after[stop..]) } else { directions(before) };
    let left: Vec<String> = side_names(before, sentence);
    let right: Vec<String> = side_names(other, sentence);
    (!left.is_empty() && !right.is_empty()).then_some((left, right, said))
}

/// Whether the claim compares the same two things as a sentence of the unit with the sides
/// swapped and the comparative kept: "grep 比 rg 更快" where the unit says rg is faster than
/// grep. Swapped sides with the comparative reversed say the same thing.
pub fn sides_swapped(claim: &str, unit: &str) -> bool {
    let Some((claim_left, claim_right, claim_said)) = sentences(claim).into_iter().find_map(sides) else { return false };
    let meets = |a: &[String], b: &[String]| a.iter().any(|n| b.iter().any(|m| m == n || m.starts_with(n.as_str()) || n.starts_with(m.as_str())));
    sentences(unit).into_iter().enumerate().any(|(i, sentence)| {
        let Some((mut left, right, said)) = sides(sentence).or_else(|| {
            // "它的功能比 more 更丰富" takes its subject from the sentence before.
            let previous = i.checked_sub(1).and_then(|j| sentences(unit).get(j).copied())?;
            let (_, right, said) = sides_loose(sentence)?;
            Some((names(previous), right, said))
        }) else {
            return false;
        };
        left.retain(|n| !right.contains(n));
        let swapped = meets(&claim_left, &right) && meets(&claim_right, &left) && !meets(&claim_left, &left);
        swapped && !opposed(&claim_said, &said)
    })
}

/// The names of one side of a comparison, read as its sentence's language reads them: in
/// Chinese text every Latin-script word names something ("grep 比 ripgrep"), even where the
/// side itself holds no Chinese character.
fn side_names(side: &str, sentence: &str) -> Vec<String> {
    if sentence.chars().any(crate::text::is_cjk) && !side.chars().any(crate::text::is_cjk) {
        return names(&format!("{side} 的"));
    }
    names(side)
}

/// A comparison whose subject is a pronoun: its other side and its comparative only.
fn sides_loose(sentence: &str) -> Option<(Vec<String>, Vec<String>, Vec<Direction>)> {
    static THAN: OnceLock<Regex> = OnceLock::new();
    let than = re(&THAN, r"比");
    let m = than.find(sentence)?;
    let after = &sentence[m.end()..];
    let stop = after.find(['，', '。', '；', '的', '更', '还']).unwrap_or(after.len());
    let right = side_names(&after[..stop], sentence);
    (!right.is_empty()).then(|| (Vec::new(), right, directions(&after[stop..])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparative_reversed_on_the_property_compared() {
        let unit = "The json data type stores an exact copy of the input text; while jsonb data is stored in a decomposed binary format that makes it slightly slower to input due to added conversion overhead, but significantly faster to process, since no reparsing is needed.";
        assert!(comparative_reversed("jsonb is a little faster to input than json, because it is stored in a decomposed binary format.", unit));
        assert!(!comparative_reversed("jsonb is faster to process than json because it is stored in a decomposed binary format.", unit));
        assert!(!comparative_reversed("jsonb is slightly slower to input because of the conversion overhead.", unit));
        let unit = "It is still possible to use fs.watchFile(), which uses stat polling, but this method is slower and less reliable.";
        assert!(comparative_reversed("fs.watchFile() uses stat polling, which is faster and more reliable than fs.watch().", unit));
        assert!(!comparative_reversed("fs.watchFile() uses stat polling, which is slower and less reliable.", unit));
        let unit = "Autotools 位于 Make 之上，便是可移植构建架构的事实标准。它是相当慢的。CMake 显著地改善了速度。";
        assert!(comparative_reversed("Autotools 的构建速度相当快。", unit));
        assert!(!comparative_reversed("Autotools 的构建相当慢。", unit));
        let unit = "A higher level gives better compression, but will take longer to complete.";
        assert!(comparative_reversed("A higher compression level gives better compression and finishes faster.", unit));
        let unit = "## [1.6.10] - 2024-02-06\n1. 八字转阳历结果按时间先后排序，转换速度大幅提升。";
        assert!(comparative_reversed("1.6.10 版之后，八字转阳历的速度明显变慢了。", unit));
        assert!(!comparative_reversed("1.6.10 版让八字转阳历变快了很多。", unit));
        let unit = "注意 自从 lenny 之后，默认的 Debian 内核就是支持 KVM 的。";
        assert!(comparative_reversed("在 lenny 之前，Debian 的默认内核就已经支持 KVM 了。", unit));
        assert!(!comparative_reversed("lenny 以后 Debian 默认内核支持 KVM。", unit));
        let unit = "Since PostgreSQL 12, the default value of jit is on.";
        assert!(comparative_reversed("Before PostgreSQL 12, jit defaulted to on.", unit));
        assert!(!comparative_reversed("After PostgreSQL 12 the default value of jit is on.", unit));
    }

    #[test]
    fn the_sides_of_a_comparison_swapped() {
        let unit = "9.1.5. 扫描源代码树 在 ripgrep 软件包中的 rg(1) 命令，在扫描源代码树的典型场景中，提供了一个比 grep(1) 命令更快速的替代。";
        assert!(sides_swapped("在扫描源代码树这种场景下，grep 比 ripgrep 的 rg 更快。", unit));
        assert!(!sides_swapped("在扫描源代码树的时候，rg 比 grep 更快。", unit));
        assert!(!sides_swapped("grep 比 rg 更慢。", unit), "the sides and the comparative both turned say the same");
        let unit = "在用 less 命令查看的时候如果需要帮助可以按 “h”。它的功能比 more(1) 命令更丰富。";
        assert!(sides_swapped("more 的功能比 less 更丰富一些。", unit));
        assert!(!sides_swapped("less 的功能比 more 更丰富。", unit));
        let unit = "For such data, BRIN indexes are much smaller than GIN indexes.";
        assert!(sides_swapped("GIN indexes are smaller than BRIN indexes.", unit));
        assert!(!sides_swapped("BRIN indexes are smaller than GIN indexes.", unit));
        assert!(!sides_swapped("GIN indexes are larger than BRIN indexes.", unit));
    }
}
