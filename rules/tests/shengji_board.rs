//! Whole 80分 boards through the state machine: random legal plays from many seeds (cards
//! conserved, 200 points in all, the result is the sum of the events), bad input (a typed error
//! and the board unchanged), failed throws with the opponents' choice, 抠底, clocks, rulings,
//! views and the `Engine` trait.

mod shengji_support;

use rules::cards::{format_cards, parse_list, points, Card, Hand, Rank, Suit};
use rules::deal::{deal_shengji, Fixed, Seed, ShengjiDeal};
use rules::shengji::{
    Action, Board, Event, KittyMultiplier, Offence, Phase, RuleError, Ruleset, RulingEnd, Seat,
    TimeoutCount, TimeoutPlay, UnitChoice, View,
};
use rules::Actor;
use rules::{Engine, Explain, Viewer};
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
fn play_out(board: &mut Board, rng: &mut Rng, spice: bool) -> Vec<Event> {
    let mut events = Vec::new();
    let mut steps = 0;
    while !board.is_over() {
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
    events
}

#[test]
fn random_boards_conserve_cards_and_points() {
    let mut rng = Rng(2024);
    let (mut captures, mut throws_failed, mut choices) = ([0usize; 3], 0, 0);
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
        let events = play_out(&mut board, &mut rng, n % 2 == 1);

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
                Event::ThrowFailed { choices: c, .. } => {
                    throws_failed += 1;
                    choices += c.is_some() as usize;
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

        // The result: the sum of the events.
        let Some(Event::BoardOver {
            result,
            kitty: shown,
            ..
        }) = events.last()
        else {
            panic!("a board ends with its result");
        };
        assert_eq!(*result, score_of(&events, declarer));
        assert_eq!(board.result(), Some(*result));
        assert_eq!(*shown, kitty, "the kitty is shown at the end");

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
        captures[0] > 0 && throws_failed > 20 && choices > 0,
        "{captures:?} {throws_failed} {choices}"
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input: a typed error and nothing changed.

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

    // After the end.
    board.apply(f, Actor::Referee, Action::EndBoard).unwrap();
    refused(&mut board, f, Action::Timeout, "board_over");
    refused(&mut board, d, Action::Penalty { points: 40 }, "board_over");
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
    let Event::ThrowFailed {
        blocked,
        penalty,
        forced,
        choices,
        chooser,
        attempt,
        ..
    } = &events[0]
    else {
        panic!("{events:?}");
    };
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
        matches!(&events[0], Event::ThrowFailed { forced: Some(f), penalty: 30, .. } if format_cards(f) == "H9")
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
        matches!(&events[0], Event::ThrowFailed { blocked, .. } if blocked.iter().all(|b| b.by == [Seat::S]))
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

#[test]
fn timeouts_warn_first_then_cost_ten_and_the_engine_plays() {
    let deal = test_deal();
    let d = Seat::from_index(deal.declarer);
    let mut board = Board::new(&deal, Ruleset::fujian_2024());
    let events = board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    assert!(matches!(events[0], Event::Warning { seat, reason: Offence::Timeout } if seat == d));
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
    assert_eq!(board.defenders_points(), 0, "a warning costs nothing");

    // The declarer's second timeout: 10 to the defenders, and the lowest card is led.
    let lowest = kept.iter().copied().min_by_key(|&c| o.low_key(c)).unwrap();
    let events = board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    assert!(matches!(
        events[0],
        Event::Penalty {
            delta: 10,
            points: 10,
            reason: Offence::Timeout,
            ..
        }
    ));
    assert!(
        matches!(&events[1], Event::Played { cards, auto: true, lead: true, .. } if *cards == [lowest])
    );
    // A defender's first timeout warns, the second costs the defenders 10.
    let f = d.next();
    board.apply(f, Actor::Clock, Action::Timeout).unwrap();
    let events = board
        .apply(f.next(), Actor::Clock, Action::Timeout)
        .unwrap();
    assert!(
        matches!(events[0], Event::Warning { .. }),
        "per seat: the partner has a warning of its own"
    );
    let events = board
        .apply(f.next().next(), Actor::Clock, Action::Timeout)
        .unwrap();
    assert!(matches!(events[0], Event::Warning { .. }));
    assert!(matches!(events.last(), Some(Event::TrickWon { .. })));
    // Per side: the second timeout of a side is penalised.
    let mut board = Board::new(
        &deal,
        Ruleset {
            timeout_count: TimeoutCount::PerSide,
            ..Ruleset::fujian_2024()
        },
    );
    board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    board.apply(d, Actor::Clock, Action::Timeout).unwrap();
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
    // After-warning: the warned player keeps the move.
    let mut board = Board::new(
        &deal,
        Ruleset {
            timeout_play: TimeoutPlay::AfterWarning,
            ..Ruleset::fujian_2024()
        },
    );
    let events = board.apply(d, Actor::Clock, Action::Timeout).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(board.phase(), Phase::Bury);
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
    let events = board.apply(Seat::W, Actor::Clock, Action::Timeout).unwrap();
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
            result: 130,
            by_ruling: true,
            ..
        })
    ));
    assert!(board.is_over());

    let mut board = Board::new(
        &deal,
        Ruleset {
            ruling_end: RulingEnd::Fixed,
            ..Ruleset::fujian_2024()
        },
    );
    board
        .apply(d, Actor::Referee, Action::Penalty { points: 10 })
        .unwrap();
    board
        .apply(d.next(), Actor::Referee, Action::EndBoard)
        .unwrap();
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
    for s in Seat::ALL {
        let v = board.view(Viewer::Seat(s.index()));
        assert_eq!(v.hand.as_deref(), Some(board.hand(s).cards().as_slice()));
        assert!(v.hands.is_none());
        assert_eq!(
            v.kitty, None,
            "底牌放好后再也不能查看底牌 (declarer_sees_kitty off)"
        );
        let json = serde_json::to_string(&v).unwrap();
        for other in Seat::ALL.into_iter().filter(|&o| o != s) {
            let theirs = serde_json::to_string(&board.hand(other).cards()).unwrap();
            assert!(!json.contains(&theirs));
        }
        let seen = board.redact(&events[0], Viewer::Seat(s.index())).unwrap();
        let Event::Buried {
            cards, count: 8, ..
        } = seen
        else {
            panic!()
        };
        assert_eq!(cards.is_some(), s == d, "only the declarer sees the bury");
    }
    let spectator = board.view(Viewer::Spectator);
    assert!(spectator.hand.is_none() && spectator.hands.is_none() && spectator.kitty.is_none());
    assert!(Board::legal_from_view(&spectator).is_empty());
    let referee = board.view(Viewer::Referee);
    assert_eq!(referee.kitty.as_ref().map(Vec::len), Some(8));
    assert_eq!(referee.hands.as_ref().unwrap()[d.index()].len(), 25);
    assert!(matches!(
        board.redact(&events[0], Viewer::Referee),
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
