//! 够级 team events: a match of six games and its tie-breaks, the final's rotation and ranking,
//! the seeded draw and the knockout down to six, each against the words of the text.

use std::collections::{HashMap, HashSet};

use rules::deal::Seed;
use rules::gouji::score::{Place, Tally};
use rules::gouji::Ruleset;
use rules::Explain;
use serde_json::json;
use tournament::gouji::{
    advance, draw_final_groups, draw_groups, final_schedule, final_standings, knockout_round,
    match_result, rank_teams, Entrant, ExtraGame, FinalGroups, FinalInput, FinalSeating,
    GameRecord, Group, Placing, Side, TeamDeduction, TeamMatch, TeamTally, TieBreak,
};
use tournament::Error;

fn game(a: i32, b: i32, first: Option<Side>, last: &[Side]) -> GameRecord {
    GameRecord {
        a,
        b,
        first,
        last: last.to_vec(),
    }
}

use Side::{A, B};

/// Six games that leave the teams level on points (0 each) and on 头科 (3 each); A has four
/// 大落, B two.
fn level_match() -> TeamMatch {
    TeamMatch {
        a: "峄城".into(),
        b: "薛城".into(),
        games: vec![
            game(6, -6, Some(A), &[B]),
            game(-2, 2, Some(B), &[A]),
            game(12, -12, Some(A), &[B]), // 串三户
            game(-4, 4, Some(B), &[A]),
            game(0, 0, Some(A), &[A]),
            game(-12, 12, Some(B), &[A]),
        ],
        deductions: vec![],
        extra_games: vec![],
    }
}

#[test]
fn a_match_is_six_games_and_the_higher_total_wins() {
    let mut m = level_match();
    m.games[0] = game(8, -8, Some(A), &[B]);
    let r = match_result(&m).unwrap();
    assert!(r.complete);
    assert_eq!(r.winner.as_deref(), Some("峄城"));
    assert_eq!(r.standings[0].points, 2);
    assert_eq!(r.standings[1].points, -2);
    assert_eq!(
        r.standings[0].placing,
        Placing::Placed {
            place: 1,
            by: TieBreak::Points
        }
    );
    // Five games in: no winner yet.
    m.games.pop();
    let r = match_result(&m).unwrap();
    assert!(!r.complete);
    assert_eq!(r.winner, None);
    // Seven: refused.
    let mut m = level_match();
    m.games.push(game(0, 0, None, &[]));
    assert_eq!(
        match_result(&m),
        Err(Error::TooManyGames {
            played: 7,
            scheduled: 6
        })
    );
}

#[test]
fn level_totals_go_to_more_first_places_then_fewer_last_places() {
    // 总分相等时，获得头科次数多者名次列前: move game 5's 头科 to B (A 2, B 4).
    let mut m = level_match();
    m.games[4].first = Some(B);
    let r = match_result(&m).unwrap();
    assert_eq!(r.winner.as_deref(), Some("薛城"));
    assert_eq!(
        r.standings[0].placing,
        Placing::Placed {
            place: 1,
            by: TieBreak::Firsts
        }
    );
    // 如仍相同，则获得大落次数少者名次列前: as dealt, 头科 3–3, 大落 A 4, B 2.
    let r = match_result(&level_match()).unwrap();
    assert_eq!(r.winner.as_deref(), Some("薛城"));
    assert_eq!((r.standings[0].firsts, r.standings[0].lasts), (3, 2));
    assert_eq!(
        r.standings[1].placing,
        Placing::Placed {
            place: 2,
            by: TieBreak::Lasts
        }
    );
}

