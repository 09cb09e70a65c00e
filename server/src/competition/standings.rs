//! The standings as they are sent (`GET /api/events/{id}/standings`) and printed: NS and EW
//! apart for 80分 pairs (双冠军), the teams' order for 够级, with every board's (or game's)
//! results where they may be seen. Built from the competition's own scoring
//! (`Duplicate::score`, `Teams::standing`).
//!
//! What the public sees while a competition runs: the ranking over the closed rounds only, and
//! no board's results (a traveller would tell a pair about a board it has still to play). The
//! director sees everything live; once the seed is revealed everyone does.

use protocol::PairInfo;
use serde::Serialize;
use tournament::score::BoardOut;
use tournament::{Direction, Mp};

/// One pair's line in its direction's ranking.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    #[serde(flatten)]
    pub pair: PairInfo,
    pub mp: Mp,
    pub place: Option<u32>,
    pub prize: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deducted: Option<Mp>,
    /// Disqualified by the director: no place (the pairs below fill it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disqualified: bool,
}

/// The two rankings.
#[derive(Clone, Debug, Serialize)]
pub struct Rankings {
    #[serde(rename = "NS")]
    pub ns: Vec<Line>,
    #[serde(rename = "EW")]
    pub ew: Vec<Line>,
}

/// A deduction as shown.
#[derive(Clone, Debug, Serialize)]
pub struct DeductionLine {
    pub direction: Direction,
    pub pair: u32,
    pub mp: f64,
    pub reason: String,
}

/// `GET /api/events/{id}/standings`.
#[derive(Clone, Debug, Serialize)]
pub struct Standings {
    pub id: String,
    pub name: String,
    /// The seed is revealed: these are the final results.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// Results of rounds 1 to this one are counted.
    pub through_round: u32,
    /// Rounds still being played are counted too (the director's live view).
    pub live: bool,
    pub ranking: Rankings,
    /// The travellers: every board's results and match points (director, or once final).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards: Option<Vec<BoardOut>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deductions: Option<Vec<DeductionLine>>,
    /// 够级 events: the teams' ranking (the 80分 `ranking` is empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gouji: Option<GoujiStandings>,
    /// Practice sets: the ranking of the whole set and of each day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub practice: Option<PracticeStandings>,
}

/// A practice set's rankings: the finished runs, best first, of the whole set and of each day
/// runs began on (a club's ranking of the day and of the week).
#[derive(Clone, Debug, Serialize)]
pub struct PracticeStandings {
    pub game: String,
    pub boards: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// `lines` are of this day alone (`YYYY-MM-DD`, the set's days); `None`: of the whole set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub day: Option<String>,
    pub lines: Vec<protocol::PracticeLine>,
    /// Each day with finished runs, oldest first.
    pub days: Vec<PracticeDay>,
}

/// One day's ranking.
#[derive(Clone, Debug, Serialize)]
pub struct PracticeDay {
    pub day: String,
    pub lines: Vec<protocol::PracticeLine>,
}

impl PracticeStandings {
    /// The ranking of one day only (`None` when no run of that day finished).
    pub fn of_day(&self, day: &str) -> Option<PracticeStandings> {
        let d = self.days.iter().find(|d| d.day == day)?;
        Some(PracticeStandings {
            day: Some(d.day.clone()),
            lines: d.lines.clone(),
            ..self.clone()
        })
    }
}

/// A 够级 event's standings: the finalists ranked by the final (total, more 头科, fewer 大落,
/// extra games), then the teams still in, then the teams knocked out, latest round first.
#[derive(Clone, Debug, Serialize)]
pub struct GoujiStandings {
    pub teams: Vec<TeamLine>,
    /// Every game's result (director, or once final).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<Vec<GameLine>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deductions: Option<Vec<protocol::TeamDeductionLine>>,
}

/// One team's line.
#[derive(Clone, Debug, Serialize)]
pub struct TeamLine {
    #[serde(flatten)]
    pub team: protocol::TeamInfo,
    /// `"final"`, `"in"` (still playing the knockout) or `"out"`.
    pub stage: &'static str,
    /// The knockout round the team lost in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out_round: Option<u32>,
    /// The final's totals (deductions off), or the match's where it went out.
    pub points: i32,
    pub firsts: u32,
    pub lasts: u32,
    #[serde(skip_serializing_if = "is_zero")]
    pub deducted: i32,
    /// Finalists only: 取前6名队伍，给予奖励.
    pub place: Option<u32>,
    pub prize: bool,
    /// The last tie-break the place needed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<tournament::gouji::TieBreak>,
    /// Level on everything: the extra game decides (it is played on the server).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub extra_game_needed: bool,
    /// Knocked out by the director's lot (抽签): its reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lot: Option<String>,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// One 够级 game's result.
#[derive(Clone, Debug, Serialize)]
pub struct GameLine {
    pub round: u32,
    /// `"knockout"` or `"final"`.
    pub kind: &'static str,
    pub table: u32,
    pub game: u32,
    pub deal: u32,
    pub a: String,
    pub b: String,
    pub extra: bool,
    pub result: protocol::GoujiGameResult,
    /// The director's reason, where the result is the director's ruling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjusted: Option<String>,
}
