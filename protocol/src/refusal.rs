//! The server's refusals: one variant per stable code, each carrying what its words need (a
//! seat, a limit, a name), and this one place that gives a variant its wire code, its HTTP
//! status, the close code it ends a socket with, and its words in Chinese and English.
//!
//! On the wire a refusal is a [`Problem`] (`{"code","zh","en"}`), over HTTP with
//! [`Refusal::status`] and on the socket inside `error` or `rejected`. The engines' refusals are
//! not here: their codes and words are the rules crate's (`rules::Explain`, [`Problem::explain`]);
//! where a server path carries either, [`Refusal::Rule`] holds the engine's problem as it is.
//!
//! The codes are listed in docs/protocol.md ("Server refusal codes"); a test keeps the list, the
//! [`codes`] constants and the variants the same set.

use crate::{close, Problem};

/// The stable code strings of the server's refusals, for whoever matches on a [`Problem`]'s
/// `code` (clients, and server paths where an engine's refusal travels alongside).
pub mod codes {
    pub const BAD_JSON: &str = "bad_json";
    pub const UNKNOWN_TYPE: &str = "unknown_type";
    pub const BAD_MESSAGE: &str = "bad_message";
    pub const HELLO_FIRST: &str = "hello_first";
    pub const BAD_TOKEN: &str = "bad_token";
    pub const NOT_YOUR_SEAT: &str = "not_your_seat";
    pub const SPECTATOR: &str = "spectator";
    pub const BAD_ACTION: &str = "bad_action";
    pub const RATE_LIMITED: &str = "rate_limited";
    pub const TABLE_CLOSED: &str = "table_closed";
    pub const NO_TABLE: &str = "no_table";
    pub const SEAT_TAKEN: &str = "seat_taken";
    pub const BAD_SEAT: &str = "bad_seat";
    pub const BAD_NAME: &str = "bad_name";
    pub const BAD_REQUEST: &str = "bad_request";
    pub const UNKNOWN_GAME: &str = "unknown_game";
    pub const UNKNOWN_RULESET: &str = "unknown_ruleset";
    pub const TOO_MANY_TABLES: &str = "too_many_tables";
    pub const BAD_ORIGIN: &str = "bad_origin";
    pub const STORE_FAILED: &str = "store_failed";
    pub const GAME_OVER: &str = "game_over";
    pub const TABLE_WAITING: &str = "table_waiting";
    pub const STALE: &str = "stale";
    pub const REASON: &str = "reason";
    pub const TABLE_REBUILDING: &str = "table_rebuilding";
    pub const ELSEWHERE: &str = "elsewhere";
    pub const ALREADY_ASKED: &str = "already_asked";
    pub const REFEREE_ONLY: &str = "referee_only";
    pub const UNDER_REVIEW: &str = "under_review";
    pub const NOT_YET_PUBLIC: &str = "not_yet_public";
    pub const NOT_FOUND: &str = "not_found";
    pub const METHOD_NOT_ALLOWED: &str = "method_not_allowed";
    pub const TOO_BIG: &str = "too_big";
    pub const HEAD_TOO_BIG: &str = "head_too_big";
    pub const URI_TOO_LONG: &str = "uri_too_long";
    pub const BAD_CONTENT_TYPE: &str = "bad_content_type";
    pub const TIMEOUT: &str = "timeout";
    pub const BAD_HOST: &str = "bad_host";
    pub const INTERNAL: &str = "internal";
    pub const NOT_DIRECTOR: &str = "not_director";
    pub const NO_EVENT: &str = "no_event";
    pub const BAD_PAIR_TOKEN: &str = "bad_pair_token";
    pub const BAD_PLAYER_CODE: &str = "bad_player_code";
    pub const EVENT_TABLE: &str = "event_table";
    pub const SEAT_IN_USE: &str = "seat_in_use";
    pub const SEAT_MOVED: &str = "seat_moved";
    pub const NO_AUTO_PLAY: &str = "no_auto_play";
    pub const COMPETITION_TABLE_CLOSED: &str = "competition_table_closed";
}

