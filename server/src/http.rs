//! HTTP: the lobby API (`/api/...`), the WebSocket upgrade (`/ws/{table}`), and the web client
//! as static files from `web-client/`.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use protocol::{codes, CreateTable, JoinSeat, LeaveSeat, Problem};
use tokio::sync::Semaphore;

use crate::connection::{self, Conn};
use crate::limits::Limits;
use crate::lobby::{Lobby, Refusal};
use crate::shutdown::Shutdown;

/// Shared by every request.
pub struct App {
    pub lobby: Arc<Lobby>,
    pub limits: Arc<Limits>,
    /// The web client's directory.
    pub web: PathBuf,
    /// Allowed browser origins besides the server's own host; `*` allows any.
    pub allow_origins: Vec<String>,
    /// The connection cap: one permit per WebSocket.
    pub connections: Arc<Semaphore>,
    /// Cloned into each connection (it also keeps the server's shutdown waiting for them).
    pub shutdown: Shutdown,
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/tables", get(list).post(create))
        .route("/api/tables/{id}", get(one))
        .route("/api/tables/{id}/join", post(join))
        .route("/api/tables/{id}/leave", post(leave))
        .route("/ws/{id}", get(ws))
        .fallback(get(static_file))
        .layer(DefaultBodyLimit::max(8 * 1024))
        .with_state(app)
}

fn problem(status: u16, p: Problem) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    (status, Json(p)).into_response()
}

fn refused(r: Refusal) -> Response {
    problem(r.0, r.1)
}

/// Parses a JSON body ourselves, so a bad body gets a [`Problem`] like everything else.
fn body<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Box<Response>> {
    serde_json::from_str(text).map_err(|e| {
        Box::new(problem(
            400,
            Problem::new(
                codes::BAD_REQUEST,
                format!("请求有误：{e}"),
                format!("bad request: {e}"),
            ),
        ))
    })
}

async fn list(State(app): State<Arc<App>>) -> Response {
    Json(app.lobby.list()).into_response()
}

async fn one(State(app): State<Arc<App>>, UrlPath(id): UrlPath<String>) -> Response {
    match app.lobby.summary(&id) {
        Some(s) => Json(s).into_response(),
        None => problem(
            404,
            Problem::new(codes::NO_TABLE, "没有这张牌桌", "no such table"),
        ),
    }
}

async fn create(State(app): State<Arc<App>>, text: String) -> Response {
    let req: CreateTable = match body(&text) {
        Ok(r) => r,
        Err(resp) => return *resp,
    };
    match app.lobby.create(req).await {
        Ok(summary) => (StatusCode::CREATED, Json(summary)).into_response(),
        Err(r) => refused(r),
    }
}

async fn join(State(app): State<Arc<App>>, UrlPath(id): UrlPath<String>, text: String) -> Response {
    let req: JoinSeat = match body(&text) {
        Ok(r) => r,
        Err(resp) => return *resp,
    };
    match app.lobby.join(&id, req).await {
        Ok(joined) => Json(joined).into_response(),
        Err(r) => refused(r),
    }
}

async fn leave(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    text: String,
) -> Response {
    let req: LeaveSeat = match body(&text) {
        Ok(r) => r,
        Err(resp) => return *resp,
    };
    match app.lobby.leave(&id, req).await {
        Ok(()) => Json(serde_json::json!({})).into_response(),
        Err(r) => refused(r),
    }
}

/// A browser's `Origin` must be our own host or an allowed one; clients without an `Origin`
/// (bots, tests, tools) are not browsers and pass.
fn origin_ok(headers: &HeaderMap, allow: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true;
    };
    if allow.iter().any(|a| a == "*" || a == origin) {
        return true;
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    !host.is_empty() && origin_host == host
}

async fn ws(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_ok(&headers, &app.allow_origins) {
        return problem(
            403,
            Problem::new(
                codes::BAD_ORIGIN,
                "不允许从这个网址连接",
                "connections from this origin are not allowed",
            ),
        );
    }
    let conn = Conn {
        table: app.lobby.get(&id),
        limits: app.limits.clone(),
        shutdown: app.shutdown.clone(),
        permit: app.connections.clone().try_acquire_owned().ok(),
    };
    // The WebSocket layer refuses frames far over our limit by itself; frames between our
    // limit and this one reach the connection, which closes with 1009 and a reason.
    let hard_cap = app.limits.max_frame * 8;
    // Small per-connection buffers (the default is 128 KiB each way): thousands of sockets
    // must fit in a few hundred MB; our frames are at most 8 KiB in and a view out.
    upgrade
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_frame_size(hard_cap)
        .max_message_size(hard_cap)
        .on_upgrade(move |socket| connection::run(socket, conn))
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "mp3" => "audio/mpeg",
        "ogg" => "audio/ogg",
        "wav" => "audio/wav",
        "txt" | "ts" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

async fn static_file(State(app): State<Arc<App>>, uri: Uri) -> Response {
    let mut rel = uri.path().trim_start_matches('/').to_string();
    if rel.is_empty() || rel.ends_with('/') {
        rel.push_str("index.html");
    }
    let rel_path = Path::new(&rel);
    // Only plain names below the web directory: no `..`, no absolute paths, no dot files.
    let safe = rel_path.components().all(|c| match c {
        Component::Normal(s) => !s.to_string_lossy().starts_with('.'),
        _ => false,
    });
    if !safe {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    let full = app.web.join(rel_path);
    match tokio::fs::read(&full).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(&full)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        Err(_) => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_rules() {
        let mut h = HeaderMap::new();
        assert!(origin_ok(&h, &[]));
        h.insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
        h.insert(header::ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        assert!(origin_ok(&h, &[]));
        h.insert(header::ORIGIN, "http://evil.example".parse().unwrap());
        assert!(!origin_ok(&h, &[]));
        assert!(origin_ok(&h, &["http://evil.example".into()]));
        assert!(origin_ok(&h, &["*".into()]));
    }
}
