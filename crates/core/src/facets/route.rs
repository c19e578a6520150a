//! Which documents a question is about, from facets alone: the organisation it names, the
//! period it asks about and the kind of document it mentions.

use serde::Serialize;

use super::dates::Date;
use super::{DocumentFacets, QuestionFacets};

#[derive(Debug, Clone, Serialize)]
pub struct RouteScore {
    pub doc_id: i64,
    /// The question names this document's organisation.
    pub organisation: bool,
    /// Period and kind agreement, 0 (nothing in common or nothing asked) to about 2.
    pub fit: f32,
}

/// One document as routing sees it: its facets and its label (title and file name).
pub struct RoutedDocument<'a> {
    pub doc_id: i64,
    pub facets: &'a DocumentFacets,
    /// In lower case (made once per library, not once per question).
    pub label: &'a str,
}

/// The names of organisations the library knows that the question carries: a whole alias,
/// or the first word of a name of several written with a capital in the question (people say
/// "Globex" for "Globex Lifting Inc."). Sorted, each once.
pub fn names_in<'d>(question: &QuestionFacets, documents: &[RoutedDocument<'d>]) -> Vec<&'d str> {
    // Many documents share an organisation: each name is tried once.
    let aliases: std::collections::BTreeSet<&str> = documents.iter().flat_map(|d| d.facets.aliases.iter()).map(String::as_str).collect();
    let mut named: Vec<&str> = aliases.iter().copied().filter(|a| question.names(a)).collect();
    for alias in &aliases {
        let mut words = alias.split_whitespace();
        if let (Some(first), Some(_)) = (words.next(), words.next()) {
            if first.chars().count() >= 4 && question.capitalised.iter().any(|c| c == first) {
                named.push(first);
            }
        }
    }
    named.sort_unstable();
    named.dedup();
    named
}

