//! `paiju judge` for 够级: exactly the two question forms and their answers.

use rules::gouji::judge::{answer, Answer, Question};
use serde_json::{json, Value};

fn ask(q: Value) -> Value {
    let q: Question = serde_json::from_value(q).expect("a question");
    serde_json::to_value(answer(&q)).unwrap()
}

#[test]
fn is_it_a_set_and_a_gouji() {
    assert_eq!(
        ask(json!({"game":"gouji","set":["SK","HK"]})),
        json!({"valid":true,"gouji":true})
    );
    assert_eq!(
        ask(json!({"game":"gouji","set":["S10","H10","D10","C10"]})),
        json!({"valid":true,"gouji":false})
    );
    assert_eq!(
        ask(json!({"game":"gouji","set":["S10","H10","D10","C10","C2"]})),
        json!({"valid":true,"gouji":true})
    );
    assert_eq!(
        ask(json!({"game":"gouji","set":["S4","BJ"]})),
        json!({"valid":true,"gouji":true})
    );
    let bad = ask(json!({"game":"gouji","set":["S7","H8"]}));
    assert_eq!(bad["valid"], json!(false));
    assert_eq!(bad["code"], json!("mixed_ranks"));
    assert!(bad["message"]
        .as_str()
        .unwrap()
        .contains("一套牌只能有一种点数（可带2和王）"));
    assert!(bad["message_en"].as_str().unwrap().contains("one rank"));
    assert_eq!(bad.as_object().unwrap().len(), 4);
    assert_eq!(
        ask(json!({"game":"gouji","set":[]}))["code"],
        json!("empty_set")
    );
    assert_eq!(
        ask(json!({"game":"gouji","set":["S3"]}))["code"],
        json!("card_not_in_game")
    );
}

#[test]
fn does_it_beat() {
    let beats = |top: Value, play: Value| ask(json!({"game":"gouji","top":top,"play":play}));
    assert_eq!(
        beats(json!(["SK", "HK"]), json!(["SA", "C2"])),
        json!({"beats":true})
    );
    assert_eq!(
        beats(json!(["SK", "HK"]), json!(["SA"])),
        json!({"beats":false})
    );
    assert_eq!(
        beats(json!(["RJ"]), json!(["RJ", "RJ"])),
        json!({"beats":true})
    );
    assert_eq!(
        beats(json!(["BJ"]), json!(["RJ", "RJ"])),
        json!({"beats":false})
    );
    assert_eq!(
        beats(json!(["RJ", "S7"]), json!(["RJ", "RJ", "S8"])),
        json!({"beats":true})
    );
    let bad = beats(json!(["SK", "HK"]), json!(["SA", "SQ"]));
    assert_eq!(bad["beats"], json!(false));
    assert_eq!(bad["code"], json!("mixed_ranks"));
    assert!(bad["message"].is_string());
    assert_eq!(bad.as_object().unwrap().len(), 3);
    let bad = beats(json!(["S7", "H8"]), json!(["SA", "HA"]));
    assert_eq!(bad["code"], json!("mixed_ranks"));
}

#[test]
fn only_the_two_forms() {
    assert!(serde_json::from_value::<Question>(json!({"game":"gouji"})).is_err());
    assert!(serde_json::from_value::<Question>(json!({"game":"gouji","top":["SK"]})).is_err());
    assert!(serde_json::from_value::<Question>(json!({"game":"gouji","set":["ZZ"]})).is_err());
    assert!(matches!(
        answer(&serde_json::from_value(json!({"set":["SK"]})).unwrap()),
        Answer::Set {
            valid: true,
            gouji: false
        }
    ));
}

fn docs() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rules-gouji.md");
    std::fs::read_to_string(path).expect("docs/rules-gouji.md")
}

/// Six decks hold six of each card: seven ♠K in one set, or more than six of a card in the top
/// set and the play together, are refused with a typed reason; six is the legal maximum.
#[test]
fn cards_six_decks_cannot_hold_are_refused() {
    let sk = |n: usize| json!(vec!["SK"; n]);
    let seven = ask(json!({"game":"gouji","set":sk(7)}));
    assert_eq!(seven["valid"], json!(false), "{seven}");
    assert_eq!(seven["code"], json!("too_many_copies"));
    assert!(
        seven["message"].as_str().unwrap().contains("7 张 SK"),
        "{seven}"
    );
    assert!(
        seven["message_en"].as_str().unwrap().contains("7 of SK"),
        "{seven}"
    );
    assert_eq!(
        ask(json!({"game":"gouji","set":sk(6)})),
        json!({"valid":true,"gouji":true})
    );
    // With 2s and jokers attached, each card counts for itself: six ♠K, six ♣2, six 大王.
    let mut big = vec!["SK"; 6];
    big.extend(["C2"; 6]);
    big.extend(["RJ"; 6]);
    assert_eq!(
        ask(json!({"game":"gouji","set":big})),
        json!({"valid":true,"gouji":true})
    );
    let beats = |top: Value, play: Value| ask(json!({"game":"gouji","top":top,"play":play}));
    for (top, play) in [
        (sk(7), json!(["SA"])),
        (json!(["SQ"]), sk(7)),
        (json!(["RJ", "RJ", "RJ"]), json!(["RJ", "RJ", "RJ", "RJ"])),
    ] {
        let a = beats(top.clone(), play.clone());
        assert_eq!(a["beats"], json!(false), "{top} {play}: {a}");
        assert_eq!(a["code"], json!("too_many_copies"), "{top} {play}: {a}");
    }
    // Six 大王 in all, the legal maximum across the two sets: 大花两打一, four beat two.
    assert_eq!(
        beats(json!(["RJ", "RJ"]), json!(["RJ", "RJ", "RJ", "RJ"])),
        json!({"beats":true})
    );
}

/// The judge examples of docs/rules-gouji.md are what the judge answers.
#[test]
fn the_documented_examples_hold() {
    let docs = docs();
    let mut n = 0;
    for line in docs
        .lines()
        .filter(|l| l.starts_with("{\"game\":\"gouji\""))
    {
        let (q, a) = line.split_once('→').expect("question → answer");
        let q: Value = serde_json::from_str(q.trim()).unwrap();
        let a: Value = serde_json::from_str(a.trim()).unwrap();
        assert_eq!(ask(q), a, "{line}");
        n += 1;
    }
    assert!(n >= 6);
}

/// Every error code and every ruleset option is documented.
#[test]
fn every_code_and_option_is_documented() {
    use rules::gouji::{RuleError, Ruleset};
    let docs = docs();
    for code in RuleError::CODES {
        assert!(docs.contains(&format!("`{code}`")), "{code}");
    }
    let ruleset = serde_json::to_value(Ruleset::zaozhuang_2017()).unwrap();
    let mut keys: Vec<String> = ruleset.as_object().unwrap().keys().cloned().collect();
    keys.extend(ruleset["scoring"].as_object().unwrap().keys().cloned());
    for key in keys.iter().filter(|k| *k != "name") {
        assert!(docs.contains(&format!("`{key}")), "option {key}");
    }
    // The named ruleset round-trips.
    let back: Ruleset = serde_json::from_value(ruleset).unwrap();
    assert_eq!(Some(back), Ruleset::by_name("zaozhuang-2017"));
    assert_eq!(Ruleset::by_name("qingdao-4deck"), None);
}
