//! PostgreSQL, for several nodes on one database (`paiju serve --db postgres://…`).
//!
//! The same schema as SQLite (`tables`, `seats`, `log` with its `(table_id, seq)` key; `events`
//! and `event_log`, whose [`CompetitionStore`] is in events.rs), plus `leases` and `event_leases`, who
//! serves which table and runs which event (lease.rs), and `schema_version`: migrations are
//! numbered and run at start, under an advisory lock so two nodes starting at once do not race.
//!
//! When the store belongs to a serving node (`node` is set), every write to a table checks, in
//! its own transaction, that this node holds the table's lease (`SELECT … FOR SHARE` on the lease
//! row): a node whose lease ran out, or was taken over, cannot append even one more entry, and a
//! node taking a table over (which updates that row) waits for a writer's transaction to finish,
//! then loads the log with that writer's entries in it. The `(table_id, seq)` key is the second
//! line: two writers can never both store entry *n*.
//!
//! Blocking, like every [`Store`]: the journal calls it on tokio's blocking pool
//! ([`Store::remote`]). It drives the asynchronous
//! `tokio-postgres` client with a current-thread runtime of its own rather than using the
//! synchronous `postgres` crate: that crate is exactly this wrapper (tokio-postgres plus a
//! current-thread runtime) and one crate more, while the lease code (lease.rs) needs the
//! asynchronous client on the server's runtime anyway.

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use tokio_postgres::{Client, NoTls};

use super::*;

/// The migrations, in order: entry `i` brings the schema to version `i + 1`. Never edit one
/// that has shipped; add the next.
const MIGRATIONS: [&str; 5] = [
    // 1: the event store, as in SQLite.
    "CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        options TEXT NOT NULL,
        deal_algorithm TEXT NOT NULL,
        seed TEXT NOT NULL,
        seed_commitment TEXT NOT NULL,
        board BIGINT NOT NULL,
        fixed TEXT NOT NULL DEFAULT '{}',
        created_ms BIGINT NOT NULL,
        state TEXT NOT NULL
    );
    CREATE INDEX tables_open ON tables (state) WHERE state <> 'closed';
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        name TEXT,
        token_hash TEXT,
        bot BOOLEAN NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE log (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq BIGINT NOT NULL,
        seat INTEGER NOT NULL,
        actor TEXT NOT NULL,
        client_id BIGINT,
        action TEXT NOT NULL,
        time_ms BIGINT NOT NULL,
        hash TEXT NOT NULL,
        occupant TEXT,
        reason TEXT,
        PRIMARY KEY (table_id, seq)
    );",
    // 2: which node serves which table, until when (database time).
    "CREATE TABLE leases (
        table_id TEXT PRIMARY KEY REFERENCES tables(id),
        owner TEXT NOT NULL,
        address TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX leases_owner ON leases (owner);",
    // 3: events (赛事) and their hash-chained logs, as in SQLite (events.rs), and which node runs
    // each event. An event's lease has a table of its own rather than `event:<id>` rows in
    // `leases`: both keep their foreign key, and the tables' lease queries stay as they are.
    "CREATE TABLE events (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        seed TEXT NOT NULL,
        seed_commitment TEXT NOT NULL,
        pair_secret TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        finished BOOLEAN NOT NULL DEFAULT false
    );
    -- A table dealing from an unfinished event's seed is that event's (lease.rs).
    CREATE INDEX competitions_running ON events (seed_commitment) WHERE NOT finished;
    CREATE TABLE event_log (
        event_id TEXT NOT NULL REFERENCES events(id),
        seq BIGINT NOT NULL,
        action TEXT NOT NULL,
        time_ms BIGINT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (event_id, seq)
    );
    CREATE TABLE event_leases (
        event_id TEXT PRIMARY KEY REFERENCES events(id),
        owner TEXT NOT NULL,
        address TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX event_leases_owner ON event_leases (owner);",
    // 4: one lobby across nodes (lease.rs, `Listed`): each lease row carries what the owner
    // lists of it (a table's summary, an event's brief), numbered from one sequence each time
    // it changes, so another node reads again only the rows that changed.
    "CREATE SEQUENCE listing_version;
    ALTER TABLE leases ADD COLUMN summary TEXT, ADD COLUMN listed BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE event_leases ADD COLUMN summary TEXT, ADD COLUMN listed BIGINT NOT NULL DEFAULT 0;",
    // 5: practice players and the sets each began, as SQLite's 4 (issue 26).
    super::sqlite::PLAYERS_MIGRATION,
];

