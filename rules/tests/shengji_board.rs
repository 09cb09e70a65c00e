//! Whole 80分 boards through the state machine: random legal plays from many seeds (cards
//! conserved, 200 points in all, the result is the sum of the events), bad input (a typed error
//! and the board unchanged), failed throws with the opponents' choice, 抠底, clocks, rulings,
//! views and the `Engine` trait.

mod shared_fields;
mod shengji_support;

use rules::cards::{format_cards, parse_list, points, Card, Hand, Rank, Suit};
use rules::deal::{deal_shengji, Fixed, Seed, ShengjiDeal};
use rules::shengji::{
    Action, Board, Event, KittyMultiplier, LastTrickView, Offence, Phase, RuleError, Ruleset,
    RulingEnd, Seat, TimeoutCount, TimeoutPlay, TimeoutScope, UnitChoice, View,
};
use rules::Actor;
use rules::{Engine, Explain, Viewer};
use shared_fields::SharedFields;
use shengji_support::Rng;

fn cards(s: &str) -> Vec<Card> {
    parse_list(s).unwrap()
}

fn seed(n: u64) -> Seed {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&n.to_le_bytes());
    Seed(b)
}

/// The defenders' share of the events, computed from the rules, not from the engine's totals:
/// tricks won by a defender, the captured kitty, penalties to the other side of the offender.
fn score_of(events: &[Event], declarer: Seat) -> i32 {
    let defender = |s: Seat| !s.same_side(declarer);
    events
        .iter()
        .map(|e| match e {
            Event::TrickWon { winner, points, .. } if defender(*winner) => *points as i32,
            Event::KittyCaptured { gain, .. } => *gain as i32,
            Event::Penalty {
                seat,
                points,
                delta,
                reason,
                ..
            } => {
                if *reason != Offence::BoardEnded {
                    let want = if defender(*seat) {
                        -(*points as i32)
                    } else {
                        *points as i32
                    };
                    assert_eq!(*delta, want, "penalties go to the other side");
                }
                *delta
            }
            _ => 0,
        })
        .sum()
}

/// 抠底 multiplier of the fujian-2024 ruleset from the last lead's cards, when the count of
/// pairs decides it: no pair ×2, one pair ×4. (Two or more pairs are a tractor, ×8, or a throw
/// of pairs, ×4: the hand-made positions below test those.)
fn expected_multiplier(lead: &[Card]) -> Option<u32> {
    let h: Hand = lead.iter().copied().collect();
    match h.faces().filter(|&(_, n)| n == 2).count() {
        0 => Some(2),
        1 => Some(4),
        _ => None,
    }
}

/// Plays a board to the end with random legal actions (and some throws, timeouts and rulings),
/// checking the invariants after every step. Returns the events.
/// Plays `board` to the end with random actions (with `spice`, timeouts, penalties and rulings
/// after the end too), showing `each_step` the board before every action and at the end.
fn play_out(
    board: &mut Board,
    rng: &mut Rng,
    spice: bool,
    each_step: &mut dyn FnMut(&Board),
) -> Vec<Event> {
    let mut events = Vec::new();
    let mut steps = 0;
    while !board.is_over() {
        each_step(board);
        steps += 1;
        assert!(steps < 400, "a board ends");
        let seat = board.to_act().unwrap();
        let view = board.view(Viewer::Seat(seat.index()));
        let legal = Board::legal_from_view(&view);
        let action = if spice && rng.chance(3) {
            Action::Timeout
        } else if spice && rng.chance(1) {
            Action::Penalty {
                points: 10 * (1 + rng.below(4) as u32),
            }
        } else if board.phase() == Phase::Bury && rng.chance(70) {
            // Any 8 cards are a legal bury.
            let mut hand = board.hand(seat).cards();
            let mut bury = Vec::new();
            for _ in 0..8 {
                bury.push(hand.remove(rng.below(hand.len())));
            }
            Action::Bury { cards: bury }
        } else if board.phase() == Phase::Play && board.lead().is_none() && rng.chance(25) {
            // A throw attempt: a few cards of one effective suit.
            let hand = board.hand(seat).cards();
            let pick = hand[rng.below(hand.len())];
            let lane = board.order().lane(pick);
            let mut same: Vec<Card> = hand
                .into_iter()
                .filter(|&c| board.order().lane(c) == lane)
                .collect();
            let n = 1 + rng.below(same.len().min(6));
            let mut throw = Vec::new();
            for _ in 0..n {
                throw.push(same.remove(rng.below(same.len())));
            }
            Action::Play { cards: throw }
        } else {
            legal[rng.below(legal.len())].clone()
        };
        let before = board.clone();
        let got = board
            .apply(seat, action.taken_by(), action.clone())
            .unwrap_or_else(|e| panic!("{action:?} by {seat} refused: {} ({})", e.code(), e.en()));
        assert_ne!(*board, before, "an accepted action changes the board");
        events.extend(got);
    }
    if spice && rng.chance(50) {
        // Penalties found after the last trick (查牌), then the referee finalises.
        for _ in 0..1 + rng.below(2) {
            let seat = Seat::from_index(rng.below(4));
            let points = 10 * (1 + rng.below(4) as u32);
            events.extend(
                board
                    .apply(seat, Actor::Referee, Action::Penalty { points })
                    .unwrap(),
            );
        }
        events.extend(
            board
                .apply(Seat::N, Actor::Referee, Action::Finalize)
                .unwrap(),
        );
    }
    each_step(board);
    events
}

