//! 主与牌序 (trump and card order): which cards are trumps, each card's effective suit (门), its
//! strength within that suit, and which pairs are adjacent for tractors (拖拉机).
//!
//! With a trump suit, high to low: `RJ` > `BJ` > 主级牌 (level card of the trump suit) > 副级牌
//! (the other three level cards, equal to each other) > trump-suit A, K, … 2 without the level
//! rank. Side suits rank A … 2 without the level rank. With no trump (无主): `RJ` > `BJ` > the
//! four level cards (equal); every suit is a side suit.
//!
//! Each card gets a *slot*: its strength inside its effective suit, counted from 0 at the bottom.
//! Equal cards share a slot (the 副级牌), and two pairs are adjacent exactly when their slots are
//! consecutive. That one number gives the level gap (level 6: ♣5 and ♣7 are slots 3 and 4), the
//! trump ladder (…, trump A, 副级牌, 主级牌, BJ, RJ) and "two 副级牌对 are equal, so not adjacent"
//! (same slot) without special cases.

use crate::cards::{Card, Hand, Rank, Suit, FACES};

/// An effective suit (门): one of the four suits as a side suit, or trump.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lane {
    Side(Suit),
    Trump,
}

/// Index of the trump lane in per-lane tables; side suits use their suit index 0..4.
pub(crate) const TRUMP: usize = 4;
/// Most slots a lane can have: 12 trump-suit ranks + 副级 + 主级 + BJ + RJ.
pub(crate) const MAX_SLOTS: usize = 16;
/// Most faces a lane can have: 12 trump-suit ranks + 3 副级 + 主级 + BJ + RJ.
const MAX_LANE_FACES: usize = 18;

impl Lane {
    /// 0..4 for the side suits (in [`Suit::ALL`] order), 4 for trump.
    pub fn index(self) -> usize {
        match self {
            Lane::Side(s) => s.index() as usize,
            Lane::Trump => TRUMP,
        }
    }

    pub fn from_index(i: usize) -> Lane {
        if i == TRUMP {
            Lane::Trump
        } else {
            Lane::Side(Suit::ALL[i])
        }
    }

    /// As a player says it: 主牌, 黑桃, 红桃, …
    pub fn zh(self) -> &'static str {
        match self {
            Lane::Trump => "主牌",
            Lane::Side(s) => s.zh(),
        }
    }

    pub fn en(self) -> &'static str {
        match self {
            Lane::Trump => "trumps",
            Lane::Side(Suit::Spades) => "spades",
            Lane::Side(Suit::Hearts) => "hearts",
            Lane::Side(Suit::Diamonds) => "diamonds",
            Lane::Side(Suit::Clubs) => "clubs",
        }
    }
}

/// The card order of one board: its level and trump suit, precomputed per face.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    level: Rank,
    trump: Option<Suit>,
    /// Lane index per face (0..4 side suits, 4 trump): the hot paths index arrays with it.
    lane: [u8; FACES],
    /// Strength inside the lane per face; equal cards share a slot.
    slot: [u8; FACES],
    /// Each lane's faces from the lowest slot up (faces of one slot in suit order), so that
    /// lane scans never touch the other 40-odd faces.
    faces: [[Card; MAX_LANE_FACES]; 5],
    face_count: [u8; 5],
    /// Each lane's faces as a face mask (bit i for face i), to count a hand's cards in a lane
    /// from its masks ([`Hand::count_in`]).
    lane_mask: [u64; 5],
    /// Number of slots in each lane (12 for a side suit, 16 or 3 for trump).
    slots: [u8; 5],
    /// Every face from the lowest up by [`Order::low_key`], for the lowest discards.
    low: [Card; FACES],
}

