//! A claim against one unit of a source (a sentence or a table row), slot by slot. The unit
//! shares the claim's words — that is why it was picked — so each slot the claim states must
//! agree with what the unit says: its figures as amounts, the periods of those figures, the
//! names they belong to, the claim's polarity and its direction. The first slot that
//! disagrees is the reason the unit does not support the claim.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use super::amounts::{amounts, families_agree, named_units, Amount, Family};
use super::movement::{compares_its_figures_wrongly, movements, movements_near, one_movement, row_by_year, row_move, signs};
use super::names::{mentions, names};
use super::periods::{periods, Period};
use super::polarity::{antonymous, denied_term, directions, frequencies, negated, negator_end, opposed, replaces, swapped_ends};
use super::{Reason, Statement};
use crate::text::content_terms;

/// One unit of a source with what surrounds it.
pub struct SourceUnit<'a> {
    pub text: &'a str,
    /// The sentence before: it may name what this one calls "it" or "the school".
    pub previous: &'a str,
    /// The passage before the unit: it may have named what the unit is about.
    pub before: &'a str,
    /// The whole passage: a table's header row and caption stand outside the row.
    pub passage: &'a str,
    /// The document's title and the passage's heading path.
    pub context: &'a str,
    /// Names the question asked about (see `ClaimFacts::asked_names`).
    pub asked: &'a [String],
}

/// Clauses of a unit as byte ranges: a figure belongs to the clause it stands in ("Eight
/// projects with a combined 1.1 MW are in development, including an array at Holloway Farm":
/// 1.1 MW is the eight projects', not Holloway Farm's).
pub fn clauses(unit: &str) -> Vec<Range<usize>> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i);\s|[；，。]|[.!?]\s|,\s+(?:including|such as|while|whereas|but|which|where|compared (?:with|to)|against|versus|up from|down from|of which|and|although|though|except|so|this|that|it|these|those|we|they|there)\b|\s(?:while|whereas|including|compared (?:with|to)|up from|down from|but|however|because|so that|unless|although|though|or)\s|,?\s(?:(?:primarily|mainly|largely|partly|partially)\s+)?(?:due\s+to|driven\s+by|as\s+a\s+result\s+of|offset\s+by|attributable\s+to)\s|或者|或|以及|但是|但|然而|不过|因为|所以|尽管|虽然|否则|即使|而是",
        )
        .unwrap_or_else(|_| unreachable!())
    });
    let mut out = Vec::new();
    let mut last = 0;
    for m in re.find_iter(unit) {
        if m.start() > last {
            out.extend(split_at_next_period(unit, last..m.start()));
        }
        last = m.start();
    }
    out.extend(split_at_next_period(unit, last..unit.len()));
    out
}

/// A clause that gives a figure to one period and goes on to another ("… 2017 included 52
/// weeks and fiscal 2018 included 53 weeks") is two clauses: each figure keeps its own year.
/// The cut is made only after a figure, so "fiscal 2019 and fiscal 2017 included 52 weeks"
/// keeps both years for its 52.
fn split_at_next_period(unit: &str, clause: Range<usize>) -> Vec<Range<usize>> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)\s(?:and|while|whereas)\s+(?:(?:in|for|during|fiscal|calendar|the|year|fy)\s+)*(?:fy\s?)?(?:19|20)\d\d\b")
            .unwrap_or_else(|_| unreachable!())
    });
    let mut out = Vec::new();
    let mut start = clause.start;
    for m in re.find_iter(&unit[clause.clone()]) {
        let at = clause.start + m.start();
        let before = &unit[start..at];
        let figure_before = amounts(before, None).iter().any(|a| before[a.span.clone()].chars().any(|c| c.is_ascii_digit()));
        if figure_before {
            out.push(start..at);
            start = at;
        }
    }
    out.push(start..clause.end);
    out
}

/// A claim cut where it joins statements ("…, booking a gain", "; she has held…", " and
/// …", "，"): each piece must be said by one sentence of the source, so a claim may join
/// facts of neighbouring sentences but not make one fact of words scattered over them.
pub fn pieces(claim: &str) -> Vec<&str> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r",\s+|;\s+|:\s+|\s(?:and|but|while|whereas|so|or|unless)\s|[，；：。]|但是|而且|并且|同时|或者|或")
            .unwrap_or_else(|_| unreachable!())
    });
    let mut out = Vec::new();
    let mut last = 0;
    for m in re.find_iter(claim) {
        // "May 3, 2023" and "1,000, 2,000" keep their commas.
        if claim[m.end()..].starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        if m.start() > last {
            out.push(&claim[last..m.start()]);
        }
        last = m.end();
    }
    if last < claim.len() {
        out.push(&claim[last..]);
    }
    out.into_iter().filter(|p| p.chars().any(char::is_alphanumeric)).collect()
}

/// Words of a clause that carry what it says (names and figures aside): what aligns a claim
/// with the clause that says the same thing.
fn predicate_terms(text: &str, names: &[String]) -> HashSet<String> {
    content_terms(text)
        .into_iter()
        .filter(|t| !t.as_bytes()[0].is_ascii_digit() && !names.contains(t))
        .map(|t| fold(&t))
        .collect()
}

/// A crude fold of English word forms ("rose"/"risen" aside): "increased" and "increases"
/// meet at "increas".
pub(crate) fn fold(term: &str) -> String {
    for suffix in ["ations", "ation", "ings", "ing", "ies", "ied", "ed", "es", "s", "ly"] {
        if let Some(stem) = term.strip_suffix(suffix) {
            if stem.chars().count() >= 4 {
                return stem.to_string();
            }
        }
    }
    term.to_string()
}

/// The clause of `unit` that says most of what the claim says; the whole unit when no clause
/// shares at least two of its words (or one, for a claim of one or two). A clause much longer
/// than the claim (text extracted without punctuation runs on for a paragraph) is narrowed to
/// the stretch around the words it shares, so that a "not" elsewhere in it does not count.
fn aligned_clause<'u>(unit: &'u str, claim_terms: &HashSet<String>, claim_names: &[String], claim: &str) -> Option<&'u str> {
    let parts = clauses(unit);
    let lower = unit.to_lowercase();
    let mut candidates: Vec<Range<usize>> = Vec::new();
    // CJK packs a clause into fewer characters than English does.
    let factor = if unit.chars().any(crate::text::is_cjk) { 1.5 } else { 2.0 };
    let longest = ((claim.chars().count() as f32 * factor) as usize).max(MIN_STRETCH_CHARS);
    for r in &parts {
        let chars: Vec<(usize, char)> = unit[r.clone()].char_indices().collect();
        if chars.len() <= longest + longest / 5 {
            candidates.push(r.clone());
            continue;
        }
        let stride = (longest / 2).max(1);
        let mut start = 0;
        while start < chars.len() {
            let end = (start + longest).min(chars.len());
            let from = r.start + chars[start].0;
            let to = if end == chars.len() { r.end } else { r.start + chars[end].0 };
            candidates.push(from..to);
            if end == chars.len() {
                break;
            }
            start += stride;
        }
    }
    let mut best: Option<(f32, Range<usize>)> = None;
    let claim_figures = amounts(claim, None);
    for r in &candidates {
        let text = &unit[r.clone()];
        let terms = predicate_terms(text, &[]);
        // The clause that states the claim's figure is the one it speaks of ("别用纯 SMTP
        // 的 25 端口" is about "代替纯 SMTP 端口 25", not "使用 … SMTP 端口 587").
        let stated_figures = if claim_figures.is_empty() { 0 } else { amounts(text, None).iter().filter(|a| claim_figures.iter().any(|c| c.stated_by(a))).count() };
        let shared = claim_terms.iter().filter(|t| terms.contains(*t)).count() as f32 + stated_figures as f32;
        // A name counts where the clause's line (or sentence) gives it: "Wayland 是…协议：新、
        // 简单、快速，不需要 setuid root 二进制" is Wayland's clause; the next line's
        // "…需要 setuid root 二进制" is X's.
        let line_start = unit[..r.start].char_indices().rev().find(|(_, c)| matches!(c, '\n' | '。' | '.')).map_or(0, |(i, c)| i + c.len_utf8());
        let named = claim_names.iter().filter(|n| lower.get(line_start..r.end).is_some_and(|l| mentions(l, n))).count() as f32;
        let score = shared + 0.5 * named;
        // Clauses that share as many words are told apart by the longest run of text they
        // share with the claim: "减少该分区的大小" is "增加该分区的大小", not "该分区示例中的…".
        let better = match &best {
            None => true,
            Some((b, _)) if score > *b => true,
            Some((b, current)) if score == *b => longest_shared_run(claim, text) > longest_shared_run(claim, &unit[current.clone()]),
            Some(_) => false,
        };
        if better {
            best = Some((score, r.clone()));
        }
    }
    let needed = if claim_terms.len() <= 2 { 1.0 } else { 2.0 };
    match best {
        Some((score, r)) if score >= needed => Some(&unit[r]),
        _ if candidates.len() == 1 => Some(unit),
        _ => None,
    }
}