#[test]
fn random_boards_conserve_cards_and_points() {
    let mut rng = Rng(2024);
    let (mut captures, mut throws_failed, mut choices) = ([0usize; 3], 0, 0);
    let mut finalised = 0;
    for n in 0..300u64 {
        let fixed = match n % 5 {
            0 => Fixed {
                level: None,
                trump: Some(None),
            },
            _ => Fixed::default(),
        };
        let deal = deal_shengji(&seed(n), 1 + (n % 8) as u32, fixed);
        let mut board = Board::new(&deal, Ruleset::fujian_2024());
        let declarer = Seat::from_index(deal.declarer);
        assert_eq!(
            board.hand(declarer).len(),
            33,
            "the declarer starts with 33 cards"
        );
        let events = play_out(&mut board, &mut rng, n % 2 == 1, &mut |_| {});

        // Cards: every card dealt was played exactly once or buried.
        let mut played: [Vec<Card>; 4] = Default::default();
        let mut kitty = Vec::new();
        for e in &events {
            match e {
                Event::Played { seat, cards, .. } => played[seat.index()].extend(cards),
                Event::Buried { cards, .. } => kitty = cards.clone().unwrap(),
                _ => {}
            }
        }
        for s in Seat::ALL {
            let mut dealt: Hand = deal.hands[s.index()].iter().copied().collect();
            if s == declarer {
                for &c in deal.kitty.iter() {
                    dealt.add(c);
                }
                assert!(dealt.remove_all(&kitty));
            }
            let got: Hand = played[s.index()].iter().copied().collect();
            assert_eq!(got, dealt, "seat {s} played its hand");
            assert!(board.hand(s).is_empty());
        }

        // Points: the tricks and the kitty hold 200.
        let trick_points: u32 = events
            .iter()
            .filter_map(|e| match e {
                Event::TrickWon { points, .. } => Some(*points),
                _ => None,
            })
            .sum();
        assert_eq!(trick_points + points(&kitty), 200);

        // Tricks: four plays each, in turn order from the leader, the winner leads next.
        let mut leader = declarer;
        let mut in_trick: Vec<(Seat, Vec<Card>)> = Vec::new();
        let mut last_lead = Vec::new();
        for e in &events {
            match e {
                Event::Played {
                    seat, cards, lead, ..
                } => {
                    let expected = (0..in_trick.len()).fold(leader, |s, _| s.next());
                    assert_eq!(*seat, expected);
                    assert_eq!(*lead, in_trick.is_empty());
                    if *lead {
                        last_lead = cards.clone();
                    } else {
                        assert_eq!(cards.len(), in_trick[0].1.len());
                    }
                    in_trick.push((*seat, cards.clone()));
                }
                Event::TrickWon {
                    winner, points: p, ..
                } => {
                    assert_eq!(in_trick.len(), 4);
                    let all: Vec<Card> = in_trick.iter().flat_map(|t| t.1.clone()).collect();
                    assert_eq!(*p, points(&all));
                    leader = *winner;
                    in_trick.clear();
                }
                Event::ThrowFailed(f) => {
                    throws_failed += 1;
                    choices += f.choices.is_some() as usize;
                }
                Event::KittyCaptured {
                    seat,
                    kitty: k,
                    points: p,
                    multiplier,
                    gain,
                    ..
                } => {
                    assert!(!seat.same_side(declarer));
                    assert_eq!(*seat, leader, "the last trick's winner");
                    assert_eq!(*k, kitty);
                    assert_eq!(*p, points(&kitty));
                    assert_eq!(*gain, p * multiplier);
                    if let Some(m) = expected_multiplier(&last_lead) {
                        assert_eq!(*multiplier, m, "last lead {last_lead:?}");
                    }
                    captures[multiplier.trailing_zeros() as usize - 1] += 1;
                }
                _ => {}
            }
        }

        // The result: the sum of the events, as last announced (and finalised).
        let Some(Event::BoardOver {
            result,
            kitty: shown,
            ..
        }) = events
            .iter()
            .rev()
            .find(|e| matches!(e, Event::BoardOver { .. }))
        else {
            panic!("a board ends with its result");
        };
        assert_eq!(*result, score_of(&events, declarer));
        assert_eq!(board.result(), Some(*result));
        assert_eq!(*shown, kitty, "the kitty is shown at the end");
        if board.is_final() {
            assert_eq!(events.last(), Some(&Event::Finalized { result: *result }));
            finalised += 1;
        }

        // Review: once over, every viewer sees every trick, exactly as the events told it.
        let told: Vec<(Seat, Vec<Card>)> = events
            .iter()
            .filter_map(|e| match e {
                Event::Played { seat, cards, .. } => Some((*seat, cards.clone())),
                _ => None,
            })
            .collect();
        let winners: Vec<Seat> = events
            .iter()
            .filter_map(|e| match e {
                Event::TrickWon { winner, .. } => Some(*winner),
                _ => None,
            })
            .collect();
        for viewer in [Viewer::Spectator, Viewer::Seat(n as usize % 4)] {
            let tricks = board
                .view(viewer)
                .tricks
                .expect("all tricks after the board");
            let reviewed: Vec<(Seat, Vec<Card>)> = tricks
                .iter()
                .flat_map(|t| t.plays.iter().map(|p| (p.seat, p.cards.clone())))
                .collect();
            assert_eq!(reviewed, told);
            let reviewed_winners: Vec<Seat> = tricks.iter().map(|t| t.winner).collect();
            assert_eq!(reviewed_winners, winners);
        }
    }
    assert!(
        captures[0] > 0 && throws_failed > 20 && choices > 0 && finalised > 20,
        "{captures:?} {throws_failed} {choices} {finalised}"
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input: a typed error and nothing changed.

/// Every viewer of a board: the four seats, a spectator, the referee.
fn viewers() -> [Viewer; 6] {
    [
        Viewer::Seat(0),
        Viewer::Seat(1),
        Viewer::Seat(2),
        Viewer::Seat(3),
        Viewer::Spectator,
        Viewer::Referee,
    ]
}

/// The fields `Engine::is_shared_view_field` names are written once for all viewers of a moment
/// by the server, and copied into every view that has them: at every step they must be alike in
/// every view that has them, under rulesets that show more to some viewers (the kitty to the
/// declarer, the last trick to everyone), and the fields whose content differs by viewer must
/// not be named.
#[test]
fn the_fields_named_shared_are_alike_in_every_view_and_the_others_are_not_named() {
    let mut rng = Rng(77);
    let rulesets = [
        Ruleset::fujian_2024(),
        Ruleset {
            declarer_sees_kitty: true,
            last_trick: LastTrickView::Always,
            ..Ruleset::fujian_2024()
        },
    ];
    let mut fields = SharedFields::default();
    for n in 0..60u64 {
        let deal = deal_shengji(&seed(n), 1 + (n % 8) as u32, Fixed::default());
        let mut board = Board::new(&deal, rulesets[n as usize % 2].clone());
        play_out(&mut board, &mut rng, n % 3 != 0, &mut |board| {
            fields.check::<Board>(viewers().map(|v| board.view(v)));
        });
    }
    // Every named field was met in more than one view; the viewer's own fields were found to
    // differ (the check above saw views that tell viewers apart).
    let named = [
        "board",
        "kitty",
        "last_trick",
        "tricks",
        "ruleset",
        "declarer",
        "level",
        "trump",
        "phase",
        "to_act",
        "hand_sizes",
        "trick",
        "leader",
        "plays",
        "winning",
        "choice",
        "defenders",
        "defender_point_cards",
        "points_left",
        "timeouts",
        "grace",
        "result",
        "result_final",
    ];
    for name in named {
        assert!(Board::is_shared_view_field(name), "{name}");
        assert!(fields.shared_met.contains(name), "{name} never met twice");
    }
    for own in ["viewer", "hand", "hand_trumps"] {
        assert!(fields.differing.contains(own), "{own} never differed");
    }
    for own in ["viewer", "hand", "hands", "hand_trumps", "playable", "hint"] {
        assert!(!Board::is_shared_view_field(own), "{own}");
    }
}

fn refused(board: &mut Board, seat: Seat, action: Action, code: &str) -> RuleError {
    let before = board.clone();
    let err = board
        .apply(seat, action.taken_by(), action.clone())
        .expect_err("refused");
    assert_eq!(err.code(), code, "{action:?}: {}", err.en());
    assert!(!err.zh().is_empty() && !err.en().is_empty());
    assert_eq!(*board, before, "{action:?} changed the board");
    err
}

fn test_deal() -> ShengjiDeal {
    deal_shengji(&seed(99), 1, Fixed::default())
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let deal = test_deal();
    let mut board = Board::new(&deal, Ruleset::fujian_2024());
    let d = Seat::from_index(deal.declarer);
    let hand = board.hand(d).cards();
    let other = d.next();
    let eight = hand[..8].to_vec();

    // Burying.
    let theirs = board.hand(other).cards()[..8].to_vec();
    let e = refused(
        &mut board,
        other,
        Action::Bury { cards: theirs },
        "only_declarer_buries",
    );
    assert_eq!(e.zh(), "只有庄家扣底");
    let e = refused(
        &mut board,
        d,
        Action::Bury {
            cards: hand[..7].to_vec(),
        },
        "bury_exactly_eight",
    );
    assert!(e.zh().starts_with("扣底必须正好 8 张"));
    let not_held: Vec<Card> = Card::all()
        .filter(|&c| board.hand(d).count(c) == 0)
        .take(1)
        .collect();
    let mut bad = hand[..7].to_vec();
    bad.extend(&not_held);
    let e = refused(
        &mut board,
        d,
        Action::Bury { cards: bad },
        "cards_not_in_hand",
    );
    assert!(e.zh().starts_with("手中没有这些牌") && e.zh().contains(&not_held[0].to_string()));
    refused(
        &mut board,
        d,
        Action::Play {
            cards: hand[..1].to_vec(),
        },
        "wrong_phase",
    );
    refused(
        &mut board,
        d,
        Action::Choose {
            unit: UnitChoice::Single,
        },
        "wrong_phase",
    );
    refused(&mut board, other, Action::Timeout, "not_your_turn");
    for points in [0, 1001, u32::MAX] {
        refused(
            &mut board,
            d,
            Action::Penalty { points },
            "bad_penalty_points",
        );
    }
    let before = board.clone();
    assert_eq!(
        Engine::apply(&mut board, 4, Actor::Clock, Action::Timeout)
            .unwrap_err()
            .code(),
        "no_such_seat"
    );
    assert_eq!(board, before);

    board
        .apply(
            d,
            Actor::Player,
            Action::Bury {
                cards: eight.clone(),
            },
        )
        .unwrap();
    refused(&mut board, d, Action::Bury { cards: eight }, "wrong_phase");

    // Leading.
    let hand = board.hand(d).cards();
    refused(
        &mut board,
        other,
        Action::Play {
            cards: hand[..1].to_vec(),
        },
        "not_your_turn",
    );
    refused(&mut board, d, Action::Play { cards: vec![] }, "empty_play");
    let mixed = {
        let o = board.order();
        let a = hand[0];
        let b = *hand.iter().find(|&&c| o.lane(c) != o.lane(a)).unwrap();
        vec![a, b]
    };
    let e = refused(
        &mut board,
        d,
        Action::Play { cards: mixed },
        "lead_mixed_suits",
    );
    assert!(e.zh().starts_with("首家出牌必须是同一门"));
    let missing = Card::all().find(|&c| board.hand(d).count(c) == 0).unwrap();
    refused(
        &mut board,
        d,
        Action::Play {
            cards: vec![missing],
        },
        "cards_not_in_hand",
    );

    // Following.
    let lead = board.hand(d).cards()[0];
    board
        .apply(d, Actor::Player, Action::Play { cards: vec![lead] })
        .unwrap();
    let f = d.next();
    let fh = board.hand(f).cards();
    let e = refused(
        &mut board,
        f,
        Action::Play {
            cards: fh[..2].to_vec(),
        },
        "wrong_count",
    );
    assert!(e.zh().starts_with("出牌张数必须与首家相同"));
    let again = vec![board.hand(d).cards()[0]];
    refused(
        &mut board,
        d,
        Action::Play { cards: again },
        "not_your_turn",
    );
    let o = board.order().clone();
    let in_suit = fh.iter().any(|&c| o.lane(c) == o.lane(lead));
    if in_suit {
        let off = fh.iter().find(|&&c| o.lane(c) != o.lane(lead));
        if let Some(&off) = off {
            let e = refused(
                &mut board,
                f,
                Action::Play { cards: vec![off] },
                "must_follow_suit",
            );
            assert!(e.zh().starts_with("必须跟出同一门花色"));
        }
    }

    // After the end: no more moves or timeouts; rulings until the referee finalises.
    refused(
        &mut board,
        d,
        Action::Finalize,
        "wrong_phase", // play has not ended
    );
    board.apply(f, Actor::Referee, Action::EndBoard).unwrap();
    refused(&mut board, f, Action::Timeout, "board_over");
    let any = board.hand(f).cards()[..1].to_vec();
    refused(
        &mut board,
        f,
        Action::Play { cards: any.clone() },
        "board_over",
    );
    let before = board.clone();
    assert_eq!(
        board
            .apply(d, Actor::Player, Action::Finalize)
            .unwrap_err()
            .code(),
        "referee_only"
    );
    assert_eq!(board, before);
    board.apply(d, Actor::Referee, Action::Finalize).unwrap();
    refused(&mut board, d, Action::Penalty { points: 40 }, "board_final");
    refused(&mut board, f, Action::Play { cards: any }, "board_final");
    refused(&mut board, d, Action::Finalize, "board_final");
}

#[test]
fn unknown_cards_in_an_action_are_named() {
    let err = serde_json::from_str::<Action>(r#"{"type":"play","cards":["SA","ZZ"]}"#).unwrap_err();
    assert!(err.to_string().contains("ZZ"), "{err}");
    let ok: Action = serde_json::from_str(r#"{"type":"play","cards":["sa","h10"]}"#).unwrap();
    assert_eq!(
        ok,
        Action::Play {
            cards: cards("SA H10")
        }
    );
    let choose: Action = serde_json::from_str(r#"{"type":"choose","unit":"pair"}"#).unwrap();
    assert_eq!(
        choose,
        Action::Choose {
            unit: UnitChoice::Pair
        }
    );
    assert_eq!(
        serde_json::to_string(&Action::Timeout).unwrap(),
        r#"{"type":"timeout"}"#
    );
}

// ---------------------------------------------------------------------------------------------
// Hand-made positions: a deal with short hands starts a board near its end.

/// A deal with these hands (N, E, S, W) and kitty; the declarer is N unless said otherwise.
fn position(
    level: u8,
    trump: Option<Suit>,
    declarer: Seat,
    hands: [&str; 4],
    kitty: &str,
) -> ShengjiDeal {
    ShengjiDeal {
        board: 1,
        declarer: declarer.index(),
        level: Rank::new(level).unwrap(),
        trump,
        hands: hands.map(cards),
        kitty: cards(kitty),
        order_hash: String::new(),
    }
}

const KITTY: &str = "D3 D4 D6 D7 C5 C10 DK D9"; // 25 points

fn buried(deal: &ShengjiDeal, rules: Ruleset) -> Board {
    let mut b = Board::new(deal, rules);
    let d = Seat::from_index(deal.declarer);
    b.apply(
        d,
        Actor::Player,
        Action::Bury {
            cards: cards(KITTY),
        },
    )
    .unwrap();
    b
}

#[test]
fn a_failed_throw_with_singles_and_pairs_blocked_lets_the_next_opponent_choose() {
    // N throws ♥ A QQ 9. W holds ♥KK: it beats the pair QQ and the single 9.
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        [
            "HA HQ HQ H9 C3",
            "H5 H4 D10 DJ DQ",
            "H7 H6 C9 CJ C8",
            "HK HK H8 C7 C6",
        ],
        KITTY,
    );
    let mut board = buried(&deal, Ruleset::fujian_2024());
    let events = board
        .apply(
            Seat::N,
            Actor::Player,
            Action::Play {
                cards: cards("HA HQ HQ H9"),
            },
        )
        .unwrap();
    let Event::ThrowFailed(f) = &events[0] else {
        panic!("{events:?}");
    };
    let rules::shengji::ThrowFailure {
        blocked,
        penalty,
        forced,
        choices,
        chooser,
        attempt,
        ..
    } = &**f;
    assert_eq!(format_cards(attempt), "HA HQ HQ H9");
    assert_eq!(*penalty, 40, "10 a card");
    assert_eq!(*forced, None);
    assert_eq!(*chooser, Some(Seat::W), "the next opponent in turn");
    let [single, pair] = choices.clone().unwrap();
    assert_eq!(
        (format_cards(&single), format_cards(&pair)),
        ("H9".into(), "HQ HQ".into())
    );
    assert!(blocked.iter().all(|b| b.by == [Seat::W]));
    assert_eq!(blocked.len(), 2);
    assert!(matches!(
        events[1],
        Event::Penalty {
            seat: Seat::N,
            delta: 40,
            reason: Offence::FailedThrow,
            ..
        }
    ));
    assert_eq!(board.phase(), Phase::Choose);
    assert_eq!(
        board.hand(Seat::N).len(),
        5,
        "nothing is played before the choice"
    );

    refused(
        &mut board,
        Seat::S,
        Action::Choose {
            unit: UnitChoice::Pair,
        },
        "not_your_turn",
    );
    refused(
        &mut board,
        Seat::N,
        Action::Play {
            cards: cards("HQ HQ"),
        },
        "wrong_phase",
    );
    let events = board
        .apply(
            Seat::W,
            Actor::Player,
            Action::Choose {
                unit: UnitChoice::Pair,
            },
        )
        .unwrap();
    assert!(matches!(
        &events[0],
        Event::Chosen {
            seat: Seat::W,
            unit: UnitChoice::Pair,
            ..
        }
    ));
    assert!(
        matches!(&events[1], Event::Played { seat: Seat::N, lead: true, cards, .. } if format_cards(cards) == "HQ HQ")
    );
    // W must now follow the pair with its pair (有对必须跟对).
    let e = refused(
        &mut board,
        Seat::W,
        Action::Play {
            cards: cards("HK H8"),
        },
        "must_follow_pairs",
    );
    assert_eq!(e.zh(), "有对必须跟对");
    board
        .apply(
            Seat::W,
            Actor::Player,
            Action::Play {
                cards: cards("HK HK"),
            },
        )
        .unwrap();
}

#[test]
fn a_failed_throw_with_only_singles_blocked_forces_the_smallest() {
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        [
            "HA HJ H9 C3 C4",
            "H5 H4 D10 DJ DQ",
            "H7 H6 C9 CJ C8",
            "HK HQ H8 C7 C6",
        ],
        KITTY,
    );
    let mut board = buried(&deal, Ruleset::fujian_2024());
    let events = board
        .apply(
            Seat::N,
            Actor::Player,
            Action::Play {
                cards: cards("HA HJ H9"),
            },
        )
        .unwrap();
    assert!(
        matches!(&events[0], Event::ThrowFailed(t) if t.penalty == 30 && t.forced.as_ref().is_some_and(|f| format_cards(f) == "H9"))
    );
    assert!(
        matches!(&events[2], Event::Played { seat: Seat::N, cards, lead: true, .. } if format_cards(cards) == "H9")
    );
    assert_eq!(board.to_act(), Some(Seat::W));
    assert_eq!(
        board.defenders_points(),
        30,
        "the declarer's side pays the defenders"
    );
}

#[test]
fn opponents_only_ignores_the_partners_hand() {
    // S (N's partner) holds ♥K; W and E hold nothing higher than the throw.
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        [
            "HA HJ H9 C3 C4",
            "H5 H4 D10 DJ DQ",
            "HK H6 C9 CJ C8",
            "H7 H8 C7 C6 CA",
        ],
        KITTY,
    );
    let mut board = buried(&deal, Ruleset::fujian_2024());
    let events = board
        .apply(
            Seat::N,
            Actor::Player,
            Action::Play {
                cards: cards("HA HJ H9"),
            },
        )
        .unwrap();
    assert!(
        matches!(&events[0], Event::ThrowFailed(t) if t.blocked.iter().all(|b| b.by == [Seat::S]))
    );
    let rules = Ruleset {
        throw_blockers: rules::shengji::ThrowBlockers::Opponents,
        ..Ruleset::fujian_2024()
    };
    let mut board = buried(&deal, rules);
    let events = board
        .apply(
            Seat::N,
            Actor::Player,
            Action::Play {
                cards: cards("HA HJ H9"),
            },
        )
        .unwrap();
    assert!(
        matches!(&events[0], Event::Played { lead: true, .. }),
        "{events:?}"
    );
}

/// One last trick: N leads `lead`, W (a defender) trumps with `trump_in`; returns the capture.
fn last_trick(lead: &str, trump_in: &str, rules: Ruleset) -> (u32, u32, i32) {
    let n = cards(lead).len();
    let fill = |s: &str| {
        cards(s)[..n]
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let deal = position(
        5,
        Some(Suit::Spades),
        Seat::N,
        [
            lead,
            &fill("C2 C3 C4 C6 C7 C8"),
            &fill("D2 DA C9 CJ CQ CA"),
            trump_in,
        ],
        KITTY,
    );
    let mut board = buried(&deal, rules);
    let mut events = Vec::new();
    events.extend(
        board
            .apply(Seat::N, Actor::Player, Action::Play { cards: cards(lead) })
            .unwrap(),
    );
    events.extend(
        board
            .apply(
                Seat::W,
                Actor::Player,
                Action::Play {
                    cards: cards(trump_in),
                },
            )
            .unwrap(),
    );
    for s in [Seat::S, Seat::E] {
        let c = board.hand(s).cards();
        events.extend(
            board
                .apply(s, Actor::Player, Action::Play { cards: c })
                .unwrap(),
        );
    }
    assert!(board.is_over());
    let capture = events.iter().find_map(|e| match e {
        Event::KittyCaptured {
            seat,
            points,
            multiplier,
            gain,
            ..
        } => {
            assert_eq!(*seat, Seat::W);
            assert_eq!(*gain, points * multiplier);
            Some((*points, *multiplier))
        }
        _ => None,
    });
    let (points, mult) = capture.expect("a defender won the last trick");
    (points, mult, board.result().unwrap())
}

#[test]
fn kitty_capture_multiplies_by_the_last_leads_largest_unit() {
    // 单抠×2，双抠×4，拖拉机抠×8. Level 5, so ♥4 and ♥6 are adjacent.
    let f = Ruleset::fujian_2024;
    assert_eq!(last_trick("H3", "S7", f()), (25, 2, 50));
    assert_eq!(last_trick("H3 H3", "S7 S7", f()), (25, 4, 100));
    assert_eq!(last_trick("H3 H3 H4 H4", "S7 S7 S8 S8", f()), (25, 8, 200));
    assert_eq!(
        last_trick("H3 H3 H4 H4 H6 H6", "S7 S7 S8 S8 S9 S9", f()).1,
        8,
        "[decision] any tractor ×8"
    );
    // A throw of a pair and a single (it stands: nobody else holds hearts) counts its pair.
    assert_eq!(last_trick("H3 H3 HA", "S7 S7 S9", f()).1, 4);
    // The other options.
    let twice = Ruleset {
        kitty_multiplier: KittyMultiplier::TwiceLargestUnit,
        ..f()
    };
    let power = Ruleset {
        kitty_multiplier: KittyMultiplier::PowerOfLargestUnit,
        ..f()
    };
    assert_eq!(
        last_trick("H3 H3 H4 H4 H6 H6", "S7 S7 S8 S8 S9 S9", twice).1,
        12
    );
    assert_eq!(
        last_trick("H3 H3 H4 H4 H6 H6", "S7 S7 S8 S8 S9 S9", power).1,
        64
    );
    // A trump discard of the wrong shape does not win: no capture when N keeps the trick.
    let deal = position(
        5,
        Some(Suit::Spades),
        Seat::N,
        ["H3 H3", "C2 C3", "D2 DA", "S7 S8"],
        KITTY,
    );
    let mut board = buried(&deal, f());
    board
        .apply(
            Seat::N,
            Actor::Player,
            Action::Play {
                cards: cards("H3 H3"),
            },
        )
        .unwrap();
    board
        .apply(
            Seat::W,
            Actor::Player,
            Action::Play {
                cards: cards("S7 S8"),
            },
        )
        .unwrap();
    board
        .apply(
            Seat::S,
            Actor::Player,
            Action::Play {
                cards: cards("D2 DA"),
            },
        )
        .unwrap();
    let events = board
        .apply(
            Seat::E,
            Actor::Player,
            Action::Play {
                cards: cards("C2 C3"),
            },
        )
        .unwrap();
    assert!(matches!(
        events[1],
        Event::TrickWon {
            winner: Seat::N,
            ..
        }
    ));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::KittyCaptured { .. })));
    assert_eq!(board.result(), Some(0));
}

