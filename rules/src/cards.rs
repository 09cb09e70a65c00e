//! 牌 (cards): the notation of the rules specs, hands as multisets, card points.
//!
//! A card is one of 54 faces; identical faces from different decks are indistinguishable, so a
//! [`Hand`] is a count per face. Notation: suit letter + rank (`S10`, `HA`, `C2`), `BJ` 小王 and
//! `RJ` 大王. Parsing is case-insensitive; output is canonical.

use std::fmt;
use std::str::FromStr;

use crate::Explain;

/// The four suits, in the canonical order used for deck building and sorting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// ♠ 黑桃
    Spades,
    /// ♥ 红桃
    Hearts,
    /// ♦ 方块
    Diamonds,
    /// ♣ 梅花
    Clubs,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The notation letter: `S`, `H`, `D`, `C`.
    pub fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            'C' => Some(Suit::Clubs),
            _ => None,
        }
    }

    /// The Chinese name a player uses.
    pub fn zh(self) -> &'static str {
        match self {
            Suit::Spades => "黑桃",
            Suit::Hearts => "红桃",
            Suit::Diamonds => "方块",
            Suit::Clubs => "梅花",
        }
    }

    /// 0..4 in [`Suit::ALL`] order (the declaration order).
    pub(crate) fn index(self) -> u8 {
        self as u8
    }
}

/// A natural rank, 2 (value 2) to A (value 14). Game order (level cards, 2s above A in 够级) is
/// each engine's business; this is only the printed rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const TWO: Rank = Rank(2);
    pub const THREE: Rank = Rank(3);
    pub const FIVE: Rank = Rank(5);
    pub const TEN: Rank = Rank(10);
    pub const JACK: Rank = Rank(11);
    pub const QUEEN: Rank = Rank(12);
    pub const KING: Rank = Rank(13);
    pub const ACE: Rank = Rank(14);

    /// All thirteen ranks, 2 up to A.
    pub fn all() -> impl DoubleEndedIterator<Item = Rank> + Clone {
        (2..=14).map(Rank)
    }

    /// A rank from its value 2..=14.
    pub fn new(value: u8) -> Option<Rank> {
        (2..=14).contains(&value).then_some(Rank(value))
    }

    /// 2..=14 (J 11, Q 12, K 13, A 14).
    pub fn value(self) -> u8 {
        self.0
    }

    /// The notation: `2`…`10`, `J`, `Q`, `K`, `A`.
    pub fn symbol(self) -> &'static str {
        const SYMBOLS: [&str; 15] = [
            "", "", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
        ];
        SYMBOLS[self.0 as usize]
    }

    /// Parses `2`…`10`, `J`, `Q`, `K`, `A`, case-insensitive.
    pub fn parse(s: &str) -> Option<Rank> {
        let v = match s.to_ascii_uppercase().as_str() {
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            "A" => 14,
            n => n.parse::<u8>().ok().filter(|v| (2..=10).contains(v))?,
        };
        Some(Rank(v))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// One card face. Index 0..52 are the suited cards (suit-major, rank 2..A), 52 is `BJ` 小王 and
/// 53 `RJ` 大王. The index makes a hand a plain array of counts.
/// On the wire (serde) a card is its notation as a string: `"S10"`, `"HA"`, `"BJ"`, `"RJ"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
pub struct Card(u8);

/// Number of distinct faces.
pub const FACES: usize = 54;

impl Card {
    /// 小王, the small (black) joker.
    pub const BJ: Card = Card(52);
    /// 大王, the big (red) joker.
    pub const RJ: Card = Card(53);

    pub fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit.index() * 13 + (rank.0 - 2))
    }

    /// The face with this index (0..54).
    pub fn from_index(i: usize) -> Card {
        assert!(i < FACES, "card index {i} out of range");
        Card(i as u8)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// The suit, `None` for jokers.
    pub fn suit(self) -> Option<Suit> {
        (!self.is_joker()).then(|| Suit::ALL[(self.0 / 13) as usize])
    }

    /// The rank, `None` for jokers.
    pub fn rank(self) -> Option<Rank> {
        (!self.is_joker()).then_some(Rank(self.0 % 13 + 2))
    }

    /// 分牌: a 5 is worth 5, a 10 or K 10, everything else nothing.
    pub fn points(self) -> u32 {
        POINTS[self.index()] as u32
    }

    /// Every face once: the 52 suited cards in suit-major order, then `BJ`, `RJ`.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..FACES as u8).map(Card)
    }
}

