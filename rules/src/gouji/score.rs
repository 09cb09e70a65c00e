//! 名次与积分 (places and scoring): 头科 +4, 二科 +2, 二落 −2, 大落 −4, 点贡 6, 串三户 12.
//!
//! A team's game score is the sum over its players, plus 点贡. 串三户 (one team takes 头科, 二科
//! and 三科) replaces all of it; a forfeit (0:12 告负) replaces everything. One scale: 点贡,
//! 串三户 and a forfeit are transfers, +n to one team and −n to the other, so a forfeit (−12) is
//! never better for the offender than an honest game. A failed burner scores 大落 whatever place
//! it fills (烧牌失误则为大落). Referee deductions come on top of every outcome.

use serde::{Deserialize, Serialize};

use super::ruleset::Scoring;
use super::seat::Team;
use super::Seat;

/// The finishing places, 头科 to 大落.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Place {
    /// 头科
    First,
    /// 二科
    Second,
    /// 三科
    Third,
    /// 四科
    Fourth,
    /// 二落
    SecondLast,
    /// 大落
    Last,
}

impl Place {
    pub const ALL: [Place; 6] = [
        Place::First,
        Place::Second,
        Place::Third,
        Place::Fourth,
        Place::SecondLast,
        Place::Last,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Place {
        Place::ALL[i]
    }

    pub fn zh(self) -> &'static str {
        ["头科", "二科", "三科", "四科", "二落", "大落"][self.index()]
    }
}

/// Points of the two teams for one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Score {
    pub a: i32,
    pub b: i32,
}

impl Score {
    pub fn team(&self, team: Team) -> i32 {
        match team {
            Team::A => self.a,
            Team::B => self.b,
        }
    }

    fn add(&mut self, team: Team, points: i32) {
        match team {
            Team::A => self.a += points,
            Team::B => self.b += points,
        }
    }
}

/// How a game's score came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Outcome {
    /// Places, 点贡 and deductions.
    Places,
    /// 串三户 by this team.
    Sweep { team: TeamName },
    /// 0:12: this team forfeited.
    Forfeit { team: TeamName },
}

/// A team on the wire (`"a"` / `"b"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TeamName {
    A,
    B,
}

impl From<Team> for TeamName {
    fn from(t: Team) -> TeamName {
        match t {
            Team::A => TeamName::A,
            Team::B => TeamName::B,
        }
    }
}

/// The team that took 头科, 二科 and 三科, if one did (串三户).
pub fn sweep(places: &[Option<Place>; 6]) -> Option<Team> {
    let team_of = |p: Place| {
        Seat::ALL
            .into_iter()
            .find(|s| places[s.index()] == Some(p))
            .map(Seat::team)
    };
    let first = team_of(Place::First)?;
    (team_of(Place::Second) == Some(first) && team_of(Place::Third) == Some(first)).then_some(first)
}

/// What decides a finished game's score, besides the ruleset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Place of each seat, A1…B3.
    pub places: [Option<Place>; 6],
    /// 点 players.
    pub marked: [bool; 6],
    /// Failed burners (烧牌失误): they score 大落 whatever their place.
    pub failed: [bool; 6],
    /// Points deducted by referees, team A then B.
    pub deducted: [u32; 2],
}

/// The score of a finished game (without a forfeit): places, 点贡, deductions; or 串三户.
pub fn score(t: &Tally, scoring: &Scoring) -> (Score, Outcome) {
    // Deductions are referee penalties, outside the table that 串三户 replaces.
    let mut s = deducted(t.deducted);
    if let Some(team) = sweep(&t.places) {
        s.add(team, scoring.sweep);
        s.add(other(team), -scoring.sweep);
        return (s, Outcome::Sweep { team: team.into() });
    }
    for seat in Seat::ALL {
        let i = seat.index();
        if t.failed[i] {
            s.add(seat.team(), scoring.failed_burn);
        } else if let Some(p) = t.places[i] {
            s.add(seat.team(), scoring.places[p.index()]);
        }
    }
    for team in [Team::A, Team::B] {
        let n = Seat::ALL
            .into_iter()
            .filter(|x| x.team() == team && t.marked[x.index()])
            .count() as i32;
        let times = if scoring.dian_gong_once_per_team {
            n.min(1)
        } else {
            n
        };
        s.add(team, -times * scoring.dian_gong);
        s.add(other(team), times * scoring.dian_gong);
    }
    (s, Outcome::Places)
}

/// The forfeit score (0:12 告负 on the zero-sum scale: −12 / +12), with the deductions made
/// before it.
pub fn forfeit(team: Team, deducted_points: [u32; 2], scoring: &Scoring) -> Score {
    let mut s = deducted(deducted_points);
    s.add(team, -scoring.forfeit);
    s.add(other(team), scoring.forfeit);
    s
}

fn deducted(points: [u32; 2]) -> Score {
    Score {
        a: -(points[0] as i32),
        b: -(points[1] as i32),
    }
}

pub fn other(team: Team) -> Team {
    match team {
        Team::A => Team::B,
        Team::B => Team::A,
    }
}
