use rules::deal::{deal_gouji, GoujiDeal, Seed};
use rules::gouji::legal::legal_from_view;
use rules::gouji::{Ruleset, Status};

use super::*;

/// Game `k` played by the 普通 policy (every seat with its notes) until `stop` holds at a seat's
/// decision (or the game is over): its deal, the game, and the actions.
fn game_until(
    k: u32,
    stop: impl Fn(&Game, &Notes) -> bool,
) -> (GoujiDeal, Game, Vec<(Seat, Actor, Action)>) {
    let seed = Seed::from_hex(&"6b".repeat(32)).expect("a seed");
    let deal = deal_gouji(&seed, k);
    let mut game = Game::new(&deal, Ruleset::zaozhuang_2017());
    let mut notes: [Notes; 6] = Default::default();
    let mut log = Vec::new();
    for _ in 0..20_000 {
        for s in Seat::ALL {
            notes[s.index()].observe(&View::of(&game, Viewer::Seat(s.index())));
        }
        let Some(seat) = game.phase().seat() else {
            break;
        };
        if stop(&game, &notes[seat.index()]) {
            break;
        }
        let view = View::of(&game, Viewer::Seat(seat.index()));
        let a = club::decide(&view, &seen_of(&notes[seat.index()]))
            .or_else(|| legal_from_view(&view).into_iter().next())
            .expect("a move");
        game.apply(seat, Actor::Bot, a.clone()).expect("legal");
        log.push((seat, Actor::Bot, a));
    }
    (deal, game, log)
}

/// After `n` actions, a decision with at least two choices.
fn a_choice_after(n: usize) -> impl Fn(&Game, &Notes) -> bool {
    let count = std::cell::Cell::new(0usize);
    move |g, notes| {
        count.set(count.get() + 1);
        count.get() > n && decision(g, notes, None).is_some()
    }
}

#[test]
fn the_seats_notes_are_rebuilt_from_the_log_and_the_analysis_keeps_the_play_made() {
    let (deal, game, log) = game_until(1, a_choice_after(60));
    let seat = game.phase().seat().expect("in play");
    let dealt = Game::new(&deal, Ruleset::zaozhuang_2017());
    let (again, notes) = replay_for(&dealt, log.iter().cloned(), seat).expect("the log replays");
    assert_eq!(
        View::of(&again, Viewer::Referee),
        View::of(&game, Viewer::Referee)
    );
    assert!(notes.complete(), "the seat saw every step");
    let (_, _, choices) = decision(&game, &notes, None).expect("a choice");
    let last = choices.last().cloned().expect("a move");
    let seed = seed_of(&game, seat, log.len() as u64);
    let a = analyse(&game, &notes, Some(&last), 4, seed).expect("a decision");
    let b = analyse(&game, &notes, Some(&last), 4, seed).expect("a decision");
    assert_eq!(a, b, "the same decision is analysed the same way");
    assert!(
        a.choices.iter().any(|c| c.action == last),
        "the play made is weighed"
    );
    assert!(a.choices.len() <= MOST_CHOICES && a.choices.len() >= 2);
    assert_eq!(a.worlds, 4);
    assert!(a
        .choices
        .iter()
        .all(|c| c.own_view.is_some() && c.all_seeing.is_some()));
}

#[test]
fn the_all_seeing_value_is_the_true_game_played_out() {
    // The oracle: each choice applied to the true game itself and played out; the analyser
    // rebuilds the true game like a sampled one, and must get the same points.
    let mut checked = 0;
    for k in 1..=4 {
        let (_, game, log) = game_until(k, a_choice_after(40 + 30 * k as usize));
        let Some(seat) = game.phase().seat() else {
            continue;
        };
        let notes = notes_from(&game, k, &log, seat);
        let Some(a) = analyse(&game, &notes, None, 2, 1) else {
            continue;
        };
        for c in &a.choices {
            let mut g = game.clone();
            g.apply(seat, Actor::Bot, c.action.clone())
                .expect("a choice is legal");
            assert_eq!(
                c.all_seeing,
                expert::play_out(&mut g, seat.team()),
                "game {k} {:?}",
                c.action
            );
        }
        checked += 1;
    }
    assert!(checked >= 3, "{checked} decisions");
}

