//! `paiju load` as docs/performance.md runs it, small: the real binary starts its server and
//! its echo server as child processes, measures both floors, plays every table to the end and
//! prints the report docs/performance.md quotes.

use std::process::Command;

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
    // Paced under the server's per-connection rate limit (10 a second): a bot that never
    // thinks is told to slow down, as a flooding client would be.
    let (ok, out, err) = load(&["--tables", "3", "--think-ms", "60", "--deadline-s", "120"]);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("tables: 3 (12 connections), finished: 3, errors: 0, connects retried: 0"),
        "{out}"
    );
    for line in [
        "floor 1, bare tokio-tungstenite fan-out (the frame back to its sender, ",
        "floor 2, one SQLite commit (one row, WAL, synchronous=FULL, same disk)",
        "+ our own",
        "µs per action",
        "KiB per table",
    ] {
        assert!(out.contains(line), "no {line:?} in\n{out}");
    }
    // The server's CPU per action is split like the round trip, and the terms add up.
    let line = out
        .lines()
        .find(|l| l.starts_with("server cpu per action "))
        .unwrap_or_else(|| panic!("no CPU split in\n{out}"));
    let numbers: Vec<f64> = line
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|n| n.parse().ok())
        .collect();
    // total, fan-out, commit share, one commit, commits an action, our own
    let [total, fan_out, commits, one_commit, per_action, own] = numbers[..] else {
        panic!("{line}");
    };
    assert!(
        total > 0.0 && one_commit > 0.0 && per_action > 0.0,
        "{line}"
    );
    assert!((total - (fan_out + commits + own)).abs() <= 2.0, "{line}");
    assert!((commits - one_commit * per_action).abs() <= 2.0, "{line}");
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

#[test]
fn a_small_event_is_played_confirmed_closed_ranked_and_revealed() {
    // Three tables, two rounds of one board: six pairs of people (twelve bot clients) ask for
    // their seats with their own player tokens, play, confirm; the director closes each round,
    // ranks and reveals. The generator fails on any refused call, so "revealed" is checked.
    let (ok, out, err) = load(&[
        "--event",
        "--tables",
        "3",
        "--rounds",
        "2",
        "--boards-per-round",
        "1",
        "--think-ms",
        "60",
        "--deadline-s",
        "120",
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains(
            "event: 3 tables, 6 pairs, 12 players on 12 WebSocket connections, 6 boards played"
        ),
        "{out}"
    );
    for line in [
        "rounds (start -> played, confirmed, closed): ",
        "matchpoint and rank (standings",
        "reveal the seed",
        "MiB peak during the event",
    ] {
        assert!(out.contains(line), "no {line:?} in\n{out}");
    }
}
