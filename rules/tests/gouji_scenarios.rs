//! Scripted 够级 games through `apply`: the worked examples of docs/rules-gouji.md and one
//! scenario per rule (级牌 restriction, 让, 接风, 不设底级, burning, 解烧, 反烧, the failed burn,
//! 四户乱缠, 串三户, 点贡, 开点, the clock, rulings and forfeits), each checking the events and that
//! refusals change nothing.

mod gouji_support;

use gouji_support::{burn, cards, game, play, refused, run};
use rules::gouji::{Action, Event, Outcome, Phase, Place, Score, Seat, Status};
use rules::Actor;
use rules::{Engine, Viewer};
use Seat::*;

fn has(events: &[Event], e: &Event) -> bool {
    events.contains(e)
}

fn offered(events: &[Event]) -> Vec<Seat> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::BurnOffered { seat } => Some(*seat),
            _ => None,
        })
        .collect()
}

/// Worked example 1: A1 leads `K K`; B1 may not beat it; A2 (teammate) may not either; B2
/// passes it (级牌过牌); the burn goes to B3, B1, then A2, A3; B3 burns with `A A`; A2, who had passed,
/// beats it normally with `2 2` (解烧).
#[test]
fn example_1_restriction_the_opposite_passes_burn_offer_and_unburn() {
    let mut g = game([
        "SK HK S4 S5",
        "DA CA S6 S7",
        "S2 H2 S8 H8",
        "D5 D6 D7 D8",
        "C4 C5 C6 C7",
        "SA HA BJ RJ S7 S8 S9",
    ]);
    let ev = run(&mut g, &[(A1, play("SK HK"))]);
    assert!(has(
        &ev,
        &Event::Led {
            seat: A1,
            cards: cards("SK HK"),
            gouji: true
        }
    ));
    // B1 may not beat it normally: only A1's 对头 B2 may.
    let err = refused(&mut g, B1, play("DA CA"), "gouji_only_opposite");
    assert!(rules::Explain::zh(&err).contains("级牌只有对头能打，其他人只能烧"));
    assert_eq!(g.legal_actions(B1.index()), vec![Action::Pass]);
    run(&mut g, &[(B1, Action::Pass)]);
    // A1's own teammate may not beat it either.
    refused(&mut g, A2, play("S2 H2"), "gouji_only_opposite");
    run(&mut g, &[(A2, Action::Pass)]);
    // B2, A1's 对头, passes the 级牌 (conceded). A1 has opened; the burn is offered to B3 first.
    let ev = run(&mut g, &[(B2, Action::Pass)]);
    assert!(has(
        &ev,
        &Event::Passed {
            seat: B2,
            conceded: true
        }
    ));
    assert!(has(&ev, &Event::Opened { seat: A1 }));
    assert_eq!(
        *g.phase(),
        Phase::Offer {
            seat: B3,
            queue: vec![B1, A2, A3]
        }
    );
    // Nobody else may burn out of order.
    refused(&mut g, B1, burn("DA CA"), "no_burn_right");
    refused(&mut g, B3, Action::Pass, "burn_offer_pending");
    // B3 burns: after A A, 2 jokers and 3 ranks: 2 ≥ 3 − 1.
    let legal = g.legal_actions(B3.index());
    assert!(legal.contains(&Action::Decline) && legal.contains(&burn("SA HA")));
    let ev = run(&mut g, &[(B3, burn("SA HA"))]);
    assert!(has(
        &ev,
        &Event::Burned {
            seat: B3,
            cards: cards("SA HA"),
            gouji: true,
            counter: false
        }
    ));
    // A1 (the burned player) may only pass; then A2, who had passed, may act again: 解烧.
    assert_eq!(*g.phase(), Phase::Respond(A1));
    run(&mut g, &[(A1, Action::Pass)]);
    assert_eq!(*g.phase(), Phase::Respond(A2));
    let ev = run(&mut g, &[(A2, play("S2 H2"))]);
    assert!(has(
        &ev,
        &Event::Beat {
            seat: A2,
            cards: cards("S2 H2"),
            gouji: true,
            unburn: true
        }
    ));
    assert!(!g.is_burning(B3));
    // The burn is over: when the trick closes, A2 leads, nobody burning.
    while !matches!(g.phase(), Phase::Lead(_)) {
        let seat = g.phase().seat().unwrap();
        let a = if matches!(g.phase(), Phase::Offer { .. }) {
            Action::Decline
        } else {
            Action::Pass
        };
        g.apply(seat, a.taken_by(), a).unwrap();
    }
    assert_eq!(*g.phase(), Phase::Lead(A2));
    assert!(Seat::ALL.iter().all(|&s| !g.is_burning(s)));
}