/// The length in characters of the longest stretch two texts share, case aside.
fn longest_shared_run(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut previous = vec![0usize; b.len() + 1];
    let mut longest = 0;
    for x in &a {
        let mut row = vec![0usize; b.len() + 1];
        for (j, y) in b.iter().enumerate() {
            if x == y {
                row[j + 1] = previous[j] + 1;
                longest = longest.max(row[j + 1]);
            }
        }
        previous = row;
    }
    longest
}

/// The shortest stretch a long clause is narrowed to, in characters.
const MIN_STRETCH_CHARS: usize = 40;

/// The year of the column a table figure stands in: the figures of its line in order against
/// the years of the nearest line above it in the passage that names as many years. `None`
/// when the line is not a row of such a table.
fn column_year(text: &str, at: usize, passage: &str, caption: Option<f64>) -> Option<i32> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = &text[line_start..line_end];
    let row = amounts(line, caption);
    if row.len() < 2 {
        return None;
    }
    let index = row.iter().position(|a| a.span.start <= at - line_start && at - line_start < a.span.end.max(a.span.start + 1))?;
    let line_at = passage.find(line)?;
    for above in passage[..line_at].lines().rev() {
        let years: Vec<i32> = periods(above)
            .into_iter()
            .filter_map(|(p, _)| match p {
                Period::Year(y) => Some(y),
                Period::Date { year: Some(y), .. } | Period::Month { year: Some(y), .. } => Some(y),
                _ => None,
            })
            .collect();
        if years.len() >= 2 {
            return (years.len() == row.len()).then(|| years[index]);
        }
    }
    None
}

/// The periods in `scope` of `text` that belong to the figure at `at`: those between the
/// words that join it to the figures before and after it ("fell to 33.5% in fiscal 2017 from
/// 38.4% in fiscal 2016": 2016 is the second figure's).
fn periods_of_figure(text: &str, scope: Range<usize>, at: &Range<usize>, figures: &[Range<usize>]) -> Vec<Period> {
    static JOIN: OnceLock<Regex> = OnceLock::new();
    let join = JOIN.get_or_init(|| {
        Regex::new(r"\s(?:and|from|to|compared\s+(?:to|with)|versus|vs\.?|against|than|over)\s|比|较|从|与|和|相比|对比|而")
            .unwrap_or_else(|_| unreachable!())
    });
    let Some(part) = text.get(scope.clone()) else { return Vec::new() };
    let before = figures.iter().map(|f| f.end).filter(|&e| e <= at.start && e >= scope.start).max();
    let after = figures.iter().map(|f| f.start).filter(|&s| s >= at.end && s <= scope.end).min();
    let joins: Vec<usize> = join.find_iter(part).map(|m| m.start() + scope.start).collect();
    let from = before.and_then(|b| joins.iter().copied().filter(|&j| j >= b && j < at.start).max()).unwrap_or(scope.start);
    let to = after.and_then(|a| joins.iter().copied().filter(|&j| j >= at.end && j < a).min()).unwrap_or(scope.end);
    periods(part).into_iter().filter(|(_, r)| r.start + scope.start >= from && r.end + scope.start <= to).map(|(q, _)| q).collect()
}

/// A table row's whole label: a label too long for its column wraps, and the row's figures
/// stand on its last line ("Selling, general, and" / "administrative expenses (298) …").
fn label_of(lines: &[&str], index: usize, own: &str) -> String {
    let starts_lower = own.trim_start().starts_with(|c: char| c.is_lowercase());
    match index.checked_sub(1).map(|i| lines[i]) {
        Some(above) if starts_lower && !above.chars().any(|c| c.is_ascii_digit()) => format!("{} {own}", above.trim()),
        _ => own.to_string(),
    }
}

/// Whether `name` is the initials of consecutive words of `label` ("SG&A" for "Selling,
/// general, and administrative expenses"; "and" and "&" left aside).
fn abbreviates(name: &str, label: &str) -> bool {
    let letters: Vec<char> = name.chars().filter(|c| c.is_alphabetic()).flat_map(char::to_lowercase).collect();
    if !(2..=6).contains(&letters.len()) || name.chars().any(char::is_whitespace) {
        return false;
    }
    let initials: Vec<char> = label
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case("and") && !w.eq_ignore_ascii_case("of"))
        .filter_map(|w| w.chars().next())
        .flat_map(char::to_lowercase)
        .collect();
    initials.windows(letters.len()).any(|w| w == letters.as_slice())
}

/// Why the source figure `stated` that matches the claim's `claimed` is not it: it stands in
/// a table column whose header names another unit than the claim's, or none while another
/// column names the claim's; or the claim names what another column's header names and
/// nothing of its own ("output … 1,150 kW" where 1,150 is under "Capacity", not "Output").
fn column_mismatch(claim_text: &str, claimed: &Amount, stated: &Amount, unit: &SourceUnit<'_>) -> Option<Reason> {
    if stated.family != Family::Plain {
        return None;
    }
    let column = super::table::column_at(unit.text, stated.span.start, unit.passage)?;
    if !matches!(claimed.family, Family::Plain | Family::Count) {
        match column.family {
            Some(f) if !families_agree(claimed.family, f) => return Some(Reason::ScaleOrUnit),
            None if column.other_families.contains(&claimed.family) => return Some(Reason::OtherEntity),
            _ => {}
        }
    }
    let mut claim_terms: HashSet<String> = header_terms(claim_text);
    // "Coastal Strip sites produced 797 MWh": when the claim's unit is its column's, the word
    // after the row's label is what the row is (sites, region, segment), not a column the
    // claim reads.
    let unit_agrees = !matches!(claimed.family, Family::Plain | Family::Count) && column.family.is_some_and(|f| families_agree(claimed.family, f));
    if let Some(noun) = word_after_label(claim_text, unit.text).filter(|_| unit_agrees) {
        claim_terms.remove(&noun);
    }
    let own = header_terms(&column.header);
    let others: HashSet<String> = column.other_headers.iter().flat_map(|h| header_terms(h)).collect();
    let names_other = others.iter().any(|t| !own.contains(t) && claim_terms.contains(t));
    let names_own = own.iter().any(|t| !others.contains(t) && claim_terms.contains(t));
    (names_other && !names_own).then_some(Reason::OtherEntity)
}

