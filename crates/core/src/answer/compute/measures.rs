//! What a figure question can name: measures a statement row gives (revenue, inventories,
//! capital expenditure), each under the names statements use for it across companies and
//! standards, and metrics computed from them (margins, ratios, EBITDA) with their formulas as
//! analysts define them. No company's own wording: a name here must hold for any filer.

use std::collections::HashSet;

use crate::answer::facts::compare::fold;
use crate::text::is_cjk;

/// Words that join a label's terms without saying what it measures.
const GLUE: &[&str] = &["and", "of", "for", "the", "to", "from", "in", "on", "a", "an", "by", "&"];

/// A label's or question's terms in order: lower case, folded ("inventories" and "inventory"
/// are one), every word that says something kept ("other" and "net" too: "Other current
/// assets" is not "current assets"); a CJK run whole.
fn terms(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphabetic() || c.is_ascii_digit() || c == '&'))
        .filter(|w| !w.is_empty() && !GLUE.contains(w) && !w.chars().all(|c| c.is_ascii_digit()))
        .map(|w| if w.chars().any(is_cjk) { w.to_string() } else { stem(&fold(w)) })
        .collect()
}

fn words(text: &str) -> HashSet<String> {
    terms(text).into_iter().collect()
}

/// "inventory" and "inventories" fold to one stem.
fn stem(folded: &str) -> String {
    match folded.strip_suffix('y') {
        Some(s) if s.chars().count() >= 4 => s.to_string(),
        _ => folded.to_string(),
    }
}

/// The statement that gives a measure first: a balance at a date, or a flow over a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Statement {
    Balance,
    Income,
    CashFlow,
}

/// A measure one statement row gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Measure {
    /// How the answer names it.
    pub name: &'static str,
    /// Row labels that state it ("Total" aside).
    pub labels: &'static [&'static str],
    /// Taken as an amount spent whatever its sign: a statement's "(1,577)" of capital spending
    /// or "(3,115)" of cost of sales is 1,577 or 3,115 spent.
    pub outflow: bool,
    pub statement: Statement,
    /// Words naming the classes a statement may list under the measure's heading instead of
    /// one figure ("Inventories:" then raw materials, finished goods): their sum is the measure.
    pub parts: &'static [&'static str],
    /// Row labels of the kinds a statement may list one after another with no heading and no
    /// total ("Cost of products", "Cost of services"): together they are the measure.
    pub kinds: &'static [&'static str],
}

