//! 底牌 (the kitty): the declarer buries exactly 8 cards (扣底); if a defender wins the last
//! trick the kitty's points are multiplied and go to the defenders (抠底: 单抠×2，双抠×4，
//! 拖拉机抠×8; \[decision\] `kitty_multiplier`).

use super::order::Order;
use super::ruleset::KittyMultiplier;
use super::unit::Lead;
use crate::cards::{Card, Hand};

/// Cards in the kitty.
pub const KITTY_SIZE: usize = 8;

/// The multiplier for a kitty captured on a last trick led with `lead` (after a failed throw,
/// the forced unit is what was led).
pub fn kitty_multiplier(rule: KittyMultiplier, lead: &Lead) -> u32 {
    let largest = lead.largest_unit_cards() as u32;
    match rule {
        KittyMultiplier::Tractor8 => match largest {
            1 => 2,
            2 => 4,
            _ => 8,
        },
        KittyMultiplier::TwiceLargestUnit => 2 * largest,
        KittyMultiplier::PowerOfLargestUnit => 1 << largest.min(31),
    }
}

/// The bury the clock makes for a declarer out of time: the 8 lowest cards that are neither
/// point cards nor trumps, topped up (if there are not 8) with the lowest non-point trumps,
/// then the lowest point cards. Sorted in face order.
pub fn default_bury(order: &Order, hand: &Hand) -> Vec<Card> {
    let mut cards = Vec::with_capacity(hand.len());
    for c in Card::all() {
        cards.extend(std::iter::repeat_n(c, hand.count(c)));
    }
    cards.sort_by_key(|&c| (c.points() > 0, order.low_key(c)));
    cards.truncate(KITTY_SIZE);
    cards.sort();
    cards
}
