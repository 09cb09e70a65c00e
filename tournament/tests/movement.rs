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

/// The skip Mitchell as published practice runs it (E. T. Baker's skip Mitchell): the skip after
/// any round from R − T/2 to T/2 in an event of R rounds ("it is also possible to skip earlier":
/// E = R − T/2), and the T-th round played as the revenge round. For every even table count
/// from 2 to 20, every round count, every allowed skip: no pair plays a board twice, no NS pair
/// meets an EW pair twice except in the revenge round (where every EW pair meets its round-1
/// opponent again, and that is the only repeat), and every board set is played once a round (so
/// a skip stopped at any round has played every board equally often). Every other skip round
/// is refused, naming the range.
#[test]
fn the_skip_may_come_earlier_and_play_its_revenge_round() {
    use tournament::movement::{plan, Options};
    let mut movements = 0;
    for tables in (2..=20).step_by(2) {
        let half = tables / 2;
        for rounds in 1..=tables {
            for after in 1..=tables {
                for revenge in [false, true] {
                    let options = Options {
                        skip_after: Some(after),
                        revenge,
                    };
                    let what = format!(
                        "{tables} tables, {rounds} rounds, skip after {after}, revenge {revenge}"
                    );
                    let got = plan(tables, rounds, 1, Variant::Skip, options);
                    let earliest = rounds.saturating_sub(half).max(1);
                    let allowed =
                        (rounds < tables || revenge) && (earliest..=half).contains(&after);
                    let planned = match got {
                        Ok(p) => {
                            assert!(allowed, "{what}: accepted");
                            p
                        }
                        Err(e) => {
                            assert!(!allowed, "{what}: refused: {}", e.en());
                            if rounds < tables || revenge {
                                assert_eq!(
                                    e,
                                    Error::BadSkip {
                                        tables,
                                        rounds,
                                        after,
                                        earliest,
                                        latest: half
                                    },
                                    "{what}"
                                );
                                assert_eq!(e.code(), "bad_skip");
                            } else {
                                assert_eq!(e.code(), "too_many_rounds", "{what}");
                            }
                            continue;
                        }
                    };
                    assert!(planned.warnings.is_empty(), "{what}");
                    let m = &planned.movement;
                    assert_eq!(m.rounds.len() as u32, rounds);
                    let mut met: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
                    let mut ns_boards = HashSet::new();
                    let mut ew_boards = HashSet::new();
                    for round in &m.rounds {
                        let sets: HashSet<&Vec<u32>> =
                            round.tables.iter().map(|t| &t.boards).collect();
                        assert_eq!(sets.len() as u32, tables, "{what}: every set once a round");
                        for t in &round.tables {
                            let (ns, ew) = (t.ns.unwrap(), t.ew.unwrap());
                            met.entry((ns, ew)).or_default().push(round.round);
                            for &b in &t.boards {
                                assert!(
                                    ns_boards.insert((ns, b)),
                                    "{what}: NS {ns} plays {b} twice"
                                );
                                assert!(
                                    ew_boards.insert((ew, b)),
                                    "{what}: EW {ew} plays {b} twice"
                                );
                            }
                        }
                    }
                    for ((ns, ew), at) in &met {
                        match at.as_slice() {
                            [_] => {}
                            // The revenge round: round 1's opponents, in the T-th round.
                            [1, last] if *last == tables && ns == ew => {}
                            _ => panic!("{what}: NS {ns} meets EW {ew} in rounds {at:?}"),
                        }
                    }
                    let repeats = met.values().filter(|at| at.len() > 1).count() as u32;
                    let expected = if rounds == tables { tables } else { 0 };
                    assert_eq!(repeats, expected, "{what}: the revenge round's meetings");
                    movements += 1;
                }
            }
        }
    }
    assert!(movements > 500, "{movements}");
    // The default skip (after T/2) is the plain `movement`.
    let default = plan(8, 7, 2, Variant::Skip, Options::default()).unwrap();
    assert_eq!(default.movement, movement(8, 7, 2, Variant::Skip).unwrap());
    // Bridge's published example: 14 tables playing 13 rounds may skip after round 6 or 7.
    for after in [6, 7] {
        let o = Options {
            skip_after: Some(after),
            revenge: false,
        };
        assert!(plan(14, 13, 2, Variant::Skip, o).is_ok(), "{after}");
    }
    let o = Options {
        skip_after: Some(5),
        revenge: false,
    };
    let e = plan(14, 13, 2, Variant::Skip, o).unwrap_err();
    assert!(e.zh().contains("第 6 到第 7 轮"), "{}", e.zh());
    // The options belong to the skip only.
    let revenge = Options {
        skip_after: None,
        revenge: true,
    };
    for (tables, variant) in [(7, Variant::Plain), (8, Variant::Relay)] {
        let e = plan(tables, 3, 2, variant, revenge).unwrap_err();
        assert_eq!(e, Error::SkipOptionsNeedSkip { tables });
    }
}

/// A share and relay cut short plays its boards unequally often: `plan` says so, as a typed
/// warning with words, and suggests the skip; a full relay, and any plain or skip movement,
/// has no warning.
#[test]
fn a_curtailed_relay_is_warned_about_with_the_skip_suggested() {
    use tournament::movement::{plan, Options, Warning};
    for tables in (4..=16).step_by(2) {
        for rounds in 1..=tables {
            let p = plan(tables, rounds, 2, Variant::Relay, Options::default()).unwrap();
            let played = check(&p.movement, tables, rounds, 2, Variant::Relay);
            let mut counts: Vec<u32> = (1..=tables * 2)
                .map(|b| played.get(&b).copied().unwrap_or(0))
                .collect();
            counts.sort();
            let (fewest, most) = (counts[0], counts[counts.len() - 1]);
            if fewest == most {
                assert!(p.warnings.is_empty(), "{tables} tables, {rounds} rounds");
                assert_eq!(rounds, tables, "only the full relay is even");
                continue;
            }
            assert_eq!(
                p.warnings,
                vec![Warning::CurtailedRelay {
                    tables,
                    rounds,
                    fewest,
                    most
                }]
            );
            let w = &p.warnings[0];
            assert_eq!(w.code(), "curtailed_relay");
            assert!(
                w.zh().contains("--skip") && w.en().contains("--skip"),
                "{}",
                w.en()
            );
            assert_eq!(w.wire().code, "curtailed_relay");
        }
    }
    for (tables, variant) in [(7, Variant::Plain), (8, Variant::Skip)] {
        for rounds in 1..tables {
            let p = plan(tables, rounds, 2, variant, Options::default()).unwrap();
            assert!(p.warnings.is_empty(), "{tables} {variant:?} {rounds}");
        }
    }
}