/// Every face's card points, by index: a look-up, not a branch on the rank (a trick's points
/// are added up once a trick).
const POINTS: [u8; FACES] = {
    let mut points = [0; FACES];
    let mut i = 0;
    while i < 52 {
        points[i] = match i % 13 + 2 {
            5 => 5,
            10 | 13 => 10,
            _ => 0,
        };
        i += 1;
    }
    points
};

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.suit(), self.rank()) {
            (Some(s), Some(r)) => write!(f, "{}{}", s.letter(), r.symbol()),
            _ if *self == Card::BJ => f.write_str("BJ"),
            _ => f.write_str("RJ"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A token that is not a card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardError {
    /// The token exactly as it was given, so the message can quote it.
    pub token: String,
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en())
    }
}

impl std::error::Error for CardError {}

impl Explain for CardError {
    fn code(&self) -> &'static str {
        "unknown_card"
    }
    fn zh(&self) -> String {
        format!(
            "「{}」不是一张牌（例：S10、HA、C2、BJ 小王、RJ 大王）",
            self.token
        )
    }
    fn en(&self) -> String {
        format!(
            "\"{}\" is not a card (examples: S10, HA, C2, BJ small joker, RJ big joker)",
            self.token
        )
    }
}

impl FromStr for Card {
    type Err = CardError;

    fn from_str(token: &str) -> Result<Card, CardError> {
        let err = || CardError {
            token: token.to_string(),
        };
        let t = token.trim();
        match t.to_ascii_uppercase().as_str() {
            "BJ" => return Ok(Card::BJ),
            "RJ" => return Ok(Card::RJ),
            _ => {}
        }
        let mut chars = t.chars();
        let suit = chars.next().and_then(Suit::from_letter).ok_or_else(err)?;
        let rank = Rank::parse(chars.as_str()).ok_or_else(err)?;
        Ok(Card::new(suit, rank))
    }
}

/// Every face's notation, by index: what [`fmt::Display`] writes, as one `&str` (a test checks
/// they agree).
const NAMES: [&str; FACES] = [
    "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "SJ", "SQ", "SK", "SA", "H2", "H3",
    "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK", "HA", "D2", "D3", "D4", "D5",
    "D6", "D7", "D8", "D9", "D10", "DJ", "DQ", "DK", "DA", "C2", "C3", "C4", "C5", "C6", "C7",
    "C8", "C9", "C10", "CJ", "CQ", "CK", "CA", "BJ", "RJ",
];

impl Card {
    /// The notation (`"S10"`, `"BJ"`), without formatting.
    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }
}

impl serde::Serialize for Card {
    /// The notation as one string. Not `collect_str`: going through `fmt` for every card was a
    /// visible share of the server's time writing views (a view has 30 to 60 cards).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let token = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        token.parse().map_err(serde::de::Error::custom)
    }
}

/// Parses a list of tokens, naming the first bad one.
pub fn parse_cards<S: AsRef<str>>(tokens: &[S]) -> Result<Vec<Card>, CardError> {
    tokens.iter().map(|t| t.as_ref().parse()).collect()
}

/// Parses a space- or comma-separated list (`"SA SA HK"`), for tests and the command line.
pub fn parse_list(s: &str) -> Result<Vec<Card>, CardError> {
    s.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect()
}

/// Formats cards in canonical notation separated by spaces.
pub fn format_cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A multiset of cards from any number of decks (80分 uses two, 够级 six): a count per face.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Hand {
    counts: [u8; FACES],
    len: u16,
    held: Held,
}

impl Default for Hand {
    fn default() -> Self {
        Hand {
            counts: [0; FACES],
            len: 0,
            held: Held::default(),
        }
    }
}

/// The faces a hand holds at least once, twice, three times (bit i for face i): the faces and
/// the pairs held, without a pass over the 54 counts. Kept by `add` and `remove`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
struct Held {
    once: u64,
    twice: u64,
    thrice: u64,
}

impl Held {
    /// Face `i` is now held `n` times, one more than before.
    fn added(&mut self, i: usize, n: u8) {
        let bit = 1 << i;
        self.once |= bit;
        self.twice |= bit_if(n >= 2, bit);
        self.thrice |= bit_if(n >= 3, bit);
    }

    /// Face `i` is now held `n` times, one fewer than before.
    fn removed(&mut self, i: usize, n: u8) {
        let bit = 1 << i;
        self.once &= !bit_if(n < 1, bit);
        self.twice &= !bit_if(n < 2, bit);
        self.thrice &= !bit_if(n < 3, bit);
    }
}

/// `bit` if `cond`, else 0, without a branch: which masks a card changes is as good as random
/// to the predictor.
fn bit_if(cond: bool, bit: u64) -> u64 {
    (cond as u64).wrapping_neg() & bit
}

