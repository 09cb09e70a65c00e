//! 决赛 (the final): 将6支队伍分A、B两个组采取循环赛，每局比赛结束后，A队按1-2-3顺序，B队按3-2-1
//! 顺序调整到下局比赛桌进行比赛。比赛结束后，每局局分相加，即为该队总分.
//!
//! Three tables, each one A team (seated A) against one B team (seated B). Game 1: A team i and
//! B team i at table i. After each game the A teams move up a table (1→2→3→1) and the B teams
//! down (3→2→1→3), so in game g table t has A team `t − (g−1)` and B team `t + (g−1)` (round the
//! three tables): in three games every A team meets every B team once. Every table plays the
//! same deal in a game (deal g), so the A teams hold the same cards against different B teams.

use serde::{Deserialize, Serialize};

use super::game::{ExtraGame, GameRecord, TeamDeduction, TeamId};
use super::standing::{rank_teams, TeamStanding, TeamTally};
use super::team_match::{deduct, tallies};
use crate::error::Error;

/// The six finalists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalGroups {
    /// Group A, starting at tables 1, 2, 3.
    pub a: [TeamId; 3],
    /// Group B, starting at tables 1, 2, 3.
    pub b: [TeamId; 3],
}

/// One game of the final: who sits where, and the one deal all three tables play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalGame {
    /// From 1.
    pub game: u32,
    /// The deal every table plays (the game number: deal it with the final's seed).
    pub deal: u32,
    /// Tables 1, 2, 3.
    pub tables: Vec<FinalTable>,
}

/// One table in one game of the final.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalTable {
    pub table: u32,
    /// The A team, in seats A1, A2, A3.
    pub a: TeamId,
    /// The B team, in seats B1, B2, B3.
    pub b: TeamId,
}

fn check_groups(groups: &FinalGroups) -> Result<(), Error> {
    let all: Vec<&TeamId> = groups.a.iter().chain(&groups.b).collect();
    for (i, t) in all.iter().enumerate() {
        if all[..i].contains(t) {
            return Err(Error::FinalTeams);
        }
    }
    Ok(())
}

/// The final's seating for `games` games (a positive multiple of 3: whole rotations).
pub fn final_schedule(groups: &FinalGroups, games: u32) -> Result<Vec<FinalGame>, Error> {
    check_groups(groups)?;
    if games == 0 || !games.is_multiple_of(3) {
        return Err(Error::FinalGames { games });
    }
    Ok((1..=games)
        .map(|game| {
            let moved = (game - 1) as usize % 3;
            FinalGame {
                game,
                deal: game,
                tables: (0..3)
                    .map(|t| FinalTable {
                        table: t as u32 + 1,
                        a: groups.a[(t + 3 - moved) % 3].clone(),
                        b: groups.b[(t + moved) % 3].clone(),
                    })
                    .collect(),
            }
        })
        .collect())
}

/// The final's results so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalInput {
    pub groups: FinalGroups,
    /// Games scheduled (a multiple of 3).
    pub games: u32,
    /// Per game played, the records of tables 1, 2, 3.
    pub results: Vec<[GameRecord; 3]>,
    #[serde(default)]
    pub deductions: Vec<TeamDeduction>,
    #[serde(default)]
    pub extra_games: Vec<ExtraGame>,
}

/// The final's ranking: total points (deductions off), more 头科, fewer 大落, extra games; teams
/// still level get [`super::Placing::ExtraGameNeeded`].
pub fn final_standings(input: &FinalInput) -> Result<Vec<TeamStanding>, Error> {
    let schedule = final_schedule(&input.groups, input.games)?;
    if input.results.len() > schedule.len() {
        return Err(Error::TooManyGames {
            played: input.results.len(),
            scheduled: schedule.len(),
        });
    }
    let teams: Vec<&TeamId> = input.groups.a.iter().chain(&input.groups.b).collect();
    let mut totals: Vec<TeamTally> = teams
        .iter()
        .map(|t| TeamTally {
            team: (*t).clone(),
            points: 0,
            firsts: 0,
            lasts: 0,
            deducted: 0,
        })
        .collect();
    for (game, records) in schedule.iter().zip(&input.results) {
        for (table, record) in game.tables.iter().zip(records) {
            let [a, b] = tallies(&table.a, &table.b, std::slice::from_ref(record), &[])?;
            for t in [a, b] {
                let total = totals
                    .iter_mut()
                    .find(|x| x.team == t.team)
                    .expect("scheduled teams are finalists");
                total.points += t.points;
                total.firsts += t.firsts;
                total.lasts += t.lasts;
            }
        }
    }
    deduct(&mut totals, &input.deductions)?;
    rank_teams(&totals, &input.extra_games)
}
