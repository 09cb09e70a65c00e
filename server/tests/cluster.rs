//! Past one machine, with the real binary: two `paiju serve` nodes on one PostgreSQL database
//! (`PAIJU_TEST_POSTGRES`, which scripts/test starts; unset, these tests fail and say so).
//!
//! - A whole 80分 board where the clients reach the table through either node (the other node
//!   answers 307 for the lobby API and closes WebSockets with 4307 and the owner's address),
//!   then `kill -9` of the owning node mid-board: the other node takes the table over once its
//!   lease has run out, every acknowledged action is there, the clients reconnect with their
//!   token and last seq and finish, and `paiju verify` passes.
//! - A forced race: the second node takes the table while the first still serves it; the first
//!   can then not append even one action (its write is fenced by the lease) and does not rebuild
//!   the table, the clients follow it to the new owner, and the log is one chain.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use protocol::{close, ClientIn, ClientOut, Joined, TableState, TableSummary};
use serde_json::{json, Value};
use server::store::{self, CompetitionStore, PostgresStore, Store};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

mod tmp_support;
use tmp_support::TempDir;

const SEED: &str = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100";
/// Short leases so a takeover takes seconds (renewed every 0.6 s).
const LEASE_SECS: u64 = 3;
/// Every node's director token.
const DIRECTOR: &str = "d1ec70d1ec70d1ec70d1ec70d1ec70d1";

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A node's process, killed if the test fails half-way.
struct Node {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `paiju serve` on a free port as one node of the cluster on `db`.
fn node(db: &str) -> Node {
    node_at(db, "127.0.0.1:0", &[])
}

/// Starts `paiju serve` listening at `listen` as one node of the cluster on `db`, with `more`
/// arguments (`--advertise …`).
fn node_at(db: &str, listen: &str, more: &[&str]) -> Node {
    let mut child = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args(["serve", "--listen", listen, "--bot-delay-ms", "0"])
        .args(["--practice-daily", "off"])
        .args(["--db", db, "--lease-secs", &LEASE_SECS.to_string()])
        .args(more)
        .env("PAIJU_DIRECTOR_TOKEN", DIRECTOR)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("paiju serve starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines.next().expect("a line").expect("readable");
    let addr = line
        .split("http://")
        .nth(1)
        .expect("the URL to open")
        .trim_end_matches('/')
        .parse()
        .expect("an address");
    std::thread::spawn(move || for _ in lines {});
    Node { child, addr }
}

fn base(addr: SocketAddr) -> String {
    format!("http://{addr}")
}

/// Where a `Location` points: the address to connect to and the path to ask there
/// (`http://127.0.0.1:4312/n2/api/…` → `127.0.0.1:4312`, `/n2/api/…`).
fn split_location(location: &str) -> (SocketAddr, String) {
    let to = addr_of(location);
    let host = to.to_string();
    let path = &location[location.find(&host).unwrap() + host.len()..];
    (to, path.to_string())
}

/// The address in a node's base URL (`http://127.0.0.1:4312` → `127.0.0.1:4312`).
fn addr_of(url: &str) -> SocketAddr {
    url.trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|e| panic!("{url}: {e}"))
}

/// One HTTP request; the status, the `Location` header if any, and the body.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Option<String>, String) {
    http_as(addr, method, path, body, None).await
}

/// [`http`] with `Authorization: Bearer {bearer}` (the director's calls).
async fn http_as(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    bearer: Option<&str>,
) -> (u16, Option<String>, String) {
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = bearer.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tcp.read_to_end(&mut raw).await.unwrap();
    let at = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response");
    let head = String::from_utf8_lossy(&raw[..at]).to_string();
    let rest = &raw[at + 4..];
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    // Header names in any case: nginx writes `Location`, the server `location`.
    let header = |name: &str| {
        head.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    };
    let location = header("location");
    let body = if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        dechunk(rest)
    } else {
        rest.to_vec()
    };
    (status, location, String::from_utf8_lossy(&body).to_string())
}

/// A chunked body, the chunks joined (sizes count bytes: a chunk may end mid-character).
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = String::from_utf8_lossy(&rest[..eol]);
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        let tail = &rest[eol + 2..];
        if n == 0 || tail.len() < n {
            break;
        }
        body.extend_from_slice(&tail[..n]);
        rest = tail[n..].strip_prefix(b"\r\n").unwrap_or(&tail[n..]);
    }
    body
}

/// A request that follows one 307 to the node that serves the table; the answer, and whether
/// it was redirected.
async fn http_following(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, String, bool) {
    let (status, location, text) = http(addr, method, path, body).await;
    if status != 307 {
        return (status, text, false);
    }
    let problem: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(problem["code"], "elsewhere", "{text}");
    let (to, path) = split_location(&location.expect("a Location"));
    let (status, _, text) = http(to, method, &path, body).await;
    (status, text, true)
}

async fn send(ws: &mut Ws, m: &ClientIn) {
    ws.send(Message::text(serde_json::to_string(m).unwrap()))
        .await
        .unwrap();
}

