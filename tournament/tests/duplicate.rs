//! 计副制: match points, Neuberg, artificial scores, deductions and the ranking, against sessions
//! computed by hand (the working is in the comments), through the `paiju event score` contract.

use rules::Explain;
use serde_json::{json, Value};
use tournament::matchpoints::{neuberg, raw_ns, top};
use tournament::ranking::prize_places;
use tournament::{score, Direction, Error, Mp, ScoreInput};

fn run(input: Value) -> Result<Value, Error> {
    let input: ScoreInput = serde_json::from_value(input).expect("well-formed input");
    score(input).map(|out| serde_json::to_value(out).unwrap())
}

/// `[(pair, mp, place)]` of one direction's ranking.
fn ranking(out: &Value, direction: &str) -> Vec<(String, f64, Option<u64>)> {
    out["ranking"][direction]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["pair"].as_str().unwrap().to_string(),
                s["mp"].as_f64().unwrap(),
                s["place"].as_u64(),
            )
        })
        .collect()
}

fn r(pair: &str, mp: f64, place: u64) -> (String, f64, Option<u64>) {
    (pair.to_string(), mp, Some(place))
}

/// `(ns, ew, ns_mp, ew_mp)` of each result of `board`.
fn board(out: &Value, board: u64) -> Vec<(String, String, f64, f64)> {
    let b = out["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["board"] == board)
        .unwrap();
    b["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["ns"].as_str().unwrap_or("-").to_string(),
                x["ew"].as_str().unwrap_or("-").to_string(),
                x["ns_mp"].as_f64().unwrap_or(f64::NAN),
                x["ew_mp"].as_f64().unwrap_or(f64::NAN),
            )
        })
        .collect()
}

/// One expected result; `_board` only labels the line for a reader.
fn res(_board: &str, ns: &str, ew: &str, mp: (f64, f64)) -> (String, String, f64, f64) {
    (ns.to_string(), ew.to_string(), mp.0, mp.1)
}

/// A 3-table Mitchell, one board a round (R1: 1-1 b1, 2-2 b2, 3-3 b3; R2: 1-3 b2, 2-1 b3,
/// 3-2 b1; R3: 1-2 b3, 2-3 b1, 3-1 b2).
fn three_tables() -> Value {
    json!({
        "pairs": {"NS": ["1", "2", "3"], "EW": ["1", "2", "3"]},
        "results": [
            // Board 1, N declares: 60, 85, 60. NS: 60s beat 85 and tie each other, 2+1 = 3.
            {"board": 1, "ns": "1", "ew": "1", "declarer": "N", "defenders": 60},
            {"board": 1, "ns": "3", "ew": "2", "declarer": "N", "defenders": 85},
            {"board": 1, "ns": "2", "ew": "3", "declarer": "N", "defenders": 60},
            // Board 2, E declares: NS defend and want many: 100 beats both (4); the 40s tie (1).
            {"board": 2, "ns": "2", "ew": "2", "declarer": "E", "defenders": 40},
            {"board": 2, "ns": "1", "ew": "3", "declarer": "E", "defenders": 100},
            {"board": 2, "ns": "3", "ew": "1", "declarer": "E", "defenders": 40},
            // Board 3, S declares: 45 beats both (4), 80 beats 120 (2), 120 nothing.
            {"board": 3, "ns": "3", "ew": "3", "declarer": "S", "defenders": 120},
            {"board": 3, "ns": "2", "ew": "1", "declarer": "S", "defenders": 45},
            {"board": 3, "ns": "1", "ew": "2", "declarer": "S", "defenders": 80}
        ]
    })
}