/// Whether a `--db` value names PostgreSQL rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// A URL fit to print: the password, if any, replaced by `***`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (auth, host) = match rest.split_once('@') {
        Some((a, h)) => (Some(a), h),
        None => (None, rest),
    };
    match auth.and_then(|a| a.split_once(':')) {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        // The database's own message (a duplicate key, a lost connection) is in the source.
        match e.as_db_error() {
            Some(db) => StoreError(format!("postgres: {}: {}", db.code().code(), db.message())),
            None => StoreError(format!("postgres: {e}")),
        }
    }
}

/// Brings a database's schema up to date; the version it is at after.
pub(super) async fn migrate(client: &mut Client) -> Result<usize, StoreError> {
    let tx = client.transaction().await?;
    // One migrating node at a time; the lock ends with the transaction.
    tx.execute("SELECT pg_advisory_xact_lock(73511500)", &[])
        .await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_version (
            version INTEGER NOT NULL,
            applied_ms BIGINT NOT NULL
        )",
    )
    .await?;
    let at: i32 = tx
        .query_one("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[])
        .await?
        .get(0);
    let at = at as usize;
    check_schema_version(at, MIGRATIONS.len())?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(at) {
        tx.batch_execute(sql).await?;
        tx.execute(
            "INSERT INTO schema_version (version, applied_ms) VALUES ($1, $2)",
            &[&(i as i32 + 1), &(now_ms() as i64)],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(MIGRATIONS.len())
}

/// Connects (no TLS: loopback or a private network) and spawns the connection's task on
/// whatever runtime is current.
pub(super) async fn connect(url: &str) -> Result<Client, StoreError> {
    let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %e, "postgres connection ended");
        }
    });
    Ok(client)
}

/// A serving node, as its leases name it.
#[derive(Clone, Debug)]
pub struct Node {
    /// Random per process start: a restarted node is a new node (its old leases expire, or are
    /// taken over at once since they name the same address).
    pub id: String,
    /// Where clients reach it (`--advertise`), e.g. `http://10.0.0.2:8080`: what a node that does
    /// not serve a table tells a client.
    pub address: String,
    /// How long a lease lasts unless renewed.
    pub lease: Duration,
}

impl Node {
    pub fn lease_ms(&self) -> f64 {
        self.lease.as_secs_f64() * 1000.0
    }

    /// How often the owner renews: five times a lease, so a slow round or two does not lose it.
    pub fn renew_every(&self) -> Duration {
        self.lease / 5
    }
}

/// The store over PostgreSQL.
pub struct PostgresStore {
    url: String,
    /// The serving node whose leases fence every write to a table; `None` for tools (`verify`,
    /// `migrate`, tests) that serve no table.
    node: Option<Node>,
    /// Drives the asynchronous client on the thread that calls the store: its tasks (the connection) run
    /// only inside `block_on`, which is exactly while a call waits for the database. `None` only
    /// while being dropped ([`Drop`]).
    rt: Option<tokio::runtime::Runtime>,
    /// `None` until connected, and again after the connection broke (reconnects on next use).
    client: Option<Client>,
}

