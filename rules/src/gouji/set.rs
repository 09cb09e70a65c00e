//! 一套 (sets) and 级牌 (gouji sets): one rank with attached 2s (贴钱) and jokers (挂花).
//!
//! A set is any number of cards of one rank, plus any number of 2s and jokers. Sets of only 2s
//! (with or without jokers) and sets of only jokers are sets too. Normalisation: attached 2s
//! become the base rank (`2 7 7 7` is four 7s); jokers keep their own rank. Suits never matter,
//! so a set is fully described by its [`Shape`]: the base rank and how many naturals, 2s, small
//! and big jokers it holds.
//!
//! 级牌 thresholds (counting attached 2s as the base rank): five 10s, four Js, three Qs, two Ks,
//! two As, one 2, or any joker. Sets of 4–9 without a joker are never 级牌.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Hand, Rank, Suit};

/// A card's strength in 够级 order: 4..=14 for 4..A, then [`TWO`], [`SMALL`], [`BIG`].
pub type Strength = u8;

/// The lowest natural rank of the game (the 3s are removed).
pub const FOUR: Strength = 4;
/// A (value 14), the highest natural rank.
pub const ACE: Strength = 14;
/// 2 (钱): above A.
pub const TWO: Strength = 15;
/// `BJ` 小王 (小花).
pub const SMALL: Strength = 16;
/// `RJ` 大王 (大花).
pub const BIG: Strength = 17;

/// Strength of one card; `None` for a 3, which is not part of the game.
pub fn strength(card: Card) -> Option<Strength> {
    if card == Card::BJ {
        return Some(SMALL);
    }
    if card == Card::RJ {
        return Some(BIG);
    }
    match card.rank()?.value() {
        2 => Some(TWO),
        3 => None,
        v => Some(v),
    }
}

/// The printed symbol of a strength, for messages (`10`, `A`, `2`, `BJ`, `RJ`).
pub fn symbol(s: Strength) -> &'static str {
    match s {
        TWO => "2",
        SMALL => "BJ",
        BIG => "RJ",
        v => Rank::new(v).map(Rank::symbol).unwrap_or("?"),
    }
}

/// A hand counted by strength: what the legal-play enumeration and the sustain test need, with
/// suits folded away. Index 4..=17; 0..=3 are unused so a strength indexes directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Counts(pub [u8; 18]);

impl Counts {
    pub fn of(hand: &Hand) -> Counts {
        let mut c = Counts::default();
        for (card, n) in hand.faces() {
            if let Some(s) = strength(card) {
                c.0[s as usize] += n as u8;
            }
        }
        c
    }

    pub fn get(&self, s: Strength) -> u8 {
        self.0[s as usize]
    }

    pub fn jokers(&self) -> u8 {
        self.get(SMALL) + self.get(BIG)
    }

    /// Distinct natural ranks held (4..A), the "sets still to lead" of the sustain test: 2s and
    /// jokers do not count, they can always ride along with another set.
    pub fn natural_ranks(&self) -> usize {
        (FOUR..=ACE).filter(|&s| self.get(s) > 0).count()
    }

    pub fn total(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }

    /// The counts left after playing `shape` (which must be held).
    pub fn minus(&self, shape: &Shape) -> Counts {
        let mut c = *self;
        if shape.base != 0 && shape.base != TWO {
            c.0[shape.base as usize] -= shape.naturals;
        }
        c.0[TWO as usize] -= shape.twos;
        c.0[SMALL as usize] -= shape.small;
        c.0[BIG as usize] -= shape.big;
        c
    }

    /// The whole hand as one set, if it is one: at most one natural rank.
    pub fn as_one_set(&self) -> Option<Shape> {
        if self.total() == 0 || self.natural_ranks() > 1 {
            return None;
        }
        let natural = (FOUR..=ACE).find(|&s| self.get(s) > 0);
        Some(Shape {
            base: natural.unwrap_or(if self.get(TWO) > 0 { TWO } else { 0 }),
            naturals: natural.map_or(0, |s| self.get(s)),
            twos: self.get(TWO),
            small: self.get(SMALL),
            big: self.get(BIG),
        })
    }
}