// ---------------------------------------------------------------------------------------------
// Clocks and referees.

/// The move limit the server's clock sets now.
fn limit(board: &Board) -> Option<u64> {
    board
        .move_limit(std::time::Duration::ZERO)
        .map(|d| d.as_secs())
}

/// 超时第一次警告，第二次扣10分: W, void in hearts, holds ♠A and ♣6 when N leads ♥A (level 2,
/// ♠ trump).
fn void_in_hearts(rules: Ruleset) -> Board {
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        ["HA C3", "HK C7", "H5 C4", "SA C6"],
        KITTY,
    );
    let mut board = buried(&deal, rules);
    board
        .apply(Seat::N, Actor::Player, Action::Play { cards: cards("HA") })
        .unwrap();
    board
}

#[test]
fn a_first_timeout_only_warns_and_the_player_keeps_the_move_for_a_grace_period() {
    // 超时第一次警告: a warning, and nothing else changes. W may still trump with ♠A (the old
    // engine discarded ♣6 for W, the lowest legal card).
    let mut board = void_in_hearts(Ruleset::fujian_2024());
    assert_eq!(limit(&board), Some(30));
    let before = board.clone();
    let events = board.apply(Seat::W, Actor::Clock, Action::Timeout).unwrap();
    assert_eq!(
        events,
        [Event::Warning {
            seat: Seat::W,
            reason: Offence::Timeout
        }]
    );
    assert_eq!(board.to_act(), Some(Seat::W), "W keeps the move");
    assert_eq!(board.hand(Seat::W), before.hand(Seat::W));
    assert_eq!(board.defenders_points(), 0, "a warning costs nothing");
    assert_eq!(limit(&board), Some(15), "the grace period, for this move");
    let view = board.view(Viewer::Spectator);
    assert!(view.grace);
    assert_eq!(view.timeouts, [0, 0, 0, 1]);
    let events = board
        .apply(Seat::W, Actor::Player, Action::Play { cards: cards("SA") })
        .unwrap();
    assert!(matches!(&events[0], Event::Played { auto: false, .. }));
    assert_eq!(board.view(Viewer::Spectator).winning, Some(Seat::W));
    assert_eq!(limit(&board), Some(30), "the next seat has the full time");
    assert!(!board.in_grace());

    // 第二次扣10分: W's next timeout (already warned) costs the defenders 10, and the clock
    // plays for W at once; no second warning.
    for (seat, card) in [(Seat::S, "H5"), (Seat::E, "HK")] {
        board
            .apply(seat, Actor::Player, Action::Play { cards: cards(card) })
            .unwrap();
    }
    assert_eq!(board.to_act(), Some(Seat::W), "W won the trick and leads");
    let events = board.apply(Seat::W, Actor::Clock, Action::Timeout).unwrap();
    assert!(matches!(
        events[0],
        Event::Penalty {
            seat: Seat::W,
            reason: Offence::Timeout,
            points: 10,
            delta: -10,
            ..
        }
    ));
    assert!(
        matches!(&events[1], Event::Played { seat: Seat::W, auto: true, lead: true, cards, .. } if format_cards(cards) == "C6")
    );
    assert!(!events.iter().any(|e| matches!(e, Event::Warning { .. })));
}

