//! 练习 (practice against the field, issue 26): what the server adds around the practice sets,
//! which are competitions of their own kind (`competition::practice`, run like any event: one
//! actor a set, a hash-chained log, leases past one machine).
//!
//! - [`players`]: a player without a password — a name and a personal code, the code's hash
//!   stored, and the sets each began.
//! - [`daily`]: the day's sets (80分 and 够级), made at the day's start and closed, their seeds
//!   revealed, at its end.
//! - [`history`]: a player's sets, percentages, best and worst boards, wherever each set runs.
//! - [`api`]: the routes (`/api/players…`, `/api/practice…`).
//!
//! docs/practice.md explains it for players (in Chinese and English) and organisers.

pub mod api;
pub mod daily;
pub mod history;
pub mod players;

use protocol::CreateCompetition;
use tournament::competition::PracticeTerms;

/// Boards in an 80分 set (a session of the meet's) and games in a 够级 one, by default.
pub const SHENGJI_BOARDS: u32 = 8;
pub const GOUJI_GAMES: u32 = 2;

/// The levels whose reference runs a set has, by default: every one.
pub fn all_levels() -> Vec<String> {
    tournament::competition::practice::LEVELS
        .iter()
        .map(|l| l.to_string())
        .collect()
}

/// A set's spec: `boards` of `game` in the meet's format (80分 定庄、定级、定主 drawn from the
/// seed board by board, the ruleset's clock), closing at `closes_ms`.
pub fn spec(
    game: &str,
    name: String,
    boards: u32,
    terms: PracticeTerms,
    ruleset: Option<String>,
) -> CreateCompetition {
    CreateCompetition {
        game: game.to_string(),
        name,
        tables: 0,
        rounds: 1,
        boards_per_round: boards,
        movement: Default::default(),
        skip_after: None,
        revenge: false,
        prizes: None,
        ruleset,
        level: None,
        trump: None,
        seed: None,
        board_minutes: None,
        entries: Vec::new(),
        groups: None,
        final_games: None,
        final_seating: None,
        second_device: Default::default(),
        // Practice lets a player hand their seat to the computer (托管) and counts it.
        auto_play: true,
        timeouts_counted: Default::default(),
        practice: Some(Box::new(terms)),
    }
}

/// The game's words: 80分, 够级.
pub fn game_zh(game: &str) -> &'static str {
    if game == "gouji" {
        "够级"
    } else {
        "80分"
    }
}
