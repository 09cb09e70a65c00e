//! Crash recovery with the real binary: `paiju serve` as a process, part of an 80分 board played
//! over WebSockets, SIGKILL, a restart on the same database, the clients resume and finish.
//! Nothing acknowledged is lost, an action in flight at the crash is applied at most once, and
//! the result equals a replay of the stored log.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use protocol::{ClientIn, ClientOut, Joined, TableState, TableSummary};
use rules::{Engine, Viewer};
use serde_json::{json, Value};
use server::store::{self, SqliteStore, Store};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

mod tmp_support;
use tmp_support::TempDir;

const REFEREE: &str = "crash-test-referee-token-5f9c2a7e41b8d3";
const SEED: &str = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100";

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The server process, killed if the test fails half-way.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `paiju serve` on a free port; returns the process and its address.
fn serve(db: &Path) -> (Server, SocketAddr) {
    serve_with(db, &[])
}

/// [`serve`] with more flags.
fn serve_with(db: &Path, extra: &[&str]) -> (Server, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args(["serve", "--listen", "127.0.0.1:0", "--bot-delay-ms", "0"])
        .args(["--practice-daily", "off"])
        .arg("--db")
        .arg(db)
        .args(["--referee-token", REFEREE])
        .args(extra)
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
    // Keep reading so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (Server(child), addr)
}

async fn connect(addr: SocketAddr, table: &str) -> Ws {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{table}"))
        .await
        .expect("websocket")
        .0
}

async fn send(ws: &mut Ws, m: &ClientIn) {
    ws.send(Message::text(serde_json::to_string(m).unwrap()))
        .await
        .unwrap();
}

