//! The event store: the log is the truth (design principle 3).
//!
//! Every accepted action becomes a [`LogEntry`] appended before it is acknowledged or broadcast.
//! Entries are chained: each one's hash covers the previous hash, so editing, dropping or
//! reordering an entry (or the table's header) is detected by [`verify`]. A table's
//! [`TableHeader`] records the game, ruleset and options, the deal algorithm's version and the
//! seed's commitment; the seed itself is kept for re-dealing and shown only to a referee or after
//! the table is over.
//!
//! [`Store`] is the one trait the server writes through: [`SqliteStore`] (the embedded default,
//! one file) or [`PostgresStore`] (several nodes on one database, `--db postgres://…`), chosen by
//! [`open()`]. [`Journal`] puts any store behind one queue and commits whatever has queued up in
//! one transaction (group commit), so a thousand tables share a few fsyncs. Past one machine,
//! [`Leases`] say which node serves which table (docs/operations.md, "Past one machine").

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use protocol::{Actor, TableState};
use sha2::{Digest, Sha256};
use tokio::sync::oneshot;

mod chain;
// Events (赛事): their own rows and hash-chained log, behind their own small trait.
mod competitions;
mod journal;
pub mod lease;
// Which store a `--db` names: it knows both backends, which know this file's types.
mod open;
pub mod postgres;
mod sqlite;
#[cfg(test)]
pub(crate) mod tests;

pub use chain::{entry_hash, genesis, occupant, verify, Tampered};
pub use competitions::{
    competition_entry_hash, competition_genesis, replayed, verify_competition, CompetitionEntry,
    CompetitionHeader, CompetitionStore, PlayerRecord, PlayerSet, StoredCompetition,
};
pub use journal::Journal;
pub use lease::{Leases, Listed, Owner};
pub use open::{open, open_competitions};
pub use postgres::{is_postgres_url, Node, PostgresStore};
pub use sqlite::SqliteStore;

/// What a table is, fixed when it is created. Part of the hash chain's first link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableHeader {
    /// The table's short code.
    pub id: String,
    /// `shengji` or `gouji` (or a test game's name).
    pub game: String,
    pub ruleset: String,
    /// The ruleset's options as JSON (what the engine reports), so a referee knows exactly what
    /// was enforced even if a ruleset's defaults change later.
    pub options: String,
    /// `rules::deal::ALGORITHM` at creation.
    pub deal_algorithm: String,
    /// The seed (64 hex). Secret until the table is over, except to referees.
    pub seed: String,
    /// SHA-256 of the seed: public from the start.
    pub seed_commitment: String,
    /// Board (80分) or game (够级) number dealt from the seed.
    pub board: u32,
    /// What the director fixed instead of drawing it from the seed (80分 定级、定主), as the JSON
    /// of [`crate::table::DealFixed`]; `{}` when nothing was fixed. Part of the deal, so part of
    /// the chain's first link.
    pub fixed: String,
    /// Unix milliseconds.
    pub created_ms: u64,
}

/// One seat's record: who sits there and the hash of their token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    pub seat: usize,
    /// `None`: the seat is empty (never taken, or left).
    pub name: Option<String>,
    /// SHA-256 of the seat token; `None` for bots and empty seats.
    pub token_hash: Option<String>,
    pub bot: bool,
}

/// One accepted action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// 1, 2, 3, ... without gaps: the `seq` clients see.
    pub seq: u64,
    /// The seat that acted (or whose clock ran out, or who was ruled against).
    pub seat: usize,
    pub actor: Actor,
    /// The client's action id, so a resent id is answered after a restart too.
    pub client_id: Option<u64>,
    /// Who sent it: [`occupant`] of the seat token for a player's action, `referee` for a
    /// referee's. Action ids are unique per occupant, so a stranger who later takes the same
    /// seat and reuses an id is not answered with the previous occupant's ack.
    pub occupant: Option<String>,
    /// A referee's stated reason (a ruling's grounds, or why they moved on a seat's behalf).
    pub reason: Option<String>,
    /// The engine's action, as JSON text.
    pub action: String,
    /// Server time, Unix milliseconds.
    pub time_ms: u64,
    /// SHA-256 (hex) over the previous hash and this entry's fields: see [`entry_hash`].
    pub hash: String,
}

