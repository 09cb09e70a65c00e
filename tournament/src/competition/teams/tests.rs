//! The 够级 team competition as its log applies: the knockout with its extra games and lots, the
//! final with its rotation and extra games, rulings, the captains' signatures, the checks.

use super::*;
use crate::competition::{Competition, Entry, Error, Refused, Spec, TableReport, TableResult};
use crate::gouji::GameRecord;
use crate::gouji::Side;
use rules::deal::Seed;

fn entries(n: usize) -> Vec<Entry> {
    (1..=n)
        .map(|i| Entry {
            names: Vec::new(),
            organisation: Some(format!("单位{i}")),
            bot: true,
            team: None,
        })
        .collect()
}

fn spec(entries: Vec<Entry>, groups: Option<u32>, final_games: Option<u32>) -> Spec {
    Spec {
        game: GAME.into(),
        name: "够级团体赛".into(),
        tables: 0,
        rounds: 0,
        boards_per_round: 0,
        movement: Default::default(),
        ruleset: Some("zaozhuang-2017".into()),
        level: None,
        trump: None,
        seed: None,
        board_minutes: None,
        entries,
        groups,
        final_games,
        skip_after: None,
        revenge: false,
        prizes: None,
        final_seating: Some(crate::gouji::FinalSeating::Balanced),
        second_device: Default::default(),
        auto_play: false,
        timeouts_counted: Default::default(),
        practice: None,
    }
}

fn level() -> GameRecord {
    GameRecord {
        a: 0,
        b: 0,
        first: None,
        last: Vec::new(),
    }
}

const SEED: Seed = Seed([7; 32]);

/// A competition and its log so far.
struct Log {
    t: Teams,
    log: Vec<(u64, TeamsAction)>,
}

impl Log {
    fn new(entries: Vec<Entry>) -> Log {
        let spec = spec(entries, Some(2), None);
        Log {
            t: Teams::create("g", &spec).unwrap(),
            log: vec![(1, Teams::created(spec))],
        }
    }

    /// Applies an action as the log would (an accepted one is logged); on a refusal nothing
    /// changed.
    fn act(&mut self, a: TeamsAction) -> Result<(), Error> {
        let before = self.t.clone();
        let seq = self.log.len() as u64 + 1;
        let r = self.t.apply(seq, &a);
        match &r {
            Ok(()) => self.log.push((seq, a)),
            Err(_) => assert_eq!(self.t, before, "{a:?} was refused but changed the state"),
        }
        r
    }

    fn start(&mut self, round: u32) {
        self.act(TeamsAction::StartRound {
            round,
            at_ms: Some(1),
        })
        .unwrap();
        let due = self.t.due(&SEED).unwrap().expect("the round's draw");
        self.act(due).unwrap();
        assert_eq!(self.t.due(&SEED).unwrap(), None, "drawn once");
    }

    /// Plays every game open now with `record`, as the runner would log them.
    fn play_open(&mut self, record: &GameRecord) -> usize {
        let needs = self.t.tables_now();
        for n in &needs {
            let id = format!("t{}-{}-{}", n.round, n.table, n.slot);
            self.act(Teams::opened(n, id.clone())).unwrap();
            let result =
                Teams::result(n, id, TableReport::of(TableResult::Game(record.clone()))).unwrap();
            self.act(result).unwrap();
        }
        needs.len()
    }

    fn close(&mut self, round: u32, forced: bool) -> Result<(), Error> {
        self.act(TeamsAction::CloseRound { round, forced })
    }

    fn lot(&mut self, table: u32, winner: &str, reason: &str) -> Result<(), Error> {
        let round = self.t.common.round;
        self.act(TeamsAction::Lot {
            round,
            table,
            winner: winner.into(),
            reason: reason.into(),
        })
    }
}

