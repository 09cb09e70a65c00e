//! 高手 (expert) 够级: determinized Monte-Carlo. Each sample deals the cards neither in the
//! seat's hand nor seen on the table to the other seats, as many as each must still hold (a
//! failed burner's void cards hold no joker: it failed for want of one); gives every seat the
//! cards it was seen to play back; deals a new game from those hands with the engine's own
//! constructor (`Game::new`) and replays every action the seat saw. A sample whose replay the
//! engine refuses, or whose view differs from the seat's, is dropped. Each candidate is then
//! played to the end by the 普通 policy for all six seats; its value is our team's points.

use rules::cards::{Card, Hand, Rank};
use rules::deal::{canonical_deck, GoujiDeal};
use rules::gouji::legal::legal_from_view;
use rules::gouji::set::{strength, Counts, SMALL};
use rules::gouji::{Action, Game, Seat, Status, Team, View};
use rules::{Actor, Viewer};

use super::club::{self, Seen};
use super::notes::Notes;
use crate::level::{Budget, Decision};
use crate::rng::Rng;
use crate::search::search;

/// Candidates weighed per decision (the 普通 choice first).
const CANDIDATES: usize = 5;
/// Most actions a playout may take (a game has a few hundred).
const PLAYOUT_LIMIT: usize = 4000;

/// The Expert's decision. Without complete notes (the seat did not see
/// every step of the game) it plays as 普通.
pub fn decide(view: &View, notes: &Notes, budget: Budget, seed: u64) -> Decision<Action> {
    let Viewer::Seat(i) = view.viewer else {
        return Decision::default();
    };
    let me = Seat::from_index(i);
    if view.turn != Some(me) {
        return Decision::default();
    }
    let seen = seen_of(notes);
    let candidates = club::candidates(view, &seen, CANDIDATES);
    if candidates.len() <= 1 || !notes.complete() {
        return Decision::plain(candidates.into_iter().next());
    }
    let Some(sampler) = Sampler::new(view, notes, me) else {
        return Decision::plain(candidates.into_iter().next());
    };
    let team = me.team();
    let found = search(
        candidates.len(),
        budget,
        seed,
        |rng| sampler.world(view, notes, rng),
        |world, i| {
            let mut game = world.clone();
            game.apply(me, Actor::Bot, candidates[i].clone()).ok()?;
            play_out(&mut game, team)
        },
    );
    Decision {
        action: Some(candidates[found.best].clone()),
        playouts: found.playouts,
        rejected: found.rejected,
    }
}

/// The cards the notes saw played, per strength.
pub fn seen_of(notes: &Notes) -> Seen {
    let mut all = Hand::new();
    for hand in notes.played() {
        for c in hand.iter() {
            all.add(c);
        }
    }
    Seen(Counts::of(&all))
}

/// Plays to the end with the 普通 policy for every seat: the team's points.
pub fn play_out(game: &mut Game, team: Team) -> Option<f64> {
    // Every set is announced: what is on the table is what each seat has seen.
    let mut seen = Seen(Counts::of(game.table()));
    for _ in 0..PLAYOUT_LIMIT {
        if game.is_over() {
            return Some(game.score()?.0.team(team) as f64);
        }
        let seat = game.phase().seat()?;
        let view = View::of(game, Viewer::Seat(seat.index()));
        let mut action =
            club::decide(&view, &seen).or_else(|| legal_from_view(&view).into_iter().next())?;
        if game.apply(seat, Actor::Bot, action.clone()).is_err() {
            action = legal_from_view(&view).into_iter().next()?;
            game.apply(seat, Actor::Bot, action.clone()).ok()?;
        }
        if let Action::Play { cards } | Action::Burn { cards } = &action {
            for &c in cards {
                if let Some(x) = strength(c) {
                    seen.0 .0[x as usize] += 1;
                }
            }
        }
    }
    None
}

