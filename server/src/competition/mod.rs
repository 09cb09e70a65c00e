//! Competitions (赛事) run by a director: 80分 duplicate pairs over a Mitchell movement and 够级
//! team matches, each a pure state machine of the `tournament` crate
//! (`tournament::competition`) that the server runs the way it runs a table.
//!
//! A director (`--director-token`) creates a competition, registers the entries and starts each
//! round; the competition's actor opens that round's tables (dealt from its seed), seats each
//! pair or team with its card's token, logs each table's result when the table publishes it,
//! opens the next board, and scores everything. At the end of a round the players confirm their
//! results (or dispute them); the director adjusts, deducts, closes the round, and after the last
//! one reveals the seed, so anyone can re-deal every board.
//!
//! One concern a file:
//!
//! - this file: the registry of competitions and the kinds it runs; creating one; rebuilding
//!   every one from its log at start; past one machine, taking one over and handing one on.
//! - [`live`]: one competition's actor: every change check → store → apply, and its tables run.
//! - [`handle`]: the way in to an actor and the calls it takes.
//! - [`kind`]: what the server needs of a kind beyond its engine; [`duplicate`] and [`teams`]
//!   are the director's two kinds (their steps, cards, seats and wire views), [`practice`] the
//!   practice sets' (one a game: a player's run, each board's field, the rankings by day).
//! - [`tables`]: opening a competition's table; where a table is now.
//! - [`standings`], [`printed`]: the standings as sent, the CSV and the A4 page.
//! - [`tokens`]: the tokens printed on the cards.
//! - [`wire`]: the wire's requests as the competition's own types, and back.
//! - [`denied`]: a refused call and its HTTP status.
//! - [`api`]: the HTTP routes (`/api/events/…`), the director's bearer token.
//!
//! Past one machine (PostgreSQL) each competition is run by one node, the holder of its lease
//! (`event_leases`, store/lease.rs): a node rebuilds at start only those no live lease names,
//! takes over those of a node that died (the cluster task, or on the spot when asked for one),
//! gives up one whose lease another node took, and sends every other competition's calls to the
//! node that runs it (`307`, [`api`]). The tables follow it: only the node running a
//! competition may take its tables over.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use dashmap::DashMap;
use protocol::{CompetitionBrief, CompetitionView, CreateCompetition, Refusal};
use tokio::sync::Mutex;
use tournament::competition::practice::{
    Gouji as GoujiSets, Practice, SetGame, Shengji as ShengjiSets,
};
use tournament::competition::{Competition, Duplicate, Error, Teams};

pub mod api;
pub mod denied;
pub mod duplicate;
pub mod fairplay;
pub mod handle;
pub mod kind;
pub mod live;
pub mod practice;
pub mod printed;
pub mod standings;
pub mod tables;
pub mod teams;
pub mod tokens;
pub mod wire;

use denied::Denied;
use handle::Held;
use kind::Kind;
use live::Deps;

use crate::lobby::{Lobby, CODE_TRIES};
use crate::seat_token;
use crate::store::{
    self, competition_entry_hash, competition_genesis, CompetitionEntry, CompetitionHeader,
};
use crate::store::{CompetitionStore, StoredCompetition};
use crate::table::{DealFixed, TableGame};

/// Competitions that could not be rebuilt at start: (id, why).
pub type NotRebuilt = Vec<(String, String)>;

/// Runs `$body` with the type `$K` standing for the kind of director's event whose tables deal
/// `$game`: the one place a game's name picks an event's kind. `$none` when no kind plays it.
macro_rules! by_game {
    ($game:expr, $K:ident => $body:expr, $none:expr) => {{
        let game: &str = $game;
        if game == <Duplicate as Competition>::GAME {
            type $K = Duplicate;
            $body
        } else if game == <Teams as Competition>::GAME {
            type $K = Teams;
            $body
        } else {
            $none
        }
    }};
}

