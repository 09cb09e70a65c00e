//! 一轮 (tricks): the top set and who may still answer it.
//!
//! A pass is final for the rest of the trick, except that a player may act again when their
//! 对头 plays a 级牌, and the owner's 对头 always has the last word on the top set. 让 lets the
//! others try first; the decision comes back if nobody beats the set. In 四户乱缠 passes are not
//! final: a trick ends when every other player has passed the top set in a row.

use serde::{Deserialize, Serialize};

use crate::cards::Card;

use super::set::Shape;
use super::Seat;

/// The set to beat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Top {
    pub cards: Vec<Card>,
    pub shape: Shape,
    pub owner: Seat,
    /// A 级牌 as played: the owner had a head and it was not their last set (so it binds the
    /// others: only the owner's 对头 may beat it by normal play).
    pub gouji: bool,
    /// When this set is a burn not yet settled: the 级牌 it burned, restored if the burn later
    /// fails. The burn stands when this set wins the trick.
    pub burned: Option<Box<Top>>,
}

impl Top {
    /// The same set without its burn record (what is kept and restored).
    pub fn plain(&self) -> Top {
        Top {
            burned: None,
            ..self.clone()
        }
    }
}

/// Who has answered what in the current trick.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trick {
    /// `None` before the lead.
    pub top: Option<Top>,
    /// Passed in this trick (final, except for the exceptions above).
    pub passed: [bool; 6],
    /// Passed (or declined a burn of) the current top set; cleared when the top changes. Makes
    /// the 对头's last word once per set, and counts the passes in a row of 四户乱缠.
    pub responded: [bool; 6],
    /// The 对头 who yielded (让) the current top set, until it comes back or someone beats it.
    pub yielded: Option<Seat>,
    /// The yield came back: the 对头 must now beat or pass.
    pub yield_returned: bool,
    /// The 对头 conceded the current top set: burn offers were made (once per set).
    pub offers_done: bool,
}

impl Trick {
    /// A fresh trick with `top` on the table (a lead, or a restored 级牌).
    pub fn opened_with(top: Top) -> Trick {
        Trick {
            top: Some(top),
            ..Trick::default()
        }
    }

    /// A new top set in the same trick: the answers to the old one no longer count.
    pub fn replace_top(&mut self, top: Top) {
        self.top = Some(top);
        self.responded = [false; 6];
        self.yield_returned = false;
        self.offers_done = false;
    }
}