impl Order {
    pub fn new(level: Rank, trump: Option<Suit>) -> Order {
        let mut o = Order {
            level,
            trump,
            lane: [0; FACES],
            slot: [0; FACES],
            faces: [[Card::BJ; MAX_LANE_FACES]; 5],
            face_count: [0; 5],
            lane_mask: [0; 5],
            slots: [0; 5],
            low: [Card::BJ; FACES],
        };
        // Plain ranks (not the level) of every suit, low to high.
        for (si, &suit) in Suit::ALL.iter().enumerate() {
            let lane = if trump == Some(suit) { TRUMP } else { si };
            let mut slot = 0;
            for rank in Rank::all().filter(|&r| r != level) {
                o.place(Card::new(suit, rank), lane, slot);
                slot += 1;
            }
            o.slots[lane] = slot;
        }
        // Then the top of the trump ladder.
        let mut top = if trump.is_some() { o.slots[TRUMP] } else { 0 };
        for suit in Suit::ALL.into_iter().filter(|&s| Some(s) != trump) {
            o.place(Card::new(suit, level), TRUMP, top); // 副级牌, all equal
        }
        top += 1;
        if let Some(t) = trump {
            o.place(Card::new(t, level), TRUMP, top); // 主级牌
            top += 1;
        }
        o.place(Card::BJ, TRUMP, top);
        o.place(Card::RJ, TRUMP, top + 1);
        o.slots[TRUMP] = top + 2;
        // Placed slot by slot, and the faces of one slot (副级牌) in suit order: each lane's
        // faces are already lowest first.
        debug_assert!((0..5).all(|l| o
            .faces_of(l)
            .windows(2)
            .all(|w| (o.slot(w[0]), w[0]) < (o.slot(w[1]), w[1]))));
        o.low = o.lowest_first();
        o
    }

    /// Every face by [`Order::low_key`] without a sort (a board makes its order once, a search
    /// makes thousands): the side suits slot by slot, each slot's faces in suit order, then the
    /// trump lane as it stands.
    fn lowest_first(&self) -> [Card; FACES] {
        let mut low = [Card::BJ; FACES];
        let mut n = 0;
        let side_slots = (0..TRUMP).map(|l| self.slots[l]).max().unwrap_or(0);
        for slot in 0..side_slots as usize {
            for lane in 0..TRUMP {
                if let Some(&c) = self.faces_of(lane).get(slot) {
                    low[n] = c;
                    n += 1;
                }
            }
        }
        for &c in self.faces_of(TRUMP) {
            low[n] = c;
            n += 1;
        }
        debug_assert_eq!(n, FACES);
        low
    }

    fn place(&mut self, card: Card, lane: usize, slot: u8) {
        self.lane[card.index()] = lane as u8;
        self.slot[card.index()] = slot;
        let n = &mut self.face_count[lane];
        self.faces[lane][*n as usize] = card;
        *n += 1;
        self.lane_mask[lane] |= 1 << card.index();
    }

    pub fn level(&self) -> Rank {
        self.level
    }

    /// `None`: no trump suit (无主).
    pub fn trump_suit(&self) -> Option<Suit> {
        self.trump
    }

    /// The card's effective suit (门).
    pub fn lane(&self, card: Card) -> Lane {
        Lane::from_index(self.lane_index(card))
    }

    pub(crate) fn lane_index(&self, card: Card) -> usize {
        self.lane[card.index()] as usize
    }

    pub fn is_trump(&self, card: Card) -> bool {
        self.lane_index(card) == TRUMP
    }

    /// Strength inside the card's effective suit, 0 the lowest. Cards of one lane compare by
    /// it; equal slots are equal cards (the earlier played wins).
    pub fn slot(&self, card: Card) -> u8 {
        self.slot[card.index()]
    }

    /// Number of slots (distinct strengths) in a lane.
    pub fn slot_count(&self, lane: Lane) -> usize {
        self.slots[lane.index()] as usize
    }

    /// The faces of a lane, lowest first.
    pub fn lane_faces(&self, lane: Lane) -> &[Card] {
        self.faces_of(lane.index())
    }

    /// Every face, lowest first by [`Order::low_key`].
    pub fn faces_low_first(&self) -> &[Card] {
        &self.low
    }

    pub(crate) fn faces_of(&self, lane: usize) -> &[Card] {
        &self.faces[lane][..self.face_count[lane] as usize]
    }

    /// The faces of a lane as a face mask (bit i for face i).
    pub(crate) fn lane_mask(&self, lane: usize) -> u64 {
        self.lane_mask[lane]
    }

