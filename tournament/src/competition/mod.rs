//! 赛事 (competitions): a competition as a pure state machine over its log, as a table's engine
//! is over its own. The director's steps, the players' and what the server logs for them (a
//! table opened, a board's result) are the log's actions; [`Competition::apply`] checks one
//! against the state and applies it (a refusal changes nothing); a competition is rebuilt by
//! applying its log in order ([`Competition::replay`]). No I/O, no clocks: where a rule depends
//! on time (the round clock, lateness) the time is in the action.
//!
//! Two kinds, two types behind one small trait ([`Competition`]), as `TableGame` is for tables:
//!
//! - [`duplicate`]: 80分 duplicate pairs (计副制) over a Mitchell movement ([`Duplicate`]).
//! - [`teams`]: 够级 team matches, the knockout and the final's rotation ([`Teams`]).
//! - [`practice`]: a practice set (练习牌套), boards anyone plays at any time with computers,
//!   scored against everyone who played them ([`Practice`], one type a game).
//!
//! Each kind has the actions it can have and no other: an 80分 log has no draw, a 够级 log no
//! board. The server runs a competition (its registry, its runner that opens the tables
//! [`Competition::tables_now`] names and logs what they report, its routes and printed pages);
//! this module never knows a socket or a clock.
//!
//! - [`spec`]: what the director creates and the entries as typed.
//! - [`error`]: every refusal, with its code, its words and how it is answered.
//! - [`conduct`]: the terms a competition's tables play under, and the seats' connection
//!   history.

pub mod conduct;
pub mod duplicate;
pub mod error;
pub mod practice;
pub mod spec;
pub mod teams;
mod text;

use std::fmt::Debug;

use rules::deal::Seed;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use conduct::{Conduct, SeatTerms, Tally, Visit};
pub use duplicate::Duplicate;
pub use error::{Error, Field, Refused};
pub use practice::Practice;
pub use spec::{Entry, PracticeTerms, Spec};
pub use teams::Teams;

use crate::gouji::GameRecord;
use crate::seat::Seat;

/// What every competition holds, whatever its kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Common {
    pub id: String,
    /// As created (the entries taken out: the kind holds them); the ruleset is always named.
    pub spec: Spec,
    /// The seq of the log entry that registered the entries (their tokens derive from it); 0:
    /// none yet.
    pub registered: u64,
    /// The last round started (0: none).
    pub round: u32,
    /// The last round closed.
    pub closed: u32,
    /// The seed is revealed: the competition is finished.
    pub revealed: bool,
    /// Revealed after fewer rounds than planned.
    pub early: bool,
    /// The seats' connection history.
    pub conduct: Conduct,
}

impl Common {
    fn new(id: &str, mut spec: Spec) -> (Common, Vec<Entry>) {
        let entries = std::mem::take(&mut spec.entries);
        let common = Common {
            id: id.to_string(),
            spec,
            registered: 0,
            round: 0,
            closed: 0,
            revealed: false,
            early: false,
            conduct: Conduct::default(),
        };
        (common, entries)
    }

    /// The round being played: started, not closed.
    pub fn playing(&self) -> Option<u32> {
        (self.round > self.closed).then_some(self.round)
    }

    pub fn finished(&self) -> bool {
        self.revealed
    }

    /// What `need`'s table plays under besides its deal.
    pub fn terms(&self, need: &TableNeed) -> SeatTerms {
        SeatTerms {
            competition: self.id.clone(),
            round: need.round,
            table: need.table,
            second_device: self.spec.second_device,
            auto_play: self.spec.auto_play,
            prior_timeouts: need.prior_timeouts.clone(),
            practice: self.spec.practice.is_some(),
        }
    }

    /// `round` is the one being played.
    fn in_play(&self, round: u32) -> Result<(), Error> {
        match self.playing() {
            Some(r) if r == round => Ok(()),
            _ => Err(Error::NotPlaying { round }),
        }
    }

    /// `round` may start now: the next one, the last one closed.
    fn may_start(&self, round: u32) -> Result<(), Error> {
        if round != self.round + 1 || self.closed != self.round {
            return Err(Error::CannotStart {
                round,
                last: self.round,
                last_closed: self.closed == self.round,
            });
        }
        Ok(())
    }

    /// Entries change until round 1 starts.
    /// Logs connections to the seats: while the competition runs (a finished one changes no
    /// more).
    fn visited(&mut self, visits: &[Visit]) -> Result<(), Error> {
        if self.finished() {
            return Err(Error::Finished);
        }
        self.conduct.extend(visits);
        Ok(())
    }

    fn may_register(&self) -> Result<(), Error> {
        if self.round > 0 {
            return Err(Error::EntriesClosed);
        }
        Ok(())
    }
}

/// A table a competition needs dealing now: the runner opens one where there is none (or the
/// last closed unplayed) and logs what it reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableNeed {
    pub round: u32,
    /// The table of the round (80分: of the movement; 够级: the match, or the final's table).
    pub table: u32,
    /// What that table plays now: the board (80分) or the game (够级).
    pub slot: u32,
    /// The deal number the table is dealt with the competition's seed.
    pub deal: u32,
    /// The seats computers take (a computer pair's or team's), in order.
    pub computers: Vec<usize>,
    /// The table logged as opened for it, if any.
    pub table_id: Option<String>,
    /// 80分: each seat's player's timeouts on the earlier boards of the count
    /// ([`conduct::TimeoutsCounted`]); empty: none.
    pub prior_timeouts: Vec<u8>,
    /// How strong the computers play (`beginner`, `club`, `expert`); the default when `None`.
    pub level: Option<String>,
}