async fn recv(ws: &mut Ws) -> ClientOut {
    loop {
        let f = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message in time")
            .expect("open")
            .expect("a frame");
        if let Message::Text(t) = f {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// One seat's connection and what it knows.
struct Seat {
    ws: Ws,
    view: Value,
    to_act: Vec<usize>,
    seq: u64,
}

impl Seat {
    async fn hello(addr: SocketAddr, table: &str, token: &str, last_seq: Option<u64>) -> Seat {
        let mut ws = connect(addr, table).await;
        send(
            &mut ws,
            &ClientIn::Hello {
                token: Some(token.into()),
                last_seq,
                device: None,
            },
        )
        .await;
        let ClientOut::Welcome { seq, .. } = recv(&mut ws).await else {
            panic!("welcome")
        };
        let mut seat = Seat {
            ws,
            view: Value::Null,
            to_act: vec![],
            seq: last_seq.unwrap_or(0),
        };
        match last_seq {
            None => loop {
                let m = recv(&mut seat.ws).await;
                seat.take(&m);
                if matches!(m, ClientOut::Snapshot { .. }) {
                    break;
                }
            },
            Some(n) if n < seq => seat.until(seq).await,
            Some(_) => {}
        }
        seat
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

    /// Reads until this seat has seen entry `seq`.
    async fn until(&mut self, seq: u64) {
        while self.seq < seq {
            let m = recv(&mut self.ws).await;
            self.take(&m);
        }
    }

    /// Reads until the ack of `id`; its seq.
    async fn ack(&mut self, id: u64) -> u64 {
        loop {
            let m = recv(&mut self.ws).await;
            self.take(&m);
            match m {
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

fn stored(db: &Path, table: &str) -> store::StoredTable {
    SqliteStore::open(db)
        .unwrap()
        .table(table)
        .unwrap()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_board_loses_nothing_acknowledged() {
    // Declared before the servers: removed after their `Drop` killed them.
    let dir = TempDir::new("crash");
    let db = dir.path().join("paiju.db");

    let (mut child, addr) = serve(&db);
    let t: TableSummary = bots::http::post_json(
        addr,
        "/api/tables",
        &json!({"game": "shengji", "seed": SEED, "board": 3}),
    )
    .await
    .unwrap();
    let mut tokens = Vec::new();
    for seat in 0..4 {
        let j: Joined = bots::http::post_json(
            addr,
            &format!("/api/tables/{}/join", t.id),
            &json!({"seat": seat, "name": format!("P{seat}")}),
        )
        .await
        .unwrap();
        tokens.push(j.token);
    }
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(Seat::hello(addr, &t.id, token, None).await);
    }
    // Play 40 acknowledged actions (the burial and ten tricks), remembering every ack.
    let mut acked: Vec<(u64, usize, u64)> = Vec::new();
    let mut next_id = 100;
    while acked.len() < 40 {
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
        let seq = seats[seat].ack(next_id).await;
        acked.push((seq, seat, next_id));
        for s in seats.iter_mut() {
            s.until(seq).await;
        }
    }
    // One more action goes out, and the server dies before we know its fate.
    let in_flight_seat = seats[0].to_act[0];
    let in_flight = (next_id + 1, seats[in_flight_seat].action());
    // Decided on the last acknowledged state: the resend after the restart says so too.
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
    child.0.kill().expect("SIGKILL");
    child.0.wait().unwrap();
    drop(seats);

    // Everything acknowledged is in the log, with its seat and id, and the chain is intact.
    let t1 = stored(&db, &t.id);
    store::verify(&t1.header, &t1.log).expect("the chain verifies after a crash");
    for (seq, seat, id) in &acked {
        let e = &t1.log[(*seq - 1) as usize];
        assert_eq!((e.seat, e.client_id), (*seat, Some(*id)), "entry {seq}");
    }
    assert!(t1.log.len() as u64 >= acked.last().unwrap().0);

    // Restart on the same database: the table is rebuilt; the clients resume from their seq.
    let (mut child, addr) = serve(&db);
    let last = acked.last().unwrap().0;
    let mut seats = Vec::new();
    for token in &tokens {
        seats.push(Seat::hello(addr, &t.id, token, Some(last)).await);
    }
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

    // Finish the board with bot clients.
    let mut tasks = Vec::new();
    for token in tokens.clone() {
        let url = format!("ws://{addr}/ws/{}", t.id);
        tasks.push(tokio::spawn(async move {
            // Paced under the server's per-connection rate limit (10 messages a second).
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

    // The result equals a replay of the log.
    let mut referee = connect(addr, &t.id).await;
    send(
        &mut referee,
        &ClientIn::Hello {
            token: Some(REFEREE.into()),
            last_seq: None,
            device: None,
        },
    )
    .await;
    recv(&mut referee).await;
    let ClientOut::Snapshot { view, state, .. } = recv(&mut referee).await else {
        panic!("snapshot")
    };
    assert_eq!(state, TableState::Over);
    let t2 = stored(&db, &t.id);
    store::verify(&t2.header, &t2.log).unwrap();
    // Ids are per occupant (seat token): no occupant's id was applied twice.
    let ids: Vec<(Option<String>, u64)> = t2
        .log
        .iter()
        .filter_map(|e| e.client_id.map(|id| (e.occupant.clone(), id)))
        .collect();
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "no id applied twice");
    let seed = rules::deal::Seed::from_hex(SEED).unwrap();
    let mut board = <rules::shengji::Board as server::TableGame>::start(
        "fujian-2024",
        &seed,
        3,
        &Default::default(),
    )
    .unwrap();
    for e in &t2.log {
        Engine::apply(
            &mut board,
            e.seat,
            e.actor,
            serde_json::from_str(&e.action).unwrap(),
        )
        .unwrap();
    }
    assert!(Engine::is_over(&board));
    assert_eq!(
        serde_json::to_value(Engine::view(&board, Viewer::Referee)).unwrap(),
        view
    );

    // A graceful stop this time.
    Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .status()
        .unwrap();
    assert!(child.0.wait().unwrap().success(), "a graceful stop");
}

const DIRECTOR: &str = "crash-test-director-token-8d2e6b4f1a9c7e";

/// A practice set killed mid-board: the player comes back to the same table at the same step,
/// the board is finished there, and the set's log and the table's pass `paiju verify`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_practice_board_keeps_the_set_and_the_players_table() {
    let dir = TempDir::new("crash-practice");
    let db = dir.path().join("paiju.db");
    let flags = ["--director-token", DIRECTOR];
    let (mut child, addr) = serve_with(&db, &flags);
    let body = json!({"game": "shengji", "boards": 2, "references": []}).to_string();
    let (status, text) =
        bots::http::request_as(addr, "POST", "/api/practice", Some(&body), Some(DIRECTOR))
            .await
            .unwrap();
    assert_eq!(status, 200, "{text}");
    let set: Value = serde_json::from_str(&text).unwrap();
    let id = set["id"].as_str().expect("a set").to_string();
    let player: Value = bots::http::post_json(addr, "/api/players", &json!({"name": "周老师"}))
        .await
        .unwrap();
    let code = player["token"].as_str().unwrap().to_string();
    let join = |addr: SocketAddr| {
        let (id, code) = (id.clone(), code.clone());
        async move {
            let v: Value = bots::http::post_json(
                addr,
                &format!("/api/practice/{id}/join"),
                &json!({"token": code, "level": "beginner"}),
            )
            .await
            .unwrap();
            v
        }
    };
    let seat = join(addr).await;
    let table = seat["table"].as_str().unwrap().to_string();
    let token = seat["token"].as_str().unwrap().to_string();
    // Part of the board: the player's computer plays, 0.15 s a move, for a second (a board
    // is 25 of its moves), then the server dies.
    let opts = bots::client::BotOptions {
        think: Duration::from_millis(150),
        stop: Some(tokio::time::Instant::now() + Duration::from_secs(1)),
        ..Default::default()
    };
    let url = format!("ws://{addr}/ws/{table}");
    let player = Box::new(bots::shengji::Player::new(
        bots::Level::Club,
        bots::Budget::DEFAULT,
    ));
    let report = bots::client::play_as::<rules::shengji::Board>(&url, &token, opts, player)
        .await
        .unwrap();
    assert!(!report.over, "stopped mid-board");
    let before = stored(&db, &table);
    assert!(before.log.len() > 4, "some of the board was played");
    child.0.kill().unwrap();
    child.0.wait().unwrap();

    let (child, addr) = serve_with(&db, &flags);
    let again = join(addr).await;
    assert_eq!(
        again["table"].as_str(),
        Some(table.as_str()),
        "the same table"
    );
    assert_eq!(again["board"], 1);
    let url = format!("ws://{addr}/ws/{table}");
    let player = Box::new(bots::shengji::Player::new(
        bots::Level::Club,
        bots::Budget::DEFAULT,
    ));
    let report =
        bots::client::play_as::<rules::shengji::Board>(&url, &token, Default::default(), player)
            .await
            .unwrap();
    assert!(report.over, "finished after the restart");
    let after = stored(&db, &table);
    assert_eq!(
        &after.log[..before.log.len()],
        &before.log[..],
        "every entry before the kill is there, unchanged"
    );
    let run: Value = bots::http::post_json(
        addr,
        &format!("/api/practice/{id}/run"),
        &json!({"token": code}),
    )
    .await
    .unwrap();
    assert_eq!(run["boards"][0]["done"], true, "{run}");
    assert_eq!(run["boards"][1]["now"], true, "{run}");
    drop(child);
    let out = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args(["verify", "--event", &id, "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("its tables ok"), "{text}");
}
