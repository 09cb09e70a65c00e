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
//! Run: `cargo bench -p server --bench journal`.

use std::time::Duration;

use bots::load::thread_cpu;
use protocol::Actor;
use protocol::TableState;
use server::store::{
    entry_hash, LogEntry, SeatRecord, SqliteStore, Store, StoredTable, TableHeader,
};

const TABLES: usize = 1000;
const GROUP: usize = 3;
/// Entries per table written before measuring, then measured.
const WARM: u64 = 50;
const MEASURED: u64 = 20;

fn table(i: usize) -> StoredTable {
    StoredTable {
        header: TableHeader {
            id: format!("{i:06}"),
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

/// Appends entries `from..to` to every table, `GROUP` entries (of different tables) a commit;
/// the CPU per entry.
fn append_round(store: &mut SqliteStore, prev: &mut [String], from: u64, to: u64) -> Duration {
    let began = thread_cpu();
    let mut group = Vec::with_capacity(GROUP);
    let mut n = 0u32;
    for seq in from..to {
        for (t, prev) in prev.iter_mut().enumerate() {
            let e = entry(prev, seq);
            *prev = e.hash.clone();
            group.push((format!("{t:06}"), e));
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
    let dir = std::env::temp_dir().join(format!("paiju-bench-journal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut store = SqliteStore::open(&dir.join("bench.db")).expect("open");
    for i in 0..TABLES {
        store.create_table(&table(i)).expect("create");
    }
    let mut prev = vec![String::from("genesis"); TABLES];
    append_round(&mut store, &mut prev, 1, WARM + 1);
    let per_entry = append_round(&mut store, &mut prev, WARM + 1, WARM + MEASURED + 1);
    drop(store);

    // The floor: single-row commits of the same size, each alone, in a table of its own.
    let floor_db = dir.join("floor.db");
    let mut floor = SqliteStore::open(&floor_db).expect("open");
    floor.create_table(&table(0)).expect("create");
    let mut prev = String::from("genesis");
    let rounds = 300u32;
    let began = thread_cpu();
    for seq in 1..=u64::from(rounds) {
        let e = entry(&prev, seq);
        prev = e.hash.clone();
        floor.append(&[("000000".into(), e)]).expect("append");
    }
    let per_commit = (thread_cpu() - began) / rounds;
    drop(floor);
    let _ = std::fs::remove_dir_all(&dir);

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
}
