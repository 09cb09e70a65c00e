//! The two floors an action's cost is measured against: the network's (a bare fan-out echo
//! server with the load's connections and pacing, [`serve_echo`], [`echo_round_trips`]) and
//! the disk's (single-row SQLite commits with the server's settings, [`commit_floor`], and
//! their CPU at the server's own pace, [`paced_commits`]).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use tokio::task::JoinSet;

use super::options::LoadOptions;
use super::proc::{thread_cpu, threads_cpu_seconds};
use crate::client;

/// `paiju load --echo-server`: the network floor, a bare tokio-tungstenite fan-out server on a
/// free loopback port. Prints `echo ws://ADDR/` and serves until its standard input closes (the
/// generator went).
///
/// A connection to `/t/{group}/{bytes}` joins group `group` (a table). Each text frame it sends
/// comes back to it, and a frame of `bytes` bytes (the size of the server's frames) goes to every
/// other connection of its group: the frames a table's action makes the server write, and
/// nothing else (no parsing, rules, store or views). A frame that starts with a number and a
/// space (`1095 {…}`) sets that size for its sender's frames from then on: `paiju load
/// --blocks` sizes them turn by turn, as the play's. Each connection has a writer task fed by a
/// queue, as the server's do, so that one slow socket holds up nobody else.
pub async fn serve_echo() -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!("echo ws://{addr}/");
    let groups = Groups::default();
    let accept = async move {
        let mut told = false;
        let mut next_id = 0u64;
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of files: say so once and keep going (the generator's deadline tells).
                Err(e) => {
                    if !told {
                        eprintln!("echo server: accept: {e}");
                        told = true;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            next_id += 1;
            tokio::spawn(fan_out_connection(stream, next_id, groups.clone()));
        }
    };
    // Standard input closes when the generator goes, however it goes: then so does this.
    std::thread::spawn(|| {
        let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
        std::process::exit(0);
    });
    accept.await;
    Ok(())
}

/// One connection of the fan-out floor: its id and its writer's queue.
type Member = (u64, tokio::sync::mpsc::Sender<Message>);

/// The fan-out floor's tables: the connections of each group.
type Groups = Arc<std::sync::Mutex<std::collections::HashMap<u64, Vec<Member>>>>;

async fn fan_out_connection(stream: tokio::net::TcpStream, id: u64, groups: Groups) {
    let mut path = String::new();
    // The callback's error type is tungstenite's HTTP response, large by its design.
    #[allow(clippy::result_large_err)]
    let ws = tokio_tungstenite::accept_hdr_async_with_config(
        stream,
        |req: &tokio_tungstenite::tungstenite::handshake::server::Request, resp| {
            path = req.uri().path().to_string();
            Ok(resp)
        },
        Some(client::small_buffers()),
    )
    .await;
    let Ok(ws) = ws else { return };
    // `/t/{group}/{bytes}`; anything else is a group of its own with small frames.
    let mut parts = path.trim_start_matches("/t/").split('/');
    let group: u64 = parts
        .next()
        .and_then(|g| g.parse().ok())
        .unwrap_or(u64::MAX - id);
    let mut bytes: usize = parts
        .next()
        .and_then(|b| b.parse().ok())
        .unwrap_or(0)
        .min(MOST_BYTES);
    let mut frame = padded(bytes);
    let (mut sink, mut stream) = ws.split();
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Message>(64);
    groups
        .lock()
        .unwrap()
        .entry(group)
        .or_default()
        .push((id, tx.clone()));
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.send(m).await.is_err() {
                return;
            }
        }
    });
    while let Some(Ok(m)) = stream.next().await {
        let Message::Text(text) = &m else { continue };
        // A frame that starts with a size and a space resizes the frames this connection fans
        // out from then on (`paiju load --blocks`: the play's frames' size, turn by turn).
        if let Some(size) = resized(text.as_str()) {
            if size != bytes {
                bytes = size;
                frame = padded(bytes);
            }
        }
        let _ = tx.try_send(m);
        for (other, tx) in &groups.lock().unwrap()[&group] {
            if *other != id {
                let _ = tx.try_send(frame.clone());
            }
        }
    }
    if let Some(members) = groups.lock().unwrap().get_mut(&group) {
        members.retain(|(other, _)| *other != id);
    }
    writer.abort();
}

