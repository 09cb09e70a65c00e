//! 普通 (club) 80分, heuristic by heuristic, on hand-built boards: each position is dealt with
//! `Board::new`, played to the decision with the engine's own actions, and the bot is given
//! only the seat's view (and, where it counts cards, what its earlier views showed).
//!
//! Level 2, trump ♠ throughout: ♥, ♦, ♣ are side suits ranking A down to 3. Play goes
//! N → W → S → E; N–S are partners, and N declares.

use std::time::Duration;

use bots::shengji::{choose, Player};
use bots::{Budget, Level};
use rules::cards::{parse_list, Card, Rank, Suit};
use rules::deal::ShengjiDeal;
use rules::shengji::{Action, Board, Ruleset, Seat, View};
use rules::{Actor, Viewer};

fn cards(s: &str) -> Vec<Card> {
    parse_list(s).unwrap()
}

/// A board with N declaring at level 2, ♠ trump; `hands` in N, E, S, W order.
fn board(hands: [&str; 4], kitty: &str) -> Board {
    let deal = ShengjiDeal {
        board: 1,
        declarer: 0,
        level: Rank::TWO,
        trump: Some(Suit::Spades),
        hands: hands.map(cards),
        kitty: cards(kitty),
        order_hash: String::new(),
    };
    let mut b = Board::new(&deal, Ruleset::fujian_2024());
    b.apply(
        Seat::N,
        Actor::Player,
        Action::Bury {
            cards: cards(kitty),
        },
    )
    .unwrap();
    b
}

fn play(b: &mut Board, seat: Seat, c: &str) {
    b.apply(seat, Actor::Player, Action::Play { cards: cards(c) })
        .unwrap_or_else(|e| panic!("{seat:?} {c}: {e:?}"));
}

fn view(b: &Board, seat: Seat) -> View {
    b.view(Viewer::Seat(seat.index()))
}

fn club(v: &View) -> Vec<Card> {
    match choose(v, Level::Club, Duration::ZERO, 0) {
        Some(Action::Play { mut cards }) => {
            cards.sort();
            cards
        }
        other => panic!("expected a play, got {other:?}"),
    }
}

fn sorted(s: &str) -> Vec<Card> {
    let mut c = cards(s);
    c.sort();
    c
}

const KITTY: &str = "H7 H8 H9 H10 HJ HQ DJ DQ";

#[test]
fn feeds_points_to_a_winning_partner() {
    // N leads the ♥A (nothing unseen beats it), W follows; S gives its ♥K (10) to N.
    let mut b = board(["HA C3 C4", "H6 C6 C7", "HK H4 D6", "H3 D3 D4"], KITTY);
    play(&mut b, Seat::N, "HA");
    play(&mut b, Seat::W, "H3");
    assert_eq!(club(&view(&b, Seat::S)), sorted("HK"));
}

#[test]
fn ducks_points_when_an_opponent_wins() {
    // N's ♥A wins; W (a defender) holds ♥K and ♥4 and keeps its 10 points.
    let mut b = board(["HA C3 C4", "H6 C6 C7", "H5 D6 D7", "HK H4 D3"], KITTY);
    play(&mut b, Seat::N, "HA");
    assert_eq!(club(&view(&b, Seat::W)), sorted("H4"));
}

#[test]
fn trumps_in_to_take_points_as_the_last_to_play() {
    // E, last to play and void in ♥, trumps N's ♥10 rather than throw a diamond away.
    let mut b = board(["H10 C3", "S3 D8", "H5 D6", "H4 D3"], KITTY);
    play(&mut b, Seat::N, "H10");
    play(&mut b, Seat::W, "H4");
    play(&mut b, Seat::S, "H5");
    assert_eq!(club(&view(&b, Seat::E)), sorted("S3"));
}

#[test]
fn counts_the_cards_played_to_lead_a_king_that_stands() {
    // Both ♥A fell in trick 1; S, on lead in trick 3, cashes its ♥K (10 points) — but only
    // if it remembers trick 1 (the view shows the last trick alone).
    let mut b = board(
        [
            "HA C3 D4 D6 D7",
            "H6 C6 C8 C9 D10",
            "H5 CA HK H4 D3",
            "HA C4 D8 D9 C7",
        ],
        KITTY,
    );
    let mut s = Player::new(Level::Club, Budget::Playouts(0));
    play(&mut b, Seat::N, "HA");
    play(&mut b, Seat::W, "HA");
    s.observe(&view(&b, Seat::S));
    play(&mut b, Seat::S, "H5");
    play(&mut b, Seat::E, "H6");
    play(&mut b, Seat::N, "C3");
    play(&mut b, Seat::W, "C4");
    s.observe(&view(&b, Seat::S));
    play(&mut b, Seat::S, "CA");
    play(&mut b, Seat::E, "C6");
    let v = view(&b, Seat::S);
    assert_eq!(v.to_act, Some(Seat::S));
    assert_eq!(s.act(&v, 0), Some(Action::Play { cards: cards("HK") }));
    // Asked with this view alone, it cannot know the aces are gone.
    assert_ne!(club(&v), sorted("HK"));
}

