//! A bot cannot reach another seat's hand: it is given views only, and two games that look
//! the same from its seat — the same past, the same views, but other cards in the hands it
//! cannot see — get the same decision from it (普通, and 高手 with a fixed seed and a playout
//! budget, which samples the hidden cards anew in each).
//!
//! The twin game is made by swapping cards nobody has played yet between the other hands (and
//! the kitty, unless the seat buried it), dealing the result afresh and replaying the same
//! actions; a twin the engine refuses, or that shows the seat a different view at any step,
//! is thrown away and another swap tried.

use bots::rng::Rng;
use bots::{gouji, shengji, Budget, Level};
use rules::cards::Card;
use rules::deal::{deal_gouji, deal_shengji, Fixed, GoujiDeal, Seed, ShengjiDeal};
use rules::gouji::{Game, View as GoujiView};
use rules::shengji::{Action, Board, Order, Ruleset, Seat};
use rules::{Actor, Viewer};

fn seed(n: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    Seed(bytes)
}

const EXPERT: Budget = Budget::Playouts(24);

// --- 80分 ---------------------------------------------------------------------------------

/// Replays `log` on a board of `deal`; the views of `seat` along the way, and the board.
fn shengji_replay(
    deal: &ShengjiDeal,
    log: &[(Seat, Action)],
    seat: Seat,
) -> Option<(Vec<rules::shengji::View>, Board)> {
    let mut board = Board::new(deal, Ruleset::fujian_2024());
    let mut views = vec![board.view(Viewer::Seat(seat.index()))];
    for (s, a) in log {
        board.apply(*s, Actor::Bot, a.clone()).ok()?;
        views.push(board.view(Viewer::Seat(seat.index())));
    }
    Some((views, board))
}

/// A deal that looks the same to `seat` after `log`: unplayed cards of the same suit swapped
/// between the other hands (and the kitty, if `seat` is not the declarer).
fn shengji_twin(
    deal: &ShengjiDeal,
    log: &[(Seat, Action)],
    board: &Board,
    seat: Seat,
    rng: &mut Rng,
) -> (ShengjiDeal, Vec<(Seat, Action)>) {
    let order = Order::new(deal.level, deal.trump);
    const KITTY: usize = 4;
    let mut held: Vec<Vec<Card>> = (0..4)
        .map(|s| board.hand(Seat::from_index(s)).cards())
        .collect();
    held.push(board.kitty().to_vec());
    let mut holders: Vec<usize> = (0..4).filter(|&s| s != seat.index()).collect();
    if seat != board.declarer() {
        holders.push(KITTY);
    }
    for _ in 0..6 {
        let a = holders[rng.below(holders.len())];
        let b = holders[rng.below(holders.len())];
        if a == b || held[a].is_empty() || held[b].is_empty() {
            continue;
        }
        let i = rng.below(held[a].len());
        let lane = order.lane(held[a][i]);
        let same: Vec<usize> = (0..held[b].len())
            .filter(|&j| order.lane(held[b][j]) == lane && held[b][j] != held[a][i])
            .collect();
        if let Some(&j) = same.get(rng.below(same.len().max(1))) {
            let (x, y) = (held[a][i], held[b][j]);
            held[a][i] = y;
            held[b][j] = x;
        }
    }
    let mut played: [Vec<Card>; 4] = Default::default();
    for (s, a) in log {
        if let Action::Play { cards } = a {
            played[s.index()].extend(cards.iter().copied());
        }
    }
    let kitty = held[KITTY].clone();
    let mut twin = deal.clone();
    for s in 0..4 {
        let mut cards: Vec<Card> = played[s].iter().chain(&held[s]).copied().collect();
        if s == deal.declarer {
            // The declarer picks up hand and kitty alike: any split of its 33 cards will do.
            cards.extend(kitty.iter().copied());
            cards.sort();
            twin.kitty = cards.split_off(25);
        }
        twin.hands[s] = cards;
    }
    let log = log
        .iter()
        .map(|(s, a)| match a {
            Action::Bury { .. } => (
                *s,
                Action::Bury {
                    cards: kitty.clone(),
                },
            ),
            a => (*s, a.clone()),
        })
        .collect();
    (twin, log)
}

