//! One table: a tokio task that owns its engine (design principle 5).
//!
//! Connections reach it only through a bounded command channel ([`TableHandle`]); no lock guards
//! game state. For every accepted action the actor, in this order: applies it to the engine
//! (a refusal changes nothing), appends it to the log and waits for the commit, acknowledges it to
//! the sender, then sends each subscriber the resulting events cut to what that viewer may see
//! (`Engine::redact`) with their new view (`Engine::view`).
//!
//! The actor also runs the move clock (the engine's timeout action when it expires, logged like
//! any action), plays the bot seats and the seats in 托管, and closes the table when no one has
//! been connected for a while.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use protocol::{close, codes, Actor, ClientOut, Problem, Role, SeatInfo, TableState, TableSummary};
use rules::Viewer;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{sleep_until, Instant};

use crate::clock::MoveClock;
use crate::game::{DealFixed, TableGame};
use crate::lobby::TableDeps;
use crate::seat_token;
use crate::store::{self, LogEntry, SeatRecord, StoredTable, TableHeader};

/// Who a connection is at this table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Who {
    Seat(usize),
    Spectator,
    Referee,
}

impl Who {
    pub fn viewer(self) -> Viewer {
        match self {
            Who::Seat(s) => Viewer::Seat(s),
            Who::Spectator => Viewer::Spectator,
            Who::Referee => Viewer::Referee,
        }
    }

    pub fn role(self) -> Role {
        match self {
            Who::Seat(_) => Role::Seat,
            Who::Spectator => Role::Spectator,
            Who::Referee => Role::Referee,
        }
    }
}

/// A close the server asks a connection to make: code and reason.
pub type CloseWith = Option<(u16, String)>;

/// How the table reaches one connection.
#[derive(Clone)]
pub struct Outlet {
    /// The connection's id (unique per server run).
    pub id: u64,
    /// Its bounded outbound queue of JSON text frames. The table never waits on it: a full
    /// queue makes the connection a slow reader, closed with 4008.
    pub tx: mpsc::Sender<String>,
    /// Asks the connection to close now (seat left, slow reader, table closed).
    pub close: Arc<watch::Sender<CloseWith>>,
}

impl Outlet {
    fn close_with(&self, code: u16, reason: &str) {
        self.close.send_replace(Some((code, reason.to_string())));
    }
}

/// Requests to a table's actor.
pub(crate) enum Command {
    Join {
        seat: usize,
        name: String,
        token_hash: String,
        reply: oneshot::Sender<Result<(), Problem>>,
    },
    Leave {
        token_hash: String,
        reply: oneshot::Sender<Result<(), Problem>>,
    },
    Attach {
        outlet: Outlet,
        token: Option<String>,
        last_seq: Option<u64>,
        reply: oneshot::Sender<Result<Who, Problem>>,
    },
    Detach {
        conn: u64,
    },
    Act {
        conn: u64,
        act: Act,
    },
    Resync {
        conn: u64,
    },
    Stop {
        reply: oneshot::Sender<()>,
    },
}

/// One `act` message as the connection read it (see `protocol::ClientIn::Act`).
#[derive(Debug)]
pub struct Act {
    pub id: u64,
    /// The table seq the client decided on.
    pub seq: u64,
    pub seat: Option<usize>,
    pub reason: Option<String>,
    pub action: Value,
}

/// The way in to a table: cheap to clone, held by the lobby and by connections.
#[derive(Clone)]
pub struct TableHandle {
    pub id: String,
    pub game: &'static str,
    /// Bounded: a table that cannot keep up makes its senders wait, memory does not grow.
    tx: mpsc::Sender<Command>,
    /// The table's public summary, published by the actor after every change, so listing a
    /// thousand tables does not message a thousand actors.
    summary: watch::Receiver<TableSummary>,
    /// Set when the actor stopped after a failed write (or a panic) and the table is being
    /// rebuilt from its log: requests are told to retry, not that the table is gone.
    rebuilding: Arc<AtomicBool>,
}

fn gone() -> Problem {
    Problem::new(codes::TABLE_CLOSED, "牌桌已关闭", "the table is closed")
}

impl TableHandle {
    pub fn summary(&self) -> TableSummary {
        self.summary.borrow().clone()
    }

    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, Problem>>) -> Command,
    ) -> Result<T, Problem> {
        let (tx, rx) = oneshot::channel();
        self.tx.send(make(tx)).await.map_err(|_| self.gone())?;
        rx.await.unwrap_or_else(|_| Err(self.gone()))
    }

    /// Why the actor does not answer: closed for good, or being rebuilt (try again).
    fn gone(&self) -> Problem {
        if self.rebuilding.load(Ordering::Relaxed) {
            Problem::new(
                codes::TABLE_REBUILDING,
                "牌桌正在恢复，请稍候重连",
                "the table is being rebuilt from its log: reconnect in a moment",
            )
        } else {
            gone()
        }
    }

    /// The close a connection to this table makes once its actor has gone.
    pub fn closed_with(&self) -> (u16, &'static str) {
        if self.rebuilding.load(Ordering::Relaxed) {
            (close::RETRY, "the table is being rebuilt: reconnect")
        } else {
            (close::NORMAL, "table closed")
        }
    }

    /// Resolves when the actor has gone (closed, stopped, failed or panicked).
    pub async fn closed(&self) {
        self.tx.closed().await
    }

    pub async fn join(&self, seat: usize, name: String, token_hash: String) -> Result<(), Problem> {
        self.ask(|reply| Command::Join {
            seat,
            name,
            token_hash,
            reply,
        })
        .await
    }

    pub async fn leave(&self, token_hash: String) -> Result<(), Problem> {
        self.ask(|reply| Command::Leave { token_hash, reply }).await
    }

    pub async fn attach(
        &self,
        outlet: Outlet,
        token: Option<String>,
        last_seq: Option<u64>,
    ) -> Result<Who, Problem> {
        self.ask(|reply| Command::Attach {
            outlet,
            token,
            last_seq,
            reply,
        })
        .await
    }

    pub async fn detach(&self, conn: u64) {
        let _ = self.tx.send(Command::Detach { conn }).await;
    }

    pub async fn act(&self, conn: u64, act: Act) -> bool {
        self.tx.send(Command::Act { conn, act }).await.is_ok()
    }

    pub async fn resync(&self, conn: u64) {
        let _ = self.tx.send(Command::Resync { conn }).await;
    }

    /// Stops the actor after the command it is on (its writes are then done).
    pub async fn stop(&self) {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(Command::Stop { reply }).await.is_ok() {
            let _ = rx.await;
        }
    }
}