#[test]
fn level_on_everything_an_extra_game_is_needed_and_decides() {
    // Game 5's 大落 to B: 大落 3–3 as well.
    let mut m = level_match();
    m.games[4].last = vec![B];
    let r = match_result(&m).unwrap();
    assert!(r.extra_game_needed);
    assert_eq!(r.winner, None);
    let needed = Placing::ExtraGameNeeded {
        places: [1, 2],
        with: vec!["峄城".into(), "薛城".into()],
    };
    assert!(r.standings.iter().all(|s| s.placing == needed));
    assert_eq!(
        serde_json::to_value(&r.standings[0]).unwrap(),
        json!({"team":"峄城","points":0,"firsts":3,"lasts":3,
               "outcome":"extra_game_needed","places":[1,2],"with":["峄城","薛城"]})
    );
    // 加赛一局，以头科一方为胜: 薛城 took 头科 in the extra game.
    m.extra_games.push(ExtraGame {
        winner: "薛城".into(),
        loser: "峄城".into(),
    });
    let r = match_result(&m).unwrap();
    assert!(!r.extra_game_needed);
    assert_eq!(r.winner.as_deref(), Some("薛城"));
    assert_eq!(
        r.standings[0].placing,
        Placing::Placed {
            place: 1,
            by: TieBreak::ExtraGame
        }
    );
    // The 4-point deduction comes off the total before any tie-break.
    let mut m = level_match();
    m.games[4].last = vec![B];
    m.deductions.push(TeamDeduction {
        team: "薛城".into(),
        points: 4,
        reason: None,
    });
    let r = match_result(&m).unwrap();
    assert_eq!(r.winner.as_deref(), Some("峄城"));
    assert_eq!((r.standings[1].points, r.standings[1].deducted), (-4, 4));
}

#[test]
fn bad_match_input_is_refused() {
    let mut m = level_match();
    m.deductions.push(TeamDeduction {
        team: "台儿庄".into(),
        points: 4,
        reason: None,
    });
    assert_eq!(
        match_result(&m),
        Err(Error::UnknownTeam {
            team: "台儿庄".into()
        })
    );
    let mut m = level_match();
    m.deductions.push(TeamDeduction {
        team: "薛城".into(),
        points: -4,
        reason: None,
    });
    assert_eq!(
        match_result(&m),
        Err(Error::BadTeamDeduction {
            team: "薛城".into(),
            points: -4
        })
    );
    let mut m = level_match();
    m.extra_games.push(ExtraGame {
        winner: "薛城".into(),
        loser: "薛城".into(),
    });
    assert_eq!(
        match_result(&m),
        Err(Error::SelfExtraGame {
            team: "薛城".into()
        })
    );
    let mut m = level_match();
    m.b = m.a.clone();
    assert_eq!(match_result(&m).unwrap_err().code(), "duplicate_team");
    // A deduction read from JSON is 4 points unless it says otherwise.
    let d: TeamDeduction = serde_json::from_value(json!({"team": "薛城"})).unwrap();
    assert_eq!(d.points, 4);
}

#[test]
fn a_game_record_from_the_engine_tally() {
    let scoring = Ruleset::zaozhuang_2017().scoring;
    // A1 头科 +4, A2 二科 +2, B2 三科, B1 四科 but a failed burner (scores 大落 −4), A3 二落 −2,
    // B3 大落 −4: A 4 + 2 − 2 = 4, B −4 − 4 = −8; 头科 A; two 大落, both B.
    let t = Tally {
        places: [
            Some(Place::First),
            Some(Place::Fourth),
            Some(Place::Second),
            Some(Place::Third),
            Some(Place::SecondLast),
            Some(Place::Last),
        ],
        failed: [false, true, false, false, false, false],
        ..Tally::default()
    };
    let r = GameRecord::from_tally(&t, &scoring);
    assert_eq!(r, game(4, -8, Some(A), &[B, B]));
    assert_eq!((r.firsts(A), r.lasts(B), r.lasts(A)), (1, 2, 0));
}

fn groups() -> FinalGroups {
    FinalGroups {
        a: ["a1".into(), "a2".into(), "a3".into()],
        b: ["b1".into(), "b2".into(), "b3".into()],
    }
}

