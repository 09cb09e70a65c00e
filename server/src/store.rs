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

use std::time::{SystemTime, UNIX_EPOCH};

use protocol::{Actor, TableState};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot};

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

fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
        h.update([0x1f]); // unit separator: no field can run into the next
    }
    rules::deal::hex(&h.finalize())
}

/// The chain's first link: a hash of the header. Changing the ruleset, seed commitment or board
/// after the fact breaks every entry's hash.
pub fn genesis(header: &TableHeader) -> String {
    sha256_hex(&[
        b"paiju-log-1",
        header.id.as_bytes(),
        header.game.as_bytes(),
        header.ruleset.as_bytes(),
        header.options.as_bytes(),
        header.deal_algorithm.as_bytes(),
        header.seed_commitment.as_bytes(),
        header.board.to_string().as_bytes(),
        header.fixed.as_bytes(),
        header.created_ms.to_string().as_bytes(),
    ])
}

/// The log's name for a seat token's holder: the first 16 hex digits of the token's hash
/// (enough to tell occupants apart, useless for guessing the token).
pub fn occupant(token_hash: &str) -> String {
    token_hash.chars().take(16).collect()
}

/// An entry's hash: SHA-256 over the previous hash and every field but the hash itself.
/// `occupant` and `reason` are hashed only when present, so entries written before they
/// existed keep their hashes.
pub fn entry_hash(prev: &str, e: &LogEntry) -> String {
    let client_id = e.client_id.map(|i| i.to_string()).unwrap_or_default();
    let (seq, seat, time) = (e.seq.to_string(), e.seat.to_string(), e.time_ms.to_string());
    let mut parts: Vec<&[u8]> = vec![
        prev.as_bytes(),
        seq.as_bytes(),
        seat.as_bytes(),
        e.actor.name().as_bytes(),
        client_id.as_bytes(),
        e.action.as_bytes(),
        time.as_bytes(),
    ];
    if let Some(o) = &e.occupant {
        parts.push(b"occupant");
        parts.push(o.as_bytes());
    }
    if let Some(r) = &e.reason {
        parts.push(b"reason");
        parts.push(r.as_bytes());
    }
    sha256_hex(&parts)
}

/// Why a stored log cannot be trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tampered {
    /// The seed does not match its published commitment.
    Seed,
    /// Entry number `index` (0-based) does not carry the seq that follows its predecessor.
    Gap { index: usize, seq: u64 },
    /// The entry with this seq does not hash to what is stored (it, or something before it,
    /// was edited).
    Hash { seq: u64 },
}

impl std::fmt::Display for Tampered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tampered::Seed => write!(f, "the seed does not match its commitment"),
            Tampered::Gap { index, seq } => write!(f, "entry {index} has seq {seq}: a gap"),
            Tampered::Hash { seq } => write!(f, "entry {seq} does not match its hash"),
        }
    }
}

