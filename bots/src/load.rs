//! The load generator (`paiju load`): N tables of bot clients over real WebSockets on loopback.
//!
//! It starts `paiju serve` as a separate process (so the server's memory and CPU can be read
//! from `/proc/<pid>`), and measures two floors in the same run:
//!
//! - the network floor: a bare tokio-tungstenite fan-out server, in a child process of its own
//!   (`paiju load --echo-server`), with as many connections open as the load has, grouped in
//!   tables, and the same pacing (one sender per table): each frame goes back to its sender and
//!   a frame of the size the server sent goes to every other seat of the table, so it writes
//!   the frames an action makes the server write and does nothing else. It runs after the
//!   tables played (it needs their mean frame size), once the server has stopped;
//! - the durability floor: single-row SQLite transactions with the server's settings (WAL,
//!   `synchronous=FULL`) in a file beside the server's database, so on the same disk, before
//!   and after the run, with the CPU one commit takes; and the server's own group commits while
//!   the tables play (/metrics).
//!
//! Then it creates the tables, and seats each one with a WebSocket bot in every seat, which
//! connects at once and plays one board or game. It prints actions per second, the action round
//! trip (send `act` → that action's `events` back: stored, acknowledged and broadcast) at p50
//! and p99, its mean split into echo, commit and our own cost, the server's CPU per action split
//! the same way (the fan-out server's CPU per action, one commit's CPU times the server's commits
//! per action, and the rest, our own), and its memory per table.
//!
//! With `--nodes N --db postgres://…` it starts N servers on one database ([`Nodes`]); table i
//! is created on node i mod N and its bots connect there; CPU, memory and commits are summed.
//!
//! Every process holds one socket per connection (the server, the echo server, this generator),
//! so each needs as many open files as there are connections: [`open_files`] checks (and lifts
//! the soft limit up to the hard one) before anything starts, and every phase has a deadline, so
//! a run that cannot finish says why instead of hanging.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rules::Engine;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::Message;

use crate::client::{self, BotOptions};

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    pub tables: usize,
    /// `shengji` or `gouji`.
    pub game: String,
    /// Seats per table (4 or 6).
    pub seats: usize,
    /// Bot thinking time per action.
    pub think: Duration,
    /// The `paiju` binary to start as the server (and as the echo server).
    pub exe: PathBuf,
    /// Each phase (echo floor, creating the tables, playing) gives up after this long.
    pub deadline: Duration,
    /// The server's store: a `postgres://` URL; `None`: a fresh SQLite file, deleted after.
    pub db: Option<String>,
    /// How many `paiju serve` nodes to start on that one PostgreSQL database (1: one server).
    /// See [`Nodes`].
    pub nodes: usize,
    /// Tables of computers alone (every seat the server's bot at [`LoadOptions::computer_level`])
    /// playing beside the measured tables from before they sit down to the end: what computer
    /// players' thinking costs the people's tables.
    pub computer_tables: usize,
    /// `beginner`, `club` or `expert`.
    pub computer_level: String,
    /// Stop the play after this long and report what was played (`--seconds`): a 够级 game is
    /// about a thousand actions, a thousand tables of it a quarter of an hour.
    pub seconds: Option<Duration>,
}

/// What came out.
#[derive(Debug)]
pub struct LoadReport {
    pub tables: usize,
    pub connections: usize,
    pub finished: usize,
    /// Bots that had to connect again (their first connect was refused or reset).
    pub reconnects: u64,
    pub actions: u64,
    pub seconds: f64,
    pub p50: Duration,
    pub p99: Duration,
    pub echo_p50: Duration,
    pub echo_p99: Duration,
    /// Means add up where percentiles do not: the round trip is split with these.
    pub mean: Duration,
    pub echo_mean: Duration,
    /// One SQLite commit (one row, WAL, `synchronous=FULL`) on the server's disk: 100 before
    /// the run and 100 after it (the disk is shared with whatever else runs), together.
    pub commit_p50: Duration,
    pub commit_p99: Duration,
    /// The p50 of each half, to show how much the disk moved during the run.
    pub commit_p50_before: Duration,
    pub commit_p50_after: Duration,
    /// The server's own group commits while the tables played (its /metrics): how many, their
    /// mean time (first write to commit), and the p50 and p99 as the upper bounds of their
    /// histogram buckets.
    pub server_commits: u64,
    pub server_commit_mean: Duration,
    pub server_commit_p50: Duration,
    pub server_commit_p99: Duration,
    pub rss_idle_kib: u64,
    /// After the tables were created, before anyone sat down or connected.
    pub rss_tables_kib: u64,
    pub rss_peak_kib: u64,
    /// CPU seconds the server and this load process used while the tables played: on one
    /// machine they share the cores, so the split says who was busy.
    pub server_cpu: f64,
    pub load_cpu: f64,
    /// The fan-out floor's CPU per action: the echo server's, reading one frame and writing it
    /// back and one frame of `frame_bytes` to each other seat of the table.
    pub echo_cpu: Duration,
    /// One commit's CPU (the fsync included), from the commit floor's loop.
    pub commit_cpu: Duration,
    /// The mean size of the frames the bots received.
    pub frame_bytes: usize,
    pub errors: Vec<String>,
    /// Servers started ([`LoadOptions::nodes`]); with more than one, the CPU, memory and
    /// commits above are their sums.
    pub nodes: usize,
    /// [`LoadOptions::computer_tables`], their level, and the decisions the server's bots made
    /// at that level while the measured tables played (its /metrics).
    pub computer_tables: usize,
    pub computer_level: String,
    pub computer_decisions: u64,
    /// The most threads the server processes had at once while playing (summed over nodes).
    pub threads_peak: u64,
    /// [`LoadOptions::seconds`]: the play was stopped then, tables not over.
    pub stopped_after: Option<Duration>,
    /// The floors again, measured while the tables played, so that the ratios compare like
    /// with like when the machine's load moves: the fan-out floor on `echo_during_tables`
    /// tables (as many as the open files allow beside the load's own, at most a tenth), and
    /// single commits beside the server's database, one every [`COMMIT_EVERY`].
    pub echo_during_tables: usize,
    pub echo_during_p50: Duration,
    pub echo_during_p99: Duration,
    pub echo_during_mean: Duration,
    pub commit_during: usize,
    pub commit_during_p50: Duration,
    pub commit_during_p99: Duration,
}

