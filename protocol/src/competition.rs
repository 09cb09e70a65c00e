//! Events (赛事), plain JSON over HTTP: 80分 duplicate pairs and 够级 teams, run by a director
//! (docs/tournaments.md). The director creates an event ([`CreateCompetition`]) and registers its
//! entries ([`RegisterEntries`]); everyone reads it ([`CompetitionView`], [`CompetitionBrief`]); a pair or
//! team sits down by its token ([`CompetitionJoin`]), sees itself ([`PairStatus`], [`TeamStatus`]) and
//! confirms its results ([`ConfirmResults`], [`GameConfirm`]); the director rules on them
//! ([`AdjustResult`], [`DeductionIn`], [`GameAdjustIn`], …).

use serde::{Deserialize, Serialize};

use crate::lobby::{SeatIndex, TableState};

/// How the EW pairs and the boards move round the tables (米切尔移位): odd table counts take
/// `plain`, even ones `skip` or `relay` (the director chooses). The movement library's own type.
pub use tournament::Variant as MovementKind;

/// One entry (a pair of players, or a 够级 team of three) as the director registers it: the
/// competition's own type, logged as sent (`tournament::competition::Entry`).
pub use tournament::competition::Entry as EntryIn;

/// A second device on a seat (`CreateCompetition::second_device`): `replace` or `refuse`.
pub use tournament::competition::conduct::SecondDevice;
/// Over which boards 80分 timeouts count (`CreateCompetition::timeouts_counted`).
pub use tournament::competition::conduct::TimeoutsCounted;
/// What a connection on a seat did.
pub use tournament::competition::conduct::VisitKind;
/// `POST /api/events` (director): a new competition, logged as sent (with the ruleset named) as
/// its first entry (`tournament::competition::Spec`). The seed is drawn by the server; only its
/// SHA-256 commitment is published until the director reveals it after the last board.
pub use tournament::competition::Spec as CreateCompetition;

/// `POST /api/events/{id}/entries` (director): registers (or re-registers, before round 1)
/// every pair. Fresh player tokens are made each time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterEntries {
    pub entries: Vec<EntryIn>,
}

/// A pair as everyone may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairInfo {
    /// `"NS"` or `"EW"`.
    pub direction: String,
    /// The pair's number in its direction (NS n starts at table n, so does EW n).
    pub number: u32,
    pub names: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organisation: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// A pair's seating card: the pair and its token (none for a bot pair). Given to the director
/// only (`GET /api/events/{id}/cards`, and the answer to registering).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairCard {
    #[serde(flatten)]
    pub pair: PairInfo,
    /// One card a player (none for a computer pair): each player holds their own seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<PlayerCard>,
}

/// One player's card: their name and their own token. A player's token opens their own seat
/// and the pair's (or team's) page; never the partner's seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerCard {
    /// From 1: 80分 the pair's first (North or East) or second (South or West) player; 够级
    /// the team's seat 1, 2 or 3 (A1–A3 or B1–B3 in a game).
    pub number: u32,
    pub name: String,
    /// 12 characters without look-alikes, written `xxxx-xxxx-xxxx`; dashes and case are
    /// ignored when typed.
    pub token: String,
    /// The address of the card's QR code (an SVG of the player's page link with their token;
    /// director only: `GET …/players/{key}/qr.svg`).
    pub qr: String,
}

/// The director's printable material: every pair's card and every table's movement card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompetitionCards {
    pub pairs: Vec<PairCard>,
    /// `tournament::movement_card` per table: plain text for a fixed-width font.
    pub tables: Vec<TableCard>,
    /// 够级: every team's card with its token (none for a bot team).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<TeamCard>,
}

/// A 够级 team's card: the team and its token (the director's only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamCard {
    #[serde(flatten)]
    pub team: TeamInfo,
    /// One card a player (none for a computer team).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<PlayerCard>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableCard {
    pub table: u32,
    pub card: String,
}

/// Where an event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompetitionState {
    /// Created; pairs registering; no round started.
    Registering,
    /// A round is being played or the next one waits for the director.
    Running,
    /// Every round closed and the seed revealed: results are final.
    Finished,
}