const fn measure(name: &'static str, labels: &'static [&'static str]) -> Measure {
    Measure { name, labels, outflow: false, statement: Statement::Income, parts: &[], kinds: &[] }
}

const fn balance(name: &'static str, labels: &'static [&'static str]) -> Measure {
    Measure { name, labels, outflow: false, statement: Statement::Balance, parts: &[], kinds: &[] }
}

const fn expense(name: &'static str, labels: &'static [&'static str]) -> Measure {
    Measure { name, labels, outflow: true, statement: Statement::Income, parts: &[], kinds: &[] }
}

pub(crate) const REVENUE: Measure = measure(
    "revenue",
    &["revenue", "revenues", "net revenue", "net revenues", "net sales", "sales", "turnover", "net operating revenues", "营业收入", "营业总收入"],
);
pub(crate) const COST_OF_SALES: Measure = Measure {
    kinds: &["cost of products", "cost of product", "cost of services", "cost of service", "cost of goods", "cost of merchandise"],
    ..expense("cost of sales", &["cost of sales", "cost of goods sold", "cost of revenue", "cost of revenues", "cost of products sold", "营业成本"])
};
pub(crate) const GROSS_PROFIT: Measure = measure("gross profit", &["gross profit", "毛利"]);
pub(crate) const OPERATING_INCOME: Measure = measure(
    "operating income",
    &["operating income", "operating profit", "income from operations", "earnings from operations", "operating earnings", "营业利润"],
);
pub(crate) const NET_INCOME: Measure = measure("net income", &["net income", "net earnings", "net profit", "net loss", "net income loss", "net earnings loss", "净利润"]);
pub(crate) const DEPRECIATION: Measure = Measure {
    statement: Statement::CashFlow,
    ..expense("depreciation and amortization", &["depreciation and amortization", "depreciation amortization", "depreciation depletion and amortization"])
};
pub(crate) const CAPEX: Measure = Measure {
    name: "capital expenditure",
    labels: &[
        "capital expenditures",
        "capital expenditure",
        "capital spending",
        "purchases of property plant and equipment",
        "payments for property plant and equipment",
        "additions to property plant and equipment",
        "expenditures for property plant and equipment",
        "purchases of property and equipment",
        "additions to property and equipment",
        "payments for property and equipment",
    ],
    outflow: true,
    statement: Statement::CashFlow,
    parts: &[],
    kinds: &[],
};
pub(crate) const OPERATING_CASH_FLOW: Measure = Measure {
    statement: Statement::CashFlow,
    ..measure(
        "operating cash flow",
        &["net cash provided by operating activities", "cash provided by operating activities", "net cash from operating activities", "net cash provided by operations", "经营活动产生的现金流量净额"],
    )
};
pub(crate) const TOTAL_ASSETS: Measure = balance("total assets", &["total assets", "资产总计"]);
pub(crate) const CURRENT_ASSETS: Measure = balance("current assets", &["current assets", "流动资产合计"]);
pub(crate) const CURRENT_LIABILITIES: Measure = balance("current liabilities", &["current liabilities", "流动负债合计"]);
pub(crate) const TOTAL_LIABILITIES: Measure = balance("total liabilities", &["total liabilities", "负债合计"]);
/// The classes of inventories accounting standards name (IAS 2, ASC 330).
pub(crate) const INVENTORIES: Measure = Measure {
    parts: &["raw material", "work in process", "work in progress", "finished goods", "supplies", "merchandise", "spare parts", "原材料", "库存商品", "在产品"],
    ..balance("inventories", &["inventories", "inventory", "merchandise inventories", "inventories net", "merchandise inventories net", "存货"])
};
pub(crate) const CASH: Measure = balance("cash and cash equivalents", &["cash and cash equivalents", "cash and equivalents", "货币资金"]);
pub(crate) const RECEIVABLES: Measure =
    balance("accounts receivable", &["accounts receivable", "accounts receivable net", "receivables", "receivables net", "trade receivables", "应收账款"]);
pub(crate) const PAYABLES: Measure = balance("accounts payable", &["accounts payable", "应付账款"]);
pub(crate) const EQUITY: Measure = balance(
    "total equity",
    &["total equity", "shareholders equity", "stockholders equity", "total shareholders equity", "total stockholders equity", "所有者权益合计"],
);
pub(crate) const INCOME_TAX: Measure =
    expense(
        "income tax expense",
        &[
            "provision for income taxes",
            "income tax expense",
            "income taxes",
            "income tax provision",
            "provision for taxes on income",
            "income tax benefit",
            "income tax expense benefit",
            "benefit from income taxes",
            "provision for benefit from income taxes",
            "所得税费用",
        ],
    );
pub(crate) const PRETAX_INCOME: Measure = measure(
    "income before income taxes",
    &[
        "income before income taxes",
        "earnings before income taxes",
        "loss before income taxes",
        "income before taxes",
        "earnings before taxes",
        "income before provision for income taxes",
        "利润总额",
    ],
);
pub(crate) const PPE_NET: Measure = balance(
    "net property, plant and equipment",
    &["property plant and equipment net", "net property plant and equipment", "property and equipment net", "net property and equipment", "固定资产"],
);
pub(crate) const SGA: Measure = expense("selling, general and administrative expenses", &["selling general and administrative expenses", "selling general and administrative"]);
pub(crate) const RESEARCH: Measure = expense("research and development", &["research and development", "research and development expense", "研发费用"]);
pub(crate) const INTEREST_EXPENSE: Measure = expense("interest expense", &["interest expense", "利息费用"]);
pub(crate) const DIVIDENDS_PAID: Measure =
    Measure { name: "dividends paid", labels: &["dividends paid", "cash dividends paid"], outflow: true, statement: Statement::CashFlow, parts: &[], kinds: &[] };

/// Every measure a question may ask for by name.
pub(crate) const MEASURES: &[Measure] = &[
    REVENUE, COST_OF_SALES, GROSS_PROFIT, OPERATING_INCOME, NET_INCOME, DEPRECIATION, CAPEX, OPERATING_CASH_FLOW, TOTAL_ASSETS,
    CURRENT_ASSETS, CURRENT_LIABILITIES, TOTAL_LIABILITIES, INVENTORIES, CASH, RECEIVABLES, PAYABLES, EQUITY, INCOME_TAX,
    PRETAX_INCOME, PPE_NET, SGA, RESEARCH, INTEREST_EXPENSE, DIVIDENDS_PAID,
];

/// A formula over measures of one period.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Of(Measure),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

/// How a metric's value reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shown {
    Amount,
    Percent,
    /// A plain ratio ("0.69").
    Times,
}

/// A metric computed from measures.
pub(crate) struct Metric {
    pub name: &'static str,
    /// Names a question uses for it.
    pub asked_as: &'static [&'static str],
    /// Its formulas, the first whose measures the statements give.
    pub formulas: fn() -> Vec<Expr>,
    pub shown: Shown,
}

fn of(m: Measure) -> Box<Expr> {
    Box::new(Expr::Of(m))
}

fn ebitda() -> Expr {
    Expr::Add(of(OPERATING_INCOME), of(DEPRECIATION))
}

/// Metrics in the order they are recognised: longer names first, so "EBITDA margin" is not
/// read as "EBITDA" and "net profit margin" not as "net profit".
pub(crate) const METRICS: &[Metric] = &[
    Metric {
        name: "EBITDA margin",
        asked_as: &["ebitda margin", "ebitda % margin", "ebitda percent margin"],
        formulas: || vec![Expr::Div(Box::new(ebitda()), of(REVENUE))],
        shown: Shown::Percent,
    },
    Metric {
        name: "EBITDA less capital expenditure",
        asked_as: &["ebitda less capex", "ebitda minus capex", "ebitda less capital expenditure", "ebitda minus capital expenditure"],
        formulas: || vec![Expr::Sub(Box::new(ebitda()), of(CAPEX))],
        shown: Shown::Amount,
    },
    Metric { name: "EBITDA", asked_as: &["ebitda"], formulas: || vec![ebitda()], shown: Shown::Amount },
    Metric {
        name: "gross margin",
        asked_as: &["gross margin", "gross profit margin", "毛利率"],
        formulas: || vec![Expr::Div(of(GROSS_PROFIT), of(REVENUE)), Expr::Div(Box::new(Expr::Sub(of(REVENUE), of(COST_OF_SALES))), of(REVENUE))],
        shown: Shown::Percent,
    },
    Metric {
        name: "operating margin",
        asked_as: &["operating margin", "operating profit margin", "operating income margin", "营业利润率"],
        formulas: || vec![Expr::Div(of(OPERATING_INCOME), of(REVENUE))],
        shown: Shown::Percent,
    },
    Metric {
        name: "net profit margin",
        asked_as: &["net profit margin", "net margin", "net income margin", "profit margin", "净利率", "净利润率"],
        formulas: || vec![Expr::Div(of(NET_INCOME), of(REVENUE))],
        shown: Shown::Percent,
    },
    Metric {
        name: "quick ratio",
        asked_as: &["quick ratio", "acid test ratio", "速动比率"],
        formulas: || vec![Expr::Div(Box::new(Expr::Sub(of(CURRENT_ASSETS), of(INVENTORIES))), of(CURRENT_LIABILITIES))],
        shown: Shown::Times,
    },
    Metric {
        name: "current ratio",
        asked_as: &["current ratio", "流动比率"],
        formulas: || vec![Expr::Div(of(CURRENT_ASSETS), of(CURRENT_LIABILITIES))],
        shown: Shown::Times,
    },
    Metric {
        name: "effective tax rate",
        asked_as: &["effective tax rate", "有效税率"],
        formulas: || vec![Expr::Div(of(INCOME_TAX), of(PRETAX_INCOME))],
        shown: Shown::Percent,
    },
    Metric {
        name: "free cash flow",
        asked_as: &["free cash flow", "自由现金流"],
        formulas: || vec![Expr::Sub(of(OPERATING_CASH_FLOW), of(CAPEX))],
        shown: Shown::Amount,
    },
];

/// A row label as measures are matched: footnote marks and parentheses gone, "Total" aside,
/// and what the company's owners are attributed ("Net earnings attributable to Acme Inc.
/// shareholders" is net earnings; the noncontrolling interests' share is not).
fn label_words(label: &str) -> HashSet<String> {
    // What follows ", net of" qualifies the row and does not name it: "Additions to property
    // and equipment, net of $48 … of non-cash capital expenditures".
    let label = match label.to_ascii_lowercase().find(", net of ") {
        Some(at) => &label[..at],
        None => label,
    };
    let lower = label.to_lowercase();
    let label = match lower.find("attributable to") {
        Some(at) if ["noncontrolling", "non-controlling", "minority"].iter().any(|m| lower[at..].contains(m)) => return HashSet::new(),
        Some(at) => &label[..at],
        None => label,
    };
    let mut plain = String::new();
    let mut depth = 0usize;
    for c in label.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let mut w = words(plain.trim_end_matches(|c: char| c == '*' || c == ':' || c.is_whitespace()));
    w.remove("total");
    w
}

impl Measure {
    /// Whether a row labelled `label` states this measure: its words are exactly one of the
    /// measure's labels (so "Other current assets" is not "current assets").
    pub fn is_label(&self, label: &str) -> bool {
        let row = label_words(label);
        !row.is_empty() && self.labels.iter().any(|l| label_words(l) == row)
    }

    /// How many words of `question` name this measure, as a phrase (0: it is not named); a
    /// CJK name is named where the question contains it.
    fn named_in(&self, question: &[String], text: &str) -> usize {
        let phrase = |label: &str| {
            let wanted = terms(label);
            let found = !wanted.is_empty() && question.windows(wanted.len()).any(|w| w == wanted.as_slice());
            if found { wanted.len() } else { 0 }
        };
        self.labels.iter().map(|l| if l.chars().any(is_cjk) { usize::from(text.contains(l)) * 2 } else { phrase(l) }).max().unwrap_or(0)
    }
}

/// What a question asks to compute: a metric with its formulas, one measure, or a ratio the
/// question defines itself.
pub(crate) enum Asked {
    Metric(&'static Metric),
    Measure(Measure),
    Defined { name: String, expr: Expr, shown: Shown },
}

static DEFINED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();

/// A ratio the question defines: "… operating cash flow ratio is defined as: cash from
/// operations / total current liabilities". Both sides must be measures a statement row gives
/// (an average of two year-ends is not read yet).
fn defined_in(question: &str) -> Option<Asked> {
    let lower = question.to_lowercase();
    let re = crate::text::cached_regex(
        &DEFINED,
        r"(?:^|[.?;:]\s*|\b)([a-z][a-z &'-]{1,60}?)\s+(?:is\s+|as\s+)?(?:defined|calculated|computed)\s+as\s*:?\s*([^/÷.?;]+?)\s*(?:/|÷|divided by)\s*([^.?;]+)",
    );
    let found = re.captures(&lower)?;
    let (left, right) = (found.get(2)?.as_str(), found.get(3)?.as_str());
    if left.contains("average") || right.contains("average") {
        return None;
    }
    let (Some(Asked::Measure(a)), Some(Asked::Measure(b))) = (measure_in(left), measure_in(right)) else { return None };
    let name_words: Vec<&str> = found.get(1)?.as_str().split_whitespace().collect();
    let name = name_words[name_words.len().saturating_sub(5)..].join(" ");
    let shown = if lower.contains('%') || lower.contains("percent") || name.contains("margin") { Shown::Percent } else { Shown::Times };
    Some(Asked::Defined { name, expr: Expr::Div(of(a), of(b)), shown })
}

/// Question terms as measures are named: "capex" is capital expenditure, "D&A" depreciation
/// and amortization, "PP&E" property, plant and equipment.
fn question_terms(question: &str) -> Vec<String> {
    let lower = question
        .to_lowercase()
        .replace("capex", "capital expenditure")
        .replace("cash from operations", "cash provided by operating activities")
        .replace("d&a", "depreciation and amortization")
        .replace("pp&e", "property plant and equipment");
    terms(&lower.replace('-', " "))
}

/// Whether `word` (lower case) is a word of a measure's or metric's name: "Cash" in "Cash &
/// Cash equivalents" names no one.
pub(crate) fn statement_word(word: &str) -> bool {
    let word = terms(word);
    let [word] = word.as_slice() else { return false };
    MEASURES.iter().flat_map(|m| m.labels.iter()).chain(METRICS.iter().flat_map(|m| m.asked_as.iter())).any(|l| terms(l).contains(word))
}

/// The statement measure a field names ("total assets", "net sales", "capex"), if it names one
/// and no metric.
pub(crate) fn measure_named(field: &str) -> Option<Measure> {
    match asked_in(field)? {
        Asked::Measure(m) => Some(m),
        Asked::Metric(_) | Asked::Defined { .. } => None,
    }
}

/// The metric or measure `question` names; a ratio it defines wins, then a metric over the
/// measures it is made of.
pub(crate) fn asked_in(question: &str) -> Option<Asked> {
    if let Some(defined) = defined_in(question) {
        return Some(defined);
    }
    let lower = question.to_lowercase().replace('-', " ");
    for metric in METRICS {
        if metric.asked_as.iter().any(|a| lower.contains(a)) {
            return Some(Asked::Metric(metric));
        }
    }
    measure_in(question)
}

/// The measure `text` names (the longest name wins).
fn measure_in(text: &str) -> Option<Asked> {
    let q = question_terms(text);
    MEASURES.iter().map(|m| (m.named_in(&q, text), *m)).filter(|(n, _)| *n > 0).max_by_key(|(n, _)| *n).map(|(_, m)| Asked::Measure(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_state_a_measure_under_any_of_its_names_and_only_those() {
        assert!(INVENTORIES.is_label("Merchandise inventories"));
        assert!(CURRENT_ASSETS.is_label("Total current assets"));
        assert!(!CURRENT_ASSETS.is_label("Other current assets"));
        assert!(CAPEX.is_label("Purchases of property, plant and equipment (PP&E)"));
        assert!(OPERATING_INCOME.is_label("Earnings/(loss) from operations"));
        assert!(REVENUE.is_label("Net sales¹"));
        assert!(!REVENUE.is_label("Cost of sales"));
        assert!(EQUITY.is_label("Total shareholders' equity"));
        assert!(NET_INCOME.is_label("Net earnings attributable to Best Buy Co., Inc. shareholders"));
        assert!(!NET_INCOME.is_label("Net earnings attributable to noncontrolling interests"));
        assert!(!NET_INCOME.is_label("Net earnings including noncontrolling interests"));
        assert!(CAPEX.is_label("Additions to property and equipment, net of $48, $92 and $14 of non-cash capital expenditures"));
        assert!(RECEIVABLES.is_label("Trade receivables, net of allowance for credit losses of $21 and $25, respectively"));
    }

    #[test]
    fn a_question_names_a_metric_before_its_measures() {
        assert!(matches!(asked_in("What is the FY2022 unadjusted EBITDA % margin for PepsiCo?"), Some(Asked::Metric(m)) if m.name == "EBITDA margin"));
        assert!(matches!(asked_in("Has the quick ratio improved between FY2023 and FY2022?"), Some(Asked::Metric(m)) if m.name == "quick ratio"));
        assert!(matches!(asked_in("3 year average net profit margin"), Some(Asked::Metric(m)) if m.name == "net profit margin"));
        assert!(matches!(asked_in("What is the FY2021 capex for PepsiCo?"), Some(Asked::Measure(m)) if m == CAPEX));
        assert!(matches!(asked_in("year end FY2019 total amount of inventories"), Some(Asked::Measure(m)) if m == INVENTORIES));
        assert!(matches!(asked_in("net cash provided by operating activities in 2022"), Some(Asked::Measure(m)) if m == OPERATING_CASH_FLOW));
        assert!(asked_in("who chairs the board?").is_none());
        let Some(Asked::Defined { name, expr, shown }) =
            asked_in("What is the FY2023 operating cash flow ratio? Operating cash flow ratio is defined as: cash from operations / total current liabilities.")
        else {
            panic!("a ratio the question defines")
        };
        assert_eq!((name.as_str(), shown), ("operating cash flow ratio", Shown::Times));
        assert_eq!(expr, Expr::Div(of(OPERATING_CASH_FLOW), of(CURRENT_LIABILITIES)));
        assert!(!matches!(asked_in("asset turnover, defined as revenue / average total assets"), Some(Asked::Defined { .. })), "averages are not read yet");
    }
}
