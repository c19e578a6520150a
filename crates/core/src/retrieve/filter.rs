//! Facet filters for the search view and `pagewise search`: folder, document type, organisation,
//! year and language, from what the index already knows about each document. A filter resolves
//! to the documents it admits, which the search then keeps to.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::index::DocumentInfo;

/// What the user narrowed the search to; an empty list does not narrow.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
pub struct SearchFilter {
    pub folders: Vec<PathBuf>,
    /// Document kinds (`annual-report`, `contract`…) or file types (`pdf`, `md`…).
    pub types: Vec<String>,
    pub organisations: Vec<String>,
    pub years: Vec<i32>,
    /// ISO 639-1 codes (`en`, `zh`).
    pub languages: Vec<String>,
}

impl SearchFilter {
    pub fn is_empty(&self) -> bool {
        self.folders.is_empty() && self.types.is_empty() && self.organisations.is_empty() && self.years.is_empty() && self.languages.is_empty()
    }

    /// Whether `doc` passes every list that is not empty.
    pub fn admits(&self, doc: &DocumentInfo) -> bool {
        let facets = doc.facets.as_ref();
        let folder_ok = self.folders.is_empty() || self.folders.iter().any(|f| doc.path.starts_with(f));
        let type_ok = self.types.is_empty() || self.types.iter().any(|t| type_of(doc).iter().any(|known| same_name(known, t)));
        let org_ok = self.organisations.is_empty()
            || facets.is_some_and(|f| {
                self.organisations.iter().any(|o| f.organisation.as_deref().is_some_and(|name| same_name(name, o)) || f.aliases.iter().any(|a| same_name(a, o)))
            });
        let year_ok = self.years.is_empty() || facets.and_then(|f| f.period.year).is_some_and(|y| self.years.contains(&y));
        let lang_ok = self.languages.is_empty() || facets.is_some_and(|f| self.languages.iter().any(|l| same_name(&f.language, l)));
        folder_ok && type_ok && org_ok && year_ok && lang_ok
    }
}

/// A document's types: its kind (when known) and its file type.
fn type_of(doc: &DocumentInfo) -> Vec<String> {
    let mut types = Vec::new();
    if let Some(kind) = doc.facets.as_ref().map(|f| f.kind).filter(|k| *k != crate::facets::DocKind::Other) {
        types.push(kind_name(kind));
    }
    types.extend(file_type(&doc.path));
    types
}

fn kind_name(kind: crate::facets::DocKind) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn file_type(path: &Path) -> Option<String> {
    path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase())
}

/// Names compared as people type them: case, spaces, hyphens and underscores do not matter.
fn same_name(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.chars().filter(|c| !matches!(c, ' ' | '-' | '_' | '.')).flat_map(char::to_lowercase).collect::<String>();
    norm(a) == norm(b)
}

/// One value of a facet and how many documents have it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FacetValue {
    pub value: String,
    pub documents: u32,
}

/// The values each facet takes in a library, for the filter menus.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FacetCounts {
    pub types: Vec<FacetValue>,
    pub organisations: Vec<FacetValue>,
    pub years: Vec<FacetValue>,
    pub languages: Vec<FacetValue>,
}

pub fn facet_counts(docs: &[DocumentInfo]) -> FacetCounts {
    let mut types: BTreeMap<String, u32> = BTreeMap::new();
    let mut organisations: BTreeMap<String, u32> = BTreeMap::new();
    let mut years: BTreeMap<String, u32> = BTreeMap::new();
    let mut languages: BTreeMap<String, u32> = BTreeMap::new();
    for doc in docs {
        for t in type_of(doc) {
            *types.entry(t).or_default() += 1;
        }
        let Some(f) = &doc.facets else { continue };
        if let Some(org) = &f.organisation {
            *organisations.entry(org.clone()).or_default() += 1;
        }
        if let Some(year) = f.period.year {
            *years.entry(year.to_string()).or_default() += 1;
        }
        if f.language != "und" && !f.language.is_empty() {
            *languages.entry(f.language.clone()).or_default() += 1;
        }
    }
    let listed = |m: BTreeMap<String, u32>| m.into_iter().map(|(value, documents)| FacetValue { value, documents }).collect::<Vec<_>>();
    let mut years = listed(years);
    years.reverse();
    FacetCounts { types: listed(types), organisations: listed(organisations), years, languages: listed(languages) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facets::{DocKind, DocumentFacets, Period};

    fn doc(path: &str, org: Option<&str>, kind: DocKind, year: Option<i32>, lang: &str) -> DocumentInfo {
        DocumentInfo {
            doc_id: 1,
            path: PathBuf::from(path),
            title: path.into(),
            mtime_ns: 0,
            page_count: 1,
            facets: Some(DocumentFacets {
                organisation: org.map(str::to_string),
                aliases: org.map(|o| vec![o.to_lowercase().replace(" inc.", "")]).unwrap_or_default(),
                period: Period { year, quarter: None, date: None },
                kind,
                language: lang.into(),
                years: Vec::new(),
            }),
        }
    }

    #[test]
    fn each_facet_narrows_and_names_are_matched_loosely() {
        let report = doc("/lib/filings/acme-2023.pdf", Some("Acme Inc."), DocKind::AnnualReport, Some(2023), "en");
        let notes = doc("/lib/notes/研究笔记.md", None, DocKind::Other, None, "zh");
        let f = |build: fn(&mut SearchFilter)| {
            let mut filter = SearchFilter::default();
            build(&mut filter);
            (filter.admits(&report), filter.admits(&notes))
        };
        assert_eq!(f(|_| {}), (true, true));
        assert_eq!(f(|s| s.types = vec!["Annual report".into()]), (true, false));
        assert_eq!(f(|s| s.types = vec!["md".into()]), (false, true));
        assert_eq!(f(|s| s.organisations = vec!["acme".into()]), (true, false));
        assert_eq!(f(|s| s.years = vec![2023]), (true, false));
        assert_eq!(f(|s| s.years = vec![2022]), (false, false));
        assert_eq!(f(|s| s.languages = vec!["zh".into()]), (false, true));
        assert_eq!(f(|s| s.folders = vec!["/lib/notes".into()]), (false, true));
        assert_eq!(f(|s| {
            s.types = vec!["pdf".into()];
            s.languages = vec!["zh".into()];
        }), (false, false));
        let counts = facet_counts(&[report, notes]);
        let values = |v: &[FacetValue]| v.iter().map(|x| x.value.clone()).collect::<Vec<_>>();
        assert_eq!(values(&counts.types), ["annual-report", "md", "pdf"]);
        assert_eq!(values(&counts.organisations), ["Acme Inc."]);
        assert_eq!(values(&counts.languages), ["en", "zh"]);
    }
}
