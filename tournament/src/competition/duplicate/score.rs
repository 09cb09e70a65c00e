//! 计分 (scoring the competition so far): the results of the rounds counted become the scoring
//! library's input (`tournament::score`); out come every board's match points and the two
//! rankings (NS and EW apart, 双冠军).

use super::state::{declarer_of, Duplicate, Play};
use crate::competition::Error;
use crate::movement::TableRound;
use crate::score::{Deduction, PairId, PairRef, Pairs, ResultIn, ScoreInput, ScoreOutput};
use crate::seat::Direction;

impl Duplicate {
    /// The results of rounds `1..=upto` as the scoring library reads them.
    pub fn score_input(&self, upto: u32) -> ScoreInput {
        // The registered pairs: a half table's phantom is not one (it is ranked nowhere).
        let numbers = |direction: Direction| -> Vec<PairId> {
            (1..=self.tables())
                .filter(|&n| self.pair(direction, n).is_some())
                .map(|n| PairId(n.to_string()))
                .collect()
        };
        let results = self
            .plays
            .iter()
            .filter(|((round, _, _), play)| *round <= upto && play.done())
            .filter_map(|(&(round, table, board), play)| {
                let plan = self.table_plan(round, table)?;
                result_in(board, plan, play)
            })
            .collect();
        ScoreInput {
            pairs: Pairs {
                ns: numbers(Direction::NS),
                ew: numbers(Direction::EW),
            },
            results,
            // An offence recorded without match points takes nothing off.
            deductions: self
                .deductions
                .iter()
                .filter(|d| d.mp > 0.0)
                .map(|d| Deduction {
                    direction: d.direction,
                    pair: PairId(d.pair.to_string()),
                    mp: d.mp,
                    reason: Some(d.reason.clone()),
                })
                .collect(),
            disqualified: self
                .disqualified
                .iter()
                .map(|d| PairRef {
                    direction: d.direction,
                    pair: PairId(d.pair.to_string()),
                })
                .collect(),
            prizes: self.common.spec.prizes,
        }
    }

    /// Match points and rankings over rounds `1..=upto`.
    pub fn score(&self, upto: u32) -> Result<ScoreOutput, Error> {
        Ok(crate::score(self.score_input(upto))?)
    }
}

/// One board's result at one table, as the scoring library reads it: the director's result in
/// place of the table's.
fn result_in(board: u32, plan: &TableRound, play: &Play) -> Option<ResultIn> {
    let ns = plan.ns.map(|n| PairId(n.to_string()));
    let ew = plan.ew.map(|n| PairId(n.to_string()));
    let r = match (&play.adjusted, &play.played) {
        (Some(adj), _) => match &adj.artificial {
            Some(a) => ResultIn {
                board,
                ns,
                ew,
                declarer: None,
                defenders: None,
                artificial: Some(*a),
                adjusted: false,
            },
            None => ResultIn {
                board,
                ns,
                ew,
                declarer: Some(declarer_of(board)),
                defenders: adj.defenders,
                artificial: None,
                adjusted: true,
            },
        },
        (None, Some(p)) => ResultIn {
            board,
            ns,
            ew,
            declarer: Some(p.declarer),
            defenders: Some(p.defenders),
            artificial: None,
            adjusted: false,
        },
        (None, None) => return None,
    };
    Some(r)
}