/// Each of `choices` by the seat whose view this is, in `worlds` games its view and notes
/// allow (the same games for every choice; the seats in `shown` holding their hands as they
/// are), played to the end by the 普通 policy: the team's points, a row per game sampled
/// (`None`: the choice could not be tried there). The all-seeing analyser's own view (`shown`
/// empty) and its teammates-known view.
pub(crate) fn world_values(
    view: &View,
    notes: &Notes,
    shown: &[(Seat, Vec<Card>)],
    choices: &[Action],
    worlds: u32,
    seed: u64,
) -> Vec<Vec<Option<f64>>> {
    let Viewer::Seat(i) = view.viewer else {
        return Vec::new();
    };
    let me = Seat::from_index(i);
    let Some(sampler) = Sampler::seeing(view, notes, me, shown) else {
        return Vec::new();
    };
    let mut rng = Rng::new(seed);
    let mut rows = Vec::new();
    for _ in 0..worlds * 4 {
        if rows.len() == worlds as usize {
            break;
        }
        if let Some(world) = sampler.world(view, notes, &mut rng) {
            rows.push(values(&world, me, choices));
        }
    }
    rows
}

/// [`world_values`]' row for the true game (`game`, every hand in it), built the same way as
/// a sampled one (every other seat's hand shown): to the analyser the true game is one more
/// game the seat's view allows, and under honest play its values are drawn like the samples'.
pub(crate) fn true_values(
    view: &View,
    notes: &Notes,
    game: &Game,
    choices: &[Action],
) -> Option<Vec<Option<f64>>> {
    let Viewer::Seat(i) = view.viewer else {
        return None;
    };
    let me = Seat::from_index(i);
    let shown: Vec<(Seat, Vec<Card>)> = Seat::ALL
        .into_iter()
        .filter(|&s| s != me)
        .map(|s| (s, game.hand(s).cards()))
        .collect();
    let sampler = Sampler::seeing(view, notes, me, &shown)?;
    let world = sampler.world(view, notes, &mut Rng::new(0))?;
    Some(values(&world, me, choices))
}

/// Each choice by `me` in `world`, played to the end: its team's points.
fn values(world: &Game, me: Seat, choices: &[Action]) -> Vec<Option<f64>> {
    choices
        .iter()
        .map(|choice| {
            let mut game = world.clone();
            game.apply(me, Actor::Bot, choice.clone()).ok()?;
            play_out(&mut game, me.team())
        })
        .collect()
}

/// Who holds the cards the seat has not seen, and how many each.
struct Sampler {
    me: Seat,
    /// The cards played by each seat (seen).
    played: [Hand; 6],
    /// The unseen cards.
    pool: Vec<Card>,
    /// Cards each seat holds now (or, for a failed burner, had made void) and the sampler
    /// deals (none to a seat whose hand is shown).
    need: [usize; 6],
    /// Hands held as they are (the analyser's question: what if the seat saw them?).
    shown: [Option<Vec<Card>>; 6],
}

impl Sampler {
    fn new(view: &View, notes: &Notes, me: Seat) -> Option<Sampler> {
        Sampler::seeing(view, notes, me, &[])
    }

    /// A sampler with the hands of the seats in `shown` as they are.
    fn seeing(
        view: &View,
        notes: &Notes,
        me: Seat,
        shown: &[(Seat, Vec<Card>)],
    ) -> Option<Sampler> {
        let played = notes.played();
        let hand = view.hand.as_ref()?;
        let mut pool: Hand = canonical_deck(6, &[Rank::THREE]).into_iter().collect();
        let shown_cards = shown.iter().flat_map(|(_, h)| h.iter().copied());
        for c in hand
            .iter()
            .copied()
            .chain(played.iter().flat_map(Hand::iter))
            .chain(shown_cards)
        {
            if !pool.remove(c) {
                return None;
            }
        }
        let mut held: [Option<Vec<Card>>; 6] = Default::default();
        for (s, h) in shown {
            held[s.index()] = Some(h.clone());
        }
        let mut need = [0usize; 6];
        for s in Seat::ALL.into_iter().filter(|&s| s != me) {
            let left = 50usize.checked_sub(played[s.index()].len())?;
            need[s.index()] = match &held[s.index()] {
                // A shown hand must be what the seat can still hold.
                Some(h) if h.len() > left => return None,
                Some(_) => 0,
                None => left,
            };
        }
        if need.iter().sum::<usize>() != pool.len() {
            return None;
        }
        Some(Sampler {
            me,
            played,
            pool: pool.cards(),
            need,
            shown: held,
        })
    }

