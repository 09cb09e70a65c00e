//! The board format: finished tables of both games exported and imported back give the same
//! deal, play and result (and the same hash chain); a file that does not hold — a hand that is
//! not the re-deal's, a result the play does not reach, an action changed — is refused.

mod referee_support;

use referee_support::{finished_tables, paiju};
use rules::gouji::Game;
use rules::shengji::Board;
use server::referee::board_file::{self, from_notation, notation, BoardFileGame};
use server::referee::replayed;
use server::store::{SqliteStore, Store};

fn export<G: BoardFileGame>(db: &std::path::Path, id: &str) -> String {
    let checked = replayed::check::<G>(replayed::load(db, id).unwrap(), None);
    board_file::export(&checked, Some("福建省第九届老年人智力运动会")).unwrap()
}

#[test]
fn export_then_import_round_trips_both_games() {
    let t = finished_tables("roundtrip", 3, 2);
    let target = t.db.parent().unwrap().join("target.db");
    for (id, _) in &t.shengji {
        round_trip::<Board>(&t.db, &target, id);
    }
    for (id, _) in &t.gouji {
        round_trip::<Game>(&t.db, &target, id);
    }
}

/// Table `id` of `db` exported, imported into `target`, and the same again.
fn round_trip<G: BoardFileGame>(db: &std::path::Path, target: &std::path::Path, id: &str) {
    {
        let text = export::<G>(db, id);
        assert!(text.contains(&format!("[Table \"{id}\"]")));
        assert!(text.contains("[Seed \"") && text.contains("[Deal \""));
        let boards = board_file::parse(&text).unwrap();
        assert_eq!(boards.len(), 1);
        let imported = board_file::import_board::<G>(&boards[0], None).unwrap();
        assert!(imported.storable);
        assert!(imported
            .findings
            .iter()
            .any(|f| f.contains("is the re-deal")));
        assert!(imported.findings.iter().any(|f| f.contains("[Head]")));
        assert_eq!(
            board_file::store_table(target, &imported.checked.table).unwrap(),
            "stored"
        );
        // Again: the same record is recognised.
        assert_eq!(
            board_file::store_table(target, &imported.checked.table).unwrap(),
            "already stored, identical"
        );
        let original = replayed::load(db, id).unwrap();
        let back = replayed::load(target, id).unwrap();
        assert_eq!(back.header, original.header, "{id}: the header");
        assert_eq!(back.log, original.log, "{id}: the log, hashes and all");
        assert_eq!(back.state, original.state);
        let names = |s: &[server::store::SeatRecord]| {
            s.iter()
                .map(|r| (r.seat, r.name.clone(), r.bot))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&back.seats), names(&original.seats));
        let a = replayed::check::<G>(original, None);
        let b = replayed::check::<G>(back, None);
        assert!(b.ok());
        let result = |c: &replayed::Checked<G>| G::result_tag(&c.replayed.as_ref().unwrap().end);
        assert_eq!(result(&a), result(&b));
        // And the export of the imported table is the same text.
        assert_eq!(export::<G>(target, id), text);
    }
}

