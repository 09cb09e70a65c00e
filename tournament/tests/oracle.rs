//! Brute-force oracles on random sessions: every result compared with every other by a plain
//! loop (2 per result beaten, 1 per tie, for each direction on its own), Neuberg by its formula,
//! places by counting who is strictly ahead. The fast code must agree on every one.

use std::cmp::Ordering;
use std::collections::HashMap;

use serde_json::{json, Value};
use tournament::{score, ScoreInput};

/// xorshift64*: small, seeded, enough to make sessions.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

/// One random result: (board, ns pair, ew pair, declarer seat, defenders).
type Played = (u32, usize, usize, &'static str, i32);

/// A random session: `pairs` a side, every board at a random subset of the tables (all of them
/// when `full`), NS i against EW π(i), few distinct points so that ties are common.
fn session(rng: &mut Rng, full: bool) -> (usize, Vec<Played>) {
    let pairs = 2 + rng.below(7) as usize;
    let boards = 1 + rng.below(6) as u32;
    let mut out = Vec::new();
    for b in 1..=boards {
        let declarer = ["N", "E", "S", "W"][rng.below(4) as usize];
        let mut perm: Vec<usize> = (0..pairs).collect();
        for i in (1..pairs).rev() {
            perm.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for (ns, &ew) in perm.iter().enumerate() {
            if full || rng.below(4) != 0 {
                let defenders = 5 * (rng.below(8) as i32 - 1);
                out.push((b, ns, ew, declarer, defenders));
            }
        }
    }
    (pairs, out)
}

fn input(pairs: usize, results: &[Played]) -> ScoreInput {
    let names: Vec<String> = (1..=pairs).map(|p| format!("p{p}")).collect();
    let results: Vec<Value> = results
        .iter()
        .map(|&(board, ns, ew, declarer, defenders)| {
            json!({"board": board, "ns": names[ns], "ew": names[ew],
                   "declarer": declarer, "defenders": defenders})
        })
        .collect();
    serde_json::from_value(json!({"pairs": {"NS": names, "EW": names}, "results": results}))
        .unwrap()
}

/// The oracle's match points of every result: `(board, ns, ew) → (ns_mp, ew_mp)`.
fn oracle(results: &[Played]) -> HashMap<(u32, usize, usize), (f64, f64)> {
    let mut times: HashMap<u32, usize> = HashMap::new();
    for r in results {
        *times.entry(r.0).or_default() += 1;
    }
    let expected = times.values().copied().max().unwrap_or(0) as f64;
    let mut out = HashMap::new();
    for a in results {
        let ns_declares = a.3 == "N" || a.3 == "S";
        let (mut ns, mut ew) = (0.0, 0.0);
        let mut n = 0.0;
        for b in results {
            if b.0 != a.0 {
                continue;
            }
            n += 1.0;
            if std::ptr::eq(a, b) {
                continue;
            }
            // The declaring side wants fewer defenders' points, the defending side more.
            let (declarer_better, defender_better) = (a.4 < b.4, a.4 > b.4);
            if a.4 == b.4 {
                ns += 1.0;
                ew += 1.0;
            } else if ns_declares {
                ns += if declarer_better { 2.0 } else { 0.0 };
                ew += if defender_better { 2.0 } else { 0.0 };
            } else {
                ns += if defender_better { 2.0 } else { 0.0 };
                ew += if declarer_better { 2.0 } else { 0.0 };
            }
        }
        let scale = |mp: f64| (mp + 1.0) * expected / n - 1.0;
        out.insert((a.0, a.1, a.2), (scale(ns), scale(ew)));
    }
    out
}

#[test]
fn match_points_agree_with_the_brute_force_oracle() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..400 {
        let (pairs, results) = session(&mut rng, case % 2 == 0);
        let want = oracle(&results);
        let out = serde_json::to_value(score(input(pairs, &results)).unwrap()).unwrap();
        let mut seen = 0;
        for b in out["boards"].as_array().unwrap() {
            let board = b["board"].as_u64().unwrap() as u32;
            for r in b["results"].as_array().unwrap() {
                let pair = |k: &str| r[k].as_str().unwrap()[1..].parse::<usize>().unwrap() - 1;
                let (ns, ew) = want[&(board, pair("ns"), pair("ew"))];
                let got = (r["ns_mp"].as_f64().unwrap(), r["ew_mp"].as_f64().unwrap());
                assert!(
                    (got.0 - ns).abs() < 0.006 && (got.1 - ew).abs() < 0.006,
                    "case {case} board {board}: got {got:?}, oracle ({ns}, {ew})"
                );
                seen += 1;
            }
        }
        assert_eq!(seen, results.len(), "case {case}: every result scored once");
    }
}

#[test]
fn places_agree_with_counting_who_is_strictly_ahead() {
    // Full sessions only: all match points whole, so the oracle's comparison is exact.
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for case in 0..300 {
        let (pairs, results) = session(&mut rng, true);
        let want = oracle(&results);
        let out = serde_json::to_value(score(input(pairs, &results)).unwrap()).unwrap();
        for (dir, side) in [("NS", 0), ("EW", 1)] {
            // Per pair: total and boards, best first.
            let mut boards: Vec<Vec<i64>> = vec![Vec::new(); pairs];
            for (&(_, ns, ew), &(a, b)) in &want {
                let (p, mp) = if side == 0 { (ns, a) } else { (ew, b) };
                boards[p].push(mp.round() as i64);
            }
            let key = |p: usize| {
                let mut v = boards[p].clone();
                v.sort_unstable_by(|x, y| y.cmp(x));
                v.resize(8, 0);
                (v.iter().sum::<i64>(), v)
            };
            let ahead = |a: usize, b: usize| key(a).cmp(&key(b)) == Ordering::Greater;
            for s in out["ranking"][dir].as_array().unwrap() {
                let p = s["pair"].as_str().unwrap()[1..].parse::<usize>().unwrap() - 1;
                let place = 1 + (0..pairs).filter(|&q| ahead(q, p)).count() as u64;
                assert_eq!(
                    s["place"].as_u64(),
                    Some(place),
                    "case {case} {dir} pair {p}"
                );
                assert_eq!(
                    s["mp"].as_f64().unwrap() as i64,
                    key(p).0,
                    "case {case} {dir}"
                );
            }
        }
    }
}
