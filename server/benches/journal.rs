//! The journal's own CPU per stored action: what the server spends to make one action durable
//! (on SQLite, on the runtime thread of the table that found the store free and commits),
//! measured as the committing thread's CPU time (user and system, the `fsync` included), not
//! wall time, so that a busy machine moves it little.
//!
//! The load is the table server's at a thousand busy 80分 tables: appends round-robin over 1,000
//! tables in group commits of three entries (the server's mean group at
//! `paiju load --tables 1000 --think-ms 200`), each entry the size of a real one. The first
//! pass fills every table's log to 50 entries (half a board, so that the log's pages are those of
//! a running server), the second is measured. Beside it, the floor: one single-row commit of the
//! same size in a table of its own, on the same disk.
//!
//! Then the same one-row commits at a human pace (one every 5 ms, as the server commits at
//! 1,000 tables with a play every 5 s), two stores taking turns (so each commits every 10 ms):
//! in one each row belongs to a random one of the 1,000 tables, as the server's do, so that it
//! lands inside the log's b-tree (its key is the table, then the seq) on pages gone cold since
//! that table's last row; in the other every row belongs to the last table and lands at the
//! tree's right edge, as the commit floor of `paiju load` appends to a table of its own. The
//! same schema, rows and commits: the difference is what the log's key costs an action
//! (docs/performance.md, "Fourteenth round").
//!
//! Run: `cargo bench -p server --bench journal`.

use std::time::Duration;

use bots::load::thread_cpu;
use protocol::Actor;
use protocol::TableState;
use server::store::{
    entry_hash, LogEntry, SeatRecord, SqliteStore, Store, StoredTable, TableHeader,
};

// The tests' temp-folder guard: a bench that panics leaves no folder behind either.
#[path = "../tests/tmp_support/mod.rs"]
mod tmp_support;
use tmp_support::TempDir;

const TABLES: usize = 1000;
const GROUP: usize = 3;
/// Entries per table written before measuring, then measured.
const WARM: u64 = 50;
const MEASURED: u64 = 20;

/// Table `i`'s id: numbered so that the ids sort as the numbers do (the last table's rows sort
/// after every other table's).
fn table_id(i: usize) -> String {
    format!("{i:06}")
}

fn table(i: usize) -> StoredTable {
    StoredTable {
        header: TableHeader {
            id: table_id(i),
            game: "shengji".into(),
            ruleset: "standard".into(),
            options: "{}".into(),
            deal_algorithm: "paiju-deal-v1".into(),
            seed: "0".repeat(64),
            seed_commitment: "1".repeat(64),
            board: 1,
            fixed: "{}".into(),
            created_ms: 1,
        },
        state: TableState::Playing,
        seats: (0..4)
            .map(|seat| SeatRecord {
                seat,
                name: Some(format!("玩家{seat}")),
                token_hash: Some("ab".repeat(32)),
                bot: false,
            })
            .collect(),
        log: vec![],
    }
}

/// Entry `seq` of table `t`, as the server writes a player's play.
fn entry(prev: &str, seq: u64) -> LogEntry {
    let mut e = LogEntry {
        seq,
        seat: (seq % 4) as usize,
        actor: Actor::Player,
        client_id: Some(seq),
        occupant: Some("0123456789abcdef".into()),
        reason: None,
        action: r#"{"type":"play","cards":["S10","S10"]}"#.into(),
        time_ms: 1_764_540_000_000 + seq,
        hash: String::new(),
    };
    e.hash = entry_hash(prev, &e);
    e
}

/// [`entry`] `seq` chained to the table's last hash `prev`, which it becomes.
fn next_entry(prev: &mut String, seq: u64) -> LogEntry {
    let e = entry(prev, seq);
    *prev = e.hash.clone();
    e
}

/// A store at `path` with `TABLES` tables, each with `WARM` entries (half a board: the log's
/// pages are those of a running server); each table's last hash.
fn filled_store(path: &std::path::Path) -> (SqliteStore, Vec<String>) {
    let mut store = SqliteStore::open(path).expect("open");
    for i in 0..TABLES {
        store.create_table(&table(i)).expect("create");
    }
    let mut prev = vec![String::from("genesis"); TABLES];
    append_round(&mut store, &mut prev, 1, WARM + 1);
    (store, prev)
}