/// Checks a stored table: the seed against its commitment, seqs 1..n without gaps, and every
/// hash of the chain.
pub fn verify(header: &TableHeader, log: &[LogEntry]) -> Result<(), Tampered> {
    let seed_ok = rules::deal::Seed::from_hex(&header.seed)
        .map(|s| s.commitment() == header.seed_commitment)
        .unwrap_or(false);
    if !seed_ok {
        return Err(Tampered::Seed);
    }
    let mut prev = genesis(header);
    for (index, e) in log.iter().enumerate() {
        if e.seq != index as u64 + 1 {
            return Err(Tampered::Gap { index, seq: e.seq });
        }
        let h = entry_hash(&prev, e);
        if h != e.hash {
            return Err(Tampered::Hash { seq: e.seq });
        }
        prev = h;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SQLite
// ---------------------------------------------------------------------------------------------

/// The embedded default: one SQLite file in WAL mode.
pub struct SqliteStore {
    conn: rusqlite::Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    options TEXT NOT NULL,
    deal_algorithm TEXT NOT NULL,
    seed TEXT NOT NULL,
    seed_commitment TEXT NOT NULL,
    board INTEGER NOT NULL,
    fixed TEXT NOT NULL DEFAULT '{}',
    created_ms INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT,
    token_hash TEXT,
    bot INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    actor TEXT NOT NULL,
    client_id INTEGER,
    action TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    hash TEXT NOT NULL,
    occupant TEXT,
    reason TEXT,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
";

/// Columns added after the first schema, for databases made before them.
const ADDED_COLUMNS: [(&str, &str, &str); 2] =
    [("log", "occupant", "TEXT"), ("log", "reason", "TEXT")];

fn state_name(s: TableState) -> &'static str {
    match s {
        TableState::Waiting => "waiting",
        TableState::Playing => "playing",
        TableState::Over => "over",
        TableState::Closed => "closed",
    }
}

fn parse_state(s: &str) -> TableState {
    match s {
        "waiting" => TableState::Waiting,
        "playing" => TableState::Playing,
        "over" => TableState::Over,
        _ => TableState::Closed,
    }
}

impl SqliteStore {
    /// Opens (or creates) the database. `synchronous=FULL`: a commit is on disk before the
    /// action is acknowledged, even across a power cut; group commit keeps that affordable.
    pub fn open(path: &std::path::Path) -> Result<SqliteStore, StoreError> {
        let conn = rusqlite::Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        for (table, column, kind) in ADDED_COLUMNS {
            let has: bool = conn
                .prepare(&format!(
                    "SELECT 1 FROM pragma_table_info('{table}') WHERE name = ?1"
                ))?
                .exists([column])?;
            if !has {
                conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {kind}"))?;
            }
        }
        Ok(SqliteStore { conn })
    }

    fn load(&self, header_row: (TableHeader, TableState)) -> Result<StoredTable, StoreError> {
        let (header, state) = header_row;
        let mut st = self.conn.prepare_cached(
            "SELECT seat, name, token_hash, bot FROM seats WHERE table_id = ?1 ORDER BY seat",
        )?;
        let seats = st
            .query_map([&header.id], |r| {
                Ok(SeatRecord {
                    seat: r.get::<_, i64>(0)? as usize,
                    name: r.get(1)?,
                    token_hash: r.get(2)?,
                    bot: r.get::<_, i64>(3)? != 0,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut st = self.conn.prepare_cached(
            "SELECT seq, seat, actor, client_id, action, time_ms, hash, occupant, reason FROM log
             WHERE table_id = ?1 ORDER BY seq",
        )?;
        let log = st
            .query_map([&header.id], |r| {
                let actor: String = r.get(2)?;
                Ok(LogEntry {
                    seq: r.get::<_, i64>(0)? as u64,
                    seat: r.get::<_, i64>(1)? as usize,
                    // An unknown actor name cannot hash to the stored value: verify() flags it.
                    actor: Actor::parse(&actor).unwrap_or(Actor::Referee),
                    client_id: r.get::<_, Option<i64>>(3)?.map(|i| i as u64),
                    action: r.get(4)?,
                    time_ms: r.get::<_, i64>(5)? as u64,
                    hash: r.get(6)?,
                    occupant: r.get(7)?,
                    reason: r.get(8)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(StoredTable {
            header,
            state,
            seats,
            log,
        })
    }

    fn headers(
        &self,
        filter: &str,
        arg: &str,
    ) -> Result<Vec<(TableHeader, TableState)>, StoreError> {
        let sql = format!(
            "SELECT id, game, ruleset, options, deal_algorithm, seed, seed_commitment, board,
                    fixed, created_ms, state FROM tables WHERE {filter} ORDER BY created_ms, id"
        );
        let mut st = self.conn.prepare(&sql)?;
        let rows = st
            .query_map([arg], |r| {
                Ok((
                    TableHeader {
                        id: r.get(0)?,
                        game: r.get(1)?,
                        ruleset: r.get(2)?,
                        options: r.get(3)?,
                        deal_algorithm: r.get(4)?,
                        seed: r.get(5)?,
                        seed_commitment: r.get(6)?,
                        board: r.get::<_, i64>(7)? as u32,
                        fixed: r.get(8)?,
                        created_ms: r.get::<_, i64>(9)? as u64,
                    },
                    parse_state(&r.get::<_, String>(10)?),
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Every table's id (for `paiju verify`).
    pub fn all_ids(&self) -> Result<Vec<String>, StoreError> {
        let mut st = self
            .conn
            .prepare("SELECT id FROM tables ORDER BY created_ms, id")?;
        let ids = st
            .query_map([], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    /// Direct access for tools and tests (e.g. the tamper test edits a row).
    pub fn connection(&self) -> &rusqlite::Connection {
        &self.conn
    }
}

impl Store for SqliteStore {
    fn create_table(&mut self, t: &StoredTable) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        let h = &t.header;
        tx.execute(
            "INSERT INTO tables (id, game, ruleset, options, deal_algorithm, seed, seed_commitment,
                                 board, fixed, created_ms, state)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            rusqlite::params![
                h.id,
                h.game,
                h.ruleset,
                h.options,
                h.deal_algorithm,
                h.seed,
                h.seed_commitment,
                h.board as i64,
                h.fixed,
                h.created_ms as i64,
                state_name(t.state)
            ],
        )?;
        for s in &t.seats {
            tx.execute(
                "INSERT INTO seats (table_id, seat, name, token_hash, bot) VALUES (?1, ?2, ?3, ?4, ?5)",
                rusqlite::params![h.id, s.seat as i64, s.name, s.token_hash, s.bot as i64],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn append(&mut self, entries: &[(String, LogEntry)]) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        {
            let mut st = tx.prepare_cached(
                "INSERT INTO log (table_id, seq, seat, actor, client_id, action, time_ms, hash,
                                  occupant, reason)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?;
            for (table, e) in entries {
                st.execute(rusqlite::params![
                    table,
                    e.seq as i64,
                    e.seat as i64,
                    e.actor.name(),
                    e.client_id.map(|i| i as i64),
                    e.action,
                    e.time_ms as i64,
                    e.hash,
                    e.occupant,
                    e.reason
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn set_seat(&mut self, table: &str, s: &SeatRecord) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO seats (table_id, seat, name, token_hash, bot) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (table_id, seat) DO UPDATE SET name = ?3, token_hash = ?4, bot = ?5",
            rusqlite::params![table, s.seat as i64, s.name, s.token_hash, s.bot as i64],
        )?;
        Ok(())
    }

    fn set_state(&mut self, table: &str, state: TableState) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE tables SET state = ?2 WHERE id = ?1",
            rusqlite::params![table, state_name(state)],
        )?;
        Ok(())
    }

    fn open_tables(&mut self) -> Result<Vec<StoredTable>, StoreError> {
        self.headers("state != ?1", "closed")?
            .into_iter()
            .map(|h| self.load(h))
            .collect()
    }

    fn table(&mut self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        match self.headers("id = ?1", id)?.into_iter().next() {
            Some(h) => Ok(Some(self.load(h)?)),
            None => Ok(None),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The journal: one writer thread, group commit
// ---------------------------------------------------------------------------------------------

/// One request to the writer thread, with where to send the outcome.
enum Op {
    Create(Box<StoredTable>, oneshot::Sender<Result<(), StoreError>>),
    Append(String, LogEntry, oneshot::Sender<Result<(), StoreError>>),
    Seat(String, SeatRecord, oneshot::Sender<Result<(), StoreError>>),
    State(String, TableState, oneshot::Sender<Result<(), StoreError>>),
    /// Read one table back (rebuilding a table after a failed write), after every write queued
    /// before it.
    Load(
        String,
        oneshot::Sender<Result<Option<StoredTable>, StoreError>>,
    ),
    /// Commit everything queued before this, then end the thread.
    Stop(oneshot::Sender<Result<(), StoreError>>),
}

/// The async face of a [`Store`]: requests queue on a bounded channel to one thread, which
/// commits every append that has queued up in one transaction. Cloned by every table.
#[derive(Clone)]
pub struct Journal {
    /// Bounded: when the disk is slower than the tables, tables wait here instead of memory
    /// growing.
    tx: mpsc::Sender<Op>,
}

/// The writer thread; join it after every [`Journal`] clone is dropped to be sure the last
/// writes are on disk.
pub struct JournalThread(std::thread::JoinHandle<()>);

impl JournalThread {
    pub fn join(self) {
        let _ = self.0.join();
    }
}

/// Most appends one transaction takes (bounds the latency of the first in a batch).
const BATCH: usize = 512;

impl Journal {
    pub fn start(mut store: Box<dyn Store>) -> (Journal, JournalThread) {
        let (tx, mut rx) = mpsc::channel::<Op>(4096);
        let thread = std::thread::Builder::new()
            .name("paiju-journal".into())
            .spawn(move || {
                let mut pending: Vec<Op> = Vec::new();
                while let Some(first) = rx.blocking_recv() {
                    pending.push(first);
                    while pending.len() < BATCH {
                        match rx.try_recv() {
                            Ok(op) => pending.push(op),
                            Err(_) => break,
                        }
                    }
                    if run_batch(store.as_mut(), std::mem::take(&mut pending)) {
                        return;
                    }
                }
            })
            .expect("spawn the journal thread");
        (Journal { tx }, JournalThread(thread))
    }

    async fn call(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<(), StoreError>>) -> Op,
    ) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(make(tx))
            .await
            .map_err(|_| StoreError("the journal has stopped".into()))?;
        rx.await
            .unwrap_or_else(|_| Err(StoreError("the journal has stopped".into())))
    }

    pub async fn create_table(&self, t: StoredTable) -> Result<(), StoreError> {
        self.call(|r| Op::Create(Box::new(t), r)).await
    }

    /// Returns once the entry is committed (durable).
    pub async fn append(&self, table: &str, e: LogEntry) -> Result<(), StoreError> {
        self.call(|r| Op::Append(table.to_string(), e, r)).await
    }

    pub async fn set_seat(&self, table: &str, s: SeatRecord) -> Result<(), StoreError> {
        self.call(|r| Op::Seat(table.to_string(), s, r)).await
    }

    pub async fn set_state(&self, table: &str, state: TableState) -> Result<(), StoreError> {
        self.call(|r| Op::State(table.to_string(), state, r)).await
    }

    /// One stored table as it is on disk now, after every write queued before this call.
    pub async fn load(&self, table: &str) -> Result<Option<StoredTable>, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(Op::Load(table.to_string(), tx))
            .await
            .map_err(|_| StoreError("the journal has stopped".into()))?;
        rx.await
            .unwrap_or_else(|_| Err(StoreError("the journal has stopped".into())))
    }

    /// Commits everything queued so far and ends the writer thread (graceful shutdown).
    pub async fn stop(&self) {
        let _ = self.call(Op::Stop).await;
    }
}

/// Runs queued operations in order; consecutive appends share one transaction. True when a
/// `Stop` was among them.
fn run_batch(store: &mut dyn Store, ops: Vec<Op>) -> bool {
    let mut appends: Vec<(String, LogEntry)> = Vec::new();
    let mut waiting: Vec<oneshot::Sender<Result<(), StoreError>>> = Vec::new();
    let flush = |store: &mut dyn Store,
                 appends: &mut Vec<(String, LogEntry)>,
                 waiting: &mut Vec<oneshot::Sender<Result<(), StoreError>>>| {
        if appends.is_empty() {
            return;
        }
        let result = store.append(appends);
        appends.clear();
        for w in waiting.drain(..) {
            let _ = w.send(result.clone());
        }
    };
    for op in ops {
        match op {
            Op::Append(t, e, r) => {
                appends.push((t, e));
                waiting.push(r);
            }
            Op::Stop(r) => {
                flush(store, &mut appends, &mut waiting);
                let _ = r.send(Ok(()));
                return true;
            }
            Op::Load(t, r) => {
                flush(store, &mut appends, &mut waiting);
                let _ = r.send(store.table(&t));
            }
            other => {
                flush(store, &mut appends, &mut waiting);
                let (result, reply) = match other {
                    Op::Create(t, r) => (store.create_table(&t), r),
                    Op::Seat(t, s, r) => (store.set_seat(&t, &s), r),
                    Op::State(t, s, r) => (store.set_state(&t, s), r),
                    Op::Append(..) | Op::Stop(_) | Op::Load(..) => unreachable!(),
                };
                let _ = reply.send(result);
            }
        }
    }
    flush(store, &mut appends, &mut waiting);
    false
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
            let (journal, thread) = Journal::start(Box::new(SqliteStore::open(&path).unwrap()));
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