impl Hand {
    pub fn new() -> Hand {
        Hand::default()
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many copies of `card` the hand holds.
    pub fn count(&self, card: Card) -> usize {
        self.counts[card.index()] as usize
    }

    pub fn add(&mut self, card: Card) {
        let i = card.index();
        self.counts[i] += 1;
        self.len += 1;
        self.held.added(i, self.counts[i]);
    }

    /// Removes one copy; false (and nothing changed) if the hand has none.
    pub fn remove(&mut self, card: Card) -> bool {
        let i = card.index();
        let c = &mut self.counts[i];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        self.len -= 1;
        self.held.removed(i, *c);
        true
    }

    /// The faces held (bit i for face i).
    pub(crate) fn faces_mask(&self) -> u64 {
        self.held.once
    }

    /// The faces held at least twice (bit i for face i).
    pub(crate) fn pairs_mask(&self) -> u64 {
        self.held.twice
    }

    /// How many cards the hand holds of the faces in `faces` (bit i for face i).
    pub(crate) fn count_in(&self, faces: u64) -> usize {
        let (once, twice) = (self.held.once & faces, self.held.twice & faces);
        if self.held.thrice & faces == 0 {
            // No face held three times or more (two decks: always): each face held counts
            // one, each pair one more.
            (once.count_ones() + twice.count_ones()) as usize
        } else {
            bits(once).map(|i| self.counts[i] as usize).sum()
        }
    }

    /// True if every card of `cards` (with multiplicity) is in the hand.
    pub fn contains_all(&self, cards: &[Card]) -> bool {
        if cards.len() <= 4 {
            // A lead is mostly one or two cards: count each among the few, no 54-face pass.
            return cards
                .iter()
                .all(|&c| cards.iter().filter(|&&x| x == c).count() <= self.count(c));
        }
        let other: Hand = cards.iter().copied().collect();
        self.contains_hand(&other)
    }

    /// True if `other` is a sub-multiset of this hand.
    pub fn contains_hand(&self, other: &Hand) -> bool {
        // Every face, no early exit: the compiler does the 54 at once.
        self.counts
            .iter()
            .zip(other.counts.iter())
            .fold(true, |all, (a, b)| all & (a >= b))
    }

    /// Removes all of `cards`, or nothing at all if any is missing.
    pub fn remove_all(&mut self, cards: &[Card]) -> bool {
        if !self.contains_all(cards) {
            return false;
        }
        for &c in cards {
            self.remove(c);
        }
        true
    }

    /// The cards in face order (suit-major, then jokers), each repeated by its count.
    pub fn cards(&self) -> Vec<Card> {
        // Sized at once: collected from the faces' iterator, the vector grew four or five
        // times for a hand of 25 (a view builds one for each seat on every action).
        let mut cards = Vec::with_capacity(self.len());
        cards.extend(self.iter());
        cards
    }

    /// Iterates the cards in face order, with multiplicity.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        self.faces().flat_map(|(c, n)| std::iter::repeat_n(c, n))
    }

    /// Distinct faces held, with their counts, in face order.
    pub fn faces(&self) -> impl Iterator<Item = (Card, usize)> + '_ {
        bits(self.held.once).map(|i| (Card(i as u8), self.counts[i] as usize))
    }

    /// Sum of the card points held.
    pub fn points(&self) -> u32 {
        self.faces().map(|(c, n)| c.points() * n as u32).sum()
    }
}

/// The set bits of `mask`, lowest first: the faces of a face mask.
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (i < 64).then_some(i)
    })
}

/// A card that `decks` decks cannot supply so often (each deck holds one of every card, jokers
/// too), and how often it appears: the first such card in face order, `None` if `decks` decks
/// can hold them all. The referee's judge refuses a question whose cards no deal can hold.
pub fn beyond_decks<'a>(
    cards: impl IntoIterator<Item = &'a Card>,
    decks: usize,
) -> Option<(Card, usize)> {
    let all: Hand = cards.into_iter().copied().collect();
    let over = all.faces().find(|&(_, n)| n > decks);
    over
}

impl FromIterator<Card> for Hand {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Hand {
        // Counted in locals and made at the end: added card by card to a hand in memory, each
        // card waited for the last one's writes (a board deals four hands).
        let mut counts = [0; FACES];
        let (mut len, mut held) = (0, Held::default());
        for c in iter {
            let i = c.index();
            counts[i] += 1;
            len += 1;
            held.added(i, counts[i]);
        }
        Hand { counts, len, held }
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand[{}]", format_cards(&self.cards()))
    }
}

