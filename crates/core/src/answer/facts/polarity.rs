//! What a clause asserts beyond its words: whether it is negated ("was not signed", "不支持")
//! and which way it says something moved or compares ("increased", "lower", "before",
//! "下降"). Word overlap cannot see either: "the contract was not signed" shares every
//! content word with "the contract was signed".

use std::sync::OnceLock;

use regex::Regex;
use crate::text::cached_regex as re;

/// Bounds and contrasts built from negators that do not negate: "not only", "no later than",
/// "no more than", "not less than", "nothing but", "不仅", "无论".
fn strip_non_negations(text: &str) -> String {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    let en = re(
        &EN,
        r"(?i)\bnot\s+only\b|\bno\s+(?:later|earlier|more|less|fewer|sooner|longer)\s+than\b|\bnot\s+(?:more|less|fewer|later|earlier)\s+than\b|\bno\s+matter\b|\bnothing\s+but\b|\bnor\s+(?:more|less|fewer|later|earlier)\s+than\b|\bnot\s+(?:to\s+)?exceed\b|\bnot\s+be\s+(?:more|less|greater|fewer|later|earlier)\s+than\b|\bno\.\s*\d|\bwhether\s+or\s+not\b|\bif\s+not\b",
    );
    let zh = re(&ZH, r"各不相同|互不相同|不仅|不但|不同|不断|不过|不少|不久|不管|不论|不错|不然|无论|无数|无线|非常|除非|未来|并非仅|别人|分别|区别|特别|类别|级别|识别|别的|不得不|不可或缺|无限");
    // SQL's operators ("IS NOT NULL", "NOT IN", "NOT EXISTS") test for absence; they deny nothing.
    static SQL: OnceLock<Regex> = OnceLock::new();
    let sql = re(&SQL, r"\bNOT\s+(?:NULL|IN|EXISTS|LIKE|ILIKE|BETWEEN|DEFERRABLE|VALID)\b|\bIS\s+NOT\s+(?:TRUE|FALSE|DISTINCT|UNKNOWN)\b");
    let text = sql.replace_all(text, " ");
    let text = blank_corrections(&text);
    strip_a_not_a(&zh.replace_all(&en.replace_all(&text, " "), " "))
}

/// The text with each correction in brackets blanked out, byte for byte: "is 511 (not 512)"
/// denies 512 and nothing else, so the clause is not negated and 512 is not a figure it states.
pub fn blank_corrections(text: &str) -> std::borrow::Cow<'_, str> {
    static CORRECTION: OnceLock<Regex> = OnceLock::new();
    let correction = re(&CORRECTION, r"(?i)[(（]\s*(?:not|never|no|不是|并非|非)\s*[$€£¥]?\d[^()（）]{0,20}[)）]");
    correction.replace_all(text, |c: &regex::Captures<'_>| " ".repeat(c[0].len()))
}

