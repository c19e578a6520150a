//! One OpenAI-compatible server as seen from here: its URLs, the API key, timeouts, and
//! retries with errors a user can act on (unreachable, refused key, unknown model, rate
//! limits). Retries happen only before a response body is read, so nothing is sent twice to
//! a caller.

use std::io::Read;
use std::time::Duration;

use serde_json::Value;

use super::sse::error_message;
use crate::netlog::{self, Purpose};

/// Where and how to reach a server.
#[derive(Debug, Clone)]
pub struct EndpointSettings {
    /// The server's base URL, with or without `/v1` (`http://127.0.0.1:8080`,
    /// `https://llm.example.com/v1`).
    pub url: String,
    /// The model to ask for; `None` takes the server's only model.
    pub model: Option<String>,
    /// Sent as a bearer token (`PAGEWISE_API_KEY`).
    pub api_key: Option<String>,
    /// Tokens the served model's context holds (servers rarely say); sizes the evidence.
    pub context_tokens: usize,
    /// How long to wait for the response to start (a busy server evaluates the prompt first).
    pub response_timeout: Duration,
    /// Tries after the first for connection failures, rate limits and server errors.
    pub retries: u32,
}

impl EndpointSettings {
    pub fn new(url: impl Into<String>) -> EndpointSettings {
        EndpointSettings {
            url: url.into(),
            model: None,
            api_key: None,
            context_tokens: 8192,
            response_timeout: Duration::from_secs(120),
            retries: 3,
        }
    }
}

pub(crate) struct Endpoint {
    base: String,
    api_key: Option<String>,
    retries: u32,
    agent: ureq::Agent,
    /// What this server is for, as the network log says it.
    purpose: Purpose,
}

/// The longest a streamed answer may take in all.
const BODY_TIMEOUT: Duration = Duration::from_secs(900);

impl Endpoint {
    /// `purpose` names the feature this server serves in the network log: the same server
    /// can write answers and list its models, and only the caller knows which it is doing.
    pub(crate) fn new(settings: &EndpointSettings, purpose: Purpose) -> Endpoint {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_connect(Some(Duration::from_secs(10)))
            .timeout_recv_response(Some(settings.response_timeout))
            .timeout_recv_body(Some(BODY_TIMEOUT))
            .http_status_as_error(false)
            .build()
            .into();
        let trimmed = settings.url.trim().trim_end_matches('/');
        let base = if trimmed.ends_with("/v1") { trimmed.to_string() } else { format!("{trimmed}/v1") };
        // Whoever built the settings chose the key for this server; a key still never goes out
        // in clear text off this computer.
        let api_key = settings.api_key.clone().filter(|k| !k.is_empty() && super::origin::key_may_travel_to(&base));
        Endpoint { base, api_key, retries: settings.retries, agent, purpose }
    }