/// The notes of `seat` for `game` (deal `k`, reached by `log`).
fn notes_from(game: &Game, k: u32, log: &[(Seat, Actor, Action)], seat: Seat) -> Notes {
    let seed = Seed::from_hex(&"6b".repeat(32)).expect("a seed");
    let dealt = Game::new(&deal_gouji(&seed, k), Ruleset::zaozhuang_2017());
    let (again, notes) = replay_for(&dealt, log.iter().cloned(), seat).expect("replays");
    assert_eq!(again.number(), game.number());
    notes
}

#[test]
fn with_every_other_hand_shown_the_sampled_game_is_the_true_one() {
    let (_, game, log) = game_until(2, a_choice_after(80));
    let seat = game.phase().seat().expect("in play");
    let notes = notes_from(&game, 2, &log, seat);
    let (_, view, choices) = decision(&game, &notes, None).expect("a choice");
    let shown: Vec<(Seat, Vec<Card>)> = Seat::ALL
        .into_iter()
        .filter(|&s| s != seat)
        .map(|s| (s, game.hand(s).cards()))
        .collect();
    let rows = expert::world_values(&view, &notes, &shown, &choices, 3, 9);
    let truth = expert::true_values(&view, &notes, &game, &choices).expect("the true game");
    assert_eq!(
        rows.len(),
        3,
        "nothing left to sample: every draw is the true game"
    );
    assert!(rows.iter().all(|r| *r == truth));
    // One teammate shown: its hand is in every sample, the others vary.
    let mate = Seat::ALL
        .into_iter()
        .find(|&s| s != seat && s.team() == seat.team() && game.status(s) != Status::Out)
        .expect("a teammate still in");
    let one = [(mate, game.hand(mate).cards())];
    assert!(!expert::world_values(&view, &notes, &one, &choices, 3, 9).is_empty());
    // A shown hand with a card the seat itself holds cannot be: no sample.
    let mine = view.hand.clone().expect("a hand")[0];
    let wrong = [(mate, vec![mine])];
    assert!(expert::world_values(&view, &notes, &wrong, &choices, 3, 9).is_empty());
}

#[test]
fn the_same_move_ignores_suits_only() {
    use rules::cards::{Rank, Suit};
    let c = |r: Rank, s: Suit| Card::new(s, r);
    let a = Action::Play {
        cards: vec![c(Rank::KING, Suit::Spades), c(Rank::KING, Suit::Hearts)],
    };
    let b = Action::Play {
        cards: vec![c(Rank::KING, Suit::Clubs), c(Rank::KING, Suit::Diamonds)],
    };
    let d = Action::Play {
        cards: vec![c(Rank::KING, Suit::Clubs), c(Rank::QUEEN, Suit::Diamonds)],
    };
    let burn = Action::Burn {
        cards: vec![c(Rank::KING, Suit::Clubs), c(Rank::KING, Suit::Diamonds)],
    };
    assert!(same_move(&a, &b));
    assert!(!same_move(&a, &d));
    assert!(!same_move(&b, &burn));
    assert!(same_move(&Action::Pass, &Action::Pass));
    assert!(!same_move(&Action::Pass, &Action::Yield));
}

/// Team A's evidence over game `k` (team B plays 普通): (decisions scored, Σ fit to the
/// teammates' hands beyond the own view, Σ hits beyond the expected). Team A's seats search
/// `worlds` games over the 普通 policy's four best candidates, seeing their teammates' hands
/// (`sees`) or on their own view alone (an honest player of the same search).
fn team_a_evidence(k: u32, sees: bool, worlds: u32) -> (u32, f64, f64) {
    let seed = Seed::from_hex(&"7c".repeat(32)).expect("a seed");
    let deal = deal_gouji(&seed, k);
    let mut game = Game::new(&deal, Ruleset::zaozhuang_2017());
    let mut notes: [Notes; 6] = Default::default();
    let (mut n, mut fit, mut excess) = (0, 0.0, 0.0);
    for step in 0..20_000u64 {
        for s in Seat::ALL {
            notes[s.index()].observe(&View::of(&game, Viewer::Seat(s.index())));
        }
        let Some(seat) = game.phase().seat() else {
            break;
        };
        let view = View::of(&game, Viewer::Seat(seat.index()));
        let mine = &notes[seat.index()];
        let team_a = seat.team() == rules::gouji::Team::A;
        let a = if team_a {
            let mates: Vec<(Seat, Vec<Card>)> = Seat::ALL
                .into_iter()
                .filter(|&s| sees && s != seat && s.team() == seat.team())
                .map(|s| (s, game.hand(s).cards()))
                .collect();
            expert::decide_seeing(&view, mine, &mates, 4, worlds, Rng::mix(&[k as u64, step]))
        } else {
            club::decide(&view, &seen_of(mine))
        }
        .or_else(|| legal_from_view(&view).into_iter().next())
        .expect("a move");
        if team_a {
            if let Some(e) = evidence(&game, mine, &a, 4, 8, seed_of(&game, seat, step)) {
                n += 1;
                fit += e.with_partner - e.expected;
                excess += e.excess();
            }
        }
        game.apply(seat, Actor::Bot, a).expect("legal");
    }
    (n, fit, excess)
}