/// Chinese asks yes-or-no by saying a word and its negation ("是不是", "有没有", "能不能",
/// "可不可以"): a question, or "whether", never a denial.
fn strip_a_not_a(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let asks = i + 2 < chars.len() && matches!(chars[i + 1], '不' | '没') && chars[i] == chars[i + 2] && crate::text::is_cjk(chars[i]);
        if asks {
            out.push(' ');
            i += 3;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// Whether the clause is negated: it holds a negator ("not", "n't", "never", "no", "without",
/// "cannot", "不", "没有", "未", "无法", "非" …). Lists of prohibitions ("不要泄愤、不要说脏话")
/// and a negation beside a negative word ("不要泄愤，这很不礼貌") are common; double negations
/// that cancel are not, so presence decides, not parity.
pub fn negated(clause: &str) -> bool {
    negators(clause) > 0
}

pub fn negators(clause: &str) -> usize {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    let text = strip_non_negations(clause);
    let en = re(
        &EN,
        r"(?i)\b(?:not|no|never|none|nothing|neither|nor|without|cannot|unable|nobody|nowhere|lacks?|lacked|lacking|fails?\s+to|failed\s+to)\b|n't\b|n’t\b",
    );
    // 没有 is one negator, not 没 and 有; 无法 / 未能 / 不能 likewise.
    let zh = re(&ZH, r"没有|无法|未能|不能|不会|不可|不得|并非|毫无|无需|无须|不|没|未|无|非|别|勿|莫");
    en.find_iter(&text).count() + zh.find_iter(&text).count()
}

/// Whether a clause puts one thing in another's place ("instead of", "rather than", "代替") or
/// leaves it out ("skip the cache", "avoid", "跳过"): it denies without a negator.
pub fn replaces(clause: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"(?i)\binstead\s+of\b|\brather\s+than\b|\bin\s+place\s+of\b|\b(?:skip|skips|skipping|skipped|bypass\w*|avoid\w*|omit\w*)\b|代替|替代|取代|而非|跳过|绕过|避免|省略").is_match(clause)
}

/// Where in `clause` its first negator ends ("never", "not", "n't", 不, 没有 …).
pub fn negator_end(clause: &str) -> Option<usize> {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    let en = re(&EN, r"(?i)\b(?:not|never|no|without|cannot|unable\s+to)\b|n't\b|n’t\b");
    let zh = re(&ZH, r"没有|无法|未能|不能|不会|不可|不得|不|没|未|无|别|勿");
    [en.find(clause), zh.find(clause)].into_iter().flatten().map(|m| m.end()).min()
}

/// The word a clause's first negator denies: the first content word after "not", "never",
/// "n't" …, or the two characters after 不, 没有, 未 ("只下载不安装" denies 安装). `None`
/// when the clause is not negated.
pub fn denied_term(clause: &str) -> Option<String> {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    let text = strip_non_negations(clause);
    let en = re(&EN, r"(?i)\b(?:not|never|no|without|cannot|unable\s+to)\b|n't\b|n’t\b");
    let zh = re(&ZH, r"没有|无法|未能|不能|不会|不可|不得|不|没|未|无|别|勿");
    let at = match (en.find(&text), zh.find(&text)) {
        (Some(a), Some(b)) => a.end().min(b.end()),
        (Some(a), None) => a.end(),
        (None, Some(b)) => b.end(),
        (None, None) => return None,
    };
    let rest = &text[at..];
    let cjk: String = rest.trim_start().chars().take_while(|c| crate::text::is_cjk(*c)).take(2).collect();
    if cjk.chars().count() == 2 {
        return Some(cjk);
    }
    crate::text::content_terms(rest).into_iter().find(|t| !t.as_bytes()[0].is_ascii_digit())
}

/// Pairs of words that say opposite things of the same subject: one in a claim where its
/// source clause says only the other is a reversal as sure as a "not".
const ANTONYMS: &[(&str, &str)] = &[
    (r"approv\w*|passed|adopted|accepted|elected|granted", r"reject\w*|defeated|denied|declined|failed"),
    (r"allow\w*|permit\w*|may\s+be\s+used", r"prohibit\w*|forbid\w*|disallow\w*|must\s+not"),
    (r"enabl\w*|turned\s+on|switched\s+on", r"disabl\w*|turned\s+off|switched\s+off"),
    (r"includ\w*", r"exclud\w*"),
    (r"\bsynchronous\w*|\bsynchronously", r"asynchronous\w*"),
    (r"\bblocking", r"non-blocking"),
    (r"\brequired|mandatory|compulsory", r"\boptional"),
    (r"succeed\w*|success\w*", r"\bfail\w*"),
    (r"\bvalid\b", r"\binvalid\b"),
    (r"\bsafe\b", r"\bunsafe\b"),
    (r"\bsupported\b", r"\bunsupported\b"),
    (r"\b(?:newer|newest|latest)\b", r"\b(?:older|oldest)\b"),
    (r"\b(?:preserv\w*|kept|keeps?|retain\w*)\b", r"\b(?:remov\w*|strip\w*|drop\w*|discard\w*)\b"),
    (r"\bignor\w*", r"\b(?:honou?r\w*|respect\w*|obey\w*)\b"),
    (r"保留", r"删除|去掉|移除"),
    (r"同意|批准|通过", r"否决|拒绝|驳回"),
    (r"允许|可以使用", r"禁止|不得"),
    (r"启用|开启|打开", r"禁用|关闭"),
    (r"同步", r"异步"),
    (r"必须|必需|强制", r"可选"),
    (r"成功", r"失败"),
    (r"包含|包括", r"排除"),
    (r"较新|更新的|最新|新版", r"较旧|更旧|最旧|更老|旧版"),
];

/// Whether the claim says one word of an opposite pair where the source clause says only the
/// other ("approved" for "defeated", "同步" for "异步").
pub fn antonymous(claim: &str, source: &str) -> bool {
    static COMPILED: OnceLock<Vec<(Regex, Regex)>> = OnceLock::new();
    let pairs = COMPILED.get_or_init(|| {
        ANTONYMS
            .iter()
            .filter_map(|(a, b)| Some((Regex::new(&format!("(?i){a}")).ok()?, Regex::new(&format!("(?i){b}")).ok()?)))
            .collect()
    });
    // "non-blocking" holds "blocking", "asynchronous" holds "synchronous": the second word of
    // a pair is looked for first, and taken out before the first is.
    pairs.iter().any(|(a, b)| {
        let claim_b = b.is_match(claim);
        let source_b = b.is_match(source);
        let claim_a = a.is_match(&b.replace_all(claim, " "));
        let source_a = a.is_match(&b.replace_all(source, " "));
        (claim_a && !claim_b && source_b && !source_a) || (claim_b && !claim_a && source_a && !source_b)
    })
}

/// "from the evening peak to midday" where the source says "from midday to the evening
/// peak": the two ends of a move swapped. Returns the (from, to) words of each "from … to …"
/// (从…到/至…) phrase.
fn ends(text: &str) -> Vec<(Vec<String>, Vec<String>)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = re(&RE, r"(?i)\bfrom\s+((?:[\w'-]+\s+){0,4}?[\w'-]+)\s+(?:to|into|until)\s+((?:[\w'-]+\s*){1,5})|从([^到至，。]{1,12})(?:到|至)([^，。；]{1,12})");
    re.captures_iter(text)
        .filter_map(|c| {
            let from = c.get(1).or(c.get(3))?.as_str();
            let to = c.get(2).or(c.get(4))?.as_str();
            // Figures are the direction's business ("from 38% to 71%").
            if from.chars().any(|ch| ch.is_ascii_digit()) || to.chars().any(|ch| ch.is_ascii_digit()) {
                return None;
            }
            Some((crate::text::coverage_terms(from), crate::text::coverage_terms(to)))
        })
        .collect()
}

