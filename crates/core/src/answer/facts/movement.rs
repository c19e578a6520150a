//! Which way a figure moved: as the clause that states the figure says it ("a decrease in
//! gross profit rate to 23.3%"), or as a table row shows it (54,373 under 2022 beside 59,828
//! under 2021). A claim that says "improved to 23.3%" or "grew during 2022, reaching
//! $54,373 million" gets the figure right and the move wrong; word overlap with the rest of
//! the passage ("improved product margin rates") cannot see that.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use super::amounts::{amounts, Amount};
use super::periods::periods;
use super::polarity::Direction;
use crate::text::cached_regex as re;

/// The moves a clause states in words of change ("increased", "fell", "edged up", "下降"),
/// and in words that judge a change ("improved", "worsened", "改善"). A judging word means up
/// for most measures and down for one where less is better ("costs improved"), so it is read
/// against the measure the clause names.
pub fn movements(clause: &str) -> Vec<Direction> {
    let mut out = Vec::new();
    for (d, _) in movement_hits(clause) {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// The move said of the figure at `at`: the word of change nearest before it ("decreased
/// 4.5%, primarily reflecting cost increases" is down), or right after it ("4.5% lower");
/// every move the clause states when none stands beside the figure.
pub fn movements_near(clause: &str, at: Range<usize>) -> Vec<Direction> {
    let hits = movement_hits(clause);
    let before = hits.iter().filter(|(_, r)| r.end <= at.start && at.start - r.end <= 80).max_by_key(|(_, r)| r.end);
    let after = hits.iter().filter(|(_, r)| r.start >= at.end && r.start - at.end <= 30).min_by_key(|(_, r)| r.start);
    match before.or(after) {
        Some((d, _)) => vec![*d],
        None => movements(clause),
    }
}

/// Each word of change or of judgement in the clause, with the move it says and where.
pub(crate) fn movement_hits(clause: &str) -> Vec<(Direction, Range<usize>)> {
    static UP: OnceLock<Regex> = OnceLock::new();
    static DOWN: OnceLock<Regex> = OnceLock::new();
    static BETTER: OnceLock<Regex> = OnceLock::new();
    static WORSE: OnceLock<Regex> = OnceLock::new();
    static LESS_IS_BETTER: OnceLock<Regex> = OnceLock::new();
    let up = re(
        &UP,
        r"(?i)\b(?:increas\w*|ris(?:e|es|ing|en)|rose|gr[eo]w(?:s|n|ing|th)?|climb\w*|jump\w*|surg\w*|soar\w*|rais(?:e|ed|es|ing)|boost\w*|higher|expand\w*|doubl\w*|tripl\w*|(?:edged|went|moved|ticked|crept|is|was|were|are)\s+up)\b|增加|增长|增多|上升|上涨|提高|提升|扩大|升至|升到|增至|增到|翻倍|涨",
    );
    let down = re(
        &DOWN,
        r"(?i)\b(?:decreas\w*|declin\w*|fall(?:s|ing|en)?|fell|drop(?:s|ped|ping)?|lower(?:ed)?|reduc\w*|shr[iau]nk\w*|dipp?(?:ed|s)?|slipp?(?:ed|s)?|plung\w*|slump\w*|tumbl\w*|halv\w*|(?:edged|went|moved|ticked|is|was|were|are)\s+down)\b|减少|下降|下跌|降低|缩小|降至|降到|减至|减到|减半|缩短|下滑|回落|跌",
    );
    let better = re(&BETTER, r"(?i)\b(?:improv\w*|strengthen\w*)\b|改善|好转");
    let worse = re(&WORSE, r"(?i)\b(?:worsen\w*|deteriorat\w*|weaken\w*|degrad\w*)\b|恶化|变差|退化");
    let less_is_better = re(
        &LESS_IS_BETTER,
        r"(?i)\b(?:costs?|expenses?|loss(?:es)?|debt|leverage|errors?|latency|delays?|churn|defects?)\b|成本|费用|亏损|负债|错误|耗时|延迟",
    );
    let flip = less_is_better.is_match(clause);
    let mut out: Vec<(Direction, Range<usize>)> = Vec::new();
    let judged_up = if flip { Direction::Down } else { Direction::Up };
    for (regex, d) in [(up, Direction::Up), (down, Direction::Down), (better, judged_up), (worse, judged_up.opposite())] {
        out.extend(regex.find_iter(clause).map(|m| (d, m.range())));
    }
    out.sort_by_key(|(_, r)| r.start);
    out
}

/// Which side of zero an amount is said to fall on: a gain or a loss, a profit or a deficit.
/// "A net loss of $215 million" where the source's $215 million is a gain.
pub fn signs(clause: &str) -> Vec<Direction> {
    static GAIN: OnceLock<Regex> = OnceLock::new();
    static LOSS: OnceLock<Regex> = OnceLock::new();
    let gain = re(&GAIN, r"(?i)\b(?:gains?|profits?|surplus(?:es)?)\b|收益|盈利|利润|盈余");
    let loss = re(&LOSS, r"(?i)\b(?:loss(?:es)?|deficits?)\b|亏损|损失|赤字");
    let mut out = Vec::new();
    if gain.is_match(clause) {
        out.push(Direction::Up);
    }
    if loss.is_match(clause) {
        out.push(Direction::Down);
    }
    out
}

/// The one way a text says something moved, when it says exactly one.
pub fn one_movement(text: &str) -> Option<Direction> {
    match movements(text).as_slice() {
        [d] => Some(*d),
        _ => None,
    }
}

/// The figures of a table row with the year of each one's column: the row's amounts in order
/// against the years of the nearest line above it in the passage that names as many years.
/// `None` when the line is not a row of such a table: a line of prose that holds two figures
/// ("… to $4.60 per share from $4.30 per share") is no row.
pub fn row_by_year(line: &str, passage: &str, caption: Option<f64>) -> Option<Vec<(i32, Amount)>> {
    let row = amounts(line, caption);
    if row.len() < 2 || !only_figures_after_label(line, &row) {
        return None;
    }
    let line_at = passage.find(line)?;
    for above in passage[..line_at].lines().rev() {
        let years: Vec<i32> = periods(above).into_iter().filter_map(|(p, _)| p.year()).collect();
        if years.len() >= 2 {
            if years.len() == row.len() {
                return Some(years.into_iter().zip(row).collect());
            }
            // A statement that gives each amount with its share of sales ("(298) (8.2 %)
            // (303) (8.6 %)") has two cells under each year: the amounts are the row's.
            let paired = row.len() == 2 * years.len()
                && row.iter().enumerate().all(|(i, a)| (i % 2 == 1) == (a.family == super::amounts::Family::Percent));
            return paired.then(|| years.into_iter().zip(row.into_iter().step_by(2)).collect());
        }
    }
    None
}

/// Whether everything after a line's first figure is figures: no word longer than a unit's
/// abbreviation stands between or after them.
fn only_figures_after_label(line: &str, row: &[Amount]) -> bool {
    let Some(first) = row.first() else { return false };
    let mut rest = String::new();
    let mut at = first.span.start;
    for a in row {
        if a.span.start > at {
            rest.push_str(&line[at..a.span.start]);
            rest.push(' ');
        }
        at = at.max(a.span.end);
    }
    rest.push_str(&line[at.min(line.len())..]);
    let mut run = 0;
    for c in rest.chars() {
        run = if c.is_alphabetic() { run + 1 } else { 0 };
        if run > 3 {
            return false;
        }
    }
    true
}

/// The move a table row shows into the cell at `index`: against the nearest cell of `from`
/// (or, with no `from`, the nearest cell of the latest earlier year the row has; a row of
/// three-month and six-month columns has each year twice). Cells of opposite signs and equal
/// cells show no move: "improved" from a loss to a profit is not a comparison of sizes.
pub fn row_move(row: &[(i32, Amount)], index: usize, from: Option<i32>) -> Option<Direction> {
    let (year, now) = row.get(index).map(|(y, a)| (*y, a.value))?;
    let from = match from {
        Some(y) => y,
        None => row.iter().map(|(c, _)| *c).filter(|c| *c < year).max()?,
    };
    let before = row.iter().enumerate().filter(|(_, (c, _))| *c == from).min_by_key(|(j, _)| (j.abs_diff(index), *j < index)).map(|(_, (_, a))| a.value)?;
    if now == before || (now < 0.0) != (before < 0.0) {
        return None;
    }
    Some(if now.abs() > before.abs() { Direction::Up } else { Direction::Down })
}

/// Whether a claim compares its own two figures the wrong way round: "8.412ms，比 pinyin 的
/// 14.261ms 慢", "revenue of $3.1 billion, higher than the $3.4 billion". The first figure is
/// the subject's; "than" (比) stands between the two and the comparative beside it.
pub fn compares_its_figures_wrongly(claim: &str) -> bool {
    static THAN: OnceLock<Regex> = OnceLock::new();
    let found = amounts(claim, None);
    let [first, second] = found.as_slice() else { return false };
    if !super::amounts::families_agree(first.family, second.family) || first.value == second.value {
        return false;
    }
    let between = &claim[first.span.end..second.span.start];
    let than = re(&THAN, r"(?i)\bthan\b|比");
    let Some(m) = than.find(between) else { return false };
    // "more than 50%" bounds the second figure; it compares nothing with the first.
    if m.as_str() != "比" && between[m.end()..].trim().is_empty() {
        return false;
    }
    // English puts the comparative before "than"; Chinese after "比 B".
    let comparative = if m.as_str() == "比" { &claim[first.span.end + m.end()..] } else { between };
    let said = super::polarity::directions(comparative);
    let greater = |d: &Direction| match d {
        Direction::Up | Direction::Slower => Some(true),
        Direction::Down | Direction::Faster => Some(false),
        _ => None,
    };
    let ways: Vec<bool> = said.iter().filter_map(greater).collect();
    match ways.as_slice() {
        [greater] => *greater != (first.value > second.value),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_words_of_change_and_of_judgement() {
        assert_eq!(movements("revenue edged up in fiscal 2017"), vec![Direction::Up]);
        assert_eq!(movements("a decrease in gross profit rate to 23.3%"), vec![Direction::Down]);
        assert_eq!(movements("the gross profit rate improved to 23.3%"), vec![Direction::Up]);
        assert_eq!(movements("operating costs improved to 20% of sales"), vec![Direction::Down]);
        assert_eq!(movements("检测耗时几乎下降了一个量级"), vec![Direction::Down]);
        assert!(movements("sales were $5 million, more than expected").is_empty(), "a bound is not a move");
        assert_eq!(signs("a net pre-tax gain of $215 million"), vec![Direction::Up]);
        assert_eq!(signs("booked a loss of $215 million"), vec![Direction::Down]);
    }

    #[test]
    fn a_claim_compares_its_own_figures() {
        assert!(compares_its_figures_wrongly("pinyin-pro 首次使用字典初始化要 8.412ms，比 pinyin 的 14.261ms 慢。"));
        assert!(!compares_its_figures_wrongly("pinyin-pro 首次使用字典初始化要 8.412ms，比 pinyin 的 14.261ms 快。"));
        assert!(compares_its_figures_wrongly("Revenue of $3.1 billion was higher than the $3.4 billion of 2021."));
        assert!(!compares_its_figures_wrongly("Revenue of $3.5 billion was higher than the $3.4 billion of 2021."));
        assert!(!compares_its_figures_wrongly("Revenue rose to $3.5 billion in 2022 from $3.4 billion."));
        assert!(!compares_its_figures_wrongly("About 33% of revenue and more than 50% of net earnings come in the fourth quarter."));
    }

    #[test]
    fn a_row_shows_its_move_between_columns() {
        let passage = "(Dollars in millions)\nYears ended December 31, 2022 2021\nDefense, Space & Security 54,373 59,828";
        let row = row_by_year("Defense, Space & Security 54,373 59,828", passage, None).expect("a row under two years");
        assert_eq!(row_move(&row, 0, None), Some(Direction::Down));
        assert_eq!(row_move(&row, 0, Some(2021)), Some(Direction::Down));
        assert_eq!(row_move(&row, 1, None), None, "no earlier column");
        let halves = "Three Months Ended Six Months Ended\n2022 2021 2022 2021\nNet sales 3,642 3,507 7,354 7,927";
        let sales = row_by_year("Net sales 3,642 3,507 7,354 7,927", halves, None).expect("a row under four years");
        assert_eq!(row_move(&sales, 0, None), Some(Direction::Up));
        assert_eq!(row_move(&sales, 2, None), Some(Direction::Down), "the six months' own comparison");
        assert!(row_by_year("Defense 54,373", passage, None).is_none());
        let prose = "Years 2022 2021\n7% increase in our dividend to $4.60 per share from $4.30 per share";
        assert!(row_by_year("7% increase in our dividend to $4.60 per share from $4.30 per share", prose, None).is_none());
    }
}

/// Words between a measure and the word of its move that say nothing of the move: "耗时几乎
/// 下降", "profit has sharply increased".
fn is_filler(word: &str) -> bool {
    matches!(
        word,
        "has" | "have" | "had" | "was" | "were" | "is" | "are" | "been" | "be" | "also" | "slightly" | "sharply" | "significantly"
            | "substantially" | "materially" | "modestly" | "further" | "again" | "nearly" | "almost" | "by" | "about" | "roughly"
    )
}

const CJK_FILLERS: &[char] = &['几', '乎', '了', '的', '也', '都', '将', '会', '已', '经', '大', '幅', '明', '显', '略', '稍', '有', '所', '均', '又', '再', '将', '近'];

/// What moves, as the text names it right before a word of change: the last two Chinese
/// characters ("耗时" of "检测耗时几乎上升") or the last word ("profit" of "operating profit
/// grew"), fillers aside.
fn mover_before(text: &str) -> Option<String> {
    let trimmed = text.trim_end();
    if trimmed.chars().next_back().is_some_and(crate::text::is_cjk) {
        let chars: Vec<char> = trimmed.chars().rev().skip_while(|c| CJK_FILLERS.contains(c)).take_while(|c| crate::text::is_cjk(*c)).take(2).collect();
        return (chars.len() == 2).then(|| chars.into_iter().rev().collect());
    }
    let word = trimmed.split(|c: char| !c.is_alphanumeric()).rev().filter(|w| !w.is_empty()).find(|w| !is_filler(&w.to_lowercase()))?;
    (word.chars().count() >= 4 && word.chars().all(char::is_alphabetic)).then(|| word.to_lowercase())
}

/// The moves a text says of `mover`: each word of change that follows the mover's name with
/// only fillers between.
fn moves_of(text: &str, mover: &str) -> Vec<Direction> {
    let hits = movement_hits(text);
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    for (at, _) in lower.match_indices(mover) {
        let end = at + mover.len();
        // A whole word in English: "profit" is not the start of "profitability".
        if mover.is_ascii() && (lower[..at].chars().next_back().is_some_and(char::is_alphanumeric) || lower[end..].chars().next().is_some_and(char::is_alphanumeric)) {
            continue;
        }
        if let Some((d, r)) = hits.iter().find(|(_, r)| r.start >= end) {
            let between = &lower[end..r.start];
            let only_fillers = if mover.is_ascii() {
                between.split_whitespace().all(is_filler)
            } else {
                between.chars().all(|c| c.is_whitespace() || CJK_FILLERS.contains(&c))
            };
            if only_fillers {
                out.push(*d);
            }
        }
    }
    out
}

/// Whether the claim says its measure moved one way where the unit, naming the same measure
/// right before its word of change, says only the other: "检测耗时几乎上升了一个量级" against
/// "检测耗时几乎下降了一个量级同时检测精度也得到了极大的提升", where the clause as a whole says
/// both up and down.
pub fn mover_moved_the_other_way(claim: &str, unit: &str) -> bool {
    movement_hits(claim).into_iter().any(|(d, r)| {
        let Some(mover) = mover_before(&claim[..r.start]) else { return false };
        let stated = moves_of(unit, &mover);
        stated.contains(&d.opposite()) && !stated.contains(&d)
    })
}

#[cfg(test)]
mod mover_tests {
    use super::*;

    #[test]
    fn the_measure_named_before_its_move() {
        let unit = "相较于 V0.1 使用的 PSENet 模型 DBNet 的检测耗时几乎下降了一个量级同时检测精度也得到了极大的提升";
        assert!(mover_moved_the_other_way("相比 V0.1 用的 PSENet，DBNet 的检测耗时几乎上升了一个量级。", unit));
        assert!(!mover_moved_the_other_way("DBNet 的检测耗时下降了一个量级，精度也提升了。", unit));
        let unit = "Operating profit decreased 4.5%, primarily reflecting certain operating cost increases.";
        assert!(mover_moved_the_other_way("Europe's operating profit grew in 2021.", unit));
        assert!(!mover_moved_the_other_way("Operating profit fell 4.5% on higher costs.", unit));
        assert!(!mover_moved_the_other_way("Operating costs increased.", unit), "costs is not what decreased");
    }
}
