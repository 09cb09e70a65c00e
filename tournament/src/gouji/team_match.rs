//! 对阵 (a team match): 对阵两支队伍比6局以得分高者为胜 — two teams, six games at one table, the
//! higher total wins. Level totals are separated as in the final: more 头科, fewer 大落, then an
//! extra game.

use serde::{Deserialize, Serialize};

use super::game::{ExtraGame, GameRecord, Side, TeamDeduction, TeamId};
use super::standing::{rank_teams, Placing, TeamStanding, TeamTally};
use crate::error::Error;

/// Games in a match.
pub const MATCH_GAMES: usize = 6;

/// A match as it stands: the team seated A, the team seated B, the games played so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamMatch {
    /// The team in seats A1, A2, A3 (A1 leads every game).
    pub a: TeamId,
    pub b: TeamId,
    /// At most six.
    pub games: Vec<GameRecord>,
    #[serde(default)]
    pub deductions: Vec<TeamDeduction>,
    /// Extra games, if the six left the teams level on everything.
    #[serde(default)]
    pub extra_games: Vec<ExtraGame>,
}

/// Where a match stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Both teams, in ranking order.
    pub standings: Vec<TeamStanding>,
    /// All six games are in.
    pub complete: bool,
    /// The winner, once the six games are in and the tie-breaks (or extra game) decided.
    pub winner: Option<TeamId>,
    /// Six games in, level on points, 头科 and 大落, no extra game decided it yet.
    pub extra_game_needed: bool,
}

/// Totals (points less deductions, 头科, 大落) of the teams seated A and B over `games`.
pub fn tallies(
    a: &TeamId,
    b: &TeamId,
    games: &[GameRecord],
    deductions: &[TeamDeduction],
) -> Result<[TeamTally; 2], Error> {
    let mut out = [(a, Side::A), (b, Side::B)].map(|(team, side)| TeamTally {
        team: team.clone(),
        points: games.iter().map(|g| g.points(side)).sum(),
        firsts: games.iter().map(|g| g.firsts(side)).sum(),
        lasts: games.iter().map(|g| g.lasts(side)).sum(),
        deducted: 0,
    });
    deduct(&mut out, deductions)?;
    Ok(out)
}

/// Takes team deductions off the totals (扣该队4分): each names one of the teams and a positive
/// number of points.
pub fn deduct(totals: &mut [TeamTally], deductions: &[TeamDeduction]) -> Result<(), Error> {
    for d in deductions {
        let t = totals
            .iter_mut()
            .find(|t| t.team == d.team)
            .ok_or_else(|| Error::UnknownTeam {
                team: d.team.clone(),
            })?;
        if d.points <= 0 {
            return Err(Error::BadTeamDeduction {
                team: d.team.clone(),
                points: d.points,
            });
        }
        t.deducted += d.points;
        t.points -= d.points;
    }
    Ok(())
}

/// Scores a match so far.
pub fn match_result(m: &TeamMatch) -> Result<MatchResult, Error> {
    if m.a == m.b {
        return Err(Error::DuplicateTeam { team: m.a.clone() });
    }
    if m.games.len() > MATCH_GAMES {
        return Err(Error::TooManyGames {
            played: m.games.len(),
            scheduled: MATCH_GAMES,
        });
    }
    let standings = rank_teams(
        &tallies(&m.a, &m.b, &m.games, &m.deductions)?,
        &m.extra_games,
    )?;
    let complete = m.games.len() == MATCH_GAMES;
    let extra_game_needed = complete
        && standings
            .iter()
            .any(|s| matches!(s.placing, Placing::ExtraGameNeeded { .. }));
    let winner = complete
        .then(|| {
            standings
                .iter()
                .find(|s| s.place() == Some(1))
                .map(|s| s.team.clone())
        })
        .flatten();
    Ok(MatchResult {
        standings,
        complete,
        winner,
        extra_game_needed,
    })
}
