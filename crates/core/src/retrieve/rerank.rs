//! Page reranking: the fused chunk list decides which pages are candidates; a linear score
//! over page-level features decides their order. Chunks rank passages, but people cite pages,
//! and a page's own text tells what a passage cut from it does not: how much of the question
//! the whole page covers, whether it holds the question's phrases, and whether it is made of
//! figures when the question asks for a quantity.
//!
//! The weights were fitted with `bench/fit_reranker.py` on candidate dumps
//! (`pagewise-dev eval --dump-candidates`) of four libraries of different kinds, and kept because
//! leave-one-library-out fits won on more than one library (see README.md, "Reranking").

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use crate::text::content_terms;
use crate::error::Result;
use crate::index::{LexicalIndex, Catalog};

/// Fused chunks whose pages are reranked; deeper pages keep their fused order.
pub const RERANK_DEPTH: usize = 80;

/// A passage among the first this many in fused order is pulled up behind the passage whose
/// sentence it finishes (see [`keep_sentences_whole`]).
pub const STRONG_PASSAGES: usize = 10;

/// Features of one candidate page, each in [0, 1].
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct PageFeatures {
    /// 1 / (1 + the page's place in fused order): what fusion already knew.
    pub position: f32,
    /// Share of the question's terms, weighted by rarity (IDF), found on the page.
    pub coverage: f32,
    /// Share of the page's words that are figures, when the question asks for a quantity
    /// (0 otherwise).
    pub quantity_fit: f32,
    /// Share of the question's adjacent term pairs that the page also has side by side.
    pub phrase_overlap: f32,
}

/// Weights of the linear page score, fitted by `bench/fit_reranker.py` (listwise softmax,
/// L2 0.1) on the candidates of all four libraries as the full search (routing, expansion)
/// produces them.
#[derive(Debug, Clone, Copy)]
pub struct RerankWeights {
    pub position: f32,
    pub coverage: f32,
    pub quantity_fit: f32,
    pub phrase_overlap: f32,
}

impl Default for RerankWeights {
    fn default() -> Self {
        RerankWeights { position: 2.323, coverage: 4.981, quantity_fit: 6.801, phrase_overlap: 3.469 }
    }
}

impl RerankWeights {
    pub fn score(&self, f: &PageFeatures) -> f32 {
        self.position * f.position + self.coverage * f.coverage + self.quantity_fit * f.quantity_fit + self.phrase_overlap * f.phrase_overlap
    }
}

/// Where a passage stands for reranking: its page, or in a document without printed pages
/// (Markdown, HTML, DOCX, EPUB, text: one "page" per file or chapter) the passage itself. A
/// 30 KB chapter is not one place: judged as a whole it holds every word of most questions,
/// and its best passage is what the question is about (on three documentation libraries the
/// answering passage was in the first five hits for 0.50–0.67 of questions with the file as
/// the place, 0.53–0.77 with its sections, 0.53–0.77 with its passages, see bench/README.md).
pub type Place = (i64, u32, u64);

/// The place of a stored passage (see [`Place`]).
pub fn place_of(record: &crate::index::catalog::ChunkRecord) -> Place {
    let paged = crate::parse::Format::from_path(&record.doc_path) == Some(crate::parse::Format::Pdf);
    (record.span.doc_id, record.span.page, if paged { 0 } else { record.id as u64 })
}

/// A candidate page (or passage) with its features, in fused order.
#[derive(Debug, Clone, Serialize)]
pub struct PageCandidate {
    pub doc_id: i64,
    pub page: u32,
    #[serde(skip)]
    /// The passage that is the place, for documents without printed pages (0 for a page).
    pub passage: u64,
    pub features: PageFeatures,
}

/// Plural endings off, so "inventories" on a page meets "inventory" in a question.
fn light_stem(word: &str) -> String {
    if word.len() <= 3 || !word.is_ascii() {
        return word.to_string();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    if word.ends_with("ss") || word.ends_with("us") || word.ends_with("is") {
        return word.to_string();
    }
    word.strip_suffix('s').unwrap_or(word).to_string()
}

fn stemmed_terms(text: &str) -> Vec<String> {
    content_terms(text).iter().map(|t| light_stem(t)).collect()
}

fn quantity_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)how (much|many|large|big|far|long|high|low)|\b(amount|total|ratio|rate|margin|percent|percentage|number of|value|cost|price|size)\b|%|多少|几|比例|比率|金额|总额|数量",
        )
        .unwrap_or_else(|_| unreachable!())
    })
}

fn figure_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^\(?[$€£¥]?\d[\d,]*(?:\.\d+)?%?\)?$").unwrap_or_else(|_| unreachable!()))
}

