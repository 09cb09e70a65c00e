//! `paiju deal` as a referee runs it: the real binary, its JSON checked against the rules of a
//! deal (whole decks, hand sizes, the commitment), not against a stored copy of its output.

use std::collections::HashMap;
use std::process::Command;

use serde_json::Value;
use sha2::{Digest, Sha256};

const SEED: &str = "7f3a0c51e2d94b8a6c1f0e2d3b4a59687766554433221100ffeeddccbbaa9988";

fn deal(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .arg("deal")
        .args(args)
        .output()
        .expect("run paiju");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn deal_json(game: &str, board: u32) -> Value {
    let b = board.to_string();
    let (ok, out, err) = deal(&["--game", game, "--seed", SEED, "--board", &b]);
    assert!(ok, "{err}");
    serde_json::from_str(&out).expect("one JSON object")
}

fn count(cards: &[Value], into: &mut HashMap<String, usize>) {
    for c in cards {
        *into.entry(c.as_str().unwrap().to_string()).or_default() += 1;
    }
}

fn commitment() -> String {
    let bytes: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&SEED[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn shengji_board_has_every_field_and_two_whole_decks() {
    for board in 1..=8u32 {
        let d = deal_json("shengji", board);
        assert_eq!(d["game"], "shengji");
        assert_eq!(d["board"], board);
        assert_eq!(d["algorithm"], "paiju-deal-1");
        assert_eq!(d["commitment"], commitment());
        assert_eq!(
            d["declarer"],
            ["N", "E", "S", "W"][(board as usize - 1) % 4]
        );
        let level = d["level"].as_str().unwrap();
        assert!(
            ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"].contains(&level)
        );
        assert!(["S", "H", "D", "C"].contains(&d["trump"].as_str().unwrap()));
        let mut seen = HashMap::new();
        let hands = d["hands"].as_object().unwrap();
        assert_eq!(hands.keys().collect::<Vec<_>>(), ["N", "E", "S", "W"]);
        for hand in hands.values() {
            let hand = hand.as_array().unwrap();
            assert_eq!(hand.len(), 25);
            count(hand, &mut seen);
        }
        let kitty = d["kitty"].as_array().unwrap();
        assert_eq!(kitty.len(), 8);
        count(kitty, &mut seen);
        // Two decks: 54 faces, each exactly twice.
        assert_eq!(seen.len(), 54);
        assert!(seen.values().all(|&n| n == 2), "{seen:?}");
        assert!(seen.contains_key("S10") && seen.contains_key("BJ") && seen.contains_key("RJ"));
    }
}

#[test]
fn gouji_game_has_six_hands_of_fifty_without_threes() {
    let d = deal_json("gouji", 1);
    assert_eq!(d["game"], "gouji");
    assert!(d.get("kitty").is_none());
    let hands = d["hands"].as_object().unwrap();
    assert_eq!(
        hands.keys().collect::<Vec<_>>(),
        ["A1", "B1", "A2", "B2", "A3", "B3"]
    );
    let mut seen = HashMap::new();
    for hand in hands.values() {
        assert_eq!(hand.as_array().unwrap().len(), 50);
        count(hand.as_array().unwrap(), &mut seen);
    }
    assert_eq!(seen.len(), 50, "54 faces less the four 3s");
    assert!(seen.keys().all(|c| !c.ends_with('3')));
    assert!(seen.values().all(|&n| n == 6));
}

#[test]
fn the_same_seed_and_board_deal_the_same_cards_and_others_differ() {
    assert_eq!(deal_json("shengji", 5), deal_json("shengji", 5));
    assert_ne!(
        deal_json("shengji", 5)["hands"],
        deal_json("shengji", 6)["hands"]
    );
    assert_eq!(deal_json("gouji", 2), deal_json("gouji", 2));
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    // The command line (clap) names the argument; the seed's and the game's own checks say why.
    let cases: [(&[&str], &[&str]); 5] = [
        (
            &["--seed", "abc", "--board", "1"],
            &["--seed", "64 hex digits"],
        ),
        (&["--seed", SEED], &["required", "--board"]),
        (
            &["--seed", SEED, "--board", "x"],
            &["invalid value 'x'", "--board"],
        ),
        (
            &["--game", "poker", "--seed", SEED, "--board", "1"],
            &["--game", "unknown game \"poker\" (gouji or shengji)"],
        ),
        (&["--colour", "red"], &["unexpected argument '--colour'"]),
    ];
    for (args, reasons) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_paiju"))
            .arg("deal")
            .args(args)
            .output()
            .expect("run paiju");
        assert_eq!(out.status.code(), Some(2), "{args:?} should fail");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        for reason in reasons {
            assert!(err.contains(reason), "{args:?}: {err}");
        }
    }
}
