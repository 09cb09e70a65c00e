//! 甩牌 (throws): a lead of several units of one effective suit stands only if no other player
//! (\[decision\] `throw_blockers`: partner included by default) could beat any one of its units: a
//! single by a higher single, a pair by a higher pair, a tractor by a higher tractor of at least
//! as many pairs, all in the same effective suit.
//!
//! 甩错牌: the thrower loses 10 points a card (at most 80) and must play the smallest blocked
//! unit instead (挡单出单、挡对出对; a blocked tractor counts with the pairs). If both a single and
//! a pair or tractor were blocked, the opponents choose (由对方指定) between the smallest blocked
//! single and the smallest blocked pair or tractor.

use super::ladder::PairSlots;
use super::order::Order;
use super::ruleset::{Ruleset, ThrowBlockers};
use super::seat::Seat;
use super::unit::{Lead, Unit};
use crate::cards::Hand;

/// The verdict on a lead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThrowVerdict {
    /// Nobody could beat any unit (a single unit always stands).
    Stands,
    /// Boxed: a lead that stands, nearly every lead, carries no room for a failure's lists.
    Fails(Box<FailedThrow>),
}

/// A failed throw: what it costs, what was blocked and by whom, what must be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedThrow {
    /// Points to the opponents.
    pub penalty: u32,
    /// Every blocked unit with the seats that could beat it (everyone sees them).
    pub blocked: Vec<Blocked>,
    pub forced: Forced,
}

/// A unit of the throw that someone could beat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    pub unit: Unit,
    /// In turn order after the thrower.
    pub by: Vec<Seat>,
}

/// What the thrower must play instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forced {
    /// The smallest blocked unit.
    Unit(Unit),
    /// Singles and pairs (or tractors) were blocked: the opponents choose.
    Choice { single: Unit, pair: Unit },
}

/// Judges a lead against the other hands. `others` are the other three seats with their hands,
/// in turn order after `leader`.
pub fn check_throw(
    order: &Order,
    rules: &Ruleset,
    lead: &Lead,
    leader: Seat,
    others: [(Seat, &Hand); 3],
) -> ThrowVerdict {
    if !lead.is_throw() {
        return ThrowVerdict::Stands;
    }
    let lane = lead.lane().index();
    // What each blocker holds in the lane: the highest card and the pairs (only a throw with
    // pairs needs those).
    let with_pairs = !lead.parts().is_empty();
    let mut holders: [(Seat, Option<u8>, PairSlots); 3] = [(leader, None, PairSlots::default()); 3];
    let mut n = 0;
    for (seat, hand) in others {
        if rules.throw_blockers == ThrowBlockers::Opponents && seat.same_side(leader) {
            continue;
        }
        let high = order
            .faces_of(lane)
            .iter()
            .rev()
            .find(|&&f| hand.count(f) > 0)
            .map(|&f| order.slot(f));
        let pairs = if with_pairs {
            PairSlots::of_hand(order, lane, hand).0
        } else {
            PairSlots::default()
        };
        holders[n] = (seat, high, pairs);
        n += 1;
    }
    let mut blocked = Vec::new();
    for unit in lead.units() {
        let by: Vec<Seat> = holders[..n]
            .iter()
            .filter(|(_, high, pairs)| beats(unit, *high, pairs))
            .map(|h| h.0)
            .collect();
        if !by.is_empty() {
            blocked.push(Blocked {
                unit: unit.clone(),
                by,
            });
        }
    }
    if blocked.is_empty() {
        return ThrowVerdict::Stands;
    }
    let smallest = |singles: bool| {
        blocked
            .iter()
            .map(|b| &b.unit)
            .filter(|u| (u.pairs() == 0) == singles)
            .min_by_key(|u| u.smallness())
            .cloned()
    };
    let forced = match (smallest(true), smallest(false)) {
        (Some(single), Some(pair)) => Forced::Choice { single, pair },
        (Some(u), None) | (None, Some(u)) => Forced::Unit(u),
        (None, None) => unreachable!("something was blocked"),
    };
    let penalty = (rules.throw_penalty_per_card * lead.len() as u32).min(rules.throw_penalty_cap);
    ThrowVerdict::Fails(Box::new(FailedThrow {
        penalty,
        blocked,
        forced,
    }))
}

/// Could a hand with this highest card and these pairs in the lane beat the unit?
fn beats(unit: &Unit, high: Option<u8>, pairs: &PairSlots) -> bool {
    let top = unit.top() as u32;
    match unit.pairs() {
        0 => high.is_some_and(|h| h as u32 > top),
        k => {
            // A tractor of k pairs starting at s has its top at s + k - 1; any longer tractor
            // holds such a window at its own top.
            let starts = pairs.starts(k);
            let min_start = top + 2 - k as u32; // s + k - 1 > top
            min_start < 32 && starts >> min_start != 0
        }
    }
}
