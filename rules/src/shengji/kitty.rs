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
    // The faces lowest first, the point cards' after all the others: no sort.
    let mut bury = Hand::new();
    for points in [false, true] {
        for &c in order.faces_low_first() {
            if bury.len() == KITTY_SIZE {
                // Mostly reached in the low non-point cards: the rest need no look.
                return bury.cards();
            }
            if (c.points() > 0) == points {
                let take = hand.count(c).min(KITTY_SIZE - bury.len());
                (0..take).for_each(|_| bury.add(c));
            }
        }
    }
    bury.cards()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::{deal_shengji, Fixed, Seed};

    /// The bury by its definition: every card sorted by (point card, lowest first), the first
    /// eight, in face order.
    fn by_sorting(order: &Order, hand: &Hand) -> Vec<Card> {
        let mut cards = hand.cards();
        cards.sort_by_key(|&c| (c.points() > 0, order.low_key(c)));
        cards.truncate(KITTY_SIZE);
        cards.sort();
        cards
    }

    #[test]
    fn the_clocks_bury_is_the_eight_lowest_non_point_cards_first() {
        for board in 1..=300 {
            let d = deal_shengji(&Seed([board as u8; 32]), board, Fixed::default());
            let order = Order::new(d.level, d.trump);
            // The declarer's 33 cards, and a short hand too (fewer than 8 non-point cards).
            let mut hand: Hand = d.hands[d.declarer].iter().copied().collect();
            d.kitty.iter().for_each(|&c| hand.add(c));
            assert_eq!(default_bury(&order, &hand), by_sorting(&order, &hand));
            let few: Hand = d.hands[0].iter().copied().take(9).collect();
            assert_eq!(default_bury(&order, &few), by_sorting(&order, &few));
        }
    }
}
