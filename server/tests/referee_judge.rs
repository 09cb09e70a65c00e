//! `paiju judge` as a referee (or an outside test) runs it: the real binary, JSON lines in and
//! out. The verdicts below are read off the rules (shengji.md, gouji.md), not off the engine.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

fn judge(lines: &[&str]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .arg("judge")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run paiju judge");
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every answer is one JSON line"))
        .collect()
}

#[test]
fn follow_questions() {
    let answers = judge(&[
        // A pair led, the follower holds a pair of that suit: 有对必须跟对.
        r#"{"game":"shengji","level":"4","trump":"S","lead":["H9","H9"],"hand":["HK","HK","H2","C3"],"play":["HK","H2"]}"#,
        r#"{"game":"shengji","level":"4","trump":"S","lead":["H9","H9"],"hand":["HK","HK","H2","C3"],"play":["HK","HK"]}"#,
        // Void in hearts: trumping in is legal.
        r#"{"game":"shengji","level":"4","trump":"S","lead":["HA"],"hand":["S2","C3"],"play":["S2"]}"#,
        // Holds a heart: must follow suit.
        r#"{"game":"shengji","level":"4","trump":"S","lead":["HA"],"hand":["H5","S2"],"play":["S2"]}"#,
        // A heart 4 is a level card, so a trump, not a heart.
        r#"{"game":"shengji","level":"4","trump":"S","lead":["HA"],"hand":["H4","C3"],"play":["C3"]}"#,
    ]);
    assert_eq!(answers[0]["legal"], false);
    assert_eq!(answers[0]["code"], "must_follow_pairs");
    assert!(answers[0]["message"]
        .as_str()
        .unwrap()
        .contains("有对必须跟对"));
    assert_eq!(answers[1], json!({"legal": true}));
    assert_eq!(answers[2], json!({"legal": true}));
    assert_eq!(answers[3]["legal"], false);
    assert_eq!(answers[3]["code"], "must_follow_suit");
    assert_eq!(answers[4], json!({"legal": true}));
}

#[test]
fn lead_questions() {
    let answers = judge(&[
        // AAK of hearts; nobody holds a higher heart pair or single: the throw stands.
        r#"{"game":"shengji","level":"4","trump":"S","hand":["HA","HA","HK","C3"],"play":["HA","HA","HK"],"others":[["H2","H3"],["C5","C6"],["D7","D8"]]}"#,
        // A K Q of hearts while another player holds the second HA: the singles K and Q are
        // blocked; penalty 10 a card; the smallest blocked unit, HQ, is forced.
        r#"{"game":"shengji","level":"4","trump":"S","hand":["HA","HK","HQ"],"play":["HA","HK","HQ"],"others":[["HA","H3"],["C5","C6"],["D7","D8"]]}"#,
        // Mixed suits are not one lead.
        r#"{"game":"shengji","level":"4","trump":"S","hand":["HA","CA"],"play":["HA","CA"],"others":[[],[],[]]}"#,
    ]);
    assert_eq!(answers[0], json!({"legal": true, "throw": "stands"}));
    assert_eq!(answers[1]["legal"], true);
    assert_eq!(answers[1]["throw"], "fails");
    assert_eq!(answers[1]["penalty"], 30);
    assert_eq!(answers[1]["forced"], json!(["HQ"]));
    assert_eq!(answers[2]["legal"], false);
    assert_eq!(answers[2]["code"], "lead_mixed_suits");
}

#[test]
fn trick_questions() {
    let answers = judge(&[
        // Hearts led; the third player trumps with a small spade: it wins; 10 + K = 20 points.
        r#"{"game":"shengji","level":"4","trump":"S","trick":[["H10"],["HK"],["S2"],["HA"]]}"#,
        // Two identical cards: the earlier wins.
        r#"{"game":"shengji","level":"4","trump":"S","trick":[["HA"],["HA"],["H5"],["H3"]]}"#,
        // A pair led; a trump answer without a pair is only a discard.
        r#"{"game":"shengji","level":"4","trump":"S","trick":[["H9","H9"],["S2","S3"],["H5","H6"],["C3","C7"]]}"#,
    ]);
    assert_eq!(answers[0], json!({"winner": 2, "points": 20}));
    assert_eq!(answers[1], json!({"winner": 0, "points": 5}));
    assert_eq!(answers[2]["winner"], 0);
}

#[test]
fn gouji_questions() {
    let answers = judge(&[
        r#"{"game":"gouji","set":["SK","HK"]}"#,
        r#"{"game":"gouji","set":["S9","S9","S9","S9","S9","S9"]}"#,
        r#"{"game":"gouji","set":["S9","S10"]}"#,
        r#"{"game":"gouji","top":["S7","H7","D7"],"play":["C2","S8","S8"]}"#,
        r#"{"game":"gouji","top":["BJ"],"play":["RJ","RJ"]}"#,
        r#"{"game":"gouji","top":["RJ"],"play":["RJ","RJ"]}"#,
    ]);
    assert_eq!(answers[0], json!({"valid": true, "gouji": true}));
    assert_eq!(answers[1], json!({"valid": true, "gouji": false}));
    assert_eq!(answers[2]["valid"], false);
    assert_eq!(answers[3], json!({"beats": true}));
    assert_eq!(answers[4]["beats"], false, "小花不能两打一");
    assert_eq!(answers[5], json!({"beats": true}), "大花两打一");
}

#[test]
fn a_bad_line_gets_an_error_and_the_rest_go_on() {
    let answers = judge(&[
        "this is not json",
        r#"{"game":"poker"}"#,
        r#"{"level":"4"}"#,
        r#"{"game":"shengji","level":"4","trump":"S","lead":["X9"],"hand":[],"play":[]}"#,
        r#"{"game":"gouji","set":["SK","HK"]}"#,
    ]);
    assert_eq!(answers.len(), 5);
    for a in &answers[..4] {
        assert!(a["error"].is_string(), "{a}");
    }
    assert_eq!(answers[4], json!({"valid": true, "gouji": true}));
}
