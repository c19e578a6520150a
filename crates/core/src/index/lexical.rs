//! Tantivy: BM25 over chunk text, heading path and document title; English words stemmed, CJK
//! text as character pairs. Documents are keyed by chunk id (shared with SQLite and the vector
//! index) and document id.

use std::path::{Path, PathBuf};

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, QueryParser, TermQuery, TermSetQuery};
use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, INDEXED, STORED};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{doc, Index, IndexReader, IndexWriter, ReloadPolicy, Term};

use super::mixed_tokenizer::{analyzer, spaced_query, MIXED_TOKENIZER};
use crate::error::{Error, Result};

const WRITER_HEAP: usize = 64 * 1024 * 1024;
/// The chunk id of document-profile entries; real chunk ids are hashes and never 0.
const PROFILE_ID: u64 = 0;
const TIE_SLACK: usize = 16;

/// Best score first, equal scores by id: the same index gives the same order on any machine.
pub fn sort_ranked(hits: &mut [(i64, f32)]) {
    hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
}

#[derive(Clone, Copy)]
struct Fields {
    chunk_id: Field,
    doc_id: Field,
    title: Field,
    heading: Field,
    body: Field,
    /// Set only on one entry per document (chunk id 0): its label and first page.
    profile: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default().set_tokenizer(MIXED_TOKENIZER).set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let chunk_id = b.add_u64_field("chunk_id", INDEXED | STORED | FAST);
    let doc_id = b.add_u64_field("doc_id", INDEXED | FAST);
    let title = b.add_text_field("title", text.clone());
    let heading = b.add_text_field("heading", text.clone());
    let body = b.add_text_field("body", text.clone());
    let profile = b.add_text_field("profile", text);
    (b.build(), Fields { chunk_id, doc_id, title, heading, body, profile })
}

/// One chunk as the keyword index sees it.
pub struct LexicalChunk<'a> {
    pub chunk_id: i64,
    pub title: &'a str,
    pub heading: &'a str,
    pub body: &'a str,
}

pub struct LexicalIndex {
    index: Index,
    reader: IndexReader,
    writer: Option<IndexWriter>,
    fields: Fields,
    dir: PathBuf,
}

/// Whether every entry of `dir` is a file Tantivy writes (segments, meta, lock and managed
/// lists); an empty folder qualifies.
fn only_index_files(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.flatten().all(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        let tantivy_name = name == "meta.json"
            || name == ".managed.json"
            || name.ends_with(".lock")
            || name.split('.').next().is_some_and(|stem| stem.len() == 32 && stem.chars().all(|c| c.is_ascii_hexdigit()));
        tantivy_name && e.file_type().is_ok_and(|t| t.is_file())
    })
}

impl LexicalIndex {
    fn err(dir: &Path, e: impl std::fmt::Display) -> Error {
        Error::Lexical { path: dir.to_path_buf(), message: e.to_string() }
    }

    /// Opens the index in `dir`, creating it (or recreating it when its schema differs).
    /// Returns `true` in the second field when it was created empty.
    pub fn open(dir: &Path, writable: bool) -> Result<(LexicalIndex, bool)> {
        let (schema, fields) = schema();
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let mut created = false;
        let index = match Index::open_in_dir(dir) {
            Ok(index) if index.schema() == schema => index,
            Ok(_) | Err(_) if writable => {
                // Unreadable or another schema: the keyword index is rebuilt from SQLite, but
                // only inside a marked data dir, and only a folder that holds nothing but
                // Tantivy's files (a user's folder that happens to sit here is refused).
                let empty = std::fs::read_dir(dir).map(|mut d| d.next().is_none()).unwrap_or(false);
                if !empty {
                    let data_dir = dir.parent().unwrap_or(dir);
                    crate::data_dir::ensure_ours(data_dir)?;
                    if !only_index_files(dir) {
                        return Err(Self::err(dir, "holds files that are not a keyword index; not removing them (move them away and run again)"));
                    }
                    std::fs::remove_dir_all(dir).map_err(|e| Error::io(dir, e))?;
                    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
                }
                created = true;
                Index::create_in_dir(dir, schema).map_err(|e| Self::err(dir, e))?
            }
            Ok(_) => return Err(Self::err(dir, "keyword index has another schema; run `pagewise index` to rebuild")),
            Err(e) => return Err(Self::err(dir, e)),
        };
        index.tokenizers().register(MIXED_TOKENIZER, analyzer());
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(|e| Self::err(dir, e))?;
        let writer = if writable {
            Some(index.writer_with_num_threads(1, WRITER_HEAP).map_err(|e| Self::err(dir, e))?)
        } else {
            None
        };
        Ok((LexicalIndex { index, reader, writer, fields, dir: dir.to_path_buf() }, created))
    }

