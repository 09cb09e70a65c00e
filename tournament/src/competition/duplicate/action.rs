//! The entries of an 80分 pairs competition's log. Their JSON is what the chain hashes, so a
//! field is only ever added with a default.
//!
//! The log holds what the director did (`create`, `register`, `start_round`, `adjust`,
//! `deduction`, `disqualify`, `forfeit`, `close_round`, `reveal`), what the pairs did (`confirm`)
//! and what the server did for them (`table_opened`, `result`: a board's outcome as its table
//! reported it; `seated`: a player's first sitting in a round).

use serde::{Deserialize, Serialize};

use crate::competition::spec::{Entry, Spec};
use crate::competition::{Ruling, Visit};
use crate::score::ArtificialScores;
use crate::seat::{Direction, Seat};

/// The kind of offence a deduction is for, where it matters to what follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeductionKind {
    /// 传递非法信息 (illegal signalling): twice disqualifies.
    Signalling,
}

/// One entry of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum DuplicateAction {
    /// The director created the competition (entries, if given, are registered with it).
    Create { spec: Spec },
    /// The director registered every pair (fresh player tokens).
    Register { entries: Vec<Entry> },
    /// The director added late entries before round 1, in computers' places: the registered
    /// keep their numbers and tokens.
    AddEntries { entries: Vec<Entry> },
    /// The director started a round: its tables open. `at_ms`: the server's clock when it was
    /// logged (the round's clock and lateness count from it; absent in logs made before).
    StartRound {
        round: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// A player of a pair sat down at the pair's table of the round for the first time.
    Seated {
        round: u32,
        direction: Direction,
        pair: u32,
        seat: usize,
        at_ms: u64,
    },
    /// The director ruled a pair more than 10 minutes late: it forfeits the round (seed 000:
    /// 比赛一方迟到超过10分钟，判违规方该轮弃权).
    Forfeit {
        round: u32,
        direction: Direction,
        pair: u32,
        reason: String,
        at_ms: u64,
    },
    /// The server opened the table that deals this board for this table of the round (again,
    /// if an earlier one closed unplayed).
    TableOpened {
        round: u32,
        table: u32,
        board: u32,
        table_id: String,
    },
    /// A finished board's outcome, as its table reported it, with each seat's timeouts and
    /// 托管 moves on it (absent: none).
    Result {
        round: u32,
        table: u32,
        board: u32,
        table_id: String,
        declarer: Seat,
        defenders: i32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        timeouts: Vec<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        auto_moves: Vec<u32>,
    },
    /// A ruling at the board's table after play ended changed its result (seed 000 三.7), while
    /// the round is being played: the result as the table now reports it.
    Revised {
        round: u32,
        table: u32,
        board: u32,
        table_id: String,
        declarer: Seat,
        defenders: i32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ruling: Option<Ruling>,
    },
    /// The director assigned a result (points or artificial scores) instead of the table's.
    Adjust {
        round: u32,
        table: u32,
        board: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        defenders: Option<i32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        artificial: Option<ArtificialScores>,
        reason: String,
    },
    /// The director took match points off a pair. A second `signalling` deduction of a pair
    /// disqualifies it in the same step.
    Deduction {
        direction: Direction,
        pair: u32,
        mp: f64,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<DeductionKind>,
    },
    /// The director disqualified a pair: it plays no more boards, its finished results stand in
    /// everyone else's scores, and its place is filled by the pairs below it (seed 003).
    Disqualify {
        direction: Direction,
        pair: u32,
        reason: String,
    },
    /// A pair confirmed (or disputed) its table's results of a round.
    Confirm {
        round: u32,
        table: u32,
        direction: Direction,
        agree: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// The director closed a round.
    CloseRound { round: u32, forced: bool },
    /// Connections to the competition's seats, as their tables saw them.
    Visits { visits: Vec<Visit> },
    /// The director revealed the seed: the competition is finished. `early`: after fewer
    /// rounds than planned (every round started is closed).
    Reveal {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        early: bool,
    },
}

impl DuplicateAction {
    /// The action's name, as in its JSON `type`.
    pub fn name(&self) -> &'static str {
        match self {
            DuplicateAction::Create { .. } => "create",
            DuplicateAction::Register { .. } => "register",
            DuplicateAction::AddEntries { .. } => "add_entries",
            DuplicateAction::Visits { .. } => "visits",
            DuplicateAction::StartRound { .. } => "start_round",
            DuplicateAction::Seated { .. } => "seated",
            DuplicateAction::Forfeit { .. } => "forfeit",
            DuplicateAction::TableOpened { .. } => "table_opened",
            DuplicateAction::Result { .. } => "result",
            DuplicateAction::Revised { .. } => "revised",
            DuplicateAction::Adjust { .. } => "adjust",
            DuplicateAction::Deduction { .. } => "deduction",
            DuplicateAction::Disqualify { .. } => "disqualify",
            DuplicateAction::Confirm { .. } => "confirm",
            DuplicateAction::CloseRound { .. } => "close_round",
            DuplicateAction::Reveal { .. } => "reveal",
        }
    }
}