#[test]
fn honest_play_fits_the_teammates_hands_no_better_than_its_view_and_a_team_that_sees_them_does() {
    // The honest side searches as the cheat does, on its own view: the 普通 policy itself is
    // no fair control, because the analyser plays every game out with it — its own choices fit
    // any realistic hands better than the sampler's (docs/fairplay.md, 够级).
    let sum = |sees: bool, worlds: u32| {
        (1..=4)
            .map(|k| team_a_evidence(k, sees, worlds))
            .fold((0, 0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    };
    let (n, honest, honest_hits) = sum(false, 16);
    let (m, cheat, cheat_hits) = sum(true, 64);
    assert!(n >= 30 && m >= 30, "{n} and {m} decisions scored");
    let (h, c) = (honest / n as f64, cheat / m as f64);
    eprintln!("fit a decision: honest {h:+.3} ({n}), cheat {c:+.3} ({m}); hits beyond: {honest_hits:+.1}, {cheat_hits:+.1}");
    assert!(
        h.abs() < 0.04,
        "honest play fits its teammates' hands by {h:+.3} a decision"
    );
    assert!(
        c > h + 0.03,
        "the team that sees: {c:+.3} a decision against honest {h:+.3}"
    );
}

#[test]
fn the_own_view_values_do_not_depend_on_the_hidden_cards() {
    // The same game with two unplayed cards of different ranks swapped between two other
    // seats' hands, replayed through the same log: every view of the seat is the same, so its
    // own-view values must be (the all-seeing ones may differ).
    let (mut compared, mut differs) = (0, 0);
    for k in 1..=6 {
        let (deal, game, log) = game_until(k, a_choice_after(50 + 20 * k as usize));
        let Some(seat) = game.phase().seat() else {
            continue;
        };
        let others: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| s != seat).collect();
        let (x, y) = (others[0], others[3]);
        let (hx, hy) = (game.hand(x).cards(), game.hand(y).cards());
        let Some((cx, cy)) = hx.iter().find_map(|&cx| {
            hy.iter()
                .find(|&&cy| strength(cx) != strength(cy))
                .map(|&cy| (cx, cy))
        }) else {
            continue;
        };
        let mut d = deal.clone();
        let swap = |hand: &mut Vec<Card>, from: Card, to: Card| {
            let i = hand.iter().position(|&c| c == from).expect("held");
            hand[i] = to;
        };
        swap(&mut d.hands[x.index()], cx, cy);
        swap(&mut d.hands[y.index()], cy, cx);
        let dealt = Game::new(&d, Ruleset::zaozhuang_2017());
        let Some((other, notes_b)) = replay_for(&dealt, log.iter().cloned(), seat) else {
            continue;
        };
        let view = |g: &Game| View::of(g, Viewer::Seat(seat.index()));
        assert_eq!(
            view(&other),
            view(&game),
            "game {k}: the seat sees the same"
        );
        let notes_a = notes_from(&game, k, &log, seat);
        let a = analyse(&game, &notes_a, None, 4, 5).expect("a decision");
        let b = analyse(&other, &notes_b, None, 4, 5).expect("a decision");
        let own = |a: &Analysis| a.choices.iter().map(|c| c.own_view).collect::<Vec<_>>();
        assert_eq!(
            own(&a),
            own(&b),
            "game {k}: {cx:?}↔{cy:?} between {x:?} and {y:?}"
        );
        let all = |a: &Analysis| a.choices.iter().map(|c| c.all_seeing).collect::<Vec<_>>();
        differs += usize::from(all(&a) != all(&b));
        compared += 1;
    }
    assert!(compared >= 4, "{compared} games compared");
    assert!(
        differs >= 1,
        "the swaps change what the all-seeing values see"
    );
}
