//! 米切尔移位: the movement's promises, checked for every table count from 3 to 15 with every
//! variant that applies, and its exact wire form.

use std::collections::{HashMap, HashSet};

use rules::Explain;
use serde_json::json;
use tournament::movement::{max_rounds, movement, movement_card, Movement, Variant};
use tournament::{Direction, Error};

/// Every (tables, variant) the director may choose from 3 to 15 tables.
fn cases() -> Vec<(u32, Variant)> {
    (3..=15)
        .flat_map(|t| {
            if t % 2 == 1 {
                vec![(t, Variant::Plain)]
            } else {
                vec![(t, Variant::Skip), (t, Variant::Relay)]
            }
        })
        .collect()
}

/// The boards of set `s` with `k` boards per round.
fn set(s: u32, k: u32) -> Vec<u32> {
    ((s - 1) * k + 1..=s * k).collect()
}

/// Checks the promises of one movement; returns how many times each board was played.
fn check(m: &Movement, tables: u32, rounds: u32, k: u32, variant: Variant) -> HashMap<u32, u32> {
    let what = format!("{tables} tables, {rounds} rounds, {k} per round, {variant:?}");
    assert_eq!(m.rounds.len() as u32, rounds, "{what}");
    let mut met: HashSet<(u32, u32)> = HashSet::new();
    let mut ns_boards: HashSet<(u32, u32)> = HashSet::new();
    let mut ew_boards: HashSet<(u32, u32)> = HashSet::new();
    let mut played: HashMap<u32, u32> = HashMap::new();
    for (ri, round) in m.rounds.iter().enumerate() {
        assert_eq!(round.round, ri as u32 + 1, "{what}");
        assert_eq!(
            round.tables.len() as u32,
            tables,
            "{what}: every table every round"
        );
        let mut ew_here = HashSet::new();
        let mut boards_here: HashMap<Vec<u32>, Vec<u32>> = HashMap::new();
        for (ti, t) in round.tables.iter().enumerate() {
            assert_eq!(t.table, ti as u32 + 1, "{what}");
            // Every table has its boards each round, K of them, all real boards.
            assert_eq!(
                t.boards.len() as u32,
                k,
                "{what}: table {} round {}",
                t.table,
                round.round
            );
            assert!(
                t.boards.iter().all(|&b| (1..=tables * k).contains(&b)),
                "{what}"
            );
            // NS pairs stay.
            assert_eq!(t.ns, Some(t.table), "{what}: NS stays");
            let ew = t.ew.expect("no phantom here");
            assert!(
                ew_here.insert(ew),
                "{what}: EW {ew} at two tables in round {}",
                round.round
            );
            // Every NS pair meets each EW pair at most once.
            assert!(
                met.insert((t.table, ew)),
                "{what}: NS {} meets EW {ew} twice",
                t.table
            );
            for &b in &t.boards {
                // No pair plays a board twice.
                assert!(
                    ns_boards.insert((t.table, b)),
                    "{what}: NS {} plays board {b} twice",
                    t.table
                );
                assert!(
                    ew_boards.insert((ew, b)),
                    "{what}: EW {ew} plays board {b} twice"
                );
                *played.entry(b).or_default() += 1;
            }
            boards_here
                .entry(t.boards.clone())
                .or_default()
                .push(t.table);
        }
        // A set is at one table a round, except the relay's shared set at tables 1 and T.
        for (boards, at) in &boards_here {
            match (variant, at.as_slice()) {
                (_, [_]) => {}
                (Variant::Relay, [1, last]) if *last == tables => {}
                _ => panic!(
                    "{what}: boards {boards:?} at tables {at:?} in round {}",
                    round.round
                ),
            }
        }
        // The bye stand holds boards nobody plays this round.
        match variant {
            Variant::Relay => {
                let bye = round
                    .bye_stand
                    .as_ref()
                    .expect("a relay round has a bye stand");
                assert!(
                    !boards_here.contains_key(bye),
                    "{what}: bye stand boards played"
                );
                assert_eq!(
                    boards_here.len() as u32 + 1,
                    tables,
                    "{what}: T−1 sets played, one resting"
                );
            }
            _ => assert!(round.bye_stand.is_none(), "{what}"),
        }
    }
    played
}

