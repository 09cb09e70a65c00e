//! 普通 (club) 够级, heuristic by heuristic, on hand-built games: each position is dealt with
//! `Game::new`, played to the decision with the engine's own actions, and the bot is given
//! only the seat's view.
//!
//! Turn order A1, B1, A2, B2, A3, B3; 对头: A1↔B2, B1↔A3, A2↔B3. A1 leads.

use std::time::Duration;

use bots::gouji::choose;
use bots::Level;
use rules::cards::{parse_list, Card};
use rules::deal::GoujiDeal;
use rules::gouji::legal::legal_from_view;
use rules::gouji::{Action, Game, Prompt, Ruleset, Seat, View};
use rules::{Actor, Viewer};

use Seat::*;

fn cards(s: &str) -> Vec<Card> {
    parse_list(s).unwrap()
}

/// Enough low cards that nobody looks close to going out.
const FILLER: &str = "S4 H4 D4 C4 S5 H5 D5 C5 S6 H6 D6 C6";

fn game(hands: [&str; 6]) -> Game {
    let deal = GoujiDeal {
        game: 1,
        hands: hands.map(cards),
        order_hash: String::new(),
    };
    Game::new(&deal, Ruleset::zaozhuang_2017())
}

fn act(g: &mut Game, seat: Seat, action: Action) {
    g.apply(seat, Actor::Player, action.clone())
        .unwrap_or_else(|e| panic!("{seat} {action:?}: {e:?}"));
}

fn play(g: &mut Game, seat: Seat, c: &str) {
    act(g, seat, Action::Play { cards: cards(c) });
}

fn pass(g: &mut Game, seats: &[Seat]) {
    for &s in seats {
        act(g, s, Action::Pass);
    }
}

fn view(g: &Game, seat: Seat) -> View {
    View::of(g, Viewer::Seat(seat.index()))
}

fn club(g: &Game, seat: Seat) -> Action {
    let v = view(g, seat);
    assert_eq!(v.turn, Some(seat));
    choose(&v, Level::Club, Duration::ZERO, 0).expect("an action")
}

fn plays(c: &str) -> Action {
    Action::Play { cards: cards(c) }
}

#[test]
fn sheds_small_sets_first_a_whole_rank_at_a_time() {
    let g = game([
        "S4 H4 S7 H7 D7 S8 H8 S9 H9 S10 H10 SJ HJ SQ HQ SK HK S2 BJ S6",
        FILLER,
        FILLER,
        FILLER,
        FILLER,
        FILLER,
    ]);
    assert_eq!(club(&g, A1), plays("S4 H4"));
}

#[test]
fn goes_out_when_the_hand_is_one_set() {
    let g = game(["S9 H9 S2", FILLER, FILLER, FILLER, FILLER, FILLER]);
    assert_eq!(club(&g, A1), plays("S9 H9 S2"));
}

/// B3 holds nothing natural above an 8 but a pair of kings, a 2 and a small joker.
const B3_POWER: &str = "S4 H4 D4 S5 H5 S6 H6 S7 H7 SK HK S2 BJ";

#[test]
fn holds_twos_and_jokers_against_a_small_set_of_another_opponent() {
    // A1's single 8 comes round to B3: A1 is not B3's 对头; a 2 is worth more than the 8.
    let mut g = game([
        "S8 D8 D9 D10 DJ DQ DK DA C7 C8 C9",
        FILLER,
        FILLER,
        FILLER,
        FILLER,
        B3_POWER,
    ]);
    play(&mut g, A1, "S8");
    pass(&mut g, &[B1, A2, B2, A3]);
    assert_eq!(club(&g, B3), Action::Pass);
}

