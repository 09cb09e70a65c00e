//! Whole 够级 games with random legal actions: every card accounted for, the game always ends,
//! every enumerated action is accepted, and the team scores sum as the scoring table says.

mod gouji_support;
mod shared_fields;

use gouji_support::{assert_accounted, seed, Rng};
use rules::cards::Card;
use rules::deal::deal_gouji;
use rules::gouji::set::shape_of;
use rules::gouji::{Action, CardCount, Event, Game, KeepCards, Outcome, Ruleset, Seat, Status};
use rules::Actor;
use rules::{Engine, Viewer};
use shared_fields::SharedFields;

/// Plays one game; returns it and the number of actions.
fn random_game(n: u32, ruleset: Ruleset) -> (Game, usize, Vec<Event>) {
    let deal = deal_gouji(&seed(n), n);
    let mut g = Game::new(&deal, ruleset);
    let mut rng = Rng::new(n);
    let mut events = Vec::new();
    for step in 0..20_000 {
        if g.is_over() {
            return (g, step, events);
        }
        let to_act = Engine::to_act(&g);
        assert_eq!(to_act.len(), 1, "one seat acts");
        let seat = to_act[0];
        let legal = g.legal_actions(seat);
        assert!(!legal.is_empty(), "a seat to act always has a legal action");
        // Now and then through the wire: a view read back gives the same legal actions.
        if rng.below(25) == 0 {
            let view = g.view(Viewer::Seat(seat));
            let json = serde_json::to_string(&view).unwrap();
            let back: rules::gouji::View = serde_json::from_str(&json).unwrap();
            assert_eq!(back, view);
            assert_eq!(Game::legal_from_view(&back), legal);
            assert_eq!(view.turn.map(Seat::index), Some(seat));
            // Nobody else has a legal action.
            assert!(g.legal_actions((seat + 1) % 6).is_empty());
        }
        // Now and then every legal action is tried on a copy: all must be accepted.
        if rng.below(40) == 0 {
            for a in legal.iter().take(200) {
                let mut copy = g.clone();
                assert!(
                    Engine::apply(&mut copy, seat, a.taken_by(), a.clone()).is_ok(),
                    "{a:?}"
                );
            }
        }
        // A random wrong action is refused and changes nothing.
        let junk = junk_action(&mut rng, &g, seat);
        let before = g.clone();
        match Engine::apply(&mut g, seat, junk.taken_by(), junk.clone()) {
            Err(_) => assert_eq!(g, before, "{junk:?}"),
            Ok(ev) => {
                // It happened to be legal: then it is one of the enumerated moves, up to
                // suits (which never matter).
                assert!(
                    legal.iter().any(|a| same_move(a, &junk)),
                    "{junk:?} not in legal"
                );
                events.extend(ev);
                assert_accounted(&g);
                continue;
            }
        }
        // Mostly a uniform legal action; now and then the clock or a question.
        let action = match rng.below(20) {
            0 => Action::Timeout,
            1 => Action::AskCount,
            _ => legal[rng.below(legal.len())].clone(),
        };
        let ev = Engine::apply(&mut g, seat, action.taken_by(), action.clone())
            .unwrap_or_else(|e| panic!("game {n} step {step}: {action:?} refused: {e:?}"));
        // The clock's first expiry only warns: the same seat acts, with the grace seconds.
        if let [Event::Warned { grace_seconds, .. }] = ev.as_slice() {
            assert!(g.warned());
            assert_eq!(Engine::to_act(&g), vec![seat]);
            assert_eq!(
                g.move_limit(std::time::Duration::ZERO),
                Some(std::time::Duration::from_secs(u64::from(*grace_seconds)))
            );
        } else if action != Action::AskCount {
            // Any move ends the warning: the next move has its full time.
            assert!(!g.warned());
        }
        events.extend(ev);
        assert_accounted(&g);
        // Nobody else may act meanwhile.
        let now = Engine::to_act(&g);
        let other = (0..6)
            .find(|s| !now.contains(s))
            .expect("a seat not to act");
        let before = g.clone();
        assert!(Engine::apply(&mut g, other, Actor::Player, Action::Pass).is_err());
        assert_eq!(g, before);
    }
    panic!("game {n} did not end in 20,000 actions");
}

/// The same move up to suits.
fn same_move(a: &Action, b: &Action) -> bool {
    let shape = |c: &[Card]| shape_of(c).ok();
    match (a, b) {
        (Action::Play { cards: x }, Action::Play { cards: y })
        | (Action::Burn { cards: x }, Action::Burn { cards: y }) => shape(x) == shape(y),
        _ => a == b,
    }
}

/// A random action that is usually wrong: random cards (held or not), a pass, a yield, a burn.
fn junk_action(rng: &mut Rng, g: &Game, seat: usize) -> Action {
    let hand = g.hand(Seat::from_index(seat)).cards();
    let mut pick = |n: usize| -> Vec<Card> {
        (0..n)
            .map(|_| {
                if !hand.is_empty() && rng.below(4) > 0 {
                    hand[rng.below(hand.len())]
                } else {
                    Card::from_index(rng.below(54))
                }
            })
            .collect()
    };
    let k = 1 + (seat + g.table().len()) % 3;
    match g.table().len() % 5 {
        0 => Action::Burn { cards: pick(k) },
        1 => Action::Yield,
        2 => Action::Pass,
        _ => Action::Play { cards: pick(k) },
    }
}