impl LoadReport {
    /// Server CPU time per action, in microseconds (everything the server process did while
    /// the tables played, connections and the journal's commits included, over the actions).
    pub fn cpu_per_action_us(&self) -> f64 {
        self.server_cpu * 1e6 / self.actions.max(1) as f64
    }

    /// The server's CPU per action split like the round trip, in microseconds: the fan-out
    /// floor's CPU per action, the commit floor's CPU for the server's share of a commit (its
    /// group commits over its actions), and what is left, our own.
    pub fn cpu_split_us(&self) -> (f64, f64, f64) {
        let fan_out = self.echo_cpu.as_secs_f64() * 1e6;
        let commits = self.commit_cpu.as_secs_f64() * 1e6 * self.server_commits as f64
            / self.actions.max(1) as f64;
        (
            fan_out,
            commits,
            self.cpu_per_action_us() - fan_out - commits,
        )
    }

    /// Server memory per table, in KiB: peak over idle, and the tables alone (created, empty).
    pub fn kib_per_table(&self) -> (f64, f64) {
        let n = self.tables.max(1) as f64;
        (
            self.rss_peak_kib.saturating_sub(self.rss_idle_kib) as f64 / n,
            self.rss_tables_kib.saturating_sub(self.rss_idle_kib) as f64 / n,
        )
    }
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        if self.nodes > 1 {
            writeln!(
                f,
                "nodes: {} on one PostgreSQL database, tables spread evenly; cpu, memory and commits summed",
                self.nodes
            )?;
        }
        if let Some(after) = self.stopped_after {
            writeln!(
                f,
                "stopped after {:.0} s of play (--seconds): the tables not finished are counted as far as they got",
                after.as_secs_f64()
            )?;
        }
        writeln!(
            f,
            "tables: {} ({} connections), finished: {}, errors: {}, connects retried: {}",
            self.tables,
            self.connections,
            self.finished,
            self.errors.len(),
            self.reconnects
        )?;
        writeln!(
            f,
            "actions: {} in {:.1} s = {:.0} actions/s",
            self.actions,
            self.seconds,
            self.actions as f64 / self.seconds.max(1e-9)
        )?;
        writeln!(
            f,
            "action round trip (act -> own events, stored and broadcast): p50 {:.2} ms, p99 {:.2} ms",
            ms(self.p50),
            ms(self.p99)
        )?;
        writeln!(
            f,
            "floor 1, bare tokio-tungstenite fan-out (the frame back to its sender, {} bytes to each other seat), same connections, one sender per table, same pacing: p50 {:.2} ms, p99 {:.2} ms",
            self.frame_bytes,
            ms(self.echo_p50),
            ms(self.echo_p99)
        )?;
        writeln!(
            f,
            "floor 2, one SQLite commit (one row, WAL, synchronous=FULL, same disk): p50 {:.2} ms, p99 {:.2} ms (p50 {:.2} ms before the run, {:.2} ms after)",
            ms(self.commit_p50),
            ms(self.commit_p99),
            ms(self.commit_p50_before),
            ms(self.commit_p50_after)
        )?;
        if self.echo_during_tables > 0 {
            writeln!(
                f,
                "floor 1 during the play, on {} tables beside the load: p50 {:.2} ms, p99 {:.2} ms",
                self.echo_during_tables,
                ms(self.echo_during_p50),
                ms(self.echo_during_p99)
            )?;
        } else {
            writeln!(
                f,
                "floor 1 during the play: not measured (no open files to spare beside the load's)"
            )?;
        }
        writeln!(
            f,
            "floor 2 during the play, {} commits: p50 {:.2} ms, p99 {:.2} ms",
            self.commit_during,
            ms(self.commit_during_p50),
            ms(self.commit_during_p99)
        )?;
        writeln!(
            f,
            "the server's own commits while playing: {} group commits of {:.1} actions, mean {:.2} ms, p50 <= {:.2} ms, p99 <= {:.2} ms",
            self.server_commits,
            self.actions as f64 / self.server_commits.max(1) as f64,
            ms(self.server_commit_mean),
            ms(self.server_commit_p50),
            ms(self.server_commit_p99)
        )?;
        // The commit an action waits for is the server's, not the loop's: on a disk whose
        // flush time depends on what else flushes (see docs/performance.md), the loop alone
        // can be slower. A mean, like the other two terms: means add up.
        let commit = if self.server_commits > 0 {
            self.server_commit_mean
        } else {
            self.commit_p50
        };
        let own = ms(self.mean) - ms(self.echo_mean) - ms(commit);
        writeln!(
            f,
            "round trip mean {:.2} ms = echo {:.2} + commit {:.2} + our own {:.2} ms (ratio to echo alone: p50 {:.1}x, p99 {:.1}x)",
            ms(self.mean),
            ms(self.echo_mean),
            ms(commit),
            own,
            ms(self.p50) / ms(self.echo_p50).max(1e-9),
            ms(self.p99) / ms(self.echo_p99).max(1e-9)
        )?;
        if self.echo_during_tables > 0 {
            writeln!(
                f,
                "ratio to the echo during the play (the same load on the machine): p50 {:.1}x, p99 {:.1}x; mean {:.2} ms = echo {:.2} + commit {:.2} + our own {:.2} ms",
                ms(self.p50) / ms(self.echo_during_p50).max(1e-9),
                ms(self.p99) / ms(self.echo_during_p99).max(1e-9),
                ms(self.mean),
                ms(self.echo_during_mean),
                ms(commit),
                ms(self.mean) - ms(self.echo_during_mean) - ms(commit)
            )?;
        }
        writeln!(
            f,
            "cpu while playing: server {:.1} s = {:.0} µs per action, load generator {:.1} s, over {:.1} s of wall time",
            self.server_cpu,
            self.cpu_per_action_us(),
            self.load_cpu,
            self.seconds
        )?;
        let (fan_out, commits, own) = self.cpu_split_us();
        writeln!(
            f,
            "server cpu per action {:.0} µs = fan-out floor {:.0} + commit floor {:.0} ({:.0} µs a commit, {:.2} commits an action) + our own {:.0} µs",
            self.cpu_per_action_us(),
            fan_out,
            commits,
            self.commit_cpu.as_secs_f64() * 1e6,
            self.server_commits as f64 / self.actions.max(1) as f64,
            own
        )?;
        if self.computer_tables > 0 {
            writeln!(
                f,
                "beside them: {} tables of computers alone at {}, {} of their decisions while playing ({:.1} a second)",
                self.computer_tables,
                self.computer_level,
                self.computer_decisions,
                self.computer_decisions as f64 / self.seconds.max(1e-9)
            )?;
        }
        writeln!(
            f,
            "server threads: at most {} while playing",
            self.threads_peak
        )?;
        let (per_table, tables_alone) = self.kib_per_table();
        write!(
            f,
            "server memory: {:.1} MiB idle, {:.1} MiB with the tables created, {:.1} MiB peak: {:.0} KiB per table ({:.0} KiB of it before anyone sat down)",
            self.rss_idle_kib as f64 / 1024.0,
            self.rss_tables_kib as f64 / 1024.0,
            self.rss_peak_kib as f64 / 1024.0,
            per_table,
            tables_alone
        )
    }
}

