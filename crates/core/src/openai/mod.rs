//! OpenAI-compatible servers: the one network feature, used only when the user names an
//! endpoint. Generation goes there; evidence, citations and abstaining stay local.

mod chat;
mod http;
mod sse;

pub use chat::{estimate_tokens, list_models, EndpointGenerator};
pub use http::EndpointSettings;
