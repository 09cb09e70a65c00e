//! The entries of a practice set's log. Their JSON is what the chain hashes, so a field is only
//! ever added with a default.
//!
//! The server logs everything in it: the set made (`create`), opened (`start_round`, its one
//! round), each run begun (`begin`: a player, or the computers' reference at a level), each
//! board's table opened and its result (`table_opened`, `result`), the seats' connections
//! (`visits`), and the set closed at its time (`close_round`) and its seed revealed (`reveal`).

use serde::{Deserialize, Serialize};

use crate::competition::{Spec, Visit};
use crate::gouji::GameRecord;
use crate::matchpoints::ns_value;
use crate::seat::Seat;

/// A board's (or game's) outcome at a run's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// 80分: the declarer's seat (定庄) and the defenders' points (penalties in).
    Board { declarer: Seat, defenders: i32 },
    /// 够级: the game's record.
    Game(GameRecord),
}

impl Outcome {
    /// How good the outcome is for the person's side, higher better: 80分 North–South's (fewer
    /// defenders' points when N–S declared, more when E–W did), 够级 team A's points less team
    /// B's.
    pub fn value(&self) -> i64 {
        match self {
            Outcome::Board {
                declarer,
                defenders,
            } => ns_value(declarer.direction(), *defenders),
            Outcome::Game(r) => i64::from(r.a) - i64::from(r.b),
        }
    }
}

/// One entry of a practice set's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum PracticeAction {
    /// The set was made (by the server for a day, or by an organiser).
    Create { spec: Spec },
    /// The set opened (its only round, 1).
    StartRound { round: u32, at_ms: u64 },
    /// A run began: a player's (`player`, their public id, and `name`), or the computers'
    /// reference at `level` (`player` absent).
    Begin {
        run: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The computers' level (`beginner`, `club`, `expert`).
        level: String,
        at_ms: u64,
    },
    /// The server opened the table that deals `board` for the run (again, if an earlier one
    /// closed unplayed).
    TableOpened {
        run: u32,
        board: u32,
        table_id: String,
    },
    /// A board's outcome as its table reported it, with each seat's timeouts and 托管 moves
    /// (absent: none).
    Result {
        run: u32,
        board: u32,
        table_id: String,
        outcome: Outcome,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        timeouts: Vec<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        auto_moves: Vec<u32>,
    },
    /// Connections to the runs' seats, as their tables saw them.
    Visits { visits: Vec<Visit> },
    /// The set closed (at its time, or early by an organiser): no run begins, no board opens.
    CloseRound { round: u32, forced: bool },
    /// The seed revealed: anyone can re-deal every board.
    Reveal {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        early: bool,
    },
}

impl PracticeAction {
    /// The action's name, as in its JSON `type`.
    pub fn name(&self) -> &'static str {
        match self {
            PracticeAction::Create { .. } => "create",
            PracticeAction::StartRound { .. } => "start_round",
            PracticeAction::Begin { .. } => "begin",
            PracticeAction::TableOpened { .. } => "table_opened",
            PracticeAction::Result { .. } => "result",
            PracticeAction::Visits { .. } => "visits",
            PracticeAction::CloseRound { .. } => "close_round",
            PracticeAction::Reveal { .. } => "reveal",
        }
    }
}