/// One stored action as the table remembers it, for catching up reconnecting clients.
struct Entry<E> {
    seat: usize,
    actor: Actor,
    /// A referee's stated reason.
    reason: Option<String>,
    events: Vec<E>,
}

/// A connection watching the table.
struct Subscriber {
    who: Who,
    outlet: Outlet,
}

/// Who sent an action id, for the id caches: the referee, or a seat token's holder
/// ([`store::occupant`]). Keyed by occupancy, not seat: a stranger who takes a seat someone left
/// and reuses an id is not answered with the previous occupant's ack.
const REFEREE_KEY: &str = "referee";
/// Accepted and refused ids remembered per table. A resend older than this is still never
/// applied twice: it carries the seq it was decided on, which is then stale.
const ID_CACHE: usize = 256;
/// Entries kept in memory for catching up reconnecting clients; a client further behind (or
/// further than its outbound queue holds) gets a snapshot instead (lila-ws's short history).
const HISTORY: usize = 48;
/// Longest referee reason, in characters.
const MAX_REASON: usize = 200;

struct Table<G: TableGame> {
    id: String,
    header: TableHeader,
    engine: G,
    seats: Vec<SeatRecord>,
    /// Seq of the last stored entry (0: none).
    seq: u64,
    /// Hash of the last entry (or the genesis hash): the next entry chains to it.
    prev_hash: String,
    /// The last [`HISTORY`] entries: entry `seq` is `history[seq - 1 - (self.seq - len)]`.
    history: VecDeque<Entry<G::Event>>,
    /// Recent action ids by who sent them: (occupant or referee, id) → what they were told.
    /// Rebuilt from the log's tail on restart, so a resent id is never applied twice, even
    /// across a crash.
    ids: IdCache,
    /// Per seat: the seq at which it last asked a question (问牌): once per seat per state.
    asked: Vec<Option<u64>>,
    subscribers: Vec<Subscriber>,
    state: TableState,
    /// When play began (all seats taken): `move_limit` is asked with the time since.
    started: Option<Instant>,
    /// The running move clock, if the engine sets a limit now.
    clock: Option<MoveClock>,
    /// 托管 per seat: the clock ran out while the player was away.
    auto: Vec<bool>,
    /// When the next bot or 托管 move is due.
    bot_at: Option<Instant>,
    /// Since when no one has been connected (the idle broom closes the table after a while).
    idle_since: Option<Instant>,
    /// Set when a write failed after the engine moved: the in-memory state can no longer be
    /// trusted, so the actor stops; a restart rebuilds the table from its log.
    broken: bool,
    deps: TableDeps,
    summary: watch::Sender<TableSummary>,
}

