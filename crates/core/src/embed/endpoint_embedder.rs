//! Passage and query vectors from an OpenAI-compatible server (`POST /v1/embeddings`). The
//! model's identity is the server, the model name and the vector size, so pointing the
//! library at another server or model re-embeds it like a local model change. Chunks are
//! still sized by a local tokenizer, so the same files give the same chunks either way.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{l2_normalise, Embedder, TextRole};
use crate::chunk::TokenCounter;
use crate::error::{Error, Result};
use crate::netlog::Purpose;
use crate::openai::{choose_model, failed, Endpoint, EndpointSettings};

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
        let endpoint = Endpoint::new(settings, Purpose::EmbeddingServer);
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

    fn served_remotely(&self) -> bool {
        true
    }
}

impl TokenCounter for EndpointEmbedder {
    fn count(&self, text: &str) -> usize {
        self.counter.count(text)
    }
}

/// How often a search may try an unreachable server again; between tries it is told at once
/// that vectors are unavailable, so keyword search does not wait on a dead address.
const RETRY_EVERY: Duration = Duration::from_secs(15);

/// A counter shared between the stand-in and the embedder it connects later.
struct SharedCounter(Arc<dyn TokenCounter + Send + Sync>);

impl TokenCounter for SharedCounter {
    fn count(&self, text: &str) -> usize {
        self.0.count(text)
    }
}

/// The embedding server of a library that already holds its vectors, while that server does
/// not answer (a laptop away from its network). It carries the identity the library recorded,
/// so the library opens and keyword search works instead of the whole library failing; each
/// `embed` tries the server again (at most every 15 s) and, once it answers with the same
/// model, passes the work to it.
pub struct AwaitedEndpointEmbedder {
    settings: EndpointSettings,
    model_id: String,
    dimensions: usize,
    counter: Arc<dyn TokenCounter + Send + Sync>,
    connected: OnceLock<EndpointEmbedder>,
    last_try: Mutex<(Instant, String)>,
}

impl AwaitedEndpointEmbedder {
    /// A stand-in when `recorded_model_id` (what the library's vectors were made with) names
    /// this server, and the model asked for when one is; `None` otherwise, so a server the
    /// library has never used is still an error when it cannot be reached.
    pub fn for_recorded(
        settings: &EndpointSettings,
        recorded_model_id: &str,
        recorded_dimensions: usize,
        counter: Box<dyn TokenCounter + Send + Sync>,
        why: String,
    ) -> Option<AwaitedEndpointEmbedder> {
        let model = Self::recorded_model(settings, recorded_model_id, recorded_dimensions)?;
        Some(AwaitedEndpointEmbedder {
            settings: EndpointSettings { model: Some(model), ..settings.clone() },
            model_id: recorded_model_id.to_string(),
            dimensions: recorded_dimensions,
            counter: Arc::from(counter),
            connected: OnceLock::new(),
            last_try: Mutex::new((Instant::now(), why)),
        })
    }

    /// The model of `settings`' server that the library's vectors came from, when
    /// `recorded_model_id` names that server (and the model asked for, when one is).
    pub fn recorded_model(settings: &EndpointSettings, recorded_model_id: &str, recorded_dimensions: usize) -> Option<String> {
        // Only the base URL is wanted here; nothing is sent.
        let base = Endpoint::new(settings, Purpose::EmbeddingServer).base().to_string();
        let rest = recorded_model_id.strip_prefix("endpoint:")?.strip_prefix(base.as_str())?.strip_prefix('#')?;
        let (model, dimensions) = rest.rsplit_once('@')?;
        let dimensions: usize = dimensions.parse().ok()?;
        if dimensions == 0 || dimensions != recorded_dimensions {
            return None;
        }
        if settings.model.as_deref().is_some_and(|wanted| !wanted.is_empty() && wanted != model) {
            return None;
        }
        Some(model.to_string())
    }