/// The sustain test (留牌): jokers left ≥ distinct ranks left − 1, or no burn.
#[test]
fn a_burn_must_be_sustainable() {
    let mut g = game([
        "SK HK S4 S5",
        "DA CA S6 S7",
        "S8 H8 D8 C8",
        "D5 D6 D7 D8",
        "C4 C5 C6 C7",
        "SA HA BJ S7 S8 S9",
    ]);
    run(
        &mut g,
        &[
            (A1, play("SK HK")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
        ],
    );
    // After A A: 1 joker, 3 ranks: 1 < 3 − 1.
    let err = refused(&mut g, B3, burn("SA HA"), "burn_not_sustainable");
    assert_eq!(
        err,
        rules::gouji::RuleError::BurnNotSustainable {
            jokers: 1,
            ranks: 3
        }
    );
    assert_eq!(g.legal_actions(B3.index()), vec![Action::Decline]);
    // Not a set, not held, not higher: typed errors, nothing changed.
    refused(&mut g, B3, burn("SA S9"), "mixed_ranks");
    refused(&mut g, B3, burn("RJ RJ"), "cards_not_held");
    refused(&mut g, B3, burn("S8 S9"), "mixed_ranks");
    // B1 offered next: its A A leaves 2 ranks and no joker: 0 < 2 − 1.
    run(&mut g, &[(B3, Action::Decline)]);
    refused(&mut g, B1, burn("DA CA"), "burn_not_sustainable");
}

/// Worked example 2: B3's burn stands; B3 must lead sets with a joker; with `7 7 9` and no
/// joker left B3 has failed: 大落, cards void, A1's `K K` is the top set again.
#[test]
fn example_2_a_burn_that_stands_then_fails() {
    let mut g = game([
        "SK HK S4 S5",
        "S6 H6 C9",
        "S8 H8 D8 D10",
        "D5 D6 D7",
        "C4 C5 C6",
        "SA HA BJ S7 H7 S9",
    ]);
    run(
        &mut g,
        &[
            (A1, play("SK HK")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
        ],
    );
    run(&mut g, &[(B3, burn("SA HA")), (A1, Action::Pass)]);
    // A2, B3's 对头, declines: B3 has opened; the 反烧 offer goes A3, A1, then B1, B2.
    let ev = run(&mut g, &[(A2, Action::Pass)]);
    assert!(has(&ev, &Event::Opened { seat: B3 }));
    assert_eq!(offered(&ev), vec![A3]);
    let ev = run(
        &mut g,
        &[
            (A3, Action::Decline),
            (A1, Action::Decline),
            (B1, Action::Decline),
            (B2, Action::Decline),
        ],
    );
    assert_eq!(offered(&ev), vec![A1, B1, B2]);
    assert!(has(&ev, &Event::BurnStood { seat: B3 }));
    assert!(has(
        &ev,
        &Event::TrickWon {
            winner: B3,
            leader: B3,
            takeover: false
        }
    ));
    assert!(g.is_burning(B3));
    // Every set B3 leads must hold a joker.
    let err = refused(&mut g, B3, play("S7 H7"), "burn_lead_needs_joker");
    assert!(rules::Explain::zh(&err).contains("烧牌后出牌必须带王"));
    assert!(g
        .legal_actions(B3.index())
        .iter()
        .all(|a| matches!(a, Action::Play { cards } if cards.contains(&rules::cards::Card::BJ))));
    // The clock (warning, then the pass-or-lead) leads the burner's smallest joker set.
    let ev = run(&mut g, &[(B3, Action::Timeout), (B3, Action::Timeout)]);
    assert!(has(
        &ev,
        &Event::Led {
            seat: B3,
            cards: cards("BJ"),
            gouji: true
        }
    ));
    run(&mut g, &[(A1, Action::Pass), (B1, Action::Pass)]);
    let ev = run(&mut g, &[(A2, Action::Pass)]);
    assert_eq!(offered(&ev), vec![A3]);
    let ev = run(
        &mut g,
        &[
            (A3, Action::Decline),
            (A1, Action::Decline),
            (B1, Action::Decline),
            (B2, Action::Decline),
        ],
    );
    // B3 leads again with 7 7 9 and no joker: the burn has failed.
    let failed = ev
        .iter()
        .find(|e| matches!(e, Event::BurnFailed { .. }))
        .expect("a failed burn");
    assert_eq!(
        *failed,
        Event::BurnFailed {
            seat: B3,
            void: Some(cards("S7 S9 H7")),
            void_count: 3,
            owner: A1,
            restored: cards("SK HK"),
        }
    );
    // The void cards are private to B3 and the referees.
    let public = g
        .redact(failed, Viewer::Seat(A1.index()))
        .unwrap()
        .into_owned();
    assert!(matches!(
        public,
        Event::BurnFailed {
            void: None,
            void_count: 3,
            ..
        }
    ));
    assert_eq!(g.redact(failed, Viewer::Referee).as_deref(), Some(failed));
    assert_eq!(g.status(B3), Status::Failed);
    assert_eq!(g.place(B3), Some(Place::Last));
    assert_eq!(g.void().len(), 3);
    assert!(g.has_head(A2), "the failed burner's 对头 still has a head");
    // A1's K K is the top set again: only B2 may beat it, or it may be burned again.
    assert_eq!(g.top().unwrap().cards, cards("SK HK"));
    assert_eq!(g.top().unwrap().owner, A1);
    assert_eq!(*g.phase(), Phase::Respond(B1));
    run(&mut g, &[(B1, Action::Pass), (A2, Action::Pass)]);
    let ev = run(&mut g, &[(B2, Action::Pass)]);
    assert_eq!(offered(&ev), vec![B1]);
    let ev = run(
        &mut g,
        &[
            (B1, Action::Decline),
            (A2, Action::Decline),
            (A3, Action::Decline),
        ],
    );
    assert_eq!(offered(&ev), vec![A2, A3]);
    // Otherwise the burned player leads.
    assert_eq!(*g.phase(), Phase::Lead(A1));
}

/// 烧牌失误则为大落: every failed burner scores 大落, whatever the order. B3 burns A1's `K K`
/// and fails (大落's place); the 级牌 is restored and B1 burns it and fails too. B1 fills 二落's
/// place in the finishing order but scores 大落 (−4), not 二落 (−2).
#[test]
fn every_failed_burner_scores_da_luo() {
    let mut g = game([
        "SK HK S4 H4 D4",
        "DA CA BJ S7 S9",
        "S8 H8 D8 C8",
        "D5 H5 S5",
        "C4 C5 C6",
        "SA HA BJ S7 H7 S9",
    ]);
    let declined = |seats: &[Seat]| -> Vec<(Seat, Action)> {
        seats.iter().map(|&s| (s, Action::Decline)).collect()
    };
    // B3 burns A1's K K; the burn stands; B3 leads its only joker and then has none.
    run(
        &mut g,
        &[
            (A1, play("SK HK")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (B3, burn("SA HA")),
            (A1, Action::Pass),
            (A2, Action::Pass),
        ],
    );
    run(&mut g, &declined(&[A3, A1, B1, B2]));
    run(
        &mut g,
        &[
            (B3, play("BJ")),
            (A1, Action::Pass),
            (B1, Action::Pass),
            (A2, Action::Pass),
        ],
    );
    let ev = run(&mut g, &declined(&[A3, A1, B1, B2]));
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::BurnFailed { seat: B3, .. })));
    assert_eq!(g.place(B3), Some(Place::Last));
    // A1's K K is back; B2 passes it and B1, now first in the offer order, burns it.
    run(
        &mut g,
        &[
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (B1, burn("DA CA")),
            (A3, Action::Pass),
        ],
    );
    run(&mut g, &declined(&[A1, A2, B2]));
    assert!(g.is_burning(B1));
    run(
        &mut g,
        &[
            (B1, play("BJ")),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (A3, Action::Pass),
        ],
    );
    let ev = run(&mut g, &declined(&[A1, A2, B2]));
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::BurnFailed { seat: B1, .. })));
    assert_eq!(g.status(B1), Status::Failed);
    assert_eq!(g.place(B1), Some(Place::SecondLast), "the finishing order");
    // The rest: A1 头科, A2 二科 (四户乱缠; B2 and A3 are 点, so 点贡 cancels), B2 三科.
    run(
        &mut g,
        &[
            (A2, Action::Pass),
            (B2, Action::Pass),
            (A2, Action::Decline),
            (A3, Action::Decline),
            (A1, play("S4 H4 D4")),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (A3, Action::Pass),
            (A2, play("S8 H8 D8 C8")),
            (B2, Action::Pass),
            (A3, Action::Pass),
            (B2, play("D5 H5 S5")),
        ],
    );
    assert!(g.is_over());
    assert!(g.marked(B2) && g.marked(A3));
    assert_eq!(g.place(A3), Some(Place::Fourth));
    // A: 4 + 2 + 0; B: 三科 0, B1 大落 −4 (in 二落's place), B3 大落 −4.
    assert_eq!(g.score(), Some((Score { a: 6, b: -8 }, Outcome::Places)));
}

