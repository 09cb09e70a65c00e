//! The 80分 pairs competition as its log applies: rounds, confirmations, half tables, deductions,
//! lateness, the early finish, and the replay.

use super::*;
use crate::competition::{
    Competition, Entry, Error, Refused, Ruling, Spec, TableNeed, TableReport, TableResult,
};
use crate::matchpoints::Artificial;
use crate::movement::Variant;
use crate::seat::{Direction, Seat};
use rules::Explain;

/// An artificial score by its printed name.
fn art(s: &str) -> Artificial {
    serde_json::from_value(serde_json::Value::String(s.into())).expect("A, A+ or A-")
}

fn spec(tables: u32, rounds: u32, k: u32) -> Spec {
    Spec {
        game: "shengji".into(),
        name: "练习赛".into(),
        tables,
        rounds,
        boards_per_round: k,
        movement: Variant::Plain,
        ruleset: Some("fujian-2024".into()),
        level: None,
        trump: None,
        seed: None,
        board_minutes: Some(12),
        entries: (0..2 * tables)
            .map(|i| Entry {
                names: vec![format!("甲{i}"), format!("乙{i}")],
                organisation: Some("福州".into()),
                bot: i % 2 == 1,
                team: None,
            })
            .collect(),
        groups: None,
        final_games: None,
        skip_after: None,
        revenge: false,
        prizes: None,
        final_seating: None,
        second_device: Default::default(),
        auto_play: false,
        timeouts_counted: Default::default(),
        practice: None,
    }
}

fn result(round: u32, table: u32, board: u32) -> [DuplicateAction; 2] {
    let id = format!("t{round}{table}{board}");
    [
        DuplicateAction::TableOpened {
            round,
            table,
            board,
            table_id: id.clone(),
        },
        DuplicateAction::Result {
            round,
            table,
            board,
            table_id: id,
            declarer: Seat::N,
            defenders: 40,
            timeouts: Vec::new(),
            auto_moves: Vec::new(),
        },
    ]
}

#[test]
fn a_round_goes_from_start_to_close_through_confirmations() {
    let mut e = Duplicate::create("e", &spec(3, 3, 1)).unwrap();
    assert_eq!(e.pairs.len(), 6);
    assert_eq!(e.common.registered, 1);
    let mut seq = 1;
    let mut go = |e: &mut Duplicate, a: DuplicateAction| {
        seq += 1;
        e.apply(seq, &a)
    };
    assert_eq!(
        go(
            &mut e,
            DuplicateAction::StartRound {
                round: 2,
                at_ms: None
            }
        )
        .unwrap_err()
        .refused(),
        Refused::NotNow
    );
    go(
        &mut e,
        DuplicateAction::StartRound {
            round: 1,
            at_ms: None,
        },
    )
    .unwrap();
    // NS 1 (a person) against EW 1 (bots) at table 1 plays board 1.
    assert_eq!(e.current_board(1, 1), Some(1));
    for a in result(1, 1, 1) {
        go(&mut e, a).unwrap();
    }
    assert!(e.table_done(1, 1));
    // Closing needs every table's results.
    assert_eq!(
        go(
            &mut e,
            DuplicateAction::CloseRound {
                round: 1,
                forced: true
            }
        )
        .unwrap_err()
        .refused(),
        Refused::NotNow
    );
    for t in [2, 3] {
        let b = e.current_board(1, t).unwrap();
        for a in result(1, t, b) {
            go(&mut e, a).unwrap();
        }
    }
    // EW check after NS record; a dispute needs a note.
    let confirm = |table, direction, agree, note: Option<&str>| DuplicateAction::Confirm {
        round: 1,
        table,
        direction,
        agree,
        note: note.map(str::to_string),
    };
    assert_eq!(
        go(&mut e, confirm(1, Direction::EW, false, None))
            .unwrap_err()
            .refused(),
        Refused::Invalid
    );
    // Table 1: NS are people, EW bots (confirmed by themselves).
    assert!(e.confirmed(1, 1, Direction::EW));
    assert!(!e.confirmed(1, 1, Direction::NS));
    go(&mut e, confirm(1, Direction::NS, true, None)).unwrap();
    assert_eq!(
        go(
            &mut e,
            DuplicateAction::CloseRound {
                round: 1,
                forced: false
            }
        )
        .unwrap_err()
        .refused(),
        Refused::NotNow,
        "tables 2 and 3 have people who have not confirmed"
    );
    go(
        &mut e,
        DuplicateAction::CloseRound {
            round: 1,
            forced: true,
        },
    )
    .unwrap();
    assert_eq!(e.common.closed, 1);
    // After the close the round's results are the director's to adjust.
    go(
        &mut e,
        DuplicateAction::Adjust {
            round: 1,
            table: 2,
            board: 2,
            defenders: Some(120),
            artificial: None,
            reason: "传递非法信息：判违规方负".into(),
        },
    )
    .unwrap();
    assert_eq!(
        go(&mut e, DuplicateAction::Reveal { early: false })
            .unwrap_err()
            .refused(),
        Refused::NotNow
    );
}

