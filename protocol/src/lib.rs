//! paiju's wire types: what travels between the table server and its clients.
//!
//! Named by direction, like lila-ws: [`ClientIn`] is what a client sends on the WebSocket,
//! [`ClientOut`] what the server sends back. Both are JSON text frames, one message per frame,
//! tagged by `"type"` (snake_case). The lobby (create, list, join, leave) is plain JSON over HTTP:
//! [`CreateTable`], [`TableSummary`], [`JoinSeat`], [`Joined`], [`LeaveSeat`], [`Problem`].
//! Events (赛事: 80分 duplicate pairs run by a director) are plain JSON over HTTP too:
//! [`CreateCompetition`], [`CompetitionView`], [`CompetitionJoin`], [`ConfirmResults`], [`AdjustResult`], … (see
//! docs/tournaments.md).
//!
//! Every refusal of the server is a [`Refusal`] (`refusal.rs`: one variant a code, with its HTTP
//! status, close code and words); on the wire it is a [`Problem`], as the engines' refusals are.
//!
//! The socket layer knows nothing of the games: actions, events and views are carried as
//! [`serde_json::Value`]s that the engines (`rules::shengji`, `rules::gouji`) define. Every table
//! event carries a sequence number (`seq`), the index of the stored log entry it came from, so a
//! reconnecting client can say what it last saw. docs/protocol.md shows every message with an
//! example.
//!
//! One file an area; every type is re-exported here, so `protocol::X` is the one path to it:
//!
//! - `lobby.rs`: tables over HTTP (open, list, join, leave) and the seats and states a table shows.
//! - `socket.rs`: the table's WebSocket ([`ClientIn`], [`ClientOut`], [`Role`], [`Clock`]).
//! - `close.rs`: the socket's close codes ([`close`]), which the refusals name too.
//! - `competition.rs`: events (赛事) over HTTP, 80分 pairs and 够级 teams.
//! - `practice.rs`: practice against the field (练习): a player's identity, the sets, a run's
//!   boards with their fields, the history.
//! - `problem.rs`: [`Problem`], a refusal on the wire, whoever refused.
//! - `refusal.rs`: the server's own refusals ([`Refusal`]) and their codes.

pub mod close;
mod competition;
mod lobby;
mod practice;
mod problem;
mod refusal;
mod socket;

pub use competition::{
    AdjustResult, ArtificialPair, BoardResult, CloseRound, CompetitionBoard, CompetitionBrief,
    CompetitionCards, CompetitionJoin, CompetitionJoined, CompetitionRound, CompetitionState,
    CompetitionTable, CompetitionView, ConductView, ConfirmResults, CreateCompetition, DeductionIn,
    DeductionKind, DisqualifyIn, EntryIn, ForfeitIn, GameAdjustIn, GameConfirm, GoujiFinalGroups,
    GoujiGame, GoujiGameResult, GoujiGroup, GoujiMatch, GoujiStage, GoujiView, LotIn, MovementKind,
    PairCard, PairInfo, PairRound, PairStatus, PairToken, PlayerCard, RegisterEntries, RevealSeed,
    Revision, SeatVisitLine, SecondDevice, SharedLine, TableCard, TeamCard, TeamDeductionIn,
    TeamDeductionLine, TeamGame, TeamInfo, TeamStatus, TeamTotal, TimeoutsCounted, VisitKind,
};
pub use lobby::{
    CreateTable, JoinSeat, Joined, LeaveSeat, SeatIndex, SeatInfo, TableState, TableSummary,
};
pub use practice::{
    EventLine, PlayerEvent, PlayerMade, PlayerNew, PlayerToken, PlayerView, PracticeBoardLine,
    PracticeBoardView, PracticeBrief, PracticeCreate, PracticeExplain, PracticeFieldLine,
    PracticeHistoryLine, PracticeJoin, PracticeLine, PracticeReplay, PracticeResult,
    PracticeRunView, PracticeSetView,
};
pub use problem::Problem;
pub use refusal::{
    codes, BadMessage, EventTableAsk, Limited, NameFault, ReasonFault, Refusal, SeatFault, Words,
    Wrong,
};
pub use socket::{
    parse_client_in, Actor, AtCompetition, ClientIn, ClientOut, Clock, Role, MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
};
