//! Passage and query vectors from an OpenAI-compatible server (`POST /v1/embeddings`). The
//! model's identity is the server, the model name and the vector size, so pointing the
//! library at another server or model re-embeds it like a local model change. Chunks are
//! still sized by a local tokenizer, so the same files give the same chunks either way.

use serde_json::{json, Value};

use super::chat::{choose_model, failed};
use super::http::{Endpoint, EndpointSettings};
use crate::chunk::TokenCounter;
use crate::embed::{l2_normalise, Embedder, TextRole};
use crate::error::Result;

/// Texts per request: small enough for any server's batch limit.
const BATCH: usize = 32;

pub struct EndpointEmbedder {
    endpoint: Endpoint,
    model: String,
    dimensions: usize,
    model_id: String,
    counter: Box<dyn TokenCounter + Send + Sync>,
}

impl EndpointEmbedder {
    /// Checks that the server answers, accepts the key and embeds with the model (one short
    /// text, which also tells the vector size). `counter` sizes chunks.
    pub fn connect(settings: &EndpointSettings, counter: Box<dyn TokenCounter + Send + Sync>) -> Result<EndpointEmbedder> {
        let endpoint = Endpoint::new(settings);
        let model = choose_model(&endpoint, settings)?;
        let mut embedder = EndpointEmbedder { endpoint, model, dimensions: 0, model_id: String::new(), counter };
        let probe = embedder.request(&["dimensions".to_string()])?;
        embedder.dimensions = probe.first().map_or(0, Vec::len);
        if embedder.dimensions == 0 {
            return Err(failed(&embedder.endpoint, format!("{} returned an empty vector", embedder.model)));
        }
        embedder.model_id = format!("endpoint:{}#{}@{}", embedder.endpoint.base(), embedder.model, embedder.dimensions);
        Ok(embedder)
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    fn request(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        // Some servers refuse an empty input; a space embeds as "nothing" the same way.
        let input: Vec<&str> = texts.iter().map(|t| if t.trim().is_empty() { " " } else { t.as_str() }).collect();
        let body = json!({ "model": self.model, "input": input, "encoding_format": "float" });
        let answer = self.endpoint.post_json("embeddings", &body).map_err(|m| failed(&self.endpoint, m))?;
        let data = answer.get("data").and_then(Value::as_array).ok_or_else(|| failed(&self.endpoint, "the answer holds no \"data\" list".into()))?;
        let mut vectors: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        for (position, item) in data.iter().enumerate() {
            // Vectors carry their input's index; servers that leave it out keep the order.
            let index = item.get("index").and_then(Value::as_u64).map_or(position, |i| i as usize);
            let values = item.get("embedding").and_then(Value::as_array).ok_or_else(|| failed(&self.endpoint, format!("item {index} holds no embedding")))?;
            let mut v: Vec<f32> = values.iter().map(|x| x.as_f64().unwrap_or(f64::NAN) as f32).collect();
            if v.iter().any(|x| !x.is_finite()) {
                return Err(failed(&self.endpoint, format!("item {index} holds a value that is not a number")));
            }
            l2_normalise(&mut v);
            if let Some(slot) = vectors.get_mut(index) {
                *slot = Some(v);
            }
        }
        let vectors: Option<Vec<Vec<f32>>> = vectors.into_iter().collect();
        let vectors = vectors.ok_or_else(|| failed(&self.endpoint, format!("returned {} vectors for {} texts", data.len(), texts.len())))?;
        if self.dimensions > 0 && vectors.iter().any(|v| v.len() != self.dimensions) {
            return Err(failed(&self.endpoint, format!("returned vectors of another size than {}", self.dimensions)));
        }
        Ok(vectors)
    }
}

impl Embedder for EndpointEmbedder {
    fn model_id(&self) -> &str {
        &self.model_id
    }

    fn dimensions(&self) -> usize {
        self.dimensions
    }

    fn embed(&self, texts: &[String], _role: TextRole) -> Result<Vec<Vec<f32>>> {
        let mut out = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BATCH) {
            out.extend(self.request(batch)?);
        }
        Ok(out)
    }
}

impl TokenCounter for EndpointEmbedder {
    fn count(&self, text: &str) -> usize {
        self.counter.count(text)
    }
}
