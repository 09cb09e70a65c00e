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
//! With `--blocks S` both floors are also measured in turns with the play, on the play's scale
//! and in the same minutes ([`Blocks`]).
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
//! Every process holds one socket per connection it carries: a node its share of the tables
//! (after `--kill-node-after`, the dead node's share too), a generator its share, the floors'
//! echo server at most what one process holds. [`open_files`] checks the largest share (and lifts
//! the soft limit up to the hard one) before anything starts, and every phase has a deadline, so
//! a run that cannot finish says why instead of hanging.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rules::Engine;

use crate::client::{self, BotOptions};

mod acked;
mod blocks;
mod drive;
mod floors;
mod nodes;
mod options;
mod play;
mod proc;

use blocks::Turns;
pub use blocks::{Blocks, FloorTurn, PerAction, PlayTurn};
pub use drive::drive;
pub use floors::{commit_floor, serve_echo, PacedCommits, COMMIT_EVERY};
use floors::{commit_floor_during, echo_round_trips, floor, paced_commits, EchoFloor, ECHO_ROUNDS};
pub use nodes::{Commits, Nodes, PeakRss};
pub use options::LoadOptions;
use play::{create_tables, play_tables, Played};
pub use proc::{cpu_seconds, open_files, rss_kib, thread_count, thread_cpu};
use proc::{files_limit, start_child, SPARE_FILES};

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
    /// Commits at the server's pace, beside the fan-out floor: their CPU a commit (the sync
    /// included) is the commit floor of the CPU split.
    pub paced: PacedCommits,
    /// One commit's CPU in a tight loop (before and after the play), for comparison.
    pub commit_cpu_loop: Duration,
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
    /// Generator processes the bots ran in (1: this one).
    pub generators: usize,
    /// Once every seat was taken: the actions acknowledged after that and the servers' CPU
    /// seconds meanwhile (the play at its full size, seating and connecting left out).
    pub steady_actions: u64,
    pub steady_cpu: f64,
    /// The round trips of the actions sent once every seat was taken: the load at its full
    /// size, without the storm of connections and welcomes before it.
    pub steady_p50: Duration,
    pub steady_p99: Duration,
    /// Each node's CPU seconds while playing (a killed node's until its death).
    pub node_cpu: Vec<f64>,
    /// `--kill-node-after`: the node killed and when.
    pub killed: Option<(usize, Duration)>,
    /// Its tables, and when each was served again from the kill, as the survivors counted
    /// their rebuilds ([`Nodes::watch_takeover`]).
    pub dead_tables: usize,
    pub served_again: Vec<Duration>,
    /// Seats whose connection broke and came back, and how long each was without its table.
    pub resumed: Vec<Duration>,
    /// Actions acknowledged and checked against the stored logs (past one machine), and those
    /// not found as acknowledged.
    pub acked_checked: usize,
    pub lost: usize,
    /// `--blocks`: the play and its floors in turns.
    pub blocks: Option<Blocks>,
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
        let commits = self.paced.cpu_per_commit.as_secs_f64() * 1e6 * self.server_commits as f64
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
                "floor 1 during the play, on {} tables {}: p50 {:.2} ms, p99 {:.2} ms",
                self.echo_during_tables,
                if self.blocks.is_some() {
                    "in the floors' turns"
                } else {
                    "beside the load"
                },
                ms(self.echo_during_p50),
                ms(self.echo_during_p99)
            )?;
        } else {
            writeln!(
                f,
                "floor 1 during the play: not measured ({})",
                if self.generators > 1 {
                    "the bots play in child generators"
                } else {
                    "no open files to spare beside the load's"
                }
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
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        writeln!(
            f,
            "server cpu per action {:.0} µs = fan-out floor {:.0} + commit floor {:.0} ({:.0} µs a commit, {:.2} commits an action) + our own {:.0} µs",
            self.cpu_per_action_us(),
            fan_out,
            commits,
            us(self.paced.cpu_per_commit),
            self.server_commits as f64 / self.actions.max(1) as f64,
            own
        )?;
        writeln!(
            f,
            "floor 2's cpu: {:.0} µs a commit at the play's pace (one every {:.2} ms beside floor 1, {} commits); {:.0} µs in a tight loop",
            us(self.paced.cpu_per_commit),
            ms(self.paced.every),
            self.paced.commits,
            us(self.commit_cpu_loop)
        )?;
        if self.steady_actions > 0 {
            let steady_us = self.steady_cpu * 1e6 / self.steady_actions as f64;
            writeln!(
                f,
                "steady play (every seat taken, seating and connecting left out): {} actions, server {:.1} s = {:.0} µs per action; round trip p50 {:.2} ms, p99 {:.2} ms",
                self.steady_actions,
                self.steady_cpu,
                steady_us,
                ms(self.steady_p50),
                ms(self.steady_p99)
            )?;
            writeln!(
                f,
                "steady play against the floors: {:.0} µs per action = {:.2}x fan-out floor {:.0} + commit floor {:.0} µs",
                steady_us,
                steady_us / (fan_out + commits).max(1e-9),
                fan_out,
                commits
            )?;
        }
        if let Some(b) = &self.blocks {
            match b.whole() {
                Some(w) => {
                    let mut pairs: Vec<f64> = b.pairs().iter().map(PerAction::ratio).collect();
                    pairs.sort_by(f64::total_cmp);
                    let median = match pairs.len() {
                        0 => 0.0,
                        n if n % 2 == 1 => pairs[n / 2],
                        n => (pairs[n / 2 - 1] + pairs[n / 2]) / 2.0,
                    };
                    let (play, floors) = (b.play_summed(), b.floors_summed());
                    writeln!(
                        f,
                        "in turns of {} s (--blocks), the floors alone on {} connections between turns of play: server {:.0} µs per action = {:.2}x fan-out floor {:.0} + commit floor {:.0} µs; each turn of play against the floors' after it: {:.2}x to {:.2}x, median {:.2}x",
                        b.turn.as_secs(),
                        self.connections,
                        w.server_us,
                        w.ratio(),
                        w.fan_out_us,
                        w.commit_us,
                        pairs.first().copied().unwrap_or(0.0),
                        pairs.last().copied().unwrap_or(0.0),
                        median,
                    )?;
                    writeln!(
                        f,
                        "turns: {} of play ({} actions in {:.0} s), {} of the floors ({} frames of {} bytes, {} commits in {:.0} s; the server meanwhile {:.1} ms of CPU a second); actions sent while the bots were held: {}",
                        b.play.len(),
                        play.actions,
                        play.seconds,
                        b.floors.len(),
                        floors.frames,
                        b.frame_bytes(),
                        floors.commits,
                        floors.seconds,
                        floors.server_cpu * 1e3 / floors.seconds.max(1e-9),
                        b.sent_in_floors
                    )?;
                }
                None => writeln!(
                    f,
                    "in turns (--blocks): not measured, the play ended before a turn of each side"
                )?,
            }
        }
        if self.node_cpu.len() > 1 {
            let each: Vec<String> = self
                .node_cpu
                .iter()
                .enumerate()
                .map(|(i, c)| format!("node {} {:.1} s", i + 1, c))
                .collect();
            writeln!(
                f,
                "cpu by node: {}; {:.0} commits/s",
                each.join(", "),
                self.server_commits as f64 / self.seconds.max(1e-9)
            )?;
        }
        if self.generators > 1 {
            writeln!(
                f,
                "generators: {} processes (a share of the tables each, as the open-files limit needs)",
                self.generators
            )?;
        }
        if let Some((node, after)) = self.killed {
            let back = &self.served_again;
            let at = |p: f64| {
                let k = ((self.dead_tables as f64 * p).ceil() as usize).max(1);
                back.get(k - 1)
                    .map_or("never".to_string(), |t| format!("{:.2} s", t.as_secs_f64()))
            };
            writeln!(
                f,
                "node {} killed: {} of its {} tables served again by the others (their rebuilds, read every {} ms from the kill): half after {}, 99 % after {}, all after {}",
                node + 1,
                back.len(),
                self.dead_tables,
                nodes::TAKEOVER_POLL.as_millis(),
                at(0.5),
                at(0.99),
                at(1.0)
            )?;
            let mut gaps = self.resumed.clone();
            gaps.sort();
            writeln!(
                f,
                "node {} killed (SIGKILL) after {:.0} s: {} seats came back to their tables, without them p50 {:.2} s, p99 {:.2} s, at most {:.2} s",
                node + 1,
                after.as_secs_f64(),
                gaps.len(),
                percentile(&gaps, 0.50).as_secs_f64(),
                percentile(&gaps, 0.99).as_secs_f64(),
                gaps.last().copied().unwrap_or_default().as_secs_f64()
            )?;
        }
        if self.acked_checked > 0 {
            writeln!(
                f,
                "acknowledged actions read back from the store: {}, lost: {}",
                self.acked_checked, self.lost
            )?;
        }
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

/// Runs the whole load for engine `E`.
pub async fn run<E: Engine + 'static>(opts: LoadOptions) -> Result<LoadReport, String> {
    // The most sockets one process holds: a node its share of the tables, and after
    // `--kill-node-after` the dead node's share spread over the others. (The generators and
    // the floors are split or sized to fit one process's files, below.)
    let nodes = opts.nodes.max(1);
    let serving = match opts.kill_after {
        Some(_) if nodes > 1 => nodes - 1,
        _ => nodes,
    };
    open_files(opts.tables.div_ceil(serving) * opts.seats)?;
    // Stopped by Ctrl-C or a kill: the servers go with the run (they are killed when dropped)
    // and the temporary store with them; a load of thousands of tables leaves gigabytes. The
    // signals are caught from here on, before there is anything to leave behind.
    let stop = stopped();
    let dir = std::env::temp_dir().join(format!("paiju-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = tokio::select! {
        r = run_in::<E>(&opts, &dir) => r,
        s = stop => Err(format!("stopped by {s}; the temporary store is removed")),
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Catches SIGINT and SIGTERM from the moment it is called, not from the first poll: a run
/// polls it beside its work, which may have started its servers before that first poll, and a
/// signal in between would end the process at once and orphan them. The future says which.
pub(crate) fn stopped() -> impl std::future::Future<Output = &'static str> {
    use tokio::signal::unix::{signal, SignalKind};
    let caught = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    );
    async move {
        let (Ok(mut int), Ok(mut term)) = caught else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = int.recv() => "SIGINT",
            _ = term.recv() => "SIGTERM",
        }
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

async fn run_in<E: Engine + 'static>(opts: &LoadOptions, dir: &Path) -> Result<LoadReport, String> {
    let connections = opts.tables * opts.seats;
    let db = match &opts.db {
        Some(url) => std::ffi::OsString::from(url),
        None => dir.join("load.db").into_os_string(),
    };
    let start_within = Duration::from_secs(30);
    // One process holds a socket a connection: past its open files the bots play in child
    // generators, a share of the tables each.
    let per_process = files_limit().saturating_sub(SPARE_FILES) as usize / opts.seats.max(1);
    let generators = match opts.generators {
        0 => opts.tables.div_ceil(per_process.max(1)).max(1),
        n => n,
    };
    // The floors are measured in one process: on as many tables as its open files hold.
    let floor_tables = opts.tables.min(per_process.max(1));
    // The fan-out floor during the play: a tenth of the tables, if the open files allow it
    // beside the load's own sockets (with child generators this process holds none).
    let sample = (opts.tables / 10).clamp(1, opts.tables.max(1));
    // (Not with child generators: the floor's frames are the size the bots see, which only
    // they count.)
    let sample = if opts.blocks.is_none()
        && generators == 1
        && open_files(connections + sample * opts.seats).is_ok()
    {
        sample
    } else {
        0
    };
    // In blocks the fan-out floor is on as many connections as the play, in this process too.
    if opts.blocks.is_some() {
        if generators > 1 {
            return Err(format!(
                "--blocks: the play and its floors take turns in one generator process, and {} tables of {} need {generators} (--generators 1, or fewer tables)",
                opts.tables, opts.seats
            ));
        }
        open_files(connections * 2)
            .map_err(|e| format!("--blocks: the floors' connections beside the play's: {e}"))?;
    }
    let mut nodes = Nodes::start(&opts.exe, &db, opts.nodes.max(1), start_within, &[]).await?;
    let echo_during = if sample > 0 || opts.blocks.is_some() {
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

    eprintln!(
        "seating and playing{} ...",
        if generators > 1 {
            format!(" in {generators} generator processes")
        } else {
            String::new()
        }
    );
    let commits0 = nodes.commits().await;
    let decisions0 = nodes.bot_decisions(&opts.computer_level).await;
    let started = Instant::now();
    let play_started = tokio::time::Instant::now();
    let server_cpu0 = nodes.cpu_seconds();
    let node_cpu0 = nodes.cpu_each();
    let load_cpu0 = cpu_seconds("self");
    let stop_at = opts.seconds.map(|s| play_started + s);
    // Past one machine a broken connection goes to the other nodes, and every acknowledged
    // action is checked against the store after.
    let failover = if opts.nodes > 1 {
        nodes.addrs()
    } else {
        Vec::new()
    };
    let seen = Arc::new(client::Seen::default());
    let commits_stop = StopOnDrop(Arc::new(std::sync::atomic::AtomicBool::new(false)));
    let commits_during = commit_floor_during(dir.to_path_buf(), commits_stop.0.clone());
    let peak = nodes.sample_peak();
    let mut echo_task: Option<tokio::task::JoinHandle<Result<EchoFloor, String>>> = None;
    // Everyone seated: the load at its full size. The steady play is counted from here, and
    // the fan-out floor during the play starts, its rounds fitting in what is left.
    let mut steady0: Option<(f64, u64)> = None;
    let mut steady_from_ms = u64::MAX;
    let (seated_tx, mut seated_rx) = tokio::sync::oneshot::channel::<()>();
    let mut seated_tx = Some(seated_tx);
    let mut kill_at = opts
        .kill_after
        .filter(|_| opts.nodes > 1)
        .map(|k| play_started + k);
    let mut killed = None;
    let mut turns = opts
        .blocks
        .zip(echo_during.as_ref())
        .map(|(length, (child, _))| Turns::new(length, child.id()));
    let played = if generators > 1 {
        let mut orders: Vec<drive::Order> = (0..generators)
            .map(|_| drive::Order {
                game: opts.game.clone(),
                seats: opts.seats,
                think_ms: opts.think.as_millis() as u64,
                deadline_s: opts.deadline.as_secs(),
                stop_at_ms: stop_at.map(drive::unix_ms_of),
                failover: failover.clone(),
                tables: Vec::new(),
            })
            .collect();
        for (i, t) in ids.into_iter().enumerate() {
            orders[i % generators].tables.push(t);
        }
        let mut children = drive::Children::start(&opts.exe, dir, orders)?;
        let mut children_acks = vec![0; children.len()];
        let mut children_seated = 0;
        let mut played = Played::default();
        let mut reports = 0;
        while reports < children.len() {
            let kill_wait = kill_at.map(tokio::time::sleep_until);
            tokio::select! {
                said = children.said.recv() => match said {
                    Some((i, drive::Said::Seated)) => {
                        children_seated += 1;
                        let _ = i;
                        if children_seated == children.len() {
                            if let Some(tx) = seated_tx.take() {
                                let _ = tx.send(());
                            }
                        }
                    }
                    Some((i, drive::Said::Acks(n))) => children_acks[i] = n,
                    Some((_, drive::Said::Report(p))) => {
                        played.add(*p);
                        reports += 1;
                    }
                    Some((_, drive::Said::Failed(e))) => return Err(e),
                    None => return Err("the generators went away".into()),
                },
                _ = async { kill_wait.unwrap().await }, if kill_wait.is_some() => {
                    killed = Some(kill_last(&mut nodes, play_started, opts.tables).await);
                    kill_at = None;
                }
                _ = &mut seated_rx, if steady0.is_none() => {
                    steady0 = Some((nodes.cpu_seconds(), children_acks.iter().sum()));
                    steady_from_ms = client::unix_ms();
                }
            }
        }
        played
    } else {
        let bot = BotOptions {
            think: opts.think,
            deadline: opts.deadline,
            record: false,
            stop: stop_at,
            seen: Some(seen.clone()),
            failover: failover.clone(),
            hold: turns.as_ref().map(|t| t.hold.subscribe()),
        };
        let play = play_tables::<E>(ids, opts.seats, bot, seated_tx.take());
        tokio::pin!(play);
        let played = loop {
            let kill_wait = kill_at.map(tokio::time::sleep_until);
            let next_turn = turns.as_ref().and_then(|t| t.next);
            let connecting = turns.as_ref().is_some_and(|t| t.waiting);
            tokio::select! {
                done = &mut play => break done?,
                open = async { (&mut turns.as_mut().expect("guarded").connected).await }, if connecting => {
                    let t = turns.as_mut().expect("guarded");
                    t.waiting = false;
                    // Not all open: the fan-out floor's task says why at the end.
                    if open.is_err() {
                        continue;
                    }
                    t.read(&nodes, &seen).await;
                    t.next = Some(tokio::time::Instant::now() + t.length);
                    eprintln!("turns of {:?}: the play, then the floors alone, and so on ...", t.length);
                }
                _ = async { tokio::time::sleep_until(next_turn.expect("guarded")).await }, if next_turn.is_some() => {
                    turns.as_mut().expect("guarded").pass(&nodes, &seen).await;
                }
                _ = async { kill_wait.unwrap().await }, if kill_wait.is_some() => {
                    killed = Some(kill_last(&mut nodes, play_started, opts.tables).await);
                    kill_at = None;
                }
                _ = &mut seated_rx, if steady0.is_none() => {
                    steady0 = Some((nodes.cpu_seconds(), seen.acks.load(Ordering::Relaxed)));
                    steady_from_ms = client::unix_ms();
                    if let (Some(t), Some((_, addr))) = (turns.as_mut(), &echo_during) {
                        let (addr, seen, length) = (*addr, seen.clone(), t.length);
                        let gate = t.gate();
                        let all = opts.clone();
                        echo_task = Some(tokio::spawn(async move {
                            // A turn of play first, not counted, so that the floors' connections
                            // do not open in one that is. (Their frames' size is set turn by
                            // turn: the play's so far.)
                            tokio::time::sleep(length).await;
                            eprintln!("the floors' connections: {} ...", all.tables * all.seats);
                            echo_round_trips(addr, None, &all, seen.mean_bytes(), usize::MAX, Some(gate)).await
                        }));
                        t.start_commits(dir);
                    } else if let Some((child, addr)) = &echo_during {
                        let left = stop_at.map_or(opts.think * 100, |t| {
                            t.saturating_duration_since(tokio::time::Instant::now())
                        });
                        let rounds = (left.as_secs_f64() / opts.think.as_secs_f64().max(0.01) / 2.0)
                            .clamp(3.0, ECHO_ROUNDS as f64) as usize;
                        let (addr, pid, seen) = (*addr, child.id(), seen.clone());
                        let sampled = LoadOptions { tables: sample, ..opts.clone() };
                        echo_task = Some(tokio::spawn(async move {
                            echo_round_trips(addr, pid, &sampled, seen.mean_bytes(), rounds, None).await
                        }));
                    }
                }
            }
        };
        played
    };
    // The last turn ends with the play; the floors stop.
    let blocks = match turns.as_mut() {
        Some(t) => Some(t.end(&nodes, &seen, &played).await?),
        None => None,
    };
    let seconds = started.elapsed().as_secs_f64();
    let (killed, dead_tables, served_again) = match killed.map(Killing::end) {
        Some((killed, tables, back)) => (Some(killed), tables, back),
        None => (None, 0, Vec::new()),
    };
    let server_cpu = nodes.cpu_seconds() - server_cpu0;
    let node_cpu: Vec<f64> = nodes
        .cpu_each()
        .iter()
        .zip(&node_cpu0)
        .map(|(end, start)| end - start)
        .collect();
    // The child generators' own, as each read it before it ended.
    let load_cpu = cpu_seconds("self") + played.cpu_s - load_cpu0;
    let (steady_actions, steady_cpu) = match steady0 {
        Some((cpu, acks)) => (
            played.actions.saturating_sub(acks),
            nodes.cpu_seconds() - cpu,
        ),
        None => (0, 0.0),
    };
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
    // Every acknowledged action, read back from the store now that the nodes have stopped.
    let lost = if played.acked.is_empty() {
        0
    } else {
        eprintln!(
            "reading back {} acknowledged actions ...",
            played.acked.len()
        );
        let lost = acked::lost(&db.to_string_lossy(), &played.acked).await?;
        for (t, seq, id) in lost.iter().take(5) {
            eprintln!("lost: table {t}, seq {seq}, action {id}");
        }
        lost.len()
    };

    // The network floor after the load, with frames of the size the server sent: the server is
    // stopped, so the two do not share the machine.
    let frame_bytes = (played.received_bytes / played.received.max(1)) as usize;
    let floor_opts = LoadOptions {
        tables: floor_tables,
        ..opts.clone()
    };
    eprintln!(
        "echo floor: {} connections, frames of {frame_bytes} bytes ...",
        floor_tables * opts.seats
    );
    let (echo_child, echo_addr) = start_child(
        &opts.exe,
        &["load".as_ref(), "--echo-server".as_ref()],
        "echo ws://",
        start_within,
    )
    .await?;
    // The commit floor at the pace the server committed, beside the fan-out floor.
    let every = Duration::from_secs_f64(seconds / server_commits.max(1) as f64)
        .clamp(Duration::from_micros(100), Duration::from_secs(1));
    let paced_stop = StopOnDrop(Arc::new(std::sync::atomic::AtomicBool::new(false)));
    let paced = paced_commits(dir.to_path_buf(), every, paced_stop.0.clone()).await;
    let echo_floor = echo_round_trips(
        echo_addr,
        echo_child.id(),
        &floor_opts,
        frame_bytes,
        ECHO_ROUNDS,
        None,
    )
    .await?;
    drop(paced_stop);
    let paced = paced.await.map_err(|e| e.to_string())??;
    drop(echo_child);
    let mut echo = echo_floor.round_trips;
    echo.sort();
    let mut commits = [commits_before.clone(), commits_after.clone()].concat();
    for c in [&mut commits, &mut commits_before, &mut commits_after] {
        c.sort();
    }
    let as_duration = |&(_, us): &(u64, u32)| Duration::from_micros(u64::from(us));
    let mut round_trips: Vec<Duration> = played.round_trips.iter().map(as_duration).collect();
    round_trips.sort();
    let mut steady: Vec<Duration> = played
        .round_trips
        .iter()
        .filter(|(sent, _)| *sent >= steady_from_ms)
        .map(as_duration)
        .collect();
    steady.sort();
    Ok(LoadReport {
        tables: opts.tables,
        connections,
        finished: played.finished_seats / opts.seats.max(1),
        actions: played.actions,
        seconds,
        p50: percentile(&round_trips, 0.50),
        p99: percentile(&round_trips, 0.99),
        echo_p50: percentile(&echo, 0.50),
        echo_p99: percentile(&echo, 0.99),
        mean: mean(&round_trips),
        echo_mean: mean(&echo),
        commit_p50: percentile(&commits, 0.50),
        commit_p99: percentile(&commits, 0.99),
        reconnects: played.reconnects,
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
        blocks,
        paced,
        commit_cpu_loop: (commit_cpu_before + commit_cpu_after) / 2,
        frame_bytes,
        errors: played.errors,
        nodes: opts.nodes.max(1),
        computer_tables: opts.computer_tables,
        computer_level: opts.computer_level.clone(),
        computer_decisions,
        threads_peak,
        stopped_after: opts.seconds,
        echo_during_tables: match (echo_during_trips.is_empty(), opts.blocks) {
            (true, _) => 0,
            (false, Some(_)) => opts.tables,
            (false, None) => sample,
        },
        echo_during_p50: percentile(&echo_during_trips, 0.50),
        echo_during_p99: percentile(&echo_during_trips, 0.99),
        echo_during_mean: mean(&echo_during_trips),
        commit_during: commit_during.len(),
        commit_during_p50: percentile(&commit_during, 0.50),
        commit_during_p99: percentile(&commit_during, 0.99),
        generators,
        steady_actions,
        steady_cpu,
        steady_p50: percentile(&steady, 0.50),
        steady_p99: percentile(&steady, 0.99),
        node_cpu,
        killed,
        dead_tables,
        served_again,
        resumed: played
            .resumed_ms
            .iter()
            .map(|&ms| Duration::from_millis(u64::from(ms)))
            .collect(),
        acked_checked: played.acked.len(),
        lost,
    })
}

/// `--kill-node-after`: the node killed, how far into the play, and the survivors' count of
/// its tables served again.
struct Killing {
    node: usize,
    after: Duration,
    tables: usize,
    served_again: Arc<std::sync::Mutex<Vec<Duration>>>,
    watch: tokio::task::JoinHandle<()>,
}

impl Killing {
    /// Stops watching: the node, when, its tables and when each was served again.
    fn end(self) -> ((usize, Duration), usize, Vec<Duration>) {
        self.watch.abort();
        let back = self.served_again.lock().expect("takeover times").clone();
        ((self.node, self.after), self.tables, back)
    }
}

/// Kills the last node (SIGKILL), then watches the others take its tables (of `tables`, table
/// `i` on node `i mod N`).
async fn kill_last(
    nodes: &mut Nodes,
    play_started: tokio::time::Instant,
    tables: usize,
) -> Killing {
    let mut addrs = nodes.addrs();
    let node = addrs.len() - 1;
    let after = play_started.elapsed();
    eprintln!(
        "killing node {} (SIGKILL) after {:.0} s ...",
        node + 1,
        after.as_secs_f64()
    );
    let killed = tokio::time::Instant::now();
    nodes.kill(node).await;
    let served_again = Arc::new(std::sync::Mutex::new(Vec::new()));
    let n = addrs.len();
    addrs.remove(node);
    let its = (0..tables).filter(|i| i % n == node).count();
    let watch = tokio::spawn(Nodes::watch_takeover(
        addrs,
        its,
        killed,
        served_again.clone(),
    ));
    Killing {
        node,
        after,
        tables: its,
        served_again,
        watch,
    }
}