/// Why the server refused a request, a message or an action. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    // --- the socket's messages ---
    /// A frame that is not JSON.
    BadJson { detail: String },
    /// A message whose `"type"` is not one of `ClientIn::TYPES`.
    UnknownType { kind: String },
    /// A known message with wrong or unknown fields, or a second `hello`.
    BadMessage(BadMessage),
    /// Anything before `hello`, or no `hello` within `Limits::hello_within` (`late`).
    HelloFirst { late: bool },
    /// A seat token (or the referee's) that is not valid at this table.
    BadToken,
    /// Over a limit of messages, refused tokens, tables created or requests.
    RateLimited(Limited),

    // --- acting at a table ---
    /// A player named another seat in `act`.
    NotYourSeat,
    /// A spectator asked to act (`auto`: for 托管, which only a seated player can ask for).
    Spectator { auto: bool },
    /// The action's JSON is not one of the engine's actions.
    BadAction { detail: String },
    /// After the end only the referee may act.
    GameOver,
    /// A seat is still empty: play starts when every seat is taken.
    TableWaiting,
    /// The action was decided on step `decided`; the table is at `now`.
    Stale { decided: u64, now: u64 },
    /// A reason where none belongs, or none where one must be (1 to `max` characters).
    Reason(ReasonFault),
    /// A question (问牌) asked again before anything changed.
    AlreadyAsked,
    /// Only the referee may put a table under review.
    RefereeOnly,
    /// A player's act while the referee has the table under review.
    UnderReview,

    // --- tables and seats ---
    /// The table's actor has gone (closed).
    TableClosed,
    /// No such open table.
    NoTable,
    /// The seat is taken (by a player or a bot).
    SeatTaken,
    /// A seat that is not there, or not the one's to take.
    BadSeat(SeatFault),
    /// A display name that is empty, too long, or reserved for bots.
    BadName(NameFault),
    /// A game this server does not have; `known`: the ones it has, if the caller lists them.
    UnknownGame { game: String, known: Vec<String> },
    /// A ruleset the game does not have.
    UnknownRuleset {
        game: String,
        name: String,
        known: Vec<String>,
    },
    /// The cap on open tables, or (`no_free_code`) no unused table code found.
    TooManyTables { no_free_code: bool },
    /// The table stopped after a failed write and is being rebuilt from its log: retry.
    TableRebuilding,
    /// Past one machine: another node (`owner`) serves this table, or runs this event.
    Elsewhere { owner: String, event: bool },
    /// A table's replay before it is public.
    NotYetPublic,
    /// A table of an event, asked what only its players do, with their tokens.
    CompetitionTable(EventTableAsk),
    /// A competition's table: the seat is held by a live connection on another device, and
    /// the competition refuses a second one.
    SeatInUse,
    /// A competition's table: this connection's seat was taken by a newer one (told before it
    /// is closed).
    SeatMoved,
    /// A competition's table: 托管 is off (a person plays their own cards) unless the
    /// director allows it for the competition.
    NoAutoPlay,
    /// A competition's table closed (its round is over, or the director settled its board):
    /// nothing reaches it; results change by the director's adjustment only.
    CompetitionTableClosed,

    // --- HTTP ---
    /// A request that is wrong in itself (see [`Wrong`]).
    BadRequest(Wrong),
    /// A browser `Origin` that is not allowed.
    BadOrigin,
    /// A `Host` that names none of this server's names (DNS rebinding).
    BadHost,
    /// No such API route (`api`), or no such file.
    NotFound { api: bool },
    /// The route does not take this method.
    MethodNotAllowed,
    /// A body over `max_kib` KiB (`None`: refused before we read it).
    TooBig { max_kib: Option<usize> },
    /// A request head over the server's buffer (hyper's own 431, `head_too_big`), or (`uri`) a
    /// request line whose path is too long (its 414, `uri_too_long`): answered before the
    /// request reaches a route.
    HeadTooBig { uri: bool },
    /// A POST whose `Content-Type` is not `application/json`.
    BadContentType,
    /// The body did not arrive in time.
    Timeout,

    // --- our side ---
    /// The store could not write (or, `reading`, read).
    StoreFailed { detail: String, reading: bool },
    /// Something broke on our side; `what` says what, in both languages.
    Internal(Words),

    // --- events ---
    /// A director-only call without the director's token (`no_director`: the server has none).
    NotDirector { no_director: bool },
    /// No such event.
    NoCompetition,
    /// A player token that names no player of the event.
    BadPairToken,
    /// A personal code (练习) that names no player.
    BadPlayerCode,

    /// A rule engine's refusal, as the engine words it (`rules::Explain`): its code is the
    /// engine's, not one of ours.
    Rule(Problem),
}

/// What is wrong with a message of a known type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadMessage {
    /// Wrong or unknown fields in a message of type `kind`.
    Fields { kind: String, detail: String },
    /// `hello` came a second time.
    SecondHello,
}

/// What was asked of an event's table through the lobby, and refused there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventTableAsk {
    /// A seat: an event's seats are taken with the player token on the seating card.
    Sit,
    /// Watching: nobody watches a board others have still to play.
    Watch,
    /// Leaving a seat: a competitor's seat stays theirs for the round (closing the page is
    /// enough), so that nobody else can sit in it and the pair's token still reaches it.
    Leave,
}

/// Which limit a client went over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limited {
    /// A connection's messages (it keeps its connection).
    Messages,
    /// Refused tokens from one address: its tokens are refused unchecked for a while.
    RefusedTokens,
    /// Tables created from one address.
    Tables,
    /// Requests, as a layer below us counted them.
    Requests,
}

/// What is wrong with a reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReasonFault {
    /// A player's act carries one: only a referee's does.
    FromPlayer,
    /// A referee's ruling or move without one (1 to `max` characters).
    RulingWithout { max: usize },
    /// A review turned on without one (1 to `max` characters).
    ReviewWithout { max: usize },
}

/// What is wrong with a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatFault {
    /// No such seat at this table.
    NoSuchSeat,
    /// A bot asked for seat `seat`; the table has `seats`.
    NoSuchBotSeat { seat: usize, seats: usize },
    /// A referee's ruling that names no valid seat.
    RulingWithoutSeat,
    /// An event's pair asked for `seat`; theirs are `theirs`, their direction named in
    /// A competition's player asked for `seat`; theirs at this table is `yours`, which the
    /// players call `zh` / `en` (北, A2).
    NotYours {
        seat: usize,
        yours: usize,
        zh: String,
        en: String,
    },
}

/// Why a display name is refused: the rules crate's, one rule for every place a name is typed.
pub use rules::name::NameFault;

