//! paiju's players: they see only their own seat's view.
//!
//! - [`simplest`]: the simplest legal-play bot, used in seats by the table server: the first
//!   action `Engine::legal_from_view` offers (the engines list the lowest legal play first).
//! - [`client`]: the same bot over a real WebSocket, speaking the protocol like a browser.
//! - [`http`]: a tiny HTTP/1.1 client for the lobby API (tests and the load generator).
//! - [`load`]: the load generator behind `paiju load`.

pub mod client;
pub mod event_load;
pub mod http;
pub mod load;

use rules::Engine;

/// The simplest legal-play bot: given only its seat's view, the first legal action.
pub fn simplest<E: Engine>(view: &E::View) -> Option<E::Action> {
    E::legal_from_view(view).into_iter().next()
}
