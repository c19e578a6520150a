//! What models a server serves (`GET /v1/models`), for the answer server and the embedding
//! server alike.

use serde_json::Value;

use super::http::{Endpoint, EndpointSettings};
use crate::error::{Error, Result};
use crate::netlog::Purpose;

/// The model names the server offers (`GET /v1/models`).
pub fn list_models(settings: &EndpointSettings) -> Result<Vec<String>> {
    let endpoint = Endpoint::new(settings, Purpose::ServerModels);
    models_of(&endpoint)
}

fn models_of(endpoint: &Endpoint) -> Result<Vec<String>> {
    let listed = endpoint.get_json("models").map_err(|message| failed(endpoint, message))?;
    let names = listed
        .get("data")
        .and_then(Value::as_array)
        .map(|models| models.iter().filter_map(|m| m.get("id").and_then(Value::as_str)).map(str::to_string).collect())
        .unwrap_or_default();
    Ok(names)
}

/// The model named in `settings` if the server serves it, or the server's only model.
pub(crate) fn choose_model(endpoint: &Endpoint, settings: &EndpointSettings) -> Result<String> {
    let served = models_of(endpoint)?;
    match &settings.model {
        // Some servers list nothing or only aliases; an empty list is not a refusal.
        Some(name) if served.is_empty() || served.iter().any(|s| s == name) => Ok(name.clone()),
        Some(name) => Err(failed(endpoint, format!("serves no model named {name} (it serves: {})", served.join(", ")))),
        None => match served.as_slice() {
            [only] => Ok(only.clone()),
            [] => Err(failed(endpoint, "lists no models; name one with --endpoint-model".into())),
            many => Err(failed(endpoint, format!("serves several models; name one with --endpoint-model ({})", many.join(", ")))),
        },
    }
}

pub(crate) fn failed(endpoint: &Endpoint, message: String) -> Error {
    Error::Endpoint { url: endpoint.base().to_string(), message }
}
