//! Playing a match: its deals spread over threads, each played at both tables by the game's
//! file ([`super::shengji`], [`super::gouji`]), and the person's wait in 够级. Apart from mod.rs,
//! whose match and results the games' files build on, so that mod.rs uses neither of them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use super::{gouji, mean_ci, shengji, Config, DealResult, Game, Report, Times};
use crate::rng::Rng;

/// Plays the match on `config.threads` threads.
pub fn run(config: &Config) -> Report {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<DealResult>>> = Mutex::new(vec![None; config.deals]);
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= config.deals {
                    break;
                }
                let seed = Rng::mix(&[config.seed, k as u64]);
                let r = match config.game {
                    Game::Shengji => shengji::deal(config, k, seed),
                    Game::Gouji => gouji::deal(config, k, seed),
                };
                results.lock().expect("results")[k] = Some(r);
            });
        }
    });
    let results: Vec<DealResult> = results
        .into_inner()
        .expect("results")
        .into_iter()
        .map(|r| r.expect("every deal played"))
        .collect();
    let diffs: Vec<f64> = results.iter().map(|r| r.diff).collect();
    let (mean, half) = mean_ci(&diffs);
    let playouts: u64 = results.iter().map(|r| r.playouts).sum();
    let expert_time: Duration = results.iter().map(|r| r.expert_time).sum();
    Report {
        config: config.clone(),
        mean,
        ci95: (mean - half, mean + half),
        times_a: Times::of(results.iter().flat_map(|r| r.times_a.clone()).collect()),
        times_b: Times::of(results.iter().flat_map(|r| r.times_b.clone()).collect()),
        cpu_a: Times::of(results.iter().flat_map(|r| r.cpu_a.clone()).collect()),
        cpu_b: Times::of(results.iter().flat_map(|r| r.cpu_b.clone()).collect()),
        playouts_per_s: if expert_time.is_zero() {
            0.0
        } else {
            playouts as f64 / expert_time.as_secs_f64()
        },
        playouts,
        rejected: results.iter().map(|r| r.rejected).sum(),
        actions: results.iter().map(|r| r.actions).sum(),
        unfinished: results.iter().map(|r| r.unfinished).sum(),
        diffs,
    }
}

/// `paiju arena --person N [--person-plays club]`: five 普通 bots and one person (eager random,
/// or playing as 普通), N 够级 games; how long the person waits once out, as text.
pub fn person_report(games: usize, eager: bool) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let w = gouji::person_wait(games, 1, eager);
    let mut after = w.after.clone();
    after.sort_unstable();
    let at = |q: f64| after[((after.len() as f64 - 1.0) * q).round() as usize];
    let mean = after.iter().sum::<u64>() as f64 / after.len().max(1) as f64;
    let mut places = [0usize; 6];
    for &p in &w.places {
        places[p] += 1;
    }
    let actions = w.actions.iter().sum::<u64>() as f64 / w.games as f64;
    let _ = writeln!(
        out,
        "gouji, 5 club bots + 1 {} person, {} games (mean {actions:.0} actions a game)",
        if eager {
            "eager random"
        } else {
            "club-playing"
        },
        w.games
    );
    let _ = writeln!(
        out,
        "person out before the end: {} games; places 头科..大落: {:?}",
        w.person_out, places
    );
    if !after.is_empty() {
        let _ = writeln!(
            out,
            "computer actions after the person is out: mean {mean:.1}, p50 {}, p90 {}, max {}",
            at(0.5),
            at(0.9),
            after[after.len() - 1]
        );
    }
    for (place, name) in ["头科", "二科", "三科", "四科", "二落"].iter().enumerate() {
        let xs: Vec<u64> = (0..w.places.len())
            .filter(|&i| w.places[i] == place)
            .map(|i| w.after[i])
            .collect();
        if !xs.is_empty() {
            let mean = xs.iter().sum::<u64>() as f64 / xs.len() as f64;
            let _ = writeln!(
                out,
                "  out {name}: {} games, computer actions after: mean {mean:.1}, max {}",
                xs.len(),
                xs.iter().max().unwrap()
            );
        }
    }
    out
}