/// Applies actions from seq 2 on, as the log would; the first refusal fails the test.
fn log(e: &mut Duplicate, actions: &[DuplicateAction]) -> Vec<(u64, DuplicateAction)> {
    let mut out = Vec::new();
    for a in actions {
        let seq = e.common.registered.max(1) + 1 + out.len() as u64;
        e.apply(seq, a)
            .unwrap_or_else(|p| panic!("{a:?}: {}", p.en()));
        out.push((seq, a.clone()));
    }
    out
}

const START: u64 = 1_800_000_000_000;
const MINUTE: u64 = 60_000;

fn start(round: u32, at: u64) -> DuplicateAction {
    DuplicateAction::StartRound {
        round,
        at_ms: Some(at),
    }
}

fn people(tables: u32, rounds: u32, k: u32) -> Spec {
    let mut s = spec(tables, rounds, k);
    for e in &mut s.entries {
        e.bot = false;
    }
    s
}

#[test]
fn one_pair_short_makes_a_half_table_whose_sit_out_gets_the_average() {
    let mut s = spec(3, 3, 2);
    s.entries.pop();
    let mut e = Duplicate::create("e", &s).unwrap();
    assert_eq!(e.phantom(), Some((Direction::EW, 3)));
    assert!(e.pair(Direction::EW, 3).is_none());
    // Two pairs short is still refused.
    let mut s2 = s.clone();
    s2.entries.pop();
    assert_eq!(
        Duplicate::create("e", &s2).unwrap_err().refused(),
        Refused::Invalid
    );
    log(&mut e, &[start(1, START)]);
    // Round 1: table 3 is NS 3 against the phantom: both boards settled at once, A for NS.
    let plan = e.table_plan(1, 3).unwrap().clone();
    assert_eq!((plan.ns, plan.ew), (Some(3), None));
    assert!(e.table_done(1, 3));
    assert!(e.confirmed(1, 3, Direction::NS) && e.confirmed(1, 3, Direction::EW));
    for b in plan.boards {
        let a = e.play(1, 3, b).unwrap().adjusted.clone().unwrap();
        assert_eq!(
            a.artificial,
            Some(ArtificialScores {
                ns: Some(Artificial::Average),
                ew: None
            })
        );
    }
    // The other tables are whole and still to play.
    assert!(!e.table_done(1, 1) && !e.table_done(1, 2));
    // The director may adjust the sit-out, giving the present side only.
    let adjust = |ns: Option<&str>, ew: Option<&str>| DuplicateAction::Adjust {
        round: 1,
        table: 3,
        board: 5,
        defenders: None,
        artificial: Some(ArtificialScores {
            ns: ns.map(art),
            ew: ew.map(art),
        }),
        reason: "x".into(),
    };
    let mut f = e.clone();
    assert_eq!(
        f.apply(9, &adjust(Some("A+"), Some("A-")))
            .unwrap_err()
            .refused(),
        Refused::Invalid
    );
    let points = DuplicateAction::Adjust {
        round: 1,
        table: 3,
        board: 5,
        defenders: Some(40),
        artificial: None,
        reason: "x".into(),
    };
    assert_eq!(
        f.apply(9, &points).unwrap_err().refused(),
        Refused::Invalid,
        "no points without opponents"
    );
    f.apply(9, &adjust(Some("A+"), None)).unwrap();
    // The phantom is nobody: no deduction for it; it is not ranked.
    assert_eq!(
        f.apply(
            10,
            &DuplicateAction::Deduction {
                direction: Direction::EW,
                pair: 3,
                mp: 0.5,
                reason: "x".into(),
                kind: None
            }
        )
        .unwrap_err()
        .refused(),
        Refused::Invalid
    );
    // Sitting out, NS 3 cannot be late.
    let mut g = e.clone();
    assert_eq!(
        g.apply(
            9,
            &DuplicateAction::Forfeit {
                round: 1,
                direction: Direction::NS,
                pair: 3,
                reason: "迟到".into(),
                at_ms: START + 11 * MINUTE,
            }
        )
        .unwrap_err()
        .refused(),
        Refused::NotNow
    );
    let input = e.score_input(1);
    assert_eq!(input.pairs.ew.len(), 2);
    assert_eq!(input.pairs.ns.len(), 3);
}

