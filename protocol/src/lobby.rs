//! The lobby, plain JSON over HTTP: open a table ([`CreateTable`]), list tables and look at one
//! ([`TableSummary`], its [`TableState`] and [`SeatInfo`]s), sit down ([`JoinSeat`], answered
//! with [`Joined`]) and get up again ([`LeaveSeat`]). The socket's `welcome` and the events'
//! tables show the same seats and states, so they take them from here.

use serde::{Deserialize, Serialize};

/// Seat index in the game's seat order (80分: 0 N, 1 E, 2 S, 3 W; 够级: 0 A1, 1 B1, 2 A2, 3 B2,
/// 4 A3, 5 B3), as in `rules::Viewer::Seat`.
pub type SeatIndex = usize;

/// `POST /api/tables`: open a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CreateTable {
    /// `"shengji"` (80分) or `"gouji"` (够级).
    pub game: String,
    /// Ruleset name (`"fujian-2024"`, `"zaozhuang-2017"`); the game's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub ruleset: Option<String>,
    /// 64 hex digits. Tournaments pass the event's seed so every table plays the same boards;
    /// absent: a fresh random seed. Only its SHA-256 commitment is shown until the table ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub seed: Option<String>,
    /// Board (80分 副) or game (够级 局) number dealt from the seed; 1 when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub board: Option<u32>,
    /// Seats a bot takes from the start.
    #[serde(default)]
    pub bots: Vec<SeatIndex>,
    /// 80分 only, 定级: the director fixes the level (`"2"`…`"10"`, `"J"`, `"Q"`, `"K"`, `"A"`)
    /// instead of the one drawn from the seed. The cards dealt do not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub level: Option<String>,
    /// 80分 only, 定主: the director fixes the trump suit (`"S"`, `"H"`, `"D"`, `"C"`) or no
    /// trump (`"NT"`) instead of the one drawn from the seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub trump: Option<String>,
    /// Seconds a player has for one play (80分 `play_seconds`, 够级 `move_seconds`) instead of
    /// the ruleset's (30 and 20): a slower clock for a casual table. 15 to 120.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub play_seconds: Option<u32>,
    /// How strong the computer seats play (「电脑水平」): `"beginner"` (入门), `"club"` (普通)
    /// or `"expert"` (高手); 普通 when absent. Kept in the table's header, so a rebuilt table
    /// plays at the same level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub bot_level: Option<String>,
}

/// Where a table is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TableState {
    /// Some seat has no one yet: no clock runs.
    Waiting,
    /// Every seat was taken once; clocks run.
    Playing,
    /// The engine says the board or game is over; the seed is revealed.
    Over,
    /// Closed (idle, or by shutdown of a finished table); its log is kept.
    Closed,
}

/// One seat as everyone may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatInfo {
    pub seat: SeatIndex,
    /// Display name; `None` while the seat is empty.
    pub name: Option<String>,
    /// A bot from `bots/` plays this seat.
    pub bot: bool,
    /// At least one connection holds this seat's token now.
    pub connected: bool,
    /// 托管: the player's clock ran out while away, so the table plays for them until they
    /// return.
    pub auto: bool,
}

/// `GET /api/tables` (a list of these) and `GET /api/tables/{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TableSummary {
    /// Short code: join links and the WebSocket path use it.
    pub id: String,
    pub game: String,
    pub ruleset: String,
    pub board: u32,
    pub state: TableState,
    pub seats: Vec<SeatInfo>,
    pub spectators: usize,
    /// Sequence number of the last stored action (0: none yet).
    pub seq: u64,
    /// SHA-256 of the seed (hex): published before play.
    pub seed_commitment: String,
    /// The deal algorithm's version (`rules::deal::ALGORITHM`).
    pub deal_algorithm: String,
    /// How strong its computer seats play: `"beginner"` (入门), `"club"` (普通) or `"expert"`
    /// (高手), as chosen when the table was opened (`CreateTable::bot_level`).
    pub bot_level: String,
    /// The seed itself: only once the table is over and no open table deals from the same
    /// seed any more (tournament tables share one seed and play other boards of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub seed: Option<String>,
    /// Once the table is over: the hash of its log's last entry (the chain's head). Published,
    /// so a log later cut short or rewritten no longer matches what was announced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub head_hash: Option<String>,
    /// Past one machine: the address of the node serving it (`--advertise`), in the lists of
    /// every node. Absent on one machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub node: Option<String>,
}

/// `POST /api/tables/{id}/join`: sit down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct JoinSeat {
    pub seat: SeatIndex,
    /// Display name (1–24 characters).
    pub name: String,
}

/// The answer to [`JoinSeat`]: the token is the only proof of the seat. Keep it; the server
/// stores only its hash and cannot tell it again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Joined {
    pub table: String,
    pub seat: SeatIndex,
    /// 64 hex digits (256 random bits).
    pub token: String,
}

/// `POST /api/tables/{id}/leave`: give the seat up; the token stops working.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LeaveSeat {
    pub token: String,
}
