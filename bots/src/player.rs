//! A computer player in one seat, for either game: what its seat saw ([`Memory`]: the game's
//! notes) and the level and budget it plays at. The games differ only in their notes and their
//! `choose_with`; `shengji::Player` and `gouji::Player` are this with each game's notes.

use rules::Engine;

use crate::level::{Budget, Decision, Level};
use crate::SeatPlayer;

/// A game's seat memory: what it reads off each view, and how a seat with it decides.
pub trait Memory: Clone + std::fmt::Debug + Default + Send {
    type Game: Engine;
    /// Remembers what the view shows (called with every view, in order).
    fn observe(&mut self, view: &<Self::Game as Engine>::View);
    /// [`Memory::observe`] with a view the caller no longer needs.
    fn observe_owned(&mut self, view: <Self::Game as Engine>::View) {
        self.observe(&view)
    }
    /// The game's `choose_with` over these notes.
    fn decide(
        &self,
        view: &<Self::Game as Engine>::View,
        level: Level,
        budget: Budget,
        seed: u64,
    ) -> Decision<<Self::Game as Engine>::Action>;
}

/// A computer player in one seat for one board or game: give it every view the seat receives
/// ([`Player::observe`]) and ask it to act when the seat is to act ([`Player::act`]).
#[derive(Clone, Debug)]
pub struct Player<M: Memory> {
    pub level: Level,
    pub budget: Budget,
    notes: M,
    /// Playouts run so far (Expert), for the arena's figures.
    pub playouts: u64,
    /// Sampled deals dropped so far (Expert).
    pub rejected: u64,
}

impl<M: Memory> Player<M> {
    pub fn new(level: Level, budget: Budget) -> Player<M> {
        Player {
            level,
            budget,
            notes: M::default(),
            playouts: 0,
            rejected: 0,
        }
    }

    /// Remembers what the view shows (call with every view, in order).
    pub fn observe(&mut self, view: &<M::Game as Engine>::View) {
        self.notes.observe(view);
    }

    /// Observes the view and decides; `None` when the seat is not to act.
    pub fn act(
        &mut self,
        view: &<M::Game as Engine>::View,
        seed: u64,
    ) -> Option<<M::Game as Engine>::Action> {
        self.observe(view);
        let d = self.notes.decide(view, self.level, self.budget, seed);
        self.playouts += d.playouts as u64;
        self.rejected += d.rejected as u64;
        d.action
    }

    pub fn notes(&self) -> &M {
        &self.notes
    }
}

impl<M: Memory> SeatPlayer<M::Game> for Player<M> {
    fn observe(&mut self, view: &<M::Game as Engine>::View) {
        Player::observe(self, view)
    }
    fn observe_owned(&mut self, view: <M::Game as Engine>::View) {
        self.notes.observe_owned(view)
    }
    fn act(
        &mut self,
        view: &<M::Game as Engine>::View,
        budget: Budget,
        seed: u64,
    ) -> Option<<M::Game as Engine>::Action> {
        self.budget = budget;
        Player::act(self, view, seed)
    }
}
