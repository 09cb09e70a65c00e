//! Test support for paiju's end-to-end tests (tests/tests/).
//!
//! - [`tally`]: a tiny stand-in game for testing the *infrastructure* (protocol, log, clocks,
//!   limits) before and besides the real engines. It is not a card game and is never served by
//!   `paiju serve`.
//! - [`TestServer`]: the real server on 127.0.0.1:0 with a fresh SQLite file.
//! - [`Client`]: a tokio-tungstenite client that speaks the protocol and keeps every frame.
//! - [`eventually`]: the one way a test waits for what the server does in its own time.

pub mod tally;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use protocol::{ClientIn, ClientOut, Joined, TableState, TableSummary};
use serde_json::{json, Value};
use server::{Config, Games};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const REFEREE_TOKEN: &str = "referee-secret-for-tests";

/// One HTTP exchange (`auth`: a bearer token): status and body (JSON when it parses, else the
/// text as a JSON string).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    auth: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = auth
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let r = raw_http(addr, req.as_bytes()).await.expect("an answer");
    let v = serde_json::from_str(&r.body).unwrap_or(Value::String(r.body));
    (r.status, v)
}

/// An HTTP call that must succeed (2xx); its JSON. `body` is sent with a `POST` only.
pub async fn http_ok(
    addr: SocketAddr,
    method: &str,
    path: &str,
    auth: Option<&str>,
    body: Value,
) -> Value {
    let body = (method == "POST").then_some(&body);
    let (status, v) = http(addr, method, path, auth, body).await;
    assert!(
        (200..300).contains(&status),
        "{method} {path}: {status} {v}"
    );
    v
}

static NEXT_DIR: AtomicU64 = AtomicU64::new(0);

/// One test's folder, removed with what is in it when this is dropped, pass or fail. It must
/// outlive the server using it: a [`TestServer`] from [`TestServer::start`] or
/// [`TestServer::start_tuned`] keeps its own; a test that restarts servers on one folder keeps it.
#[must_use = "the folder is removed when this is dropped"]
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh folder for one test's database.
pub fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!(
        "paiju-test-{}-{}-{}",
        name,
        std::process::id(),
        NEXT_DIR.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

/// The config tests start from: port 0, fast clocks, no bot delay, a referee token.
pub fn test_config(db: PathBuf) -> Config {
    Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        db,
        referee_token: Some(REFEREE_TOKEN.to_string()),
        clock_scale: 1.0,
        bot_delay: Duration::ZERO,
        // A test makes the practice sets it plays: the day's would play their computers'
        // reference runs beside it.
        practice_daily: false,
        ..Config::default()
    }
}

