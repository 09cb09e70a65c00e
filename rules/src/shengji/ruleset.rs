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

/// What the clock does at a warned timeout (超时第一次警告).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TimeoutPlay {
    /// A warned timeout only warns: the player keeps the move for a grace period
    /// (`timeout_grace_seconds`); if that runs out too, the clock plays for them with the
    /// penalty. Later timeouts in the count's scope are penalised and played at once.
    #[serde(rename = "after-warning")]
    AfterWarning,
    /// Every timeout, warned or penalised, ends with the engine playing for the player at once
    /// (no grace period): a casual online table that never waits on an absent player.
    #[serde(rename = "always")]
    Always,
}

/// Over which stretch of play timeouts are counted for "first a warning, then 10 points"
/// (超时第一次警告，第二次扣10分).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TimeoutScope {
    /// Every board starts with a clean count (a casual table).
    #[serde(rename = "board")]
    Board,
    /// The count runs over a session (one sitting of boards at a table, the usual reading at
    /// an event): the server starts each board with the seats' earlier timeouts of the session
    /// ([`super::Board::with_prior_timeouts`]).
    #[serde(rename = "session")]
    Session,
    /// The count runs over the whole event: the server passes each seat's (player's) earlier
    /// timeouts of the event.
    #[serde(rename = "event")]
    Event,
}

/// Who may look at the last trick during play (查看本轮次牌).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum LastTrickView {
    /// A player sees the last trick only until they have played to the next one: 打过的牌翻扣好
    /// 后，不能提出检查牌的要求，只有未翻扣者有权要求查看本轮次牌. Spectators and referees always.
    #[serde(rename = "until-own-play")]
    UntilOwnPlay,
    /// Always shown (a casual table).
    #[serde(rename = "always")]
    Always,
}

/// How a follower matches a throw of several tractors, which the text does not say: which unit
/// of the throw is answered first when the hand cannot answer them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ThrowFollow {
    /// The largest unit first, as a trick of that shape is judged: a tractor of 3 and one of 2
    /// led, a hand with a run of 4 pairs and two lone pairs must answer with a tractor of 3 and
    /// two pairs (any play holding them).
    #[serde(rename = "largest-unit-first")]
    LargestUnitFirst,
    /// As many of the throw's tractors as possible are each answered by a tractor first, then
    /// the longest: the same hand must answer with two tractors of 2 and a pair.
    #[serde(rename = "every-tractor-first")]
    EveryTractorFirst,
}

/// Where the result of a board ended by a referee ruling comes from: 该副牌立即结束，判违规方负，
/// 非违规方得120分 (seed 000, 四.10).
///
/// Whatever the reading, a ruling never improves the offenders' result (issue 24.5): the board
/// is ended *against* them, so they cannot come out of it better than they stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum RulingEnd {
    /// The offenders lose and the other side gets at least 120, and at least what it already
    /// had: the declarer's side offends → the defenders' points so far, but no fewer than
    /// +120; the defenders offend → their points so far, but no more than −120 (the declarer's
    /// side keeps at least its own result). Defenders who had 220 keep 220 when the declarer's
    /// side offends, and fall to −120 when they offend. The default: the reading a chief
    /// referee gives 得120分 (a floor the non-offenders are owed), never a gift to the offenders.
    #[serde(rename = "at-least")]
    AtLeast,
    /// The defenders' points so far, plus 120 if the declarer's side offended, minus 120 if the
    /// defenders did (like every penalty, and as in 藏张: 罚分…加上前面得的分，这副牌结束). Defenders
    /// who had 220 and then offend keep 100.
    #[serde(rename = "add-to-points-so-far")]
    AddToPointsSoFar,
    /// The first engine's reading, kept only so that tables recorded under it replay as they
    /// were played (a header records its options): exactly +120 or −120, whatever was won
    /// before. It can *improve* the offenders' result (defenders at 220, the declarer's side
    /// offends: 120), which the rulebook's 判违规方负 does not allow, so no ruleset uses it.
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
    /// Whether a warned timeout leaves the move to the player for a grace period, or the engine
    /// plays at once. \[decision\]
    pub timeout_play: TimeoutPlay,
    /// Seconds the player keeps after a warned timeout (`timeout_play = after-warning`).
    /// \[decision\]
    pub timeout_grace_seconds: u32,
    /// Over which boards timeouts are counted. \[decision\]
    pub timeout_scope: TimeoutScope,
    /// Points to the other side when a referee ends the board (the text: 120).
    pub ruling_end_points: u32,
    /// How the result of a board ended by a ruling is formed. \[decision\]
    pub ruling_end: RulingEnd,
    /// Whether the declarer's view shows the buried kitty after burying. The text:
    /// 底牌放好后再也不能查看底牌, so off. \[decision\]
    pub declarer_sees_kitty: bool,
    /// Until when a player's view shows the last trick. \[decision\]
    pub last_trick: LastTrickView,
    /// Which unit of a throw of several tractors a follower answers first. \[decision\]
    pub throw_follow: ThrowFollow,
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
            timeout_play: TimeoutPlay::AfterWarning,
            timeout_grace_seconds: 15,
            timeout_scope: TimeoutScope::Board,
            ruling_end_points: 120,
            ruling_end: RulingEnd::AtLeast,
            declarer_sees_kitty: false,
            last_trick: LastTrickView::UntilOwnPlay,
            throw_follow: ThrowFollow::LargestUnitFirst,
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