/// What is wrong with a request in itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wrong {
    /// The body is not the JSON the route takes.
    Body { detail: String },
    /// The body could not be read.
    Unreadable { detail: String },
    /// The body is not UTF-8.
    NotUtf8,
    /// Not a well-formed HTTP request (its request line or a header), refused by the HTTP
    /// parser before any route saw it.
    Malformed,
    /// Board 0: boards are numbered from 1.
    BoardZero,
    /// Seconds a play outside 15 to 120.
    PlaySeconds { seconds: u32 },
    /// A 电脑水平 that is not beginner, club or expert (nor their Chinese labels).
    BotLevel { level: String },
    /// A level that is not a rank.
    Level { level: String },
    /// A trump that is not a suit letter or NT.
    Trump { trump: String },
    /// A level or trump fixed for a game (`zh`, `en`: its name) that has none to fix.
    NothingToFix { zh: String, en: String },
    /// A direction that is not NS or EW.
    Direction { direction: String },
    /// Said elsewhere (the referee's replay, the event's checks), in both languages.
    Said(Words),
}

/// One thing said in both languages: words made where a refusal arose (and the referee's
/// tools' words, which JSON output carries both of).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Words {
    pub zh: String,
    pub en: String,
}

impl Words {
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Words {
        Words {
            zh: zh.into(),
            en: en.into(),
        }
    }

    /// What an engine error says about itself.
    pub fn explain(e: &impl rules::Explain) -> Words {
        Words::new(e.zh(), e.en())
    }

    /// One text for both languages (a message that exists only in one).
    pub fn same(text: impl Into<String>) -> Words {
        let text = text.into();
        Words {
            zh: text.clone(),
            en: text,
        }
    }
}

impl Refusal {
    /// The stable code on the wire.
    pub fn code(&self) -> &str {
        use codes::*;
        match self {
            Refusal::BadJson { .. } => BAD_JSON,
            Refusal::UnknownType { .. } => UNKNOWN_TYPE,
            Refusal::BadMessage(_) => BAD_MESSAGE,
            Refusal::HelloFirst { .. } => HELLO_FIRST,
            Refusal::BadToken => BAD_TOKEN,
            Refusal::RateLimited(_) => RATE_LIMITED,
            Refusal::NotYourSeat => NOT_YOUR_SEAT,
            Refusal::Spectator { .. } => SPECTATOR,
            Refusal::BadAction { .. } => BAD_ACTION,
            Refusal::GameOver => GAME_OVER,
            Refusal::TableWaiting => TABLE_WAITING,
            Refusal::Stale { .. } => STALE,
            Refusal::Reason(_) => REASON,
            Refusal::AlreadyAsked => ALREADY_ASKED,
            Refusal::RefereeOnly => REFEREE_ONLY,
            Refusal::UnderReview => UNDER_REVIEW,
            Refusal::TableClosed => TABLE_CLOSED,
            Refusal::NoTable => NO_TABLE,
            Refusal::SeatTaken => SEAT_TAKEN,
            Refusal::BadSeat(_) => BAD_SEAT,
            Refusal::BadName(_) => BAD_NAME,
            Refusal::UnknownGame { .. } => UNKNOWN_GAME,
            Refusal::UnknownRuleset { .. } => UNKNOWN_RULESET,
            Refusal::TooManyTables { .. } => TOO_MANY_TABLES,
            Refusal::TableRebuilding => TABLE_REBUILDING,
            Refusal::Elsewhere { .. } => ELSEWHERE,
            Refusal::NotYetPublic => NOT_YET_PUBLIC,
            Refusal::CompetitionTable(_) => EVENT_TABLE,
            Refusal::SeatInUse => SEAT_IN_USE,
            Refusal::SeatMoved => SEAT_MOVED,
            Refusal::NoAutoPlay => NO_AUTO_PLAY,
            Refusal::CompetitionTableClosed => COMPETITION_TABLE_CLOSED,
            Refusal::BadRequest(_) => BAD_REQUEST,
            Refusal::BadOrigin => BAD_ORIGIN,
            Refusal::BadHost => BAD_HOST,
            Refusal::NotFound { .. } => NOT_FOUND,
            Refusal::MethodNotAllowed => METHOD_NOT_ALLOWED,
            Refusal::TooBig { .. } => TOO_BIG,
            Refusal::HeadTooBig { uri: false } => HEAD_TOO_BIG,
            Refusal::HeadTooBig { uri: true } => URI_TOO_LONG,
            Refusal::BadContentType => BAD_CONTENT_TYPE,
            Refusal::Timeout => TIMEOUT,
            Refusal::StoreFailed { .. } => STORE_FAILED,
            Refusal::Internal(_) => INTERNAL,
            Refusal::NotDirector { .. } => NOT_DIRECTOR,
            Refusal::NoCompetition => NO_EVENT,
            Refusal::BadPairToken => BAD_PAIR_TOKEN,
            Refusal::BadPlayerCode => BAD_PLAYER_CODE,
            Refusal::Rule(p) => &p.code,
        }
    }

