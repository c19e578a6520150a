//! API keys are bound to the server they were given for. A key stored for one origin
//! (`https://api.example.com`) is sent only there — never to the embedding server, a URL typed
//! before "Find models", or a redirect — and never in clear text, except to this computer.

use ureq::http::Uri;

/// `scheme://host:port`, lower-cased, with the scheme's default port written out, so
/// `https://API.example.com/v1` and `https://api.example.com:443` are one origin.
pub fn origin_of(url: &str) -> Option<String> {
    let uri: Uri = url.trim().parse().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "https" => 443,
        "http" => 80,
        _ => return None,
    };
    let host = uri.host()?.to_ascii_lowercase();
    let port = uri.port_u16().unwrap_or(default_port);
    Some(format!("{scheme}://{host}:{port}"))
}

/// Whether a key may travel to `url` at all: over https, or over http only to this computer.
pub fn key_may_travel_to(url: &str) -> bool {
    let Ok(uri) = url.trim().parse::<Uri>() else { return false };
    match uri.scheme_str().map(str::to_ascii_lowercase).as_deref() {
        Some("https") => true,
        Some("http") => uri.host().is_some_and(is_loopback),
        _ => false,
    }
}

fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// A key and the origin it was given for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundKey {
    pub origin: String,
    pub key: String,
}

impl BoundKey {
    /// Binds `key` to the origin of `url`; `None` when `url` has no http(s) origin.
    pub fn for_url(url: &str, key: &str) -> Option<BoundKey> {
        Some(BoundKey { origin: origin_of(url)?, key: key.to_string() })
    }

    /// The key to send with a request to `url`: only to its own origin, and only where a key
    /// may travel.
    pub fn to_send(&self, url: &str) -> Option<String> {
        (origin_of(url).as_deref() == Some(self.origin.as_str()) && key_may_travel_to(url) && !self.key.is_empty()).then(|| self.key.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_ignore_case_paths_and_default_ports() {
        assert_eq!(origin_of("https://API.example.com/v1").as_deref(), Some("https://api.example.com:443"));
        assert_eq!(origin_of("https://api.example.com:443"), origin_of("https://api.example.com/v1/"));
        assert_ne!(origin_of("http://api.example.com"), origin_of("https://api.example.com"));
        assert_ne!(origin_of("http://127.0.0.1:8080"), origin_of("http://127.0.0.1:8081"));
        assert_eq!(origin_of("ftp://x"), None);
        assert_eq!(origin_of("not a url"), None);
    }

    #[test]
    fn a_key_goes_only_to_its_origin_and_never_in_clear_text_off_this_computer() {
        let cloud = BoundKey::for_url("https://llm.example.com/v1", "sk-cloud").unwrap();
        assert_eq!(cloud.to_send("https://llm.example.com/v1/models").as_deref(), Some("sk-cloud"));
        assert_eq!(cloud.to_send("https://llm.example.com:8443/v1"), None, "another port is another server");
        assert_eq!(cloud.to_send("http://192.168.1.20:8080/v1"), None, "the LAN embedding server gets nothing");
        assert_eq!(cloud.to_send("https://llm.example.com.evil.net/v1"), None);
        let lan = BoundKey::for_url("http://192.168.1.20:8080", "sk-lan").unwrap();
        assert_eq!(lan.to_send("http://192.168.1.20:8080/v1"), None, "no key over http off this computer");
        let local = BoundKey::for_url("http://127.0.0.1:8080", "sk-local").unwrap();
        assert_eq!(local.to_send("http://127.0.0.1:8080/v1").as_deref(), Some("sk-local"));
        assert!(key_may_travel_to("http://localhost:1234") && key_may_travel_to("http://[::1]:1234"));
    }
}