    fn writer(&mut self) -> Result<&mut IndexWriter> {
        let dir = self.dir.clone();
        self.writer.as_mut().ok_or_else(|| Self::err(&dir, "opened read-only"))
    }

    pub fn delete_document(&mut self, doc_id: i64) -> Result<()> {
        let term = Term::from_field_u64(self.fields.doc_id, doc_id as u64);
        self.writer()?.delete_term(term);
        Ok(())
    }

    pub fn add_chunks(&mut self, doc_id: i64, chunks: &[LexicalChunk<'_>]) -> Result<()> {
        let f = self.fields;
        let dir = self.dir.clone();
        let writer = self.writer()?;
        for c in chunks {
            writer
                .add_document(doc!(
                    f.chunk_id => c.chunk_id as u64,
                    f.doc_id => doc_id as u64,
                    f.title => c.title,
                    f.heading => c.heading,
                    f.body => c.body,
                ))
                .map_err(|e| Self::err(&dir, e))?;
        }
        Ok(())
    }

    /// The document-level entry used to tell which documents a question is about.
    pub fn add_profile(&mut self, doc_id: i64, profile: &str) -> Result<()> {
        let f = self.fields;
        let dir = self.dir.clone();
        self.writer()?
            .add_document(doc!(f.chunk_id => PROFILE_ID, f.doc_id => doc_id as u64, f.profile => profile))
            .map_err(|e| Self::err(&dir, e))?;
        Ok(())
    }

    /// BM25 over document profiles: which documents the query names or is about.
    pub fn search_documents(&self, query: &str, k: usize, docs: Option<&[i64]>) -> Result<Vec<(i64, f32)>> {
        let f = self.fields;
        self.top(query, vec![f.profile], &[], k, docs, "doc_id")
    }

    pub fn delete_all(&mut self) -> Result<()> {
        let dir = self.dir.clone();
        self.writer()?.delete_all_documents().map_err(|e| Self::err(&dir, e))?;
        Ok(())
    }

    /// Makes every change since the last commit durable and visible.
    pub fn commit(&mut self) -> Result<()> {
        let dir = self.dir.clone();
        self.writer()?.commit().map_err(|e| Self::err(&dir, e))?;
        self.reader.reload().map_err(|e| Self::err(&dir, e))
    }

    pub fn reload(&self) -> Result<()> {
        self.reader.reload().map_err(|e| Self::err(&self.dir, e))
    }

    /// BM25 top `k` chunk ids for `query`, optionally only within `docs`.
    pub fn search(&self, query: &str, k: usize, docs: Option<&[i64]>) -> Result<Vec<(i64, f32)>> {
        let f = self.fields;
        self.top(query, vec![f.body, f.heading, f.title], &[(f.title, 0.5), (f.heading, 0.5)], k, docs, "chunk_id")
    }

    /// BM25 top `k` for `query` plus weighted extra words (query expansion): each extra word
    /// counts `weight` times as much as a word of the query.
    pub fn search_expanded(&self, query: &str, extra: &[(String, f32)], k: usize, docs: Option<&[i64]>) -> Result<Vec<(i64, f32)>> {
        let f = self.fields;
        self.top_with(query, extra, vec![f.body, f.heading, f.title], &[(f.title, 0.5), (f.heading, 0.5)], k, docs, "chunk_id")
    }

    fn top(
        &self,
        query: &str,
        fields: Vec<Field>,
        boosts: &[(Field, f32)],
        k: usize,
        docs: Option<&[i64]>,
        key: &str,
    ) -> Result<Vec<(i64, f32)>> {
        self.top_with(query, &[], fields, boosts, k, docs, key)
    }

    #[allow(clippy::too_many_arguments)]
    fn top_with(
        &self,
        query: &str,
        extra: &[(String, f32)],
        fields: Vec<Field>,
        boosts: &[(Field, f32)],
        k: usize,
        docs: Option<&[i64]>,
        key: &str,
    ) -> Result<Vec<(i64, f32)>> {
        let f = self.fields;
        let mut parser = QueryParser::for_index(&self.index, fields.clone());
        for &(field, boost) in boosts {
            parser.set_field_boost(field, boost);
        }
        let cleaned = sanitize_query(query);
        if cleaned.trim().is_empty() {
            return Ok(Vec::new());
        }
        let mut analyzer = self.analyzer()?;
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let mut add_words = |text: &str, weight: f32| {
            // A word written twice counts once, as the query parser has it.
            let mut seen = std::collections::HashSet::new();
            for word in text.split_whitespace().filter(|w| seen.insert(*w)) {
                clauses.extend(word_clauses(&parser, &mut analyzer, word, weight, &fields, boosts));
            }
        };
        add_words(&cleaned, 1.0);
        for (word, weight) in extra {
            add_words(&sanitize_query(word), *weight);
        }
        if clauses.is_empty() {
            return Ok(Vec::new());
        }
        let parsed: Box<dyn Query> = Box::new(BooleanQuery::new(clauses));
        let query: Box<dyn Query> = match docs {
            Some(ids) => {
                let terms = ids.iter().map(|&d| Term::from_field_u64(f.doc_id, d as u64));
                Box::new(BooleanQuery::new(vec![(Occur::Must, parsed), (Occur::Must, Box::new(TermSetQuery::new(terms)))]))
            }
            None => parsed,
        };
        let searcher = self.reader.searcher();
        let top = searcher
            // A few extra so that which of several equal scores make the cut is decided by id
            // below, not by segment order (which differs between runs).
            .search(&query, &TopDocs::with_limit(k.max(1) + TIE_SLACK).order_by_score())
            .map_err(|e| Self::err(&self.dir, e))?;
        let mut out = Vec::with_capacity(top.len());
        for (score, addr) in top {
            let column =
                searcher.segment_reader(addr.segment_ord).fast_fields().u64(key).map_err(|e| Self::err(&self.dir, e))?;
            if let Some(id) = column.first(addr.doc_id) {
                out.push((id as i64, score));
            }
        }
        sort_ranked(&mut out);
        out.truncate(k.max(1));
        Ok(out)
    }

    /// Every chunk id in the index (for consistency checks).
    pub fn all_chunk_ids(&self) -> Result<Vec<i64>> {
        let searcher = self.reader.searcher();
        let mut out = Vec::new();
        for segment in searcher.segment_readers() {
            let column = segment.fast_fields().u64("chunk_id").map_err(|e| Self::err(&self.dir, e))?;
            for doc in 0..segment.max_doc() {
                if segment.is_deleted(doc) {
                    continue;
                }
                match column.first(doc) {
                    Some(PROFILE_ID) | None => {}
                    Some(id) => out.push(id as i64),
                }
            }
        }
        Ok(out)
    }

    /// For each word, how many indexed chunks contain it in their body or title, after the
    /// index's own stemming (0 means the library never uses the word).
    pub fn document_frequencies(&self, words: &[String]) -> Result<Vec<u64>> {
        let f = self.fields;
        let mut analyzer = self.analyzer()?;
        let searcher = self.reader.searcher();
        let mut out = Vec::with_capacity(words.len());
        for word in words {
            let mut tokens = Vec::new();
            analyzer.token_stream(word).process(&mut |t| tokens.push(t.text.clone()));
            let mut df = u64::MAX;
            for token in &tokens {
                let mut best = 0;
                for field in [f.body, f.title] {
                    let n = searcher.doc_freq(&Term::from_field_text(field, token)).map_err(|e| Self::err(&self.dir, e))?;
                    best = best.max(n);
                }
                df = df.min(best);
            }
            out.push(if tokens.is_empty() { 0 } else { df });
        }
        Ok(out)
    }

    /// How many documents use every word of `phrase` in their passages' text (stemmed as
    /// indexed; 0 when the phrase has no words). Routing asks this of the names a question
    /// carries: a name most documents use singles nothing out.
    pub fn documents_using(&self, phrase: &str) -> Result<u64> {
        let f = self.fields;
        let mut analyzer = self.analyzer()?;
        let mut tokens = Vec::new();
        analyzer.token_stream(phrase).process(&mut |t| tokens.push(t.text.clone()));
        tokens.sort();
        tokens.dedup();
        if tokens.is_empty() {
            return Ok(0);
        }
        let clauses: Vec<(Occur, Box<dyn Query>)> = tokens
            .iter()
            .map(|t| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(Term::from_field_text(f.body, t), IndexRecordOption::Basic));
                (Occur::Must, q)
            })
            .collect();
        let query = BooleanQuery::new(clauses);
        let documents = self.reader.searcher().search(&query, &DistinctDocuments).map_err(|e| Self::err(&self.dir, e))?;
        Ok(documents.len() as u64)
    }

    fn analyzer(&self) -> Result<TextAnalyzer> {
        self.index
            .tokenizers()
            .get(MIXED_TOKENIZER)
            .ok_or_else(|| Error::Lexical { path: self.dir.clone(), message: format!("{MIXED_TOKENIZER} tokenizer missing") })
    }

    pub fn num_docs(&self) -> u64 {
        self.reader.searcher().num_docs()
    }
}

