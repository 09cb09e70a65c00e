//! 80分 (升级), ruleset `fujian-2024`: see docs/rules-shengji.md.
//!
//! A map, by rule:
//!
//! - [`order`] 主与牌序: trumps, effective suits, strengths, adjacency for tractors.
//! - [`unit`](mod@unit) 牌型: a lead cut into singles, pairs and tractors.
//! - [`throw`] 甩牌: does a throw stand, and what a failed one costs and forces.
//! - [`ladder`] 跟牌的阶梯: the shapes a follower must match, rung by rung.
//! - [`follow`] 跟牌: follow legality with its reason, legal-play enumeration, the lowest play.
//! - [`trick`] 一轮: who wins a trick, and its points.
//! - [`kitty`] 底牌: the bury, 抠底 multipliers.
//! - [`board`] 一副牌: the state machine (`Board::apply`), [`event`] its actions and events,
//!   [`view`] per-seat views and legal actions from a view, [`engine`] the server's trait.
//! - [`ruleset`] 规则选项: every decision as a named option; [`error`] 违例: why an action was
//!   refused; [`judge`] 裁判问答: the referee's questions.

pub mod board;
pub mod engine;
pub mod error;
pub mod event;
pub mod follow;
pub mod judge;
pub mod kitty;
pub mod ladder;
pub mod order;
mod played;
pub mod ruleset;
pub mod seat;
pub mod throw;
pub mod trick;
pub mod unit;
pub mod view;

pub use board::{Board, SeatPlay, TrickRecord, MAX_RULING_POINTS};
pub use error::{Counted, Phase, RuleError};
pub use event::{Action, BlockedUnit, Event, Offence, ThrowFailure, UnitChoice};
pub use follow::{
    build_follow, check_follow, each_legal_follow, legal_follows, lowest_follow, playable_follows,
};
pub use judge::{answer, answer_with, Answer, Question, Verdict};
pub use kitty::{default_bury, kitty_multiplier, KITTY_SIZE};
pub use ladder::{best_rung, best_rung_by, PairSlots, Parts};
pub use order::{Lane, Order};
pub use ruleset::{
    KittyMultiplier, LastTrickView, LeadParse, Ruleset, RulingEnd, ThrowBlockers, ThrowCompare,
    ThrowFollow, TimeoutCount, TimeoutPlay, TimeoutScope,
};
pub use seat::Seat;
pub use throw::{check_throw, Blocked, FailedThrow, Forced, ThrowVerdict};
pub use trick::{trick_points, trick_winner};
pub use unit::{parse_lead, parse_lead_for, Lead, Unit, UnitKind};
pub use view::{legal_from_view, legal_leads, PendingChoice, View, FOLLOW_CAP};