#[test]
fn the_commands_round_trip_through_a_file() {
    let t = finished_tables("roundtrip-cli", 1, 1);
    let db = t.db.to_str().unwrap();
    let (ok, out, err) = paiju(&["export", "sj1", "gj1", "--db", db]);
    assert!(ok, "{err}");
    assert!(out.starts_with(board_file::MAGIC));
    let dir = t.db.parent().unwrap();
    let file = dir.join("boards.txt");
    std::fs::write(&file, &out).unwrap();
    let target = dir.join("imported.db");
    let (ok, msg, err) = paiju(&[
        "import",
        file.to_str().unwrap(),
        "--db",
        target.to_str().unwrap(),
        "--lang",
        "en",
    ]);
    assert!(ok, "{err}");
    assert_eq!(msg.matches("; stored").count(), 2, "{msg}");
    let (ok, again, _) = paiju(&["export", "sj1", "gj1", "--db", target.to_str().unwrap()]);
    assert!(ok);
    assert_eq!(again, out);
    let (ok, msg, _) = paiju(&["import", file.to_str().unwrap(), "--check"]);
    assert!(ok);
    assert_eq!(msg.matches("已核对").count(), 2, "{msg}");
    // The imported table replays like the original.
    let (ok, replay, err) = paiju(&["replay", "gj1", "--db", target.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&replay).unwrap();
    assert_eq!(v["ok"], true);
}

#[test]
fn a_file_that_does_not_hold_is_refused() {
    let t = finished_tables("badfile", 1, 0);
    let text = export::<Board>(&t.db, "sj1");
    let check = |text: &str| -> Result<(), String> {
        let boards = board_file::parse(text)?;
        board_file::import_board::<Board>(&boards[0], None).map(|_| ())
    };
    assert!(check(&text).is_ok());

    // A card of North's hand swapped with one of East's.
    let lines: Vec<&str> = text.lines().collect();
    let deal = lines.iter().position(|l| l.starts_with("[Deal ")).unwrap();
    let n = deal
        + 1
        + lines[deal + 1..]
            .iter()
            .position(|l| l.starts_with("N "))
            .unwrap();
    let e = deal
        + 1
        + lines[deal + 1..]
            .iter()
            .position(|l| l.starts_with("E "))
            .unwrap();
    let (n_first, e_first) = (
        lines[n].split(' ').nth(1).unwrap().to_string(),
        lines[e].split(' ').nth(1).unwrap().to_string(),
    );
    if n_first != e_first {
        let swapped = text
            .replacen(
                &lines[n].to_string(),
                &lines[n].replacen(&n_first, &e_first, 1),
                1,
            )
            .replacen(
                &lines[e].to_string(),
                &lines[e].replacen(&e_first, &n_first, 1),
                1,
            );
        let err = check(&swapped).unwrap_err();
        assert!(err.contains("is not the re-deal's"), "{err}");
    }

    // A result the play does not reach.
    let result_line = text.lines().find(|l| l.starts_with("[Result ")).unwrap();
    let wrong = text.replace(result_line, "[Result \"-999\"]");
    let err = check(&wrong).unwrap_err();
    assert!(err.contains("the play reaches"), "{err}");

    // A changed time: the play still replays, but the chain no longer ends at the Head.
    let play_line = text.lines().find(|l| l.starts_with("3 ")).unwrap();
    let time = play_line
        .split(" | ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let later =
        server::referee::words::iso_time(server::referee::words::parse_iso_time(time).unwrap() + 1);
    let moved = text.replace(play_line, &play_line.replace(time, &later));
    let err = check(&moved).unwrap_err();
    assert!(err.contains("[Head]"), "{err}");

    // An action replaced by one the engine refuses.
    let bad = text.replace(play_line, &{
        let mut parts: Vec<&str> = play_line.splitn(4, ' ').collect();
        let meta = play_line.split(" | ").nth(1).unwrap();
        parts.truncate(3);
        format!("{} play RJ RJ RJ | {meta}", parts.join(" "))
    });
    let err = check(&bad).unwrap_err();
    assert!(err.contains("entry 3"), "{err}");

    // Without the seed, the deal as written is played through (checked, not storable).
    let unseeded: String = text
        .lines()
        .filter(|l| !l.starts_with("[Seed ") && !l.starts_with("[Commitment "))
        .collect::<Vec<_>>()
        .join("\n");
    let boards = board_file::parse(&unseeded).unwrap();
    let imported = board_file::import_board::<Board>(&boards[0], None).unwrap();
    assert!(!imported.storable);
    let run = imported.checked.replayed.as_ref().unwrap();
    assert_eq!(run.end.result(), t.shengji[0].1.result());

    // Stored under another id: the chain is rebuilt for it.
    let boards = board_file::parse(&text).unwrap();
    let renamed = board_file::import_board::<Board>(&boards[0], Some("copy1")).unwrap();
    let target = t.db.parent().unwrap().join("target.db");
    board_file::store_table(&target, &renamed.checked.table).unwrap();
    let mut s = SqliteStore::open(&target).unwrap();
    let copy = s.table("copy1").unwrap().unwrap();
    assert!(server::store::verify(&copy.header, &copy.log).is_ok());
}

#[test]
fn the_action_notation_gives_back_the_stored_text() {
    for json in [
        r#"{"type":"play","cards":["SA","SA","HK"]}"#,
        r#"{"type":"bury","cards":["C3","C4","C5","C6","C7","C8","C9","C10"]}"#,
        r#"{"type":"timeout"}"#,
        r#"{"type":"penalty","points":40}"#,
        r#"{"type":"choose","unit":"single"}"#,
        r#"{"type":"end_board"}"#,
        r#"{"type":"pass"}"#,
        r#"{"type":"ruling","ruling":"deduction","offence":"signals","points":2}"#,
        r#"{"type":"burn","cards":["BJ","RJ"]}"#,
        r#"{"cards":["SA"],"type":"play"}"#,
        r#"{"type": "play", "cards": ["SA"]}"#,
    ] {
        let n = notation(json);
        assert_eq!(from_notation(&n).unwrap(), json, "{json} → {n}");
    }
    assert_eq!(
        notation(r#"{"type":"play","cards":["SA","H10"]}"#),
        "play SA H10"
    );
    assert_eq!(
        notation(r#"{"type":"penalty","points":40}"#),
        "penalty points=40"
    );
    // Written out of the canonical form: kept verbatim.
    assert!(notation(r#"{"cards":["SA"],"type":"play"}"#).starts_with('{'));
}

#[test]
fn an_import_refuses_a_table_id_the_server_would_not_make_and_stores_nothing() {
    let t = finished_tables("badid", 2, 0);
    let dir = t.db.parent().unwrap();
    let target = dir.join("target.db");
    let text = export::<Board>(&t.db, "sj1");
    let file = dir.join("sj1.txt");
    std::fs::write(&file, &text).unwrap();
    let long = "x".repeat(5000);
    for bad in ["", "../../etc/x", "sj 1", long.as_str()] {
        // Named by --as: the command line refuses it (exit 2, the flag named).
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_paiju"))
            .args(["import", file.to_str().unwrap(), "--as", bad, "--db"])
            .arg(&target)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "--as {bad:?}: {err}");
        assert!(
            err.contains("--as") && err.contains("is not a table id"),
            "{err}"
        );
        assert!(!target.exists(), "--as {bad:?}: nothing stored");
        // Written in the file's [Table] tag: refused before anything is stored, even with a
        // good board before it in the file, and with --check too.
        let tag = format!("[Table {}]", serde_json::to_string(bad).unwrap());
        let two = format!(
            "{}\n{}",
            export::<Board>(&t.db, "sj2"),
            text.replace("[Table \"sj1\"]", &tag)
        );
        let bad_file = dir.join("bad.txt");
        std::fs::write(&bad_file, two).unwrap();
        for check in [false, true] {
            let mut args = vec!["import", bad_file.to_str().unwrap(), "--db"];
            args.push(target.to_str().unwrap());
            if check {
                args.push("--check");
            }
            let (ok, out, err) = paiju(&args);
            assert!(!ok, "[Table {bad:?}]: {out}");
            assert!(out.is_empty(), "nothing imported: {out}");
            assert!(
                err.contains("[Table]") && err.contains("is not a table id"),
                "{err}"
            );
            assert!(err.len() < 1000, "the id is not written out whole: {err}");
            assert!(!target.exists(), "[Table {bad:?}]: nothing stored");
        }
    }
    // An id like the server's is stored.
    let (ok, out, err) = paiju(&[
        "import",
        file.to_str().unwrap(),
        "--as",
        "654321",
        "--db",
        target.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("654321：80分 第 1 副"), "{out}");
    assert!(SqliteStore::open(&target)
        .unwrap()
        .table("654321")
        .unwrap()
        .is_some());
}