#[test]
fn matchpoints_within_a_direction_declarer_wants_few() {
    let out = run(three_tables()).unwrap();
    assert_eq!(
        board(&out, 1),
        [
            res("b1", "1", "1", (3.0, 1.0)),
            res("b1", "2", "3", (3.0, 1.0)),
            res("b1", "3", "2", (0.0, 4.0)),
        ]
    );
    assert_eq!(
        board(&out, 2),
        [
            res("b2", "1", "3", (4.0, 0.0)),
            res("b2", "2", "2", (1.0, 3.0)),
            res("b2", "3", "1", (1.0, 3.0)),
        ]
    );
    assert_eq!(
        board(&out, 3),
        [
            res("b3", "1", "2", (2.0, 2.0)),
            res("b3", "2", "1", (4.0, 0.0)),
            res("b3", "3", "3", (0.0, 4.0)),
        ]
    );
    // NS: 1 = 3+4+2 = 9, 2 = 3+1+4 = 8, 3 = 0+1+0 = 1. EW: 1 = 1+3+0 = 4, 2 = 4+3+2 = 9,
    // 3 = 1+0+4 = 5.
    assert_eq!(
        ranking(&out, "NS"),
        [r("1", 9.0, 1), r("2", 8.0, 2), r("3", 1.0, 3)]
    );
    assert_eq!(
        ranking(&out, "EW"),
        [r("2", 9.0, 1), r("3", 5.0, 2), r("1", 4.0, 3)]
    );
    // The exact wire form of one result and one standing.
    assert_eq!(
        out["boards"][0]["results"][0],
        json!({"ns":"1","ew":"1","defenders":60,"ns_mp":3,"ew_mp":1})
    );
    assert_eq!(
        out["ranking"]["NS"][0],
        json!({"pair":"1","mp":9,"place":1,"prize":false})
    );
}

#[test]
fn deductions_come_off_the_total_and_the_best_boards_break_the_tie() {
    // Two records of 0.5 on NS 1 (the default amount): 9 − 1 = 8, level with NS 2.
    // Best boards: NS 1 has 4, 3, 2; NS 2 has 4, 3, 1: equal best, equal second, NS 1 has the
    // better third best.
    let mut input = three_tables();
    input["deductions"] = json!([
        {"direction": "NS", "pair": "1", "reason": "迟到"},
        {"direction": "NS", "pair": "1", "mp": 0.5}
    ]);
    let out = run(input).unwrap();
    assert_eq!(
        ranking(&out, "NS"),
        [r("1", 8.0, 1), r("2", 8.0, 2), r("3", 1.0, 3)]
    );
    assert_eq!(out["ranking"]["NS"][0]["deducted"], json!(1));
    // 1.5 in one record: 7.5, now second.
    let mut input = three_tables();
    input["deductions"] = json!([{"direction": "NS", "pair": "1", "mp": 1.5}]);
    let out = run(input).unwrap();
    assert_eq!(
        ranking(&out, "NS"),
        [r("2", 8.0, 1), r("1", 7.5, 2), r("3", 1.0, 3)]
    );
}

/// Four pairs a side, two boards each played four times.
fn four_pairs() -> Value {
    json!({
        "pairs": {"NS": ["1", "2", "3", "4"], "EW": ["1", "2", "3", "4"]},
        "results": [
            // Board 1, N declares: 50, 50, 90, 70. NS: 5, 5, 0, 2; EW: 1, 1, 6, 4.
            {"board": 1, "ns": "1", "ew": "1", "declarer": "N", "defenders": 50},
            {"board": 1, "ns": "2", "ew": "2", "declarer": "N", "defenders": 50},
            {"board": 1, "ns": "3", "ew": "3", "declarer": "N", "defenders": 90},
            {"board": 1, "ns": "4", "ew": "4", "declarer": "N", "defenders": 70},
            // Board 2, N declares: 70, 70, 30, 110. NS: 3, 3, 6, 0; EW: 3, 3, 0, 6.
            {"board": 2, "ns": "1", "ew": "2", "declarer": "N", "defenders": 70},
            {"board": 2, "ns": "2", "ew": "1", "declarer": "N", "defenders": 70},
            {"board": 2, "ns": "3", "ew": "4", "declarer": "N", "defenders": 30},
            {"board": 2, "ns": "4", "ew": "3", "declarer": "N", "defenders": 110}
        ]
    })
}

#[test]
fn a_tie_that_survives_every_tie_break_shares_the_place_and_leaves_the_next_empty() {
    let out = run(four_pairs()).unwrap();
    // NS 1 and NS 2: 8 each, boards 5 and 3 each: nothing separates them. Both 1st, no 2nd.
    assert_eq!(
        ranking(&out, "NS"),
        [
            r("1", 8.0, 1),
            r("2", 8.0, 1),
            r("3", 6.0, 3),
            r("4", 2.0, 4)
        ]
    );
    // EW 1, 2 and 4 have 4 each: EW 4's best board (4) beats theirs (3), so EW 4 is 2nd; EW 1
    // and 2 (3 and 1 each) share 3rd and there is no 4th.
    assert_eq!(
        ranking(&out, "EW"),
        [
            r("3", 12.0, 1),
            r("4", 4.0, 2),
            r("1", 4.0, 3),
            r("2", 4.0, 3)
        ]
    );
}