#[test]
fn a_second_signalling_deduction_disqualifies_in_the_same_step() {
    let mut e = Duplicate::create("e", &spec(3, 3, 1)).unwrap();
    let deduct = |kind| DuplicateAction::Deduction {
        direction: Direction::NS,
        pair: 2,
        mp: 0.5,
        reason: "传递非法信息".into(),
        kind,
    };
    log(
        &mut e,
        &[deduct(None), deduct(Some(DeductionKind::Signalling))],
    );
    assert!(
        !e.is_disqualified(Direction::NS, 2),
        "one signalling offence and one other deduction"
    );
    log(&mut e, &[deduct(Some(DeductionKind::Signalling))]);
    assert!(e.is_disqualified(Direction::NS, 2));
    assert_eq!(e.disqualified.len(), 1);
    // A third is a deduction still, and disqualifies no more than once.
    log(&mut e, &[deduct(Some(DeductionKind::Signalling))]);
    assert_eq!(e.disqualified.len(), 1);
    assert_eq!(e.deductions.len(), 4);
}

#[test]
fn the_event_may_finish_early_after_a_closed_round() {
    let mut e = Duplicate::create("e", &spec(3, 3, 1)).unwrap();
    let early = DuplicateAction::Reveal { early: true };
    assert_eq!(
        e.clone().apply(2, &early).unwrap_err().refused(),
        Refused::NotNow
    );
    log(&mut e, &[start(1, START)]);
    let mut round = Vec::new();
    for t in 1..=3 {
        round.extend(result(1, t, t));
    }
    log(&mut e, &round);
    assert_eq!(
        e.clone().apply(20, &early).unwrap_err().refused(),
        Refused::NotNow,
        "round 1 is being played"
    );
    log(
        &mut e,
        &[DuplicateAction::CloseRound {
            round: 1,
            forced: true,
        }],
    );
    assert_eq!(
        e.clone()
            .apply(30, &DuplicateAction::Reveal { early: false })
            .unwrap_err()
            .refused(),
        Refused::NotNow,
        "without early, every planned round must be closed"
    );
    log(&mut e, &[early]);
    assert!(e.common.finished() && e.common.early);
    assert_eq!(e.common.closed, 1);
}