/// Rebuilds (or starts) a table from what is stored and spawns its actor.
pub fn spawn<G: TableGame>(stored: StoredTable, deps: TableDeps) -> Result<TableHandle, String> {
    let StoredTable {
        header,
        state: stored_state,
        seats,
        log,
    } = stored;
    let id = header.id.clone();
    store::verify(&header, &log).map_err(|t| format!("table {id}: log tampered: {t}"))?;
    let seed = rules::deal::Seed::from_hex(&header.seed).map_err(|e| e.0)?;
    let fixed = DealFixed::from_json(&header.fixed).map_err(|e| format!("table {id}: {e}"))?;
    let mut engine = G::start(&header.ruleset, &seed, header.board, &fixed)
        .map_err(|p| format!("table {id}: {}", p.en))?;
    let n = engine.seats();
    let mut records: Vec<SeatRecord> = (0..n)
        .map(|seat| SeatRecord {
            seat,
            name: None,
            token_hash: None,
            bot: false,
        })
        .collect();
    for s in seats {
        if s.seat < n {
            let i = s.seat;
            records[i] = s;
        }
    }
    let mut history = VecDeque::with_capacity(HISTORY);
    let mut ids = IdCache::default();
    for e in &log {
        let action: G::Action = serde_json::from_str(&e.action)
            .map_err(|err| format!("table {id}: entry {}: {err}", e.seq))?;
        let events = engine
            .apply(e.seat, e.actor, action)
            .map_err(|err| format!("table {id}: entry {} refused on replay: {err:?}", e.seq))?;
        if let Some(cid) = e.client_id {
            let key = match (&e.occupant, e.actor) {
                (_, Actor::Referee) => REFEREE_KEY.to_string(),
                (Some(o), _) => o.clone(),
                // Entries from before occupants were logged: the seat's number stands in.
                (None, _) => format!("seat {}", e.seat),
            };
            ids.remember(key, cid, Told::Acked(e.seq));
        }
        if history.len() == HISTORY {
            history.pop_front();
        }
        history.push_back(Entry {
            seat: e.seat,
            actor: e.actor,
            reason: e.reason.clone(),
            events,
        });
    }
    let now = Instant::now();
    let all_taken = records.iter().all(|s| s.bot || s.name.is_some());
    let state = if stored_state == TableState::Closed {
        TableState::Closed
    } else if engine.is_over() {
        TableState::Over
    } else if !log.is_empty() || all_taken {
        TableState::Playing
    } else {
        TableState::Waiting
    };
    let started = match log.first() {
        Some(first) => Some(
            now.checked_sub(Duration::from_millis(
                store::now_ms().saturating_sub(first.time_ms),
            ))
            .unwrap_or(now),
        ),
        None if state == TableState::Playing => Some(now),
        None => None,
    };
    let (tx, rx) = mpsc::channel(64);
    let placeholder = TableSummary {
        id: id.clone(),
        game: header.game.clone(),
        ruleset: header.ruleset.clone(),
        board: header.board,
        state,
        seats: vec![],
        spectators: 0,
        seq: 0,
        seed_commitment: header.seed_commitment.clone(),
        deal_algorithm: header.deal_algorithm.clone(),
        seed: None,
        head_hash: None,
    };
    let (summary, summary_rx) = watch::channel(placeholder);
    let rebuilding = Arc::new(AtomicBool::new(false));
    let mut table = Table::<G> {
        id: id.clone(),
        prev_hash: log
            .last()
            .map(|e| e.hash.clone())
            .unwrap_or_else(|| store::genesis(&header)),
        header,
        engine,
        auto: vec![false; n],
        seats: records,
        seq: log.len() as u64,
        history,
        ids,
        asked: vec![None; n],
        subscribers: Vec::new(),
        state,
        started,
        clock: None,
        bot_at: None,
        idle_since: Some(now),
        broken: false,
        deps,
        summary,
    };
    table.restart_clock();
    // A table of bots alone plays on with no one watching (and after a restart).
    table.schedule_bot();
    table.publish();
    let handle = TableHandle {
        id,
        game: G::GAME,
        tx,
        summary: summary_rx,
        rebuilding,
    };
    tokio::spawn(supervise(table, rx, handle.clone()));
    Ok(handle)
}

/// How an actor's loop ended.
enum Ending {
    /// Closed or stopped: it leaves the registry.
    Done,
    /// A write failed: it is rebuilt from its log.
    Broken,
}

/// Runs a table's actor; when it ends, takes it out of the registry, or, when a write failed
/// or the actor panicked, rebuilds it from its log (with backoff while the store keeps
/// failing, e.g. a full disk). Meanwhile the old handle answers "retry" (close 4503), so pages
/// keep reconnecting instead of taking the table for gone.
async fn supervise<G: TableGame>(
    table: Table<G>,
    rx: mpsc::Receiver<Command>,
    handle: TableHandle,
) {
    use futures_util::FutureExt;
    let deps = table.deps.clone();
    let ending = std::panic::AssertUnwindSafe(table.run(rx))
        .catch_unwind()
        .await
        .unwrap_or_else(|_| {
            eprintln!(
                "paiju: table {}: the actor panicked; rebuilding it from its log",
                handle.id
            );
            Ending::Broken
        });
    let mine = |h: &TableHandle| h.summary.same_channel(&handle.summary);
    match ending {
        Ending::Done => {
            deps.registry.remove_if(&handle.id, |_, h| mine(h));
        }
        Ending::Broken => {
            handle.rebuilding.store(true, Ordering::Relaxed);
            let mut wait = Duration::from_millis(200);
            loop {
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(Duration::from_secs(30));
                // Another table took the id meanwhile (never, but cheap to check), or the
                // server is stopping.
                if !deps.registry.get(&handle.id).is_some_and(|h| mine(&h)) {
                    return;
                }
                match deps.journal.load(&handle.id).await {
                    Ok(Some(stored)) => match spawn::<G>(stored, deps.clone()) {
                        Ok(fresh) => {
                            eprintln!("paiju: table {}: rebuilt from its log", handle.id);
                            deps.registry.insert(handle.id.clone(), fresh);
                            return;
                        }
                        Err(e) => eprintln!("paiju: table {}: not rebuilt: {e}", handle.id),
                    },
                    Ok(None) => {
                        deps.registry.remove_if(&handle.id, |_, h| mine(h));
                        return;
                    }
                    Err(e) => eprintln!("paiju: table {}: not rebuilt yet: {e}", handle.id),
                }
            }
        }
    }
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400 * 365)
}

fn problem_not(code: &str, zh: &str, en: &str) -> Problem {
    Problem::new(code, zh, en)
}