/// Whether a question asks for a figure: an amount, a count, a rate, a size.
pub fn asks_for_quantity(question: &str) -> bool {
    quantity_regex().is_match(question)
}

/// The text outside fenced code blocks (``` or ~~~). Digits in code are literals and dumps
/// ("<Buffer 00 00 00 …>"), not reported figures: counted, they made the code samples of a
/// manual outrank its prose for every "how big" question. A passage cut out of a long
/// document may start inside a block: with an odd number of fences whose first is bare (a
/// closing fence carries no language), the text before it is code.
fn outside_code(text: &str) -> String {
    let fence_of = |line: &str| ["```", "~~~"].into_iter().find(|f| line.trim_start().starts_with(f));
    let fences: Vec<&str> = text.lines().filter(|l| fence_of(l).is_some()).collect();
    let starts_in_code =
        fences.len() % 2 == 1 && fences.first().is_some_and(|l| l.trim().trim_start_matches(['`', '~']).is_empty());
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = if starts_in_code { fences.first().and_then(|l| fence_of(l)) } else { None };
    for line in text.lines() {
        let opens = fence_of(line);
        match (fence, opens) {
            (None, Some(f)) => fence = Some(f),
            (Some(f), Some(g)) if f == g => fence = None,
            (None, None) => {
                out.push_str(line);
                out.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// Share of whitespace-separated tokens that are figures ("1,234", "(56)", "$7.5", "12%"),
/// outside code.
pub fn figure_density(text: &str) -> f32 {
    let prose = outside_code(text);
    let (mut tokens, mut figures) = (0usize, 0usize);
    for token in prose.split_whitespace() {
        tokens += 1;
        if figure_regex().is_match(token) {
            figures += 1;
        }
    }
    if tokens == 0 {
        0.0
    } else {
        figures as f32 / tokens as f32
    }
}

/// What the page features need to know about the question, computed once per search.
pub struct QuestionTerms {
    terms: Vec<String>,
    idf: Vec<f32>,
    pairs: HashSet<(String, String)>,
    wants_quantity: bool,
}

impl QuestionTerms {
    pub fn new(question: &str, lexical: &LexicalIndex) -> Result<QuestionTerms> {
        let mut terms = stemmed_terms(question);
        let pairs: HashSet<(String, String)> = terms.windows(2).map(|w| (w[0].clone(), w[1].clone())).collect();
        let mut seen = HashSet::new();
        terms.retain(|t| seen.insert(t.clone()));
        let n = lexical.num_docs() as f32;
        let df = lexical.document_frequencies(&terms)?;
        let idf = df.iter().map(|&d| ((n + 1.0) / (d as f32 + 1.0)).ln()).collect();
        Ok(QuestionTerms { terms, idf, pairs, wants_quantity: asks_for_quantity(question) })
    }

    /// Features of a page's text, or of one passage's (then `position` is its place among
    /// the page's passages).
    pub fn features(&self, position: usize, page_text: &str) -> PageFeatures {
        let page_terms = stemmed_terms(page_text);
        let present: HashSet<&str> = page_terms.iter().map(String::as_str).collect();
        let total: f32 = self.idf.iter().sum();
        let covered: f32 = self.terms.iter().zip(&self.idf).filter(|(t, _)| present.contains(t.as_str())).map(|(_, w)| *w).sum();
        let phrase_overlap = if self.pairs.is_empty() {
            0.0
        } else {
            let page_pairs: HashSet<(&str, &str)> = page_terms.windows(2).map(|w| (w[0].as_str(), w[1].as_str())).collect();
            self.pairs.iter().filter(|(a, b)| page_pairs.contains(&(a.as_str(), b.as_str()))).count() as f32 / self.pairs.len() as f32
        };
        PageFeatures {
            position: 1.0 / (1.0 + position as f32),
            coverage: if total > 0.0 { covered / total } else { 0.0 },
            quantity_fit: if self.wants_quantity { figure_density(page_text) } else { 0.0 },
            phrase_overlap,
        }
    }
}

/// The text of a place: its page's, or its passage's.
fn place_text(catalog: &Catalog, place: Place, passages: &HashMap<i64, String>) -> Result<String> {
    let (doc_id, page, passage) = place;
    if passage == 0 {
        return Ok(catalog.page_text(doc_id, page)?.unwrap_or_default());
    }
    Ok(passages.get(&(passage as i64)).cloned().unwrap_or_default())
}

/// The distinct places of the first [`RERANK_DEPTH`] fused chunks, in fused order, with their
/// features. `place_of` maps a chunk to its place (see [`Place`]).
pub fn page_candidates(
    fused: &[(i64, f32)],
    place_of: &HashMap<i64, Place>,
    passages: &HashMap<i64, String>,
    question: &QuestionTerms,
    catalog: &Catalog,
) -> Result<Vec<PageCandidate>> {
    let mut places: Vec<Place> = Vec::new();
    for (id, _) in fused.iter().take(RERANK_DEPTH) {
        if let Some(&key) = place_of.get(id) {
            if !places.contains(&key) {
                places.push(key);
            }
        }
    }
    let texts = places.iter().map(|&place| place_text(catalog, place, passages)).collect::<Result<Vec<String>>>()?;
    // Stemming the pages is most of reranking's time, and each page is independent.
    use rayon::prelude::*;
    Ok(places
        .par_iter()
        .zip(texts.par_iter())
        .enumerate()
        .map(|(position, (&(doc_id, page, passage), text))| PageCandidate { doc_id, page, passage, features: question.features(position, text) })
        .collect())
}

/// Reorders fused chunks by reranked page. Within a page, passages are ordered by the same
/// score over their own features (`passage_score(chunk, place within the page in fused order)`);
/// then the first passage of each candidate page comes in page order, then the second of each,
/// and so on; chunks beyond the candidates follow in fused order. Leading with one passage per
/// page keeps a small evidence budget spread over the best pages instead of spending it all on
/// the first, and the passage that leads is the one that best answers, not the page's top.
pub fn reorder(
    fused: Vec<(i64, f32)>,
    page_of: &HashMap<i64, Place>,
    candidates: &[PageCandidate],
    weights: &RerankWeights,
    passage_score: &dyn Fn(i64, usize) -> f32,
) -> Vec<(i64, f32)> {
    let mut scored: Vec<(usize, f32)> = candidates.iter().enumerate().map(|(i, c)| (i, weights.score(&c.features))).collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let place: HashMap<Place, usize> =
        scored.iter().enumerate().map(|(rank, (i, _))| ((candidates[*i].doc_id, candidates[*i].page, candidates[*i].passage), rank)).collect();
    // Per reranked page: (passage score, fused place, chunk).
    type Placed = (f32, usize, (i64, f32));
    let mut on_page: Vec<Vec<Placed>> = vec![Vec::new(); candidates.len()];
    let mut rest = Vec::new();
    for (order, item) in fused.into_iter().enumerate() {
        match page_of.get(&item.0).and_then(|k| place.get(k)) {
            Some(&rank) => {
                let nth = on_page[rank].len();
                on_page[rank].push((passage_score(item.0, nth), order, item));
            }
            None => rest.push(item),
        }
    }
    for passages in &mut on_page {
        passages.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    }
    let deepest = on_page.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = Vec::new();
    for tier in 0..deepest {
        out.extend(on_page.iter().filter_map(|p| p.get(tier)).map(|(_, _, item)| *item));
    }
    out.extend(rest);
    out
}

/// Whether a passage stops inside a sentence: its last line is a line of prose (six words or
/// more) that ends on a word or a comma. Table rows end on figures and their label lines are
/// short; a finished sentence ends on its stop.
pub fn ends_mid_sentence(text: &str) -> bool {
    let last_line = text.trim_end().lines().last().unwrap_or("");
    let ends_on_word = last_line.chars().last().is_some_and(|c| (c.is_alphabetic() && !crate::text::is_cjk(c)) || c == ',');
    ends_on_word && last_line.split_whitespace().count() >= 6
}

/// Moves each passage's continuation (`next_of`: the following chunk of the same page, given
/// only when the passage ends mid-sentence and the continuation was itself among the first
/// [`STRONG_PASSAGES`] in fused order) to right after it, so that evidence does not hold half a
/// sentence whose other half ranked high ("… in Kettlewick. A" | "500 kWh battery …").
pub fn keep_sentences_whole(order: Vec<(i64, f32)>, next_of: &HashMap<i64, i64>) -> Vec<(i64, f32)> {
    let position: HashMap<i64, usize> = order.iter().enumerate().map(|(i, (id, _))| (*id, i)).collect();
    let mut placed = vec![false; order.len()];
    let mut out = Vec::with_capacity(order.len());
    for i in 0..order.len() {
        let mut at = i;
        while !placed[at] {
            placed[at] = true;
            out.push(order[at]);
            match next_of.get(&order[at].0).and_then(|next| position.get(next)) {
                Some(&next) if next > at => at = next,
                _ => break,
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantity_questions_and_figure_pages() {
        assert!(asks_for_quantity("How much did capex grow in FY2022?"));
        assert!(asks_for_quantity("2022年营收是多少"));
        assert!(!asks_for_quantity("Who signed the lease?"));
        assert!(figure_density("Revenue 1,234 (56) $7.5 12%") > 0.79);
        assert_eq!(figure_density("no figures here at all"), 0.0);
        assert_eq!(figure_density(""), 0.0);
        let dump = "The pool is 8192 bytes.\n```js\nconsole.log(buf);\n// Prints: <Buffer 00 00 00 00 00>\n```\n";
        assert!(figure_density(dump) < 0.25, "digits in code are not figures");
        assert_eq!(figure_density("```\n1 2 3 4\n```"), 0.0);
        let cut = "console.log(buf);\n// Prints: <Buffer 00 00 00 00 00>\n```\n\nThe pool holds 8192 bytes.";
        assert!(figure_density(cut) < 0.25, "a passage that starts inside a code block");
    }

    #[test]
    fn reorder_leads_with_one_chunk_per_reranked_page() {
        // Chunks 1 and 3 on page A, 2 on page B, 4 beyond the candidates.
        let page_of: HashMap<i64, Place> = [(1, (7, 1, 0)), (2, (7, 2, 0)), (3, (7, 1, 0)), (4, (7, 9, 0))].into_iter().collect();
        let fused = vec![(1, 0.9), (2, 0.8), (3, 0.7), (4, 0.6)];
        let strong = PageFeatures { position: 0.5, coverage: 1.0, quantity_fit: 0.0, phrase_overlap: 1.0 };
        let weak = PageFeatures { position: 1.0, coverage: 0.0, quantity_fit: 0.0, phrase_overlap: 0.0 };
        let candidates = vec![
            PageCandidate { doc_id: 7, page: 1, passage: 0, features: weak },
            PageCandidate { doc_id: 7, page: 2, passage: 0, features: strong },
        ];
        let order: Vec<i64> = reorder(fused, &page_of, &candidates, &RerankWeights::default(), &|_, nth| -(nth as f32)).into_iter().map(|x| x.0).collect();
        assert_eq!(order, vec![2, 1, 3, 4], "page B first, then page A's chunks, then the rest");
        let four_pages: HashMap<i64, Place> = [(1, (7, 1, 0)), (2, (7, 1, 0)), (3, (7, 2, 0)), (4, (7, 2, 0))].into_iter().collect();
        let candidates = vec![
            PageCandidate { doc_id: 7, page: 1, passage: 0, features: strong },
            PageCandidate { doc_id: 7, page: 2, passage: 0, features: weak },
        ];
        let fused = vec![(1, 0.9), (2, 0.8), (3, 0.7), (4, 0.6)];
        let order: Vec<i64> = reorder(fused, &four_pages, &candidates, &RerankWeights::default(), &|_, nth| -(nth as f32)).into_iter().map(|x| x.0).collect();
        assert_eq!(order, vec![1, 3, 2, 4], "one chunk of each page before second chunks");
        let fused = vec![(1, 0.9), (2, 0.8), (3, 0.7), (4, 0.6)];
        let prefer_even = |chunk: i64, _nth: usize| if chunk % 2 == 0 { 1.0 } else { 0.0 };
        let order: Vec<i64> = reorder(fused, &four_pages, &candidates, &RerankWeights::default(), &prefer_even).into_iter().map(|x| x.0).collect();
        assert_eq!(order, vec![2, 4, 1, 3], "the passage that scores best leads its page");
    }

    #[test]
    fn a_sentence_cut_between_passages_stays_together() {
        assert!(ends_mid_sentence("started its first battery pilot in Kettlewick. A"));
        assert!(!ends_mid_sentence("The pilot started in 2024.\n"));
        assert!(!ends_mid_sentence("Net sales 14,694 14,544"));
        assert!(!ends_mid_sentence("Assets\nTotal current assets"));
        let order = vec![(1, 0.9), (2, 0.8), (3, 0.7), (4, 0.6)];
        let next_of: HashMap<i64, i64> = [(1, 4)].into_iter().collect();
        let ids: Vec<i64> = keep_sentences_whole(order, &next_of).into_iter().map(|x| x.0).collect();
        assert_eq!(ids, vec![1, 4, 2, 3]);
    }

    #[test]
    fn plural_endings_meet_singular() {
        assert_eq!(light_stem("inventories"), "inventory");
        assert_eq!(light_stem("sales"), "sale");
        assert_eq!(light_stem("expenses"), "expense");
        assert_eq!(light_stem("analysis"), "analysis");
        assert_eq!(light_stem("business"), "business");
        assert_eq!(light_stem("gas"), "gas");
    }
}
