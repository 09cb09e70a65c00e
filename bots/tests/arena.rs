//! The arena: reproducible for a seed and level pair (whatever the number of threads), and it
//! tells the levels apart.

use bots::arena::{run, Config, Game};
use bots::{Budget, Level};

fn config(game: Game, a: Level, b: Level, deals: usize, seed: u64) -> Config {
    let mut c = Config::new(game, a, b, deals, seed);
    c.budget = Budget::Playouts(4);
    c
}

#[test]
fn the_arena_is_deterministic_for_a_seed_and_level_pair() {
    for (game, deals) in [(Game::Shengji, 2), (Game::Gouji, 1)] {
        let mut c = config(game, Level::Expert, Level::Club, deals, 42);
        c.threads = 2;
        let two = run(&c);
        c.threads = 1;
        let one = run(&c);
        assert_eq!(two.diffs, one.diffs, "{game:?}");
        assert_eq!(two.playouts, one.playouts, "{game:?}");
        assert_eq!(two.actions, one.actions, "{game:?}");
        assert!(two.playouts > 0, "{game:?}: the Expert searched");
    }
    // Another seed deals other cards.
    let a = run(&config(Game::Shengji, Level::Club, Level::Beginner, 6, 1));
    let b = run(&config(Game::Shengji, Level::Club, Level::Beginner, 6, 2));
    assert_ne!(a.diffs, b.diffs);
}

#[test]
fn club_beats_beginner_in_both_games() {
    for (game, deals) in [(Game::Shengji, 30), (Game::Gouji, 20)] {
        let r = run(&config(game, Level::Club, Level::Beginner, deals, 7));
        assert!(r.ci95.0 > 0.0, "{game:?}: {r}");
        assert_eq!(r.unfinished, 0);
        assert_eq!(r.diffs.len(), deals);
    }
}

#[test]
fn the_all_seeing_player_beats_club_and_its_seats_see_every_hand() {
    let mut c = config(Game::Shengji, Level::Expert, Level::Club, 12, 9);
    c.budget = Budget::Playouts(16);
    c.a_sees_all = true;
    let r = run(&c);
    assert!(r.ci95.0 > 0.0, "{r}");
    assert_eq!(r.unfinished, 0);
    assert!(
        r.to_string()
            .starts_with("shengji: all-seeing (全知) vs club"),
        "{r}"
    );
    // The same match with A as 高手 on its own view: another player, other results.
    c.a_sees_all = false;
    assert_ne!(run(&c).diffs, r.diffs);
}