/// A set with suits folded away: everything the rules look at.
///
/// Invariants: `base` is 4..=14 with `naturals ≥ 1`, or [`TWO`] with `naturals == 0` and
/// `twos ≥ 1` (a set of 2s), or 0 for a set of jokers only (`twos == 0`, `naturals == 0`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiShape"))]
pub struct Shape {
    /// Strength of the base rank; 0 when the set is jokers only.
    pub base: Strength,
    /// Natural cards of the base rank (0 for a set of 2s).
    pub naturals: u8,
    /// 2s: attached (they count as the base rank), or the base itself in a set of 2s.
    pub twos: u8,
    /// `BJ` 小王.
    pub small: u8,
    /// `RJ` 大王.
    pub big: u8,
}

impl Shape {
    pub fn len(&self) -> usize {
        (self.naturals + self.twos + self.small + self.big) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Cards that count as the base rank after normalisation (naturals plus 2s).
    pub fn base_count(&self) -> u8 {
        self.naturals + self.twos
    }

    pub fn jokers(&self) -> u8 {
        self.small + self.big
    }

    /// The 级牌 threshold by itself, ignoring who plays it (无头, last set): any joker, or enough
    /// cards of a high rank.
    pub fn is_gouji(&self) -> bool {
        self.jokers() > 0 || threshold(self.base).is_some_and(|t| self.base_count() >= t)
    }

    /// The same set with `n` big jokers taken out (大花两打一 compares the remainders).
    pub fn without_big(&self, n: u8) -> Shape {
        let mut s = *self;
        s.big -= n;
        if s.base == 0 && s.jokers() == 0 {
            s = Shape::default();
        }
        s
    }

    /// Order used to pick "the smallest legal set" (clock expiry of a leader): fewest cards, then
    /// lowest base, then fewest attachments.
    pub fn smallness(&self) -> (usize, u8, u8, u8) {
        let base = if self.base == 0 {
            if self.small > 0 {
                SMALL
            } else {
                BIG
            }
        } else {
            self.base
        };
        (self.len(), base, self.twos + self.jokers(), self.big)
    }

    /// Concrete cards for this shape out of `hand`, lowest faces first (suits never matter, so
    /// any choice is as good as another; a fixed one keeps legal-action lists deterministic).
    pub fn take_from(&self, hand: &Hand) -> Option<Vec<Card>> {
        let mut out = Vec::with_capacity(self.len());
        let take_rank = |value: u8, mut n: u8, out: &mut Vec<Card>| -> bool {
            let rank = Rank::new(value).expect("natural rank");
            for suit in Suit::ALL {
                let card = Card::new(suit, rank);
                let have = hand.count(card) as u8;
                let k = have.min(n);
                out.extend(std::iter::repeat_n(card, k as usize));
                n -= k;
            }
            n == 0
        };
        if (FOUR..=ACE).contains(&self.base) && !take_rank(self.base, self.naturals, &mut out) {
            return None;
        }
        if !take_rank(2, self.twos, &mut out) {
            return None;
        }
        for (card, n) in [(Card::BJ, self.small), (Card::RJ, self.big)] {
            if hand.count(card) < n as usize {
                return None;
            }
            out.extend(std::iter::repeat_n(card, n as usize));
        }
        Some(out)
    }
}

/// The 级牌 threshold of a base rank (normalised count needed), `None` for 4–9 and jokers-only.
pub fn threshold(base: Strength) -> Option<u8> {
    match base {
        10 => Some(5),
        11 => Some(4),
        12 => Some(3),
        13 | ACE => Some(2),
        TWO => Some(1),
        _ => None,
    }
}

/// Why some cards are not one set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetError {
    /// No cards at all.
    Empty,
    /// Two or more natural ranks (2s and jokers aside).
    MixedRanks { ranks: Vec<Strength> },
    /// A 3: the game is played without them.
    NotInGame { card: Card },
}

/// One set as played: the cards and their shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoujiSet {
    pub cards: Vec<Card>,
    pub shape: Shape,
}