/// Whether a claim moves something between the same two ends as its source, the other way.
pub fn swapped_ends(claim: &str, source: &str) -> bool {
    let shared = |a: &[String], b: &[String]| !a.is_empty() && !b.is_empty() && a.iter().filter(|t| b.contains(t)).count() * 2 >= a.len().min(b.len());
    ends(claim).iter().any(|(cf, ct)| {
        ends(source).iter().any(|(sf, st)| shared(cf, st) && shared(ct, sf) && !shared(cf, sf))
    })
}

/// How often something happens, when a clause says so: "hourly", "every day", "每周".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frequency {
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Quarter,
    Year,
}

/// The frequencies a clause states.
pub fn frequencies(clause: &str) -> Vec<Frequency> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = re(
        &RE,
        r"(?i)\b(?:every|each|per|once\s+a|twice\s+a)\s+(minute|hour|day|night|week|month|quarter|year)\b|\b(hourly|daily|nightly|weekly|monthly|quarterly|yearly|annually)\b|每(分钟|小时|天|日|晚|周|星期|月|季度|年)",
    );
    let mut out = Vec::new();
    for c in re.captures_iter(clause) {
        let Some(word) = c.get(1).or(c.get(2)).or(c.get(3)) else { continue };
        let f = match word.as_str().to_lowercase().as_str() {
            "minute" | "分钟" => Frequency::Minute,
            "hour" | "hourly" | "小时" => Frequency::Hour,
            "day" | "night" | "daily" | "nightly" | "天" | "日" | "晚" => Frequency::Day,
            "week" | "weekly" | "周" | "星期" => Frequency::Week,
            "month" | "monthly" | "月" => Frequency::Month,
            "quarter" | "quarterly" | "季度" => Frequency::Quarter,
            _ => Frequency::Year,
        };
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// A direction a clause states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// More, higher, larger, longer, faster, rising.
    Up,
    /// Less, lower, smaller, shorter, slower, falling.
    Down,
    Before,
    After,
    /// Quicker: less time.
    Faster,
    /// Slower: more time.
    Slower,
}