    /// The HTTP status it is answered with (docs/protocol.md lists each; a test checks them).
    pub fn status(&self) -> u16 {
        match self {
            Refusal::Elsewhere { .. } => 307,
            Refusal::BadToken
            | Refusal::NotYetPublic
            | Refusal::CompetitionTable(_)
            | Refusal::BadOrigin
            | Refusal::BadHost
            | Refusal::NotDirector { .. }
            | Refusal::NoAutoPlay
            | Refusal::BadPairToken
            | Refusal::BadPlayerCode => 403,
            Refusal::NoTable | Refusal::NotFound { .. } | Refusal::NoCompetition => 404,
            Refusal::MethodNotAllowed => 405,
            Refusal::Timeout => 408,
            Refusal::SeatTaken | Refusal::SeatInUse | Refusal::SeatMoved => 409,
            Refusal::TableClosed | Refusal::CompetitionTableClosed => 410,
            Refusal::TooBig { .. } => 413,
            Refusal::HeadTooBig { uri: true } => 414,
            Refusal::HeadTooBig { uri: false } => 431,
            Refusal::BadContentType => 415,
            Refusal::RateLimited(_) => 429,
            Refusal::StoreFailed { reading: false, .. } | Refusal::Internal(_) => 500,
            Refusal::StoreFailed { reading: true, .. }
            | Refusal::TooManyTables { .. }
            | Refusal::TableRebuilding => 503,
            // The rest are wrong requests, messages or actions, and an engine's refusals.
            _ => 400,
        }
    }

    /// The WebSocket close code when this refusal ends a connection (a `hello` refused, a
    /// message before it); `None` for a refusal that leaves the socket open.
    pub fn close(&self) -> Option<u16> {
        match self {
            Refusal::BadToken => Some(close::BAD_TOKEN),
            Refusal::NoTable
            | Refusal::TableClosed
            | Refusal::CompetitionTable(_)
            | Refusal::CompetitionTableClosed => Some(close::NO_TABLE),
            Refusal::TableRebuilding => Some(close::RETRY),
            Refusal::HelloFirst { .. } | Refusal::BadMessage(BadMessage::SecondHello) => {
                Some(close::BAD_HELLO)
            }
            Refusal::RateLimited(Limited::RefusedTokens) => Some(close::RATE_LIMITED),
            Refusal::Elsewhere { .. } => Some(close::ELSEWHERE),
            Refusal::SeatInUse => Some(close::SEAT_IN_USE),
            Refusal::SeatMoved => Some(close::SEAT_MOVED),
            _ => None,
        }
    }

