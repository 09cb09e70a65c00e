//! `paiju deal`: prints one board, re-dealt from its seed, as one JSON object.

use rules::cards::Card;
use rules::deal::{self, Fixed, Seed};
use rules::Explain;
use serde_json::{json, Map, Value};

pub fn run(args: &[String]) -> Result<(), String> {
    let f = super::flags(args, &["game", "seed", "board"])?;
    let game = f.get("game").copied().unwrap_or("shengji");
    let seed = Seed::from_hex(f.get("seed").ok_or("--seed is required")?).map_err(|e| e.en())?;
    let board: u32 = f
        .get("board")
        .ok_or("--board is required")?
        .parse()
        .map_err(|_| "--board must be a whole number from 0 to 4294967295".to_string())?;
    let out = match game {
        "shengji" => shengji(&seed, board),
        "gouji" => gouji(&seed, board),
        other => return Err(format!("unknown game {other:?} (shengji or gouji)")),
    };
    println!("{out}");
    Ok(())
}

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
        "game": "shengji",
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
        "game": "gouji",
        "board": game,
        "algorithm": deal::ALGORITHM,
        "commitment": seed.commitment(),
        "hands": hands,
    })
}
