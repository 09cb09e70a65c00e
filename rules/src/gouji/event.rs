//! 报牌 (events): what happened, in order. The server announces every set; only the cards of a
//! failed burner (void, 余牌无效) are private.

use serde::{Deserialize, Serialize};

use crate::cards::Card;

use super::action::{Offence, Ruling};
use super::score::{Outcome, Place, Score};
use super::Seat;

/// One thing that happened. Seats are named `A1`…`B3` on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiEvent"))]
pub enum Event {
    /// A set led to open a trick (发牌). `gouji`: it is a 级牌 as played (binds the others).
    Led {
        seat: Seat,
        cards: Vec<Card>,
        gouji: bool,
    },
    /// A set that beats the top set by normal play. `unburn`: it ends a burn (解烧).
    Beat {
        seat: Seat,
        cards: Vec<Card>,
        gouji: bool,
        unburn: bool,
    },
    /// A burning set (烧牌). `counter`: it burns a burner's set (反烧).
    Burned {
        seat: Seat,
        cards: Vec<Card>,
        gouji: bool,
        counter: bool,
    },
    /// 过. `conceded`: the 对头 of the top set's owner passed a 级牌 (对头过牌): the owner may
    /// open and the burn is offered. (Logs of old called it `kou`, read here too; the text's
    /// 扣牌 is turning one's played cards face down, not this.)
    Passed {
        seat: Seat,
        #[serde(alias = "kou")]
        conceded: bool,
    },
    /// 让.
    Yielded { seat: Seat },
    /// Nobody beat the set: the yield comes back to the 对头.
    YieldReturned { seat: Seat },
    /// 开点: a 级牌 of this seat was not beaten by its 对头 (see the ruleset's
    /// `burned_gouji_opens` and `headless_sets_open`).
    Opened { seat: Seat },
    /// The burn is offered to this seat (yes/no prompt).
    BurnOffered { seat: Seat },
    /// The seat declined the burn.
    BurnDeclined { seat: Seat },
    /// The burn stood: the burner leads and must lead sets with a joker.
    BurnStood { seat: Seat },
    /// The burner's burn ended without penalty (解烧, 反烧, or 四户乱缠 began).
    BurnEnded { seat: Seat },
    /// 烧牌失误: the burner had to lead a non-final set without a joker. The burner is 大落 and
    /// `void` cards are void (only the burner and referees see which); `restored` is the
    /// burned 级牌 of `owner`, top set again.
    BurnFailed {
        seat: Seat,
        void: Option<Vec<Card>>,
        void_count: usize,
        owner: Seat,
        restored: Vec<Card>,
    },
    /// The seat played its last card.
    WentOut { seat: Seat, place: Place },
    /// Everyone else passed: `winner` owned the top set; `leader` leads next (接风 when not
    /// the winner).
    TrickWon {
        winner: Seat,
        leader: Seat,
        takeover: bool,
    },
    /// 头科 and 二科 are out: 四户乱缠.
    FreePlay,
    /// 点 (进点): had not opened when 二科 went out.
    Marked { seat: Seat },
    /// 问牌 and its answer.
    CountAnswered {
        asker: Seat,
        about: Seat,
        answer: CardCount,
    },
    /// The seat's time for this set ran out (超时): it is warned and has `grace_seconds` more
    /// before the clock passes for it (超过5秒仍不出牌者视为过牌). Nothing else changes.
    Warned { seat: Seat, grace_seconds: u32 },
    /// The seat's clock ran out after the warning (the automatic action's events follow).
    TimedOut { seat: Seat },
    /// A referee ruling against the seat. `points`: what a deduction took off the team.
    Ruled {
        seat: Seat,
        ruling: Ruling,
        offence: Offence,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        points: Option<u32>,
    },
    /// The game is over.
    GameOver {
        /// Place of each seat, A1…B3 (`null` only in a forfeited game's unfinished seats).
        places: [Option<Place>; 6],
        score: Score,
        outcome: Outcome,
    },
}

/// A card count as 问牌 answers it (and as views show it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "n", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum CardCount {
    /// The exact count (at or below the limit, 10).
    Exact(usize),
    /// "More than 10".
    MoreThan(usize),
}

impl CardCount {
    pub fn answer(n: usize, limit: u8) -> CardCount {
        if n <= limit as usize {
            CardCount::Exact(n)
        } else {
            CardCount::MoreThan(limit as usize)
        }
    }
}
