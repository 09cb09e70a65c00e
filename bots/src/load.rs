//! The load generator (`paiju load`): N tables of bot clients over real WebSockets on loopback.
//!
//! It starts `paiju serve` as a separate process (so the server's memory can be read from
//! /proc/<pid>/status), measures a bare tokio-tungstenite echo round trip with the same number of
//! connections and the same pacing, then creates the tables, seats a WebSocket bot in every seat
//! and lets them play one board or game each. It prints actions per second, the action round
//! trip (send `act` → that action's `events` back: stored, acknowledged and broadcast) at p50 and
//! p99, the ratio to the echo round trip, and the server's memory per table.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rules::Engine;
use tokio::io::{AsyncBufReadExt, BufReader};
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
    /// The `paiju` binary to start as the server.
    pub exe: PathBuf,
    /// Stop waiting after this long.
    pub deadline: Duration,
    /// The server's store: a `postgres://` URL; `None`: a fresh SQLite file, deleted after.
    pub db: Option<String>,
    /// How many `paiju serve` nodes to start on that one PostgreSQL database (1: one server).
    /// See [`Nodes`].
    pub nodes: usize,
}

/// What came out.
#[derive(Debug)]
pub struct LoadReport {
    pub tables: usize,
    pub connections: usize,
    pub finished: usize,
    pub actions: u64,
    pub seconds: f64,
    pub p50: Duration,
    pub p99: Duration,
    pub echo_p50: Duration,
    pub echo_p99: Duration,
    pub rss_idle_kib: u64,
    pub rss_peak_kib: u64,
    /// CPU seconds the server and this load process used while the tables played: on one
    /// machine they share the cores, so the split says who was busy.
    pub server_cpu: f64,
    pub load_cpu: f64,
    /// The server's journal commits (group commit transactions) while the tables played: how
    /// many, their mean, and the p50 and p99 as the upper bounds of their histogram buckets.
    pub commits: u64,
    pub commit_mean: Duration,
    pub commit_p50: Duration,
    pub commit_p99: Duration,
    pub errors: Vec<String>,
    /// Servers started ([`LoadOptions::nodes`]); with more than one, the CPU, memory and
    /// commits above are their sums.
    pub nodes: usize,
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
        writeln!(
            f,
            "tables: {} ({} connections), finished: {}, errors: {}",
            self.tables,
            self.connections,
            self.finished,
            self.errors.len()
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
            "bare tokio-tungstenite echo round trip, same connections, one sender per table, same pacing: p50 {:.2} ms, p99 {:.2} ms",
            ms(self.echo_p50),
            ms(self.echo_p99)
        )?;
        writeln!(
            f,
            "ratio ours/echo: p50 {:.1}x, p99 {:.1}x",
            ms(self.p50) / ms(self.echo_p50).max(1e-9),
            ms(self.p99) / ms(self.echo_p99).max(1e-9)
        )?;
        let per_table =
            self.rss_peak_kib.saturating_sub(self.rss_idle_kib) as f64 / self.tables.max(1) as f64;
        writeln!(
            f,
            "store commits: {} (group commit), mean {:.2} ms, p50 <= {:.2} ms, p99 <= {:.2} ms",
            self.commits,
            ms(self.commit_mean),
            ms(self.commit_p50),
            ms(self.commit_p99)
        )?;
        writeln!(
            f,
            "cpu while playing: server {:.1} s, load generator {:.1} s, over {:.1} s of wall time",
            self.server_cpu, self.load_cpu, self.seconds
        )?;
        write!(
            f,
            "server memory: {:.1} MiB idle, {:.1} MiB peak, {:.0} KiB per table",
            self.rss_idle_kib as f64 / 1024.0,
            self.rss_peak_kib as f64 / 1024.0,
            per_table
        )
    }
}

/// User + system CPU seconds of a process so far (/proc/<pid>/stat, fields 14 and 15).
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

/// VmRSS of a process, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// A bare echo server and as many connections as the load has, paced the same way: one
/// connection per table sends (a table has one action in flight at a time), the others stay
/// open and quiet, as the seats that are not to act. The floor our round trip is compared with.
async fn echo_round_trips(
    connections: usize,
    active: usize,
    rounds: usize,
    think: Duration,
) -> Result<Vec<Duration>, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let server = tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else {
                    return;
                };
                while let Some(Ok(m)) = ws.next().await {
                    if m.is_text() && ws.send(m).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    // A frame the size of a typical action.
    let payload = r#"{"type":"act","id":1,"action":{"type":"play","cards":["S10","S10"]}}"#;
    let mut tasks = Vec::new();
    // Everyone connects first, then the rounds start together (as the tables do).
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(connections));
    let (done_tx, done_rx) = tokio::sync::watch::channel(false);
    for c in 0..connections {
        let barrier = barrier.clone();
        let mut done = done_rx.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = (c as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let (mut ws, _) =
                tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/"), None, true)
                    .await
                    .map_err(|e| e.to_string())?;
            barrier.wait().await;
            if c >= active {
                let _ = done.wait_for(|d| *d).await;
                return Ok(Vec::new());
            }
            let mut out = Vec::with_capacity(rounds);
            for _ in 0..rounds {
                tokio::time::sleep(client::jitter(think, &mut rng)).await;
                let t = Instant::now();
                ws.send(Message::text(payload))
                    .await
                    .map_err(|e| e.to_string())?;
                ws.next().await;
                out.push(t.elapsed());
            }
            Ok::<_, String>(out)
        }));
    }
    let mut all = Vec::new();
    let idle = tasks.split_off(active.min(connections));
    for t in tasks {
        all.extend(t.await.map_err(|e| e.to_string())??);
    }
    let _ = done_tx.send(true);
    for t in idle {
        t.await.map_err(|e| e.to_string())??;
    }
    server.abort();
    Ok(all)
}

