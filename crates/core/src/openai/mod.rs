//! OpenAI-compatible servers: the one network feature, used only when the user names an
//! endpoint. Generation (and, when asked, passage vectors) go there; evidence, citations and
//! abstaining stay local.

mod chat;
mod embeddings;
mod http;
mod origin;
mod sse;

pub use chat::{estimate_tokens, list_models, EndpointGenerator};
pub use embeddings::{AwaitedEndpointEmbedder, EndpointEmbedder};
pub use http::EndpointSettings;
pub use origin::{key_may_travel_to, origin_of, BoundKey};
