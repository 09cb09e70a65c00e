//! The referee's desk. Every tool calls the same engine code the tables use.
//!
//! - [`deal`]: `paiju deal` re-deals a board from its seed; [`judge`]: `paiju judge` answers rule
//!   questions.
//! - [`replayed`]: a stored table checked (its hash chain) and re-applied through its engine,
//!   entry by entry with each entry's actor: what every tool below starts from.
//! - [`replay`]: `paiju replay`, the game as it happened, every hand shown, in Chinese or
//!   English or as JSON; `--at N` the full state after action N.
//! - [`explain`]: `paiju explain`, why a logged action was legal (the rules that bound it, the
//!   alternatives the engine refuses), or why a hypothetical one would be refused.
//! - [`all_seeing`]: `paiju explain --all-seeing`, a decision valued with every hand known
//!   and on the seat's own view (the fair-play question).
//! - [`board_file`]: the plain-text board format (docs/referee.md), `paiju export` and
//!   `paiju import`.
//! - [`record_card`]: `paiju record-card`, the 升级双人赛随牌记录卡 of an 80分 board as
//!   printable HTML.
//! - [`words`]: events and actions told in Chinese and English; [`lang`]: the languages.
//! - [`desk`]: what the desk needs of a game ([`desk::DeskGame`]: 80分 and 够级 are), and
//!   every command of one game with its type erased ([`desk::Desk`]), which the registry of
//!   games (`Games`) holds: the desk dispatches by a table's game through it, never by a
//!   game's name.
//! - [`command`]: the commands, from their parsed arguments to what they print.

pub mod all_seeing;
pub mod board_file;
pub mod command;
pub mod deal;
pub mod desk;
pub mod explain;
pub mod fairplay;
pub mod judge;
pub mod lang;
pub mod record_card;
pub mod replay;
pub mod replayed;
pub mod words;
