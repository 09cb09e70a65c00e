//! `paiju load` as docs/performance.md runs it, small: the real binary starts its server and
//! its echo server as child processes, measures both floors (before, during and after the
//! play), plays every table to the end or for `--seconds`, and prints the report
//! docs/performance.md quotes; stopped by a signal, it leaves nothing behind.

use std::process::Command;

mod tmp_support;
use tmp_support::TempDir;

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

/// `paiju load ARGS` with its temporary store in `tmp`: its standard output, once it has
/// succeeded.
fn load_in(tmp: &std::path::Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .arg("load")
        .args(args)
        .env("TMPDIR", tmp)
        .output()
        .expect("run paiju load");
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    stdout
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
    let numbers = numbers_of(&out, "server cpu per action ");
    // total, fan-out, commit share, one commit, commits an action, our own
    let [total, fan_out, commits, one_commit, per_action, own] = numbers[..] else {
        panic!("{numbers:?} in\n{out}");
    };
    assert!(total > 0.0 && one_commit > 0.0 && per_action > 0.0, "{out}");
    assert!((total - (fan_out + commits + own)).abs() <= 2.0, "{out}");
    assert!((commits - one_commit * per_action).abs() <= 2.0, "{out}");
    // The commit in that split is the commit floor at the play's pace, beside the fan-out
    // floor; the tight loop's figure is printed beside it.
    let paced = numbers_of(&out, "floor 2's cpu: ");
    let [_, paced_commit, every_ms, _, paced_commits, tight] = paced[..] else {
        panic!("{paced:?} in\n{out}");
    };
    assert!((paced_commit - one_commit).abs() <= 1.0, "{out}");
    assert!(
        every_ms > 0.0 && paced_commits >= 10.0 && tight > 0.0,
        "{out}"
    );
    // The steady play's CPU against the two floors, as one ratio.
    let steady = numbers_of(&out, "steady play against the floors: ");
    let [per_action_steady, ratio, steady_fan_out, steady_commit] = steady[..] else {
        panic!("{steady:?} in\n{out}");
    };
    assert_eq!((steady_fan_out, steady_commit), (fan_out, commits), "{out}");
    let floors = steady_fan_out + steady_commit;
    let expected = per_action_steady / floors;
    // Each figure is printed rounded: to the µs, the ratio to a hundredth.
    let rounding = 0.005 + 0.5 / floors + per_action_steady / (floors * floors);
    assert!(
        (ratio - expected).abs() <= rounding,
        "{ratio} against {expected} in\n{out}"
    );
}

/// `--blocks`: the tables play while the floors wait, then the bots are held while the floors
/// are measured alone on as many connections, and so on; the ratio is summed over each side's
/// own turns, and no bot sends while held.
#[test]
fn a_load_in_turns_measures_the_floors_between_turns_of_play() {
    let tmp = empty_tmpdir("blocks");
    let stdout = load_in(
        tmp.path(),
        &[
            "--tables",
            "3",
            "--think-ms",
            "200",
            "--seconds",
            "11",
            "--blocks",
            "2",
        ],
    );
    assert!(
        stdout.contains("tables: 3 (12 connections), finished: 0, errors: 0"),
        "{stdout}"
    );
    let ratio = numbers_of(&stdout, "in turns of ");
    let [turn, connections, server, ratio, fan_out, commit, lowest, highest, median] = ratio[..]
    else {
        panic!("{ratio:?} in\n{stdout}");
    };
    assert_eq!((turn, connections), (2.0, 12.0), "{stdout}");
    assert!(server > 0.0 && fan_out > 0.0 && commit > 0.0, "{stdout}");
    let floors = fan_out + commit;
    let rounding = 0.005 + 0.5 / floors + server / (floors * floors);
    assert!(
        (ratio - server / floors).abs() <= rounding,
        "{ratio} against {} in\n{stdout}",
        server / floors
    );
    assert!(lowest <= median && median <= highest, "{stdout}");
    let turns = numbers_of(&stdout, "turns: ");
    let [play, actions, _, floor_turns, frames, frame_bytes, commits, _, _, sent_while_held] =
        turns[..]
    else {
        panic!("{turns:?} in\n{stdout}");
    };
    // The turns alternate from the play's, and each side did its work in its own.
    assert!(
        play >= 2.0 && (play == floor_turns || play == floor_turns + 1.0),
        "{stdout}"
    );
    assert!(
        actions >= 10.0 && frames >= 10.0 && commits >= 5.0,
        "{stdout}"
    );
    // The fan-out floor's frames are the size of those the bots received in the turns of play:
    // an 80分 table's frames run from a hundred bytes to a few kilobytes.
    assert!((100.0..5_000.0).contains(&frame_bytes), "{stdout}");
    assert_eq!(
        sent_while_held, 0.0,
        "the bots played while held:\n{stdout}"
    );
    // The floors' turns are the fan-out floor during the play, on every table.
    assert!(
        stdout.contains("floor 1 during the play, on 3 tables in the floors' turns: p50 "),
        "{stdout}"
    );
    assert_eq!(
        entries(tmp.path()),
        Vec::<String>::new(),
        "the temporary store stays"
    );

    // Turns are taken in one generator process: asked for more, the load says so and starts
    // nothing.
    let (ok, out, err) = load(&["--tables", "3", "--generators", "2", "--blocks", "2"]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("--blocks: the play and its floors take turns in one generator process"),
        "{err}"
    );
}

