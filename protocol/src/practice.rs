//! 练习 (practice against the field, issue 26) over HTTP: a player's identity without a password
//! ([`PlayerNew`] → [`PlayerMade`]: a name and a personal code, kept by the browser), the sets
//! open to play ([`PracticeBrief`]), a run begun and its boards sat at ([`PracticeJoin`], answered
//! like an event's join), the run's boards with each board's field ([`PracticeRunView`]), the
//! set's ranking ([`PracticeLine`]), and the player's history ([`PlayerView`]). A set is an event
//! of its own kind on the server: its view and standings are an event's, with a `practice` part.

use serde::{Deserialize, Serialize};

/// `POST /api/players`: a new player (a name; the server gives the code).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerNew {
    /// Display name (1–24 characters).
    pub name: String,
}

/// The answer to [`PlayerNew`]: the personal code is the only proof of the player. The server
/// keeps its hash; the browser keeps the code (and prints it as a link and a QR code for a
/// second device).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerMade {
    /// The player's public id (in logs and rankings; it proves nothing).
    pub id: String,
    /// The personal code, `xxxx-xxxx-xxxx`.
    pub token: String,
    pub name: String,
}

/// `POST /api/players/me` (and the practice calls of a player): the personal code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerToken {
    pub token: String,
}

/// A player as they see themselves: their name and every set they played, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerView {
    pub id: String,
    pub name: String,
    pub created_ms: u64,
    pub history: Vec<PracticeHistoryLine>,
    /// Their best boards (highest percentage first) and worst (lowest first), at most five
    /// each, over every set.
    pub best: Vec<PracticeBoardLine>,
    pub worst: Vec<PracticeBoardLine>,
}

/// One set a player played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeHistoryLine {
    pub set: String,
    pub name: String,
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    pub began_ms: u64,
    /// Boards in the set and boards the player finished.
    pub boards: u32,
    pub played: u32,
    /// Every board played.
    pub done: bool,
    /// Against the field as it stands now; `None` before a first result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percent: Option<f64>,
    /// Finished runs only: its place among the set's finished runs, and how many there are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<u32>,
    pub of: u32,
    /// The set is still open (percentages still move).
    pub open: bool,
    /// An event (赛事) the player played, linked from their card's page: their pair or team and
    /// its standing (`set` is then the event's id; `place` and `of` its place in its
    /// direction's, or the teams', ranking).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<EventLine>,
}

/// A player's pair or team in an event, in their history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventLine {
    /// `NS 1`, `EW 2`, `team 3`.
    pub entry: String,
    /// Its match points (80分) or points (够级) so far in the public standings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<f64>,
    /// The standings count the rounds up to this one.
    pub through_round: u32,
}

/// `POST /api/players/me/events`: an event card's page, opened on a browser that keeps the
/// player's personal code, puts the event in the player's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerEvent {
    /// The personal code.
    pub token: String,
    /// The event.
    pub event: String,
    /// The token on the player's seating card of that event.
    pub card: String,
}

/// One board of a player's, for their best and worst.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeBoardLine {
    pub set: String,
    pub set_name: String,
    pub game: String,
    pub board: u32,
    pub percent: f64,
    pub began_ms: u64,
}

/// `GET /api/practice`: one set open (or recently closed) to play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PracticeBrief {
    pub id: String,
    pub name: String,
    pub game: String,
    /// Boards (80分) or games (够级) in the set.
    pub boards: u32,
    pub closes_ms: u64,
    /// A club's set (not listed publicly: reached by its code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// Open to play now.
    pub open: bool,
    /// Players' runs begun.
    pub players: u32,
}

/// `POST /api/practice` (an organiser, with the director's token): a set for a club, or a set
/// of the day made by hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PracticeCreate {
    /// `"shengji"` or `"gouji"`.
    pub game: String,
    /// The set's name; made from the game, the club and the date when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Boards (80分, 1–16, 8 when absent) or games (够级, 1–6, 2 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boards: Option<u32>,
    /// A club's set: the club's name. Unlisted; the club shares its code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// Days it stays open (1–14; 7 for a club's set, 1 otherwise, when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    /// The computers' reference runs (`beginner`, `club`, `expert`); all three when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub references: Option<Vec<String>>,
    /// The game's ruleset; its default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<String>,
    /// 64 hex digits: the organiser's seed (several clubs on the same boards); drawn when
    /// absent. Secret until the set closes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

