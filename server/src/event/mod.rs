//! Events (赛事): 80分 duplicate pairs and 够级 team events run live by a director (issue 11).
//!
//! A director (`--director-token`) creates an event, registers the pairs and starts each round;
//! the server opens that round's tables from the Mitchell movement (one table per board, dealt
//! from the event's seed and the board's number), seats each pair with its pair token, reads each
//! board's outcome from its table when play ends, opens the pair's next board, and scores
//! everything with the `tournament` crate. At the end of a round NS record and EW check their
//! results (or dispute them); the director adjusts, deducts, closes the round, and after the last
//! one reveals the seed, so anyone can re-deal every board. A 够级 event goes the same way with
//! teams: each round drawn from the seed (groups, knockout matches of six games, the final of six
//! teams rotating on three tables), each game's table opened in turn and its result read back.
//!
//! One concern a file:
//!
//! - [`state`]: the event as a pure state machine over its log's actions (`Event::apply`), the
//!   pair tokens.
//! - [`gouji`]: a 够级 event's own state (teams, the draw as logged, matches, the final's games,
//!   what each table plays next), from `tournament::gouji`.
//! - [`card_token`]: the tokens printed on the cards (pairs', teams').
//! - [`tables`]: opening a board's (or a game's) table; reading a finished one back from its
//!   stored log.
//! - [`scoring`]: standings, travellers, CSV and the printable page (`tournament::score`, and
//!   the team ranking of `tournament::gouji`).
//! - this file: the registry of events, each behind its own lock; every change goes
//!   check → store (hash-chained `event_log`) → apply, as a table's actions do; the runner that
//!   watches each event's tables; rebuilding every event from its log at start.
//! - [`api`]: the HTTP routes (`/api/events/…`), the director's bearer token.
//!
//! Past one machine (PostgreSQL) each event is run by one node, the holder of its lease
//! (`event_leases`, store/lease.rs): a node rebuilds at start only the events no live lease names,
//! takes over those of a node that died (the cluster task, or on the spot when asked for one),
//! gives up one whose lease another node took, and sends every other event's calls to the node
//! that runs it (`307`, [`api`]). The event's tables follow it: only the node running an event may
//! take them over.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use dashmap::{DashMap, DashSet};
use protocol::{
    CreateEvent, EntryIn, EventBoard, EventBrief, EventCards, EventJoin, EventJoined, EventRound,
    EventState, EventTable, EventView, PairCard, PairStatus, Problem, Refusal, SeatFault,
    TableCard, Words, Wrong,
};
use tokio::sync::Mutex;
use tournament::Direction;

pub mod api;
pub mod card_token;
pub mod gouji;
mod refuse;
pub mod scoring;
pub mod state;
pub mod tables;

use crate::lobby::Lobby;
use crate::seat_token;
use crate::store::{
    self, event_entry_hash, event_genesis, EventEntry, EventHeader, EventStore, StoredEvent,
};
use refuse::not_now;
use state::{Event, EventAction, Pair};
use tables::TableNow;

/// Events that could not be rebuilt at start: (id, why).
pub type NotRebuilt = Vec<(String, String)>;

/// How often an event's runner looks at its tables.
const POLL: Duration = Duration::from_millis(250);

/// One event as the server holds it.
struct Live {
    header: EventHeader,
    event: Event,
    /// Seq of the last stored entry.
    seq: u64,
    /// Hash of the last entry (or the genesis): the next entry chains to it.
    prev_hash: String,
}

/// Every event, by id. Each sits behind its own `tokio::sync::Mutex`: an event's changes are
/// few (director actions, a board's result) and each holds the lock across its store write, so
/// changes to one event are applied one at a time, in log order, as a table actor's are.
pub struct Events {
    lobby: Arc<Lobby>,
    /// The event store (a second connection to the database). A `std::sync::Mutex`: it is only
    /// ever locked on a blocking thread (`spawn_blocking`), one write at a time.
    store: Arc<std::sync::Mutex<Box<dyn EventStore>>>,
    events: DashMap<String, Arc<Mutex<Live>>>,
    /// SHA-256 of the director's token; `None`: no director role.
    director_hash: Option<String>,
    /// The tables' set of sealed seeds ([`crate::table::TableSettings::sealed_seeds`]).
    sealed: Arc<DashSet<String>>,
    /// Set at shutdown: the runners stop opening tables.
    stopping: AtomicBool,
    /// Held while an event is being taken over, so two requests for one event rebuild it once.
    taking: Mutex<()>,
}

fn no_event() -> Problem {
    Refusal::NoEvent.into()
}

fn store_problem(e: &store::StoreError) -> Problem {
    store_failed(e.0.clone())
}

fn store_failed(detail: String) -> Problem {
    Refusal::StoreFailed {
        detail,
        reading: false,
    }
    .into()
}

fn bad_pair_token() -> Problem {
    Refusal::BadPairToken.into()
}

impl Events {
    /// Rebuilds every stored event from its log (what failed, with the reason, is returned and
    /// left stored, unserved) and starts a runner for each unfinished one. Past one machine
    /// (the lobby has leases) it rebuilds none here: [`Events::take_free`] takes those no other
    /// node runs, off the async threads.
    pub fn start(
        lobby: Arc<Lobby>,
        mut store: Box<dyn EventStore>,
        director_token: Option<&str>,
    ) -> Result<(Arc<Events>, NotRebuilt), String> {
        let stored = if lobby.leases.is_some() {
            Vec::new()
        } else {
            store.events().map_err(|e| e.to_string())?
        };
        let events = Arc::new(Events {
            sealed: lobby.settings.sealed_seeds.clone(),
            lobby,
            store: Arc::new(std::sync::Mutex::new(store)),
            events: DashMap::new(),
            director_hash: director_token.map(seat_token::hash),
            stopping: AtomicBool::new(false),
            taking: Mutex::new(()),
        });
        let mut failed = Vec::new();
        for s in stored {
            let id = s.header.id.clone();
            if let Err(e) = events.install(s) {
                failed.push((id, e));
            }
        }
        Ok((events, failed))
    }

    /// Rebuilds one stored event, seals its seed while it runs and starts its runner.
    fn install(self: &Arc<Self>, s: StoredEvent) -> Result<(), String> {
        let id = s.header.id.clone();
        let live = rebuild(s)?;
        let finished = live.event.finished();
        if !finished {
            self.sealed.insert(live.header.seed_commitment.clone());
        }
        self.events.insert(id.clone(), Arc::new(Mutex::new(live)));
        if !finished {
            self.spawn_runner(id);
        }
        Ok(())
    }

