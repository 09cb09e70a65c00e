//! 跟牌的阶梯 (the follow ladder): shapes made of pairs and tractors, whether some cards can be
//! arranged into a shape, and the highest rung of a lead's ladder that a hand can reach.
//!
//! A shape's pairs are grouped into *parts*: a part of length 1 is a pair, of length k ≥ 2 a
//! tractor of k pairs. A lead of tractor 3 + pair + 2 singles has parts `[3, 1]`.
//!
//! The ladder of a lead with parts Λ holds every shape R that Λ can be cut down to, by splitting
//! tractors and dropping pairs (each part of R fits inside one part of Λ, the parts sharing a
//! part of Λ summing to at most its length). Rungs go from more pairs to fewer, and among equal
//! pair counts from the lexicographically larger parts down: for a tractor of 4,
//! `[4] > [3,1] > [2,2] > [2,1,1] > [1,1,1,1] > [1,1,1] > [1,1] > [1] > []`. That is the text's
//! "a tractor of the same length if you hold one, else the longest shorter tractor, else as many
//! pairs as you hold up to the number led, and only then singles", extended to throws ("the
//! ladder of all its units together").
//!
//! Walking the ladder from the top, a play is legal at the first rung the hand could fit, and
//! only if the play fits it too. A play is part of the hand, so that is the same as: the play
//! fits the highest rung the hand fits.
//!
//! \[decision\] `throw_follow`: the order above answers a throw's largest unit first (a tractor
//! of 3 and one of 2 led: `[3,1,1] > [2,2,1]`). Under `every-tractor-first`, among rungs of
//! equal pair count those answering more of the lead's tractors with tractors come first
//! (`[2,2,1] > [3,1,1]`); a lead with fewer than two tractors has the same ladder either way.

use super::order::{Order, MAX_SLOTS};
use super::ruleset::ThrowFollow;
use crate::cards::{bits, Card, Hand};

/// Most parts a shape can have: a lane has at most 18 faces, so at most 18 pairs.
const MAX_PARTS: usize = 18;

/// A multiset of part lengths, longest first. Fixed size, no allocation: the legality check
/// builds these on every call.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Parts {
    p: [u8; MAX_PARTS],
    len: u8,
}

impl std::fmt::Debug for Parts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_slice())
    }
}

impl Parts {
    pub fn new() -> Parts {
        Parts::default()
    }

    /// From any lengths (zeros dropped), sorted longest first.
    pub fn from_lengths(lengths: &[u8]) -> Parts {
        let mut parts = Parts::new();
        for &l in lengths.iter().filter(|&&l| l > 0) {
            parts.push(l);
        }
        parts.p[..parts.len as usize].sort_unstable_by(|a, b| b.cmp(a));
        parts
    }

    fn push(&mut self, l: u8) {
        self.p[self.len as usize] = l;
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.p[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of pairs in all parts.
    pub fn pairs(&self) -> u8 {
        self.as_slice().iter().sum()
    }

    /// The longest part (0 if none).
    pub fn longest(&self) -> u8 {
        self.as_slice().first().copied().unwrap_or(0)
    }

    /// True if this shape is on the ladder of `lead`: its parts pack into the lead's parts.
    pub fn below(&self, lead: &Parts) -> bool {
        if self.pairs() > lead.pairs() || self.longest() > lead.longest() {
            return false;
        }
        let mut room = lead.p;
        pack(self.as_slice(), &mut room[..lead.len as usize])
    }
}

/// First-fit-decreasing is not exact for bin packing, so search; shapes are tiny.
fn pack(parts: &[u8], room: &mut [u8]) -> bool {
    let Some((&first, rest)) = parts.split_first() else {
        return true;
    };
    for i in 0..room.len() {
        // Bins with equal room are interchangeable: try one of them only.
        if room[i] >= first && !room[..i].contains(&room[i]) {
            room[i] -= first;
            let ok = pack(rest, room);
            room[i] += first;
            if ok {
                return true;
            }
        }
    }
    false
}

/// The pairs some cards hold in one lane, as a count per slot (only the 副级 slot can exceed 1:
/// up to three different 副级牌 pairs, four without trump).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct PairSlots {
    count: [u8; MAX_SLOTS],
    /// Bit s set when `count[s] > 0`: tractor searches are shifts and ands.
    mask: u32,
    pairs: u8,
}

impl std::fmt::Debug for PairSlots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PairSlots{:?}", &self.count)
    }
}