impl<G: TableGame> Table<G> {
    /// The actor's loop, until the table closes, the server stops it, or a write fails.
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) -> Ending {
        loop {
            if self.broken {
                for s in self.subscribers.drain(..) {
                    s.outlet
                        .close_with(close::RETRY, "store failed: rebuilding the table");
                }
                return Ending::Broken;
            }
            let deadline = self.clock.map(|c| c.deadline());
            let bot_at = self.bot_at;
            let idle_at = self.idle_since.map(|t| t + self.deps.settings.idle_after);
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    None => return Ending::Done,
                    Some(Command::Stop { reply }) => {
                        let _ = reply.send(());
                        return Ending::Done;
                    }
                    Some(cmd) => self.handle(cmd).await,
                },
                _ = sleep_until(deadline.unwrap_or_else(far_future)), if deadline.is_some() => {
                    self.on_timeout().await;
                }
                _ = sleep_until(bot_at.unwrap_or_else(far_future)), if bot_at.is_some() => {
                    self.on_bot().await;
                }
                _ = sleep_until(idle_at.unwrap_or_else(far_future)), if idle_at.is_some() => {
                    self.close_idle().await;
                    return Ending::Done;
                }
            }
        }
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Join {
                seat,
                name,
                token_hash,
                reply,
            } => {
                let r = self.join(seat, name, token_hash).await;
                let _ = reply.send(r);
            }
            Command::Leave { token_hash, reply } => {
                let r = self.leave(&token_hash).await;
                let _ = reply.send(r);
            }
            Command::Attach {
                outlet,
                token,
                last_seq,
                reply,
            } => {
                let r = self.attach(outlet, token, last_seq);
                let _ = reply.send(r);
            }
            Command::Detach { conn } => {
                let before = self.subscribers.len();
                self.subscribers.retain(|s| s.outlet.id != conn);
                if self.subscribers.len() != before {
                    self.after_presence_change();
                }
            }
            Command::Act { conn, act } => self.act(conn, act).await,
            Command::Resync { conn } => {
                if let Some(s) = self.subscribers.iter().find(|s| s.outlet.id == conn) {
                    let text = self.snapshot_text(s.who);
                    let outlet = s.outlet.clone();
                    self.send(&outlet, text);
                }
            }
            Command::Stop { .. } => unreachable!("handled in run"),
        }
    }

    // --- seats and presence -------------------------------------------------------------------

    async fn join(&mut self, seat: usize, name: String, token_hash: String) -> Result<(), Problem> {
        if self.state == TableState::Closed {
            return Err(gone());
        }
        let Some(record) = self.seats.get(seat) else {
            return Err(problem_not(
                codes::BAD_SEAT,
                "没有这个座位",
                "there is no such seat",
            ));
        };
        if record.bot || record.name.is_some() {
            return Err(problem_not(
                codes::SEAT_TAKEN,
                "这个座位已经有人了",
                "that seat is taken",
            ));
        }
        self.save_seat(seat, Some(name), Some(token_hash)).await?;
        self.auto[seat] = false;
        if self.state == TableState::Waiting && self.seats.iter().all(|s| s.bot || s.name.is_some())
        {
            self.state = TableState::Playing;
            self.started = Some(Instant::now());
            if let Err(e) = self
                .deps
                .journal
                .set_state(&self.id, TableState::Playing)
                .await
            {
                // The seat is stored: the rebuilt table finds every seat taken and plays.
                self.store_failed(&e);
            }
            self.restart_clock();
            // Everyone's view now has a running clock: send fresh snapshots.
            self.snapshot_all();
        }
        self.after_presence_change();
        Ok(())
    }

    async fn leave(&mut self, token_hash: &str) -> Result<(), Problem> {
        let Some(seat) = self.seat_of(token_hash) else {
            return Err(bad_token());
        };
        self.save_seat(seat, None, None).await?;
        self.subscribers.retain(|s| {
            let mine = s.who == Who::Seat(seat);
            if mine {
                s.outlet.close_with(close::BAD_TOKEN, "left the seat");
            }
            !mine
        });
        self.after_presence_change();
        Ok(())
    }

    /// Stores who sits in a (human) seat, then takes it as the table's: the store first, so a
    /// restart never forgets a seat a player was told they have.
    async fn save_seat(
        &mut self,
        seat: usize,
        name: Option<String>,
        token_hash: Option<String>,
    ) -> Result<(), Problem> {
        let record = SeatRecord {
            seat,
            name,
            token_hash,
            bot: false,
        };
        self.deps
            .journal
            .set_seat(&self.id, record.clone())
            .await
            .map_err(|e| store_problem(&e))?;
        self.seats[seat] = record;
        Ok(())
    }

    fn seat_of(&self, token_hash: &str) -> Option<usize> {
        self.seats.iter().position(|s| {
            s.token_hash
                .as_deref()
                .is_some_and(|h| seat_token::same(h, token_hash))
        })
    }

    fn attach(
        &mut self,
        outlet: Outlet,
        token: Option<String>,
        last_seq: Option<u64>,
    ) -> Result<Who, Problem> {
        if self.state == TableState::Closed {
            return Err(gone());
        }
        let who = match token {
            None => Who::Spectator,
            Some(t) => {
                let h = seat_token::hash(&t);
                let referee = self.deps.settings.referee_hash.as_deref();
                if referee.is_some_and(|r| seat_token::same(r, &h)) {
                    Who::Referee
                } else if let Some(seat) = self.seat_of(&h) {
                    Who::Seat(seat)
                } else {
                    return Err(bad_token());
                }
            }
        };
        if let Who::Seat(s) = who {
            // The player is back: the table stops playing for them.
            self.auto[s] = false;
        }
        let welcome = ClientOut::Welcome {
            protocol: protocol::PROTOCOL_VERSION,
            table: self.id.clone(),
            game: self.header.game.clone(),
            ruleset: self.header.ruleset.clone(),
            board: self.header.board,
            role: who.role(),
            seat: match who {
                Who::Seat(s) => Some(s),
                _ => None,
            },
            seats: self.seat_infos_with(Some(who)),
            state: self.state,
            seq: self.seq,
            seed_commitment: self.header.seed_commitment.clone(),
            deal_algorithm: self.header.deal_algorithm.clone(),
            seed: (who == Who::Referee || self.seed_public()).then(|| self.header.seed.clone()),
        };
        self.send(&outlet, to_text(&welcome));
        // The missed entries if they are still in memory and all fit in the connection's queue
        // now (with room for the seats message that follows), else one snapshot: a catch-up
        // never overflows the queue, and the client never sees a gap in seq.
        let kept_from = self.seq - self.history.len() as u64;
        let room = outlet.tx.capacity().saturating_sub(2) as u64;
        match last_seq {
            Some(n) if n == self.seq && n > 0 => {}
            Some(n) if n < self.seq && n >= kept_from && self.seq - n <= room => {
                for seq in n + 1..=self.seq {
                    let text = self.events_text(seq, who, seq == self.seq);
                    self.send(&outlet, text);
                }
            }
            _ => {
                let text = self.snapshot_text(who);
                self.send(&outlet, text);
            }
        }
        if outlet.close.borrow().is_none() {
            self.subscribers.push(Subscriber { who, outlet });
        }
        self.after_presence_change();
        Ok(who)
    }

    /// Presence changed: publish the seats, update the idle broom and the bot schedule.
    fn after_presence_change(&mut self) {
        self.idle_since = if self.subscribers.is_empty() {
            Some(self.idle_since.unwrap_or_else(Instant::now))
        } else {
            None
        };
        let text = to_text(&ClientOut::Seats {
            seats: self.seat_infos(),
        });
        self.broadcast_same(&text);
        self.schedule_bot();
        self.publish();
    }

    fn connected(&self, seat: usize) -> bool {
        self.subscribers.iter().any(|s| s.who == Who::Seat(seat))
    }

    fn seat_infos(&self) -> Vec<SeatInfo> {
        self.seat_infos_with(None)
    }

    /// `extra`: a connection being attached right now (not yet among the subscribers).
    fn seat_infos_with(&self, extra: Option<Who>) -> Vec<SeatInfo> {
        self.seats
            .iter()
            .map(|s| SeatInfo {
                seat: s.seat,
                name: if s.bot {
                    Some("机器人".to_string())
                } else {
                    s.name.clone()
                },
                bot: s.bot,
                connected: s.bot || self.connected(s.seat) || extra == Some(Who::Seat(s.seat)),
                auto: self.auto[s.seat],
            })
            .collect()
    }

    fn publish(&self) {
        self.summary.send_replace(TableSummary {
            id: self.id.clone(),
            game: self.header.game.clone(),
            ruleset: self.header.ruleset.clone(),
            board: self.header.board,
            state: self.state,
            seats: self.seat_infos(),
            spectators: self
                .subscribers
                .iter()
                .filter(|s| s.who == Who::Spectator)
                .count(),
            seq: self.seq,
            seed_commitment: self.header.seed_commitment.clone(),
            deal_algorithm: self.header.deal_algorithm.clone(),
            // The lobby hides it again while another open table deals from the same seed
            // ([`crate::lobby::Lobby::summary`]): that can change after this table ends.
            seed: (self.state == TableState::Over).then(|| self.header.seed.clone()),
            head_hash: (self.state == TableState::Over).then(|| self.prev_hash.clone()),
        });
    }

    /// The seed may be shown once this table is over and no other open table deals from it
    /// (tables of one tournament share a seed and play other boards of it). [`Lobby`]
    /// (crate::lobby::Lobby) checks again when it lists tables, as other tables end later.
    fn seed_public(&self) -> bool {
        self.state == TableState::Over
            && !seed_in_use(&self.deps.registry, &self.id, &self.header.seed_commitment)
    }

    async fn close_idle(&mut self) {
        self.state = TableState::Closed;
        if let Err(e) = self
            .deps
            .journal
            .set_state(&self.id, TableState::Closed)
            .await
        {
            // Not closed on disk: a restart reopens it, which loses nothing.
            eprintln!("paiju: table {}: not marked closed: {e}", self.id);
        }
        self.publish();
    }

    // --- acting ---------------------------------------------------------------------------------

    async fn act(&mut self, conn: u64, act: Act) {
        let Some(sub) = self.subscribers.iter().find(|s| s.outlet.id == conn) else {
            return;
        };
        let (who, outlet) = (sub.who, sub.outlet.clone());
        let id = act.id;
        let (acting, actor, key) = match self.who_acts(who, &act) {
            Ok(it) => it,
            Err(p) => return self.reject(&outlet, id, p),
        };
        // A resent id: answer from the cache, never apply twice.
        match self.ids.get(&key, id) {
            Some(Told::Acked(seq)) => {
                let text = to_text(&ClientOut::Ack { id, seq: *seq });
                return self.send(&outlet, text);
            }
            Some(Told::Refused(p)) => {
                let p = p.clone();
                return self.reject(&outlet, id, p);
            }
            None => {}
        }
        let parsed: G::Action = match serde_json::from_value(act.action) {
            Ok(a) => a,
            Err(e) => {
                let p = Problem::new(
                    codes::BAD_ACTION,
                    format!("无法识别的动作：{e}"),
                    format!("not an action of this game: {e}"),
                );
                self.ids.remember(key, id, Told::Refused(p.clone()));
                return self.reject(&outlet, id, p);
            }
        };
        // A question (问牌) is not a move: answered to the asker alone, never logged, never
        // touching a clock, once per seat per state of the table.
        if let Some(answer) = self.engine.ask(acting, &parsed) {
            return self.answer(&outlet, acting, id, answer);
        }
        // Decided on an older state (the clock or 托管 played meanwhile, a ruling came): the
        // player did not see what they would be playing into.
        if act.seq != self.seq {
            let p = stale(act.seq, self.seq);
            self.ids.remember(key, id, Told::Refused(p.clone()));
            return self.reject(&outlet, id, p);
        }
        let client = Client {
            key: key.clone(),
            id,
            outlet: &outlet,
        };
        if let Err(p) = self
            .commit(acting, actor, Some(client), parsed, act.reason)
            .await
        {
            if p.code != codes::STORE_FAILED {
                self.ids.remember(key, id, Told::Refused(p.clone()));
            }
            self.reject(&outlet, id, p);
        }
    }

    /// The seat an `act` is for, who acts, and the key of its id: a player acts for their own
    /// seat without a reason; a referee names the seat and gives a reason (a ruling's grounds,
    /// or why they move on the seat's behalf); a spectator cannot act.
    fn who_acts(&self, who: Who, act: &Act) -> Result<(usize, Actor, String), Problem> {
        match who {
            Who::Spectator => Err(Problem::new(
                codes::SPECTATOR,
                "观战者不能出牌",
                "a spectator cannot act",
            )),
            Who::Seat(mine) => {
                if act.seat.is_some_and(|s| s != mine) {
                    return Err(Problem::new(
                        codes::NOT_YOUR_SEAT,
                        "你只能为自己的座位出牌",
                        "you can act only for your own seat",
                    ));
                }
                if act.reason.is_some() {
                    return Err(Problem::new(
                        codes::REASON,
                        "只有裁判的动作附带理由",
                        "only a referee's action carries a reason",
                    ));
                }
                let key = match &self.seats[mine].token_hash {
                    Some(h) => store::occupant(h),
                    None => format!("seat {mine}"),
                };
                Ok((mine, Actor::Player, key))
            }
            Who::Referee => {
                let Some(seat) = act.seat.filter(|&s| s < self.seats.len()) else {
                    return Err(Problem::new(
                        codes::BAD_SEAT,
                        "裁判判罚必须指明座位",
                        "a ruling must name a seat",
                    ));
                };
                let reason = act.reason.as_deref().map(str::trim).unwrap_or("");
                if reason.is_empty() || reason.chars().count() > MAX_REASON {
                    return Err(Problem::new(
                        codes::REASON,
                        format!("裁判的判罚或代为出牌须写明理由（1 到 {MAX_REASON} 个字）"),
                        format!(
                            "a referee's ruling or move on a seat's behalf needs a reason (1 to {MAX_REASON} characters)"
                        ),
                    ));
                }
                Ok((seat, Actor::Referee, REFEREE_KEY.to_string()))
            }
        }
    }

    /// Answers a question to the asker alone.
    fn answer(
        &mut self,
        outlet: &Outlet,
        seat: usize,
        id: u64,
        answer: Result<Vec<G::Event>, G::Error>,
    ) {
        if self.asked[seat] == Some(self.seq) {
            let p = Problem::new(
                codes::ALREADY_ASKED,
                "刚刚问过了：有人出牌后才能再问",
                "you just asked: ask again after the next play",
            );
            return self.reject(outlet, id, p);
        }
        match answer {
            Err(e) => self.reject(outlet, id, Problem::explain(&e)),
            Ok(events) => {
                self.asked[seat] = Some(self.seq);
                let events: Vec<Value> = events
                    .iter()
                    .map(|e| serde_json::to_value(e).expect("events serialise"))
                    .collect();
                let text = to_text(&ClientOut::Answer { id, events });
                self.send(outlet, text);
            }
        }
    }

    fn reject(&mut self, outlet: &Outlet, id: u64, problem: Problem) {
        let text = to_text(&ClientOut::Rejected { id, problem });
        self.send(outlet, text);
    }

    /// Applies, stores, acknowledges and broadcasts one action. On `Err` nothing changed (or,
    /// for `store_failed`, the table stops and rebuilds itself from its log).
    async fn commit(
        &mut self,
        seat: usize,
        actor: Actor,
        client: Option<Client<'_>>,
        action: G::Action,
        reason: Option<String>,
    ) -> Result<u64, Problem> {
        // After the end only a referee may still act (a penalty found afterwards, closing the
        // board): the engine decides what it accepts then.
        if (self.state == TableState::Over || self.engine.is_over()) && actor != Actor::Referee {
            return Err(Problem::new(
                codes::GAME_OVER,
                "这一局已经结束",
                "the game is over",
            ));
        }
        if self.state != TableState::Playing
            && self.state != TableState::Over
            && actor != Actor::Referee
        {
            return Err(Problem::new(
                codes::TABLE_WAITING,
                "还有空座位，牌局尚未开始",
                "the game starts when every seat is taken",
            ));
        }
        let action_json = serde_json::to_string(&action).unwrap_or_default();
        let events = self
            .engine
            .apply(seat, actor, action)
            .map_err(|e| Problem::explain(&e))?;
        let reason = reason.map(|r| r.trim().to_string());
        let mut entry = LogEntry {
            seq: self.seq + 1,
            seat,
            actor,
            client_id: client.as_ref().map(|c| c.id),
            occupant: client
                .as_ref()
                .filter(|_| actor != Actor::Referee)
                .map(|c| c.key.clone()),
            reason: reason.clone(),
            action: action_json,
            time_ms: store::now_ms(),
            hash: String::new(),
        };
        entry.hash = store::entry_hash(&self.prev_hash, &entry);
        if let Err(e) = self.deps.journal.append(&self.id, entry.clone()).await {
            return Err(self.store_failed(&e));
        }
        self.seq = entry.seq;
        self.prev_hash = entry.hash;
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(Entry {
            seat,
            actor,
            reason,
            events,
        });
        if let Some(c) = client {
            self.ids.remember(c.key, c.id, Told::Acked(self.seq));
            let text = to_text(&ClientOut::Ack {
                id: c.id,
                seq: self.seq,
            });
            self.send(c.outlet, text);
        }
        if self.engine.is_over() && self.state != TableState::Over {
            if let Err(e) = self
                .deps
                .journal
                .set_state(&self.id, TableState::Over)
                .await
            {
                // The entry is stored: the rebuilt table finds the game over from its log.
                self.store_failed(&e);
            }
            self.state = TableState::Over;
        }
        self.restart_clock();
        self.broadcast_entry(self.seq);
        self.schedule_bot();
        self.publish();
        Ok(self.seq)
    }

    /// A write failed after the engine moved: the in-memory state can no longer be trusted.
    /// The actor stops after this command and the table is rebuilt from its log.
    fn store_failed(&mut self, e: &store::StoreError) -> Problem {
        eprintln!("paiju: table {}: {e}; rebuilding it from its log", self.id);
        self.broken = true;
        store_problem(e)
    }

    fn restart_clock(&mut self) {
        self.clock = None;
        if self.state != TableState::Playing || self.engine.to_act().is_empty() {
            return;
        }
        let scale = self.deps.settings.clock_scale;
        let now = Instant::now();
        let since = scale.to_game(now - self.started.unwrap_or(now));
        if let Some(limit) = self.engine.move_limit(since) {
            self.clock = Some(MoveClock {
                started: now,
                limit: scale.to_real(limit),
            });
        }
    }

    fn schedule_bot(&mut self) {
        let due = self.state == TableState::Playing
            && self
                .engine
                .to_act()
                .iter()
                .any(|&s| self.seats[s].bot || self.auto[s]);
        self.bot_at = if due {
            Some(
                self.bot_at
                    .unwrap_or_else(|| Instant::now() + self.deps.settings.bot_delay),
            )
        } else {
            None
        };
    }

    async fn on_timeout(&mut self) {
        self.clock = None;
        let Some(&seat) = self.engine.to_act().first() else {
            return;
        };
        // A player away when their time runs out is played for (托管) until they return.
        if !self.seats[seat].bot && !self.connected(seat) {
            self.auto[seat] = true;
        }
        let action = self.engine.timeout_action();
        if let Err(p) = self.commit(seat, Actor::Clock, None, action, None).await {
            eprintln!(
                "paiju: table {}: the timeout action was refused ({}); playing the lowest legal action",
                self.id, p.code
            );
            let view = self.engine.view(Viewer::Seat(seat));
            if let Some(a) = bots::simplest::<G>(&view) {
                let _ = self.commit(seat, Actor::Clock, None, a, None).await;
            }
        }
        self.after_presence_change();
    }

    async fn on_bot(&mut self) {
        self.bot_at = None;
        let Some(seat) = self
            .engine
            .to_act()
            .into_iter()
            .find(|&s| self.seats[s].bot || self.auto[s])
        else {
            return;
        };
        let actor = if self.seats[seat].bot {
            Actor::Bot
        } else {
            Actor::Auto
        };
        // The bot sees exactly what a player in that seat would.
        let view = self.engine.view(Viewer::Seat(seat));
        match bots::simplest::<G>(&view) {
            Some(a) => {
                if let Err(p) = self.commit(seat, actor, None, a, None).await {
                    eprintln!(
                        "paiju: table {}: the engine refused its own legal action for seat {seat}: {}",
                        self.id, p.en
                    );
                }
            }
            None => eprintln!("paiju: table {}: no legal action for seat {seat}", self.id),
        }
    }

    // --- sending --------------------------------------------------------------------------------

    /// Queues a frame; a full queue marks a slow reader, which is closed (it resumes from its
    /// last seq when it reconnects).
    fn send(&mut self, outlet: &Outlet, text: String) {
        if outlet.tx.try_send(text).is_err() {
            outlet.close_with(close::SLOW_READER, "outbound queue full");
            self.subscribers.retain(|s| s.outlet.id != outlet.id);
        }
    }

    fn broadcast_same(&mut self, text: &str) {
        let mut slow = Vec::new();
        for s in &self.subscribers {
            if s.outlet.tx.try_send(text.to_string()).is_err() {
                s.outlet
                    .close_with(close::SLOW_READER, "outbound queue full");
                slow.push(s.outlet.id);
            }
        }
        if !slow.is_empty() {
            self.subscribers.retain(|s| !slow.contains(&s.outlet.id));
        }
    }

    /// Sends entry `seq` to every subscriber, redacted and serialised once per kind of viewer.
    fn broadcast_entry(&mut self, seq: u64) {
        let mut texts: HashMap<Who, String> = HashMap::new();
        let mut slow = Vec::new();
        for s in &self.subscribers {
            let text = texts
                .entry(s.who)
                .or_insert_with(|| self.events_text(seq, s.who, true));
            if s.outlet.tx.try_send(text.clone()).is_err() {
                s.outlet
                    .close_with(close::SLOW_READER, "outbound queue full");
                slow.push(s.outlet.id);
            }
        }
        if !slow.is_empty() {
            self.subscribers.retain(|s| !slow.contains(&s.outlet.id));
        }
    }

    fn snapshot_all(&mut self) {
        let mut texts: HashMap<Who, String> = HashMap::new();
        let outlets: Vec<(Who, Outlet)> = self
            .subscribers
            .iter()
            .map(|s| (s.who, s.outlet.clone()))
            .collect();
        for (who, outlet) in outlets {
            let text = texts
                .entry(who)
                .or_insert_with(|| self.snapshot_text(who))
                .clone();
            self.send(&outlet, text);
        }
    }

    fn wire_clock(&self) -> Option<protocol::Clock> {
        self.clock
            .map(|c| c.wire(self.engine.to_act(), Instant::now()))
    }

    fn events_text(&self, seq: u64, who: Who, with_view: bool) -> String {
        let kept_from = self.seq - self.history.len() as u64;
        let entry = &self.history[(seq - kept_from - 1) as usize];
        let viewer = who.viewer();
        let to_act = self.engine.to_act();
        let frame = EventsFrame {
            kind: "events",
            seq,
            seat: entry.seat,
            by: entry.actor,
            reason: entry.reason.as_deref(),
            events: entry
                .events
                .iter()
                .filter_map(|e| self.engine.redact(e, viewer))
                .collect(),
            view: with_view.then(|| self.engine.view(viewer)),
            to_act: &to_act,
            clock: self.wire_clock(),
            state: self.state,
        };
        serde_json::to_string(&frame).expect("views serialise")
    }

    fn snapshot_text(&self, who: Who) -> String {
        let to_act = self.engine.to_act();
        let frame = SnapshotFrame {
            kind: "snapshot",
            seq: self.seq,
            view: self.engine.view(who.viewer()),
            to_act: &to_act,
            clock: self.wire_clock(),
            state: self.state,
        };
        serde_json::to_string(&frame).expect("views serialise")
    }
}