#[test]
fn a_pair_more_than_ten_minutes_late_forfeits_the_round() {
    let mut e = Duplicate::create("e", &people(3, 3, 2)).unwrap();
    let late = |direction, pair, at_ms| DuplicateAction::Forfeit {
        round: 1,
        direction,
        pair,
        reason: "迟到".into(),
        at_ms,
    };
    let sit = |direction, pair, seat, at_ms| DuplicateAction::Seated {
        round: 1,
        direction,
        pair,
        seat,
        at_ms,
    };
    assert_eq!(
        e.clone()
            .apply(2, &late(Direction::NS, 1, START + 11 * MINUTE))
            .unwrap_err()
            .refused(),
        Refused::NotNow,
        "no round is being played"
    );
    log(
        &mut e,
        &[
            start(1, START),
            // NS 1 both seated after 5 minutes; EW 2 only one player (at 2 minutes).
            sit(Direction::NS, 1, 0, START + 3 * MINUTE),
            sit(Direction::NS, 1, 2, START + 5 * MINUTE),
            sit(Direction::EW, 2, 1, START + 2 * MINUTE),
        ],
    );
    assert_eq!(
        e.clock(1).unwrap().deadline_ms,
        START + 2 * 12 * MINUTE,
        "2 boards of 12 minutes"
    );
    assert_eq!(e.seated_at(1, Direction::NS, 1), Some(START + 5 * MINUTE));
    assert_eq!(e.seated_at(1, Direction::EW, 2), None);
    // Not before 10 minutes have passed.
    assert_eq!(
        e.clone()
            .apply(9, &late(Direction::EW, 2, START + 10 * MINUTE))
            .unwrap_err()
            .refused(),
        Refused::NotNow
    );
    // Not a pair seated in time.
    let p = e
        .clone()
        .apply(9, &late(Direction::NS, 1, START + 30 * MINUTE))
        .unwrap_err();
    assert_eq!(p.refused(), Refused::NotNow);
    assert!(p.zh().contains("按时入座"), "{}", p.zh());
    // EW 2 (one player missing) at 10 minutes and a second: forfeits.
    log(
        &mut e,
        &[late(Direction::EW, 2, START + 10 * MINUTE + 1000)],
    );
    let t = e
        .table_of(1, &e.pair(Direction::EW, 2).unwrap().clone())
        .unwrap()
        .clone();
    assert!(e.table_done(1, t.table));
    for b in &t.boards {
        let a = e.play(1, t.table, *b).unwrap().adjusted.clone().unwrap();
        assert_eq!(
            a.artificial,
            Some(ArtificialScores {
                ns: Some(Artificial::AveragePlus),
                ew: Some(Artificial::AverageMinus)
            })
        );
    }
    assert!(
        e.confirmed(1, t.table, Direction::EW),
        "not there to confirm"
    );
    assert_eq!(
        e.clone()
            .apply(20, &late(Direction::EW, 2, START + 20 * MINUTE))
            .unwrap_err()
            .refused(),
        Refused::NotNow,
        "once"
    );
    // Its opponents late too: both get A−.
    let ns = t.ns.unwrap();
    log(&mut e, &[late(Direction::NS, ns, START + 12 * MINUTE)]);
    let a = e
        .play(1, t.table, t.boards[0])
        .unwrap()
        .adjusted
        .clone()
        .unwrap();
    assert_eq!(
        a.artificial,
        Some(ArtificialScores {
            ns: Some(Artificial::AverageMinus),
            ew: Some(Artificial::AverageMinus)
        })
    );
    // A round started without a logged time cannot judge lateness.
    let mut old = Duplicate::create("e", &people(3, 3, 1)).unwrap();
    log(
        &mut old,
        &[DuplicateAction::StartRound {
            round: 1,
            at_ms: None,
        }],
    );
    assert_eq!(
        old.apply(3, &late(Direction::NS, 1, START + 60 * MINUTE))
            .unwrap_err()
            .refused(),
        Refused::NotNow
    );
}

