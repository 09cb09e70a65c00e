//! The store's tests: one suite, two backends. Every test of a [`Store`] and of an
//! [`CompetitionStore`] runs against SQLite and against PostgreSQL (a fresh database on the server
//! `PAIJU_TEST_POSTGRES` names, which `scripts/test` starts; unset, the test fails and says so).
//! Then the PostgreSQL-only tests: migrations, leases fencing writes (tables' and events'), and
//! two nodes racing for one table.

use super::*;

/// Opens a new connection to one test's store (called again to reopen it).
type Factory = Box<dyn Fn() -> Box<dyn Store>>;

/// The backends, each with a fresh, empty store for the test `name`.
fn backends(name: &str) -> Vec<(&'static str, Factory)> {
    // Moved into the factory: the folder lives as long as it does.
    let db = sqlite_db("store", name);
    let url = postgres::test_database(name);
    vec![
        (
            "sqlite",
            Box::new(move || Box::new(SqliteStore::open(db.path()).unwrap()) as Box<dyn Store>),
        ),
        (
            "postgres",
            Box::new(move || Box::new(PostgresStore::open(&url, None).unwrap()) as Box<dyn Store>),
        ),
    ]
}

/// A SQLite file in a folder of its own; the folder goes when this is dropped, pass or fail, so
/// it must outlive the stores that open the file.
pub(crate) struct TempDb(std::path::PathBuf);