/// The most a fan-out frame is padded to.
const MOST_BYTES: usize = 64 * 1024;

/// A text frame of about `bytes` bytes: what the fan-out floor writes to each other seat.
fn padded(bytes: usize) -> Message {
    Message::text(format!(
        "{{\"pad\":\"{}\"}}",
        "x".repeat(bytes.min(MOST_BYTES).saturating_sub(10))
    ))
}

/// The size a sender's frame asks the fan-out floor's frames to have: its leading digits, if a
/// space follows them.
fn resized(text: &str) -> Option<usize> {
    let (size, _) = text.split_once(' ')?;
    if size.is_empty() || !size.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    size.parse().ok().map(|n: usize| n.min(MOST_BYTES))
}

/// Round trips each table's sender times in the network floor.
pub(super) const ECHO_ROUNDS: usize = 20;

/// The network floor, measured: its round trips and the fan-out server's CPU per action.
pub(super) struct EchoFloor {
    pub round_trips: Vec<Duration>,
    pub cpu_per_message: Duration,
}

/// The network floor: as many connections as the load has, grouped in tables and paced the same
/// way: one seat of each table sends (a table has one action in flight at a time) and times its
/// frame's way back, while the fan-out server ([`serve_echo`]) writes a frame of `frame_bytes` to
/// each other seat, which reads it. Everyone connects first (a connection that fails ends the
/// phase at once, with the reason), then the rounds start together. The server's CPU is read
/// from /proc (`pid`) from the start of the rounds to the last sender's last round trip.
pub(super) async fn echo_round_trips(
    addr: SocketAddr,
    pid: Option<u32>,
    opts: &LoadOptions,
    frame_bytes: usize,
    rounds: usize,
    gate: Option<FloorGate>,
) -> Result<EchoFloor, String> {
    // A frame the size of a typical action.
    let payload = r#"{"type":"act","id":1,"action":{"type":"play","cards":["S10","S10"]}}"#;
    let (tables, seats, think, deadline) = (opts.tables, opts.seats, opts.think, opts.deadline);
    let connections = tables * seats;
    let (connected_tx, mut connected) = tokio::sync::mpsc::channel::<Result<(), String>>(1024);
    let (go_tx, go_rx) = tokio::sync::watch::channel(false);
    let (done_tx, done_rx) = tokio::sync::watch::channel(false);
    let (senders, mut told_connected) = gate.map(|g| (g.senders, g.connected)).unzip();
    let mut tasks = JoinSet::new();
    for c in 0..connections {
        let connected_tx = connected_tx.clone();
        let mut go = go_rx.clone();
        let mut done = done_rx.clone();
        let mut senders = senders.clone();
        tasks.spawn(async move {
            let mut rng = client::mix(c as u64) | 1;
            let url = format!("ws://{addr}/t/{}/{frame_bytes}", c / seats);
            let ws = tokio_tungstenite::connect_async_with_config(
                &url,
                Some(client::small_buffers()),
                true,
            )
            .await;
            let mut ws = match ws {
                Ok((ws, _)) => {
                    let _ = connected_tx.send(Ok(())).await;
                    ws
                }
                Err(e) => {
                    let _ = connected_tx.send(Err(e.to_string())).await;
                    return Ok((false, Vec::new()));
                }
            };
            drop(connected_tx);
            let _ = go.wait_for(|g| *g).await;
            if c % seats != 0 {
                // A seat not to act: reads what the table's actions send it.
                loop {
                    tokio::select! {
                        _ = done.wait_for(|d| *d) => return Ok((false, Vec::new())),
                        frame = ws.next() => if !matches!(frame, Some(Ok(_))) {
                            return Ok((false, Vec::new()));
                        },
                    }
                }
            }
            let mut out = Vec::with_capacity(rounds.min(1024));
            for _ in 0..rounds {
                // In turns, the frames fanned out are the size of the play's so far.
                let text = match &mut senders {
                    None => {
                        tokio::time::sleep(client::jitter(think, &mut rng)).await;
                        payload.to_string()
                    }
                    Some(s) => {
                        if !floors_turn(&mut s.turn, think, &mut rng).await {
                            break;
                        }
                        s.sent.fetch_add(1, Ordering::Relaxed);
                        format!("{} {payload}", s.frame_bytes.load(Ordering::Relaxed))
                    }
                };
                let t = Instant::now();
                ws.send(Message::text(text.as_str()))
                    .await
                    .map_err(|e| e.to_string())?;
                loop {
                    match ws.next().await {
                        Some(Ok(Message::Text(t))) if t.as_str() != text => continue,
                        Some(Ok(_)) => break,
                        Some(Err(e)) => return Err(e.to_string()),
                        None => return Err("the echo server closed".into()),
                    }
                }
                out.push(t.elapsed());
            }
            Ok::<_, String>((true, out))
        });
    }
    drop(connected_tx);
    let started = Instant::now();
    let mut open = 0;
    while open < connections {
        let left = deadline.saturating_sub(started.elapsed());
        match tokio::time::timeout(left, connected.recv()).await {
            Ok(Some(Ok(()))) => open += 1,
            Ok(Some(Err(e))) => {
                return Err(format!(
                    "echo floor: connection {} of {connections} failed: {e}",
                    open + 1
                ))
            }
            Ok(None) => return Err("echo floor: the connecting tasks ended".into()),
            Err(_) => {
                return Err(format!(
                    "echo floor: only {open} of {connections} connections open after {deadline:?}"
                ))
            }
        }
    }
    let server_cpu = || pid.map(threads_cpu_seconds).unwrap_or(0.0);
    let cpu0 = server_cpu();
    if let Some(told) = told_connected.take() {
        let _ = told.send(());
    }
    let _ = go_tx.send(true);
    let mut all = Vec::new();
    let mut senders_left = tables;
    while senders_left > 0 {
        let left = deadline.saturating_sub(started.elapsed());
        match tokio::time::timeout(left, tasks.join_next()).await {
            Ok(Some(Ok(Ok((sender, v))))) => {
                if sender {
                    senders_left -= 1;
                }
                all.extend(v);
            }
            Ok(Some(Ok(Err(e)))) => return Err(format!("echo floor: {e}")),
            Ok(Some(Err(e))) => return Err(format!("echo floor: {e}")),
            Ok(None) => break,
            Err(_) => {
                return Err(format!(
                    "echo floor: {senders_left} senders still going after {deadline:?}"
                ))
            }
        }
    }
    let cpu = server_cpu() - cpu0;
    let _ = done_tx.send(true);
    // The quiet ones close now; no need to wait for their closing handshakes.
    tasks.abort_all();
    Ok(EchoFloor {
        cpu_per_message: Duration::from_secs_f64(cpu / all.len().max(1) as f64),
        round_trips: all,
    })
}