#[test]
fn a_level_match_plays_an_extra_game_and_the_final_one_for_a_tie() {
    let mut g = Log::new(entries(7));
    assert_eq!(
        g.t.teams[0].name, "单位11队",
        "named after the organisation"
    );
    g.start(1);
    // Seven teams: one match takes the field to six.
    assert_eq!(g.t.matches(1).len(), 1);
    // Six level games, one after the other at table 1.
    for game in 1..=MATCH_GAMES {
        let open = g.t.open_now(1);
        assert_eq!((open.len(), open[0].game), (1, game));
        assert_eq!(open[0].deal, 10_000 + 100 + game);
        g.play_open(&level());
    }
    assert!(!g.t.round_complete(1));
    assert_eq!(g.close(1, false), Err(Error::RoundIncomplete { round: 1 }));
    // Level on points, 头科 and 大落: game 7 is the extra game; B takes 头科 and wins.
    let open = g.t.open_now(1);
    assert_eq!((open[0].game, open[0].extra), (7, true));
    let b = open[0].b.clone();
    g.play_open(&GameRecord {
        first: Some(Side::B),
        ..level()
    });
    assert_eq!(g.t.matches(1)[0].2.winner.as_deref(), Some(b.as_str()));
    g.close(1, false).unwrap();
    assert_eq!(g.t.left_count(), 6);

    // The final: every table one deal a game; then two teams level get an extra game.
    g.start(2);
    let Some(RoundKind::Final(groups)) = g.t.stage(2).unwrap().kind.clone() else {
        panic!("the final")
    };
    // Four teams separated by deductions; the last two stay level on everything.
    for (i, team) in groups.a.iter().chain(&groups.b).take(4).enumerate() {
        let n = g.t.team(team).unwrap().number;
        g.act(TeamsAction::TeamDeduction {
            round: 2,
            team: n,
            points: i as i32 + 1,
            reason: "测试".into(),
        })
        .unwrap();
    }
    for game in 1..=3 {
        let open = g.t.open_now(2);
        assert_eq!(open.len(), 3, "game {game} at three tables");
        assert!(open
            .iter()
            .all(|s| s.deal == 20_000 + game && s.game == game));
        g.play_open(&level());
    }
    let open = g.t.open_now(2);
    assert_eq!(open.len(), 1);
    let extra = open[0].clone();
    assert_eq!((extra.table, extra.game, extra.extra), (1, 4, true));
    let mut level_two = vec![groups.b[1].clone(), groups.b[2].clone()];
    level_two.sort();
    let mut met = vec![extra.a.clone(), extra.b.clone()];
    met.sort();
    assert_eq!(met, level_two, "the two level teams meet");
    assert!(!g.t.round_complete(2));
    // A game with no 头科 on level points settles nothing: another is played.
    g.play_open(&level());
    assert_eq!(g.t.open_now(2)[0].game, 5);
    g.play_open(&GameRecord {
        first: Some(Side::A),
        ..level()
    });
    assert!(g.t.round_complete(2));
    let st = g.t.final_standings().unwrap();
    assert!(st.iter().all(|s| s.place().is_some()));
    let first_of_two = st
        .iter()
        .find(|s| level_two.contains(&s.team))
        .map(|s| s.team.clone());
    assert_eq!(
        first_of_two,
        Some(extra.a.clone()),
        "A took 头科 in the extra game"
    );
    g.close(2, false).unwrap();
    assert!(g.t.over());
    assert_eq!(
        g.act(TeamsAction::StartRound {
            round: 3,
            at_ms: None
        }),
        Err(Error::FinalDrawn)
    );
    // The standing: the six finalists placed, the team knocked out in round 1 last.
    let standing = g.t.standing(2);
    assert_eq!(standing.len(), 7);
    assert!(standing[..6]
        .iter()
        .all(|s| s.reach == standing::Reach::Final && s.place.is_some()));
    assert_eq!(
        (standing[6].reach, standing[6].out_round),
        (standing::Reach::Out, Some(1))
    );
    g.act(TeamsAction::Reveal { early: false }).unwrap();
    assert!(g.t.common.finished());
}

#[test]
fn a_final_still_level_after_its_extra_games_can_be_closed_with_the_place_shared() {
    // Six teams: round 1 is the final. Every game level, and every extra game settles nothing
    // (no 头科, level points): after MAX_EXTRA_GAMES no more are played.
    let mut g = Log::new(entries(6));
    g.start(1);
    for _ in 1..=g.t.final_games {
        assert_eq!(g.play_open(&level()), 3);
    }
    for extra in 1..=MAX_EXTRA_GAMES {
        assert!(!g.t.round_complete(1), "extra game {extra} still to play");
        assert!(!g.t.final_extra_games_spent());
        let open = g.t.open_now(1);
        assert_eq!((open.len(), open[0].extra), (1, true));
        g.play_open(&level());
    }
    assert!(g.t.open_now(1).is_empty(), "no thirteenth extra game");
    assert!(g.t.final_extra_games_spent());
    assert!(g.t.round_complete(1));
    // Everyone is still level: the library leaves them unplaced, and they share place 1.
    let st = g.t.final_standings().unwrap();
    assert!(st.iter().all(|s| s.place().is_none()));
    assert!(g
        .t
        .standing(1)
        .iter()
        .all(|s| s.place == Some(1) && s.by == Some(crate::gouji::TieBreak::ExtraGame)));
    g.close(1, false).unwrap();
    assert!(g.t.over());
}