/// Waits for something the server does in its own time (a table closing, a rebuild, a count
/// reaching zero): asks `check` every 20 ms until it gives a value, and panics naming `what`
/// when `within` passes first. The deadline belongs to the condition (a little past when it is
/// due), so a test neither guesses a sleep nor waits long for what will not come.
pub async fn eventually<T>(
    within: Duration,
    what: &str,
    mut check: impl std::ops::AsyncFnMut() -> Option<T>,
) -> T {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if let Some(found) = check().await {
            return found;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not within {within:?}: {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The games tests run: the real ones plus the infrastructure double.
pub fn test_games() -> Games {
    Games::standard().with::<tally::Tally>()
}

/// A running server and its database file.
pub struct TestServer {
    pub running: server::Running,
    pub addr: SocketAddr,
    pub db: PathBuf,
    /// The database's folder when the server owns it; declared last, so dropped last.
    dir: Option<TempDir>,
}

impl TestServer {
    pub async fn start(name: &str) -> TestServer {
        Self::start_tuned(name, |_| {}).await
    }

    /// A server on [`test_config`] as `tune` changes it, in a fresh folder removed with it.
    pub async fn start_tuned(name: &str, tune: impl FnOnce(&mut Config)) -> TestServer {
        let dir = temp_dir(name);
        let mut config = test_config(dir.path().join("paiju.db"));
        tune(&mut config);
        let mut s = Self::start_with(config).await;
        s.dir = Some(dir);
        s
    }

    /// A server on `config`; the caller keeps its folder, if it has one.
    pub async fn start_with(config: Config) -> TestServer {
        let db = config.db.clone();
        let running = server::start(config, test_games())
            .await
            .expect("server starts");
        TestServer {
            addr: running.addr,
            running,
            db,
            dir: None,
        }
    }

    pub async fn create(&self, body: Value) -> TableSummary {
        bots::http::post_json(self.addr, "/api/tables", &body)
            .await
            .expect("create table")
    }

    pub async fn join(&self, table: &str, seat: usize, name: &str) -> Joined {
        bots::http::post_json(
            self.addr,
            &format!("/api/tables/{table}/join"),
            &json!({"seat": seat, "name": name}),
        )
        .await
        .expect("join")
    }

    pub fn ws_url(&self, table: &str) -> String {
        format!("ws://{}/ws/{table}", self.addr)
    }

    pub async fn client(&self, table: &str) -> Client {
        Client::connect(&self.ws_url(table)).await
    }

    /// Watches `table` as a spectator until a message says it is over, and panics if it is not
    /// within `within`. A watcher cut off (a slow reader on a busy machine) comes back with its
    /// last seq. The table publishes its summary before its events go out, so the lobby shows
    /// it over as well once this returns.
    pub async fn until_over(&self, table: &str, within: Duration) {
        let watch = async {
            let mut last_seq = None;
            loop {
                let mut c = self.client(table).await;
                let mut next = Some(c.hello(None, last_seq).await);
                while let Some(m) = next {
                    let state = match &m {
                        ClientOut::Welcome { state, .. }
                        | ClientOut::Snapshot { state, .. }
                        | ClientOut::Events { state, .. } => Some(*state),
                        _ => None,
                    };
                    if state == Some(TableState::Over) {
                        return;
                    }
                    next = c.next_message().await;
                }
                last_seq = Some(c.last_seq);
            }
        };
        tokio::time::timeout(within, watch)
            .await
            .unwrap_or_else(|_| panic!("table {table} was not over within {within:?}"));
    }
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A protocol client that keeps every text frame it received.
pub struct Client {
    pub ws: Ws,
    pub frames: Vec<String>,
    /// The last seq seen in `events` or `snapshot`.
    pub last_seq: u64,
    next_id: u64,
}

/// What ended a connection, as the client saw it.
#[derive(Debug, PartialEq, Eq)]
pub enum Closed {
    Code(u16),
    /// The stream ended without a close frame.
    Dropped,
}

impl Client {
    pub async fn connect(url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("websocket connects");
        Client {
            ws,
            frames: Vec::new(),
            last_seq: 0,
            next_id: 1,
        }
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.expect("send");
    }

    pub async fn send(&mut self, msg: &ClientIn) {
        self.send_text(&serde_json::to_string(msg).unwrap()).await;
    }

    pub async fn hello(&mut self, token: Option<&str>, last_seq: Option<u64>) -> ClientOut {
        self.send(&ClientIn::Hello {
            token: token.map(str::to_string),
            last_seq,
            device: None,
        })
        .await;
        self.recv().await
    }

    /// Sends an action with a fresh id; returns the id.
    pub async fn act(&mut self, action: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.act_with_id(id, action, None).await;
        id
    }

    pub async fn act_with_id(&mut self, id: u64, action: Value, seat: Option<usize>) {
        let seq = self.last_seq;
        self.send(&ClientIn::Act {
            id,
            action,
            seq,
            seat,
            reason: None,
        })
        .await;
    }

    /// A referee's act: a ruling (or a move on a seat's behalf) with its reason.
    pub async fn rule(&mut self, id: u64, action: Value, seat: Option<usize>, reason: &str) {
        let seq = self.last_seq;
        self.send(&ClientIn::Act {
            id,
            action,
            seq,
            seat,
            reason: Some(reason.to_string()),
        })
        .await;
    }

    /// The next message (panics after 10 s or on close).
    pub async fn recv(&mut self) -> ClientOut {
        self.next_message().await.expect("the connection is open")
    }

    /// The next message, or `None` once the connection is closed (panics after 10 s).
    pub async fn next_message(&mut self) -> Option<ClientOut> {
        // One deadline for the call, not one a frame: pings alone must not keep it waiting.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .expect("a message within 10 s")?;
            let Ok(frame) = frame else { return None };
            if let Message::Text(t) = frame {
                let text = t.to_string();
                self.frames.push(text.clone());
                let msg: ClientOut = serde_json::from_str(&text).expect("a ClientOut");
                match &msg {
                    ClientOut::Events { seq, .. } | ClientOut::Snapshot { seq, .. } => {
                        self.last_seq = *seq
                    }
                    _ => {}
                }
                return Some(msg);
            }
            if let Message::Close(_) = frame {
                return None;
            }
        }
    }

    /// Receives until `pred` holds; returns that message.
    pub async fn recv_until(&mut self, mut pred: impl FnMut(&ClientOut) -> bool) -> ClientOut {
        loop {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
    }

    /// Reads until the server closes; the close code.
    pub async fn closed(&mut self) -> Closed {
        // One deadline for the whole wait, not one a frame: a server that pings a connection
        // it should have closed would otherwise keep this waiting for ever.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            match tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .expect("closed within 30 s")
            {
                Some(Ok(Message::Close(f))) => {
                    // Answer the close as a browser does (tungstenite sends the reply on the
                    // next poll), so the server's closing handshake completes.
                    let _ = tokio::time::timeout(Duration::from_secs(1), self.ws.next()).await;
                    return Closed::Code(f.map(|f| u16::from(f.code)).unwrap_or(1005));
                }
                Some(Ok(Message::Text(t))) => self.frames.push(t.to_string()),
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return Closed::Dropped,
            }
        }
    }
}

/// A close code as tungstenite reports it.
pub fn code(c: CloseCode) -> u16 {
    u16::from(c)
}

/// Plays every given seat with a WebSocket bot client until the game ends; each bot's report.
pub async fn bots_play_out<E: rules::Engine + 'static>(
    s: &TestServer,
    table: &str,
    tokens: &[String],
) -> Vec<bots::client::BotReport> {
    let mut tasks = Vec::new();
    for token in tokens {
        let url = s.ws_url(table);
        let token = token.clone();
        tasks.push(tokio::spawn(async move {
            bots::client::play::<E>(&url, &token, Default::default()).await
        }));
    }
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap().expect("the bot client plays to the end"));
    }
    out
}

