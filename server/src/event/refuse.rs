//! The event module's two kinds of refusal in words made where they arise: a request wrong in
//! itself (`bad`, 400) and one that is right but not now (`not_now`, 409 `event_state`). One
//! place for both, so the state machine, the 够级 parts and the runner say them alike.

use protocol::{Problem, Refusal, Words, Wrong};

/// A request wrong in itself: `400 bad_request`.
pub(super) fn bad(zh: impl Into<String>, en: impl Into<String>) -> Problem {
    Refusal::BadRequest(Wrong::Said(Words::new(zh, en))).into()
}

/// Not in the event's present state: `409 event_state`.
pub(super) fn not_now(zh: impl Into<String>, en: impl Into<String>) -> Problem {
    Refusal::EventState(Words::new(zh, en)).into()
}
