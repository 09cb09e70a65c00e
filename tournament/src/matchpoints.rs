//! 计副制 (matchpoint scoring) of one board across the tables that played it.
//!
//! A board's result is the defenders' points (闲家得分) at a table. The declaring side (庄家, a
//! fixed seat per board: 定庄) wants them few, the defenders many. Within a direction every
//! result is compared with every other: 2 match points (比赛分) for each result it beats, 1 for
//! each tie. Top = 2 × (results − 1); the other direction gets top − its opponents' score.
//!
//! - **Neuberg**: a board with `n` played results when the event's boards have `E`, scaled to the
//!   top of `E`: `mp' = (mp + 1) × E / n − 1` (in 2-per-beat units). A result alone on a board
//!   gets half the top. NS' + EW' is still the full top.
//! - **Artificial scores** (人为分): an average is 50 % of the full top 2 × (E − 1), average-plus
//!   60 %, average-minus 40 %, given per side (A+ to one side and A− to the other, or A to both).
//!   They take no part in the comparisons: the played results are compared among themselves and
//!   scaled with Neuberg as if the board had been played E times. A pair sitting out against a
//!   phantom gets its artificial score alone.
//! - **Adjusted results** (a referee's assigned defenders' points, e.g. 120 after illegal
//!   information) are played results: they are compared like any other.

use serde::{Deserialize, Serialize};

use crate::mp::Mp;
use crate::seat::Direction;

/// An artificial score, as a share of the board's full top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Artificial {
    /// 平均分: 50 %.
    #[serde(rename = "A")]
    Average,
    /// 平均分加: 60 %.
    #[serde(rename = "A+")]
    AveragePlus,
    /// 平均分减: 40 %.
    #[serde(rename = "A-", alias = "A−")]
    AverageMinus,
}

impl Artificial {
    /// The share of the top, in percent.
    pub fn percent(self) -> i128 {
        match self {
            Artificial::Average => 50,
            Artificial::AveragePlus => 60,
            Artificial::AverageMinus => 40,
        }
    }

    /// This share of a board's top when the event's boards are played `expected` times.
    pub fn of_top(self, expected: usize) -> Mp {
        top(expected).scale(self.percent(), 100)
    }
}

/// What happened at one table on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Played (or given assigned points by a referee): the defenders' points.
    Played { defenders: i32 },
    /// Not played, or not to be counted: an artificial score per side present (`None` for a
    /// side with no pair, the phantom of a half table).
    Artificial {
        ns: Option<Artificial>,
        ew: Option<Artificial>,
    },
}

/// The match points of one table's result: a side with no pair (a phantom) has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardScore {
    pub ns: Option<Mp>,
    pub ew: Option<Mp>,
}

/// The top of a board played `times` times: 2 × (times − 1), 0 for a board played once or never.
pub fn top(times: usize) -> Mp {
    Mp::whole(2 * (times.max(1) as i64 - 1))
}

/// How good a result is for NS: fewer defenders' points when NS declared, more when EW did.
pub fn ns_value(declarer: Direction, defenders: i32) -> i64 {
    match declarer {
        Direction::NS => -i64::from(defenders),
        Direction::EW => i64::from(defenders),
    }
}

/// NS match points of each played result among `defenders` (2 per result beaten, 1 per tie);
/// EW's are the top (2 × (n − 1)) minus these.
pub fn raw_ns(declarer: Direction, defenders: &[i32]) -> Vec<Mp> {
    let values: Vec<i64> = defenders.iter().map(|&d| ns_value(declarer, d)).collect();
    raw(&values)
}

/// Match points of each result among `values` (higher is better): 2 per result beaten, 1 per
/// tie. A practice set's field is compared the same way (`competition::practice::field`).
pub fn raw(values: &[i64]) -> Vec<Mp> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    values
        .iter()
        .map(|v| {
            let below = sorted.partition_point(|x| x < v) as i64;
            let equal = sorted.partition_point(|x| x <= v) as i64 - below - 1;
            Mp::whole(2 * below + equal)
        })
        .collect()
}

/// Neuberg: match points `mp` earned on a board played `played` times, scaled to a board played
/// `expected` times: `(mp + 1) × E / n − 1`.
pub fn neuberg(mp: Mp, played: usize, expected: usize) -> Mp {
    if played == 0 || played == expected {
        return mp;
    }
    (mp + Mp::whole(1)).scale(expected as i128, played as i128) - Mp::whole(1)
}

/// Scores one board: `outcomes` are all its results (one per table that had it), `declarer` the
/// side of its fixed declarer seat (needed only if some result was played), `expected` the number
/// of results of the event's most-played board (E; at least `outcomes.len()`).
pub fn score_board(declarer: Direction, outcomes: &[Outcome], expected: usize) -> Vec<BoardScore> {
    let expected = expected.max(outcomes.len());
    let played: Vec<i32> = outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Played { defenders } => Some(*defenders),
            Outcome::Artificial { .. } => None,
        })
        .collect();
    let n = played.len();
    let full_top = top(expected);
    let mut raw = raw_ns(declarer, &played).into_iter();
    outcomes
        .iter()
        .map(|o| match o {
            Outcome::Played { .. } => {
                let ns = neuberg(raw.next().expect("one per played result"), n, expected);
                BoardScore {
                    ns: Some(ns),
                    ew: Some(full_top - ns),
                }
            }
            Outcome::Artificial { ns, ew } => BoardScore {
                ns: ns.map(|a| a.of_top(expected)),
                ew: ew.map(|a| a.of_top(expected)),
            },
        })
        .collect()
}
