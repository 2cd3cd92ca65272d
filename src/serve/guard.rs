//! Who may drive the playground: every request passes three checks before any handler runs, so
//! that a web page the designer happens to visit cannot read or write the levels.
//!
//! 1. **Host.** The `Host` header must be an IP address, `localhost` (or a name under
//!    `.localhost`, which browsers resolve to loopback themselves), or a name given with
//!    `--allow-host`, as Vite allows by default. A page on a domain that resolves to 127.0.0.1
//!    (DNS rebinding) sends its own domain name here and is refused; an IP address cannot be
//!    rebound.
//! 2. **Origin.** A request that carries `Origin` must come from the page's own origin
//!    (`http://` and the `Host` it was sent to); a fetch from another site's page, `null`
//!    origins included, is refused. API requests that a browser marks `Sec-Fetch-Site:
//!    cross-site` or `same-site` are refused too.
//! 3. **Token.** Every `/api/` request carries the random token printed in the start-up URL
//!    (`?token=…`), in the `X-Modsolve-Token` header or a `token` query parameter, as Jupyter
//!    does; `--no-token` turns this check off (the Host and Origin checks stay).
//!
//! A refused request is answered 403 with the error document (kind `forbidden`) before its body
//! is read: nothing is listed, read or written for it.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{ApiError, Shared};
use crate::kind::Kind;

/// The header the page sends its token in.
pub const TOKEN_HEADER: &str = "x-modsolve-token";

/// A fresh random token: 24 bytes from the thread's cryptographic generator (seeded by the
/// operating system), as 48 hexadecimal digits.
pub fn new_token() -> String {
    let bytes: [u8; 24] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the checks accept.
#[derive(Clone, Debug)]
pub(crate) struct Guard {
    /// Host names (lower case, no port) accepted besides IP addresses and `localhost`.
    pub(crate) hosts: Vec<String>,
    /// The API token, or `None` when the API is open to every request that passes Host and
    /// Origin.
    pub(crate) token: Option<String>,
}

impl Guard {
    /// Whether a `Host` header value names this server.
    fn host_allowed(&self, host: &str) -> bool {
        let name = host_name(host).to_ascii_lowercase();
        let name = name.strip_suffix('.').unwrap_or(&name);
        if name == "localhost" || name.ends_with(".localhost") || self.hosts.iter().any(|h| h == name) {
            return true;
        }
        let literal = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name);
        literal.parse::<IpAddr>().is_ok()
    }

    /// Why the request is refused, or `None` when it may go on.
    fn refusal(&self, headers: &HeaderMap, path: &str, query: Option<&str>) -> Option<String> {
        let Some(host) = single(headers, header::HOST.as_str()) else {
            return Some("the request has no single Host header".into());
        };
        if !self.host_allowed(host) {
            return Some(format!(
                "the Host `{host}` is not this server's: open the playground at the address `modsolve serve` printed (or start it with --allow-host NAME)"
            ));
        }
        for origin in headers.get_all(header::ORIGIN) {
            let own = origin.to_str().is_ok_and(|o| o.eq_ignore_ascii_case(&format!("http://{host}")));
            if !own {
                let shown = origin.to_str().unwrap_or("(not text)");
                return Some(format!("a request from another site's page (Origin `{shown}`) is refused"));
            }
        }
        if !path.starts_with("/api/") {
            return None;
        }
        let site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
        if let Some(site @ ("cross-site" | "same-site")) = site {
            return Some(format!("a request from another site's page (Sec-Fetch-Site `{site}`) is refused"));
        }
        let expected = self.token.as_deref()?;
        let given = match headers.get_all(TOKEN_HEADER).iter().count() {
            0 => query_token(query.unwrap_or("")),
            _ => single(headers, TOKEN_HEADER).or(Some("")),
        };
        match given {
            Some(given) if same(given.as_bytes(), expected.as_bytes()) => None,
            Some(_) => Some("the token is not this server's: open the URL `modsolve serve` printed".into()),
            None => Some(
                "the API needs the token of the URL `modsolve serve` printed (?token=…; or start it with --no-token)"
                    .into(),
            ),
        }
    }
}

/// The value of a header given exactly once, as text.
fn single<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    let mut values = headers.get_all(name).iter();
    match (values.next(), values.next()) {
        (Some(value), None) => value.to_str().ok(),
        _ => None,
    }
}