impl PairSlots {
    /// The pairs of `hand` in lane `lane`, and the number of the hand's cards in that lane.
    pub(crate) fn of_hand(order: &Order, lane: usize, hand: &Hand) -> (PairSlots, usize) {
        let mut ps = PairSlots::default();
        // Only the faces held twice: a few bits of the hand's mask, not the lane's 13 to 18.
        for face in bits(hand.pairs_mask() & order.lane_mask(lane)) {
            ps.add(order.slot(Card::from_index(face)));
        }
        (ps, order.held_in(lane, hand))
    }

    pub(crate) fn add(&mut self, slot: u8) {
        self.count[slot as usize] += 1;
        self.mask |= 1 << slot;
        self.pairs += 1;
    }

    fn take(&mut self, slot: usize) {
        self.count[slot] -= 1;
        self.pairs -= 1;
        if self.count[slot] == 0 {
            self.mask &= !(1 << slot);
        }
    }

    fn give(&mut self, slot: usize) {
        self.count[slot] += 1;
        self.pairs += 1;
        self.mask |= 1 << slot;
    }

    pub fn pairs(&self) -> u8 {
        self.pairs
    }

    pub(crate) fn count(&self, slot: usize) -> u8 {
        self.count[slot]
    }

    /// Bit s set when a tractor of `k` pairs can start at slot s (slots s..s+k all hold pairs).
    pub(crate) fn starts(&self, k: u8) -> u32 {
        let mut m = self.mask;
        for i in 1..k {
            m &= self.mask >> i;
        }
        m
    }

    /// Length of the longest tractor (1 for lone pairs, 0 for none).
    pub fn longest_run(&self) -> u8 {
        let mut m = self.mask;
        let mut n = 0;
        while m != 0 {
            m &= m >> 1;
            n += 1;
        }
        n
    }

    /// True if disjoint tractors (pairs for parts of 1) of the given lengths can be taken.
    pub fn fits(&self, parts: &Parts) -> bool {
        match parts.as_slice() {
            [] => true,
            [k] => self.starts(*k) != 0,
            s if s[0] == 1 => self.pairs as usize >= s.len(),
            s => {
                if self.pairs < parts.pairs() || self.longest_run() < s[0] {
                    return false;
                }
                let mut work = *self;
                work.place_low(s, 0, &mut [0; MAX_PARTS])
            }
        }
    }

    /// Places tractors of the lengths `parts` (longest first) at the lowest starts that let all
    /// of them fit, writing each part's start slot to `out`. `from` keeps equal parts in
    /// non-decreasing order, so each arrangement is tried once. The first complete placement
    /// found is the lexicographically lowest.
    fn place_low(&mut self, parts: &[u8], from: usize, out: &mut [u8]) -> bool {
        let Some((&k, rest)) = parts.split_first() else {
            return true;
        };
        let mut starts = self.starts(k) >> from << from;
        while starts != 0 {
            let s = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            for slot in s..s + k as usize {
                self.take(slot);
            }
            out[0] = s as u8;
            let next_from = if rest.first() == Some(&k) { s } else { 0 };
            let ok = self.place_low(rest, next_from, &mut out[1..]);
            for slot in s..s + k as usize {
                self.give(slot);
            }
            if ok {
                return true;
            }
        }
        false
    }

    /// The lowest placement of `parts`: each part's start slot, in the parts' order. False if
    /// the parts do not fit. Used to build the lowest legal play.
    pub(crate) fn lowest_starts(&self, parts: &Parts, out: &mut [u8]) -> bool {
        let mut work = *self;
        work.place_low(parts.as_slice(), 0, out)
    }

