//! 局 (one game) as an event sees it: each team's points, who took 头科, who was 大落; and the
//! records that come on top of games: team deductions and extra games.

use rules::gouji::score::{score, Place, Tally};
use rules::gouji::{Scoring, Seat, Team};
use serde::{Deserialize, Serialize};

/// A team's name in an event.
pub type TeamId = String;

/// The side a team sits on at its table: A (seats A1, A2, A3; A1 leads every game) or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    A,
    B,
}

impl From<Team> for Side {
    fn from(t: Team) -> Side {
        match t {
            Team::A => Side::A,
            Team::B => Side::B,
        }
    }
}

/// One finished game at one table, as the engine scored it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// Team A's points for the game (places, 点贡 or 串三户, a forfeit, referee deductions).
    pub a: i32,
    /// Team B's points.
    pub b: i32,
    /// The side of the player who took 头科; `None` when nobody did (a forfeit, 0:12 告负).
    #[serde(default)]
    pub first: Option<Side>,
    /// The side of every player who scored 大落: the last out, and a failed burner (烧牌失误则为
    /// 大落), so a game can have two.
    #[serde(default)]
    pub last: Vec<Side>,
}

impl GameRecord {
    /// The record of a game the engine finished: its score under `scoring`, 头科 and 大落 from
    /// the places (a failed burner counts as 大落 whatever place it filled).
    pub fn from_tally(t: &Tally, scoring: &Scoring) -> GameRecord {
        let (s, _) = score(t, scoring);
        let first = Seat::ALL
            .into_iter()
            .find(|seat| t.places[seat.index()] == Some(Place::First))
            .map(|seat| seat.team().into());
        let last = Seat::ALL
            .into_iter()
            .filter(|seat| {
                let i = seat.index();
                t.failed[i] || t.places[i] == Some(Place::Last)
            })
            .map(|seat| seat.team().into())
            .collect();
        GameRecord {
            a: s.a,
            b: s.b,
            first,
            last,
        }
    }

    pub fn points(&self, side: Side) -> i32 {
        match side {
            Side::A => self.a,
            Side::B => self.b,
        }
    }

    /// 头科 taken by `side` in this game: 0 or 1.
    pub fn firsts(&self, side: Side) -> u32 {
        u32::from(self.first == Some(side))
    }

    /// 大落 scored by `side` in this game.
    pub fn lasts(&self, side: Side) -> u32 {
        self.last.iter().filter(|&&s| s == side).count() as u32
    }
}

/// A deduction from a team's event total, outside any game: 每局比赛结束，严禁同组、同牌型两队队员
/// 之间交流，一经发现，视为犯规，并给予扣该队4分处罚.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamDeduction {
    pub team: TeamId,
    /// Points off; 4 if absent.
    #[serde(default = "four")]
    pub points: i32,
    /// What it was for, for the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

fn four() -> i32 {
    4
}

/// An extra game between two tied teams: 加赛一局，以头科一方为胜 — the team that took 头科 wins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraGame {
    pub winner: TeamId,
    pub loser: TeamId,
}