#[test]
fn a_knockout_match_level_after_its_extra_games_is_decided_by_the_directors_lot() {
    // Seven teams: one knockout match at table 1. Six level games, then every extra game on
    // level points with no 头科 (settling nothing).
    let mut g = Log::new(entries(7));
    g.start(1);
    for _ in 1..=MATCH_GAMES {
        g.play_open(&level());
    }
    let (a, b) = {
        let m = &g.t.matches(1)[0].1;
        (m.a.clone(), m.b.clone())
    };
    let b_number = g.t.team(&b).unwrap().number;
    for extra in 1..=MAX_EXTRA_GAMES {
        // Not spent yet: a lot is refused (409) and changes nothing.
        let err = g.lot(1, &a, "抽签").unwrap_err();
        assert_eq!(
            err.refused(),
            Refused::NotNow,
            "after {} extra games",
            extra - 1
        );
        assert!(!g.t.lot_needed(1, 1));
        assert_eq!(g.play_open(&level()), 1);
    }
    assert!(g.t.open_now(1).is_empty(), "no thirteenth extra game");
    assert!(g.t.lot_needed(1, 1));
    assert!(g.t.matches(1)[0].2.winner.is_none());
    assert!(!g.t.round_complete(1));
    assert_eq!(g.close(1, false).unwrap_err().refused(), Refused::NotNow);

    // Refused, changing nothing: a team not in the match, a table with no match, no reason.
    let other =
        g.t.teams
            .iter()
            .find(|t| t.name != a && t.name != b)
            .unwrap();
    let (other_name, other_number) = (other.name.clone(), other.number.to_string());
    for (table, who) in [
        (1, other_name.as_str()),
        (1, other_number.as_str()),
        (1, "无此队"),
        (2, a.as_str()),
    ] {
        assert_eq!(
            g.lot(table, who, "抽签").unwrap_err().refused(),
            Refused::Invalid,
            "{table} {who}"
        );
    }
    assert_eq!(g.lot(1, &a, " ").unwrap_err().refused(), Refused::Invalid);
    assert!(g.t.lot_needed(1, 1), "nothing changed");

    // B, typed as its number, wins the lot: the match is B's and the round can close.
    g.lot(1, &b_number.to_string(), "双方队长在裁判长面前抽签")
        .unwrap();
    assert_eq!(g.t.matches(1)[0].2.winner.as_deref(), Some(b.as_str()));
    assert!(!g.t.lot_needed(1, 1));
    assert_eq!(
        g.t.stage(1).unwrap().lots[&1].reason,
        "双方队长在裁判长面前抽签"
    );
    assert_eq!(
        g.lot(1, &a, "再抽"),
        Err(Error::LotDrawn { table: 1 }),
        "once"
    );
    assert!(g.t.round_complete(1));
    g.close(1, false).unwrap();
    assert!(g.t.left.iter().all(|gr| !gr.teams.contains(&a)), "A is out");
    assert_eq!(g.t.left_count(), 6);
}

#[test]
fn a_ruling_on_a_finished_game_replaces_its_result_and_what_follows_from_it() {
    // Seven teams: one knockout match in round 1, at table 1.
    let mut g = Log::new(entries(7));
    g.start(1);
    for _ in 1..=MATCH_GAMES {
        g.play_open(&level());
    }
    let open = g.t.open_now(1);
    assert_eq!(
        (open[0].game, open[0].extra),
        (7, true),
        "level: an extra game"
    );
    let a = open[0].a.clone();
    let won_by_a = GameRecord {
        a: 4,
        b: -4,
        first: Some(Side::A),
        last: vec![Side::B],
    };
    let rule = |game, record: &GameRecord, reason: &str| TeamsAction::AdjustGame {
        round: 1,
        table: 1,
        game,
        record: record.clone(),
        reason: reason.into(),
    };
    // Refused, changing nothing: a game not finished, no reason, a result out of range.
    assert_eq!(
        g.act(rule(7, &won_by_a, "裁判改判")),
        Err(Error::GameUnfinished {
            round: 1,
            table: 1,
            game: 7
        })
    );
    assert_eq!(
        g.act(rule(2, &won_by_a, "  ")).unwrap_err().refused(),
        Refused::Invalid
    );
    let wild = GameRecord {
        a: 1000,
        ..won_by_a.clone()
    };
    assert_eq!(
        g.act(rule(2, &wild, "裁判改判")).unwrap_err().refused(),
        Refused::Invalid
    );
    assert_eq!(g.t.open_now(1)[0].game, 7, "nothing changed");

    // Game 2 ruled A's: the match is A's, the extra game is no longer needed.
    g.act(rule(2, &won_by_a, "B 队打暗号，改判")).unwrap();
    assert!(g.t.open_now(1).is_empty());
    assert_eq!(g.t.matches(1)[0].2.winner.as_deref(), Some(a.as_str()));
    let slot = &g.t.stage(1).unwrap().games[&(1, 2)];
    assert_eq!(slot.adjusted.as_deref(), Some("B 队打暗号，改判"));
    assert_eq!(slot.record.as_ref(), Some(&won_by_a));
    g.close(1, false).unwrap();
}

