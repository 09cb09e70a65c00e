//! 规则选项 (the ruleset): every point where the competition text is silent and we decided, as a
//! named option an organiser can switch. The default is `fujian-2024`.

use serde::{Deserialize, Serialize};

/// 抠底 (kitty capture): how the kitty's points are multiplied when a defender wins the last
/// trick, by the largest unit of that trick's lead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum KittyMultiplier {
    /// Single ×2, pair ×4, any tractor ×8 (the text: 单抠*2，双抠*4，拖拉机抠*8).
    #[serde(rename = "tractor-8")]
    Tractor8,
    /// 2 × the cards in the largest unit: single ×2, pair ×4, tractor of k pairs ×4k.
    #[serde(rename = "2x-largest-unit")]
    TwiceLargestUnit,
    /// 2 to the power of the cards in the largest unit: ×2, ×4, tractor of k pairs ×2^(2k).
    #[serde(rename = "2-pow-largest-unit")]
    PowerOfLargestUnit,
}

/// 甩牌: whose hands can make a throw fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ThrowBlockers {
    /// All three other players, the partner included.
    #[serde(rename = "all-others")]
    AllOthers,
    /// Only the two opponents.
    #[serde(rename = "opponents")]
    Opponents,
}

/// How a lead is cut into units. It only matters when a trump lead holds two or more 副级牌
/// pairs, which share one strength: trump `AA 副级对 副级对 主级对` is tractor 3 + pair or two
/// tractors of 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum LeadParse {
    /// The longest tractors first, then pairs, then singles.
    #[serde(rename = "longest-tractors")]
    LongestTractors,
    /// As many tractors as possible, then the longest; never splits a tractor that could be
    /// one longer tractor.
    #[serde(rename = "most-tractors")]
    MostTractors,
}

/// How two plays of a throw's shape (trumps against a side-suit throw) are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ThrowCompare {
    /// Unit by unit from the largest unit down (tractors, then pairs; singles only when the
    /// lead had no pair); the first unit that differs decides; all equal: the earlier play.
    #[serde(rename = "unit-by-unit")]
    UnitByUnit,
    /// Only the largest unit is compared; equal: the earlier play.
    #[serde(rename = "largest-unit")]
    LargestUnit,
}

/// How timeouts are counted for the "first a warning" rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TimeoutCount {
    /// Each player has their own warning.
    #[serde(rename = "per-seat")]
    PerSeat,
    /// One warning for the two partners together.
    #[serde(rename = "per-side")]
    PerSide,
}

/// What the clock does when a warning is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TimeoutPlay {
    /// Every timeout, warned or penalised, ends with the engine playing for the player: an
    /// online table never waits on an absent player.
    #[serde(rename = "always")]
    Always,
    /// A warned timeout only warns; the player keeps the move (and a fresh clock). Later
    /// timeouts are penalised and played for the player.
    #[serde(rename = "after-warning")]
    AfterWarning,
}

/// Where the result of a board ended by a referee ruling ("the board ends, 120 to the other
/// side") comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum RulingEnd {
    /// The defenders' points so far, plus 120 if the declarer's side offended, minus 120 if the
    /// defenders did (like every penalty, and as in 藏张: 罚分…加上前面得的分，这副牌结束).
    #[serde(rename = "add-to-points-so-far")]
    AddToPointsSoFar,
    /// Exactly +120 (the declarer's side offended) or −120 (the defenders did), whatever was
    /// won before.
    #[serde(rename = "fixed")]
    Fixed,
}

/// Every option of an 80分 board. Serialised with the views, so a client shows which rules
/// are in force.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ShengjiRuleset"))]
pub struct Ruleset {
    /// The ruleset's name, e.g. `fujian-2024`.
    pub name: String,
    /// 抠底 multiplier by the last lead's largest unit. \[decision\]
    pub kitty_multiplier: KittyMultiplier,
    /// Whose hands can make a throw fail. \[decision\]
    pub throw_blockers: ThrowBlockers,
    /// How a lead is cut into units. \[decision\]
    pub lead_parse: LeadParse,
    /// How plays of a throw's shape compare. \[decision\]
    pub throw_compare: ThrowCompare,
    /// 甩错牌: points per card of the failed throw (the text: 10).
    pub throw_penalty_per_card: u32,
    /// 甩错牌: most points per failed throw (the text: 80).
    pub throw_penalty_cap: u32,
    /// Timeouts that only warn before each further one costs points (the text: 1).
    pub timeout_warnings: u8,
    /// Points each penalised timeout costs (the text: 10).
    pub timeout_penalty: u32,
    /// Whether warnings are counted per player or per side. \[decision\]
    pub timeout_count: TimeoutCount,
    /// Whether a warned timeout also plays for the player. \[decision\]
    pub timeout_play: TimeoutPlay,
    /// Points to the other side when a referee ends the board (the text: 120).
    pub ruling_end_points: u32,
    /// How the result of a board ended by a ruling is formed. \[decision\]
    pub ruling_end: RulingEnd,
    /// Whether the declarer's view shows the buried kitty after burying. The text:
    /// 底牌放好后再也不能查看底牌, so off. \[decision\]
    pub declarer_sees_kitty: bool,
    /// Seconds to bury (the text: 1 minute).
    pub bury_seconds: u32,
    /// Seconds per play (the text: 30).
    pub play_seconds: u32,
    /// Seconds for the opponents' choice after a failed throw. \[decision\]
    pub choice_seconds: u32,
}

impl Ruleset {
    /// The rules of the Fujian seniors' games, 2024, with our decisions.
    pub fn fujian_2024() -> Ruleset {
        Ruleset {
            name: "fujian-2024".to_string(),
            kitty_multiplier: KittyMultiplier::Tractor8,
            throw_blockers: ThrowBlockers::AllOthers,
            lead_parse: LeadParse::LongestTractors,
            throw_compare: ThrowCompare::UnitByUnit,
            throw_penalty_per_card: 10,
            throw_penalty_cap: 80,
            timeout_warnings: 1,
            timeout_penalty: 10,
            timeout_count: TimeoutCount::PerSeat,
            timeout_play: TimeoutPlay::Always,
            ruling_end_points: 120,
            ruling_end: RulingEnd::AddToPointsSoFar,
            declarer_sees_kitty: false,
            bury_seconds: 60,
            play_seconds: 30,
            choice_seconds: 30,
        }
    }

    /// A ruleset by its name; `None` if there is no such ruleset.
    pub fn by_name(name: &str) -> Option<Ruleset> {
        match name {
            "fujian-2024" => Some(Ruleset::fujian_2024()),
            _ => None,
        }
    }

    /// The names [`Ruleset::by_name`] knows.
    pub const NAMES: &'static [&'static str] = &["fujian-2024"];
}

impl Default for Ruleset {
    fn default() -> Ruleset {
        Ruleset::fujian_2024()
    }
}
