//! Token counts from a model's tokenizer alone, without its weights: how chunks are sized
//! when vectors come from a server, so the same files give the same chunks either way.

use std::path::Path;

use tokenizers::Tokenizer;

use crate::chunk::TokenCounter;
use crate::error::{Error, Result};

pub struct TokenizerCounter {
    tokenizer: Tokenizer,
}

impl TokenizerCounter {
    /// The tokenizer of the model folder `dir` (its `tokenizer.json`), counting whole texts.
    pub fn load(dir: &Path) -> Result<TokenizerCounter> {
        let path = dir.join("tokenizer.json");
        let mut tokenizer = Tokenizer::from_file(&path).map_err(|e| Error::Embedding { path: path.clone(), message: e.to_string() })?;
        tokenizer.with_padding(None);
        tokenizer.with_truncation(None).map_err(|e| Error::Embedding { path, message: e.to_string() })?;
        Ok(TokenizerCounter { tokenizer })
    }
}

impl TokenCounter for TokenizerCounter {
    fn count(&self, text: &str) -> usize {
        self.tokenizer.encode_fast(text, false).map(|e| e.len()).unwrap_or(text.len() / 3)
    }
}
