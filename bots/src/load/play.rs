//! The tables of a run: created on the nodes, then seated and played by WebSocket bot clients,
//! in the run's own process or (past one process's open files) in child generators.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

use super::nodes::Nodes;

/// Creates the tables, a few at a time; nobody sits yet (a table without players has no clock
/// running).
/// Table i is created on node i mod N (which then serves it: its lease is born with it).
pub(super) async fn create_tables(
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

/// What the bots of some tables did: summed, or (a child generator's) sent to the parent as
/// JSON and summed there.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Played {
    pub actions: u64,
    /// Seats whose table reached its end.
    pub finished_seats: usize,
    pub received: u64,
    pub received_bytes: u64,
    /// Bots that had to connect again before they started (refused or reset).
    pub reconnects: u64,
    pub errors: Vec<String>,
    /// Each action's round trip: when it was sent (ms since the epoch) and how long it took
    /// (microseconds).
    pub round_trips: Vec<(u64, u32)>,
    /// With failover: every acknowledged action, (table, seq, action id).
    pub acked: Vec<(String, u64, u64)>,
    /// With failover: each resumption after a broken connection, the seat's time without its
    /// table, in milliseconds.
    pub resumed_ms: Vec<u32>,
    /// A child generator's own CPU seconds (read by itself before it ends).
    pub cpu_s: f64,
}

impl Played {
    /// Adds another generator's.
    pub fn add(&mut self, other: Played) {
        self.actions += other.actions;
        self.finished_seats += other.finished_seats;
        self.received += other.received;
        self.received_bytes += other.received_bytes;
        self.reconnects += other.reconnects;
        self.errors.extend(other.errors);
        self.round_trips.extend(other.round_trips);
        self.acked.extend(other.acked);
        self.resumed_ms.extend(other.resumed_ms);
        self.cpu_s += other.cpu_s;
    }

    fn take(&mut self, table: &str, r: crate::client::BotReport) {
        self.received += r.received;
        self.received_bytes += r.received_bytes;
        self.actions += r.actions;
        self.finished_seats += r.over as usize;
        let us = |d: Duration| d.as_micros().min(u128::from(u32::MAX)) as u32;
        self.round_trips
            .extend(r.round_trips.into_iter().map(|(at, d)| (at, us(d))));
        self.acked.extend(
            r.acked
                .into_iter()
                .map(|(seq, id)| (table.to_string(), seq, id)),
        );
        self.resumed_ms
            .extend(r.resumed.into_iter().map(|d| us(d) / 1000));
    }
}

/// Seats every seat of `ids`' tables and plays them with a bot each until they end (or the
/// bots' `stop`): the bots connect table by table as the seats are taken, and one that could not
/// connect at first tries again, as a page would. `seated` is told once every seat is taken (the
/// load then is at its full size). A progress line goes to standard error every 30 s.
pub async fn play_tables<E: rules::Engine + 'static>(
    ids: Vec<(SocketAddr, String)>,
    seats: usize,
    bot: crate::client::BotOptions,
    seated: Option<tokio::sync::oneshot::Sender<()>>,
) -> Result<Played, String> {
    let connections = ids.len() * seats;
    let deadline = bot.deadline;
    let started = Instant::now();
    let mut out = Played::default();
    let reconnects = Arc::new(AtomicU64::new(0));
    let mut tasks: JoinSet<(String, Result<crate::client::BotReport, String>)> = JoinSet::new();
    let (seated_tx, mut seating) = tokio::sync::mpsc::channel::<Seated>(64);
    seat_tables(ids, seats, seated_tx);
    let mut seated = seated;
    let mut progress = tokio::time::interval(Duration::from_secs(30));
    progress.tick().await;
    let mut left = connections;
    let mut still_seating = true;
    while left > 0 {
        tokio::select! {
            table = seating.recv(), if still_seating => match table {
                Some(Ok(seats)) => {
                    for (addr, table, token) in seats {
                        let url = format!("ws://{addr}/ws/{table}");
                        let bot = bot.clone();
                        // The bot's own deadline starts once it is connected: this one covers
                        // connecting too.
                        let whole = deadline + Duration::from_secs(30);
                        let reconnects = reconnects.clone();
                        tasks.spawn(async move {
                            let play = async {
                                // Thousands of connects at once can overflow the server's
                                // accept queue (a reset): try again. Nothing was sent yet, so
                                // nothing is played twice.
                                let mut attempt = 0;
                                loop {
                                    match crate::client::play::<E>(&url, &token, bot.clone()).await {
                                        Err(e) if e.starts_with("connect ") && attempt < 5 => {
                                            attempt += 1;
                                            reconnects.fetch_add(1, Ordering::Relaxed);
                                            tokio::time::sleep(Duration::from_millis(200 * attempt)).await;
                                        }
                                        done => return done,
                                    }
                                }
                            };
                            let r = tokio::time::timeout(whole, play)
                                .await
                                .unwrap_or_else(|_| Err(format!("{url}: no end after {whole:?}")));
                            (table, r)
                        });
                    }
                }
                Some(Err(e)) => return Err(e),
                None => {
                    still_seating = false;
                    if let Some(tell) = seated.take() {
                        let _ = tell.send(());
                    }
                }
            },
            joined = tasks.join_next(), if !tasks.is_empty() => {
                let Some(joined) = joined else { continue };
                left -= 1;
                match joined {
                    Ok((table, Ok(r))) => out.take(&table, r),
                    Ok((_, Err(e))) => out.errors.push(e),
                    Err(e) => out.errors.push(e.to_string()),
                }
            }
            _ = progress.tick() => {
                eprintln!(
                    "playing: {:.0} s, {} of {connections} seats done",
                    started.elapsed().as_secs_f64(),
                    connections - left,
                );
                // Each bot has its deadline; this catches seating that stopped answering.
                if started.elapsed() > deadline * 2 + Duration::from_secs(60) {
                    return Err(format!(
                        "playing: {left} of {connections} seats still going after {:?}",
                        started.elapsed()
                    ));
                }
            }
        }
    }
    out.reconnects = reconnects.load(Ordering::Relaxed);
    Ok(out)
}
