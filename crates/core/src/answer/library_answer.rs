//! Answers to questions about the library (see [`library_question`]): the documents listed
//! from the index with counts, each cited at a passage that shows why it is listed — the
//! phrase asked about, or the opening the document's kind and year were read from.

use std::collections::HashMap;
use std::ops::Range;
use std::time::Instant;

use super::notice::Notice;
use super::attribute::{self, AttributionCounts, Citation, Sentence, SentenceStatus};
use super::evidence::EvidenceSet;
use super::library_question::LibraryQuestion;
use super::outcome::{ms, Answer, AnswerMode, Timings};
use super::tools::Toolbox;
use crate::engine::Queries;
use crate::error::Result;
use crate::index::DocumentInfo;
use crate::lang::Lang;
use crate::retrieve::Hit;

/// Documents listed one by one; the rest are counted.
const LISTED: usize = 25;
/// Keyword hits read for "which documents mention": enough for every document of a large
/// library to show its best passages; beyond it the count says "at least".
const MENTION_HITS: usize = 600;

/// A document in the answer: the passage cited for it and what the line says about it.
struct Listed {
    hit: Hit,
    quote: Range<usize>,
    detail: String,
}

pub(crate) fn run(tools: &mut Toolbox<'_>, question: &str, asked: &LibraryQuestion, count_tokens: &dyn Fn(&str) -> usize) -> Result<Answer> {
    let started = Instant::now();
    let zh = Lang::of(question) == Lang::Zh;
    let (headline, listed, total) = match asked {
        LibraryQuestion::Mentions { phrase } => mentions(tools, phrase, zh),
        LibraryQuestion::Documents { filter, .. } => {
            let mut docs: Vec<DocumentInfo> = in_scope(tools).into_iter().filter(|d| filter.admits(d)).collect();
            docs.sort_by(|a, b| b.mtime_ns.cmp(&a.mtime_ns).then(a.title.cmp(&b.title)));
            let total = docs.len();
            let listed = openings(tools, &docs, |d| d.facets.as_ref().map(|f| f.summary()).unwrap_or_default());
            (documents_headline(total, filter, zh), listed, total)
        }
        LibraryQuestion::AddedWithin { days } => {
            let since = crate::index::catalog::now_secs() - i64::from(*days) * 86_400;
            let first = tools.reader.first_indexed()?;
            let mut docs: Vec<(i64, DocumentInfo)> = in_scope(tools).into_iter().filter_map(|d| first.get(&d.doc_id).filter(|t| **t >= since).map(|t| (*t, d))).collect();
            docs.sort_by(|a, b| b.0.cmp(&a.0));
            let when: HashMap<i64, i64> = docs.iter().map(|(t, d)| (d.doc_id, *t)).collect();
            let docs: Vec<DocumentInfo> = docs.into_iter().map(|(_, d)| d).collect();
            let total = docs.len();
            let listed = openings(tools, &docs, |d| when.get(&d.doc_id).map(|t| format!("{} {}", if zh { "添加于" } else { "added" }, day_of(*t))).unwrap_or_default());
            let headline = match (zh, total) {
                (false, 0) => format!("Nothing was added in the last {days} days."),
                (false, 1) => format!("1 document was added in the last {days} days."),
                (false, n) => format!("{n} documents were added in the last {days} days."),
                (true, 0) => format!("最近 {days} 天没有添加文档。"),
                (true, n) => format!("最近 {days} 天添加了 {n} 份文档。"),
            };
            (headline, listed, total)
        }
    };
    let hits: Vec<Hit> = listed.iter().map(|l| l.hit.clone()).collect();
    let evidence = EvidenceSet::from_hits(&hits, &tools.documents, usize::MAX, count_tokens);
    let mut sentences = Vec::new();
    let mut item_citations = Vec::new();
    for item in &listed {
        let Some(citation) = cite(&evidence, &item.hit, item.quote.clone()) else { continue };
        item_citations.push(citation.clone());
        sentences.push(Sentence { text: item.detail.clone(), status: SentenceStatus::Attached, citations: vec![citation], reason: None, unsure: None });
    }
    if total > sentences.len() && !sentences.is_empty() {
        let more = total - sentences.len();
        let text = if zh { format!("另有 {more} 份未列出。") } else { format!("…and {more} more not listed here.") };
        sentences.push(Sentence { text, status: SentenceStatus::Attached, citations: Vec::new(), reason: None, unsure: None });
    }
    // The count stands on the listed documents' citations.
    sentences.insert(0, Sentence { text: headline, status: SentenceStatus::Attached, citations: item_citations, reason: None, unsure: None });
    let lang = if zh { Lang::Zh } else { Lang::En };
    let attribution = AttributionCounts { sentences: sentences.len(), attached: sentences.len(), ..AttributionCounts::default() };
    Ok(Answer {
        question: question.to_string(),
        standalone_query: None,
        answer: attribute::render(&sentences, lang),
        citations: collect(&sentences),
        abstained: false,
        mode: AnswerMode::Library,
        sentences,
        steps: tools.steps.clone(),
        sources: evidence.pages,
        attribution,
        signals: None,
        model: None,
        raw_model_output: None,
        note: Some(if zh { "由文档库的索引回答（没有使用模型）。".into() } else { Notice::FromIndex.english() }),
        notices: vec![Notice::FromIndex],
        timings: Timings { total_ms: ms(started), retrieve_ms: ms(started), ..Timings::default() },
        conversation_id: None,
        turn: None,
    })
}

