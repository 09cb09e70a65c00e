//! 公平竞赛 (fair play): does a pair (a team, in 够级) play as if it saw cards it should not?
//! Seed 000 (违规与判罚, item 10) punishes passing information by voice or gesture; online, no
//! referee sees the players, so the evidence is in the moves.
//!
//! At each decision the all-seeing analyser (`shengji::all_seeing::evidence`) asks two things:
//! was the play made among the best with the true hands (a *hit*), and how often is it among
//! the best in the deals the seat's own view allows (its *expected* rate)? A seat that sees only
//! its own cards chooses from its view alone, and the true deal is, to its view, one more of
//! the deals it allows: its hits then come at the expected rate, whatever its skill or style.
//! A seat that sees its partner's hand (or an opponent's) chooses with the true deal in mind
//! and hits more often, exactly where its own view could not tell the choices apart.
//!
//! A side's [`Tally`] sums hits minus expected over its decisions; [`Tally::z`] is that excess
//! in standard deviations against the model of honest play. [`rank`] compares each side with
//! the field, board by board (duplicate: the others played the same cards in the same seats),
//! and orders a session's sides by that. A figure for the referee, never a verdict: the threshold
//! ([`THRESHOLD`]) and its false-alarm rate come from the calibration ([`simulate`]), published
//! in docs/fairplay.md.

pub mod players;
pub mod simulate;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The field-relative z at or above which a side is flagged for the referee's look: chosen by
/// the calibration (docs/fairplay.md) for at most 1 % false alarms per honest pair.
pub const THRESHOLD: f64 = 3.0;
/// Deals that screen a decision (is the play made best in some and not in others?).
pub const SCREEN: u32 = 4;
/// Fresh deals that then estimate its chance of being best.
pub const WORLDS: u32 = 8;

/// What one decision says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// The seat that decided (the engine's index).
    pub seat: usize,
    /// The play made was among the best with the true hands.
    pub hit: bool,
    /// The share of the deals its view allows in which it is among the best: the chance of a
    /// hit for a seat that sees only its own cards.
    pub expected: f64,
    /// An unbiased estimate of the variance of `hit − expected` under honest play.
    pub variance: f64,
    /// Points (the seat's side) the play made fell short of the best with the true hands.
    pub loss: f64,
    /// Its mean shortfall over the deals its view allows.
    pub expected_loss: f64,
    /// The share of the deals its view allows *with its partner's hand as it is* in which the
    /// play made is among the best. Over a seat's honest decisions this averages `expected`
    /// (the partner's hand is one more unknown it averages over); a seat that sees that hand
    /// chooses what is best with it, and this runs above `expected`.
    #[serde(default)]
    pub with_partner: f64,
}

impl Evidence {
    /// From the true deal (`hit`, `loss`) and `rows` sampled deals of which `best` have the
    /// play made among the best and `expected_loss` its mean shortfall there.
    pub fn new(
        seat: usize,
        hit: bool,
        best: u32,
        rows: u32,
        loss: f64,
        expected_loss: f64,
    ) -> Evidence {
        let n = rows.max(1) as f64;
        let p = best as f64 / n;
        // k(n − k) / (n(n − 1)) estimates p(1 − p) without bias; the estimate of p itself adds
        // p(1 − p)/n to the variance of the difference.
        let pq = if rows > 1 {
            (best as f64) * (n - best as f64) / (n * (n - 1.0))
        } else {
            0.0
        };
        Evidence {
            seat,
            hit,
            expected: p,
            variance: pq * (1.0 + 1.0 / n),
            loss,
            expected_loss,
            with_partner: p,
        }
    }

