//! 80分 双人赛 (duplicate pairs, 计副制): pairs registered NS 1…T and EW 1…T, rounds of the
//! Mitchell movement (one table per board, dealt from the competition's seed and the board's
//! number), each board's result as its table reported it or as the director assigned it, the
//! pairs' confirmations, deductions, disqualifications and forfeits for lateness — and, from
//! that alone, which board each table plays now and what the scoring library is given.
//!
//! - [`action`]: the log's entries.
//! - [`state`]: the competition as its log made it, and what it answers.
//! - `apply.rs`: each entry checked and applied.
//! - `lateness.rs`: seating times and the forfeit of a pair more than ten minutes late.
//! - [`score`]: the results so far as `tournament::score` reads them.
//! - `competition.rs`: the whole as a `Competition`.

pub mod action;
mod apply;
mod competition;
mod lateness;
pub mod score;
pub mod state;
#[cfg(test)]
mod tests;

pub use crate::score::ArtificialScores;
pub use action::{DeductionKind, DuplicateAction};
pub use lateness::LATE_MS;
pub use state::{
    declarer_of, movement_boards, Adjusted, Confirms, Deducted, Duplicate, Pair, Play, Played,
    RoundClock, Sitting, BOARD_MINUTES, GAME, MAX_BOARDS, MAX_POINTS, MAX_TABLES,
};