impl PostgresStore {
    /// Connects and migrates. Blocking: call it off the async runtime (`spawn_blocking`, or a
    /// plain thread).
    pub fn open(url: &str, node: Option<Node>) -> Result<PostgresStore, StoreError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StoreError(format!("runtime: {e}")))?;
        let mut client = rt.block_on(connect(url))?;
        rt.block_on(migrate(&mut client))?;
        Ok(PostgresStore {
            url: url.to_string(),
            node,
            rt: Some(rt),
            client: Some(client),
        })
    }

    /// The serving node whose leases fence this store's writes, if any.
    pub(super) fn node(&self) -> Option<Node> {
        self.node.clone()
    }

    /// The runtime and a live client (reconnecting if the connection broke).
    pub(super) fn parts(&mut self) -> Result<(&tokio::runtime::Runtime, &mut Client), StoreError> {
        if self.client.as_ref().is_none_or(|c| c.is_closed()) {
            self.client = None;
            let rt = self.rt.as_ref().expect("the store's runtime");
            self.client = Some(rt.block_on(connect(&self.url))?);
        }
        Ok((
            self.rt.as_ref().expect("the store's runtime"),
            self.client.as_mut().expect("connected"),
        ))
    }

    /// Runs SQL with no results (tests and tools, e.g. tampering with a row on purpose).
    pub fn execute(&mut self, sql: &str) -> Result<u64, StoreError> {
        let (rt, client) = self.parts()?;
        Ok(rt.block_on(client.execute(sql, &[]))?)
    }

    /// The tables of these headers with their seats and logs: two queries for all of them (a
    /// node taking over thousands of tables, or restarting, read them two queries a table).
    async fn load(
        client: &Client,
        headers: Vec<(TableHeader, TableState)>,
    ) -> Result<Vec<StoredTable>, StoreError> {
        let ids: Vec<&str> = headers.iter().map(|(h, _)| h.id.as_str()).collect();
        let mut seats: HashMap<String, Vec<SeatRecord>> = HashMap::new();
        for r in client
            .query(
                "SELECT table_id, seat, name, token_hash, bot FROM seats
                 WHERE table_id = ANY($1) ORDER BY table_id, seat",
                &[&ids],
            )
            .await?
        {
            seats.entry(r.get(0)).or_default().push(SeatRecord {
                seat: r.get::<_, i32>(1) as usize,
                name: r.get(2),
                token_hash: r.get(3),
                bot: r.get(4),
            });
        }
        let mut logs: HashMap<String, Vec<LogEntry>> = HashMap::new();
        for r in client
            .query(
                "SELECT table_id, seq, seat, actor, client_id, action, time_ms, hash, occupant,
                        reason
                 FROM log WHERE table_id = ANY($1) ORDER BY table_id, seq",
                &[&ids],
            )
            .await?
        {
            logs.entry(r.get(0)).or_default().push(LogEntry {
                seq: r.get::<_, i64>(1) as u64,
                seat: r.get::<_, i32>(2) as usize,
                // An unknown actor name cannot hash to the stored value: verify() flags it.
                actor: Actor::parse(r.get(3)).unwrap_or(Actor::Referee),
                client_id: r.get::<_, Option<i64>>(4).map(|i| i as u64),
                action: r.get(5),
                time_ms: r.get::<_, i64>(6) as u64,
                hash: r.get(7),
                occupant: r.get(8),
                reason: r.get(9),
            });
        }
        Ok(headers
            .into_iter()
            .map(|(header, state)| StoredTable {
                seats: seats.remove(&header.id).unwrap_or_default(),
                log: logs.remove(&header.id).unwrap_or_default(),
                header,
                state,
            })
            .collect())
    }

    async fn headers(
        client: &Client,
        filter: &str,
        arg: &(dyn tokio_postgres::types::ToSql + Sync),
    ) -> Result<Vec<(TableHeader, TableState)>, StoreError> {
        let sql = format!(
            "SELECT id, game, ruleset, options, deal_algorithm, seed, seed_commitment, board,
                    fixed, created_ms, state FROM tables WHERE {filter} ORDER BY created_ms, id"
        );
        client
            .query(&sql, &[arg])
            .await?
            .iter()
            .map(|r| {
                let header = TableHeader {
                    id: r.get(0),
                    game: r.get(1),
                    ruleset: r.get(2),
                    options: r.get(3),
                    deal_algorithm: r.get(4),
                    seed: r.get(5),
                    seed_commitment: r.get(6),
                    board: r.get::<_, i64>(7) as u32,
                    fixed: r.get(8),
                    created_ms: r.get::<_, i64>(9) as u64,
                };
                let state = parse_state(&header.id, r.get(10))?;
                Ok((header, state))
            })
            .collect()
    }
}

