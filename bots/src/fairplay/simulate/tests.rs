use crate::level::{Budget, Level};
use rules::deal::{deal_shengji, Fixed, Seed};
use rules::shengji::{Board, Ruleset};

use super::*;
use crate::fairplay::players::{moment, Peek, Peeking, TableTalk};
use crate::SeatPlayer;

#[test]
fn a_cheat_sees_the_seat_it_should() {
    assert_eq!(Peek::Partner.seen(Seat::from_index(0)), Seat::from_index(2));
    assert_eq!(Peek::Partner.seen(Seat::from_index(3)), Seat::from_index(1));
    for i in 0..4 {
        let me = Seat::from_index(i);
        let seen = Peek::Opponent.seen(me);
        assert_eq!(seen, me.next(), "the opponent who plays after it");
        assert!(!seen.same_side(me));
    }
}

#[test]
fn a_small_calibration_scores_the_north_south_pairs_and_counts_them() {
    let mut config = Config::new(Level::Club, Some(Peek::Partner), 1, 2);
    config.tables = 2;
    config.threads = 2;
    let sessions = run(&config);
    assert_eq!(sessions.len(), 1);
    let pairs = &sessions[0];
    assert_eq!(pairs.len(), 4, "two tables, two pairs each");
    assert!(pairs[0].cheats && pairs.iter().skip(1).all(|p| !p.cheats));
    for (i, p) in pairs.iter().enumerate() {
        assert_eq!(p.boards.len(), 2);
        let scored: u32 = p.boards.iter().map(|t| t.decisions).sum();
        if i % 2 == 0 {
            assert!(scored > 10, "N–S pair {i} scored {scored}");
        } else {
            assert_eq!(scored, 0, "E–W pairs are not scored unless asked");
        }
    }
    let rows = rows(&sessions, &[1, 2], 2.0);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!((r.cheats, r.honest), (1, 1), "{r:?}");
    }
    assert!(rows[1].decisions > rows[0].decisions);
    let text = report(&config, &sessions, &[1, 2], 2.0);
    assert!(text.contains("| 2 |"), "{text}");
    // The same run again: the same tallies (a calibration is reproducible from its seed).
    let again = run(&config);
    assert_eq!(
        format!("{:?}", again[0][0].boards),
        format!("{:?}", pairs[0].boards)
    );
}

#[test]
fn a_peeking_seat_makes_up_for_a_partners_view_that_is_late() {
    let seed = Seed::from_hex(&"3c".repeat(32)).unwrap();
    let deal = deal_shengji(&seed, 4, Fixed::default());
    let mut board = Board::new(&deal, Ruleset::fujian_2024());
    // Play on until the seat after next's partner has played in the current trick.
    let talk = TableTalk::default();
    let mut found = false;
    // Each seat's view when it was last to act.
    let mut before: [Option<View>; 4] = Default::default();
    for _ in 0..400 {
        let Some(seat) = board.to_act() else { break };
        let view = board.view(Viewer::Seat(seat.index()));
        before[seat.index()] = Some(view.clone());
        let partner = seat.next().next();
        let played_now = view.plays.iter().any(|p| p.seat == partner);
        if board.phase() == Phase::Play && played_now {
            // The partner's hand as its view showed it before it played.
            let stale = before[partner.index()].clone().unwrap().hand.unwrap();
            let mut told = Peeking::new(Level::Club, Peek::Partner, talk.clone());
            let mut partner_view = board.view(Viewer::Seat(partner.index()));
            partner_view.hand = Some(stale.clone());
            told.observe(&partner_view);
            let me = Peeking::new(Level::Club, Peek::Partner, talk.clone());
            let seen = me.seen_hand(&view, partner).expect("made up for");
            let now = board.view(Viewer::Seat(partner.index())).hand.unwrap();
            assert_eq!(
                seen, now,
                "the partner's hand now, as its own view orders it"
            );
            // A hand that does not add up (a card too many that it did not play) is not used.
            let mut wrong = stale;
            wrong.push(wrong[0]);
            partner_view.hand = Some(wrong);
            told.observe(&partner_view);
            assert_eq!(me.seen_hand(&view, partner), None);
            found = true;
            break;
        }
        let action = crate::shengji::choose(&view, Level::Club, Budget::Playouts(1), 0).unwrap();
        board.apply(seat, Actor::Bot, action).unwrap();
    }
    assert!(found, "a decision after the partner played");
}

