//! HTTP: the accept loop (timeouts, the per-address connection cap), the lobby API (`/api/...`),
//! the WebSocket upgrade (`/ws/{table}`), and the web client as static files from `web-client/`.
//!
//! Every refusal is a JSON [`Problem`] with its status, including those axum makes by itself
//! (wrong method, a bad path, a failed upgrade): [`json_refusals`] rewrites them.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::path::{Component, Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path as UrlPath, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper_util::rt::{TokioIo, TokioTimer};
use protocol::{CreateTable, JoinSeat, LeaveSeat, Problem, Refusal, Words, Wrong};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Instant;
use tower::ServiceExt;

use crate::config::Config;
use crate::connection::{self, Conn};
use crate::limits::{AddressBuckets, AddressCount, AddressSlot, Limits};
use crate::lobby::Lobby;
use crate::referee::desk::{desk_of, Desk, Source};
use crate::referee::explain::Try;
use crate::shutdown::{Shutdown, ShutdownSwitch};
use crate::store::StoredTable;

/// Request bodies are JSON of a few hundred bytes; 8 KiB is generous.
pub const MAX_BODY: usize = 8 * 1024;

/// How long a shutdown waits for a request in flight before dropping its connection.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Shared by every request.
pub struct App {
    pub lobby: Arc<Lobby>,
    pub limits: Arc<Limits>,
    /// The web client's directory on disk; `None`: the files embedded in the binary.
    pub web: Option<PathBuf>,
    /// Allowed browser origins besides the server's own host; `*` allows any.
    pub allow_origins: Vec<String>,
    /// Host names a request may name besides IP literals and `localhost` (lower case, no port);
    /// `*` allows any. Anything else is a DNS-rebinding attempt.
    pub allow_hosts: Vec<String>,
    /// The connection cap: one permit per WebSocket.
    pub connections: Arc<Semaphore>,
    /// Cloned into each connection (it also keeps the server's shutdown waiting for them).
    pub shutdown: Shutdown,
    /// Refused tokens per client address, shared by every WebSocket.
    pub bad_tokens: Arc<AddressBuckets>,
    /// Tables created per client address.
    pub creations: Arc<AddressBuckets>,
    /// Routes of other services, merged under the same guard (the events' `/api/events/…`,
    /// set by [`crate::start`]): this module knows nothing of them.
    pub extra: Router<Arc<App>>,
}

impl App {
    pub fn new(lobby: Arc<Lobby>, config: &Config, shutdown: Shutdown) -> App {
        let limits = &config.limits;
        App {
            lobby,
            limits: Arc::new(limits.clone()),
            web: config.web.clone(),
            allow_origins: config.allow_origins.clone(),
            allow_hosts: config
                .allow_hosts
                .iter()
                .map(|h| host_name(h.trim()).to_ascii_lowercase())
                .collect(),
            connections: Arc::new(Semaphore::new(limits.max_connections)),
            shutdown,
            bad_tokens: Arc::new(AddressBuckets::new(
                limits.bad_token_burst,
                limits.bad_tokens_per_minute,
            )),
            creations: Arc::new(AddressBuckets::new(
                limits.table_burst,
                limits.tables_per_minute,
            )),
            extra: Router::new(),
        }
    }
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/tables", get(list).post(create))
        .route("/api/tables/{id}", get(one))
        // The invite link as a QR code (issue 13; server/src/invite.rs).
        .route("/api/tables/{id}/qr.svg", get(qr))
        .route("/api/tables/{id}/join", post(join))
        .route("/api/tables/{id}/leave", post(leave))
        .merge(app.extra.clone())
        .route("/api/{*rest}", any(no_route))
        .route("/metrics", get(metrics))
        .route("/api/tables/{id}/replay", get(replay))
        .route("/api/tables/{id}/explain/{seq}", get(explain))
        .route("/ws/{id}", get(ws))
        .fallback(static_file)
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .layer(middleware::map_response(json_refusals))
        .with_state(app)
}