#[test]
fn a_people_teams_captain_signs_its_games_before_the_round_closes() {
    // Seven teams, the first of people: one knockout match in round 1.
    let mut e = entries(7);
    e[0].bot = false;
    e[0].names = vec!["甲".into(), "乙".into(), "丙".into()];
    let mut g = Log::new(e);
    g.act(TeamsAction::StartRound {
        round: 1,
        at_ms: None,
    })
    .unwrap();
    let mut drawn = g.t.draw_for(1, &SEED).unwrap();
    // Put the people team in the match (the draw is the seed's; the test needs it playing).
    let k = drawn.knockout.as_mut().unwrap();
    let people = g.t.teams[0].name.clone();
    if k.matches[0].a != people && k.matches[0].b != people {
        k.byes.retain(|t| t != &people);
        let was = std::mem::replace(&mut k.matches[0].a, people.clone());
        k.byes.push(was);
    }
    g.act(TeamsAction::Draw { round: 1, drawn }).unwrap();
    let a_wins = GameRecord {
        a: 2,
        first: Some(Side::A),
        ..level()
    };
    let sign = |team, agree, note: Option<&str>| TeamsAction::ConfirmGames {
        round: 1,
        team,
        agree,
        note: note.map(str::to_string),
    };
    // Nothing finished: nothing to sign.
    assert_eq!(
        g.act(sign(1, true, None)).unwrap_err().refused(),
        Refused::NotNow
    );
    for _ in 1..=3 {
        g.play_open(&a_wins);
    }
    // A dispute needs its note; the people's team signs games 1–3.
    assert_eq!(g.act(sign(1, false, None)), Err(Error::DisputeNeedsNote));
    assert_eq!(
        g.act(sign(99, true, None)),
        Err(Error::NoSuchTeam { team: 99 })
    );
    g.act(sign(1, true, None)).unwrap();
    assert!(
        g.t.unconfirmed(1).is_empty(),
        "the computer team signs by itself"
    );
    for _ in 4..=MATCH_GAMES {
        g.play_open(&a_wins);
    }
    assert!(g.t.round_complete(1));
    assert_eq!(
        g.t.unconfirmed(1),
        vec![(1, 4), (1, 5), (1, 6)],
        "games finished since"
    );
    assert_eq!(
        g.close(1, false),
        Err(Error::GamesUnconfirmed {
            games: vec![(1, 4), (1, 5), (1, 6)]
        })
    );
    // A dispute holds the close too; signing again settles it; a ruling asks for it again.
    g.act(sign(1, false, Some("第5局大落记错"))).unwrap();
    assert_eq!(g.t.unconfirmed(1).len(), MATCH_GAMES as usize);
    g.act(sign(1, true, None)).unwrap();
    assert!(g.t.unconfirmed(1).is_empty());
    g.act(TeamsAction::AdjustGame {
        round: 1,
        table: 1,
        game: 5,
        record: GameRecord {
            a: 4,
            b: -4,
            first: Some(Side::A),
            last: vec![Side::B],
        },
        reason: "改判：大落更正".into(),
    })
    .unwrap();
    assert_eq!(g.t.unconfirmed(1), vec![(1, 5)]);
    let games = &g.t.stage(1).unwrap().games;
    assert!(games[&(1, 5)].confirms.is_empty());
    assert_eq!(games[&(1, 4)].confirms.len(), 1);
    // The director may force the close over a missing signature.
    g.close(1, true).unwrap();
}

