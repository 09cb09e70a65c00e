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