/// The clauses one word of a query adds, `weight` times a question word. A word that is one
/// token becomes one term query per field, side by side with every other word's, so the
/// query is a flat disjunction of term queries, which Tantivy ranks with block-max WAND and
/// need not score every passage that shares a common word. The score is what the query
/// parser's nesting (fields within words) gives: the same term scores, summed. Any other word
/// (several tokens, or the characters the parser reads as syntax) is left to the parser.
fn word_clauses(
    parser: &QueryParser,
    analyzer: &mut TextAnalyzer,
    word: &str,
    weight: f32,
    fields: &[Field],
    boosts: &[(Field, f32)],
) -> Vec<(Occur, Box<dyn Query>)> {
    let boosted = |query: Box<dyn Query>, boost: f32| -> Box<dyn Query> {
        if boost == 1.0 {
            query
        } else {
            Box::new(BoostQuery::new(query, boost))
        }
    };
    let mut tokens = Vec::new();
    analyzer.token_stream(word).process(&mut |t| tokens.push(t.text.clone()));
    match tokens.as_slice() {
        [] => Vec::new(),
        [token] if word.chars().all(char::is_alphanumeric) => fields
            .iter()
            .map(|&field| {
                let boost = boosts.iter().find(|(f, _)| *f == field).map_or(1.0, |(_, b)| *b);
                let term = TermQuery::new(Term::from_field_text(field, token), IndexRecordOption::WithFreqs);
                (Occur::Should, boosted(Box::new(term), boost * weight))
            })
            .collect(),
        _ => {
            let (query, _) = parser.parse_query_lenient(word);
            vec![(Occur::Should, boosted(query, weight))]
        }
    }
}

