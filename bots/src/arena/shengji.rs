//! 80分 in the arena: one board at two tables, A at N–S then at E–W.

use std::time::{Duration, Instant};

use rules::deal::{deal_shengji, Fixed, ShengjiDeal};
use rules::shengji::{Board, Ruleset};
use rules::{Actor, Viewer};

use super::{deal_seed, Config, DealResult};
use crate::level::Level;
use crate::rng::Rng;
use crate::shengji::Player;

/// Most actions a board may take (a board has about 110).
const ACTION_LIMIT: usize = 1000;

/// Plays deal `k` at both tables.
pub fn deal(config: &Config, k: usize, seed: u64) -> DealResult {
    let deal = deal_shengji(&deal_seed(seed), k as u32 + 1, Fixed::default());
    let mut out = DealResult::default();
    let mut defended = [0i32; 2];
    for (table, a_seats_ns) in [(0u64, true), (1, false)] {
        let levels: [Level; 4] = std::array::from_fn(|s| {
            if (s % 2 == 0) == a_seats_ns {
                config.a
            } else {
                config.b
            }
        });
        let t = play(config, &deal, levels, Rng::mix(&[seed, table]));
        let defenders_are_a = deal.declarer.is_multiple_of(2) != a_seats_ns;
        defended[usize::from(!defenders_are_a)] = t.result;
        for (s, (times, cpu)) in t.times.into_iter().zip(t.cpu).enumerate() {
            if levels[s] == config.a {
                out.times_a.extend(times);
                out.cpu_a.extend(cpu);
            } else {
                out.times_b.extend(times);
                out.cpu_b.extend(cpu);
            }
        }
        out.playouts += t.playouts;
        out.rejected += t.rejected;
        out.expert_time += t.expert_time;
        out.actions += t.actions;
        out.unfinished += u32::from(!t.finished);
    }
    out.diff = (defended[0] - defended[1]) as f64;
    out
}

/// One table's board.
pub struct Table {
    /// The defenders' points.
    pub result: i32,
    /// Decision times per seat (wall, and the thread's CPU time).
    pub cpu: [Vec<Duration>; 4],
    pub times: [Vec<Duration>; 4],
    pub playouts: u64,
    pub rejected: u64,
    pub expert_time: Duration,
    pub actions: u64,
    pub finished: bool,
}

/// Plays a board with these levels in N, E, S, W.
pub fn play(config: &Config, deal: &ShengjiDeal, levels: [Level; 4], seed: u64) -> Table {
    let mut board = Board::new(deal, Ruleset::fujian_2024());
    let mut players = levels.map(|l| Player::new(l, config.budget));
    let mut t = Table {
        result: 0,
        times: Default::default(),
        cpu: Default::default(),
        playouts: 0,
        rejected: 0,
        expert_time: Duration::ZERO,
        actions: 0,
        finished: false,
    };
    for n in 0..ACTION_LIMIT {
        let Some(seat) = Board::to_act(&board) else {
            break;
        };
        let s = seat.index();
        let view = board.view(Viewer::Seat(s));
        let before = (players[s].playouts, players[s].rejected);
        let cpu = super::thread_cpu();
        let start = Instant::now();
        let action = players[s].act(&view, Rng::mix(&[seed, n as u64]));
        let took = start.elapsed();
        if let (Some(a), Some(b)) = (cpu, super::thread_cpu()) {
            t.cpu[s].push(b.saturating_sub(a));
        }
        t.times[s].push(took);
        if levels[s] == Level::Expert {
            t.playouts += players[s].playouts - before.0;
            t.rejected += players[s].rejected - before.1;
            t.expert_time += took;
        }
        let action = action.expect("the seat to act has an action");
        if let Err(e) = board.apply(seat, Actor::Bot, action.clone()) {
            panic!(
                "{seat:?} ({:?}) played {action:?}: refused: {e:?}",
                levels[s]
            );
        }
        t.actions += 1;
    }
    t.finished = board.is_over();
    t.result = board.result().unwrap_or(0);
    t
}
