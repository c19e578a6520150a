//! Keyword tokens for text that mixes alphabetic and CJK scripts. Words of alphabetic scripts
//! are split as usual (then lower-cased and stemmed by the analyzer); runs of Han, kana and
//! Hangul, which are written without spaces, become overlapping character pairs. Pairs need no
//! dictionary, and a question worded differently from the page still shares most of its pairs
//! with it ("错误率从38%降到1.2%" and "错误率降到多少" share 错误 and 误率).

use tantivy::tokenizer::{LowerCaser, RemoveLongFilter, Stemmer, TextAnalyzer, Token, TokenStream, Tokenizer};

use crate::text::is_cjk;

/// The name the schema refers to; changing the tokenizer means a new name (the keyword index
/// is then rebuilt from SQLite).
pub const MIXED_TOKENIZER: &str = "pw_mixed_v1";

pub fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(MixedScriptTokenizer)
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(Stemmer::new(tantivy::tokenizer::Language::English))
        .build()
}

#[derive(Clone, Default)]
pub struct MixedScriptTokenizer;

pub struct MixedScriptStream {
    tokens: Vec<Token>,
    next: usize,
}

/// Byte ranges of the tokens of `text`, in order.
pub fn token_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if is_cjk(c) {
            let mut run = vec![(start, c)];
            while let Some(&(i, n)) = chars.peek() {
                if !is_cjk(n) {
                    break;
                }
                run.push((i, n));
                chars.next();
            }
            if run.len() == 1 {
                out.push(start..start + c.len_utf8());
            } else {
                for pair in run.windows(2) {
                    out.push(pair[0].0..pair[1].0 + pair[1].1.len_utf8());
                }
            }
        } else if c.is_alphanumeric() {
            let mut end = start + c.len_utf8();
            while let Some(&(i, n)) = chars.peek() {
                if !n.is_alphanumeric() || is_cjk(n) {
                    break;
                }
                end = i + n.len_utf8();
                chars.next();
            }
            out.push(start..end);
        }
    }
    out
}

impl Tokenizer for MixedScriptTokenizer {
    type TokenStream<'a> = MixedScriptStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> MixedScriptStream {
        let tokens = token_ranges(text)
            .into_iter()
            .enumerate()
            .map(|(position, r)| Token { offset_from: r.start, offset_to: r.end, position, text: text[r].to_string(), position_length: 1 })
            .collect();
        MixedScriptStream { tokens, next: 0 }
    }
}

impl TokenStream for MixedScriptStream {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

/// A query with each CJK pair written as a word of its own, so the query parser makes one
/// term per pair (a run written as one word would become a phrase that must match whole).
pub fn spaced_query(query: &str) -> String {
    let mut out = String::with_capacity(query.len() * 2);
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        for r in token_ranges(run) {
            out.push(' ');
            out.push_str(&run[r]);
        }
        out.push(' ');
        run.clear();
    };
    for c in query.chars() {
        if is_cjk(c) {
            run.push(c);
        } else {
            if !run.is_empty() {
                flush(&mut run, &mut out);
            }
            out.push(c);
        }
    }
    if !run.is_empty() {
        flush(&mut run, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        let mut a = analyzer();
        let mut out = Vec::new();
        a.token_stream(text).process(&mut |t| out.push(t.text.clone()));
        out
    }

    #[test]
    fn english_is_stemmed_and_cjk_becomes_pairs() {
        assert_eq!(tokens("Running costs rose"), ["run", "cost", "rose"]);
        assert_eq!(tokens("错误率从38%降到1.2%"), ["错误", "误率", "率从", "38", "降到", "1", "2"]);
        assert_eq!(tokens("客服Agent处理"), ["客服", "agent", "处理"]);
        assert_eq!(tokens("量"), ["量"]);
    }

    #[test]
    fn queries_name_each_pair_once() {
        let q = spaced_query("错误率降到多少 RAG pipeline");
        let words: Vec<&str> = q.split_whitespace().collect();
        assert_eq!(words, ["错误", "误率", "率降", "降到", "到多", "多少", "RAG", "pipeline"]);
    }
}