/// The query language's operators mean nothing to people typing questions; keep words only.
fn sanitize_query(query: &str) -> String {
    spaced_query(query)
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '.' || c == '\'' { c } else { ' ' })
        .collect::<String>()
        .split_whitespace()
        .map(|w| w.trim_matches(|c| c == '.' || c == '\''))
        .filter(|w| !w.is_empty() && !matches!(w.to_ascii_uppercase().as_str(), "AND" | "OR" | "NOT" | "IN"))
        .collect::<Vec<_>>()
        .join(" ")
}


/// Collects the distinct document ids of the passages a query matches.
struct DistinctDocuments;

struct DistinctDocumentsInSegment {
    doc_ids: Option<tantivy::columnar::Column<u64>>,
    seen: std::collections::HashSet<u64>,
}

impl tantivy::collector::Collector for DistinctDocuments {
    type Fruit = std::collections::HashSet<u64>;
    type Child = DistinctDocumentsInSegment;

    fn for_segment(&self, _ord: tantivy::SegmentOrdinal, segment: &tantivy::SegmentReader) -> tantivy::Result<DistinctDocumentsInSegment> {
        Ok(DistinctDocumentsInSegment { doc_ids: segment.fast_fields().u64("doc_id").ok(), seen: std::collections::HashSet::new() })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, fruits: Vec<std::collections::HashSet<u64>>) -> tantivy::Result<std::collections::HashSet<u64>> {
        Ok(fruits.into_iter().flatten().collect())
    }
}

impl tantivy::collector::SegmentCollector for DistinctDocumentsInSegment {
    type Fruit = std::collections::HashSet<u64>;

    fn collect(&mut self, doc: tantivy::DocId, _score: tantivy::Score) {
        if let Some(id) = self.doc_ids.as_ref().and_then(|c| c.first(doc)) {
            self.seen.insert(id);
        }
    }