/// Scores every document against the question. Documents whose organisation is among `named`
/// (see [`names_in`]) are the ones it is about when there are any; the period and kind say
/// which of them. An organisation the library knows from one document also claims documents
/// whose title carries its name without a legal suffix ("Halden Robotics employee handbook").
pub fn route(question: &QuestionFacets, documents: &[RoutedDocument<'_>], named: &[&str]) -> Vec<RouteScore> {
    documents
        .iter()
        .map(|d| {
            // "Halden" (a file-name alias) and "Halden Robotics Ltd." (a legal name) are one
            // organisation: either name may hold the other.
            let organisation = named.iter().any(|n| {
                contains_words(d.label, n) || d.facets.aliases.iter().any(|a| contains_words(a, n) || contains_words(n, a))
            });
            RouteScore {
                doc_id: d.doc_id,
                organisation,
                fit: period_fit(question, d.facets) + kind_fit(question, d.facets),
            }
        })
        .collect()
}

/// Whether `text` holds `phrase` as whole words.
fn contains_words(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// A filing for a year holds that year and the years before it as comparatives, so the
/// document for the latest year asked about fits best; the one after it still holds it.
fn period_fit(question: &QuestionFacets, facets: &DocumentFacets) -> f32 {
    let mut fit = 0.0;
    if let (Some(&latest), Some(year)) = (question.years.last(), facets.period.year) {
        fit += if year == latest {
            1.0
        } else if question.years.contains(&year) {
            0.5
        } else if year == latest + 1 {
            0.3
        } else if question.years.iter().any(|y| facets.years.contains(y)) {
            0.1
        } else {
            0.0
        };
    }
    match (question.quarter, facets.period.quarter) {
        (Some(q), Some(dq)) if dq == q => fit += 0.5,
        (Some(_), Some(_)) => fit -= 0.3,
        _ => {}
    }
    if let Some(doc_date) = facets.period.date.as_deref().and_then(Date::parse_iso) {
        let nearest = question.dates.iter().map(|d| (d.day_number() - doc_date.day_number()).abs()).min();
        match nearest {
            Some(days) if days <= 7 => fit += 0.8,
            Some(days) if days <= 40 => fit += 0.3,
            _ => {}
        }
    }
    fit
}

fn kind_fit(question: &QuestionFacets, facets: &DocumentFacets) -> f32 {
    if question.kinds.contains(&facets.kind) {
        0.7
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_question, DocKind, Period};
    use super::*;

    fn doc(org: &str, alias: &str, year: i32, quarter: Option<u8>, kind: DocKind) -> DocumentFacets {
        DocumentFacets {
            organisation: Some(org.into()),
            aliases: vec![alias.into()],
            period: Period { year: Some(year), quarter, date: None },
            kind,
            language: "en".into(),
            years: vec![year - 1, year],
        }
    }

    fn best(question: &str, docs: &[(i64, DocumentFacets)]) -> i64 {
        let routed: Vec<RoutedDocument<'_>> = docs.iter().map(|(id, f)| RoutedDocument { doc_id: *id, facets: f, label: "" }).collect();
        let facets = parse_question(question);
        let scores = route(&facets, &routed, &names_in(&facets, &routed));
        let any_org = scores.iter().any(|s| s.organisation);
        scores
            .iter()
            .filter(|s| !any_org || s.organisation)
            .max_by(|a, b| a.fit.total_cmp(&b.fit).then(b.doc_id.cmp(&a.doc_id)))
            .map(|s| s.doc_id)
            .unwrap_or(-1)
    }

    #[test]
    fn organisation_then_period_then_kind() {
        let docs = vec![
            (1, doc("Acme Inc.", "acme", 2021, None, DocKind::AnnualReport)),
            (2, doc("Acme Inc.", "acme", 2022, None, DocKind::AnnualReport)),
            (3, doc("Acme Inc.", "acme", 2023, Some(2), DocKind::QuarterlyReport)),
            (4, doc("Globex Corp.", "globex", 2022, None, DocKind::AnnualReport)),
        ];
        assert_eq!(best("Acme's capex in FY2022 and FY2021?", &docs), 2);
        assert_eq!(best("Globex revenue 2022", &docs), 4);
        assert_eq!(best("Acme inventory in Q2 of FY2023", &docs), 3);
        assert_eq!(best("What did Acme say in its 2021 annual report?", &docs), 1);
    }

    #[test]
    fn a_known_name_in_a_title_claims_the_document() {
        let handbook = DocumentFacets { kind: DocKind::Handbook, language: "en".into(), ..Default::default() };
        let acme = doc("Acme Inc.", "acme", 2022, None, DocKind::AnnualReport);
        let docs = vec![
            RoutedDocument { doc_id: 1, facets: &acme, label: "acme annual report" },
            RoutedDocument { doc_id: 2, facets: &handbook, label: "acme employee handbook" },
            RoutedDocument { doc_id: 3, facets: &handbook, label: "acmeville tourist handbook" },
        ];
        let asked = parse_question("how many holidays do Acme staff get");
        let scores = route(&asked, &docs, &names_in(&asked, &docs));
        let named: Vec<i64> = scores.iter().filter(|s| s.organisation).map(|s| s.doc_id).collect();
        assert_eq!(named, vec![1, 2]);
        let globex = doc("Globex Lifting Inc.", "globex lifting", 2022, None, DocKind::AnnualReport);
        let docs = vec![
            RoutedDocument { doc_id: 1, facets: &acme, label: "" },
            RoutedDocument { doc_id: 4, facets: &globex, label: "" },
        ];
        let named = |q: &str| route(&parse_question(q), &docs, &names_in(&parse_question(q), &docs)).iter().filter(|s| s.organisation).map(|s| s.doc_id).collect::<Vec<_>>();
        assert_eq!(named("how often are Globex cranes inspected"), vec![4], "a capitalised first word of a name");
        assert_eq!(named("how often are globex cranes inspected"), Vec::<i64>::new(), "not in lower case");
    }
}
