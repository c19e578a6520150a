//! The flags that send generation to an OpenAI-compatible server instead of a local model.

use anyhow::{Context, Result};
use clap::Args;
use pagewise_core::answer::EndpointGenerator;
use pagewise_core::openai::EndpointSettings;

#[derive(Args, Clone, Default)]
pub struct EndpointArgs {
    /// Generate with an OpenAI-compatible server (llama-server, Ollama, vLLM, LM Studio)
    /// instead of a local model: its base URL, such as http://127.0.0.1:8080/v1. An API key,
    /// if it needs one, comes from $PAGEWISE_API_KEY and is sent only to this server, over
    /// https or to this computer. This is the one feature that uses the
    /// network: the question and its evidence passages are sent to this server.
    #[arg(long)]
    pub endpoint: Option<String>,
    /// The model to ask the endpoint for (default: the only one it serves).
    #[arg(long, requires = "endpoint")]
    pub endpoint_model: Option<String>,
    /// Tokens the endpoint model's context holds (sizes the evidence).
    #[arg(long, requires = "endpoint", default_value_t = 8192)]
    pub endpoint_context: usize,
}

impl EndpointArgs {
    /// The endpoint's generator, checked (reachable, key accepted, model served), when one
    /// is named.
    pub fn connect(&self) -> Result<Option<EndpointGenerator>> {
        let Some(url) = &self.endpoint else { return Ok(None) };
        let settings = EndpointSettings {
            model: self.endpoint_model.clone(),
            api_key: std::env::var("PAGEWISE_API_KEY").ok(),
            context_tokens: self.endpoint_context,
            ..EndpointSettings::new(url.clone())
        };
        let generator = EndpointGenerator::connect(&settings).context("cannot use the endpoint")?;
        Ok(Some(generator))
    }
}