/// User + system CPU seconds of a process so far (`/proc/<pid>/stat`, fields 14 and 15).
pub fn cpu_seconds(pid: &str) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    // The command name may hold spaces: count fields after its closing parenthesis.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of the whole line are 12 and 13 after the name (state is field 3).
    (ticks(11) + ticks(12)) / 100.0
}

/// CPU seconds of a process's live threads so far, to the nanosecond (the scheduler's own
/// count, `/proc/<pid>/task/*/schedstat`): a short phase is a few ticks of `/proc/<pid>/stat`.
fn threads_cpu_seconds(pid: u32) -> f64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0.0;
    };
    let ns: u64 = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    ns as f64 / 1e9
}

/// A number field of `/proc/<pid>/status` (`VmRSS:  1234 kB` → 1234); 0 if it cannot be read.
fn status_field(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}

/// Threads of a process now.
pub fn thread_count(pid: u32) -> u64 {
    status_field(pid, "Threads")
}

/// VmRSS of a process, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    status_field(pid, "VmRSS")
}

fn mean(all: &[Duration]) -> Duration {
    all.iter().sum::<Duration>() / all.len().max(1) as u32
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Open files a process needs besides its connections: listener, database, WAL, stdio, the
/// runtime's epoll and wakers, a few HTTP requests in flight.
const SPARE_FILES: u64 = 100;

/// Checks that each process of the run (the server, the echo server, this generator: each holds
/// one socket per connection) may open enough files, lifting the soft limit up to the hard one
/// if needed (the children inherit it). The error is one line saying what is needed.
pub fn open_files(connections: usize) -> Result<u64, String> {
    let needed = connections as u64 + SPARE_FILES;
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct we pass and nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Err(format!(
            "cannot read the open-files limit: {}",
            std::io::Error::last_os_error()
        ));
    }
    if lim.rlim_cur >= needed {
        return Ok(lim.rlim_cur);
    }
    if lim.rlim_max < needed {
        return Err(format!(
            "{connections} connections need {needed} open files in each of the server, the echo floor and the generator, but the hard limit is {} (soft {}): raise it (ulimit -Hn {needed}; as root) or play at most {} connections",
            lim.rlim_max,
            lim.rlim_cur,
            lim.rlim_max.saturating_sub(SPARE_FILES)
        ));
    }
    let lifted = libc::rlimit {
        rlim_cur: needed,
        rlim_max: lim.rlim_max,
    };
    // SAFETY: setrlimit reads the struct we pass; raising the soft limit up to the hard one is
    // always allowed.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lifted) } != 0 {
        return Err(format!(
            "{connections} connections need {needed} open files, the limit is {}: cannot raise it: {} (ulimit -n {needed})",
            lim.rlim_cur,
            std::io::Error::last_os_error()
        ));
    }
    Ok(needed)
}

