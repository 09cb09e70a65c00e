//! 80分 in the arena: one board at two tables, A at N–S then at E–W. With `a_sees_all`, A's
//! seats are the all-seeing player (the bots' ceiling, docs/bots.md): 高手's search with every
//! other hand known as it is, so each decision is weighed on the true deal alone.

use rules::deal::{deal_shengji, Fixed, ShengjiDeal};
use rules::shengji::{Board, Ruleset, Seat};
use rules::{Actor, Viewer};

use super::{deal_seed, Config, DealResult};
use crate::fairplay::players;
use crate::level::Level;
use crate::rng::Rng;
use crate::shengji::{Notes, Player};

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
        let a_seats: [bool; 4] = std::array::from_fn(|s| (s % 2 == 0) == a_seats_ns);
        let seeing = a_seats.map(|a| a && config.a_sees_all);
        let t = play(config, &deal, levels, seeing, Rng::mix(&[seed, table]));
        let defenders_are_a = deal.declarer.is_multiple_of(2) != a_seats_ns;
        defended[usize::from(!defenders_are_a)] = t.result;
        out.add(&a_seats, t.costs, t.finished);
    }
    out.diff = (defended[0] - defended[1]) as f64;
    out
}

/// One table's board.
pub struct Table {
    /// The defenders' points.
    pub result: i32,
    /// What the players' decisions cost, and the actions taken.
    pub costs: super::Costs,
    pub finished: bool,
}

/// Plays a board with these levels in N, E, S, W (`seeing`: the seats that see every hand).
pub fn play(
    config: &Config,
    deal: &ShengjiDeal,
    levels: [Level; 4],
    seeing: [bool; 4],
    seed: u64,
) -> Table {
    let mut board = Board::new(deal, Ruleset::fujian_2024());
    let mut players = levels.map(|l| Player::new(l, config.budget));
    let mut notes: [Notes; 4] = Default::default();
    let mut t = Table {
        result: 0,
        costs: super::Costs::new(4),
        finished: false,
    };
    for n in 0..ACTION_LIMIT {
        let Some(seat) = Board::to_act(&board) else {
            break;
        };
        let s = seat.index();
        let view = board.view(Viewer::Seat(s));
        let seed = Rng::mix(&[seed, n as u64]);
        let action = if seeing[s] {
            notes[s].observe(&view);
            let shown: Vec<_> = Seat::ALL
                .into_iter()
                .filter(|&o| o != seat)
                .map(|o| (o, board.hand(o).cards()))
                .collect();
            let decide =
                || players::decide(&view, &notes[s], &shown, Level::Expert, config.budget, seed);
            t.costs.timed(s, decide).0
        } else {
            t.costs.decide(&mut players[s], s, &view, seed)
        };
        let action = action.expect("the seat to act has an action");
        if let Err(e) = board.apply(seat, Actor::Bot, action.clone()) {
            panic!(
                "{seat:?} ({:?}) played {action:?}: refused: {e:?}",
                levels[s]
            );
        }
        t.costs.actions += 1;
    }
    t.finished = board.is_over();
    t.result = board.result().unwrap_or(0);
    t
}
