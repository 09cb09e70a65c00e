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

/// The skip's options reach the crate's `plan`, and a curtailed relay is printed with its
/// warning on standard error (the movement on standard output unchanged).
#[test]
fn movement_takes_the_skips_options_and_warns_of_a_curtailed_relay() {
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "event",
            "movement",
            "--tables",
            "4",
            "--boards-per-round",
            "1",
        ];
        a.extend_from_slice(extra);
        a
    };
    let (code, out, err) = paiju(&args(&["--rounds", "4", "--skip", "--revenge"]), "");
    assert_eq!(code, 0, "{err}");
    let options = tournament::Options {
        skip_after: None,
        revenge: true,
    };
    let want = tournament::plan(4, 4, 1, tournament::Variant::Skip, options).unwrap();
    assert_eq!(out.trim(), serde_json::to_string(&want.movement).unwrap());
    assert_eq!(err, "");
    let (code, out, err) = paiju(&args(&["--rounds", "3", "--relay"]), "");
    assert_eq!(code, 0, "{err}");
    let want = tournament::movement(4, 3, 1, tournament::Variant::Relay).unwrap();
    assert_eq!(out.trim(), serde_json::to_string(&want).unwrap());
    let warning: serde_json::Value = serde_json::from_str(err.trim()).unwrap();
    assert_eq!(warning["code"], "curtailed_relay", "{err}");
    assert!(warning["en"].as_str().unwrap().contains("--skip"), "{err}");
    let (code, _, err) = paiju(&args(&["--rounds", "3", "--skip", "--skip-after", "3"]), "");
    assert_eq!(code, 2);
    assert!(err.contains("bad_skip"), "{err}");
    let (code, _, err) = paiju(&args(&["--rounds", "3", "--relay", "--revenge"]), "");
    assert_eq!(code, 2, "--revenge needs --skip: {err}");
}
