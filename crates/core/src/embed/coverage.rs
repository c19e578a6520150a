//! Which scripts an embedding model can read, judged from its vocabulary: a model whose
//! vocabulary holds a few hundred Han characters (English BERT vocabularies carry ~500) turns
//! Chinese text into unknown tokens and near-random vectors, while multilingual vocabularies
//! hold tens of thousands. The line sits at the size of a basic reading vocabulary: about
//! 2,500 common characters cover 98% of modern Chinese text.

use tokenizers::Tokenizer;

use crate::lang::Lang;
use crate::text::{is_han, is_hangul, is_kana};

/// Vocabulary entries a script needs before its text is taken as readable.
const HAN_ENTRIES: usize = 2_500;
/// Kana is a small syllabary: 90 entries hold every sign with room to spare.
const KANA_ENTRIES: usize = 90;
/// Hangul text is mostly from ~2,350 common syllables; a vocabulary with a thousand of them
/// (or syllable pieces) reads most of it.
const HANGUL_ENTRIES: usize = 1_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScriptCoverage {
    pub han: usize,
    pub kana: usize,
    pub hangul: usize,
}

impl ScriptCoverage {
    pub fn of(tokenizer: &Tokenizer) -> ScriptCoverage {
        let mut coverage = ScriptCoverage::default();
        for token in tokenizer.get_vocab(false).keys() {
            coverage.han += usize::from(token.chars().any(is_han));
            coverage.kana += usize::from(token.chars().any(is_kana));
            coverage.hangul += usize::from(token.chars().any(is_hangul));
        }
        coverage
    }

    /// Whether questions and passages in `lang` get meaningful vectors.
    pub fn covers(&self, lang: Lang) -> bool {
        match lang {
            Lang::En => true,
            Lang::Zh => self.han >= HAN_ENTRIES,
            Lang::Ja => self.kana >= KANA_ENTRIES && self.han >= HAN_ENTRIES,
            Lang::Ko => self.hangul >= HANGUL_ENTRIES,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_separate_english_and_multilingual_vocabularies() {
        let english = ScriptCoverage { han: 488, kana: 60, hangul: 10 };
        assert!(english.covers(Lang::En));
        assert!(!english.covers(Lang::Zh) && !english.covers(Lang::Ja) && !english.covers(Lang::Ko));
        let multilingual = ScriptCoverage { han: 25_000, kana: 170, hangul: 8_000 };
        assert!(Lang::all().iter().all(|l| multilingual.covers(*l)));
    }
}