/// Accepts connections until `stop` resolves, then lets the requests in flight finish.
///
/// Our own loop rather than `axum::serve`, which cannot set hyper's header read timeout nor
/// count connections per address. WebSocket upgrades work as under `axum::serve`: the
/// connection hands its socket to the upgrade, and the WebSocket's own shutdown takes over.
pub async fn serve(listener: TcpListener, app: Arc<App>, stop: impl Future<Output = ()>) {
    let router = router(app.clone());
    let per_address = AddressCount::new(app.limits.max_connections_per_ip);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(app.limits.http_header_timeout)
        // A request head (and a buffered body chunk) fits in 16 KiB; hyper's default is ~400 KiB
        // a connection, too much to grant every silent socket.
        .max_buf_size(16 * 1024);
    let connections = ShutdownSwitch::new();
    tokio::pin!(stop);
    loop {
        let (tcp, peer) = tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // A connection that died before we took it is the peer's business; anything
                    // else (out of file descriptors) passes with time, so back off a little.
                    if !matches!(
                        e.kind(),
                        io::ErrorKind::ConnectionAborted
                            | io::ErrorKind::ConnectionReset
                            | io::ErrorKind::ConnectionRefused
                    ) {
                        tracing::warn!(error = %e, "accept failed; backing off");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    continue;
                }
            },
        };
        // Over the cap for its address: closed at once, before a byte is read.
        let Some(slot) = per_address.enter(peer.ip()) else {
            drop(tcp);
            continue;
        };
        // No Nagle: an `ack` and its `events` are two small writes, and waiting for the peer's
        // delayed ACK between them would add up to 40 ms to a move.
        let _ = tcp.set_nodelay(true);
        let io = TokioIo::new(CountedTcp {
            tcp,
            _slot: slot,
            answer: Vec::new(),
            sent: 0,
        });
        let (router, limits) = (router.clone(), app.limits.clone());
        let service = hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            let (router, limits) = (router.clone(), limits.clone());
            async move {
                match whole_request(req, &limits).await {
                    Ok(req) => router.oneshot(req).await,
                    Err(refusal) => Ok(refusal),
                }
            }
        });
        let conn = http.serve_connection(io, service).with_upgrades();
        let mut shutdown = connections.subscribe();
        tokio::spawn(async move {
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = shutdown.recv() => {}
            }
            // Idle kept-alive connections close now; a request in flight finishes first.
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(SHUTDOWN_GRACE, conn).await;
        });
    }
    // The app holds a `Shutdown` of the WebSockets' switch: let it go, or their shutdown would
    // wait for us.
    drop((listener, router, app));
    connections.shutdown().await;
}

/// A TCP stream that holds its address's connection slot while it lives, also after a
/// WebSocket upgrade (the upgrade takes the stream, slot and all).
///
/// It also turns hyper's own answers into JSON Problems: a request hyper cannot parse (a
/// malformed request line or header, a head over the buffer, a path too long) is answered by
/// hyper itself, before any route or middleware sees it, with a bare status and no body
/// (`400`, `431`, `414`). Those are the only bodiless 4xx answers the server writes (every one
/// of ours is a Problem with its `content-type`), so such a head is recognised as it is
/// written ([`hyper_problem`]) and the Problem of the same status goes out instead.
struct CountedTcp {
    tcp: TcpStream,
    _slot: AddressSlot,
    /// The Problem that replaced hyper's bare answer, still to be written (from `sent` on).
    answer: Vec<u8>,
    sent: usize,
}