/// One board's result at one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardResult {
    /// The board's declarer seat (定庄): `"N"`, `"E"`, `"S"`, `"W"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declarer: Option<String>,
    /// Defenders' points (闲家得分), penalties included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defenders: Option<i32>,
    /// Artificial scores (`"A"`, `"A+"`, `"A-"`) per side, instead of points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artificial: Option<ArtificialPair>,
    /// Set by the director (an adjusted or artificial result), not taken from the table.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub adjusted: bool,
    /// The table's result as a referee's ruling there revised it after the board ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revised: Option<Revision>,
    /// Moves 托管 made for each seat (N, E, S, W), where the competition allows 托管: shown
    /// beside the result to the director and the table's pairs. Empty: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auto_moves: Vec<u32>,
    /// Each seat's timeouts on the board (N, E, S, W; 超时). Empty: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeouts: Vec<u8>,
}

/// A result revised at its table by the referee's ruling after play ended (seed 000 三.7):
/// by whom, the table's log entry, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revision {
    /// `"referee"`: only the referee rules at a table.
    pub by: String,
    /// The ruling's entry in the table's log (its replay shows it).
    pub table_seq: u64,
    pub reason: String,
}

/// Artificial scores of the two sides of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtificialPair {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ns: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ew: Option<String>,
}

/// One board of one table in one round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompetitionBoard {
    pub board: u32,
    /// The table (牌桌) dealing it, once opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_id: Option<String>,
    /// That table's state now (from the lobby); absent once it has closed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<TableState>,
    /// That table's seq now (how far play has gone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// Shown to the director, and to everyone once the event is finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<BoardResult>,
    /// The board has a result (from its table or the director).
    pub done: bool,
    /// On a pair's own page once the event is finished: the pair's match points on the board
    /// (two decimals, as the standings print them). Before, they would tell of results at
    /// tables that still have the board to play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mp: Option<f64>,
    /// With `mp`: the board's top, 2 × (E − 1), E the results of the event's most-played board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<f64>,
}

/// One table of a round: who meets whom on which boards, and the pairs' confirmations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompetitionTable {
    pub table: u32,
    /// The NS pair; `null` where it is the phantom of a half table (the EW pair sits out).
    pub ns: Option<u32>,
    /// The EW pair; `null` where it is the phantom of a half table (the NS pair sits out).
    pub ew: Option<u32>,
    pub boards: Vec<CompetitionBoard>,
    /// NS recorded (confirmed) the results; a bot pair always has.
    pub ns_confirmed: bool,
    /// EW checked (confirmed) them.
    pub ew_confirmed: bool,
    /// A pair disputes the results and has called the referee: its note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispute: Option<String>,
    /// When NS were both seated at the table this round (server time, ms since the epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ns_seated_ms: Option<u64>,
    /// When EW were both seated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ew_seated_ms: Option<u64>,
    /// The directions (`"NS"`, `"EW"`) that the director ruled forfeit this round for
    /// lateness (迟到超过10分钟，判违规方该轮弃权).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forfeits: Vec<String>,
}

/// One round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompetitionRound {
    pub round: u32,
    /// `"waiting"` (not started), `"playing"`, `"closed"`.
    pub state: String,
    pub tables: Vec<CompetitionTable>,
    /// Relay movements: the boards resting on the bye stand this round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye_stand: Option<Vec<u32>>,
}

/// `GET /api/events/{id}`: the event as everyone may see it (results only to the director
/// until it is finished).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompetitionView {
    pub id: String,
    pub name: String,
    pub game: String,
    pub ruleset: String,
    pub tables: u32,
    pub rounds: u32,
    pub boards_per_round: u32,
    pub movement: MovementKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trump: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_minutes: Option<u32>,
    pub state: CompetitionState,
    /// The last round started (0: none yet).
    pub round: u32,
    /// The last round closed.
    pub closed: u32,
    /// When the round being played (or the last one) started: server time, ms since the epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_started_ms: Option<u64>,
    /// When its time is up: the start plus `boards_per_round` × `board_minutes` (12 when
    /// absent). Nothing happens by itself then: the director rules on unplayed boards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_deadline_ms: Option<u64>,
    /// The server's clock when this view was made, so a page counts down from the server's
    /// time, not its own.
    pub now_ms: u64,
    /// The event was finished before its planned rounds were all played (`rounds` stays the
    /// plan; `closed` is how many were).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub finished_early: bool,
    /// SHA-256 of the event seed, published at creation.
    pub seed_commitment: String,
    pub deal_algorithm: String,
    /// The seed, once revealed: anyone can re-deal every board (`paiju deal`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    pub pairs: Vec<PairInfo>,
    pub schedule: Vec<CompetitionRound>,
    /// Entries in the event's log (the hash chain's length).
    pub log_len: u64,
    /// The hash of the log's last entry.
    pub head_hash: String,
    /// 够级 events: the teams, the draw and every match and game (`pairs` and `schedule` are
    /// empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gouji: Option<GoujiView>,
    /// Late entries may be added without new tokens (`POST …/entries/add`): before round 1,
    /// once registered.
    #[serde(default)]
    pub add_entries: bool,
    /// What the director should know about the competition as set up (a curtailed
    /// share-and-relay movement: `curtailed_relay`), each `{"code","zh","en"}`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<crate::Problem>,
    /// The director's only: who held each seat from where (one device a seat, issue 24).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conduct: Option<ConductView>,
    /// A practice set: its terms and ranking (`tables`, `pairs` and `schedule` are empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub practice: Option<crate::PracticeSetView>,
}

