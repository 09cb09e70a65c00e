//! 推演 (the Expert's search, shared by both games): determinized Monte-Carlo with successive
//! halving. Each round samples deals consistent with what the seat knows, plays every surviving
//! candidate in each of them to the end with the 普通 policy (the same deals for every
//! candidate, so they are compared on equal cards), and keeps the better half.

use std::cell::Cell;
use std::time::Instant;

use crate::level::Budget;
use crate::rng::Rng;

thread_local! {
    /// What this thread does at a search's pause points (between its sampled deals): nothing,
    /// unless its owner asked for something ([`at_pause_points`]).
    static PAUSE: Cell<Option<fn()>> = const { Cell::new(None) };
}

/// Runs `pause` on this thread at every pause point of the searches it runs: between two
/// sampled deals, every few dozen playouts (a server's search threads give their core back
/// there to whoever is waiting for it).
pub fn at_pause_points(pause: fn()) {
    PAUSE.with(|p| p.set(Some(pause)));
}

/// What a search found: the best candidate's index, how many playouts it took and how many
/// sampled deals had to be dropped (inconsistent with what the seat saw).
pub struct Found {
    pub best: usize,
    pub playouts: u32,
    pub rejected: u32,
}

/// Searches over `candidates` (at least one). `world` samples one deal (a state from which
/// every candidate can be tried), or `None` when a sample fails; `play` tries candidate `i` in
/// that deal and returns its value to the seat (higher is better), or `None` if it cannot.
pub fn search<W>(
    candidates: usize,
    budget: Budget,
    seed: u64,
    mut world: impl FnMut(&mut Rng) -> Option<W>,
    mut play: impl FnMut(&W, usize) -> Option<f64>,
) -> Found {
    let mut rng = Rng::new(seed);
    let mut sum = vec![0f64; candidates];
    let mut count = vec![0u32; candidates];
    let mut alive: Vec<usize> = (0..candidates).collect();
    let mut playouts = 0u32;
    if candidates <= 1 {
        return Found {
            best: 0,
            playouts,
            rejected: 0,
        };
    }
    let rounds = (usize::BITS - (candidates - 1).leading_zeros()).max(1) as usize;
    let start = Instant::now();
    let mut failures = 0u32;
    for round in 0..rounds {
        let round_end = match budget {
            Budget::Time(d) => Some(start + d.mul_f64((round + 1) as f64 / rounds as f64)),
            Budget::Playouts(_) => None,
        };
        let worlds = match budget {
            Budget::Playouts(n) => ((n as usize / rounds) / alive.len()).max(1),
            Budget::Time(_) => usize::MAX,
        };
        let mut done = 0;
        while done < worlds {
            if let Some(end) = round_end {
                if done > 0 && Instant::now() >= end {
                    break;
                }
            }
            if let Some(pause) = PAUSE.with(Cell::get) {
                pause();
            }
            let Some(w) = world(&mut rng) else {
                failures += 1;
                if failures > 50 + 4 * playouts {
                    // The seat's knowledge cannot be sampled: keep what we have.
                    break;
                }
                continue;
            };
            for &i in &alive {
                if let Some(v) = play(&w, i) {
                    sum[i] += v;
                    count[i] += 1;
                    playouts += 1;
                }
            }
            done += 1;
        }
        let mean = |i: usize| {
            if count[i] == 0 {
                f64::NEG_INFINITY
            } else {
                sum[i] / count[i] as f64
            }
        };
        // Stable: among equals the earlier candidate (the 普通 order) stays ahead.
        alive.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then(a.cmp(&b)));
        if round + 1 < rounds {
            alive.truncate(alive.len().div_ceil(2).max(1));
        }
        if alive.len() == 1 {
            break;
        }
    }
    Found {
        best: alive[0],
        playouts,
        rejected: failures,
    }
}