#[test]
fn leads_a_throw_that_will_stand() {
    // S wins trick 1 with ♣A and holds both ♥A and the ♥K: no unseen pair beats AA and no
    // unseen single beats the K once both aces are in the hand, so AAK stands as one lead.
    let mut b = board(
        ["C3 C4 C5 C8", "H6 C6 C7 C9", "HA HA HK CA", "H3 D3 D4 D5"],
        KITTY,
    );
    play(&mut b, Seat::N, "C3");
    play(&mut b, Seat::W, "D3");
    play(&mut b, Seat::S, "CA");
    play(&mut b, Seat::E, "C6");
    assert_eq!(club(&view(&b, Seat::S)), sorted("HA HA HK"));
}

#[test]
fn does_not_throw_what_an_unseen_card_could_beat() {
    // With ♥Q instead of ♥K an unseen ♥K would block the single: lead the pair of aces alone.
    let mut b = board(
        ["C3 C4 C5 C8", "H6 C6 C7 C9", "HA HA HQ CA", "H3 D3 D4 D5"],
        "H7 H8 H9 H10 HJ HK DJ DQ",
    );
    play(&mut b, Seat::N, "C3");
    play(&mut b, Seat::W, "D3");
    play(&mut b, Seat::S, "CA");
    play(&mut b, Seat::E, "C6");
    assert_eq!(club(&view(&b, Seat::S)), sorted("HA HA"));
}

#[test]
fn leads_low_into_the_partners_void() {
    // Trick 2 shows N void in ♦ (it threw a club on E's diamond lead) with trumps left; S,
    // on lead with nothing that stands, leads its low diamond for N to trump.
    let mut b = board(
        ["C3 C9 S5 S6", "CA D4 H3 HQ", "C6 DA D6 H4", "C4 D3 H6 H7"],
        "H8 H9 H10 HJ DJ DQ D7 D8",
    );
    play(&mut b, Seat::N, "C3");
    play(&mut b, Seat::W, "C4");
    play(&mut b, Seat::S, "C6");
    play(&mut b, Seat::E, "CA");
    play(&mut b, Seat::E, "D4");
    play(&mut b, Seat::N, "C9");
    play(&mut b, Seat::W, "D3");
    let mut s = Player::new(Level::Club, Budget::Playouts(0));
    s.observe(&view(&b, Seat::S));
    play(&mut b, Seat::S, "DA");
    let v = view(&b, Seat::S);
    assert_eq!(v.to_act, Some(Seat::S));
    assert_eq!(s.act(&v, 0), Some(Action::Play { cards: cards("D6") }));
}

#[test]
fn buries_to_void_a_suit_and_keeps_points_out_of_the_kitty() {
    // N's 33 cards: three clubs (♣3 ♣9 ♣Q), points (5, 10, K) in both other side suits.
    let n = cards(
        "C3 C9 CQ D3 D4 D6 D7 D10 DK DA H3 H4 H6 H10 HK HA S3 S4 S5 S6 S7 S8 S9 S10 SJ \
         SK SA S2 H2 D2 BJ RJ C2",
    );
    let mut rest: rules::cards::Hand = rules::deal::canonical_deck(2, &[]).into_iter().collect();
    for &c in &n {
        assert!(rest.remove(c));
    }
    let rest = rest.cards();
    let deal = ShengjiDeal {
        board: 1,
        declarer: 0,
        level: Rank::TWO,
        trump: Some(Suit::Spades),
        hands: [
            n[..25].to_vec(),
            rest[..25].to_vec(),
            rest[25..50].to_vec(),
            rest[50..75].to_vec(),
        ],
        kitty: n[25..].to_vec(),
        order_hash: String::new(),
    };
    let mut b = Board::new(&deal, Ruleset::fujian_2024());
    let v = view(&b, Seat::N);
    let Some(Action::Bury { cards: buried }) = choose(&v, Level::Club, Duration::ZERO, 0) else {
        panic!("a bury");
    };
    assert_eq!(buried.len(), 8);
    for c in cards("C3 C9 CQ") {
        assert!(buried.contains(&c), "clubs voided: {buried:?}");
    }
    assert!(
        buried.iter().all(|c| c.points() == 0),
        "no points in the kitty: {buried:?}"
    );
    assert!(
        buried.iter().all(|c| c.suit() != Some(Suit::Spades)
            && !c.is_joker()
            && c.rank() != Some(Rank::TWO)),
        "no trumps: {buried:?}"
    );
    b.apply(Seat::N, Actor::Bot, Action::Bury { cards: buried })
        .unwrap();
}