/// The seats' connection history, as the director sees it: evidence, not a verdict (partners
/// who live together share an address).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConductView {
    /// Every connection to a seat, oldest first.
    pub visits: Vec<SeatVisitLine>,
    /// Partners (80分) or teammates (够级) at one table reached from one address or device.
    pub shared: Vec<SharedLine>,
    /// The competition's terms: a second device replaces (`replace`) or is refused (`refuse`).
    pub second_device: SecondDevice,
    /// 托管 allowed at its tables.
    pub auto_play: bool,
}

/// One connection to a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatVisitLine {
    pub round: u32,
    pub table: u32,
    /// The board (80分) or game (够级).
    pub slot: u32,
    pub seat: SeatIndex,
    /// The seat as players say it: 北, 东 …; A1, B2 ….
    pub seat_name: String,
    /// Who holds the seat (the player's name).
    pub player: String,
    /// The server's clock.
    pub at_ms: u64,
    /// `opened`, `replaced` (an older connection on the seat closed), `refused` (a second
    /// device, refused), `closed`.
    pub what: VisitKind,
    /// The address's mark (equal marks, same address; never the address).
    pub address: String,
    /// The device's mark, when the page sent its id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

/// Seats of one side of a table reached from one address (or one device).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedLine {
    pub round: u32,
    pub table: u32,
    pub seats: Vec<SeatIndex>,
    pub players: Vec<String>,
    /// One device, not only one address.
    pub device: bool,
    pub mark: String,
}

/// A 够级 team as everyone may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamInfo {
    /// In the order registered, from 1.
    pub number: u32,
    /// The team's name, unique in the event (the draw and the results name teams by it).
    pub name: String,
    /// The three players, seats 1, 2, 3 of the team's side.
    pub names: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organisation: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// A 够级 event: teams, draw, stages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoujiView {
    pub teams: Vec<TeamInfo>,
    /// The groups as drawn at round 1 (小组, no two teams of one organisation in a group).
    pub groups: Vec<GoujiGroup>,
    /// Games of the final.
    pub final_games: u32,
    /// One per round started: knockout rounds, then the final.
    pub stages: Vec<GoujiStage>,
    /// What the next round will be: `"knockout"` or `"final"`; absent once the final is drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoujiGroup {
    pub name: String,
    pub teams: Vec<String>,
}

/// One round of a 够级 event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoujiStage {
    pub round: u32,
    /// `"knockout"` or `"final"`.
    pub kind: String,
    /// `"drawing"`, `"playing"`, `"closed"`.
    pub state: String,
    /// Knockout: the matches (table n is match n).
    pub matches: Vec<GoujiMatch>,
    /// Knockout: the teams with a bye (轮空).
    pub byes: Vec<String>,
    /// The final: groups A and B, in their starting table order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_groups: Option<GoujiFinalGroups>,
    /// Every game of the round opened so far or to come (a match's games in order; the
    /// final's games table by table), with who sits A and B.
    pub games: Vec<GoujiGame>,
    /// Team deductions (扣该队4分) made in this round.
    pub deductions: Vec<TeamDeductionLine>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoujiFinalGroups {
    pub a: Vec<String>,
    pub b: Vec<String>,
}

/// A knockout match: six games at one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoujiMatch {
    pub table: u32,
    pub group: String,
    /// The team in seats A1…A3 (A1 leads every game).
    pub a: String,
    pub b: String,
    /// Games with a result (extra games not counted).
    pub played: u32,
    /// Totals so far, deductions off (director, or once final).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<[i32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Six games in and level on points, 头科 and 大落: an extra game is played.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub extra_game_needed: bool,
    /// Its extra games are all played and it is still level: the director draws lots
    /// (`POST /api/events/{id}/lot`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lot_needed: bool,
    /// Decided by the director's lot: the reason (director, or once final).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lot: Option<String>,
}