impl GoujiSet {
    /// Reads cards as one set, normalising 2s to the base rank.
    pub fn parse(cards: &[Card]) -> Result<GoujiSet, SetError> {
        Ok(GoujiSet {
            cards: cards.to_vec(),
            shape: shape_of(cards)?,
        })
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The normalised strengths, high to low (the form the beating rule compares).
    pub fn normalised(&self) -> Vec<Strength> {
        normalised(&self.shape)
    }
}

/// The shape of some cards, if they are one set.
pub fn shape_of(cards: &[Card]) -> Result<Shape, SetError> {
    if cards.is_empty() {
        return Err(SetError::Empty);
    }
    let mut shape = Shape::default();
    let mut ranks: Vec<Strength> = Vec::new();
    for &card in cards {
        match strength(card) {
            None => return Err(SetError::NotInGame { card }),
            Some(TWO) => shape.twos += 1,
            Some(SMALL) => shape.small += 1,
            Some(BIG) => shape.big += 1,
            Some(s) => {
                if !ranks.contains(&s) {
                    ranks.push(s);
                }
                shape.naturals += 1;
            }
        }
    }
    if ranks.len() > 1 {
        ranks.sort_unstable();
        return Err(SetError::MixedRanks { ranks });
    }
    shape.base = match ranks.first() {
        Some(&s) => s,
        None if shape.twos > 0 => TWO,
        None => 0,
    };
    Ok(shape)
}

/// The normalised strengths of a shape, high to low.
pub fn normalised(shape: &Shape) -> Vec<Strength> {
    let mut v = Vec::with_capacity(shape.len());
    v.extend(std::iter::repeat_n(BIG, shape.big as usize));
    v.extend(std::iter::repeat_n(SMALL, shape.small as usize));
    v.extend(std::iter::repeat_n(shape.base, shape.base_count() as usize));
    v
}

/// The smallest set the hand may lead (clock expiry): a single card of the lowest rank held; a
/// burner its smallest joker set or, failing that, its whole hand if it is one set.
pub fn smallest_lead(c: &Counts, joker_required: bool) -> Option<Shape> {
    let single = |s: Strength| Shape {
        base: if s >= SMALL { 0 } else { s },
        naturals: (s <= ACE) as u8,
        twos: (s == TWO) as u8,
        small: (s == SMALL) as u8,
        big: (s == BIG) as u8,
    };
    if joker_required {
        let joker = [SMALL, BIG].into_iter().find(|&s| c.get(s) > 0).map(single);
        let whole = c.as_one_set();
        return match (joker, whole) {
            (Some(j), Some(w)) => Some(if w.smallness() < j.smallness() { w } else { j }),
            (j, w) => j.or(w),
        };
    }
    (FOUR..=BIG).find(|&s| c.get(s) > 0).map(single)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_list;

    fn shape(s: &str) -> Shape {
        shape_of(&parse_list(s).unwrap()).unwrap()
    }

    #[test]
    fn twos_take_the_base_rank_jokers_keep_theirs() {
        let s = shape("C2 S7 H7 D7");
        assert_eq!((s.base, s.base_count(), s.len()), (7, 4, 4));
        assert_eq!(normalised(&s), vec![7, 7, 7, 7]);
        let s = shape("S2 H2 BJ");
        assert_eq!(s.base, TWO);
        assert_eq!(normalised(&s), vec![SMALL, TWO, TWO]);
        let s = shape("BJ RJ");
        assert_eq!((s.base, s.len()), (0, 2));
    }

    #[test]
    fn one_rank_only() {
        let cards = parse_list("S7 H8").unwrap();
        assert_eq!(
            shape_of(&cards),
            Err(SetError::MixedRanks { ranks: vec![7, 8] })
        );
        assert_eq!(shape_of(&[]), Err(SetError::Empty));
        assert!(matches!(
            shape_of(&parse_list("S3").unwrap()),
            Err(SetError::NotInGame { .. })
        ));
    }

    #[test]
    fn take_from_picks_held_cards() {
        let hand: Hand = parse_list("S7 H7 C2 BJ RJ").unwrap().into_iter().collect();
        let s = shape("D7 D7 S2");
        let cards = s.take_from(&hand).unwrap();
        assert!(hand.contains_all(&cards));
        assert_eq!(shape_of(&cards).unwrap(), s);
        assert_eq!(shape("S7 S7 S7").take_from(&hand), None);
    }
}