/// What a finished table reports, as a competition scores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableResult {
    /// 80分: the declarer's seat and the defenders' points (penalties in).
    Board { declarer: Seat, defenders: i32 },
    /// 够级: the game's record.
    Game(GameRecord),
}

/// A referee's ruling at a table (seed 000 三.7: either side may ask the referee to check the
/// played cards after a board): the table's log entry and the referee's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruling {
    /// The entry of the table's log that made it.
    pub table_seq: u64,
    pub reason: String,
}

/// What a table reports: its result, the ruling that made or last changed it, if any, and the
/// seats' conduct on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableReport {
    pub result: TableResult,
    pub ruling: Option<Ruling>,
    pub tally: Tally,
}

impl TableReport {
    /// A result as played: no ruling, nothing in the tally.
    pub fn of(result: TableResult) -> TableReport {
        TableReport {
            result,
            ruling: None,
            tally: Tally::default(),
        }
    }
}

/// One kind of competition: its log's actions and how they apply, what it needs of tables.
pub trait Competition: Clone + Debug + Send + Sync + Sized + 'static {
    /// The entries of this kind's log; their JSON (`{"type": …}`) is what the chain hashes.
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// The wire name of the game its tables deal (`rules`' engine).
    const GAME: &'static str;
    /// The kind's name as the store keeps it (`events.game`): the game's name for a director's
    /// event (80分 pairs, 够级 teams: what every log before practice sets says), the game's
    /// with `-practice` for a practice set.
    const KIND: &'static str = Self::GAME;

    /// The competition a `create` entry makes: the spec checked (entries given are registered).
    fn create(id: &str, spec: &Spec) -> Result<Self, Error>;
    /// Names in a new spec, before it is logged, what this build chooses where the director
    /// said nothing and an older log's silence must keep meaning what it meant then.
    fn name_defaults(spec: &mut Spec) {
        let _ = spec;
    }
    /// Applies one logged action (`seq`: where it is logged). On `Err` nothing changed.
    fn apply(&mut self, seq: u64, action: &Self::Action) -> Result<(), Error>;
    fn common(&self) -> &Common;
    /// Rounds planned (or, 够级, known so far).
    fn rounds(&self) -> u32;
    /// The tables that must be dealing now.
    fn tables_now(&self) -> Vec<TableNeed>;

    // The actions every kind has, made by the server.
    fn created(spec: Spec) -> Self::Action;
    /// The spec of a `create` action.
    fn creation(action: &Self::Action) -> Option<&Spec>;
    /// The entries registered (a kind without entries refuses).
    fn register(entries: Vec<Entry>) -> Result<Self::Action, Error>;
    fn add_entries(entries: Vec<Entry>) -> Result<Self::Action, Error>;
    fn start_round(round: u32, at_ms: u64) -> Self::Action;
    fn close_round(round: u32, forced: bool) -> Self::Action;
    fn reveal(early: bool) -> Self::Action;
    /// The action that logs a table opened for `need`.
    fn opened(need: &TableNeed, table_id: String) -> Self::Action;
    /// The action that logs what `need`'s table reported (`None`: not a result of this kind).
    fn result(need: &TableNeed, table_id: String, report: TableReport) -> Option<Self::Action>;
    /// The action that logs connections to the competition's seats.
    fn visited(visits: Vec<Visit>) -> Self::Action;
    /// The results of the round being played that came from their tables and may still be
    /// revised by a ruling there (not those the director settled), with the result as logged.
    fn revisable(&self) -> Vec<(TableNeed, TableResult)>;
    /// The action that logs a table's revised result (`None`: not a result of this kind).
    fn revised(need: &TableNeed, table_id: String, report: TableReport) -> Option<Self::Action>;
    /// Tables whose work is over without them: their round is closed, or what they were to
    /// play was settled otherwise (the director's result) or is not played any more. The server
    /// closes those still open (they count against its cap, and nobody plays there).
    fn idle_tables(&self) -> Vec<String>;
    /// What the server logs by itself before tables open (a 够级 round's draw from the seed).
    fn due(&self, _seed: &Seed) -> Result<Option<Self::Action>, Error> {
        Ok(None)
    }
    /// The action's name, as its JSON `type` (for the server's logs).
    fn action_name(action: &Self::Action) -> &'static str;

    /// Rebuilds a competition from its log's actions: the first creates it; a refused entry is
    /// named by its seq.
    fn replay(id: &str, log: &[(u64, Self::Action)]) -> Result<Self, (u64, Error)> {
        let mut entries = log.iter();
        let (seq, first) = entries.next().ok_or((1, Error::Exists))?;
        let spec = Self::creation(first).ok_or((*seq, Error::Exists))?;
        let mut c = Self::create(id, spec).map_err(|e| (*seq, e))?;
        for (seq, action) in entries {
            c.apply(*seq, action).map_err(|e| (*seq, e))?;
        }
        Ok(c)
    }
}

/// The competition's state as shown: registering, running or finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Registering,
    Running,
    Finished,
}

impl Common {
    pub fn stage(&self) -> Stage {
        if self.finished() {
            Stage::Finished
        } else if self.round == 0 {
            Stage::Registering
        } else {
            Stage::Running
        }
    }
}
