//! 够级团体赛 (附件1 够级比赛规程 五、2): the teams, the seeded draw as logged, the knockout matches
//! of six games and the final of six teams on three tables, as a pure state over the log — and,
//! from it alone, which game each table plays next. The matches, the rotation and the tie-breaks
//! are the `tournament::gouji` library's; this module keeps what was played and asks it.
//!
//! Rounds: each knockout round is one round of the competition (its matches are its tables, one
//! table per match: games 1–6, then the extra games if the six left the teams level on
//! everything); the final is the last round (three tables, every table the same deal in a game,
//! the teams rotating after each game; then extra games between teams still level). The draw
//! of a round is computed from the competition's seed when the round starts and logged
//! (`draw`); anyone can draw it again once the seed is revealed.
//!
//! - [`action`]: the log's entries.
//! - [`stage`]: one round as played (a match as the library sees it, the next extra game).
//! - [`state`]: the competition as its log made it, and what it answers.
//! - `apply.rs`: each entry checked and applied.
//! - [`standing`]: the teams' order as it stands.
//! - `competition.rs`: the whole as a `Competition`.

pub mod action;
mod apply;
mod competition;
pub mod stage;
pub mod standing;
pub mod state;
#[cfg(test)]
mod tests;

pub use action::{Drawn, TeamsAction};
pub use stage::{deal_number, Lot, RoundKind, Seating, Slot, Stage, MATCH_GAMES, MAX_EXTRA_GAMES};
pub use state::{
    entrants, side_seats, Sitting, Team, Teams, DEFAULT_FINAL_GAMES, GAME, MAX_TEAMS, MIN_TEAMS,
};
