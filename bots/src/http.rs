//! A tiny HTTP/1.1 client for the lobby API: one request per connection, JSON bodies. Enough for
//! tests and the load generator without pulling in a full HTTP client.

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Sends one request; returns the status and the body.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<(u16, String), String> {
    request_as(addr, method, path, body, None).await
}

/// [`request`] with a bearer token (the director's or the referee's).
pub async fn request_as(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    bearer: Option<&str>,
) -> Result<(u16, String), String> {
    let mut stream = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    let body = body.unwrap_or("");
    let auth = bearer
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let failed = |e: std::io::Error| format!("{method} {path}: {e}");
    stream.write_all(head.as_bytes()).await.map_err(failed)?;
    stream.write_all(body.as_bytes()).await.map_err(failed)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.map_err(failed)?;
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("no HTTP response head: {text:?}"))?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line: {head:?}"))?;
    let chunked = head.lines().any(|l| {
        l.to_ascii_lowercase()
            .starts_with("transfer-encoding: chunked")
    });
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Ok((status, body))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// POSTs JSON and parses a JSON answer of a 2xx status; other statuses are errors with the body.
pub async fn post_json<T: serde::de::DeserializeOwned>(
    addr: SocketAddr,
    path: &str,
    body: &serde_json::Value,
) -> Result<T, String> {
    let (status, text) = request(addr, "POST", path, Some(&body.to_string())).await?;
    if !(200..300).contains(&status) {
        return Err(format!("{status}: {text}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))
}

/// GETs and parses a JSON answer of a 2xx status; other statuses are errors with the body.
pub async fn get_json<T: serde::de::DeserializeOwned>(
    addr: SocketAddr,
    path: &str,
) -> Result<T, String> {
    let (status, text) = request(addr, "GET", path, None).await?;
    if !(200..300).contains(&status) {
        return Err(format!("{status}: {text}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn dechunks() {
        assert_eq!(super::dechunk("3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"), "abcde");
    }
}