/// Appends entries `from..to` to every table, `GROUP` entries (of different tables) a commit;
/// the CPU per entry.
fn append_round(store: &mut SqliteStore, prev: &mut [String], from: u64, to: u64) -> Duration {
    let began = thread_cpu();
    let mut group = Vec::with_capacity(GROUP);
    let mut n = 0u32;
    for seq in from..to {
        for (t, prev) in prev.iter_mut().enumerate() {
            group.push((table_id(t), next_entry(prev, seq)));
            if group.len() == GROUP {
                store.append(&group).expect("append");
                group.clear();
            }
            n += 1;
        }
    }
    if !group.is_empty() {
        store.append(&group).expect("append");
    }
    (thread_cpu() - began) / n.max(1)
}

fn main() {
    let dir = TempDir::new("bench-journal");
    let (mut store, mut prev) = filled_store(&dir.path().join("bench.db"));
    let per_entry = append_round(&mut store, &mut prev, WARM + 1, WARM + MEASURED + 1);
    drop(store);

    // The floor: single-row commits of the same size, each alone, in a table of its own.
    let floor_db = dir.path().join("floor.db");
    let mut floor = SqliteStore::open(&floor_db).expect("open");
    floor.create_table(&table(0)).expect("create");
    let mut prev = String::from("genesis");
    let rounds = 300u32;
    let began = thread_cpu();
    for seq in 1..=u64::from(rounds) {
        floor
            .append(&[(table_id(0), next_entry(&mut prev, seq))])
            .expect("append");
    }
    let per_commit = (thread_cpu() - began) / rounds;
    drop(floor);

    let paced = paced_commits(dir.path());
    drop(dir);

    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let floor_share = us(per_commit) / GROUP as f64;
    println!(
        "journal: {} tables, group commits of {GROUP}: {:.1} µs CPU per stored action",
        TABLES,
        us(per_entry)
    );
    println!(
        "floor: one lone commit {:.1} µs CPU, {:.1} µs an action at {GROUP} a commit; the journal's own: {:.1} µs an action",
        us(per_commit),
        floor_share,
        us(per_entry) - floor_share
    );
    println!(
        "at a human pace, one-row commits every {} ms: {:.1} µs CPU a commit with the rows of {TABLES} tables, {:.1} µs with one table's (appended at the log's edge): the key costs {:.1} µs a commit",
        PACE.as_millis(),
        us(paced.interleaved),
        us(paced.appended),
        us(paced.interleaved) - us(paced.appended)
    );
}

/// The pause between two commits at a human pace.
const PACE: Duration = Duration::from_millis(5);
/// Commits of each store before measuring: past the WAL's first growth and its first
/// checkpoints, as in a server that has run a while.
const PACED_WARM: u32 = 1500;
const PACED_MEASURED: u32 = 2000;

/// The CPU of one single-row commit at a human pace, by where the row lands in the log.
struct Paced {
    /// A random one of `TABLES` tables each commit: inside the b-tree, as the server's rows.
    interleaved: Duration,
    /// Always the last table: at the b-tree's right edge.
    appended: Duration,
}

/// Two stores, each filled as `main`'s ([`filled_store`]), then committing one row in turn,
/// one commit every [`PACE`]: the two see the same machine at the same moments.
fn paced_commits(dir: &std::path::Path) -> Paced {
    let mut stores: Vec<(SqliteStore, Vec<String>, Vec<u64>)> = ["interleaved", "appended"]
        .iter()
        .map(|name| {
            let (store, prev) = filled_store(&dir.join(format!("{name}.db")));
            (store, prev, vec![WARM + 1; TABLES])
        })
        .collect();
    // xorshift: the tables' turns, the same sequence in every run.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut cpu = [Duration::ZERO; 2];
    for round in 0..PACED_WARM + PACED_MEASURED {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        for (k, (store, prev, next)) in stores.iter_mut().enumerate() {
            // The last table's rows sort after every other table's: the tree's right edge.
            let t = if k == 0 {
                (x % TABLES as u64) as usize
            } else {
                TABLES - 1
            };
            let row = [(table_id(t), next_entry(&mut prev[t], next[t]))];
            next[t] += 1;
            let began = thread_cpu();
            store.append(&row).expect("append");
            if round >= PACED_WARM {
                cpu[k] += thread_cpu() - began;
            }
            std::thread::sleep(PACE);
        }
    }
    Paced {
        interleaved: cpu[0] / PACED_MEASURED,
        appended: cpu[1] / PACED_MEASURED,
    }
}
