//! Routing a question to documents by their facets before passages are matched: the
//! organisations it names narrow the search (when the library has them), and the period and
//! kind it asks about raise the documents that fit.

use std::collections::HashMap;

use serde::Serialize;

use crate::facets::{names_in, parse_question, route, RouteScore, RoutedDocument};

/// What routing decided for one question.
#[derive(Debug, Clone, Default)]
pub struct Routing {
    /// Documents the question names by organisation; the search is narrowed to them. Empty
    /// when it names none that the library holds (then nothing is narrowed).
    pub named: Vec<i64>,
    /// Per document, how well its period and kind fit the question, scaled to 0–1 (the best
    /// fitting document has 1); absent documents fit nothing asked.
    pub fit: HashMap<i64, f32>,
    /// Each name of the question that the library knows, with how many documents use it and
    /// whether it routed: for the step trace.
    pub names: Vec<NameRoute>,
}

/// One name a question carries and what routing made of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NameRoute {
    pub name: String,
    /// Documents (of those searched) whose passages use the name.
    pub used_by: u64,
    /// Documents searched.
    pub of: u64,
    /// Whether the search was narrowed to the documents of this name.
    pub routed: bool,
}

/// A name singles out documents only when at most this share of the searched documents use
/// it: a name that most of a library uses (its own subject, the company whose reports these
/// all are, the product every manual is about) is not a route. Half is the boundary of a
/// minority, not a fitted value.
const MAX_ROUTING_SHARE: f64 = 0.5;

impl Routing {
    /// Routes among `documents` (all of them, or those in the user's scope). `used_by` tells
    /// how many documents of the library use a name in their text.
    pub fn decide(question: &str, documents: &[RoutedDocument<'_>], used_by: &dyn Fn(&str) -> u64) -> Routing {
        let facets = parse_question(question);
        let of = documents.len() as u64;
        let mut names = Vec::new();
        let mut routing_names: Vec<&str> = Vec::new();
        for name in names_in(&facets, documents) {
            let used = used_by(name).min(of);
            let routed = (used as f64) <= MAX_ROUTING_SHARE * of as f64;
            if routed {
                routing_names.push(name);
            }
            names.push(NameRoute { name: name.to_string(), used_by: used, of, routed });
        }
        let scores: Vec<RouteScore> = route(&facets, documents, &routing_names);
        let named: Vec<i64> = scores.iter().filter(|s| s.organisation).map(|s| s.doc_id).collect();
        // Fit is compared among the documents the search will look at.
        let considered: Vec<&RouteScore> = scores.iter().filter(|s| named.is_empty() || s.organisation).collect();
        let best = considered.iter().map(|s| s.fit).fold(0.0f32, f32::max);
        let fit = if best > 0.0 {
            considered.iter().filter(|s| s.fit > 0.0).map(|s| (s.doc_id, s.fit / best)).collect()
        } else {
            HashMap::new()
        };
        Routing { named, fit, names }
    }

    /// One line for the step trace: which names routed and how many documents use each.
    pub fn describe(&self) -> Option<String> {
        if self.names.is_empty() {
            return None;
        }
        let parts: Vec<String> = self
            .names
            .iter()
            .map(|n| {
                let verdict = if n.routed { "routed" } else { "not routed, too common" };
                format!("\"{}\" used by {} of {} documents: {verdict}", n.name, n.used_by, n.of)
            })
            .collect();
        Some(parts.join("; "))
    }

    /// The scope after routing: the named documents within `scope`, or `scope` unchanged when
    /// the question names none of them.
    pub fn narrow(&self, scope: Option<Vec<i64>>) -> Option<Vec<i64>> {
        if self.named.is_empty() {
            return scope;
        }
        let narrowed: Vec<i64> = match &scope {
            Some(docs) => self.named.iter().copied().filter(|d| docs.binary_search(d).is_ok()).collect(),
            None => self.named.clone(),
        };
        if narrowed.is_empty() {
            scope
        } else {
            let mut n = narrowed;
            n.sort_unstable();
            Some(n)
        }
    }

    /// Documents in routing order: best fit first, then by the order of `by_profile` (the
    /// keyword match on document profiles), then by id.
    pub fn ranked(&self, candidates: &[i64], by_profile: &[(i64, f32)]) -> Vec<i64> {
        let profile_rank: HashMap<i64, usize> = by_profile.iter().enumerate().map(|(i, (d, _))| (*d, i)).collect();
        let mut docs = candidates.to_vec();
        docs.sort_by(|a, b| {
            let fa = self.fit.get(a).copied().unwrap_or(0.0);
            let fb = self.fit.get(b).copied().unwrap_or(0.0);
            fb.total_cmp(&fa)
                .then(profile_rank.get(a).unwrap_or(&usize::MAX).cmp(profile_rank.get(b).unwrap_or(&usize::MAX)))
                .then(a.cmp(b))
        });
        docs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facets::{DocKind, DocumentFacets, Period};

    fn doc(alias: &str, year: i32) -> DocumentFacets {
        DocumentFacets {
            organisation: Some(alias.into()),
            aliases: vec![alias.to_lowercase()],
            period: Period { year: Some(year), quarter: None, date: None },
            kind: DocKind::AnnualReport,
            language: "en".into(),
            years: vec![year],
        }
    }

    #[test]
    fn names_narrow_and_periods_rank() {
        let facets = [doc("Acme", 2021), doc("Acme", 2022), doc("Globex", 2022), doc("Initech", 2022), doc("Hooli", 2022)];
        let docs: Vec<RoutedDocument<'_>> =
            facets.iter().enumerate().map(|(i, f)| RoutedDocument { doc_id: i as i64 + 1, facets: f, label: "" }).collect();
        // Each organisation's documents use only its own name.
        let used_by = |name: &str| if name == "acme" { 2 } else { 1 };
        let r = Routing::decide("Acme revenue in 2022", &docs, &used_by);
        assert_eq!(r.named, vec![1, 2]);
        assert_eq!(r.narrow(None), Some(vec![1, 2]));
        assert_eq!(r.ranked(&[1, 2], &[]), vec![2, 1]);
        // A scope without the named documents is kept as it is.
        assert_eq!(r.narrow(Some(vec![3])), Some(vec![3]));
        let none = Routing::decide("what is the refund policy", &docs, &used_by);
        assert!(none.named.is_empty() && none.fit.is_empty());
        assert_eq!(none.narrow(None), None);
    }

    #[test]
    fn a_name_most_documents_use_does_not_route() {
        // A library about one subject: every document's text uses "acme", one title has it.
        let facets = [doc("Acme", 2021), doc("Globex", 2022), doc("Initech", 2022)];
        let docs: Vec<RoutedDocument<'_>> =
            facets.iter().enumerate().map(|(i, f)| RoutedDocument { doc_id: i as i64 + 1, facets: f, label: "" }).collect();
        let everywhere = |_: &str| 3;
        let r = Routing::decide("Acme revenue in 2022", &docs, &everywhere);
        assert!(r.named.is_empty(), "{:?}", r.named);
        assert_eq!(r.narrow(None), None);
        assert_eq!(r.names, vec![NameRoute { name: "acme".into(), used_by: 3, of: 3, routed: false }]);
        assert!(r.describe().is_some_and(|d| d.contains("not routed")));
    }
}
