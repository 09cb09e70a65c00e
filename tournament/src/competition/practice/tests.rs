//! A practice set as its log applies: opened, the computers' reference runs begun by themselves,
//! players' runs board by board, the field's match points (against a brute-force count), the
//! ranking of the day, closing and the replay.

use proptest::prelude::*;

use super::*;
use crate::competition::{Competition, Error, Spec, TableNeed, TableReport, TableResult};
use crate::gouji::GameRecord;
use crate::mp::Mp;
use crate::seat::Seat;
use rules::deal::Seed;

const OPEN: u64 = 1_764_806_400_000; // 2025-12-04 00:00 UTC
const DAY: u64 = 86_400_000;

fn spec(game: &str, boards: u32, references: &[&str]) -> Spec {
    serde_json::from_value(serde_json::json!({
        "game": game,
        "name": "每日练习",
        "boards_per_round": boards,
        "practice": {
            "closes_ms": OPEN + DAY,
            "references": references,
            "utc_offset_minutes": 480,
        },
    }))
    .unwrap()
}

fn opened<G: SetGame>(game: &str, boards: u32, references: &[&str]) -> Practice<G> {
    let mut p = Practice::<G>::create("d1", &spec(game, boards, references)).unwrap();
    p.apply(2, &Practice::<G>::start_round(1, OPEN)).unwrap();
    p
}

fn begin(p: &mut Practice<Shengji>, player: &str, level: &str, at: u64) -> Result<u32, Error> {
    let run = p.runs.len() as u32 + 1;
    p.apply(
        0,
        &PracticeAction::Begin {
            run,
            player: Some(player.into()),
            name: Some(format!("{player}老师")),
            level: level.into(),
            at_ms: at,
        },
    )?;
    Ok(run)
}

/// The run's table for its board now, opened and finished with `defenders` (declarer: the
/// board's fixed seat).
fn play(p: &mut Practice<Shengji>, run: u32, defenders: i32) {
    let need = p
        .tables_now()
        .into_iter()
        .find(|n| n.table == run)
        .expect("the run has a board to play");
    let id = format!("t{run}-{}", need.slot);
    p.apply(0, &Practice::<Shengji>::opened(&need, id.clone()))
        .unwrap();
    let declarer = crate::competition::duplicate::declarer_of(need.slot);
    let report = TableReport::of(TableResult::Board {
        declarer,
        defenders,
    });
    let action = Practice::<Shengji>::result(&need, id, report).unwrap();
    p.apply(0, &action).unwrap();
}

fn seed() -> Seed {
    Seed([1; 32])
}

#[test]
fn a_set_opens_and_begins_its_reference_runs_by_itself_one_a_level() {
    let mut p = opened::<Shengji>("shengji", 8, &["beginner", "club", "expert"]);
    let mut levels = Vec::new();
    while let Some(a) = p.due(&seed()).unwrap() {
        p.apply(0, &a).unwrap();
        levels.push(p.runs.last().unwrap().level.clone());
    }
    assert_eq!(levels, ["beginner", "club", "expert"]);
    assert!(p
        .runs
        .iter()
        .all(|r| r.is_reference() && r.began_ms == OPEN));
    // Each reference run needs its first board, four computers at its level.
    let needs = p.tables_now();
    assert_eq!(needs.len(), 3);
    for (n, level) in needs.iter().zip(["beginner", "club", "expert"]) {
        assert_eq!((n.round, n.slot, n.deal), (1, 1, 1));
        assert_eq!(n.computers, vec![0, 1, 2, 3]);
        assert_eq!(n.level.as_deref(), Some(level));
    }
    // A second reference run of a level is refused.
    let again = PracticeAction::Begin {
        run: 4,
        player: None,
        name: None,
        level: "club".into(),
        at_ms: OPEN,
    };
    assert_eq!(
        p.apply(0, &again),
        Err(Error::PracticeReference {
            level: "club".into()
        })
    );
}