/// The word that follows a table row's label (its text before the first cell break or
/// figure) where the claim names the row, folded as [`header_terms`] folds it.
fn word_after_label(claim_text: &str, row: &str) -> Option<String> {
    let label = row.split(['\t', '|']).next().unwrap_or("").split(|c: char| c.is_ascii_digit()).next().unwrap_or("").trim();
    if label.chars().filter(|c| c.is_alphabetic()).count() < 3 {
        return None;
    }
    let claim_lower = claim_text.to_lowercase();
    let at = claim_lower.find(&label.to_lowercase())? + label.len();
    let next = claim_lower.get(at..)?.split_whitespace().next()?;
    header_terms(next).into_iter().next()
}

/// The words of a header (or claim) that say what a column holds: no figures or years (the
/// period check has those) and no units in parentheses (the unit check has those).
fn header_terms(text: &str) -> HashSet<String> {
    let mut plain = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    content_terms(&plain).into_iter().filter(|t| !t.as_bytes()[0].is_ascii_digit()).map(|t| fold(&t)).collect()
}

/// Where the passage states `a` outside the unit, in a sentence or table row where it belongs
/// to the claim's period (its column's year) and to the claim's names (or to none): the
/// clause that states it, and where in the clause the figure stands.
fn stated_elsewhere<'p>(a: &Amount, claim: &Statement, claim_words: &[String], needed: &[&String], unit: &SourceUnit<'p>, caption: Option<f64>) -> Option<(&'p str, Range<usize>)> {
    let context_lower = unit.context.to_lowercase();
    let claim_words: HashSet<String> = claim_words.iter().filter(|t| !t.as_bytes()[0].is_ascii_digit()).map(|t| fold(t)).collect();
    let sentences = crate::text::sentences(unit.passage);
    sentences.iter().enumerate().find_map(|(i, r)| {
        let sentence = &unit.passage[r.clone()];
        // Rows under a sentence that ends in a colon ("… the votes were as follows:") say
        // what that sentence says: "One Year 994,856,204" is a count of votes.
        let lead_in = i.checked_sub(1).map(|j| &unit.passage[sentences[j].clone()]).filter(|s| s.trim_end().ends_with([':', '：'])).unwrap_or("");
        let words = content_terms(sentence).into_iter().chain(content_terms(lead_in));
        let shared = words.map(|t| fold(&t)).filter(|t| claim_words.contains(t)).collect::<HashSet<_>>().len();
        if shared < 2 {
            return None;
        }
        let found = amounts(sentence, caption);
        let index = (0..found.len()).filter(|&i| a.stated_by(&found[i])).min_by(|&i, &j| a.distance(&found[i]).total_cmp(&a.distance(&found[j])))?;
        let parts = clauses(sentence);
        let clause = parts.iter().find(|c| c.contains(&found[index].span.start)).cloned().unwrap_or(0..sentence.len());
        let clause_text = &sentence[clause.clone()];
        let figure = found[index].span.start - clause.start..found[index].span.end - clause.start;
        let clause_periods: Vec<Period> = periods(clause_text).into_iter().map(|(p, _)| p).collect();
        let column = column_year(sentence, found[index].span.start, unit.passage, caption);
        let periods_fit = claim.periods.iter().all(|p| {
            let column_fits = match (p, column) {
                (Period::Year(y), Some(c)) => c == *y,
                _ => true,
            };
            let clause_fits = clause_periods.iter().any(|q| p.named_by(q)) || !clause_periods.iter().any(|q| p.same_kind(q));
            column_fits && clause_fits
        });
        let lower = clause_text.to_lowercase();
        let others = names(clause_text).into_iter().any(|n| !claim.names.contains(&n) && !mentions(&context_lower, &n));
        let names_fit = needed.is_empty() || needed.iter().any(|n| mentions(&lower, n)) || !others;
        (periods_fit && names_fit).then_some((clause_text, figure))
    })
}

/// Why `unit` does not support `claim`, or `None` when every slot the claim states agrees.
/// `claim_text` is the claim as written; `claim` its slots.
pub fn conflict(claim_text: &str, claim: &Statement, unit: &SourceUnit<'_>) -> Option<Reason> {
    let compared = Comparison::of(claim_text, claim, unit);
    compared.check().err()
}

/// A figure of the claim found in the unit: the unit's clause it stands in, the index of the
/// unit's amount, the claim's piece that states it, and where the claim states it.
type FigureAt<'c> = (Range<usize>, usize, &'c str, Range<usize>);

/// One claim against one unit, with the unit's texts as the slots read them.
struct Comparison<'c> {
    claim_text: &'c str,
    claim: &'c Statement,
    unit: &'c SourceUnit<'c>,
    caption: Option<f64>,
    unit_amounts: Vec<Amount>,
    unit_clauses: Vec<Range<usize>>,
    unit_lower: String,
    previous_lower: String,
    before_lower: String,
    context_lower: String,
    passage_lower: String,
    /// The claim's names that the document's title and headings do not give.
    needed: Vec<&'c String>,
}

