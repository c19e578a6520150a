//! Document metadata (who, when, what kind, which language) read from a document's title,
//! file name and first pages, and the same facets read from a question, so retrieval can
//! route a question to the documents it is about before matching passages.

mod dates;
mod document;
mod organisation;
mod question;
mod route;

use serde::{Deserialize, Serialize};

pub use dates::date_of;
pub use document::{extract, FacetSource, EXTRACTOR_VERSION};
pub use question::{parse_question, QuestionFacets};
pub use route::{names_in, route, RouteScore, RoutedDocument};

/// What kind of document this is; `Other` when no rule is confident.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum DocKind {
    AnnualReport,
    QuarterlyReport,
    CurrentReport,
    EarningsRelease,
    Contract,
    Paper,
    Handbook,
    /// Meeting notes and minutes.
    Minutes,
    #[default]
    Other,
}

impl DocKind {
    /// How the library and the sources panel name the kind.
    pub fn label(self) -> &'static str {
        match self {
            DocKind::AnnualReport => "annual report",
            DocKind::QuarterlyReport => "quarterly report",
            DocKind::CurrentReport => "current report",
            DocKind::EarningsRelease => "earnings release",
            DocKind::Contract => "contract",
            DocKind::Paper => "paper",
            DocKind::Handbook => "handbook",
            DocKind::Minutes => "minutes",
            DocKind::Other => "document",
        }
    }
}

/// The time a document covers: a (fiscal) year, optionally a quarter, and the date it is
/// "as of" (period end, report date) when it states one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Period {
    pub year: Option<i32>,
    pub quarter: Option<u8>,
    /// YYYY-MM-DD.
    pub date: Option<String>,
}

impl Period {
    pub fn is_empty(&self) -> bool {
        self.year.is_none() && self.quarter.is_none() && self.date.is_none()
    }

    /// "FY2023 Q2 (as of 2023-07-29)" style, for the library and the sources panel.
    pub fn label(&self) -> String {
        let mut parts = Vec::new();
        match (self.year, self.quarter) {
            (Some(y), Some(q)) => parts.push(format!("{y} Q{q}")),
            (Some(y), None) => parts.push(y.to_string()),
            (None, Some(q)) => parts.push(format!("Q{q}")),
            (None, None) => {}
        }
        if let Some(d) = &self.date {
            parts.push(if parts.is_empty() { d.clone() } else { format!("(as of {d})") });
        }
        parts.join(" ")
    }
}

/// A document's metadata as extracted; every field may be unknown.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DocumentFacets {
    pub organisation: Option<String>,
    /// Other names the organisation goes by here (the file name's form, the name without
    /// "Inc."), lower case; used to recognise it in questions.
    #[serde(default)]
    pub aliases: Vec<String>,
    pub period: Period,
    pub kind: DocKind,
    /// ISO 639-1 code ("en", "zh", …), or "und" when the text is too short to tell.
    pub language: String,
    /// Years the first pages mention repeatedly (comparative periods), ascending.
    #[serde(default)]
    pub years: Vec<i32>,
}

impl DocumentFacets {
    /// One line: "Best Buy Co., Inc. · annual report · 2023 · en".
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(o) = &self.organisation {
            parts.push(o.clone());
        }
        parts.push(self.kind.label().to_string());
        let period = self.period.label();
        if !period.is_empty() {
            parts.push(period);
        }
        parts.push(self.language.clone());
        parts.join(" · ")
    }
}
