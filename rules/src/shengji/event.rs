//! 动作与事件 (actions and events): what a seat, the clock or a referee does to a board, and
//! what happened, as the event log and the players see it.

use serde::{Deserialize, Serialize};

use super::seat::Seat;
use crate::cards::Card;
use crate::Actor;

/// Something done to a board, by or against a seat. Serialised into the event log.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ShengjiAction"))]
pub enum Action {
    /// 扣底: the declarer buries exactly 8 cards.
    Bury { cards: Vec<Card> },
    /// A lead (single, pair, tractor or throw) or a follow.
    Play { cards: Vec<Card> },
    /// After a failed throw that blocked singles and pairs: the next opponent picks which
    /// smallest blocked unit the thrower must play.
    Choose { unit: UnitChoice },
    /// The seat's clock ran out (the seat is the one to act).
    Timeout,
    /// A referee ruling against the seat: the points go to the other side (e.g. 40 for an
    /// illegal signal).
    Penalty { points: u32 },
    /// A referee ruling against the seat: the board ends, the offenders lose, 120 to the other
    /// side (该副牌立即结束，判违规方负，非违规方得120分; `ruling_end`).
    EndBoard,
    /// The referee closes the board: its result is final and nothing more is accepted. Until
    /// then a finished board still takes rulings (任何一方对出过的牌有疑问，可以申请裁判查牌: a
    /// penalty found by checking the played cards). The seat is ignored.
    Finalize,
}

impl Action {
    /// Who may take this action: the referee for a ruling, the clock for a timeout, the seat's
    /// own player otherwise (a bot or 托管 plays the same moves). `apply` refuses any other.
    pub fn taken_by(&self) -> Actor {
        match self {
            Action::Penalty { .. } | Action::EndBoard | Action::Finalize => Actor::Referee,
            Action::Timeout => Actor::Clock,
            _ => Actor::Player,
        }
    }
}

/// The opponents' choice after a failed throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum UnitChoice {
    /// The smallest blocked single.
    Single,
    /// The smallest blocked pair or tractor.
    Pair,
}

/// Why points changed hands outside the tricks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ShengjiOffence"))]
pub enum Offence {
    /// 甩错牌.
    FailedThrow,
    /// 超时: the clock ran out.
    Timeout,
    /// A referee's ruling (信号、传递非法信息 …).
    Ruling,
    /// A referee ended the board.
    BoardEnded,
}

/// A unit of a failed throw that someone could beat, and who.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BlockedUnit {
    pub cards: Vec<Card>,
    pub by: Vec<Seat>,
}

/// 甩错牌: the attempt, who could beat which unit, the penalty, and what must be played:
/// `forced` (played at once, a `Played` follows) or `choices` (single first, then pair or
/// tractor) for `chooser` to pick from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ThrowFailure {
    pub seat: Seat,
    pub trick: u8,
    pub attempt: Vec<Card>,
    pub blocked: Vec<BlockedUnit>,
    pub penalty: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub forced: Option<Vec<Card>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub choices: Option<[Vec<Card>; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub chooser: Option<Seat>,
}

/// What happened. Every event is public except [`Event::Buried`], whose cards only a referee
/// sees (and the declarer, only with `declarer_sees_kitty`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ShengjiEvent"))]
pub enum Event {
    /// The declarer buried the kitty. `cards` is `None` for everyone but a referee (and the
    /// declarer with `declarer_sees_kitty`: 底牌放好后再也不能查看底牌).
    Buried {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        cards: Option<Vec<Card>>,
        /// How many were buried (always 8), for those who do not see the cards.
        count: usize,
        /// The clock buried for the declarer.
        #[serde(default, skip_serializing_if = "is_false")]
        auto: bool,
    },
    /// A seat played to trick `trick` (from 1, at most 25); `lead` when it is the trick's first play.
    Played {
        seat: Seat,
        trick: u8,
        cards: Vec<Card>,
        lead: bool,
        /// The clock played for the seat.
        #[serde(default, skip_serializing_if = "is_false")]
        auto: bool,
    },
    /// 甩错牌: see [`ThrowFailure`]. Boxed: three times the size of any other event and rare,
    /// inline it would size every event a table keeps (the same JSON either way).
    ThrowFailed(Box<ThrowFailure>),
    /// The chooser picked; the thrower's `Played` follows.
    Chosen {
        seat: Seat,
        unit: UnitChoice,
        cards: Vec<Card>,
        #[serde(default, skip_serializing_if = "is_false")]
        auto: bool,
    },
    /// A trick is over: its winner, its card points, and the defenders' points after it.
    TrickWon {
        trick: u8,
        winner: Seat,
        points: u32,
        /// True if the points went to the defenders.
        to_defenders: bool,
        defenders: i32,
    },
    /// 抠底: a defender won the last trick; the kitty's points times the multiplier go to the
    /// defenders.
    KittyCaptured {
        seat: Seat,
        kitty: Vec<Card>,
        points: u32,
        multiplier: u32,
        gain: u32,
        defenders: i32,
    },
    /// A first timeout: a warning, no points; with `timeout_play = after-warning` the seat keeps
    /// the move for `timeout_grace_seconds`.
    Warning { seat: Seat, reason: Offence },
    /// Points to the other side of `seat`: `delta` is the change to the defenders' points
    /// (positive when `seat` is on the declarer's side), `defenders` the total after it.
    Penalty {
        seat: Seat,
        reason: Offence,
        points: u32,
        delta: i32,
        defenders: i32,
    },
    /// The board is over. `result` is the defenders' points after penalties (may be below 0);
    /// the kitty is shown to everyone. Announced again (`revised`) after each ruling made once
    /// play had ended, until the referee finalises the board.
    BoardOver {
        result: i32,
        kitty: Vec<Card>,
        /// Tricks won by the defenders.
        defender_tricks: u8,
        #[serde(default, skip_serializing_if = "is_false")]
        by_ruling: bool,
        /// A new result after a late ruling: it replaces the one announced before.
        #[serde(default, skip_serializing_if = "is_false")]
        revised: bool,
    },
    /// The referee finalised the board: `result` is final, nothing more is accepted.
    Finalized { result: i32 },
}

fn is_false(b: &bool) -> bool {
    !*b
}