/// Whose turn it is in a load of alternating blocks (`paiju load --blocks`): the tables play
/// while the floors wait, then the floors are measured alone while the tables are held, and so
/// on, so that both see the machine in the same spells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Turn {
    Play,
    Floors,
    /// The load is over: the floors stop.
    Over,
}

/// The fan-out floor in blocks: what each sender shares, and who is told once every
/// connection is open.
pub(super) struct FloorGate {
    pub senders: FloorSenders,
    pub connected: tokio::sync::oneshot::Sender<()>,
}

/// What the fan-out floor's senders share in blocks: whose turn it is, a count of the frames
/// they sent (the run reads it at each turn's end), and the size of the frames to fan out (the
/// play's mean so far, set by the run).
#[derive(Clone)]
pub(super) struct FloorSenders {
    pub turn: tokio::sync::watch::Receiver<Turn>,
    pub sent: Arc<std::sync::atomic::AtomicU64>,
    pub frame_bytes: Arc<std::sync::atomic::AtomicUsize>,
}

/// A floor sender's wait for its next frame in blocks: a think time, drawn and spent in the
/// floors' turn (as a bot's in the play's, [`client::after_hold`] after a hold). False once the
/// load is over.
async fn floors_turn(
    turn: &mut tokio::sync::watch::Receiver<Turn>,
    think: Duration,
    rng: &mut u64,
) -> bool {
    let mut held = false;
    loop {
        let now = *turn.borrow_and_update();
        match now {
            Turn::Over => return false,
            Turn::Play => {
                held = true;
                if turn.changed().await.is_err() {
                    return false;
                }
            }
            Turn::Floors => {
                let wait = if std::mem::take(&mut held) {
                    client::after_hold(think, rng)
                } else {
                    client::jitter(think, rng)
                };
                tokio::select! {
                    _ = tokio::time::sleep(wait) => return true,
                    changed = turn.changed() => {
                        if changed.is_err() {
                            return false;
                        }
                        held = true;
                    }
                }
            }
        }
    }
}

