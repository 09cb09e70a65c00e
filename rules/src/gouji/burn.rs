//! 烧牌 (burning): the offer order after the 对头 passes a 级牌, the sustain test (留牌), a
//! failed burn.
//!
//! A player who is not the 对头 may beat a 级牌 after its owner's 对头 passed it (级牌过牌可以烧牌):
//! the burn is offered as a yes/no prompt, in the ruleset's order, to every other player still
//! holding cards, 无头 ones included. The burner must be able to sustain it: after the burning
//! set, jokers left ≥ distinct natural ranks left − 1. If the burn stands, every set the burner
//! leads must hold a joker, except their last; a burner who has to lead a non-final set without
//! a joker has failed (烧牌失误): 大落, their cards void, the burned 级牌 restored as the top set.

use super::ruleset::{BurnOfferOrder, KeepCards};
use super::set::Counts;
use super::Seat;

/// Who is offered the burn of `owner`'s 级牌, in order, among the seats for which `eligible`
/// holds (active, neither the owner nor the owner's 对头).
pub fn offer_queue(
    owner: Seat,
    order: BurnOfferOrder,
    eligible: impl Fn(Seat) -> bool,
) -> Vec<Seat> {
    let opposite = owner.opposite();
    let from = |start: Seat| (1..6).map(move |k| Seat::from_index(start.index() + k));
    let mut queue: Vec<Seat> = match order {
        BurnOfferOrder::OppositeTeamFirst => from(opposite)
            .filter(|s| s.team() == opposite.team())
            .chain(from(owner).filter(|s| s.team() == owner.team()))
            .collect(),
        BurnOfferOrder::TurnOrder => from(opposite).collect(),
    };
    queue.retain(|&s| s != owner && s != opposite && eligible(s));
    queue
}

/// The sustain test on the hand left after the burning set: `Err((jokers, ranks))` if it fails.
pub fn sustain(after: &Counts, keep: KeepCards) -> Result<(), (usize, usize)> {
    let (jokers, ranks) = (after.jokers() as usize, after.natural_ranks());
    match keep {
        KeepCards::NoTest => Ok(()),
        KeepCards::SustainTest if jokers + 1 >= ranks => Ok(()),
        KeepCards::SustainTest => Err((jokers, ranks)),
    }
}

/// A burner who must lead this hand has failed: no joker to lead with, and more than one set.
pub fn fails_to_lead(hand: &Counts) -> bool {
    hand.jokers() == 0 && hand.as_one_set().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seat::*;

    #[test]
    fn the_opposite_team_is_asked_first() {
        // Worked example 1: A1's 级牌, B2 declined: B3, B1, then A2, A3.
        let q = offer_queue(A1, BurnOfferOrder::OppositeTeamFirst, |_| true);
        assert_eq!(q, vec![B3, B1, A2, A3]);
        let q = offer_queue(A1, BurnOfferOrder::TurnOrder, |_| true);
        assert_eq!(q, vec![A3, B3, B1, A2]);
        let q = offer_queue(B3, BurnOfferOrder::OppositeTeamFirst, |s| s != A3);
        assert_eq!(q, vec![A1, B1, B2]);
        // The reported case: A2's 级牌, B3 passed, A3 out: B1, B2, then A1.
        let q = offer_queue(A2, BurnOfferOrder::OppositeTeamFirst, |s| s != A3);
        assert_eq!(q, vec![B1, B2, A1]);
    }
}