    /// The slots (bit s for slot s) that at least one placement of `parts` uses: the pairs that
    /// can be part of a play fitting exactly that shape.
    pub(crate) fn placeable_slots(&self, parts: &Parts) -> u32 {
        let mut work = *self;
        let lengths = parts.as_slice();
        let mut out = 0u32;
        for (i, &k) in lengths.iter().enumerate() {
            if lengths[..i].contains(&k) {
                continue; // equal parts place alike
            }
            let mut rest = Parts::new();
            for (j, &l) in lengths.iter().enumerate() {
                if j != i {
                    rest.push(l);
                }
            }
            let mut starts = work.starts(k);
            while starts != 0 {
                let s = starts.trailing_zeros() as usize;
                starts &= starts - 1;
                let run = ((1u32 << k) - 1) << s;
                if out & run == run {
                    continue;
                }
                for slot in s..s + k as usize {
                    work.take(slot);
                }
                if work.fits(&rest) {
                    out |= run;
                }
                for slot in s..s + k as usize {
                    work.give(slot);
                }
            }
        }
        out
    }

    /// The best arrangement into `parts` for comparing plays: the tops of the chosen tractors,
    /// part by part (longest first, equal parts highest first), lexicographically greatest,
    /// written to `out`. False if the parts do not fit.
    pub(crate) fn best_tops(&self, parts: &Parts, out: &mut [u8]) -> bool {
        let mut work = *self;
        work.place_high(parts.as_slice(), MAX_SLOTS, out)
    }

    /// Depth-first from the highest start: the first complete placement found is the
    /// lexicographically greatest sequence of tops.
    fn place_high(&mut self, parts: &[u8], below: usize, out: &mut [u8]) -> bool {
        let Some((&k, rest)) = parts.split_first() else {
            return true;
        };
        let mut starts = self.starts(k);
        if below < 32 {
            starts &= (1u32 << (below + 1)) - 1;
        }
        while starts != 0 {
            let s = 31 - starts.leading_zeros() as usize;
            starts &= !(1 << s);
            for slot in s..s + k as usize {
                self.take(slot);
            }
            out[0] = (s + k as usize - 1) as u8;
            let next_below = if rest.first() == Some(&k) {
                s
            } else {
                MAX_SLOTS
            };
            let ok = self.place_high(rest, next_below, &mut out[1..]);
            for slot in s..s + k as usize {
                self.give(slot);
            }
            if ok {
                return true;
            }
        }
        false
    }
}

/// The highest rung of the ladder of `lead` that `hand` (the pairs held in the led lane) fits.
///
/// The top rung with `min(pairs led, pairs held)` pairs always exists (all pairs), so only that
/// pair count is searched, from the lexicographically largest parts down.
pub fn best_rung(hand: &PairSlots, lead: &Parts) -> Parts {
    let total = lead.pairs().min(hand.pairs());
    if total == 0 {
        return Parts::new();
    }
    let cap = lead.longest().min(hand.longest_run()).min(total);
    if cap <= 1 {
        return Parts::from_lengths(&[1; MAX_PARTS][..total as usize]);
    }
    if lead.len == 1 && cap == lead.longest() {
        return *lead; // the common case: a tractor led, a tractor as long held
    }
    let mut r = first_partition(total, cap);
    loop {
        if r.below(lead) && hand.fits(&r) {
            return r;
        }
        if !next_partition(&mut r) {
            unreachable!("all pairs always fit");
        }
    }
}