/// The commit floor in blocks: what its commits in the floors' turns have cost so far, read by
/// the run at each turn's end.
#[derive(Default)]
pub(super) struct CommitTally {
    pub commits: std::sync::atomic::AtomicU64,
    /// Their CPU on the committing thread, in nanoseconds (the sync's system time included).
    pub cpu_ns: std::sync::atomic::AtomicU64,
    /// The pause before each, in microseconds: the server's mean interval between commits in
    /// the blocks of play so far (the run sets it).
    pub every_us: std::sync::atomic::AtomicU64,
}

/// The commit floor in blocks: a fresh file warmed as [`paced_commits`]'s, then single-row
/// commits at the server's pace (`tally.every_us`) in the floors' turns only, each one's CPU
/// added to `tally`, until the load is over.
pub(super) fn commits_in_floor_turns(
    dir: PathBuf,
    mut turn: tokio::sync::watch::Receiver<Turn>,
    tally: Arc<CommitTally>,
) -> tokio::task::JoinHandle<Result<(), String>> {
    tokio::task::spawn_blocking(move || {
        let conn = floor_db(&dir.join("commit-blocks.db"))?;
        for seq in 0..PACED_WARM_UP {
            commit_one(&conn, seq)?;
        }
        let mut seq = PACED_WARM_UP;
        loop {
            // The run went without saying so (a signal stopped it): so does this thread, or the
            // runtime would wait for it for ever.
            if turn.has_changed().is_err() {
                return Ok(());
            }
            match *turn.borrow_and_update() {
                Turn::Over => return Ok(()),
                Turn::Play => {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
                Turn::Floors => {}
            }
            let every = Duration::from_micros(tally.every_us.load(Ordering::Relaxed).max(100));
            std::thread::sleep(every);
            // The turn ended in the pause: this commit would fall in the play's.
            if turn.has_changed().unwrap_or(true) {
                continue;
            }
            let cpu = thread_cpu();
            commit_one(&conn, seq)?;
            let cpu = thread_cpu().saturating_sub(cpu);
            seq += 1;
            tally.commits.fetch_add(1, Ordering::Relaxed);
            tally
                .cpu_ns
                .fetch_add(cpu.as_nanos() as u64, Ordering::Relaxed);
        }
    })
}

/// The durability floor: `rounds` single-row transactions, each timed from `BEGIN` to the end
/// of `COMMIT`, in a fresh file in `dir` (beside the server's database: the same disk), with the
/// server's settings: WAL and `synchronous=FULL`, so every commit waits for its fsync.
///
/// Also returns the CPU one commit took on this thread (the second pass's mean, system time and
/// the fsync included): the durability floor of the server's CPU per action.
pub fn commit_floor(dir: &Path, rounds: usize) -> Result<(Vec<Duration>, Duration), String> {
    let e = |e: rusqlite::Error| format!("commit floor: {e}");
    let conn = floor_db(&dir.join("commit-floor.db"))?;
    let mut out = Vec::with_capacity(rounds);
    let mut cpu = Duration::ZERO;
    // Twice: the first pass grows a fresh WAL file, so each of its fsyncs also writes the
    // file's new size; a running server's WAL has long reached its size and is rewritten in
    // place after each checkpoint. The second pass, timed, starts over the first one's frames.
    for pass in 0..2 {
        let cpu0 = thread_cpu();
        for i in 0..rounds {
            let t = Instant::now();
            commit_one(&conn, pass * rounds + i)?;
            if pass == 1 {
                out.push(t.elapsed());
            }
        }
        cpu = thread_cpu().saturating_sub(cpu0) / rounds.max(1) as u32;
        conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(()))
            .map_err(e)?;
    }
    drop(conn);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("commit-floor.db{suffix}")));
    }
    Ok((out, cpu))
}

