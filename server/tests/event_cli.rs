//! `paiju event movement` and `paiju event score`: the binary prints what the `tournament`
//! crate computes, and a bad request is a JSON problem with exit status 2.

use std::io::Write;
use std::process::{Command, Stdio};

fn paiju(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn movement_prints_the_crates_movement() {
    let (code, out, _) = paiju(
        &[
            "event",
            "movement",
            "--tables",
            "5",
            "--rounds",
            "5",
            "--boards-per-round",
            "2",
        ],
        "",
    );
    assert_eq!(code, 0);
    let want = tournament::movement(5, 5, 2, tournament::Variant::Plain).unwrap();
    assert_eq!(out.trim(), serde_json::to_string(&want).unwrap());
    let (code, card, _) = paiju(
        &[
            "event",
            "movement",
            "--tables",
            "5",
            "--rounds",
            "5",
            "--boards-per-round",
            "2",
            "--card",
            "3",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(
        card.trim_end(),
        tournament::movement_card(&want, 3).unwrap().trim_end()
    );
}

#[test]
fn score_ranks_a_session_and_refuses_bad_input_as_json() {
    let input = r#"{"pairs":{"NS":["1","2"],"EW":["1","2"]},
        "results":[{"board":1,"ns":"1","ew":"1","declarer":"N","defenders":85},
                   {"board":1,"ns":"2","ew":"2","declarer":"N","defenders":60}],
        "deductions":[]}"#;
    let (code, out, _) = paiju(&["event", "score"], input);
    assert_eq!(code, 0);
    let got: serde_json::Value = serde_json::from_str(&out).unwrap();
    let want = tournament::score(serde_json::from_str(input).unwrap()).unwrap();
    assert_eq!(got, serde_json::to_value(&want).unwrap());
    // NS 2 let the defenders have fewer points as declarer: first.
    assert_eq!(got["ranking"]["NS"][0]["pair"], "2");

    let (code, _, err) = paiju(
        &[
            "event",
            "movement",
            "--tables",
            "4",
            "--rounds",
            "4",
            "--boards-per-round",
            "1",
            "--skip",
        ],
        "",
    );
    assert_eq!(code, 2);
    let problem: serde_json::Value =
        serde_json::from_str(err.trim().trim_start_matches("paiju: ")).unwrap();
    assert_eq!(problem["code"], "too_many_rounds");
    let (code, _, err) = paiju(&["event", "score"], "{nope");
    assert_eq!(code, 2);
    assert!(err.contains("bad_json"), "{err}");
}