#[test]
fn goes_after_the_opposite() {
    // The same 8, played by A2 (B3's 对头): B3 spends the 2 on it.
    let mut g = game([
        "S7 D8 D9 D10 DJ DQ DK DA C7 C8 C9",
        FILLER,
        "S8 H9 H10 HJ HQ HK HA C10 CJ CQ CK",
        FILLER,
        FILLER,
        B3_POWER,
    ]);
    play(&mut g, A1, "S7");
    pass(&mut g, &[B1]);
    play(&mut g, A2, "S8");
    pass(&mut g, &[B2, A3]);
    assert_eq!(club(&g, B3), plays("S2"));
}

/// B2 holds only low naturals, two 2s and a small joker.
const B2_TWOS: &str = "S4 H4 D4 S5 H5 S6 H6 S7 H7 S8 H8 S2 H2 BJ";

#[test]
fn stops_the_opposites_gouji() {
    // A1's KK is a 级牌: only B2 may beat it, and if B2 passes A1 opens. B2 pays two 2s.
    let mut g = game([
        "SK HK D9 D10 DJ DQ DA C7 C8 C9 C10",
        FILLER,
        FILLER,
        B2_TWOS,
        FILLER,
        FILLER,
    ]);
    play(&mut g, A1, "SK HK");
    pass(&mut g, &[B1, A2]);
    assert_eq!(club(&g, B2), plays("S2 H2"));
}

#[test]
fn keeps_twos_when_the_opposites_set_binds_nobody() {
    // A1's 99 is no 级牌: B2 does not spend its 2s on it.
    let mut g = game([
        "S9 H9 D9 D10 DJ DQ DA C7 C8 C9 C10",
        FILLER,
        FILLER,
        B2_TWOS,
        FILLER,
        FILLER,
    ]);
    play(&mut g, A1, "S9 H9");
    pass(&mut g, &[B1, A2]);
    assert!(!matches!(club(&g, B2), Action::Play { .. }));
}

#[test]
fn yields_to_a_teammate_who_can_go_out() {
    // A1's 88: B2 (its 对头) could beat with 99, but B3 holds exactly two cards: 让.
    let b2 = "S9 H9 S4 H4 D4 S5 H5 S6 H6 S7 H7 C5";
    let mut g = game([
        "S8 H8 D9 D10 DJ DQ DA C7 C8 C9 C10",
        FILLER,
        FILLER,
        b2,
        FILLER,
        "SJ HJ",
    ]);
    play(&mut g, A1, "S8 H8");
    pass(&mut g, &[B1, A2]);
    assert_eq!(club(&g, B2), Action::Yield);
    // With three cards B3 cannot go out on a pair: B2 beats.
    let mut g = game([
        "S8 H8 D9 D10 DJ DQ DA C7 C8 C9 C10",
        FILLER,
        FILLER,
        b2,
        FILLER,
        "SJ HJ DJ",
    ]);
    play(&mut g, A1, "S8 H8");
    pass(&mut g, &[B1, A2]);
    assert_eq!(club(&g, B2), plays("S9 H9"));
}

#[test]
fn never_beats_a_teammate() {
    let mut g = game([
        "S8 D9 D10 DJ DQ DA C7 C8 C9 C10 CJ",
        FILLER,
        "S9 S4 H4 D4 S5 H5 S6 H6 S7 H7 C5",
        FILLER,
        FILLER,
        FILLER,
    ]);
    play(&mut g, A1, "S8");
    pass(&mut g, &[B1]);
    assert_eq!(club(&g, A2), Action::Pass);
}

/// A1 leads a 级牌 (KK); B1 and A2 may not beat it; B2 (the 对头) passes: the burn is offered
/// to B3 first.
fn burn_offer(b3: &str, a2: &str) -> Game {
    let mut g = game([
        "SK HK D9 D10 DJ DQ DA C7 C8 C9 C10",
        FILLER,
        a2,
        FILLER,
        FILLER,
        b3,
    ]);
    play(&mut g, A1, "SK HK");
    pass(&mut g, &[B1, A2, B2]);
    g
}