impl CountedTcp {
    /// Writes what is left of the replacing answer; `Ready(Ok)` once it is all out.
    fn poll_answer(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.answer.len() {
            let n = std::task::ready!(
                Pin::new(&mut self.tcp).poll_write(cx, &self.answer[self.sent..])
            )?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `buf` if it is hyper's bare error answer (queuing the Problem instead): `Some` with
    /// how many bytes hyper may count as written.
    fn replace(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Option<Poll<io::Result<usize>>> {
        let answer = hyper_problem(buf)?;
        self.answer = answer;
        self.sent = 0;
        // Written or not yet, hyper's bytes are taken: the rest goes out on the next write,
        // flush or shutdown (the socket's waker is registered if it is pending).
        Some(match self.poll_answer(cx) {
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            _ => Poll::Ready(Ok(buf.len())),
        })
    }
}

/// The Problem answer (head and body) for hyper's own bodiless error answer at the start of
/// `buf`, or `None` if `buf` is not one.
fn hyper_problem(buf: &[u8]) -> Option<Vec<u8>> {
    let refusal = if buf.starts_with(b"HTTP/1.1 400 ") {
        Refusal::BadRequest(Wrong::Malformed)
    } else if buf.starts_with(b"HTTP/1.1 431 ") {
        Refusal::HeadTooBig { uri: false }
    } else if buf.starts_with(b"HTTP/1.1 414 ") {
        Refusal::HeadTooBig { uri: true }
    } else {
        return None;
    };
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&buf[..end + 4]).to_ascii_lowercase();
    if !head.contains("\r\ncontent-length: 0\r\n") || head.contains("\r\ncontent-type:") {
        return None;
    }
    let status = StatusCode::from_u16(refusal.status()).ok()?;
    let body = serde_json::to_vec(&Problem::from(refusal)).ok()?;
    let mut out = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    )
    .into_bytes();
    out.extend(body);
    Some(out)
}

impl AsyncRead for CountedTcp {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for CountedTcp {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        std::task::ready!(self.poll_answer(cx))?;
        if let Some(taken) = self.replace(cx, buf) {
            return taken;
        }
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        std::task::ready!(self.poll_answer(cx))?;
        // hyper writes a response head as one slice; its bare error answer has nothing after.
        if let Some(first) = bufs.iter().find(|b| !b.is_empty()) {
            if let Some(taken) = self.replace(cx, first) {
                return taken;
            }
        }
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.poll_answer(cx))?;
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.poll_answer(cx))?;
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

pub(crate) fn problem(status: u16, p: Problem) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    (status, Json(p)).into_response()
}

/// A refusal with its own status.
pub(crate) fn refused(r: Refusal) -> Response {
    problem(r.status(), r.into())
}