#[test]
fn a_player_plays_the_boards_in_order_with_computers_in_the_other_seats() {
    let mut p = opened::<Shengji>("shengji", 3, &[]);
    assert_eq!(p.due(&seed()).unwrap(), None);
    let run = begin(&mut p, "p1", "expert", OPEN + 5).unwrap();
    let need = &p.tables_now()[0];
    assert_eq!(need.table, run);
    assert_eq!(need.slot, 1);
    assert_eq!(need.computers, vec![0, 1, 3], "the person sits South");
    assert_eq!(need.level.as_deref(), Some("expert"));
    assert_eq!(need.table_id, None);
    // The same player again: refused, nothing changed.
    let before = p.clone();
    assert_eq!(
        begin(&mut p, "p1", "club", OPEN + 6),
        Err(Error::PracticeAgain { run: 1 })
    );
    assert_eq!(p, before);
    // A board's result at a table that is not the run's: refused.
    let need = p.tables_now()[0].clone();
    p.apply(0, &Practice::<Shengji>::opened(&need, "t1".into()))
        .unwrap();
    let other = PracticeAction::Result {
        run,
        board: 1,
        table_id: "elsewhere".into(),
        outcome: Outcome::Board {
            declarer: Seat::N,
            defenders: 40,
        },
        timeouts: vec![],
        auto_moves: vec![],
    };
    assert_eq!(p.apply(0, &other), Err(Error::WrongTable));
    // A 够级 record at an 80分 set: refused.
    let gouji = PracticeAction::Result {
        run,
        board: 1,
        table_id: "t1".into(),
        outcome: Outcome::Game(GameRecord {
            a: 2,
            b: 0,
            first: None,
            last: vec![],
        }),
        timeouts: vec![],
        auto_moves: vec![],
    };
    assert!(matches!(p.apply(0, &gouji), Err(Error::NotPractice { .. })));
    // Board 1 done: its table's work is over; board 2 is needed now, at no table yet.
    let done = Practice::<Shengji>::result(
        &TableNeed {
            table_id: Some("t1".into()),
            ..need
        },
        "t1".into(),
        TableReport::of(TableResult::Board {
            declarer: Seat::N,
            defenders: 40,
        }),
    )
    .unwrap();
    p.apply(0, &done).unwrap();
    assert_eq!(p.idle_tables(), vec!["t1".to_string()]);
    assert_eq!(p.tables_now()[0].slot, 2);
    play(&mut p, run, 60);
    play(&mut p, run, 20);
    assert!(p.run(run).unwrap().done());
    assert!(p.tables_now().is_empty());
    assert_eq!(p.idle_tables().len(), 3);
}

#[test]
fn names_and_levels_are_checked() {
    let mut p = opened::<Shengji>("shengji", 2, &[]);
    let mut with = |name: &str, level: &str| {
        p.apply(
            0,
            &PracticeAction::Begin {
                run: 1,
                player: Some("p".into()),
                name: Some(name.into()),
                level: level.into(),
                at_ms: OPEN,
            },
        )
    };
    assert!(matches!(with("  ", "club"), Err(Error::Name(_))));
    assert!(matches!(with("电脑·高手", "club"), Err(Error::Name(_))));
    assert_eq!(
        with("王老师", "master"),
        Err(Error::PracticeLevel {
            level: "master".into()
        })
    );
    assert_eq!(with("王老师", "beginner"), Ok(()));
}

#[test]
fn a_spec_is_checked_and_a_directors_event_cannot_carry_practice_terms() {
    assert!(Practice::<Shengji>::create("x", &spec("shengji", 8, &["club"])).is_ok());
    assert_eq!(
        Practice::<Shengji>::create("x", &spec("shengji", 0, &[])).unwrap_err(),
        Error::PracticeBoards { max: 16 }
    );
    assert_eq!(
        Practice::<Gouji>::create("x", &spec("gouji", 7, &[])).unwrap_err(),
        Error::PracticeBoards { max: 6 }
    );
    assert!(matches!(
        Practice::<Gouji>::create("x", &spec("shengji", 2, &[])),
        Err(Error::NotPractice { .. })
    ));
    assert_eq!(
        Practice::<Shengji>::create("x", &spec("shengji", 8, &["master"])).unwrap_err(),
        Error::PracticeLevel {
            level: "master".into()
        }
    );
    let mut event = spec("shengji", 8, &[]);
    assert_eq!(
        crate::competition::Duplicate::create("x", &event).unwrap_err(),
        Error::PracticeTermsInEvent
    );
    event.practice = None;
    assert!(matches!(
        Practice::<Shengji>::create("x", &event),
        Err(Error::NotPractice { .. })
    ));
    assert_eq!(
        Practice::<Shengji>::register(vec![]),
        Err(Error::PracticeNoEntries)
    );
}