/// A floor's database file with the server's settings: WAL, `synchronous=FULL`.
pub(super) fn floor_db(path: &Path) -> Result<rusqlite::Connection, String> {
    let e = |e: rusqlite::Error| format!("commit floor: {e}");
    let conn = rusqlite::Connection::open(path).map_err(e)?;
    conn.pragma_update(None, "journal_mode", "WAL").map_err(e)?;
    conn.pragma_update(None, "synchronous", "FULL").map_err(e)?;
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY, entry TEXT NOT NULL)",
    )
    .map_err(e)?;
    Ok(conn)
}

/// One single-row transaction, a row about the size of a stored action (its JSON, ids, hash).
/// Its three statements come from the statement cache, as the server's do: a floor parses no
/// SQL.
pub(super) fn commit_one(conn: &rusqlite::Connection, seq: usize) -> Result<(), String> {
    let e = |e: rusqlite::Error| format!("commit floor: {e}");
    conn.prepare_cached("BEGIN")
        .and_then(|mut s| s.execute([]))
        .map_err(e)?;
    conn.prepare_cached("INSERT INTO log (seq, entry) VALUES (?1, ?2)")
        .and_then(|mut s| s.execute(rusqlite::params![seq as i64, "x".repeat(200)]))
        .map_err(e)?;
    conn.prepare_cached("COMMIT")
        .and_then(|mut s| s.execute([]))
        .map_err(e)?;
    Ok(())
}

/// [`commit_floor`] off the async workers: 100 commits in `dir`.
pub(super) async fn floor(dir: &Path) -> Result<(Vec<Duration>, Duration), String> {
    let dir = dir.to_path_buf();
    tokio::task::spawn_blocking(move || commit_floor(&dir, 100))
        .await
        .map_err(|e| e.to_string())?
}

/// The commit floor's CPU at the pace the server committed, measured beside the fan-out floor
/// after the play.
#[derive(Debug, Clone, Copy)]
pub struct PacedCommits {
    /// Commits timed (the warm-up left out).
    pub commits: usize,
    /// Their mean CPU on the committing thread (system time and the sync included).
    pub cpu_per_commit: Duration,
    /// The pause before each: the mean interval between the server's commits in the play.
    pub every: Duration,
}

/// Commits that grow a fresh floor file's WAL to its working size before the timed ones: past
/// SQLite's automatic checkpoint (1,000 pages; a commit writes about one), after which the WAL is
/// rewritten in place, as a running server's is. Before that point each sync also writes the
/// file's new size.
const PACED_WARM_UP: usize = 1_100;

/// The fewest commits [`paced_commits`] times, however soon it is told to stop.
const PACED_AT_LEAST: usize = 10;