    // --- past one machine ---------------------------------------------------------------------

    /// The events this node runs.
    pub fn ids(&self) -> Vec<String> {
        self.events.iter().map(|e| e.key().clone()).collect()
    }

    /// Past one machine: takes an event no live lease names (its node died or stopped, or it
    /// was never run): its seed sealed, then its lease, then its log loaded and replayed as at
    /// a restart; its runner then takes its tables as it looks at them. True when it runs here
    /// after the call. On one machine: whether it is here.
    pub async fn take(self: &Arc<Self>, id: &str) -> Result<bool, String> {
        let Some(leases) = self.lobby.leases.clone() else {
            return Ok(self.events.contains_key(id));
        };
        let _one_at_a_time = self.taking.lock().await;
        if self.events.contains_key(id) {
            return Ok(true);
        }
        if self.stopping.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let err = |e: store::StoreError| e.to_string();
        let Some((commitment, finished)) = leases.event_commitment(id).await.map_err(err)? else {
            return Ok(false);
        };
        // Sealed before the lease is ours: from then on this node may take the event's tables,
        // and none of them may show its seed.
        let sealed_now = !finished && self.sealed.insert(commitment.clone());
        let unseal = || {
            if sealed_now {
                self.sealed.remove(&commitment);
            }
        };
        match leases.acquire_event(id).await {
            Ok(true) => {}
            Ok(false) => {
                unseal();
                return Ok(false);
            }
            Err(e) => {
                unseal();
                return Err(e.to_string());
            }
        }
        let (db, key) = (self.store.clone(), id.to_string());
        let stored =
            tokio::task::spawn_blocking(move || db.lock().expect("event store lock").event(&key))
                .await
                .map_err(|e| e.to_string())?
                .map_err(err)?;
        let Some(stored) = stored else {
            unseal();
            return Ok(false);
        };
        // A log that fails here stays stored, unserved (its seed stays sealed here).
        self.install(stored)?;
        tracing::info!(event = %id, "took the event over: rebuilt from its log");
        Ok(true)
    }

