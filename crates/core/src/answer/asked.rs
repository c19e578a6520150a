//! What a question asks for, slot by slot: the period it names, and the kind of value it
//! wants (an amount of money, a percentage, a count, a duration, a date). "What was capex in
//! FY2022, in USD millions?" is not answered by a percentage, nor by FY2023's capex: the
//! sources may name the subject and still not state the asked fact, and then Pagewise says
//! so instead of answering from the nearest sentence.

use std::sync::OnceLock;

use regex::Regex;

use super::attribute::{Sentence, SentenceStatus};
use super::evidence::EvidenceSet;
use super::facts::table::header_family;
use super::facts::{amounts, periods, Amount, Family, Period};
use crate::text::cached_regex as re;

/// The kind of value a question wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    Money,
    Percent,
    Count,
    Duration,
    Date,
    /// A measure in the unit the question names ("power rating in kW", "how many MWh"): a
    /// figure of another family (kWh for kW) answers another question.
    Measure(Family),
    /// A figure of any kind: "how big", "多少", "多大" without a unit or measure word.
    Figure,
}

impl Want {
    /// Families of figures that can answer it (a bare number can answer any).
    fn accepts(self, family: Family) -> bool {
        match self {
            Want::Money => matches!(family, Family::Currency | Family::Plain | Family::Count),
            Want::Percent => matches!(family, Family::Percent | Family::Points | Family::Plain),
            Want::Count => matches!(family, Family::Count | Family::Plain),
            Want::Duration => matches!(family, Family::Time | Family::Plain),
            Want::Date => false,
            Want::Measure(wanted) => family == wanted || family == Family::Plain,
            Want::Figure => true,
        }
    }
}

