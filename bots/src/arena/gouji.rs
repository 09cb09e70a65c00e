//! 够级 in the arena: one deal at two tables, A as team A (A1, A2, A3) then as team B.

use rules::deal::{deal_gouji, GoujiDeal};
use rules::gouji::{Game, Ruleset, Seat, Team, View};
use rules::{Actor, Viewer};

use super::{deal_seed, Config, DealResult};
use crate::gouji::Player;
use crate::level::Level;
use crate::rng::Rng;

/// Most actions a game may take before the arena gives up on it.
pub const ACTION_LIMIT: usize = 20_000;

/// Plays deal `k` at both tables.
pub fn deal(config: &Config, k: usize, seed: u64) -> DealResult {
    let deal = deal_gouji(&deal_seed(seed), k as u32 + 1);
    let mut out = DealResult::default();
    let mut points = [0i32; 2];
    for (table, a_team) in [(0u64, Team::A), (1, Team::B)] {
        let levels: [Level; 6] = std::array::from_fn(|s| {
            if Seat::from_index(s).team() == a_team {
                config.a
            } else {
                config.b
            }
        });
        let t = play(config, &deal, levels, Rng::mix(&[seed, table]));
        let b_team = if a_team == Team::A { Team::B } else { Team::A };
        points[0] += t.score.map_or(0, |s| s.team(a_team));
        points[1] += t.score.map_or(0, |s| s.team(b_team));
        let a_seats = Seat::ALL.map(|s| s.team() == a_team);
        out.add(&a_seats, t.costs, t.score.is_some());
    }
    out.diff = (points[0] - points[1]) as f64;
    out
}

/// One table's game.
pub struct Table {
    pub score: Option<rules::gouji::Score>,
    /// What the players' decisions cost, and the actions taken.
    pub costs: super::Costs,
    /// Each seat's actions.
    pub log: Vec<Seat>,
    /// Seats in the order they went out.
    pub finish: Vec<Seat>,
    /// The game as it ended.
    pub game: Game,
}

/// Plays a game with these levels in A1, B1, A2, B2, A3, B3; every seat's player sees every
/// view of its seat.
pub fn play(config: &Config, deal: &GoujiDeal, levels: [Level; 6], seed: u64) -> Table {
    let mut players = levels.map(|l| Player::new(l, config.budget));
    play_with(&mut players, deal, seed)
}

/// Plays a game with these players.
pub fn play_with(players: &mut [Player; 6], deal: &GoujiDeal, seed: u64) -> Table {
    let mut game = Game::new(deal, Ruleset::zaozhuang_2017());
    let mut t = Table {
        score: None,
        costs: super::Costs::new(6),
        log: Vec::new(),
        finish: Vec::new(),
        game: game.clone(),
    };
    let observe_all = |game: &Game, players: &mut [Player; 6]| {
        for (s, p) in players.iter_mut().enumerate() {
            p.observe(&View::of(game, Viewer::Seat(s)));
        }
    };
    observe_all(&game, players);
    for n in 0..ACTION_LIMIT {
        if game.is_over() {
            break;
        }
        let Some(seat) = game.phase().seat() else {
            break;
        };
        let s = seat.index();
        let view = View::of(&game, Viewer::Seat(s));
        let action = t
            .costs
            .decide(&mut players[s], s, &view, Rng::mix(&[seed, n as u64]));
        let action = action.expect("the seat to act has an action");
        if let Err(e) = game.apply(seat, Actor::Bot, action.clone()) {
            panic!(
                "{seat} ({:?}) played {action:?}: refused: {e:?}",
                players[s].level
            );
        }
        t.costs.actions += 1;
        t.log.push(seat);
        observe_all(&game, players);
    }
    t.score = game.score().map(|s| s.0);
    t.finish = game.finish().to_vec();
    t.game = game;
    t
}