    /// Deals the pool: jokers first, to seats that may hold them (not a failed burner).
    fn deal(&self, view: &View, rng: &mut Rng) -> Option<[Vec<Card>; 6]> {
        let failed = |s: usize| view.players[s].status == Status::Failed;
        let joker = |c: Card| strength(c).is_some_and(|x| x >= SMALL);
        let mut cards = self.pool.clone();
        rng.shuffle(&mut cards);
        cards.sort_by_key(|&c| !joker(c));
        let mut left = self.need;
        let mut out: [Vec<Card>; 6] = Default::default();
        for c in cards {
            let may = |s: usize| left[s] > 0 && !(joker(c) && failed(s));
            let room: usize = (0..6).filter(|&s| may(s)).map(|s| left[s]).sum();
            if room == 0 {
                return None;
            }
            let mut r = rng.below(room);
            for s in (0..6).filter(|&s| may(s)) {
                if r < left[s] {
                    left[s] -= 1;
                    out[s].push(c);
                    break;
                }
                r -= left[s];
            }
        }
        Some(out)
    }

    /// A game at the seat's decision: the dealt hands plus what each seat played, dealt anew
    /// and replayed step by step. `None` if the engine refuses a step or the result is not
    /// what the seat sees.
    fn world(&self, view: &View, notes: &Notes, rng: &mut Rng) -> Option<Game> {
        let dealt = self.deal(view, rng)?;
        let hands: [Vec<Card>; 6] = std::array::from_fn(|s| {
            let now = if s == self.me.index() {
                view.hand.clone().unwrap_or_default()
            } else if let Some(h) = &self.shown[s] {
                h.clone()
            } else {
                dealt[s].clone()
            };
            self.played[s].iter().chain(now).collect()
        });
        let deal = GoujiDeal {
            game: view.game,
            hands,
            order_hash: String::new(),
        };
        let mut game = Game::new(&deal, view.ruleset.clone());
        for step in notes.steps() {
            game.apply(step.seat, Actor::Bot, step.action.clone())
                .ok()?;
        }
        let mut replayed = View::of(&game, view.viewer);
        // Referees' deductions and the clock's warning are not actions a seat sees replayed.
        replayed.deducted = view.deducted;
        replayed.warned = view.warned;
        (replayed == *view).then_some(game)
    }
}

/// The choice among the 普通 policy's `most` candidates that does best, on average over
/// `worlds` games the view allows with the seats in `shown` holding their hands as they are:
/// what a seat that sees those hands would play (the fair-play calibration's cheat). `None`:
/// not this seat's turn.
pub fn decide_seeing(
    view: &View,
    notes: &Notes,
    shown: &[(Seat, Vec<Card>)],
    most: usize,
    worlds: u32,
    seed: u64,
) -> Option<Action> {
    let mut candidates = club::candidates(view, &seen_of(notes), most);
    if candidates.len() <= 1 || !notes.complete() {
        return candidates.into_iter().next();
    }
    let rows = world_values(view, notes, shown, &candidates, worlds, seed);
    let mean = |c: usize| {
        let v: Vec<f64> = rows.iter().filter_map(|r| r[c]).collect();
        if v.is_empty() {
            f64::NEG_INFINITY
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    let mut best = 0;
    for c in 1..candidates.len() {
        if mean(c) > mean(best) {
            best = c;
        }
    }
    Some(candidates.swap_remove(best))
}