/// The server's commit histogram (`paiju_store_commit_seconds` in /metrics): count, sum in
/// seconds, and the cumulative buckets as (upper bound, count).
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

/// Starts `paiju serve` on a free port with a fresh database (or the given one); returns it and
/// its address. [`Nodes`] starts one or several.
async fn start_server(
    exe: &PathBuf,
    db: &std::ffi::OsStr,
) -> Result<(tokio::process::Child, SocketAddr), String> {
    let mut child = tokio::process::Command::new(exe)
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(db)
        .args(["--max-connections", "100000", "--max-tables", "100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("start {}: {e}", exe.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut lines = BufReader::new(stdout).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if let Some(rest) = line.split("http://").nth(1) {
            let addr = rest.trim_end_matches('/').trim();
            let addr: SocketAddr = addr.parse().map_err(|e| format!("{e}: {line}"))?;
            // Keep draining stdout so the server never blocks on it.
            tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
            return Ok((child, addr));
        }
    }
    Err("the server printed no address".into())
}

/// Runs the whole load for engine `E`.
pub async fn run<E: Engine + 'static>(opts: LoadOptions) -> Result<LoadReport, String> {
    let connections = opts.tables * opts.seats;
    let dir = std::env::temp_dir().join(format!("paiju-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let db = match &opts.db {
        Some(url) => std::ffi::OsString::from(url),
        None => dir.join("load.db").into_os_string(),
    };
    let nodes = Nodes::start(&opts.exe, &db, opts.nodes.max(1)).await?;

    eprintln!("echo baseline: {connections} connections ...");
    let mut echo = echo_round_trips(connections, opts.tables, 20, opts.think).await?;
    echo.sort();

    let rss_idle_kib = nodes.rss_kib();
    eprintln!("creating {} tables ...", opts.tables);
    let mut seats = Vec::new();
    for i in 0..opts.tables {
        let addr = nodes.addr(i);
        let summary: protocol::TableSummary =
            crate::http::post_json(addr, "/api/tables", &serde_json::json!({"game": opts.game}))
                .await?;
        for seat in 0..opts.seats {
            let joined: protocol::Joined = crate::http::post_json(
                addr,
                &format!("/api/tables/{}/join", summary.id),
                &serde_json::json!({"seat": seat, "name": format!("bot{seat}")}),
            )
            .await?;
            seats.push((addr, summary.id.clone(), joined.token));
        }
    }
    eprintln!("playing ...");
    let commits0 = nodes.commits().await;
    let started = Instant::now();
    let server_cpu0 = nodes.cpu_seconds();
    let load_cpu0 = cpu_seconds("self");
    let bot = BotOptions {
        think: opts.think,
        deadline: opts.deadline,
        record: false,
    };
    let mut tasks = Vec::new();
    for (addr, table, token) in seats {
        let url = format!("ws://{addr}/ws/{table}");
        let bot = bot.clone();
        tasks.push(tokio::spawn(async move {
            client::play::<E>(&url, &token, bot).await
        }));
    }
    // Sample the server's memory while the tables play.
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let sampler = {
        let peak = peak.clone();
        let pids = nodes.pids();
        tokio::spawn(async move {
            loop {
                let rss = pids.iter().map(|&pid| rss_kib(pid)).sum();
                peak.fetch_max(rss, std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
    };
    let mut round_trips = Vec::new();
    let mut actions = 0;
    let mut finished = 0;
    let mut errors = Vec::new();
    for t in tasks {
        match t.await {
            Ok(Ok(r)) => {
                actions += r.actions;
                finished += r.over as usize;
                round_trips.extend(r.round_trips);
            }
            Ok(Err(e)) => errors.push(e),
            Err(e) => errors.push(e.to_string()),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let server_cpu = nodes.cpu_seconds() - server_cpu0;
    let load_cpu = cpu_seconds("self") - load_cpu0;
    sampler.abort();
    let (commits, commit_mean, commit_p50, commit_p99) = nodes.commits().await.since(&commits0);
    let rss_peak_kib = nodes
        .rss_kib()
        .max(peak.load(std::sync::atomic::Ordering::Relaxed));
    nodes.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
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
        rss_idle_kib,
        rss_peak_kib,
        server_cpu,
        load_cpu,
        commits,
        commit_mean,
        commit_p50,
        commit_p99,
        errors,
        nodes: opts.nodes.max(1),
    })
}

// --- several nodes (`paiju load --nodes N --db postgres://…`) ------------------------------------

/// The servers of one run: one `paiju serve`, or several nodes on one PostgreSQL database. Table
/// `i` is created on node `i mod N` (which then serves it: its lease is born with it), and its
/// bots connect there, so the nodes share the tables evenly and no client is redirected. The
/// commits, CPU and memory reported are the nodes' sums.
pub struct Nodes {
    servers: Vec<(tokio::process::Child, SocketAddr)>,
}

impl Nodes {
    /// Starts `n` servers on `db` (more than one needs a `postgres://` URL).
    pub async fn start(exe: &PathBuf, db: &std::ffi::OsStr, n: usize) -> Result<Nodes, String> {
        let url = db.to_string_lossy();
        if n > 1 && !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
            return Err(
                "--nodes above 1 needs --db postgres://…: the nodes share one database".into(),
            );
        }
        let mut servers = Vec::with_capacity(n);
        for _ in 0..n {
            servers.push(start_server(exe, db).await?);
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
