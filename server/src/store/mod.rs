//! The event store: the log is the truth (design principle 3).
//!
//! Every accepted action becomes a [`LogEntry`] appended before it is acknowledged or broadcast.
//! Entries are chained: each one's hash covers the previous hash, so editing, dropping or
//! reordering an entry (or the table's header) is detected by [`verify`]. A table's
//! [`TableHeader`] records the game, ruleset and options, the deal algorithm's version and the
//! seed's commitment; the seed itself is kept for re-dealing and shown only to a referee or after
//! the table is over.
//!
//! [`Store`] is the one trait the server writes through (SQLite here, PostgreSQL later: see
//! docs/operations.md). [`Journal`] puts any store on its own thread and commits whatever has
//! queued up in one transaction (group commit), so a thousand tables share a few fsyncs.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use protocol::{Actor, TableState};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot};

mod chain;
// Events (赛事): their own rows and hash-chained log, behind their own small trait.
mod events;
mod journal;
mod sqlite;

pub use chain::{entry_hash, genesis, occupant, verify, Tampered};
pub use events::{
    event_entry_hash, event_genesis, verify_event, EventEntry, EventHeader, EventStore, StoredEvent,
};
pub use journal::{Journal, JournalThread};
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
    /// of [`crate::game::DealFixed`]; `{}` when nothing was fixed. Part of the deal, so part of
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

/// Where tables and their logs live. Blocking calls: [`Journal`] runs them on their own thread.
pub trait Store: Send {
    fn create_table(&mut self, table: &StoredTable) -> Result<(), StoreError>;
    /// Appends entries of any tables in one transaction: all or nothing.
    fn append(&mut self, entries: &[(String, LogEntry)]) -> Result<(), StoreError>;
    fn set_seat(&mut self, table: &str, seat: &SeatRecord) -> Result<(), StoreError>;
    fn set_state(&mut self, table: &str, state: TableState) -> Result<(), StoreError>;
    /// Every table not closed, with seats and log: what a restarted server rebuilds.
    fn open_tables(&mut self) -> Result<Vec<StoredTable>, StoreError>;
    /// One table, whatever its state.
    fn table(&mut self, id: &str) -> Result<Option<StoredTable>, StoreError>;
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn header() -> TableHeader {
        let seed = rules::deal::Seed([9; 32]);
        TableHeader {
            id: "t1".into(),
            game: "shengji".into(),
            ruleset: "fujian-2024".into(),
            options: "{}".into(),
            deal_algorithm: rules::deal::ALGORITHM.into(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            board: 1,
            fixed: "{}".into(),
            created_ms: 1,
        }
    }

    fn chain(header: &TableHeader, n: u64) -> Vec<LogEntry> {
        let mut prev = genesis(header);
        (1..=n)
            .map(|seq| {
                let mut e = LogEntry {
                    seq,
                    seat: (seq % 4) as usize,
                    actor: Actor::Player,
                    client_id: Some(seq),
                    occupant: None,
                    reason: None,
                    action: format!(r#"{{"type":"play","n":{seq}}}"#),
                    time_ms: 1000 + seq,
                    hash: String::new(),
                };
                e.hash = entry_hash(&prev, &e);
                prev = e.hash.clone();
                e
            })
            .collect()
    }

    #[test]
    fn a_clean_chain_verifies_and_any_edit_is_caught() {
        let h = header();
        let log = chain(&h, 5);
        assert_eq!(verify(&h, &log), Ok(()));

        let mut edited = log.clone();
        edited[2].action = r#"{"type":"play","n":99}"#.into();
        assert_eq!(verify(&h, &edited), Err(Tampered::Hash { seq: 3 }));

        let mut dropped = log.clone();
        dropped.remove(1);
        assert_eq!(
            verify(&h, &dropped),
            Err(Tampered::Gap { index: 1, seq: 3 })
        );

        let mut other_seat = log.clone();
        other_seat[4].seat = 0;
        assert_eq!(verify(&h, &other_seat), Err(Tampered::Hash { seq: 5 }));

        let mut h2 = h.clone();
        h2.board = 2;
        assert_eq!(verify(&h2, &log), Err(Tampered::Hash { seq: 1 }));

        let mut h3 = h.clone();
        h3.seed = rules::deal::Seed([8; 32]).to_hex();
        assert_eq!(verify(&h3, &log), Err(Tampered::Seed));
    }

    #[test]
    fn sqlite_round_trips_through_the_journal() {
        let dir = std::env::temp_dir().join(format!("paiju-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.db");
        let _ = std::fs::remove_file(&path);
        let h = header();
        let log = chain(&h, 3);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        {
            let (journal, thread) = Journal::start(
                Box::new(SqliteStore::open(&path).unwrap()),
                Default::default(),
            );
            rt.block_on(async {
                journal
                    .create_table(StoredTable {
                        header: h.clone(),
                        state: TableState::Waiting,
                        seats: vec![SeatRecord {
                            seat: 0,
                            name: Some("老王".into()),
                            token_hash: Some("ab".into()),
                            bot: false,
                        }],
                        log: vec![],
                    })
                    .await
                    .unwrap();
                for e in &log {
                    journal.append("t1", e.clone()).await.unwrap();
                }
                // A duplicate seq is refused (the primary key), never silently stored twice.
                assert!(journal.append("t1", log[0].clone()).await.is_err());
                journal.set_state("t1", TableState::Playing).await.unwrap();
            });
            drop(journal);
            thread.join();
        }
        let mut store = SqliteStore::open(&path).unwrap();
        let open = store.open_tables().unwrap();
        assert_eq!(open.len(), 1);
        assert_eq!(open[0].header, h);
        assert_eq!(open[0].log, log);
        assert_eq!(open[0].state, TableState::Playing);
        assert_eq!(open[0].seats[0].name.as_deref(), Some("老王"));
        assert_eq!(verify(&open[0].header, &open[0].log), Ok(()));
        store.set_state("t1", TableState::Closed).unwrap();
        assert!(store.open_tables().unwrap().is_empty());
        assert!(store.table("t1").unwrap().is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
