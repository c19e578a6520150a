//! OpenAI-compatible servers, the wire side: requests with the user's key bound to its origin,
//! server-sent events, and the models a server serves. The generator that talks to an answer
//! server is `answer::endpoint_generator`, the embedder that talks to an embedding
//! server `embed::endpoint_embedder`; both are used only when the user names an endpoint. Evidence, citations
//! and abstaining stay local.

mod http;
mod models;
mod origin;
pub(crate) mod sse;

pub(crate) use http::Endpoint;
pub use http::EndpointSettings;
pub use models::list_models;
pub(crate) use models::{choose_model, failed};
pub use origin::{key_may_travel_to, origin_of, BoundKey};
