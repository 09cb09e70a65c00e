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
//!
//! One concern a file: [`handle`] (the way in: `TableHandle`, the commands, who a connection
//! is), [`replay`] (a table's engine from its header and log), `supervise` (starting the actor
//! from what is stored, at start and after a failure; supervising it), `seats` (joining,
//! leaving, attaching, presence, the summary), `acting` (the path of an action: who may act,
//! questions, stale decisions, commit; clocks and bots), `ids` (what each recent action id was
//! told), `fanout` (per-viewer frames into bounded queues), `review` (the referee stops the
//! clocks while they look into something), `computer` (the computer players: one per computer
//! seat, fed every view, and one for a person's seat once it needs 托管, made from the log;
//! deciding off the actor). This file holds the table's state and its loop; the files that
//! work on that state (`impl Table` in acting, seats, fanout, review, supervise) use it, and it
//! uses none of them (the module-graph test keeps arrows one way).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use protocol::{
    close, codes, Actor, ClientOut, Problem, Refusal, Role, SeatInfo, TableState, TableSummary,
};
use rules::Viewer;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{sleep_until, Instant};

use crate::clock::{ClockScale, MoveClock};
use crate::seat_token;
use crate::store::{self, Journal, LogEntry, SeatRecord, StoredTable, TableHeader};
use dashmap::DashMap;

mod acting;
mod competing;
mod computer;
mod fanout;
mod game;
pub mod handle;
mod ids;
pub mod replay;
mod review;
mod seats;
mod shared_view;
mod supervise;
pub mod thinkers;

pub use computer::{expert_time, THINK, THINK_FLOOR};
pub use game::{DealFixed, TableGame};
pub(crate) use handle::Command;
pub use handle::{seed_in_use, Act, Arrival, CloseWith, Outlet, SeatVisit, TableHandle, Who};
use ids::{IdCache, Told, REFEREE_KEY};
pub use seats::{bot_name, BOT_NAME_PREFIX};
use shared_view::SharedView;
pub use supervise::spawn;

/// What every table needs from the server, fixed at start-up.
#[derive(Clone, Debug)]
pub struct TableSettings {
    /// Real time per game second (1.0 in play; small in tests).
    pub clock_scale: ClockScale,
    /// How long a bot (or 托管) waits before it plays, so people can follow.
    pub bot_delay: Duration,
    /// How long a 高手 bot thinks on a quiet server ([`THINK`] in play).
    pub expert_think: Duration,
    /// A table with no connection for this long is closed (its log is kept).
    pub idle_after: Duration,
    /// SHA-256 of the referee token, if one was set.
    pub referee_hash: Option<String>,
    /// Seed commitments of events not yet revealed (the event module). A table dealing from one
    /// belongs to an event: its seed stays hidden even once it is over, nobody watches it, and
    /// its seats are taken only with a player token. Shared with the event service, which adds a
    /// commitment when the event is created and removes it when the seed is revealed.
    pub sealed_seeds: Arc<dashmap::DashSet<String>>,
}

/// What a table's actor gets when it is spawned.
#[derive(Clone)]
pub struct TableDeps {
    pub journal: Journal,
    pub settings: Arc<TableSettings>,
    /// The registry, so a closing table can remove itself.
    pub registry: Arc<DashMap<String, TableHandle>>,
    pub metrics: Arc<crate::metrics::Metrics>,
    /// Past one machine: this node's leases. A table that stopped after a failed write is
    /// rebuilt here only if this node (still, or again) holds its lease.
    pub leases: Option<Arc<store::Leases>>,
}

/// One stored action as the table remembers it, for catching up reconnecting clients.
/// Boxed slices, not `Vec`s: [`HISTORY`] entries stay for the table's life (48 bytes an entry
/// instead of 64).
struct Entry<E> {
    seat: usize,
    actor: Actor,
    /// A referee's stated reason.
    reason: Option<Box<str>>,
    events: Box<[E]>,
}

impl<E> Entry<E> {
    /// The events are kept at their length: an engine's `Vec` has room for four (an 80分
    /// event is 128 bytes, most actions make one or two).
    fn new(seat: usize, actor: Actor, reason: Option<String>, events: Vec<E>) -> Entry<E> {
        Entry {
            seat,
            actor,
            reason: reason.map(String::into_boxed_str),
            events: events.into_boxed_slice(),
        }
    }
}

/// A connection watching the table.
struct Subscriber {
    who: Who,
    outlet: Outlet,
    /// Nothing came from it for the connection's presence window (a few seconds, not the
    /// broom's 45): a line that dropped without a close. Its seat shows `connected: false`
    /// (掉线) until a frame comes again or the broom closes it.
    quiet: bool,
    /// Where it came from, and the page's device id: a competition's seat history.
    peer: std::net::IpAddr,
    device: Option<String>,
}

/// What a competition's table keeps besides a casual table's (`competing.rs` works on it).
struct Competing {
    terms: tournament::competition::SeatTerms,
    /// Moves 托管 made on this board, by seat.
    auto_moves: Vec<u32>,
    /// The seats' connections, published for the competition's runner (at most
    /// [`VISITS_A_TABLE`](tournament::competition::conduct::VISITS_A_TABLE); the runner logs
    /// them).
    visits: watch::Sender<Vec<SeatVisit>>,
    /// A practice table: since when its player has been away (the game's own time, which
    /// 够级's free minutes count, is moved on by the time away when they are back).
    away_since: Option<Instant>,
}