/// Reads a request's whole body before it is routed, within the body timeout: at most
/// [`MAX_BODY`], or [`MAX_DIRECTOR_BODY`] for an event route with a bearer token (only a
/// director's routes take more), so nobody makes the server hold more per connection than the
/// handlers allowed before. A handler that answers without reading the body (starting a round
/// takes none) or refuses before reading it would otherwise close the socket with the body
/// unread, and the kernel then resets the connection: a client that sent the body in a packet
/// of its own after the head (browsers do) could lose the answer to a request that was carried
/// out. Each handler still applies its own cap to what was read.
async fn whole_request(
    req: Request<hyper::body::Incoming>,
    limits: &Limits,
) -> Result<Request, Response> {
    use hyper::body::Body as _;
    if req.body().is_end_stream() {
        return Ok(req.map(Body::new));
    }
    let director = req.uri().path().starts_with("/api/events")
        && req.headers().contains_key(header::AUTHORIZATION);
    let max = if director {
        MAX_DIRECTOR_BODY
    } else {
        MAX_BODY
    };
    // A client that asks `Expect: 100-continue` sends its body only once told to, and hyper
    // tells it (`100 Continue`) as soon as the body is read. A body declared over the limit is
    // refused before that, at once: nothing of it is on the way, so nothing is cut off.
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let continues = req
        .headers()
        .get(header::EXPECT)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
    if continues && declared.is_some_and(|n| n > max as u64) {
        return Err(refused(Refusal::TooBig {
            max_kib: Some(max / 1024),
        }));
    }
    let (parts, body) = req.into_parts();
    let bytes = read_bytes_up_to(limits, Body::new(body), max).await?;
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// A director's body (an event's entries) may be long: 400 pairs fit in 64 KiB. The longest
/// body any route takes.
pub const MAX_DIRECTOR_BODY: usize = 256 * 1024;

/// Reads a request body of at most `max` bytes ([`MAX_BODY`], or longer for a director's event
/// entries), within the body timeout, UTF-8.
pub(crate) async fn read_body_up_to(
    limits: &Limits,
    body: Body,
    max: usize,
) -> Result<String, Response> {
    let bytes = read_bytes_up_to(limits, body, max).await?;
    String::from_utf8(bytes.to_vec()).map_err(|_| refused(Refusal::BadRequest(Wrong::NotUtf8)))
}

/// [`read_body_up_to`] without the UTF-8 check.
async fn read_bytes_up_to(
    limits: &Limits,
    body: Body,
    max: usize,
) -> Result<axum::body::Bytes, Response> {
    let collected =
        tokio::time::timeout(limits.http_body_timeout, Limited::new(body, max).collect()).await;
    match collected {
        Err(_) => Err(refused(Refusal::Timeout)),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => {
            Err(refused(Refusal::TooBig {
                max_kib: Some(max / 1024),
            }))
        }
        Ok(Err(e)) => Err(refused(Refusal::BadRequest(Wrong::Unreadable {
            detail: e.to_string(),
        }))),
        Ok(Ok(c)) => Ok(c.to_bytes()),
    }
}

/// Reads and parses a JSON body ourselves, so every bad body gets a [`Problem`].
async fn json_body<T: serde::de::DeserializeOwned>(
    limits: &Limits,
    body: Body,
) -> Result<T, Response> {
    json_body_up_to(limits, body, MAX_BODY).await
}

/// [`json_body`] of at most `max` bytes.
pub(crate) async fn json_body_up_to<T: serde::de::DeserializeOwned>(
    limits: &Limits,
    body: Body,
    max: usize,
) -> Result<T, Response> {
    let text = read_body_up_to(limits, body, max).await?;
    serde_json::from_str(&text).map_err(|e| {
        refused(Refusal::BadRequest(Wrong::Body {
            detail: e.to_string(),
        }))
    })
}

async fn list(State(app): State<Arc<App>>) -> Response {
    Json(app.lobby.list()).into_response()
}

/// Past one machine: the answer for a table another node serves, a `307` to the same path
/// there (`Location`), with a Problem that names the node for clients that do not follow it.
fn elsewhere(owner: &str, uri: &Uri) -> Response {
    let path = uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    let mut resp = refused(Refusal::Elsewhere {
        owner: owner.to_string(),
        event: false,
    });
    if let Ok(location) = HeaderValue::from_str(&format!("{owner}{path}")) {
        resp.headers_mut().insert(header::LOCATION, location);
    }
    resp
}

async fn one(State(app): State<Arc<App>>, UrlPath(id): UrlPath<String>, uri: Uri) -> Response {
    if let Some(owner) = app.lobby.elsewhere(&id).await {
        return elsewhere(&owner, &uri);
    }
    match app.lobby.summary(&id) {
        Some(s) => Json(s).into_response(),
        None => refused(Refusal::NoTable),
    }
}

/// The scheme and host a request was made on (the guard has checked the host): `https` when a
/// proxy in front says so. A link given back to the page is on them.
pub(crate) fn origin(headers: &HeaderMap) -> (&'static str, &str) {
    let header = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let host = header(header::HOST).unwrap_or("localhost");
    let scheme = match header(header::HeaderName::from_static("x-forwarded-proto")) {
        Some("https") => "https",
        _ => "http",
    };
    (scheme, host)
}

/// The answer to a QR code request: the SVG, or why not.
pub(crate) fn qr_response(link: &str) -> axum::response::Response {
    match crate::invite::qr_svg(link) {
        Some(svg) => (
            [
                (header::CONTENT_TYPE, "image/svg+xml"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            svg,
        )
            .into_response(),
        None => refused(Refusal::Internal(Words::new(
            "无法生成二维码",
            "could not make the QR code",
        ))),
    }
}

/// The table's invite link as an SVG QR code, on the host this request named (the guard has
/// checked it); `https` when a proxy in front says so.
async fn qr(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
) -> Response {
    let Some(table) = app.lobby.get(&id) else {
        return refused(Refusal::NoTable);
    };
    let (scheme, host) = origin(&headers);
    let link = crate::invite::table_link(scheme, host, &table.id);
    qr_response(&link)
}

async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Body,
) -> Response {
    let req: CreateTable = match json_body(&app.limits, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    // Charged only for a well-formed request: a malformed one creates nothing.
    if !app.creations.take(peer.ip(), Instant::now()) {
        let wait = (60.0 / app.limits.tables_per_minute.max(0.01)).ceil() as u64;
        let mut resp = refused(Refusal::RateLimited(protocol::Limited::Tables));
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(wait));
        return resp;
    }
    match app.lobby.create(req).await {
        Ok(summary) => (StatusCode::CREATED, Json(summary)).into_response(),
        Err(r) => refused(r),
    }
}

async fn join(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    uri: Uri,
    body: Body,
) -> Response {
    if let Some(owner) = app.lobby.elsewhere(&id).await {
        return elsewhere(&owner, &uri);
    }
    let req: JoinSeat = match json_body(&app.limits, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    match app.lobby.join(&id, req).await {
        Ok(joined) => Json(joined).into_response(),
        Err(r) => refused(r),
    }
}

async fn leave(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    uri: Uri,
    body: Body,
) -> Response {
    if let Some(owner) = app.lobby.elsewhere(&id).await {
        return elsewhere(&owner, &uri);
    }
    let req: LeaveSeat = match json_body(&app.limits, body).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    match app.lobby.leave(&id, req).await {
        Ok(()) => Json(serde_json::json!({})).into_response(),
        Err(r) => refused(r),
    }
}

/// Whether the request carries the referee's token (`Authorization: Bearer …`).
fn is_referee(app: &App, headers: &HeaderMap) -> bool {
    let Some(want) = app.lobby.settings.referee_hash.as_deref() else {
        return false;
    };
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|t| crate::seat_token::same(want, &crate::seat_token::hash(t.trim())))
}

/// A stored table and the desk of its game, for the referee at any time and for everyone once
/// the table is over and its seed is public (no open table deals from it any more): its replay
/// shows every hand.
async fn replayed_for<'a>(
    app: &'a App,
    id: &str,
    headers: &HeaderMap,
) -> Result<(StoredTable, &'a dyn Desk), Response> {
    let open = app.lobby.summary(id);
    let open_and_public = open.as_ref().is_some_and(|s| s.seed.is_some());
    if open.is_some() && !open_and_public && !is_referee(app, headers) {
        return Err(refused(Refusal::NotYetPublic));
    }
    let stored = match app.lobby.journal.load(id).await {
        Ok(Some(stored)) => stored,
        Ok(None) => return Err(refused(Refusal::NoTable)),
        Err(e) => {
            return Err(refused(Refusal::StoreFailed {
                detail: e.0,
                reading: true,
            }))
        }
    };
    // A table no longer served (closed: idle, or its competition's round over) is public once
    // its seed is: no unfinished competition deals from it and no open table does.
    let commitment = &stored.header.seed_commitment;
    let closed_and_public = open.is_none()
        && !app.lobby.sealed(commitment)
        && !crate::table::seed_in_use(&app.lobby.tables, id, commitment);
    if !(open_and_public || closed_and_public || is_referee(app, headers)) {
        return Err(refused(Refusal::NotYetPublic));
    }
    let desk = desk_of(&app.lobby.games, &stored.header.game)
        .map_err(|w| refused(Refusal::BadRequest(Wrong::Said(w))))?;
    Ok((stored, desk))
}

#[derive(serde::Deserialize)]
struct ReplayQuery {
    /// The full state (every hand) after action `at` instead of the whole replay.
    at: Option<u64>,
}

/// `GET /api/tables/{id}/replay[?at=N]`: `paiju replay --json` (or `--at N`) over HTTP, for the
/// web replay viewer.
async fn replay(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    axum::extract::Query(q): axum::extract::Query<ReplayQuery>,
    headers: HeaderMap,
) -> Response {
    let (stored, desk) = match replayed_for(&app, &id, &headers).await {
        Ok(found) => found,
        Err(r) => return r,
    };
    match desk.replay_json(stored, q.at) {
        Ok(v) => Json(v).into_response(),
        Err(e) => refused(Refusal::BadRequest(Wrong::Said(Words::same(e)))),
    }
}

#[derive(serde::Deserialize)]
struct ExplainQuery {
    /// A hypothetical action (its JSON), as `paiju explain --try`: the referee's preview of a
    /// ruling before it is sent.
    #[serde(rename = "try")]
    try_action: Option<String>,
    /// The try's seat, as `--seat` (an index, or `N`…`W`, `A1`…`B3`).
    seat: Option<String>,
    /// The try's actor, as `--actor` (by default who may take such an action).
    actor: Option<String>,
    /// As `--all-seeing`: the decision valued with every hand known and on the seat's own
    /// view (searched off the async threads: it takes up to a few seconds).
    #[serde(default)]
    all_seeing: bool,
}

/// `GET /api/tables/{id}/explain/{seq}[?try=<action JSON>&seat=S[&actor=A]][&all_seeing=true]`: why logged
/// action `seq` was legal, in the engine's words (`paiju explain --json`); with `try`, what a
/// hypothetical action before `seq` would do or why it would be refused (`--try`), which is how
/// the referee's page shows a ruling's resulting number (`ruling`) before sending it.
async fn explain(
    State(app): State<Arc<App>>,
    UrlPath((id, seq)): UrlPath<(String, u64)>,
    axum::extract::Query(q): axum::extract::Query<ExplainQuery>,
    headers: HeaderMap,
) -> Response {
    let said = |zh: &str, en: &str| refused(Refusal::BadRequest(Wrong::Said(Words::new(zh, en))));
    let try_action = match (q.try_action, q.seat) {
        (None, None) if q.actor.is_none() => None,
        (Some(action), Some(seat)) => {
            let actor = match q.actor.as_deref().map(|a| (a, rules::Actor::parse(a))) {
                None => None,
                Some((_, Some(a))) => Some(a),
                Some((a, None)) => {
                    return said(
                        &format!("actor「{a}」不是 player、bot、clock、auto、referee 之一"),
                        &format!("actor {a:?} is not player, bot, clock, auto or referee"),
                    )
                }
            };
            Some(Try {
                action,
                seat,
                actor,
            })
        }
        _ => {
            return said(
                "假设的动作要同时给出 try（动作的 JSON）和 seat（座位）",
                "a try needs both try (the action's JSON) and seat",
            )
        }
    };
    let (stored, _) = match replayed_for(&app, &id, &headers).await {
        Ok(found) => found,
        Err(r) => return r,
    };
    let lobby = app.lobby.clone();
    let all_seeing = q.all_seeing;
    let explained = tokio::task::spawn_blocking(move || {
        let desk = desk_of(&lobby.games, &stored.header.game)?;
        desk.explain(
            Source::Stored(Box::new(stored), None),
            seq,
            try_action.as_ref(),
            all_seeing,
        )
    })
    .await;
    match explained {
        Ok(Ok(e)) => Json(e).into_response(),
        Ok(Err(w)) => refused(Refusal::BadRequest(Wrong::Said(w))),
        Err(e) => refused(Refusal::Internal(Words::same(e.to_string()))),
    }
}

/// `GET /metrics`: Prometheus (OpenMetrics) text; docs/operations.md shows how to scrape it.
async fn metrics(State(app): State<Arc<App>>) -> Response {
    let tables = app
        .lobby
        .tables
        .iter()
        .map(|t| {
            let s = t.summary();
            (s.game, format!("{:?}", s.state).to_lowercase())
        })
        .collect::<Vec<_>>();
    let open = app.limits.max_connections - app.connections.available_permits();
    let text = app.lobby.metrics.render(tables, open);
    ([(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)], text).into_response()
}

async fn no_route() -> Response {
    refused(Refusal::NotFound { api: true })
}

/// The host part of a `Host` header value: no port, no IPv6 brackets, no trailing dot.
fn host_name(host: &str) -> &str {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => match host.rsplit_once(':') {
            // One colon: `name:port`; more is a bare IPv6 address.
            Some((name, _)) if !name.contains(':') => name,
            _ => host,
        },
    };
    name.strip_suffix('.').unwrap_or(name)
}

