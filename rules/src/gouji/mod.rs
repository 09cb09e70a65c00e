//! 够级 (Gouji), ruleset `zaozhuang-2017`: see docs/rules-gouji.md.
//!
//! - [`set`]: 一套, normalisation, 级牌 thresholds; [`beat`]: the beating rule, 大花两打一.
//! - [`game`]: the state machine, with [`trick`] (passes, 让, the last word) and [`burn`]
//!   (烧牌, 解烧, 反烧, 留牌, the failed burn); [`score`]: places and team points.
//! - [`action`], [`event`], [`view`], [`error`]: what goes in and out, per viewer, with reasons.
//! - [`legal`]: legal actions from a view; [`judge`]: the referee's two questions.
//! - [`ruleset`]: every decision of ours as a named option.

pub mod action;
pub mod beat;
pub mod burn;
mod engine;
pub mod error;
pub mod event;
pub mod game;
pub mod judge;
pub mod legal;
pub mod ruleset;
pub mod score;
pub mod seat;
pub mod set;
pub mod trick;
pub mod view;

pub use action::{Action, Offence, Ruling};
pub use beat::{beats, BeatError};
pub use error::RuleError;
pub use event::{CardCount, Event};
pub use game::{Game, Phase, Status};
pub use judge::{answer, Answer, Question};
pub use ruleset::{BurnOfferOrder, FillOrder, KeepCards, Ruleset, Scoring, TwoForOne};
pub use score::{Outcome, Place, Score};
pub use seat::{Seat, Team};
pub use set::{GoujiSet, SetError, Shape};
pub use trick::Top;
pub use view::{GoujiThresholds, PlayerView, Prompt, TopView, View};
