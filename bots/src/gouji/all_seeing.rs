//! 看得见所有牌 (the all-seeing analyser, for fair play) in 够级: at one decision of a stored
//! game, the value of each choice two ways — with every hand known, and with only what that
//! seat could know (its own hand and what it saw played: the 高手 search over the games its
//! view allows). A team whose choices keep agreeing with the first where the second cannot
//! tell the choices apart plays as if it saw cards it should not; the referee decides, never
//! this module.
//!
//! How good each value is:
//! - **All-seeing, played out**: the choice is made in the true game and the game played to
//!   its end by the 普通 policy for all six seats (each seeing only its own view, as honest
//!   players would go on). One deterministic playout per choice: a bound on what the choice is
//!   worth against honest play, not an optimum. No exact search: six hands of up to 50 cards
//!   leave no endgame small enough until the last few sets, and a game's points (头科, 落,
//!   闷) are decided by the whole race, not by one trick's cards.
//! - **Own view**: the mean over `worlds` sampled games (the unseen cards dealt to the seats
//!   that may hold them, every action the seat saw replayed and checked against its view) of
//!   the choice played out the same way.
//!
//! Values are the points of the seat's team at the end of the game (the score's, before any
//! referee's deduction): higher is better for the seat. The choices are the 普通 policy's
//! candidates (sets by shape: suits never matter in 够级) with the play made among them.

use rules::cards::Card;
use rules::gouji::set::{strength, Counts};
use rules::gouji::{Action, Game, Seat, View};
use rules::{Actor, Viewer};

use super::club;
use super::expert::{self, seen_of};
use super::notes::Notes;
use crate::fairplay::{Evidence, Sight};
use crate::rng::Rng;

/// Most choices weighed at one decision (the one played is always among them).
pub const MOST_CHOICES: usize = 8;

/// One choice at the decision, valued both ways.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub action: Action,
    /// The seat's team's points, the choice made in the true game and played out (`None`:
    /// the playout did not finish).
    pub all_seeing: Option<f64>,
    /// Its mean over the games the seat's view allows (`None`: none could be sampled).
    pub own_view: Option<f64>,
}

/// A decision analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub seat: Seat,
    /// The choices, the 普通 policy's first.
    pub choices: Vec<Choice>,
    /// Games sampled for the own-view values.
    pub worlds: u32,
}

impl Analysis {
    /// The choice best with every hand known (the first of equals).
    pub fn best_all_seeing(&self) -> Option<&Choice> {
        self.best_by(|c| c.all_seeing)
    }

    /// The choice best on the seat's own view (the first of equals).
    pub fn best_own_view(&self) -> Option<&Choice> {
        self.best_by(|c| c.own_view)
    }

    fn best_by(&self, value: impl Fn(&Choice) -> Option<f64>) -> Option<&Choice> {
        let mut best: Option<(&Choice, f64)> = None;
        for c in &self.choices {
            let Some(v) = value(c) else { continue };
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((c, v));
            }
        }
        best.map(|(c, _)| c)
    }
}

/// What `seat` saw of a game: `steps` applied to `dealt` in order, the seat's view taken in
/// after each (as a seat at the table receives one after every action). The game after the
/// steps and the seat's notes; `None` if a step is refused.
pub fn replay_for(
    dealt: &Game,
    steps: impl IntoIterator<Item = (Seat, Actor, Action)>,
    seat: Seat,
) -> Option<(Game, Notes)> {
    let mut game = dealt.clone();
    let mut notes = Notes::new();
    let viewer = Viewer::Seat(seat.index());
    notes.observe_owned(View::of(&game, viewer));
    for (s, actor, action) in steps {
        game.apply(s, actor, action).ok()?;
        notes.observe_owned(View::of(&game, viewer));
    }
    Some((game, notes))
}