fn in_scope(tools: &Toolbox<'_>) -> Vec<DocumentInfo> {
    let mut docs: Vec<DocumentInfo> = tools.documents.values().filter(|d| tools.scope.as_ref().is_none_or(|s| s.contains(&d.doc_id))).cloned().collect();
    docs.sort_by_key(|d| d.doc_id);
    docs
}

fn mentions(tools: &mut Toolbox<'_>, phrase: &str, zh: bool) -> (String, Vec<Listed>, usize) {
    let scope = tools.scope.clone().unwrap_or_default();
    let hits = tools.search_keyword(phrase, MENTION_HITS, &scope);
    let capped = hits.len() >= MENTION_HITS;
    // Per document: how many passages hold the phrase, and the best one.
    let mut per_doc: Vec<(i64, usize, Hit, Range<usize>)> = Vec::new();
    for hit in hits {
        let Some(at) = mention_in(&hit.text, phrase) else { continue };
        match per_doc.iter_mut().find(|(d, ..)| *d == hit.span.doc_id) {
            Some(entry) => entry.1 += 1,
            None => per_doc.push((hit.span.doc_id, 1, hit.clone(), sentence_around(&hit.text, at))),
        }
    }
    per_doc.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let total = per_doc.len();
    let at_least = if capped { if zh { "至少" } else { "at least " } } else { "" };
    let headline = match (zh, total) {
        (false, 0) => format!("No document mentions “{phrase}”."),
        (false, 1) => format!("{at_least}1 document mentions “{phrase}”."),
        (false, n) => format!("{at_least}{n} documents mention “{phrase}”."),
        (true, 0) => format!("没有文档提到“{phrase}”。"),
        (true, n) => format!("{at_least}{n} 份文档提到“{phrase}”。"),
    };
    let headline = capitalised(&headline);
    let listed = per_doc
        .into_iter()
        .take(LISTED)
        .map(|(_, n, hit, quote)| {
            let detail = if zh {
                format!("{}：{n} 个段落，首次见第 {} 页。", hit.doc_title, hit.span.page)
            } else {
                format!("{}: {n} passage{}, first on p. {}.", hit.doc_title, if n == 1 { "" } else { "s" }, hit.span.page)
            };
            Listed { hit, quote, detail }
        })
        .collect();
    (headline, listed, total)
}

/// Each document's opening passage, cited: where its kind, organisation and period were read.
fn openings(tools: &mut Toolbox<'_>, docs: &[DocumentInfo], detail: impl Fn(&DocumentInfo) -> String) -> Vec<Listed> {
    let mut listed = Vec::new();
    for doc in docs.iter().take(LISTED) {
        let Some(hit) = tools.read_page(doc.doc_id, 1).into_iter().next() else { continue };
        let quote = crate::text::sentences(&hit.text).into_iter().next().unwrap_or(0..hit.text.len());
        let about = detail(doc);
        let text = if about.is_empty() { format!("{}.", doc.title) } else { format!("{} ({about}).", doc.title) };
        listed.push(Listed { hit, quote, detail: text });
    }
    listed
}