#[test]
fn teams_and_draws_are_checked() {
    let create = |e, groups, games| Teams::create("g", &spec(e, groups, games));
    assert_eq!(
        create(entries(5), None, None).unwrap_err(),
        Error::TeamCount {
            got: 5,
            min: 6,
            max: MAX_TEAMS
        }
    );
    let mut e = entries(6);
    e[0].bot = false;
    e[0].names = vec!["甲".into(), "乙".into()];
    assert_eq!(
        create(e, None, None).unwrap_err(),
        Error::TeamIsThree { number: 1 },
        "three players"
    );
    let mut e = entries(6);
    e[1].team = Some("单位11队".into());
    assert_eq!(
        create(e, None, None).unwrap_err(),
        Error::TeamNameTwice {
            name: "单位11队".into()
        },
        "one name twice"
    );
    assert_eq!(
        create(entries(6), None, Some(4)).unwrap_err(),
        Error::FinalGameCount { games: 4 }
    );
    assert_eq!(
        create(entries(6), Some(0), None).unwrap_err(),
        Error::NoGroups
    );
    let mut fixed = spec(entries(6), None, None);
    fixed.level = Some("2".into());
    assert_eq!(Teams::create("g", &fixed).unwrap_err(), Error::NothingToFix);

    let mut g = Log::new(entries(6));
    g.act(TeamsAction::StartRound {
        round: 1,
        at_ms: None,
    })
    .unwrap();
    let mut drawn = g.t.draw_for(1, &Seed([1; 32])).unwrap();
    // A draw naming other teams than the six is refused: the server's records disagree.
    let mut wrong = drawn.clone();
    wrong.final_groups.as_mut().unwrap().a[0] = "别人".into();
    let err = g.act(TeamsAction::Draw {
        round: 1,
        drawn: wrong,
    });
    assert_eq!(err.unwrap_err().refused(), Refused::Broken);
    drawn.groups = None;
    assert!(
        g.act(TeamsAction::Draw { round: 1, drawn }).is_err(),
        "round 1 draws the groups"
    );
}

#[test]
fn a_team_competition_does_not_finish_early_and_the_log_replays() {
    let mut g = Log::new(entries(6));
    assert_eq!(
        g.act(TeamsAction::Reveal { early: true }),
        Err(Error::NoEarlyFinish)
    );
    g.start(1);
    g.play_open(&GameRecord {
        a: 2,
        b: -2,
        first: Some(Side::A),
        last: vec![Side::B],
    });
    // Rebuilt from its log, the competition is the same.
    assert_eq!(Teams::replay("g", &g.log).unwrap(), g.t);
    // The log starts with its creation, or it is refused.
    assert!(Teams::replay("g", &g.log[1..]).is_err());
}

#[test]
fn teams_a_final_cannot_separate_share_the_place_and_the_next_ones_stay_empty() {
    let mut g = Log::new(entries(6));
    g.start(1);
    let Some(RoundKind::Final(groups)) = g.t.stage(1).unwrap().kind.clone() else {
        panic!("six teams play the final at once")
    };
    // One team falls behind by a deduction; the other five stay level through every game and
    // every extra game.
    let last = groups.b[2].clone();
    let n = g.t.team(&last).unwrap().number;
    g.act(TeamsAction::TeamDeduction {
        round: 1,
        team: n,
        points: 4,
        reason: "迟到".into(),
    })
    .unwrap();
    while g.play_open(&level()) > 0 {}
    assert!(g.t.final_extra_games_spent());
    let extras = g.t.seatings(1).iter().filter(|(s, _)| s.extra).count();
    assert_eq!(extras as u32, MAX_EXTRA_GAMES);
    g.close(1, false).unwrap();

    let places: Vec<(String, Option<u32>)> =
        g.t.standing(1)
            .into_iter()
            .map(|t| (t.team, t.place))
            .collect();
    let shared = places.iter().filter(|(_, p)| *p == Some(1)).count();
    assert_eq!(shared, 5, "five teams share first place: {places:?}");
    assert!(
        places.contains(&(last, Some(6))),
        "the sixth keeps its own: {places:?}"
    );
    assert!(g.t.standing(1).iter().all(|t| !t.extra_game_needed));
    assert!(
        !places.iter().any(|(_, p)| matches!(p, Some(2..=5))),
        "places 2-5 stay empty"
    );
}

#[test]
fn a_ruling_no_game_can_produce_is_refused() {
    let mut g = Log::new(entries(7));
    g.start(1);
    g.play_open(&level());
    let rule = |a, b, first| TeamsAction::AdjustGame {
        round: 1,
        table: 1,
        game: 1,
        record: GameRecord {
            a,
            b,
            first,
            last: Vec::new(),
        },
        reason: "改判".into(),
    };
    // Both teams cannot win a game (the 12 : 12 with 头科 B).
    assert_eq!(
        g.act(rule(12, 12, Some(Side::B))),
        Err(Error::NotProducible { a: 12, b: 12 })
    );
    // A forfeit (0:12 告负, no 头科) is a result a game can have.
    g.act(rule(-12, 12, None)).unwrap();
}
