//! 规程 (rulesets): every **\[decision\]** of docs/rules-gouji.md is a named option here.
//!
//! `zaozhuang-2017` is the only ruleset so far (附件1 够级比赛规程 of the Zaozhuang seniors'
//! games). An organiser who reads the text differently changes an option, not the engine.

use serde::{Deserialize, Serialize};

/// Which sets 大花两打一 applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TwoForOne {
    /// **\[decision\]** Any set holding b big jokers may be covered by 2b big jokers plus a
    /// remainder that beats the old remainder.
    AnySet,
    /// Only a lone big joker may be covered, by exactly two big jokers.
    LoneBigJoker,
}

/// Who is asked first whether they burn, after the 对头 declined (扣).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum BurnOfferOrder {
    /// **\[decision\]** 联邦烧牌优先 read as: the 对头's teammates first (in turn order from the
    /// 对头), then the owner's own teammates (in turn order from the owner).
    OppositeTeamFirst,
    /// Everyone in plain turn order from the 对头.
    TurnOrder,
}

/// How the players still holding cards at the end fill the remaining places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum FillOrder {
    /// **\[decision\]** Fewest cards left first; ties in turn order from the seat that would
    /// have acted next.
    FewestCardsFirst,
    /// Turn order from the seat that would have acted next.
    TurnOrder,
}

/// The reading of 留牌 (「花」数比手中牌的套数少一套时，可以留牌…联邦不得留牌).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum KeepCards {
    /// **\[decision\]** 留牌 is the burner's right to keep going while jokers ≥ sets − 1: a burn is
    /// allowed only if, after the burning set, jokers left ≥ distinct natural ranks left − 1. The
    /// burner alone decides; a teammate never holds cards for them.
    SustainTest,
    /// No test before a burn: the burner takes the risk of a failed burn (大落).
    NoTest,
}

/// Team points (积分, no tribute).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Scoring {
    /// Points by place: 头科, 二科, 三科, 四科, 二落, 大落.
    pub places: [i32; 6],
    /// 点贡: paid by the team of a 点 player to the other team.
    pub dian_gong: i32,
    /// **\[decision\]** 点贡 at most once per team per game (不累计), however many of its players
    /// are 点. `false`: once per 点 player.
    pub dian_gong_once_per_team: bool,
    /// 串三户: the team that takes 头科, 二科 and 三科 scores this, replacing everything else.
    pub sweep: i32,
    /// **\[decision\]** What the swept team scores (the text gives only "12"). We keep the game
    /// zero-sum like every other result: −12.
    pub swept: i32,
    /// A referee deduction (扣该队2分), added to the offender's team.
    pub deduction: i32,
    /// A forfeit (0:12 告负): the offending team's score, replacing the game.
    pub forfeit_loser: i32,
    /// A forfeit: the other team's score.
    pub forfeit_winner: i32,
}

/// A complete ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiRuleset"))]
pub struct Ruleset {
    /// The ruleset's name, e.g. `zaozhuang-2017`.
    pub name: String,
    /// **\[decision\]** A player's last set (出完手牌) is a 级牌 only if this is true (不设底级: no).
    pub last_set_is_gouji: bool,
    /// 大花两打一: which sets a pair of big jokers may cover one big joker of.
    pub two_for_one: TwoForOne,
    /// Order of the yes/no burn prompts after a 扣.
    pub burn_offer_order: BurnOfferOrder,
    /// The reading of 留牌 (the sustain test before a burn).
    pub keep_cards: KeepCards,
    /// How the players left at the end fill the places.
    pub fill_places: FillOrder,
    /// Team points.
    pub scoring: Scoring,
    /// Minutes from the start of a game without a per-move limit (满10分钟后…).
    pub free_minutes: u32,
    /// Seconds per set after that.
    pub move_seconds: u32,
    /// Grace seconds before the automatic pass (超过5秒仍不出牌者视为过牌).
    pub grace_seconds: u32,
    /// 问牌: counts at or below this are answered exactly, above it only "more than".
    pub exact_count_limit: u8,
}

impl Ruleset {
    /// The rules of the Zaozhuang seniors' games (2017), with our decisions.
    pub fn zaozhuang_2017() -> Ruleset {
        Ruleset {
            name: "zaozhuang-2017".to_string(),
            last_set_is_gouji: false,
            two_for_one: TwoForOne::AnySet,
            burn_offer_order: BurnOfferOrder::OppositeTeamFirst,
            keep_cards: KeepCards::SustainTest,
            fill_places: FillOrder::FewestCardsFirst,
            scoring: Scoring {
                places: [4, 2, 0, 0, -2, -4],
                dian_gong: 6,
                dian_gong_once_per_team: true,
                sweep: 12,
                swept: -12,
                deduction: 2,
                forfeit_loser: 0,
                forfeit_winner: 12,
            },
            free_minutes: 10,
            move_seconds: 20,
            grace_seconds: 5,
            exact_count_limit: 10,
        }
    }

    /// A ruleset by its name.
    pub fn by_name(name: &str) -> Option<Ruleset> {
        match name {
            "zaozhuang-2017" => Some(Ruleset::zaozhuang_2017()),
            _ => None,
        }
    }

    /// Names of all rulesets.
    pub const NAMES: [&'static str; 1] = ["zaozhuang-2017"];
}

impl Default for Ruleset {
    fn default() -> Ruleset {
        Ruleset::zaozhuang_2017()
    }
}