impl Direction {
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Before => Direction::After,
            Direction::After => Direction::Before,
            Direction::Faster => Direction::Slower,
            Direction::Slower => Direction::Faster,
        }
    }
}

/// The directions a clause states, from its words and from figures written "from A to B"
/// ("from 38% to 1.2%" goes down).
pub fn directions(clause: &str) -> Vec<Direction> {
    static UP: OnceLock<Regex> = OnceLock::new();
    static DOWN: OnceLock<Regex> = OnceLock::new();
    static BEFORE: OnceLock<Regex> = OnceLock::new();
    static AFTER: OnceLock<Regex> = OnceLock::new();
    static ZH_UP: OnceLock<Regex> = OnceLock::new();
    static ZH_DOWN: OnceLock<Regex> = OnceLock::new();
    static ZH_BEFORE: OnceLock<Regex> = OnceLock::new();
    static ZH_AFTER: OnceLock<Regex> = OnceLock::new();
    let up = re(
        &UP,
        r"(?i)\b(?:increas\w*|ris(?:e|es|ing|en)|rose|gr[eo]w(?:s|n|ing|th)?|gain(?:s|ed)?|higher|highest|more|most|greater|larger|largest|bigger|improv\w*|exceed\w*|climb\w*|jump\w*|surg\w*|expand\w*|expansion|accelerat\w*|above|rais(?:e|ed|es|ing)|boost\w*|up|upward|strengthen\w*|widen\w*|doubl\w*|tripl\w*|outperform\w*|maximum|ascending|overstat\w*)\b|\b(?:over|more\s+than|greater\s+than|exceeding|above|at\s+least)\s+[$€£¥]?\d",
    );
    let down = re(
        &DOWN,
        r"(?i)\b(?:decreas\w*|declin\w*|fall(?:s|ing|en)?|fell|drop(?:s|ped|ping)?|lower|lowest|less|least|fewer|smaller|smallest|reduc\w*|shr[iau]nk\w*|cut(?:s|ting)?|down|downward|worse|worsen\w*|deteriorat\w*|below|weaken\w*|degrad\w*|narrow\w*|halv\w*|underperform\w*|minimum|descending|understat\w*|loss(?:es)?|contract(?:ed|ion))\b|\b(?:under|less\s+than|fewer\s+than|below|at\s+most|up\s+to)\s+[$€£¥]?\d",
    );
    let before = re(&BEFORE, r"(?i)\b(?:before|earlier|prior\s+to|ahead\s+of|preced\w*|until|previously)\b");
    let after = re(&AFTER, r"(?i)\b(?:after|later|following|subsequent(?:ly)?|since|afterwards)\b");
    let zh_up = re(&ZH_UP, r"增加|增长|增多|上升|上涨|提高|提升|扩大|高于|多于|超过|升至|升到|涨|增至|增到|翻倍|最高|最多|最大|更多|更高|更大|更长|大于|[稍略较偏]高|[稍略较]大");
    let zh_down = re(&ZH_DOWN, r"减少|下降|下跌|降低|缩小|低于|少于|降至|降到|减至|减到|跌|减半|最低|最少|最小|更少|更低|更小|更短|缩短|小于|[稍略较偏]低|[稍略较]小");
    let zh_before = re(&ZH_BEFORE, r"之前|以前|早于|提前|此前|事先");
    let zh_after = re(&ZH_AFTER, r"之后|以后|晚于|延后|此后|随后|推迟");
    let mut out = Vec::new();
    let mut add = |d: Direction, hit: bool| {
        if hit && !out.contains(&d) {
            out.push(d);
        }
    };
    add(Direction::Up, up.is_match(clause) || zh_up.is_match(clause));
    add(Direction::Down, down.is_match(clause) || zh_down.is_match(clause));
    add(Direction::Before, before.is_match(clause) || zh_before.is_match(clause));
    add(Direction::After, after.is_match(clause) || zh_after.is_match(clause));
    static FASTER: OnceLock<Regex> = OnceLock::new();
    static SLOWER: OnceLock<Regex> = OnceLock::new();
    let faster = re(&FASTER, r"(?i)\b(?:faster|quicker|more\s+quickly|speeds?\s+up|sped\s+up|accelerat\w*)\b|加快|更快|快速|提速|加速|快");
    let slower = re(&SLOWER, r"(?i)\b(?:slower|more\s+slowly|slows?\s+down|slowed\s+down|takes?\s+longer|took\s+longer|take\s+more\s+time)\b|减慢|放缓|减缓|变慢|更慢|慢");
    add(Direction::Faster, faster.is_match(clause));
    add(Direction::Slower, slower.is_match(clause));
    // A speed that goes up is faster ("转换速度大幅提升", "speed increased").
    static SPEED: OnceLock<Regex> = OnceLock::new();
    if re(&SPEED, r"(?i)\bspeeds?\b|速度").is_match(clause) {
        let (up, down) = (out.contains(&Direction::Up), out.contains(&Direction::Down));
        for (d, said) in [(Direction::Faster, up && !down), (Direction::Slower, down && !up)] {
            if said && !out.contains(&d) {
                out.push(d);
            }
        }
    }
    // Figures say the direction only where no word does: "rose from 38% to 1.2%" says up.
    let worded = out.contains(&Direction::Up) || out.contains(&Direction::Down);
    if let Some(d) = from_to(clause).filter(|_| !worded) {
        out.push(d);
    }
    out
}