/// Analyses the decision of the seat to act in `game` (the true game), with `notes` (what that
/// seat saw: [`replay_for`]); `played` (the action taken there, if any) is always among the
/// choices. `worlds` games are sampled for the own-view values, from `seed`. `None`: no
/// decision here (nobody to act, a single choice) or the seat's notes are not complete.
pub fn analyse(
    game: &Game,
    notes: &Notes,
    played: Option<&Action>,
    worlds: u32,
    seed: u64,
) -> Option<Analysis> {
    let (seat, view, choices) = decision(game, notes, played)?;
    let all = expert::true_values(&view, notes, game, &choices)?;
    let rows = expert::world_values(&view, notes, &[], &choices, worlds, seed);
    let own = (0..choices.len()).map(|c| {
        let seen: Vec<f64> = rows.iter().filter_map(|r| r[c]).collect();
        (!seen.is_empty()).then(|| seen.iter().sum::<f64>() / seen.len() as f64)
    });
    Some(Analysis {
        seat,
        choices: choices
            .into_iter()
            .zip(all)
            .zip(own)
            .map(|((action, all_seeing), own_view)| Choice {
                action,
                all_seeing,
                own_view,
            })
            .collect(),
        worlds: rows.len() as u32,
    })
}

/// What the play made in `game` (the true game) says of the seat's sight
/// ([`crate::fairplay`]), as the 80分 analyser's `evidence` does: whether it was among the best
/// in the true game, how often among the best in games the seat's view allows, and how often
/// in those games when its two teammates' hands are the true ones. `screen` games decide
/// whether the decision is worth a deep look; `worlds` fresh games then give the chances.
/// `None`: no decision here, or screened out.
pub fn evidence(
    game: &Game,
    notes: &Notes,
    played: &Action,
    screen: u32,
    worlds: u32,
    seed: u64,
) -> Option<Evidence> {
    let (seat, view, choices) = decision(game, notes, Some(played))?;
    let made = choices.iter().position(|c| same_move(c, played))?;
    let sight = |shown: &[(Seat, Vec<Card>)], n: u32, k: u64| {
        let rows = expert::world_values(&view, notes, shown, &choices, n, Rng::mix(&[seed, k]));
        Sight::of(&rows, made)
    };
    let first = sight(&[], screen, 0);
    if !first.tells() {
        return None;
    }
    let deep = sight(&[], worlds, 1);
    let team: Vec<(Seat, Vec<Card>)> = Seat::ALL
        .into_iter()
        .filter(|&s| s != seat && s.team() == seat.team())
        .map(|s| (s, game.hand(s).cards()))
        .collect();
    let with_team = sight(&team, worlds, 2);
    let truth = Sight::of(&[expert::true_values(&view, notes, game, &choices)?], made);
    Evidence::of(seat.index(), &truth, &deep, &with_team)
}

/// The seat to act, its view and the choices to weigh (the play made among them, in its own
/// cards), or `None` when there is nothing to weigh.
fn decision(
    game: &Game,
    notes: &Notes,
    played: Option<&Action>,
) -> Option<(Seat, View, Vec<Action>)> {
    let seat = game.phase().seat()?;
    let view = View::of(game, Viewer::Seat(seat.index()));
    if view.turn != Some(seat) || !notes.complete() {
        return None;
    }
    if played.is_some_and(|p| !is_choice(p)) {
        return None;
    }
    let mut choices = club::candidates(&view, &seen_of(notes), MOST_CHOICES);
    if let Some(p) = played {
        match choices.iter().position(|c| same_move(c, p)) {
            Some(i) => choices[i] = p.clone(),
            None => {
                if choices.len() == MOST_CHOICES {
                    choices.pop();
                }
                choices.push(p.clone());
            }
        }
    }
    (choices.len() >= 2).then_some((seat, view, choices))
}

/// A move of the game (not a question, the clock or a ruling).
fn is_choice(a: &Action) -> bool {
    matches!(
        a,
        Action::Play { .. } | Action::Burn { .. } | Action::Pass | Action::Yield | Action::Decline
    )
}

/// The same move: the same kind, and sets of the same ranks (suits never matter in 够级).
pub fn same_move(a: &Action, b: &Action) -> bool {
    let counts = |cards: &[Card]| {
        let mut c = Counts::default();
        for &card in cards {
            if let Some(x) = strength(card) {
                c.0[x as usize] += 1;
            }
        }
        c.0
    };
    match (a, b) {
        (Action::Play { cards: x }, Action::Play { cards: y })
        | (Action::Burn { cards: x }, Action::Burn { cards: y }) => counts(x) == counts(y),
        _ => a == b,
    }
}

/// A seed for a decision's sampled games: the same decision is analysed the same way.
pub fn seed_of(game: &Game, seat: Seat, step: u64) -> u64 {
    Rng::mix(&[game.number() as u64, step, seat.index() as u64, 0x6775])
}

#[cfg(test)]
mod tests;
