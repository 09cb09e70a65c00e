//! 跟牌 (following): play as many cards as were led; follow the led effective suit while you
//! can (all of it if you hold fewer than were led, the rest any cards); and within the suit,
//! follow the lead's shape down its ladder (有对必须跟对, 有拖拉机必须跟拖拉机; see
//! [`super::ladder`]). A void follower plays any cards, trumps included (将吃).
//!
//! The check allocates nothing: the hand is an array of counts, the lane's pairs a bit mask.

use std::borrow::Cow;

use super::error::RuleError;
use super::ladder::{best_rung_by, PairSlots, Parts};
use super::order::Order;
use super::unit::Lead;
use crate::cards::{Card, Hand, FACES};

/// Checks a follow: `hand` is the follower's whole hand before the play.
///
/// One pass over the played cards (are they held, how many are in the led suit, which pairs);
/// the led suit's faces in the hand only when the play leaves the suit (is the hand short in
/// it?), the hand's pairs only when the lead has some. A single led and followed in its suit,
/// the commonest follow, needs nothing more.
pub fn check_follow(
    order: &Order,
    lead: &Lead,
    hand: &Hand,
    play: &[Card],
) -> Result<(), RuleError> {
    let n = lead.len();
    if play.len() != n {
        return Err(RuleError::WrongCount {
            expected: n,
            got: play.len(),
        });
    }
    let lane = lead.lane().index();
    // The play's copies of each face so far: bare counts, no hand (whose masks would be kept
    // for nothing).
    let mut played = [0u8; FACES];
    let mut play_pairs = PairSlots::default();
    let mut in_lane = 0;
    for &c in play {
        played[c.index()] += 1;
        let copies = played[c.index()] as usize;
        if copies > hand.count(c) {
            return Err(missing(hand, play));
        }
        if order.lane_index(c) == lane {
            in_lane += 1;
            if copies == 2 {
                play_pairs.add(order.slot(c));
            }
        }
    }
    if in_lane < n {
        // Only now the suit's count in the hand: a play all in the led suit needs none.
        let held = order.held_in(lane, hand);
        return if held >= n {
            Err(RuleError::MustFollowSuit { lane: lead.lane() })
        } else if in_lane == held {
            // Short in the suit: all of it, then anything.
            Ok(())
        } else {
            Err(RuleError::MustPlayAllOfSuit {
                lane: lead.lane(),
                held,
            })
        };
    }
    if lead.parts().is_empty() {
        return Ok(());
    }
    let (held_pairs, _) = PairSlots::of_hand(order, lane, hand);
    let rung = best_rung_by(&held_pairs, lead.parts(), lead.throw_follow());
    if play_pairs.fits(&rung) {
        Ok(())
    } else if rung.longest() >= 2 {
        // The hand can answer with a tractor: that is the rule the play broke, whether it also
        // left out pairs or only broke the tractor up.
        Err(RuleError::MustFollowTractor {
            shape: rung.as_slice().to_vec(),
        })
    } else {
        Err(RuleError::MustFollowPairs {
            pairs: rung.pairs(),
        })
    }
}

/// The cards of `play` the hand lacks, for the error message.
pub(crate) fn missing(hand: &Hand, play: &[Card]) -> RuleError {
    let mut left = hand.clone();
    let mut missing: Vec<Card> = play.iter().copied().filter(|&c| !left.remove(c)).collect();
    missing.sort();
    RuleError::CardsNotInHand { missing }
}