fn check_game(n: u32, ruleset: Ruleset) {
    {
        let (g, _, events) = random_game(n, ruleset);
        assert!(g.is_over());
        let (score, outcome) = g.score().expect("a score");
        match outcome {
            // 头科 +4, 二科 +2, 二落 −2, 大落 −4 and 点贡 sum to zero, except that every failed
            // burner scores 大落 whatever place it fills (烧牌失误则为大落): the difference is a
            // penalty paid to nobody.
            Outcome::Places => {
                let scoring = &g.ruleset().scoring;
                let penalty: i32 = Seat::ALL
                    .into_iter()
                    .filter(|&s| g.status(s) == Status::Failed)
                    .map(|s| scoring.failed_burn - scoring.places[g.place(s).unwrap().index()])
                    .sum();
                assert_eq!(score.a + score.b, penalty, "game {n}: {score:?}");
            }
            // 串三户 +12 against −12.
            Outcome::Sweep { .. } => assert_eq!(score.a + score.b, 0),
            Outcome::Forfeit { .. } => unreachable!("no rulings here"),
        }
        // Every seat has a distinct place.
        let mut places: Vec<_> = g.places().iter().map(|p| p.expect("placed")).collect();
        places.sort();
        places.dedup();
        assert_eq!(places.len(), 6);
        // One team is all out or failed: the other still held cards.
        assert!(matches!(events.last(), Some(Event::GameOver { .. })));
        // The views agree with the game.
        let v = g.view(Viewer::Referee);
        assert_eq!(v.score, Some(score));
        for s in Seat::ALL {
            assert!(g.legal_actions(s.index()).is_empty());
        }
    }
}

#[test]
fn random_games_end_with_every_card_accounted_for() {
    for n in 1..=40 {
        check_game(n, Ruleset::zaozhuang_2017());
    }
}

/// Without the sustain test burns are frequent, and so are failed burns: the same checks.
#[test]
fn random_games_with_reckless_burns() {
    let mut ruleset = Ruleset::zaozhuang_2017();
    ruleset.keep_cards = KeepCards::NoTest;
    for n in 101..=140 {
        check_game(n, ruleset.clone());
    }
}

/// `View::count`: a seat knows its own count exactly (its hand), a referee every count (every
/// hand), and the rest as 问牌 answers them; the players' list, alike for all, answers them all.
fn counts_as_each_viewer_knows_them(g: &Game) {
    let limit = g.ruleset().exact_count_limit;
    for viewer in (0..6)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator, Viewer::Referee])
    {
        let v = g.view(viewer);
        for s in Seat::ALL {
            let n = g.hand(s).len();
            let answered = CardCount::answer(n, limit);
            assert_eq!(v.players[s.index()].cards, answered, "{viewer:?} {s:?}");
            let knows = viewer == Viewer::Referee || viewer == Viewer::Seat(s.index());
            let expected = if knows { CardCount::Exact(n) } else { answered };
            assert_eq!(v.count(s), expected, "{viewer:?} {s:?}");
        }
    }
}

/// The fields `Engine::is_shared_view_field` names are written once for all viewers of a moment
/// by the server: at every step of random games they must be alike in every viewer's view (the
/// six seats, a spectator, the referee), and the ones that differ must not be named. Each
/// viewer's counts are checked at every step too: `players`, shared, must still let a seat and a
/// referee know what they know.
#[test]
fn the_fields_named_shared_are_alike_in_every_view_and_the_others_are_not_named() {
    let viewers: Vec<Viewer> = (0..6)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator, Viewer::Referee])
        .collect();
    let mut fields = SharedFields::default();
    for n in 1..=6 {
        let deal = deal_gouji(&seed(n), n);
        let mut g = Game::new(&deal, Ruleset::zaozhuang_2017());
        let mut rng = Rng::new(n);
        loop {
            fields.check::<Game>(viewers.iter().map(|&v| g.view(v)));
            counts_as_each_viewer_knows_them(&g);
            if g.is_over() {
                break;
            }
            let seat = Engine::to_act(&g)[0];
            let legal = g.legal_actions(seat);
            let action = match rng.below(30) {
                0 => Action::Timeout,
                _ => legal[rng.below(legal.len())].clone(),
            };
            Engine::apply(&mut g, seat, action.taken_by(), action).unwrap();
        }
    }
    for name in [
        "game",
        "ruleset",
        "players",
        "gouji_thresholds",
        "top",
        "turn",
        "prompt",
        "free_play",
        "finish",
        "score",
        "outcome",
        "deducted",
        "warned",
    ] {
        assert!(Game::is_shared_view_field(name), "{name}");
        assert!(fields.shared_met.contains(name), "{name} never met twice");
    }
    for own in ["viewer", "hand", "can_pass", "can_yield", "burn_offer"] {
        assert!(!Game::is_shared_view_field(own), "{own}");
        assert!(fields.differing.contains(own), "{own} never differed");
    }
}