#[test]
fn replaying_the_log_with_its_times_gives_the_same_event() {
    let mut e = Duplicate::create("e", &people(3, 3, 1)).unwrap();
    let spec = e.common.spec.clone();
    let mut entries = vec![(
        1,
        DuplicateAction::Create {
            spec: Spec {
                entries: people(3, 3, 1).entries,
                ..spec
            },
        },
    )];
    entries.extend(log(
        &mut e,
        &[
            start(1, START),
            DuplicateAction::Forfeit {
                round: 1,
                direction: Direction::NS,
                pair: 2,
                reason: "迟到".into(),
                at_ms: START + 11 * MINUTE,
            },
        ],
    ));
    let again = Duplicate::replay("e", &entries).unwrap();
    assert_eq!(again.plays, e.plays);
    assert_eq!(again.forfeits, e.forfeits);
    assert_eq!(again.clocks, e.clocks);
}

#[test]
fn entries_are_checked() {
    let mut s = spec(3, 3, 1);
    // One short is a half table; two short is refused.
    s.entries.truncate(4);
    assert_eq!(
        Duplicate::create("e", &s).unwrap_err(),
        Error::PairCount { tables: 3, got: 4 }
    );
    let mut s = spec(3, 3, 1);
    s.entries[0].names = vec!["机器人".into(), "老王".into()];
    assert_eq!(Duplicate::create("e", &s).unwrap_err().code(), "bad_name");
    let mut s = spec(3, 4, 1);
    s.entries.clear();
    assert_eq!(
        Duplicate::create("e", &s).unwrap_err().code(),
        "too_many_rounds",
        "the movement's own refusal"
    );
    let mut s = spec(3, 3, 1);
    s.entries[1].names.pop();
    s.entries[1].bot = false;
    assert_eq!(
        Duplicate::create("e", &s).unwrap_err(),
        Error::PairIsTwo {
            direction: Direction::NS,
            number: 2
        }
    );
    let mut s = spec(3, 3, 1);
    s.game = "gouji".into();
    assert_eq!(
        Duplicate::create("e", &s).unwrap_err(),
        Error::NotRunLive {
            game: "gouji".into()
        }
    );
    let mut s = spec(3, 3, 1);
    s.trump = Some("X".into());
    assert_eq!(
        Duplicate::create("e", &s).unwrap_err(),
        Error::Trump { trump: "X".into() }
    );
}

#[test]
fn the_tables_needed_are_the_boards_without_a_result_with_the_computers_seats() {
    let mut e = Duplicate::create("e", &spec(3, 3, 2)).unwrap();
    assert!(e.tables_now().is_empty(), "no round is being played");
    log(&mut e, &[start(1, START)]);
    let needs = e.tables_now();
    assert_eq!(needs.len(), 3);
    for n in &needs {
        let plan = e.table_plan(1, n.table).unwrap();
        assert_eq!(n.slot, plan.boards[0]);
        assert_eq!(n.deal, n.slot);
        assert_eq!(n.table_id, None);
        // Odd entries are computer pairs: EW 1 and 3, NS 2 (entries 1, 3, 5).
        let want: Vec<usize> = [(Direction::NS, plan.ns), (Direction::EW, plan.ew)]
            .into_iter()
            .filter(|(d, p)| e.pair(*d, p.unwrap()).unwrap().bot)
            .flat_map(|(d, _)| if d == Direction::NS { [0, 2] } else { [1, 3] })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert_eq!(n.computers, want);
    }
    // A table opened and its result logged: that table needs its second board.
    let first = needs[0].clone();
    let opened = Duplicate::opened(&first, "t1".into());
    let result = Duplicate::result(
        &first,
        "t1".into(),
        TableReport::of(TableResult::Board {
            declarer: Seat::E,
            defenders: 85,
        }),
    )
    .unwrap();
    assert!(Duplicate::result(
        &first,
        "t1".into(),
        TableReport::of(TableResult::Game(crate::gouji::GameRecord {
            a: 1,
            b: 0,
            first: None,
            last: vec![],
        }))
    )
    .is_none());
    log(&mut e, &[opened]);
    assert_eq!(e.tables_now()[0].table_id.as_deref(), Some("t1"));
    log(&mut e, &[result]);
    let again = e.tables_now();
    let plan = e.table_plan(1, first.table).unwrap();
    let now = again.iter().find(|n| n.table == first.table).unwrap();
    assert_eq!(now.slot, plan.boards[1]);
    assert_eq!(now.table_id, None);
    assert_eq!(
        e.play(1, first.table, first.slot).unwrap().played,
        Some(Played {
            declarer: Seat::E,
            defenders: 85
        })
    );
}