/// Calls `found` with every distinct legal follow (as a multiset, the copies of a face side by
/// side; sort a play to compare it with another) until it returns false. Allocation: one
/// buffer.
pub fn each_legal_follow(
    order: &Order,
    lead: &Lead,
    hand: &Hand,
    found: &mut dyn FnMut(&[Card]) -> bool,
) {
    let n = lead.len();
    let lane = lead.lane().index();
    let (held_pairs, held) = PairSlots::of_hand(order, lane, hand);
    let mut buf = Vec::with_capacity(n);
    if held <= n {
        // All of the lane, then any n - held of the rest.
        let mut rest = Vec::new();
        for (face, count) in hand.faces() {
            if order.lane_index(face) == lane {
                buf.extend(std::iter::repeat_n(face, count));
            } else {
                rest.push((face, count as u8));
            }
        }
        let mut search = Search {
            faces: &rest,
            order,
            rung: None,
            buf,
            found,
        };
        search.go(0, n - held, PairSlots::default());
    } else {
        let faces: Vec<(Card, u8)> = order
            .faces_of(lane)
            .iter()
            .map(|&f| (f, hand.count(f) as u8))
            .filter(|&(_, c)| c > 0)
            .collect();
        let rung = best_rung_by(&held_pairs, lead.parts(), lead.throw_follow());
        let mut search = Search {
            faces: &faces,
            order,
            rung: (!rung.is_empty()).then_some(rung),
            buf,
            found,
        };
        search.go(0, n, PairSlots::default());
    }
}

/// Depth-first choice of how many of each face to play.
struct Search<'a, 'f> {
    faces: &'a [(Card, u8)],
    order: &'a Order,
    /// The rung the play must fit (only when all of it is in the led lane).
    rung: Option<Parts>,
    buf: Vec<Card>,
    found: &'f mut dyn FnMut(&[Card]) -> bool,
}

impl Search<'_, '_> {
    /// Returns false to stop.
    fn go(&mut self, i: usize, need: usize, pairs: PairSlots) -> bool {
        if need == 0 {
            if let Some(r) = &self.rung {
                if !pairs.fits(r) {
                    return true;
                }
            }
            return (self.found)(&self.buf);
        }
        let available: usize = self.faces[i..].iter().map(|&(_, c)| c as usize).sum();
        if available < need {
            return true;
        }
        let (face, count) = self.faces[i];
        let mut more = true;
        for take in 0..=(count as usize).min(need) {
            let mut p = pairs;
            if take == 2 && self.rung.is_some() {
                p.add(self.order.slot(face));
            }
            let len = self.buf.len();
            self.buf.extend(std::iter::repeat_n(face, take));
            more = self.go(i + 1, need - take, p);
            self.buf.truncate(len);
            if !more {
                break;
            }
        }
        more
    }
}

/// Every distinct legal follow, up to `cap` of them. When there are more, the list is the lowest
/// legal play ([`lowest_follow`]) followed by the first `cap - 1` others in search order (faces
/// in face order, fewer copies of the earlier faces first).
pub fn legal_follows(order: &Order, lead: &Lead, hand: &Hand, cap: usize) -> Vec<Vec<Card>> {
    let mut out: Vec<Vec<Card>> = Vec::new();
    let mut overflow = false;
    each_legal_follow(order, lead, hand, &mut |p| {
        if out.len() == cap {
            overflow = true;
            return false;
        }
        out.push(p.to_vec());
        true
    });
    if overflow {
        let mut lowest = lowest_follow(order, lead, hand);
        lowest.sort();
        out.retain(|p| *p != lowest);
        out.truncate(cap.saturating_sub(1));
        out.insert(0, lowest);
    }
    out
}

/// Every face of `hand` that is part of at least one legal follow of `lead`, each once, in face
/// order: what a client may offer (and what it should dim). Computed without listing the plays:
///
/// - short in the led suit (or void): every card (the suit's cards are forced, any other may
///   fill);
/// - exactly as many of the suit as were led: the suit's cards;
/// - more: if the required rung leaves room for a free card, every card of the suit (any of
///   them fits beside some placement of the rung); if not (e.g. a pair led, a pair held), only
///   the pairs some placement of the rung uses.
pub fn playable_follows(order: &Order, lead: &Lead, hand: &Hand) -> Vec<Card> {
    let n = lead.len();
    let lane = lead.lane().index();
    let (held_pairs, held) = PairSlots::of_hand(order, lane, hand);
    if held < n {
        return hand.faces().map(|(f, _)| f).collect();
    }
    let in_lane = hand
        .faces()
        .map(|(f, _)| f)
        .filter(|&f| order.lane_index(f) == lane);
    if held == n {
        return in_lane.collect();
    }
    let rung = best_rung_by(&held_pairs, lead.parts(), lead.throw_follow());
    if n > 2 * rung.pairs() as usize {
        return in_lane.collect();
    }
    let slots = held_pairs.placeable_slots(&rung);
    in_lane
        .filter(|&f| hand.count(f) >= 2 && slots & (1 << order.slot(f)) != 0)
        .collect()
}