/// The host part of a `Host` header value: `name`, `name:port`, `[v6]` or `[v6]:port`.
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    match host.rsplit_once(':') {
        // A bare IPv6 address has several colons and no port.
        Some((name, port)) if !name.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// The value of `token=` in a query string (tokens are hexadecimal, so no decoding is needed).
fn query_token(query: &str) -> Option<&str> {
    query.split('&').find_map(|pair| pair.strip_prefix("token="))
}

/// Equality that takes the same time wherever the first difference is.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The middleware: 403 with the reason, or the next handler. Every answer also says
/// `Referrer-Policy: no-referrer` (the page's URL holds the token) and `nosniff`.
pub(crate) async fn check(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let uri = request.uri();
    let refusal = shared.guard.refusal(request.headers(), uri.path(), uri.query());
    let mut response = match refusal {
        Some(message) => {
            unread(ApiError::new(StatusCode::FORBIDDEN, Kind::Forbidden, message).into_response())
        }
        None => match next.run(request).await {
            // A body over the limit was read only up to the limit.
            too_large if too_large.status() == StatusCode::PAYLOAD_TOO_LARGE => unread(too_large),
            response => response,
        },
    };
    let headers = response.headers_mut();
    headers.insert(header::REFERRER_POLICY, header::HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, header::HeaderValue::from_static("nosniff"));
    response
}

/// A refusal sent before the request's body was read: it says `Connection: close`, so that a
/// client does not send its next request on a connection the server is about to drop with the
/// unread body still in it.
pub(crate) fn unread(mut response: Response) -> Response {
    response.headers_mut().insert(header::CONNECTION, header::HeaderValue::from_static("close"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(token: Option<&str>) -> Guard {
        Guard { hosts: vec!["studio.lan".into()], token: token.map(str::to_string) }
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn hosts_of_this_server_pass_and_others_do_not() {
        let g = guard(None);
        for host in [
            "localhost",
            "LOCALHOST:8117",
            "localhost.:80",
            "127.0.0.1:8117",
            "127.1.2.3",
            "[::1]:8117",
            "[::ffff:127.0.0.1]:9",
            "10.0.0.1:8117",
            "[::2]",
            "level.localhost:8117",
            "studio.lan:8117",
        ] {
            assert!(g.host_allowed(host), "{host}");
        }
        for host in [
            "evil.example:8117",
            "localhost.evil.example",
            "127.0.0.1.nip.io",
            "",
            "studio.lan.evil",
            "[evil]",
        ] {
            assert!(!g.host_allowed(host), "{host}");
        }
    }

    #[test]
    fn origin_must_be_the_pages_own() {
        let g = guard(None);
        let ok = headers(&[("host", "127.0.0.1:8117"), ("origin", "http://127.0.0.1:8117")]);
        assert_eq!(g.refusal(&ok, "/api/save", None), None);
        for origin in ["http://evil.example", "null", "http://127.0.0.1:9999", "https://127.0.0.1:8117"] {
            let h = headers(&[("host", "127.0.0.1:8117"), ("origin", origin)]);
            assert!(g.refusal(&h, "/api/save", None).unwrap().contains("another site"), "{origin}");
        }
        let cross = headers(&[("host", "127.0.0.1:8117"), ("sec-fetch-site", "cross-site")]);
        assert!(g.refusal(&cross, "/api/files", None).is_some());
        // A link followed to the page itself is fine; only the API is refused.
        assert_eq!(g.refusal(&cross, "/", None), None);
        assert!(g.refusal(&HeaderMap::new(), "/", None).unwrap().contains("no single Host"));
    }

    #[test]
    fn the_api_needs_the_token_and_the_page_does_not() {
        let token = new_token();
        assert_eq!(token.len(), 48);
        assert_ne!(token, new_token());
        let g = guard(Some(&token));
        let plain = headers(&[("host", "localhost:8117")]);
        assert_eq!(g.refusal(&plain, "/", None), None);
        assert_eq!(g.refusal(&plain, "/app.js", Some("token=wrong")), None);
        assert!(g.refusal(&plain, "/api/files", None).unwrap().contains("needs the token"));
        assert!(g.refusal(&plain, "/api/files", Some("token=abc")).unwrap().contains("not this server's"));
        assert_eq!(g.refusal(&plain, "/api/svg", Some(&format!("path=a.ron&token={token}"))), None);
        let with = headers(&[("host", "localhost:8117"), ("x-modsolve-token", &token)]);
        assert_eq!(g.refusal(&with, "/api/files", None), None);
        let wrong = headers(&[("host", "localhost:8117"), ("x-modsolve-token", &token[1..])]);
        assert!(g.refusal(&wrong, "/api/files", None).is_some());
        let mut twice = with.clone();
        twice.append("x-modsolve-token", "00".parse().unwrap());
        assert!(g.refusal(&twice, "/api/files", None).is_some());
        let mut two_hosts = with.clone();
        two_hosts.append("host", "attacker.example".parse().unwrap());
        assert!(g.refusal(&two_hosts, "/api/files", None).is_some());
        assert_eq!(guard(None).refusal(&plain, "/api/files", None), None);
    }
}