#[test]
fn the_field_scores_each_result_against_every_other_on_its_board() {
    let mut p = opened::<Shengji>("shengji", 2, &[]);
    // Board 1: North declares (N–S want few defenders' points). Board 2: East declares.
    let runs: Vec<u32> = ["a", "b", "c", "d"]
        .iter()
        .map(|who| begin(&mut p, who, "club", OPEN).unwrap())
        .collect();
    for (run, d) in runs.iter().zip([40, 80, 40, 120]) {
        play(&mut p, *run, d);
    }
    let field = p.field(1);
    let mp: Vec<Mp> = field.iter().map(|s| s.mp).collect();
    // 40 ties 40 and beats 80 and 120: 2 + 2 + 1 = 5; 80 beats 120: 2; 120: 0.
    assert_eq!(
        mp,
        vec![Mp::whole(5), Mp::whole(2), Mp::whole(5), Mp::whole(0)]
    );
    assert!(field.iter().all(|s| s.top == Mp::whole(6)));
    assert!((field[0].percent - 500.0 / 6.0).abs() < 1e-9);
    // Board 2, E–W declaring: more defenders' points are better for N–S. Only two played.
    play(&mut p, runs[0], 30);
    play(&mut p, runs[1], 50);
    let field = p.field(2);
    assert_eq!(field.len(), 2);
    assert_eq!(field[1].mp, Mp::whole(2));
    let a = p.score(p.run(runs[0]).unwrap());
    assert_eq!(a.boards.len(), 2);
    assert!((a.percent.unwrap() - (500.0 / 6.0 + 0.0) / 2.0).abs() < 1e-9);
    // A result alone on its board scores half.
    let mut q = opened::<Shengji>("shengji", 1, &[]);
    let r = begin(&mut q, "solo", "club", OPEN).unwrap();
    play(&mut q, r, 40);
    assert_eq!(q.score(q.run(r).unwrap()).percent, Some(50.0));
}

#[test]
fn the_ranking_counts_finished_runs_shares_equal_places_and_can_be_of_one_day() {
    let mut p = opened::<Shengji>("shengji", 1, &[]);
    // Four runs on the set's first day (UTC+8), one on the next.
    let day1 = OPEN + 3_600_000;
    let day2 = OPEN + DAY;
    let runs: Vec<u32> = [
        ("a", day1),
        ("b", day1),
        ("c", day1),
        ("d", day2),
        ("e", day1),
    ]
    .iter()
    .map(|(who, at)| begin(&mut p, who, "club", *at).unwrap())
    .collect();
    // e never plays: unfinished runs are not ranked.
    for (run, d) in runs.iter().zip([40, 40, 100, 0]) {
        play(&mut p, *run, d);
    }
    let all = p.ranking(None);
    let line: Vec<(u32, u32)> = all.iter().map(|r| (r.run.number, r.place)).collect();
    assert_eq!(line, vec![(4, 1), (1, 2), (2, 2), (3, 4)]);
    let first = day_of(day1, 480);
    assert_eq!(day_of(day2, 480), first + 1);
    let of_day: Vec<u32> = p
        .ranking(Some(first))
        .iter()
        .map(|r| r.run.number)
        .collect();
    assert_eq!(of_day, vec![1, 2, 3]);
}

#[test]
fn a_closed_set_takes_no_run_opens_no_table_and_lets_its_tables_go() {
    let mut p = opened::<Shengji>("shengji", 2, &[]);
    let run = begin(&mut p, "a", "club", OPEN).unwrap();
    play(&mut p, run, 40);
    let need = p.tables_now()[0].clone();
    p.apply(0, &Practice::<Shengji>::opened(&need, "t2".into()))
        .unwrap();
    assert_eq!(
        p.apply(0, &Practice::<Shengji>::reveal(false)),
        Err(Error::EarlyMidRound)
    );
    p.apply(0, &Practice::<Shengji>::close_round(1, false))
        .unwrap();
    assert!(p.tables_now().is_empty());
    let mut idle = p.idle_tables();
    idle.sort();
    assert_eq!(idle, vec!["t1-1".to_string(), "t2".to_string()]);
    assert_eq!(begin(&mut p, "b", "club", OPEN), Err(Error::PracticeClosed));
    assert_eq!(p.due(&seed()).unwrap(), None);
    p.apply(0, &Practice::<Shengji>::reveal(false)).unwrap();
    assert!(p.common.finished());
    assert_eq!(begin(&mut p, "b", "club", OPEN), Err(Error::Finished));
}

#[test]
fn a_runs_timeouts_count_on_over_its_boards() {
    let mut p = opened::<Shengji>("shengji", 3, &[]);
    let run = begin(&mut p, "a", "club", OPEN).unwrap();
    let need = p.tables_now()[0].clone();
    p.apply(0, &Practice::<Shengji>::opened(&need, "t".into()))
        .unwrap();
    let report = TableReport {
        result: TableResult::Board {
            declarer: Seat::N,
            defenders: 40,
        },
        ruling: None,
        tally: crate::competition::Tally {
            timeouts: vec![0, 0, 1, 0],
            auto_moves: vec![],
        },
    };
    p.apply(
        0,
        &Practice::<Shengji>::result(&need, "t".into(), report).unwrap(),
    )
    .unwrap();
    assert_eq!(p.tables_now()[0].prior_timeouts, vec![0, 0, 1, 0]);
    let _ = run;
}