/// "from 38% to 1.2%", "从38%降到1.2%", "to 1,847 from 1,612": the direction of the change
/// the two figures give.
fn from_to(clause: &str) -> Option<Direction> {
    static RE: OnceLock<Regex> = OnceLock::new();
    static REV: OnceLock<Regex> = OnceLock::new();
    let forward = re(&RE, r"(?i)(?:\bfrom|从)\s*[$€£¥]?\s*([\d,]+(?:\.\d+)?)[^\d]{0,24}?(?:\bto|到|至|降到|升到|增至|降至|增加到|减少到)\s*[$€£¥]?\s*([\d,]+(?:\.\d+)?)");
    let backward = re(&REV, r"(?i)\bto\s+[$€£¥]?\s*([\d,]+(?:\.\d+)?)[^\d]{0,24}?\bfrom\s+[$€£¥]?\s*([\d,]+(?:\.\d+)?)");
    let number = |s: &str| s.replace(',', "").parse::<f64>().ok();
    if let Some(c) = forward.captures(clause) {
        let (a, b) = (number(&c[1])?, number(&c[2])?);
        return (a != b).then_some(if b > a { Direction::Up } else { Direction::Down });
    }
    if let Some(c) = backward.captures(clause) {
        let (b, a) = (number(&c[1])?, number(&c[2])?);
        return (a != b).then_some(if b > a { Direction::Up } else { Direction::Down });
    }
    None
}