#[test]
fn a_peeking_seat_waits_for_its_partners_view_of_the_same_moment() {
    let seed = Seed::from_hex(&"5d".repeat(32)).unwrap();
    let deal = deal_shengji(&seed, 4, Fixed::default());
    let mut board = Board::new(&deal, Ruleset::fujian_2024());
    let mut checked = 0;
    for _ in 0..400 {
        let Some(seat) = board.to_act() else { break };
        let views: Vec<View> = (0..4).map(|i| board.view(Viewer::Seat(i))).collect();
        let now = moment(&views[0]);
        assert!(
            views.iter().all(|v| moment(v) == now),
            "every seat's view of one moment has the same moment"
        );
        if board.phase() == Phase::Play && checked < 3 {
            // The partner's view of an earlier moment is told first, showing a hand of the
            // right size but not the one it holds now (one card another), so that only the
            // wait gives the true one; its view of this moment comes 100 ms after the seat
            // starts deciding, from another client's thread.
            let partner = seat.next().next();
            let talk = TableTalk::default();
            let mut told = Peeking::new(Level::Club, Peek::Partner, talk.clone());
            let mut earlier = views[partner.index()].clone();
            earlier.plays.clear();
            earlier.trick = 0;
            let held = earlier.hand.as_mut().unwrap();
            let mine = views[seat.index()].hand.as_ref().unwrap();
            held[0] = *mine.iter().find(|c| **c != held[0]).unwrap();
            told.observe(&earlier);
            let late = views[partner.index()].clone();
            let teller = std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(100));
                told.observe(&late);
            });
            let me = Peeking::new(Level::Club, Peek::Partner, talk);
            let seen = me.hand_now(&views[seat.index()], partner);
            teller.join().unwrap();
            assert_eq!(
                seen,
                views[partner.index()].hand,
                "the partner's hand at this moment, waited for"
            );
            checked += 1;
        }
        let action =
            crate::shengji::choose(&views[seat.index()], Level::Club, Budget::Playouts(1), 0)
                .unwrap();
        board.apply(seat, Actor::Bot, action).unwrap();
        let after = moment(&board.view(Viewer::Seat(0)));
        assert_ne!(after, now, "an action makes a new moment");
    }
    assert_eq!(checked, 3, "three decisions in play checked");
}

#[test]
fn a_small_gouji_calibration_scores_team_a_at_every_table() {
    let mut config = Config::new(Level::Club, Some(Peek::Partner), 1, 1);
    config.game = Game::Gouji;
    config.tables = 2;
    config.threads = 2;
    let sessions = run(&config);
    let teams = &sessions[0];
    assert_eq!(teams.len(), 4, "two tables, two teams each");
    assert!(teams[0].cheats && teams.iter().skip(1).all(|p| !p.cheats));
    for (i, p) in teams.iter().enumerate() {
        let scored: u32 = p.boards.iter().map(|t| t.decisions).sum();
        if i % 2 == 0 {
            assert!(scored > 10, "team A at table {} scored {scored}", i / 2);
        } else {
            assert_eq!(scored, 0, "team B is not scored unless asked");
        }
    }
    let text = report(&config, &sessions, &[1], 2.0);
    assert!(
        text.starts_with("够级 fair play") && text.contains("| games |"),
        "{text}"
    );
    assert_eq!(rows(&sessions, &[1], 2.0)[0].cheats, 1);
}

#[test]
fn a_gouji_cheat_sees_its_teammates_or_its_opponent_across() {
    use rules::gouji::{Game as Gouji, Seat as GSeat};
    let seed = Seed::from_hex(&"3d".repeat(32)).unwrap();
    let game = Gouji::new(
        &rules::deal::deal_gouji(&seed, 1),
        rules::gouji::Ruleset::zaozhuang_2017(),
    );
    let me = GSeat::from_index(0);
    let mates = gouji::seen(&game, me, Some(Peek::Partner));
    assert_eq!(mates.len(), 2);
    assert!(mates
        .iter()
        .all(|(s, h)| s.team() == me.team() && *s != me && *h == game.hand(*s).cards()));
    let across = gouji::seen(&game, me, Some(Peek::Opponent));
    assert_eq!(
        across.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![me.opposite()]
    );
    assert_ne!(me.opposite().team(), me.team());
    assert!(gouji::seen(&game, me, None).is_empty());
}

/// A pair of hand-made tallies: `partner` is its fit to the partner's hand on every board.
fn record(cheats: bool, partner: &[f64]) -> PairRecord {
    PairRecord {
        cheats,
        boards: partner
            .iter()
            .map(|&p| Tally {
                decisions: 10,
                expected: 5.0,
                variance: 2.5,
                partner: p,
                ..Tally::default()
            })
            .collect(),
    }
}

#[test]
fn the_cheat_is_counted_first_only_when_its_session_ranks_it_first() {
    // Three N–S pairs on the same boards (E–W unscored). In the first session the cheat fits
    // its partner's hand best; in the second an honest pair does.
    let session = |cheat: &[f64], honest: &[f64]| {
        vec![
            record(true, cheat),
            record(false, &[]),
            record(false, honest),
            record(false, &[]),
            record(false, &[0.1, -0.2, 0.0, 0.3]),
            record(false, &[]),
        ]
    };
    let sessions = vec![
        session(&[2.0, 1.5, 2.5, 1.0], &[0.0, 0.2, -0.1, 0.1]),
        session(&[0.5, 0.4, 0.6, 0.2], &[2.0, 2.2, 1.9, 2.4]),
    ];
    let r = &rows(&sessions, &[4], 10.0)[0];
    assert_eq!((r.cheats, r.caught, r.first), (2, 0, 1), "{r:?}");
    let text = report(
        &Config::new(Level::Club, Some(Peek::Partner), 2, 4),
        &sessions,
        &[4],
        10.0,
    );
    assert!(
        text.contains("| 0.0 % | 50.0 % |"),
        "power 0, first 50 %: {text}"
    );
}