/// The lowest legal follow, which the clock plays for a player who ran out of time.
pub fn lowest_follow(order: &Order, lead: &Lead, hand: &Hand) -> Vec<Card> {
    build_follow(order, lead, hand, &mut |_| 0)
}

/// Builds a legal follow, asking `pick(k)` for an index in `0..k` at each free choice of a card
/// (candidates lowest first): always 0 gives the lowest legal play, a random pick a random legal
/// play. Required pairs and tractors go at their lowest placement.
pub fn build_follow(
    order: &Order,
    lead: &Lead,
    hand: &Hand,
    pick: &mut dyn FnMut(usize) -> usize,
) -> Vec<Card> {
    let n = lead.len();
    let lane = lead.lane().index();
    let held = order.held_in(lane, hand);
    let mut play = Vec::with_capacity(n);
    // The cards not yet in the play: the hand itself until one is taken out of it, so the
    // commonest follow, one card, copies no hand.
    let mut left = Cow::Borrowed(hand);
    if held <= n {
        // Short in the led suit: all of it (mostly none: a void), then any of the other cards.
        for &f in order.faces_of(lane) {
            if play.len() == held {
                break;
            }
            for _ in 0..hand.count(f) {
                play.push(f);
                left.to_mut().remove(f);
            }
        }
        let others = hand.len() - held;
        fill(
            &mut left,
            &mut play,
            n,
            order.faces_low_first(),
            others,
            pick,
        );
        return play;
    }
    // Cards of the led suit not yet in the play: the candidates once the pairs are placed.
    let mut free = held;
    if !lead.parts().is_empty() {
        let (held_pairs, _) = PairSlots::of_hand(order, lane, hand);
        let rung = best_rung_by(&held_pairs, lead.parts(), lead.throw_follow());
        let mut starts = [0u8; 18];
        assert!(
            held_pairs.lowest_starts(&rung, &mut starts),
            "the hand fits its rung"
        );
        for (&k, &s) in rung.as_slice().iter().zip(&starts) {
            for slot in s..s + k {
                let face = *order
                    .faces_of(lane)
                    .iter()
                    .find(|&&f| order.slot(f) == slot && left.count(f) >= 2)
                    .expect("a pair at every slot of the placement");
                let left = left.to_mut();
                left.remove(face);
                left.remove(face);
                play.extend([face, face]);
                free -= 2;
            }
        }
    }
    fill(&mut left, &mut play, n, order.faces_of(lane), free, pick);
    play
}

/// Adds cards from `left` until the play has `n` cards, each picked among the candidates: the
/// `total` cards of `left` whose faces are in `faces`, lowest first. A card is taken out of
/// `left` only if another is still to be picked.
fn fill(
    left: &mut Cow<Hand>,
    play: &mut Vec<Card>,
    n: usize,
    faces: &[Card],
    mut total: usize,
    pick: &mut dyn FnMut(usize) -> usize,
) {
    // Counted and walked in place: no list to build.
    while play.len() < n {
        let mut i = pick(total).min(total - 1);
        for &f in faces {
            let held = left.count(f);
            if i < held {
                play.push(f);
                if play.len() < n {
                    left.to_mut().remove(f);
                    total -= 1;
                }
                break;
            }
            i -= held;
        }
    }
}