    /// Past one machine: takes every event no live lease names, except those that already
    /// failed to rebuild here (`skip`); the ones that fail now, with why.
    pub async fn take_free(self: &Arc<Self>, skip: &HashSet<String>) -> NotRebuilt {
        let Some(leases) = self.lobby.leases.clone() else {
            return Vec::new();
        };
        let free = match leases.free_events().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "cannot look for events to take over");
                return Vec::new();
            }
        };
        let mut failed = Vec::new();
        for id in free.into_iter().filter(|id| !skip.contains(id)) {
            if let Err(why) = self.take(&id).await {
                failed.push((id, why));
            }
        }
        failed
    }

    /// Past one machine: for an event not run here, the address of the node that runs it. One
    /// whose lease is free is taken over on the spot (then run here: `None`). `None` too for an
    /// unknown event, and on one machine.
    pub async fn elsewhere(self: &Arc<Self>, id: &str) -> Option<String> {
        let leases = self.lobby.leases.clone()?;
        if self.events.contains_key(id) {
            return None;
        }
        match leases.event_owner(id).await {
            Ok(store::Owner::Other { address, .. }) => Some(address),
            Ok(store::Owner::Free | store::Owner::Me) => {
                if let Err(e) = self.take(id).await {
                    tracing::error!(event = %id, reason = %e, "event not rebuilt from its log");
                }
                None
            }
            Ok(store::Owner::None) => None,
            Err(e) => {
                tracing::warn!(event = %id, error = %e, "cannot look up the event's node");
                None
            }
        }
    }

    /// Past one machine: stops running an event whose lease another node holds now (its
    /// runner ends; its writes were fenced already), and gives up the event's tables served
    /// here (their connections are told to reconnect and are sent to the tables' next owner,
    /// which can only be the node now running the event).
    pub async fn hand_over(&self, id: &str) {
        let Some((_, slot)) = self.events.remove(id) else {
            return;
        };
        tracing::warn!(event = %id, "lease lost: another node runs the event now");
        let commitment = slot.lock().await.header.seed_commitment.clone();
        let tables: Vec<String> = self
            .lobby
            .tables
            .iter()
            .filter(|t| t.summary().seed_commitment == commitment)
            .map(|t| t.key().clone())
            .collect();
        for t in &tables {
            self.lobby.hand_over(t);
        }
        if let Some(leases) = &self.lobby.leases {
            if let Err(e) = leases.release(&tables).await {
                tracing::warn!(error = %e, "the event's tables' leases run out by themselves");
            }
        }
    }

    /// Stops the runners (at shutdown, before the tables stop).
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::Relaxed);
    }

    /// Whether `token` is the director's.
    pub fn is_director(&self, token: &str) -> bool {
        self.director_hash
            .as_deref()
            .is_some_and(|h| seat_token::same(h, &seat_token::hash(token)))
    }

    /// Whether a director role was configured at all.
    pub fn has_director(&self) -> bool {
        self.director_hash.is_some()
    }

    fn slot(&self, id: &str) -> Result<Arc<Mutex<Live>>, Problem> {
        self.events.get(id).map(|e| e.clone()).ok_or_else(no_event)
    }

    /// Checks an action against the event, stores it, then applies it. On `Err` nothing
    /// changed.
    async fn commit(&self, live: &mut Live, action: EventAction) -> Result<(), Problem> {
        let seq = live.seq + 1;
        let mut next = live.event.clone();
        next.apply(seq, &action)?;
        let mut entry = EventEntry {
            seq,
            action: serde_json::to_string(&action).expect("actions serialise"),
            time_ms: store::now_ms(),
            hash: String::new(),
        };
        entry.hash = event_entry_hash(&live.prev_hash, &entry);
        let finished = next.finished() && !live.event.finished();
        let (db, id, stored) = (self.store.clone(), live.header.id.clone(), entry.clone());
        tokio::task::spawn_blocking(move || {
            let mut db = db.lock().expect("event store lock");
            db.append_event(&id, &stored)?;
            if finished {
                db.set_event_finished(&id)?;
            }
            Ok::<(), store::StoreError>(())
        })
        .await
        .map_err(|e| store_failed(e.to_string()))?
        .map_err(|e| store_problem(&e))?;
        tracing::info!(event = %live.header.id, seq, action = action.name(), "event log");
        live.seq = seq;
        live.prev_hash = entry.hash;
        live.event = next;
        Ok(())
    }

    // --- the director's calls -----------------------------------------------------------------

    /// Creates an event: the seed drawn, its commitment published, the pairs registered if
    /// given.
    pub async fn create(self: &Arc<Self>, mut spec: CreateEvent) -> Result<EventView, Problem> {
        let kind = self.lobby.games.get(&spec.game).cloned().ok_or_else(|| {
            Problem::from(Refusal::UnknownGame {
                game: spec.game.clone(),
                known: vec![],
            })
        })?;
        let ruleset = spec
            .ruleset
            .clone()
            .unwrap_or_else(|| kind.default_ruleset().to_string());
        spec.ruleset = Some(ruleset);
        let mut id = seat_token::table_code();
        while self.events.contains_key(&id) {
            id = seat_token::table_code();
        }
        let event = Event::create(&id, &spec)?;
        let fixed = crate::table::DealFixed {
            level: spec.level.clone(),
            trump: spec.trump.clone(),
            play_seconds: None,
            bot_level: None,
        };
        kind.check(
            spec.ruleset.as_deref().unwrap_or_default(),
            &rules::deal::Seed([0; 32]),
            1,
            &fixed,
        )?;
        let seed = rules::deal::Seed(seat_token::random_bytes::<32>());
        let header = EventHeader {
            id: id.clone(),
            game: spec.game.clone(),
            name: event.spec.name.clone(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            pair_secret: rules::deal::hex(&seat_token::random_bytes::<32>()),
            created_ms: store::now_ms(),
        };
        let mut first = EventEntry {
            seq: 1,
            action: serde_json::to_string(&EventAction::Create { spec })
                .expect("actions serialise"),
            time_ms: header.created_ms,
            hash: String::new(),
        };
        let genesis = event_genesis(&header);
        first.hash = event_entry_hash(&genesis, &first);
        // Sealed before any table can deal from it.
        self.sealed.insert(header.seed_commitment.clone());
        let (db, h, e) = (self.store.clone(), header.clone(), first.clone());
        let written = tokio::task::spawn_blocking(move || {
            db.lock().expect("event store lock").create_event(&h, &e)
        })
        .await
        .map_err(|e| store_failed(e.to_string()))
        .and_then(|r| r.map_err(|e| store_problem(&e)));
        if let Err(p) = written {
            self.sealed.remove(&header.seed_commitment);
            return Err(p);
        }
        tracing::info!(event = %id, tables = event.tables(), "event created");
        let live = Live {
            header,
            event,
            seq: 1,
            prev_hash: first.hash,
        };
        let view = self.view_of(&live, true);
        self.events.insert(id.clone(), Arc::new(Mutex::new(live)));
        self.spawn_runner(id);
        Ok(view)
    }

    /// Registers (or re-registers, before round 1) every pair; their seating cards.
    pub async fn register(&self, id: &str, entries: Vec<EntryIn>) -> Result<EventCards, Problem> {
        let slot = self.slot(id)?;
        let mut live = slot.lock().await;
        self.commit(&mut live, EventAction::Register { entries })
            .await?;
        Ok(cards(&live))
    }

    /// Every pair's seating card (with its token) and every table's movement card.
    pub async fn cards(&self, id: &str) -> Result<EventCards, Problem> {
        let slot = self.slot(id)?;
        let live = slot.lock().await;
        Ok(cards(&live))
    }

    /// Starts round `round`: its first boards' tables open at once.
    pub async fn start_round(&self, id: &str, round: u32) -> Result<EventView, Problem> {
        let slot = self.slot(id)?;
        let mut live = slot.lock().await;
        let at_ms = Some(store::now_ms());
        self.commit(&mut live, EventAction::StartRound { round, at_ms })
            .await?;
        self.tick(&mut live).await;
        Ok(self.view_of(&live, true))
    }

    /// Closes round `round` (every board has a result; both pairs confirmed unless `force`).
    pub async fn close_round(
        &self,
        id: &str,
        round: u32,
        force: bool,
    ) -> Result<EventView, Problem> {
        let slot = self.slot(id)?;
        let mut live = slot.lock().await;
        // Results that arrived since the last look count.
        self.tick(&mut live).await;
        self.commit(
            &mut live,
            EventAction::CloseRound {
                round,
                forced: force,
            },
        )
        .await?;
        Ok(self.view_of(&live, true))
    }

    /// An adjusted or artificial result for one board of one table.
    pub async fn adjust(&self, id: &str, a: protocol::AdjustResult) -> Result<EventView, Problem> {
        let slot = self.slot(id)?;
        let mut live = slot.lock().await;
        self.commit(
            &mut live,
            EventAction::Adjust {
                round: a.round,
                table: a.table,
                board: a.board,
                defenders: a.defenders,
                artificial: a.artificial,
                reason: a.reason,
            },
        )
        .await?;
        // A board settled by the director lets its table's next board open.
        self.tick(&mut live).await;
        Ok(self.view_of(&live, true))
    }

    /// A deduction of match points.
    pub async fn deduct(&self, id: &str, d: protocol::DeductionIn) -> Result<EventView, Problem> {
        let direction = parse_direction(&d.direction)?;
        let action = EventAction::Deduction {
            direction,
            pair: d.pair,
            mp: d.mp.unwrap_or(0.5),
            reason: d.reason,
            kind: d.kind,
        };
        self.director_logs(id, action).await
    }

    /// A pair more than 10 minutes late forfeits the round (the time is the server's, now).
    pub async fn forfeit(&self, id: &str, f: protocol::ForfeitIn) -> Result<EventView, Problem> {
        let direction = parse_direction(&f.direction)?;
        let slot = self.slot(id)?;
        let mut live = slot.lock().await;
        let round = live
            .event
            .playing()
            .ok_or_else(|| not_now("现在没有进行中的一轮", "no round is being played"))?;
        self.commit(
            &mut live,
            EventAction::Forfeit {
                round,
                direction,
                pair: f.pair,
                reason: f.reason,
                at_ms: store::now_ms(),
            },
        )
        .await?;
        Ok(self.view_of(&live, true))
    }

    /// Disqualifies a pair (an 80分 event).
    pub async fn disqualify(
        &self,
        id: &str,
        d: protocol::DisqualifyIn,
    ) -> Result<EventView, Problem> {
        let direction = parse_direction(&d.direction)?;
        let action = EventAction::Disqualify {
            direction,
            pair: d.pair,
            reason: d.reason,
        };
        self.director_logs(id, action).await
    }

    /// Logs one director's action that opens or closes nothing, and answers with the
    /// director's view.
    async fn director_logs(&self, id: &str, action: EventAction) -> Result<EventView, Problem> {
        let slot = self.slot(id)?;
        let mut live = slot.lock().await;
        self.commit(&mut live, action).await?;
        Ok(self.view_of(&live, true))
    }

    /// Reveals the seed (every round closed): the event is finished and its tables' seeds
    /// public.
    pub async fn reveal(&self, id: &str, early: bool) -> Result<EventView, Problem> {
        let slot = self.slot(id)?;
        let mut live = slot.lock().await;
        self.commit(&mut live, EventAction::Reveal { early })
            .await?;
        self.sealed.remove(&live.header.seed_commitment);
        tracing::info!(event = %id, "event finished; seed revealed");
        Ok(self.view_of(&live, true))
    }

    // --- the pairs' calls ---------------------------------------------------------------------

    /// The pair a typed token names.
    fn pair_of<'a>(&self, live: &'a Live, token: &str) -> Result<&'a Pair, Problem> {
        if live.event.registered == 0 {
            return Err(bad_pair_token());
        }
        let typed = state::normal_token(token);
        live.event
            .pairs
            .iter()
            .find(|p| {
                let mine = state::pair_token(
                    &live.header.pair_secret,
                    &live.header.id,
                    live.event.registered,
                    p,
                );
                !p.bot && seat_token::same(&state::normal_token(&mine), &typed)
            })
            .ok_or_else(bad_pair_token)
    }

    /// Seats a player of a pair at the pair's current board.
    pub async fn join(&self, id: &str, req: EventJoin) -> Result<EventJoined, Problem> {
        let slot = self.slot(id)?;
        let mut live = slot.lock().await;
        if live.event.finished() {
            return Err(not_now("比赛已经结束", "the event is over"));
        }
        if live.event.gouji.is_some() {
            return self.join_team(&mut live, req).await;
        }
        let pair = self.pair_of(&live, &req.token)?.clone();
        if live.event.is_disqualified(pair.direction, pair.number) {
            return Err(not_now(
                "您这一对已被裁判长取消比赛资格，不能再入座",
                "your pair has been disqualified by the director and plays no more boards",
            ));
        }
        let Some(round) = live.event.playing() else {
            return Err(not_now(
                "现在没有进行中的一轮：请等裁判长开始下一轮",
                "no round is being played: wait for the director to start the next one",
            ));
        };
        let plan = live
            .event
            .table_of(round, &pair)
            .ok_or_else(|| not_now("这一轮您轮空", "your pair sits this round out"))?;
        let table_no = plan.table;
        if plan.ns.is_none() || plan.ew.is_none() {
            return Err(not_now(
                "半桌：这一轮您的对手是空位，您轮空，每副得平均分 A",
                "a half table: your opponents this round are the phantom; you sit out with an average (A) on each board",
            ));
        }
        if live.event.forfeited(round, pair.direction, pair.number) {
            return Err(not_now(
                "您这一对迟到超过10分钟，本轮已判弃权；请等下一轮",
                "your pair was more than 10 minutes late and has forfeited this round; wait for the next one",
            ));
        }
        // The board's table may have just finished: collect it and open the next one first.
        self.tick(&mut live).await;
        let Some(board) = live.event.current_board(round, table_no) else {
            return Err(not_now(
                "本轮的牌都打完了：请确认成绩",
                "every board of this round is played: confirm the results",
            ));
        };
        let table_id = live
            .event
            .play(round, table_no, board)
            .and_then(|p| p.table_id.clone())
            .ok_or_else(|| {
                not_now(
                    "牌桌正在打开，请稍候再试",
                    "the table is opening: try again in a moment",
                )
            })?;
        let handle = self.lobby.get(&table_id).ok_or_else(|| {
            not_now(
                "牌桌正在打开，请稍候再试",
                "the table is opening: try again in a moment",
            )
        })?;
        let seats = pair.seats();
        let seat = match req.seat {
            Some(s) if seats.contains(&s) => s,
            Some(s) => {
                return Err(Refusal::BadSeat(SeatFault::NotThePairs {
                    seat: s,
                    theirs: [seats[0], seats[1]],
                    zh: pair.direction.zh().to_string(),
                    en: pair.direction.name().to_string(),
                })
                .into())
            }
            None => {
                let summary = handle.summary();
                seats
                    .into_iter()
                    .find(|&s| summary.seats.get(s).is_some_and(|i| i.name.is_none()))
                    .unwrap_or(seats[0])
            }
        };
        let which = if seat == seats[0] { 0 } else { 1 };
        let name = match &req.name {
            Some(n) => crate::lobby::display_name(n).map_err(Problem::from)?,
            None => pair
                .names
                .get(which)
                .cloned()
                .unwrap_or_else(|| format!("{}{}", pair.direction.zh(), pair.number)),
        };
        let token = sit(&handle, &req.token, &table_id, seat, name).await?;
        // The first time this seat sits down this round: logged, so lateness is judged from it.
        let first = !live
            .event
            .seated
            .get(&(round, pair.direction, pair.number))
            .is_some_and(|(seats, _)| seats.contains(&seat));
        if first {
            let action = EventAction::Seated {
                round,
                direction: pair.direction,
                pair: pair.number,
                seat,
                at_ms: store::now_ms(),
            };
            if let Err(p) = self.commit(&mut live, action).await {
                tracing::warn!(code = %p.code, error = %p.en, "seating not logged");
            }
        }
        Ok(EventJoined {
            table: table_id,
            seat,
            token,
            round,
            table_no,
            board,
        })
    }

    /// The 够级 team a typed token names.
    fn team_of<'a>(&self, live: &'a Live, token: &str) -> Result<&'a gouji::Team, Problem> {
        let g = live.event.gouji.as_ref().ok_or_else(bad_pair_token)?;
        if live.event.registered == 0 {
            return Err(bad_pair_token());
        }
        let typed = state::normal_token(token);
        g.teams
            .iter()
            .find(|t| {
                let mine = gouji::team_token(
                    &live.header.pair_secret,
                    &live.header.id,
                    live.event.registered,
                    t.number,
                );
                !t.bot && seat_token::same(&state::normal_token(&mine), &typed)
            })
            .ok_or_else(bad_pair_token)
    }

    /// Seats a player of a 够级 team at the team's game being played now: the team's side (A1–A3
    /// or B1–B3); without a seat the first free one.
    async fn join_team(&self, live: &mut Live, req: EventJoin) -> Result<EventJoined, Problem> {
        let team = self.team_of(live, &req.token)?.clone();
        let Some(round) = live.event.playing() else {
            return Err(not_now(
                "现在没有进行中的一轮：请等裁判长开始下一轮",
                "no round is being played: wait for the director to start the next one",
            ));
        };
        self.tick(live).await;
        let g = live.event.gouji.as_ref().expect("a 够级 event");
        if !g.plays_in(round, &team.name) {
            return Err(not_now(
                "这一轮您队没有比赛（轮空或已淘汰）",
                "your team plays no match this round (a bye, or out)",
            ));
        }
        let opening = || {
            not_now(
                "下一局的牌桌还没打开（或本轮已打完）：请稍候再试",
                "the next game's table is not open (or the round is over): try again in a moment",
            )
        };
        let (seating, side) = g.open_for(round, &team.name).ok_or_else(opening)?;
        let table_id = g
            .stage(round)
            .and_then(|s| s.games.get(&(seating.table, seating.game)))
            .and_then(|s| s.table_id.clone())
            .ok_or_else(opening)?;
        let handle = self.lobby.get(&table_id).ok_or_else(opening)?;
        let seats = gouji::side_seats(side);
        let seat = match req.seat {
            Some(s) if seats.contains(&s) => s,
            Some(s) => {
                return Err(Refusal::BadSeat(SeatFault::NotTheTeams {
                    seat: s,
                    theirs: [seats[0], seats[1], seats[2]],
                })
                .into())
            }
            None => {
                let summary = handle.summary();
                seats
                    .into_iter()
                    .find(|&s| summary.seats.get(s).is_some_and(|i| i.name.is_none()))
                    .unwrap_or(seats[0])
            }
        };
        let which = seats.iter().position(|&s| s == seat).unwrap_or(0);
        let name = match &req.name {
            Some(n) => crate::lobby::display_name(n).map_err(Problem::from)?,
            None => team.player(which),
        };
        let token = sit(&handle, &req.token, &table_id, seat, name).await?;
        Ok(EventJoined {
            table: table_id,
            seat,
            token,
            round,
            table_no: seating.table,
            board: seating.game,
        })
    }

    /// 够级: the director takes points off a team in the round being played (扣该队4分).
    pub async fn team_deduct(
        &self,
        id: &str,
        d: protocol::TeamDeductionIn,
    ) -> Result<EventView, Problem> {
        let refused = Words::new(
            "只有够级比赛有团体扣分",
            "team deductions are for 够级 events",
        );
        self.gouji_director_step(id, refused, |round, _| {
            Ok(EventAction::TeamDeduction {
                round,
                team: d.team,
                points: d.points.unwrap_or(4),
                reason: d.reason,
            })
        })
        .await
    }

    /// 够级: the director's ruling on a finished game of the round being played: its result
    /// replaced (改判), with the reason, logged like every director action.
    pub async fn adjust_game(
        &self,
        id: &str,
        d: protocol::GameAdjustIn,
    ) -> Result<EventView, Problem> {
        let refused = Words::new(
            "只有够级比赛按局改判；80分比赛用「改判成绩」（adjust）",
            "game rulings are for 够级 events; an 80分 event adjusts a board (adjust)",
        );
        self.gouji_director_step(id, refused, |round, _| {
            Ok(EventAction::AdjustGame {
                round,
                table: d.table,
                game: d.game,
                record: gouji::record_of(&d.result)?,
                reason: d.reason,
            })
        })
        .await
    }

    /// 够级: the director's lot (抽签) for a knockout match still level after its extra games,
    /// drawn in person; logged with the winner's name, whether typed as a name or a number.
    pub async fn lot(&self, id: &str, d: protocol::LotIn) -> Result<EventView, Problem> {
        let refused = Words::new(
            "只有够级淘汰赛抽签定胜负",
            "lots decide 够级 knockout matches only",
        );
        self.gouji_director_step(id, refused, |round, g| {
            // An unknown team keeps its typed form: the state refuses it in its own words.
            let winner = g
                .team_named(&d.winner)
                .map_or(d.winner.clone(), |t| t.name.clone());
            Ok(EventAction::Lot {
                round,
                table: d.table,
                winner,
                reason: d.reason,
            })
        })
        .await
    }

    /// A director's step of a 够级 event in the round being played: `step` makes the action for
    /// that round; `refused` says why an 80分 event has no such step.
    async fn gouji_director_step(
        &self,
        id: &str,
        refused: Words,
        step: impl FnOnce(u32, &gouji::GoujiEvent) -> Result<EventAction, Problem>,
    ) -> Result<EventView, Problem> {
        let slot = self.slot(id)?;
        let mut live = slot.lock().await;
        if live.event.gouji.is_none() {
            return Err(Refusal::BadRequest(Wrong::Said(refused)).into());
        }
        let round = live
            .event
            .playing()
            .ok_or_else(|| not_now("现在没有进行中的一轮", "no round is being played"))?;
        let action = step(round, live.event.gouji.as_ref().expect("checked"))?;
        self.commit(&mut live, action).await?;
        Ok(self.view_of(&live, true))
    }

    /// A pair's own view: its table this round and its results.
    pub async fn pair_status(&self, id: &str, token: &str) -> Result<PairStatus, Problem> {
        let slot = self.slot(id)?;
        let live = slot.lock().await;
        if let Some(g) = &live.event.gouji {
            let team = self.team_of(&live, token)?;
            let status = g.team_status(&team.name, live.event.round);
            return Ok(PairStatus {
                pair: protocol::PairInfo {
                    direction: "team".into(),
                    number: team.number,
                    names: team.names.clone(),
                    organisation: team.organisation.clone(),
                    bot: team.bot,
                },
                event: live.header.id.clone(),
                round: live.event.round,
                table: None,
                earlier: Vec::new(),
                team: Some(status),
            });
        }
        let pair = self.pair_of(&live, token)?.clone();
        Ok(self.status_of(&live, &pair))
    }

    /// A pair confirms (or disputes) its table's results of the round.
    pub async fn confirm(
        &self,
        id: &str,
        c: protocol::ConfirmResults,
    ) -> Result<PairStatus, Problem> {
        let slot = self.slot(id)?;
        let mut live = slot.lock().await;
        if live.event.gouji.is_some() {
            // 够级: the team's captain (the team token) signs for the team's games so far.
            let team = self.team_of(&live, &c.token)?.number;
            let round = live
                .event
                .playing()
                .ok_or_else(|| not_now("现在没有进行中的一轮", "no round is being played"))?;
            self.tick(&mut live).await;
            self.commit(
                &mut live,
                EventAction::ConfirmGames {
                    round,
                    team,
                    agree: c.agree,
                    note: c.note,
                },
            )
            .await?;
            drop(live);
            return self.pair_status(id, &c.token).await;
        }
        let pair = self.pair_of(&live, &c.token)?.clone();
        let round = live
            .event
            .playing()
            .ok_or_else(|| not_now("现在没有进行中的一轮", "no round is being played"))?;
        let table = live
            .event
            .table_of(round, &pair)
            .map(|t| t.table)
            .ok_or_else(|| not_now("这一轮您轮空", "your pair sits this round out"))?;
        self.tick(&mut live).await;
        self.commit(
            &mut live,
            EventAction::Confirm {
                round,
                table,
                direction: pair.direction,
                agree: c.agree,
                note: c.note,
            },
        )
        .await?;
        Ok(self.status_of(&live, &pair))
    }

    // --- what anyone may read -----------------------------------------------------------------

    /// Every event, newest first.
    pub async fn list(&self) -> Vec<EventBrief> {
        // The slots first: no DashMap guard is held across an `.await`.
        let slots: Vec<Arc<Mutex<Live>>> = self.events.iter().map(|e| e.clone()).collect();
        let mut out: Vec<(u64, EventBrief)> = Vec::with_capacity(slots.len());
        for slot in slots {
            let live = slot.lock().await;
            out.push((
                live.header.created_ms,
                EventBrief {
                    id: live.header.id.clone(),
                    name: live.event.spec.name.clone(),
                    game: live.event.spec.game.clone(),
                    state: event_state(&live.event),
                    round: live.event.round,
                    rounds: live.event.rounds(),
                },
            ));
        }
        out.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.id.cmp(&b.1.id)));
        out.into_iter().map(|(_, b)| b).collect()
    }

    /// The event as the director (`full`) or the public sees it.
    pub async fn view(&self, id: &str, full: bool) -> Result<EventView, Problem> {
        let slot = self.slot(id)?;
        let live = slot.lock().await;
        Ok(self.view_of(&live, full))
    }

    pub async fn standings(&self, id: &str, full: bool) -> Result<scoring::Standings, Problem> {
        let slot = self.slot(id)?;
        let live = slot.lock().await;
        scoring::standings(&live.event, full)
    }

    /// The printable results page.
    pub async fn results_html(&self, id: &str, full: bool) -> Result<String, Problem> {
        let slot = self.slot(id)?;
        let live = slot.lock().await;
        let s = scoring::standings(&live.event, full)?;
        let seed = live.event.finished().then_some(live.header.seed.as_str());
        Ok(scoring::html(
            &s,
            &live.event,
            seed,
            &live.header.seed_commitment,
        ))
    }

    // --- the runner ---------------------------------------------------------------------------

    fn spawn_runner(self: &Arc<Self>, id: String) {
        let events = self.clone();
        let span = tracing::info_span!("event", id = %id);
        tokio::spawn(tracing::Instrument::instrument(
            async move { events.run(id).await },
            span,
        ));
    }

    /// Watches an event's tables until it is finished (or the server stops).
    async fn run(self: Arc<Self>, id: String) {
        let mut every = tokio::time::interval(POLL);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if self.stopping.load(Ordering::Relaxed) {
                return;
            }
            let Ok(slot) = self.slot(&id) else { return };
            let mut live = slot.lock().await;
            if live.event.finished() {
                return;
            }
            self.tick(&mut live).await;
        }
    }

    /// One look at the round being played: every board whose table is over gets its result
    /// logged, and every table of the round gets its current board's table opened.
    async fn tick(&self, live: &mut Live) {
        if self.stopping.load(Ordering::Relaxed) {
            return;
        }
        let Some(round) = live.event.playing() else {
            return;
        };
        if live.event.gouji.is_some() {
            return self.tick_gouji(live, round).await;
        }
        let tables: Vec<u32> = live
            .event
            .round_plan(round)
            .map(|r| r.tables.iter().map(|t| t.table).collect())
            .unwrap_or_default();
        for table in tables {
            // A result lets the next board open at once.
            while let Some(board) = live.event.current_board(round, table) {
                let opened = live
                    .event
                    .play(round, table, board)
                    .and_then(|p| p.table_id.clone());
                let now = match &opened {
                    None => TableNow::Gone,
                    Some(tid) => match tables::now(&self.lobby, tid, tables::outcome).await {
                        Ok(now) => now,
                        Err(e) => {
                            tracing::warn!(table = %tid, error = %e, "cannot read a board's table");
                            break;
                        }
                    },
                };
                match now {
                    TableNow::Open => break,
                    TableNow::Over((declarer, defenders)) => {
                        let action = EventAction::Result {
                            round,
                            table,
                            board,
                            table_id: opened.unwrap_or_default(),
                            declarer,
                            defenders,
                        };
                        if let Err(p) = self.commit(live, action).await {
                            tracing::warn!(code = %p.code, error = %p.en, "board result not logged");
                            break;
                        }
                    }
                    TableNow::Gone => {
                        if opened.is_some() {
                            tracing::info!(
                                round,
                                table,
                                board,
                                "the board's table closed unplayed: opening another"
                            );
                        }
                        let seed = live.header.seed.clone();
                        match tables::open(&self.lobby, &live.event, &seed, round, table, board)
                            .await
                        {
                            Ok(table_id) => {
                                let action = EventAction::TableOpened {
                                    round,
                                    table,
                                    board,
                                    table_id,
                                };
                                if let Err(p) = self.commit(live, action).await {
                                    tracing::warn!(code = %p.code, error = %p.en, "table opening not logged");
                                }
                            }
                            Err(p) => {
                                tracing::warn!(round, table, board, code = %p.code, error = %p.en, "cannot open a board's table");
                            }
                        }
                        break;
                    }
                }
            }
        }
    }

    /// One look at a 够级 round: drawn if not yet (from the event seed), every game whose table
    /// is over gets its result logged, every game to be played now gets its table opened.
    async fn tick_gouji(&self, live: &mut Live, round: u32) {
        let drawn = live
            .event
            .gouji
            .as_ref()
            .and_then(|g| g.stage(round))
            .is_some_and(|s| s.kind.is_some());
        if !drawn {
            let g = live.event.gouji.as_ref().expect("a 够级 event");
            let drawn = rules::deal::Seed::from_hex(&live.header.seed)
                .map_err(|e| Problem::from(Refusal::Internal(Words::new("种子坏了", e.0))))
                .and_then(|seed| gouji::draw_for(g, round, &seed));
            let result = match drawn {
                Ok(drawn) => self.commit(live, EventAction::Draw { round, drawn }).await,
                Err(p) => Err(p),
            };
            if let Err(p) = result {
                tracing::warn!(round, code = %p.code, error = %p.en, "round not drawn");
                return;
            }
        }
        // A result lets the match's next game (or the final's next game) open at once.
        for _ in 0..64 {
            let open = live
                .event
                .gouji
                .as_ref()
                .map(|g| g.open_now(round))
                .unwrap_or_default();
            let mut changed = false;
            for seating in open {
                let opened = live
                    .event
                    .gouji
                    .as_ref()
                    .and_then(|g| g.stage(round))
                    .and_then(|s| s.games.get(&(seating.table, seating.game)))
                    .and_then(|s| s.table_id.clone());
                let now = match &opened {
                    None => TableNow::Gone,
                    Some(tid) => match tables::now(&self.lobby, tid, tables::gouji_outcome).await {
                        Ok(now) => now,
                        Err(e) => {
                            tracing::warn!(table = %tid, error = %e, "cannot read a game's table");
                            continue;
                        }
                    },
                };
                let action = match now {
                    TableNow::Open => continue,
                    TableNow::Over(record) => EventAction::GameResult {
                        round,
                        table: seating.table,
                        game: seating.game,
                        table_id: opened.unwrap_or_default(),
                        record,
                    },
                    TableNow::Gone => {
                        if opened.is_some() {
                            tracing::info!(
                                round,
                                table = seating.table,
                                game = seating.game,
                                "the game's table closed unplayed: opening another"
                            );
                        }
                        let seed = live.header.seed.clone();
                        match tables::open_gouji(&self.lobby, &live.event, &seed, &seating).await {
                            Ok(table_id) => EventAction::GameOpened {
                                round,
                                table: seating.table,
                                game: seating.game,
                                table_id,
                            },
                            Err(p) => {
                                tracing::warn!(round, table = seating.table, game = seating.game, code = %p.code, error = %p.en, "cannot open a game's table");
                                continue;
                            }
                        }
                    }
                };
                let result = matches!(action, EventAction::GameResult { .. });
                match self.commit(live, action).await {
                    Ok(()) => changed |= result,
                    Err(p) => {
                        tracing::warn!(code = %p.code, error = %p.en, "game step not logged");
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// A 够级 event's view: teams, groups, every round's matches and games.
    fn gouji_view(&self, ev: &Event, results: bool) -> Option<protocol::GoujiView> {
        let g = ev.gouji.as_ref()?;
        let summary = |id: &str| {
            self.lobby.get(id).map(|h| {
                let s = h.summary();
                (s.state, s.seq)
            })
        };
        Some(protocol::GoujiView {
            teams: g.teams.iter().map(gouji::Team::info).collect(),
            groups: g.group_view(),
            final_games: g.final_games,
            stages: g
                .stages
                .iter()
                .map(|s| protocol::GoujiStage {
                    round: s.round,
                    kind: match s.kind {
                        Some(gouji::Kind::Final(_)) => "final",
                        _ => "knockout",
                    }
                    .to_string(),
                    state: if s.round <= ev.closed {
                        "closed"
                    } else if s.kind.is_none() {
                        "drawing"
                    } else {
                        "playing"
                    }
                    .to_string(),
                    // A closed round's winners are public: the teams knocked out are.
                    matches: g.match_view(s.round, results || s.round <= ev.closed),
                    byes: g.byes(s.round),
                    final_groups: g.final_groups_view(s.round),
                    games: g.games_view(s.round, results, summary),
                    deductions: g.deductions_view(s.round),
                })
                .collect(),
            next: g.final_round().is_none().then(|| {
                if g.left_count() > gouji::MIN_TEAMS {
                    "knockout"
                } else {
                    "final"
                }
                .to_string()
            }),
        })
    }

    // --- views --------------------------------------------------------------------------------

    fn table_view(&self, ev: &Event, round: u32, table: u32, results: bool) -> Option<EventTable> {
        let plan = ev.table_plan(round, table)?;
        let c = ev.confirms.get(&(round, table));
        let seated =
            |direction, number: Option<u32>| number.and_then(|n| ev.seated_at(round, direction, n));
        Some(EventTable {
            table,
            ns: plan.ns,
            ew: plan.ew,
            ns_seated_ms: seated(Direction::NS, plan.ns),
            ew_seated_ms: seated(Direction::EW, plan.ew),
            forfeits: [(Direction::NS, plan.ns), (Direction::EW, plan.ew)]
                .into_iter()
                .filter(|(d, n)| n.is_some_and(|n| ev.forfeited(round, *d, n)))
                .map(|(d, _)| d.name().to_string())
                .collect(),
            boards: plan
                .boards
                .iter()
                .map(|&board| {
                    let play = ev.play(round, table, board);
                    let table_id = play.and_then(|p| p.table_id.clone());
                    let summary = table_id
                        .as_deref()
                        .and_then(|t| self.lobby.get(t))
                        .map(|h| h.summary());
                    EventBoard {
                        board,
                        state: summary.as_ref().map(|s| s.state),
                        seq: summary.as_ref().map(|s| s.seq),
                        table_id,
                        result: play.filter(|_| results).and_then(|p| result_of(p, board)),
                        done: play.is_some_and(state::Play::done),
                    }
                })
                .collect(),
            ns_confirmed: ev.confirmed(round, table, Direction::NS),
            ew_confirmed: ev.confirmed(round, table, Direction::EW),
            dispute: c.and_then(|c| c.dispute.clone()),
        })
    }

    fn view_of(&self, live: &Live, full: bool) -> EventView {
        let ev = &live.event;
        let results = full || ev.finished();
        EventView {
            id: live.header.id.clone(),
            name: ev.spec.name.clone(),
            game: ev.spec.game.clone(),
            ruleset: ev.spec.ruleset.clone().unwrap_or_default(),
            tables: ev.tables(),
            rounds: ev.rounds(),
            boards_per_round: ev.spec.boards_per_round,
            movement: ev.spec.movement,
            level: ev.spec.level.clone(),
            trump: ev.spec.trump.clone(),
            board_minutes: ev.spec.board_minutes,
            state: event_state(ev),
            round: ev.round,
            closed: ev.closed,
            round_started_ms: ev.clock(ev.round).map(|c| c.started_ms),
            round_deadline_ms: ev.clock(ev.round).map(|c| c.deadline_ms),
            now_ms: store::now_ms(),
            finished_early: ev.early,
            seed_commitment: live.header.seed_commitment.clone(),
            deal_algorithm: rules::deal::ALGORITHM.to_string(),
            seed: ev.finished().then(|| live.header.seed.clone()),
            pairs: ev.pairs.iter().map(Pair::info).collect(),
            schedule: ev
                .movement
                .rounds
                .iter()
                .map(|r| EventRound {
                    round: r.round,
                    state: if r.round <= ev.closed {
                        "closed"
                    } else if r.round <= ev.round {
                        "playing"
                    } else {
                        "waiting"
                    }
                    .to_string(),
                    tables: r
                        .tables
                        .iter()
                        .filter_map(|t| self.table_view(ev, r.round, t.table, results))
                        .collect(),
                    bye_stand: r.bye_stand.clone(),
                })
                .collect(),
            log_len: live.seq,
            head_hash: live.prev_hash.clone(),
            gouji: self.gouji_view(ev, results),
        }
    }

    fn status_of(&self, live: &Live, pair: &Pair) -> PairStatus {
        let ev = &live.event;
        let round = ev.round;
        PairStatus {
            pair: pair.info(),
            event: live.header.id.clone(),
            round,
            table: ev
                .table_of(round, pair)
                .and_then(|t| self.table_view(ev, round, t.table, true)),
            earlier: (1..round)
                .filter_map(|r| {
                    let t = ev.table_of(r, pair)?;
                    Some(protocol::PairRound {
                        round: r,
                        table: self.table_view(ev, r, t.table, true)?,
                    })
                })
                .collect(),
            team: None,
        }
    }
}

/// Sits a player down at an event's table with the seat token its pair's (or team's) token
/// gives for that seat: the token.
async fn sit(
    handle: &crate::table::TableHandle,
    card_token: &str,
    table_id: &str,
    seat: protocol::SeatIndex,
    name: String,
) -> Result<String, Problem> {
    let token = state::seat_token(card_token, table_id, seat);
    match handle.join(seat, name, seat_token::hash(&token)).await {
        Ok(()) => Ok(token),
        // Sat down before (only this card's token reaches these seats): the same token.
        Err(Refusal::SeatTaken) => Ok(token),
        Err(r) => Err(r.into()),
    }
}

fn event_state(ev: &Event) -> EventState {
    if ev.finished() {
        EventState::Finished
    } else if ev.round == 0 {
        EventState::Registering
    } else {
        EventState::Running
    }
}

fn result_of(play: &state::Play, board: u32) -> Option<protocol::BoardResult> {
    match (&play.adjusted, &play.played) {
        (Some(a), _) => Some(protocol::BoardResult {
            declarer: a.defenders.map(|_| scoring::declarer_of(board).to_string()),
            defenders: a.defenders,
            artificial: a.artificial.clone(),
            adjusted: true,
        }),
        (None, Some(p)) => Some(protocol::BoardResult {
            declarer: Some(p.declarer.clone()),
            defenders: Some(p.defenders),
            artificial: None,
            adjusted: false,
        }),
        (None, None) => None,
    }
}

fn parse_direction(s: &str) -> Result<Direction, Problem> {
    match s.trim().to_ascii_uppercase().as_str() {
        "NS" => Ok(Direction::NS),
        "EW" => Ok(Direction::EW),
        _ => Err(Refusal::BadRequest(Wrong::Direction {
            direction: s.to_string(),
        })
        .into()),
    }
}

fn cards(live: &Live) -> EventCards {
    let ev = &live.event;
    if let Some(g) = &ev.gouji {
        return EventCards {
            pairs: Vec::new(),
            tables: Vec::new(),
            teams: g
                .teams
                .iter()
                .map(|t| protocol::TeamCard {
                    team: t.info(),
                    token: (!t.bot).then(|| {
                        gouji::team_token(
                            &live.header.pair_secret,
                            &live.header.id,
                            ev.registered,
                            t.number,
                        )
                    }),
                })
                .collect(),
        };
    }
    EventCards {
        pairs: ev
            .pairs
            .iter()
            .map(|p| PairCard {
                pair: p.info(),
                token: (!p.bot).then(|| {
                    state::pair_token(&live.header.pair_secret, &live.header.id, ev.registered, p)
                }),
            })
            .collect(),
        tables: (1..=ev.tables())
            .filter_map(|t| {
                tournament::movement_card(&ev.movement, t)
                    .ok()
                    .map(|card| TableCard { table: t, card })
            })
            .collect(),
        teams: Vec::new(),
    }
}

/// Rebuilds one stored event: its chain verified, its log replayed.
fn rebuild(s: StoredEvent) -> Result<Live, String> {
    let id = s.header.id.clone();
    store::verify_event(&s.header, &s.log).map_err(|t| format!("event {id}: log tampered: {t}"))?;
    let actions = s
        .log
        .iter()
        .map(|e| {
            serde_json::from_str::<EventAction>(&e.action)
                .map(|a| (e.seq, a))
                .map_err(|err| format!("event {id}: entry {}: {err}", e.seq))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let event = Event::replay(&id, &actions)?;
    Ok(Live {
        seq: s.log.len() as u64,
        prev_hash: s
            .log
            .last()
            .map(|e| e.hash.clone())
            .unwrap_or_else(|| event_genesis(&s.header)),
        header: s.header,
        event,
    })
}