    /// The words, Chinese first.
    pub fn words(&self) -> Words {
        fn w(zh: impl Into<String>, en: impl Into<String>) -> Words {
            Words::new(zh, en)
        }
        match self {
            Refusal::BadJson { detail } => w(
                format!("消息不是有效的 JSON：{detail}"),
                format!("the message is not valid JSON: {detail}"),
            ),
            Refusal::UnknownType { kind } => w(
                format!("未知的消息类型「{kind}」"),
                format!("unknown message type \"{kind}\""),
            ),
            Refusal::BadMessage(BadMessage::Fields { kind, detail }) => w(
                format!("「{kind}」消息的字段有误：{detail}"),
                format!("bad fields in a \"{kind}\" message: {detail}"),
            ),
            Refusal::BadMessage(BadMessage::SecondHello) => {
                w("已经打过招呼了", "hello was already sent")
            }
            Refusal::HelloFirst { late: false } => w("请先发送 hello", "send hello first"),
            Refusal::HelloFirst { late: true } => w("没有及时发送 hello", "no hello in time"),
            Refusal::BadToken => w(
                "座位凭证无效（可能已离座）",
                "the seat token is not valid here (the seat may have been left)",
            ),
            Refusal::RateLimited(Limited::Messages) => {
                w("操作太快了，请稍等", "too many messages: slow down")
            }
            Refusal::RateLimited(Limited::RefusedTokens) => w(
                "错误的凭证太多，请过一会儿再试",
                "too many refused tokens from this address: wait a minute",
            ),
            Refusal::RateLimited(Limited::Tables) => w(
                "开桌太频繁了，请稍后再试",
                "too many tables created from this address: try again shortly",
            ),
            Refusal::RateLimited(Limited::Requests) => w("请求太频繁", "too many requests"),
            Refusal::NotYourSeat => w(
                "你只能为自己的座位出牌",
                "you can act only for your own seat",
            ),
            Refusal::Spectator { auto: false } => w("观战者不能出牌", "a spectator cannot act"),
            Refusal::Spectator { auto: true } => w(
                "只有入座的玩家可以托管",
                "only a seated player can ask for auto-play",
            ),
            Refusal::BadAction { detail } => w(
                format!("无法识别的动作：{detail}"),
                format!("not an action of this game: {detail}"),
            ),
            Refusal::GameOver => w("这一局已经结束", "the game is over"),
            Refusal::TableWaiting => w(
                "还有空座位，牌局尚未开始",
                "the game starts when every seat is taken",
            ),
            Refusal::Stale { decided, now } => w(
                format!("局面已变，这步没有送达（您看到的是第 {decided} 步，牌桌已到第 {now} 步）"),
                format!(
                    "the table moved on before this arrived (you decided at step {decided}, the table is at {now}); nothing was played"
                ),
            ),
            Refusal::Reason(ReasonFault::FromPlayer) => w(
                "只有裁判的动作附带理由",
                "only a referee's action carries a reason",
            ),
            Refusal::Reason(ReasonFault::RulingWithout { max }) => w(
                format!("裁判的判罚或代为出牌须写明理由（1 到 {max} 个字）"),
                format!(
                    "a referee's ruling or move on a seat's behalf needs a reason (1 to {max} characters)"
                ),
            ),
            Refusal::Reason(ReasonFault::ReviewWithout { max }) => w(
                format!("审查须写明理由（1 到 {max} 个字）"),
                format!("a review needs a reason (1 to {max} characters)"),
            ),
            Refusal::AlreadyAsked => w(
                "刚刚问过了：有人出牌后才能再问",
                "you just asked: ask again after the next play",
            ),
            Refusal::RefereeOnly => w(
                "只有裁判可以暂停牌局进行审查",
                "only the referee can put a table under review",
            ),
            Refusal::UnderReview => w(
                "裁判正在审查本桌，请等审查结束再出牌",
                "the referee has the table under review: play on when it ends",
            ),
            Refusal::TableClosed => w("牌桌已关闭", "the table is closed"),
            Refusal::NoTable => w("没有这张牌桌", "no such table"),
            Refusal::SeatTaken => w("这个座位已经有人了", "that seat is taken"),
            Refusal::BadSeat(SeatFault::NoSuchSeat) => w("没有这个座位", "there is no such seat"),
            Refusal::BadSeat(SeatFault::NoSuchBotSeat { seat, seats }) => w(
                format!("没有座位 {seat}"),
                format!("there is no seat {seat} (seats are 0..{seats})"),
            ),
            Refusal::BadSeat(SeatFault::RulingWithoutSeat) => {
                w("裁判判罚必须指明座位", "a ruling must name a seat")
            }
            Refusal::BadSeat(SeatFault::NotYours { seat, zh, en, .. }) => w(
                format!("这一副您的座位是{zh}，不是 {seat} 号座位；每位选手只坐自己的座位"),
                format!("seat {seat} is not yours: yours at this table is {en} (each player sits in their own seat)"),
            ),
            Refusal::BadName(fault) => Words::explain(fault),
            Refusal::UnknownGame { game, known } if known.is_empty() => w(
                format!("没有这种玩法「{game}」"),
                format!("unknown game \"{game}\""),
            ),
            Refusal::UnknownGame { game, known } => w(
                format!("没有这种玩法「{game}」"),
                format!(
                    "unknown game \"{game}\" (this server has: {})",
                    known.join(", ")
                ),
            ),
            Refusal::UnknownRuleset { game, name, known } => w(
                format!("{game} 没有「{name}」这套规则（可选：{}）", known.join("、")),
                format!("{game} has no ruleset \"{name}\" (known: {})", known.join(", ")),
            ),
            Refusal::TooManyTables { no_free_code: false } => w(
                "牌桌已满，请稍后再试",
                "too many tables are open; try again later",
            ),
            Refusal::TooManyTables { no_free_code: true } => w(
                "牌桌已满，请稍后再试",
                "no free table code: try again later",
            ),
            Refusal::TableRebuilding => w(
                "牌桌正在恢复，请稍候重连",
                "the table is being rebuilt from its log: reconnect in a moment",
            ),
            Refusal::Elsewhere {
                owner,
                event: false,
            } => w(
                format!("这张牌桌在另一台服务器上：{owner}"),
                format!("this table is served by another node: {owner}"),
            ),
            Refusal::Elsewhere { owner, event: true } => w(
                format!("这个比赛由另一台服务器主持：{owner}"),
                format!("this event is run by another node: {owner}"),
            ),
            Refusal::NotYetPublic => w(
                "这副牌还不能复盘：它结束、且用同一种子的牌桌都结束后才公开（裁判随时可看）",
                "this table cannot be replayed yet: it is public once it is over and no open table deals from its seed (a referee may at any time)",
            ),
            Refusal::CompetitionTable(EventTableAsk::Sit) => w(
                "这是比赛的牌桌：请用您座位卡上的选手凭证入座",
                "this table belongs to an event: sit down with the player token on your seating card",
            ),
            Refusal::SeatInUse => w(
                "这个座位正在另一台设备上使用：比赛中每位选手只用一台设备。请先关掉那台设备上的页面，几秒后再试；不行就请裁判长",
                "this seat is in use on another device: at a competition each player uses one device. Close the page there and try again in a few seconds, or ask the director",
            ),
            Refusal::SeatMoved => w(
                "您的座位已在另一台设备（或另一个页面）上打开，这里已断开。比赛中每位选手只用一台设备；裁判长能看到每次换设备",
                "your seat was opened on another device (or another page), so this one is disconnected. At a competition each player uses one device; the director sees every change",
            ),
            Refusal::CompetitionTableClosed => w(
                "这张比赛牌桌已关闭（这一轮已结束，或裁判长已判定这副牌）：成绩只能由裁判长在控制台调整",
                "this competition table is closed (its round is over, or the director settled its board): only the director can change its result now, with an adjustment in the console",
            ),
            Refusal::NoAutoPlay => w(
                "比赛中不能托管：每位选手自己出牌（裁判长可为本场比赛开启托管）",
                "托管 (auto-play) is off at this competition: each player plays their own cards (the director may allow it for the event)",
            ),
            Refusal::CompetitionTable(EventTableAsk::Leave) => w(
                "比赛的座位不能让出：这一轮它一直是您的，关掉页面即可；回来时用座位卡上的选手凭证入座",
                "at an event you do not give up your seat: it stays yours for the whole round, so just close the page, and come back with the player token on your seating card",
            ),
            Refusal::CompetitionTable(EventTableAsk::Watch) => w(
                "这是比赛的牌桌，不能观战",
                "this table belongs to an event: it cannot be watched",
            ),
            Refusal::BadRequest(wrong) => wrong.words(),
            Refusal::BadOrigin => w(
                "不允许从这个网址连接",
                "requests from this origin are not allowed",
            ),
            Refusal::BadHost => w(
                "这个网址不是本服务器的名字",
                "this server does not answer to that host name (see --allow-host)",
            ),
            Refusal::NotFound { api: true } => w("没有这个接口", "no such API route"),
            Refusal::NotFound { api: false } => w("没有这个网址", "not found"),
            Refusal::MethodNotAllowed => w("不支持这种请求方法", "method not allowed"),
            Refusal::TooBig { max_kib: Some(kib) } => w(
                format!("请求内容太长（最多 {kib} KiB）"),
                format!("the request body is over {kib} KiB"),
            ),
            Refusal::TooBig { max_kib: None } => w("请求内容太长", "request too large"),
            Refusal::HeadTooBig { uri: false } => w(
                "请求头太长（最多 16 KiB）",
                "the request head is over 16 KiB",
            ),
            Refusal::HeadTooBig { uri: true } => w("请求的地址太长", "the request's path is too long"),
            Refusal::BadContentType => w(
                "请求内容必须是 JSON",
                "POST bodies must be sent as Content-Type: application/json",
            ),
            Refusal::Timeout => w(
                "请求内容没有及时送到",
                "the request body did not arrive in time",
            ),
            Refusal::StoreFailed {
                detail,
                reading: false,
            } => w(
                "服务器无法保存，请稍后重试",
                format!("the server could not store it: {detail}"),
            ),
            Refusal::StoreFailed {
                detail,
                reading: true,
            } => w(
                "服务器暂时读不到记录，请稍后再试",
                format!("the store could not be read: {detail}"),
            ),
            Refusal::Internal(words) => words.clone(),
            Refusal::NotDirector { no_director: false } => w(
                "只有裁判长可以这样做（需要裁判长凭证）",
                "only the director may do this (Authorization: Bearer <director token>)",
            ),
            Refusal::NotDirector { no_director: true } => w(
                "本服务器没有设裁判长（--director-token）",
                "this server has no director role (start it with --director-token)",
            ),
            Refusal::NoCompetition => w("没有这个比赛", "no such event"),
            Refusal::BadPairToken => w(
                "选手凭证不对：请核对您的座位卡",
                "that player token is not valid for this event: check your seating card",
            ),
            Refusal::BadPlayerCode => w(
                "个人码不对：请用您自己的链接或二维码打开，或核对打印的个人码",
                "that personal code names no player: open your own link or QR code, or check the printed code",
            ),
            Refusal::Rule(p) => w(p.zh.clone(), p.en.clone()),
        }
    }