/// The commit floor at the server's pace: single-row commits (as [`commit_floor`]'s), one every
/// `every`, until `stop` is set (and at least [`PACED_AT_LEAST`]), each one's CPU read on its
/// thread. Returns once the file is warm ([`PACED_WARM_UP`]), with the task that times the
/// paced commits: run it beside the fan-out floor after the play, so that the two floors
/// together load the machine as the play did.
///
/// Why not the tight loop's figure: a commit that follows another at once finds its code, its
/// pages and the disk's driver warm and the core awake. The server's commits come one every few
/// milliseconds at a human pace, each on a core that went idle since the last. On this project's
/// machine, at the pace of 1,000 tables (a commit every 5 ms), that costs a single-row commit
/// about twice the CPU of the tight loop's; at 4,950 tables (one every 1.3 ms) about the same
/// (docs/performance.md, "Ninth round"). The fan-out floor is paced like the play for the same
/// reason.
pub(super) async fn paced_commits(
    dir: PathBuf,
    every: Duration,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> tokio::task::JoinHandle<Result<PacedCommits, String>> {
    let (warm_tx, warm_rx) = tokio::sync::oneshot::channel();
    let task = tokio::task::spawn_blocking(move || {
        let conn = floor_db(&dir.join("commit-paced.db"))?;
        for seq in 0..PACED_WARM_UP {
            commit_one(&conn, seq)?;
        }
        let _ = warm_tx.send(());
        let timed = commits_at_pace(&conn, PACED_WARM_UP, every, PACED_AT_LEAST, &stop)?;
        let cpu: Duration = timed.iter().map(|c| c.cpu).sum();
        // The file goes with the load's temporary directory, as the floor during the play's.
        Ok(PacedCommits {
            commits: timed.len(),
            cpu_per_commit: cpu / timed.len() as u32,
            every,
        })
    });
    // Warm, or failed: then the task's outcome says why.
    let _ = warm_rx.await;
    task
}

/// How often the commit floor commits while the tables play.
pub const COMMIT_EVERY: Duration = Duration::from_millis(200);

/// The commit floor while the tables play: one single-row commit every [`COMMIT_EVERY`] in a
/// file of its own beside the server's database, until `stop` is set (at least one).
pub(super) fn commit_floor_during(
    dir: PathBuf,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> tokio::task::JoinHandle<Result<Vec<Duration>, String>> {
    tokio::task::spawn_blocking(move || {
        let conn = floor_db(&dir.join("commit-during.db"))?;
        let timed = commits_at_pace(&conn, 0, COMMIT_EVERY, 1, &stop)?;
        Ok(timed.iter().map(|c| c.wall).collect())
    })
}

/// One commit of a paced floor: how long it took, and its CPU on the committing thread.
struct Timed {
    wall: Duration,
    cpu: Duration,
}

/// The paced floors' loop: single-row commits on `conn` numbered from `first`, each after a
/// pause of `every` (so that it finds the core and the caches as a server's commit after a quiet
/// spell does), until `stop` is set and at least `at_least` are made.
fn commits_at_pace(
    conn: &rusqlite::Connection,
    first: usize,
    every: Duration,
    at_least: usize,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Vec<Timed>, String> {
    let mut out = Vec::new();
    while out.len() < at_least || !stop.load(Ordering::Relaxed) {
        std::thread::sleep(every);
        let (t, cpu) = (Instant::now(), thread_cpu());
        commit_one(conn, first + out.len())?;
        out.push(Timed {
            wall: t.elapsed(),
            cpu: thread_cpu().saturating_sub(cpu),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{resized, MOST_BYTES};

    /// Only leading digits and a space resize the fan-out: an action's JSON never does.
    #[test]
    fn a_frame_resizes_the_fan_out_only_with_a_leading_size() {
        let act = r#"{"type":"act","id":1,"action":{"type":"play","cards":["S10","S10"]}}"#;
        assert_eq!(resized(&format!("1797 {act}")), Some(1797));
        assert_eq!(resized(&format!("999999999 {act}")), Some(MOST_BYTES));
        for text in [act, " 12", "12a {}", "-5 {}", "12"] {
            assert_eq!(resized(text), None, "{text}");
        }
    }
}