    fn harvest(self) -> std::collections::HashSet<u64> {
        self.seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The query as the parser nests it (fields within words, extra words boosted whole): the
    /// scores the flat query must reproduce.
    fn parser_ranking(index: &LexicalIndex, query: &str, extra: &[(String, f32)], docs: Option<&[i64]>) -> Vec<(i64, f32)> {
        let f = index.fields;
        let mut parser = QueryParser::for_index(&index.index, vec![f.body, f.heading, f.title]);
        parser.set_field_boost(f.title, 0.5);
        parser.set_field_boost(f.heading, 0.5);
        let (question, _) = parser.parse_query_lenient(&sanitize_query(query));
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Should, question)];
        for (word, weight) in extra {
            let (q, _) = parser.parse_query_lenient(&sanitize_query(word));
            clauses.push((Occur::Should, Box::new(BoostQuery::new(q, *weight))));
        }
        let mut query: Box<dyn Query> = Box::new(BooleanQuery::new(clauses));
        if let Some(ids) = docs {
            let terms = ids.iter().map(|&d| Term::from_field_u64(f.doc_id, d as u64));
            query = Box::new(BooleanQuery::new(vec![(Occur::Must, query), (Occur::Must, Box::new(TermSetQuery::new(terms)))]));
        }
        let searcher = index.reader.searcher();
        let top = searcher.search(&query, &TopDocs::with_limit(10_000).order_by_score()).unwrap();
        let mut out: Vec<(i64, f32)> = top
            .into_iter()
            .filter_map(|(score, addr)| {
                let column = searcher.segment_reader(addr.segment_ord).fast_fields().u64("chunk_id").unwrap();
                column.first(addr.doc_id).map(|id| (id as i64, score))
            })
            .collect();
        sort_ranked(&mut out);
        out
    }

    #[test]
    fn the_flat_query_ranks_and_scores_as_the_parsers_nesting() {
        let dir = tempfile::tempdir().unwrap();
        let (mut index, _) = LexicalIndex::open(dir.path(), true).unwrap();
        let words = [
            "revenue", "net", "income", "capital", "expenditure", "purchases", "property", "equipment", "dividend", "cash",
            "operating", "margin", "segment", "U.S.", "company's", "收入", "增长", "营业收入同比增长", "2022", "fiscal",
        ];
        let mut state = 7u64;
        let mut next = |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let mut bodies = Vec::new();
        for _ in 0..600 {
            let len = 5 + next(30);
            let body: Vec<&str> = (0..len).map(|_| words[next(words.len())]).collect();
            bodies.push((words[next(words.len())].to_string(), body.join(" ")));
        }
        for (doc, chunk) in bodies.chunks(20).enumerate() {
            let rows: Vec<LexicalChunk<'_>> = chunk
                .iter()
                .enumerate()
                .map(|(i, (heading, body))| LexicalChunk {
                    chunk_id: (doc * 100 + i + 1) as i64,
                    title: if doc % 3 == 0 { "Annual report revenue" } else { "Quarterly filing" },
                    heading,
                    body,
                })
                .collect();
            index.add_chunks(doc as i64 + 1, &rows).unwrap();
        }
        index.commit().unwrap();
        let extra = vec![("purchases".to_string(), 0.3), ("equipment".to_string(), 0.2), ("U.S.".to_string(), 0.1)];
        let queries = [
            "revenue",
            "What was net income in fiscal 2022?",
            "capital expenditure capital",
            "the company's U.S. revenue",
            "营业收入同比增长多少",
            "dividend AND cash OR margin",
            "averyveryveryveryveryveryveryveryverylongwordthatisdropped revenue",
        ];
        let scope: Vec<i64> = vec![2, 5, 9, 17];
        for q in queries {
            for (extra, docs) in [(&[][..], None), (&extra[..], None), (&extra[..], Some(&scope[..]))] {
                let ours = if extra.is_empty() { index.search(q, 50, docs).unwrap() } else { index.search_expanded(q, extra, 50, docs).unwrap() };
                let reference = parser_ranking(&index, q, extra, docs);
                assert!(!ours.is_empty(), "{q}");
                assert_eq!(ours.len(), reference.len().min(50), "{q} {extra:?} {docs:?}");
                for (a, b) in ours.iter().zip(&reference) {
                    assert_eq!(a.0, b.0, "{q} {extra:?} {docs:?}: {ours:?} vs {reference:?}");
                    assert!((a.1 - b.1).abs() <= 1e-4 * b.1.abs().max(1.0), "{q}: {a:?} vs {b:?}");
                }
            }
        }
    }
}
