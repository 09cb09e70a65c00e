//! What a calibration run is asked (its [`Config`]) and what it keeps of each simulated pair
//! or team ([`PairRecord`]): shared by the 80分 sessions (`simulate`) and the 够级 ones
//! (`simulate::gouji`).

use serde::Serialize;

use crate::arena::Game;
use crate::fairplay::players::Peek;
use crate::fairplay::Tally;
use crate::level::{Budget, Level};

/// A calibration run.
#[derive(Clone, Debug)]
pub struct Config {
    /// 80分 (pairs, boards) or 够级 (teams, games).
    pub game: Game,
    /// The honest pairs' level.
    pub level: Level,
    /// The cheat's level (its search, see [`crate::fairplay::players::decide`]).
    pub cheat_level: Level,
    /// One pair that cheats this way, or all honest.
    pub cheat: Option<Peek>,
    pub sessions: usize,
    pub boards: usize,
    pub tables: usize,
    pub seed: u64,
    /// The Expert's budget (honest and cheating).
    pub budget: Budget,
    /// The analyser's screening and estimating deals per decision.
    pub screen: u32,
    pub worlds: u32,
    /// Score the E–W pairs too.
    pub both_directions: bool,
    pub threads: usize,
}

impl Config {
    pub fn new(level: Level, cheat: Option<Peek>, sessions: usize, boards: usize) -> Config {
        Config {
            game: Game::Shengji,
            level,
            cheat_level: level,
            cheat,
            sessions,
            boards,
            tables: 3,
            seed: 1,
            budget: Budget::Playouts(200),
            screen: crate::fairplay::SCREEN,
            worlds: crate::fairplay::WORLDS,
            both_directions: false,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// One pair of a simulated session: whether it cheated, and its tally board by board.
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
pub struct PairRecord {
    pub cheats: bool,
    pub boards: Vec<Tally>,
}