/// Sum of the points of some cards.
pub fn points(cards: &[Card]) -> u32 {
    cards.iter().map(|c| c.points()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_round_trips_through_its_notation() {
        for c in Card::all() {
            let s = c.to_string();
            assert_eq!(s.parse::<Card>().unwrap(), c, "{s}");
            assert_eq!(s.to_lowercase().parse::<Card>().unwrap(), c, "{s}");
        }
        assert_eq!(Card::all().count(), 54);
    }

    #[test]
    fn notation_examples_from_the_spec() {
        let c: Card = "s10".parse().unwrap();
        assert_eq!(c.to_string(), "S10");
        assert_eq!(c.suit(), Some(Suit::Spades));
        assert_eq!(c.rank(), Some(Rank::TEN));
        assert_eq!("ha".parse::<Card>().unwrap().to_string(), "HA");
        assert_eq!("bj".parse::<Card>().unwrap(), Card::BJ);
        assert_eq!("Rj".parse::<Card>().unwrap(), Card::RJ);
        assert_eq!(Card::BJ.suit(), None);
    }

    #[test]
    fn bad_tokens_are_named() {
        for bad in [
            "", "S1", "S11", "X5", "10", "S", "HAA", "J", "S 5", "BJJ", "S01",
        ] {
            let err = bad.parse::<Card>().unwrap_err();
            assert_eq!(err.token, bad);
            assert_eq!(err.code(), "unknown_card");
            assert!(err.zh().contains(bad), "{}", err.zh());
        }
        let err = parse_list("SA HK ZZ C2").unwrap_err();
        assert_eq!(err.token, "ZZ");
    }

    #[test]
    fn the_points_are_the_fives_tens_and_kings() {
        for c in Card::all() {
            let points = match c.rank() {
                Some(Rank::FIVE) => 5,
                Some(Rank::TEN) | Some(Rank::KING) => 10,
                _ => 0,
            };
            assert_eq!(c.points(), points, "{c}");
        }
    }

    #[test]
    fn points_total_100_a_deck() {
        let deck: Hand = Card::all().collect();
        assert_eq!(deck.points(), 100);
        assert_eq!(points(&parse_list("S5 H10 DK CA BJ").unwrap()), 25);
    }

    #[test]
    fn hand_is_a_multiset() {
        let mut h: Hand = parse_list("SA SA HK").unwrap().into_iter().collect();
        assert_eq!(h.len(), 3);
        assert_eq!(h.count("SA".parse().unwrap()), 2);
        let before = h.clone();
        assert!(!h.remove_all(&parse_list("SA SA SA").unwrap()));
        assert_eq!(h, before, "a failed removal changes nothing");
        assert!(h.remove_all(&parse_list("SA HK").unwrap()));
        assert_eq!(format_cards(&h.cards()), "SA");
    }

    /// The masks by their definition: a pass over the 54 counts.
    fn check_masks(h: &Hand, rng: &mut u64) {
        let held = |k: usize| Card::all().filter(move |&c| h.count(c) >= k);
        let mask = |cards: &mut dyn Iterator<Item = Card>| cards.fold(0u64, |m, c| m | 1 << c.0);
        assert_eq!(h.pairs_mask(), mask(&mut held(2)));
        let faces: Vec<(Card, usize)> = held(1).map(|c| (c, h.count(c))).collect();
        assert_eq!(h.faces().collect::<Vec<_>>(), faces);
        for _ in 0..4 {
            *rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let some = *rng & ((1 << FACES) - 1);
            let plain: usize = Card::all()
                .filter(|c| some & 1 << c.0 != 0)
                .map(|c| h.count(c))
                .sum();
            assert_eq!(h.count_in(some), plain);
        }
        assert_eq!(h.count_in(u64::MAX), h.len());
    }

    #[test]
    fn the_face_masks_follow_the_counts() {
        // Two decks (80分) and six (够级): random adds and removes, checked after each.
        let mut rng = 7u64;
        for decks in [2, 6] {
            let mut h = Hand::new();
            for _ in 0..20_000 {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let c = Card::from_index((rng >> 33) as usize % FACES);
                if (rng >> 20).is_multiple_of(3) || h.count(c) == decks {
                    h.remove(c);
                } else {
                    h.add(c);
                }
                check_masks(&h, &mut rng);
            }
        }
    }

    #[test]
    fn cards_serialize_as_notation() {
        let v = serde_json::to_string(&parse_list("S10 RJ").unwrap()).unwrap();
        assert_eq!(v, r#"["S10","RJ"]"#);
        let back: Vec<Card> = serde_json::from_str(r#"["s10","rj"]"#).unwrap();
        assert_eq!(format_cards(&back), "S10 RJ");
        assert!(serde_json::from_str::<Vec<Card>>(r#"["Q9"]"#).is_err());
    }

    #[test]
    fn every_name_is_the_display_notation() {
        for c in Card::all() {
            assert_eq!(c.name(), c.to_string());
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{c}\""));
        }
    }
}