/// A table as stored: enough to rebuild it.
#[derive(Clone, Debug)]
pub struct StoredTable {
    pub header: TableHeader,
    pub state: TableState,
    pub seats: Vec<SeatRecord>,
    pub log: Vec<LogEntry>,
}

/// A failed store operation (disk full, database locked too long, corrupt file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "store: {}", self.0)
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(e.to_string())
    }
}

/// Where tables and their logs live. Blocking calls: [`Journal`] says on which thread they run.
pub trait Store: Send {
    /// Stores a new table. False, storing nothing, if its id is taken: the lobby checks a code
    /// is free before it asks, but a creation on another node, or another on this one in the
    /// same moment, may take the code in between.
    fn create_table(&mut self, table: &StoredTable) -> Result<bool, StoreError>;
    /// Appends entries of any tables in one transaction: all or nothing.
    fn append(&mut self, entries: &[(String, LogEntry)]) -> Result<(), StoreError>;
    fn set_seat(&mut self, table: &str, seat: &SeatRecord) -> Result<(), StoreError>;
    fn set_state(&mut self, table: &str, state: TableState) -> Result<(), StoreError>;
    /// Every table not closed, with seats and log: what a restarted server rebuilds.
    fn open_tables(&mut self) -> Result<Vec<StoredTable>, StoreError>;
    /// One table, whatever its state.
    fn table(&mut self, id: &str) -> Result<Option<StoredTable>, StoreError>;
    /// Several tables, whatever their state; an id not stored is left out. A node taking over
    /// a dead one's tables reads them this way: PostgreSQL answers for a batch in three queries
    /// where a table at a time took three each.
    fn tables(&mut self, ids: &[String]) -> Result<Vec<StoredTable>, StoreError> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            out.extend(self.table(id)?);
        }
        Ok(out)
    }
    /// Every table's id, closed ones too, oldest first (`paiju verify`, `paiju migrate`).
    fn ids(&mut self) -> Result<Vec<String>, StoreError>;
    /// True when a call waits on another process over the network (PostgreSQL): [`Journal`]
    /// then calls it on tokio's blocking pool, not on the runtime thread that asked, as a
    /// round trip may take longer than a local sync and the client runs a runtime of its own.
    fn remote(&self) -> bool {
        false
    }
}

/// A table's state as both stores keep it in `tables.state`.
fn state_name(s: TableState) -> &'static str {
    match s {
        TableState::Waiting => "waiting",
        TableState::Playing => "playing",
        TableState::Over => "over",
        TableState::Closed => "closed",
    }
}

/// A stored state read back. One this paiju does not know (written by a newer one, or by hand)
/// is an error naming it: read as closed, the table would silently never be rebuilt.
fn parse_state(table: &str, s: &str) -> Result<TableState, StoreError> {
    match s {
        "waiting" => Ok(TableState::Waiting),
        "playing" => Ok(TableState::Playing),
        "over" => Ok(TableState::Over),
        "closed" => Ok(TableState::Closed),
        other => Err(StoreError(format!(
            "table {table} has the unknown state {other:?} (known: waiting, playing, over, closed)"
        ))),
    }
}

/// Refuses a database whose schema is newer than this paiju's migrations (`known` of them):
/// writing to it could undo what the newer one relies on.
fn check_schema_version(at: usize, known: usize) -> Result<(), StoreError> {
    if at > known {
        return Err(StoreError(format!(
            "the database's schema is version {at}, newer than this paiju knows ({known}): \
             upgrade paiju"
        )));
    }
    Ok(())
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
