//! 赛事规程 (what the director creates): the competition's game, name, size and fixed terms, and
//! the entries as the director types them. Both are logged as they were given (`create` and
//! `register` entries), so their JSON is the log's and never changes shape.

use serde::{Deserialize, Serialize};

use crate::competition::conduct::{SecondDevice, TimeoutsCounted};
use crate::gouji::FinalSeating;
use crate::movement::Variant;
use crate::score::Prizes;

/// A competition as created. `game` is the wire name of the engine its tables deal (the kind
/// reads it: `shengji` pairs, `gouji` teams).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    pub game: String,
    /// 1–60 characters.
    pub name: String,
    /// 80分: tables in play, one NS and one EW pair each. 够级: 0.
    #[serde(default)]
    pub tables: u32,
    /// 80分 only.
    #[serde(default)]
    pub rounds: u32,
    /// 80分 only.
    #[serde(default)]
    pub boards_per_round: u32,
    #[serde(default)]
    pub movement: Variant,
    /// 80分, the skip Mitchell: skip after this round instead of after T/2 (a curtailed
    /// event may skip earlier).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_after: Option<u32>,
    /// 80分, the skip Mitchell: the T-th round, the revenge round, may be played.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub revenge: bool,
    /// 80分: prize places per direction, the organiser's (seed 000 二.4); seed 003's table by
    /// the field's size where absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prizes: Option<Prizes>,
    /// The game's ruleset; the server names its default when absent, before logging.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<String>,
    /// 80分 定级 for every board (`"2"` … `"A"`); drawn per board from the seed when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// 80分 定主 for every board (`"S"`, `"H"`, `"D"`, `"C"`, `"NT"`); drawn when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trump: Option<String>,
    /// The event seed (64 hex digits), the organiser's: a simultaneous event, several sections
    /// or clubs dealt the same boards from one seed. Drawn by the server when absent. Never
    /// logged: the server takes it out before the `create` entry is written, into the event's
    /// row, where it stays secret until the reveal as a drawn one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// 80分 minutes a board (每副牌比赛时间12分钟).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_minutes: Option<u32>,
    /// The entries given with the creation (registered with it); none: registered later.
    #[serde(default)]
    pub entries: Vec<Entry>,
    /// 够级: groups of the draw; 2, or the most teams one organisation has, when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<u32>,
    /// 够级: games of the final (a multiple of 3); 3 when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_games: Option<u32>,
    /// 够级: which side each finalist sits; the server names `balanced` when absent, before
    /// logging (a log made before the option had none: its final is seated by group).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_seating: Option<FinalSeating>,
    /// A second device on a seat: the newer replaces the older (default), or is refused.
    #[serde(default, skip_serializing_if = "is_default")]
    pub second_device: SecondDevice,
    /// 托管 allowed at the competition's tables (off: a person plays their own cards).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto_play: bool,
    /// 80分: over which boards timeouts are counted (the round, default, or the competition).
    #[serde(default, skip_serializing_if = "is_default")]
    pub timeouts_counted: TimeoutsCounted,
    /// A practice set (练习牌套, `competition::practice`): its terms. Only the server makes
    /// one (a day's sets, an organiser's); a director's event has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub practice: Option<Box<PracticeTerms>>,
}

/// What a practice set is besides its boards: when it closes, whose it is, and the computers'
/// reference runs that give the first player a field.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PracticeTerms {
    /// When the set closes (Unix ms): no run begins after it, the runs not finished stop where
    /// they are, and the seed is revealed.
    pub closes_ms: u64,
    /// A club's set: the club's name. Not listed with the day's sets; its code is shared by the
    /// club.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// The computers' levels (`beginner`, `club`, `expert`) whose reference runs the server
    /// plays when the set opens, one each: four computers at that level.
    #[serde(default)]
    pub references: Vec<String>,
    /// The set's days start at this offset from UTC, in minutes (480: China): a run counts in
    /// the ranking of the day it began.
    #[serde(default)]
    pub utc_offset_minutes: i32,
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

/// One entry as the director types it: a pair (two names) or a 够级 team (three).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The players' names (80分: North or East first, then South or West; 够级: seats 1, 2, 3).
    pub names: Vec<String>,
    /// The unit they play for (单位).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organisation: Option<String>,
    /// Computers play its seats (so four friends can rehearse a whole session).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// 够级: the team's name; `{organisation}{k}队`, else `第{n}队`, when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
}