#[test]
fn a_pair_is_told_where_it_sits_or_why_it_cannot() {
    let mut e = Duplicate::create("e", &people(3, 3, 1)).unwrap();
    let ns1 = e.pair(Direction::NS, 1).unwrap().clone();
    assert_eq!(e.sitting(&ns1), Err(Error::WaitForRound));
    log(&mut e, &[start(1, START)]);
    assert_eq!(e.sitting(&ns1), Err(Error::Opening));
    let need = e.tables_now()[0].clone();
    log(&mut e, &[Duplicate::opened(&need, "t9".into())]);
    let s = e.sitting(&ns1).unwrap();
    assert_eq!((s.round, s.table, s.table_id.as_str()), (1, 1, "t9"));
    log(
        &mut e,
        &[DuplicateAction::Disqualify {
            direction: Direction::NS,
            pair: 1,
            reason: "x".into(),
        }],
    );
    assert_eq!(e.sitting(&ns1), Err(Error::Barred));
}

#[test]
fn a_ruling_at_the_table_revises_its_result_while_the_round_is_played() {
    let mut e = Duplicate::create("e", &people(3, 3, 1)).unwrap();
    log(&mut e, &[start(1, START)]);
    let need = e.tables_now()[0].clone();
    let board = TableResult::Board {
        declarer: Seat::N,
        defenders: 40,
    };
    log(
        &mut e,
        &[
            Duplicate::opened(&need, "t".into()),
            Duplicate::result(&need, "t".into(), TableReport::of(board.clone())).unwrap(),
        ],
    );
    let logged = TableNeed {
        table_id: Some("t".into()),
        ..need.clone()
    };
    assert_eq!(e.revisable(), vec![(logged, board)]);
    let ruling = Ruling {
        table_seq: 90,
        reason: "藏张".into(),
    };
    let report = |defenders| TableReport {
        result: TableResult::Board {
            declarer: Seat::N,
            defenders,
        },
        ruling: Some(ruling.clone()),
        tally: Default::default(),
    };
    // From another table it is refused; from the board's it replaces the result.
    let other = Duplicate::revised(&need, "x".into(), report(80)).unwrap();
    assert_eq!(e.clone().apply(9, &other), Err(Error::NotRevisable));
    log(
        &mut e,
        &[Duplicate::revised(&need, "t".into(), report(80)).unwrap()],
    );
    let play = e.play(1, need.table, need.slot).unwrap();
    assert_eq!(play.played.unwrap().defenders, 80);
    assert_eq!(play.revised.as_ref(), Some(&ruling));
    // Once the director settles the board, a table's ruling no longer changes it.
    log(
        &mut e,
        &[DuplicateAction::Adjust {
            round: 1,
            table: need.table,
            board: need.slot,
            defenders: Some(120),
            artificial: None,
            reason: "裁判长改判".into(),
        }],
    );
    assert!(e.revisable().iter().all(|(n, _)| n.table != need.table));
    let again = Duplicate::revised(&need, "t".into(), report(0)).unwrap();
    assert_eq!(e.clone().apply(20, &again), Err(Error::NotRevisable));
}