/// Runs `$body` with the type `$K` standing for the kind a stored competition's row names
/// (`events.game`, [`Competition::KIND`]): the one place a stored name picks a kind.
macro_rules! by_kind {
    ($kind:expr, $K:ident => $body:expr, $none:expr) => {{
        let kind: &str = $kind;
        if kind == <Duplicate as Competition>::KIND {
            type $K = Duplicate;
            $body
        } else if kind == <Teams as Competition>::KIND {
            type $K = Teams;
            $body
        } else if kind == <Practice<ShengjiSets> as Competition>::KIND {
            type $K = Practice<ShengjiSets>;
            $body
        } else if kind == <Practice<GoujiSets> as Competition>::KIND {
            type $K = Practice<GoujiSets>;
            $body
        } else {
            $none
        }
    }};
}

/// One competition in the registry.
struct Slot {
    held: Held,
    /// Its seed's commitment: its tables deal from that seed.
    commitment: String,
    created_ms: u64,
}

/// Every competition this node runs, by id.
pub struct Competitions {
    deps: Arc<Deps>,
    held: DashMap<String, Slot>,
    /// SHA-256 of the director's token; `None`: no director role.
    director_hash: Option<String>,
    /// Held while a competition is being taken over, so two requests rebuild it once.
    taking: Mutex<()>,
}

impl Competitions {
    /// Rebuilds every stored competition from its log (what failed, with the reason, is
    /// returned and left stored, unserved). Past one machine it rebuilds none here:
    /// [`Competitions::take_free`] takes those no other node runs.
    pub fn start(
        lobby: Arc<Lobby>,
        mut store: Box<dyn CompetitionStore>,
        director_token: Option<&str>,
    ) -> Result<(Arc<Competitions>, NotRebuilt), String> {
        let stored = if lobby.leases.is_some() {
            Vec::new()
        } else {
            store.competitions().map_err(|e| e.to_string())?
        };
        let all = Arc::new(Competitions {
            deps: Arc::new(Deps {
                sealed: lobby.settings.sealed_seeds.clone(),
                lobby,
                store: Arc::new(std::sync::Mutex::new(store)),
                stopping: AtomicBool::new(false),
            }),
            held: DashMap::new(),
            director_hash: director_token.map(seat_token::hash),
            taking: Mutex::new(()),
        });
        let mut failed = Vec::new();
        for s in stored {
            let id = s.header.id.clone();
            if let Err(e) = all.install(s) {
                failed.push((id, e));
            }
        }
        Ok((all, failed))
    }

    /// Rebuilds one stored competition, seals its seed while it runs and starts its actor.
    fn install(&self, s: StoredCompetition) -> Result<(), String> {
        let kind = s.header.game.clone();
        by_kind!(&kind, K => self.install_kind::<K>(s), Err(format!(
            "competition {}: no competition of \"{kind}\" is run here",
            s.header.id
        )))
    }

    fn install_kind<K: Kind>(&self, s: StoredCompetition) -> Result<(), String>
    where
        Held: From<handle::Handle<K>>,
    {
        let c = store::replayed::<K>(&s)?;
        if !c.common().finished() {
            self.deps.sealed.insert(s.header.seed_commitment.clone());
        }
        let prev_hash = s
            .log
            .last()
            .map(|e| e.hash.clone())
            .unwrap_or_else(|| competition_genesis(&s.header));
        self.insert::<K>(s.header, c, s.log.len() as u64, prev_hash);
        Ok(())
    }

    fn insert<K: Kind>(&self, header: CompetitionHeader, c: K, seq: u64, prev_hash: String) -> Held
    where
        Held: From<handle::Handle<K>>,
    {
        let (id, commitment, created_ms) = (
            header.id.clone(),
            header.seed_commitment.clone(),
            header.created_ms,
        );
        let held = Held::from(live::spawn(header, c, seq, prev_hash, self.deps.clone()));
        self.held.insert(
            id,
            Slot {
                held: held.clone(),
                commitment,
                created_ms,
            },
        );
        held
    }

