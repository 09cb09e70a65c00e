//! One competition as a task that owns it (the table's shape): calls come through its channel
//! ([`super::handle`]) and every change goes check → store (the hash-chained `event_log`) →
//! apply, one at a time, in log order. Between calls it runs its tables: it logs what the
//! competition needs logged by itself (a 够级 round's draw), opens the tables
//! [`tournament::competition::Competition::tables_now`] names, and awaits their results — each table publishes its
//! result once play is over, and the actor wakes on it; nothing polls a log. A table no longer
//! served here is read once from its stored log. What could not be done (a table refused, the
//! store failing, a table another node serves) is tried again after a while, and logged once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use dashmap::DashSet;
use protocol::{CompetitionBrief, CompetitionJoin, CompetitionJoined, Refusal};
use rules::deal::Seed;
use tokio::sync::{mpsc, watch};
use tokio::time::{sleep_until, Instant};
use tournament::competition::{Error, Visit};

use super::denied::Denied;
use super::handle::{Command, Handle};
use super::kind::{brief, Ctx, Kind};
use super::tables::{self, Now};
use super::tokens;
use crate::lobby::Lobby;
use crate::seat_token;
use crate::store::{
    self, competition_entry_hash, CompetitionEntry, CompetitionHeader, CompetitionStore,
};
use crate::table::SeatVisit;

/// How long the runner waits before it tries again what it could not do.
const RETRY: Duration = Duration::from_secs(5);
/// Calls waiting for a competition's actor.
const QUEUE: usize = 32;

/// What every competition's actor shares.
pub struct Deps {
    pub lobby: Arc<Lobby>,
    /// The competitions' store (a second connection to the database). A `std::sync::Mutex`: it
    /// is only ever locked on a blocking thread (`spawn_blocking`), one write at a time.
    pub store: Arc<std::sync::Mutex<Box<dyn CompetitionStore>>>,
    /// The tables' set of sealed seeds ([`crate::table::TableSettings::sealed_seeds`]).
    pub sealed: Arc<DashSet<String>>,
    /// Set at shutdown: the runners open no more tables.
    pub stopping: AtomicBool,
}

/// One competition as its actor holds it.
pub struct Live<K: Kind> {
    pub header: CompetitionHeader,
    pub c: K,
    /// Seq of the last stored entry.
    pub seq: u64,
    /// Hash of the last entry (or the genesis): the next entry chains to it.
    pub prev_hash: String,
    deps: Arc<Deps>,
    brief: watch::Sender<CompetitionBrief>,
    /// When to try again what could not be done.
    retry: Option<Instant>,
    /// What failed last, so a failure that repeats is logged once.
    failing: Option<String>,
    /// Per open table: the connections to its seats it published (the receiver tells a
    /// rebuilt table's fresh list from the old one) and how many of them are logged.
    heard: HashMap<String, (watch::Receiver<Vec<SeatVisit>>, usize)>,
}

/// Starts a competition's actor: its handle.
pub fn spawn<K: Kind>(
    header: CompetitionHeader,
    c: K,
    seq: u64,
    prev_hash: String,
    deps: Arc<Deps>,
) -> Handle<K> {
    let (tx, rx) = mpsc::channel(QUEUE);
    let (brief_tx, brief_rx) = watch::channel(brief(&c, &header));
    let span = tracing::info_span!("competition", id = %header.id);
    let live = Live {
        header,
        c,
        seq,
        prev_hash,
        deps,
        brief: brief_tx,
        retry: None,
        failing: None,
        heard: HashMap::new(),
    };
    tokio::spawn(tracing::Instrument::instrument(live.run(rx), span));
    Handle {
        tx,
        brief: brief_rx,
    }
}