/// The kind of value `question` wants, when it says so clearly.
pub fn wanted(question: &str) -> Option<Want> {
    static PERCENT: OnceLock<Regex> = OnceLock::new();
    static MONEY: OnceLock<Regex> = OnceLock::new();
    static COUNT: OnceLock<Regex> = OnceLock::new();
    static DURATION: OnceLock<Regex> = OnceLock::new();
    static DATE: OnceLock<Regex> = OnceLock::new();
    static CHANGE: OnceLock<Regex> = OnceLock::new();
    let q = question.to_lowercase();
    // "How much did revenue grow?" is answered by an amount or a percentage alike.
    let change = re(&CHANGE, r"\b(?:grow|grew|growth|increase[ds]?|decrease[ds]?|change[ds]?|rise|rose|fall|fell|decline[ds]?|drop(?:ped)?)\b|增长|下降|变化|增加|减少").is_match(&q);
    if re(&PERCENT, r"\bpercent(?:age)?s?\b|\bwhat share\b|\bproportion\b|\bmargin\b|\b(?:hit|error|success|failure|conversion|interest|tax|churn) rates?\b|\baccuracy\b|\buptime\b|\butili[sz]ation\b|%|百分之|百分比|占比|比例|比率|利润率|增长率|命中率|准确率|召回率|错误率|成功率|失败率|通过率|遵循率|转化率|利用率|占用率|使用率").is_match(&q) {
        return (!change || q.contains("percent") || q.contains('%') || q.contains("百分")).then_some(Want::Percent);
    }
    // "When" asks for a date where it opens the question or a clause of it; inside one it is a
    // conjunction ("exec kills my child process when the output is large").
    if re(&DATE, r"^\W*when\b|(?:[,;]|\band|\bor|\bbut)\s+when\b|\bsince when\b|\bwhat (?:year|date|day|month)\b|\bwhich (?:year|date|day|month)\b|什么时候|哪一?年|哪天|何时|几月|几号|哪一天").is_match(&q) {
        return Some(Want::Date);
    }
    // "How many MWh", "how many hours": a measure in a unit, not a count of things.
    static IN_UNIT: OnceLock<Regex> = OnceLock::new();
    if let Some(unit) = re(&IN_UNIT, r"\bhow many ([a-z%]+)").captures(&q).and_then(|c| c.get(1)) {
        let unit = unit.as_str();
        if matches!(unit.trim_end_matches('s'), "hour" | "day" | "week" | "month" | "year" | "minute" | "second" | "ms" | "min") {
            return Some(Want::Duration);
        }
        if let Some(a) = amounts(&format!("2 {unit}"), None).into_iter().find(|a| !matches!(a.family, Family::Plain | Family::Count)) {
            return Some(Want::Measure(a.family));
        }
    }
    // "the battery's power rating in kW", "latency in ms".
    static NAMED_UNIT: OnceLock<Regex> = OnceLock::new();
    if let Some(unit) = re(&NAMED_UNIT, r"(?i)\bin ([a-zµμ]{1,5})\b\s*[?？.]?\s*$").captures(question).and_then(|c| c.get(1)) {
        if let Some(a) = amounts(&format!("2 {}", unit.as_str()), None).into_iter().find(|a| !matches!(a.family, Family::Plain | Family::Count | Family::Currency)) {
            return Some(Want::Measure(a.family));
        }
    }
    if re(&DURATION, r"\bhow long\b|多久|多长时间|多少(?:分钟|小时|天|秒|毫秒)").is_match(&q) {
        return Some(Want::Duration);
    }
    if re(&COUNT, r"\bhow many\b|\bnumber of\b|多少(?:个|人|家|位|名|次|台|条|项|种|款|篇)|几(?:个|人|家|位|名|次|台|条|项|种)").is_match(&q) {
        return Some(Want::Count);
    }
    static FIGURE: OnceLock<Regex> = OnceLock::new();
    let figure = re(&FIGURE, r"\bhow (?:big|large|high|fast|old|far|heavy|wide|tall|deep|small|low)\b|多少|多大|多长|多高|多重|多快|多远|多低|多小").is_match(&q);
    if change {
        return figure.then_some(Want::Figure);
    }
    if re(
        &MONEY,
        r"\bhow much\b.*\b(?:cost|pay|paid|spend|spent|charge|earn|worth|price)|\b(?:cost|price|fees?|revenue|sales|income|profit|capex|capital expenditures?|expenditures?|budget|salary|salaries|wages?|pays?|paid|premium|rent|dividends?|cash|debt|usd|dollars|pounds|euros)\b|\$|\bin (?:usd )?(?:millions|billions|thousands)\b|多少钱|金额|收入|营收|成本|费用|价格|工资|薪资|预算",
    )
    .is_match(&q)
    {
        return Some(Want::Money);
    }
    figure.then_some(Want::Figure)
}

/// Whether the checked sentences answer with figures, none of the wanted kind: "38% of
/// capital spending" for "how much capex". An answer in words ("monthly", "at 21:40") is not
/// judged here.
pub fn gives_other_kind(want: Want, sentences: &[Sentence]) -> bool {
    if want == Want::Date {
        return false;
    }
    let figures: Vec<Family> = supported(sentences).flat_map(|s| amounts(&s.text, None)).map(|a| a.family).collect();
    !figures.is_empty() && !figures.iter().any(|f| want.accepts(*f))
}

/// Whether the checked sentences hold no value that could answer: no figure but those the
/// question itself states ("kept at full resolution for 15 days" for "how long are they kept
/// after the 15 days"), and for a count, an amount or a measure no words that answer without a
/// figure ("only one", "none", "free"). "The cooperative owns installations on schools …" does
/// not answer "how many panels does it own". A duration may be answered in words ("monthly",
/// "until the next release"), so it is judged only by its figures.
pub fn lacks_asked_value(question: &str, want: Want, sentences: &[Sentence]) -> bool {
    if want == Want::Date {
        return false;
    }
    let echoes = echoes_of(question);
    let mut any_figure = false;
    for sentence in supported(sentences) {
        let found = amounts(&sentence.text, None);
        any_figure |= !found.is_empty();
        if found.iter().any(|a| !echoes(a)) || (want != Want::Duration && answers_in_words(&sentence.text)) {
            return false;
        }
    }
    want != Want::Duration || any_figure
}