/// The next message, or the close (code, reason) that ended the socket.
async fn next(ws: &mut Ws) -> Result<ClientOut, (u16, String)> {
    loop {
        let f = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message in time");
        match f {
            Some(Ok(Message::Text(t))) => return Ok(serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Close(Some(c)))) => return Err((c.code.into(), c.reason.to_string())),
            Some(Ok(Message::Close(None))) | None | Some(Err(_)) => return Err((0, String::new())),
            Some(Ok(_)) => {}
        }
    }
}

/// One seat's connection and what it knows.
struct Seat {
    ws: Ws,
    /// The base URL it is connected to (a node's, or a node's behind the proxy).
    at: String,
    view: Value,
    to_act: Vec<usize>,
    seq: u64,
}

impl Seat {
    /// Says hello at `first`, following 4307 to the node that serves the table; while no node
    /// serves it (the owner died, its lease has not run out) tries again at `fallback`.
    /// The closes it followed.
    async fn hello(
        first: &str,
        fallback: &str,
        table: &str,
        token: &str,
        last_seq: Option<u64>,
    ) -> (Seat, Vec<(u16, String)>) {
        let mut at = first.to_string();
        let mut closes = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(LEASE_SECS * 5);
        loop {
            assert!(
                Instant::now() < deadline,
                "no node served {table}: {closes:?}"
            );
            let url = format!("{}/ws/{table}", at.replacen("http://", "ws://", 1));
            let ws = tokio_tungstenite::connect_async(url).await;
            let Ok((mut ws, _)) = ws else {
                closes.push((0, format!("{at} unreachable")));
                at = fallback.to_string();
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            };
            send(
                &mut ws,
                &ClientIn::Hello {
                    token: Some(token.into()),
                    last_seq,
                    device: None,
                },
            )
            .await;
            match next(&mut ws).await {
                Ok(ClientOut::Welcome { seq, .. }) => {
                    let mut seat = Seat {
                        ws,
                        at,
                        view: Value::Null,
                        to_act: vec![],
                        seq: last_seq.unwrap_or(0),
                    };
                    match last_seq {
                        None => loop {
                            let m = seat.recv().await;
                            if matches!(m, ClientOut::Snapshot { .. }) {
                                break;
                            }
                        },
                        Some(n) if n < seq => seat.until(seq).await,
                        Some(_) => {}
                    }
                    return (seat, closes);
                }
                Ok(other) => panic!("welcome, not {other:?}"),
                Err((code, reason)) => {
                    closes.push((code, reason.clone()));
                    at = if code == close::ELSEWHERE {
                        reason
                    } else {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        fallback.to_string()
                    };
                }
            }
        }
    }

    async fn recv(&mut self) -> ClientOut {
        let m = next(&mut self.ws)
            .await
            .unwrap_or_else(|c| panic!("closed: {c:?}"));
        self.take(&m);
        m
    }

    fn take(&mut self, m: &ClientOut) {
        match m {
            ClientOut::Snapshot {
                seq, view, to_act, ..
            } => {
                self.seq = *seq;
                self.view = view.clone();
                self.to_act = to_act.clone();
            }
            ClientOut::Events {
                seq, view, to_act, ..
            } => {
                self.seq = *seq;
                if let Some(v) = view {
                    self.view = v.clone();
                }
                self.to_act = to_act.clone();
            }
            _ => {}
        }
    }

    async fn until(&mut self, seq: u64) {
        while self.seq < seq {
            self.recv().await;
        }
    }

    /// Reads until the ack of `id`; its seq.
    async fn ack(&mut self, id: u64) -> u64 {
        loop {
            match self.recv().await {
                ClientOut::Ack { id: got, seq } if got == id => return seq,
                ClientOut::Rejected { problem, .. } => panic!("rejected: {problem:?}"),
                _ => {}
            }
        }
    }

    fn action(&self) -> Value {
        let view: rules::shengji::View = serde_json::from_value(self.view.clone()).unwrap();
        serde_json::to_value(bots::simplest::<rules::shengji::Board>(&view).unwrap()).unwrap()
    }
}

/// The stored table, read off the runtime (the store blocks).
async fn stored(db: &str, table: &str) -> store::StoredTable {
    let (db, table) = (db.to_string(), table.to_string());
    tokio::task::spawn_blocking(move || {
        PostgresStore::open(&db, None)
            .unwrap()
            .table(&table)
            .unwrap()
            .unwrap()
    })
    .await
    .unwrap()
}

async fn sql(db: &str, statement: &str) -> u64 {
    let (db, statement) = (db.to_string(), statement.to_string());
    tokio::task::spawn_blocking(move || {
        PostgresStore::open(&db, None)
            .unwrap()
            .execute(&statement)
            .unwrap()
    })
    .await
    .unwrap()
}