#[test]
fn a_gouji_set_scores_team_a_and_seats_the_person_at_a1() {
    let mut p = opened::<Gouji>("gouji", 2, &["club"]);
    let reference = p.due(&seed()).unwrap().unwrap();
    p.apply(0, &reference).unwrap();
    p.apply(
        0,
        &PracticeAction::Begin {
            run: 2,
            player: Some("p".into()),
            name: Some("李阿姨".into()),
            level: "club".into(),
            at_ms: OPEN,
        },
    )
    .unwrap();
    let needs = p.tables_now();
    assert_eq!(needs[0].computers, vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(needs[1].computers, vec![1, 2, 3, 4, 5]);
    assert!(needs[1].prior_timeouts.is_empty(), "够级 keeps no count");
    for (need, (a, b)) in needs.iter().zip([(4, 0), (0, 4)]) {
        let id = format!("g{}", need.table);
        p.apply(0, &Practice::<Gouji>::opened(need, id.clone()))
            .unwrap();
        let record = GameRecord {
            a,
            b,
            first: None,
            last: vec![],
        };
        let report = TableReport::of(TableResult::Game(record));
        p.apply(0, &Practice::<Gouji>::result(need, id, report).unwrap())
            .unwrap();
    }
    let field = p.field(1);
    assert_eq!(
        field[0].mp,
        Mp::whole(2),
        "the computers' +4 beat the person's −4"
    );
    assert_eq!(field[1].mp, Mp::whole(0));
}

#[test]
fn replaying_the_log_gives_the_same_set_and_names_a_refused_entry() {
    let mut p = opened::<Shengji>("shengji", 2, &["club"]);
    let mut log = vec![
        (
            1,
            Practice::<Shengji>::created(spec("shengji", 2, &["club"])),
        ),
        (2, Practice::<Shengji>::start_round(1, OPEN)),
    ];
    let reference = p.due(&seed()).unwrap().unwrap();
    p.apply(3, &reference).unwrap();
    log.push((3, reference));
    let run = begin(&mut p, "a", "club", OPEN + 1).unwrap();
    log.push((
        4,
        PracticeAction::Begin {
            run,
            player: Some("a".into()),
            name: Some("a老师".into()),
            level: "club".into(),
            at_ms: OPEN + 1,
        },
    ));
    let need = p.tables_now()[1].clone();
    let opened = Practice::<Shengji>::opened(&need, "t".into());
    p.apply(5, &opened).unwrap();
    log.push((5, opened));
    let rebuilt = Practice::<Shengji>::replay("d1", &log).unwrap();
    assert_eq!(rebuilt, p);
    // Every entry goes through JSON unchanged (the chain hashes its text).
    for (_, a) in &log {
        let text = serde_json::to_string(a).unwrap();
        assert_eq!(&serde_json::from_str::<PracticeAction>(&text).unwrap(), a);
    }
    // The same player twice: the second begin is named by its seq.
    let mut bad = log.clone();
    let PracticeAction::Begin {
        player,
        name,
        level,
        at_ms,
        ..
    } = bad[3].1.clone()
    else {
        unreachable!("entry 4 is the player's begin")
    };
    bad.push((
        6,
        PracticeAction::Begin {
            run: 3,
            player,
            name,
            level,
            at_ms,
        },
    ));
    match Practice::<Shengji>::replay("d1", &bad) {
        Err((6, Error::PracticeAgain { run: 2 })) => {}
        other => panic!("{other:?}"),
    }
}

proptest! {
    /// The field's match points, against a count by hand: each result gets 2 for every other
    /// result it beats and 1 for every tie; all of them add up to n × (n − 1).
    #[test]
    fn the_fields_match_points_are_the_brute_force_count(
        defenders in proptest::collection::vec(0i32..=40, 1..12),
    ) {
        let mut p = opened::<Shengji>("shengji", 1, &[]);
        for (i, d) in defenders.iter().enumerate() {
            let run = begin(&mut p, &format!("p{i}"), "club", OPEN).unwrap();
            play(&mut p, run, d * 5);
        }
        let field = p.field(1);
        let n = defenders.len();
        let mut sum = Mp::ZERO;
        for (i, s) in field.iter().enumerate() {
            // Board 1: North declares, so fewer defenders' points are better for N–S.
            let mine = -defenders[i];
            let by_hand: i64 = defenders
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, d)| match mine.cmp(&-d) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum();
            prop_assert_eq!(s.mp, Mp::whole(by_hand));
            prop_assert_eq!(s.top, Mp::whole(2 * (n as i64 - 1)));
            sum = sum + s.mp;
        }
        prop_assert_eq!(sum, Mp::whole((n * (n - 1)) as i64));
    }
}
