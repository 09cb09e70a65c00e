//! paiju's players: they see only their own seat's view.
//!
//! - [`Level`]: 入门 (random legal), 普通 (club heuristics), 高手 (determinized Monte-Carlo);
//!   [`Budget`]: how long the Expert thinks (playouts for reproducible runs, or wall time).
//! - [`shengji`] and [`gouji`]: `choose(view, level, budget, seed)` for each game, and a
//!   `Player` that also remembers what its seat's earlier views showed. Each has `club`
//!   (heuristics), `expert` (search) and `notes` (memory) modules.
//! - [`search`]: the Expert's determinized Monte-Carlo with successive halving (both games).
//! - [`fairplay`]: does a pair play as if it saw its partner's cards? The per-decision
//!   evidence, the per-pair statistic and its calibration by simulated sessions.
//! - [`arena`]: duplicate matches between levels on all cores, with confidence intervals
//!   (`paiju arena`).
//! - [`SeatPlayer`]: what a table server holds for a computer seat (a `Player` of either game,
//!   or [`Simplest`] for a game without players of its own).
//! - [`simplest`]: the simplest legal-play bot: the first action `Engine::legal_from_view`
//!   offers (the engines list the lowest legal play first); the clock's last resort.
//! - [`client`]: any [`SeatPlayer`] over a real WebSocket, speaking the protocol like a browser
//!   (`paiju bot`, the load generator, the end-to-end tests).
//! - [`http`]: a tiny HTTP/1.1 client for the lobby API (tests and the load generator).
//! - [`load`]: the load generator behind `paiju load`.

pub mod arena;
pub mod client;
pub mod event_load;
pub mod fairplay;
pub mod gouji;
pub mod http;
pub mod level;
pub mod load;
pub mod player;
pub mod rng;
pub mod search;
pub mod shengji;

pub use level::{Budget, Decision, Level};

use rules::Engine;

/// The simplest legal-play bot: given only its seat's view, the first legal action.
pub fn simplest<E: Engine>(view: &E::View) -> Option<E::Action> {
    E::legal_from_view(view).into_iter().next()
}

/// A computer player for one seat of the game `E`, as a table server holds it: it is shown
/// every view its seat is sent, in order, and asked to act on its seat's turn. `Send`, so the
/// table can let it think on another thread and take it back.
pub trait SeatPlayer<E: Engine>: Send {
    /// Remembers what the view shows.
    fn observe(&mut self, view: &E::View);
    /// [`SeatPlayer::observe`] with a view the caller no longer needs: a player that keeps
    /// views (够级's notes keep the last one) takes it instead of a copy.
    fn observe_owned(&mut self, view: E::View) {
        self.observe(&view)
    }
    /// Decides for the view's seat within `budget` (高手 only; the others ignore it), with
    /// `seed` for any randomness: the same notes, view, playout budget and seed give the same
    /// action. `None` when the seat is not to act.
    fn act(&mut self, view: &E::View, budget: Budget, seed: u64) -> Option<E::Action>;
    /// Whether [`SeatPlayer::observe`] does anything (a client need not read views for a
    /// player that forgets them).
    fn remembers(&self) -> bool {
        true
    }
}

/// [`simplest`] as a seat's player: for games without players of their own (a server's test
/// games).
#[derive(Clone, Copy, Debug, Default)]
pub struct Simplest;

impl<E: Engine> SeatPlayer<E> for Simplest {
    fn observe(&mut self, _view: &E::View) {}
    fn remembers(&self) -> bool {
        false
    }
    fn act(&mut self, view: &E::View, _budget: Budget, _seed: u64) -> Option<E::Action> {
        simplest::<E>(view)
    }
}