#[test]
fn the_tables_whose_work_is_over_are_named_to_be_closed() {
    let mut e = Duplicate::create("e", &spec(3, 3, 2)).unwrap();
    log(&mut e, &[start(1, START)]);
    let needs = e.tables_now();
    for (i, n) in needs.iter().enumerate() {
        log(&mut e, &[Duplicate::opened(n, format!("t{i}"))]);
    }
    assert!(e.idle_tables().is_empty(), "every table is being played");
    // The director settles table t0's board before it is played: t0 is idle.
    let n = &needs[0];
    log(
        &mut e,
        &[DuplicateAction::Adjust {
            round: 1,
            table: n.table,
            board: n.slot,
            defenders: None,
            artificial: Some(ArtificialScores {
                ns: Some(Artificial::Average),
                ew: Some(Artificial::Average),
            }),
            reason: "未到".into(),
        }],
    );
    assert_eq!(e.idle_tables(), vec!["t0".to_string()]);
}

#[test]
fn a_signalling_offence_is_recorded_without_match_points_and_the_second_disqualifies() {
    let mut e = Duplicate::create("e", &spec(3, 3, 1)).unwrap();
    let record = |mp, kind| DuplicateAction::Deduction {
        direction: Direction::EW,
        pair: 1,
        mp,
        reason: "传递非法信息：判罚 40 分".into(),
        kind,
    };
    // Only a signalling record may take no match points.
    assert_eq!(
        e.clone().apply(2, &record(0.0, None)),
        Err(Error::BadDeduction { mp: 0.0 })
    );
    log(&mut e, &[record(0.0, Some(DeductionKind::Signalling))]);
    assert!(!e.is_disqualified(Direction::EW, 1));
    assert!(
        e.score_input(3).deductions.is_empty(),
        "a record without points takes nothing off"
    );
    log(&mut e, &[record(0.0, Some(DeductionKind::Signalling))]);
    assert!(
        e.is_disqualified(Direction::EW, 1),
        "the second disqualifies"
    );
    e.score(3)
        .expect("the scoring takes the records as they are");
}

#[test]
fn an_adjusted_result_says_its_range_before_its_fives() {
    let mut e = Duplicate::create("e", &spec(3, 3, 1)).unwrap();
    log(&mut e, &[start(1, START)]);
    let adjust = |defenders| DuplicateAction::Adjust {
        round: 1,
        table: 1,
        board: 1,
        defenders: Some(defenders),
        artificial: None,
        reason: "改判".into(),
    };
    assert_eq!(
        e.clone().apply(9, &adjust(2000)),
        Err(Error::AdjustRange {
            defenders: 2000,
            max: MAX_POINTS
        })
    );
    assert_eq!(
        e.clone().apply(9, &adjust(85 + 1)),
        Err(Error::AdjustPoints { defenders: 86 })
    );
    e.apply(9, &adjust(-MAX_POINTS)).unwrap();
}

#[test]
fn late_entries_take_computers_places_and_the_registered_keep_theirs() {
    // Three tables, one pair short: a half table (EW 3 the phantom).
    let mut s = people(3, 3, 1);
    s.entries.pop();
    s.entries[4].bot = true;
    s.entries[4].names.clear();
    let mut e = Duplicate::create("e", &s).unwrap();
    assert_eq!(e.phantom(), Some((Direction::EW, 3)));
    let before = e.pairs.clone();
    let late = |name: &str| Entry {
        names: vec![format!("{name}甲"), format!("{name}乙")],
        organisation: None,
        bot: false,
        team: None,
    };
    log(
        &mut e,
        &[DuplicateAction::AddEntries {
            entries: vec![late("迟"), late("晚")],
        }],
    );
    assert_eq!(
        e.common.registered, 1,
        "the tokens' registration is the same"
    );
    assert_eq!(e.phantom(), None, "the half table's place taken");
    assert_eq!(e.pair(Direction::EW, 3).unwrap().names[0], "迟甲");
    assert_eq!(
        e.pair(Direction::EW, 2).unwrap().names[0],
        "晚甲",
        "then the computer pair's"
    );
    for p in &before {
        if !p.bot {
            assert_eq!(e.pair(p.direction, p.number), Some(p), "kept as registered");
        }
    }
    // No computer left: no room.
    let full = DuplicateAction::AddEntries {
        entries: vec![late("多")],
    };
    assert_eq!(e.clone().apply(9, &full), Err(Error::NoRoom { room: 0 }));
    log(&mut e, &[start(1, START)]);
    assert_eq!(e.clone().apply(9, &full), Err(Error::EntriesClosed));
}

