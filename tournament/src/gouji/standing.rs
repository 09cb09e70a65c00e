//! 名次 (team standings) of 够级: 总分相等时，获得头科次数多者名次列前；如仍相同，则获得大落次数少者
//! 名次列前；如仍不能确定名次，则加赛一局，以头科一方为胜.
//!
//! Teams are ordered by total points (deductions off), then more 头科, then fewer 大落, then the
//! extra games played among the teams still level (the team that took 头科 in an extra game wins
//! it; wins among the level teams order them). Teams still level after all that are not given a
//! place: their outcome says that an extra game is needed, and for which places.

use std::cmp::Ordering;
use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::game::{ExtraGame, TeamId};
use crate::error::Error;

/// What one team brings to a ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamTally {
    pub team: TeamId,
    /// Total points, deductions already off.
    pub points: i32,
    /// 头科 taken.
    pub firsts: u32,
    /// 大落 scored.
    pub lasts: u32,
    /// Points deducted (shown; already in `points`).
    pub deducted: i32,
}

/// What separated a team from its neighbours in the ranking: the last tie-break it needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Total points alone.
    Points,
    /// Level on points; more 头科.
    Firsts,
    /// Level on points and 头科; fewer 大落.
    Lasts,
    /// Level on all three; the extra game(s).
    ExtraGame,
}

/// A team's outcome in a ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Placing {
    /// A place of its own.
    Placed { place: u32, by: TieBreak },
    /// Level with `with` on everything: 加赛一局. The extra game decides `places` (first and
    /// last of the places the level teams fill).
    ExtraGameNeeded { places: [u32; 2], with: Vec<TeamId> },
}

/// A team's line in a ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamStanding {
    pub team: TeamId,
    pub points: i32,
    pub firsts: u32,
    pub lasts: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deducted: i32,
    #[serde(flatten)]
    pub placing: Placing,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

impl TeamStanding {
    /// The team's place, if it has one of its own.
    pub fn place(&self) -> Option<u32> {
        match self.placing {
            Placing::Placed { place, .. } => Some(place),
            Placing::ExtraGameNeeded { .. } => None,
        }
    }
}

/// The order of two tallies without extra games: `Less` if `a` ranks ahead.
fn order(a: &TeamTally, b: &TeamTally) -> Ordering {
    b.points
        .cmp(&a.points)
        .then(b.firsts.cmp(&a.firsts))
        .then(a.lasts.cmp(&b.lasts))
}

/// The first tie-break at which two adjacent tallies differ (`ExtraGame` if none does).
fn separated_by(a: &TeamTally, b: &TeamTally) -> TieBreak {
    if a.points != b.points {
        TieBreak::Points
    } else if a.firsts != b.firsts {
        TieBreak::Firsts
    } else if a.lasts != b.lasts {
        TieBreak::Lasts
    } else {
        TieBreak::ExtraGame
    }
}

/// Ranks the teams. Extra games must name teams of `tallies`; games between teams that are not
/// level change nothing.
pub fn rank_teams(tallies: &[TeamTally], extra: &[ExtraGame]) -> Result<Vec<TeamStanding>, Error> {
    let mut known: HashSet<&str> = HashSet::new();
    for t in tallies {
        if !known.insert(t.team.as_str()) {
            return Err(Error::DuplicateTeam {
                team: t.team.clone(),
            });
        }
    }
    for g in extra {
        for team in [&g.winner, &g.loser] {
            if !known.contains(team.as_str()) {
                return Err(Error::UnknownTeam { team: team.clone() });
            }
        }
        if g.winner == g.loser {
            return Err(Error::SelfExtraGame {
                team: g.winner.clone(),
            });
        }
    }
    let mut sorted: Vec<&TeamTally> = tallies.iter().collect();
    sorted.sort_by(|a, b| order(a, b));

    // Within each block of teams level on points, 头科 and 大落: extra-game wins among them.
    // `runs` are the final order in runs of teams nothing separates (most of length 1).
    let mut runs: Vec<Vec<&TeamTally>> = Vec::new();
    let mut start = 0;
    while start < sorted.len() {
        let len = sorted[start..]
            .iter()
            .take_while(|t| order(t, sorted[start]).is_eq())
            .count();
        let block = &sorted[start..start + len];
        let wins = |t: &TeamTally| {
            extra
                .iter()
                .filter(|g| g.winner == t.team && block.iter().any(|o| o.team == g.loser))
                .count()
        };
        let mut by_wins: Vec<&TeamTally> = block.to_vec();
        by_wins.sort_by_key(|t| std::cmp::Reverse(wins(t)));
        for t in by_wins {
            match runs.last_mut() {
                Some(run) if order(run[0], t).is_eq() && wins(run[0]) == wins(t) => run.push(t),
                _ => runs.push(vec![t]),
            }
        }
        start += len;
    }

    let mut out = Vec::with_capacity(tallies.len());
    let mut place = 1;
    for (r, run) in runs.iter().enumerate() {
        let placing = if let [team] = run.as_slice() {
            // The last tie-break this team needed against the runs above and below it.
            let by = [r.checked_sub(1), Some(r + 1)]
                .into_iter()
                .flatten()
                .filter_map(|n| runs.get(n))
                .map(|other| separated_by(team, other[0]))
                .max()
                .unwrap_or(TieBreak::Points);
            Placing::Placed { place, by }
        } else {
            Placing::ExtraGameNeeded {
                places: [place, place + run.len() as u32 - 1],
                with: run.iter().map(|t| t.team.clone()).collect(),
            }
        };
        for t in run {
            out.push(TeamStanding {
                team: t.team.clone(),
                points: t.points,
                firsts: t.firsts,
                lasts: t.lasts,
                deducted: t.deducted,
                placing: placing.clone(),
            });
        }
        place += run.len() as u32;
    }
    Ok(out)
}