    /// The competition `id`, if it runs here.
    pub fn get(&self, id: &str) -> Result<Held, Denied> {
        self.held
            .get(id)
            .map(|s| s.held.clone())
            .ok_or(Denied::Server(Refusal::NoCompetition))
    }

    /// Creates a competition: the seed drawn, its commitment published, the entries registered
    /// if given. Its console view.
    pub async fn create(&self, spec: CreateCompetition) -> Result<CompetitionView, Denied> {
        let game = spec.game.clone();
        let held = by_game!(&game, K => self.create_kind::<K>(spec, None).await?, {
            let known = self.deps.lobby.games.get(&game).is_some();
            return Err(if known {
                Error::NotRunLive { game }.into()
            } else {
                Refusal::UnknownGame { game, known: vec![] }.into()
            });
        });
        handle::each!(&held, h => h.view(true).await)
    }

    /// Makes a practice set (its terms in `spec.practice`) and opens it: its view. `id`: the
    /// set's code when it must be one (a day's set, the same on every node); a fresh one when
    /// `None`.
    pub async fn create_practice(
        &self,
        spec: CreateCompetition,
        id: Option<String>,
    ) -> Result<CompetitionView, Denied> {
        let held = match spec.game.as_str() {
            g if g == ShengjiSets::GAME => {
                self.create_kind::<Practice<ShengjiSets>>(spec, id).await?
            }
            g if g == GoujiSets::GAME => self.create_kind::<Practice<GoujiSets>>(spec, id).await?,
            g => {
                return Err(Refusal::UnknownGame {
                    game: g.to_string(),
                    known: vec![ShengjiSets::GAME.into(), GoujiSets::GAME.into()],
                }
                .into())
            }
        };
        handle::each!(&held, h => h.start_round(1).await)
    }

    async fn create_kind<K: Kind>(
        &self,
        mut spec: CreateCompetition,
        id: Option<String>,
    ) -> Result<Held, Denied>
    where
        Held: From<handle::Handle<K>>,
    {
        let ruleset = spec
            .ruleset
            .get_or_insert_with(|| K::Game::DEFAULT_RULESET.to_string())
            .clone();
        // The organiser's seed goes to the row only, never to the spec the competition keeps
        // and logs: the log is read before the reveal.
        let seed = match spec.seed.take() {
            Some(hex) => rules::deal::Seed::from_hex(&hex)
                .map_err(|e| Refusal::Rule(protocol::Problem::explain(&e)))?,
            None => rules::deal::Seed(seat_token::random_bytes::<32>()),
        };
        K::name_defaults(&mut spec);
        // The ruleset and the fixed deal, as the tables will read them.
        let fixed = DealFixed {
            level: spec.level.clone(),
            trump: spec.trump.clone(),
            play_seconds: None,
            bot_level: None,
            competition: None,
        };
        K::Game::start(&ruleset, &rules::deal::Seed([0; 32]), 1, &fixed)?;
        let action = serde_json::to_string(&K::created(spec.clone())).expect("actions serialise");
        let seed_commitment = seed.commitment();
        let pair_secret = rules::deal::hex(&seat_token::random_bytes::<32>());
        // Sealed before any table can deal from it. An organiser may give the seed of an event
        // this node runs already (two flights of one deal): that event's seal is not this
        // creation's to lift if it fails, as at a takeover (`Competitions::take`).
        let sealed_now = self.deps.sealed.insert(seed_commitment.clone());
        // A code not run here is tried; whether the store holds it already (a finished event,
        // another node's, or one made here in the same moment) is the insert's to say, which
        // stores nothing then: a code given (the day's practice set) is refused as existing,
        // a drawn one drawn again. The header's hash covers the code, so each draw is a
        // competition, a header and a first entry of its own.
        let mut tries = 0;
        let made = loop {
            tries += 1;
            let code = match &id {
                Some(given) => given.clone(),
                None if tries > CODE_TRIES => {
                    break Err(Refusal::StoreFailed {
                        detail: format!("no free event code in {CODE_TRIES} draws"),
                        reading: false,
                    }
                    .into())
                }
                None => seat_token::table_code(),
            };
            if self.held.contains_key(&code) {
                match id {
                    Some(_) => break Err(Error::Exists.into()),
                    None => continue,
                }
            }
            let c = match K::create(&code, &spec) {
                Ok(c) => c,
                Err(e) => break Err(e.into()),
            };
            let header = CompetitionHeader {
                id: code,
                game: K::KIND.to_string(),
                name: c.common().spec.name.clone(),
                seed: seed.to_hex(),
                seed_commitment: seed_commitment.clone(),
                pair_secret: pair_secret.clone(),
                created_ms: store::now_ms(),
            };
            let mut first = CompetitionEntry {
                seq: 1,
                action: action.clone(),
                time_ms: header.created_ms,
                hash: String::new(),
            };
            first.hash = competition_entry_hash(&competition_genesis(&header), &first);
            match self.store_creation(&header, &first).await {
                Ok(true) => break Ok((header, c, first)),
                Ok(false) if id.is_some() => break Err(Error::Exists.into()),
                Ok(false) => continue,
                Err(denied) => break Err(denied),
            }
        };
        let (header, c, first) = match made {
            Ok(made) => made,
            Err(denied) => {
                if sealed_now {
                    self.deps.sealed.remove(&seed_commitment);
                }
                return Err(denied);
            }
        };
        let id = header.id.clone();
        tracing::info!(competition = %id, game = K::GAME, "competition created");
        Ok(self.insert::<K>(header, c, 1, first.hash))
    }

