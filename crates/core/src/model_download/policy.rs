//! Which addresses a download may use: the scheme of the first URL, and where a redirect
//! may lead. Refusals are plain reasons; the caller wraps them with the URL the user gave.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};

use ureq::http::Uri;

/// More than this many redirects is a loop or a trap, not a mirror.
pub(super) const MAX_REDIRECTS: usize = 5;

/// The first URL, parsed, when it may be fetched: https, or http only when the file's
/// sha256 is known (on plain http anyone on the way could swap the bytes).
pub(super) fn check_first_url(url: &str, has_sha256: bool) -> Result<Uri, String> {
    let uri: Uri = url.parse().map_err(|e| format!("not a usable address ({e})"))?;
    match uri.scheme_str() {
        Some("https") => {}
        Some("http") if has_sha256 => {}
        Some("http") => {
            return Err("a plain http:// download could be altered on the way: use https://, or give the file's sha256 \
                        so that it is checked"
                .into())
        }
        _ => return Err("only https:// addresses (or http:// with a sha256) can be downloaded".into()),
    }
    if host(&uri).is_none_or(str::is_empty) {
        return Err("the address names no host".into());
    }
    Ok(uri)
}

/// The host without the brackets an IPv6 literal has in a URL.
pub(super) fn host(uri: &Uri) -> Option<&str> {
    let host = uri.host()?;
    Some(host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host))
}

pub(super) fn port(uri: &Uri) -> u16 {
    uri.port_u16().unwrap_or(if uri.scheme_str() == Some("http") { 80 } else { 443 })
}

/// Every address `uri`'s host resolves to (an IP literal resolves to itself).
pub(super) fn resolve(uri: &Uri) -> Result<Vec<SocketAddr>, String> {
    let host = host(uri).ok_or_else(|| format!("{uri} names no host"))?;
    let addrs: Vec<SocketAddr> = (host, port(uri)).to_socket_addrs().map_err(|e| format!("cannot resolve {host} ({e})"))?.collect();
    if addrs.is_empty() {
        return Err(format!("{host} resolves to no address"));
    }
    Ok(addrs)
}

/// Where a redirect's Location points, read against the URL that answered with it.
pub(super) fn resolve_location(base: &Uri, location: &str) -> Result<Uri, String> {
    let location = location.trim();
    let location = location.split('#').next().unwrap_or(location);
    let scheme = base.scheme_str().unwrap_or("https");
    let authority = base.authority().map(|a| a.as_str()).unwrap_or("");
    let absolute = if has_scheme(location) {
        location.to_string()
    } else if location.starts_with("//") {
        format!("{scheme}:{location}")
    } else if location.starts_with('?') {
        format!("{scheme}://{authority}{}{location}", base.path())
    } else {
        let path = base.path();
        let joined = if location.starts_with('/') { location.to_string() } else { format!("{}{location}", &path[..path.rfind('/').map_or(0, |i| i + 1)]) };
        let (path, query) = joined.split_once('?').map_or((joined.as_str(), None), |(p, q)| (p, Some(q)));
        let path = remove_dot_segments(path);
        let path = if path.starts_with('/') { path } else { format!("/{path}") };
        match query {
            Some(query) => format!("{scheme}://{authority}{path}?{query}"),
            None => format!("{scheme}://{authority}{path}"),
        }
    };
    let uri: Uri = absolute.parse().map_err(|e| format!("the server redirected to an unusable address {location:?} ({e})"))?;
    if uri.scheme().is_none() || host(&uri).is_none_or(str::is_empty) {
        return Err(format!("the server redirected to an unusable address {location:?}"));
    }
    Ok(uri)
}

/// RFC 3986 5.2.4: `a/./b/../c` is `a/c`; `..` never climbs above the root.
fn remove_dot_segments(path: &str) -> String {
    let segments: Vec<&str> = path.split('/').collect();
    let mut out: Vec<&str> = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *segment {
            "." => {}
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
            }
            other => {
                out.push(other);
                continue;
            }
        }
        // A path ending in `.` or `..` names a folder: it keeps its trailing slash.
        if last {
            out.push("");
        }
    }
    out.join("/")
}