/// Whether an English question asks who, and the checked sentences name no one but whom the
/// question names: "Helen Marsh has chaired the board since 2019" does not answer "who chaired
/// the board before Helen Marsh". A name is a capitalised word that is no common word.
pub fn names_only_the_asked(question: &str, sentences: &[Sentence]) -> bool {
    static WHO: OnceLock<Regex> = OnceLock::new();
    static NAME: OnceLock<Regex> = OnceLock::new();
    if !re(&WHO, r"(?i)^\s*(?:who|whom|who's|who’s|whos)\b|(?:,|;|\band)\s*(?:who|whom)\b").is_match(question) {
        return false;
    }
    let asked: std::collections::HashSet<String> = crate::text::content_terms(question).into_iter().collect();
    let mut any = false;
    for sentence in supported(sentences) {
        any = true;
        for name in re(&NAME, r"\b\p{Lu}[\p{L}'’\-]*").find_iter(&sentence.text) {
            let word = name.as_str().trim_end_matches(['\'', '’', '-']).to_lowercase();
            let word = word.strip_suffix("'s").or_else(|| word.strip_suffix("’s")).unwrap_or(&word).to_string();
            if word.chars().count() > 1 && !crate::text::is_stopword(&word) && !asked.contains(&word) {
                return false;
            }
        }
    }
    any
}