    /// The server, connecting now if the last try is long enough ago.
    fn server(&self) -> Result<&EndpointEmbedder> {
        if let Some(server) = self.connected.get() {
            return Ok(server);
        }
        let unavailable = |message: String| Error::EmbeddingService { message };
        let mut last = self.last_try.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(server) = self.connected.get() {
            return Ok(server);
        }
        if last.0.elapsed() < RETRY_EVERY {
            return Err(unavailable(last.1.clone()));
        }
        // One quick try: a search is waiting on it.
        let quick = EndpointSettings { retries: 0, ..self.settings.clone() };
        let outcome = EndpointEmbedder::connect(&quick, Box::new(SharedCounter(Arc::clone(&self.counter))));
        *last = (Instant::now(), last.1.clone());
        match outcome {
            Ok(server) if server.model_id == self.model_id => Ok(self.connected.get_or_init(|| server)),
            Ok(server) => {
                last.1 = format!("the server now embeds as {}, not as this library's {}; reopen the library to re-embed it", server.model_id, self.model_id);
                Err(unavailable(last.1.clone()))
            }
            Err(e) => {
                last.1 = e.to_string();
                Err(unavailable(last.1.clone()))
            }
        }
    }
}

impl Embedder for AwaitedEndpointEmbedder {
    fn model_id(&self) -> &str {
        &self.model_id
    }

    fn dimensions(&self) -> usize {
        self.dimensions
    }

    fn embed(&self, texts: &[String], role: TextRole) -> Result<Vec<Vec<f32>>> {
        self.server()?.embed(texts, role)
    }

    fn notice(&self) -> Option<crate::progress::LibraryNotice> {
        if self.connected.get().is_some() {
            return None;
        }
        let why = self.last_try.lock().map(|last| last.1.clone()).unwrap_or_default();
        Some(crate::progress::LibraryNotice::EmbeddingServerUnreachable { why })
    }

    fn served_remotely(&self) -> bool {
        true
    }
}

impl TokenCounter for AwaitedEndpointEmbedder {
    fn count(&self, text: &str) -> usize {
        self.counter.count(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Words;
    impl TokenCounter for Words {
        fn count(&self, text: &str) -> usize {
            text.split_whitespace().count()
        }
    }

    fn stand_in(url: &str, model: Option<&str>, recorded: &str, dimensions: usize) -> Option<AwaitedEndpointEmbedder> {
        let settings = EndpointSettings { model: model.map(str::to_string), ..EndpointSettings::new(url) };
        AwaitedEndpointEmbedder::for_recorded(&settings, recorded, dimensions, Box::new(Words), "cannot reach it".into())
    }

    #[test]
    fn a_stand_in_only_for_the_server_and_model_the_library_was_embedded_with() {
        let recorded = "endpoint:http://10.0.0.5:8080/v1#nomic-embed@768";
        let awaited = stand_in("http://10.0.0.5:8080", None, recorded, 768).expect("same server, any model");
        assert_eq!((awaited.model_id(), awaited.dimensions()), (recorded, 768));
        assert_eq!(awaited.count("three short words"), 3);
        assert!(awaited.notice().is_some_and(|n| n.to_string().contains("cannot reach it")), "{:?}", awaited.notice());
        // Within the retry pause the failure is told at once, without a request.
        let err = awaited.embed(&["a question".into()], TextRole::Query).unwrap_err().to_string();
        assert!(err.contains("cannot reach it"), "{err}");
        assert!(stand_in("http://10.0.0.5:8080/v1/", Some("nomic-embed"), recorded, 768).is_some());

        assert!(stand_in("http://10.0.0.6:8080", None, recorded, 768).is_none(), "another server");
        assert!(stand_in("http://10.0.0.5:8080", Some("bge-small"), recorded, 768).is_none(), "another model");
        assert!(stand_in("http://10.0.0.5:8080", None, recorded, 384).is_none(), "another vector size on record");
        assert!(stand_in("http://10.0.0.5:8080", None, "all-MiniLM-L6-v2@abc", 384).is_none(), "a local model");
    }
}