/// One game at one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoujiGame {
    pub table: u32,
    /// From 1 in its match (or the final); an extra game follows the scheduled ones.
    pub game: u32,
    /// The deal: `paiju deal --game gouji --seed … --board {deal}` once the seed is revealed.
    pub deal: u32,
    pub a: String,
    pub b: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub extra: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<TableState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// Director, or once final.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GoujiGameResult>,
    /// The director's reason, where the result is the director's ruling rather than the table's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjusted: Option<String>,
    /// The game's result as a referee's ruling at its table revised it after it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revised: Option<Revision>,
    /// Each team's captain's word on the result (director, or once final).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confirms: Vec<GameConfirm>,
    pub done: bool,
    /// Moves 托管 made for each seat (A1, B1, A2, …), where the competition allows 托管
    /// (with the result). Empty: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auto_moves: Vec<u32>,
}

/// A team captain's word on a game's result: agreed, or disputed with a note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameConfirm {
    pub team: String,
    pub agree: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A game's result as the engine scored it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoujiGameResult {
    /// Team A's points, then B's.
    pub a: i32,
    pub b: i32,
    /// The side that took 头科 (`"a"`, `"b"`), none after a forfeit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// The side of every 大落.
    pub last: Vec<String>,
}

/// A team deduction as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamDeductionLine {
    pub round: u32,
    pub team: String,
    pub points: i32,
    pub reason: String,
}

/// `POST /api/events/{id}/team-deductions` (director, 够级): 扣该队4分, in the round being played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamDeductionIn {
    /// The team's number.
    pub team: u32,
    /// 4 when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<i32>,
    pub reason: String,
}

/// `POST /api/events/{id}/games/adjust` (director, 够级): the director's ruling on a finished
/// game of the round being played. Its result is replaced by `result` and marked adjusted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameAdjustIn {
    pub table: u32,
    pub game: u32,
    pub result: GoujiGameResult,
    pub reason: String,
}

/// `POST /api/events/{id}/lot` (director, 够级): the lot drawn in person for a knockout match
/// still level after its extra games; `winner` is a team of that match, by name or number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LotIn {
    pub table: u32,
    pub winner: String,
    pub reason: String,
}

/// `GET /api/events`: one line per event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompetitionBrief {
    pub id: String,
    pub name: String,
    pub game: String,
    pub state: CompetitionState,
    pub round: u32,
    pub rounds: u32,
    /// Past one machine: the address of the node running it (`--advertise`), in the lists of
    /// every node. Absent on one machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// A practice set's line (not an event's: `GET /api/events` leaves it out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub practice: Option<crate::PracticeBrief>,
}

/// `POST /api/events/{id}/join`: a player of a pair sits down at the pair's current board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompetitionJoin {
    /// The player's token from their card.
    pub token: String,
    /// The player's own seat at the table (refused if it is not theirs); theirs when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<SeatIndex>,
    /// Display name; the registered name for that seat when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A practice set: the computers' level of a run begun now (the server sets it from
    /// `PracticeJoin`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
}

/// The answer to [`CompetitionJoin`]: a seat at a table, as [`Joined`](crate::Joined), and where it is in the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompetitionJoined {
    pub table: String,
    pub seat: SeatIndex,
    /// The seat token (asking again with the pair token gives the same one).
    pub token: String,
    pub round: u32,
    /// The event's table number (桌号).
    pub table_no: u32,
    pub board: u32,
}

/// `POST /api/events/{id}/pair` and `/confirm`: a pair's own view, by its token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairToken {
    pub token: String,
}

/// `POST /api/events/{id}/confirm`: at the end of a round NS record and EW check the board
/// results of their table (随牌记录卡); a pair that disputes them calls the referee.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfirmResults {
    pub token: String,
    /// `true`: the results are right; `false`: disputed (a `note` is required).
    pub agree: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A pair's view of itself: where it plays now and its own results this round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairStatus {
    #[serde(flatten)]
    pub pair: PairInfo,
    pub event: String,
    /// The round it plays or last played (0: none started).
    pub round: u32,
    /// Its table in that round and the boards there, with results (its own: it played them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<CompetitionTable>,
    /// Its tables of the earlier rounds, with its results there, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier: Vec<PairRound>,
    /// 够级 (a team token; `direction` is `"team"`): the team's own match this round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<TeamStatus>,
    /// Whose token asked: the player's number on the pair's (or team's) card, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<u32>,
    /// A practice set: the player's run, board by board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub practice: Option<crate::PracticeRunView>,
}

