//! The embedded default store: one SQLite file in WAL mode, `synchronous=FULL`.

use super::*;

/// The embedded default: one SQLite file in WAL mode.
pub struct SqliteStore {
    conn: rusqlite::Connection,
}

/// The migrations, in order: entry `i` brings the schema to version `i + 1`, recorded in
/// `schema_version` as on PostgreSQL (postgres.rs). Never edit one that has shipped; add the next.
/// (Each list is its own store's history: PostgreSQL started with the columns of 2 and has
/// leases, SQLite neither.)
const MIGRATIONS: [&str; 4] = [
    // 1: tables, their seats and their logs, as first shipped.
    "CREATE TABLE tables (
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
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        name TEXT,
        token_hash TEXT,
        bot INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE log (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        actor TEXT NOT NULL,
        client_id INTEGER,
        action TEXT NOT NULL,
        time_ms INTEGER NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID;",
    // 2: who sent each action (its seat token's occupant) and a referee's stated reason.
    "ALTER TABLE log ADD COLUMN occupant TEXT;
    ALTER TABLE log ADD COLUMN reason TEXT;",
    // 3: events (赛事) and their hash-chained logs (events.rs).
    "CREATE TABLE events (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        seed TEXT NOT NULL,
        seed_commitment TEXT NOT NULL,
        pair_secret TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE event_log (
        event_id TEXT NOT NULL REFERENCES events(id),
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        time_ms INTEGER NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (event_id, seq)
    ) WITHOUT ROWID;",
    // 4: practice players (a name and the hash of their personal code) and which sets each
    // began, or which events they played and as which entry (competitions.rs, issue 26).
    PLAYERS_MIGRATION,
];

/// Migration 4 here, 5 on PostgreSQL: the same statements on both.
pub(super) const PLAYERS_MIGRATION: &str = "CREATE TABLE players (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL,
        created_ms BIGINT NOT NULL
    );
    CREATE TABLE player_sets (
        player_id TEXT NOT NULL,
        set_id TEXT NOT NULL,
        began_ms BIGINT NOT NULL,
        entry TEXT,
        PRIMARY KEY (player_id, set_id)
    );";

/// Brings a database's schema up to date; the version it is at after. One transaction, begun
/// `IMMEDIATE` so that it holds the write lock from the start: the events' connection opens the
/// same file at the same moment and waits (`busy_timeout`) until this one has migrated, as a
/// second PostgreSQL node waits for the advisory lock.
fn migrate(conn: &mut rusqlite::Connection) -> Result<usize, StoreError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_version (
            version INTEGER NOT NULL,
            applied_ms INTEGER NOT NULL
        )",
    )?;
    let mut at = tx.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_version",
        [],
        |r| r.get::<_, i64>(0),
    )? as usize;
    if at == 0 {
        // Made before versions were recorded (or new): what is there says how far it got.
        // Those versions are recorded as found (`applied_ms` 0), not run again.
        at = unversioned_version(&tx)?;
        for version in 1..=at {
            tx.execute(
                "INSERT INTO schema_version (version, applied_ms) VALUES (?1, 0)",
                [version as i64],
            )?;
        }
    }
    check_schema_version(at, MIGRATIONS.len())?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(at) {
        tx.execute_batch(sql)?;
        tx.execute(
            "INSERT INTO schema_version (version, applied_ms) VALUES (?1, ?2)",
            rusqlite::params![i as i64 + 1, now_ms() as i64],
        )?;
    }
    tx.commit()?;
    Ok(MIGRATIONS.len())
}

/// The version of a database from before `schema_version`: how many of the migrations, in
/// order, left their mark (the table or column each makes). Such a database was made by a paiju
/// that ran the same statements without numbers: `CREATE TABLE IF NOT EXISTS` for 1 and 3 (3
/// when the event service first opened it), and 2's columns added when missing.
fn unversioned_version(conn: &rusqlite::Connection) -> Result<usize, StoreError> {
    let table = |name: &str| -> Result<bool, StoreError> {
        Ok(conn
            .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1")?
            .exists([name])?)
    };
    let column = |table: &str, name: &str| -> Result<bool, StoreError> {
        Ok(conn
            .prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2")?
            .exists([table, name])?)
    };
    let marks = [
        table("tables")?,
        column("log", "occupant")?,
        table("events")?,
    ];
    Ok(marks.iter().take_while(|&&made| made).count())
}

impl SqliteStore {
    /// Opens (or creates) the database and brings its schema up to date (`MIGRATIONS`).
    /// `synchronous=FULL`: a commit is on disk before the action is acknowledged, even across a
    /// power cut; group commit keeps that affordable.
    pub fn open(path: &std::path::Path) -> Result<SqliteStore, StoreError> {
        let mut conn = rusqlite::Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrate(&mut conn)?;
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
                    r.get::<_, String>(10)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(header, state)| {
                let state = parse_state(&header.id, &state)?;
                Ok((header, state))
            })
            .collect()
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

    /// [`Store::append`]'s rows and its COMMIT, inside the transaction it began.
    fn insert_and_commit(&self, entries: &[(String, LogEntry)]) -> Result<(), StoreError> {
        let mut st = self.conn.prepare_cached(
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
        self.conn.prepare_cached("COMMIT")?.execute([])?;
        Ok(())
    }
}

impl Store for SqliteStore {
    fn create_table(&mut self, t: &StoredTable) -> Result<bool, StoreError> {
        let tx = self.conn.transaction()?;
        let h = &t.header;
        let stored = tx.execute(
            "INSERT INTO tables (id, game, ruleset, options, deal_algorithm, seed, seed_commitment,
                                 board, fixed, created_ms, state)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
             ON CONFLICT (id) DO NOTHING",
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
        if stored == 0 {
            // The id is taken; the transaction is rolled back as it is dropped.
            return Ok(false);
        }
        for s in &t.seats {
            tx.execute(
                "INSERT INTO seats (table_id, seat, name, token_hash, bot) VALUES (?1, ?2, ?3, ?4, ?5)",
                rusqlite::params![h.id, s.seat as i64, s.name, s.token_hash, s.bot as i64],
            )?;
        }
        tx.commit()?;
        Ok(true)
    }

    fn append(&mut self, entries: &[(String, LogEntry)]) -> Result<(), StoreError> {
        // BEGIN and COMMIT come from the statement cache, as the insert does: rusqlite's
        // `transaction()` parses both anew on every call, a few µs of every action's commit
        // (docs/performance.md, "Eleventh round").
        self.conn.prepare_cached("BEGIN")?.execute([])?;
        let written = self.insert_and_commit(entries);
        if written.is_err() && !self.conn.is_autocommit() {
            // Nothing of a failed batch stays: the journal reloads the table from what is
            // stored. (A failed COMMIT may have rolled back already: then there is nothing to
            // undo.)
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        written
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

    fn ids(&mut self) -> Result<Vec<String>, StoreError> {
        self.all_ids()
    }
}