/// One raw HTTP exchange's answer.
#[derive(Debug)]
pub struct RawResponse {
    pub status: u16,
    /// The status line and headers.
    pub head: String,
    pub body: String,
}

impl RawResponse {
    /// A header's value (the name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim().eq_ignore_ascii_case(name).then_some(v.trim())
        })
    }

    /// The body as a `Problem`, checking it was sent as JSON.
    pub fn problem(&self) -> protocol::Problem {
        let ct = self.header("content-type").unwrap_or("");
        assert!(ct.starts_with("application/json"), "{ct}: {}", self.body);
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// Sends `request` as is on a fresh connection and reads until the server closes (10 s at most):
/// for requests no well-behaved client sends (bad bodies, odd methods, other hosts).
pub async fn raw_http(addr: SocketAddr, request: &[u8]) -> Result<RawResponse, String> {
    let stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    raw_http_on(stream, request).await
}

/// [`raw_http`] on a connection already open (e.g. from [`connect_from`]).
pub async fn raw_http_on(mut stream: TcpStream, request: &[u8]) -> Result<RawResponse, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    stream.write_all(request).await.map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw))
        .await
        .map_err(|_| "no answer within 10 s".to_string())?
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("no HTTP response: {text:?}"))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line: {head:?}"))?;
    Ok(RawResponse {
        status,
        head: head.to_string(),
        body: body.to_string(),
    })
}

/// A TCP connection to `addr` from the local address `from`: the whole of 127.0.0.0/8 is this
/// machine, so 127.0.0.2 is a second client address for the per-address limits.
pub async fn connect_from(from: std::net::IpAddr, addr: SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    socket.connect(addr).await.expect("connects")
}

impl Client {
    /// A client whose socket's receive buffer stays at 64 KiB (the kernel grows a reader's
    /// buffer as it reads, to megabytes on loopback): the server's writes to it stop after
    /// its buffer and the server's send buffer are full, until it reads.
    pub async fn connect_small(addr: SocketAddr, url: &str) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        // Set before connecting: the window the connection offers is fixed by it then.
        socket.set_recv_buffer_size(64 * 1024).unwrap();
        let stream = socket.connect(addr).await.expect("connects");
        Client::over(stream, url).await
    }

    /// [`Client::connect`] from the local address `from` (see [`connect_from`]).
    pub async fn connect_from(from: std::net::IpAddr, addr: SocketAddr, url: &str) -> Client {
        Client::over(connect_from(from, addr).await, url).await
    }

    /// The WebSocket handshake for `url` over a connected `stream`.
    async fn over(stream: TcpStream, url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(stream))
            .await
            .expect("websocket connects");
        Client {
            ws,
            frames: Vec::new(),
            last_seq: 0,
            next_id: 1,
        }
    }
}

/// The `paiju` binary: `PAIJU_BIN`, else the one cargo builds beside this test
/// (`target/debug/paiju`), built first so it is current.
pub fn paiju_bin() -> PathBuf {
    if let Ok(p) = std::env::var("PAIJU_BIN") {
        return PathBuf::from(p);
    }
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "-q", "-p", "server", "--bin", "paiju"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build -p server --bin paiju");
    let exe = std::env::current_exe().unwrap();
    // target/debug/deps/events-… → target/debug/paiju
    exe.parent().unwrap().parent().unwrap().join("paiju")
}
