//! paiju's competitions (赛事): the pure core of running one, no I/O, no async, no clocks.
//!
//! The server and the CLI (`paiju event movement`, `paiju event score`) call these functions and
//! move their serde types over the wire; every rule comes from the competition texts and every
//! choice of ours where they are silent is listed in docs/tournaments.md, marked **\[decision\]**.
//!
//! 80分 duplicate pairs (计副制, Mitchell, 双冠军):
//!
//! - [`mod@movement`]: the Mitchell movement (米切尔移位) for any table count — odd, even with a skip
//!   or a relay and bye stand, a phantom pair for a half table — and the printable table card.
//! - [`mp`]: [`Mp`], match points (比赛分) as exact fractions, so Neuberg thirds never make or
//!   break a tie by rounding.
//! - [`matchpoints`]: one board across the tables: 2 per result beaten, 1 per tie, within a
//!   direction; Neuberg for boards played fewer times; artificial scores (A, A+, A−).
//! - [`ranking`]: NS and EW ranked apart by total, best board, second best, …; places that leave
//!   the next one empty after a tie (no shared places past the tie-breaks); prize places by field
//!   size; disqualified entries' places filled in order.
//! - [`mod@score`]: the JSON contract of `paiju event score`: results in, board scores and the two
//!   rankings out, every bad input refused with the reason.
//!
//! 够级 team events:
//!
//! - [`gouji`]: a team match of six games, the seeded group draw and knockout rounds, the final of
//!   six teams on three tables (A teams 1→2→3, B teams 3→2→1, one deal per game at every table),
//!   rankings with 头科 and 大落 tie-breaks and the extra game as an explicit outcome.
//!
//! The competition (赛事) itself:
//!
//! - [`competition`]: a competition as a pure state machine over its log, one type a kind
//!   ([`competition::Duplicate`] for 80分 pairs, [`competition::Teams`] for 够级) behind the
//!   [`competition::Competition`] trait; what the server runs, opening the tables it names.
//!
//! [`Error`] is every refusal of the library, with a stable code and a message in Chinese and
//! English; [`competition::Error`] is a competition's.

pub mod competition;
pub mod error;
pub mod gouji;
pub mod matchpoints;
pub mod movement;
pub mod mp;
pub mod ranking;
pub mod score;
pub mod seat;

pub use error::{Error, ErrorWire};
pub use matchpoints::Artificial;
pub use movement::{movement, movement_card, plan, Movement, Options, Planned, Variant, Warning};
pub use mp::Mp;
pub use score::{score, Prizes, ScoreInput, ScoreOutput, MAX_POINTS};
pub use seat::{Direction, Seat};
