//! The deterministic planner for models too small to plan: it recognises questions that
//! compare or combine (several years, several documents, "compare", "change") and splits them
//! into sub-queries, and recognises whole-document tasks that need a map-reduce. The cue words
//! come in English and CJK; CJK ones stand outside `\b`, which sees no boundary between Han
//! characters.

use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use crate::text::{content_terms, years};
use crate::index::DocumentInfo;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Plan {
    /// One retrieval over the question.
    Direct,
    /// One retrieval per sub-query; each sub-query may be limited to some documents.
    Decompose { subqueries: Vec<SubQuery> },
    /// Summarise or survey whole documents.
    WholeDocument { doc_ids: Vec<i64> },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SubQuery {
    pub query: String,
    pub doc_ids: Vec<i64>,
}

/// At most this many tool steps per question.
pub const MAX_STEPS: usize = 6;

fn regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).unwrap_or_else(|_| unreachable!()))
}

fn whole_document_task(question: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    regex(
        &RE,
        r"(?i)\b(summari[sz]e|summary of|overview of|give (me )?an overview|main (risks|points|themes|takeaways|topics)|key (risks|points|themes|takeaways|topics)|what (is|are) (this|the|these) (document|report|file)s? about)\b|总结|概括|概述|摘要|主要内容|讲了什么|讲的是什么|(主要|关键|重要)的?(风险|观点|内容|结论|主题)|要約|まとめ|요약|개요",
    )
    .is_match(question)
}

fn comparison(question: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    regex(&RE, r"(?i)\b(compare[ds]?|comparison|versus|vs\.?|difference between|differ|change[ds]? (from|between|in)|how did .* change|both|each of)\b|比较|对比|相比|比起|区别|差异|有何不同|变化|两者|分别|比較|違い|変化|비교|차이|변화")
        .is_match(question)
}

/// Documents the question names: a document is named when a distinctive word of its title or
/// file name (one that not every document shares) appears in the question.
///
/// `used_by` tells how many documents use a word in their text: a title word that most of
/// the library uses (its subject) names no document in particular.
pub fn named_documents(question: &str, documents: &[DocumentInfo], used_by: &dyn Fn(&str) -> u64) -> Vec<Vec<i64>> {
    // Question order, not hash order: groups (and so sub-queries) come out the same every time.
    let mut q: Vec<String> = Vec::new();
    for t in content_terms(question) {
        if !q.contains(&t) {
            q.push(t);
        }
    }
    let mut groups: Vec<(String, Vec<i64>)> = Vec::new();
    let doc_terms: Vec<(i64, Vec<String>)> = documents
        .iter()
        .map(|d| {
            let stem = d.path.file_stem().map(|s| s.to_string_lossy().replace(['_', '-'], " ")).unwrap_or_default();
            let mut t = content_terms(&format!("{} {stem}", d.title));
            t.retain(|w| w.len() >= 4 && !w.chars().all(|c| c.is_ascii_digit()));
            t.sort();
            t.dedup();
            (d.doc_id, t)
        })
        .collect();
    for term in &q {
        let docs: Vec<i64> = doc_terms.iter().filter(|(_, t)| t.contains(term)).map(|(id, _)| *id).collect();
        // A word in every title (e.g. "report") names nothing in particular.
        if docs.is_empty() || docs.len() == documents.len() {
            continue;
        }
        if used_by(term) as f64 > 0.5 * documents.len() as f64 {
            continue;
        }
        if !groups.iter().any(|(_, g)| *g == docs) {
            groups.push((term.clone(), docs));
        }
    }
    // A group contained in another names the same thing more narrowly; keep the narrow one.
    let snapshot = groups.clone();
    groups.retain(|(_, g)| !snapshot.iter().any(|(_, other)| other != g && other.iter().all(|d| g.contains(d)) && other.len() < g.len()));
    groups.into_iter().map(|(_, g)| g).collect()
}

