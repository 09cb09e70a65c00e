//! `paiju load --event`: a whole 80分 duplicate event at the scale of a national qualifier, over
//! the real server (issue 11, "Scale").
//!
//! It starts `paiju serve` as a process of its own with a director token, creates an event of N
//! tables (2N pairs, all people: every seat is a WebSocket bot client, 4N of them), and runs it
//! as a director and the pairs would: each round is started, each player of every pair asks for
//! their seat with their own token board after board and plays it (two bot clients a pair), NS confirm
//! their results and EW check them, the round is closed; after the last round the standings are
//! asked for (every board matchpointed, both directions ranked) and the seed is revealed.
//!
//! It reports the time each round took, what the server needs once the last board is played
//! (closing the round, matchpointing and ranking, revealing the seed: each call timed), and the
//! server's memory and CPU.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use protocol::{CompetitionCards, CompetitionJoined, CompetitionView, PairStatus};
use serde_json::{json, Value};
use tokio::task::JoinSet;

use crate::client::{self, BotOptions};
use crate::load::{open_files, Nodes};

/// The director token of the server it starts (any 32 characters: the server is its own).
const DIRECTOR: &str = "load-director-0123456789abcdef0123";

/// What to run.
#[derive(Clone, Debug)]
pub struct EventLoadOptions {
    /// Tables in play (one NS and one EW pair each).
    pub tables: u32,
    pub rounds: u32,
    pub boards_per_round: u32,
    /// Bot thinking time per action.
    pub think: Duration,
    /// The `paiju` binary to start as the server.
    pub exe: PathBuf,
    /// Each round, and each bot, gives up after this long.
    pub deadline: Duration,
}

/// What came out.
#[derive(Debug)]
pub struct EventLoadReport {
    pub tables: u32,
    pub pairs: usize,
    pub players: usize,
    pub boards: usize,
    pub actions: u64,
    /// Wall time of each round: start → every pair has played and confirmed → closed.
    pub rounds: Vec<Duration>,
    /// The server's side once the last board is played: closing the last round, the standings
    /// (every board matchpointed, both directions ranked), the seed revealed.
    pub close: Duration,
    pub standings: Duration,
    pub reveal: Duration,
    /// The size of the standings answer, to show what was ranked.
    pub standings_bytes: usize,
    pub rss_idle_kib: u64,
    pub rss_peak_kib: u64,
    pub server_cpu: f64,
    pub seconds: f64,
}

impl std::fmt::Display for EventLoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        writeln!(
            f,
            "event: {} tables, {} pairs, {} players on {} WebSocket connections, {} boards played, {} actions",
            self.tables,
            self.pairs,
            self.players,
            self.players,
            self.boards,
            self.actions
        )?;
        let rounds: Vec<String> = self
            .rounds
            .iter()
            .map(|d| format!("{:.1} s", d.as_secs_f64()))
            .collect();
        writeln!(
            f,
            "rounds (start -> played, confirmed, closed): {}; whole event {:.1} s",
            rounds.join(", "),
            self.seconds
        )?;
        writeln!(
            f,
            "after the last board: close the round {:.1} ms, matchpoint and rank (standings, {} KiB) {:.1} ms, reveal the seed {:.1} ms",
            ms(self.close),
            self.standings_bytes / 1024,
            ms(self.standings),
            ms(self.reveal)
        )?;
        write!(
            f,
            "server: {:.1} MiB idle, {:.1} MiB peak during the event; cpu {:.1} s over {:.1} s",
            self.rss_idle_kib as f64 / 1024.0,
            self.rss_peak_kib as f64 / 1024.0,
            self.server_cpu,
            self.seconds
        )
    }
}

/// One HTTP call as the director or a pair: the status and the JSON answer.
async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    director: bool,
    body: Option<Value>,
) -> Result<(u16, Value), String> {
    let body = body.map(|b| b.to_string());
    let auth = director.then_some(DIRECTOR);
    let (status, text) = crate::http::request_as(addr, method, path, body.as_deref(), auth).await?;
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Ok((status, v))
}

