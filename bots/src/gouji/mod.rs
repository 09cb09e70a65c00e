//! 够级 players. Each sees only its seat's view: [`choose`] takes the view and nothing else;
//! a [`Player`] also remembers every view its seat received (each action of the game), as a
//! person at the table remembers the sets played.

pub mod all_seeing;
pub mod club;
pub mod expert;
pub mod notes;

use rules::gouji::legal::legal_from_view;
use rules::gouji::{Action, View};

use crate::level::{Budget, Decision, Level};
use crate::rng::Rng;
pub use club::Seen;
pub use notes::Notes;

/// The action of the seat whose view this is, at this level, or `None` if it is not to act.
/// Knows only this view: past the first move of a game the Expert plays as 普通 (it needs a
/// [`Player`] that saw the game to rebuild it). The same view, level, playout budget and seed
/// give the same action.
pub fn choose(view: &View, level: Level, budget: impl Into<Budget>, seed: u64) -> Option<Action> {
    choose_with(view, &Notes::from_view(view), level, budget.into(), seed).action
}

/// [`choose`] with what the seat remembers; also tells how hard the Expert searched.
pub fn choose_with(
    view: &View,
    notes: &Notes,
    level: Level,
    budget: Budget,
    seed: u64,
) -> Decision<Action> {
    match level {
        Level::Beginner => {
            let legal = legal_from_view(view);
            if legal.is_empty() {
                return Decision::default();
            }
            let i = Rng::new(seed).below(legal.len());
            Decision::plain(legal.into_iter().nth(i))
        }
        Level::Club => Decision::plain(club::decide(view, &expert::seen_of(notes))),
        Level::Expert => expert::decide(view, notes, budget, seed),
    }
}

/// A computer player in one seat: [`crate::player::Player`] with the 够级 notes.
pub type Player = crate::player::Player<Notes>;

impl crate::player::Memory for Notes {
    type Game = rules::gouji::Game;
    fn observe(&mut self, view: &View) {
        Notes::observe(self, view)
    }
    fn observe_owned(&mut self, view: View) {
        Notes::observe_owned(self, view)
    }
    fn decide(&self, view: &View, level: Level, budget: Budget, seed: u64) -> Decision<Action> {
        choose_with(view, self, level, budget, seed)
    }
}