#[test]
fn the_final_rotation_meets_every_b_team_at_the_same_deal() {
    // A队按1-2-3顺序，B队按3-2-1顺序调整到下局比赛桌.
    for games in [3, 6, 9] {
        let s = final_schedule(&groups(), games, FinalSeating::Balanced).unwrap();
        assert_eq!(s.len() as u32, games);
        let mut met: HashMap<(String, String), u32> = HashMap::new();
        for (i, g) in s.iter().enumerate() {
            assert_eq!(g.game, i as u32 + 1);
            // Every table plays the same deal in a game, a new deal each game.
            assert_eq!(g.deal, g.game);
            assert_eq!(
                g.tables.iter().map(|t| t.table).collect::<Vec<_>>(),
                [1, 2, 3]
            );
            let teams: HashSet<&String> = g.tables.iter().flat_map(|t| [&t.a, &t.b]).collect();
            assert_eq!(teams.len(), 6, "every team plays every game");
            for t in &g.tables {
                *met.entry((t.group_a().clone(), t.group_b().clone()))
                    .or_default() += 1;
            }
            if let Some(next) = s.get(i + 1) {
                for t in &g.tables {
                    let up = t.table % 3 + 1;
                    let down = (t.table + 1) % 3 + 1;
                    assert_eq!(
                        next.tables[up as usize - 1].group_a(),
                        t.group_a(),
                        "A moves {} → {up}",
                        t.table
                    );
                    assert_eq!(
                        next.tables[down as usize - 1].group_b(),
                        t.group_b(),
                        "B moves {} → {down}",
                        t.table
                    );
                }
            }
        }
        // After the games every A team has met every B team, equally often.
        assert_eq!(met.len(), 9);
        assert!(met.values().all(|&n| n == games / 3), "{met:?}");
    }
    let g1 = &final_schedule(&groups(), 3, FinalSeating::Balanced).unwrap()[1];
    let pairs: Vec<(&str, &str)> = g1
        .tables
        .iter()
        .map(|t| (t.group_a().as_str(), t.group_b().as_str()))
        .collect();
    assert_eq!(pairs, [("a3", "b2"), ("a1", "b3"), ("a2", "b1")], "game 2");
    assert_eq!(
        final_schedule(&groups(), 4, FinalSeating::Balanced),
        Err(Error::FinalGames { games: 4 })
    );
    assert_eq!(
        final_schedule(&groups(), 0, FinalSeating::Balanced),
        Err(Error::FinalGames { games: 0 })
    );
    let mut dup = groups();
    dup.b[2] = "a1".into();
    assert_eq!(
        final_schedule(&dup, 3, FinalSeating::Balanced),
        Err(Error::FinalTeams)
    );
}

/// A game's record seen from the other side: A's points and places are B's.
fn sides_turned(r: &GameRecord) -> GameRecord {
    let other = |s: &Side| if *s == A { B } else { A };
    GameRecord {
        a: r.b,
        b: r.a,
        first: r.first.as_ref().map(other),
        last: r.last.iter().map(other).collect(),
    }
}