/// A call that must succeed.
async fn ok<T: serde::de::DeserializeOwned>(
    addr: SocketAddr,
    method: &str,
    path: &str,
    director: bool,
    body: Option<Value>,
) -> Result<T, String> {
    let (status, v) = call(addr, method, path, director, body).await?;
    if !(200..300).contains(&status) {
        return Err(format!("{method} {path}: {status} {v}"));
    }
    serde_json::from_value(v).map_err(|e| format!("{method} {path}: {e}"))
}

/// What one pair did in a round: boards played, actions its two seats made.
struct Played {
    boards: usize,
    actions: u64,
}

/// A pair plays every board it has this round: each player asks for their seat with their own
/// token, plays the board with two bot clients, and asks again, until its own results say
/// every board of its table is played.
async fn pair_round(
    addr: SocketAddr,
    id: &str,
    tokens: [String; 2],
    bot: BotOptions,
) -> Result<Played, String> {
    let token = tokens[0].as_str();
    let mut played = Played {
        boards: 0,
        actions: 0,
    };
    let started = Instant::now();
    loop {
        if started.elapsed() > bot.deadline {
            return Err(format!(
                "pair {token}: the round's boards not played in time"
            ));
        }
        let join = format!("/api/events/{id}/join");
        let (status, v) = call(addr, "POST", &join, false, Some(json!({"token": token}))).await?;
        if status == 409 {
            // No board to sit at: every board of the table played, or the next one opening.
            let me: PairStatus = ok(
                addr,
                "POST",
                &format!("/api/events/{id}/pair"),
                false,
                Some(json!({"token": token})),
            )
            .await?;
            let done = me
                .table
                .as_ref()
                .is_some_and(|t| t.boards.iter().all(|b| b.result.is_some()));
            if done {
                return Ok(played);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        if status != 200 {
            return Err(format!("{join}: {status} {v}"));
        }
        let first: CompetitionJoined = serde_json::from_value(v).map_err(|e| e.to_string())?;
        // The partner sits down with their own token: one player, one seat.
        let partner: CompetitionJoined = ok(
            addr,
            "POST",
            &join,
            false,
            Some(json!({"token": tokens[1]})),
        )
        .await?;
        let url = format!("ws://{addr}/ws/{}", first.table);
        let mut seats = JoinSet::new();
        for t in [first.token, partner.token] {
            let (url, bot) = (url.clone(), bot.clone());
            seats.spawn(async move { client::play::<rules::shengji::Board>(&url, &t, bot).await });
        }
        while let Some(r) = seats.join_next().await {
            let r = r.map_err(|e| e.to_string())??;
            played.actions += r.actions;
        }
        played.boards += 1;
    }
}

/// Runs the whole event.
pub async fn run(opts: EventLoadOptions) -> Result<EventLoadReport, String> {
    let players = opts.tables as usize * 4;
    open_files(players)?;
    // Stopped by a signal: the servers go with the run and the store with them (as `run`),
    // the signals caught before there is anything to leave behind.
    let stop = crate::load::stopped();
    let dir = std::env::temp_dir().join(format!("paiju-event-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = tokio::select! {
        r = run_in(&opts, &dir) => r,
        s = stop => Err(format!("stopped by {s}; the temporary store is removed")),
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

async fn run_in(opts: &EventLoadOptions, dir: &std::path::Path) -> Result<EventLoadReport, String> {
    let db = dir.join("event.db");
    let nodes = Nodes::start(
        &opts.exe,
        db.as_os_str(),
        1,
        Duration::from_secs(30),
        &["--director-token", DIRECTOR],
    )
    .await?;
    let addr = nodes.addr(0);
    let rss_idle_kib = nodes.rss_kib();
    let peak = nodes.sample_peak();
    let cpu0 = nodes.cpu_seconds();
    let started = Instant::now();

    // The entries in the drawn order: NS 1…N, then EW 1…N; every pair is two people.
    let entries: Vec<Value> = ["NS", "EW"]
        .iter()
        .flat_map(|dir| {
            (1..=opts.tables)
                .map(move |n| json!({"names": [format!("{dir}{n}甲"), format!("{dir}{n}乙")]}))
        })
        .collect();
    // An even number of tables needs a skip or a relay: the skip, the common choice.
    let movement = if opts.tables.is_multiple_of(2) {
        "skip"
    } else {
        "plain"
    };
    let ev: CompetitionView = ok(
        addr,
        "POST",
        "/api/events",
        true,
        Some(
            json!({"game": "shengji", "name": "规模测试", "tables": opts.tables,
                    "rounds": opts.rounds, "boards_per_round": opts.boards_per_round,
                    "movement": movement, "entries": entries}),
        ),
    )
    .await?;
    let id = ev.id;
    let cards: CompetitionCards =
        ok(addr, "GET", &format!("/api/events/{id}/cards"), true, None).await?;
    let tokens = |dir: &'static str| -> Vec<[String; 2]> {
        cards
            .pairs
            .iter()
            .filter(|c| c.pair.direction == dir && c.players.len() == 2)
            .map(|c| [c.players[0].token.clone(), c.players[1].token.clone()])
            .collect()
    };
    let (ns, ew) = (tokens("NS"), tokens("EW"));
    let bot = BotOptions {
        think: opts.think,
        deadline: opts.deadline,
        record: false,
        stop: None,
        seen: None,
        failover: Vec::new(),
        hold: None,
    };

    let mut rounds = Vec::new();
    let mut boards = 0;
    let mut actions = 0;
    let mut close = Duration::ZERO;
    for round in 1..=opts.rounds {
        let t = Instant::now();
        let _: CompetitionView = ok(
            addr,
            "POST",
            &format!("/api/events/{id}/rounds/{round}/start"),
            true,
            Some(json!({})),
        )
        .await?;
        let mut pairs = JoinSet::new();
        for tokens in ns.iter().chain(&ew) {
            let (id, tokens, bot) = (id.clone(), tokens.clone(), bot.clone());
            pairs.spawn(async move { pair_round(addr, &id, tokens, bot).await });
        }
        while let Some(r) = pairs.join_next().await {
            let played = r.map_err(|e| e.to_string())??;
            // Each board is played by two pairs: halved at the end.
            boards += played.boards;
            actions += played.actions;
        }
        // NS record, then EW check (「经东西选手核对无误后」).
        for side in [&ns, &ew] {
            let mut confirms = JoinSet::new();
            for tokens in side {
                let (id, token) = (id.clone(), tokens[0].clone());
                confirms.spawn(async move {
                    ok::<Value>(
                        addr,
                        "POST",
                        &format!("/api/events/{id}/confirm"),
                        false,
                        Some(json!({"token": token, "agree": true})),
                    )
                    .await
                });
            }
            while let Some(r) = confirms.join_next().await {
                r.map_err(|e| e.to_string())??;
            }
        }
        let c = Instant::now();
        let _: CompetitionView = ok(
            addr,
            "POST",
            &format!("/api/events/{id}/rounds/{round}/close"),
            true,
            Some(json!({})),
        )
        .await?;
        close = c.elapsed();
        rounds.push(t.elapsed());
        eprintln!(
            "round {round} of {}: {:.1} s",
            opts.rounds,
            t.elapsed().as_secs_f64()
        );
    }
    let s = Instant::now();
    let (status, standings) = crate::http::request_as(
        addr,
        "GET",
        &format!("/api/events/{id}/standings"),
        None,
        Some(DIRECTOR),
    )
    .await?;
    let standings_time = s.elapsed();
    if status != 200 {
        return Err(format!("standings: {status} {standings}"));
    }
    let r = Instant::now();
    let revealed: CompetitionView = ok(
        addr,
        "POST",
        &format!("/api/events/{id}/reveal"),
        true,
        Some(json!({})),
    )
    .await?;
    let reveal = r.elapsed();
    if revealed.seed.is_none() {
        return Err("the seed was not revealed".into());
    }
    let seconds = started.elapsed().as_secs_f64();
    let server_cpu = nodes.cpu_seconds() - cpu0;
    let rss_peak_kib = nodes.rss_kib().max(peak.stop());
    nodes.stop().await;
    Ok(EventLoadReport {
        tables: opts.tables,
        pairs: ns.len() + ew.len(),
        players: opts.tables as usize * 4,
        boards: boards / 2,
        actions,
        rounds,
        close,
        standings: standings_time,
        reveal,
        standings_bytes: standings.len(),
        rss_idle_kib,
        rss_peak_kib,
        server_cpu,
        seconds,
    })
}
