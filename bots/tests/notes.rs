//! What a seat remembers comes from its own views, and is all there is to remember: an 80分
//! seat that looks at its view only when it is to play still sees every trick (and the
//! declarer its own bury); a 够级 seat that sees each view reads every action off them, so
//! the game replays from its notes exactly.

use bots::{gouji, shengji, Budget, Level};
use rules::deal::{deal_gouji, deal_shengji, Fixed, Seed};
use rules::gouji::{Game, View as GoujiView};
use rules::shengji::{Board, Ruleset};
use rules::{Actor, Viewer};

fn seed(n: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    bytes[8] = 0xA5;
    Seed(bytes)
}

#[test]
fn an_80fen_seat_looking_only_on_its_turns_remembers_every_trick_and_its_bury() {
    for n in 1..=30u64 {
        let deal = deal_shengji(&seed(n), n as u32, Fixed::default());
        let mut board = Board::new(&deal, Ruleset::fujian_2024());
        let levels = [Level::Club, Level::Beginner, Level::Club, Level::Beginner];
        let mut players = levels.map(|l| shengji::Player::new(l, Budget::Playouts(1)));
        while let Some(seat) = board.to_act() {
            let v = board.view(Viewer::Seat(seat.index()));
            let a = players[seat.index()].act(&v, n).unwrap();
            board.apply(seat, Actor::Bot, a).unwrap();
        }
        for (s, p) in players.iter().enumerate() {
            let seen: Vec<_> = p.notes().tricks().cloned().collect();
            let all = board.tricks();
            // The last trick is over before anyone looks again; everything before it was seen.
            assert_eq!(seen[..], all[..all.len() - 1], "board {n}, seat {s}");
            let kitty = p.notes().kitty();
            if s == deal.declarer {
                let mut k = kitty.expect("the declarer remembers its bury").to_vec();
                k.sort();
                let mut real = board.kitty().to_vec();
                real.sort();
                assert_eq!(k, real);
            } else {
                assert_eq!(kitty, None, "board {n}: only the declarer knows the kitty");
            }
        }
    }
}

#[test]
fn a_gouji_seat_reads_every_action_off_its_views() {
    let (mut seat_games, mut incomplete) = (0, 0);
    for n in 1..=40u64 {
        let deal = deal_gouji(&seed(n), n as u32);
        let mut game = Game::new(&deal, rules::gouji::Ruleset::zaozhuang_2017());
        let levels = if n % 2 == 0 {
            [Level::Club; 6]
        } else {
            [
                Level::Beginner,
                Level::Club,
                Level::Club,
                Level::Beginner,
                Level::Club,
                Level::Beginner,
            ]
        };
        let mut players = levels.map(|l| gouji::Player::new(l, Budget::Playouts(1)));
        let mut actions = 0;
        loop {
            for (s, p) in players.iter_mut().enumerate() {
                p.observe(&GoujiView::of(&game, Viewer::Seat(s)));
            }
            let Some(seat) = game.phase().seat() else {
                break;
            };
            let v = GoujiView::of(&game, Viewer::Seat(seat.index()));
            let a = players[seat.index()].act(&v, n).unwrap();
            game.apply(seat, Actor::Bot, a).unwrap();
            actions += 1;
        }
        for (s, p) in players.iter().enumerate() {
            let notes = p.notes();
            // A set that won its trick unseen (another seat's, both ends of it hidden) leaves
            // the notes incomplete: they say so, and are rare.
            seat_games += 1;
            if !notes.complete() {
                incomplete += 1;
                continue;
            }
            assert_eq!(notes.steps().len(), actions, "game {n}, seat {s}");
            let mut replay = Game::new(&deal, rules::gouji::Ruleset::zaozhuang_2017());
            for step in notes.steps() {
                replay
                    .apply(step.seat, Actor::Bot, step.action.clone())
                    .unwrap_or_else(|e| panic!("game {n}, seat {s}: {step:?}: {e:?}"));
            }
            assert_eq!(replay, game, "game {n}, seat {s}");
        }
    }
    assert!(
        incomplete * 20 <= seat_games,
        "{incomplete} of {seat_games} seat-games left incomplete notes"
    );
}

#[test]
fn a_gouji_seat_that_joins_late_knows_its_notes_are_incomplete() {
    let deal = deal_gouji(&seed(99), 1);
    let mut game = Game::new(&deal, rules::gouji::Ruleset::zaozhuang_2017());
    let mut first = gouji::Player::new(Level::Club, Budget::Playouts(1));
    let s = game.phase().seat().unwrap();
    let a = first
        .act(&GoujiView::of(&game, Viewer::Seat(s.index())), 1)
        .unwrap();
    game.apply(s, Actor::Bot, a).unwrap();
    let mut late = gouji::Notes::new();
    late.observe(&GoujiView::of(&game, Viewer::Seat(3)));
    assert!(!late.complete());
    let fresh = gouji::Notes::from_view(&GoujiView::of(
        &Game::new(&deal, rules::gouji::Ruleset::zaozhuang_2017()),
        Viewer::Seat(3),
    ));
    assert!(fresh.complete());
}