#[test]
fn when_the_grace_runs_out_the_clock_plays_the_lowest_legal_play_with_the_penalty() {
    let mut board = void_in_hearts(Ruleset::fujian_2024());
    board.apply(Seat::W, Actor::Clock, Action::Timeout).unwrap();
    let events = board.apply(Seat::W, Actor::Clock, Action::Timeout).unwrap();
    assert!(matches!(
        events[0],
        Event::Penalty {
            seat: Seat::W,
            reason: Offence::Timeout,
            delta: -10,
            ..
        }
    ));
    assert!(
        matches!(&events[1], Event::Played { seat: Seat::W, auto: true, cards, .. } if format_cards(cards) == "C6")
    );
    assert_eq!(board.timeouts(Seat::W), 2, "each expiry counts");
    assert_eq!(board.to_act(), Some(Seat::S));
    assert_eq!(limit(&board), Some(30));
}

#[test]
fn timeouts_warn_first_then_cost_ten_and_the_engine_plays() {
    let deal = test_deal();
    let d = Seat::from_index(deal.declarer);
    let mut board = Board::new(&deal, Ruleset::fujian_2024());
    assert_eq!(limit(&board), Some(60), "扣底牌不得超过1分钟");
    let events = board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    assert_eq!(
        events,
        [Event::Warning {
            seat: d,
            reason: Offence::Timeout
        }]
    );
    assert_eq!(board.phase(), Phase::Bury);
    assert_eq!(limit(&board), Some(15));
    // The grace runs out: 10 to the defenders, and the clock buries.
    let events = board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    assert!(matches!(
        events[0],
        Event::Penalty {
            delta: 10,
            reason: Offence::Timeout,
            ..
        }
    ));
    let Event::Buried {
        cards: Some(kitty),
        auto: true,
        ..
    } = &events[1]
    else {
        panic!("{events:?}")
    };
    // The 8 lowest non-point side cards.
    let o = board.order();
    assert!(
        kitty.iter().all(|c| c.points() == 0 && !o.is_trump(*c)),
        "{kitty:?}"
    );
    let kept = board.hand(d).cards();
    let highest_buried = kitty.iter().map(|&c| o.low_key(c)).max().unwrap();
    assert!(kept
        .iter()
        .filter(|c| c.points() == 0 && !o.is_trump(**c))
        .all(|&c| o.low_key(c) > highest_buried));

    // The declarer's third timeout: 10 more, and the lowest card is led at once.
    let lowest = kept.iter().copied().min_by_key(|&c| o.low_key(c)).unwrap();
    let events = board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    assert!(matches!(events[0], Event::Penalty { delta: 10, .. }));
    assert!(
        matches!(&events[1], Event::Played { cards, auto: true, lead: true, .. } if *cards == [lowest])
    );
    assert_eq!(board.defenders_points(), 20);
    // Per seat: each player has a warning of their own.
    for s in [d.next(), d.partner()] {
        let events = board.apply(s, Actor::Clock, Action::Timeout).unwrap();
        assert!(matches!(events[..], [Event::Warning { .. }]), "{events:?}");
        board.apply(s, Actor::Clock, Action::Timeout).unwrap();
    }

    // Per side: the partner's first timeout is the side's second.
    let mut board = Board::new(
        &deal,
        Ruleset {
            timeout_count: TimeoutCount::PerSide,
            ..Ruleset::fujian_2024()
        },
    );
    board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    board
        .apply(d.next(), Actor::Clock, Action::Timeout)
        .unwrap();
    board
        .apply(d.next(), Actor::Clock, Action::Timeout)
        .unwrap();
    let events = board
        .apply(d.partner(), Actor::Clock, Action::Timeout)
        .unwrap();
    assert!(
        matches!(events[0], Event::Penalty { delta: 10, .. }),
        "{events:?}"
    );

    // timeout_play = always (the old engine): the warned timeout plays at once, unpenalised.
    let mut board = Board::new(
        &deal,
        Ruleset {
            timeout_play: TimeoutPlay::Always,
            ..Ruleset::fujian_2024()
        },
    );
    let events = board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    assert!(matches!(events[0], Event::Warning { .. }));
    assert!(matches!(events[1], Event::Buried { auto: true, .. }));
    assert_eq!(board.defenders_points(), 0);
}

