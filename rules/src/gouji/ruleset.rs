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

/// Who is asked first whether they burn, after the 对头 passed the 级牌.
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

/// Team points (积分, no tribute), on one scale: **\[decision\]** every result the text gives as
/// a single number (点贡 6, 串三户 12, 0:12 告负) is a transfer between the two teams, +n to one
/// and −n to the other, so a forfeit can never score better for the offender than the worst
/// honest game (−12). Place points are the text's signed numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Scoring {
    /// Points by place: 头科, 二科, 三科, 四科, 二落, 大落.
    pub places: [i32; 6],
    /// 烧牌失误则为大落: what a failed burner scores, whatever place it fills (a second failed
    /// burner fills 二落's place in the finishing order and still scores 大落).
    pub failed_burn: i32,
    /// 点贡: paid by the team of a 点 player to the other team (−6 / +6).
    pub dian_gong: i32,
    /// **\[decision\]** 点贡 at most once per team per game (不累计), however many of its players
    /// are 点. `false`: once per 点 player.
    pub dian_gong_once_per_team: bool,
    /// 串三户: the team that takes 头科, 二科 and 三科 gets this and the other team loses it
    /// (+12 / −12), replacing places and 点贡.
    pub sweep: i32,
    /// 0:12 告负: the offending team loses this and the other team gets it (−12 / +12),
    /// replacing places, 点贡 and 串三户.
    pub forfeit: i32,
    /// The points a referee may deduct from a team (扣该队2分, 扣该队4分); the first is the
    /// deduction of a ruling that names none (logs written before rulings named their points).
    pub deduction_points: Vec<u32>,
}

/// A complete ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiRuleset"))]
pub struct Ruleset {
    /// The ruleset's name, e.g. `zaozhuang-2017`.
    pub name: String,
    /// A player's last set (出完手牌) before 二科 is out is a 级牌 like any other (不设底级:
    /// 「没有底级…无论所留牌为级牌还是非级牌，均由剩余几家按顺序打」). `false`: a last set
    /// never is (an earlier reading of ours).
    pub last_set_is_gouji: bool,
    /// **\[decision\]** A 无头 player (their 对头 is out) opens (开点) when they play a set that
    /// meets the 级牌 thresholds: their 对头 can never beat it (「只要有一手够级牌没有被对头灭掉」),
    /// though it binds nobody. `false`: a 无头 player's sets are never 级牌, so a player who had
    /// not opened before their 对头 went out is sure to be 点.
    pub headless_sets_open: bool,
    /// **\[decision\]** 「没有被对头灭掉(包括被烧牌)」 read as "a burned 级牌 counts as not beaten
    /// by the 对头": the owner opens when the 对头 passes it, whether or not it is burned after.
    /// `false`: a burned 级牌 counts as beaten; the owner opens only when nobody burns it (every
    /// burn offer declined).
    pub burned_gouji_opens: bool,
    /// **\[decision\]** `false`: the 对头 may say 让 in 四户乱缠 too, where it counts as a pass
    /// (nothing in the text removes 让 there). `true`: 让 is refused in 四户乱缠.
    pub no_yield_in_free_play: bool,
    /// 大花两打一: which sets a pair of big jokers may cover one big joker of.
    pub two_for_one: TwoForOne,
    /// Order of the yes/no burn prompts after the 对头 passes a 级牌.
    pub burn_offer_order: BurnOfferOrder,
    /// The reading of 留牌 (the sustain test before a burn).
    pub keep_cards: KeepCards,
    /// How the players left at the end fill the places.
    pub fill_places: FillOrder,
    /// Team points.
    pub scoring: Scoring,
    /// Minutes from the start of a game without a per-move limit (满10分钟后…).
    pub free_minutes: u32,
    /// Seconds per set after that (每套牌的出牌时限为20秒); when they run out the seat is warned
    /// (超时裁判予以警告).
    pub move_seconds: u32,
    /// Seconds after the warning before the automatic pass (超过5秒仍不出牌者视为过牌). 0: no
    /// warning, the first expiry passes.
    pub grace_seconds: u32,
    /// 问牌: counts at or below this are answered exactly, above it only "more than".
    pub exact_count_limit: u8,
}

impl Ruleset {
    /// The rules of the Zaozhuang seniors' games (2017), with our decisions.
    pub fn zaozhuang_2017() -> Ruleset {
        Ruleset {
            name: "zaozhuang-2017".to_string(),
            last_set_is_gouji: true,
            headless_sets_open: true,
            burned_gouji_opens: true,
            no_yield_in_free_play: false,
            two_for_one: TwoForOne::AnySet,
            burn_offer_order: BurnOfferOrder::OppositeTeamFirst,
            keep_cards: KeepCards::SustainTest,
            fill_places: FillOrder::FewestCardsFirst,
            scoring: Scoring {
                places: [4, 2, 0, 0, -2, -4],
                failed_burn: -4,
                dian_gong: 6,
                dian_gong_once_per_team: true,
                sweep: 12,
                forfeit: 12,
                deduction_points: vec![2, 4],
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