    /// Stores a new competition's header and first entry, off the async threads: false if its
    /// code is taken in the store ([`CompetitionStore::create_competition`]).
    async fn store_creation(
        &self,
        header: &CompetitionHeader,
        first: &CompetitionEntry,
    ) -> Result<bool, Denied> {
        let (db, h, e) = (self.deps.store.clone(), header.clone(), first.clone());
        tokio::task::spawn_blocking(move || {
            db.lock()
                .expect("competition store lock")
                .create_competition(&h, &e)
        })
        .await
        .map_err(|e| e.to_string())
        .and_then(|r| r.map_err(|e| e.0))
        .map_err(|detail| {
            Refusal::StoreFailed {
                detail,
                reading: false,
            }
            .into()
        })
    }

    /// Every competition of every live node, newest first: this node's as they are now, the
    /// others' as of the last tick (`crate::listing`); past one machine each names its node.
    pub fn list(&self) -> Vec<CompetitionBrief> {
        let here = self.deps.lobby.leases.as_ref().map(|l| &l.node.address);
        let ours: Vec<(u64, CompetitionBrief)> = self
            .own_list()
            .into_iter()
            .map(|(at, b)| {
                (
                    at,
                    CompetitionBrief {
                        node: here.cloned(),
                        ..b
                    },
                )
            })
            .collect();
        let others = self.deps.lobby.listing.events();
        let mut out = crate::listing::merged(ours, others, |(_, b)| &b.id);
        out.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.id.cmp(&b.1.id)));
        out.into_iter().map(|(_, b)| b).collect()
    }

    /// The directors' events of every live node, newest first (the practice sets left out).
    pub fn events(&self) -> Vec<CompetitionBrief> {
        self.list()
            .into_iter()
            .filter(|b| b.practice.is_none())
            .collect()
    }

    /// The practice sets of every live node, newest first, each with its node's address past
    /// one machine.
    pub fn practice_sets(&self) -> Vec<protocol::PracticeBrief> {
        self.list().into_iter().filter_map(|b| b.practice).collect()
    }

    /// The competitions run here (when each was made, its line), for this node's list and the
    /// other nodes'.
    pub fn own_list(&self) -> Vec<(u64, CompetitionBrief)> {
        self.held
            .iter()
            .map(|s| (s.created_ms, s.held.brief()))
            .collect()
    }

    /// The competitions' store (practice players are kept there too).
    pub fn store(&self) -> Arc<std::sync::Mutex<Box<dyn CompetitionStore>>> {
        self.deps.store.clone()
    }

    /// The lobby whose tables the competitions open.
    pub fn lobby(&self) -> &Arc<Lobby> {
        &self.deps.lobby
    }

    /// A competition's stored row and log, read once (past one machine another node may run
    /// it).
    async fn stored(&self, id: &str) -> Result<StoredCompetition, Denied> {
        let (db, key) = (self.deps.store.clone(), id.to_string());
        Ok(tokio::task::spawn_blocking(move || {
            db.lock().expect("competition store lock").competition(&key)
        })
        .await
        .map_err(|e| Refusal::Internal(protocol::Words::same(e.to_string())))?
        .map_err(|e| Refusal::StoreFailed {
            detail: e.0,
            reading: true,
        })?
        .ok_or(Refusal::NoCompetition)?)
    }

    /// A competition as its stored log makes it, wherever it runs: replayed, nothing started.
    /// Its status for `token` (a practice player's run) and its line.
    pub async fn stored_status(
        &self,
        id: &str,
        token: &str,
    ) -> Result<(protocol::PairStatus, CompetitionBrief), Denied> {
        let s = self.stored(id).await?;
        let kind = s.header.game.clone();
        by_kind!(&kind, K => self.status_of::<K>(&s, token), Err(Refusal::NoCompetition.into()))
    }

    /// A competition's public standings and its line, wherever it runs: asked of its actor
    /// here, or replayed from its stored log.
    pub async fn standings_anywhere(
        &self,
        id: &str,
    ) -> Result<(standings::Standings, CompetitionBrief), Denied> {
        if let Ok(held) = self.get(id) {
            let s = handle::each!(&held, h => h.standings(false).await)?;
            return Ok((s, held.brief()));
        }
        let s = self.stored(id).await?;
        let kind = s.header.game.clone();
        by_kind!(&kind, K => {
            let c = store::replayed::<K>(&s).map_err(|e| Refusal::StoreFailed {
                detail: e,
                reading: true,
            })?;
            Ok((c.standings(false)?, kind::brief(&c, &s.header)))
        }, Err(Refusal::NoCompetition.into()))
    }

    fn status_of<K: Kind>(
        &self,
        s: &StoredCompetition,
        token: &str,
    ) -> Result<(protocol::PairStatus, CompetitionBrief), Denied> {
        let c = store::replayed::<K>(s).map_err(|e| Refusal::StoreFailed {
            detail: e,
            reading: true,
        })?;
        let who = c
            .holder(&s.header, token)
            .ok_or(Denied::Server(Refusal::BadPairToken))?;
        let head = s.log.last().map(|e| e.hash.clone()).unwrap_or_default();
        let ctx = kind::Ctx {
            header: &s.header,
            seq: s.log.len() as u64,
            head_hash: &head,
            lobby: &self.deps.lobby,
        };
        Ok((c.status(&ctx, &who), kind::brief(&c, &s.header)))
    }

    /// A card's pair or team in a director's event (`NS 1`, `team 3`), wherever it runs; an
    /// error for a card that names none of it, or a practice set.
    pub async fn entry_of(&self, id: &str, card: &str) -> Result<String, Denied> {
        let (status, brief) = match self.get(id) {
            Ok(h) if h.is_practice() => return Err(Refusal::NotFound { api: true }.into()),
            Ok(h) => {
                let b = h.brief();
                (handle::each!(&h, h => h.status(card.to_string()).await)?, b)
            }
            Err(_) => self.stored_status(id, card).await?,
        };
        if brief.practice.is_some() {
            return Err(Refusal::NotFound { api: true }.into());
        }
        Ok(format!("{} {}", status.pair.direction, status.pair.number))
    }

    /// Stops the runners (at shutdown, before the tables stop).
    pub fn stop(&self) {
        self.deps.stopping.store(true, Ordering::Relaxed);
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

    // --- past one machine ---------------------------------------------------------------------

    /// The competitions this node runs.
    pub fn ids(&self) -> Vec<String> {
        self.held.iter().map(|e| e.key().clone()).collect()
    }

    /// Past one machine: takes a competition no live lease names (its node died or stopped, or
    /// it was never run): its seed sealed, then its lease, then its log loaded and replayed as
    /// at a restart; it then takes its tables as it looks at them. True when it runs here after
    /// the call. On one machine: whether it is here.
    pub async fn take(&self, id: &str) -> Result<bool, String> {
        let Some(leases) = self.deps.lobby.leases.clone() else {
            return Ok(self.held.contains_key(id));
        };
        let _one_at_a_time = self.taking.lock().await;
        if self.held.contains_key(id) {
            return Ok(true);
        }
        if self.deps.stopping.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let err = |e: store::StoreError| e.to_string();
        let Some((commitment, finished)) = leases.competition_commitment(id).await.map_err(err)?
        else {
            return Ok(false);
        };
        // Sealed before the lease is ours: from then on this node may take the competition's
        // tables, and none of them may show its seed.
        let sealed_now = !finished && self.deps.sealed.insert(commitment.clone());
        let unseal = || {
            if sealed_now {
                self.deps.sealed.remove(&commitment);
            }
        };
        match leases.acquire_competition(id).await {
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
        let (db, key) = (self.deps.store.clone(), id.to_string());
        let stored = tokio::task::spawn_blocking(move || {
            db.lock().expect("competition store lock").competition(&key)
        })
        .await
        .map_err(|e| e.to_string())?
        .map_err(err)?;
        let Some(stored) = stored else {
            unseal();
            return Ok(false);
        };
        // A log that fails here stays stored, unserved (its seed stays sealed here).
        self.install(stored)?;
        tracing::info!(competition = %id, "took the competition over: rebuilt from its log");
        Ok(true)
    }

    /// Past one machine: takes every competition no live lease names, except those that
    /// already failed to rebuild here (`skip`); the ones that fail now, with why.
    pub async fn take_free(&self, skip: &HashSet<String>) -> NotRebuilt {
        let Some(leases) = self.deps.lobby.leases.clone() else {
            return Vec::new();
        };
        let free = match leases.free_competitions().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "cannot look for competitions to take over");
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

    /// Past one machine: for a competition not run here, the address of the node that runs
    /// it. One whose lease is free is taken over on the spot (then run here: `None`). `None`
    /// too for an unknown competition, and on one machine.
    pub async fn elsewhere(&self, id: &str) -> Option<String> {
        let leases = self.deps.lobby.leases.clone()?;
        if self.held.contains_key(id) {
            return None;
        }
        match leases.competition_owner(id).await {
            Ok(store::Owner::Other { address, .. }) => Some(address),
            Ok(store::Owner::Free | store::Owner::Me) => {
                if let Err(e) = self.take(id).await {
                    tracing::error!(competition = %id, reason = %e, "competition not rebuilt from its log");
                }
                None
            }
            Ok(store::Owner::None) => None,
            Err(e) => {
                tracing::warn!(competition = %id, error = %e, "cannot look up the competition's node");
                None
            }
        }
    }

    /// Past one machine: stops running a competition whose lease another node holds now (its
    /// actor ends; its writes were fenced already), and gives up its tables served here (their
    /// connections are told to reconnect and are sent to the tables' next owner, which can only
    /// be the node now running the competition).
    pub async fn hand_over(&self, id: &str) {
        let Some((_, slot)) = self.held.remove(id) else {
            return;
        };
        tracing::warn!(competition = %id, "lease lost: another node runs the competition now");
        slot.held.stop().await;
        let lobby = &self.deps.lobby;
        let tables: Vec<String> = lobby
            .tables
            .iter()
            .filter(|t| t.summary().seed_commitment == slot.commitment)
            .map(|t| t.key().clone())
            .collect();
        for t in &tables {
            lobby.hand_over(t);
        }
        if let Some(leases) = &lobby.leases {
            if let Err(e) = leases.release(&tables).await {
                tracing::warn!(error = %e, "the competition's tables' leases run out by themselves");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::{competition_entries, competition_header, sqlite_db};
    use crate::store::{PlayerRecord, PlayerSet, SqliteStore, StoreError};

    /// Another node's event, stored under the code this node drew for its own just before this
    /// node stores it: once, at the first creation.
    struct Rival {
        store: SqliteStore,
        raced: Arc<std::sync::Mutex<Option<String>>>,
    }

    impl CompetitionStore for Rival {
        fn create_competition(
            &mut self,
            h: &CompetitionHeader,
            first: &CompetitionEntry,
        ) -> Result<bool, StoreError> {
            let mut raced = self.raced.lock().unwrap();
            if raced.is_none() {
                let theirs = competition_header(&h.id, 5);
                let log = competition_entries(&competition_genesis(&theirs), 1, 1);
                assert!(self.store.create_competition(&theirs, &log[0])?);
                *raced = Some(h.id.clone());
            }
            self.store.create_competition(h, first)
        }
        fn append_competition(&mut self, id: &str, e: &CompetitionEntry) -> Result<(), StoreError> {
            self.store.append_competition(id, e)
        }
        fn set_competition_finished(&mut self, id: &str) -> Result<(), StoreError> {
            self.store.set_competition_finished(id)
        }
        fn competitions(&mut self) -> Result<Vec<StoredCompetition>, StoreError> {
            self.store.competitions()
        }
        fn competition(&mut self, id: &str) -> Result<Option<StoredCompetition>, StoreError> {
            self.store.competition(id)
        }
        fn create_player(&mut self, p: &PlayerRecord) -> Result<(), StoreError> {
            self.store.create_player(p)
        }
        fn player(&mut self, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
            self.store.player(id)
        }
        fn note_player_set(
            &mut self,
            player: &str,
            set: &str,
            began_ms: u64,
            entry: Option<&str>,
        ) -> Result<(), StoreError> {
            self.store.note_player_set(player, set, began_ms, entry)
        }
        fn player_sets(&mut self, player: &str) -> Result<Vec<PlayerSet>, StoreError> {
            self.store.player_sets(player)
        }
    }

    /// The event service of one node on `events`, its tables in the SQLite file at `db`.
    fn competitions_on(
        db: &std::path::Path,
        events: Box<dyn CompetitionStore>,
    ) -> Arc<Competitions> {
        let tables = SqliteStore::open(db).unwrap();
        let metrics = Arc::new(crate::metrics::Metrics::new());
        let lobby = Arc::new(crate::lobby::lobby_on(Box::new(tables), metrics, None));
        Competitions::start(lobby, events, None).unwrap().0
    }

    fn pairs_event() -> CreateCompetition {
        serde_json::from_value(serde_json::json!({
            "game": "shengji", "name": "撞号", "tables": 1, "rounds": 1, "boards_per_round": 1,
            "entries": [{"names": [], "bot": true}, {"names": [], "bot": true}],
        }))
        .unwrap()
    }

    /// The code drawn was free here, and taken in the store when the event was stored (another
    /// node's, or one made here in the same moment): the event is made under another code,
    /// not refused with a store failure, and the rival's event is left as it was.
    #[tokio::test]
    async fn an_event_code_taken_before_the_event_is_stored_is_drawn_again() {
        let db = sqlite_db("competitions", "code_taken");
        let raced = Arc::new(std::sync::Mutex::new(None));
        let rival = Rival {
            store: SqliteStore::open(db.path()).unwrap(),
            raced: raced.clone(),
        };
        let all = competitions_on(db.path(), Box::new(rival));
        let made = all
            .create(pairs_event())
            .await
            .expect("made under another code");
        let taken = raced.lock().unwrap().clone().expect("the rival raced");
        assert_ne!(made.id, taken);
        let mut check = SqliteStore::open(db.path()).unwrap();
        let theirs = check.competition(&taken).unwrap().unwrap();
        assert_eq!(theirs.header, competition_header(&taken, 5));
        assert_eq!(theirs.log.len(), 1);
        let ours = check.competition(&made.id).unwrap().unwrap();
        assert_eq!(ours.header.name, "撞号");
        crate::store::verify_competition(&ours.header, &ours.log).expect("a whole chain");
        // Only ours is sealed: the rival's seed was never ours to seal.
        assert!(all.deps.sealed.contains(&ours.header.seed_commitment));
        all.stop();
    }

    /// The day's practice set has one code on every node: one another node made (in the store,
    /// not run here) is refused as existing, nothing stored over it, its seed not sealed here.
    #[tokio::test]
    async fn a_given_code_another_node_stored_is_refused_as_existing() {
        let db = sqlite_db("competitions", "given_taken");
        let theirs = competition_header("pd-shengji-20261207", 5);
        let log = competition_entries(&competition_genesis(&theirs), 1, 1);
        let mut events = SqliteStore::open(db.path()).unwrap();
        assert!(events.create_competition(&theirs, &log[0]).unwrap());
        // Its made-up log does not rebuild: stored, not run here, as on a node that does not
        // run it.
        let all = competitions_on(db.path(), Box::new(events));
        assert!(all.get(&theirs.id).is_err());
        let terms = tournament::competition::PracticeTerms {
            closes_ms: store::now_ms() + 3_600_000,
            club: None,
            references: vec![],
            utc_offset_minutes: 480,
        };
        let spec = crate::practice::spec("shengji", "每日练习".into(), 2, terms, None);
        let refused = all
            .create_practice(spec, Some(theirs.id.clone()))
            .await
            .expect_err("the code is taken");
        assert_eq!(refused, Denied::Rule(Error::Exists));
        let mut check = SqliteStore::open(db.path()).unwrap();
        assert_eq!(check.competition(&theirs.id).unwrap().unwrap().log, log);
        assert_eq!(check.competitions().unwrap().len(), 1);
        assert!(all.deps.sealed.is_empty());
        all.stop();
    }

    /// Two flights of one deal: an organiser gives the seed of an event this node runs. A
    /// second creation that is refused (here, under a code taken) leaves the first event's
    /// seed sealed: its tables must not show the deal.
    #[tokio::test]
    async fn a_refused_creation_leaves_the_seal_of_an_event_on_the_same_seed() {
        let db = sqlite_db("competitions", "same_seed");
        let all = competitions_on(db.path(), Box::new(SqliteStore::open(db.path()).unwrap()));
        let seed = rules::deal::Seed([7; 32]);
        let flight = || {
            let terms = tournament::competition::PracticeTerms {
                closes_ms: store::now_ms() + 3_600_000,
                club: None,
                references: vec![],
                utc_offset_minutes: 480,
            };
            let mut spec = crate::practice::spec("shengji", "两组同牌".into(), 2, terms, None);
            spec.seed = Some(seed.to_hex());
            spec
        };
        let first = all
            .create_practice(flight(), Some("flight-a".into()))
            .await
            .expect("the first flight");
        assert!(all.deps.sealed.contains(&seed.commitment()));
        let refused = all
            .create_practice(flight(), Some(first.id.clone()))
            .await
            .expect_err("the code is taken");
        assert_eq!(refused, Denied::Rule(Error::Exists));
        assert!(
            all.deps.sealed.contains(&seed.commitment()),
            "the running flight's seed is still sealed"
        );
        all.stop();
    }
}