impl Competing {
    fn told(&self, visit: SeatVisit) {
        use tournament::competition::conduct::VISITS_A_TABLE;
        self.visits.send_if_modified(|v| {
            if v.len() >= VISITS_A_TABLE {
                return false;
            }
            v.push(visit);
            true
        });
    }
}

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
    /// Bytes of the longest view this table has written into a frame: a frame's buffer is
    /// sized for it at once (a 够级 seat's view outgrew a fixed 2 KiB ten times an action).
    view_room: usize,
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
    /// The computer players (a person's seat gets one when 托管 first plays for it), and what
    /// they decide.
    computers: computer::Computers<G>,
    /// Where their decisions come back (taken by the loop when it starts).
    thoughts: Option<mpsc::UnboundedReceiver<computer::Thought<G>>>,
    /// Since when no one has been connected (the idle broom closes the table after a while).
    idle_since: Option<Instant>,
    /// Set when a write failed after the engine moved: the in-memory state can no longer be
    /// trusted, so the actor stops; a restart rebuilds the table from its log.
    broken: bool,
    /// The referee has the table under review: no clock runs, bots wait, players cannot act.
    review: Option<UnderReview>,
    deps: TableDeps,
    summary: watch::Sender<TableSummary>,
    /// The finished board's result once play is over ([`TableGame::result`]), published when
    /// it changes (a ruling after the last trick changes it again): a competition's runner
    /// awaits it rather than reading the log.
    result: watch::Sender<Option<tournament::competition::TableReport>>,
    /// A competition's table: its terms, its 托管 count and its seats' connections.
    competing: Option<Box<Competing>>,
}

/// A table under review (review.rs).
pub(super) struct UnderReview {
    /// The referee's words, shown to everyone.
    reason: String,
    /// When the review began: the game's own time is moved on by what it lasted.
    since: Instant,
    /// The move clock as it stood when it was stopped.
    stopped: Option<Stopped>,
}

/// A stopped move clock.
#[derive(Clone, Copy)]
struct Stopped {
    /// The seq the clock was running for (the move it timed).
    seq: u64,
    /// What was left of it.
    left: Duration,
    /// Its whole allowance.
    limit: Duration,
}

/// How an actor's loop ended: what its supervisor (supervise.rs) does next.
pub(super) enum Ending {
    /// Closed or stopped: it leaves the registry.
    Done,
    /// A write failed: it is rebuilt from its log.
    Broken,
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400 * 365)
}

impl<G: TableGame> Table<G> {
    /// The actor's loop, until the table closes, the server stops it, or a write fails.
    /// The futures of what a command, a clock or a bot sets off (the commit's journal wait
    /// among them) are boxed for the time they run: inline, the largest of them would be part
    /// of this task's allocation for the table's whole life.
    pub(super) async fn run(mut self: Box<Self>, rx: &mut mpsc::Receiver<Box<Command>>) -> Ending {
        let mut thoughts = self.thoughts.take().expect("a table's loop runs once");
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
                cmd = rx.recv() => match cmd.map(|c| *c) {
                    None => return Ending::Done,
                    Some(Command::Stop { reply }) => {
                        let _ = reply.send(());
                        return Ending::Done;
                    }
                    Some(Command::Close { reply }) => {
                        Box::pin(self.close("the table's work is over: it is closed")).await;
                        let _ = reply.send(());
                        return Ending::Done;
                    }
                    Some(cmd) => Box::pin(self.handle(cmd)).await,
                },
                _ = sleep_until(deadline.unwrap_or_else(far_future)), if deadline.is_some() => {
                    Box::pin(self.on_timeout()).await;
                }
                _ = sleep_until(bot_at.unwrap_or_else(far_future)), if bot_at.is_some() => {
                    self.on_bot();
                }
                // Never `None`: the table holds a sender.
                Some(thought) = thoughts.recv() => Box::pin(self.on_thought(thought)).await,
                _ = sleep_until(idle_at.unwrap_or_else(far_future)), if idle_at.is_some() => {
                    Box::pin(self.close("idle")).await;
                    return Ending::Done;
                }
            }
        }
    }

    pub(super) async fn handle(&mut self, cmd: Command) {
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
            Command::Attach { arrival, reply } => {
                let r = self.attach(arrival);
                let _ = reply.send(r);
            }
            Command::Detach { conn } => self.part(&[conn]),
            Command::Act { conn, act } => self.act(conn, act).await,
            Command::Resync { conn } => {
                if let Some(s) = self.subscribers.iter().find(|s| s.outlet.id == conn) {
                    let text = self.snapshot_text(s.who);
                    let outlet = s.outlet.clone();
                    self.send(&outlet, text);
                    if self.review.is_some() {
                        let text = self.review_text();
                        self.send(&outlet, text);
                    }
                }
            }
            Command::Quiet { conn, quiet } => self.set_quiet(conn, quiet),
            Command::Auto { conn, on } => self.set_auto(conn, on),
            Command::Review { conn, on, reason } => self.review(conn, on, reason),
            Command::Stop { .. } | Command::Close { .. } => unreachable!("handled in run"),
        }
    }
}

fn to_text(m: &ClientOut) -> String {
    serde_json::to_string(m).expect("wire types serialise")
}

fn store_problem(e: &store::StoreError) -> Refusal {
    Refusal::StoreFailed {
        detail: e.0.clone(),
        reading: false,
    }
}