#[test]
fn a_board_played_fewer_times_is_scaled_by_neuberg() {
    // Board 3 (W declares: NS defend, want many) only at two tables: NS 1 80, NS 2 60.
    // Raw on a top of 2: NS 1 2, NS 2 0. Neuberg to E = 4: (2+1)·4/2 − 1 = 5 and
    // (0+1)·4/2 − 1 = 1; EW 3 and 4 get 6 − 5 = 1 and 6 − 1 = 5.
    let mut input = four_pairs();
    let results = input["results"].as_array_mut().unwrap();
    results.push(json!({"board": 3, "ns": "1", "ew": "3", "declarer": "W", "defenders": 80}));
    results.push(json!({"board": 3, "ns": "2", "ew": "4", "declarer": "W", "defenders": 60}));
    let out = run(input).unwrap();
    assert_eq!(
        board(&out, 3),
        [
            res("b3", "1", "3", (5.0, 1.0)),
            res("b3", "2", "4", (1.0, 5.0))
        ]
    );
    // The two tied NS pairs are now apart: 13 and 9.
    assert_eq!(
        ranking(&out, "NS"),
        [
            r("1", 13.0, 1),
            r("2", 9.0, 2),
            r("3", 6.0, 3),
            r("4", 2.0, 4)
        ]
    );
    // Thirds, as the formula gives them: 3 of 4 played, raw 4 → (4+1)·4/3 − 1 = 17/3.
    assert_eq!(neuberg(Mp::whole(4), 3, 4), Mp::new(17, 3));
    assert_eq!(
        neuberg(Mp::whole(0), 1, 9),
        Mp::whole(8),
        "alone on a board: half the top"
    );
}

#[test]
fn artificial_scores_are_shares_of_the_top_and_the_rest_is_scaled() {
    // Board 3 (W declares): NS 1 v EW 3 not played: A+ to NS, A− to EW: 60 % and 40 % of the
    // top of 6, 3.6 and 2.4. The three played results are compared among themselves (100 beats
    // both: 4; the 60s tie: 1 each, top 4) and scaled 3 → 4: 17/3 ≈ 5.67 and 5/3 ≈ 1.67;
    // EW 6 − those: 1/3 ≈ 0.33 and 13/3 ≈ 4.33.
    let mut input = four_pairs();
    let results = input["results"].as_array_mut().unwrap();
    results.push(json!({"board": 3, "ns": "1", "ew": "3", "artificial": {"ns": "A+", "ew": "A-"}}));
    results.push(json!({"board": 3, "ns": "2", "ew": "4", "declarer": "W", "defenders": 60}));
    results.push(json!({"board": 3, "ns": "3", "ew": "1", "declarer": "W", "defenders": 100}));
    results.push(json!({"board": 3, "ns": "4", "ew": "2", "declarer": "W", "defenders": 60}));
    let out = run(input).unwrap();
    assert_eq!(
        board(&out, 3),
        [
            res("b3", "1", "3", (3.6, 2.4)),
            res("b3", "2", "4", (1.67, 4.33)),
            res("b3", "3", "1", (5.67, 0.33)),
            res("b3", "4", "2", (1.67, 4.33)),
        ]
    );
    assert_eq!(
        out["boards"][2]["results"][0],
        json!({"ns":"1","ew":"3","artificial":{"ns":"A+","ew":"A-"},"ns_mp":3.6,"ew_mp":2.4})
    );
    // Exact sums: NS 2 = 5 + 3 + 5/3 = 29/3 (9.67), NS 3 = 0 + 6 + 17/3 = 35/3 (11.67).
    let ns = ranking(&out, "NS");
    assert_eq!(ns[0], r("3", 11.67, 1));
    assert_eq!(ns[1], r("1", 11.6, 2));
    assert_eq!(ns[2], r("2", 9.67, 3));
}