/// 反烧: after the burner's 对头 declines, another player burns the burning set back.
#[test]
fn a_counter_burn() {
    let mut g = game([
        "SK HK S4 S5",
        "S6 H6 C9",
        "S8 H8 D8 D10",
        "D5 D6 D7",
        "S2 H2 C4 RJ",
        "SA HA BJ S7 H7 S9",
    ]);
    run(
        &mut g,
        &[
            (A1, play("SK HK")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (B3, burn("SA HA")),
            (A1, Action::Pass),
            (A2, Action::Pass),
        ],
    );
    let ev = run(&mut g, &[(A3, burn("S2 H2"))]);
    assert!(has(
        &ev,
        &Event::Burned {
            seat: A3,
            cards: cards("S2 H2"),
            gouji: true,
            counter: true
        }
    ));
    // B3 may only pass now; B1 (A3's 对头, who had passed) may act again.
    assert_eq!(*g.phase(), Phase::Respond(B3));
    run(&mut g, &[(B3, Action::Pass)]);
    assert_eq!(*g.phase(), Phase::Respond(B1));
    let ev = run(&mut g, &[(B1, Action::Pass)]);
    assert_eq!(offered(&ev), vec![B2]);
    let ev = run(
        &mut g,
        &[
            (B2, Action::Decline),
            (B3, Action::Decline),
            (A1, Action::Decline),
            (A2, Action::Decline),
        ],
    );
    assert!(has(&ev, &Event::BurnStood { seat: A3 }));
    assert!(g.is_burning(A3) && !g.is_burning(B3));
    assert_eq!(*g.phase(), Phase::Lead(A3));
}

/// 让: only the 对头 may yield; the decision comes back if nobody beats the set.
#[test]
fn a_yield_that_comes_back() {
    let mut g = game(["S9 H9 S4", "S5 S6", "S7 S8", "S10 H10 D4", "C5 C6", "D5 D6"]);
    run(&mut g, &[(A1, play("S9 H9"))]);
    let err = refused(&mut g, B1, Action::Yield, "only_opposite_may_yield");
    assert!(rules::Explain::zh(&err).contains("只有对头可以让牌"));
    run(&mut g, &[(B1, Action::Pass), (A2, Action::Pass)]);
    assert!(g.legal_actions(B2.index()).contains(&Action::Yield));
    let ev = run(
        &mut g,
        &[(B2, Action::Yield), (A3, Action::Pass), (B3, Action::Pass)],
    );
    assert!(has(&ev, &Event::YieldReturned { seat: B2 }));
    assert_eq!(*g.phase(), Phase::Respond(B2));
    refused(&mut g, B2, Action::Yield, "yield_already_used");
    assert!(!g.legal_actions(B2.index()).contains(&Action::Yield));
    run(&mut g, &[(B2, play("S10 H10"))]);
    assert_eq!(g.top().unwrap().owner, B2);
}

/// A yield counts as a pass when someone beats the set; the new owner's 对头 has the last word.
#[test]
fn a_yield_overtaken_and_the_last_word() {
    let mut g = game([
        "S9 H9 S4",
        "S5 S6",
        "S7 S8",
        "S10 H10 D4",
        "SJ HJ C5",
        "D5 D6",
    ]);
    run(
        &mut g,
        &[
            (A1, play("S9 H9")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Yield),
            (A3, play("SJ HJ")),
            (B3, Action::Pass),
            (A1, Action::Pass),
        ],
    );
    // B1 had passed, but is A3's 对头: the last word.
    assert_eq!(*g.phase(), Phase::Respond(B1));
    let ev = run(&mut g, &[(B1, Action::Pass)]);
    // B2's yield counted as a pass: B2 is never asked again.
    assert!(has(
        &ev,
        &Event::TrickWon {
            winner: A3,
            leader: A3,
            takeover: false
        }
    ));
}

/// Worked example 3 (接风): A3 goes out with `9 9`, the last cards in hand (not a 级牌);
/// everyone else passes; B3, the next active player to A3's right, leads.
#[test]
fn example_3_takeover_after_the_leader_goes_out() {
    let mut g = game(["S8 H8 S4", "S5 S6", "S7 C7", "D4 D5", "S9 H9", "C5 C6"]);
    run(
        &mut g,
        &[
            (A1, play("S8 H8")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
        ],
    );
    let ev = run(&mut g, &[(A3, play("S9 H9"))]);
    assert!(has(
        &ev,
        &Event::Beat {
            seat: A3,
            cards: cards("S9 H9"),
            gouji: false,
            unburn: false
        }
    ));
    assert!(has(
        &ev,
        &Event::WentOut {
            seat: A3,
            place: Place::First
        }
    ));
    run(&mut g, &[(B3, Action::Pass), (A1, Action::Pass)]);
    // The 对头 of A3 (B1) has the last word.
    assert_eq!(*g.phase(), Phase::Respond(B1));
    let ev = run(&mut g, &[(B1, Action::Pass)]);
    assert!(has(
        &ev,
        &Event::TrickWon {
            winner: A3,
            leader: B3,
            takeover: true
        }
    ));
    assert_eq!(*g.phase(), Phase::Lead(B3));
    // A3's 对头 B1 is now 无头: B1's sets bind nobody.
    assert!(!g.has_head(B1));
}

/// 不设底级: 「没有底级，即头科、二科出科后，无论所留牌为级牌还是非级牌，均由剩余几家按顺序打」.
/// Before 二科 is out a player's last set is a 级牌 like any other: A3 goes out with `Q Q Q`;
/// it binds B3 (only B1, A3's 对头, may beat it); B1 passes it and the burn is offered. With
/// `last_set_is_gouji: false` the same set binds nobody.
#[test]
fn a_last_set_is_a_gouji_set_before_second_place() {
    let hands = [
        "S9 H9 D9 S4",
        "SK HK DK S6",
        "S7 S8",
        "D4 D5",
        "SQ HQ DQ",
        "SA HA CA C6",
    ];
    let script = [
        (A1, play("S9 H9 D9")),
        (B1, Action::Pass),
        (A2, Action::Pass),
        (B2, Action::Pass),
        (A3, play("SQ HQ DQ")),
    ];
    let mut g = game(hands);
    let ev = run(&mut g, &script);
    assert!(has(
        &ev,
        &Event::Beat {
            seat: A3,
            cards: cards("SQ HQ DQ"),
            gouji: true,
            unburn: false
        }
    ));
    assert!(has(
        &ev,
        &Event::WentOut {
            seat: A3,
            place: Place::First
        }
    ));
    // B3 may not beat it by normal play: only A3's 对头 B1 may.
    refused(&mut g, B3, play("SA HA CA"), "gouji_only_opposite");
    run(&mut g, &[(B3, Action::Pass), (A1, Action::Pass)]);
    // B1 passed A1's 9 9 9, but its 对头 played a 级牌: B1 may act again, and passes it.
    assert_eq!(*g.phase(), Phase::Respond(B1));
    let ev = run(&mut g, &[(B1, Action::Pass)]);
    assert!(has(
        &ev,
        &Event::Passed {
            seat: B1,
            conceded: true
        }
    ));
    // Burn offers: A3's opponents B2, B3 in turn order from B1, then A3's teammates A1, A2.
    assert_eq!(offered(&ev), vec![B2]);
    assert_eq!(
        *g.phase(),
        Phase::Offer {
            seat: B2,
            queue: vec![B3, A1, A2]
        }
    );

    // The other reading: a last set is never a 级牌; B3 beats it freely.
    let mut ruleset = rules::gouji::Ruleset::zaozhuang_2017();
    ruleset.last_set_is_gouji = false;
    let mut g = rules::gouji::Game::new(&gouji_support::deal(hands), ruleset);
    let ev = run(&mut g, &script);
    assert!(has(
        &ev,
        &Event::Beat {
            seat: A3,
            cards: cards("SQ HQ DQ"),
            gouji: false,
            unburn: false
        }
    ));
    run(&mut g, &[(B3, play("SA HA CA"))]);
}

/// Worked example 4: once 头科 and 二科 are out, the four left play freely: anyone may beat any
/// set, no burning, and a trick ends only when the three others pass in a row.
#[test]
fn example_4_four_play_freely() {
    let mut g = game([
        "S4",
        "BJ S9 S10",
        "S7",
        "S2 S5 S6",
        "SA HA CA D4",
        "H5 H6 H7 H8",
    ]);
    run(&mut g, &[(A1, play("S4")), (B1, Action::Pass)]);
    let ev = run(&mut g, &[(A2, play("S7"))]);
    assert!(has(
        &ev,
        &Event::WentOut {
            seat: A2,
            place: Place::Second
        }
    ));
    assert!(has(&ev, &Event::FreePlay));
    // Nobody had opened: all four left are 点.
    for s in [B1, B2, A3, B3] {
        assert!(has(&ev, &Event::Marked { seat: s }), "{s}");
    }
    assert!(g.free_play());
    run(&mut g, &[(B2, play("S2"))]);
    // 让 is still the 对头's word only (B2's 对头 A1 is out).
    refused(&mut g, A3, Action::Yield, "only_opposite_may_yield");
    // B1, B2's teammate, beats B2's 2 (a 级牌 before): allowed now.
    let ev = run(
        &mut g,
        &[(A3, Action::Pass), (B3, Action::Pass), (B1, play("BJ"))],
    );
    assert!(offered(&ev).is_empty());
    // A3 passed before and may act again; the trick ends after three passes in a row.
    run(&mut g, &[(B2, Action::Pass), (A3, Action::Pass)]);
    assert_eq!(*g.phase(), Phase::Respond(B3));
    let ev = run(&mut g, &[(B3, Action::Pass)]);
    assert!(has(
        &ev,
        &Event::TrickWon {
            winner: B1,
            leader: B1,
            takeover: false
        }
    ));
}

/// 让 in 四户乱缠: nothing in the text removes 让 once 头科 and 二科 are out, so **[decision]**
/// `no_yield_in_free_play: false`: the 对头 may still say it, and it counts as a pass (passes
/// are not final there, so it never comes back). A3 beats with `8`; B1, A3's 对头, yields; B3
/// and B2 pass: the three others have passed in a row and A3 wins. With `true` the 让 is
/// refused.
#[test]
fn a_yield_in_free_play_counts_as_a_pass() {
    let hands = ["S4", "S9 S10", "S7", "S5 S6", "S8 D4", "H5 H6"];
    let script = [
        (A1, play("S4")),
        (B1, Action::Pass),
        (A2, play("S7")),
        (B2, Action::Pass),
        (A3, play("S8")),
        (B3, Action::Pass),
    ];
    let mut g = game(hands);
    run(&mut g, &script);
    assert!(g.free_play());
    assert_eq!(*g.phase(), Phase::Respond(B1));
    let v = g.view(Viewer::Seat(B1.index()));
    assert!(v.can_yield && v.can_pass);
    assert!(g.legal_actions(B1.index()).contains(&Action::Yield));
    let ev = run(&mut g, &[(B1, Action::Yield)]);
    assert_eq!(ev, vec![Event::Yielded { seat: B1 }]);
    assert_eq!(*g.phase(), Phase::Respond(B2));
    let ev = run(&mut g, &[(B2, Action::Pass)]);
    assert!(has(
        &ev,
        &Event::TrickWon {
            winner: A3,
            leader: A3,
            takeover: false
        }
    ));

    let mut ruleset = rules::gouji::Ruleset::zaozhuang_2017();
    ruleset.no_yield_in_free_play = true;
    let mut g = rules::gouji::Game::new(&gouji_support::deal(hands), ruleset);
    run(&mut g, &script);
    assert!(!g.view(Viewer::Seat(B1.index())).can_yield);
    let err = refused(&mut g, B1, Action::Yield, "no_yield_in_free_play");
    assert!(rules::Explain::zh(&err).contains("四户乱缠时不能让牌"));
}

/// 串三户: one team takes 头科, 二科 and 三科: 12, replacing everything else.
#[test]
fn a_sweep_scores_twelve() {
    let mut g = game(["S4", "S5 S6", "S7", "D5 D6", "S8", "C5 C6"]);
    let ev = run(
        &mut g,
        &[
            (A1, play("S4")),
            (B1, Action::Pass),
            (A2, play("S7")),
            (B2, Action::Pass),
            (A3, play("S8")),
        ],
    );
    assert!(g.is_over());
    let over = ev.last().unwrap();
    // B3, B1, B2 fill 四科, 二落, 大落: equal counts, in turn order after A3.
    let mut places = [None; 6];
    for (s, p) in [
        (A1, Place::First),
        (A2, Place::Second),
        (A3, Place::Third),
        (B3, Place::Fourth),
        (B1, Place::SecondLast),
        (B2, Place::Last),
    ] {
        places[s.index()] = Some(p);
    }
    assert_eq!(
        *over,
        Event::GameOver {
            places,
            score: Score { a: 12, b: -12 },
            outcome: Outcome::Sweep {
                team: rules::gouji::score::TeamName::A
            },
        }
    );
    refused(&mut g, B1, Action::Pass, "game_over");
}

/// 点贡 and 开点 (worked example 5): A1 and A3 open (a 级牌 their 对头 declined); no B player has
/// when 二科 goes out: team B owes 6, once (不累计) though three of its players are 点.
#[test]
fn dian_gong_once_per_team() {
    let (mut g, mut ev) = dian_gong_game(rules::gouji::Ruleset::zaozhuang_2017());
    assert!(ev.contains(&Event::Opened { seat: A1 }));
    assert!(ev.contains(&Event::Opened { seat: A3 }));
    for s in [B1, B2, B3] {
        assert!(ev.contains(&Event::Marked { seat: s }));
    }
    assert!(g.is_over());
    // A: 头科 4 + 二科 2 + 四科 0 + 点贡 6 = 12; B: 三科 0, 二落 −2, 大落 −4, 点贡 −6 = −12.
    assert_eq!(g.place(B2), Some(Place::Third));
    assert_eq!(g.place(A3), Some(Place::Fourth));
    assert_eq!(g.place(B1), Some(Place::SecondLast), "2 cards left");
    assert_eq!(g.place(B3), Some(Place::Last), "3 cards left");
    assert_eq!(g.score(), Some((Score { a: 12, b: -12 }, Outcome::Places)));
    assert!(matches!(ev.pop(), Some(Event::GameOver { .. })));
    refused(&mut g, A1, Action::AskCount, "game_over");
}

/// **[decision]** `fill_places`: with `turn_order` the seats left take the places in turn order
/// from the seat after the last to act (B3 before B1), whatever their cards.
#[test]
fn fill_places_option() {
    let mut ruleset = rules::gouji::Ruleset::zaozhuang_2017();
    ruleset.fill_places = rules::gouji::FillOrder::TurnOrder;
    let (g, _) = dian_gong_game(ruleset);
    assert_eq!(g.place(B3), Some(Place::SecondLast));
    assert_eq!(g.place(B1), Some(Place::Last));
}

/// **[decision]** `burn_offer_order`: with `turn_order` everyone is asked in turn order from the
/// 对头.
#[test]
fn burn_offer_order_option() {
    let mut ruleset = rules::gouji::Ruleset::zaozhuang_2017();
    ruleset.burn_offer_order = rules::gouji::BurnOfferOrder::TurnOrder;
    let mut g = rules::gouji::Game::new(
        &gouji_support::deal(["SK HK S4", "S5 S6", "S7 S8", "D5 D6", "C5 C6", "H5 H6"]),
        ruleset,
    );
    run(
        &mut g,
        &[
            (A1, play("SK HK")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
        ],
    );
    assert_eq!(
        *g.phase(),
        Phase::Offer {
            seat: A3,
            queue: vec![B3, B1, A2]
        }
    );
}

/// 无头: once A3 is out, B1 (A3's 对头) beats anything freely and its sets bind nobody.
#[test]
fn headless_players_beat_freely() {
    let mut g = game([
        "S9 H9 D9 S4 S5",
        "S5 S6 SA HA C4",
        "S7 S8 S6",
        "D4 D5 D6",
        "S10 H10 D10",
        "C5 C6 SK HK C7",
    ]);
    run(
        &mut g,
        &[
            (A1, play("S9 H9 D9")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (A3, play("S10 H10 D10")),
            (B3, Action::Pass),
            (A1, Action::Pass),
            (B1, Action::Pass),
        ],
    );
    let ev = run(&mut g, &[(B3, play("SK HK"))]);
    assert!(has(
        &ev,
        &Event::Led {
            seat: B3,
            cards: cards("SK HK"),
            gouji: true
        }
    ));
    refused(&mut g, A1, play("S4 S5"), "mixed_ranks");
    run(&mut g, &[(A1, Action::Pass)]);
    // B1, B3's teammate, is 无头: it may beat B3's 级牌, and its A A is no 级牌.
    let ev = run(&mut g, &[(B1, play("SA HA"))]);
    assert!(has(
        &ev,
        &Event::Beat {
            seat: B1,
            cards: cards("SA HA"),
            gouji: false,
            unburn: false
        }
    ));
    assert!(
        has(&ev, &Event::Opened { seat: B3 }),
        "not beaten by B3's 对头"
    );
    // B1's A A meets the thresholds and its 对头 can never beat it: B1 opens too.
    assert!(has(&ev, &Event::Opened { seat: B1 }));
    // Nothing binds A2 now: A2 may answer freely (here it passes).
    assert_eq!(*g.phase(), Phase::Respond(A2));
}

/// 联邦烧牌优先: a 无头 seat takes its place in the offer order like anyone. B1 is 无头 (A3 is
/// out) and holds `BJ S6 S6`; it passed A1's `C7`; A2 beats with `S2` (a 级牌); B2 passes, B3
/// (A2's 对头) passes it: the burn goes to B3's teammates B1, B2, then A2's teammate A1. B1
/// burns with the small joker and the burn stands.
#[test]
fn a_headless_seat_is_offered_the_burn_in_its_place() {
    let mut g = game([
        "S4 C8 C7 D4",
        "BJ S6 S6",
        "S2 D5 D6",
        "D7 D8",
        "S5",
        "C5 H9 H10",
    ]);
    run(
        &mut g,
        &[
            (A1, play("S4")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (A3, play("S5")),
            (B3, Action::Pass),
            (A1, Action::Pass),
            (B1, Action::Pass),
            // 接风: B3 leads; A1 wins the trick.
            (B3, play("C5")),
            (A1, play("C8")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (B3, Action::Pass),
        ],
    );
    assert!(!g.has_head(B1));
    run(
        &mut g,
        &[
            (A1, play("C7")),
            (B1, Action::Pass),
            (A2, play("S2")),
            (B2, Action::Pass),
        ],
    );
    let ev = run(&mut g, &[(B3, Action::Pass)]);
    assert!(has(
        &ev,
        &Event::Passed {
            seat: B3,
            conceded: true
        }
    ));
    assert_eq!(offered(&ev), vec![B1]);
    assert_eq!(
        *g.phase(),
        Phase::Offer {
            seat: B1,
            queue: vec![B2, A1]
        }
    );
    // B1 passed in this trick: burn or decline, no free beat.
    let v = g.view(Viewer::Seat(B1.index()));
    assert!(v.burn_offer && !v.can_pass && !v.can_yield);
    assert_eq!(
        g.legal_actions(B1.index()),
        vec![Action::Decline, burn("BJ")]
    );
    refused(&mut g, B1, play("BJ"), "burn_offer_pending");
    let ev = run(&mut g, &[(B1, burn("BJ"))]);
    assert!(has(
        &ev,
        &Event::Burned {
            seat: B1,
            cards: cards("BJ"),
            gouji: false,
            counter: false
        }
    ));
    let ev = run(&mut g, &[(A2, Action::Pass), (A1, Action::Pass)]);
    assert!(has(&ev, &Event::BurnStood { seat: B1 }));
    assert_eq!(*g.phase(), Phase::Lead(B1));
}

/// A 无头 seat that has not passed in the trick is asked in its place too, and the offer is its
/// turn: it may burn, decline, or beat the 级牌 by normal play (无头: nothing binds it). A2
/// leads `K K`; B3 (A2's 对头) passes it before B1 has acted; B1 is asked first and beats
/// freely with `A A` (which would fail the sustain test as a burn).
#[test]
fn a_headless_seat_that_has_not_passed_may_beat_in_its_offer() {
    let mut g = game([
        "S9 H9 D9 S4 S5",
        "S5 S6 SA HA C4",
        "S7 S8 SK HK C8",
        "D4 D5 D6",
        "S10 H10 D10",
        "C5 C6 C7 C10",
    ]);
    run(
        &mut g,
        &[
            (A1, play("S9 H9 D9")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (A3, play("S10 H10 D10")),
            (B3, Action::Pass),
            (A1, Action::Pass),
            (B1, Action::Pass),
            (B3, play("C5")),
            (A1, Action::Pass),
            (B1, Action::Pass),
            (A2, play("S7")),
            (B2, Action::Pass),
            (B3, Action::Pass),
        ],
    );
    run(&mut g, &[(A2, play("SK HK")), (B2, Action::Pass)]);
    assert_eq!(*g.phase(), Phase::Respond(B3));
    let ev = run(&mut g, &[(B3, Action::Pass)]);
    assert!(has(&ev, &Event::Opened { seat: A2 }));
    assert_eq!(offered(&ev), vec![B1]);
    assert_eq!(
        g.view(Viewer::Seat(B1.index())).prompt,
        Some(rules::gouji::Prompt::BurnOffer {
            queue: vec![B2, A1],
            may_beat: true
        })
    );
    let legal = g.legal_actions(B1.index());
    assert!(legal.contains(&play("SA HA")) && !legal.contains(&burn("SA HA")));
    refused(&mut g, B1, burn("SA HA"), "burn_not_sustainable");
    let ev = run(&mut g, &[(B1, play("SA HA"))]);
    assert!(has(
        &ev,
        &Event::Beat {
            seat: B1,
            cards: cards("SA HA"),
            gouji: false,
            unburn: false
        }
    ));
    // The offers are over; the trick goes on from B1 with the seats that have not passed.
    assert_eq!(*g.phase(), Phase::Respond(A2));
}

fn dian_gong_game(ruleset: rules::gouji::Ruleset) -> (rules::gouji::Game, Vec<Event>) {
    let mut g = rules::gouji::Game::new(
        &gouji_support::deal(["SK HK S4 S6", "H9 HJ", "S7", "S8", "S2 S5 SJ", "C9 C10 CQ"]),
        ruleset,
    );
    let ev = run(
        &mut g,
        &[
            (A1, play("SK HK")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (B3, Action::Decline),
            (B1, Action::Decline),
            (A2, Action::Decline),
            (A3, Action::Decline),
            (A1, play("S4")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (A3, play("S2")),
            (B3, Action::Pass),
            (A1, Action::Pass),
            // B1 had passed; A3's 2 is a 级牌, so B1 may act again, and declines.
            (B1, Action::Pass),
            (B2, Action::Decline),
            (B3, Action::Decline),
            (A1, Action::Decline),
            (A2, Action::Decline),
            (A3, play("S5")),
            (B3, Action::Pass),
            (A1, play("S6")),
            (B1, Action::Pass),
            (A2, play("S7")),
            (B2, play("S8")),
            (A3, play("SJ")),
        ],
    );
    (g, ev)
}

/// The same game with 点贡 per 点 player: the option changes the score.
#[test]
fn dian_gong_option() {
    use rules::gouji::{Place, Ruleset};
    let mut places = [None; 6];
    for (s, p) in [
        (A1, Place::First),
        (A2, Place::Second),
        (B2, Place::Third),
        (A3, Place::Fourth),
        (B1, Place::SecondLast),
        (B3, Place::Last),
    ] {
        places[s.index()] = Some(p);
    }
    let mut marked = [false; 6];
    for s in [B1, B2, B3] {
        marked[s.index()] = true;
    }
    let mut scoring = Ruleset::zaozhuang_2017().scoring;
    let tally = rules::gouji::score::Tally {
        places,
        marked,
        ..Default::default()
    };
    let (s, _) = rules::gouji::score::score(&tally, &scoring);
    assert_eq!(s, Score { a: 12, b: -12 });
    scoring.dian_gong_once_per_team = false;
    let (s, _) = rules::gouji::score::score(&tally, &scoring);
    assert_eq!(s, Score { a: 24, b: -24 });
}

/// Runs the 无头 开点 game: A3 goes out first, so B1 is 无头; B1 then beats with `K K`, a set
/// that meets the 级牌 thresholds but binds nobody; A2 goes out 二科 in the same trick.
fn headless_opening_game(ruleset: rules::gouji::Ruleset) -> (rules::gouji::Game, Vec<Event>) {
    let mut g = rules::gouji::Game::new(
        &gouji_support::deal([
            "S2 S4 S6",
            "SK HK S7 S8",
            "SA HA",
            "D2 D4 D9",
            "S5",
            "H2 C4 H4 C7",
        ]),
        ruleset,
    );
    let declined = |seats: &[Seat]| -> Vec<(Seat, Action)> {
        seats.iter().map(|&s| (s, Action::Decline)).collect()
    };
    let mut ev = Vec::new();
    // A1 opens with `2`, B2 with `2`, B3 with `2`: each passed by its 对头.
    ev.extend(run(
        &mut g,
        &[
            (A1, play("S2")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
        ],
    ));
    ev.extend(run(&mut g, &declined(&[B3, B1, A2, A3])));
    ev.extend(run(
        &mut g,
        &[
            (A1, play("S4")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, play("D2")),
            (A3, Action::Pass),
            (B3, Action::Pass),
            (A1, Action::Pass),
        ],
    ));
    ev.extend(run(&mut g, &declined(&[A2, A3, B3, B1])));
    // A3 goes out first (头科): B1, A3's 对头, is 无头.
    ev.extend(run(
        &mut g,
        &[
            (B2, play("D4")),
            (A3, play("S5")),
            (B3, Action::Pass),
            (A1, Action::Pass),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
            (B3, play("H2")),
            (A1, Action::Pass),
            (B1, Action::Pass),
            (A2, Action::Pass),
        ],
    ));
    ev.extend(run(&mut g, &declined(&[A1, B1, B2])));
    // B1 beats with `K K`; A2 goes out (二科) with `A A`: 四户乱缠.
    ev.extend(run(
        &mut g,
        &[
            (B3, play("C4 H4")),
            (A1, Action::Pass),
            (B1, play("SK HK")),
            (A2, play("SA HA")),
        ],
    ));
    // The rest: B2 三科, B3 四科, A1 二落, B1 大落.
    ev.extend(run(
        &mut g,
        &[
            (B2, Action::Pass),
            (B3, Action::Pass),
            (A1, Action::Pass),
            (B1, Action::Pass),
            (B2, play("D9")),
            (B3, Action::Pass),
            (A1, Action::Pass),
            (B1, Action::Pass),
            (B3, play("C7")),
            (A1, Action::Pass),
            (B1, Action::Pass),
            (A1, play("S6")),
        ],
    ));
    assert!(g.is_over());
    (g, ev)
}

/// 两科带点 and 无头: 「只要有一手够级牌没有被对头灭掉…视为开点」. **[decision]**
/// `headless_sets_open: true`: a 无头 player's set that meets the 级牌 thresholds opens them,
/// since their 对头 is out and can never beat it (it still binds nobody). B1, 无头 once A3 is
/// 头科, beats with `K K` and opens; nobody is 点 when A2 goes out 二科, and the score is the
/// places alone, 4 : −4. With `false` a 无头 player can never open: B1 is 点 and team B owes
/// 点贡, 10 : −10.
#[test]
fn a_headless_player_opens_with_a_gouji_sized_set() {
    let (g, ev) = headless_opening_game(rules::gouji::Ruleset::zaozhuang_2017());
    for s in [A1, B2, B3, B1] {
        assert!(g.opened(s), "{s}");
    }
    assert!(has(
        &ev,
        &Event::Beat {
            seat: B1,
            cards: cards("SK HK"),
            gouji: false,
            unburn: false
        }
    ));
    assert!(!ev.iter().any(|e| matches!(e, Event::Marked { .. })));
    let places = [
        (A3, Place::First),
        (A2, Place::Second),
        (B2, Place::Third),
        (B3, Place::Fourth),
        (A1, Place::SecondLast),
        (B1, Place::Last),
    ];
    for (s, p) in places {
        assert_eq!(g.place(s), Some(p), "{s}");
    }
    assert_eq!(g.score(), Some((Score { a: 4, b: -4 }, Outcome::Places)));

    let mut ruleset = rules::gouji::Ruleset::zaozhuang_2017();
    ruleset.headless_sets_open = false;
    let (g, ev) = headless_opening_game(ruleset);
    assert!(!g.opened(B1));
    assert!(has(&ev, &Event::Marked { seat: B1 }));
    assert_eq!(g.score(), Some((Score { a: 10, b: -10 }, Outcome::Places)));
}

/// Worked example 5: B2 leads `J J J J`; A1 declines: B2 has opened.
#[test]
fn example_5_opening() {
    let mut g = game([
        "S4 S6 S8",
        "H9 H10",
        "S7 S9",
        "S5 SJ HJ DJ CJ C4",
        "C5 C6",
        "D5 D6",
    ]);
    run(
        &mut g,
        &[
            (A1, play("S4")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, play("S5")),
            (A3, Action::Pass),
            (B3, Action::Pass),
            (A1, Action::Pass),
        ],
    );
    assert_eq!(*g.phase(), Phase::Lead(B2));
    run(
        &mut g,
        &[
            (B2, play("SJ HJ DJ CJ")),
            (A3, Action::Pass),
            (B3, Action::Pass),
        ],
    );
    assert!(!g.opened(B2));
    let ev = run(&mut g, &[(A1, Action::Pass)]);
    assert!(has(
        &ev,
        &Event::Passed {
            seat: A1,
            conceded: true
        }
    ));
    assert!(has(&ev, &Event::Opened { seat: B2 }));
    assert!(g.opened(B2));
    assert_eq!(offered(&ev), vec![A2]);
}

/// 开点 and the burn: 「没有被对头灭掉(包括被烧牌)」 reads two ways. **[decision]**
/// `burned_gouji_opens: true` (worked example 5): a burned 级牌 counts as not beaten by the
/// 对头, so A1 opens as soon as B2 passes its `K K`, though B3 burns it. With `false`, a burn
/// beats it too: A1 does not open; B3's burning `A A`, passed by A2 and burned by nobody
/// (every offer declined), opens B3.
#[test]
fn opening_when_the_gouji_set_is_burned() {
    let hands = [
        "SK HK S4 S5",
        "S6 H6 C9",
        "S8 H8 D8 D10",
        "D5 D6 D7",
        "C4 C5 C6",
        "SA HA BJ S7 H7 S9",
    ];
    let passed_by_b2 = [
        (A1, play("SK HK")),
        (B1, Action::Pass),
        (A2, Action::Pass),
        (B2, Action::Pass),
    ];
    let burn_and_stand = [
        (B3, burn("SA HA")),
        (A1, Action::Pass),
        (A2, Action::Pass),
        (A3, Action::Decline),
        (A1, Action::Decline),
        (B1, Action::Decline),
        (B2, Action::Decline),
    ];
    let mut g = game(hands);
    let ev = run(&mut g, &passed_by_b2);
    assert!(has(&ev, &Event::Opened { seat: A1 }));
    let ev = run(&mut g, &burn_and_stand);
    assert!(has(&ev, &Event::BurnStood { seat: B3 }));
    assert!(g.opened(A1) && g.opened(B3));

    let mut ruleset = rules::gouji::Ruleset::zaozhuang_2017();
    ruleset.burned_gouji_opens = false;
    let mut g = rules::gouji::Game::new(&gouji_support::deal(hands), ruleset);
    let ev = run(&mut g, &passed_by_b2);
    assert!(!has(&ev, &Event::Opened { seat: A1 }));
    let ev = run(&mut g, &burn_and_stand[..6]);
    assert!(!has(&ev, &Event::Opened { seat: B3 }), "offers still open");
    let ev = run(&mut g, &burn_and_stand[6..]);
    assert_eq!(
        ev[..2],
        [Event::BurnDeclined { seat: B2 }, Event::Opened { seat: B3 }]
    );
    assert!(has(&ev, &Event::BurnStood { seat: B3 }));
    assert!(!g.opened(A1) && g.opened(B3));
}

/// Bad input gets a typed error and changes nothing.
#[test]
fn bad_input_is_refused_without_change() {
    let mut g = game(["S4 S5 H5 S7", "S6 S8", "S9 S10", "SJ SQ", "SK SA", "C5 C6"]);
    refused(&mut g, B1, play("S6"), "not_your_turn");
    refused(&mut g, A1, play("S4 S5"), "mixed_ranks");
    refused(&mut g, A1, play("SA"), "cards_not_held");
    refused(&mut g, A1, play("S5 S5 H5"), "cards_not_held");
    refused(&mut g, A1, play(""), "empty_set");
    refused(&mut g, A1, Action::Pass, "must_lead");
    refused(&mut g, A1, burn("S4"), "no_burn_right");
    refused(&mut g, A1, Action::Decline, "no_burn_right");
    refused(&mut g, A1, Action::Yield, "only_opposite_may_yield");
    refused(&mut g, B1, Action::Timeout, "not_your_turn");
    run(&mut g, &[(A1, play("S5 H5"))]);
    refused(&mut g, B1, play("S6"), "count_mismatch");
    refused(&mut g, B1, play("S3"), "card_not_in_game");
    assert!(Engine::apply(&mut g, 9, Actor::Player, Action::Pass).is_err());
    // Every code has both messages.
    for code in rules::gouji::RuleError::CODES {
        assert!(!code.is_empty());
    }
}

/// 比赛限时: 「每局满10分钟后，每套牌的出牌时限为20秒，超时裁判予以警告，超过5秒仍不出牌者视为
/// 过牌」. No limit for ten minutes; then 20 s a set. The clock's first expiry warns the seat
/// and changes nothing else, and the move then has 5 s; the second passes for a responder,
/// declines a burn offer, or leads the smallest legal set. The next move has 20 s again.
#[test]
fn the_clock_warns_at_twenty_seconds_and_passes_five_later() {
    use std::time::Duration;
    let after_ten_minutes = Duration::from_secs(600);
    let mut g = game([
        "SK HK S9 S4 S5",
        "DA CA S6 S7",
        "S2 H2 S8 H8",
        "D5 D6 D7 D8",
        "C4 C5 C6 C7",
        "SA HA BJ RJ S7 S8 S9",
    ]);
    assert_eq!(g.timeout_action(), Action::Timeout);
    assert_eq!(g.move_limit(Duration::from_secs(599)), None);
    assert_eq!(
        g.move_limit(after_ten_minutes),
        Some(Duration::from_secs(20))
    );
    refused(&mut g, B1, Action::Timeout, "not_your_turn");
    // 20 s: the warning, seen by everyone; A1 still leads, with 5 s.
    let before = g.clone();
    let ev = run(&mut g, &[(A1, Action::Timeout)]);
    assert_eq!(
        ev,
        vec![Event::Warned {
            seat: A1,
            grace_seconds: 5
        }]
    );
    assert_eq!(*g.phase(), Phase::Lead(A1));
    assert_eq!(g.hand(A1), before.hand(A1));
    assert!(g.warned() && g.view(Viewer::Spectator).warned);
    assert_eq!(
        g.move_limit(after_ten_minutes),
        Some(Duration::from_secs(5))
    );
    // 25 s: the clock leads A1's smallest set.
    let ev = run(&mut g, &[(A1, Action::Timeout)]);
    assert_eq!(ev[0], Event::TimedOut { seat: A1 });
    assert!(has(
        &ev,
        &Event::Led {
            seat: A1,
            cards: cards("S4"),
            gouji: false
        }
    ));
    // B1's move has its 20 s again.
    assert!(!g.warned());
    assert_eq!(
        g.move_limit(after_ten_minutes),
        Some(Duration::from_secs(20))
    );
    // A warned seat that moves in its grace is not passed for: the next move starts afresh.
    run(&mut g, &[(B1, Action::Timeout)]);
    assert_eq!(
        g.move_limit(after_ten_minutes),
        Some(Duration::from_secs(5))
    );
    run(&mut g, &[(B1, play("S6"))]);
    assert!(!g.warned());
    let ev = run(&mut g, &[(A2, Action::Timeout), (A2, Action::Timeout)]);
    assert!(has(
        &ev,
        &Event::Passed {
            seat: A2,
            conceded: false
        }
    ));
    // An offered seat declines.
    let mut g = game([
        "SK HK S4 S5",
        "DA CA S6 S7",
        "S2 H2 S8 H8",
        "D5 D6 D7 D8",
        "C4 C5 C6 C7",
        "SA HA BJ RJ S7 S8 S9",
    ]);
    run(
        &mut g,
        &[
            (A1, play("SK HK")),
            (B1, Action::Pass),
            (A2, Action::Pass),
            (B2, Action::Pass),
        ],
    );
    let ev = run(&mut g, &[(B3, Action::Timeout)]);
    assert!(!has(&ev, &Event::BurnDeclined { seat: B3 }));
    let ev = run(&mut g, &[(B3, Action::Timeout)]);
    assert!(has(&ev, &Event::BurnDeclined { seat: B3 }));
    // With no grace the first expiry passes at once.
    let mut ruleset = rules::gouji::Ruleset::zaozhuang_2017();
    ruleset.grace_seconds = 0;
    let mut g = rules::gouji::Game::new(
        &gouji_support::deal(["S4 S5", "S6", "S7", "S8", "S9", "S10"]),
        ruleset,
    );
    let ev = run(&mut g, &[(A1, Action::Timeout)]);
    assert_eq!(ev[0], Event::TimedOut { seat: A1 });
}

/// 问牌: exact at 10 cards or fewer, else "more than 10".
#[test]
fn asking_the_count() {
    use rules::gouji::CardCount;
    let mut g = game([
        "S4 S5",
        "S6",
        "S7",
        "S8 S8 S8 S8 S9 S9 S9 S9 S10 S10 S10",
        "S9",
        "C5 C6 C7 C8 C9 C10 CJ CQ CK CA",
    ]);
    let ev = run(&mut g, &[(A1, Action::AskCount), (A2, Action::AskCount)]);
    assert_eq!(
        ev,
        vec![
            Event::CountAnswered {
                asker: A1,
                about: B2,
                answer: CardCount::MoreThan(10)
            },
            Event::CountAnswered {
                asker: A2,
                about: B3,
                answer: CardCount::Exact(10)
            },
        ]
    );
    // Asking is not a move: A1 still leads.
    assert_eq!(*g.phase(), Phase::Lead(A1));
}

/// 犯规与判罚: a warning is logged; a deduction names its points, 2 (扣该队2分, the default
/// when a ruling names none) or 4 (扣该队4分), on top of the score; any other amount is refused.
#[test]
fn referee_rulings_and_deductions() {
    use rules::gouji::{Offence, Ruling};
    let mut g = game(["S4", "S5 S6", "S7", "D5 D6", "S8", "C5 C6"]);
    let ruling = |ruling, offence, points| Action::Ruling {
        ruling,
        offence,
        points,
    };
    let ev = run(
        &mut g,
        &[(B1, ruling(Ruling::Warning, Offence::Signals, None))],
    );
    assert_eq!(
        ev,
        vec![Event::Ruled {
            seat: B1,
            ruling: Ruling::Warning,
            offence: Offence::Signals,
            points: None,
        }]
    );
    // No points on a warning; a deduction is 2 or 4, nothing else.
    let err = refused(
        &mut g,
        B1,
        ruling(Ruling::Warning, Offence::Signals, Some(2)),
        "bad_ruling_points",
    );
    assert!(rules::Explain::zh(&err).contains("警告和判负不带分数"));
    let err = refused(
        &mut g,
        B1,
        ruling(Ruling::Deduction, Offence::Signals, Some(3)),
        "bad_ruling_points",
    );
    assert!(rules::Explain::zh(&err).contains("2 或 4"));
    assert_eq!(
        rules::Explain::en(&err),
        "a deduction is 2 or 4 points, not 3"
    );
    // A deduction without points (an old log) is 2.
    let ev = run(
        &mut g,
        &[(B1, ruling(Ruling::Deduction, Offence::LeavingSeat, None))],
    );
    assert!(matches!(
        ev[0],
        Event::Ruled {
            points: Some(2),
            ..
        }
    ));
    assert_eq!(g.view(Viewer::Spectator).deducted, [0, 2]);
    // The team penalty: 4.
    run(
        &mut g,
        &[(A1, ruling(Ruling::Deduction, Offence::Other, Some(4)))],
    );
    assert_eq!(g.deducted(), [4, 2]);
    // 串三户 +12 / −12, then the deductions: A 12 − 4, B −12 − 2.
    run(
        &mut g,
        &[
            (A1, play("S4")),
            (B1, Action::Pass),
            (A2, play("S7")),
            (B2, Action::Pass),
            (A3, play("S8")),
        ],
    );
    assert_eq!(g.score().unwrap().0, Score { a: 8, b: -14 });
    // After the end a deduction announces the score again.
    let ev = run(
        &mut g,
        &[(B2, ruling(Ruling::Deduction, Offence::Other, Some(2)))],
    );
    assert!(matches!(
        ev.last(),
        Some(Event::GameOver {
            score: Score { a: 8, b: -16 },
            ..
        })
    ));
}

/// 凡弄虚作假…该局比赛均记为该队0:12告负. A forfeit replaces the game's score and must never
/// be better for the offender than the worst honest result: on the zero-sum scale the worst
/// honest result is −12 (swept by 串三户), so a forfeit is −12 for the offender and +12 for the
/// other team, never 0 : 12. Deductions made before it still count.
#[test]
fn a_forfeit_is_never_better_than_being_swept() {
    use rules::gouji::{Offence, Ruling};
    let swept = {
        let mut g = game(["S4", "S5 S6", "S7", "D5 D6", "S8", "C5 C6"]);
        run(
            &mut g,
            &[
                (A1, play("S4")),
                (B1, Action::Pass),
                (A2, play("S7")),
                (B2, Action::Pass),
                (A3, play("S8")),
            ],
        );
        g.score().unwrap()
    };
    assert_eq!(swept.0, Score { a: 12, b: -12 });
    let mut g = game(["S4", "S5 S6", "S7", "D5 D6", "S8", "C5 C6"]);
    let forfeit = |offence| Action::Ruling {
        ruling: Ruling::Forfeit,
        offence,
        points: None,
    };
    run(
        &mut g,
        &[(
            B1,
            Action::Ruling {
                ruling: Ruling::Deduction,
                offence: Offence::Signals,
                points: None,
            },
        )],
    );
    let ev = run(&mut g, &[(B3, forfeit(Offence::Cheating))]);
    assert_eq!(
        ev.last(),
        Some(&Event::GameOver {
            places: [None; 6],
            score: Score { a: 12, b: -14 },
            outcome: Outcome::Forfeit {
                team: rules::gouji::score::TeamName::B
            },
        })
    );
    assert!(g.score().unwrap().0.b <= swept.0.b);
    refused(&mut g, A2, forfeit(Offence::Cheating), "already_forfeited");
    refused(&mut g, A1, play("S4"), "game_over");
}

/// Views: a seat sees its own hand only; spectators none; referees all. The seat's legal actions
/// come from its view alone.
#[test]
fn views_show_what_the_rules_allow() {
    use rules::gouji::{CardCount, Prompt};
    let mut g = game([
        "SK HK S4 S5",
        "DA CA S6 S7",
        "S2 H2 S8 H8",
        "D5 D6 D7 D8 D9 D10 DJ DQ DK DA S9 S10",
        "C4 C5 C6 C7",
        "SA HA BJ RJ S7 S8 S9",
    ]);
    run(&mut g, &[(A1, play("SK HK"))]);
    let v = g.view(Viewer::Seat(B1.index()));
    assert_eq!(v.hand, Some(cards("S6 S7 DA CA")));
    assert_eq!(v.hands, None);
    assert_eq!(v.players[B2.index()].cards, CardCount::MoreThan(10));
    assert_eq!(v.players[A1.index()].cards, CardCount::Exact(2));
    // B2 sees its own twelve exactly, from its hand; the players' list answers as for anyone.
    let own = g.view(Viewer::Seat(B2.index()));
    assert_eq!(own.players, v.players);
    assert_eq!(own.count(B2), CardCount::Exact(12));
    assert_eq!(v.count(B2), CardCount::MoreThan(10));
    assert_eq!(v.count(B1), CardCount::Exact(4));
    assert_eq!(v.turn, Some(B1));
    assert_eq!(
        v.prompt,
        Some(Prompt::Respond {
            may_beat: false,
            may_yield: false
        })
    );
    let top = v.top.as_ref().unwrap();
    assert!(top.gouji && top.owner == A1);
    let s = g.view(Viewer::Spectator);
    assert!(s.hand.is_none() && s.hands.is_none());
    assert_eq!(s.players, v.players);
    assert_eq!(s.count(B2), CardCount::MoreThan(10));
    let r = g.view(Viewer::Referee);
    assert_eq!(r.players, v.players);
    assert_eq!(r.count(B2), CardCount::Exact(12));
    assert_eq!(r.hands.as_ref().unwrap()[B3.index()], g.hand(B3).cards());
    // The view survives the wire, and legal actions come from it alone.
    let json = serde_json::to_string(&v).unwrap();
    let back: rules::gouji::View = serde_json::from_str(&json).unwrap();
    assert_eq!(back, v);
    assert_eq!(
        <rules::gouji::Game as Engine>::legal_from_view(&back),
        vec![Action::Pass]
    );
    // A spectator has no legal actions.
    assert!(<rules::gouji::Game as Engine>::legal_from_view(&s).is_empty());
}

/// What the page shows comes from the engine, for the viewing seat only: whether it may pass,
/// yield or is asked to burn, and the 级牌 thresholds of its own sets (`None` once its sets bind
/// nobody: 无头, 四户乱缠).
#[test]
fn the_view_carries_the_seats_options_and_thresholds() {
    use rules::gouji::GoujiThresholds;
    let mut g = game([
        "SK HK S4 S5",
        "DA CA S6 S7",
        "S2 H2 S8 H8",
        "D5 D6 D7 D8",
        "C4 C5 C6 C7",
        "SA HA BJ RJ S7 S8 S9",
    ]);
    let thresholds = GoujiThresholds {
        ten: 5,
        jack: 4,
        queen: 3,
        king: 2,
        ace: 2,
        two: 1,
        last_set: true,
    };
    let a1 = g.view(Viewer::Seat(A1.index()));
    assert!(!a1.can_pass && !a1.can_yield && !a1.burn_offer && !a1.warned);
    assert_eq!(a1.gouji_thresholds, Some(thresholds.clone()));
    run(&mut g, &[(A1, play("SK HK")), (B1, Action::Pass)]);
    // A2 may pass; B2, not to act yet, may do nothing now.
    let a2 = g.view(Viewer::Seat(A2.index()));
    assert!(a2.can_pass && !a2.can_yield && !a2.burn_offer);
    let b2 = g.view(Viewer::Seat(B2.index()));
    assert!(!b2.can_pass && !b2.can_yield);
    run(&mut g, &[(A2, Action::Pass)]);
    let b2 = g.view(Viewer::Seat(B2.index()));
    assert!(b2.can_pass && b2.can_yield);
    run(&mut g, &[(B2, Action::Pass)]);
    let b3 = g.view(Viewer::Seat(B3.index()));
    assert!(b3.burn_offer && !b3.can_pass && !b3.can_yield);
    // Spectators and referees get nothing of the kind.
    for viewer in [Viewer::Spectator, Viewer::Referee] {
        let v = g.view(viewer);
        assert!(!v.can_pass && !v.can_yield && !v.burn_offer);
        assert_eq!(v.gouji_thresholds, None);
    }
    // With the other reading of 不设底级, a set emptying the hand is no 级牌.
    let mut ruleset = rules::gouji::Ruleset::zaozhuang_2017();
    ruleset.last_set_is_gouji = false;
    let g = rules::gouji::Game::new(&gouji_support::deal(["S4"; 6]), ruleset);
    let v = g.view(Viewer::Seat(A1.index()));
    assert_eq!(
        v.gouji_thresholds,
        Some(GoujiThresholds {
            last_set: false,
            ..thresholds
        })
    );
    // 无头 and 四户乱缠: no set binds.
    let mut g = game(["S4", "S9 S10", "S7", "S5 S6", "S8 D4", "H5 H6"]);
    run(&mut g, &[(A1, play("S4"))]);
    assert_eq!(g.view(Viewer::Seat(B2.index())).gouji_thresholds, None);
    assert!(g.view(Viewer::Seat(B1.index())).gouji_thresholds.is_some());
    run(&mut g, &[(B1, Action::Pass), (A2, play("S7"))]);
    assert!(g.free_play());
    assert_eq!(g.view(Viewer::Seat(B1.index())).gouji_thresholds, None);
}

/// Actions and events on the wire.
#[test]
fn wire_forms() {
    let a: Action = serde_json::from_str(r#"{"type":"play","cards":["SK","hk"]}"#).unwrap();
    assert_eq!(a, play("SK HK"));
    let a: Action = serde_json::from_str(r#"{"type":"burn","cards":["SA","HA"]}"#).unwrap();
    assert_eq!(a, burn("SA HA"));
    for (json, action) in [
        (r#"{"type":"pass"}"#, Action::Pass),
        (r#"{"type":"yield"}"#, Action::Yield),
        (r#"{"type":"decline"}"#, Action::Decline),
        (r#"{"type":"ask_count"}"#, Action::AskCount),
        (r#"{"type":"timeout"}"#, Action::Timeout),
    ] {
        assert_eq!(serde_json::from_str::<Action>(json).unwrap(), action);
        assert_eq!(serde_json::to_string(&action).unwrap(), json);
    }
    let r: Action =
        serde_json::from_str(r#"{"type":"ruling","ruling":"deduction","offence":"signals"}"#)
            .unwrap();
    assert!(matches!(r, Action::Ruling { .. }));
    let e = serde_json::to_value(Event::Passed {
        seat: B2,
        conceded: true,
    })
    .unwrap();
    assert_eq!(
        e,
        serde_json::json!({"type":"passed","seat":"B2","conceded":true})
    );
    let old: Event = serde_json::from_str(r#"{"type":"passed","seat":"B2","kou":true}"#).unwrap();
    assert_eq!(
        old,
        Event::Passed {
            seat: B2,
            conceded: true
        }
    );
}

/// A hand rich in 2s and jokers has more distinct leads than the cap: the list is cut at
/// `LEGAL_CAP`, smallest first, and still holds the smallest legal set.
#[test]
fn legal_actions_are_capped_smallest_first() {
    use rules::gouji::legal::LEGAL_CAP;
    let twos = "S2 H2 D2 C2 ".repeat(6);
    let jokers = "BJ RJ ".repeat(6);
    let naturals = "S4 H4 S5 H5 S6 H6 S7 H7 S8 H8 S9 H9 S10 H10";
    let a1 = format!("{twos}{jokers}{naturals}");
    let g = game([&a1, "D4", "D5", "D6", "D7", "D8"]);
    assert_eq!(g.hand(A1).len(), 50);
    let legal = g.legal_actions(A1.index());
    assert_eq!(legal.len(), LEGAL_CAP);
    assert_eq!(legal[0], play("S4"));
    // Without the cap there would be 7 ranks × 2 × 25 × 7 × 7 + 24 × 49 + 48 leads.
    let mut all = Vec::new();
    rules::gouji::legal::lead_shapes(&rules::gouji::set::Counts::of(g.hand(A1)), false, &mut all);
    assert_eq!(all.len(), 7 * 2 * 25 * 7 * 7 + 24 * 49 + 48);
}