    /// How many of the hand's cards are in lane `lane`.
    pub(crate) fn held_in(&self, lane: usize, hand: &Hand) -> usize {
        hand.count_in(self.lane_mask[lane])
    }

    /// True if a pair of `a` and a pair of `b` are adjacent (form a tractor together): same
    /// effective suit, strengths next to each other.
    pub fn adjacent(&self, a: Card, b: Card) -> bool {
        self.lane_index(a) == self.lane_index(b) && self.slot(a).abs_diff(self.slot(b)) == 1
    }

    /// True if `a` beats `b` when `b` is already on the table (ignoring who led): a higher card
    /// of the same effective suit, or any trump over a side card.
    pub fn beats(&self, a: Card, b: Card) -> bool {
        let (la, lb) = (self.lane_index(a), self.lane_index(b));
        if la == lb {
            self.slot(a) > self.slot(b)
        } else {
            la == TRUMP
        }
    }

    /// Sort key from the lowest card up: side suits before trumps, then strength, then face.
    /// "The lowest legal play" and the default bury use it.
    pub fn low_key(&self, card: Card) -> (bool, u8, usize) {
        (self.is_trump(card), self.slot(card), card.index())
    }

    /// Sort key for showing cards (a view's hand): trumps first, then the side suits in suit
    /// order (♠ ♥ ♦ ♣), each from its highest card down; equal cards (副级牌) in suit order. So
    /// `RJ BJ 主级牌 副级牌… trump A … 2`, then ♠ A … 2, and so on; a client shows the hand as
    /// given and never needs the trump order itself.
    pub fn display_key(&self, card: Card) -> (usize, std::cmp::Reverse<u8>, usize) {
        let lane = self.lane_index(card);
        let group = if lane == TRUMP { 0 } else { 1 + lane };
        (group, std::cmp::Reverse(self.slot(card)), card.index())
    }

    /// A hand's cards as [`Order::sort_for_display`] would sort them, read off the faces held
    /// instead of sorted: every view shows each hand it has (four or five hands an action), and
    /// sorting them cost a twentieth of the instructions of an 80分 action in the server
    /// (docs/performance.md, "Twentieth round").
    pub fn display_cards(&self, hand: &Hand) -> Vec<Card> {
        let mut cards = Vec::with_capacity(hand.len());
        let mut put = |face: Card| {
            for _ in 0..hand.count(face) {
                cards.push(face);
            }
        };
        // Trumps from the top slot down. The lane's faces are kept lowest first, the faces of
        // one slot (副级牌) in suit order, which is also their order shown.
        let trumps = self.faces_of(TRUMP);
        let mut top = trumps.len();
        while top > 0 {
            let slot = self.slot(trumps[top - 1]);
            let mut bottom = top - 1;
            while bottom > 0 && self.slot(trumps[bottom - 1]) == slot {
                bottom -= 1;
            }
            trumps[bottom..top].iter().for_each(|&face| put(face));
            top = bottom;
        }
        // Each side suit has one face a slot, its slots in face order: the faces held, highest
        // first.
        for lane in 0..TRUMP {
            let mut held = hand.faces_mask() & self.lane_mask[lane];
            while held != 0 {
                let face = 63 - held.leading_zeros() as usize;
                put(Card::from_index(face));
                held &= !(1 << face);
            }
        }
        cards
    }

