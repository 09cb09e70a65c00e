//! 练习牌套 (practice sets): boards anyone plays at any time, alone with computers, scored
//! against everyone who played the same boards (issue 26). The format of the meet they practise
//! for: 80分 boards dealt 定庄、定级、定主 from the set's seed, each result compared in match
//! points (计副制) with every other result on that board; 够级 games compared the same way in the
//! team's points.
//!
//! A set is a competition of its own kind ([`Practice`], one type a game): created by the server
//! (a day's sets) or an organiser (a club's), opened once (its one round), played in **runs** —
//! a run is one player's (or the computers' reference) play of the set's boards in order, each
//! board at a table of its own with computers in the other seats — and closed at its time, when
//! its seed is revealed. Its log is hash-chained and stored like an event's, so a restart, a
//! second node and `paiju verify` treat it as one.
//!
//! - [`action`]: the log's entries.
//! - [`state`]: the set as its log made it; each entry checked and applied.
//! - [`field`]: a board's field (every result on it so far) in match points, a run's
//!   percentage, the ranking.
//! - `competition.rs`: the whole as a `Competition`.

pub mod action;
mod competition;
pub mod field;
pub mod state;
#[cfg(test)]
mod tests;

pub use action::{Outcome, PracticeAction};
pub use field::{day_of, Ranked, RunScore, Scored};
pub use state::{Board, Played, Practice, Run, LEVELS};

/// What a set needs to know of its game.
pub trait SetGame: Clone + std::fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The game its tables deal (`rules`' wire name).
    const GAME: &'static str;
    /// Its kind's name in the store (`events.game`).
    const KIND: &'static str;
    /// Seats at a table.
    const SEATS: usize;
    /// The seat a person takes: 80分 South (North, their partner, is a computer), 够级 A1 (its
    /// teammates A2 and A3 are computers).
    const PERSON: usize;
    /// Most boards (games) in a set.
    const MAX_BOARDS: u32;
    /// 80分 counts a player's timeouts over a run's boards (the session's count); 够级 keeps
    /// none.
    const COUNTS_TIMEOUTS: bool;

    /// Whether `outcome` is this game's.
    fn fits(outcome: &Outcome) -> bool;
}

/// 80分 sets: boards of the meet's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shengji;

/// 够级 sets: games, team A (the player at A1 with two computer teammates) scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gouji;

impl SetGame for Shengji {
    const GAME: &'static str = "shengji";
    const KIND: &'static str = "shengji-practice";
    const SEATS: usize = 4;
    const PERSON: usize = 2;
    const MAX_BOARDS: u32 = 16;
    const COUNTS_TIMEOUTS: bool = true;

    fn fits(outcome: &Outcome) -> bool {
        matches!(outcome, Outcome::Board { .. })
    }
}

impl SetGame for Gouji {
    const GAME: &'static str = "gouji";
    const KIND: &'static str = "gouji-practice";
    const SEATS: usize = 6;
    const PERSON: usize = 0;
    const MAX_BOARDS: u32 = 6;
    const COUNTS_TIMEOUTS: bool = false;

    fn fits(outcome: &Outcome) -> bool {
        matches!(outcome, Outcome::Game(_))
    }
}
