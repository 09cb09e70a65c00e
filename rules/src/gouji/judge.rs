//! 裁判问答 (the referee's questions): is it one set and a 级牌; does one set beat another.
//!
//! Exactly two forms, one JSON object each:
//!
//! - `{"game":"gouji","set":["SK","HK"]}` → `{"valid":true,"gouji":true}`, or
//!   `{"valid":false,"code":"mixed_ranks","message":"…","message_en":"…"}`;
//! - `{"game":"gouji","top":["SK","HK"],"play":["SA","C2"]}` → `{"beats":true}`; the bare
//!   comparison, ignoring 对头 and burning. If either is not a set:
//!   `{"beats":false,"code":"…","message":"…"}`.
//!
//! Cards no deal can hold (seven ♠K in a set: six decks hold six) are refused in both forms,
//! code `too_many_copies` ([`Question::impossible`]).

use serde::{Deserialize, Serialize};

use crate::cards::{beyond_decks, Card};
use crate::deal::GOUJI_DECKS;
use crate::Explain;

use super::beat::beats;
use super::error::RuleError;
use super::ruleset::Ruleset;
use super::set::shape_of;

/// A question, as read from JSON (the `"game"` field is ignored).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Question {
    /// Is it one set, and is it a 级牌 (ignoring who plays it)?
    Set { set: Vec<Card> },
    /// Does `play` beat `top`?
    Beats { top: Vec<Card>, play: Vec<Card> },
}

/// The answer, serialised exactly in the forms above.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    Set {
        valid: bool,
        gouji: bool,
    },
    NotASet {
        valid: bool,
        code: String,
        message: String,
        message_en: String,
    },
    Beats {
        beats: bool,
    },
    BeatsNotASet {
        beats: bool,
        code: String,
        message: String,
    },
}

/// Answers a question under `zaozhuang-2017`.
pub fn answer(q: &Question) -> Answer {
    answer_with(q, &Ruleset::zaozhuang_2017())
}

impl Question {
    /// Why no deal can hold the question's cards, if none can: six decks hold six of each card
    /// (jokers too), so no set holds seven ♠K, nor do the top set and the play together (both
    /// are on the table at once).
    pub fn impossible(&self) -> Option<RuleError> {
        let over = |cards: &[&[Card]], together: bool| {
            beyond_decks(cards.iter().flat_map(|c| c.iter()), GOUJI_DECKS).map(|(card, count)| {
                RuleError::TooManyCopies {
                    card,
                    count,
                    together,
                }
            })
        };
        match self {
            Question::Set { set } => over(&[set], false),
            Question::Beats { top, play } => over(&[top], false)
                .or_else(|| over(&[play], false))
                .or_else(|| over(&[top, play], true)),
        }
    }
}

/// Answers a question under a ruleset (大花两打一 is an option). A question whose cards no deal
/// can hold is refused first ([`Question::impossible`]), as a set that is not one is.
pub fn answer_with(q: &Question, ruleset: &Ruleset) -> Answer {
    if let Some(e) = q.impossible() {
        return match q {
            Question::Set { .. } => Answer::NotASet {
                valid: false,
                code: e.code().to_string(),
                message: e.zh(),
                message_en: e.en(),
            },
            Question::Beats { .. } => Answer::BeatsNotASet {
                beats: false,
                code: e.code().to_string(),
                message: e.zh(),
            },
        };
    }
    match q {
        Question::Set { set } => match shape_of(set) {
            Ok(shape) => Answer::Set {
                valid: true,
                gouji: shape.is_gouji(),
            },
            Err(e) => {
                let e = RuleError::from(e);
                Answer::NotASet {
                    valid: false,
                    code: e.code().to_string(),
                    message: e.zh(),
                    message_en: e.en(),
                }
            }
        },
        Question::Beats { top, play } => match (shape_of(top), shape_of(play)) {
            (Ok(t), Ok(p)) => Answer::Beats {
                beats: beats(&p, &t, ruleset.two_for_one).is_ok(),
            },
            (Err(e), _) | (_, Err(e)) => {
                let e = RuleError::from(e);
                Answer::BeatsNotASet {
                    beats: false,
                    code: e.code().to_string(),
                    message: e.zh(),
                }
            }
        },
    }
}
