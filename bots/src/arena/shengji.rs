//! 80分 in the arena: one board at two tables, A at N–S then at E–W.

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
        out.add(config.a, &levels, t.costs, t.finished);
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

/// Plays a board with these levels in N, E, S, W.
pub fn play(config: &Config, deal: &ShengjiDeal, levels: [Level; 4], seed: u64) -> Table {
    let mut board = Board::new(deal, Ruleset::fujian_2024());
    let mut players = levels.map(|l| Player::new(l, config.budget));
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
        let action = t
            .costs
            .decide(&mut players[s], s, &view, Rng::mix(&[seed, n as u64]));
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