#[test]
fn a_pair_facing_a_phantom_sits_out_with_an_average() {
    // Board 3 at four tables, EW 4 is a phantom: NS 2 sits out with A (50 % of 6 = 3), the
    // other three results are compared and scaled as in a board played 3 times of 4.
    let mut input = four_pairs();
    let results = input["results"].as_array_mut().unwrap();
    results.push(json!({"board": 3, "ns": "1", "ew": "3", "declarer": "W", "defenders": 80}));
    results.push(json!({"board": 3, "ns": "2", "artificial": {"ns": "A"}}));
    results.push(json!({"board": 3, "ns": "3", "ew": "1", "declarer": "W", "defenders": 80}));
    results.push(json!({"board": 3, "ns": "4", "ew": "2", "declarer": "W", "defenders": 20}));
    let out = run(input).unwrap();
    // 80, 80, 20 for the defending NS: 3, 3, 0 on a top of 4 → (3+1)·4/3 − 1 = 13/3, 1/3.
    let b3 = board(&out, 3);
    assert_eq!(b3[0], res("b3", "1", "3", (4.33, 1.67)));
    assert_eq!(b3[2], res("b3", "3", "1", (4.33, 1.67)));
    assert_eq!(b3[3], res("b3", "4", "2", (0.33, 5.67)));
    let sit_out = &out["boards"][2]["results"][1];
    assert_eq!(
        sit_out,
        &json!({"ns":"2","ew":null,"artificial":{"ns":"A"},"ns_mp":3,"ew_mp":null})
    );
}

#[test]
fn a_disqualified_pair_keeps_the_results_and_loses_the_place() {
    // EW 3 (first with 12) disqualified: the other EW pairs move up in order; the match points
    // everybody earned against it stand.
    let mut input = four_pairs();
    input["disqualified"] = json!([{"direction": "EW", "pair": "3"}]);
    let out = run(input).unwrap();
    assert_eq!(
        ranking(&out, "EW"),
        [
            r("4", 4.0, 1),
            r("1", 4.0, 2),
            r("2", 4.0, 2),
            ("3".to_string(), 12.0, None)
        ]
    );
    assert_eq!(out["ranking"]["EW"][3]["disqualified"], json!(true));
    assert_eq!(ranking(&out, "NS")[0], r("1", 8.0, 1), "NS untouched");
}

#[test]
fn prize_places_by_the_size_of_the_field() {
    // 六(一): 11 or more, 8; 8 to 10, 6; 6 to 7, 3; under 6 the event is not held as such.
    let expected = [
        (0, 0),
        (5, 0),
        (6, 3),
        (7, 3),
        (8, 6),
        (10, 6),
        (11, 8),
        (40, 8),
    ];
    for (field, prizes) in expected {
        assert_eq!(prize_places(field), prizes, "{field} entries");
    }
    // Seven NS pairs, all tied except one: places 1, 2×6 → six pairs share 2nd, within the 3
    // prize places; the eighth place does not exist.
    let pairs: Vec<String> = (1..=7).map(|p| p.to_string()).collect();
    let results: Vec<Value> = (1..=7)
        .map(|p| {
            let d = if p == 1 { 0 } else { 50 };
            json!({"board": 1, "ns": p.to_string(), "ew": p.to_string(), "declarer": "N", "defenders": d})
        })
        .collect();
    let out = run(json!({"pairs": {"NS": pairs, "EW": pairs}, "results": results})).unwrap();
    let ns = out["ranking"]["NS"].as_array().unwrap();
    let places: Vec<u64> = ns.iter().map(|s| s["place"].as_u64().unwrap()).collect();
    assert_eq!(places, [1, 2, 2, 2, 2, 2, 2]);
    assert!(
        ns.iter().all(|s| s["prize"] == json!(true)),
        "2nd is a prize place"
    );
    let ew = out["ranking"]["EW"].as_array().unwrap();
    let ew_places: Vec<u64> = ew.iter().map(|s| s["place"].as_u64().unwrap()).collect();
    assert_eq!(ew_places, [1, 1, 1, 1, 1, 1, 7]);
    assert_eq!(
        ew[6]["prize"],
        json!(false),
        "7th is outside the 3 prize places"
    );
}