    /// A decision's evidence from the play made's fortunes in the true deal (`truth`), in fresh
    /// deals its view allows (`own`) and in such deals with the partner's (or teammates')
    /// hands as they are (`seeing`); `None` when too few deals could be valued.
    pub(crate) fn of(seat: usize, truth: &Sight, own: &Sight, seeing: &Sight) -> Option<Evidence> {
        if own.rows < 2 || truth.rows == 0 || seeing.rows == 0 {
            return None;
        }
        let mut e = Evidence::new(
            seat,
            truth.best == 1,
            own.best,
            own.rows,
            truth.loss,
            own.loss / own.rows as f64,
        );
        e.with_partner = seeing.best as f64 / seeing.rows as f64;
        Some(e)
    }

    /// `hit − expected`: positive when the play fits the hidden cards better than its view
    /// explains.
    pub fn excess(&self) -> f64 {
        f64::from(u8::from(self.hit)) - self.expected
    }
}

/// How the play made fares in some deals (both games' analysers): a row a deal, each choice's
/// value there for the seat's side (`None`: not tried).
pub(crate) struct Sight {
    /// Deals where it could be valued.
    pub rows: u32,
    /// Deals where it is among the best.
    pub best: u32,
    /// Points it falls short of the best, summed over the deals.
    pub loss: f64,
}

impl Sight {
    pub fn of(rows: &[Vec<Option<f64>>], made: usize) -> Sight {
        let mut s = Sight {
            rows: 0,
            best: 0,
            loss: 0.0,
        };
        for row in rows {
            let Some(mine) = row[made] else {
                continue;
            };
            let top = row.iter().flatten().copied().fold(mine, f64::max);
            s.rows += 1;
            s.best += u32::from(mine >= top);
            s.loss += top - mine;
        }
        s
    }

    /// The play made is the best in some deals and not in others: the decision can tell
    /// one kind of sight from another (the screen's test).
    pub fn tells(&self) -> bool {
        self.best != 0 && self.best != self.rows
    }
}

/// A side's evidence over some decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub decisions: u32,
    pub hits: f64,
    pub expected: f64,
    pub variance: f64,
    /// Points saved against what the view explains: Σ (expected loss − loss).
    pub saved: f64,
    /// How much better the plays fit the partner's true hand than the own view explains:
    /// Σ (with_partner − expected).
    pub partner: f64,
}

impl Tally {
    pub fn add(&mut self, e: &Evidence) {
        self.decisions += 1;
        self.hits += f64::from(u8::from(e.hit));
        self.expected += e.expected;
        self.variance += e.variance;
        self.saved += e.expected_loss - e.loss;
        self.partner += e.with_partner - e.expected;
    }

    pub fn merge(&mut self, other: &Tally) {
        self.decisions += other.decisions;
        self.hits += other.hits;
        self.expected += other.expected;
        self.variance += other.variance;
        self.saved += other.saved;
        self.partner += other.partner;
    }

    /// Hits beyond the expected.
    pub fn excess(&self) -> f64 {
        self.hits - self.expected
    }

    /// The excess in standard deviations against honest play (`None`: no variance yet).
    pub fn z(&self) -> Option<f64> {
        (self.variance > 0.0).then(|| self.excess() / self.variance.sqrt())
    }
}

/// A side (a pair; a team in 够级) of a session: the direction or team it plays as (sides of
/// one group play the same boards in the same seats: their field), and its tally on each
/// board.
#[derive(Clone, Debug, PartialEq)]
pub struct Side<K> {
    pub key: K,
    pub group: u8,
    pub boards: BTreeMap<u32, Tally>,
}

impl<K> Side<K> {
    /// Its tally over every board.
    pub fn total(&self) -> Tally {
        let mut t = Tally::default();
        for b in self.boards.values() {
            t.merge(b);
        }
        t
    }
}

