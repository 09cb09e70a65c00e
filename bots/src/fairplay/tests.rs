use super::*;
use crate::rng::Rng;

fn evidence(hit: bool, best: u32, rows: u32) -> Evidence {
    Evidence::new(0, hit, best, rows, 0.0, 0.0)
}

#[test]
fn the_variance_estimate_is_unbiased_for_every_chance() {
    // Over k ~ Binomial(n, p), E[variance(k)] must be p(1 − p)(1 + 1/n): the variance of
    // hit − k/n for an honest seat. Checked exactly, over the binomial's whole distribution.
    let n = 8u32;
    for p in [0.05f64, 0.3, 0.5, 0.8, 0.97] {
        let mut mean = 0.0;
        for k in 0..=n {
            let choose = (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
            let weight = choose * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32);
            mean += weight * evidence(false, k, n).variance;
        }
        let want = p * (1.0 - p) * (1.0 + 1.0 / f64::from(n));
        assert!((mean - want).abs() < 1e-12, "p {p}: {mean} vs {want}");
    }
}

#[test]
fn tallies_merge_as_they_add() {
    let mut rng = Rng::new(3);
    let all: Vec<Evidence> = (0..40)
        .map(|_| {
            let rows = 2 + rng.below(10) as u32;
            let mut e = evidence(rng.below(2) == 1, rng.below(rows as usize + 1) as u32, rows);
            e.with_partner = rng.below(100) as f64 / 100.0;
            e.loss = rng.below(30) as f64;
            e
        })
        .collect();
    let mut one = Tally::default();
    all.iter().for_each(|e| one.add(e));
    let (mut a, mut b) = (Tally::default(), Tally::default());
    all[..17].iter().for_each(|e| a.add(e));
    all[17..].iter().for_each(|e| b.add(e));
    a.merge(&b);
    assert_eq!(a.decisions, one.decisions);
    for (x, y) in [
        (a.hits, one.hits),
        (a.expected, one.expected),
        (a.variance, one.variance),
        (a.saved, one.saved),
        (a.partner, one.partner),
    ] {
        assert!((x - y).abs() < 1e-9);
    }
    let sum: f64 = all.iter().map(Evidence::excess).sum();
    assert!((one.excess() - sum).abs() < 1e-9);
}

/// `n` sides of one group over `boards` boards, each board's partner fit drawn from noise
/// (plus a board's own offset, the same for every side, and `gain` for side 0).
fn session(n: usize, boards: u32, gain: f64, offset: f64, seed: u64) -> Vec<Side<usize>> {
    let mut rng = Rng::new(seed);
    let board_offset: Vec<f64> = (0..boards).map(|b| offset * f64::from(b % 5)).collect();
    (0..n)
        .map(|i| Side {
            key: i,
            group: 0,
            boards: (0..boards)
                .map(|b| {
                    let noise = (rng.below(2001) as f64 - 1000.0) / 1000.0;
                    let t = Tally {
                        decisions: 20,
                        partner: noise + board_offset[b as usize] + if i == 0 { gain } else { 0.0 },
                        ..Tally::default()
                    };
                    (b, t)
                })
                .collect(),
        })
        .collect()
}

#[test]
fn the_side_that_gains_on_every_board_is_ranked_first_and_flagged_alone() {
    for seed in 1..=20 {
        let ranked = rank(&session(6, 24, 1.2, 0.0, seed), THRESHOLD);
        assert_eq!(ranked[0].side, 0, "seed {seed}: {ranked:?}");
        assert!(ranked[0].flagged, "seed {seed}: {:?}", ranked[0]);
        assert_eq!(ranked[0].field_boards, 24);
        assert!(
            ranked[1..].iter().all(|s| !s.flagged),
            "seed {seed}: {ranked:?}"
        );
    }
}

#[test]
fn what_a_board_gives_everyone_cancels_against_the_field() {
    for seed in 1..=10 {
        let plain = rank(&session(4, 16, 0.5, 0.0, seed), THRESHOLD);
        let offset = rank(&session(4, 16, 0.5, 3.0, seed), THRESHOLD);
        for (a, b) in plain.iter().zip(&offset) {
            assert_eq!(a.side, b.side);
            let (za, zb) = (a.z_partner.unwrap(), b.z_partner.unwrap());
            assert!((za - zb).abs() < 1e-9, "seed {seed}: {za} vs {zb}");
        }
    }
}

#[test]
fn a_side_with_no_field_or_no_spread_gets_no_figure() {
    // Alone in its group: nothing to compare with.
    let mut sides = session(3, 8, 0.0, 0.0, 5);
    sides[2].group = 1;
    let ranked = rank(&sides, THRESHOLD);
    let alone = ranked.iter().find(|s| s.side == 2).unwrap();
    assert_eq!((alone.z_partner, alone.field_boards), (None, 0));
    // Twins (every side the same on every board): no spread, no figure, nobody flagged.
    let mut twins = session(3, 8, 0.0, 0.0, 5);
    let first = twins[0].boards.clone();
    for s in &mut twins {
        s.boards = first.clone();
    }
    for s in rank(&twins, THRESHOLD) {
        assert_eq!(s.z_partner, None);
        assert!(!s.flagged);
    }
}