#[test]
fn burns_only_when_it_can_sustain() {
    // AA would leave four ranks and no joker: not sustainable, so not even legal.
    let g = burn_offer("SA HA S5 S6 S7 S8", FILLER);
    let v = view(&g, B3);
    assert!(matches!(v.prompt, Some(Prompt::BurnOffer { .. })));
    assert_eq!(legal_from_view(&v), vec![Action::Decline]);
    assert_eq!(club(&g, B3), Action::Decline);
    // AA leaving one rank and two jokers: sustainable with a joker to spare, and it pays.
    let g = burn_offer("SA HA S5 BJ RJ", FILLER);
    assert_eq!(
        club(&g, B3),
        Action::Burn {
            cards: cards("SA HA")
        }
    );
    // Sustainable (two jokers for three ranks) but without a spare joker: not worth 大落.
    let g = burn_offer("SA HA S5 S6 S7 BJ BJ", FILLER);
    let legal = legal_from_view(&view(&g, B3));
    assert!(legal.iter().any(|a| matches!(a, Action::Burn { .. })));
    assert_eq!(club(&g, B3), Action::Decline);
}

#[test]
fn never_burns_a_teammates_gouji() {
    let mut g = burn_offer(FILLER, "SA HA S5 BJ RJ");
    act(&mut g, B3, Action::Decline);
    act(&mut g, B1, Action::Decline);
    assert!(legal_from_view(&view(&g, A2))
        .iter()
        .any(|a| matches!(a, Action::Burn { .. })));
    assert_eq!(club(&g, A2), Action::Decline);
}

#[test]
fn a_standing_burner_leads_with_a_joker() {
    // B3 burns A1's KK with AA, the burn stands, and B3 must lead sets with a joker: it puts
    // its small joker on its lowest rank, keeping the big one for the next lead.
    let mut g = burn_offer("SA HA S5 H5 S6 BJ RJ", FILLER);
    let burn = club(&g, B3);
    assert_eq!(
        burn,
        Action::Burn {
            cards: cards("SA HA")
        }
    );
    act(&mut g, B3, burn);
    // A1 may not beat B3's 级牌; A2 (B3's 对头) passes it; nobody counter-burns.
    pass(&mut g, &[A1, A2]);
    while let Some(Prompt::BurnOffer { .. }) = view(&g, B3).prompt {
        let seat = g.phase().seat().unwrap();
        act(&mut g, seat, Action::Decline);
    }
    let v = view(&g, B3);
    assert_eq!(
        v.prompt,
        Some(Prompt::Lead {
            joker_required: true
        })
    );
    assert_eq!(club(&g, B3), plays("S5 H5 BJ"));
}

#[test]
fn feeds_a_teammate_a_set_to_go_out_on() {
    // A2 holds two cards: A1 leads a pair (its 77, a whole rank) rather than its lowest card.
    let g = game([
        "S4 S7 H7 S9 H9 D9 S10 H10 SJ HJ SQ HQ SK HK D8 C8 S2 BJ",
        FILLER,
        "SA HA",
        FILLER,
        FILLER,
        FILLER,
    ]);
    assert_eq!(club(&g, A1), plays("S7 H7"));
}

#[test]
fn plays_a_gouji_to_open_when_the_end_is_near() {
    // Twelve cards left and not opened: lead the aces (a 级牌) while 开点 is still possible.
    let g = game([
        "S4 H4 S6 S7 S8 H8 S9 S10 SJ SQ SA HA",
        FILLER,
        FILLER,
        FILLER,
        FILLER,
        FILLER,
    ]);
    assert_eq!(club(&g, A1), plays("SA HA"));
    // With a long road ahead it sheds the 4s first.
    let g = game([
        "S4 H4 S6 S7 S8 H8 S9 S10 SJ SQ SA HA D6 D7 D8 D9 D10 DJ",
        FILLER,
        FILLER,
        FILLER,
        FILLER,
        FILLER,
    ]);
    assert_eq!(club(&g, A1), plays("S4 H4"));
}
