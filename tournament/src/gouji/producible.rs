//! 可能的成绩 (the results the rules can produce): every game record a finished game can have
//! under a scoring — the places of the six players (a permutation), who was 点 (点贡, once per
//! team or per player), who burned and failed (烧牌失误: 大落 whatever the place), 串三户 — and on
//! top of it the referee's deductions (each one of the ruleset's amounts, 扣该队2分、4分), or a
//! forfeit (0:12 告负) with its deductions. A director's ruling (改判) that no game can produce
//! — `{"a":12,"b":12,"first":"b"}` — is refused before it reaches the standings.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock};

use rules::gouji::score::{Place, Tally};
use rules::gouji::{Scoring, Seat, Team};

use super::game::{GameRecord, Side};

/// Most points a team may have had deducted in one game by the referee.
const MAX_DEDUCTED: i32 = 100;

/// The sets made so far, by scoring.
type Made = Vec<(Scoring, Arc<Producible>)>;

/// The records the rules can produce under one scoring.
pub struct Producible {
    /// Records before deductions: (A's points, B's points, 头科's side, 大落 of A, of B).
    played: BTreeSet<(i32, i32, Option<Side>, u32, u32)>,
    /// The sums of deductions a team can have had (any number of the ruleset's amounts).
    deductions: BTreeSet<i32>,
    /// The forfeit's points (the offending team loses them, the other gets them).
    forfeit: i32,
}

/// The six places as a permutation's `k`-th arrangement (0 ≤ k < 720).
fn places(mut k: usize) -> [Place; 6] {
    let mut left: Vec<Place> = Place::ALL.to_vec();
    let mut out = [Place::First; 6];
    for (i, slot) in out.iter_mut().enumerate() {
        let n = 6 - i;
        *slot = left.remove(k % n);
        k /= n;
    }
    out
}

impl Producible {
    /// The records of `scoring`, made once per scoring and kept: a ruling is checked, and a
    /// log of rulings replayed, without enumerating the games again (it takes a second).
    pub fn of(scoring: &Scoring) -> Arc<Producible> {
        static MADE: OnceLock<Mutex<Made>> = OnceLock::new();
        let mut made = MADE
            .get_or_init(Default::default)
            .lock()
            .expect("not poisoned");
        if let Some((_, p)) = made.iter().find(|(s, _)| s == scoring) {
            return p.clone();
        }
        let p = Arc::new(Producible::new(scoring));
        made.push((scoring.clone(), p.clone()));
        p
    }

    pub fn new(scoring: &Scoring) -> Producible {
        let mut played = BTreeSet::new();
        let team_of = |i: usize| Seat::ALL[i].team();
        for k in 0..720 {
            let order = places(k);
            for failed in 0u32..64 {
                // 点贡 depends only on how many of each team are 点: the first n of its seats.
                for (marked_a, marked_b) in (0..4).flat_map(|a| (0..4).map(move |b| (a, b))) {
                    let mut marked = [false; 6];
                    let (mut na, mut nb) = (0, 0);
                    for (i, m) in marked.iter_mut().enumerate() {
                        let n = if team_of(i) == Team::A {
                            &mut na
                        } else {
                            &mut nb
                        };
                        let want = if team_of(i) == Team::A {
                            marked_a
                        } else {
                            marked_b
                        };
                        if *n < want {
                            *m = true;
                            *n += 1;
                        }
                    }
                    let tally = Tally {
                        places: order.map(Some),
                        marked,
                        failed: std::array::from_fn(|i| failed & (1 << i) != 0),
                        deducted: [0, 0],
                    };
                    let r = GameRecord::from_tally(&tally, scoring);
                    played.insert((r.a, r.b, r.first, r.lasts(Side::A), r.lasts(Side::B)));
                }
            }
        }
        let mut deductions = BTreeSet::from([0]);
        let amounts: Vec<i32> = scoring
            .deduction_points
            .iter()
            .map(|&p| p as i32)
            .filter(|&p| p > 0)
            .collect();
        for total in 1..=MAX_DEDUCTED {
            if amounts
                .iter()
                .any(|&p| total >= p && deductions.contains(&(total - p)))
            {
                deductions.insert(total);
            }
        }
        Producible {
            played,
            deductions,
            forfeit: scoring.forfeit,
        }
    }

    /// Whether `r` is a result some game can have: a played game's less the referee's
    /// deductions, or a forfeit's (no 头科) less deductions.
    pub fn contains(&self, r: &GameRecord) -> bool {
        let deducted = |have: i32, base: i32| self.deductions.contains(&(base - have));
        let (la, lb) = (r.lasts(Side::A), r.lasts(Side::B));
        let played = self
            .played
            .iter()
            .filter(|(_, _, first, a, b)| *first == r.first && *a == la && *b == lb)
            .any(|&(a, b, ..)| deducted(r.a, a) && deducted(r.b, b));
        let f = self.forfeit;
        let forfeit = r.first.is_none()
            && la + lb <= 6
            && [(-f, f), (f, -f)]
                .iter()
                .any(|&(a, b)| deducted(r.a, a) && deducted(r.b, b));
        played || forfeit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scoring() -> Scoring {
        rules::gouji::Ruleset::by_name("zaozhuang-2017")
            .expect("the competition's ruleset")
            .scoring
    }

    #[test]
    fn every_game_the_engine_scores_is_producible_and_twelve_all_is_not() {
        let scoring = scoring();
        let p = Producible::new(&scoring);
        // A seeded walk over tallies the enumeration also covers, with deductions on top.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for _ in 0..2_000 {
            let order = places(next(720) as usize);
            let tally = Tally {
                places: order.map(Some),
                marked: std::array::from_fn(|_| next(4) == 0),
                failed: std::array::from_fn(|_| next(8) == 0),
                deducted: [
                    scoring.deduction_points[0] * next(3) as u32,
                    scoring.deduction_points[0] * next(3) as u32,
                ],
            };
            let r = GameRecord::from_tally(&tally, &scoring);
            assert!(p.contains(&r), "{tally:?} scored {r:?}");
        }
        let impossible = GameRecord {
            a: 12,
            b: 12,
            first: Some(Side::B),
            last: Vec::new(),
        };
        assert!(!p.contains(&impossible), "both teams cannot win");
        let forfeit = GameRecord {
            a: -scoring.forfeit,
            b: scoring.forfeit,
            first: None,
            last: Vec::new(),
        };
        assert!(p.contains(&forfeit));
        // 头科 for B with every place point going A's way is no game either.
        let upside_down = GameRecord {
            a: scoring.sweep,
            b: -scoring.sweep,
            first: Some(Side::B),
            last: vec![Side::B],
        };
        assert!(!p.contains(&upside_down));
    }
}