    /// The refusal as it goes on the wire.
    pub fn problem(&self) -> Problem {
        let Words { zh, en } = self.words();
        Problem {
            code: self.code().to_string(),
            zh,
            en,
        }
    }

    /// One refusal of every kind (every variant, every sub-case), for tests and documentation.
    /// A new variant must be added here too: the match below reminds.
    pub fn every_kind() -> Vec<Refusal> {
        let s = || "…".to_string();
        let words = || Words::new("…", "…");
        let all = vec![
            Refusal::BadJson { detail: s() },
            Refusal::UnknownType { kind: s() },
            Refusal::BadMessage(BadMessage::Fields {
                kind: s(),
                detail: s(),
            }),
            Refusal::BadMessage(BadMessage::SecondHello),
            Refusal::HelloFirst { late: false },
            Refusal::HelloFirst { late: true },
            Refusal::BadToken,
            Refusal::RateLimited(Limited::Messages),
            Refusal::RateLimited(Limited::RefusedTokens),
            Refusal::RateLimited(Limited::Tables),
            Refusal::RateLimited(Limited::Requests),
            Refusal::NotYourSeat,
            Refusal::Spectator { auto: false },
            Refusal::Spectator { auto: true },
            Refusal::BadAction { detail: s() },
            Refusal::GameOver,
            Refusal::TableWaiting,
            Refusal::Stale { decided: 1, now: 2 },
            Refusal::Reason(ReasonFault::FromPlayer),
            Refusal::Reason(ReasonFault::RulingWithout { max: 200 }),
            Refusal::Reason(ReasonFault::ReviewWithout { max: 200 }),
            Refusal::AlreadyAsked,
            Refusal::RefereeOnly,
            Refusal::UnderReview,
            Refusal::TableClosed,
            Refusal::NoTable,
            Refusal::SeatTaken,
            Refusal::BadSeat(SeatFault::NoSuchSeat),
            Refusal::BadSeat(SeatFault::NoSuchBotSeat { seat: 4, seats: 4 }),
            Refusal::BadSeat(SeatFault::RulingWithoutSeat),
            Refusal::BadSeat(SeatFault::NotYours {
                seat: 0,
                yours: 2,
                zh: "南".into(),
                en: "S".into(),
            }),
            Refusal::BadName(NameFault::Length),
            Refusal::BadName(NameFault::Reserved { name: s() }),
            Refusal::UnknownGame {
                game: s(),
                known: vec![],
            },
            Refusal::UnknownGame {
                game: s(),
                known: vec![s()],
            },
            Refusal::UnknownRuleset {
                game: s(),
                name: s(),
                known: vec![s()],
            },
            Refusal::TooManyTables {
                no_free_code: false,
            },
            Refusal::TooManyTables { no_free_code: true },
            Refusal::TableRebuilding,
            Refusal::Elsewhere {
                owner: s(),
                event: false,
            },
            Refusal::Elsewhere {
                owner: s(),
                event: true,
            },
            Refusal::NotYetPublic,
            Refusal::CompetitionTable(EventTableAsk::Sit),
            Refusal::CompetitionTable(EventTableAsk::Watch),
            Refusal::CompetitionTable(EventTableAsk::Leave),
            Refusal::SeatInUse,
            Refusal::SeatMoved,
            Refusal::NoAutoPlay,
            Refusal::CompetitionTableClosed,
            Refusal::BadRequest(Wrong::Body { detail: s() }),
            Refusal::BadRequest(Wrong::Unreadable { detail: s() }),
            Refusal::BadRequest(Wrong::NotUtf8),
            Refusal::BadRequest(Wrong::Malformed),
            Refusal::BadRequest(Wrong::BoardZero),
            Refusal::BadRequest(Wrong::PlaySeconds { seconds: 5 }),
            Refusal::BadRequest(Wrong::BotLevel { level: s() }),
            Refusal::BadRequest(Wrong::Level { level: s() }),
            Refusal::BadRequest(Wrong::Trump { trump: s() }),
            Refusal::BadRequest(Wrong::NothingToFix {
                zh: "够级".into(),
                en: "gouji".into(),
            }),
            Refusal::BadRequest(Wrong::Direction { direction: s() }),
            Refusal::BadRequest(Wrong::Said(words())),
            Refusal::BadOrigin,
            Refusal::BadHost,
            Refusal::NotFound { api: true },
            Refusal::NotFound { api: false },
            Refusal::MethodNotAllowed,
            Refusal::TooBig { max_kib: Some(8) },
            Refusal::TooBig { max_kib: None },
            Refusal::HeadTooBig { uri: false },
            Refusal::HeadTooBig { uri: true },
            Refusal::BadContentType,
            Refusal::Timeout,
            Refusal::StoreFailed {
                detail: s(),
                reading: false,
            },
            Refusal::StoreFailed {
                detail: s(),
                reading: true,
            },
            Refusal::Internal(words()),
            Refusal::NotDirector { no_director: false },
            Refusal::NotDirector { no_director: true },
            Refusal::NoCompetition,
            Refusal::BadPairToken,
            Refusal::BadPlayerCode,
        ];
        for r in &all {
            // Adding a variant stops the build here until it is listed above as well.
            match r {
                Refusal::BadJson { .. }
                | Refusal::UnknownType { .. }
                | Refusal::BadMessage(_)
                | Refusal::HelloFirst { .. }
                | Refusal::BadToken
                | Refusal::RateLimited(_)
                | Refusal::NotYourSeat
                | Refusal::Spectator { .. }
                | Refusal::BadAction { .. }
                | Refusal::GameOver
                | Refusal::TableWaiting
                | Refusal::Stale { .. }
                | Refusal::Reason(_)
                | Refusal::AlreadyAsked
                | Refusal::RefereeOnly
                | Refusal::UnderReview
                | Refusal::TableClosed
                | Refusal::NoTable
                | Refusal::SeatTaken
                | Refusal::BadSeat(_)
                | Refusal::BadName(_)
                | Refusal::UnknownGame { .. }
                | Refusal::UnknownRuleset { .. }
                | Refusal::TooManyTables { .. }
                | Refusal::TableRebuilding
                | Refusal::Elsewhere { .. }
                | Refusal::NotYetPublic
                | Refusal::CompetitionTable(_)
                | Refusal::SeatInUse
                | Refusal::SeatMoved
                | Refusal::NoAutoPlay
                | Refusal::CompetitionTableClosed
                | Refusal::BadRequest(_)
                | Refusal::BadOrigin
                | Refusal::BadHost
                | Refusal::NotFound { .. }
                | Refusal::MethodNotAllowed
                | Refusal::TooBig { .. }
                | Refusal::HeadTooBig { .. }
                | Refusal::BadContentType
                | Refusal::Timeout
                | Refusal::StoreFailed { .. }
                | Refusal::Internal(_)
                | Refusal::NotDirector { .. }
                | Refusal::NoCompetition
                | Refusal::BadPairToken
                | Refusal::BadPlayerCode => {}
                // The engine's refusals are the rules crate's to list.
                Refusal::Rule(_) => unreachable!("not a kind of ours"),
            }
        }
        all
    }
}