/// The highest rung of the ladder of `lead` that `hand` fits, the rungs of equal pair count
/// ordered by `follow` (see the module doc). With `largest-unit-first`, or fewer than two
/// tractors led, this is [`best_rung`].
pub fn best_rung_by(hand: &PairSlots, lead: &Parts, follow: ThrowFollow) -> Parts {
    let tractors_led = lead.as_slice().iter().filter(|&&k| k >= 2).count();
    if follow == ThrowFollow::LargestUnitFirst || tractors_led < 2 {
        return best_rung(hand, lead);
    }
    let total = lead.pairs().min(hand.pairs());
    let cap = lead.longest().min(hand.longest_run()).min(total);
    if cap <= 1 {
        return best_rung(hand, lead);
    }
    // Partitions come lexicographically largest first: the first with the most tractors
    // answered wins.
    let mut best: Option<(usize, Parts)> = None;
    let mut r = first_partition(total, cap);
    loop {
        if r.below(lead) && hand.fits(&r) {
            let answered = r
                .as_slice()
                .iter()
                .filter(|&&k| k >= 2)
                .count()
                .min(tractors_led);
            if best.is_none_or(|(a, _)| answered > a) {
                best = Some((answered, r));
            }
            if answered == tractors_led {
                break;
            }
        }
        if !next_partition(&mut r) {
            break;
        }
    }
    best.expect("all pairs always fit").1
}

/// `total` as parts of at most `cap`, lexicographically greatest: `[cap, cap, …, rest]`.
fn first_partition(total: u8, cap: u8) -> Parts {
    let mut r = Parts::new();
    let mut left = total;
    while left > 0 {
        let l = left.min(cap);
        r.push(l);
        left -= l;
    }
    r
}