/// A side of a session, ranked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing<K> {
    pub side: K,
    pub tally: Tally,
    /// Against the model of honest play (its decisions' own chances).
    pub z: Option<f64>,
    /// Against the field: board by board, its excess less the mean excess of the other sides
    /// of its group on that board, in standard deviations of the session's own spread. The
    /// figure flagged.
    pub z_field: Option<f64>,
    /// The same for the points saved (expected shortfall less the true one).
    pub z_points: Option<f64>,
    /// The same for the fit to the partner's hand ([`Tally::partner`]).
    pub z_partner: Option<f64>,
    /// Boards compared with the field (played by another side of its group too).
    pub field_boards: u32,
    pub flagged: bool,
}

/// The sides of a session, most suspicious first.
///
/// The field comparison is duplicate's: on each board, a side's excess (hits beyond the
/// expected) less the mean of the other sides that played the board in the same seats. What
/// the model of honest play misses on a board — an honest player also reads what the others'
/// plays tell, and a board may suit one way of playing — is the field's as well and cancels.
/// The spread is the session's own: the variance of the excesses on a board around their
/// board's mean, pooled over every board and group (an honest majority; one cheat only
/// widens it, which makes the figure more cautious), not the model's, which honest players
/// need not follow.
pub fn rank<K: Clone>(sides: &[Side<K>], threshold: f64) -> Vec<Standing<K>> {
    let hits = against_field(sides, Tally::excess);
    let points = against_field(sides, |t| t.saved);
    let partner = against_field(sides, |t| t.partner);
    let mut out: Vec<Standing<K>> = sides
        .iter()
        .zip(hits.into_iter().zip(points).zip(partner))
        .map(
            |(side, (((z_field, compared), (z_points, _)), (z_partner, _)))| {
                let tally = side.total();
                Standing {
                    side: side.key.clone(),
                    z: tally.z(),
                    tally,
                    z_field,
                    z_points,
                    z_partner,
                    field_boards: compared,
                    flagged: z_partner.is_some_and(|z| z >= threshold),
                }
            },
        )
        .collect();
    out.sort_by(|a, b| {
        let key = |s: &Standing<K>| s.z_partner.unwrap_or(f64::NEG_INFINITY);
        key(b).total_cmp(&key(a))
    });
    out
}

/// Each side's field z of one measure of its boards (and the boards compared).
fn against_field<K>(sides: &[Side<K>], measure: impl Fn(&Tally) -> f64) -> Vec<(Option<f64>, u32)> {
    // Per (group, board): each side's measure.
    let mut boards: BTreeMap<(u8, u32), Vec<(usize, f64)>> = BTreeMap::new();
    for (i, side) in sides.iter().enumerate() {
        for (&b, t) in &side.boards {
            boards
                .entry((side.group, b))
                .or_default()
                .push((i, measure(t)));
        }
    }
    let (mut squares, mut freedom) = (0.0, 0usize);
    for xs in boards.values().filter(|xs| xs.len() > 1) {
        let mean = xs.iter().map(|x| x.1).sum::<f64>() / xs.len() as f64;
        squares += xs.iter().map(|x| (x.1 - mean).powi(2)).sum::<f64>();
        freedom += xs.len() - 1;
    }
    let spread = (freedom > 0).then(|| squares / freedom as f64);
    sides
        .iter()
        .enumerate()
        .map(|(i, side)| {
            let (mut diff, mut var, mut compared) = (0.0, 0.0, 0u32);
            for (&b, t) in &side.boards {
                let others: Vec<f64> = boards[&(side.group, b)]
                    .iter()
                    .filter(|x| x.0 != i)
                    .map(|x| x.1)
                    .collect();
                if others.is_empty() {
                    continue;
                }
                let m = others.len() as f64;
                diff += measure(t) - others.iter().sum::<f64>() / m;
                var += 1.0 + 1.0 / m;
                compared += 1;
            }
            // No spread (every side the same on every board, to rounding): no figure.
            let z = spread
                .filter(|s| *s > 1e-9 && compared > 0)
                .map(|s| diff / (s * var).sqrt());
            (z, compared)
        })
        .collect()
}

#[cfg(test)]
mod tests;
