//! The entries of a 够级 team competition's log. Their JSON is what the chain hashes, so a field
//! is only ever added with a default.

use serde::{Deserialize, Serialize};

use crate::competition::spec::{Entry, Spec};
use crate::competition::{Ruling, Visit};
use crate::gouji::draw::KnockoutRound;
use crate::gouji::{FinalGroups, GameRecord, Group};

/// What a round's draw gave, as the server logs it (computed from the competition's seed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drawn {
    /// Round 1: the groups (`tournament::gouji::draw_groups`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<Group>>,
    /// A knockout round (`knockout_round`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knockout: Option<KnockoutRound>,
    /// The final (`draw_final_groups`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_groups: Option<FinalGroups>,
}

/// One entry of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum TeamsAction {
    /// The director created the competition (entries, if given, are registered with it).
    Create { spec: Spec },
    /// The director registered every team (fresh team tokens).
    Register { entries: Vec<Entry> },
    /// The director added late entries before round 1, in computers' places: the registered
    /// keep their numbers and tokens.
    AddEntries { entries: Vec<Entry> },
    /// The director started a round; `at_ms`: the server's clock then.
    StartRound {
        round: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// The server drew a round from the seed (groups in round 1, then a knockout round or the
    /// final's groups).
    Draw { round: u32, drawn: Drawn },
    /// The server opened the table of one game of a match (or of the final).
    GameOpened {
        round: u32,
        table: u32,
        game: u32,
        table_id: String,
    },
    /// A finished game's result, as its table reported it.
    GameResult {
        round: u32,
        table: u32,
        game: u32,
        table_id: String,
        record: GameRecord,
        /// Each seat's moves made by 托管 (absent: none).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        auto_moves: Vec<u32>,
    },
    /// A ruling at the game's table after it ended changed its result, while the round is
    /// being played: the record as the table now reports it.
    GameRevised {
        round: u32,
        table: u32,
        game: u32,
        table_id: String,
        record: GameRecord,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ruling: Option<Ruling>,
    },
    /// The director took points off a team (扣该队4分).
    TeamDeduction {
        round: u32,
        team: u32,
        points: i32,
        reason: String,
    },
    /// A team's captain confirmed (or disputed) the team's results of the round so far.
    ConfirmGames {
        round: u32,
        team: u32,
        agree: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// The director's ruling on a finished game: its result replaced.
    AdjustGame {
        round: u32,
        table: u32,
        game: u32,
        record: GameRecord,
        reason: String,
    },
    /// The director drew lots in person for a knockout match still level after its extra
    /// games; `winner` is the team's name.
    Lot {
        round: u32,
        table: u32,
        winner: String,
        reason: String,
    },
    /// The director closed a round.
    CloseRound { round: u32, forced: bool },
    /// Connections to the competition's seats, as their tables saw them.
    Visits { visits: Vec<Visit> },
    /// The director revealed the seed once the final closed: the competition is finished.
    /// (`early` is refused: a 够级 competition ends with its final.)
    Reveal {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        early: bool,
    },
}

impl TeamsAction {
    /// The action's name, as in its JSON `type`.
    pub fn name(&self) -> &'static str {
        match self {
            TeamsAction::Create { .. } => "create",
            TeamsAction::Register { .. } => "register",
            TeamsAction::AddEntries { .. } => "add_entries",
            TeamsAction::StartRound { .. } => "start_round",
            TeamsAction::Draw { .. } => "draw",
            TeamsAction::GameOpened { .. } => "game_opened",
            TeamsAction::GameResult { .. } => "game_result",
            TeamsAction::Visits { .. } => "visits",
            TeamsAction::GameRevised { .. } => "game_revised",
            TeamsAction::TeamDeduction { .. } => "team_deduction",
            TeamsAction::ConfirmGames { .. } => "confirm_games",
            TeamsAction::AdjustGame { .. } => "adjust_game",
            TeamsAction::Lot { .. } => "lot",
            TeamsAction::CloseRound { .. } => "close_round",
            TeamsAction::Reveal { .. } => "reveal",
        }
    }
}