/// The next partition of the same sum in decreasing lexicographic order; false after `[1,…,1]`.
fn next_partition(r: &mut Parts) -> bool {
    let mut ones = 0;
    while r.len > 0 && r.p[r.len as usize - 1] == 1 {
        r.len -= 1;
        ones += 1;
    }
    if r.len == 0 {
        return false;
    }
    let i = r.len as usize - 1;
    r.p[i] -= 1;
    let v = r.p[i];
    let mut left = ones + 1;
    while left > 0 {
        let l = left.min(v);
        r.push(l);
        left -= l;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots(s: &[u8]) -> PairSlots {
        let mut p = PairSlots::default();
        for &x in s {
            p.add(x);
        }
        p
    }

    #[test]
    fn a_hands_pairs_are_its_faces_held_twice() {
        use crate::cards::{Rank, Suit};
        use crate::deal::{deal_shengji, Fixed, Seed};
        // The pairs by their definition: every face of the lane, the held count looked up.
        for board in 1..=200u32 {
            let d = deal_shengji(&Seed([board as u8; 32]), board, Fixed::default());
            let trumps = [Some(Suit::ALL[board as usize % 4]), None];
            let order = Order::new(
                Rank::new(2 + board as u8 % 13).unwrap(),
                trumps[board as usize % 5 / 4],
            );
            let mut hand: Hand = d.hands[0].iter().chain(&d.hands[1]).copied().collect();
            for (i, &c) in d.hands[2].iter().enumerate() {
                for lane in 0..5 {
                    let mut plain = PairSlots::default();
                    let mut cards = 0;
                    for &f in order.faces_of(lane) {
                        cards += hand.count(f);
                        if hand.count(f) >= 2 {
                            plain.add(order.slot(f));
                        }
                    }
                    assert_eq!(PairSlots::of_hand(&order, lane, &hand), (plain, cards));
                    assert_eq!(order.held_in(lane, &hand), cards);
                }
                // Change the hand as play does, a card out and another in.
                hand.remove(d.hands[i % 2][i]);
                hand.add(c);
            }
        }
    }

    #[test]
    fn partitions_run_in_decreasing_order() {
        let mut r = first_partition(4, 4);
        let mut seen = vec![r.as_slice().to_vec()];
        while next_partition(&mut r) {
            seen.push(r.as_slice().to_vec());
        }
        assert_eq!(
            seen,
            vec![
                vec![4],
                vec![3, 1],
                vec![2, 2],
                vec![2, 1, 1],
                vec![1, 1, 1, 1]
            ]
        );
    }

    #[test]
    fn ladder_of_a_tractor_of_four() {
        let lead = Parts::from_lengths(&[4]);
        assert_eq!(best_rung(&slots(&[1, 2, 3, 4]), &lead).as_slice(), [4]);
        assert_eq!(best_rung(&slots(&[1, 2, 3, 6]), &lead).as_slice(), [3, 1]);
        assert_eq!(best_rung(&slots(&[1, 2, 5, 6]), &lead).as_slice(), [2, 2]);
        assert_eq!(
            best_rung(&slots(&[1, 2, 5, 8]), &lead).as_slice(),
            [2, 1, 1]
        );
        assert_eq!(
            best_rung(&slots(&[1, 3, 5, 8]), &lead).as_slice(),
            [1, 1, 1, 1]
        );
        assert_eq!(best_rung(&slots(&[1, 2, 3]), &lead).as_slice(), [3]);
        assert_eq!(best_rung(&slots(&[]), &lead).as_slice(), [] as [u8; 0]);
    }

    #[test]
    fn the_fu_level_slot_holds_several_pairs() {
        // Slots 11 (trump A), 12 (two 副级牌 pairs), 13 (主级牌): T3 + P or T2 + T2.
        let h = slots(&[11, 12, 12, 13]);
        assert!(h.fits(&Parts::from_lengths(&[3, 1])));
        assert!(h.fits(&Parts::from_lengths(&[2, 2])));
        assert!(!h.fits(&Parts::from_lengths(&[4])));
        let mut tops = [0; 2];
        assert!(h.best_tops(&Parts::from_lengths(&[2, 2]), &mut tops));
        assert_eq!(tops, [13, 12]);
    }

    #[test]
    fn throw_follow_orders_the_rungs_of_a_throw_of_two_tractors() {
        // Led: tractors of 3 and 2. Held: a run of 4 pairs and two lone pairs.
        let lead = Parts::from_lengths(&[3, 2]);
        let hand = slots(&[1, 2, 3, 4, 7, 10]);
        assert_eq!(best_rung(&hand, &lead).as_slice(), [3, 1, 1]);
        assert_eq!(
            best_rung_by(&hand, &lead, ThrowFollow::EveryTractorFirst).as_slice(),
            [2, 2, 1]
        );
        // One tractor led: the same ladder either way.
        let one = Parts::from_lengths(&[4]);
        let h = slots(&[1, 2, 3, 6]);
        assert_eq!(
            best_rung_by(&h, &one, ThrowFollow::EveryTractorFirst).as_slice(),
            [3, 1]
        );
    }

    #[test]
    fn placeable_slots_are_the_pairs_some_placement_uses() {
        // A tractor of 2 to place in pairs at 1, 2, 3 and 7: slots 1 to 3 only.
        let h = slots(&[1, 2, 3, 7]);
        assert_eq!(h.placeable_slots(&Parts::from_lengths(&[2])), 0b1110);
        // Tractor 2 + pair: every pair can take part.
        assert_eq!(
            h.placeable_slots(&Parts::from_lengths(&[2, 1])),
            0b1000_1110
        );
        // Tractor 3 + pair in 1, 2, 3, 4, 7: slot 7 or 1 or 4 as the pair.
        let h = slots(&[1, 2, 3, 4, 7]);
        assert_eq!(
            h.placeable_slots(&Parts::from_lengths(&[3, 1])),
            0b1001_1110
        );
        // Tractor 3 in 1, 2, 3, 4, 7: never 7.
        assert_eq!(h.placeable_slots(&Parts::from_lengths(&[3])), 0b1_1110);
    }

    #[test]
    fn a_shape_is_below_a_lead_when_it_packs() {
        let lead = Parts::from_lengths(&[2, 2]);
        assert!(Parts::from_lengths(&[2, 1, 1]).below(&lead));
        assert!(!Parts::from_lengths(&[3]).below(&lead));
        assert!(!Parts::from_lengths(&[2, 2, 1]).below(&lead));
        assert!(Parts::from_lengths(&[1, 1, 1]).below(&lead));
    }
}
