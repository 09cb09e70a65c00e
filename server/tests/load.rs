//! `paiju load` as the README runs it, small: the real binary starts its server and its echo
//! server as child processes, measures both floors, plays every table to the end and prints
//! the report the README quotes.

use std::process::Command;
use std::time::{Duration, Instant};

fn load(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .arg("load")
        .args(args)
        .output()
        .expect("run paiju load");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_small_load_reports_both_floors_and_our_own_cost() {
    let started = Instant::now();
    // Paced under the server's per-connection rate limit (10 a second): a bot that never
    // thinks is told to slow down, as a flooding client would be.
    let (ok, out, err) = load(&["--tables", "3", "--think-ms", "60", "--deadline-s", "120"]);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("tables: 3 (12 connections), finished: 3, errors: 0, connects retried: 0"),
        "{out}"
    );
    for line in [
        "floor 1, bare tokio-tungstenite echo",
        "floor 2, one SQLite commit (one row, WAL, synchronous=FULL, same disk)",
        "+ our own",
        "µs per action",
        "KiB per table",
    ] {
        assert!(out.contains(line), "no {line:?} in\n{out}");
    }
    assert!(started.elapsed() < Duration::from_secs(120));
}

#[test]
fn more_connections_than_files_is_one_clear_line() {
    // Lower this child's limits (soft and hard) before it starts: it cannot lift them.
    let out = Command::new("sh")
        .args([
            "-c",
            "ulimit -n 200 && exec \"$0\" load --tables 100 --think-ms 0",
        ])
        .arg(env!("CARGO_BIN_EXE_paiju"))
        .output()
        .expect("run paiju load under sh");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success());
    assert!(
        err.contains("400 connections need 500 open files")
            && err.contains("the hard limit is 200"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}