impl<'c> Comparison<'c> {
    fn of(claim_text: &'c str, claim: &'c Statement, unit: &'c SourceUnit<'c>) -> Comparison<'c> {
        let caption = super::amounts::caption_scale(unit.passage).or_else(|| super::amounts::caption_scale(unit.context));
        let context_lower = unit.context.to_lowercase();
        Comparison {
            claim_text,
            claim,
            unit,
            caption,
            unit_amounts: amounts(unit.text, caption),
            unit_clauses: clauses(unit.text),
            unit_lower: unit.text.to_lowercase(),
            previous_lower: unit.previous.to_lowercase(),
            before_lower: unit.before.to_lowercase(),
            passage_lower: unit.passage.to_lowercase(),
            needed: claim.names.iter().filter(|n| !mentions(&context_lower, n)).collect(),
            context_lower,
        }
    }

    /// The slots in order; the first that disagrees is the reason.
    fn check(&self) -> Result<(), Reason> {
        if compares_its_figures_wrongly(self.claim_text) {
            return Err(Reason::Direction);
        }
        let figures = self.figures()?;
        self.units_named()?;
        self.periods(&figures)?;
        self.names()?;
        // A row that shows the move the other way says more than whose clause it is.
        self.row_moves(&figures)?;
        self.figures_together(&figures)?;
        self.figures_named(&figures)?;
        self.relation_named(&figures)?;
        // A comparison may take its subject from the sentence before the unit ("它的功能比 more
        // 更丰富" after a sentence about less).
        let with_previous = format!("{}\n{}", self.unit.previous, self.unit.text);
        if super::comparison::sides_swapped(self.claim_text, &with_previous)
            || super::comparison::comparative_reversed(self.claim_text, &with_previous)
            || super::movement::mover_moved_the_other_way(self.claim_text, self.unit.text)
        {
            return Err(Reason::Direction);
        }
        polarity_and_direction(self.claim_text, self.unit.text)
    }

    fn clause_of(&self, at: usize) -> Range<usize> {
        self.unit_clauses.iter().find(|r| r.contains(&at)).cloned().unwrap_or(0..self.unit.text.len())
    }

    /// Names in `text` that are neither the claim's nor the document's own.
    fn others(&self, text: &str) -> Vec<String> {
        names(text).into_iter().filter(|n| !self.claim.names.contains(n) && !mentions(&self.context_lower, n)).collect()
    }

    /// Figures: each must be stated in the unit, as an amount, or where the passage states it
    /// for the same name and period (a table row above the sentence that explains it).
    fn figures(&self) -> Result<Vec<FigureAt<'c>>, Reason> {
        let (claim, unit, caption) = (self.claim, self.unit, self.caption);
        let mut found_at = Vec::new();
        let claim_words = content_terms(self.claim_text);
        let claim_pieces = pieces(self.claim_text);
        let piece_of = |at: usize| -> &'c str {
            claim_pieces
                .iter()
                .find(|p| {
                    let start = p.as_ptr() as usize - self.claim_text.as_ptr() as usize;
                    (start..start + p.len()).contains(&at)
                })
                .copied()
                .unwrap_or(self.claim_text)
        };
        for a in &claim.amounts {
            // The figure in a table column whose header gives it another unit, or in a column
            // beside the one with the claim's unit, is another figure that happens to match.
            // A rounded figure may fit several cells of a row: the one in the claim's year's
            // column first, then the closest ("$36,365 million" is the 36,365 of its row, not
            // the 36,248 beside it that rounds to it).
            let mut stated: Vec<(usize, &Amount)> = self.unit_amounts.iter().enumerate().filter(|(_, u)| a.stated_by(u)).collect();
            let off_year = |u: &Amount| {
                let column = column_year(unit.text, u.span.start, unit.passage, caption);
                column.is_some_and(|c| claim.periods.iter().any(|p| matches!(p, Period::Year(y) if *y != c)) && !claim.periods.iter().any(|p| matches!(p, Period::Year(y) if *y == c)))
            };
            stated.sort_by(|(_, x), (_, y)| (off_year(x), a.distance(x)).partial_cmp(&(off_year(y), a.distance(y))).unwrap_or(std::cmp::Ordering::Equal));
            let found = stated.iter().copied().find(|(_, u)| column_mismatch(self.claim_text, a, u, unit).is_none());
            if found.is_none() {
                if let Some(reason) = stated.first().and_then(|(_, u)| column_mismatch(self.claim_text, a, u, unit)) {
                    return Err(reason);
                }
            }
            let piece = piece_of(a.span.start);
            if let Some((i, u)) = found {
                let clause = self.clause_of(u.span.start);
                let figure = u.span.start - clause.start..u.span.end - clause.start;
                if moved_against((piece, a.span.clone()), self.claim_text, (&unit.text[clause.clone()], figure)) {
                    return Err(Reason::Direction);
                }
                found_at.push((clause, i, piece, a.span.clone()));
                continue;
            }
            // A figure in words may stand for no figure of the source ("two of the
            // segments"); one with a unit that the source gives the same number in another
            // unit ("two days" where it says "two weeks") is another scale.
            if a.spelled {
                if a.family != Family::Plain && self.unit_amounts.iter().any(|u| u.family != Family::Plain && a.rescaled_from(u)) {
                    return Err(Reason::ScaleOrUnit);
                }
                continue;
            }
            if let Some(clause) = stated_elsewhere(a, claim, &claim_words, &self.needed, unit, caption) {
                if moved_against((piece, a.span.clone()), self.claim_text, clause) {
                    return Err(Reason::Direction);
                }
                continue;
            }
            return Err(if self.unit_amounts.iter().any(|u| a.rescaled_from(u)) {
                Reason::ScaleOrUnit
            } else if !self.unit_amounts.is_empty() {
                Reason::Figure
            } else {
                Reason::NotStated
            });
        }
        Ok(found_at)
    }

    /// The move the claim states against the move its table row shows: "grew during 2022,
    /// reaching $54,373 million" where the row has 54,373 under 2022 and 59,828 under 2021.
    /// The row is the one holding a figure of the claim or, for a claim without figures
    /// ("International revenue edged up in fiscal 2017"), the row whose label says most of
    /// what the claim says; the move is into the claim's year (or the figure's column) from
    /// the claim's other year (or the latest earlier column).
    fn row_moves(&self, figures: &[FigureAt<'_>]) -> Result<(), Reason> {
        let Some(claimed) = one_movement(self.claim_text) else { return Ok(()) };
        let years: Vec<i32> = self.claim.periods.iter().filter_map(|p| p.year()).collect();
        let text = self.unit.text;
        let line_of = |at: usize| {
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            start..end
        };
        let mut rows: Vec<(Vec<(i32, Amount)>, usize)> = Vec::new();
        for (_, index, _, _) in figures {
            let Some(u) = self.unit_amounts.get(*index) else { continue };
            let line = line_of(u.span.start);
            let Some(row) = row_by_year(&text[line.clone()], self.unit.passage, self.caption) else { continue };
            if let Some(i) = row.iter().position(|(_, a)| a.span.start == u.span.start - line.start) {
                rows.push((row, i));
            }
        }
        // ("The three months ended …" is a period written in words, not a figure.)
        if self.claim.amounts.iter().all(|a| a.spelled) {
            let claim_terms = predicate_terms(self.claim_text, &self.claim.names);
            // The row may stand anywhere in the cited passage: a claim without figures shares
            // more words with a table's header than with the row it is about. Outside the
            // unit, the label must share two of the claim's words.
            let lines: Vec<&str> = self.unit.passage.lines().collect();
            let best = lines
                .iter()
                .enumerate()
                .filter_map(|(i, line)| {
                    let row = row_by_year(line, self.unit.passage, self.caption)?;
                    let label = label_of(&lines, i, &line[..row.first()?.1.span.start]);
                    let shared = predicate_terms(&label, &[]).iter().filter(|t| claim_terms.contains(*t)).count()
                        + self.claim.names.iter().filter(|n| abbreviates(n, &label)).count();
                    let year = years.iter().copied().filter(|y| row.iter().any(|(c, _)| c == y)).max()?;
                    let index = row.iter().position(|(c, _)| *c == year)?;
                    let needs = if text.contains(*line) { 1 } else { 2 };
                    (shared >= needs).then_some((shared, row, index))
                })
                .max_by_key(|(shared, _, _)| *shared);
            rows.extend(best.map(|(_, row, index)| (row, index)));
        }
        for (row, index) in rows {
            let year = row[index].0;
            let from = years.iter().copied().filter(|y| *y < year && row.iter().any(|(c, _)| c == y)).max();
            if row_move(&row, index, from).is_some_and(|shown| shown == claimed.opposite()) {
                return Err(Reason::Direction);
            }
        }
        Ok(())
    }

    /// A unit the claim names without a figure ("speed in GHz") where the passage names
    /// only other units of its kind ("`speed` {number} (in MHz)").
    fn units_named(&self) -> Result<(), Reason> {
        let claimed = named_units(self.claim_text);
        if claimed.is_empty() {
            return Ok(());
        }
        let stated = named_units(self.unit.passage);
        let other_of_kind = claimed.iter().any(|(family, _)| stated.iter().any(|(f, _)| f == family));
        if other_of_kind && !claimed.iter().any(|c| stated.contains(c)) {
            return Err(Reason::ScaleOrUnit);
        }
        Ok(())
    }

    /// Periods: each must be the unit's (or its context's), and the period of the figure's
    /// own clause or table column when it has one.
    fn periods(&self, figures: &[FigureAt<'_>]) -> Result<(), Reason> {
        let unit = self.unit;
        let unit_periods: Vec<Period> = periods(unit.text).into_iter().map(|(p, _)| p).collect();
        let around: Vec<Period> = periods(unit.previous).into_iter().chain(periods(unit.context)).map(|(p, _)| p).collect();
        let passage_periods: Vec<Period> = periods(unit.passage).into_iter().map(|(p, _)| p).collect();
        for p in &self.claim.periods {
            self.period_of_figures(p, figures)?;
            if unit_periods.iter().chain(&around).any(|q| p.named_by(q)) {
                continue;
            }
            if unit_periods.iter().chain(&around).any(|q| p.same_kind(q)) {
                return Err(Reason::Period);
            }
            if passage_periods.iter().any(|q| p.named_by(q)) {
                continue;
            }
            if passage_periods.iter().any(|q| p.same_kind(q)) {
                return Err(Reason::Period);
            }
        }
        Ok(())
    }

    /// A period binds the figures of its own piece of the claim ("…$404.4 billion at the end
    /// of 2022, up from $377.5 billion a year earlier": 2022 is not the second figure's).
    fn period_of_figures(&self, p: &Period, figures: &[FigureAt<'_>]) -> Result<(), Reason> {
        for (clause, amount_index, piece, at) in figures {
            if !self.own_periods(piece, at).contains(p) {
                continue;
            }
            let column = self.unit_amounts.get(*amount_index).and_then(|a| column_year(self.unit.text, a.span.start, self.unit.passage, self.caption));
            if let (Period::Year(y), Some(c)) = (p, column) {
                if c != *y {
                    return Err(Reason::Period);
                }
            }
            // The figure's own clause gives it a period the claim does not name at all
            // ("$4.8 billion in 2022" given to 2023); a comparison the claim repeats ("than in
            // 2023") is no conflict.
            let clause_periods: Vec<Period> = periods(&self.unit.text[clause.clone()]).into_iter().map(|(q, _)| q).collect();
            let foreign = clause_periods.iter().any(|q| p.same_kind(q) && !self.claim.periods.iter().any(|c| c.named_by(q) || q.named_by(c)));
            if foreign && !clause_periods.iter().any(|q| p.named_by(q)) {
                return Err(Reason::Period);
            }
        }
        Ok(())
    }

    /// Names: each must be the unit's (or its context's, or the passage's before it).
    fn names(&self) -> Result<(), Reason> {
        let unit_names: Vec<String> = names(self.unit.text);
        for n in &self.needed {
            if mentions(&self.unit_lower, n) || mentions(&self.previous_lower, n) || mentions(&self.before_lower, n) {
                continue;
            }
            // The subject the question asked about, which a passage about it need not repeat
            // ("Sorts are guaranteed to be stable" under "Sorting HOW TO", asked of Python). A
            // name the library lacks is the abstain rule's to catch, before anything is generated.
            if self.unit.asked.contains(*n) && !mentions(&self.passage_lower, n) {
                continue;
            }
            let elsewhere = mentions(&self.passage_lower, n);
            let unit_is_about_another = unit_names.iter().any(|u| !self.claim.names.contains(u) && !mentions(&self.context_lower, u));
            return Err(if elsewhere && unit_is_about_another { Reason::OtherEntity } else { Reason::NotStated });
        }
        Ok(())
    }

    /// The figures one piece of the claim states together stand together in the source: "$325
    /// million related to the 737 program" is not made of "$325 million … 777X" and "… 737".
    fn figures_together(&self, figures: &[FigureAt<'_>]) -> Result<(), Reason> {
        for (i, (clause, _, piece, at)) in figures.iter().enumerate() {
            let own = self.own_periods(piece, at);
            // Two figures of one piece each with a period of its own are a comparison across
            // periods ("33.5% in fiscal 2017 from 38.4% in fiscal 2016"), which a source
            // may well state in two clauses.
            let across_periods = |other_at: &Range<usize>| {
                let other = self.own_periods(piece, other_at);
                !own.is_empty() && !other.is_empty() && own != other
            };
            if figures[i + 1..].iter().any(|(other, _, p, other_at)| p.as_ptr() == piece.as_ptr() && other != clause && !across_periods(other_at)) {
                return Err(Reason::OtherEntity);
            }
        }
        Ok(())
    }

    /// The periods of a claim's piece that belong to the figure at `at` (a span of the claim).
    fn own_periods(&self, piece: &str, at: &Range<usize>) -> Vec<Period> {
        let piece_start = piece.as_ptr() as usize - self.claim_text.as_ptr() as usize;
        let figures: Vec<Range<usize>> = self.claim.amounts.iter().map(|a| a.span.clone()).collect();
        periods_of_figure(self.claim_text, piece_start..piece_start + piece.len(), at, &figures)
    }

    /// Each figure belongs to the names of the piece of the claim that states it (and to the
    /// question's, for a bare answer): its clause must not be about another name.
    fn figures_named(&self, figures: &[FigureAt<'_>]) -> Result<(), Reason> {
        let subject = self.unit_clauses.first().map(|r| self.unit_lower[r.clone()].to_string()).unwrap_or_default();
        let claim_lower = self.claim_text.to_lowercase();
        for (clause, _, piece, _) in figures {
            let piece_lower = piece.to_lowercase();
            // The subject asked about, which the passage never names, binds no figure (see
            // `names`).
            let figure_names: Vec<&String> = self
                .needed
                .iter()
                .copied()
                .filter(|n| mentions(&piece_lower, n) || !mentions(&claim_lower, n))
                .filter(|n| !(self.unit.asked.contains(*n) && !mentions(&self.passage_lower, n)))
                .collect();
            let text = &self.unit.text[clause.clone()];
            let lower = text.to_lowercase();
            // The clause is about another name: it names one the claim does not, and not every
            // name the piece gives (a heading's name included) stands in it.
            let piece_names: Vec<String> = names(piece);
            let about_another = !self.others(text).is_empty() && !figure_names.is_empty() && !figure_names.iter().any(|n| mentions(&lower, n));
            if about_another {
                return Err(Reason::OtherEntity);
            }
            if figure_names.is_empty() || figure_names.iter().any(|n| mentions(&lower, n)) {
                continue;
            }
            // A clause that names nothing else takes its name from the subject the sentence
            // opens with ("华东大区张伟，达成率127%"), from the sentences before ("The school
            // buys … at 14p"), or from the rest of the unit when it says what the claim's piece
            // says ("制作一个大小为 5GiB 的映像文件 … of=disk.img"); not from a name in a later
            // clause about something else ("1.1 MW …, including an array at Holloway Farm").
            let carried = figure_names.iter().all(|n| mentions(&self.previous_lower, n) || mentions(&self.before_lower, n) || mentions(&subject, n));
            let piece_terms = predicate_terms(piece, &piece_names);
            let clause_terms = predicate_terms(text, &[]);
            let says_the_same = piece_terms.iter().filter(|t| clause_terms.contains(*t)).count() >= 2;
            let in_unit = figure_names.iter().all(|n| mentions(&self.unit_lower, n));
            if !(carried || (says_the_same && in_unit)) {
                return Err(Reason::OtherEntity);
            }
        }
        Ok(())
    }

    /// A relation given to another name: the clause that says what the claim says names
    /// something else, while the claim's name stands elsewhere in the unit.
    fn relation_named(&self, figures: &[FigureAt<'_>]) -> Result<(), Reason> {
        if self.needed.is_empty() || !figures.is_empty() {
            return Ok(());
        }
        let claim_terms: HashSet<String> = predicate_terms(self.claim_text, &self.claim.names);
        let Some(clause) = aligned_clause(self.unit.text, &claim_terms, &[], self.claim_text) else { return Ok(()) };
        let lower = clause.to_lowercase();
        let names_it = self.needed.iter().any(|n| mentions(&lower, n));
        if !names_it && !self.others(clause).is_empty() && self.needed.iter().all(|n| mentions(&self.unit_lower, n)) {
            return Err(Reason::OtherEntity);
        }
        // Piece by piece, a name the unit gives elsewhere while the clause that says what the
        // piece says names another: "Fitch upgraded … from BB+ to BBB-" where Standard &
        // Poor's did and Fitch affirmed. Only whole clauses count: a window cut out of a long
        // run of unpunctuated text leaves names out by where it was cut.
        let whole_clauses: Vec<&str> = clauses(self.unit.text).into_iter().map(|r| &self.unit.text[r]).collect();
        for piece in pieces(self.claim_text) {
            let piece_lower = piece.to_lowercase();
            let own: Vec<&&String> = self.needed.iter().filter(|n| mentions(&piece_lower, n)).collect();
            let terms = predicate_terms(piece, &self.claim.names);
            if own.is_empty() || terms.len() < 2 {
                continue;
            }
            let Some(clause) = aligned_clause(self.unit.text, &terms, &[], piece) else { continue };
            if !whole_clauses.iter().any(|c| c.as_ptr() == clause.as_ptr() && c.len() == clause.len()) {
                continue;
            }
            let lower = clause.to_lowercase();
            let moved = own.iter().any(|n| !mentions(&lower, n) && mentions(&self.unit_lower, n));
            // Another name, not a word the claim writes in lower case ("a Stable outlook").
            let claim_lower = self.claim_text.to_lowercase();
            let another = self.others(clause).iter().any(|n| !mentions(&claim_lower, n));
            if moved && another {
                return Err(Reason::OtherEntity);
            }
        }
        Ok(())
    }
}

/// Whether the clause that states a claim's figure says it moved the other way, or calls
/// it the other side of zero (a gain for a loss). The piece's own move counts, or the claim's
/// when the piece states none ("grew during 2022, reaching $54,373 million"). Gains and losses
/// are read beside the figure only ("a loss of $215 million", "$215 million gain"): "profit"
/// elsewhere in a clause names a measure, not a side.
fn moved_against(piece: (&str, Range<usize>), claim_text: &str, clause: (&str, Range<usize>)) -> bool {
    let (piece, claimed_at) = piece;
    let (clause, stated_at) = clause;
    let claim_piece_at = claimed_at.start.saturating_sub((piece.as_ptr() as usize).saturating_sub(claim_text.as_ptr() as usize));
    let mut claimed = movements_near(piece, claim_piece_at..claim_piece_at + (claimed_at.end - claimed_at.start));
    if claimed.is_empty() {
        claimed = movements(claim_text);
    }
    let beside = |text: &str, at: Range<usize>| -> String {
        let start = at.start.min(text.len());
        let end = at.end.min(text.len());
        let before: Vec<&str> = text[..start].split_whitespace().rev().take(3).collect();
        let after: Vec<&str> = text[end..].split_whitespace().take(1).collect();
        before.into_iter().rev().chain(after).collect::<Vec<_>>().join(" ")
    };
    let piece_at = claim_piece_at..claim_piece_at + (claimed_at.end - claimed_at.start);
    let claimed_side = signs(&beside(piece, piece_at));
    let stated_side = signs(&beside(clause, stated_at.clone()));
    opposed(&claimed, &movements_near(clause, stated_at)) || opposed(&claimed_side, &stated_side)
}

/// A negated piece that joins two of the source's clauses ("它只下载不安装" for "它不安装这些
/// 升级但下载它们"): the clause it aligns with is the affirmed one, while another clause of
/// the unit denies the very word the piece denies.
/// Whether `text` says with a negative prefix what `negated` says with a negator: "isn't
/// available" and "unavailable", "is not a string" and "a non-string".
fn denied_by_prefix(negated: &str, text: &str) -> bool {
    let Some(denied) = denied_term(negated) else { return false };
    let denied = fold(&denied.to_lowercase());
    let lower = text.to_lowercase();
    denied.len() >= 4
        && ["un", "non", "non-", "in", "im", "dis"].iter().any(|p| {
            lower.split(|c: char| !c.is_alphanumeric() && c != '-').any(|w| w.strip_prefix(p).is_some_and(|rest| fold(rest).starts_with(&denied)))
        })
}

fn denial_stated_beside(piece: &str, unit_text: &str) -> bool {
    if denied_by_prefix(piece, unit_text) {
        return true;
    }
    // Or a negated clause denies what the piece denies by name: "will never issue VACUUM
    // FULL" for "never runs VACUUM FULL".
    let denied_names = |text: &str| names(&text[negator_end(text).unwrap_or(text.len())..]);
    let own = denied_names(piece);
    if !own.is_empty()
        && clauses(unit_text).into_iter().any(|r| {
            let clause = &unit_text[r];
            negated(clause) && negator_end(clause).is_some_and(|at| own.iter().all(|n| mentions(&clause[at..].to_lowercase(), n)))
        })
    {
        return true;
    }
    let Some(denied) = denied_term(piece) else { return false };
    let denied = fold(&denied.to_lowercase());
    clauses(unit_text).into_iter().any(|r| {
        let clause = &unit_text[r];
        denied_term(clause).is_some_and(|d| fold(&d.to_lowercase()) == denied)
    })
}

/// Polarity and direction, piece by piece of the claim, each against the clause of the unit
/// that says what the piece says.
fn polarity_and_direction(claim_text: &str, unit_text: &str) -> Result<(), Reason> {
    for piece in pieces(claim_text) {
        let piece_names = names(piece);
        let terms = predicate_terms(piece, &piece_names);
        // A piece of one word ("Not with the defaults", "Yes") answers the question; it says
        // too little to find the clause it would contradict.
        if terms.len() < 2 {
            continue;
        }
        let Some(clause) = aligned_clause(unit_text, &terms, &piece_names, piece) else { continue };
        // "Use 587 instead of 25" says not to use 25: a denial a negated piece may stand on.
        let polarity_differs = negated(piece) != negated(clause)
            && !(negated(piece) && replaces(clause))
            && !(negated(clause) && (replaces(piece) || denied_by_prefix(clause, piece)));
        if (polarity_differs && !denial_stated_beside(piece, unit_text)) || antonymous(piece, clause) {
            return Err(Reason::Negation);
        }
        if opposed(&directions(piece), &directions(clause)) || swapped_ends(piece, clause) {
            return Err(Reason::Direction);
        }
        // "taken as minutes" where the source says "taken as kilobytes".
        let (claimed_units, stated_units) = (named_units(piece), named_units(clause));
        if !claimed_units.is_empty() && !stated_units.is_empty() && !claimed_units.iter().any(|c| stated_units.contains(c)) {
            return Err(Reason::ScaleOrUnit);
        }
        // "每天" where the source says "每小时": another rate, as another unit would be.
        let (claimed, stated) = (frequencies(piece), frequencies(clause));
        if !claimed.is_empty() && !stated.is_empty() && !claimed.iter().any(|f| stated.contains(f)) {
            return Err(Reason::ScaleOrUnit);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(claim: &str, unit: &str) -> Option<Reason> {
        check_in(claim, unit, unit, "")
    }

    fn check_in(claim: &str, unit: &str, passage: &str, context: &str) -> Option<Reason> {
        conflict(claim, &Statement::of(claim), &SourceUnit { text: unit, previous: "", before: "", passage, context, asked: &[] })
    }

    #[test]
    fn the_subject_asked_about_need_not_stand_beside_the_figure() {
        let s = "On Windows 8.1 and newer the implementation uses a high-resolution timer which provides resolution of 100 nanoseconds.";
        let claim = "On Windows 8.1 and newer, time.sleep() uses a high-resolution timer with a resolution of 100 nanoseconds.";
        let asked = vec!["time.sleep".to_string()];
        let unit = SourceUnit { text: s, previous: "", before: "", passage: s, context: "", asked: &asked };
        assert_eq!(conflict(claim, &Statement::of(claim), &unit), None);
        let unit = SourceUnit { text: s, previous: "", before: "", passage: s, context: "", asked: &[] };
        assert_eq!(conflict(claim, &Statement::of(claim), &unit), Some(Reason::NotStated), "a name nobody asked about");
    }

    #[test]
    fn a_row_with_a_wrapped_label_and_shares_of_sales_shows_its_move() {
        let table = "Three Months Ended December 31, Six Months Ended December 31,\n($ in millions) 2022 2021 2022 2021\nNet sales $ 3,642 100.0 % $ 3,507 100.0 % $ 7,354 100.0 % $ 6,927 100.0 %\nSelling, general, and\nadministrative expenses (298) (8.2 %) (303) (8.6 %) (600) (8.2 %) (616) (8.9 %)\nResearch and development\nexpenses (24) (0.7 %) (23) (0.7 %) (49) (0.7 %) (48) (0.7 %)";
        let claim = "SG&A expenses for the three months ended December 31, 2022 were higher than in the same quarter of 2021.";
        assert_eq!(check(claim, table), Some(Reason::Direction));
        let claim = "SG&A expenses for the three months ended December 31, 2022 were lower than in the same quarter of 2021.";
        assert_ne!(check(claim, table), Some(Reason::Direction));
        assert!(mentions("selling, general, and administrative expenses", "sg&a"));
    }

    #[test]
    fn a_clause_belongs_to_the_name_its_line_opens_with() {
        let unit = "Wayland 是在同一个主机上的 GUI 通信协议：新、简单、快速，不需要 setuid root 二进制\nX Window 是一个具备网络功能的 GUI 通信协议：传统、复杂、慢，需要 setuid root 二进制";
        assert_eq!(check("Wayland 需要 setuid root 二进制。", unit), Some(Reason::Negation));
        assert_eq!(check("Wayland 不需要 setuid root 二进制。", unit), None);
    }

    #[test]
    fn a_concession_is_a_clause_of_its_own() {
        let unit = "用户的密码必须具有至少 5 个字符的长度 -- 否则登录不会被认可（尽管安装程序会接受较短的密码还有和用户名相似的密码）。";
        assert_eq!(check("安装程序不能接受较短的密码。", unit), Some(Reason::Negation));
        assert_eq!(check("安装程序会接受较短的密码。", unit), None);
    }

    #[test]
    fn a_replacement_denies_what_it_replaces() {
        let unit = "从所有的实践考虑，使用带 STARTTLS 的 SMTP 端口 587，或者 SMTPS SSL (SMTPS) 端口 465, 代替纯 SMTP 端口 25。";
        assert_eq!(check("别用纯 SMTP 的 25 端口。", unit), None);
        assert_eq!(check("应该用带 STARTTLS 的 587 端口或者 SMTPS 的 465 端口，别用纯 SMTP 的 25 端口。", unit), None);
        assert_eq!(check("Use port 587 instead of port 25; do not use port 25.", "Use port 587 rather than port 25."), None);
        let unit = "To generate a UUID without using the cache, set disableEntropyCache to true.";
        assert_eq!(check("Set disableEntropyCache to true to skip the cache when generating a UUID.", unit), None);
    }

    #[test]
    fn a_negated_word_may_be_stated_with_a_negative_prefix() {
        let unit = "The array will be empty if no CPU information is available, such as if the /proc file system is unavailable.";
        assert!(denial_stated_beside("If /proc isn't available", unit));
        assert!(!denial_stated_beside("If /proc isn't mounted", unit));
        let unit = "A TypeError is thrown if path is not a string.";
        assert_eq!(check("Passing a non-string path throws a TypeError.", unit), None);
    }

    #[test]
    fn a_unit_named_without_a_figure_is_compared() {
        let passage = "Returns an array of objects containing information about each logical CPU core.\n* `speed` {number} (in MHz)\n* `user` {number} The number of milliseconds the CPU has spent in user mode.";
        let unit = "Returns an array of objects containing information about each logical CPU core.";
        assert_eq!(check_in("It reports each logical CPU core's speed in GHz.", unit, passage, ""), Some(Reason::ScaleOrUnit));
        assert_eq!(check_in("It reports each logical CPU core's speed in MHz.", unit, passage, ""), None);
        let setting = "If this value is specified without units, it is taken as kilobytes.";
        assert_eq!(check("Without units, the value is taken as megabytes.", setting), Some(Reason::ScaleOrUnit));
        assert_eq!(check("A value given in the new format counts as well.", setting), None, "words that merely end in w");
    }

    #[test]
    fn a_denial_may_be_worded_otherwise_or_sit_in_a_condition() {
        let unit = "The autovacuum daemon attempts to work this way, and in fact will never issue VACUUM FULL.";
        assert_eq!(check("The autovacuum daemon never runs VACUUM FULL.", unit), None);
        assert!(check("The autovacuum daemon never runs ANALYZE.", unit).is_some(), "another thing denied");
        let unit = "These checks use the statistics collection facility; therefore, autovacuum cannot be used unless track_counts is set to true.";
        assert_eq!(check("Autovacuum can't work unless track_counts is turned on.", unit), None);
    }

    #[test]
    fn each_figure_of_a_comparison_has_its_own_period() {
        let u = "Our effective income tax rate (\"ETR\") for fiscal 2017 was 33.5%, compared to a rate of 38.4% in fiscal 2016.";
        assert_eq!(check("The effective tax rate was 33.5% in fiscal 2017 and 38.4% in fiscal 2016.", u), None);
        assert_eq!(check("The effective tax rate fell to 33.5% in fiscal 2017 from 38.4% in fiscal 2016.", u), None);
    }

    #[test]
    fn each_kind_of_error_has_its_reason() {
        let s = "Net sales increased 4% to $14.7 billion in fiscal 2023, driven by the Flexibles segment.";
        assert_eq!(check("Net sales rose 4% to $14.7 billion in fiscal 2023.", s), None);
        assert_eq!(check("Net sales decreased 4% to $14.7 billion in fiscal 2023.", s), Some(Reason::Direction));
        assert_eq!(check("Net sales did not increase in fiscal 2023.", s), Some(Reason::Negation));
        assert_eq!(check("Net sales increased 4% to $14.7 million in fiscal 2023.", s), Some(Reason::ScaleOrUnit));
        assert_eq!(check("Net sales increased 4% to $14.7 billion in fiscal 2022.", s), Some(Reason::Period));
        assert_eq!(check("Net sales increased 6% to $14.7 billion in fiscal 2023.", s), Some(Reason::Figure));
        let regions = "North Valley: 1,420 kW across 14 roofs.";
        assert_eq!(check_in("Eastern Hills has 1,420 kW.", regions, "North Valley: 1,420 kW across 14 roofs.\nEastern Hills: 980 kW.", ""), Some(Reason::OtherEntity));
    }

    #[test]
    fn chinese_claims() {
        let s = "错误率从38%降到1.2%，响应时间缩短到680毫秒。";
        assert_eq!(check("错误率降到了1.2%", s), None);
        assert_eq!(check("错误率从38%上升到1.2%", s), Some(Reason::Direction));
        assert_eq!(check("错误率降到了1.2个百分点", s), Some(Reason::ScaleOrUnit));
        assert_eq!(check("该通道不支持多个接收者", "该通道支持多个接收者"), Some(Reason::Negation));
        assert_eq!(check("该通道支持多个接收者", "该通道支持多个接收者"), None);
    }

    #[test]
    fn a_table_figure_belongs_to_its_column() {
        let passage = "Region\tSites\tCapacity (kW)\tOutput 2024 (MWh)\nNorth Valley\t12\t1,420\t1,306\nRiverside\t9\t960\t874";
        let row = "North Valley\t12\t1,420\t1,306";
        assert_eq!(check_in("North Valley has a capacity of 1,420 kW.", row, passage, ""), None);
        assert_eq!(check_in("North Valley has a capacity of 12 kW.", row, passage, ""), Some(Reason::OtherEntity));
        assert_eq!(check_in("North Valley generated 1,420 MWh.", row, passage, ""), Some(Reason::ScaleOrUnit));
        assert_eq!(check_in("North Valley generated 1,306 MWh.", row, passage, ""), None);
        assert_eq!(check_in("North Valley's output in 2024 was 1,420 kW.", row, passage, ""), Some(Reason::OtherEntity), "a capacity called output");
        assert_eq!(check_in("North Valley's output in 2024 was 1,306 MWh.", row, passage, ""), None);
        assert_eq!(check_in("The North Valley sites produced 1,306 MWh in 2024.", row, passage, ""), None, "the row's sites, not its Sites column");
        assert_eq!(check_in("The North Valley sites number 1,306.", row, passage, ""), Some(Reason::OtherEntity));
        assert_eq!(check_in("North Valley has 12 sites.", row, passage, ""), None);
        let income = "Three Months Ended December 31,\tSix Months Ended December 31,\n($ in millions)\t2022\t2021\t2022\t2021\nNet sales\t$\t3,642 $\t3,507 $\t7,354 $\t6,927";
        let sales = "Net sales\t$\t3,642 $\t3,507 $\t7,354 $\t6,927";
        assert_eq!(check_in("Net sales for the six months ended December 31, 2022 were $7,354 million.", sales, income, ""), None);
        assert_eq!(check_in("Net sales for the three months ended December 31, 2022 were $7,354 million.", sales, income, ""), Some(Reason::OtherEntity));
        // Without the gutters the parser marks, the columns cannot be told apart: no verdict
        // on the column, as before.
        let flat = passage.replace('\t', " ");
        assert_eq!(check_in("North Valley has a capacity of 1,420 kW.", "North Valley 12 1,420 1,306", &flat, ""), None);
    }

    #[test]
    fn a_figure_moves_the_way_its_own_clause_says() {
        // The figure stands in the first sentence; the unit that shares the claim's words is
        // the second, which borrows it.
        let passage = "The Retail segment's margin fell to 31.5% in 2024 from 32.0% in 2023. Lower freight costs improved the margin of the Online segment.";
        let unit = "Lower freight costs improved the margin of the Online segment.";
        let claim = "The Retail segment's margin improved to 31.5% in 2024.";
        assert_eq!(check_in(claim, unit, passage, ""), Some(Reason::Direction));
        assert_eq!(check_in("The Retail segment's margin fell to 31.5% in 2024.", passage, passage, ""), None);
        let sale = "The sale of the Nordic unit resulted in a pre-tax gain of $84 million.";
        assert_eq!(check("The Nordic unit was sold at a pre-tax loss of $84 million.", sale), Some(Reason::Direction));
        assert_eq!(check("The Nordic unit was sold at a pre-tax gain of $84 million.", sale), None);
        // "Profit" names a measure; only the words beside the figure say which side of zero.
        let profit = "Operating profit was $12 million, after a loss of $3 million on the closed plant.";
        assert_eq!(check("Operating profit was $12 million.", profit), None);
    }

    #[test]
    fn rows_under_a_colon_say_what_their_lead_in_says() {
        let passage = "The members voted on how often to hold the pay vote as follows:\nOne year 8,412,300\nTwo years 310,200";
        let unit = "The members voted on how often to hold the pay vote as follows:";
        assert_eq!(check_in("About 8.4 million members voted to hold the pay vote every year.", unit, passage, ""), None);
        let no_lead_in = "The members met in May.\nOne year 8,412,300\nTwo years 310,200";
        assert_ne!(check_in("About 8.4 million members voted to hold the pay vote every year.", "The members met in May.", no_lead_in, ""), None);
    }

    #[test]
    fn a_table_row_shows_which_way_a_figure_moved() {
        let passage = "(in millions)\nYears ended December 31,        2024        2023\nOrders backlog       8,120       9,430\nService revenue      2,310       2,150";
        let backlog = "Orders backlog       8,120       9,430";
        assert_eq!(check_in("The orders backlog grew in 2024, reaching $8,120 million.", backlog, passage, ""), Some(Reason::Direction));
        assert_eq!(check_in("The orders backlog shrank in 2024, to $8,120 million.", backlog, passage, ""), None);
        let service = "Service revenue      2,310       2,150";
        assert_eq!(check_in("Service revenue fell in 2024 compared with 2023.", service, passage, ""), Some(Reason::Direction));
        assert_eq!(check_in("Service revenue rose in 2024 compared with 2023.", service, passage, ""), None);
    }

    #[test]
    fn a_relation_given_to_another_name_in_the_same_sentence() {
        let s = "In 2024, Moody's upgraded the company's rating from Baa2 to Baa1; and Fitch affirmed its rating of BBB.";
        let mut claim = Statement::of("Fitch upgraded the company's rating from Baa2 to Baa1 in 2024.");
        claim.names.insert(0, "fitch".into());
        let unit = SourceUnit { text: s, previous: "", before: "", passage: s, context: "", asked: &[] };
        assert_eq!(conflict("Fitch upgraded the company's rating from Baa2 to Baa1 in 2024.", &claim, &unit), Some(Reason::OtherEntity));
        let right = Statement::of("In 2024 Moody's upgraded the company's rating from Baa2 to Baa1, while Fitch affirmed its rating.");
        assert_eq!(conflict("In 2024 Moody's upgraded the company's rating from Baa2 to Baa1, while Fitch affirmed its rating.", &right, &unit), None);
    }

    #[test]
    fn clauses_that_share_as_many_words_are_told_apart_by_the_longest_shared_run() {
        let s = "磁盘太满时一般有两种处理方法1删除一些旧的日志文件或者2增加该分区的大小如果该分区使用 LVM 那么可以扩展";
        assert_eq!(check("处理方法之一是减少该分区的大小", s), Some(Reason::Direction));
        assert_eq!(check("处理方法之一是增加该分区的大小", s), None);
    }

    #[test]
    fn a_figure_keeps_the_year_of_its_own_clause() {
        let s = "Fiscal 2019 and fiscal 2017 included 52 weeks and fiscal 2018 included 53 weeks, with the additional week occurring in the fourth quarter.";
        assert_eq!(check("Fiscal 2019 included 53 weeks.", s), Some(Reason::Period));
        assert_eq!(check("Fiscal 2019 included 52 weeks.", s), None);
        assert_eq!(check("Fiscal 2018 included 53 weeks.", s), None);
    }

    #[test]
    fn table_rows_take_their_years_from_the_header() {
        let passage = "Consolidated Statements of Income\n(in millions)\n2023 2022 2021\nNet sales 14,694 14,544 12,861";
        let row = "Net sales 14,694 14,544 12,861";
        assert_eq!(check_in("Net sales were $14.7 billion in 2023.", row, passage, ""), None);
        assert_eq!(check_in("Net sales were $14.5 billion in 2023.", row, passage, ""), Some(Reason::Period));
        // A figure written to the unit is the cell with those digits, not a neighbour that
        // rounds to it; a rounded one is the cell of its year.
        let segments = "($ in millions)\n2017 2016 2015\nRevenue\nDomestic $ 36,248 $ 36,365 $ 36,055";
        let domestic = "Domestic $ 36,248 $ 36,365 $ 36,055";
        assert_eq!(check_in("Domestic revenue was $36,365 million in fiscal 2017.", domestic, segments, ""), Some(Reason::Period));
        assert_eq!(check_in("Domestic revenue was about $36.2 billion in fiscal 2017.", domestic, segments, ""), None);
        assert_eq!(check_in("Domestic revenue was $36,248 million in fiscal 2017.", domestic, segments, ""), None);
    }
}
