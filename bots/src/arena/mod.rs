//! 对抗赛 (the arena): level A against level B in duplicate — every deal twice with the sides
//! swapped, so the cards cancel out and what is left is play. Deals are spread over threads;
//! each deal's result depends only on the seed and its number, so a run is reproducible for a
//! given seed and level pair whenever the Expert's budget is a playout count.
//!
//! - 80分 ([`shengji`]): per deal, the defenders' points at the table where A defends minus
//!   those where B defends, with the same declarer seat and cards (positive: A is better).
//! - 够级 ([`gouji`]): per deal, A's team points over its two tables (once as team A, once as
//!   team B) minus B's (positive: A is better).
//!
//! The engines are driven directly (no server); each seat's player sees only its own views.

pub mod gouji;
// The match's driver: it uses both games' files, which use this file's match and results.
mod run;
pub mod shengji;

use std::time::{Duration, Instant};

use rules::Engine;

use crate::level::{Budget, Level};
use crate::player::{Memory, Player};
use crate::rng::Rng;

pub use run::{person_report, run};

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    Shengji,
    Gouji,
}

impl Game {
    pub fn parse(s: &str) -> Option<Game> {
        match s {
            "shengji" | "80分" | "80" => Some(Game::Shengji),
            "gouji" | "够级" => Some(Game::Gouji),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Game::Shengji => "shengji",
            Game::Gouji => "gouji",
        }
    }
}

/// A match.
#[derive(Clone, Debug)]
pub struct Config {
    pub game: Game,
    pub a: Level,
    pub b: Level,
    /// Deals (each played twice).
    pub deals: usize,
    pub seed: u64,
    /// The Expert's budget per decision.
    pub budget: Budget,
    /// Worker threads (all cores by default).
    pub threads: usize,
    /// 80分: A's seats see every hand (the all-seeing player, whatever `a` says).
    pub a_sees_all: bool,
}

impl Config {
    pub fn new(game: Game, a: Level, b: Level, deals: usize, seed: u64) -> Config {
        Config {
            game,
            a,
            b,
            deals,
            seed,
            budget: Budget::Playouts(200),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            a_sees_all: false,
        }
    }
}

/// One deal played at both tables.
#[derive(Clone, Debug, Default)]
pub struct DealResult {
    /// A's score minus B's (see the module doc).
    pub diff: f64,
    /// Decision times of A's and B's seats: wall time, and the thread's own CPU time (what
    /// the decision costs on an idle core, whatever else the machine is running).
    pub times_a: Vec<Duration>,
    pub times_b: Vec<Duration>,
    pub cpu_a: Vec<Duration>,
    pub cpu_b: Vec<Duration>,
    /// Expert playouts and the time they took (both sides).
    pub playouts: u64,
    pub expert_time: Duration,
    /// Sampled deals the Expert dropped as inconsistent with what it saw.
    pub rejected: u64,
    /// Actions at both tables.
    pub actions: u64,
    /// Games that hit the action limit (none expected).
    pub unfinished: u32,
}

/// What one table's players cost: each seat's decision times (wall, and the deciding thread's
/// CPU time), the Expert's playouts, dropped samples and search time, and the actions taken.
#[derive(Clone, Debug, Default)]
pub struct Costs {
    pub times: Vec<Vec<Duration>>,
    pub cpu: Vec<Vec<Duration>>,
    pub playouts: u64,
    pub rejected: u64,
    pub expert_time: Duration,
    pub actions: u64,
}

impl Costs {
    pub fn new(seats: usize) -> Costs {
        Costs {
            times: vec![Vec::new(); seats],
            cpu: vec![Vec::new(); seats],
            ..Costs::default()
        }
    }

    /// Runs seat `s`'s decision `f`, counting its wall and thread CPU time; the wall time.
    pub fn timed<T>(&mut self, s: usize, f: impl FnOnce() -> T) -> (T, Duration) {
        let cpu = thread_cpu();
        let start = Instant::now();
        let out = f();
        let took = start.elapsed();
        if let (Some(a), Some(b)) = (cpu, thread_cpu()) {
            self.cpu[s].push(b.saturating_sub(a));
        }
        self.times[s].push(took);
        (out, took)
    }