/// [`ClientOut::Events`] written straight from the engine's types: no JSON tree in between
/// (the tree cost more than the engine on the hot path). Same fields, same order; the
/// end-to-end tests read every frame back as a `ClientOut`.
#[derive(serde::Serialize)]
struct EventsFrame<'a, Ev, V> {
    #[serde(rename = "type")]
    kind: &'static str,
    seq: u64,
    seat: usize,
    by: Actor,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    events: Vec<Ev>,
    #[serde(skip_serializing_if = "Option::is_none")]
    view: Option<V>,
    to_act: &'a [usize],
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<protocol::Clock>,
    state: TableState,
}

/// [`ClientOut::Snapshot`], written the same way.
#[derive(serde::Serialize)]
struct SnapshotFrame<'a, V> {
    #[serde(rename = "type")]
    kind: &'static str,
    seq: u64,
    view: V,
    to_act: &'a [usize],
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<protocol::Clock>,
    state: TableState,
}

/// What a client was told about one of its action ids.
#[derive(Clone, Debug)]
enum Told {
    Acked(u64),
    Refused(Problem),
}

/// Recent action ids by sender, bounded to [`ID_CACHE`] (oldest forgotten first).
#[derive(Default)]
struct IdCache {
    told: HashMap<(String, u64), Told>,
    order: VecDeque<(String, u64)>,
}