impl Wrong {
    fn words(&self) -> Words {
        fn w(zh: impl Into<String>, en: impl Into<String>) -> Words {
            Words::new(zh, en)
        }
        match self {
            Wrong::Body { detail } => w(
                format!("请求有误：{detail}"),
                format!("bad request: {detail}"),
            ),
            Wrong::Unreadable { detail } => w(
                "请求内容读取失败",
                format!("cannot read the request body: {detail}"),
            ),
            Wrong::Malformed => w(
                "请求格式不对：不是有效的 HTTP 请求（请求行或请求头有误）",
                "not a well-formed HTTP request (its request line or a header)",
            ),
            Wrong::NotUtf8 => w(
                "请求内容不是 UTF-8 文本",
                "the request body is not UTF-8 text",
            ),
            Wrong::BoardZero => w("副数从 1 开始", "boards are numbered from 1"),
            Wrong::PlaySeconds { seconds } => w(
                format!("每步时间 {seconds} 秒不行：应为 15 到 120 秒"),
                format!("{seconds} seconds a play is not allowed: 15 to 120"),
            ),
            Wrong::BotLevel { level } => w(
                format!("电脑水平「{level}」不对：应为 beginner（入门）、club（普通）或 expert（高手）"),
                format!("bot level \"{level}\" is not one of beginner (入门), club (普通), expert (高手)"),
            ),
            Wrong::Level { level } => w(
                format!("级数「{level}」不对：应为 2–10、J、Q、K、A"),
                format!("level \"{level}\" is not a rank (2-10, J, Q, K, A)"),
            ),
            Wrong::Trump { trump } => w(
                format!("主「{trump}」不对：应为 S、H、D、C 或 NT（无主）"),
                format!("trump \"{trump}\" is not S, H, D, C or NT"),
            ),
            Wrong::NothingToFix { zh, en } => w(
                format!("{zh}没有级和主可定"),
                format!("{en} has no level or trump to fix"),
            ),
            Wrong::Direction { direction } => w(
                format!("方向「{direction}」不对：应为 NS 或 EW"),
                format!("direction \"{direction}\" is not NS or EW"),
            ),
            Wrong::Said(words) => words.clone(),
        }
    }
}