impl TempDb {
    pub(crate) fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A SQLite file that does not exist yet, in a fresh folder for the test `name`.
pub(crate) fn sqlite_db(kind: &str, name: &str) -> TempDb {
    let dir = std::env::temp_dir().join(format!(
        "paiju-{kind}-{name}-{}-{}",
        std::process::id(),
        now_ms()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.db");
    let _ = std::fs::remove_file(&path);
    TempDb(path)
}

pub(crate) fn header(id: &str) -> TableHeader {
    let seed = rules::deal::Seed([9; 32]);
    TableHeader {
        id: id.into(),
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

pub(crate) fn table(id: &str) -> StoredTable {
    StoredTable {
        header: header(id),
        state: TableState::Waiting,
        seats: vec![SeatRecord {
            seat: 0,
            name: Some("老王".into()),
            token_hash: Some("ab".into()),
            bot: false,
        }],
        log: vec![],
    }
}

/// Entries `from..=to` of a chain that goes on from `prev`; `tag` makes two writers' entries
/// differ.
fn entries(prev: &str, from: u64, to: u64, tag: &str) -> Vec<LogEntry> {
    let mut prev = prev.to_string();
    (from..=to)
        .map(|seq| {
            let mut e = LogEntry {
                seq,
                seat: (seq % 4) as usize,
                actor: Actor::Player,
                client_id: Some(seq),
                occupant: Some("0123456789abcdef".into()),
                reason: (seq % 3 == 0).then(|| format!("理由 {tag}")),
                action: format!(r#"{{"type":"play","n":{seq},"by":"{tag}"}}"#),
                time_ms: 1000 + seq,
                hash: String::new(),
            };
            e.hash = entry_hash(&prev, &e);
            prev = e.hash.clone();
            e
        })
        .collect()
}

fn chain(header: &TableHeader, n: u64) -> Vec<LogEntry> {
    entries(&genesis(header), 1, n, "")
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn a_clean_chain_verifies_and_any_edit_is_caught() {
    let h = header("t1");
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

/// A second table under a stored id is refused with `false`, not an error, and stores nothing:
/// the first table's header and seats stay as they were, and the store goes on.
#[test]
fn a_table_under_a_taken_id_stores_nothing_and_says_so() {
    for (backend, open) in backends("taken_id") {
        let mut store = open();
        let first = table("t1");
        assert!(store.create_table(&first).unwrap(), "{backend}");
        let mut second = table("t1");
        second.header.board = 7;
        second.seats.push(SeatRecord {
            seat: 1,
            name: Some("小李".into()),
            token_hash: None,
            bot: true,
        });
        assert!(!store.create_table(&second).unwrap(), "{backend}");
        let back = store.table("t1").unwrap().unwrap();
        assert_eq!(
            (&back.header, &back.seats),
            (&first.header, &first.seats),
            "{backend}"
        );
        assert!(store.create_table(&table("t2")).unwrap(), "{backend}");
        assert_eq!(store.ids().unwrap(), ["t1", "t2"], "{backend}");
    }
}

#[test]
fn a_batch_with_a_refused_row_stores_none_of_it_and_the_next_batch_goes_in() {
    for (backend, open) in backends("refused_batch") {
        let h = header("t1");
        let log = chain(&h, 3);
        let mut store = open();
        store.create_table(&table("t1")).unwrap();
        let rows = |entries: &[&LogEntry]| -> Vec<(String, LogEntry)> {
            entries
                .iter()
                .map(|e| ("t1".to_string(), (*e).clone()))
                .collect()
        };
        store.append(&rows(&[&log[0], &log[1]])).unwrap();
        // Seq 3 is new, seq 1 a duplicate: the batch fails whole, seq 3 is not kept.
        assert!(
            store.append(&rows(&[&log[2], &log[0]])).is_err(),
            "{backend}"
        );
        assert_eq!(
            store.table("t1").unwrap().unwrap().log,
            log[..2],
            "{backend}"
        );
        // The failed batch left no transaction open: the next one commits.
        store.append(&rows(&[&log[2]])).unwrap();
        assert_eq!(store.table("t1").unwrap().unwrap().log, log, "{backend}");
        drop(store);
        assert_eq!(open().table("t1").unwrap().unwrap().log, log, "{backend}");
    }
}

#[test]
fn round_trips_through_the_journal() {
    for (backend, open) in backends("round_trip") {
        let h = header("t1");
        let log = chain(&h, 3);
        let rt = rt();
        {
            let journal = Journal::new(open(), Default::default());
            rt.block_on(async {
                journal.create_table(table("t1")).await.unwrap();
                for e in &log {
                    journal.append("t1", e.clone()).await.unwrap();
                }
                // A duplicate seq is refused (the primary key), never silently stored twice.
                assert!(
                    journal.append("t1", log[0].clone()).await.is_err(),
                    "{backend}"
                );
                journal.set_state("t1", TableState::Playing).await.unwrap();
                let mut seat = table("t1").seats[0].clone();
                seat.seat = 2;
                seat.bot = true;
                seat.token_hash = None;
                journal.set_seat("t1", seat).await.unwrap();
                let loaded = journal.load("t1").await.unwrap().unwrap();
                assert_eq!(loaded.log, log, "{backend}");
            });
            drop(journal);
        }
        let mut store = open();
        let open_now = store.open_tables().unwrap();
        assert_eq!(open_now.len(), 1, "{backend}");
        let t = &open_now[0];
        assert_eq!(t.header, h, "{backend}");
        assert_eq!(t.log, log, "{backend}");
        assert_eq!(t.state, TableState::Playing, "{backend}");
        assert_eq!(t.seats.len(), 2, "{backend}");
        assert_eq!(t.seats[0].name.as_deref(), Some("老王"), "{backend}");
        assert_eq!(t.seats[0].token_hash.as_deref(), Some("ab"), "{backend}");
        assert!(t.seats[1].bot && t.seats[1].seat == 2, "{backend}");
        assert_eq!(verify(&t.header, &t.log), Ok(()), "{backend}");
        store.set_state("t1", TableState::Closed).unwrap();
        assert!(store.open_tables().unwrap().is_empty(), "{backend}");
        assert!(store.table("t1").unwrap().is_some(), "{backend}");
        assert!(store.table("nope").unwrap().is_none(), "{backend}");
        assert_eq!(store.ids().unwrap(), ["t1"], "{backend}");
    }
}

/// Tables read several at once (a node taking over a dead one's, through the journal) come back
/// each with its own header, state, seats and log, whatever their order in the request; an id
/// not stored is left out, a closed table is read as one.
#[test]
fn several_tables_read_at_once_are_each_as_written() {
    for (backend, open) in backends("tables_at_once") {
        let rt = rt();
        let journal = Journal::new(open(), Default::default());
        let lengths = [("t1", 0u64), ("t2", 1), ("t3", 5), ("t4", 12)];
        let mut want: std::collections::HashMap<&str, (Vec<LogEntry>, Vec<SeatRecord>)> =
            Default::default();
        rt.block_on(async {
            for (i, (id, n)) in lengths.iter().enumerate() {
                journal.create_table(table(id)).await.unwrap();
                let log = chain(&header(id), *n);
                for e in &log {
                    journal.append(id, e.clone()).await.unwrap();
                }
                let mut seats = table(id).seats;
                // Each table a different number of seats: 1 to 4.
                for k in 1..=i {
                    let mut s = seats[0].clone();
                    s.seat = k;
                    s.name = Some(format!("{id} 座{k}"));
                    journal.set_seat(id, s.clone()).await.unwrap();
                    seats.push(s);
                }
                want.insert(id, (log, seats));
            }
            journal.set_state("t3", TableState::Playing).await.unwrap();
            journal.set_state("t2", TableState::Closed).await.unwrap();
            let asked: Vec<String> = ["t3", "nope", "t1", "t4", "t2"]
                .into_iter()
                .map(String::from)
                .collect();
            let got = journal.load_many(asked).await.unwrap();
            let mut ids: Vec<&str> = got.iter().map(|t| t.header.id.as_str()).collect();
            ids.sort();
            assert_eq!(ids, ["t1", "t2", "t3", "t4"], "{backend}");
            for t in &got {
                let id = t.header.id.as_str();
                let (log, seats) = &want[id];
                assert_eq!(t.header, header(id), "{backend} {id}");
                assert_eq!(&t.log, log, "{backend} {id}");
                assert_eq!(&t.seats, seats, "{backend} {id}");
                let state = match id {
                    "t3" => TableState::Playing,
                    "t2" => TableState::Closed,
                    _ => TableState::Waiting,
                };
                assert_eq!(t.state, state, "{backend} {id}");
                // One at a time, the same.
                let alone = journal.load(id).await.unwrap().unwrap();
                assert_eq!(
                    (&alone.log, &alone.seats),
                    (&t.log, &t.seats),
                    "{backend} {id}"
                );
            }
            assert!(journal.load("nope").await.unwrap().is_none(), "{backend}");
            assert!(
                journal.load_many(Vec::new()).await.unwrap().is_empty(),
                "{backend}"
            );
        });
        drop(journal);
    }
}

/// A store that counts its transactions and checks that no two overlap, each append taking a
/// sync's time (2 ms) so that callers pile up as they do on a real disk; remote as asked (a
/// store over the network always).
struct Watched {
    store: Box<dyn Store>,
    remote: bool,
    busy: Arc<std::sync::atomic::AtomicBool>,
    appends: Arc<std::sync::atomic::AtomicUsize>,
}

impl Store for Watched {
    fn create_table(&mut self, t: &StoredTable) -> Result<bool, StoreError> {
        self.store.create_table(t)
    }
    fn append(&mut self, entries: &[(String, LogEntry)]) -> Result<(), StoreError> {
        use std::sync::atomic::Ordering::SeqCst;
        assert!(!self.busy.swap(true, SeqCst), "two commits at once");
        std::thread::sleep(std::time::Duration::from_millis(2));
        let r = self.store.append(entries);
        self.appends.fetch_add(1, SeqCst);
        self.busy.store(false, SeqCst);
        r
    }
    fn set_seat(&mut self, table: &str, seat: &SeatRecord) -> Result<(), StoreError> {
        self.store.set_seat(table, seat)
    }
    fn set_state(&mut self, table: &str, state: TableState) -> Result<(), StoreError> {
        self.store.set_state(table, state)
    }
    fn open_tables(&mut self) -> Result<Vec<StoredTable>, StoreError> {
        self.store.open_tables()
    }
    fn table(&mut self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        self.store.table(id)
    }
    fn ids(&mut self) -> Result<Vec<String>, StoreError> {
        self.store.ids()
    }
    fn remote(&self) -> bool {
        self.remote || self.store.remote()
    }
}

/// Many tables appending at once on two runtime threads, the commit made by whichever caller
/// finds the store free (or, for a store over the network, on the blocking pool): every append
/// is answered, stored once and in order, never two transactions at once, far fewer
/// transactions than appends (group commit); after `stop` every call is refused and nothing more
/// is stored.
#[test]
fn many_tables_appending_at_once_share_commits_one_at_a_time() {
    use std::sync::atomic::Ordering::SeqCst;
    const TABLES: usize = 40;
    const EACH: u64 = 15;
    for (backend, open) in backends("shared_commits") {
        for remote in [false, true] {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            let appends = Arc::new(std::sync::atomic::AtomicUsize::new(0));
            let journal = Journal::new(
                Box::new(Watched {
                    store: open(),
                    remote,
                    busy: Default::default(),
                    appends: appends.clone(),
                }),
                Default::default(),
            );
            let ids: Vec<String> = (0..TABLES).map(|i| format!("m{remote}{i}")).collect();
            rt.block_on(async {
                let tasks: Vec<_> = ids
                    .iter()
                    .map(|id| {
                        let (journal, id) = (journal.clone(), id.clone());
                        tokio::spawn(async move {
                            journal.create_table(table(&id)).await.unwrap();
                            for e in chain(&header(&id), EACH) {
                                journal.append(&id, e).await.unwrap();
                            }
                        })
                    })
                    .collect();
                for t in tasks {
                    t.await.unwrap();
                }
                let stored = journal.load_many(ids.clone()).await.unwrap();
                assert_eq!(stored.len(), TABLES, "{backend} remote {remote}");
                for t in &stored {
                    assert_eq!(t.log, chain(&t.header, EACH), "{backend} remote {remote}");
                }
                let commits = appends.load(SeqCst);
                let total = TABLES * EACH as usize;
                assert!(
                    commits * 4 <= total,
                    "{backend} remote {remote}: {commits} transactions for {total} appends"
                );
                journal.stop().await;
                let late = chain(&header(&ids[0]), EACH + 1).pop().unwrap();
                assert_eq!(
                    journal.append(&ids[0], late).await,
                    Err(StoreError("the journal has stopped".into()))
                );
                assert!(journal.load(&ids[0]).await.is_err());
                assert_eq!(appends.load(SeqCst), commits, "{backend} remote {remote}");
            });
            let mut store = open();
            let t = store.table(&ids[0]).unwrap().unwrap();
            assert_eq!(t.log.len() as u64, EACH, "{backend} remote {remote}");
        }
    }
}

/// A store whose append panics (a bug): the caller that was committing loses its task, and every
/// request then, queued or later, is refused at once rather than left waiting for ever.
#[test]
fn a_store_that_panics_ends_the_journal_instead_of_hanging_it() {
    struct Panics;
    impl Store for Panics {
        fn create_table(&mut self, _: &StoredTable) -> Result<bool, StoreError> {
            Ok(true)
        }
        fn append(&mut self, _: &[(String, LogEntry)]) -> Result<(), StoreError> {
            std::thread::sleep(std::time::Duration::from_millis(20));
            panic!("a bug in the store")
        }
        fn set_seat(&mut self, _: &str, _: &SeatRecord) -> Result<(), StoreError> {
            Ok(())
        }
        fn set_state(&mut self, _: &str, _: TableState) -> Result<(), StoreError> {
            Ok(())
        }
        fn open_tables(&mut self) -> Result<Vec<StoredTable>, StoreError> {
            Ok(vec![])
        }
        fn table(&mut self, _: &str) -> Result<Option<StoredTable>, StoreError> {
            Ok(None)
        }
        fn ids(&mut self) -> Result<Vec<String>, StoreError> {
            Ok(vec![])
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let journal = Journal::new(Box::new(Panics), Default::default());
    rt.block_on(async {
        journal.create_table(table("p")).await.unwrap();
        let log = chain(&header("p"), 3);
        let first = tokio::spawn({
            let journal = journal.clone();
            let e = log[0].clone();
            async move { journal.append("p", e).await }
        });
        // Queued behind the commit that panics.
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let queued = journal.append("p", log[1].clone());
        let queued = tokio::time::timeout(std::time::Duration::from_secs(5), queued).await;
        assert_eq!(
            queued,
            Ok(Err(StoreError("the journal has stopped".into())))
        );
        assert!(first.await.unwrap_err().is_panic());
        let later = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            journal.set_state("p", TableState::Playing),
        )
        .await;
        assert_eq!(later, Ok(Err(StoreError("the journal has stopped".into()))));
    });
}

#[test]
fn one_tables_refused_entry_does_not_fail_the_others_in_its_batch() {
    for (backend, open) in backends("batch") {
        let mut store = open();
        for id in ["a", "b"] {
            store.create_table(&table(id)).unwrap();
        }
        let a = chain(&header("a"), 2);
        let b = chain(&header("b"), 2);
        store.append(&[("a".into(), a[0].clone())]).unwrap();
        // One group commit: a's seq 1 again (refused), b's 1 and 2, a's 2.
        let mut waiting = Vec::new();
        let mut pending = journal::Pending::default();
        for (t, e) in [("a", &a[0]), ("b", &b[0]), ("b", &b[1]), ("a", &a[1])] {
            let (tx, rx) = oneshot::channel();
            pending.push(t.to_string(), e.clone(), tx);
            waiting.push((t, rx));
        }
        journal::flush(store.as_mut(), &mut pending, &Default::default());
        let results: Vec<(&str, bool)> = waiting
            .into_iter()
            .map(|(t, mut rx)| (t, rx.try_recv().unwrap().is_ok()))
            .collect();
        // Table a's entries shared a transaction and failed together; b's went through.
        assert_eq!(
            results,
            [("a", false), ("b", true), ("b", true), ("a", false)],
            "{backend}"
        );
        assert_eq!(store.table("b").unwrap().unwrap().log, b, "{backend}");
        assert_eq!(store.table("a").unwrap().unwrap().log, a[..1], "{backend}");
    }
}

#[test]
fn postgres_migrations_are_versioned_and_run_once() {
    let url = postgres::test_database("migrations");
    let mut first = PostgresStore::open(&url, None).unwrap();
    drop(PostgresStore::open(&url, None).unwrap());
    let rt = rt();
    let versions: Vec<i32> = rt.block_on(async {
        let client = postgres::connect(&url).await.unwrap();
        client
            .query("SELECT version FROM schema_version ORDER BY version", &[])
            .await
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect()
    });
    assert_eq!(versions, [1, 2, 3, 4, 5]);
    // A database a newer paiju migrated is refused, not written to.
    first
        .execute("INSERT INTO schema_version VALUES (99, 0)")
        .unwrap();
    let err = PostgresStore::open(&url, None).err().unwrap();
    assert!(err.0.contains("newer"), "{err}");
}

// --- SQLite's migrations and what it reads back ---------------------------------------------

/// The tables, seats and log as paiju made them before its schema had versions: `CREATE TABLE
/// IF NOT EXISTS` on every open, the log's `occupant` and `reason` added when missing. A frozen
/// copy of what that code ran, not built from `MIGRATIONS`: an edit of a shipped migration must
/// not pass by changing both sides.
const UNVERSIONED_TABLES: &str = "
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
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
";
const UNVERSIONED_COLUMNS: &str = "
ALTER TABLE log ADD COLUMN occupant TEXT;
ALTER TABLE log ADD COLUMN reason TEXT;
";
/// The event tables as the event service made them then (its `EVENT_SCHEMA`).
const UNVERSIONED_EVENTS: &str = "
CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    seed TEXT NOT NULL,
    seed_commitment TEXT NOT NULL,
    pair_secret TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS event_log (
    event_id TEXT NOT NULL REFERENCES events(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (event_id, seq)
) WITHOUT ROWID;
";

/// A table written row by row as the paiju of that layout wrote it (`occupant` and `reason`
/// only when the log has those columns).
fn insert_unversioned(conn: &rusqlite::Connection, t: &StoredTable, columns: bool) {
    let h = &t.header;
    conn.execute(
        "INSERT INTO tables VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
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
    )
    .unwrap();
    for s in &t.seats {
        conn.execute(
            "INSERT INTO seats VALUES (?1, ?2, ?3, ?4, ?5)",
            rusqlite::params![h.id, s.seat as i64, s.name, s.token_hash, s.bot as i64],
        )
        .unwrap();
    }
    for e in &t.log {
        let row = rusqlite::params![
            h.id,
            e.seq as i64,
            e.seat as i64,
            e.actor.name(),
            e.client_id.map(|i| i as i64),
            e.action,
            e.time_ms as i64,
            e.hash
        ];
        if columns {
            conn.execute(
                "INSERT INTO log (table_id, seq, seat, actor, client_id, action, time_ms, hash,
                                  occupant, reason)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                rusqlite::params_from_iter(
                    row.iter()
                        .copied()
                        .chain([&e.occupant as &dyn rusqlite::ToSql, &e.reason]),
                ),
            )
            .unwrap();
        } else {
            conn.execute(
                "INSERT INTO log (table_id, seq, seat, actor, client_id, action, time_ms, hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                row,
            )
            .unwrap();
        }
    }
}

/// `schema_version` as (version, applied by these migrations rather than found).
fn sqlite_versions(store: &SqliteStore) -> Vec<(i64, bool)> {
    let mut st = store
        .connection()
        .prepare("SELECT version, applied_ms FROM schema_version ORDER BY version")
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? > 0)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Every table's columns (name, type, not null, default, key), by table.
fn sqlite_layout(conn: &rusqlite::Connection) -> Vec<(String, Vec<String>)> {
    let names: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    names
        .into_iter()
        .map(|table| {
            let columns = conn
                .prepare(
                    "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1)",
                )
                .unwrap()
                .query_map([&table], |r| {
                    Ok(format!(
                        "{} {} {} {:?} {}",
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, Option<String>>(3)?,
                        r.get::<_, i64>(4)?
                    ))
                })
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            (table, columns)
        })
        .collect()
}

/// Asserts that a database has the layout a new one gets from the migrations.
fn assert_layout_is_the_migrations(store: &SqliteStore, name: &str) {
    let db = sqlite_db("store", name);
    let fresh = SqliteStore::open(db.path()).unwrap();
    assert_eq!(
        sqlite_layout(store.connection()),
        sqlite_layout(fresh.connection())
    );
}

#[test]
fn sqlite_migrations_are_versioned_and_run_once() {
    let db = sqlite_db("store", "migrations");
    let path = db.path();
    let first = SqliteStore::open(path).unwrap();
    let all = [(1, true), (2, true), (3, true), (4, true)];
    assert_eq!(sqlite_versions(&first), all);
    drop(SqliteStore::open(path).unwrap());
    assert_eq!(sqlite_versions(&first), all);
    // A database a newer paiju migrated is refused, not written to.
    first
        .connection()
        .execute("INSERT INTO schema_version VALUES (5, 1)", [])
        .unwrap();
    let err = SqliteStore::open(path).err().unwrap();
    assert!(err.0.contains("version 5, newer"), "{err}");
}

#[test]
fn a_sqlite_database_of_the_unversioned_layout_upgrades_without_loss() {
    let db = sqlite_db("store", "unversioned");
    let path = db.path();
    let mut t = table("t1");
    t.state = TableState::Playing;
    t.log = chain(&t.header, 4);
    let e = competition_header("e1", 5);
    let mut elog = competition_entries(&competition_genesis(&e), 1, 2);
    {
        let conn = rusqlite::Connection::open(path).unwrap();
        conn.execute_batch(UNVERSIONED_TABLES).unwrap();
        conn.execute_batch(UNVERSIONED_COLUMNS).unwrap();
        conn.execute_batch(UNVERSIONED_EVENTS).unwrap();
        insert_unversioned(&conn, &t, true);
        conn.execute(
            "INSERT INTO events (id, game, name, seed, seed_commitment, pair_secret, created_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            rusqlite::params![
                e.id,
                e.game,
                e.name,
                e.seed,
                e.seed_commitment,
                e.pair_secret,
                e.created_ms as i64
            ],
        )
        .unwrap();
        for x in &elog {
            conn.execute(
                "INSERT INTO event_log VALUES (?1, ?2, ?3, ?4, ?5)",
                rusqlite::params![e.id, x.seq as i64, x.action, x.time_ms as i64, x.hash],
            )
            .unwrap();
        }
    }
    let mut store = SqliteStore::open(path).unwrap();
    // Every version was there already: found, none run again; the layout is the migrations'.
    assert_eq!(
        sqlite_versions(&store),
        [(1, false), (2, false), (3, false), (4, true)]
    );
    assert_layout_is_the_migrations(&store, "unversioned_fresh");
    let back = store.table("t1").unwrap().unwrap();
    assert_eq!(
        (&back.header, back.state, &back.seats, &back.log),
        (&t.header, t.state, &t.seats, &t.log)
    );
    assert_eq!(verify(&back.header, &back.log), Ok(()));
    assert_eq!(store.open_tables().unwrap().len(), 1);
    let events = store.competitions().unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!((&events[0].header, &events[0].log), (&e, &elog));
    // And it is writable in its new version.
    elog.extend(competition_entries(&elog[1].hash, 3, 3));
    store.append_competition("e1", &elog[2]).unwrap();
    let more = entries(&t.log[3].hash, 5, 5, "");
    store.append(&[("t1".into(), more[0].clone())]).unwrap();
    assert_eq!(store.table("t1").unwrap().unwrap().log.len(), 5);
}

#[test]
fn a_sqlite_database_from_before_the_logs_occupant_gets_it_and_the_events() {
    let db = sqlite_db("store", "first_layout");
    let path = db.path();
    let mut t = table("t1");
    // Entries of that time: no occupant, no reason (both hashed only when present).
    let mut prev = genesis(&t.header);
    t.log = chain(&t.header, 3)
        .into_iter()
        .map(|mut e| {
            e.occupant = None;
            e.reason = None;
            e.hash = entry_hash(&prev, &e);
            prev = e.hash.clone();
            e
        })
        .collect();
    {
        let conn = rusqlite::Connection::open(path).unwrap();
        conn.execute_batch(UNVERSIONED_TABLES).unwrap();
        insert_unversioned(&conn, &t, false);
    }
    let mut store = SqliteStore::open(path).unwrap();
    assert_eq!(
        sqlite_versions(&store),
        [(1, false), (2, true), (3, true), (4, true)]
    );
    assert_layout_is_the_migrations(&store, "first_layout_fresh");
    let back = store.table("t1").unwrap().unwrap();
    assert_eq!(
        (&back.header, &back.seats, &back.log),
        (&t.header, &t.seats, &t.log)
    );
    assert_eq!(verify(&back.header, &back.log), Ok(()));
    assert!(store.competitions().unwrap().is_empty());
}

#[test]
fn an_unknown_stored_state_is_an_error_naming_it() {
    let db = sqlite_db("store", "unknown_state");
    let mut sqlite = SqliteStore::open(db.path()).unwrap();
    sqlite.create_table(&table("t1")).unwrap();
    sqlite
        .connection()
        .execute("UPDATE tables SET state = 'paused'", [])
        .unwrap();
    let mut pg = PostgresStore::open(&postgres::test_database("unknown_state"), None).unwrap();
    pg.create_table(&table("t1")).unwrap();
    pg.execute("UPDATE tables SET state = 'paused'").unwrap();
    let stores: [(&str, &mut dyn Store); 2] = [("sqlite", &mut sqlite), ("postgres", &mut pg)];
    for (backend, store) in stores {
        // Read as closed, the table would never be rebuilt, and nobody would know why.
        for err in [store.table("t1").err(), store.open_tables().err()] {
            let err = err.unwrap_or_else(|| panic!("{backend}: read as a known state"));
            assert!(
                err.0.contains("table t1") && err.0.contains("\"paused\""),
                "{backend}: {err}"
            );
        }
    }
}

pub(crate) fn node(id: &str) -> Node {
    Node {
        id: id.into(),
        address: format!("http://{id}.example:8080"),
        lease: std::time::Duration::from_secs(10),
    }
}

#[test]
fn postgres_writes_are_fenced_by_the_lease() {
    let url = postgres::test_database("fence");
    let rt = rt();
    let leases_b = rt.block_on(Leases::connect(&url, node("b"))).unwrap();
    let mut a = PostgresStore::open(&url, Some(node("a"))).unwrap();
    let mut b = PostgresStore::open(&url, Some(node("b"))).unwrap();
    // The node that creates a table holds its lease.
    a.create_table(&table("t")).unwrap();
    let log = chain(&header("t"), 3);
    a.append(&[("t".into(), log[0].clone())]).unwrap();
    assert_eq!(
        rt.block_on(leases_b.owner("t")).unwrap(),
        Owner::Other {
            node: "a".into(),
            address: "http://a.example:8080".into()
        }
    );
    // Another node cannot write to it, nor take it while the lease lives.
    let err = b.append(&[("t".into(), log[1].clone())]).unwrap_err();
    assert!(err.0.contains("lease lost"), "{err}");
    assert!(b.set_state("t", TableState::Playing).is_err());
    assert!(!rt.block_on(leases_b.acquire("t")).unwrap());
    // The lease runs out (a's node died): b takes the table; a cannot write any more.
    a.execute("UPDATE leases SET expires_at = now() - interval '1 second'")
        .unwrap();
    assert_eq!(rt.block_on(leases_b.owner("t")).unwrap(), Owner::Free);
    assert_eq!(rt.block_on(leases_b.free_tables()).unwrap(), ["t"]);
    assert!(rt.block_on(leases_b.acquire("t")).unwrap());
    assert_eq!(rt.block_on(leases_b.owner("t")).unwrap(), Owner::Me);
    let err = a.append(&[("t".into(), log[1].clone())]).unwrap_err();
    assert!(err.0.contains("lease lost"), "{err}");
    b.append(&[("t".into(), log[1].clone())]).unwrap();
    // Renewal keeps what b holds; a holds nothing.
    let held = rt.block_on(leases_b.renew(&["t".into()])).unwrap();
    assert!(held.contains("t"));
    // Closing the table ends its lease.
    b.set_state("t", TableState::Closed).unwrap();
    assert_eq!(rt.block_on(leases_b.owner("t")).unwrap(), Owner::None);
    assert!(rt
        .block_on(leases_b.renew(&["t".into()]))
        .unwrap()
        .is_empty());
    assert_eq!(b.table("t").unwrap().unwrap().log, log[..2]);
}

/// Two nodes fight over one table for many rounds, each stealing it as soon as it may (the
/// lease forced to expire), loading the log and appending the next entry chained to what it
/// loaded. Whatever the interleaving, the log stays one chain, and every append that reported
/// success is in it as written: two writers never both append.
#[test]
fn postgres_two_nodes_racing_for_one_table_never_both_append() {
    let url = postgres::test_database("race");
    let mut first = PostgresStore::open(&url, Some(node("a"))).unwrap();
    first.create_table(&table("t")).unwrap();
    drop(first);
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let racers: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|me| {
            let url = url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let rt = rt();
                let leases = rt.block_on(Leases::connect(&url, node(me))).unwrap();
                let mut store = PostgresStore::open(&url, Some(node(me))).unwrap();
                let mut acked: Vec<LogEntry> = Vec::new();
                let mut refused = 0;
                barrier.wait();
                for _ in 0..40 {
                    store
                        .execute("UPDATE leases SET expires_at = now() - interval '1 ms'")
                        .unwrap();
                    if !rt.block_on(leases.acquire("t")).unwrap() {
                        continue;
                    }
                    let t = store.table("t").unwrap().unwrap();
                    let prev = t
                        .log
                        .last()
                        .map(|e| e.hash.clone())
                        .unwrap_or_else(|| genesis(&t.header));
                    let n = t.log.len() as u64 + 1;
                    let e = entries(&prev, n, n, me).remove(0);
                    match store.append(&[("t".into(), e.clone())]) {
                        Ok(()) => acked.push(e),
                        Err(_) => refused += 1,
                    }
                }
                (acked, refused)
            })
        })
        .collect();
    let results: Vec<(Vec<LogEntry>, usize)> =
        racers.into_iter().map(|r| r.join().unwrap()).collect();
    let t = PostgresStore::open(&url, None)
        .unwrap()
        .table("t")
        .unwrap()
        .unwrap();
    assert_eq!(verify(&t.header, &t.log), Ok(()), "one chain");
    let acked: Vec<&LogEntry> = results.iter().flat_map(|(a, _)| a).collect();
    assert_eq!(
        acked.len(),
        t.log.len(),
        "every stored entry was acknowledged once"
    );
    for e in acked {
        assert_eq!(
            &t.log[(e.seq - 1) as usize],
            e,
            "acknowledged entry {}",
            e.seq
        );
    }
    assert!(!t.log.is_empty());
    eprintln!(
        "race: {} entries; a {} stored, {} refused; b {} stored, {} refused",
        t.log.len(),
        results[0].0.len(),
        results[0].1,
        results[1].0.len(),
        results[1].1
    );
}

// --- events ---------------------------------------------------------------------------------

/// Opens a new connection to one test's event store (called again to reopen it).
type EventFactory = Box<dyn Fn() -> Box<dyn CompetitionStore>>;

/// The backends of [`CompetitionStore`], each with a fresh, empty database for the test `name`.
fn event_backends(name: &str) -> Vec<(&'static str, EventFactory)> {
    let db = sqlite_db("events", name);
    let url = postgres::test_database(name);
    vec![
        (
            "sqlite",
            Box::new(move || {
                Box::new(SqliteStore::open_competitions(db.path()).unwrap())
                    as Box<dyn CompetitionStore>
            }),
        ),
        (
            "postgres",
            Box::new(move || {
                Box::new(PostgresStore::open(&url, None).unwrap()) as Box<dyn CompetitionStore>
            }),
        ),
    ]
}

/// An event dealing from the same seed as [`header`]'s tables: those are its tables.
pub(crate) fn competition_header(id: &str, created_ms: u64) -> CompetitionHeader {
    let seed = rules::deal::Seed([9; 32]);
    CompetitionHeader {
        id: id.into(),
        game: "shengji".into(),
        name: "测试赛".into(),
        seed: seed.to_hex(),
        seed_commitment: seed.commitment(),
        pair_secret: "ab".repeat(32),
        created_ms,
    }
}

/// Entries `from..=to` of an event's chain that goes on from `prev`.
pub(crate) fn competition_entries(prev: &str, from: u64, to: u64) -> Vec<CompetitionEntry> {
    let mut prev = prev.to_string();
    (from..=to)
        .map(|seq| {
            let mut e = CompetitionEntry {
                seq,
                action: format!(r#"{{"type":"start_round","round":{seq}}}"#),
                time_ms: 100 + seq,
                hash: String::new(),
            };
            e.hash = competition_entry_hash(&prev, &e);
            prev = e.hash.clone();
            e
        })
        .collect()
}

#[test]
fn events_are_created_appended_refused_twice_and_rebuilt_verified() {
    for (backend, open) in event_backends("events") {
        let h = competition_header("e1", 5);
        let log = competition_entries(&competition_genesis(&h), 1, 3);
        let other = competition_header("e2", 6);
        let other_log = competition_entries(&competition_genesis(&other), 1, 1);
        {
            let mut s = open();
            assert!(s.create_competition(&h, &log[0]).unwrap(), "{backend}");
            s.append_competition("e1", &log[1]).unwrap();
            // A seq already there is refused (the primary key), never stored twice.
            let err = s.append_competition("e1", &log[1]).unwrap_err();
            assert!(!err.0.is_empty(), "{backend}");
            s.append_competition("e1", &log[2]).unwrap();
            // An event id already there is answered false and stored not at all: its first
            // entry is not stored either, and the event there is left as it was.
            assert!(
                !s.create_competition(&h, &other_log[0]).unwrap(),
                "{backend}"
            );
            assert_eq!(s.competition("e1").unwrap().unwrap().log, log, "{backend}");
            // No entry for an event that does not exist (the foreign key).
            assert!(s.append_competition("nope", &log[0]).is_err(), "{backend}");
            assert!(
                s.create_competition(&other, &other_log[0]).unwrap(),
                "{backend}"
            );
        }
        // Reopened: what a restarted server rebuilds, oldest first, each chain verified.
        let mut s = open();
        let all = s.competitions().unwrap();
        assert_eq!(all.len(), 2, "{backend}");
        assert_eq!(all[0].header, h, "{backend}");
        assert!(!all[0].finished, "{backend}");
        assert_eq!(all[0].log, log, "{backend}");
        assert_eq!(verify_competition(&h, &all[0].log), Ok(()), "{backend}");
        assert_eq!(all[1].header, other, "{backend}");
        assert_eq!(all[1].log, other_log, "{backend}");
        assert_eq!(verify_competition(&other, &all[1].log), Ok(()), "{backend}");
        // One event, as a node taking it over loads it.
        let one = s.competition("e1").unwrap().expect("stored");
        assert_eq!((&one.header, &one.log), (&h, &log), "{backend}");
        assert!(s.competition("nope").unwrap().is_none(), "{backend}");
        // The chain catches an edited entry and an edited header.
        let mut edited = one.log.clone();
        edited[1].action = r#"{"type":"start_round","round":9}"#.into();
        assert_eq!(
            verify_competition(&h, &edited),
            Err(Tampered::Hash { seq: 2 }),
            "{backend}"
        );
        let mut renamed = h.clone();
        renamed.name = "别的赛".into();
        assert_eq!(
            verify_competition(&renamed, &one.log),
            Err(Tampered::Hash { seq: 1 }),
            "{backend}"
        );
        let mut dropped = one.log.clone();
        dropped.remove(1);
        assert_eq!(
            verify_competition(&h, &dropped),
            Err(Tampered::Gap { index: 1, seq: 3 }),
            "{backend}"
        );
        s.set_competition_finished("e1").unwrap();
        drop(s);
        let mut s = open();
        assert!(s.competition("e1").unwrap().unwrap().finished, "{backend}");
        assert!(!s.competition("e2").unwrap().unwrap().finished, "{backend}");
    }
}

/// An event is run by one node: its writes are fenced by its lease, another node takes it only
/// once that lease ran out, and the event's tables follow it.
#[test]
fn postgres_event_writes_are_fenced_by_the_events_lease_and_its_tables_follow_it() {
    let url = postgres::test_database("competition_fence");
    let rt = rt();
    let leases_b = rt.block_on(Leases::connect(&url, node("b"))).unwrap();
    let mut a = PostgresStore::open(&url, Some(node("a"))).unwrap();
    let mut b = PostgresStore::open(&url, Some(node("b"))).unwrap();
    let h = competition_header("e1", 5);
    let log = competition_entries(&competition_genesis(&h), 1, 3);
    // The node that creates an event runs it.
    assert!(a.create_competition(&h, &log[0]).unwrap());
    // Another node that drew the same code stores nothing: the event and its lease stay a's.
    assert!(!b.create_competition(&h, &log[0]).unwrap());
    assert_eq!(
        rt.block_on(leases_b.competition_owner("e1")).unwrap(),
        Owner::Other {
            node: "a".into(),
            address: "http://a.example:8080".into()
        }
    );
    assert_eq!(
        rt.block_on(leases_b.competition_owner("nope")).unwrap(),
        Owner::None
    );
    // Another node cannot write to it, nor take it while the lease lives.
    let err = b.append_competition("e1", &log[1]).unwrap_err();
    assert!(err.0.contains("lease lost"), "{err}");
    assert!(b.set_competition_finished("e1").is_err());
    assert!(!rt.block_on(leases_b.acquire_competition("e1")).unwrap());
    assert!(rt
        .block_on(leases_b.free_competitions())
        .unwrap()
        .is_empty());
    a.append_competition("e1", &log[1]).unwrap();
    // The event's table (it deals from the event's seed), opened by a: even once the table's
    // own lease ran out, only the node running the event may take it.
    a.create_table(&table("t")).unwrap();
    a.execute("UPDATE leases SET expires_at = now() - interval '1 second'")
        .unwrap();
    assert!(rt.block_on(leases_b.free_tables()).unwrap().is_empty());
    assert!(!rt.block_on(leases_b.acquire("t")).unwrap());
    // The event's lease runs out (a's node died): b takes the event, then its table; a cannot
    // write to the event any more.
    a.execute("UPDATE event_leases SET expires_at = now() - interval '1 second'")
        .unwrap();
    assert_eq!(
        rt.block_on(leases_b.competition_owner("e1")).unwrap(),
        Owner::Free
    );
    assert_eq!(rt.block_on(leases_b.free_competitions()).unwrap(), ["e1"]);
    assert!(rt.block_on(leases_b.acquire_competition("e1")).unwrap());
    assert_eq!(
        rt.block_on(leases_b.competition_owner("e1")).unwrap(),
        Owner::Me
    );
    let err = a.append_competition("e1", &log[2]).unwrap_err();
    assert!(err.0.contains("lease lost"), "{err}");
    b.append_competition("e1", &log[2]).unwrap();
    assert_eq!(rt.block_on(leases_b.free_tables()).unwrap(), ["t"]);
    assert!(rt.block_on(leases_b.acquire("t")).unwrap());
    // Renewal keeps what b runs; a graceful stop gives it up for the next node.
    let held = rt
        .block_on(leases_b.renew_competitions(&["e1".into()]))
        .unwrap();
    assert!(held.contains("e1"));
    b.set_competition_finished("e1").unwrap();
    assert_eq!(
        rt.block_on(leases_b.competition_commitment("e1")).unwrap(),
        Some((h.seed_commitment.clone(), true))
    );
    rt.block_on(leases_b.release_all()).unwrap();
    assert_eq!(
        rt.block_on(leases_b.competition_owner("e1")).unwrap(),
        Owner::Free
    );
    let stored = b.competition("e1").unwrap().unwrap();
    assert_eq!(stored.log, log);
    assert_eq!(verify_competition(&h, &stored.log), Ok(()));
}

#[test]
fn practice_players_and_the_sets_they_began_are_kept_on_both_backends() {
    for (backend, open) in event_backends("players") {
        let p = PlayerRecord {
            id: "0123456789abcdef".into(),
            name: "王阿姨".into(),
            token_hash: "ab".repeat(32),
            created_ms: 7,
        };
        {
            let mut s = open();
            s.create_player(&p).unwrap();
            // One id, one player: a second is refused, the first untouched.
            let twin = PlayerRecord {
                name: "李叔叔".into(),
                ..p.clone()
            };
            assert!(s.create_player(&twin).is_err(), "{backend}");
            s.note_player_set(&p.id, "d20261204s", 10, None).unwrap();
            s.note_player_set(&p.id, "d20261205s", 20, None).unwrap();
            // An event, as the pair the player played in.
            s.note_player_set(&p.id, "123456", 15, Some("NS 2"))
                .unwrap();
            // Noted again: nothing changes (its first time stays).
            s.note_player_set(&p.id, "d20261204s", 30, Some("EW 1"))
                .unwrap();
        }
        let mut s = open();
        assert_eq!(s.player(&p.id).unwrap(), Some(p.clone()), "{backend}");
        assert_eq!(s.player("nobody").unwrap(), None, "{backend}");
        assert_eq!(
            s.player_sets(&p.id).unwrap(),
            [
                ("d20261205s".to_string(), None, 20),
                ("123456".to_string(), Some("NS 2".to_string()), 15),
                ("d20261204s".to_string(), None, 10)
            ],
            "{backend}: newest first"
        );
        assert!(s.player_sets("nobody").unwrap().is_empty(), "{backend}");
    }
}

/// A node renews and lists all its leases (one statement over every row) while its journal
/// commits batches of a few tables (each locking its tables' lease rows `FOR SHARE`). The rows
/// were created in descending id order, so their order on disk is the reverse of their ids':
/// a statement that locks in one order and another that locks in the other wait for each
/// other, and PostgreSQL fails one (`40P01 deadlock detected`, seen at 10,000 tables on three
/// nodes). Every statement that locks several lease rows locks them by id: none fails.
#[test]
fn postgres_a_nodes_renewals_never_deadlock_with_its_commits() {
    const TABLES: usize = 300;
    let url = postgres::test_database("renew_deadlock");
    let mut setup = PostgresStore::open(&url, Some(node("a"))).unwrap();
    let ids: Vec<String> = (0..TABLES).rev().map(|i| format!("t{i:04}")).collect();
    for id in &ids {
        setup.create_table(&table(id)).unwrap();
    }
    setup.execute("ANALYZE leases").unwrap();
    drop(setup);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let renewer = {
        let (url, ids, stop) = (url.clone(), ids.clone(), stop.clone());
        std::thread::spawn(move || {
            let rt = rt();
            let leases = rt.block_on(Leases::connect(&url, node("a"))).unwrap();
            let listed: Vec<(&str, &str)> = ids.iter().map(|i| (i.as_str(), "{}")).collect();
            let mut rounds = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let held = rt.block_on(leases.renew(&ids)).unwrap();
                assert_eq!(held.len(), TABLES);
                rt.block_on(leases.publish(Listed::Tables, &listed))
                    .unwrap();
                rounds += 1;
            }
            rounds
        })
    };
    let mut store = PostgresStore::open(&url, Some(node("a"))).unwrap();
    let mut heads: std::collections::HashMap<String, (String, u64)> = ids
        .iter()
        .map(|i| (i.clone(), (genesis(&header(i)), 0)))
        .collect();
    // Batches of eight tables spread over the ids (a group commit of a busy node).
    for round in 0..400 {
        let batch: Vec<(String, LogEntry)> = (0..8)
            .map(|k| {
                let id = &ids[(round * 37 + k * (TABLES / 8)) % TABLES];
                let (prev, n) = heads.get_mut(id).unwrap();
                *n += 1;
                let e = entries(prev, *n, *n, "a").remove(0);
                *prev = e.hash.clone();
                (id.clone(), e)
            })
            .collect();
        store
            .append(&batch)
            .unwrap_or_else(|e| panic!("commit {round}: {e}"));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let rounds = renewer.join().unwrap();
    assert!(rounds > 0, "the renewals ran beside the commits");
}

/// Two survivors take a dead node's tables over at once, each in batches (one statement for
/// many leases), one of them asking in the reverse order: neither statement fails (the rows are
/// locked in id order, so they cannot deadlock), every table ends with exactly one of them, and
/// a closed table, a live lease of a third node and an unknown id are never taken.
#[test]
fn postgres_two_survivors_take_a_dead_nodes_tables_in_batches_without_sharing_one() {
    const TABLES: usize = 200;
    let url = postgres::test_database("take_many");
    let mut dead = PostgresStore::open(&url, Some(node("a"))).unwrap();
    let ids: Vec<String> = (0..TABLES).map(|i| format!("t{i:04}")).collect();
    for id in &ids {
        dead.create_table(&table(id)).unwrap();
    }
    dead.set_state("t0007", TableState::Closed).unwrap();
    dead.execute("UPDATE leases SET expires_at = now() - interval '1 second'")
        .unwrap();
    drop(dead);
    // A table of a live third node.
    let mut alive = PostgresStore::open(&url, Some(node("c"))).unwrap();
    alive.create_table(&table("live")).unwrap();
    drop(alive);
    let mut asked = ids.clone();
    asked.push("live".into());
    asked.push("nope".into());
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let survivors: Vec<_> = ["b", "d"]
        .into_iter()
        .map(|me| {
            let (url, barrier) = (url.clone(), barrier.clone());
            let mut asked = asked.clone();
            if me == "d" {
                asked.reverse();
            }
            std::thread::spawn(move || {
                let rt = rt();
                let leases = rt.block_on(Leases::connect(&url, node(me))).unwrap();
                barrier.wait();
                let mut held = std::collections::HashSet::new();
                for some in asked.chunks(7) {
                    held.extend(rt.block_on(leases.acquire_many(some)).unwrap());
                }
                held
            })
        })
        .collect();
    let held: Vec<std::collections::HashSet<String>> =
        survivors.into_iter().map(|s| s.join().unwrap()).collect();
    assert!(held[0].is_disjoint(&held[1]), "a table taken twice");
    let mut all: Vec<String> = held[0].union(&held[1]).cloned().collect();
    all.sort();
    let mut want: Vec<String> = ids.into_iter().filter(|i| i != "t0007").collect();
    want.sort();
    assert_eq!(all, want);
}