/// Creates an 80分 table on `a` and seats four players, seats 2 and 3 asking node `b` (which
/// sends them on with a 307). The table and the tokens.
async fn table_with_four(a: SocketAddr, b: SocketAddr) -> (TableSummary, Vec<String>) {
    let (status, text) = {
        let (s, _, t) = http(
            a,
            "POST",
            "/api/tables",
            Some(&json!({"game": "shengji", "seed": SEED, "board": 3})),
        )
        .await;
        (s, t)
    };
    assert_eq!(status, 201, "{text}");
    let t: TableSummary = serde_json::from_str(&text).unwrap();
    let mut tokens = Vec::new();
    for seat in 0..4 {
        let via = if seat < 2 { a } else { b };
        let (status, text, redirected) = http_following(
            via,
            "POST",
            &format!("/api/tables/{}/join", t.id),
            Some(&json!({"seat": seat, "name": format!("P{seat}")})),
        )
        .await;
        assert_eq!(status, 200, "{text}");
        assert_eq!(redirected, via == b, "only the other node redirects");
        let j: Joined = serde_json::from_str(&text).unwrap();
        tokens.push(j.token);
    }
    (t, tokens)
}

/// Plays `n` acknowledged actions; (seq, seat, id) of each.
async fn play(seats: &mut [Seat], n: usize, next_id: &mut u64) -> Vec<(u64, usize, u64)> {
    let mut acked = Vec::new();
    while acked.len() < n {
        let seat = seats[0].to_act[0];
        let action = seats[seat].action();
        let decided_at = seats[seat].seq;
        *next_id += 1;
        send(
            &mut seats[seat].ws,
            &ClientIn::Act {
                id: *next_id,
                action,
                seq: decided_at,
                seat: None,
                reason: None,
            },
        )
        .await;
        let seq = seats[seat].ack(*next_id).await;
        acked.push((seq, seat, *next_id));
        for s in seats.iter_mut() {
            s.until(seq).await;
        }
    }
    acked
}

/// Finishes the board with bot clients at `at`; then checks the log replays to a finished
/// board with no id applied twice, and that `paiju verify` passes.
async fn finish_and_verify(db: &str, at: SocketAddr, table: &str, tokens: &[String]) {
    let mut tasks = Vec::new();
    for token in tokens {
        let token = token.clone();
        let url = format!("ws://{at}/ws/{table}");
        tasks.push(tokio::spawn(async move {
            // Paced (60 ms a move): four bots that never think outrun the server's per-connection
            // rate limit (10 messages a second) on a quick board.
            let opts = bots::client::BotOptions {
                think: std::time::Duration::from_millis(60),
                ..Default::default()
            };
            bots::client::play::<rules::shengji::Board>(&url, &token, opts).await
        }));
    }
    for task in tasks {
        assert!(task.await.unwrap().expect("finishes").over);
    }
    let t = stored(db, table).await;
    store::verify(&t.header, &t.log).expect("one chain");
    assert_eq!(t.state, TableState::Over);
    let ids: Vec<(Option<String>, u64)> = t
        .log
        .iter()
        .filter_map(|e| e.client_id.map(|id| (e.occupant.clone(), id)))
        .collect();
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "no id applied twice");
    let out = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args(["verify", "--db", db, "--table", table])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "paiju verify: {text}");
    assert!(
        text.contains(&format!("{table}: ok, {} entries", t.log.len())),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn either_node_then_the_owner_dies_and_the_other_takes_over() {
    let db = store::postgres::test_database("cluster_failover");
    let a = node(&db);
    let b = node(&db);
    let (t, tokens) = table_with_four(a.addr, b.addr).await;

    // The lobby API through the other node: a 307 to the owner.
    let (status, location, _) = http(b.addr, "GET", &format!("/api/tables/{}", t.id), None).await;
    assert_eq!(status, 307);
    assert_eq!(
        location.as_deref(),
        Some(format!("{}/api/tables/{}", base(a.addr), t.id).as_str())
    );
    // WebSockets: seats 0 and 1 at the owner, 2 and 3 at the other node, which closes with
    // 4307 and the owner's address.
    let mut seats = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let first = if i < 2 { a.addr } else { b.addr };
        let (seat, closes) = Seat::hello(&base(first), &base(b.addr), &t.id, token, None).await;
        if i < 2 {
            assert!(closes.is_empty(), "{closes:?}");
        } else {
            assert_eq!(closes, [(close::ELSEWHERE, base(a.addr))]);
        }
        assert_eq!(seat.at, base(a.addr));
        seats.push(seat);
    }
    let mut next_id = 100;
    let acked = play(&mut seats, 30, &mut next_id).await;

    // One more action goes out, and the owner dies before we know its fate.
    let in_flight_seat = seats[0].to_act[0];
    let in_flight = (next_id + 1, seats[in_flight_seat].action());
    let decided_at = seats[in_flight_seat].seq;
    send(
        &mut seats[in_flight_seat].ws,
        &ClientIn::Act {
            id: in_flight.0,
            action: in_flight.1.clone(),
            seq: decided_at,
            seat: None,
            reason: None,
        },
    )
    .await;
    let mut a = a;
    a.child.kill().expect("SIGKILL");
    a.child.wait().unwrap();
    let died = Instant::now();
    drop(seats);

    // Everything acknowledged is in the log.
    let t1 = stored(&db, &t.id).await;
    store::verify(&t1.header, &t1.log).expect("the chain verifies after a crash");
    for (seq, seat, id) in &acked {
        let e = &t1.log[(*seq - 1) as usize];
        assert_eq!((e.seat, e.client_id), (*seat, Some(*id)), "entry {seq}");
    }

    // The clients come back through the surviving node: it takes the table over once the dead
    // node's lease has run out, rebuilt from its log; they resume from their last seq.
    let last = acked.last().unwrap().0;
    let mut seats = Vec::new();
    for token in &tokens {
        let (seat, _) = Seat::hello(&base(b.addr), &base(b.addr), &t.id, token, Some(last)).await;
        assert_eq!(seat.at, base(b.addr));
        seats.push(seat);
    }
    let took = died.elapsed();
    assert!(
        took < Duration::from_secs(LEASE_SECS + 4),
        "taken over {took:?} after the owner died (lease {LEASE_SECS} s)"
    );
    // The action in flight is resent with the same id: applied at most once.
    send(
        &mut seats[in_flight_seat].ws,
        &ClientIn::Act {
            id: in_flight.0,
            action: in_flight.1,
            seq: decided_at,
            seat: None,
            reason: None,
        },
    )
    .await;
    let seq = seats[in_flight_seat].ack(in_flight.0).await;
    assert_eq!(seq, last + 1);
    drop(seats);
    // The lobby API answers at the new owner.
    let (status, _, _) = http(b.addr, "GET", &format!("/api/tables/{}", t.id), None).await;
    assert_eq!(status, 200);

    finish_and_verify(&db, b.addr, &t.id, &tokens).await;
    // A graceful stop gives the leases back.
    terminate(&b.child);
    let mut b = b;
    assert!(b.child.wait().unwrap().success(), "a graceful stop");
    assert_eq!(
        sql(&db, "SELECT 1 FROM leases").await,
        0,
        "no lease is left behind"
    );
}

