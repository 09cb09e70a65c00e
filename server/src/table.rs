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
        self.tx.send(make(tx)).await.map_err(|_| gone())?;
        rx.await.unwrap_or_else(|_| Err(gone()))
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
    events: Vec<E>,
}

/// A connection watching the table.
struct Subscriber {
    who: Who,
    outlet: Outlet,
}

/// Key of the referee's action ids in the id cache (seats use their index).
const REFEREE_KEY: usize = usize::MAX;
/// Rejected ids remembered per table (accepted ids are all remembered: they are in the log).
const REJECTED_CACHE: usize = 256;
/// A client further behind than this gets a snapshot instead of the missed events.
const MAX_CATCH_UP: u64 = 500;

struct Table<G: TableGame> {
    id: String,
    header: TableHeader,
    engine: G,
    seats: Vec<SeatRecord>,
    /// Seq of the last stored entry (0: none).
    seq: u64,
    /// Hash of the last entry (or the genesis hash): the next entry chains to it.
    prev_hash: String,
    /// Entry `seq` is `history[seq - 1]`.
    history: Vec<Entry<G::Event>>,
    /// Accepted action ids: (seat or referee, id) → seq. Rebuilt from the log on restart, so a
    /// resent id is never applied twice, even across a crash.
    acked: HashMap<(usize, u64), u64>,
    /// Recently refused action ids and why, oldest first.
    rejected: HashMap<(usize, u64), Problem>,
    rejected_order: VecDeque<(usize, u64)>,
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
    let mut history = Vec::with_capacity(log.len());
    let mut acked = HashMap::new();
    for e in &log {
        let action: G::Action = serde_json::from_str(&e.action)
            .map_err(|err| format!("table {id}: entry {}: {err}", e.seq))?;
        let events = engine
            .apply(e.seat, e.actor, action)
            .map_err(|err| format!("table {id}: entry {} refused on replay: {err:?}", e.seq))?;
        if let Some(cid) = e.client_id {
            let key = if e.actor == Actor::Referee {
                REFEREE_KEY
            } else {
                e.seat
            };
            acked.insert((key, cid), e.seq);
        }
        history.push(Entry {
            seat: e.seat,
            actor: e.actor,
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
    };
    let (summary, summary_rx) = watch::channel(placeholder);
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
        acked,
        rejected: HashMap::new(),
        rejected_order: VecDeque::new(),
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
    table.publish();
    tokio::spawn(table.run(rx));
    Ok(TableHandle {
        id,
        game: G::GAME,
        tx,
        summary: summary_rx,
    })
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400 * 365)
}

fn problem_not(code: &str, zh: &str, en: &str) -> Problem {
    Problem::new(code, zh, en)
}

impl<G: TableGame> Table<G> {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        loop {
            if self.broken {
                for s in self.subscribers.drain(..) {
                    s.outlet.close_with(close::INTERNAL, "store failed");
                }
                break;
            }
            let deadline = self.clock.map(|c| c.deadline());
            let bot_at = self.bot_at;
            let idle_at = self.idle_since.map(|t| t + self.deps.settings.idle_after);
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    None => break,
                    Some(Command::Stop { reply }) => {
                        let _ = reply.send(());
                        break;
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
                    break;
                }
            }
        }
        // Remove ourselves from the registry, unless a newer table took the id (never, but
        // cheap to check).
        let me = self.summary.clone();
        self.deps
            .registry
            .remove_if(&self.id, |_, h| h.summary.same_channel(&me.subscribe()));
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
            let _ = self
                .deps
                .journal
                .set_state(&self.id, TableState::Playing)
                .await;
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
            seed: (who == Who::Referee || self.state == TableState::Over)
                .then(|| self.header.seed.clone()),
        };
        self.send(&outlet, to_text(&welcome));
        match last_seq {
            Some(n) if n == self.seq => {}
            Some(n) if n < self.seq && self.seq - n <= MAX_CATCH_UP => {
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
        // A catch-up that overflowed the queue has already closed the connection (4008): it
        // will come back with its last seq.
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
            seed: (self.state == TableState::Over).then(|| self.header.seed.clone()),
        });
    }

    async fn close_idle(&mut self) {
        self.state = TableState::Closed;
        let _ = self
            .deps
            .journal
            .set_state(&self.id, TableState::Closed)
            .await;
        self.publish();
    }

    // --- acting ---------------------------------------------------------------------------------

    async fn act(&mut self, conn: u64, act: Act) {
        let Act {
            id,
            seq: _,
            seat,
            reason: _,
            action,
        } = act;
        let Some(sub) = self.subscribers.iter().find(|s| s.outlet.id == conn) else {
            return;
        };
        let (who, outlet) = (sub.who, sub.outlet.clone());
        let (acting, actor, key) = match who {
            Who::Spectator => {
                let p = problem_not(codes::SPECTATOR, "观战者不能出牌", "a spectator cannot act");
                return self.reject(&outlet, id, p);
            }
            Who::Seat(mine) => {
                if seat.is_some_and(|s| s != mine) {
                    let p = problem_not(
                        codes::NOT_YOUR_SEAT,
                        "你只能为自己的座位出牌",
                        "you can act only for your own seat",
                    );
                    return self.reject(&outlet, id, p);
                }
                (mine, Actor::Player, mine)
            }
            Who::Referee => match seat {
                Some(s) if s < self.seats.len() => (s, Actor::Referee, REFEREE_KEY),
                _ => {
                    let p = problem_not(
                        codes::BAD_SEAT,
                        "裁判判罚必须指明座位",
                        "a ruling must name a seat",
                    );
                    return self.reject(&outlet, id, p);
                }
            },
        };
        // A resent id: answer from the cache, never apply twice.
        if let Some(&seq) = self.acked.get(&(key, id)) {
            let text = to_text(&ClientOut::Ack { id, seq });
            return self.send(&outlet, text);
        }
        if let Some(p) = self.rejected.get(&(key, id)).cloned() {
            let text = to_text(&ClientOut::Rejected { id, problem: p });
            return self.send(&outlet, text);
        }
        let parsed: G::Action = match serde_json::from_value(action) {
            Ok(a) => a,
            Err(e) => {
                let p = Problem::new(
                    codes::BAD_ACTION,
                    format!("无法识别的动作：{e}"),
                    format!("not an action of this game: {e}"),
                );
                self.remember_rejection(key, id, &p);
                return self.reject(&outlet, id, p);
            }
        };
        if let Err(p) = self
            .commit(acting, actor, Some((key, id, &outlet)), parsed)
            .await
        {
            if p.code != codes::STORE_FAILED {
                self.remember_rejection(key, id, &p);
            }
            self.reject(&outlet, id, p);
        }
    }

    fn remember_rejection(&mut self, key: usize, id: u64, p: &Problem) {
        self.rejected.insert((key, id), p.clone());
        self.rejected_order.push_back((key, id));
        while self.rejected_order.len() > REJECTED_CACHE {
            if let Some(old) = self.rejected_order.pop_front() {
                self.rejected.remove(&old);
            }
        }
    }

    fn reject(&mut self, outlet: &Outlet, id: u64, problem: Problem) {
        let text = to_text(&ClientOut::Rejected { id, problem });
        self.send(outlet, text);
    }

    /// Applies, stores, acknowledges and broadcasts one action. On `Err` nothing changed (or,
    /// for `store_failed`, the table stops so that a restart replays the log).
    async fn commit(
        &mut self,
        seat: usize,
        actor: Actor,
        client: Option<(usize, u64, &Outlet)>,
        action: G::Action,
    ) -> Result<u64, Problem> {
        if self.state == TableState::Over || self.engine.is_over() {
            return Err(problem_not(
                codes::GAME_OVER,
                "这一局已经结束",
                "the game is over",
            ));
        }
        if self.state != TableState::Playing && actor != Actor::Referee {
            return Err(problem_not(
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
        let mut entry = LogEntry {
            seq: self.seq + 1,
            seat,
            actor,
            client_id: client.map(|(_, id, _)| id),
            occupant: None,
            reason: None,
            action: action_json,
            time_ms: store::now_ms(),
            hash: String::new(),
        };
        entry.hash = store::entry_hash(&self.prev_hash, &entry);
        if let Err(e) = self.deps.journal.append(&self.id, entry.clone()).await {
            eprintln!("paiju: table {}: {e}; stopping it", self.id);
            self.broken = true;
            return Err(store_problem(&e));
        }
        self.seq = entry.seq;
        self.prev_hash = entry.hash;
        self.history.push(Entry {
            seat,
            actor,
            events,
        });
        if let Some((key, id, outlet)) = client {
            self.acked.insert((key, id), self.seq);
            let text = to_text(&ClientOut::Ack { id, seq: self.seq });
            self.send(outlet, text);
        }
        if self.engine.is_over() {
            self.state = TableState::Over;
            let _ = self
                .deps
                .journal
                .set_state(&self.id, TableState::Over)
                .await;
        }
        self.restart_clock();
        self.broadcast_entry(self.seq);
        self.schedule_bot();
        self.publish();
        Ok(self.seq)
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
        if let Err(p) = self.commit(seat, Actor::Clock, None, action).await {
            eprintln!(
                "paiju: table {}: the timeout action was refused ({}); playing the lowest legal action",
                self.id, p.code
            );
            let view = self.engine.view(Viewer::Seat(seat));
            if let Some(a) = bots::simplest::<G>(&view) {
                let _ = self.commit(seat, Actor::Clock, None, a).await;
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
                if let Err(p) = self.commit(seat, actor, None, a).await {
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
        let entry = &self.history[(seq - 1) as usize];
        let viewer = who.viewer();
        let to_act = self.engine.to_act();
        let frame = EventsFrame {
            kind: "events",
            seq,
            seat: entry.seat,
            by: entry.actor,
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
