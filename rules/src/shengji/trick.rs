//! 一轮 (who wins a trick): a play can win only if it has the lead's shape, in the led suit or
//! (a side suit led) in trumps; a play of the wrong shape is a discard (垫牌) — "a trump answer
//! to a lead with a pair or tractor must itself have the pair or tractor". Trumps beat the led
//! side suit, a higher trump a lower one (盖毙), and of equal cards the earlier wins.
//!
//! A throw (which stood) is beaten only by trumps of its shape. \[decision\] `throw_compare`:
//! two such plays compare unit by unit from the largest unit down (tractors, then pairs;
//! singles only when the lead had no pair). A play that fits the shape in several ways (four
//! trumps `C6C6C2C2` against pair + single + single) is judged by its best arrangement.

use super::ladder::PairSlots;
use super::order::{Order, TRUMP};
use super::ruleset::ThrowCompare;
use super::unit::Lead;
use crate::cards::{Card, Hand};

/// What a play is worth against the lead: compared lexicographically, greater wins, equal goes
/// to the earlier play.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Strength {
    /// 1 for trumps on a side-suit lead, 0 in the led suit.
    trumped: u8,
    /// Unit tops, largest unit first (or every card, highest first, for a lead of singles).
    tops: [u8; 25],
}

/// Index (0 = the leader) of the play that wins. `plays[0]` is the lead; the plays may be taken
/// as legal.
pub fn trick_winner(order: &Order, compare: ThrowCompare, lead: &Lead, plays: &[&[Card]]) -> usize {
    if !lead.is_throw() && lead.len() <= 2 {
        return single_or_pair_winner(order, lead, plays);
    }
    let mut best =
        strength(order, compare, lead, plays[0], true).expect("the lead has its own shape");
    let mut winner = 0;
    for (i, play) in plays.iter().enumerate().skip(1) {
        if let Some(s) = strength(order, compare, lead, play, false) {
            if s > best {
                best = s;
                winner = i;
            }
        }
    }
    winner
}

/// A single or a pair led, nearly every trick: the highest trump or else the highest card (or
/// pair) of the led suit wins, the earlier of equal ones; a play of two different cards to a
/// pair cannot win. The same answer as comparing [`Strength`]s.
fn single_or_pair_winner(order: &Order, lead: &Lead, plays: &[&[Card]]) -> usize {
    let led = lead.lane().index();
    // One number: 0 for a play that cannot win, else above those, trumps on a side suit above
    // the led suit, then the strength (a slot is below 32). Comparing numbers needs no branch,
    // and who wins is as good as random to the predictor.
    let key = |play: &[Card]| {
        let c = play[0];
        let lane = order.lane_index(c);
        // A single, or a pair's two cards alike (a comparison, not a loop: who plays a pair
        // is as good as random to the predictor).
        let one_face = play[play.len() - 1] == c;
        let counts = (one_face && (lane == led || lane == TRUMP)) as u32;
        let trumped = (lane != led) as u32;
        counts << 6 | trumped << 5 | order.slot(c) as u32
    };
    let mut winner = 0;
    let mut best = key(plays[0]);
    for (i, play) in plays.iter().enumerate().skip(1) {
        let k = key(play);
        if k > best {
            best = k;
            winner = i;
        }
    }
    winner
}

/// Card points in a trick.
pub fn trick_points(plays: &[&[Card]]) -> u32 {
    plays.iter().map(|p| crate::cards::points(p)).sum()
}

/// The play's strength, or `None` if it cannot win (wrong suit or wrong shape).
fn strength(
    order: &Order,
    compare: ThrowCompare,
    lead: &Lead,
    play: &[Card],
    leader: bool,
) -> Option<Strength> {
    let lead_lane = lead.lane().index();
    let lane = order.lane_index(*play.first()?);
    if play.iter().any(|&c| order.lane_index(c) != lane) {
        return None;
    }
    let trumped = lane == TRUMP && lead_lane != TRUMP;
    if !leader && !trumped && (lane != lead_lane || lead.is_throw()) {
        // Only trumps beat a throw that stood; only the led suit or trumps beat anything.
        return None;
    }
    let mut s = Strength {
        trumped: trumped as u8,
        tops: [0; 25],
    };
    let parts = lead.parts();
    if parts.is_empty() {
        for (t, &c) in s.tops.iter_mut().zip(play) {
            *t = order.slot(c);
        }
        if play.len() > 1 {
            s.tops[..play.len().min(25)].sort_unstable_by(|a, b| b.cmp(a));
        }
    } else {
        let held: Hand = play.iter().copied().collect();
        let (pairs, _) = PairSlots::of_hand(order, lane, &held);
        if !pairs.best_tops(parts, &mut s.tops) {
            return None;
        }
    }
    if compare == ThrowCompare::LargestUnit {
        s.tops[1..].fill(0);
    }
    Some(s)
}