impl IdCache {
    fn get(&self, key: &str, id: u64) -> Option<&Told> {
        self.told.get(&(key.to_string(), id))
    }

    fn remember(&mut self, key: String, id: u64, told: Told) {
        if self.told.insert((key.clone(), id), told).is_none() {
            self.order.push_back((key, id));
        }
        while self.order.len() > ID_CACHE {
            if let Some(old) = self.order.pop_front() {
                self.told.remove(&old);
            }
        }
    }
}

/// The connection an action came from, for its ack.
struct Client<'a> {
    /// Who sent it (see [`REFEREE_KEY`]).
    key: String,
    id: u64,
    outlet: &'a Outlet,
}

fn stale(decided: u64, now: u64) -> Problem {
    Problem::new(
        codes::STALE,
        format!("局面已变，这步没有送达（您看到的是第 {decided} 步，牌桌已到第 {now} 步）"),
        format!(
            "the table moved on before this arrived (you decided at step {decided}, the table is at {now}); nothing was played"
        ),
    )
}

/// Whether a table other than `except` that is not over deals from the seed with this
/// commitment.
pub fn seed_in_use(
    registry: &dashmap::DashMap<String, TableHandle>,
    except: &str,
    commitment: &str,
) -> bool {
    registry.iter().any(|t| {
        if t.id == except {
            return false;
        }
        let s = t.summary.borrow();
        s.seed_commitment == commitment
            && matches!(s.state, TableState::Waiting | TableState::Playing)
    })
}

fn to_text(m: &ClientOut) -> String {
    serde_json::to_string(m).expect("wire types serialise")
}

fn bad_token() -> Problem {
    Problem::new(
        codes::BAD_TOKEN,
        "座位凭证无效（可能已离座）",
        "the seat token is not valid here (the seat may have been left)",
    )
}

fn store_problem(e: &store::StoreError) -> Problem {
    Problem::new(
        codes::STORE_FAILED,
        "服务器无法保存，请稍后重试",
        format!("the server could not store it: {}", e.0),
    )
}