#[test]
fn the_timeout_count_runs_over_the_scope_the_ruleset_names() {
    // 超时第一次警告，第二次扣10分, counted over the session at an event: W was warned on an
    // earlier board of the session, so W's first timeout here costs 10 at once.
    let session = Ruleset {
        timeout_scope: TimeoutScope::Session,
        ..Ruleset::fujian_2024()
    };
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        ["HA C3", "HK C7", "H5 C4", "SA C6"],
        KITTY,
    );
    let earlier = [0, 0, 0, 1];
    // W times out on N's lead of ♥A, on a board started with the seats' earlier timeouts.
    let w_times_out = |rules: Ruleset| {
        let mut board = Board::new(&deal, rules).with_prior_timeouts(earlier);
        for (seat, action) in [
            (
                Seat::N,
                Action::Bury {
                    cards: cards(KITTY),
                },
            ),
            (Seat::N, Action::Play { cards: cards("HA") }),
        ] {
            board.apply(seat, Actor::Player, action).unwrap();
        }
        let before = board.view(Viewer::Seat(0)).timeouts;
        let events = board.apply(Seat::W, Actor::Clock, Action::Timeout).unwrap();
        (board, before, events)
    };
    let (board, before, events) = w_times_out(session);
    assert_eq!(before, [0, 0, 0, 1], "the view counts the session");
    assert!(
        matches!(
            events[0],
            Event::Penalty {
                seat: Seat::W,
                delta: -10,
                ..
            }
        ),
        "{events:?}"
    );
    assert!(
        matches!(&events[1], Event::Played { auto: true, cards, .. } if format_cards(cards) == "C6")
    );
    assert_eq!(board.timeouts(Seat::W), 1, "this board's own count");
    assert_eq!(board.timeouts_in_scope(Seat::W), 2);

    // The event scope counts the same way; the server passes the event's earlier timeouts.
    let event = Ruleset {
        timeout_scope: TimeoutScope::Event,
        ..Ruleset::fujian_2024()
    };
    let (_, _, events) = w_times_out(event);
    assert!(matches!(events[0], Event::Penalty { seat: Seat::W, .. }));

    // The board scope (the casual default) ignores earlier boards: W is warned first.
    let (board, before, events) = w_times_out(Ruleset::fujian_2024());
    assert_eq!(before, [0, 0, 0, 0]);
    assert!(matches!(events[..], [Event::Warning { seat: Seat::W, .. }]));
    assert_eq!(board.timeouts_in_scope(Seat::W), 1);
}

#[test]
fn a_timed_out_choice_takes_the_single() {
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        [
            "HA HQ HQ H9 C3",
            "H5 H4 D10 DJ DQ",
            "H7 H6 C9 CJ C8",
            "HK HK H8 C7 C6",
        ],
        KITTY,
    );
    let mut board = buried(&deal, Ruleset::fujian_2024());
    board
        .apply(
            Seat::N,
            Actor::Player,
            Action::Play {
                cards: cards("HA HQ HQ H9"),
            },
        )
        .unwrap();
    assert_eq!(limit(&board), Some(30));
    let events = board.apply(Seat::W, Actor::Clock, Action::Timeout).unwrap();
    assert!(matches!(events[..], [Event::Warning { seat: Seat::W, .. }]));
    assert_eq!(board.phase(), Phase::Choose, "W may still choose");
    assert_eq!(limit(&board), Some(15));
    let events = board.apply(Seat::W, Actor::Clock, Action::Timeout).unwrap();
    assert!(matches!(
        events[0],
        Event::Penalty {
            seat: Seat::W,
            reason: Offence::Timeout,
            ..
        }
    ));
    assert!(matches!(
        &events[1],
        Event::Chosen {
            unit: UnitChoice::Single,
            auto: true,
            ..
        }
    ));
    assert!(
        matches!(&events[2], Event::Played { seat: Seat::N, cards, .. } if format_cards(cards) == "H9")
    );
}

#[test]
fn referee_rulings_give_points_to_the_other_side() {
    let deal = test_deal();
    let d = Seat::from_index(deal.declarer);
    let mut board = Board::new(&deal, Ruleset::fujian_2024());
    board
        .apply(d.next(), Actor::Referee, Action::Penalty { points: 40 })
        .unwrap();
    assert_eq!(
        board.defenders_points(),
        -40,
        "a defender's offence: off the defenders"
    );
    board
        .apply(d.partner(), Actor::Referee, Action::Penalty { points: 40 })
        .unwrap();
    assert_eq!(board.defenders_points(), 0);
    board
        .apply(d, Actor::Referee, Action::Penalty { points: 10 })
        .unwrap();
    let events = board.apply(d, Actor::Referee, Action::EndBoard).unwrap();
    assert!(matches!(
        events.last(),
        Some(Event::BoardOver {
            result: 120,
            by_ruling: true,
            revised: false,
            ..
        })
    ));
    assert!(board.is_over() && !board.is_final());
}

#[test]
fn a_board_ended_by_ruling_is_lost_by_the_offenders_whatever_they_had() {
    // 该副牌立即结束，判违规方负，非违规方得120分. The defenders have 220 (here from a penalty
    // against the declarer's side), then a defender passes information: they lose, the
    // declarer's side is credited 120: −120, not 220 − 120 = 100. Had the declarer's side
    // offended instead, the defenders keep their 220: a ruling never improves the offenders'
    // result (issue 24.5).
    let deal = test_deal();
    let d = Seat::from_index(deal.declarer);
    let ended = |rules: Ruleset, offender: Seat| {
        let mut board = Board::new(&deal, rules);
        board
            .apply(d.partner(), Actor::Referee, Action::Penalty { points: 220 })
            .unwrap();
        assert_eq!(board.defenders_points(), 220);
        let events = board
            .apply(offender, Actor::Referee, Action::EndBoard)
            .unwrap();
        assert!(matches!(
            events[0],
            Event::Penalty {
                reason: Offence::BoardEnded,
                points: 120,
                ..
            }
        ));
        assert!(board.is_over());
        board.result().unwrap()
    };
    assert_eq!(ended(Ruleset::fujian_2024(), d.next()), -120);
    assert_eq!(
        ended(Ruleset::fujian_2024(), d),
        220,
        "the declarer's side offends: the defenders keep their 220 (at least 120), not 120"
    );
    // The first engine's reading, kept for old logs only: it gave the offending declarer's
    // side 100 points back (220 → 120).
    let fixed = Ruleset {
        ruling_end: RulingEnd::Fixed,
        ..Ruleset::fujian_2024()
    };
    assert_eq!(ended(fixed, d), 120);
    // The old reading, kept as an option: the 120 is added to the points so far.
    let add = Ruleset {
        ruling_end: RulingEnd::AddToPointsSoFar,
        ..Ruleset::fujian_2024()
    };
    assert_eq!(ended(add.clone(), d.next()), 100);
    assert_eq!(ended(add, d), 340);
}

