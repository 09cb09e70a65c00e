//! Helpers shared by the 够级 tests: scripted deals, a seeded random source, card accounting.
#![allow(dead_code)]

use rules::cards::{parse_list, Card, Hand};
use rules::deal::{canonical_deck, DealStream, GoujiDeal, Seed, Stream};
use rules::gouji::{Action, Event, Game, RuleError, Ruleset, Seat};

/// A scripted deal: hands in seat order A1, B1, A2, B2, A3, B3 (any sizes).
pub fn deal(hands: [&str; 6]) -> GoujiDeal {
    GoujiDeal {
        game: 1,
        hands: hands.map(|h| parse_list(h).expect("test hand")),
        order_hash: String::new(),
    }
}

pub fn game(hands: [&str; 6]) -> Game {
    Game::new(&deal(hands), Ruleset::zaozhuang_2017())
}

pub fn cards(s: &str) -> Vec<Card> {
    parse_list(s).expect("test cards")
}

pub fn play(s: &str) -> Action {
    Action::Play { cards: cards(s) }
}

pub fn burn(s: &str) -> Action {
    Action::Burn { cards: cards(s) }
}

/// Applies a script of (seat, action), failing with the step on any refusal; returns all events.
pub fn run(g: &mut Game, script: &[(Seat, Action)]) -> Vec<Event> {
    let mut all = Vec::new();
    for (i, (seat, action)) in script.iter().enumerate() {
        match g.apply(*seat, action.taken_by(), action.clone()) {
            Ok(ev) => all.extend(ev),
            Err(e) => panic!(
                "step {i}: {seat} {action:?} refused: {e:?}\nphase {:?}",
                g.phase()
            ),
        }
    }
    all
}

/// Applies an action that must be refused with `code`, and checks that nothing changed.
pub fn refused(g: &mut Game, seat: Seat, action: Action, code: &str) -> RuleError {
    use rules::Explain;
    let before = g.clone();
    let err = g
        .apply(seat, action.taken_by(), action.clone())
        .expect_err("must be refused");
    assert_eq!(err.code(), code, "{seat} {action:?}: {err:?}");
    assert_eq!(*g, before, "a refusal changes nothing");
    err
}

/// A seeded random source for tests and benches.
pub struct Rng(DealStream);

impl Rng {
    pub fn new(n: u32) -> Rng {
        Rng(DealStream::new(&Seed([0x5a; 32]), Stream::Gouji, n))
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u32) as usize
    }
}

pub fn seed(n: u32) -> Seed {
    let mut s = [0u8; 32];
    s[..4].copy_from_slice(&n.to_be_bytes());
    Seed(s)
}

/// Every card is in a hand, on the table or void, and together they are the 300 dealt.
pub fn assert_accounted(g: &Game) {
    let mut all: Hand = g.table().iter().chain(g.void().iter()).collect();
    for s in Seat::ALL {
        for c in g.hand(s).iter() {
            all.add(c);
        }
    }
    let deck: Hand = canonical_deck(6, &[rules::cards::Rank::THREE])
        .into_iter()
        .collect();
    assert_eq!(all, deck, "every card accounted for");
}