/// Whether a sentence only quotes the question: one of its quoted spans (“…”, "…", 「…」)
/// holds most of the question's terms and the rest of it does not. An article that cites
/// "上季度华东区销售返点政策是什么" as what users ask has not answered it.
pub fn quotes_the_question(question: &str, text: &str) -> bool {
    static QUOTED: OnceLock<Regex> = OnceLock::new();
    let asked: std::collections::HashSet<String> = crate::text::coverage_terms(question).into_iter().collect();
    if asked.len() < 3 {
        return false;
    }
    let share = |part: &str| {
        let terms: std::collections::HashSet<String> = crate::text::coverage_terms(part).into_iter().collect();
        asked.iter().filter(|t| terms.contains(*t)).count() as f32 / asked.len() as f32
    };
    let spans: Vec<std::ops::Range<usize>> = re(&QUOTED, r#"“[^”]{2,}”|"[^"]{2,}"|「[^」]{2,}」|『[^』]{2,}』"#).find_iter(text).map(|m| m.range()).collect();
    if !spans.iter().any(|r| share(&text[r.clone()]) >= 0.6) {
        return false;
    }
    let mut outside = String::new();
    let mut at = 0;
    for r in &spans {
        outside.push_str(&text[at..r.start]);
        outside.push(' ');
        at = r.end;
    }
    outside.push_str(&text[at..]);
    share(&outside) < 0.5
}

/// Whether a figure is one the question itself states: repeating it answers nothing.
fn echoes_of(question: &str) -> impl Fn(&Amount) -> bool {
    let asked: Vec<f64> = amounts(question, None).into_iter().map(|a| a.value).collect();
    move |a: &Amount| asked.iter().any(|v| (v - a.value).abs() <= 1e-9 * v.abs().max(1.0))
}

/// Words that answer a count, an amount or a measure without a figure: one, none, no, free,
/// 唯一, 不, 免费 (Chinese numerals that count are figures already).
fn answers_in_words(text: &str) -> bool {
    static WORDS: OnceLock<Regex> = OnceLock::new();
    re(
        &WORDS,
        r"(?i)\b(?:one|once|single|both|all|every|each|none|no|zero|neither|nor|never|not|nothing|free|unlimited|any|several|few|many)\b|n't|唯一|一个|单个|零|不|没|无|免费",
    )
    .is_match(text)
}

/// Whether the question names a period (a year, quarter, date) and the checked sentences name
/// periods of that kind, none of them the asked one: "the next AGM is on 22 March 2025" for
/// "when is the 2026 AGM". Sentences that name no period are not judged here.
pub fn gives_other_period(question: &str, sentences: &[Sentence]) -> bool {
    let asked: Vec<Period> = periods(question).into_iter().map(|(p, _)| p).collect();
    let stated: Vec<Period> = supported(sentences).flat_map(|s| periods(&s.text)).map(|(p, _)| p).collect();
    asked.iter().any(|p| !stated.iter().any(|s| p.named_by(s)) && stated.iter().any(|s| p.same_kind(s)))
}

/// Whether source sentences shown in place of an answer (the model's own were not supported)
/// state what was asked: one of them holds a value of the wanted kind, when the question says
/// which, and names the asked period (itself or by its document's title), when the question
/// names one. "Turnover: 1.38 million pounds (2023: 1.21 million pounds)" does not answer
/// "turnover in 2022"; "premium rose by 18 percent" does not answer "how much is the premium";
/// a figure the question states ("kept for 15 days" for "how long after the 15 days") answers
/// nothing.
pub fn quotes_answer(question: &str, quotes: &[Sentence]) -> bool {
    let asked: Vec<Period> = periods(question).into_iter().map(|(p, _)| p).collect();
    // A value to be computed (an average, a ratio, a margin) is not stated in the sources:
    // its operands are, in whatever kind they come.
    static DERIVED: OnceLock<Regex> = OnceLock::new();
    let derived = re(&DERIVED, r"(?i)\b(?:average|mean|ratio|margin|calculate|compute|round(?:ed)?|difference|per share|cagr|growth rate)\b|平均|比率|利润率|计算|差额").is_match(question);
    let want = if derived { None } else { wanted(question) };
    if quotes.is_empty() {
        return true;
    }
    if asked.is_empty() && want.is_none() {
        return !quotes.iter().all(|quote| quotes_the_question(question, &quote.text));
    }
    let echoes = echoes_of(question);
    quotes.iter().filter(|quote| !quotes_the_question(question, &quote.text)).any(|quote| {
        let titles: Vec<&str> = quote.citations.iter().map(|c| c.doc_title.as_str()).collect();
        let named: Vec<Period> = periods(&quote.text).into_iter().chain(titles.iter().flat_map(|t| periods(t))).map(|(p, _)| p).collect();
        // Any one of them: a comparison ("FY2023 vs FY2022") is answered from sentences that
        // each name one year.
        let period_ok = asked.is_empty() || asked.iter().any(|p| named.iter().any(|s| p.named_by(s)));
        let kind_ok = match want {
            None => true,
            Some(Want::Date) => !periods(&quote.text).is_empty(),
            Some(w) => figures(&quote.text)
                .iter()
                .filter(|a| !numbers_a_section(&quote.text, a) && !counts_things(w, a, &quote.text) && !echoes(a))
                .filter(|a| !counts_other_things(question, a, &quote.text))
                .any(|a| w.accepts(a.family)),
        };
        period_ok && kind_ok
    })
}

/// The figures of a sentence as amounts; a table row as the reader sees it ("Riverside |
/// Sites: 9 | Capacity (kW): 960") gives each cell's figure the unit of its header.
fn figures(text: &str) -> Vec<Amount> {
    if !text.contains(" | ") {
        return amounts(text, None);
    }
    let mut out = Vec::new();
    let mut offset = 0;
    for cell in text.split(" | ") {
        let (header, value_at) = match cell.rfind(": ") {
            Some(i) => (&cell[..i], i + 2),
            None => ("", 0),
        };
        let family = header_family(header);
        for mut a in amounts(&cell[value_at..], None) {
            if a.family == Family::Plain {
                a.family = family.unwrap_or(Family::Plain);
            }
            a.span = a.span.start + offset + value_at..a.span.end + offset + value_at;
            out.push(a);
        }
        offset += cell.len() + " | ".len();
    }
    out
}

/// Whether a bare number counts things rather than stating an amount of money, a duration or
/// a measure, which a source writes with their unit or scale ("£120,000", "30 days", "500
/// kWh"): a small whole number ("three further sites", "5倍"), a number followed by what it
/// counts ("1,150 pupils"), or a year ("from 2026").
fn counts_things(want: Want, amount: &Amount, text: &str) -> bool {
    if !matches!(want, Want::Money | Want::Duration | Want::Measure(_)) || amount.family != Family::Plain {
        return false;
    }
    let small = !amount.scaled && amount.decimals == 0 && amount.value.abs() < 100.0;
    let written = &text[amount.span.clone()];
    let year = !amount.scaled && amount.decimals == 0 && (1900.0..=2100.0).contains(&amount.value) && !written.contains(',');
    // "1,150 pupils", or a Chinese measure word: "10万条", "17所", "3.8倍".
    let after = &text[amount.span.end..];
    let counted = after.strip_prefix(' ').is_some_and(|rest| rest.starts_with(|c: char| c.is_lowercase()))
        || after.starts_with(['条', '个', '人', '家', '位', '名', '次', '台', '项', '种', '篇', '份', '所', '倍', '款', '张', '页', '行', '句', '段', '组', '块']);
    small || year || counted
}

/// Chinese measure words: what a count counts ("三类" three kinds, "10万条" records).
const MEASURE_WORDS: &str = "条个人家位名次台项种篇份所倍款张页行句段组块类级层步件章版代届轮场批笔座户辆";

/// Whether a count is of other things than the question counts: "多少条标注数据" asks for
/// records (条), and "三类" counts kinds. A generic 个 counts anything.
fn counts_other_things(question: &str, amount: &Amount, text: &str) -> bool {
    static ASKED: OnceLock<Regex> = OnceLock::new();
    let Some(asked) = re(&ASKED, r"(?:多少|几)(\p{Han})").captures(question).and_then(|c| c[1].chars().next()) else { return false };
    if asked == '个' || !MEASURE_WORDS.contains(asked) {
        return false;
    }
    let counted = text[amount.span.clone()].chars().next_back().or_else(|| text[amount.span.end..].chars().next());
    counted.is_some_and(|c| c != '个' && c != asked && MEASURE_WORDS.contains(c))
}

/// Whether a figure is the number of the section a sentence opens ("3.2 Embedding 模型选型",
/// "1. 这不是…", "4.1 Vacation"): it numbers the text, it states nothing.
fn numbers_a_section(text: &str, amount: &super::facts::Amount) -> bool {
    static SECTION: OnceLock<Regex> = OnceLock::new();
    let lead = text.len() - text.trim_start().len();
    amount.span.start == lead
        && re(&SECTION, r"^\s*\d{1,2}(?:\.\d{1,2}){0,3}\.?\s+[\p{Lu}\p{Han}“\x22]").is_match(text)
        && !text[amount.span.end..].trim_start().starts_with(|c: char| c.is_ascii_digit())
}

fn supported(sentences: &[Sentence]) -> impl Iterator<Item = &Sentence> {
    sentences.iter().filter(|s| !s.citations.is_empty() && s.status != SentenceStatus::Unsupported)
}

/// A period the question names that no evidence passage, heading or title names, while the
/// evidence names other periods of the same kind: the library covers other years (quarters,
/// dates) than the one asked about.
pub fn missing_period(question: &str, evidence: &EvidenceSet) -> Option<Period> {
    let asked: Vec<Period> = periods(question).into_iter().map(|(p, _)| p).collect();
    if asked.is_empty() {
        return None;
    }
    let mut stated: Vec<Period> = Vec::new();
    for page in &evidence.pages {
        stated.extend(periods(&page.doc_title).into_iter().map(|(p, _)| p));
        if let Some(facets) = &page.facets {
            stated.extend(facets.period.year.map(Period::Year));
            stated.extend(facets.years.iter().map(|y| Period::Year(*y)));
        }
        for p in &page.passages {
            stated.extend(periods(&p.text).into_iter().map(|(q, _)| q));
            stated.extend(p.heading_path.iter().flat_map(|h| periods(h)).map(|(q, _)| q));
        }
    }
    asked.into_iter().find(|p| !stated.iter().any(|s| p.named_by(s)) && stated.iter().any(|s| p.same_kind(s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_kind_of_value_a_question_wants() {
        assert_eq!(wanted("What was Amcor's capital expenditure in FY2022, in USD millions?"), Some(Want::Money));
        assert_eq!(wanted("what percentage of members voted"), Some(Want::Percent));
        assert_eq!(wanted("how many members does the coop have"), Some(Want::Count));
        assert_eq!(wanted("how long do we keep logs"), Some(Want::Duration));
        assert_eq!(wanted("when did the pilot start"), Some(Want::Date));
        assert_eq!(wanted("错误率降到了百分之多少"), Some(Want::Percent));
        assert_eq!(wanted("Redis 缓存的命中率大概多少？"), Some(Want::Percent));
        assert_eq!(wanted("what interest rate will members get"), Some(Want::Percent));
        assert_eq!(wanted("what's the mileage rate"), None, "a rate of what is not said");
        assert_eq!(wanted("how much is our yearly insurance premium?"), Some(Want::Money));
        assert_eq!(wanted("what's the general manager paid"), Some(Want::Money));
        assert_eq!(wanted("who chairs the board"), None);
        assert_eq!(wanted("how much did revenue grow in 2023"), None, "an amount or a percentage");
        assert_eq!(wanted("exec kills my child process when the command prints a ton of output - which setting raises that limit?"), None, "a conjunction");
        assert_eq!(wanted("when did brightwater solar get started and who set it up"), Some(Want::Date));
        assert_eq!(wanted("who set it up, and when?"), Some(Want::Date));
    }

    fn sentence(text: &str) -> Sentence {
        crate::answer::attribute::cited_sentence(text)
    }

    #[test]
    fn a_percentage_does_not_answer_a_question_about_an_amount() {
        assert!(!gives_other_kind(Want::Money, &[sentence("Capital expenditure was $471 million.")]));
        assert!(!gives_other_kind(Want::Percent, &[sentence("The share rose to 71 percent.")]));
        assert!(!gives_other_kind(Want::Date, &[sentence("The pilot started in March 2024.")]));
        assert!(gives_other_kind(Want::Money, &[sentence("About 38% of capital spending was in the United States.")]));
        assert!(!gives_other_kind(Want::Money, &[sentence("Capital spending rose in every region.")]), "words are not judged");
        assert!(!gives_other_kind(Want::Date, &[sentence("The last ferry leaves at 21:40.")]));
    }

    #[test]
    fn an_answer_without_the_asked_value_does_not_answer() {
        let description = [sentence("The cooperative owns and operates community solar installations on schools and farm buildings.")];
        assert!(lacks_asked_value("how many solar panels does the coop own", Want::Count, &description));
        assert!(!lacks_asked_value("how many solar panels does the coop own", Want::Count, &[sentence("It owns 4,212 panels.")]));
        assert!(!lacks_asked_value("how many receivers can a channel have", Want::Count, &[sentence("A channel has only one receiver.")]), "an answer in words");
        assert!(!lacks_asked_value("how much is the joining fee", Want::Money, &[sentence("Joining is free for residents.")]));
        // The question's own figure, repeated, answers nothing; another figure does.
        let echo = [sentence("Metrics are kept at full resolution for 15 days.")];
        assert!(lacks_asked_value("how long are downsampled metrics kept after the 15 days?", Want::Duration, &echo));
        assert!(!lacks_asked_value("how long are metrics kept?", Want::Duration, &echo));
        assert!(!lacks_asked_value("how long are metrics kept?", Want::Duration, &[sentence("Metrics are kept until the next release.")]), "a duration in words");
        assert!(!lacks_asked_value("when did the pilot start", Want::Date, &description), "dates are judged by period");
        assert_eq!(wanted("chunk 之间的 overlap 设多大比较合适？"), Some(Want::Figure));
        assert_eq!(wanted("宁德时代 2023 年 Q4 电池出货量环比到底变了多少？"), Some(Want::Figure), "a change of any kind");
        assert_eq!(wanted("how big is the preallocated buffer pool"), Some(Want::Figure));
        let example = [sentence("结果用户问“宁德时代2023年Q4电池出货量环比变化”返回的片段全是关于股权结构变动的内容。")];
        assert!(lacks_asked_value("宁德时代 2023 年 Q4 电池出货量环比到底变了多少？", Want::Figure, &example));
        assert!(!lacks_asked_value("召回率提升了多少？", Want::Figure, &[sentence("召回率从 62% 提升到 89%。")]));
        assert!(!lacks_asked_value("团队有多少人？", Want::Figure, &[sentence("团队一共十二人。")]), "a Chinese numeral that counts");
    }

    #[test]
    fn a_source_that_quotes_the_question_does_not_answer_it() {
        let example = "一个号称“能查公司内部文档”的 AI Agent，你问它“上季度华东区销售返点政策是什么”，它要么答非所问，要么直接编造。";
        assert!(quotes_the_question("华东区上季度的销售返点政策具体是什么？", example));
        assert!(!quotes_the_question("华东区上季度的销售返点政策具体是什么？", "华东区上季度的销售返点政策是按季度结算，返点比例为 3%。"), "no quotes");
        let faq = "Asked “how long are backups kept”, the handbook says backups are kept for 30 days.";
        assert!(!quotes_the_question("how long are backups kept", faq), "the answer follows outside the quotes");
        assert!(quotes_the_question("how do I reset my vpn token", "Users often ask “how do I reset my VPN token?” on the chat."));
        let quote = |text: &str| Sentence::new(text.into(), SentenceStatus::Quote, sentence(text).citations);
        assert!(!quotes_answer("华东区上季度的销售返点政策具体是什么？", &[quote(example)]));
    }

    #[test]
    fn who_is_not_answered_by_the_name_the_question_gives() {
        let same = [sentence("Helen Marsh has chaired the board since 2019.")];
        assert!(names_only_the_asked("who chaired the coop board before helen marsh?", &same));
        assert!(!names_only_the_asked("who chairs the coop board?", &same));
        assert!(!names_only_the_asked("who chaired the board before Helen Marsh", &[sentence("Before Helen Marsh, Tom Avery chaired the board.")]));
        assert!(!names_only_the_asked("which tests match the title filter", &same), "not a who-question");
        assert!(!names_only_the_asked("with the test runner, how do I run tests whose title matches", &same), "whose is no who");
    }

    #[test]
    fn an_answer_about_another_year_does_not_answer() {
        let other = [sentence("The next annual general meeting will be held on 22 March 2025.")];
        assert!(gives_other_period("when is the 2026 agm", &other));
        assert!(!gives_other_period("when is the 2025 agm", &other));
        assert!(!gives_other_period("when is the next agm", &other), "no period asked");
        assert!(!gives_other_period("how many sites were added in 2024", &[sentence("Nine new sites were commissioned during the year.")]), "no period stated");
        assert!(!gives_other_period("members at the end of 2024?", &[sentence("There were 1,847 members at the end of 2024, up from 1,612 in 2023.")]));
    }

    #[test]
    fn a_measure_in_a_unit_is_not_a_count() {
        assert_eq!(wanted("how many MWh did the battery shift"), Some(Want::Measure(Family::Energy)));
        assert_eq!(wanted("what's the battery's power rating in kW"), Some(Want::Measure(Family::Power)));
        assert_eq!(wanted("which region has the most installed kw"), None, "a name is asked for");
        assert!(gives_other_kind(Want::Measure(Family::Power), &[sentence("The battery stores 500 kWh.")]), "energy for power");
        assert!(!gives_other_kind(Want::Measure(Family::Power), &[sentence("The array has 220 kW.")]));
        assert!(!gives_other_kind(Want::Measure(Family::Energy), &[sentence("North Valley generated 1,306 MWh.")]));
        assert_eq!(wanted("how many hours a week can I work from home"), Some(Want::Duration));
        assert_eq!(wanted("how many sites are there"), Some(Want::Count));
    }

    #[test]
    fn quotes_shown_instead_of_an_answer_must_state_the_asked_slots() {
        let quote = |text: &str| Sentence::new(text.into(), SentenceStatus::Quote, sentence(text).citations);
        let other_year = [quote("Turnover: 1.38 million pounds (2023: 1.21 million pounds)")];
        assert!(!quotes_answer("what was the turnover in 2022", &other_year));
        assert!(quotes_answer("what was the turnover in 2023", &other_year));
        let percent = [quote("Our insurance premium rose by 18 percent at the October renewal.")];
        assert!(!quotes_answer("how much does the insurance cost each year", &percent));
        assert!(quotes_answer("how much did the premium rise", &percent), "a change: an amount or a percentage");
        assert!(quotes_answer("who chairs the board", &[quote("Helen Marsh has chaired the board since 2019.")]), "nothing to check");
        let heading = [quote("3.2 Embedding 模型选型为什么 BGE-M3 是当前最优解别再迷信 OpenAI 的 text-embedding-3-small。")];
        assert!(!quotes_answer("text-embedding-3-small 调用一次多少钱？", &heading), "a section number is no price");
        assert!(quotes_answer("how many new sites got switched on", &[quote("12 new sites were commissioned.")]));
        let kinds = [quote("分类器输出三类：事实、创作和观点。")];
        assert!(!quotes_answer("分类器用了多少条标注数据训练？", &kinds), "three kinds are no number of records");
        assert!(quotes_answer("分类器用了多少条标注数据训练？", &[quote("分类器用了 3000 条标注数据训练。")]));
        assert!(quotes_answer("分类器分为几类？", &kinds));
        let sites = [quote("The board intends to add batteries at three further sites from 2026.")];
        assert!(!quotes_answer("how much did the kettlewick battery cost in total", &sites), "three sites are no price");
        assert!(quotes_answer("how many sites will get batteries", &sites));
        assert!(quotes_answer("how much does the battery cost", &[quote("The battery cost 120,000.")]));
        let row = [quote("Riverside | Sites: 9 | Capacity (kW): 960 | Output 2024 (MWh): 874")];
        assert!(!quotes_answer("how much income did we lose at riverside", &row), "kW and MWh are no money");
        assert!(quotes_answer("how many MWh did riverside produce in 2024", &row));
        let pupils = [quote("The schools programme reached 1,150 pupils, with visits to the Fenwick array from 2026.")];
        assert!(!quotes_answer("how many MWh did the fenwick array generate", &pupils), "pupils and a year are no energy");
        assert!(quotes_answer("how many pupils did the programme reach", &pupils));
        let lines = [quote("前者召回率仅高2.3%，而推理延迟高3.8倍，我测试了10万条客服问答。")];
        assert!(!quotes_answer("推理一次要多少毫秒？", &lines), "times and things counted are no duration");
        assert!(quotes_answer("推理一次要多少毫秒？", &[quote("单次推理约45毫秒。")]));
    }

    #[test]
    fn a_value_to_compute_is_not_checked_for_its_kind() {
        let quote = |text: &str| Sentence::new(text.into(), SentenceStatus::Quote, sentence(text).citations);
        let table = [quote("Net earnings in fiscal 2017 were $1,228 million on revenue of $39,403 million.")];
        assert!(quotes_answer("what was the fiscal 2017 net profit margin as a percentage", &table));
        assert!(!quotes_answer("what percentage of revenue came from services in fiscal 2017", &table));
    }
}