    /// The server's address for messages (its base URL).
    pub(crate) fn base(&self) -> &str {
        &self.base
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.base)
    }

    pub(crate) fn get_json(&self, path: &str) -> Result<Value, String> {
        let url = self.url(path);
        let response = self.send("GET", &url, || {
            let request = self.agent.get(&url);
            match &self.api_key {
                Some(key) => request.header("Authorization", &format!("Bearer {key}")).call(),
                None => request.call(),
            }
        })?;
        read_json(response, &url)
    }

    pub(crate) fn post_json(&self, path: &str, body: &Value) -> Result<Value, String> {
        let url = self.url(path);
        let response = self.post(&url, body)?;
        read_json(response, &url)
    }

    /// Posts `body` and returns the response body to read as it arrives.
    pub(crate) fn post_stream(&self, path: &str, body: &Value) -> Result<impl Read + 'static, String> {
        let url = self.url(path);
        Ok(self.post(&url, body)?.into_body().into_reader())
    }

    fn post(&self, url: &str, body: &Value) -> Result<ureq::http::Response<ureq::Body>, String> {
        self.send("POST", url, || {
            let request = self.agent.post(url).header("Content-Type", "application/json");
            let text = body.to_string();
            match &self.api_key {
                Some(key) => request.header("Authorization", &format!("Bearer {key}")).send(text),
                None => request.send(text),
            }
        })
    }

    /// Sends with `call` (a `method` request to `url`), retrying what may pass.
    fn send(
        &self,
        method: &str,
        url: &str,
        call: impl Fn() -> Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<ureq::http::Response<ureq::Body>, String> {
        let mut attempt = 0;
        loop {
            let last = attempt >= self.retries;
            let wait = Duration::from_millis(500 << attempt.min(4));
            // Every try connects anew as far as the user can tell, so each is logged.
            netlog::record_url(self.purpose, method, url);
            match call() {
                Err(e) if last || !transient(&e) => return Err(describe_transport(url, &e, attempt)),
                Err(_) => std::thread::sleep(wait),
                Ok(response) if response.status().is_success() => return Ok(response),
                Ok(response) => {
                    let status = response.status().as_u16();
                    if last || !matches!(status, 429 | 500 | 502 | 503 | 504) {
                        return Err(describe_status(url, response, attempt));
                    }
                    // A server that says when to come back is believed, within reason.
                    let asked = response
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.trim().parse::<u64>().ok())
                        .map(|s| Duration::from_secs(s.min(10)));
                    std::thread::sleep(asked.unwrap_or(wait));
                }
            }
            attempt += 1;
        }
    }
}

fn transient(e: &ureq::Error) -> bool {
    matches!(e, ureq::Error::ConnectionFailed | ureq::Error::Io(_) | ureq::Error::Timeout(_))
}

fn tries(attempt: u32) -> String {
    if attempt == 0 { String::new() } else { format!(" after {} tries", attempt + 1) }
}

fn describe_transport(url: &str, e: &ureq::Error, attempt: u32) -> String {
    match e {
        ureq::Error::Timeout(_) => format!("{url} did not answer in time{}", tries(attempt)),
        ureq::Error::ConnectionFailed | ureq::Error::HostNotFound | ureq::Error::Io(_) => {
            format!("cannot reach {url}{} ({e}); is the server running, and is the URL right?", tries(attempt))
        }
        other => format!("{url}: {other}"),
    }
}

fn describe_status(url: &str, response: ureq::http::Response<ureq::Body>, attempt: u32) -> String {
    let status = response.status().as_u16();
    let mut text = String::new();
    let _ = response.into_body().into_reader().take(64 * 1024).read_to_string(&mut text);
    let said = serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| v.get("error").map(error_message))
        .unwrap_or_else(|| text.trim().chars().take(200).collect());
    let said = if said.is_empty() { String::new() } else { format!(": {said}") };
    match status {
        401 | 403 if !super::origin::key_may_travel_to(url) => {
            format!("{url} refused the request (HTTP {status}{said}); an API key is sent only over https, or over http to this computer")
        }
        401 | 403 => format!("{url} refused the API key (HTTP {status}{said}); set PAGEWISE_API_KEY to a key it accepts"),
        404 => format!("{url} was not found (HTTP 404{said}); check the URL (the server's base, such as http://127.0.0.1:8080/v1) and the model name"),
        429 => format!("{url} is limiting requests (HTTP 429{said}){}", tries(attempt)),
        _ => format!("{url} answered HTTP {status}{said}{}", tries(attempt)),
    }
}

fn read_json(response: ureq::http::Response<ureq::Body>, url: &str) -> Result<Value, String> {
    let mut text = String::new();
    response
        .into_body()
        .into_reader()
        .take(256 << 20)
        .read_to_string(&mut text)
        .map_err(|e| format!("{url}: the answer broke off ({e})"))?;
    serde_json::from_str(&text).map_err(|e| format!("{url}: the answer is not JSON ({e})"))
}
