//! Every action a bot chooses is one the engine accepts: hundreds of random games at every
//! level (the Expert with a small playout budget), each bot given only its seat's views.

use bots::{gouji, shengji, Budget, Level};
use rules::deal::{deal_gouji, deal_shengji, Fixed, Seed};
use rules::gouji::{Game, View as GoujiView};
use rules::shengji::{Board, Ruleset};
use rules::{Actor, Viewer};

fn seed(n: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    Seed(bytes)
}

/// Plays an 80分 board with these levels (N, E, S, W); every action must be accepted.
fn shengji_board(n: u64, levels: [Level; 4], budget: Budget) -> usize {
    let mut fixed = Fixed::default();
    if n.is_multiple_of(7) {
        fixed.trump = Some(None); // 无主 boards too
    }
    let deal = deal_shengji(&seed(n), n as u32, fixed);
    let mut board = Board::new(&deal, Ruleset::fujian_2024());
    let mut players = levels.map(|l| shengji::Player::new(l, budget));
    let mut actions = 0;
    while let Some(seat) = board.to_act() {
        let view = board.view(Viewer::Seat(seat.index()));
        let action = players[seat.index()]
            .act(&view, n * 1000 + actions as u64)
            .unwrap_or_else(|| panic!("board {n}: {seat:?} has no action"));
        if let Err(e) = board.apply(seat, Actor::Bot, action.clone()) {
            panic!(
                "board {n}: {seat:?} at level {:?} chose {action:?}, refused: {e:?}",
                levels[seat.index()]
            );
        }
        actions += 1;
        assert!(actions < 500, "board {n} does not end");
    }
    assert!(board.result().is_some());
    actions
}

/// Plays a 够级 game with these levels (A1…B3); every seat sees every view of its own.
fn gouji_game(n: u64, levels: [Level; 6], budget: Budget) -> usize {
    let deal = deal_gouji(&seed(n), n as u32);
    let mut game = Game::new(&deal, rules::gouji::Ruleset::zaozhuang_2017());
    let mut players = levels.map(|l| gouji::Player::new(l, budget));
    let mut actions = 0;
    loop {
        for (s, p) in players.iter_mut().enumerate() {
            p.observe(&GoujiView::of(&game, Viewer::Seat(s)));
        }
        if game.is_over() {
            break;
        }
        let seat = game.phase().seat().expect("a seat to act");
        let view = GoujiView::of(&game, Viewer::Seat(seat.index()));
        let action = players[seat.index()]
            .act(&view, n * 10_000 + actions as u64)
            .unwrap_or_else(|| panic!("game {n}: {seat} has no action"));
        if let Err(e) = game.apply(seat, Actor::Bot, action.clone()) {
            panic!(
                "game {n}: {seat} at level {:?} chose {action:?}, refused: {e:?}",
                levels[seat.index()]
            );
        }
        actions += 1;
        assert!(actions < 20_000, "game {n} does not end");
    }
    assert!(game.score().is_some());
    actions
}

#[test]
fn shengji_beginner_and_club_play_only_legal_actions() {
    use Level::*;
    let mut actions = 0;
    for n in 1..=240 {
        let levels = match n % 3 {
            0 => [Club; 4],
            1 => [Beginner; 4],
            _ => [Club, Beginner, Beginner, Club],
        };
        actions += shengji_board(n, levels, Budget::Playouts(1));
    }
    assert!(actions > 240 * 40);
}

#[test]
fn shengji_expert_plays_only_legal_actions() {
    use Level::*;
    for n in 1..=16 {
        let mut levels = [Club, Beginner, Club, Beginner];
        levels[n as usize % 4] = Expert;
        shengji_board(1000 + n, levels, Budget::Playouts(4));
    }
}

#[test]
fn gouji_beginner_and_club_play_only_legal_actions() {
    use Level::*;
    let mut actions = 0;
    for n in 1..=150 {
        let levels = match n % 3 {
            0 => [Club; 6],
            1 => [Beginner; 6],
            _ => [Club, Beginner, Beginner, Club, Club, Beginner],
        };
        actions += gouji_game(n, levels, Budget::Playouts(1));
    }
    assert!(actions > 150 * 100);
}

#[test]
fn gouji_expert_plays_only_legal_actions() {
    use Level::*;
    for n in 1..=8 {
        let mut levels = [Club, Beginner, Club, Beginner, Club, Club];
        levels[n as usize % 6] = Expert;
        gouji_game(2000 + n, levels, Budget::Playouts(3));
    }
}
