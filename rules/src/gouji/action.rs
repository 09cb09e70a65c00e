//! 动作 (actions): what a seat, its clock or a referee does to a 够级 game.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::Actor;

/// One action. `seat` (the argument of `apply`) is the acting seat; for [`Action::Timeout`] the
/// seat whose clock ran out, for [`Action::Ruling`] the seat ruled against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiAction"))]
pub enum Action {
    /// Lead a set, or beat the top set by normal play (出牌 / 管牌).
    Play { cards: Vec<Card> },
    /// 过 (by the top set's 对头 on a 级牌: the 对头 concedes it, and the burn is offered).
    Pass,
    /// 让: the 对头 of the top set's owner lets the others try first.
    Yield,
    /// Yes to a burn offer: burn the top set with these cards (烧牌).
    Burn { cards: Vec<Card> },
    /// No to a burn offer.
    Decline,
    /// 问牌: ask the 对头 how many cards they hold.
    AskCount,
    /// The seat's clock ran out. The first expiry of a move is the warning (超时裁判予以警告:
    /// the seat gets the grace seconds); the second passes for it, declines a burn offer, or
    /// leads its smallest legal set.
    Timeout,
    /// A referee's ruling against the seat. `points`: a deduction's points, 2 or 4 (扣该队2分,
    /// 扣该队4分); absent, 2 (logs written before rulings named their points). Only a
    /// deduction has points.
    Ruling {
        ruling: Ruling,
        offence: Offence,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        points: Option<u32>,
    },
}

impl Action {
    /// Who may take this action: the referee for a ruling, the clock for a timeout, the seat's
    /// own player otherwise (a bot or 托管 plays the same moves). `apply` refuses any other.
    pub fn taken_by(&self) -> Actor {
        match self {
            Action::Ruling { .. } => Actor::Referee,
            Action::Timeout => Actor::Clock,
            _ => Actor::Player,
        }
    }
}

/// What a referee rules (犯规与判罚).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiRuling"))]
pub enum Ruling {
    /// 警告: logged, no points.
    Warning,
    /// 扣该队2分 (or 4): points off the team, on top of the game's score.
    Deduction,
    /// 0:12 告负: the game ends at once with the forfeit score.
    Forfeit,
}

/// The offences of the competition rules, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiOffence"))]
pub enum Offence {
    /// 用肢体或语言暗示.
    Signals,
    /// 扣牌后翻牌查看 (扣牌: turning one's played cards face down).
    PeekingFolded,
    /// 擅离座位.
    LeavingSeat,
    /// 张数不符，无牌可补 (impossible online, kept for completeness).
    WrongCardCount,
    /// 不按规定回答手中剩余牌数 (the server answers, kept for completeness).
    WrongCountAnswer,
    /// 弄虚作假.
    Cheating,
    /// 不服从裁判.
    RefusingReferee,
    /// 同组同牌型队员交流 (扣该队4分) and anything else the referee names.
    Other,
}