/// `POST /api/practice/{id}/join`: begin the set (the first time: at `level`) or sit down at
/// the run's board now. Answered with a `CompetitionJoined`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PracticeJoin {
    /// The player's personal code.
    pub token: String,
    /// The computers' level for a run begun now (`beginner`, `club`, `expert`; or 入门, 普通,
    /// 高手); `club` when absent. Ignored once the run has begun.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
}

/// `POST /api/practice/{id}/replay`: the replay (every hand) of a table of the set, for a
/// player who has finished its board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PracticeReplay {
    pub token: String,
    pub table: String,
    /// The state (every hand) after action `at` instead of the whole replay, as
    /// `GET /api/tables/{id}/replay?at=N` gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
}

/// `POST /api/practice/{id}/explain`: why action `seq` of a table of the set was legal, in the
/// engine's words (as `GET /api/tables/{id}/explain/{seq}`), for a player who has finished its
/// board; with `all_seeing`, the decision valued with every hand known and on the seat's own
/// view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PracticeExplain {
    pub token: String,
    pub table: String,
    pub seq: u64,
    #[serde(default)]
    pub all_seeing: bool,
}

/// A set's part of its view (`GET /api/practice/{id}`, an event's view with `practice`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeSetView {
    /// Open to play now (opened, not closed).
    pub open: bool,
    pub closes_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// The computers' reference runs of the set's terms.
    pub references: Vec<String>,
    /// The set's days begin at this offset from UTC (minutes).
    pub utc_offset_minutes: i32,
    /// Players' runs begun, and finished.
    pub players: u32,
    pub finished: u32,
    /// The finished runs, best first.
    pub ranking: Vec<PracticeLine>,
}

/// One finished run in a set's ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeLine {
    pub place: u32,
    pub run: u32,
    /// The player's name; 「电脑·普通」… for a reference run.
    pub name: String,
    /// The computers' level.
    pub level: String,
    /// The computers' reference run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub computer: bool,
    pub percent: f64,
    pub began_ms: u64,
}

/// A player's run of a set, board by board (the `practice` part of a player's status).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeRunView {
    pub set: String,
    pub run: u32,
    pub name: String,
    pub level: String,
    pub began_ms: u64,
    /// The mean of its boards' percentages against their fields now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percent: Option<f64>,
    /// Every board played.
    pub done: bool,
    /// Finished: its place among the set's finished runs, and how many there are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<u32>,
    pub of: u32,
    pub boards: Vec<PracticeBoardView>,
}

/// One board of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeBoardView {
    pub board: u32,
    /// The table dealing it (or that dealt it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_id: Option<String>,
    /// The board the run plays now.
    pub now: bool,
    pub done: bool,
    /// Once done: its result, its match points and percentage against the field, and the
    /// field itself (every result on the board so far, this one marked `mine`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<PracticeResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mp: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percent: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub field: Vec<PracticeFieldLine>,
}

/// One result in a board's field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeFieldLine {
    pub run: u32,
    pub name: String,
    pub level: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub computer: bool,
    /// The asking player's own result.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mine: bool,
    pub result: PracticeResult,
    pub mp: f64,
    pub top: f64,
    pub percent: f64,
    /// The table that played it: its replay, for a player who has finished the board.
    pub table_id: String,
}

/// A board's result at one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PracticeResult {
    /// 80分: the declarer's seat (`"N"`, `"E"`, `"S"`, `"W"`), the declaring side
    /// (`"NS"`: the player's, or `"EW"`) and the defenders' points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declarer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declaring: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defenders: Option<i32>,
    /// 够级: team A's (the player's) and team B's points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<i32>,
    /// Moves 托管 made for the player on it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub auto_moves: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