/// The numbers in the report's line that starts with `prefix`.
fn numbers_of(out: &str, prefix: &str) -> Vec<f64> {
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} in\n{out}"));
    line.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|n| n.parse().ok())
        .collect()
}

/// A fresh, empty directory to be the load's `TMPDIR`: where it keeps its temporary store.
fn empty_tmpdir(name: &str) -> TempDir {
    TempDir::new(&format!("load-test-{name}"))
}

fn entries(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_load_stopped_after_seconds_reports_what_was_played_and_both_floors_during_it() {
    let tmp = empty_tmpdir("seconds");
    let stdout = load_in(
        tmp.path(),
        &["--tables", "4", "--think-ms", "300", "--seconds", "4"],
    );
    assert!(
        stdout.contains("stopped after 4 s of play (--seconds)"),
        "{stdout}"
    );
    // A board is about a hundred actions at 0.3 s each: no table can be over in 4 s.
    assert!(
        stdout.contains("tables: 4 (16 connections), finished: 0, errors: 0"),
        "{stdout}"
    );
    let actions: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("actions: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no actions in\n{stdout}"));
    assert!(actions >= 10, "{stdout}");
    // The floors again while the tables played.
    assert!(
        stdout.contains("floor 1 during the play, on 1 tables beside the load: p50 "),
        "{stdout}"
    );
    let commits: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("floor 2 during the play, "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no commit floor during the play in\n{stdout}"));
    assert!(commits >= 5, "{stdout}");
    assert!(
        stdout.contains("ratio to the echo during the play"),
        "{stdout}"
    );
    assert_eq!(
        entries(tmp.path()),
        Vec::<String>::new(),
        "the temporary store stays"
    );
}

#[test]
fn a_load_stopped_by_a_signal_removes_its_store_and_its_servers() {
    use std::io::{BufRead, BufReader};
    for signal in ["INT", "TERM"] {
        let tmp = empty_tmpdir(signal);
        let mut child = Command::new(env!("CARGO_BIN_EXE_paiju"))
            .args(["load", "--tables", "20", "--think-ms", "500"])
            .env("TMPDIR", tmp.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run paiju load");
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut said = String::new();
        while !said.contains("seating and playing") {
            assert!(err.read_line(&mut said).unwrap() > 0, "{said}");
        }
        // Playing: the store is there, and so are the servers.
        assert_eq!(entries(tmp.path()).len(), 1, "{:?}", entries(tmp.path()));
        let kids = |pid: u32| {
            let out = Command::new("pgrep")
                .args(["-P", &pid.to_string()])
                .output();
            String::from_utf8(out.unwrap().stdout).unwrap()
        };
        let servers = kids(child.id());
        assert!(!servers.trim().is_empty(), "no server under the load");
        let kill = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(20),
                "SIG{signal}: the load is still running"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        };
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
        assert!(!status.success());
        assert!(
            rest.contains(&format!(
                "stopped by SIG{signal}; the temporary store is removed"
            )),
            "{rest}"
        );
        assert_eq!(
            entries(tmp.path()),
            Vec::<String>::new(),
            "SIG{signal}: the store stays"
        );
        // The servers were killed with the run: none of them is alive (a zombie is dead).
        for pid in servers.split_whitespace() {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat.rsplit(')').next().unwrap_or("").trim().chars().next();
            assert!(
                matches!(state, None | Some('Z' | 'X')),
                "server {pid}: {stat}"
            );
        }
    }
}

/// Stopped at any moment of its start, even while its first server is being started, the load
/// leaves nothing behind: it catches the signals before it makes its temporary store. (It
/// caught them only once the play's wait began: a signal between the two ended it at once,
/// leaving the store and an orphaned server.)
#[test]
fn a_load_stopped_as_it_starts_leaves_no_store_and_no_server() {
    for round in 0..20u32 {
        let tmp = empty_tmpdir(&format!("start-{round}"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_paiju"))
            .args(["load", "--tables", "2", "--think-ms", "500"])
            .env("TMPDIR", tmp.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("run paiju load");
        // The moment its store's folder appears, then a little later each round.
        let began = std::time::Instant::now();
        while entries(tmp.path()).is_empty() {
            assert!(
                began.elapsed() < std::time::Duration::from_secs(20),
                "no store"
            );
        }
        let made = std::time::Instant::now();
        while made.elapsed() < std::time::Duration::from_micros(150 * u64::from(round)) {}
        // SAFETY: a signal to our own child, which we wait for below.
        assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
        let status = child.wait().unwrap();
        assert!(!status.success(), "round {round}");
        // A server still running on the store (its command line names the folder). One killed
        // as the load stopped may take a moment to go; one left behind stays.
        let live = || -> Vec<String> {
            std::fs::read_dir("/proc")
                .unwrap()
                .filter_map(|e| e.ok())
                .filter_map(|e| {
                    let line = std::fs::read(e.path().join("cmdline")).ok()?;
                    let line = String::from_utf8_lossy(&line).replace('\0', " ");
                    line.contains(&*tmp.path().to_string_lossy())
                        .then(|| format!("{}: {line}", e.file_name().to_string_lossy()))
                })
                .collect()
        };
        let stopped = std::time::Instant::now();
        let mut orphans = live();
        while !orphans.is_empty() && stopped.elapsed() < std::time::Duration::from_secs(10) {
            std::thread::sleep(std::time::Duration::from_millis(20));
            orphans = live();
        }
        for o in &orphans {
            let pid: i32 = o.split(':').next().unwrap().parse().unwrap();
            // SAFETY: cleaning up after a failed round; the assertion below fails the test.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        assert_eq!(orphans, Vec::<String>::new(), "round {round}: servers left");
        assert_eq!(
            entries(tmp.path()),
            Vec::<String>::new(),
            "round {round}: store left"
        );
    }
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
        err.contains("400 connections in one process")
            && err.contains("need 500 open files")
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

/// The number after `prefix` on the report's line that starts with it.
fn number_after(out: &str, prefix: &str) -> f64 {
    out.lines()
        .find_map(|l| l.split(prefix).nth(1))
        .and_then(|rest| {
            rest.trim_start()
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no {prefix:?} in\n{out}"))
}

#[test]
fn child_generators_share_the_tables_and_their_report_is_one() {
    // Two generator processes (as the open-files limit would ask past 4,950 tables of four).
    let (ok, out, err) = load(&[
        "--tables",
        "4",
        "--think-ms",
        "150",
        "--seconds",
        "4",
        "--generators",
        "2",
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("generators: 2 processes"), "{out}");
    assert!(
        out.contains("tables: 4 (16 connections), finished: 0, errors: 0"),
        "{out}"
    );
    assert!(number_after(&out, "actions:") >= 10.0, "{out}");
    // Their CPU is the load generator's, and the steady play is counted once every seat is
    // taken.
    assert!(number_after(&out, "load generator") > 0.0, "{out}");
    assert!(out.contains("steady play (every seat taken"), "{out}");
    assert!(
        out.contains("floor 1 during the play: not measured (the bots play in child generators)"),
        "{out}"
    );
}

#[test]
fn a_node_killed_mid_play_loses_nothing_acknowledged_and_its_seats_come_back() {
    let url = server::store::postgres::test_database("load_kill");
    let (ok, out, err) = load(&[
        "--tables",
        "4",
        "--think-ms",
        "100",
        "--seconds",
        "25",
        "--nodes",
        "2",
        "--db",
        &url,
        "--kill-node-after",
        "3",
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("errors: 0"), "{out}\n{err}");
    // Node 2 served half the tables: node 1 served both again once the dead node's leases ran
    // out (10 s from their last renewal, renewed every 2 s: 8 to 10 s after the kill, and the
    // takeover's tick), as its own counter says.
    assert!(
        out.contains("node 2 killed: 2 of its 2 tables served again by the others"),
        "{out}"
    );
    let all_back = number_after(&out, "all after");
    assert!((7.0..15.0).contains(&all_back), "{out}");
    // Their eight seats came back through node 1, each at its next reconnection round (a
    // page's backoff: about 7.5 s and 15.5 s into the break, ±25 %).
    assert!(
        out.contains("node 2 killed (SIGKILL) after 3 s: 8 seats came back"),
        "{out}"
    );
    let worst = number_after(&out, "at most");
    assert!((all_back..22.0).contains(&worst), "{out}");
    // Every acknowledged action was read back from PostgreSQL, as acknowledged.
    assert!(
        number_after(&out, "acknowledged actions read back from the store:") > 10.0,
        "{out}"
    );
    assert!(out.contains(", lost: 0"), "{out}");
}