/// `paiju load --echo-server`: the network floor, a bare tokio-tungstenite fan-out server on a
/// free loopback port. Prints `echo ws://ADDR/` and serves until its standard input closes (the
/// generator went).
///
/// A connection to `/t/{group}/{bytes}` joins group `group` (a table). Each text frame it sends
/// comes back to it, and a frame of `bytes` bytes (the size of the server's frames) goes to every
/// other connection of its group: the frames a table's action makes the server write, and
/// nothing else (no parsing, rules, store or views). Each connection has a writer task fed by a
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
    let bytes: usize = parts
        .next()
        .and_then(|b| b.parse().ok())
        .unwrap_or(0)
        .min(64 * 1024);
    let frame = Message::text(format!(
        "{{\"pad\":\"{}\"}}",
        "x".repeat(bytes.saturating_sub(10))
    ));
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
        if !m.is_text() {
            continue;
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

/// Starts `exe` with `args` and reads its standard output until a line holds `marker`
/// followed by an address; keeps draining the rest so the child never blocks on it.
async fn start_child(
    exe: &Path,
    args: &[&std::ffi::OsStr],
    marker: &str,
    within: Duration,
) -> Result<(tokio::process::Child, SocketAddr), String> {
    let mut command = tokio::process::Command::new(exe);
    // The server's own log (every event action is one INFO line) would bury the report: warnings
    // and errors only, unless the operator asked for more with RUST_LOG.
    if std::env::var_os("RUST_LOG").is_none() {
        command.env("RUST_LOG", "warn");
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("start {}: {e}", exe.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut lines = BufReader::new(stdout).lines();
    let found = tokio::time::timeout(within, async {
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(rest) = line.split(marker).nth(1) {
                let addr = rest.trim_end_matches('/').trim();
                return addr
                    .parse::<SocketAddr>()
                    .map_err(|e| format!("{e}: {line}"));
            }
        }
        Err(format!("{} printed no address", exe.display()))
    })
    .await
    .map_err(|_| format!("{} printed no address within {within:?}", exe.display()))??;
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok((child, found))
}

/// Round trips each table's sender times in the network floor.
const ECHO_ROUNDS: usize = 20;

/// The network floor, measured: its round trips and the fan-out server's CPU per action.
struct EchoFloor {
    round_trips: Vec<Duration>,
    cpu_per_message: Duration,
}

/// The network floor: as many connections as the load has, grouped in tables and paced the same
/// way: one seat of each table sends (a table has one action in flight at a time) and times its
/// frame's way back, while the fan-out server ([`serve_echo`]) writes a frame of `frame_bytes` to
/// each other seat, which reads it. Everyone connects first (a connection that fails ends the
/// phase at once, with the reason), then the rounds start together. The server's CPU is read
/// from /proc (`pid`) from the start of the rounds to the last sender's last round trip.
async fn echo_round_trips(
    addr: SocketAddr,
    pid: Option<u32>,
    opts: &LoadOptions,
    frame_bytes: usize,
    rounds: usize,
) -> Result<EchoFloor, String> {
    // A frame the size of a typical action.
    let payload = r#"{"type":"act","id":1,"action":{"type":"play","cards":["S10","S10"]}}"#;
    let (tables, seats, think, deadline) = (opts.tables, opts.seats, opts.think, opts.deadline);
    let connections = tables * seats;
    let (connected_tx, mut connected) = tokio::sync::mpsc::channel::<Result<(), String>>(1024);
    let (go_tx, go_rx) = tokio::sync::watch::channel(false);
    let (done_tx, done_rx) = tokio::sync::watch::channel(false);
    let mut tasks = JoinSet::new();
    for c in 0..connections {
        let connected_tx = connected_tx.clone();
        let mut go = go_rx.clone();
        let mut done = done_rx.clone();
        tasks.spawn(async move {
            let mut rng = (c as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
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
                    return Ok(Vec::new());
                }
            };
            drop(connected_tx);
            let _ = go.wait_for(|g| *g).await;
            if c % seats != 0 {
                // A seat not to act: reads what the table's actions send it.
                loop {
                    tokio::select! {
                        _ = done.wait_for(|d| *d) => return Ok(Vec::new()),
                        frame = ws.next() => if !matches!(frame, Some(Ok(_))) {
                            return Ok(Vec::new());
                        },
                    }
                }
            }
            let mut out = Vec::with_capacity(rounds);
            for _ in 0..rounds {
                tokio::time::sleep(client::jitter(think, &mut rng)).await;
                let t = Instant::now();
                ws.send(Message::text(payload))
                    .await
                    .map_err(|e| e.to_string())?;
                loop {
                    match ws.next().await {
                        Some(Ok(Message::Text(t))) if t.as_str() != payload => continue,
                        Some(Ok(_)) => break,
                        Some(Err(e)) => return Err(e.to_string()),
                        None => return Err("the echo server closed".into()),
                    }
                }
                out.push(t.elapsed());
            }
            Ok::<_, String>(out)
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
    let _ = go_tx.send(true);
    let mut all = Vec::new();
    let mut senders_left = tables;
    while senders_left > 0 {
        let left = deadline.saturating_sub(started.elapsed());
        match tokio::time::timeout(left, tasks.join_next()).await {
            Ok(Some(Ok(Ok(v)))) => {
                if !v.is_empty() {
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
fn floor_db(path: &Path) -> Result<rusqlite::Connection, String> {
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
fn commit_one(conn: &rusqlite::Connection, seq: usize) -> Result<(), String> {
    let e = |e: rusqlite::Error| format!("commit floor: {e}");
    conn.execute_batch("BEGIN").map_err(e)?;
    conn.execute(
        "INSERT INTO log (seq, entry) VALUES (?1, ?2)",
        rusqlite::params![seq as i64, "x".repeat(200)],
    )
    .map_err(e)?;
    conn.execute_batch("COMMIT").map_err(e)
}

/// CPU time (user and system) of the calling thread so far.
pub fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write; the clock id is a constant.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The server's commit histogram (`paiju_store_commit_seconds` in /metrics): count, sum in
/// seconds, and the cumulative buckets as (upper bound, count). Zeros if it cannot be read.
#[derive(Clone, Debug, Default)]
pub struct Commits {
    pub count: u64,
    pub sum: f64,
    pub buckets: Vec<(f64, u64)>,
}

impl Commits {
    /// Reads it from a server's /metrics.
    pub async fn read(addr: SocketAddr) -> Commits {
        let text = match crate::http::request(addr, "GET", "/metrics", None).await {
            Ok((200, text)) => text,
            _ => return Commits::default(),
        };
        let mut c = Commits::default();
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("paiju_store_commit_seconds_") else {
                continue;
            };
            let value = rest.rsplit(' ').next().unwrap_or("");
            if rest.starts_with("count") {
                c.count = value.parse().unwrap_or(0);
            } else if rest.starts_with("sum") {
                c.sum = value.parse().unwrap_or(0.0);
            } else if let Some(le) = rest.split("le=\"").nth(1) {
                let le = le.split('"').next().unwrap_or("");
                let le = if le == "+Inf" {
                    f64::INFINITY
                } else {
                    le.parse().unwrap_or(0.0)
                };
                c.buckets.push((le, value.parse().unwrap_or(0)));
            }
        }
        c
    }

    /// The commits since `before`: (count, mean, p50 bound, p99 bound).
    pub fn since(&self, before: &Commits) -> (u64, Duration, Duration, Duration) {
        let n = self.count.saturating_sub(before.count);
        let mean = if n == 0 {
            0.0
        } else {
            (self.sum - before.sum) / n as f64
        };
        let at = |p: f64| {
            let want = (n as f64 * p).ceil() as u64;
            self.buckets
                .iter()
                .map(|&(le, c)| {
                    let b = before.buckets.iter().find(|x| x.0 == le).map_or(0, |x| x.1);
                    (le, c.saturating_sub(b))
                })
                .find(|&(_, c)| c >= want.max(1))
                .map_or(0.0, |(le, _)| le)
        };
        let secs = |s: f64| Duration::from_secs_f64(if s.is_finite() { s.max(0.0) } else { 60.0 });
        (n, secs(mean), secs(at(0.5)), secs(at(0.99)))
    }
}

/// [`commit_floor`] off the async workers: 100 commits in `dir`.
async fn floor(dir: &Path) -> Result<(Vec<Duration>, Duration), String> {
    let dir = dir.to_path_buf();
    tokio::task::spawn_blocking(move || commit_floor(&dir, 100))
        .await
        .map_err(|e| e.to_string())?
}

/// Creates the tables, a few at a time; nobody sits yet (a table without players has no clock
/// running).
/// Table i is created on node i mod N (which then serves it: its lease is born with it).
async fn create_tables(
    nodes: &Nodes,
    tables: usize,
    body: serde_json::Value,
) -> Result<Vec<(SocketAddr, String)>, String> {
    const AT_ONCE: usize = 8;
    let mut ids = Vec::with_capacity(tables);
    let mut made = 0;
    let mut running = JoinSet::new();
    while made < tables || !running.is_empty() {
        while made < tables && running.len() < AT_ONCE {
            let addr = nodes.addr(made);
            made += 1;
            let body = body.clone();
            running.spawn(async move {
                let summary: protocol::TableSummary =
                    crate::http::post_json(addr, "/api/tables", &body).await?;
                Ok::<_, String>((addr, summary.id))
            });
        }
        match running.join_next().await {
            Some(Ok(Ok(id))) => ids.push(id),
            Some(Ok(Err(e))) => return Err(format!("creating the tables: {e}")),
            Some(Err(e)) => return Err(format!("creating the tables: {e}")),
            None => {}
        }
    }
    Ok(ids)
}

/// One table's seats as they were taken: (its node, table id, seat token) each.
type Seated = Result<Vec<(SocketAddr, String, String)>, String>;

/// Takes every seat of the tables (a token each), a few tables at a time, and sends each
/// table's seats on as soon as they are taken: its bots connect then, before the table's clock
/// (which starts with the last seat) can run out, and the connections arrive as people's would,
/// spread over the seating instead of all at once.
fn seat_tables(
    ids: Vec<(SocketAddr, String)>,
    seats: usize,
    to: tokio::sync::mpsc::Sender<Seated>,
) {
    const AT_ONCE: usize = 8;
    tokio::spawn(async move {
        let mut ids = ids.into_iter();
        let mut running = JoinSet::new();
        loop {
            while running.len() < AT_ONCE {
                let Some((addr, id)) = ids.next() else { break };
                running.spawn(async move {
                    let mut out = Vec::with_capacity(seats);
                    for seat in 0..seats {
                        let joined: protocol::Joined = crate::http::post_json(
                            addr,
                            &format!("/api/tables/{id}/join"),
                            &serde_json::json!({"seat": seat, "name": format!("bot{seat}")}),
                        )
                        .await
                        .map_err(|e| format!("taking the seats of {id}: {e}"))?;
                        out.push((addr, id.clone(), joined.token));
                    }
                    Ok::<_, String>(out)
                });
            }
            let Some(done) = running.join_next().await else {
                return;
            };
            let done = done.unwrap_or_else(|e| Err(e.to_string()));
            if to.send(done).await.is_err() {
                return;
            }
        }
    });
}

/// Runs the whole load for engine `E`.
pub async fn run<E: Engine + 'static>(opts: LoadOptions) -> Result<LoadReport, String> {
    let connections = opts.tables * opts.seats;
    open_files(connections)?;
    let dir = std::env::temp_dir().join(format!("paiju-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    // Stopped by Ctrl-C or a kill: the servers go with the run (they are killed when dropped)
    // and the temporary store with them; a load of thousands of tables leaves gigabytes.
    let result = tokio::select! {
        r = run_in::<E>(&opts, &dir) => r,
        s = stopped() => Err(format!("stopped by {s}; the temporary store is removed")),
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Waits for SIGINT or SIGTERM; says which.
pub(crate) async fn stopped() -> &'static str {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut int), Ok(mut term)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = int.recv() => "SIGINT",
        _ = term.recv() => "SIGTERM",
    }
}

/// Sets its flag when dropped: a run stopped by a signal is dropped mid-play, and the runtime
/// would wait for ever for the commit floor's thread.
struct StopOnDrop(Arc<std::sync::atomic::AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// How often the commit floor commits while the tables play.
pub const COMMIT_EVERY: Duration = Duration::from_millis(200);

/// The commit floor while the tables play: one single-row commit every [`COMMIT_EVERY`] in a
/// file of its own beside the server's database, until `stop` is set.
fn commit_floor_during(
    dir: PathBuf,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> tokio::task::JoinHandle<Result<Vec<Duration>, String>> {
    tokio::task::spawn_blocking(move || {
        let conn = floor_db(&dir.join("commit-during.db"))?;
        let mut out = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let t = Instant::now();
            commit_one(&conn, out.len())?;
            out.push(t.elapsed());
            std::thread::sleep(COMMIT_EVERY);
        }
        Ok(out)
    })
}

async fn run_in<E: Engine + 'static>(opts: &LoadOptions, dir: &Path) -> Result<LoadReport, String> {
    let connections = opts.tables * opts.seats;
    let db = match &opts.db {
        Some(url) => std::ffi::OsString::from(url),
        None => dir.join("load.db").into_os_string(),
    };
    let start_within = Duration::from_secs(30);
    // The fan-out floor during the play: a tenth of the tables, if the open files allow it
    // beside the load's own sockets (the generator holds both).
    let sample = (opts.tables / 10).clamp(1, opts.tables.max(1));
    let sample = if open_files(connections + sample * opts.seats).is_ok() {
        sample
    } else {
        0
    };
    let nodes = Nodes::start(&opts.exe, &db, opts.nodes.max(1), start_within, &[]).await?;
    let echo_during = if sample > 0 {
        Some(
            start_child(
                &opts.exe,
                &["load".as_ref(), "--echo-server".as_ref()],
                "echo ws://",
                start_within,
            )
            .await?,
        )
    } else {
        None
    };
    let rss_idle_kib = nodes.rss_kib();

    eprintln!("commit floor: 100 single-row transactions ...");
    let (mut commits_before, commit_cpu_before) = floor(dir).await?;

    eprintln!("creating {} tables ...", opts.tables);
    let body = serde_json::json!({"game": opts.game});
    let ids = tokio::time::timeout(opts.deadline, create_tables(&nodes, opts.tables, body))
        .await
        .map_err(|_| {
            format!(
                "creating {} tables took over {:?}",
                opts.tables, opts.deadline
            )
        })??;
    let rss_tables_kib = nodes.rss_kib();
    if opts.computer_tables > 0 {
        eprintln!(
            "creating {} tables of computers alone at {} ...",
            opts.computer_tables, opts.computer_level
        );
        let body = serde_json::json!({"game": opts.game, "bots": (0..opts.seats).collect::<Vec<_>>(),
                                      "bot_level": opts.computer_level});
        create_tables(&nodes, opts.computer_tables, body).await?;
    }

    eprintln!("seating and playing ...");
    let commits0 = nodes.commits().await;
    let decisions0 = nodes.bot_decisions(&opts.computer_level).await;
    let started = Instant::now();
    let server_cpu0 = nodes.cpu_seconds();
    let load_cpu0 = cpu_seconds("self");
    let stop_at = opts.seconds.map(|s| tokio::time::Instant::now() + s);
    let seen = Arc::new(client::Seen::default());
    let bot = BotOptions {
        think: opts.think,
        deadline: opts.deadline,
        record: false,
        stop: stop_at,
        seen: Some(seen.clone()),
    };
    let commits_stop = StopOnDrop(Arc::new(std::sync::atomic::AtomicBool::new(false)));
    let commits_during = commit_floor_during(dir.to_path_buf(), commits_stop.0.clone());
    let mut echo_task: Option<tokio::task::JoinHandle<Result<EchoFloor, String>>> = None;
    let mut tasks = JoinSet::new();
    let reconnects = Arc::new(AtomicU64::new(0));
    let (seated_tx, mut seated) = tokio::sync::mpsc::channel::<Seated>(64);
    seat_tables(ids, opts.seats, seated_tx);
    let spawn_bot = |tasks: &mut JoinSet<Result<client::BotReport, String>>,
                     addr: SocketAddr,
                     table: String,
                     token: String| {
        let url = format!("ws://{addr}/ws/{table}");
        let bot = bot.clone();
        // The bot's own deadline starts once it is connected: this one covers connecting too.
        let whole = opts.deadline + Duration::from_secs(30);
        let reconnects = reconnects.clone();
        tasks.spawn(async move {
            let play = async {
                // Thousands of connects at once can overflow the server's accept queue (a
                // reset): a bot that could not connect tries again, as a page would. Nothing
                // was sent yet, so nothing is played twice.
                let mut attempt = 0;
                loop {
                    match client::play::<E>(&url, &token, bot.clone()).await {
                        Err(e) if e.starts_with("connect ") && attempt < 5 => {
                            attempt += 1;
                            reconnects.fetch_add(1, Ordering::Relaxed);
                            tokio::time::sleep(Duration::from_millis(200 * attempt)).await;
                        }
                        done => return done,
                    }
                }
            };
            tokio::time::timeout(whole, play)
                .await
                .unwrap_or_else(|_| Err(format!("{url}: no end after {whole:?}")))
        });
    };
    // Sample the server's memory while the tables play.
    let peak = nodes.sample_peak();
    let mut round_trips = Vec::new();
    let mut actions = 0;
    let mut finished = 0;
    let mut errors = Vec::new();
    let (mut received, mut received_bytes) = (0u64, 0u64);
    let mut progress = tokio::time::interval(Duration::from_secs(30));
    progress.tick().await;
    let mut left = connections;
    let mut seating = true;
    while left > 0 {
        tokio::select! {
            table = seated.recv(), if seating => match table {
                Some(Ok(seats)) => {
                    for (addr, table, token) in seats {
                        spawn_bot(&mut tasks, addr, table, token);
                    }
                }
                Some(Err(e)) => return Err(e),
                None => {
                    seating = false;
                    // Everyone is seated: the load is at its full size. The floor's rounds
                    // fit in what is left of the play (a board at least, without --seconds).
                    if let Some((child, addr)) = &echo_during {
                        let left = stop_at.map_or(opts.think * 100, |t| {
                            t.saturating_duration_since(tokio::time::Instant::now())
                        });
                        let rounds = (left.as_secs_f64() / opts.think.as_secs_f64().max(0.01) / 2.0)
                            .clamp(3.0, ECHO_ROUNDS as f64) as usize;
                        let (addr, pid, seen) = (*addr, child.id(), seen.clone());
                        let sampled = LoadOptions { tables: sample, ..opts.clone() };
                        echo_task = Some(tokio::spawn(async move {
                            echo_round_trips(addr, pid, &sampled, seen.mean_bytes(), rounds).await
                        }));
                    }
                }
            },
            joined = tasks.join_next(), if !tasks.is_empty() => {
                let Some(joined) = joined else { continue };
                left -= 1;
                match joined {
                    Ok(Ok(r)) => {
                        received += r.received;
                        received_bytes += r.received_bytes;
                        actions += r.actions;
                        finished += r.over as usize;
                        round_trips.extend(r.round_trips);
                    }
                    Ok(Err(e)) => errors.push(e),
                    Err(e) => errors.push(e.to_string()),
                }
            }
            _ = progress.tick() => {
                eprintln!(
                    "playing: {:.0} s, {} of {connections} seats done, server {:.0} MiB",
                    started.elapsed().as_secs_f64(),
                    connections - left,
                    nodes.rss_kib() as f64 / 1024.0
                );
                // Each bot has its deadline; this catches seating that stopped answering.
                if started.elapsed() > opts.deadline * 2 + Duration::from_secs(60) {
                    return Err(format!(
                        "playing: {left} of {connections} seats still going after {:?}",
                        started.elapsed()
                    ));
                }
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let server_cpu = nodes.cpu_seconds() - server_cpu0;
    let load_cpu = cpu_seconds("self") - load_cpu0;
    let (server_commits, server_commit_mean, server_commit_p50, server_commit_p99) =
        nodes.commits().await.since(&commits0);
    let computer_decisions = nodes.bot_decisions(&opts.computer_level).await - decisions0;
    drop(commits_stop);
    let mut commit_during = commits_during.await.map_err(|e| e.to_string())??;
    commit_during.sort();
    let mut echo_during_trips = match echo_task {
        Some(task) => task.await.map_err(|e| e.to_string())??.round_trips,
        None => Vec::new(),
    };
    echo_during_trips.sort();
    drop(echo_during);
    let threads_peak = peak.threads();
    let rss_peak_kib = nodes.rss_kib().max(peak.stop());
    eprintln!("commit floor: 100 single-row transactions ...");
    let (mut commits_after, commit_cpu_after) = floor(dir).await?;
    nodes.stop().await;

    // The network floor after the load, with frames of the size the server sent: the server is
    // stopped, so the two do not share the machine.
    let frame_bytes = (received_bytes / received.max(1)) as usize;
    eprintln!("echo floor: {connections} connections, frames of {frame_bytes} bytes ...");
    let (echo_child, echo_addr) = start_child(
        &opts.exe,
        &["load".as_ref(), "--echo-server".as_ref()],
        "echo ws://",
        start_within,
    )
    .await?;
    let echo_floor =
        echo_round_trips(echo_addr, echo_child.id(), opts, frame_bytes, ECHO_ROUNDS).await?;
    drop(echo_child);
    let mut echo = echo_floor.round_trips;
    echo.sort();
    let mut commits = [commits_before.clone(), commits_after.clone()].concat();
    for c in [&mut commits, &mut commits_before, &mut commits_after] {
        c.sort();
    }
    round_trips.sort();
    Ok(LoadReport {
        tables: opts.tables,
        connections,
        finished: finished / opts.seats.max(1),
        actions,
        seconds,
        p50: percentile(&round_trips, 0.50),
        p99: percentile(&round_trips, 0.99),
        echo_p50: percentile(&echo, 0.50),
        echo_p99: percentile(&echo, 0.99),
        mean: mean(&round_trips),
        echo_mean: mean(&echo),
        commit_p50: percentile(&commits, 0.50),
        commit_p99: percentile(&commits, 0.99),
        reconnects: reconnects.load(Ordering::Relaxed),
        server_commits,
        server_commit_mean,
        server_commit_p50,
        server_commit_p99,
        commit_p50_before: percentile(&commits_before, 0.50),
        commit_p50_after: percentile(&commits_after, 0.50),
        rss_idle_kib,
        rss_tables_kib,
        rss_peak_kib,
        server_cpu,
        load_cpu,
        echo_cpu: echo_floor.cpu_per_message,
        commit_cpu: (commit_cpu_before + commit_cpu_after) / 2,
        frame_bytes,
        errors,
        nodes: opts.nodes.max(1),
        computer_tables: opts.computer_tables,
        computer_level: opts.computer_level.clone(),
        computer_decisions,
        threads_peak,
        stopped_after: opts.seconds,
        echo_during_tables: if echo_during_trips.is_empty() {
            0
        } else {
            sample
        },
        echo_during_p50: percentile(&echo_during_trips, 0.50),
        echo_during_p99: percentile(&echo_during_trips, 0.99),
        echo_during_mean: mean(&echo_during_trips),
        commit_during: commit_during.len(),
        commit_during_p50: percentile(&commit_during, 0.50),
        commit_during_p99: percentile(&commit_during, 0.99),
    })
}

// --- several nodes (`paiju load --nodes N --db postgres://…`) ------------------------------------

/// The servers of one run: one `paiju serve`, or several nodes on one PostgreSQL database. Table
/// `i` is created on node `i mod N` (which then serves it), and its bots connect there, so the
/// nodes share the tables evenly and no client is redirected. The commits, CPU and memory
/// reported are the nodes' sums.
pub struct Nodes {
    servers: Vec<(tokio::process::Child, SocketAddr)>,
}

impl Nodes {
    /// Starts `n` servers on `db` (more than one needs a `postgres://` URL).
    /// `extra`: more flags for each `paiju serve` (e.g. a director's token).
    pub async fn start(
        exe: &Path,
        db: &std::ffi::OsStr,
        n: usize,
        within: Duration,
        extra: &[&str],
    ) -> Result<Nodes, String> {
        let url = db.to_string_lossy();
        if n > 1 && !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
            return Err(
                "--nodes above 1 needs --db postgres://…: the nodes share one database".into(),
            );
        }
        let mut servers = Vec::with_capacity(n);
        let mut args: Vec<&std::ffi::OsStr> = vec![
            "serve".as_ref(),
            "--listen".as_ref(),
            "127.0.0.1:0".as_ref(),
            "--db".as_ref(),
            db,
            "--max-connections".as_ref(),
            "1000000".as_ref(),
            "--max-tables".as_ref(),
            "1000000".as_ref(),
            // The load measures tables: no day's practice sets playing beside them.
            "--practice-daily".as_ref(),
            "off".as_ref(),
        ];
        args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
        for _ in 0..n {
            let server = start_child(exe, &args, "http://", within).await?;
            servers.push(server);
        }
        Ok(Nodes { servers })
    }

    /// The node that serves table `i`.
    pub fn addr(&self, i: usize) -> SocketAddr {
        self.servers[i % self.servers.len()].1
    }

    pub fn pids(&self) -> Vec<u32> {
        self.servers.iter().filter_map(|(c, _)| c.id()).collect()
    }

    pub fn cpu_seconds(&self) -> f64 {
        self.pids()
            .iter()
            .map(|pid| cpu_seconds(&pid.to_string()))
            .sum()
    }

    pub fn rss_kib(&self) -> u64 {
        self.pids().iter().map(|&pid| rss_kib(pid)).sum()
    }

    /// Samples the nodes' summed memory and threads every 200 ms until [`PeakRss::stop`].
    pub fn sample_peak(&self) -> PeakRss {
        let peak = Arc::new(AtomicU64::new(0));
        let threads = Arc::new(AtomicU64::new(0));
        let pids = self.pids();
        let task = {
            let (peak, most) = (peak.clone(), threads.clone());
            tokio::spawn(async move {
                loop {
                    let rss = pids.iter().map(|&pid| rss_kib(pid)).sum();
                    peak.fetch_max(rss, Ordering::Relaxed);
                    let n = pids.iter().map(|&pid| thread_count(pid)).sum();
                    most.fetch_max(n, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            })
        };
        PeakRss {
            peak,
            threads,
            task,
        }
    }

    /// Decisions the nodes' own bots made at `level` so far (`paiju_bot_decision_seconds`,
    /// every game), summed.
    pub async fn bot_decisions(&self, level: &str) -> u64 {
        let mut n = 0;
        for (_, addr) in &self.servers {
            if let Ok((200, text)) = crate::http::request(*addr, "GET", "/metrics", None).await {
                let label = format!("level=\"{level}\"");
                n += text
                    .lines()
                    .filter(|l| {
                        l.starts_with("paiju_bot_decision_seconds_count") && l.contains(&label)
                    })
                    .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
                    .sum::<u64>();
            }
        }
        n
    }

    /// Every node's commit histogram, summed (the nodes share the bucket bounds).
    pub async fn commits(&self) -> Commits {
        let mut sum = Commits::default();
        for (_, addr) in &self.servers {
            let c = Commits::read(*addr).await;
            sum.count += c.count;
            sum.sum += c.sum;
            for (le, n) in c.buckets {
                match sum.buckets.iter_mut().find(|b| b.0 == le) {
                    Some(b) => b.1 += n,
                    None => sum.buckets.push((le, n)),
                }
            }
        }
        sum
    }

    /// SIGTERM to every node, then waits (10 s at most each) for it to commit and exit.
    pub async fn stop(self) {
        for pid in self.pids() {
            let _ = tokio::process::Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status()
                .await;
        }
        for (mut child, _) in self.servers {
            let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
        }
    }
}

/// The highest memory (and thread count) [`Nodes::sample_peak`] saw.
pub struct PeakRss {
    peak: Arc<AtomicU64>,
    threads: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl PeakRss {
    /// The most threads seen so far.
    pub fn threads(&self) -> u64 {
        self.threads.load(Ordering::Relaxed)
    }

    /// Stops sampling; the peak in KiB.
    pub fn stop(self) -> u64 {
        self.task.abort();
        self.peak.load(Ordering::Relaxed)
    }
}