    /// Sorts cards by [`Order::display_key`]. Every view sorts each hand it shows: each card's
    /// key is worked out once, packed with the card into a `u32` (group, then the slot
    /// reversed, then the face), and the keys sorted, not the key worked out again at every
    /// comparison (a sixteenth of the instructions the server spent on an action). Equal keys
    /// are the same face, so the sort need not be stable.
    pub fn sort_for_display(&self, cards: &mut [Card]) {
        const ON_STACK: usize = 64;
        if cards.len() > ON_STACK {
            return cards.sort_by_key(|&c| self.display_key(c));
        }
        let mut keys = [0u32; ON_STACK];
        let keys = &mut keys[..cards.len()];
        for (k, &c) in keys.iter_mut().zip(cards.iter()) {
            let (group, std::cmp::Reverse(slot), face) = self.display_key(c);
            *k = (group as u32) << 16 | (255 - slot as u32) << 8 | face as u32;
        }
        keys.sort_unstable();
        for (c, &k) in cards.iter_mut().zip(keys.iter()) {
            *c = Card::from_index((k & 0xff) as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_list;
    use proptest::prelude::*;

    proptest! {
        /// The packed keys sort as the keys do, for every level and trump, below the stack's
        /// 64 cards and past them.
        #[test]
        fn the_display_sort_is_the_display_keys_order(
            level in 2u8..=14,
            trump in 0usize..5,
            faces in proptest::collection::vec(0usize..FACES, 0..80),
        ) {
            let order = Order::new(Rank::new(level).unwrap(), Suit::ALL.get(trump).copied());
            let mut cards: Vec<Card> = faces.into_iter().map(Card::from_index).collect();
            let mut by_key = cards.clone();
            by_key.sort_by_key(|&c| order.display_key(c));
            order.sort_for_display(&mut cards);
            prop_assert_eq!(cards, by_key);
        }

        /// A hand read off in display order is the hand sorted for display, for every level
        /// and trump (无主 too), with cards held once, twice or more.
        #[test]
        fn a_hand_in_display_order_is_the_hand_sorted_for_display(
            level in 2u8..=14,
            trump in 0usize..5,
            faces in proptest::collection::vec(0usize..FACES, 0..80),
        ) {
            let order = Order::new(Rank::new(level).unwrap(), Suit::ALL.get(trump).copied());
            let mut hand = Hand::default();
            for &f in &faces {
                hand.add(Card::from_index(f));
            }
            let mut sorted = hand.cards();
            order.sort_for_display(&mut sorted);
            prop_assert_eq!(order.display_cards(&hand), sorted);
        }
    }

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn trump_ladder_with_a_trump_suit() {
        let o = Order::new(Rank::new(4).unwrap(), Some(Suit::Spades));
        let ladder = parse_list("S2 S3 S5 SA H4 S4 BJ RJ").unwrap();
        for w in ladder.windows(2) {
            assert!(o.beats(w[1], w[0]), "{} over {}", w[1], w[0]);
        }
        assert_eq!(o.slot(c("H4")), o.slot(c("D4")));
        assert!(!o.adjacent(c("H4"), c("D4")));
        assert!(o.adjacent(c("H4"), c("SA")) && o.adjacent(c("C4"), c("S4")));
        assert_eq!(o.slot_count(Lane::Trump), 16);
        assert_eq!(o.lane_faces(Lane::Trump).len(), 18);
        assert_eq!(o.lane(c("H5")), Lane::Side(Suit::Hearts));
        assert!(o.adjacent(c("H3"), c("H5")), "the level rank is skipped");
    }

    #[test]
    fn faces_low_first_is_the_low_key_order_on_every_board() {
        for level in Rank::all() {
            for trump in Suit::ALL.map(Some).into_iter().chain([None]) {
                let o = Order::new(level, trump);
                let mut sorted: Vec<Card> = Card::all().collect();
                sorted.sort_by_key(|&c| o.low_key(c));
                assert_eq!(o.faces_low_first(), &sorted[..], "level {level}, {trump:?}");
            }
        }
    }

    #[test]
    fn a_lane_index_is_its_suits_place_in_suit_order() {
        for (i, &suit) in Suit::ALL.iter().enumerate() {
            assert_eq!(Lane::Side(suit).index(), i);
        }
        for i in 0..5 {
            assert_eq!(Lane::from_index(i).index(), i);
        }
    }

    #[test]
    fn no_trump_board() {
        let o = Order::new(Rank::new(10).unwrap(), None);
        assert_eq!(o.lane_faces(Lane::Trump).len(), 6);
        assert!(o.adjacent(c("H10"), c("BJ")) && o.adjacent(c("BJ"), c("RJ")));
        assert!(!o.adjacent(c("H10"), c("S10")));
        assert!(!o.is_trump(c("SA")));
    }
}