/// No group is tied to one side of the same deals (issue 24.9): on every deal both groups sit
/// both sides (two tables one way, one the other); over each pair of rotations every team sits
/// side A on three deals and side B on three, and each group fills half the side-A seats —
/// while every A team still meets every B team once a rotation.
#[test]
fn the_final_seats_each_group_on_each_side_of_the_same_deals_equally() {
    let group_a: HashSet<String> = groups().a.iter().cloned().collect();
    for games in [6, 12, 30] {
        let s = final_schedule(&groups(), games, FinalSeating::Balanced).unwrap();
        let mut side_a: HashMap<String, Vec<u32>> = HashMap::new();
        let mut side_b: HashMap<String, Vec<u32>> = HashMap::new();
        for g in &s {
            let on_a = g.tables.iter().filter(|t| group_a.contains(&t.a)).count();
            assert!(
                on_a == 1 || on_a == 2,
                "game {}: group A holds side A at {on_a} tables",
                g.game
            );
            for t in &g.tables {
                assert_eq!(t.swapped, !group_a.contains(&t.a), "{t:?}");
                side_a.entry(t.a.clone()).or_default().push(g.deal);
                side_b.entry(t.b.clone()).or_default().push(g.deal);
            }
        }
        for team in groups().a.iter().chain(&groups().b) {
            for pair in 0..games / 6 {
                let deals = 6 * pair + 1..=6 * pair + 6;
                let on = |m: &HashMap<String, Vec<u32>>| {
                    m.get(team)
                        .map_or(0, |d| d.iter().filter(|x| deals.contains(x)).count())
                };
                assert_eq!(
                    (on(&side_a), on(&side_b)),
                    (3, 3),
                    "{team}, deals {deals:?}: side A {:?}, side B {:?}",
                    side_a.get(team),
                    side_b.get(team)
                );
            }
        }
        let group_a_on_a: usize = s
            .iter()
            .map(|g| g.tables.iter().filter(|t| group_a.contains(&t.a)).count())
            .sum();
        assert_eq!(group_a_on_a as u32 * 2, games * 3, "half the side-A seats");
    }
    // One rotation alone cannot be even (three games): two one way, one the other.
    let s = final_schedule(&groups(), 3, FinalSeating::Balanced).unwrap();
    for team in groups().a.iter() {
        let on_a = s
            .iter()
            .filter(|g| g.tables.iter().any(|t| &t.a == team))
            .count();
        assert_eq!(on_a, 2, "{team}");
    }
}

#[test]
fn the_final_ranking_with_tie_breaks_and_the_deduction() {
    // Game 1: T1 a1–b1, T2 a2–b2, T3 a3–b3. Game 2: T1 a3–b2, T2 a1–b3, T3 a2–b1.
    // Game 3: T1 a2–b3, T2 a3–b1, T3 a1–b2. Records are by side, and in this first rotation
    // table 2 seats its group-B team on side A: below, each table's record as the group-A team
    // against the group-B team, turned to sides with `at_table`.
    let at_table = |t: usize, r: GameRecord| if t == 1 { sides_turned(&r) } else { r };
    let by_groups = vec![
        [
            game(4, -4, Some(A), &[B]),
            game(-4, 4, Some(B), &[A]),
            game(0, 0, Some(A), &[A]),
        ],
        [
            game(2, -2, Some(B), &[B]),
            game(-6, 6, Some(B), &[A]),
            game(12, -12, Some(A), &[B]),
        ],
        [
            game(-2, 2, Some(A), &[A]),
            game(4, -4, Some(A), &[B]),
            game(0, 0, Some(B), &[B]),
        ],
    ];
    let results: Vec<[GameRecord; 3]> = by_groups
        .into_iter()
        .map(|g| {
            let [x, y, z] = g;
            [at_table(0, x), at_table(1, y), at_table(2, z)]
        })
        .collect();
    // Totals (points, 头科, 大落): a1 (−2, 1, 1), a2 (6, 2, 2), a3 (6, 2, 1), b1 (−20, 0, 3),
    // b2 (2, 3, 2), b3 (8, 1, 0); b3 loses 4 for talking about the deal after a game → 4.
    let input = FinalInput {
        groups: groups(),
        seating: FinalSeating::Balanced,
        games: 3,
        results,
        deductions: vec![TeamDeduction {
            team: "b3".into(),
            points: 4,
            reason: None,
        }],
        extra_games: vec![],
    };
    let table: Vec<(String, i32, u32, u32, Option<u32>)> = final_standings(&input)
        .unwrap()
        .into_iter()
        .map(|s| (s.team.clone(), s.points, s.firsts, s.lasts, s.place()))
        .collect();
    let row = |t: &str, p, f, l, place| (t.to_string(), p, f, l, Some(place));
    assert_eq!(
        table,
        [
            row("a3", 6, 2, 1, 1), // level with a2 on points and 头科, fewer 大落
            row("a2", 6, 2, 2, 2),
            row("b3", 4, 1, 0, 3),
            row("b2", 2, 3, 2, 4),
            row("a1", -2, 1, 1, 5),
            row("b1", -20, 0, 3, 6),
        ]
    );
    let s = final_standings(&input).unwrap();
    assert_eq!(
        s[0].placing,
        Placing::Placed {
            place: 1,
            by: TieBreak::Lasts
        }
    );
    assert_eq!(
        s[2].placing,
        Placing::Placed {
            place: 3,
            by: TieBreak::Points
        }
    );
    assert_eq!(s[2].deducted, 4);
    // Results for more games than scheduled are refused.
    let mut more = input.clone();
    more.results.push(more.results[0].clone());
    assert_eq!(
        final_standings(&more),
        Err(Error::TooManyGames {
            played: 4,
            scheduled: 3
        })
    );
}