/// Whether a request's `Host` names this server. DNS rebinding points an attacker's name at our
/// address, so the browser sends that name: IP literals and `localhost` cannot be rebound and
/// always pass; other names only if configured (`--allow-host`). A request without `Host` is no
/// browser's and passes.
fn host_ok(headers: &HeaderMap, allow: &[String]) -> bool {
    let Some(host) = headers.get(header::HOST) else {
        return true;
    };
    let Ok(host) = host.to_str() else {
        return false;
    };
    let name = host_name(host.trim());
    name.parse::<IpAddr>().is_ok()
        || name.eq_ignore_ascii_case("localhost")
        || allow
            .iter()
            .any(|a| a == "*" || a.eq_ignore_ascii_case(name))
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

/// `application/json`, with or without parameters. A cross-site form or `fetch` without CORS
/// can only send `text/plain`, form types or none: requiring JSON shuts them out.
fn json_content_type(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

fn bad_origin() -> Response {
    refused(Refusal::BadOrigin)
}

/// Checks every request's `Host`, and a POST's `Origin` and `Content-Type`, before it reaches
/// a handler.
async fn guard(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    if !host_ok(headers, &app.allow_hosts) {
        return refused(Refusal::BadHost);
    }
    if req.method() == Method::POST {
        if !origin_ok(headers, &app.allow_origins) {
            return bad_origin();
        }
        if !json_content_type(headers) {
            return refused(Refusal::BadContentType);
        }
    }
    next.run(req).await
}

/// Turns every refusal that is not already a JSON [`Problem`] (axum's own: a wrong method, a
/// bad path parameter, a failed WebSocket upgrade) into one, keeping its status and its text.
async fn json_refusals(resp: Response) -> Response {
    let status = resp.status();
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let refusal = match status.as_u16() {
        404 => Refusal::NotFound { api: false },
        405 => Refusal::MethodNotAllowed,
        408 => Refusal::Timeout,
        413 => Refusal::TooBig { max_kib: None },
        415 => Refusal::BadContentType,
        429 => Refusal::RateLimited(protocol::Limited::Requests),
        s if s >= 500 => Refusal::Internal(Words::new("服务器出错", "server error")),
        _ => Refusal::BadRequest(Wrong::Said(Words::new("请求有误", "bad request"))),
    };
    let mut p = Problem::from(refusal);
    if !text.is_empty() {
        p.en = format!("{}: {text}", p.en);
    }
    // The status stays the one the layer below chose (a 400 may be a 431, a 500 a 502).
    let mut out = problem(status.as_u16(), p);
    // Keep what tells the client how to go on (`Allow`, `Retry-After`).
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(v) = parts.headers.get(&name) {
            out.headers_mut().insert(name, v.clone());
        }
    }
    out
}

async fn ws(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_ok(&headers, &app.allow_origins) {
        return bad_origin();
    }
    // Past one machine: a table served elsewhere is named in the close (4307); one no node
    // serves is taken over here first.
    let owner = match app.lobby.get(&id) {
        Some(_) => None,
        None => app.lobby.elsewhere(&id).await,
    };
    let table = app.lobby.get(&id);
    let gone = match (&table, &owner) {
        (None, None) => app.lobby.why_gone(&id).await,
        _ => None,
    };
    let conn = Conn {
        table,
        elsewhere: owner,
        gone,
        limits: app.limits.clone(),
        shutdown: app.shutdown.clone(),
        permit: app.connections.clone().try_acquire_owned().ok(),
        peer: peer.ip(),
        bad_tokens: app.bad_tokens.clone(),
    };
    // The WebSocket layer refuses frames far over our limit by itself; frames between our
    // limit and this one reach the connection, which closes with 1009 and a reason.
    let hard_cap = app.limits.max_frame * 8;
    // Small per-connection buffers (the default is 128 KiB each way): thousands of sockets
    // must fit in a few hundred MB. Clients send small frames (an `act` is about 100 bytes; a
    // larger one, up to the 8 KiB limit, makes the buffer grow for it): 1 KiB is read at a
    // time (tungstenite zero-fills the whole read buffer before each read, so its size is
    // resident memory per connection). Frames out are held until the connection's line
    // flushes (it hands over what is queued, then flushes once) or more than 1 KiB has
    // gathered: an `ack` waits for the `events` after it and both leave in one write, while
    // the buffer, whose size stays allocated, is never much larger than the largest frame.
    upgrade
        .read_buffer_size(1024)
        .write_buffer_size(1024)
        .max_frame_size(hard_cap)
        .max_message_size(hard_cap)
        .on_upgrade(move |socket| {
            // Every log line of the connection carries the table, the peer and (once known)
            // the seat or role.
            let span = tracing::info_span!(
                "conn",
                table = %id,
                peer = %peer.ip(),
                who = tracing::field::Empty
            );
            tracing::Instrument::instrument(connection::run(socket, conn), span)
        })
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

fn not_found() -> Response {
    refused(Refusal::NotFound { api: false })
}

/// The file under the web directory that a URL path names, if it is one we serve: plain names
/// only (no `..`, no absolute paths, no dot files), and — after every symlink is resolved — still
/// inside the web directory. (tower-http's `ServeDir` follows symlinks wherever they point.) A
/// symlink swapped in between this check and the read could still escape: whoever can write the
/// web directory could put the file there anyway.
async fn web_file(web: &Path, url_path: &str) -> Option<PathBuf> {
    let mut rel = url_path.trim_start_matches('/').to_string();
    if rel.is_empty() || rel.ends_with('/') {
        rel.push_str("index.html");
    }
    let rel_path = Path::new(&rel);
    let plain = rel_path.components().all(|c| match c {
        Component::Normal(s) => !s.to_string_lossy().starts_with('.'),
        _ => false,
    });
    if !plain {
        return None;
    }
    let root = tokio::fs::canonicalize(web).await.ok()?;
    let real = tokio::fs::canonicalize(root.join(rel_path)).await.ok()?;
    real.starts_with(&root).then_some(real)
}

async fn static_file(State(app): State<Arc<App>>, method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        let mut resp = refused(Refusal::MethodNotAllowed);
        resp.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return resp;
    }
    let Some(dir) = &app.web else {
        return match crate::web::embedded(uri.path()) {
            Some((path, bytes)) => (
                [
                    (header::CONTENT_TYPE, content_type(Path::new(path))),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                bytes,
            )
                .into_response(),
            None => not_found(),
        };
    };
    let Some(file) = web_file(dir, uri.path()).await else {
        return not_found();
    };
    match tokio::fs::read(&file).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(&file)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        Err(_) => not_found(),
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

    #[test]
    fn host_rules() {
        let ok = |host: &str, allow: &[&str]| {
            let mut h = HeaderMap::new();
            h.insert(header::HOST, host.parse().unwrap());
            let allow: Vec<String> = allow.iter().map(|s| s.to_string()).collect();
            host_ok(&h, &allow)
        };
        assert!(ok("127.0.0.1:8080", &[]));
        assert!(ok("192.168.1.20:8080", &[]));
        assert!(ok("[::1]:8080", &[]));
        assert!(ok("localhost:8080", &[]));
        assert!(ok("LOCALHOST.", &[]));
        assert!(!ok("rebind.evil.example:8080", &[]));
        assert!(ok("paiju.example.org", &["paiju.example.org"]));
        assert!(ok("Paiju.Example.org:443", &["paiju.example.org"]));
        assert!(!ok(
            "paiju.example.org.evil.example",
            &["paiju.example.org"]
        ));
        assert!(ok("anything.example", &["*"]));
        assert!(host_ok(&HeaderMap::new(), &[]));
    }

    #[test]
    fn json_content_types() {
        let ct = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::CONTENT_TYPE, v.parse().unwrap());
            json_content_type(&h)
        };
        assert!(ct("application/json"));
        assert!(ct("Application/JSON; charset=utf-8"));
        assert!(!ct("text/plain"));
        assert!(!ct("application/x-www-form-urlencoded"));
        assert!(!json_content_type(&HeaderMap::new()));
    }
}
