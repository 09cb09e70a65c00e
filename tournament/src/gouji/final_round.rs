//! 决赛 (the final): 将6支队伍分A、B两个组采取循环赛，每局比赛结束后，A队按1-2-3顺序，B队按3-2-1
//! 顺序调整到下局比赛桌进行比赛。比赛结束后，每局局分相加，即为该队总分.
//!
//! Three tables, each one team of group A against one of group B. Game 1: A team i and B team i
//! at table i. After each game the A teams move up a table (1→2→3→1) and the B teams down
//! (3→2→1→3), so in game g table t has A team `t − (g−1)` and B team `t + (g−1)` (round the
//! three tables): in three games (a rotation) every A team meets every B team once. Every table
//! plays the same deal in a game (deal g).
//!
//! **Which side each team sits** (\[decision\], issue 24.9): the rulebook names the groups A and B
//! (A队、B队) and how they move, not the seats. Were every group-A team seated side A, the three
//! of group A would hold the same cards on every deal, and one good deal for side A lifts all of
//! group A over all of group B (+16 against −16). So the sides are swapped at some tables: in
//! the first rotation of each pair at table 2, in the second at tables 1 and 3 (rotations 1, 3,
//! 5, … and 2, 4, 6, …). Every deal then has both groups on both sides (two tables one way, one
//! the other), and since every team visits every table once a rotation, over each pair of
//! rotations (six games) every team sits side A three times and side B three times, and each
//! group fills exactly half the side-A seats. The meetings are untouched: every A team still
//! meets every B team once a rotation.

use serde::{Deserialize, Serialize};

use super::game::{ExtraGame, GameRecord, TeamDeduction, TeamId};
use super::standing::{rank_teams, TeamStanding, TeamTally};
use super::team_match::{deduct, tallies};
use crate::error::Error;

/// Which side each finalist sits (see the module's text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalSeating {
    /// The sides swapped at some tables, so no group holds one side of the same deals (the
    /// default).
    #[default]
    Balanced,
    /// Every group-A team side A: how finals were seated before the balanced seating, kept so
    /// that a competition logged then replays as it was played.
    ByGroup,
}

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
    /// The team seated side A, in seats A1, A2, A3: the group-A team, or the group-B team where
    /// the sides are swapped.
    pub a: TeamId,
    /// The team seated side B, in seats B1, B2, B3.
    pub b: TeamId,
    /// The sides are swapped here: the group-B team sits side A.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub swapped: bool,
}

impl FinalTable {
    /// The team of group A at this table, whichever side it sits.
    pub fn group_a(&self) -> &TeamId {
        if self.swapped {
            &self.b
        } else {
            &self.a
        }
    }

    /// The team of group B at this table, whichever side it sits.
    pub fn group_b(&self) -> &TeamId {
        if self.swapped {
            &self.a
        } else {
            &self.b
        }
    }
}

/// Whether the sides are swapped at `table` (1–3) in rotation `rotation` (from 0): table 2 in
/// the first rotation of each pair, tables 1 and 3 in the second. Every team visits each table
/// once a rotation, so over a pair of rotations it is swapped three games of six.
fn sides_swapped(rotation: u32, table: u32) -> bool {
    (table == 2) == rotation.is_multiple_of(2)
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

/// The final's seating for `games` games (a positive multiple of 3: whole rotations); with an
/// even number of rotations every team sits each side equally often.
pub fn final_schedule(
    groups: &FinalGroups,
    games: u32,
    seating: FinalSeating,
) -> Result<Vec<FinalGame>, Error> {
    check_groups(groups)?;
    if games == 0 || !games.is_multiple_of(3) {
        return Err(Error::FinalGames { games });
    }
    Ok((1..=games)
        .map(|game| {
            let moved = (game - 1) as usize % 3;
            let rotation = (game - 1) / 3;
            FinalGame {
                game,
                deal: game,
                tables: (0..3)
                    .map(|t| {
                        let table = t as u32 + 1;
                        let a = groups.a[(t + 3 - moved) % 3].clone();
                        let b = groups.b[(t + moved) % 3].clone();
                        let swapped =
                            seating == FinalSeating::Balanced && sides_swapped(rotation, table);
                        let (a, b) = if swapped { (b, a) } else { (a, b) };
                        FinalTable {
                            table,
                            a,
                            b,
                            swapped,
                        }
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
    /// Which side each team sits; balanced when absent.
    #[serde(default)]
    pub seating: FinalSeating,
}

/// The final's ranking: total points (deductions off), more 头科, fewer 大落, extra games; teams
/// still level get [`super::Placing::ExtraGameNeeded`].
pub fn final_standings(input: &FinalInput) -> Result<Vec<TeamStanding>, Error> {
    let schedule = final_schedule(&input.groups, input.games, input.seating)?;
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