#[test]
fn several_teams_level_on_everything_are_ordered_by_extra_game_wins() {
    let t = |team: &str, points| TeamTally {
        team: team.into(),
        points,
        firsts: 2,
        lasts: 1,
        deducted: 0,
    };
    let tallies = [t("x", 10), t("w", 3), t("y", 10), t("z", 10)];
    let places = |extra: &[(&str, &str)]| {
        let extra: Vec<ExtraGame> = extra
            .iter()
            .map(|(w, l)| ExtraGame {
                winner: w.to_string(),
                loser: l.to_string(),
            })
            .collect();
        rank_teams(&tallies, &extra)
            .unwrap()
            .into_iter()
            .map(|s| (s.team, s.placing))
            .collect::<Vec<_>>()
    };
    let needed = |with: &[&str], from, to| Placing::ExtraGameNeeded {
        places: [from, to],
        with: with.iter().map(|s| s.to_string()).collect(),
    };
    // No extra game yet: x, y, z need one for places 1 to 3; w is 4th on points.
    let none = places(&[]);
    assert_eq!(none[0], ("x".into(), needed(&["x", "y", "z"], 1, 3)));
    assert_eq!(
        none[3],
        (
            "w".into(),
            Placing::Placed {
                place: 4,
                by: TieBreak::Points
            }
        )
    );
    // A cycle decides nothing.
    let cycle = places(&[("x", "y"), ("y", "z"), ("z", "x")]);
    assert!(cycle[..3]
        .iter()
        .all(|(_, p)| *p == needed(&["x", "y", "z"], 1, 3)));
    // x beat both, y beat z: 1, 2, 3.
    let decided = places(&[("x", "y"), ("x", "z"), ("y", "z")]);
    let order: Vec<(&str, Option<u32>)> = decided
        .iter()
        .map(|(t, p)| {
            (
                t.as_str(),
                if let Placing::Placed { place, .. } = p {
                    Some(*place)
                } else {
                    None
                },
            )
        })
        .collect();
    assert_eq!(
        order,
        [
            ("x", Some(1)),
            ("y", Some(2)),
            ("z", Some(3)),
            ("w", Some(4))
        ]
    );
    // x beat y only: x 1st; y and z still level for places 2 and 3.
    let part = places(&[("x", "y")]);
    assert_eq!(part[1], ("y".into(), needed(&["y", "z"], 2, 3)));
    // An extra game with a team outside the ranking is refused.
    let e = rank_teams(
        &tallies,
        &[ExtraGame {
            winner: "q".into(),
            loser: "x".into(),
        }],
    );
    assert_eq!(e, Err(Error::UnknownTeam { team: "q".into() }));
}

/// 20 teams from 8 organisations: 市直, 薛城, 峄城 and 台儿庄 three each, the others two.
fn entrants() -> Vec<Entrant> {
    let orgs = [
        "市直",
        "薛城",
        "峄城",
        "台儿庄",
        "山亭",
        "滕州",
        "高新",
        "市中",
    ];
    (0..20)
        .map(|i| Entrant {
            team: format!("{}{}队", orgs[i % 8], i / 8 + 1),
            organisation: orgs[i % 8].to_string(),
        })
        .collect()
}