impl<K: Kind> Live<K> {
    /// The actor's loop: a call, a table's result, or the time to try again.
    async fn run(mut self, mut rx: mpsc::Receiver<Command<K>>) {
        // Tables left open by a run before (a restart), their work over meanwhile.
        self.close_idle_tables().await;
        loop {
            let waits = self.step().await;
            let retry = self.retry;
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    None => return,
                    Some(Command::Stop { reply }) => {
                        let _ = reply.send(());
                        return;
                    }
                    Some(cmd) => self.handle(cmd).await,
                },
                _ = tables::any_reports(&waits) => {}
                _ = sleep_until(retry.unwrap_or_else(Instant::now)), if retry.is_some() => {
                    self.retry = None;
                }
            }
        }
    }

    /// Checks an action against the competition, stores it, then applies it. On `Err` nothing
    /// changed.
    pub async fn commit(&mut self, action: K::Action) -> Result<(), Denied> {
        let seq = self.seq + 1;
        let mut next = self.c.clone();
        next.apply(seq, &action)?;
        let mut entry = CompetitionEntry {
            seq,
            action: serde_json::to_string(&action).expect("actions serialise"),
            time_ms: store::now_ms(),
            hash: String::new(),
        };
        entry.hash = competition_entry_hash(&self.prev_hash, &entry);
        let finished = next.common().finished() && !self.c.common().finished();
        let (db, id, stored) = (
            self.deps.store.clone(),
            self.header.id.clone(),
            entry.clone(),
        );
        let written = tokio::task::spawn_blocking(move || {
            let mut db = db.lock().expect("competition store lock");
            db.append_competition(&id, &stored)?;
            if finished {
                db.set_competition_finished(&id)?;
            }
            Ok::<(), store::StoreError>(())
        })
        .await;
        let failed = |detail: String| {
            Denied::Server(Refusal::StoreFailed {
                detail,
                reading: false,
            })
        };
        written
            .map_err(|e| failed(e.to_string()))?
            .map_err(|e| failed(e.0))?;
        tracing::info!(seq, action = K::action_name(&action), "competition log");
        self.seq = seq;
        self.prev_hash = entry.hash;
        self.c = next;
        self.brief.send_replace(brief(&self.c, &self.header));
        Ok(())
    }

    /// Something the runner could not do: tried again later; said once while it repeats.
    fn failed(&mut self, what: &str, why: &Denied) {
        let said = format!("{what}: {why}");
        if self.failing.as_deref() != Some(said.as_str()) {
            tracing::warn!(error = %said, "competition step failed; trying again every few seconds");
            self.failing = Some(said);
        }
        self.retry = Some(Instant::now() + RETRY);
    }

    /// Runs the tables: logs what is due, every result a table has published, and opens every
    /// table needed (a result lets the next board open at once). The tables still being played
    /// here, to await.
    async fn step(&mut self) -> Vec<tables::Awaited> {
        let mut waits = Vec::new();
        if self.deps.stopping.load(Ordering::Relaxed) {
            return waits;
        }
        let ok_before = self.failing.is_none();
        let mut failed = false;
        self.log_due(&mut failed).await;
        // Bounded: each pass logs at least one result, and a round has finitely many.
        for _ in 0..64 {
            waits.clear();
            let mut changed = false;
            for need in self.c.tables_now() {
                match tables::now::<K::Game>(&self.deps.lobby, &need).await {
                    Ok(Now::Open(h)) => waits.push(tables::Awaited::new(need, h, None)),
                    Ok(Now::Over(id, report)) => {
                        let Some(action) = K::result(&need, id, report) else {
                            continue;
                        };
                        match self.commit(action).await {
                            Ok(()) => changed = true,
                            Err(d) => {
                                failed = true;
                                self.failed("a table's result not logged", &d);
                            }
                        }
                    }
                    Ok(Now::Gone) => {
                        if let Err(d) = self.open(&need).await {
                            failed = true;
                            self.failed("a table not opened", &d);
                        }
                    }
                    Ok(Now::Elsewhere) => self.retry = Some(Instant::now() + RETRY),
                    Err(d) => {
                        failed = true;
                        self.failed("a table's state not read", &d);
                    }
                }
            }
            if !changed {
                break;
            }
        }
        self.revise(&mut waits, &mut failed).await;
        self.log_visits(&mut waits, &mut failed).await;
        if !failed && !ok_before {
            tracing::info!("competition steps succeed again");
            self.failing = None;
        }
        waits
    }

    /// Logs every result of the round a ruling at its table has changed since (until the round
    /// closes: then its tables close), and awaits the tables that might still change theirs.
    async fn revise(&mut self, waits: &mut Vec<tables::Awaited>, failed: &mut bool) {
        for (need, logged) in self.c.revisable() {
            let Some(handle) = need
                .table_id
                .as_deref()
                .and_then(|id| self.deps.lobby.get(id))
            else {
                continue;
            };
            let report = handle.result().borrow().clone();
            match report {
                Some(r) if r.result != logged => {
                    let (id, now) = (handle.id.clone(), r.result.clone());
                    let Some(action) = K::revised(&need, id, r) else {
                        continue;
                    };
                    match self.commit(action).await {
                        Ok(()) => waits.push(tables::Awaited::new(need, handle, Some(now))),
                        Err(d) => {
                            *failed = true;
                            self.failed("a revised result not logged", &d);
                        }
                    }
                }
                _ => waits.push(tables::Awaited::new(need, handle, Some(logged))),
            }
        }
    }

    /// Logs, in one entry, the connections to the seats of the tables awaited that are not
    /// logged yet: each address and device as the competition's keyed mark, never as itself.
    async fn log_visits(&mut self, waits: &mut [tables::Awaited], failed: &mut bool) {
        let mut fresh: Vec<Visit> = Vec::new();
        let mut counts: Vec<(String, watch::Receiver<Vec<SeatVisit>>, usize)> = Vec::new();
        for a in waits.iter() {
            let Some(rx) = a.table.visits() else {
                continue;
            };
            let logged = match self.heard.get(&a.table.id) {
                Some((seen, n)) if seen.same_channel(&rx) => *n,
                // A table rebuilt since (or never heard): its list starts again.
                _ => 0,
            };
            let now: Vec<SeatVisit> = rx.borrow().clone();
            let (secret, id) = (&self.header.pair_secret, &self.header.id);
            fresh.extend(now.iter().skip(logged).map(|v| Visit {
                table_id: a.table.id.clone(),
                round: a.need.round,
                table: a.need.table,
                slot: a.need.slot,
                seat: v.seat,
                at_ms: v.at_ms,
                what: v.what,
                address: tokens::mark(secret, id, &v.peer.to_string()),
                device: v.device.as_deref().map(|d| tokens::mark(secret, id, d)),
            }));
            counts.push((a.table.id.clone(), rx, now.len()));
        }
        if !fresh.is_empty() {
            if let Err(d) = self.commit(K::visited(fresh)).await {
                *failed = true;
                return self.failed("the seats' connections not logged", &d);
            }
        }
        self.heard
            .retain(|id, _| counts.iter().any(|(c, _, _)| c == id));
        for (id, rx, n) in counts {
            self.heard.insert(id, (rx, n));
        }
        for a in waits.iter_mut() {
            a.visits = self.heard.get(&a.table.id).map_or(0, |(_, n)| *n);
        }
    }

    /// Closes the tables whose work is over (their round closed, their board settled by the
    /// director): nobody plays there, and they would count against the server's cap.
    async fn close_idle_tables(&self) {
        let lobby = self.deps.lobby.clone();
        tables::close(&lobby, &self.c.idle_tables()).await;
    }

    /// Logs what the competition needs logged by itself before its tables open.
    async fn log_due(&mut self, failed: &mut bool) {
        let Ok(seed) = Seed::from_hex(&self.header.seed) else {
            return;
        };
        loop {
            let due = match self.c.due(&seed) {
                Ok(Some(a)) => self.commit(a).await,
                Ok(None) => return,
                Err(e) => Err(e.into()),
            };
            if let Err(d) = due {
                *failed = true;
                return self.failed("a step of the competition not logged", &d);
            }
        }
    }

    /// Opens a need's table and logs it.
    async fn open(&mut self, need: &tournament::competition::TableNeed) -> Result<(), Denied> {
        if need.table_id.is_some() {
            tracing::info!(
                round = need.round,
                table = need.table,
                slot = need.slot,
                "the table closed unplayed: opening another"
            );
        }
        let lobby = self.deps.lobby.clone();
        let id = tables::open::<K::Game>(&lobby, &self.header, self.c.common(), need).await?;
        self.commit(K::opened(need, id)).await
    }

    fn ctx(&self) -> Ctx<'_> {
        Ctx {
            header: &self.header,
            seq: self.seq,
            head_hash: &self.prev_hash,
            lobby: &self.deps.lobby,
        }
    }

    async fn handle(&mut self, cmd: Command<K>) {
        // Results that came in since count (a board just finished, the next one opened).
        self.step().await;
        let now = store::now_ms();
        match cmd {
            Command::Register { entries, reply } => {
                let r = match K::register(entries) {
                    Ok(action) => self.commit(action).await,
                    Err(e) => Err(e.into()),
                };
                let _ = reply.send(r.map(|()| self.c.cards(&self.header)));
            }
            Command::AddEntries { entries, reply } => {
                let r = match K::add_entries(entries) {
                    Ok(action) => self.commit(action).await,
                    Err(e) => Err(e.into()),
                };
                let _ = reply.send(r.map(|()| self.c.cards(&self.header)));
            }
            Command::Cards { reply } => {
                let _ = reply.send(Ok(self.c.cards(&self.header)));
            }
            Command::StartRound { round, reply } => {
                let r = self.commit(K::start_round(round, now)).await;
                let _ = reply.send(self.then_view(r).await);
            }
            Command::CloseRound {
                round,
                force,
                reply,
            } => {
                let r = self.commit(K::close_round(round, force)).await;
                let _ = reply.send(self.then_view(r).await);
            }
            Command::Reveal { early, reply } => {
                let r = self.commit(K::reveal(early)).await;
                if r.is_ok() {
                    self.deps.sealed.remove(&self.header.seed_commitment);
                    tracing::info!("competition finished; seed revealed");
                }
                let _ = reply.send(self.then_view(r).await);
            }
            Command::Step { step, reply } => {
                let r = match self.c.step(step, now) {
                    Ok(a) => self.commit(a).await,
                    Err(d) => Err(d),
                };
                let _ = reply.send(self.then_view(r).await);
            }
            Command::Preview { step, reply } => {
                let _ = reply.send(self.preview(step, now));
            }
            Command::Join { req, reply } => {
                let _ = reply.send(self.join(req, now).await);
            }
            Command::Status { token, reply } => {
                let r = self
                    .holder(&token)
                    .map(|who| self.c.status(&self.ctx(), &who));
                let _ = reply.send(r);
            }
            Command::Confirm { req, reply } => {
                let _ = reply.send(self.confirm(req).await);
            }
            Command::View { full, reply } => {
                let _ = reply.send(Ok(self.c.view(&self.ctx(), full)));
            }
            Command::Standings { full, reply } => {
                let _ = reply.send(self.c.standings(full));
            }
            Command::Page { full, reply } => {
                let r = self
                    .c
                    .standings(full)
                    .map(|s| self.c.page(&s, &self.header));
                let _ = reply.send(r);
            }
            Command::Stop { .. } => unreachable!("handled in run"),
        }
    }

    /// After a director's step: tables whose work it ended closed, its tables opened, then
    /// the console's view.
    async fn then_view(
        &mut self,
        r: Result<(), Denied>,
    ) -> Result<protocol::CompetitionView, Denied> {
        r?;
        self.close_idle_tables().await;
        self.step().await;
        Ok(self.c.view(&self.ctx(), true))
    }

    /// The standings a director's step would make, as the director sees them: checked and
    /// applied to a copy, nothing logged.
    fn preview(
        &self,
        step: K::Step,
        now: u64,
    ) -> Result<crate::competition::standings::Standings, Denied> {
        let action = self.c.step(step, now)?;
        let mut next = self.c.clone();
        next.apply(self.seq + 1, &action)?;
        next.standings(true)
    }

    fn holder(&self, token: &str) -> Result<K::Holder, Denied> {
        self.c
            .holder(&self.header, token)
            .ok_or(Denied::Server(Refusal::BadPairToken))
    }

    /// Seats a player of a pair (or team) at its table now, with the seat token its card's
    /// token gives for that seat.
    async fn join(&mut self, req: CompetitionJoin, now: u64) -> Result<CompetitionJoined, Denied> {
        let who = self.holder(&req.token)?;
        // A practice player's first arrival begins their run: logged, then its table opened.
        if let Some(action) = self.c.arrive(&who, &req, now)? {
            self.commit(action).await?;
            self.step().await;
        }
        let place = self.c.place(&who)?;
        let handle = self
            .deps
            .lobby
            .get(&place.table_id)
            .ok_or(Denied::Rule(Error::Opening))?;
        let seat = match req.seat {
            Some(s) if place.seats.iter().any(|(x, _)| *x == s) => s,
            Some(s) => return Err(K::not_yours(&who, &place, s).into()),
            None => {
                let summary = handle.summary();
                place
                    .seats
                    .iter()
                    .map(|(s, _)| *s)
                    .find(|&s| summary.seats.get(s).is_some_and(|i| i.name.is_none()))
                    .unwrap_or(place.seats[0].0)
            }
        };
        let name = match &req.name {
            Some(n) => crate::lobby::display_name(n)?,
            None => place
                .seats
                .iter()
                .find(|(s, _)| *s == seat)
                .map(|(_, n)| n.clone())
                .unwrap_or_default(),
        };
        let token = super::tokens::seat_token(&req.token, &place.table_id, seat);
        match handle.join(seat, name, seat_token::hash(&token)).await {
            // Sat down before (only this card's token reaches these seats): the same token.
            Ok(()) | Err(Refusal::SeatTaken) => {}
            Err(r) => return Err(r.into()),
        }
        if let Some(action) = self.c.seated(&who, &place, seat, now) {
            if let Err(d) = self.commit(action).await {
                tracing::warn!(error = %d, "seating not logged");
            }
        }
        Ok(CompetitionJoined {
            table: place.table_id,
            seat,
            token,
            round: place.round,
            table_no: place.table_no,
            board: place.slot,
        })
    }

    /// A pair's (or team's) word on its results.
    async fn confirm(
        &mut self,
        req: protocol::ConfirmResults,
    ) -> Result<protocol::PairStatus, Denied> {
        let who = self.holder(&req.token)?;
        let action = self.c.confirm(&who, req.agree, req.note)?;
        self.commit(action).await?;
        Ok(self.c.status(&self.ctx(), &who))
    }
}
