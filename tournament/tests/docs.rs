//! docs/tournaments.md shows what the code prints: its `paiju event score` example is scored
//! here and must give the output the page shows, and its movement example must be the movement.

use serde_json::Value;
use tournament::{movement, score, ScoreInput, Variant};

const PAGE: &str = include_str!("../../docs/tournaments.md");

/// The JSON of the fenced block after `marker`.
fn block_after(marker: &str) -> Value {
    let rest = &PAGE[PAGE.find(marker).expect("marker on the page")..];
    let start = rest.find("```json\n").expect("a json block") + "```json\n".len();
    let end = start + rest[start..].find("```").expect("block end");
    serde_json::from_str(&rest[start..end]).expect("valid JSON on the page")
}

#[test]
fn the_pages_score_example_is_what_score_prints() {
    let input: ScoreInput = serde_json::from_value(block_after("<!-- score-input -->")).unwrap();
    let out = serde_json::to_value(score(input).unwrap()).unwrap();
    assert_eq!(out, block_after("<!-- score-output -->"));
}

#[test]
fn the_pages_movement_example_is_the_movement() {
    let line = PAGE
        .lines()
        .skip_while(|l| !l.contains("--tables 3 --rounds 3 --boards-per-round 2"))
        .nth(1)
        .expect("the example's output line");
    let shown: Value = serde_json::from_str(line).unwrap();
    let m = movement(3, 3, 2, Variant::Plain).unwrap();
    assert_eq!(shown, serde_json::to_value(m).unwrap());
}