/// A board played to its end: one trick, N's ♥A wins ♥K ♥10 ♥5 (25 points to the declarer's
/// side), so the defenders have 0.
fn played_to_the_end() -> Board {
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        ["HA", "HK", "H10", "H5"],
        KITTY,
    );
    let mut board = buried(&deal, Ruleset::fujian_2024());
    for (seat, card) in [
        (Seat::N, "HA"),
        (Seat::W, "H5"),
        (Seat::S, "H10"),
        (Seat::E, "HK"),
    ] {
        board
            .apply(seat, Actor::Player, Action::Play { cards: cards(card) })
            .unwrap();
    }
    board
}

#[test]
fn penalties_found_after_the_last_trick_count_until_the_referee_finalises() {
    // 任何一方对出过的牌有疑问，可以申请裁判查牌: a signal found by checking the played cards
    // after the last trick still costs 40 (罚40分), and the result is announced again.
    let mut board = played_to_the_end();
    assert!(board.is_over() && Engine::is_over(&board) && !board.is_final());
    assert_eq!(board.result(), Some(0));
    assert!(Engine::to_act(&board).is_empty());
    assert_eq!(limit(&board), None);
    refused(
        &mut board,
        Seat::W,
        Action::Play { cards: vec![] },
        "board_over",
    );
    refused(&mut board, Seat::W, Action::Timeout, "board_over");

    let events = board
        .apply(Seat::S, Actor::Referee, Action::Penalty { points: 40 })
        .unwrap();
    assert!(matches!(
        events[0],
        Event::Penalty {
            seat: Seat::S,
            reason: Offence::Ruling,
            delta: 40,
            ..
        }
    ));
    assert!(matches!(
        events[1],
        Event::BoardOver {
            result: 40,
            revised: true,
            by_ruling: false,
            ..
        }
    ));
    assert_eq!(board.result(), Some(40));
    assert!(board.is_over() && Engine::is_over(&board), "still over");
    let view = board.view(Viewer::Seat(0));
    assert_eq!((view.result, view.result_final), (Some(40), false));

    let events = board
        .apply(Seat::W, Actor::Referee, Action::Penalty { points: 10 })
        .unwrap();
    assert!(matches!(
        events[1],
        Event::BoardOver {
            result: 30,
            revised: true,
            ..
        }
    ));
    // A late ruling can still end the board against the offenders.
    let events = board
        .apply(Seat::W, Actor::Referee, Action::EndBoard)
        .unwrap();
    assert!(matches!(
        events.last(),
        Some(Event::BoardOver {
            result: -120,
            revised: true,
            by_ruling: true,
            ..
        })
    ));

    // The referee closes the board: the result is final, nothing more is taken.
    let events = board
        .apply(Seat::N, Actor::Referee, Action::Finalize)
        .unwrap();
    assert_eq!(events, [Event::Finalized { result: -120 }]);
    assert!(board.is_final() && board.is_over());
    assert!(board.view(Viewer::Spectator).result_final);
    refused(
        &mut board,
        Seat::S,
        Action::Penalty { points: 40 },
        "board_final",
    );
    refused(&mut board, Seat::S, Action::EndBoard, "board_final");
    let e = refused(&mut board, Seat::N, Action::Finalize, "board_final");
    assert_eq!(e.zh(), "这副牌的成绩已经裁判确认，不能再更改");
    assert_eq!(board.result(), Some(-120));
}

// ---------------------------------------------------------------------------------------------
// Views and the Engine trait.

#[test]
fn views_hold_only_what_the_viewer_may_see() {
    let deal = test_deal();
    let d = Seat::from_index(deal.declarer);
    let mut board = Board::new(&deal, Ruleset::fujian_2024());
    let events = board
        .apply(
            d,
            Actor::Player,
            Action::Bury {
                cards: board.hand(d).cards()[..8].to_vec(),
            },
        )
        .unwrap();
    let shown = |s: Seat| {
        let mut cards = board.hand(s).cards();
        board.order().sort_for_display(&mut cards);
        cards
    };
    for s in Seat::ALL {
        let v = board.view(Viewer::Seat(s.index()));
        assert_eq!(v.hand.as_deref(), Some(shown(s).as_slice()));
        assert!(v.hands.is_none());
        assert_eq!(
            v.kitty, None,
            "底牌放好后再也不能查看底牌 (declarer_sees_kitty off)"
        );
        let json = serde_json::to_string(&v).unwrap();
        for other in Seat::ALL.into_iter().filter(|&o| o != s) {
            let theirs = serde_json::to_string(&shown(other)).unwrap();
            assert!(!json.contains(&theirs));
        }
        let seen = board
            .redact(&events[0], Viewer::Seat(s.index()))
            .unwrap()
            .into_owned();
        let Event::Buried {
            cards, count: 8, ..
        } = seen
        else {
            panic!()
        };
        assert_eq!(cards, None, "not even the declarer sees the bury again");
    }
    let spectator = board.view(Viewer::Spectator);
    assert!(spectator.hand.is_none() && spectator.hands.is_none() && spectator.kitty.is_none());
    assert!(Board::legal_from_view(&spectator).is_empty());
    let referee = board.view(Viewer::Referee);
    assert_eq!(referee.kitty.as_ref().map(Vec::len), Some(8));
    assert_eq!(referee.hands.as_ref().unwrap()[d.index()].len(), 25);
    assert!(matches!(
        board.redact(&events[0], Viewer::Referee).as_deref(),
        Some(Event::Buried { cards: Some(_), .. })
    ));

    let sees = Ruleset {
        declarer_sees_kitty: true,
        ..Ruleset::fujian_2024()
    };
    let mut board = Board::new(&deal, sees);
    board
        .apply(
            d,
            Actor::Player,
            Action::Bury {
                cards: board.hand(d).cards()[..8].to_vec(),
            },
        )
        .unwrap();
    assert!(board.view(Viewer::Seat(d.index())).kitty.is_some());
    assert!(board.view(Viewer::Seat(d.next().index())).kitty.is_none());
}

#[test]
fn the_engine_trait_works_from_views_on_the_wire() {
    let deal = test_deal();
    let mut board = Board::new(&deal, Ruleset::fujian_2024());
    let d = deal.declarer;
    assert_eq!(Engine::to_act(&board), vec![d]);
    assert_eq!(
        board.move_limit(std::time::Duration::ZERO),
        Some(std::time::Duration::from_secs(60))
    );
    assert_eq!(board.timeout_action(), Action::Timeout);
    let bury = board.legal_actions(d);
    assert_eq!(bury.len(), 1);
    Engine::apply(&mut board, d, Actor::Player, bury[0].clone()).unwrap();
    assert_eq!(
        board.move_limit(std::time::Duration::ZERO),
        Some(std::time::Duration::from_secs(30))
    );
    let mut rng = Rng(5);
    while !Engine::is_over(&board) {
        let seat = Engine::to_act(&board)[0];
        let view = Engine::view(&board, Viewer::Seat(seat));
        let wire: View = serde_json::from_str(&serde_json::to_string(&view).unwrap()).unwrap();
        assert_eq!(wire, view);
        let legal = Board::legal_from_view(&wire);
        assert_eq!(
            legal,
            Board::legal_from_view(&Engine::view(&board, Viewer::Referee))
        );
        assert!(!legal.is_empty());
        // What the page dims and hints comes from the engine and agrees with the legal set.
        let hint = view.hint.clone().expect("the seat to act gets a hint");
        let hint_action = match board.phase() {
            Phase::Bury => Action::Bury { cards: hint },
            _ => Action::Play { cards: hint },
        };
        assert!(
            board
                .clone()
                .apply(Seat::from_index(seat), Actor::Player, hint_action)
                .is_ok(),
            "the hint is legal"
        );
        for action in &legal {
            if let Action::Play { cards } = action {
                assert!(cards.iter().all(|c| view.playable.contains(c)), "{cards:?}");
            }
        }
        let hand = view.hand.as_ref().unwrap();
        assert!(view.playable.iter().all(|c| hand.contains(c)));
        for other in (0..4).filter(|&o| o != seat) {
            assert!(
                board.legal_actions(other).is_empty(),
                "only the seat to act has actions"
            );
        }
        Engine::apply(
            &mut board,
            seat,
            Actor::Player,
            legal[rng.below(legal.len())].clone(),
        )
        .unwrap();
    }
    assert!(Engine::to_act(&board).is_empty());
    assert_eq!(board.move_limit(std::time::Duration::ZERO), None);
}

