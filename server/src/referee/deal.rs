//! `paiju deal`: prints one board, re-dealt from its seed, as one JSON object.

use rules::cards::Card;
use rules::deal::{self, Fixed, Seed};
use serde_json::{json, Map, Value};

use crate::table::TableGame;

fn cards(cs: &[Card]) -> Value {
    json!(cs.iter().map(|c| c.to_string()).collect::<Vec<_>>())
}

/// The JSON of an 80分 board (the form `paiju deal --game shengji` prints).
pub fn shengji(seed: &Seed, board: u32) -> Value {
    let d = deal::deal_shengji(seed, board, Fixed::default());
    let hands: Map<String, Value> = rules::shengji::Seat::ALL
        .iter()
        .map(|s| (s.letter().to_string(), cards(&d.hands[s.index()])))
        .collect();
    json!({
        "game": <rules::shengji::Board as TableGame>::GAME,
        "board": board,
        "algorithm": deal::ALGORITHM,
        "commitment": seed.commitment(),
        "declarer": rules::shengji::Seat::from_index(d.declarer).letter(),
        "level": d.level.symbol(),
        "trump": d.trump.map(|s| s.letter().to_string()).unwrap_or_else(|| "NT".into()),
        "hands": hands,
        "kitty": cards(&d.kitty),
    })
}

/// The JSON of a 够级 game (the form `paiju deal --game gouji` prints): no kitty, no trump.
pub fn gouji(seed: &Seed, game: u32) -> Value {
    let d = deal::deal_gouji(seed, game);
    let hands: Map<String, Value> = rules::gouji::Seat::ALL
        .iter()
        .map(|s| (s.name().to_string(), cards(&d.hands[s.index()])))
        .collect();
    json!({
        "game": <rules::gouji::Game as TableGame>::GAME,
        "board": game,
        "algorithm": deal::ALGORITHM,
        "commitment": seed.commitment(),
        "hands": hands,
    })
}