/// RFC 3986: a scheme is a letter, then letters, digits, `+`, `-` or `.`, then `:`.
fn has_scheme(reference: &str) -> bool {
    let Some((scheme, _)) = reference.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

/// Whether a redirect from `from` to `to` may be followed. `resolved` holds every address
/// `to`'s host resolves to; one private or local address among them is enough to refuse,
/// since the connection may use any of them. A first URL that was itself private (a mirror
/// on the local network) lets its redirects stay there.
pub(super) fn redirect_allowed(from: &Uri, to: &Uri, first_was_private: bool, resolved: &[IpAddr]) -> Result<(), String> {
    redirect_scheme_allowed(from, to)?;
    if first_was_private {
        return Ok(());
    }
    if resolved.is_empty() {
        return Err(format!("refused a redirect to {to}: its host resolves to no address"));
    }
    if let Some(ip) = resolved.iter().find(|ip| !is_public(**ip)) {
        return Err(format!("refused a redirect to {to}: it leads to {ip}, a private or local address"));
    }
    Ok(())
}

/// The part of [`redirect_allowed`] that needs no lookup, so that a refused scheme is
/// reported as such rather than as a name that does not resolve.
pub(super) fn redirect_scheme_allowed(from: &Uri, to: &Uri) -> Result<(), String> {
    match (from.scheme_str(), to.scheme_str()) {
        (_, Some("https")) => Ok(()),
        (Some("https"), Some("http")) => Err(format!("refused a redirect from https to plain http ({to})")),
        (_, Some("http")) => Ok(()),
        _ => Err(format!("refused a redirect to {to}: only http and https are followed")),
    }
}

/// Whether `ip` is an ordinary address on the internet, not one of this machine's, the local
/// network's, or a reserved range a redirect could use to reach them.
pub(super) fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public_v4(v4);
            }
            let s = v6.segments();
            let embedded = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
            // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the IPv4 address they embed.
            if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                return is_public_v4(embedded(s[6], s[7]));
            }
            if s[0] == 0x2002 {
                return is_public_v4(embedded(s[1], s[2]));
            }
            // ::/96 holds ::, ::1 and the deprecated IPv4-compatible addresses.
            let ipv4_compatible = s[..6] == [0; 6];
            let site_local = s[0] & 0xffc0 == 0xfec0;
            !(ipv4_compatible
                || v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_unique_local()
                || v6.is_unicast_link_local()
                || site_local
                || v6.is_multicast())
        }
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    let this_network = a == 0;
    let shared = a == 100 && (b & 0xc0) == 64;
    let protocol_assignments = a == 192 && b == 0 && c == 0;
    let reserved = a >= 240;
    !(ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || this_network
        || shared
        || protocol_assignments
        || reserved)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(s: &str) -> Uri {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn http_needs_a_sha256_and_other_schemes_are_refused() {
        assert!(check_first_url("https://h/m.gguf", false).is_ok());
        assert!(check_first_url("http://h/m.gguf", true).is_ok());
        let refused = check_first_url("http://h/m.gguf", false).unwrap_err();
        assert!(refused.contains("https://") && refused.contains("sha256"), "{refused}");
        assert!(check_first_url("file:///etc/passwd", true).is_err());
        assert!(check_first_url("ftp://h/m.gguf", true).is_err());
        assert!(check_first_url("not a url", true).is_err());
    }

    #[test]
    fn private_local_and_reserved_addresses_are_not_public() {
        for private in [
            "127.0.0.1",
            "127.8.9.10",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "0.1.2.3",
            "100.64.0.1",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "ff02::1",
        ] {
            assert!(!is_public(ip(private)), "{private} counts as public");
        }
        for public in ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"] {
            assert!(is_public(ip(public)), "{public} counts as private");
        }
    }

    #[test]
    fn redirects_keep_to_https_and_public_addresses() {
        let public = [ip("93.184.216.34")];
        let ok = |from: &str, to: &str, first_private: bool, resolved: &[IpAddr]| redirect_allowed(&uri(from), &uri(to), first_private, resolved);
        assert!(ok("https://a/m.gguf", "https://cdn/m.gguf", false, &public).is_ok());
        assert!(ok("http://a/m.gguf", "https://cdn/m.gguf", false, &public).is_ok());
        assert!(ok("http://a/m.gguf", "http://cdn/m.gguf", false, &public).is_ok());
        let down = ok("https://a/m.gguf", "http://cdn/m.gguf", false, &public).unwrap_err();
        assert!(down.contains("https to plain http"), "{down}");
        // Not even a private first URL may step down to http.
        assert!(ok("https://10.0.0.2/m.gguf", "http://10.0.0.2/m.gguf", true, &[ip("10.0.0.2")]).is_err());
        assert!(ok("https://a/m.gguf", "ftp://cdn/m.gguf", false, &public).is_err());

        for private in ["127.0.0.1", "::1", "10.0.0.1", "169.254.169.254", "fe80::1", "0.0.0.0", "::"] {
            let err = ok("https://a/m.gguf", "https://cdn/m.gguf", false, &[ip(private)]).unwrap_err();
            assert!(err.contains("private or local"), "{private}: {err}");
            // One bad address among good ones is enough: the connection may pick it.
            assert!(ok("https://a/m.gguf", "https://cdn/m.gguf", false, &[public[0], ip(private)]).is_err(), "{private}");
            assert!(ok("https://192.168.0.5/m.gguf", "https://cdn/m.gguf", true, &[ip(private)]).is_ok(), "{private}");
        }
        assert!(ok("https://a/m.gguf", "https://cdn/m.gguf", false, &[]).is_err());
    }

    #[test]
    fn a_name_that_resolves_to_loopback_is_refused() {
        let to = uri("https://localhost:1/m.gguf");
        let resolved: Vec<IpAddr> = resolve(&to).unwrap_or_else(|e| panic!("{e}")).iter().map(|a| a.ip()).collect();
        assert!(resolved.iter().all(|ip| ip.is_loopback()), "{resolved:?}");
        let err = redirect_allowed(&uri("https://example.org/m.gguf"), &to, false, &resolved).unwrap_err();
        assert!(err.contains("private or local"), "{err}");
        // Numeric spellings resolve to what they mean.
        let v6 = uri("https://[::1]:1/m.gguf");
        assert_eq!(host(&v6), Some("::1"));
        assert!(resolve(&v6).unwrap_or_else(|e| panic!("{e}")).iter().all(|a| a.ip().is_loopback()));
    }

    #[test]
    fn locations_are_read_against_the_url_that_sent_them() {
        let base = uri("https://hf.co/org/repo/resolve/main/m.gguf?download=true");
        let at = |loc: &str| resolve_location(&base, loc).map(|u| u.to_string()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(at("https://cdn.example/x/m.gguf?sig=1"), "https://cdn.example/x/m.gguf?sig=1");
        assert_eq!(at("//cdn.example/m.gguf"), "https://cdn.example/m.gguf");
        assert_eq!(at("/api/m.gguf"), "https://hf.co/api/m.gguf");
        assert_eq!(at("other.gguf"), "https://hf.co/org/repo/resolve/main/other.gguf");
        assert_eq!(at("../../x/./m.gguf?a=1"), "https://hf.co/org/repo/x/m.gguf?a=1");
        assert_eq!(at("/a/b/../../../../m.gguf"), "https://hf.co/m.gguf");
        assert_eq!(at("/a/b/.."), "https://hf.co/a/");
        assert_eq!(at("?download=false"), "https://hf.co/org/repo/resolve/main/m.gguf?download=false");
        assert_eq!(at("http://[::1]:8080/m.gguf#frag"), "http://[::1]:8080/m.gguf");
        assert!(resolve_location(&base, "https:///nohost").is_err());
    }
}
