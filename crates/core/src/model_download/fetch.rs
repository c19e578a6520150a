//! One GET, with its redirects followed by hand so that each hop is checked against
//! [`policy`] before anything connects to it.

use std::net::SocketAddr;
use std::time::Duration;

use ureq::http::{Response, Uri};
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};
use ureq::Body;

use super::policy::{self, MAX_REDIRECTS};
use crate::netlog::{self, Purpose};

/// What to ask for when part of the file is already here.
pub(super) struct Resume<'a> {
    pub from: u64,
    /// The ETag or Last-Modified the part was downloaded under.
    pub validator: Option<&'a str>,
}

/// GETs `first`, following at most [`MAX_REDIRECTS`] redirects that [`policy::redirect_allowed`]
/// lets through. Returns the first answer that is not a redirect.
pub(super) fn get(first: &Uri, resume: Option<&Resume>) -> Result<Response<Body>, String> {
    // A first URL on the local network (a mirror the user chose) may redirect within it.
    let first_was_private = policy::resolve(first).is_ok_and(|addrs| addrs.iter().any(|a| !policy::is_public(a.ip())));
    let mut current = first.clone();
    let mut pin = None;
    let mut hops = 0;
    loop {
        let agent = agent(pin.take());
        // Identity encoding: byte ranges must count the file's own bytes.
        let mut call = agent.get(current.clone()).header("Accept-Encoding", "identity");
        if let Some(resume) = resume {
            call = call.header("Range", format!("bytes={}-", resume.from));
            if let Some(validator) = resume.validator {
                call = call.header("If-Range", validator);
            }
        }
        // Each hop is its own connection, possibly to another host: each is logged.
        netlog::record(Purpose::ModelDownload, "GET", &current);
        let response = call.call().map_err(|e| format!("cannot reach {} ({e})", host_of(&current)))?;
        if !matches!(response.status().as_u16(), 301 | 302 | 303 | 307 | 308) {
            return Ok(response);
        }
        if hops == MAX_REDIRECTS {
            return Err(format!("more than {MAX_REDIRECTS} redirects; the last pointed away from {current}"));
        }
        hops += 1;
        let location = response
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| format!("{current} redirected without saying where to"))?;
        let next = policy::resolve_location(&current, location)?;
        policy::redirect_scheme_allowed(&current, &next)?;
        let addrs = if first_was_private { Vec::new() } else { policy::resolve(&next)? };
        let ips: Vec<_> = addrs.iter().map(|a| a.ip()).collect();
        policy::redirect_allowed(&current, &next, first_was_private, &ips)?;
        if !addrs.is_empty() {
            // Connect to exactly the addresses just checked: a second lookup could answer
            // differently (DNS rebinding).
            pin = Some(Pin { host: policy::host(&next).unwrap_or("").to_ascii_lowercase(), port: policy::port(&next), addrs });
        }
        current = next;
    }
}

fn host_of(uri: &Uri) -> &str {
    policy::host(uri).unwrap_or("the server")
}

fn agent(pin: Option<Pin>) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(15)))
        .timeout_recv_response(Some(Duration::from_secs(60)))
        .http_status_as_error(false)
        .max_redirects(0)
        .build();
    ureq::Agent::with_parts(config, DefaultConnector::default(), PinnedResolver { pin })
}

/// The checked addresses of one redirect target.
#[derive(Debug)]
struct Pin {
    host: String,
    port: u16,
    addrs: Vec<SocketAddr>,
}

/// Answers with the pinned addresses for the pinned host; anything else (a proxy's own
/// name, or the first URL, which the user chose) is looked up as usual.
#[derive(Debug)]
struct PinnedResolver {
    pin: Option<Pin>,
}

impl Resolver for PinnedResolver {
    fn resolve(&self, uri: &Uri, config: &ureq::config::Config, timeout: NextTimeout) -> Result<ResolvedSocketAddrs, ureq::Error> {
        match &self.pin {
            Some(pin) if policy::host(uri).is_some_and(|h| h.eq_ignore_ascii_case(&pin.host)) && policy::port(uri) == pin.port => {
                let mut out = self.empty();
                // The resolver keeps at most 16 addresses; every one of them was checked.
                for addr in &pin.addrs {
                    if out.try_push(*addr).is_err() {
                        break;
                    }
                }
                Ok(out)
            }
            _ => DefaultResolver::default().resolve(uri, config, timeout),
        }
    }
}