#[test]
fn events_serialise_with_a_type_tag() {
    let deal = test_deal();
    let d = Seat::from_index(deal.declarer);
    let mut board = Board::new(&deal, Ruleset::fujian_2024());
    let events = board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    let json = serde_json::to_string(&events).unwrap();
    assert!(json.starts_with(r#"[{"type":"warning","seat":""#), "{json}");
    let back: Vec<Event> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, events);
    let rules = serde_json::to_string(&Ruleset::fujian_2024()).unwrap();
    assert!(
        rules.contains(r#""kitty_multiplier":"tractor-8""#),
        "{rules}"
    );
    assert_eq!(
        serde_json::from_str::<Ruleset>(&rules).unwrap(),
        Ruleset::by_name("fujian-2024").unwrap()
    );
    assert!(Ruleset::by_name("nope").is_none());
}

/// The seat's view of the last trick: shown or not.
fn sees_last_trick(board: &Board, viewer: Viewer) -> bool {
    board.view(viewer).last_trick.is_some()
}

#[test]
fn the_last_trick_may_be_looked_at_only_until_ones_own_next_play() {
    // 打过的牌翻扣好后，不能提出检查牌的要求，只有未翻扣者有权要求查看本轮次牌: once a player has
    // played to the next trick, their cards of the last one are turned down.
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        ["HA C3 D5", "HK C7 D6", "S3 C6 D7", "H5 C4 D8"],
        KITTY,
    );
    for rules in [
        Ruleset::fujian_2024(),
        Ruleset {
            last_trick: LastTrickView::Always,
            ..Ruleset::fujian_2024()
        },
    ] {
        let always = rules.last_trick == LastTrickView::Always;
        let mut board = buried(&deal, rules);
        for (seat, card) in [
            (Seat::N, "HA"),
            (Seat::W, "H5"),
            (Seat::S, "S3"),
            (Seat::E, "HK"),
        ] {
            board
                .apply(seat, Actor::Player, Action::Play { cards: cards(card) })
                .unwrap();
        }
        // S won and leads: nobody has played to trick 2, everyone may look.
        for s in Seat::ALL {
            assert!(sees_last_trick(&board, Viewer::Seat(s.index())), "{s}");
        }
        for (seat, card) in [(Seat::S, "C6"), (Seat::E, "C7")] {
            board
                .apply(seat, Actor::Player, Action::Play { cards: cards(card) })
                .unwrap();
        }
        for (s, played) in [
            (Seat::S, true),
            (Seat::E, true),
            (Seat::N, false),
            (Seat::W, false),
        ] {
            assert_eq!(
                sees_last_trick(&board, Viewer::Seat(s.index())),
                always || !played,
                "{s}"
            );
        }
        assert!(sees_last_trick(&board, Viewer::Spectator));
        assert!(sees_last_trick(&board, Viewer::Referee));
        // The trick ends: trick 2 is the last trick now, and nobody has played to trick 3.
        for (seat, card) in [(Seat::N, "C3"), (Seat::W, "C4")] {
            board
                .apply(seat, Actor::Player, Action::Play { cards: cards(card) })
                .unwrap();
        }
        let last = board
            .view(Viewer::Seat(Seat::E.index()))
            .last_trick
            .unwrap();
        assert_eq!((last.trick, last.winner), (2, Seat::E));
        // Once the board is over, every trick is shown to everyone.
        for (seat, card) in [
            (Seat::E, "D6"),
            (Seat::N, "D5"),
            (Seat::W, "D8"),
            (Seat::S, "D7"),
        ] {
            board
                .apply(seat, Actor::Player, Action::Play { cards: cards(card) })
                .unwrap();
        }
        assert!(board.is_over());
        for s in Seat::ALL {
            let v = board.view(Viewer::Seat(s.index()));
            assert!(v.last_trick.is_some() && v.tricks.map(|t| t.len()) == Some(3));
        }
    }
}

#[test]
fn the_buried_kitty_is_shown_to_the_referee_only() {
    // 底牌放好后再也不能查看底牌: the bury's cards go to the referee; not to the declarer's seat
    // (nor to whoever sits there later and catches up on the events), unless the ruleset's
    // declarer_sees_kitty is on.
    let deal = test_deal();
    let d = Seat::from_index(deal.declarer);
    for (rules, by_clock) in [
        (Ruleset::fujian_2024(), false),
        (Ruleset::fujian_2024(), true),
        (
            Ruleset {
                declarer_sees_kitty: true,
                ..Ruleset::fujian_2024()
            },
            false,
        ),
    ] {
        let sees = rules.declarer_sees_kitty;
        let mut board = Board::new(&deal, rules);
        let mut log = Vec::new();
        if by_clock {
            log.extend(board.apply(d, Actor::Clock, Action::Timeout).unwrap());
            log.extend(board.apply(d, Actor::Clock, Action::Timeout).unwrap());
        } else {
            let eight = board.hand(d).cards()[..8].to_vec();
            log.extend(
                board
                    .apply(d, Actor::Player, Action::Bury { cards: eight })
                    .unwrap(),
            );
        }
        let buried = log
            .iter()
            .find(|e| matches!(e, Event::Buried { .. }))
            .unwrap()
            .clone();
        let kitty = board.kitty().to_vec();
        assert!(matches!(&buried, Event::Buried { cards: Some(c), .. } if *c == kitty));
        // Catch-up replays the stored events through `redact` for the viewer of the moment.
        let cards_for = |viewer: Viewer| match Engine::redact(&board, &buried, viewer)
            .map(std::borrow::Cow::into_owned)
        {
            Some(Event::Buried { cards, count, .. }) => {
                assert_eq!(count, 8);
                cards
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(cards_for(Viewer::Referee), Some(kitty.clone()));
        assert_eq!(cards_for(Viewer::Spectator), None);
        for s in Seat::ALL {
            let want = (s == d && sees).then(|| kitty.clone());
            assert_eq!(cards_for(Viewer::Seat(s.index())), want, "{s}");
            assert_eq!(board.view(Viewer::Seat(s.index())).kitty, want, "{s}");
            let json = serde_json::to_string(&board.view(Viewer::Seat(s.index()))).unwrap();
            assert_eq!(json.contains("\"kitty\""), s == d && sees);
        }
    }
}

#[test]
fn the_seat_to_act_is_shown_what_it_may_play_and_a_hint() {
    // Level 2, ♠ trump. N leads ♥KK: W holds ♥QQ and ♥88 (有对必须跟对: only those pairs may
    // be played), S holds one heart (all of it, then anything), E none (anything).
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        [
            "HK HK C3 C4 C6 C7",
            "S3 S4 S5 S6 S7 S8",
            "H3 D4 D5 D6 D7 D8",
            "HQ HQ H9 H8 H8 D3",
        ],
        KITTY,
    );
    let mut board = buried(&deal, Ruleset::fujian_2024());
    let view = |b: &Board, s: Seat| b.view(Viewer::Seat(s.index()));
    // A lead: any card may lead; the hint is the clock's lead, the lowest single.
    let n = view(&board, Seat::N);
    assert_eq!(format_cards(&n.playable), "HK C7 C6 C4 C3");
    assert_eq!(n.hint, Some(cards("C3")));
    for s in [Seat::E, Seat::S, Seat::W] {
        let v = view(&board, s);
        assert!(
            v.playable.is_empty() && v.hint.is_none(),
            "only the seat to act"
        );
    }
    assert!(board.view(Viewer::Spectator).playable.is_empty());
    assert!(board.view(Viewer::Referee).hint.is_none());
    board
        .apply(
            Seat::N,
            Actor::Player,
            Action::Play {
                cards: cards("HK HK"),
            },
        )
        .unwrap();
    let w = view(&board, Seat::W);
    assert_eq!(format_cards(&w.playable), "HQ H8", "♥9 and ♦3 are dimmed");
    assert_eq!(w.hint, Some(cards("H8 H8")));
    let json = serde_json::to_value(&w).unwrap();
    assert_eq!(json["playable"], serde_json::json!(["HQ", "H8"]));
    board
        .apply(
            Seat::W,
            Actor::Player,
            Action::Play {
                cards: cards("HQ HQ"),
            },
        )
        .unwrap();
    let s = view(&board, Seat::S);
    assert_eq!(format_cards(&s.playable), "H3 D8 D7 D6 D5 D4");
    assert_eq!(s.hint, Some(cards("H3 D4")));
    board
        .apply(
            Seat::S,
            Actor::Player,
            Action::Play {
                cards: cards("H3 D8"),
            },
        )
        .unwrap();
    let e = view(&board, Seat::E);
    assert_eq!(e.playable.len(), 6, "void: any card");
    assert_eq!(e.hint, Some(cards("S4 S3")), "the lowest, in display order");
    // The hand itself comes in the engine's display order.
    assert_eq!(format_cards(e.hand.as_ref().unwrap()), "S8 S7 S6 S5 S4 S3");
}

#[test]
fn the_hand_is_shown_in_the_engines_order() {
    // Trumps first, highest first (大王, 小王, 主级牌, 副级牌, trump A …), then ♠ ♥ ♦ ♣, each
    // highest first: the page never needs the trump order.
    let deal = position(
        2,
        Some(Suit::Hearts),
        Seat::N,
        [
            "C3 HK SA H2 RJ D2 S9 DA H3",
            "C4 C5 C6 C7 C8 C9 C10 CJ CQ",
            "D3 D4 D5 D6 D7 D8 D9 D10 DJ",
            "S3 S4 S5 S6 S7 S8 S10 SJ SQ",
        ],
        KITTY,
    );
    let board = buried(&deal, Ruleset::fujian_2024());
    let hand = board.view(Viewer::Seat(0)).hand.unwrap();
    assert_eq!(format_cards(&hand), "RJ H2 D2 HK H3 SA S9 DA C3");
    let nt = position(
        10,
        None,
        Seat::N,
        [
            "C3 BJ S10 H10 SA C10 RJ DA H3",
            "C4 C5 C6 C7 C8 C9 CQ CJ CK",
            "D3 D4 D5 D6 D7 D8 D9 D2 DJ",
            "S3 S4 S5 S6 S7 S8 S2 SJ SQ",
        ],
        KITTY,
    );
    let board = buried(&nt, Ruleset::fujian_2024());
    let hand = board.view(Viewer::Referee).hands.unwrap()[0].clone();
    assert_eq!(format_cards(&hand), "RJ BJ S10 H10 C10 SA H3 DA C3");
}

#[test]
fn during_play_only_the_last_trick_may_be_looked_at() {
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        ["HA C3", "HK C7", "S3 C6", "H5 C4"],
        KITTY,
    );
    let mut board = buried(&deal, Ruleset::fujian_2024());
    for (seat, card) in [
        (Seat::N, "HA"),
        (Seat::W, "H5"),
        (Seat::S, "S3"),
        (Seat::E, "HK"),
    ] {
        board
            .apply(seat, Actor::Player, Action::Play { cards: cards(card) })
            .unwrap();
    }
    let player = board.view(Viewer::Seat(Seat::N.index()));
    assert_eq!(
        player.tricks, None,
        "turned-down tricks are not shown in play"
    );
    assert_eq!(player.last_trick.unwrap().winner, Seat::S);
    assert_eq!(board.view(Viewer::Referee).tricks.unwrap().len(), 1);
}

#[test]
fn the_view_shows_who_is_winning_the_trick_so_far() {
    // N leads ♥A; W follows low; S, void in hearts, trumps in with ♠3; E still to play.
    let deal = position(
        2,
        Some(Suit::Spades),
        Seat::N,
        ["HA C3", "HK C7", "S3 C6", "H5 C4"],
        KITTY,
    );
    let mut board = buried(&deal, Ruleset::fujian_2024());
    let winning = |b: &Board| b.view(Viewer::Spectator).winning;
    assert_eq!(winning(&board), None, "no trick started");
    let plays = [
        (Seat::N, "HA", Seat::N),
        (Seat::W, "H5", Seat::N),
        (Seat::S, "S3", Seat::S),
    ];
    for (seat, card, leader) in plays {
        board
            .apply(seat, Actor::Player, Action::Play { cards: cards(card) })
            .unwrap();
        assert_eq!(winning(&board), Some(leader), "after {seat} played {card}");
        assert_eq!(
            board.view(Viewer::Seat(Seat::E.index())).winning,
            Some(leader)
        );
    }
}

/// A ruling never improves the offenders' result (issue 24.5; 判违规方负): from random
/// positions of random boards — during the bury, mid-play, after the last trick — every ruling
/// against every seat, under every reading of `ruling_end` a ruleset may use, leaves the
/// offending side no better than the board stood: the declarer's side offends → the
/// defenders' points do not fall; the defenders offend → they do not rise. A board ended by
/// ruling is lost by the offenders: by default (`at-least`) at least +120 against the
/// declarer's side, at most −120 against the defenders; under `add-to-points-so-far` 120 worse
/// than they stood. And the desk's preview (`Board::ruling_effect`) is exactly what the
/// ruling then does.
#[test]
fn a_ruling_never_improves_the_offenders_result() {
    let mut rng = Rng(0x5eed_2405);
    let mut checked = 0;
    for n in 0..60 {
        let state = rng.next();
        for reading in [RulingEnd::AtLeast, RulingEnd::AddToPointsSoFar] {
            // The same position under each reading: the same generator state replays it.
            let mut rng = Rng(state);
            let rules = Ruleset {
                ruling_end: reading,
                ..Ruleset::fujian_2024()
            };
            let board = random_position(&mut rng, 9000 + n, rules);
            let before = board.defenders_points();
            for seat in Seat::ALL {
                let rulings = [
                    Action::EndBoard,
                    Action::Penalty {
                        points: 1 + rng.below(1000) as u32,
                    },
                ];
                for ruling in rulings {
                    let mut b = board.clone();
                    let preview = b.ruling_effect(seat, &ruling).unwrap();
                    assert_eq!(b, board, "a preview changes nothing");
                    b.apply(seat, Actor::Referee, ruling.clone()).unwrap();
                    let after = b.defenders_points();
                    assert_eq!(preview, after, "the preview is what the ruling does");
                    let why = format!("{reading:?}, {ruling:?} against {seat}, from {before}");
                    if b.is_defender(seat) {
                        assert!(after <= before, "the defenders gained: {why} → {after}");
                    } else {
                        assert!(
                            after >= before,
                            "the declarer's side gained: {why} → {after}"
                        );
                    }
                    if ruling == Action::EndBoard {
                        assert_eq!(b.result(), Some(after));
                        let sign = if b.is_defender(seat) { -1 } else { 1 };
                        match reading {
                            // 判违规方负，非违规方得120分: at least 120 to the other side.
                            RulingEnd::AtLeast => assert!(
                                sign * after >= 120,
                                "the offenders lose, 120 at least: {why} → {after}"
                            ),
                            // 120 more against the offenders than they stood.
                            _ => assert_eq!(after, before + sign * 120, "{why}"),
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 60 * 2 * 4 * 2);
    // The legacy reading does improve an offender's result, which is why no ruleset uses it:
    // the declarer's side, 200 behind, offends and the defenders fall to 120.
    let deal = test_deal();
    let d = Seat::from_index(deal.declarer);
    let fixed = Ruleset {
        ruling_end: RulingEnd::Fixed,
        ..Ruleset::fujian_2024()
    };
    let mut board = Board::new(&deal, fixed);
    board
        .apply(d, Actor::Referee, Action::Penalty { points: 200 })
        .unwrap();
    assert_eq!(board.ruling_effect(d, &Action::EndBoard), Ok(120));
    // A refusal previews as the refusal.
    board.apply(d, Actor::Referee, Action::EndBoard).unwrap();
    board.apply(d, Actor::Referee, Action::Finalize).unwrap();
    assert_eq!(
        board
            .ruling_effect(d, &Action::EndBoard)
            .map_err(|e| e.code()),
        Err("board_final")
    );
}

/// A random position of a dealt board: a few penalties either way (so the defenders stand
/// anywhere from well below 0 to well above 120), then random legal plays — none, some, or
/// the whole board.
fn random_position(rng: &mut Rng, n: u64, rules: Ruleset) -> Board {
    let deal = deal_shengji(&seed(n), 1 + (n as u32 % 4), Fixed::default());
    let mut board = Board::new(&deal, rules);
    for _ in 0..rng.below(3) {
        let seat = Seat::from_index(rng.below(4));
        let points = 10 * (1 + rng.below(25) as u32);
        board
            .apply(seat, Actor::Referee, Action::Penalty { points })
            .unwrap();
    }
    let stop = rng.below(40);
    let mut steps = 0;
    while !board.is_over() && steps < stop {
        let seat = board.to_act().unwrap();
        let legal = Board::legal_from_view(&board.view(Viewer::Seat(seat.index())));
        let action = legal[rng.below(legal.len())].clone();
        board.apply(seat, action.taken_by(), action).unwrap();
        steps += 1;
    }
    if rng.chance(30) {
        play_out(&mut board, rng, false, &mut |_| {});
    }
    board
}
