//! paiju's players: they see only their own seat's view.
//!
//! - [`Level`]: 入门 (random legal), 普通 (club heuristics), 高手 (determinized Monte-Carlo);
//!   [`Budget`]: how long the Expert thinks (playouts for reproducible runs, or wall time).
//! - [`shengji`] and [`gouji`]: `choose(view, level, budget, seed)` for each game, and a
//!   `Player` that also remembers what its seat's earlier views showed. Each has `club`
//!   (heuristics), `expert` (search) and `notes` (memory) modules.
//! - [`search`]: the Expert's determinized Monte-Carlo with successive halving (both games).
//! - [`arena`]: duplicate matches between levels on all cores, with confidence intervals.
//! - [`simplest`]: the simplest legal-play bot, used in seats by the table server: the first
//!   action `Engine::legal_from_view` offers (the engines list the lowest legal play first).
//! - [`client`]: the same bot over a real WebSocket, speaking the protocol like a browser.
//! - [`http`]: a tiny HTTP/1.1 client for the lobby API (tests and the load generator).
//! - [`load`]: the load generator behind `paiju load`.

pub mod arena;
pub mod client;
pub mod gouji;
pub mod http;
pub mod level;
pub mod load;
pub mod rng;
pub mod search;
pub mod shengji;

pub use level::{Budget, Decision, Level};

use rules::Engine;

/// The simplest legal-play bot: given only its seat's view, the first legal action.
pub fn simplest<E: Engine>(view: &E::View) -> Option<E::Action> {
    E::legal_from_view(view).into_iter().next()
}