/// Whether two clauses state opposite directions: one says up where the other says only down
/// (a clause that states both ways, "lower costs raised margins", contradicts neither).
pub fn opposed(claim: &[Direction], source: &[Direction]) -> bool {
    claim.iter().any(|d| !claim.contains(&d.opposite()) && source.contains(&d.opposite()) && !source.contains(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_in_both_languages() {
        assert!(negated("The contract was not signed."));
        assert!(!negated("The contract was signed."));
        assert!(negated("You can't use it in production"));
        assert!(!negated("它们在运行环境和实现方式上各不相同"), "各不相同 says they differ");
        assert!(!negated("the aggregate amount shall not exceed $4,950,000,000"), "a bound, as 'no more than' is");
        assert!(negated("该功能不支持多个接收者"));
        assert!(negated("项目没有按时完成"));
        assert!(!negated("不仅速度快，而且非常稳定"));
        assert!(!negated("an IS NOT NULL condition can use a B-tree index"));
        assert!(negated("the index is not used"));
        assert!(antonymous("path.normalize() removes trailing separators", "Trailing separators are preserved."));
        assert!(!antonymous("Trailing separators are kept", "Trailing separators are preserved."));
        assert!(!negated("它会检查要卸载的是不是正在运行的内核"));
        assert!(!negated("你有没有安装这个包"));
        assert!(negated("这不是正在运行的内核"));
        assert!(!negated("payments are due no later than 30 days after invoice"));
        assert!(!negated("未来三年的计划"));
        assert!(negated("The pilot did not run until August."));
        assert!(!negated("The default value of this parameter is 511 (not 512)."), "a bracketed correction");
        assert!(!negated("默认值是 511（不是 512）"));
        assert!(negated("Revenue (not audited) was $5 million."), "a bracket without a figure still denies");
    }

    #[test]
    fn the_word_a_negation_denies() {
        assert_eq!(denied_term("它只下载不安装").as_deref(), Some("安装"));
        assert_eq!(denied_term("it does not install the upgrades").as_deref(), Some("install"));
        assert_eq!(denied_term("it installs the upgrades"), None);
    }

    #[test]
    fn directions_from_words_and_figures() {
        assert_eq!(directions("Revenue increased 5%"), vec![Direction::Up]);
        assert_eq!(directions("Margins fell to 12%"), vec![Direction::Down]);
        assert_eq!(directions("错误率从38%降到1.2%"), vec![Direction::Down]);
        assert_eq!(directions("share rose from 38 percent to 71 percent"), vec![Direction::Up]);
        assert!(directions("from 38 percent to 71 percent").contains(&Direction::Up));
        assert!(opposed(&directions("revenue decreased"), &directions("revenue increased")));
        assert!(!opposed(&directions("revenue increased"), &directions("revenue grew")));
        assert!(opposed(&directions("上升了"), &directions("下降了")));
        assert!(!opposed(&directions("costs rose"), &directions("higher costs lowered margins")));
        assert!(swapped_ends("the battery shifted 61 MWh from the evening peak to midday", "the battery shifted 61 MWh from midday to the evening peak"));
        assert!(!swapped_ends("moved from midday to the evening peak", "shifted from midday to the evening peak"));
        assert!(antonymous("shareholders approved the proposal", "the shareholder proposal was defeated"));
        assert!(antonymous("fs.readFile is synchronous", "fs.readFile is asynchronous"));
        assert!(!antonymous("a non-blocking call", "the call is non-blocking"));
        assert!(antonymous("该接口是同步的", "该接口是异步的"));
        assert_eq!(frequencies("the hosts re-enable queues every hour"), vec![Frequency::Hour]);
        assert_eq!(frequencies("主机每天启用一次"), vec![Frequency::Day]);
    }
}