/// 南北方向和东西方向各取名额由主办方确定 (seed 000 二.4): the organiser's prize places, per
/// direction, override the national table; a direction left out keeps it.
#[test]
fn prize_places_are_the_organisers_to_set_per_direction() {
    let pairs: Vec<String> = (1..=12).map(|p| p.to_string()).collect();
    // Twelve results, twelve different points: places 1..=12 in both directions.
    let results: Vec<Value> = (1..=12)
        .map(|p| json!({"board": 1, "ns": p.to_string(), "ew": p.to_string(), "declarer": "N", "defenders": 5 * p}))
        .collect();
    let prized = |out: &Value, direction: &str| -> usize {
        out["ranking"][direction]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["prize"] == json!(true))
            .count()
    };
    let by_table = run(json!({"pairs": {"NS": pairs, "EW": pairs}, "results": results})).unwrap();
    assert_eq!(
        (prized(&by_table, "NS"), prized(&by_table, "EW")),
        (8, 8),
        "12 entries: 8"
    );
    let set = run(
        json!({"pairs": {"NS": pairs, "EW": pairs}, "results": results,
        "prizes": {"NS": 3, "EW": 5}}),
    )
    .unwrap();
    assert_eq!((prized(&set, "NS"), prized(&set, "EW")), (3, 5));
    let one = run(
        json!({"pairs": {"NS": pairs, "EW": pairs}, "results": results,
        "prizes": {"EW": 0}}),
    )
    .unwrap();
    assert_eq!(
        (prized(&one, "NS"), prized(&one, "EW")),
        (8, 0),
        "NS keeps the table"
    );
    // A field below six has prizes only if the organiser says so.
    let small: Vec<String> = (1..=3).map(|p| p.to_string()).collect();
    let three: Vec<Value> = (1..=3)
        .map(|p| json!({"board": 1, "ns": p.to_string(), "ew": p.to_string(), "declarer": "N", "defenders": 5 * p}))
        .collect();
    let out = run(
        json!({"pairs": {"NS": small, "EW": small}, "results": three,
        "prizes": {"NS": 1, "EW": 1}}),
    )
    .unwrap();
    assert_eq!((prized(&out, "NS"), prized(&out, "EW")), (1, 1));
    let typo = json!({"pairs": {"NS": small, "EW": small}, "results": three,
        "prizes": {"NS": 1, "north": 2}});
    assert!(
        serde_json::from_value::<ScoreInput>(typo).is_err(),
        "unknown fields are refused"
    );
}

#[test]
fn results_below_zero_are_results() {
    // 罚分: a penalty on a defender comes off the defenders' points, below 0 if need be.
    let out = run(json!({
        "pairs": {"NS": ["1", "2"], "EW": ["1", "2"]},
        "results": [
            {"board": 1, "ns": "1", "ew": "1", "declarer": "N", "defenders": -10},
            {"board": 1, "ns": "2", "ew": "2", "declarer": "N", "defenders": 0}
        ]
    }))
    .unwrap();
    assert_eq!(board(&out, 1)[0], res("b1", "1", "1", (2.0, 0.0)));
}