    /// Asks seat `s`'s player to act on its view, and counts what that cost.
    pub fn decide<M: Memory>(
        &mut self,
        player: &mut Player<M>,
        s: usize,
        view: &<M::Game as Engine>::View,
        seed: u64,
    ) -> Option<<M::Game as Engine>::Action> {
        let before = (player.playouts, player.rejected);
        let (action, took) = self.timed(s, || player.act(view, seed));
        if player.level == Level::Expert {
            self.playouts += player.playouts - before.0;
            self.rejected += player.rejected - before.1;
            self.expert_time += took;
        }
        action
    }
}

impl DealResult {
    /// Adds one table of the deal: each seat's decision times to its side (`a_seats[s]`: seat
    /// `s` is A's), and the counts.
    fn add(&mut self, a_seats: &[bool], costs: Costs, finished: bool) {
        for (s, (times, cpu)) in costs.times.into_iter().zip(costs.cpu).enumerate() {
            if a_seats[s] {
                self.times_a.extend(times);
                self.cpu_a.extend(cpu);
            } else {
                self.times_b.extend(times);
                self.cpu_b.extend(cpu);
            }
        }
        self.playouts += costs.playouts;
        self.rejected += costs.rejected;
        self.expert_time += costs.expert_time;
        self.actions += costs.actions;
        self.unfinished += u32::from(!finished);
    }
}

/// Decision times of one level.
#[derive(Clone, Debug, Default)]
pub struct Times {
    pub decisions: usize,
    pub p50: Duration,
    pub p99: Duration,
    pub max: Duration,
}

impl Times {
    fn of(mut all: Vec<Duration>) -> Times {
        all.sort_unstable();
        let at = |q: f64| {
            all.get(((all.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or_default()
        };
        Times {
            decisions: all.len(),
            p50: at(0.5),
            p99: at(0.99),
            max: all.last().copied().unwrap_or_default(),
        }
    }
}

/// What a match found.
#[derive(Clone, Debug)]
pub struct Report {
    pub config: Config,
    /// Per deal, in deal order: A's score minus B's.
    pub diffs: Vec<f64>,
    pub mean: f64,
    /// 95 % confidence interval of the mean (normal approximation).
    pub ci95: (f64, f64),
    pub times_a: Times,
    pub times_b: Times,
    /// The same in the deciding thread's CPU time (empty where the OS does not tell).
    pub cpu_a: Times,
    pub cpu_b: Times,
    /// Expert playouts per second of its thinking time (0 without an Expert).
    pub playouts_per_s: f64,
    /// Expert playouts in all, and sampled deals dropped.
    pub playouts: u64,
    pub rejected: u64,
    pub actions: u64,
    pub unfinished: u32,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.config;
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        writeln!(
            f,
            "{}: {} ({}) vs {} ({}), {} deals x 2 tables, seed {}, budget {:?}",
            c.game.name(),
            if c.a_sees_all {
                "all-seeing"
            } else {
                c.a.name()
            },
            if c.a_sees_all { "全知" } else { c.a.zh() },
            c.b.name(),
            c.b.zh(),
            self.diffs.len(),
            c.seed,
            c.budget
        )?;
        writeln!(
            f,
            "A - B per deal: mean {:+.2}, 95% CI [{:+.2}, {:+.2}]",
            self.mean, self.ci95.0, self.ci95.1
        )?;
        let a_name = if c.a_sees_all {
            "all-seeing"
        } else {
            c.a.name()
        };
        for (name, t, cpu) in [
            (a_name, &self.times_a, &self.cpu_a),
            (c.b.name(), &self.times_b, &self.cpu_b),
        ] {
            writeln!(
                f,
                "{} decisions: {}, wall p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; \
                 thread CPU p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
                name,
                t.decisions,
                ms(t.p50),
                ms(t.p99),
                ms(t.max),
                ms(cpu.p50),
                ms(cpu.p99),
                ms(cpu.max)
            )?;
        }
        if self.playouts_per_s > 0.0 {
            writeln!(
                f,
                "expert playouts/s (one thread): {:.0}; playouts {}, sampled deals dropped {}",
                self.playouts_per_s, self.playouts, self.rejected
            )?;
        }
        write!(
            f,
            "actions: {}, unfinished games: {}",
            self.actions, self.unfinished
        )
    }
}

/// Mean and the half-width of its 95 % confidence interval.
pub fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, f64::INFINITY);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// A 32-byte deal seed from a number.
pub(crate) fn deal_seed(seed: u64) -> rules::deal::Seed {
    let mut rng = Rng::new(seed);
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_mut(8) {
        chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
    }
    rules::deal::Seed(bytes)
}

/// CPU time this thread has run (Linux: `/proc/thread-self/schedstat`, in nanoseconds).
pub(crate) fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}