/// How long one person waits for five computers: a 够级 game with five 普通 bots and one
/// "person" (an eager random player: a random legal set whenever it may play one, so it
/// sheds fast and goes out early), counting the computers' actions after the person is out.
#[derive(Clone, Debug, Default)]
pub struct Wait {
    pub games: usize,
    /// Games where the person went out before the end.
    pub person_out: usize,
    /// Per such game: the computers' actions after the person went out.
    pub after: Vec<u64>,
    /// Per such game: the person's place (0 = 头科).
    pub places: Vec<usize>,
    /// Per game: all actions.
    pub actions: Vec<u64>,
}

/// Plays `games` games, the person in a different seat each time; `eager` person plays at
/// random (a random set whenever it may play one), otherwise it plays as 普通 too (a
/// competent person, who goes out early more often).
pub fn person_wait(games: usize, seed: u64, eager: bool) -> Wait {
    let mut w = Wait {
        games,
        ..Wait::default()
    };
    for g in 0..games {
        let s = Rng::mix(&[seed, g as u64]);
        let deal = deal_gouji(&deal_seed(s), g as u32 + 1);
        let person = Seat::from_index(g % 6);
        let mut players: [Player; 6] =
            std::array::from_fn(|_| Player::new(Level::Club, crate::level::Budget::Playouts(1)));
        let mut game = Game::new(&deal, Ruleset::zaozhuang_2017());
        let mut rng = Rng::new(s);
        let mut out_at: Option<u64> = None;
        let mut n = 0u64;
        while let Some(seat) = game.phase().seat() {
            for (i, p) in players.iter_mut().enumerate() {
                p.observe(&View::of(&game, Viewer::Seat(i)));
            }
            let view = View::of(&game, Viewer::Seat(seat.index()));
            let action = if seat == person && eager {
                let legal = rules::gouji::legal::legal_from_view(&view);
                let sets: Vec<_> = legal
                    .iter()
                    .filter(|a| {
                        matches!(
                            a,
                            rules::gouji::Action::Play { .. } | rules::gouji::Action::Burn { .. }
                        )
                    })
                    .collect();
                if sets.is_empty() {
                    legal[rng.below(legal.len())].clone()
                } else {
                    sets[rng.below(sets.len())].clone()
                }
            } else {
                players[seat.index()]
                    .act(&view, n)
                    .expect("a seat to act has an action")
            };
            game.apply(seat, Actor::Bot, action)
                .expect("a legal action");
            n += 1;
            if out_at.is_none() && game.finish().contains(&person) {
                out_at = Some(n);
            }
            if n as usize >= ACTION_LIMIT {
                break;
            }
        }
        w.actions.push(n);
        if let (Some(at), true) = (out_at, game.is_over()) {
            w.person_out += 1;
            w.after.push(n - at);
            w.places
                .push(game.finish().iter().position(|&s| s == person).unwrap_or(5));
        }
    }
    w
}

/// How often a seat's notes read every step: `games` games of mixed 入门 and 普通 players, each
/// seat's notes checked at the end — complete, and replaying to exactly the engine's game.
/// Returns (seats, complete, complete and exact).
pub fn notes_check(games: usize, seed: u64) -> (usize, usize, usize) {
    let (mut seats, mut complete, mut exact) = (0, 0, 0);
    for g in 0..games {
        let s = Rng::mix(&[seed, g as u64]);
        let deal = deal_gouji(&deal_seed(s), g as u32 + 1);
        let levels: [Level; 6] = std::array::from_fn(|i| {
            if (g + i) % 3 == 0 {
                Level::Beginner
            } else {
                Level::Club
            }
        });
        let mut players = levels.map(|l| Player::new(l, crate::level::Budget::Playouts(1)));
        let t = play_with(&mut players, &deal, s);
        for p in &players {
            seats += 1;
            if !p.notes().complete() {
                continue;
            }
            complete += 1;
            let mut replay = Game::new(&deal, Ruleset::zaozhuang_2017());
            let replayed = p
                .notes()
                .steps()
                .all(|st| replay.apply(st.seat, Actor::Bot, st.action.clone()).is_ok());
            if replayed && replay == t.game {
                exact += 1;
            }
        }
    }
    (seats, complete, exact)
}