#[test]
fn every_table_count_from_3_to_15_with_skip_and_relay() {
    for (tables, variant) in cases() {
        let max = max_rounds(tables, variant).unwrap();
        for k in 1..=3 {
            for rounds in [1, max / 2, max].into_iter().filter(|&r| r >= 1) {
                let m = movement(tables, rounds, k, variant).unwrap();
                let played = check(&m, tables, rounds, k, variant);
                if rounds == max {
                    // The full movement: every board played equally often.
                    let times = match variant {
                        Variant::Skip => tables - 1,
                        _ => tables,
                    };
                    assert_eq!(
                        played.len() as u32,
                        tables * k,
                        "{tables} {variant:?}: every board played"
                    );
                    assert!(
                        played.values().all(|&n| n == times),
                        "{tables} {variant:?}: {played:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_maximum_rounds_are_the_most_that_work() {
    assert_eq!(max_rounds(7, Variant::Plain), Ok(7));
    assert_eq!(max_rounds(8, Variant::Skip), Ok(7));
    assert_eq!(max_rounds(8, Variant::Relay), Ok(8));
    // One more round than the maximum: the error names the limit.
    let e = movement(8, 8, 2, Variant::Skip).unwrap_err();
    assert_eq!(
        e,
        Error::TooManyRounds {
            tables: 8,
            rounds: 8,
            max: 7
        }
    );
    assert_eq!(e.code(), "too_many_rounds");
    assert!(e.zh().contains("最多 7 轮"), "{}", e.zh());
}

#[test]
fn round_one_and_the_moves_as_the_text_says() {
    // 南北1号对东西1号在第1桌 …; NS stay, boards to the next lower table, EW up.
    for (tables, variant) in cases().into_iter().filter(|(_, v)| *v != Variant::Relay) {
        let m = movement(tables, max_rounds(tables, variant).unwrap(), 2, variant).unwrap();
        for t in &m.rounds[0].tables {
            assert_eq!((t.ns, t.ew), (Some(t.table), Some(t.table)));
            assert_eq!(t.boards, set(t.table, 2));
        }
        let half = tables / 2;
        for w in m.rounds.windows(2) {
            let (now, next) = (&w[0], &w[1]);
            for t in &now.tables {
                let down = if t.table == 1 { tables } else { t.table - 1 };
                assert_eq!(
                    next.tables[down as usize - 1].boards,
                    t.boards,
                    "boards go down a table"
                );
                let step = if variant == Variant::Skip && now.round == half {
                    2
                } else {
                    1
                };
                let up = (t.table - 1 + step) % tables + 1;
                assert_eq!(next.tables[up as usize - 1].ew, t.ew, "EW go up {step}");
            }
        }
    }
}

#[test]
fn relay_shares_and_rests_boards_on_the_bye_stand() {
    // 6 tables: set 4 starts on the bye stand, table 6 shares table 1's set.
    let m = movement(6, 6, 1, Variant::Relay).unwrap();
    let r1 = &m.rounds[0];
    let boards: Vec<Vec<u32>> = r1.tables.iter().map(|t| t.boards.clone()).collect();
    assert_eq!(boards, [[1], [2], [3], [5], [6], [1]]);
    assert_eq!(r1.bye_stand, Some(vec![4]));
    // Next round: table 4's boards (5) go to the bye stand, the bye stand's (4) to table 3, and
    // the shared set to table 5.
    let r2 = &m.rounds[1];
    assert_eq!(r2.bye_stand, Some(vec![5]));
    assert_eq!(r2.tables[2].boards, [4]);
    assert_eq!(r2.tables[4].boards, [1]);
    assert_eq!(r2.tables[0].boards, r2.tables[5].boards);
}

#[test]
fn exact_wire_form() {
    let m = movement(3, 2, 2, Variant::Plain).unwrap();
    assert_eq!(
        serde_json::to_value(&m).unwrap(),
        json!({"rounds":[
            {"round":1,"tables":[
                {"table":1,"ns":1,"ew":1,"boards":[1,2]},
                {"table":2,"ns":2,"ew":2,"boards":[3,4]},
                {"table":3,"ns":3,"ew":3,"boards":[5,6]}]},
            {"round":2,"tables":[
                {"table":1,"ns":1,"ew":3,"boards":[3,4]},
                {"table":2,"ns":2,"ew":1,"boards":[5,6]},
                {"table":3,"ns":3,"ew":2,"boards":[1,2]}]}]})
    );
    // It reads back.
    let back: Movement = serde_json::from_value(serde_json::to_value(&m).unwrap()).unwrap();
    assert_eq!(back, m);
    // A relay round names its bye stand.
    let relay = serde_json::to_value(movement(4, 1, 1, Variant::Relay).unwrap()).unwrap();
    assert_eq!(relay["rounds"][0]["bye_stand"], json!([3]));
    assert_eq!(
        relay["rounds"][0]["tables"][3],
        json!({"table":4,"ns":4,"ew":4,"boards":[1]})
    );
}

#[test]
fn a_phantom_pair_leaves_its_opponents_sitting_out() {
    // 4½ tables as a 5-table movement: EW 5 is the phantom.
    let m = movement(5, 5, 2, Variant::Plain)
        .unwrap()
        .with_phantom(Direction::EW, 5)
        .unwrap();
    let mut sat_out = Vec::new();
    for r in &m.rounds {
        let missing: Vec<u32> = r
            .tables
            .iter()
            .filter(|t| t.ew.is_none())
            .map(|t| t.table)
            .collect();
        assert_eq!(missing.len(), 1, "one sit-out a round");
        sat_out.push(missing[0]);
    }
    sat_out.sort();
    assert_eq!(sat_out, [1, 2, 3, 4, 5], "each NS pair sits out once");
    assert_eq!(
        serde_json::to_value(&m).unwrap()["rounds"][0]["tables"][4]["ew"],
        json!(null)
    );
    assert!(m.clone().with_phantom(Direction::NS, 6).is_err());
}

#[test]
fn bad_requests_are_refused_with_the_reason() {
    assert_eq!(
        movement(6, 3, 2, Variant::Plain),
        Err(Error::EvenNeedsSkipOrRelay { tables: 6 })
    );
    assert_eq!(
        movement(5, 3, 2, Variant::Skip),
        Err(Error::OddTakesPlain { tables: 5 })
    );
    assert_eq!(
        movement(0, 3, 2, Variant::Plain),
        Err(Error::Zero { what: "tables" })
    );
    assert_eq!(
        movement(5, 0, 2, Variant::Plain),
        Err(Error::Zero { what: "rounds" })
    );
    assert!(matches!(
        movement(5, 3, 0, Variant::Plain),
        Err(Error::Zero { .. })
    ));
    let e = movement(6, 3, 2, Variant::Plain).unwrap_err();
    assert!(
        e.en().contains("--skip") && e.en().contains("--relay"),
        "{}",
        e.en()
    );
}

#[test]
fn the_card_tells_a_table_where_everything_goes() {
    let m = movement(4, 4, 2, Variant::Relay).unwrap();
    let card = movement_card(&m, 3).unwrap();
    let lines: Vec<&str> = card.lines().collect();
    assert!(lines[0].starts_with("第 3 桌  Table 3"), "{card}");
    // Round 1 at table 3: NS 3, EW 3, boards 7-8 (set 4), EW next to table 4, boards to the bye
    // stand.
    let row1 = lines
        .iter()
        .find(|l| l.starts_with("1 "))
        .expect("round 1 row");
    let cells: Vec<&str> = row1.split_whitespace().collect();
    assert_eq!(cells[..5], ["1", "3", "3", "7-8", "4"], "{card}");
    assert!(row1.contains("接力桌 bye stand"), "{card}");
    // The shared table says so.
    assert!(movement_card(&m, 4)
        .unwrap()
        .contains("Shares its boards with table 1"));
    assert_eq!(
        movement_card(&m, 5),
        Err(Error::NoSuchTable {
            table: 5,
            tables: 4
        })
    );
    // The last round has nowhere to go.
    let last = lines.last().unwrap();
    assert!(last.starts_with("4 ") && last.contains('—'), "{card}");
}