#[test]
fn shengji_bots_decide_the_same_whatever_the_hidden_hands() {
    let mut rng = Rng::new(12);
    let mut compared = 0;
    for n in 1..=40u64 {
        let deal = deal_shengji(&seed(n), n as u32, Fixed::default());
        let mut board = Board::new(&deal, Ruleset::fujian_2024());
        let stop = 1 + rng.below(90);
        let mut log = Vec::new();
        let mut club: [shengji::Player; 4] =
            std::array::from_fn(|_| shengji::Player::new(Level::Club, EXPERT));
        while log.len() < stop {
            let Some(s) = board.to_act() else { break };
            let a = club[s.index()]
                .act(&board.view(Viewer::Seat(s.index())), 0)
                .unwrap();
            board.apply(s, Actor::Bot, a.clone()).unwrap();
            log.push((s, a));
        }
        let Some(seat) = board.to_act() else { continue };
        for attempt in 0..30 {
            let (twin, twin_log) = shengji_twin(&deal, &log, &board, seat, &mut rng);
            let Some((twin_views, twin_board)) = shengji_replay(&twin, &twin_log, seat) else {
                continue;
            };
            let (views, _) = shengji_replay(&deal, &log, seat).unwrap();
            if views != twin_views {
                continue;
            }
            let differs = Seat::ALL
                .into_iter()
                .any(|s| twin_board.hand(s) != board.hand(s))
                || twin_board.kitty() != board.kitty();
            if !differs {
                continue;
            }
            let decide = |views: &[rules::shengji::View], level: Level| {
                let mut p = shengji::Player::new(level, EXPERT);
                for v in &views[..views.len() - 1] {
                    p.observe(v);
                }
                p.act(views.last().unwrap(), 99)
            };
            for level in [Level::Club, Level::Expert] {
                assert_eq!(
                    decide(&views, level),
                    decide(&twin_views, level),
                    "board {n}, {seat:?}, {level:?}, attempt {attempt}"
                );
            }
            let last = views.last().unwrap();
            assert_eq!(
                shengji::choose(last, Level::Club, EXPERT, 5),
                shengji::choose(twin_views.last().unwrap(), Level::Club, EXPERT, 5)
            );
            compared += 1;
            break;
        }
    }
    assert!(compared >= 25, "only {compared} twins found");
}

// --- 够级 ---------------------------------------------------------------------------------

fn gouji_replay(
    deal: &GoujiDeal,
    log: &[(rules::gouji::Seat, rules::gouji::Action)],
    seat: rules::gouji::Seat,
) -> Option<(Vec<GoujiView>, Game)> {
    let mut game = Game::new(deal, rules::gouji::Ruleset::zaozhuang_2017());
    let mut views = vec![GoujiView::of(&game, Viewer::Seat(seat.index()))];
    for (s, a) in log {
        game.apply(*s, Actor::Bot, a.clone()).ok()?;
        views.push(GoujiView::of(&game, Viewer::Seat(seat.index())));
    }
    Some((views, game))
}

#[test]
fn gouji_bots_decide_the_same_whatever_the_hidden_hands() {
    use rules::gouji::{Action as A, Seat as S};
    let mut rng = Rng::new(34);
    let mut compared = 0;
    for n in 1..=16u64 {
        let deal = deal_gouji(&seed(n), n as u32);
        let mut game = Game::new(&deal, rules::gouji::Ruleset::zaozhuang_2017());
        let mut players: [gouji::Player; 6] =
            std::array::from_fn(|_| gouji::Player::new(Level::Club, EXPERT));
        let stop = 1 + rng.below(200);
        let mut log: Vec<(S, A)> = Vec::new();
        while log.len() < stop && !game.is_over() {
            for (i, p) in players.iter_mut().enumerate() {
                p.observe(&GoujiView::of(&game, Viewer::Seat(i)));
            }
            let s = game.phase().seat().unwrap();
            let a = players[s.index()]
                .act(&GoujiView::of(&game, Viewer::Seat(s.index())), 0)
                .unwrap();
            game.apply(s, Actor::Bot, a.clone()).unwrap();
            log.push((s, a));
        }
        let Some(seat) = game.phase().seat() else {
            continue;
        };
        let mut played: [Vec<Card>; 6] = Default::default();
        for (s, a) in &log {
            if let A::Play { cards } | A::Burn { cards } = a {
                played[s.index()].extend(cards.iter().copied());
            }
        }
        for attempt in 0..30 {
            let mut held: Vec<Vec<Card>> = S::ALL.iter().map(|&s| game.hand(s).cards()).collect();
            let others: Vec<usize> = (0..6)
                .filter(|&s| s != seat.index() && !held[s].is_empty())
                .collect();
            if others.len() < 2 {
                break;
            }
            for _ in 0..8 {
                let a = others[rng.below(others.len())];
                let b = others[rng.below(others.len())];
                let (i, j) = (rng.below(held[a].len()), rng.below(held[b].len()));
                if a != b {
                    let (x, y) = (held[a][i], held[b][j]);
                    held[a][i] = y;
                    held[b][j] = x;
                }
            }
            let twin = GoujiDeal {
                game: deal.game,
                hands: std::array::from_fn(|s| played[s].iter().chain(&held[s]).copied().collect()),
                order_hash: String::new(),
            };
            let Some((twin_views, twin_game)) = gouji_replay(&twin, &log, seat) else {
                continue;
            };
            let (views, _) = gouji_replay(&deal, &log, seat).unwrap();
            if views != twin_views || S::ALL.iter().all(|&s| twin_game.hand(s) == game.hand(s)) {
                continue;
            }
            let decide = |views: &[GoujiView], level: Level| {
                let mut p = gouji::Player::new(level, EXPERT);
                for v in &views[..views.len() - 1] {
                    p.observe(v);
                }
                p.act(views.last().unwrap(), 77)
            };
            for level in [Level::Club, Level::Expert] {
                assert_eq!(
                    decide(&views, level),
                    decide(&twin_views, level),
                    "game {n}, {seat}, {level:?}, attempt {attempt}"
                );
            }
            compared += 1;
            break;
        }
    }
    assert!(compared >= 10, "only {compared} twins found");
}
