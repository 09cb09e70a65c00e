//! 够级 team events (Zaozhuang seniors' games, 附件1 够级比赛规程 五、2): teams of three, matches of
//! six games, a knockout by groups down to six teams, a final of two groups on three tables.
//!
//! - [`game`]: one game's record (team points, 头科, 大落, from the engine's tally), team
//!   deductions (扣该队4分) and extra games (加赛一局，以头科一方为胜).
//! - [`standing`]: ranking teams: total, more 头科, fewer 大落, extra game — and, when that is
//!   still to be played, the explicit outcome "an extra game is needed".
//! - [`team_match`]: a match of six games at one table.
//! - [`final_round`]: the final's rotation (A 1→2→3, B 3→2→1, one deal per game at every table)
//!   and its ranking.
//! - [`producible`]: every game record the rules can produce (a director's ruling is checked
//!   against it).
//! - [`draw`]: the seeded group draw (no two teams of one organisation in a group), the knockout
//!   rounds down to the final's six, the final's groups.

pub mod draw;
pub mod final_round;
pub mod game;
pub mod producible;
pub mod standing;
pub mod team_match;

pub use draw::{advance, draw_final_groups, draw_groups, knockout_round, Entrant, Group};
pub use final_round::{final_schedule, final_standings, FinalGroups, FinalInput, FinalSeating};
pub use game::{ExtraGame, GameRecord, Side, TeamDeduction, TeamId};
pub use producible::Producible;
pub use standing::{rank_teams, Placing, TeamStanding, TeamTally, TieBreak};
pub use team_match::{match_result, MatchResult, TeamMatch};