#[test]
fn bad_input_is_refused_with_what_is_wrong() {
    let with = |extra: Value| {
        let mut input = four_pairs();
        input["results"].as_array_mut().unwrap().push(extra);
        run(input).unwrap_err()
    };
    let e = with(json!({"board": 2, "ns": "9", "ew": "1", "declarer": "N", "defenders": 10}));
    assert_eq!(
        e,
        Error::UnknownPair {
            direction: Direction::NS,
            pair: "9".into()
        }
    );
    assert_eq!(e.code(), "unknown_pair");
    assert!(
        e.en().contains("unknown pair") && e.zh().contains("南北没有第 9 对"),
        "{e}"
    );

    let e = with(json!({"board": 1, "ns": "1", "ew": "1", "declarer": "N", "defenders": 10}));
    assert_eq!(
        e,
        Error::PlayedTwice {
            board: 1,
            ns: "1".into(),
            ew: "1".into()
        }
    );
    assert!(
        e.en().contains("board 1 played twice by the same pairs"),
        "{e}"
    );

    let e = with(json!({"board": 1, "ns": "1", "ew": "3", "declarer": "N", "defenders": 10}));
    assert_eq!(
        e,
        Error::PairPlayedBoardTwice {
            board: 1,
            direction: Direction::NS,
            pair: "1".into()
        }
    );

    let e = with(json!({"board": 3, "ns": "1", "ew": "3", "declarer": "N", "defenders": 12}));
    assert_eq!(
        e,
        Error::BadPoints {
            board: 3,
            defenders: 12
        }
    );
    // One bound with the competition's adjusted results (±MAX_POINTS): the range is said
    // before the fives, so 2000 (a typo for 200) is refused for its size.
    for defenders in [2000, -1005, 1005] {
        let e = with(
            json!({"board": 3, "ns": "1", "ew": "3", "declarer": "N", "defenders": defenders}),
        );
        assert_eq!(
            e,
            Error::PointsOutOfRange {
                board: 3,
                defenders,
                max: tournament::MAX_POINTS
            }
        );
        assert!(e.en().contains("-1000 to 1000"), "{}", e.en());
        assert!(e.zh().contains("-1000 到 1000"), "{}", e.zh());
    }
    for defenders in [1000, -1000] {
        let mut input = four_pairs();
        input["results"].as_array_mut().unwrap().push(
            json!({"board": 3, "ns": "1", "ew": "3", "declarer": "N", "defenders": defenders}),
        );
        assert!(run(input).is_ok(), "{defenders} is the bound, inside");
    }

    let mut input = four_pairs();
    input["results"][1]["declarer"] = json!("E");
    let e = run(input).unwrap_err();
    assert_eq!(
        e,
        Error::DeclarerMismatch {
            board: 1,
            first: tournament::Seat::N,
            second: tournament::Seat::E
        }
    );

    let e = with(json!({"board": 3, "ns": "1", "ew": "3", "defenders": 10}));
    assert_eq!(e, Error::MissingDeclarer { board: 3 });
    let e = with(json!({"board": 3, "ns": "1", "declarer": "N", "defenders": 10}));
    assert_eq!(
        e,
        Error::MissingPair {
            board: 3,
            direction: Direction::EW
        }
    );
    let e = with(json!({"board": 3, "ns": "1", "ew": "3"}));
    assert_eq!(e, Error::NoOutcome { board: 3 });
    let e = with(
        json!({"board": 3, "ns": "1", "ew": "3", "declarer": "N", "defenders": 10, "artificial": {"ns": "A", "ew": "A"}}),
    );
    assert_eq!(e, Error::TwoOutcomes { board: 3 });
    let e = with(json!({"board": 3, "ns": "1", "ew": "3", "artificial": {"ns": "A"}}));
    assert_eq!(
        e,
        Error::ArtificialSide {
            board: 3,
            direction: Direction::EW,
            given: false
        }
    );
    let e = with(json!({"board": 3, "ns": "1", "artificial": {"ns": "A", "ew": "A"}}));
    assert_eq!(
        e,
        Error::ArtificialSide {
            board: 3,
            direction: Direction::EW,
            given: true
        }
    );
    let e = with(json!({"board": 0, "ns": "1", "ew": "3", "declarer": "N", "defenders": 10}));
    assert_eq!(e, Error::BadBoard { board: 0 });

    // Deductions: positive halves only.
    for mp in [-0.5, 0.0, 0.3] {
        let mut input = four_pairs();
        input["deductions"] = json!([{"direction": "EW", "pair": "2", "mp": mp}]);
        assert_eq!(
            run(input).unwrap_err(),
            Error::BadDeduction {
                direction: Direction::EW,
                pair: "2".into(),
                mp
            }
        );
    }
    let mut input = four_pairs();
    input["deductions"] = json!([{"direction": "EW", "pair": "5"}]);
    assert_eq!(
        run(input).unwrap_err(),
        Error::UnknownPair {
            direction: Direction::EW,
            pair: "5".into()
        }
    );
    let mut input = four_pairs();
    input["pairs"]["EW"] = json!(["1", "2", "2"]);
    assert_eq!(
        run(input).unwrap_err(),
        Error::DuplicatePair {
            direction: Direction::EW,
            pair: "2".into()
        }
    );

    // Malformed JSON never reaches the scoring: unknown fields and unknown codes are named.
    let mut input = four_pairs();
    input["results"][0]["defender"] = json!(10);
    let e = serde_json::from_value::<ScoreInput>(input)
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown field `defender`"), "{e}");
    let mut input = four_pairs();
    input["results"][0] =
        json!({"board": 1, "ns": "1", "ew": "1", "artificial": {"ns": "B", "ew": "A"}});
    let e = serde_json::from_value::<ScoreInput>(input)
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown variant `B`"), "{e}");
}

#[test]
fn pair_numbers_may_be_json_numbers() {
    let out = run(json!({
        "pairs": {"NS": [1, 2], "EW": [1, 2]},
        "results": [
            {"board": 1, "ns": 1, "ew": 1, "declarer": "N", "defenders": 40},
            {"board": 1, "ns": 2, "ew": 2, "declarer": "N", "defenders": 45}
        ]
    }))
    .unwrap();
    assert_eq!(ranking(&out, "NS"), [r("1", 2.0, 1), r("2", 0.0, 2)]);
}

#[test]
fn the_raw_method_sums_to_the_tops() {
    // Each board hands out n·(n−1) match points per direction; NS + EW = top at every table.
    let d = [60, 85, 60, 120];
    let ns = raw_ns(Direction::NS, &d);
    assert_eq!(ns, [5, 2, 5, 0].map(Mp::whole));
    assert_eq!(ns.iter().copied().sum::<Mp>(), Mp::whole(12));
    assert_eq!(top(4), Mp::whole(6));
}