fn documents_headline(total: usize, filter: &crate::retrieve::filter::SearchFilter, zh: bool) -> String {
    let kinds = filter.types.iter().map(|t| t.replace('-', " ")).collect::<Vec<_>>().join(zh.then_some("、").unwrap_or(" or "));
    let years = filter.years.iter().map(i32::to_string).collect::<Vec<_>>().join(if zh { "、" } else { " or " });
    let orgs = filter.organisations.join(if zh { "、" } else { " or " });
    if zh {
        let mut what = String::new();
        if !orgs.is_empty() {
            what.push_str(&format!("{orgs}的"));
        }
        if !years.is_empty() {
            what.push_str(&format!("{years} 年的"));
        }
        what.push_str(if kinds.is_empty() { "文档" } else { &kinds });
        return format!("文档库中有 {total} 份{what}。");
    }
    let noun = if total == 1 { "document" } else { "documents" };
    let mut what = String::new();
    if !kinds.is_empty() {
        what.push_str(&format!(" of type {kinds}"));
    }
    if !years.is_empty() {
        what.push_str(&format!(" about {years}"));
    }
    if !orgs.is_empty() {
        what.push_str(&format!(" from {orgs}"));
    }
    format!("The library holds {total} {noun}{what}.")
}

/// The phrase in `text`, in any case and spacing, or its singular ("heat pumps" finds "heat
/// pump"); the range of the first. Words spread over a passage do not count: the question asks
/// which documents say the phrase.
fn mention_in(text: &str, phrase: &str) -> Option<Range<usize>> {
    let phrase = phrase.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut forms = vec![phrase.clone()];
    for ending in ["es", "s"] {
        if let Some(stem) = phrase.strip_suffix(ending).filter(|s| s.chars().count() >= 3 && phrase.is_ascii()) {
            forms.push(stem.to_string());
        }
    }
    // Matched on a copy with single spaces, mapped back through the kept byte offsets.
    let mut folded = String::new();
    let mut offsets: Vec<usize> = Vec::new();
    let mut last_space = false;
    for (i, c) in text.char_indices() {
        let space = c.is_whitespace();
        if space && last_space {
            continue;
        }
        let c = if space { ' ' } else { c };
        for lower in c.to_lowercase() {
            folded.push(lower);
            offsets.extend(std::iter::repeat_n(i, lower.len_utf8()));
        }
        last_space = space;
    }
    offsets.push(text.len());
    for form in forms {
        if let Some(at) = folded.find(&form.to_lowercase()) {
            let start = offsets[at];
            let end = offsets.get(at + form.to_lowercase().len()).copied().unwrap_or(text.len());
            return Some(start..end.max(start));
        }
    }
    None
}

fn sentence_around(text: &str, at: Range<usize>) -> Range<usize> {
    crate::text::sentences(text).into_iter().find(|s| s.start <= at.start && at.start < s.end).unwrap_or(at)
}

fn cite(evidence: &EvidenceSet, hit: &Hit, quote: Range<usize>) -> Option<Citation> {
    let page = evidence.pages.iter().find(|p| p.doc_id == hit.span.doc_id && p.page == hit.span.page)?;
    let passage = page.passages.iter().find(|p| p.chunk_id == hit.chunk_id)?;
    let quote = quote.start.min(passage.text.len())..quote.end.min(passage.text.len());
    (passage.text.is_char_boundary(quote.start) && passage.text.is_char_boundary(quote.end) && !quote.is_empty()).then(|| Citation::of(page, passage, quote, 1.0))
}

fn collect(sentences: &[Sentence]) -> Vec<Citation> {
    let mut out: Vec<Citation> = Vec::new();
    for c in sentences.iter().flat_map(|s| &s.citations) {
        if !out.iter().any(|o| o.label == c.label && o.span == c.span) {
            out.push(c.clone());
        }
    }
    out
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn day_of(secs: i64) -> String {
    crate::netlog::utc_time(secs).get(..10).unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mention_is_the_phrase_or_every_word_of_it() {
        assert_eq!(mention_in("The Heat Pump ran all winter.", "heat pump"), Some(4..13));
        assert_eq!(mention_in("The heat\n  pump ran.", "Heat pumps"), Some(4..15), "spacing and plural");
        assert_eq!(mention_in("Pumps move heat; a pump here.", "heat pump"), None, "words apart are no mention");
        assert_eq!(mention_in("知识管道与图谱", "知识图谱"), None);
        assert_eq!(mention_in("热泵在冬季运行良好。", "热泵"), Some(0..6));
        let text = "First one. The heat pump ran. Last.";
        assert_eq!(text[sentence_around(text, 15..24)].trim(), "The heat pump ran.");
    }
}