impl Drop for PostgresStore {
    /// The store may be dropped on a thread of the server's runtime (the event service's store
    /// is, at shutdown), where dropping a runtime the normal way panics: shut ours down without
    /// waiting (its only task is the connection, which has nothing left to do).
    fn drop(&mut self) {
        self.client = None;
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

/// Inside a write transaction: fails unless `node` holds the lease of every table named, and
/// keeps those lease rows from changing hands until the transaction ends. No node: no check.
async fn fence(
    tx: &tokio_postgres::Transaction<'_>,
    node: Option<&Node>,
    tables: &[&str],
) -> Result<(), StoreError> {
    let Some(node) = node else {
        return Ok(());
    };
    let held: BTreeSet<String> = tx
        .query(
            "SELECT table_id FROM leases
             WHERE table_id = ANY($1) AND owner = $2 AND expires_at > now()
             ORDER BY table_id FOR SHARE",
            &[&tables, &node.id],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    match tables.iter().find(|t| !held.contains(**t)) {
        None => Ok(()),
        Some(lost) => Err(StoreError(format!(
            "lease lost: node {} no longer holds table {lost}",
            node.id
        ))),
    }
}

impl Store for PostgresStore {
    fn create_table(&mut self, t: &StoredTable) -> Result<bool, StoreError> {
        let node = self.node.clone();
        let (rt, client) = self.parts()?;
        rt.block_on(async {
            let tx = client.transaction().await?;
            let h = &t.header;
            let stored = tx
                .execute(
                    "INSERT INTO tables (id, game, ruleset, options, deal_algorithm, seed,
                                     seed_commitment, board, fixed, created_ms, state)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 ON CONFLICT (id) DO NOTHING",
                    &[
                        &h.id,
                        &h.game,
                        &h.ruleset,
                        &h.options,
                        &h.deal_algorithm,
                        &h.seed,
                        &h.seed_commitment,
                        &(h.board as i64),
                        &h.fixed,
                        &(h.created_ms as i64),
                        &state_name(t.state),
                    ],
                )
                .await?;
            if stored == 0 {
                // The id is taken (another node's table): rolled back as it is dropped.
                return Ok(false);
            }
            for s in &t.seats {
                tx.execute(
                    "INSERT INTO seats (table_id, seat, name, token_hash, bot)
                     VALUES ($1, $2, $3, $4, $5)",
                    &[&h.id, &(s.seat as i32), &s.name, &s.token_hash, &s.bot],
                )
                .await?;
            }
            // The node that creates a table serves it: its lease is born with it.
            if let Some(node) = &node {
                tx.execute(
                    "INSERT INTO leases (table_id, owner, address, expires_at)
                     VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')",
                    &[&h.id, &node.id, &node.address, &node.lease_ms()],
                )
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    fn append(&mut self, entries: &[(String, LogEntry)]) -> Result<(), StoreError> {
        let node = self.node.clone();
        let (rt, client) = self.parts()?;
        let mut tables: Vec<&str> = entries.iter().map(|(t, _)| t.as_str()).collect();
        tables.sort_unstable();
        tables.dedup();
        // One statement for the whole batch: columns as arrays, unnested into rows.
        let col = |f: fn(&(String, LogEntry)) -> Option<String>| -> Vec<Option<String>> {
            entries.iter().map(f).collect()
        };
        let table_ids: Vec<&str> = entries.iter().map(|(t, _)| t.as_str()).collect();
        let seqs: Vec<i64> = entries.iter().map(|(_, e)| e.seq as i64).collect();
        let seats: Vec<i32> = entries.iter().map(|(_, e)| e.seat as i32).collect();
        let actors: Vec<&str> = entries.iter().map(|(_, e)| e.actor.name()).collect();
        let client_ids: Vec<Option<i64>> = entries
            .iter()
            .map(|(_, e)| e.client_id.map(|i| i as i64))
            .collect();
        let actions: Vec<&str> = entries.iter().map(|(_, e)| e.action.as_str()).collect();
        let times: Vec<i64> = entries.iter().map(|(_, e)| e.time_ms as i64).collect();
        let hashes: Vec<&str> = entries.iter().map(|(_, e)| e.hash.as_str()).collect();
        let occupants = col(|(_, e)| e.occupant.clone());
        let reasons = col(|(_, e)| e.reason.clone());
        rt.block_on(async {
            let tx = client.transaction().await?;
            fence(&tx, node.as_ref(), &tables).await?;
            tx.execute(
                "INSERT INTO log (table_id, seq, seat, actor, client_id, action, time_ms, hash,
                                  occupant, reason)
                 SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::int[], $4::text[],
                                      $5::bigint[], $6::text[], $7::bigint[], $8::text[],
                                      $9::text[], $10::text[])",
                &[
                    &table_ids,
                    &seqs,
                    &seats,
                    &actors,
                    &client_ids,
                    &actions,
                    &times,
                    &hashes,
                    &occupants,
                    &reasons,
                ],
            )
            .await?;
            // Nothing is acknowledged before this returns: the commit is durable
            // (synchronous_commit, PostgreSQL's default).
            tx.commit().await?;
            Ok(())
        })
    }

    fn set_seat(&mut self, table: &str, s: &SeatRecord) -> Result<(), StoreError> {
        let node = self.node.clone();
        let (rt, client) = self.parts()?;
        rt.block_on(async {
            let tx = client.transaction().await?;
            fence(&tx, node.as_ref(), &[table]).await?;
            tx.execute(
                "INSERT INTO seats (table_id, seat, name, token_hash, bot)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (table_id, seat)
                 DO UPDATE SET name = $3, token_hash = $4, bot = $5",
                &[&table, &(s.seat as i32), &s.name, &s.token_hash, &s.bot],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn set_state(&mut self, table: &str, state: TableState) -> Result<(), StoreError> {
        let node = self.node.clone();
        let (rt, client) = self.parts()?;
        rt.block_on(async {
            let tx = client.transaction().await?;
            fence(&tx, node.as_ref(), &[table]).await?;
            tx.execute(
                "UPDATE tables SET state = $2 WHERE id = $1",
                &[&table, &state_name(state)],
            )
            .await?;
            // A closed table is served by no one: its lease goes with it.
            if state == TableState::Closed {
                tx.execute("DELETE FROM leases WHERE table_id = $1", &[&table])
                    .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn open_tables(&mut self) -> Result<Vec<StoredTable>, StoreError> {
        let (rt, client) = self.parts()?;
        rt.block_on(async {
            let open = Self::headers(client, "state <> $1", &"closed").await?;
            Self::load(client, open).await
        })
    }

    fn table(&mut self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        Ok(self.tables(&[id.to_string()])?.pop())
    }

    fn tables(&mut self, ids: &[String]) -> Result<Vec<StoredTable>, StoreError> {
        let (rt, client) = self.parts()?;
        rt.block_on(async {
            let found = Self::headers(client, "id = ANY($1)", &ids).await?;
            Self::load(client, found).await
        })
    }

    fn ids(&mut self) -> Result<Vec<String>, StoreError> {
        let (rt, client) = self.parts()?;
        rt.block_on(async {
            Ok(client
                .query("SELECT id FROM tables ORDER BY created_ms, id", &[])
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect())
        })
    }

    fn remote(&self) -> bool {
        true
    }
}

/// For tests: a fresh, empty database on the server named by `PAIJU_TEST_POSTGRES` (which
/// `scripts/test` starts); its URL. Panics with what to do when the variable is unset: a test
/// that needs PostgreSQL fails rather than being skipped.
pub fn test_database(name: &str) -> String {
    let admin = std::env::var("PAIJU_TEST_POSTGRES").unwrap_or_else(|_| {
        panic!(
            "PAIJU_TEST_POSTGRES is not set: this test needs PostgreSQL. Run scripts/test (it \
             starts a throwaway cluster), or set PAIJU_TEST_POSTGRES=postgres://user@host:port/db"
        )
    });
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let db = format!(
        "paiju_{}_{}_{}",
        name.to_ascii_lowercase()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .take(24)
            .collect::<String>(),
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let admin2 = admin.clone();
    let db2 = db.clone();
    // Its own thread and runtime: callers may be inside an async test.
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let client = connect(&admin2)
                .await
                .unwrap_or_else(|e| panic!("PAIJU_TEST_POSTGRES={}: {e}", redact(&admin2)));
            // One statement a call: CREATE DATABASE refuses to run in a transaction, which
            // several statements in one call are.
            for sql in [
                format!("DROP DATABASE IF EXISTS {db2}"),
                format!("CREATE DATABASE {db2}"),
            ] {
                client
                    .batch_execute(&sql)
                    .await
                    .unwrap_or_else(|e| panic!("{sql}: {}", StoreError::from(e)));
            }
        })
    })
    .join()
    .expect("the test database is made");
    // Same server and user, the new database.
    let (base, query) = match admin.split_once('?') {
        Some((b, q)) => (b.to_string(), format!("?{q}")),
        None => (admin.clone(), String::new()),
    };
    let after_scheme = base.find("://").map(|i| i + 3).unwrap_or(0);
    let server = match base[after_scheme..].find('/') {
        Some(i) => &base[..after_scheme + i],
        None => &base[..],
    };
    format!("{server}/{db}{query}")
}