fn seed(n: u8) -> Seed {
    Seed([n; 32])
}

#[test]
fn the_draw_keeps_an_organisations_teams_apart_and_the_groups_even() {
    let all = entrants();
    for n in 0..60 {
        for groups in [3, 4, 5] {
            let g = draw_groups(&all, groups, &seed(n)).unwrap();
            let names: Vec<&str> = g.iter().map(|g| g.name.as_str()).collect();
            assert_eq!(names, ["甲", "乙", "丙", "丁", "戊"][..groups]);
            let sizes: Vec<usize> = g.iter().map(|g| g.teams.len()).collect();
            assert!(
                sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1,
                "{sizes:?}"
            );
            let mut seen = HashSet::new();
            for group in &g {
                let mut orgs = HashSet::new();
                for t in &group.teams {
                    assert!(seen.insert(t.clone()), "{t} drawn twice");
                    let org = &all.iter().find(|e| &e.team == t).unwrap().organisation;
                    assert!(
                        orgs.insert(org.clone()),
                        "seed {n}: two {org} teams in {}",
                        group.name
                    );
                }
            }
            assert_eq!(seen.len(), all.len(), "every team drawn");
        }
    }
}

#[test]
fn the_draw_is_the_seeds_and_only_the_seeds() {
    let all = entrants();
    let first = draw_groups(&all, 4, &seed(7)).unwrap();
    // The same seed, the entries in another order: the same draw.
    let mut reversed = all.clone();
    reversed.reverse();
    assert_eq!(draw_groups(&reversed, 4, &seed(7)).unwrap(), first);
    // Other seeds draw otherwise.
    let others: HashSet<Vec<Group>> = (0..8)
        .map(|n| draw_groups(&all, 4, &seed(n)).unwrap())
        .collect();
    assert!(others.len() > 4, "seeds make different draws");
}