/// A 够级 team's own view of the round it plays (or last played): its match, its games with
/// their results (its own: it played them), its totals. Never another match's results before
/// the public sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamStatus {
    pub name: String,
    /// `"waiting"` (no round drawn yet), `"knockout"`, `"final"`, `"bye"` (轮空 this round),
    /// `"out"` (lost a knockout match).
    pub stage: String,
    /// The round `stage` is about (0: none yet).
    pub round: u32,
    /// Knockout: the team it plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<String>,
    /// The final: the team's group, `"A"` or `"B"`, and both groups in starting table order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_group: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_groups: Option<GoujiFinalGroups>,
    /// Its games of the round in order: the scheduled ones (played or to come: the final's
    /// rotation) and the extra games opened so far.
    pub games: Vec<TeamGame>,
    /// Totals over its games of the round with deductions off: itself first, then (knockout)
    /// its opponent.
    pub totals: Vec<TeamTotal>,
    /// Knockout: the match's winner, once decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Knockout: decided by the director's lot, the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lot: Option<String>,
    /// `"out"`: the round it lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_round: Option<u32>,
    /// The knockout matches it played (and won) before this round, oldest first, each as above
    /// (their own `earlier` empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier: Vec<TeamStatus>,
}

/// One game of a team, from its side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamGame {
    pub table: u32,
    pub game: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub extra: bool,
    /// `"a"` (seats A1–A3: 0, 2, 4) or `"b"` (B1–B3: 1, 3, 5).
    pub side: String,
    pub opponent: String,
    pub done: bool,
    /// The game it is to play now (its table is open or opening): where 「入座打牌」 seats it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub now: bool,
    /// Once finished: the game's result (A's points, B's, 头科, 大落 by side).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GoujiGameResult>,
    /// The director's ruling on it, the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjusted: Option<String>,
    /// The game's result as a referee's ruling at its table revised it after it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revised: Option<Revision>,
    /// The team's own word on the result once finished: `"agreed"`, `"disputed"` or absent (not
    /// signed yet; a ruling asks again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signed: Option<String>,
}

/// A team's totals over its games of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamTotal {
    pub team: String,
    /// Points with deductions off.
    pub points: i32,
    pub firsts: u32,
    pub lasts: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deducted: i32,
}

fn is_zero(x: &i32) -> bool {
    *x == 0
}

/// One earlier round of a pair: its table there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairRound {
    pub round: u32,
    pub table: CompetitionTable,
}

/// `POST /api/events/{id}/adjust` (director): an adjusted (assigned points) or artificial
/// result for one board of one table, replacing the table's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdjustResult {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    /// Assigned defenders' points (a multiple of 5), e.g. 120 for 判违规方负.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defenders: Option<i32>,
    /// Or artificial scores: `A` 50 %, `A+` 60 %, `A-` 40 % of the top.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artificial: Option<ArtificialPair>,
    pub reason: String,
}

/// `POST /api/events/{id}/deductions` (director): 0.5 比赛分 off a pair's total.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeductionIn {
    /// `"NS"` or `"EW"`.
    pub direction: String,
    pub pair: u32,
    /// Match points off: 0.5 when absent; a positive multiple of 0.5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mp: Option<f64>,
    pub reason: String,
    /// What the offence was; `signalling` (传递非法信息): the pair's second one disqualifies it
    /// in the same step (累计二次以上传递非法信息的，取消违规方比赛资格).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<DeductionKind>,
}

/// The kind of offence a deduction is for, where it matters to what follows (`signalling`).
pub use tournament::competition::duplicate::DeductionKind;

/// `POST /api/events/{id}/forfeit` (director): a pair more than 10 minutes late forfeits the
/// round (比赛一方迟到超过10分钟，判违规方该轮弃权).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForfeitIn {
    /// `"NS"` or `"EW"`.
    pub direction: String,
    pub pair: u32,
    pub reason: String,
}

/// `POST /api/events/{id}/reveal` (director): the body is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevealSeed {
    /// Finish after fewer rounds than planned (every round started is closed).
    #[serde(default)]
    pub early: bool,
}

/// `POST /api/events/{id}/disqualify` (director): the pair plays no more boards, its finished
/// results stand in everyone else's scores, its place is filled by the pairs below it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisqualifyIn {
    /// `"NS"` or `"EW"`.
    pub direction: String,
    pub pair: u32,
    pub reason: String,
}

/// `POST /api/events/{id}/rounds/{r}/close` (director).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseRound {
    /// Close although a pair has not confirmed, or disputes (the director has ruled).
    #[serde(default)]
    pub force: bool,
}