impl From<Refusal> for Problem {
    fn from(r: Refusal) -> Problem {
        match r {
            Refusal::Rule(p) => p,
            r => r.problem(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// Every constant of [`codes`], read from this file so a constant cannot be left out.
    fn code_constants() -> BTreeSet<String> {
        let source = include_str!("refusal.rs");
        let start = source.find("pub mod codes {").expect("the codes module");
        let end = start + source[start..].find("\n}").expect("its end");
        source[start..end]
            .lines()
            .filter_map(|l| l.trim().strip_prefix("pub const "))
            .map(|l| {
                let value = l.split('"').nth(1).expect("a string constant");
                value.to_string()
            })
            .collect()
    }

    /// The codes docs/protocol.md lists under "Server refusal codes", with their statuses.
    fn documented() -> BTreeMap<String, BTreeSet<u16>> {
        let doc = include_str!("../../docs/protocol.md");
        let start = doc
            .find("## Server refusal codes")
            .expect("docs/protocol.md lists the server's refusal codes");
        let section = &doc[start..];
        let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
        let mut out = BTreeMap::new();
        for line in section.lines().filter(|l| l.starts_with("| `")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let code = cells[1].trim_matches('`').to_string();
            let statuses = cells[2]
                .split(',')
                .map(|s| s.trim().trim_matches('`').parse::<u16>())
                .collect::<Result<BTreeSet<u16>, _>>()
                .unwrap_or_else(|e| panic!("status of {code}: {e}"));
            assert!(out.insert(code.clone(), statuses).is_none(), "{code} twice");
        }
        out
    }

    #[test]
    fn every_kind_has_words_in_both_languages() {
        for r in Refusal::every_kind() {
            let p = r.problem();
            assert!(!p.zh.trim().is_empty(), "{r:?} has no Chinese words");
            assert!(!p.en.trim().is_empty(), "{r:?} has no English words");
            assert_eq!(p.code, r.code());
            assert!(
                p.code.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{r:?}: code {:?} is not snake_case",
                p.code
            );
        }
    }

    #[test]
    fn each_variant_has_one_code_of_its_own() {
        // Sub-cases of a variant share its code; two variants never do.
        let mut by_code: BTreeMap<String, std::mem::Discriminant<Refusal>> = BTreeMap::new();
        for r in Refusal::every_kind() {
            let d = std::mem::discriminant(&r);
            let prev = by_code.insert(r.code().to_string(), d);
            assert!(
                prev.is_none_or(|p| p == d),
                "two variants share {}",
                r.code()
            );
        }
        // One status per code, except the store's: a failed write (500), a failed read (503).
        let mut statuses: BTreeMap<String, BTreeSet<u16>> = BTreeMap::new();
        for r in Refusal::every_kind() {
            statuses
                .entry(r.code().to_string())
                .or_default()
                .insert(r.status());
        }
        for (code, s) in &statuses {
            assert!(s.len() == 1 || code == codes::STORE_FAILED, "{code}: {s:?}");
        }
    }

    #[test]
    fn the_codes_are_the_documented_ones() {
        let ours: BTreeSet<String> = Refusal::every_kind()
            .iter()
            .map(|r| r.code().to_string())
            .collect();
        assert_eq!(ours, code_constants(), "the variants and `codes` differ");
        let doc = documented();
        assert_eq!(
            ours,
            doc.keys().cloned().collect::<BTreeSet<_>>(),
            "docs/protocol.md's list of server refusal codes is not the variants' codes"
        );
        for r in Refusal::every_kind() {
            assert!(
                doc[r.code()].contains(&r.status()),
                "docs/protocol.md gives {} the statuses {:?}, not {}",
                r.code(),
                doc[r.code()],
                r.status()
            );
        }
    }

    #[test]
    fn an_engines_refusal_keeps_its_code_and_words() {
        let engine = Problem::new("must_follow_suit", "…", "…");
        assert_eq!(Problem::from(Refusal::Rule(engine.clone())), engine);
        assert_eq!(Refusal::Rule(engine).status(), 400);
    }
}