#[test]
fn a_draw_that_cannot_keep_an_organisation_apart_is_refused() {
    let all = entrants(); // 市直, 薛城, 峄城, 台儿庄 have 3 teams each
    let e = draw_groups(&all, 2, &seed(1)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Organisation {
                teams: 3,
                groups: 2,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.zh().contains("同一单位的两支代表队不分在同一个组"),
        "{}",
        e.zh()
    );
    assert_eq!(
        draw_groups(&all, 0, &seed(1)),
        Err(Error::BadGroupCount {
            teams: 20,
            groups: 0
        })
    );
    let mut dup = all.clone();
    dup.push(all[0].clone());
    assert_eq!(
        draw_groups(&dup, 4, &seed(1)).unwrap_err().code(),
        "duplicate_team"
    );
}

#[test]
fn the_knockout_comes_down_to_the_final_six() {
    let all = entrants();
    let org: HashMap<String, String> = all
        .iter()
        .map(|e| (e.team.clone(), e.organisation.clone()))
        .collect();
    for n in 0..20 {
        let mut groups = draw_groups(&all, 4, &seed(n)).unwrap();
        let mut round = 1;
        loop {
            let left: usize = groups.iter().map(|g| g.teams.len()).sum();
            if left <= 6 {
                assert_eq!(left, 6, "seed {n}: exactly six reach the final");
                break;
            }
            let r = knockout_round(&groups, round, &seed(n)).unwrap();
            assert_eq!(
                r,
                knockout_round(&groups, round, &seed(n)).unwrap(),
                "deterministic"
            );
            assert!(!r.matches.is_empty());
            assert!(left - r.matches.len() >= 6, "never below six");
            // Every team of the round plays once or has a bye.
            let mut teams: Vec<&String> = r
                .matches
                .iter()
                .flat_map(|m| [&m.a, &m.b])
                .chain(&r.byes)
                .collect();
            teams.sort();
            teams.dedup();
            assert_eq!(teams.len(), left);
            for m in &r.matches {
                let home = |t: &String| {
                    groups
                        .iter()
                        .find(|g| g.teams.contains(t))
                        .unwrap()
                        .name
                        .clone()
                };
                if !m.group.contains('+') {
                    // Within a group: both teams of the group; never one organisation.
                    assert_eq!((home(&m.a), home(&m.b)), (m.group.clone(), m.group.clone()));
                    assert_ne!(org[&m.a], org[&m.b]);
                }
            }
            let winners: Vec<String> = r.matches.iter().map(|m| m.b.clone()).collect();
            groups = advance(&groups, &r, &winners).unwrap();
            round += 1;
        }
        let finalists: Vec<String> = groups.iter().flat_map(|g| g.teams.clone()).collect();
        let f = draw_final_groups(&finalists, &seed(n)).unwrap();
        let mut drawn: Vec<String> = f.a.iter().chain(&f.b).cloned().collect();
        drawn.sort();
        let mut want = finalists.clone();
        want.sort();
        assert_eq!(drawn, want);
        assert!(final_schedule(&f, 3, FinalSeating::Balanced).is_ok());
    }
    // Seven groups of one: pooled, one match across groups.
    let singles: Vec<Group> = (0..7)
        .map(|i| Group {
            name: tournament::gouji::draw::group_name(i),
            teams: vec![format!("t{i}")],
        })
        .collect();
    let r = knockout_round(&singles, 4, &seed(2)).unwrap();
    assert_eq!((r.matches.len(), r.byes.len()), (1, 5));
    assert_eq!(r.matches[0].group, "甲+乙+丙+丁+戊+己+庚");
    // Six left: the knockout is over.
    let six = vec![Group {
        name: "甲".into(),
        teams: (1..=6).map(|i| i.to_string()).collect(),
    }];
    assert_eq!(
        knockout_round(&six, 1, &seed(1)),
        Err(Error::KnockoutOver { teams: 6 })
    );
}

#[test]
fn knockout_results_must_name_one_winner_per_match() {
    let groups = vec![Group {
        name: "甲".into(),
        teams: (1..=8).map(|i| i.to_string()).collect(),
    }];
    let r = knockout_round(&groups, 1, &seed(3)).unwrap();
    // 8 → 6: two matches, four byes.
    assert_eq!((r.matches.len(), r.byes.len()), (2, 4));
    let m = &r.matches[0];
    let both = vec![m.a.clone(), m.b.clone(), r.matches[1].a.clone()];
    assert_eq!(
        advance(&groups, &r, &both).unwrap_err().code(),
        "bad_winners"
    );
    let none = vec![m.a.clone()];
    assert!(matches!(
        advance(&groups, &r, &none),
        Err(Error::BadWinners { .. })
    ));
    let bye = vec![m.a.clone(), r.matches[1].a.clone(), r.byes[0].clone()];
    assert!(matches!(
        advance(&groups, &r, &bye),
        Err(Error::BadWinners { .. })
    ));
    let ok = vec![m.a.clone(), r.matches[1].b.clone()];
    let after = advance(&groups, &r, &ok).unwrap();
    assert_eq!(after[0].teams.len(), 6);
    assert!(!after[0].teams.contains(&m.b));
}

/// A final logged before the balanced seating was an option (no `final_seating`) replays as it
/// was played: every group-A team side A.
#[test]
fn a_final_seated_by_group_keeps_group_a_on_side_a() {
    let s = final_schedule(&groups(), 6, FinalSeating::ByGroup).unwrap();
    for g in &s {
        for t in &g.tables {
            assert!(!t.swapped);
            assert!(groups().a.contains(&t.a) && groups().b.contains(&t.b));
        }
    }
    let balanced = final_schedule(&groups(), 6, FinalSeating::Balanced).unwrap();
    assert_ne!(s, balanced);
    // The meetings are the same either way.
    for (x, y) in s.iter().zip(&balanced) {
        for (p, q) in x.tables.iter().zip(&y.tables) {
            assert_eq!((p.group_a(), p.group_b()), (q.group_a(), q.group_b()));
        }
    }
}