/// `GET` of a list on a node, as JSON.
async fn list(at: SocketAddr, path: &str) -> Vec<Value> {
    let (status, _, text) = http(at, "GET", path, None).await;
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"))
}

/// Waits (up to 20 s, five leases) until `f` holds of node `at`'s list at `path`; the list.
async fn until_listed(
    at: SocketAddr,
    path: &str,
    what: &str,
    f: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let l = list(at, path).await;
        if f(&l) {
            return l;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{what}: {at}{path} lists {l:#?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Where a list says `id` is served (`None`: not listed, or listed without a node).
fn node_of(l: &[Value], id: &str) -> Option<String> {
    l.iter()
        .find(|x| x["id"] == id)
        .and_then(|x| x["node"].as_str().map(str::to_string))
}

/// One lobby across nodes: each node's `GET /api/tables` and `GET /api/events` list the other
/// node's tables and events with its address, follow a change of seats there, and after a
/// `kill -9` list the dead node's table and event again at the node that took them over —
/// never at the dead node's address once its leases have run out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_node_lists_every_live_nodes_tables_and_events() {
    let db = store::postgres::test_database("cluster_lobby");
    let a = node(&db);
    let b = node(&db);
    let (at_a, at_b) = (base(a.addr), base(b.addr));
    let create = |at: SocketAddr| async move {
        let (status, _, text) =
            http(at, "POST", "/api/tables", Some(&json!({"game": "shengji"}))).await;
        assert_eq!(status, 201, "{text}");
        serde_json::from_str::<TableSummary>(&text).unwrap().id
    };
    let (ta, tb) = (create(a.addr).await, create(b.addr).await);
    let event = director(
        a.addr,
        "POST",
        "/api/events",
        json!({"game": "shengji", "name": "两台机器", "tables": 1, "rounds": 1,
               "boards_per_round": 1,
               "entries": [{"names": [], "bot": true}, {"names": [], "bot": true}]}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();

    for (at, name) in [(a.addr, "a"), (b.addr, "b")] {
        let l = until_listed(at, "/api/tables", "both tables", |l| {
            node_of(l, &ta).is_some() && node_of(l, &tb).is_some()
        })
        .await;
        assert_eq!(node_of(&l, &ta), Some(at_a.clone()), "node {name}");
        assert_eq!(node_of(&l, &tb), Some(at_b.clone()), "node {name}");
        let e = until_listed(at, "/api/events", "the event", |l| {
            node_of(l, &event).is_some()
        })
        .await;
        assert_eq!(node_of(&e, &event), Some(at_a.clone()), "node {name}");
        assert_eq!(e.len(), 1, "{e:?}");
    }
    // A seat taken at b shows in a's list within a tick or two.
    let (status, _, text) = http(
        b.addr,
        "POST",
        &format!("/api/tables/{tb}/join"),
        Some(&json!({"seat": 0, "name": "王阿姨"})),
    )
    .await;
    assert_eq!(status, 200, "{text}");
    until_listed(a.addr, "/api/tables", "her seat, seen from a", |l| {
        l.iter()
            .any(|x| x["id"] == tb.as_str() && x["seats"].to_string().contains("王阿姨"))
    })
    .await;

    // kill -9 a: b lists a's table and event again once it has taken them, at its own address.
    let mut a = a;
    a.child.kill().expect("SIGKILL");
    a.child.wait().unwrap();
    let l = until_listed(b.addr, "/api/tables", "a's table taken over", |l| {
        node_of(l, &ta) == Some(at_b.clone())
    })
    .await;
    assert_eq!(node_of(&l, &tb), Some(at_b.clone()));
    let e = until_listed(b.addr, "/api/events", "a's event taken over", |l| {
        node_of(l, &event) == Some(at_b.clone())
    })
    .await;
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        !l.iter().chain(&e).any(|x| x["node"] == at_a.as_str()),
        "nothing at the dead node: {l:?} {e:?}"
    );
}

/// A director's call at `at` (a node or the proxy), following a `307` to the node that runs
/// the event; while that node cannot be reached (it died, its lease has not run out: the proxy
/// answers 502) it asks again, for up to five leases. The answer's JSON.
async fn director(at: SocketAddr, method: &str, path: &str, body: Value) -> Value {
    let deadline = Instant::now() + Duration::from_secs(LEASE_SECS * 5);
    loop {
        let (mut status, mut location, mut text) =
            http_as(at, method, path, Some(&body), Some(DIRECTOR)).await;
        if status == 307 {
            let (to, rest) = split_location(&location.take().expect("a Location"));
            (status, location, text) =
                http_as(to, method, &rest, Some(&body), Some(DIRECTOR)).await;
        }
        if (200..300).contains(&status) {
            return serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"));
        }
        assert!(
            status >= 500 && Instant::now() < deadline,
            "{method} {path}: {status} {text} ({location:?})"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Asks a process to stop (`TERM`), as a service manager would. Whether it did is the
/// caller's to check (its exit), and a guard's drop must not panic.
fn terminate(child: &Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
}

/// A port free on 127.0.0.1 now (for a process that must know it before it starts).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Debian's nginx (`PAIJU_TEST_NGINX`, which scripts/test sets) with the proxy configuration of
/// docs/operations.md, stopped when dropped.
struct Nginx {
    child: Child,
    dir: std::path::PathBuf,
}

impl Drop for Nginx {
    /// A fast shutdown (`TERM`): the master stops its workers, then itself. Killed outright, it
    /// left its worker running, holding the front's port, after the test (found after a CI run);
    /// `KILL` only if it has not gone within 5 s.
    fn drop(&mut self) {
        terminate(&self.child);
        let start = Instant::now();
        while matches!(self.child.try_wait(), Ok(None)) && start.elapsed() < Duration::from_secs(5)
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Nginx {
    /// The `nginx` block of docs/operations.md, as it is there but for the addresses: it listens
    /// on `front` and its three nodes are `nodes`. Fails if the block no longer has the lines
    /// this puts the addresses in (the docs and this test must change together).
    fn documented(front: u16, nodes: [u16; 3]) -> String {
        let doc = include_str!("../../docs/operations.md");
        let mut block = doc
            .split("```nginx\n")
            .nth(1)
            .and_then(|b| b.split("```").next())
            .expect("docs/operations.md has an nginx block")
            .to_string();
        let mut put = |from: &str, to: &str| {
            assert!(
                block.contains(from),
                "the documented nginx config has {from:?}"
            );
            block = block.replace(from, to);
        };
        put("listen 443 ssl;", &format!("listen 127.0.0.1:{front};"));
        for (k, port) in nodes.iter().enumerate() {
            put(
                &format!("10.0.0.{}:8080", k + 1),
                &format!("127.0.0.1:{port}"),
            );
        }
        block
    }

    fn start(front: u16, nodes: [u16; 3]) -> Nginx {
        let bin = std::env::var("PAIJU_TEST_NGINX").expect(
            "PAIJU_TEST_NGINX: Debian's nginx binary (scripts/test installs it and sets it)",
        );
        let dir = std::env::temp_dir().join(format!("paiju-nginx-{}-{front}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Its workers run as `nobody` when started by root: they write their temporary files here.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let d = dir.display();
        let conf = format!(
            "daemon off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
             events {{ worker_connections 1024; }}\n\
             http {{\naccess_log off;\nclient_body_temp_path {d}/body;\nproxy_temp_path {d}/proxy;\n\
             fastcgi_temp_path {d}/fastcgi;\nuwsgi_temp_path {d}/uwsgi;\nscgi_temp_path {d}/scgi;\n\
             {}\n}}\n",
            Self::documented(front, nodes)
        );
        std::fs::write(dir.join("nginx.conf"), conf).unwrap();
        let child = Command::new(&bin)
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .arg("-e")
            .arg(dir.join("error.log"))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{bin}: {e}"));
        let nginx = Nginx { child, dir };
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", front)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "nginx did not listen: {}",
                std::fs::read_to_string(nginx.dir.join("error.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        nginx
    }
}

/// Whether every board of an event's round is played.
fn round_done(v: &Value, round: usize) -> bool {
    v["schedule"][round - 1]["tables"]
        .as_array()
        .is_some_and(|ts| {
            ts.iter().all(|t| {
                t["boards"]
                    .as_array()
                    .is_some_and(|bs| bs.iter().all(|b| b["done"] == true))
            })
        })
}

/// The documented front, for real (issue 27): Debian's nginx with the configuration of
/// docs/operations.md in front of three nodes on one PostgreSQL, each advertising its path on
/// the proxy (`/nK`). Through nginx only: a table is opened and joined (307s followed to
/// `/nK`), its four seats connect (4307s followed) and play; an event of computer pairs is
/// created and its first round played and closed. Then the table's node is killed -9: every
/// acknowledged action is in the log, the seats come back through nginx to the node that took
/// the table over and play on, the event's second round is played and the seed revealed (its
/// node may be the dead one), the board is finished by bots through nginx and verifies, and
/// the lobby through nginx lists the table at a live node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn through_the_documented_nginx_front_play_goes_on_when_a_node_dies() {
    let db = store::postgres::test_database("cluster_nginx");
    let (front, ports) = (free_port(), [free_port(), free_port(), free_port()]);
    let ng: SocketAddr = format!("127.0.0.1:{front}").parse().unwrap();
    let proxy = base(ng);
    let mut nodes: Vec<Option<Node>> = (0..3)
        .map(|k| {
            let advertise = format!("{proxy}/n{}", k + 1);
            Some(node_at(
                &db,
                &format!("127.0.0.1:{}", ports[k]),
                &["--advertise", &advertise],
            ))
        })
        .collect();
    let _nginx = Nginx::start(front, ports);

    let (status, _, text) = http(
        ng,
        "POST",
        "/api/tables",
        Some(&json!({"game": "shengji", "seed": SEED, "board": 3})),
    )
    .await;
    assert_eq!(status, 201, "{text}");
    let t: TableSummary = serde_json::from_str(&text).unwrap();
    let mut tokens = Vec::new();
    for seat in 0..4 {
        let (status, text, _) = http_following(
            ng,
            "POST",
            &format!("/api/tables/{}/join", t.id),
            Some(&json!({"seat": seat, "name": format!("P{seat}")})),
        )
        .await;
        assert_eq!(status, 200, "{text}");
        tokens.push(serde_json::from_str::<Joined>(&text).unwrap().token);
    }
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(Seat::hello(&proxy, &proxy, &t.id, token, None).await.0);
    }
    // Which node serves it: the lobby through nginx says (each node lists it with its node).
    let l = until_listed(ng, "/api/tables", "the table", |l| {
        node_of(l, &t.id).is_some()
    })
    .await;
    let owner = node_of(&l, &t.id).unwrap();
    let k: usize = owner
        .strip_prefix(&format!("{proxy}/n"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the owner is a node behind the proxy: {owner}"));
    let mut next_id = 100;
    let mut acked = play(&mut seats, 20, &mut next_id).await;

    let event = director(
        ng,
        "POST",
        "/api/events",
        json!({"game": "shengji", "name": "代理后面", "tables": 3, "rounds": 2,
               "boards_per_round": 1, "entries": vec![json!({"names": [], "bot": true}); 6]}),
    )
    .await;
    let id = event["id"].as_str().unwrap().to_string();
    let commitment = event["seed_commitment"].clone();
    let until_done = async |round: usize| {
        let start = Instant::now();
        loop {
            let v = director(ng, "GET", &format!("/api/events/{id}"), Value::Null).await;
            if round_done(&v, round) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "round {round}: {v:#}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    director(
        ng,
        "POST",
        &format!("/api/events/{id}/rounds/1/start"),
        json!({}),
    )
    .await;
    until_done(1).await;
    director(
        ng,
        "POST",
        &format!("/api/events/{id}/rounds/1/close"),
        json!({}),
    )
    .await;

    // kill -9 the table's node.
    let mut dead = nodes[k - 1].take().unwrap();
    dead.child.kill().expect("SIGKILL");
    dead.child.wait().unwrap();
    let died = Instant::now();
    drop(seats);
    let log = stored(&db, &t.id).await;
    store::verify(&log.header, &log.log).expect("the chain verifies after a crash");
    for (seq, seat, id) in &acked {
        let e = &log.log[(*seq - 1) as usize];
        assert_eq!(
            (e.seat, e.client_id),
            (*seat, Some(*id)),
            "entry {seq} kept"
        );
    }

    // Back through nginx (a fresh snapshot each: these seats keep no view of their own), at a
    // live node once it has the table, at the last acknowledged step.
    let last = acked.last().unwrap().0;
    let mut seats = Vec::new();
    for token in &tokens {
        let seat = Seat::hello(&proxy, &proxy, &t.id, token, None).await.0;
        assert_eq!(seat.seq, last, "nothing acknowledged lost, nothing more");
        seats.push(seat);
    }
    let took = died.elapsed();
    eprintln!(
        "through nginx: the table served again {took:?} after kill -9 (lease {LEASE_SECS} s)"
    );
    acked.extend(play(&mut seats, 10, &mut next_id).await);
    drop(seats);

    director(
        ng,
        "POST",
        &format!("/api/events/{id}/rounds/2/start"),
        json!({}),
    )
    .await;
    until_done(2).await;
    director(
        ng,
        "POST",
        &format!("/api/events/{id}/rounds/2/close"),
        json!({}),
    )
    .await;
    let revealed = director(ng, "POST", &format!("/api/events/{id}/reveal"), json!({})).await;
    let seed = rules::deal::Seed::from_hex(revealed["seed"].as_str().expect("the seed")).unwrap();
    assert_eq!(
        json!(seed.commitment()),
        commitment,
        "the seed committed to at creation"
    );

    finish_and_verify(&db, ng, &t.id, &tokens).await;
    let l = list(ng, "/api/tables").await;
    let listed = node_of(&l, &t.id).expect("the table in the lobby through nginx");
    assert!(
        listed != owner && listed.starts_with(&format!("{proxy}/n")),
        "{listed}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_table_was_taken_cannot_append_and_does_not_rebuild_it() {
    let db = store::postgres::test_database("cluster_race");
    let a = node(&db);
    let b = node(&db);
    let (t, tokens) = table_with_four(a.addr, b.addr).await;
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(
            Seat::hello(&base(a.addr), &base(a.addr), &t.id, token, None)
                .await
                .0,
        );
    }
    let mut next_id = 100;
    let acked = play(&mut seats, 8, &mut next_id).await;

    // Force the race: the lease runs out while `a` still serves the table, and `b` is asked for
    // it at once, so it takes it over before `a`'s next renewal notices.
    let n = sql(
        &db,
        &format!(
            "UPDATE leases SET expires_at = now() - interval '1 second' WHERE table_id = '{}'",
            t.id
        ),
    )
    .await;
    assert_eq!(n, 1);
    let (status, _, text) = http(b.addr, "GET", &format!("/api/tables/{}", t.id), None).await;
    assert_eq!(status, 200, "b took the table over: {text}");
    // `a` still has the table's actor; an action sent there now must not be stored.
    let seat = seats[0].to_act[0];
    let action = seats[seat].action();
    let decided_at = seats[seat].seq;
    next_id += 1;
    send(
        &mut seats[seat].ws,
        &ClientIn::Act {
            id: next_id,
            action,
            seq: decided_at,
            seat: None,
            reason: None,
        },
    )
    .await;
    loop {
        match next(&mut seats[seat].ws).await {
            Ok(ClientOut::Ack { id, .. }) if id == next_id => {
                panic!("a node without the lease acknowledged an action")
            }
            Ok(ClientOut::Rejected { problem, .. }) => {
                assert_eq!(problem.code, "store_failed", "{problem:?}");
            }
            Ok(_) => {}
            // Closed: the table stopped there (4503: reconnect).
            Err((code, _)) => {
                assert_eq!(code, close::RETRY);
                break;
            }
        }
    }
    drop(seats);
    // `a` does not rebuild the table: while its handle waits for the first retry (200 ms) it
    // still shows the table; then it finds `b` holds the lease, drops the table for good, and
    // sends everyone to `b` (a rebuild here would have kept answering 200).
    let deadline = Instant::now() + Duration::from_secs(3);
    let location = loop {
        let (status, location, _) =
            http(a.addr, "GET", &format!("/api/tables/{}", t.id), None).await;
        if status == 307 {
            break location;
        }
        assert!(
            Instant::now() < deadline,
            "a still answers {status} for the table after 3 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(location.unwrap().starts_with(&base(b.addr)));
    let (seat, closes) =
        Seat::hello(&base(a.addr), &base(b.addr), &t.id, &tokens[0], Some(8)).await;
    assert_eq!(seat.at, base(b.addr));
    assert_eq!(closes, [(close::ELSEWHERE, base(b.addr))]);
    drop(seat);

    // The log has exactly what was acknowledged, as one chain; b finishes the board.
    let t1 = stored(&db, &t.id).await;
    assert_eq!(t1.log.len(), acked.len());
    store::verify(&t1.header, &t1.log).unwrap();
    finish_and_verify(&db, b.addr, &t.id, &tokens).await;
}

/// A stored table of `n` log entries: 80分 with the test seed, every entry chained.
fn sample_table(id: &str, n: u64, state: TableState) -> store::StoredTable {
    let seed = rules::deal::Seed::from_hex(SEED).unwrap();
    let header = store::TableHeader {
        id: id.into(),
        game: "shengji".into(),
        ruleset: "fujian-2024".into(),
        options: "{}".into(),
        deal_algorithm: rules::deal::ALGORITHM.into(),
        seed: SEED.into(),
        seed_commitment: seed.commitment(),
        board: 3,
        fixed: "{}".into(),
        created_ms: 1,
    };
    let mut prev = store::genesis(&header);
    let log = (1..=n)
        .map(|seq| {
            let mut e = store::LogEntry {
                seq,
                seat: (seq % 4) as usize,
                actor: protocol::Actor::Player,
                client_id: Some(seq),
                occupant: Some("00112233aabbccdd".into()),
                reason: None,
                action: format!(r#"{{"n":{seq}}}"#),
                time_ms: 1000 + seq,
                hash: String::new(),
            };
            e.hash = store::entry_hash(&prev, &e);
            prev = e.hash.clone();
            e
        })
        .collect();
    store::StoredTable {
        header,
        state,
        seats: (0..4)
            .map(|seat| store::SeatRecord {
                seat,
                name: Some(format!("P{seat}")),
                token_hash: Some(format!("{seat:064}")),
                bot: false,
            })
            .collect(),
        log,
    }
}

/// An event's header and a log of `n` chained entries.
fn sample_event(id: &str, n: u64) -> (store::CompetitionHeader, Vec<store::CompetitionEntry>) {
    let seed = rules::deal::Seed::from_hex(SEED).unwrap();
    let h = store::CompetitionHeader {
        id: id.into(),
        game: "shengji".into(),
        name: "迁移赛".into(),
        seed: seed.to_hex(),
        seed_commitment: seed.commitment(),
        pair_secret: "cd".repeat(32),
        created_ms: 7,
    };
    let mut prev = store::competition_genesis(&h);
    let log = (1..=n)
        .map(|seq| {
            let mut e = store::CompetitionEntry {
                seq,
                action: format!(r#"{{"type":"start_round","round":{seq}}}"#),
                time_ms: 10 + seq,
                hash: String::new(),
            };
            e.hash = store::competition_entry_hash(&prev, &e);
            prev = e.hash.clone();
            e
        })
        .collect();
    (h, log)
}

#[test]
fn migrate_copies_a_sqlite_store_checking_every_chain() {
    let dir = TempDir::new("migrate");
    let sqlite = dir.path().join("paiju.db");
    {
        let mut s = store::SqliteStore::open(&sqlite).unwrap();
        for t in [
            sample_table("good1", 30, TableState::Playing),
            sample_table("good2", 5, TableState::Closed),
            sample_table("edited", 7, TableState::Over),
        ] {
            let bare = store::StoredTable {
                log: vec![],
                ..t.clone()
            };
            s.create_table(&bare).unwrap();
            let entries: Vec<_> = t
                .log
                .iter()
                .map(|e| (t.header.id.clone(), e.clone()))
                .collect();
            s.append(&entries).unwrap();
            s.set_state(&t.header.id, t.state).unwrap();
        }
        s.connection()
            .execute(
                "UPDATE log SET action = '{}' WHERE table_id = 'edited' AND seq = 4",
                [],
            )
            .unwrap();
        // An event (赛事) with three entries, finished.
        let mut ev = store::SqliteStore::open_competitions(&sqlite).unwrap();
        let (h, log) = sample_event("ev1", 3);
        ev.create_competition(&h, &log[0]).unwrap();
        for e in &log[1..] {
            ev.append_competition("ev1", e).unwrap();
        }
        ev.set_competition_finished("ev1").unwrap();
    }
    let db = store::postgres::test_database("migrate");
    let migrate = || {
        Command::new(env!("CARGO_BIN_EXE_paiju"))
            .arg("migrate")
            .arg("--from")
            .arg(&sqlite)
            .args(["--to", &db])
            .output()
            .unwrap()
    };
    for run in 0..2 {
        // Twice: a second run (an interrupted one started again) changes nothing.
        let out = migrate();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            !out.status.success(),
            "the edited table is reported: {text}"
        );
        assert!(
            text.contains("good1: copied, 30 entries, chain ok"),
            "{run}: {text}"
        );
        assert!(
            text.contains("good2: copied, 5 entries, chain ok"),
            "{run}: {text}"
        );
        assert!(
            text.contains("edited: TAMPERED in the source, not copied"),
            "{text}"
        );
        assert!(
            text.contains("event ev1: copied, 3 entries, chain ok"),
            "{run}: {text}"
        );
    }
    {
        let mut from = store::SqliteStore::open_competitions(&sqlite).unwrap();
        let mut to = PostgresStore::open(&db, None).unwrap();
        let (a, b) = (
            CompetitionStore::competition(&mut from, "ev1")
                .unwrap()
                .unwrap(),
            CompetitionStore::competition(&mut to, "ev1")
                .unwrap()
                .unwrap(),
        );
        assert_eq!((a.header, a.log, a.finished), (b.header, b.log, b.finished));
    }
    let mut pg = PostgresStore::open(&db, None).unwrap();
    assert_eq!(pg.ids().unwrap(), ["good1", "good2"]);
    let mut from = store::SqliteStore::open(&sqlite).unwrap();
    for id in ["good1", "good2"] {
        let (a, b) = (
            from.table(id).unwrap().unwrap(),
            pg.table(id).unwrap().unwrap(),
        );
        assert_eq!(
            (a.header, a.log, a.seats, a.state),
            (b.header, b.log, b.seats, b.state)
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args(["verify", "--db", &db])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A target that differs is refused, not overwritten.
    pg.execute("DELETE FROM log WHERE table_id = 'good1' AND seq = 30")
        .unwrap();
    pg.execute("UPDATE log SET action = '{}' WHERE table_id = 'good1' AND seq = 29")
        .unwrap();
    let text = String::from_utf8_lossy(&migrate().stdout).to_string();
    assert!(
        text.contains("good1: already in the target, and different"),
        "{text}"
    );
}