pub fn plan(question: &str, documents: &[DocumentInfo], scope_docs: Option<&[i64]>, used_by: &dyn Fn(&str) -> u64) -> Plan {
    let named = named_documents(question, documents, used_by);
    if whole_document_task(question) {
        let doc_ids = match scope_docs {
            Some(s) if !s.is_empty() && s.len() <= 3 => s.to_vec(),
            _ => named.iter().flatten().copied().collect(),
        };
        if !doc_ids.is_empty() && doc_ids.len() <= 3 {
            return Plan::WholeDocument { doc_ids };
        }
    }
    let ys = years(question);
    let mut subqueries = Vec::new();
    if ys.len() >= 2 {
        let all_named: Vec<i64> = named.iter().flatten().copied().collect();
        for y in ys.iter().take(3) {
            let mut q = question.to_string();
            for other in ys.iter().filter(|o| *o != y) {
                q = q.replace(other.as_str(), "");
            }
            subqueries.push(SubQuery { query: q.split_whitespace().collect::<Vec<_>>().join(" "), doc_ids: all_named.clone() });
        }
    } else if named.len() >= 2 && comparison(question) {
        for docs in named.iter().take(3) {
            subqueries.push(SubQuery { query: question.to_string(), doc_ids: docs.clone() });
        }
    }
    if subqueries.len() >= 2 {
        Plan::Decompose { subqueries }
    } else {
        Plan::Direct
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn docs() -> Vec<DocumentInfo> {
        ["ACME_2022_10K", "ACME_2023_10K", "GLOBEX_2023_10K"]
            .iter()
            .enumerate()
            .map(|(i, n)| DocumentInfo {
                doc_id: i as i64 + 1,
                path: PathBuf::from(format!("/lib/{n}.pdf")),
                title: n.replace('_', " "),
                mtime_ns: 0,
                page_count: 10,
                facets: None,
            })
            .collect()
    }

    /// Each title word is used in the text of its own documents only.
    fn only_its_own(_: &str) -> u64 {
        1
    }

    #[test]
    fn a_title_word_the_whole_library_uses_names_no_document() {
        let everywhere = |_: &str| 3;
        assert_eq!(plan("Summarise the Globex report", &docs(), None, &everywhere), Plan::Direct);
    }

    #[test]
    fn two_years_become_two_subqueries() {
        let Plan::Decompose { subqueries } = plan("How did ACME's revenue change from 2022 to 2023?", &docs(), None, &only_its_own) else {
            panic!("expected decomposition")
        };
        assert_eq!(subqueries.len(), 2);
        assert!(subqueries[0].query.contains("2022") && !subqueries[0].query.contains("2023"));
        assert!(subqueries[1].query.contains("2023") && !subqueries[1].query.contains("2022"));
    }

    #[test]
    fn two_named_companies_are_compared_document_by_document() {
        let Plan::Decompose { subqueries } = plan("Compare the gross margin of Acme and Globex", &docs(), None, &only_its_own) else {
            panic!("expected decomposition")
        };
        let groups: Vec<Vec<i64>> = subqueries.iter().map(|s| s.doc_ids.clone()).collect();
        assert!(groups.contains(&vec![1, 2]) && groups.contains(&vec![3]));
    }

    #[test]
    fn summaries_of_a_named_document_are_whole_document_tasks() {
        assert_eq!(plan("Summarise the Globex report", &docs(), None, &only_its_own), Plan::WholeDocument { doc_ids: vec![3] });
        assert_eq!(plan("What is ACME's revenue?", &docs(), None, &only_its_own), Plan::Direct);
    }

    fn zh_docs() -> Vec<DocumentInfo> {
        ["华为年报", "小米年报"]
            .iter()
            .enumerate()
            .map(|(i, n)| DocumentInfo {
                doc_id: i as i64 + 1,
                path: PathBuf::from(format!("/lib/{n}.pdf")),
                title: n.to_string(),
                mtime_ns: 0,
                page_count: 10,
                facets: None,
            })
            .collect()
    }

    #[test]
    fn chinese_cues_plan_like_english_ones() {
        assert_eq!(plan("总结一下华为年报", &zh_docs(), None, &only_its_own), Plan::WholeDocument { doc_ids: vec![1] });
        assert_eq!(plan("小米年报的主要风险有哪些", &zh_docs(), None, &only_its_own), Plan::WholeDocument { doc_ids: vec![2] });
        let Plan::Decompose { subqueries } = plan("比较华为和小米的研发投入", &zh_docs(), None, &only_its_own) else {
            panic!("expected decomposition")
        };
        let groups: Vec<Vec<i64>> = subqueries.iter().map(|s| s.doc_ids.clone()).collect();
        assert_eq!(groups, vec![vec![1], vec![2]]);
        let Plan::Decompose { subqueries } = plan("华为2022年到2023年营收有什么变化", &zh_docs(), None, &only_its_own) else {
            panic!("expected decomposition by year")
        };
        assert!(subqueries[0].query.contains("2022") && !subqueries[0].query.contains("2023"));
        assert_eq!(plan("华为的研发投入是多少", &zh_docs(), None, &only_its_own), Plan::Direct);
    }
}
