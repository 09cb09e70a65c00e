//! 计副制 against the field: every result on a board so far (the players' and the computers'
//! reference runs') compared with every other, 2 match points for each result beaten and 1 for
//! each tie, as the meet scores a board across its tables (`crate::matchpoints`). A result's
//! share of the board's top (2 × (results − 1)) is its percentage; a result alone on its board
//! has nothing to beat or lose to and scores 50 %. A run's percentage is the mean of its boards'
//! (each board weighs the same whether 3 or 300 played it, as on the robot-duplicate sites), and
//! it moves as later players add results to the field.

use super::state::{Played, Practice, Run};
use super::SetGame;
use crate::matchpoints::{raw, top};
use crate::mp::Mp;

/// One result on a board, scored against the board's field.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored<'a> {
    pub run: &'a Run,
    pub played: &'a Played,
    pub mp: Mp,
    /// 2 × (results on the board − 1).
    pub top: Mp,
    /// `mp / top` in percent; 50 for a result alone.
    pub percent: f64,
}

/// A run's boards scored, and its percentage.
#[derive(Clone, Debug, PartialEq)]
pub struct RunScore<'a> {
    /// Each board it played, by number.
    pub boards: Vec<(u32, Scored<'a>)>,
    /// The mean of its boards' percentages; `None` before its first result.
    pub percent: Option<f64>,
}

/// A run in the ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked<'a> {
    pub run: &'a Run,
    pub percent: f64,
    /// 1 for the best; equal percentages share a place and leave the next ones empty.
    pub place: u32,
}

/// The day (from the Unix epoch) that `ms` falls in, days starting at `utc_offset_minutes`
/// from UTC.
pub fn day_of(ms: u64, utc_offset_minutes: i32) -> i64 {
    let minutes = (ms / 60_000) as i64 + i64::from(utc_offset_minutes);
    minutes.div_euclid(24 * 60)
}

fn percent(mp: Mp, top: Mp) -> f64 {
    if top == Mp::ZERO {
        50.0
    } else {
        100.0 * mp.to_f64() / top.to_f64()
    }
}

impl<G: SetGame> Practice<G> {
    /// Every result on `board` so far, in run order, each with its match points among them.
    pub fn field(&self, board: u32) -> Vec<Scored<'_>> {
        let results: Vec<(&Run, &Played)> = self
            .runs
            .iter()
            .filter_map(|r| Some((r, r.board(board)?.played.as_ref()?)))
            .collect();
        let values: Vec<i64> = results.iter().map(|(_, p)| p.outcome.value()).collect();
        let top = top(results.len());
        results
            .into_iter()
            .zip(raw(&values))
            .map(|((run, played), mp)| Scored {
                run,
                played,
                mp,
                top,
                percent: percent(mp, top),
            })
            .collect()
    }

    /// A run's boards against their fields now, and its percentage.
    pub fn score(&self, run: &Run) -> RunScore<'_> {
        let boards: Vec<(u32, Scored<'_>)> = (1..=self.boards())
            .filter_map(|b| {
                let s = self
                    .field(b)
                    .into_iter()
                    .find(|s| s.run.number == run.number)?;
                Some((b, s))
            })
            .collect();
        let percent = (!boards.is_empty())
            .then(|| boards.iter().map(|(_, s)| s.percent).sum::<f64>() / boards.len() as f64);
        RunScore { boards, percent }
    }

    /// The finished runs, best first (those begun on `day` alone, if given: the ranking of the
    /// day), the computers' reference runs among them.
    pub fn ranking(&self, day: Option<i64>) -> Vec<Ranked<'_>> {
        let offset = self
            .common
            .spec
            .practice
            .as_ref()
            .map_or(0, |t| t.utc_offset_minutes);
        let mut lines: Vec<(&Run, f64)> = self
            .runs
            .iter()
            .filter(|r| r.done())
            .filter(|r| day.is_none_or(|d| day_of(r.began_ms, offset) == d))
            .filter_map(|r| Some((r, self.score(r).percent?)))
            .collect();
        // Percentages shown to two decimals: those equal there are equal.
        let key = |p: f64| (p * 100.0).round() as i64;
        lines.sort_by(|a, b| key(b.1).cmp(&key(a.1)).then(a.0.number.cmp(&b.0.number)));
        let mut out: Vec<Ranked<'_>> = Vec::with_capacity(lines.len());
        for (i, (run, percent)) in lines.into_iter().enumerate() {
            let place = match out.last() {
                Some(prev) if key(prev.percent) == key(percent) => prev.place,
                _ => i as u32 + 1,
            };
            out.push(Ranked {
                run,
                percent,
                place,
            });
        }
        out
    }
}