/// Plays every board open now, each seat timing out as `timeouts` says (by table).
fn play_open_with(e: &mut Duplicate, timeouts: impl Fn(u32) -> Vec<u8>) {
    for need in e.tables_now() {
        let id = format!("t{}-{}-{}", need.round, need.table, need.slot);
        let report = TableReport {
            tally: crate::competition::Tally {
                timeouts: timeouts(need.table),
                auto_moves: Vec::new(),
            },
            ..TableReport::of(TableResult::Board {
                declarer: Seat::N,
                defenders: 40,
            })
        };
        let opened = Duplicate::opened(&need, id.clone());
        let result = Duplicate::result(&need, id, report).unwrap();
        log(e, &[opened, result]);
    }
}

#[test]
fn timeouts_count_over_the_round_at_a_table_and_start_again_at_the_next() {
    let mut e = Duplicate::create("e", &people(3, 2, 2)).unwrap();
    log(&mut e, &[start(1, START)]);
    assert!(e.tables_now().iter().all(|n| n.prior_timeouts.is_empty()));
    play_open_with(&mut e, |t| if t == 1 { vec![1, 0, 2, 0] } else { vec![] });
    // Board 2 of table 1 starts from board 1's count; the other tables from nothing.
    let now = e.tables_now();
    let at = |t: u32| {
        now.iter()
            .find(|n| n.table == t)
            .unwrap()
            .prior_timeouts
            .clone()
    };
    assert_eq!(at(1), vec![1, 0, 2, 0]);
    assert!(at(2).is_empty() && at(3).is_empty());
    play_open_with(&mut e, |t| if t == 1 { vec![0, 1, 0, 0] } else { vec![] });
    log(
        &mut e,
        &[DuplicateAction::CloseRound {
            round: 1,
            forced: true,
        }],
    );
    // A new session: the count starts again.
    log(&mut e, &[start(2, START + 30 * MINUTE)]);
    assert!(e.tables_now().iter().all(|n| n.prior_timeouts.is_empty()));
}

#[test]
fn over_the_competition_each_player_carries_their_own_count_to_their_next_table() {
    let mut s = people(3, 2, 1);
    s.timeouts_counted = crate::competition::conduct::TimeoutsCounted::Competition;
    let mut e = Duplicate::create("e", &s).unwrap();
    log(&mut e, &[start(1, START)]);
    play_open_with(&mut e, |t| if t == 1 { vec![1, 2, 3, 4] } else { vec![] });
    log(
        &mut e,
        &[DuplicateAction::CloseRound {
            round: 1,
            forced: true,
        }],
    );
    log(&mut e, &[start(2, START + 30 * MINUTE)]);
    let plan1 = e.table_plan(1, 1).unwrap().clone();
    let now = e.tables_now();
    for need in &now {
        let plan = e.table_plan(2, need.table).unwrap();
        let ns = if plan.ns == plan1.ns { [1, 3] } else { [0, 0] };
        let ew = if plan.ew == plan1.ew { [2, 4] } else { [0, 0] };
        let want = vec![ns[0], ew[0], ns[1], ew[1]];
        let got = if need.prior_timeouts.is_empty() {
            vec![0; 4]
        } else {
            need.prior_timeouts.clone()
        };
        assert_eq!(got, want, "table {} of round 2", need.table);
    }
    // The EW pair of table 1 moved, and took its count with it.
    assert!(now
        .iter()
        .any(|n| e.table_plan(2, n.table).unwrap().ew == plan1.ew && n.table != 1));
}
