//! 发牌 (seeded deals): every board is dealt from a published 32-byte seed and its number.
//!
//! Algorithm `paiju-deal-1`, fixed forever (a board dealt today must replay identically):
//!
//! 1. Key = SHA-256(`"paiju-deal-1"` ‖ 0x00 ‖ game name ‖ 0x00 ‖ board number as u32 big-endian ‖
//!    seed). The game name (`shengji`, `gouji`) and the board number separate the streams, so
//!    the two games and every board of one seed are independent.
//! 2. A ChaCha20 stream ([`rand_chacha::ChaCha20Rng`]) keyed with it.
//! 3. The deck in canonical order (deck by deck: ♠ 2..A, ♥, ♦, ♣, then `BJ`, `RJ`; 够级 without
//!    the 3s) is shuffled by our own Fisher–Yates, drawing each index with an unbiased range
//!    reduction (Lemire's multiply-and-reject on 32-bit words). We do not call
//!    `SliceRandom::shuffle`, whose output may change between `rand` releases.
//! 4. 80分: N takes cards 0..25, E 25..50, S 50..75, W 75..100, the kitty is the last 8. Then,
//!    unless the director fixes them, the level is drawn (13 ranks) and then the trump suit (4
//!    suits; 无主 only when fixed). 够级: A1, B1, A2, B2, A3, B3 take 50 cards each in that order.
//!
//! The seed's SHA-256 is its public commitment: published before play, the seed revealed after.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

use crate::cards::{Card, Rank, Suit};
use crate::Explain;

/// The version every dealt board records; a new algorithm gets a new name, never a new meaning.
pub const ALGORITHM: &str = "paiju-deal-1";

/// A 32-byte deal seed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

/// A seed that is not 64 hex digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedError(pub String);

impl Explain for SeedError {
    fn code(&self) -> &'static str {
        "bad_seed"
    }
    fn zh(&self) -> String {
        format!("种子必须是 64 位十六进制数字，收到「{}」", self.0)
    }
    fn en(&self) -> String {
        format!("a seed is 64 hex digits, got \"{}\"", self.0)
    }
}

impl Seed {
    /// Parses 64 hex digits (either case).
    pub fn from_hex(s: &str) -> Result<Seed, SeedError> {
        let err = || SeedError(s.to_string());
        let s = s.trim();
        if s.len() != 64 || !s.is_ascii() {
            return Err(err());
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| err())?;
        }
        Ok(Seed(out))
    }

    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    /// The public commitment: SHA-256 of the 32 seed bytes, in hex.
    pub fn commitment(&self) -> String {
        hex(&Sha256::digest(self.0))
    }
}

impl std::fmt::Debug for Seed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

/// Lower-case hex of some bytes. Written digit by digit: every logged action hashes its entry,
/// and a `format!` a byte made 32 strings an action.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        text.push(DIGITS[usize::from(b >> 4)] as char);
        text.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    text
}

/// Which game's deal stream: the name goes into the key derivation, so each game has its own
/// streams. (Not to be confused with `gouji::Game`, one 局 of 够级.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Shengji,
    Gouji,
}

impl Stream {
    pub fn name(self) -> &'static str {
        match self {
            Stream::Shengji => "shengji",
            Stream::Gouji => "gouji",
        }
    }
}

/// The random stream of one board of one game.
pub struct DealStream(ChaCha20Rng);

impl DealStream {
    pub fn new(seed: &Seed, game: Stream, board: u32) -> DealStream {
        let mut h = Sha256::new();
        h.update(ALGORITHM.as_bytes());
        h.update([0]);
        h.update(game.name().as_bytes());
        h.update([0]);
        h.update(board.to_be_bytes());
        h.update(seed.0);
        DealStream(ChaCha20Rng::from_seed(h.finalize().into()))
    }

    /// A uniform integer in `0..n` (n ≥ 1), without modulo bias: Lemire's method, rejecting the
    /// low products that would favour some values.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "empty range");
        let threshold = n.wrapping_neg() % n; // (2^32 - n) mod n
        loop {
            let m = u64::from(self.0.next_u32()) * u64::from(n);
            if (m as u32) >= threshold {
                return (m >> 32) as u32;
            }
        }
    }

    /// Fisher–Yates: for i from the end down to 1, swap item i with a uniform j in 0..=i.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// 80分 is dealt from two decks: two of every card, jokers too.
pub const SHENGJI_DECKS: usize = 2;
/// 够级 (`zaozhuang-2017`) is dealt from six decks without the 3s: six of every other card.
pub const GOUJI_DECKS: usize = 6;

/// The canonical unshuffled deck: `decks` copies of every face, deck by deck, leaving out the
/// ranks in `without` (够级 removes the 3s).
pub fn canonical_deck(decks: usize, without: &[Rank]) -> Vec<Card> {
    (0..decks)
        .flat_map(|_| Card::all())
        .filter(|c| c.rank().is_none_or(|r| !without.contains(&r)))
        .collect()
}

/// SHA-256 (hex) of a dealt order, written as canonical notation joined by spaces. Golden tests
/// pin it so a change of algorithm cannot pass unnoticed.
pub fn order_hash(cards: &[Card]) -> String {
    hex(&Sha256::digest(
        crate::cards::format_cards(cards).as_bytes(),
    ))
}

/// What the director may fix for a board instead of drawing it (定级、定主).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fixed {
    pub level: Option<Rank>,
    /// `Some(None)` fixes a no-trump board.
    pub trump: Option<Option<Suit>>,
}

/// One dealt 80分 board (牌套).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShengjiDeal {
    pub board: u32,
    /// Seat index in N, E, S, W order: board 1 is N's, 2 E's, 3 S's, 4 W's, 5 N's again.
    pub declarer: usize,
    pub level: Rank,
    /// `None` is 无主.
    pub trump: Option<Suit>,
    /// 25 cards each, N, E, S, W.
    pub hands: [Vec<Card>; 4],
    /// The 8-card 底牌, which the declarer picks up.
    pub kitty: Vec<Card>,
    /// [`order_hash`] of the whole shuffled deck.
    pub order_hash: String,
}

/// Deals an 80分 board from the seed.
pub fn deal_shengji(seed: &Seed, board: u32, fixed: Fixed) -> ShengjiDeal {
    let mut stream = DealStream::new(seed, Stream::Shengji, board);
    let mut deck = canonical_deck(SHENGJI_DECKS, &[]);
    stream.shuffle(&mut deck);
    let level = Rank::new(2 + stream.below(13) as u8).expect("2..=14");
    let trump = Suit::ALL[stream.below(4) as usize];
    let hands = std::array::from_fn(|s| deck[25 * s..25 * s + 25].to_vec());
    ShengjiDeal {
        board,
        declarer: (board.wrapping_sub(1) % 4) as usize,
        level: fixed.level.unwrap_or(level),
        trump: fixed.trump.unwrap_or(Some(trump)),
        hands,
        kitty: deck[100..].to_vec(),
        order_hash: order_hash(&deck),
    }
}

/// One dealt 够级 game (局).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoujiDeal {
    pub game: u32,
    /// 50 cards each, in seat order A1, B1, A2, B2, A3, B3.
    pub hands: [Vec<Card>; 6],
    pub order_hash: String,
}

/// Deals a 够级 game (`zaozhuang-2017`: six decks without 3s) from the seed.
pub fn deal_gouji(seed: &Seed, game: u32) -> GoujiDeal {
    let mut stream = DealStream::new(seed, Stream::Gouji, game);
    let mut deck = canonical_deck(GOUJI_DECKS, &[Rank::THREE]);
    stream.shuffle(&mut deck);
    GoujiDeal {
        game,
        hands: std::array::from_fn(|s| deck[50 * s..50 * s + 50].to_vec()),
        order_hash: order_hash(&deck),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{format_cards, Hand};

    fn seed(byte: u8) -> Seed {
        Seed([byte; 32])
    }

    #[test]
    fn hex_writes_every_byte_as_two_lower_case_digits() {
        let all: Vec<u8> = (0..=255).collect();
        let by_format: String = all.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex(&all), by_format);
        assert_eq!(hex(&[]), "");
    }

    #[test]
    fn seed_hex_round_trips_and_rejects_bad_input() {
        let hex = "00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF";
        let s = Seed::from_hex(hex).unwrap();
        assert_eq!(s.to_hex(), hex.to_lowercase());
        for bad in [
            "",
            "00",
            &hex[..63],
            &format!("{hex}0"),
            &hex.replace('0', "g"),
        ] {
            assert_eq!(Seed::from_hex(bad).unwrap_err().code(), "bad_seed");
        }
    }

    #[test]
    fn commitment_is_sha256_of_the_seed_bytes() {
        // SHA-256 of 32 zero bytes, a published test vector.
        assert_eq!(
            seed(0).commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut s = DealStream::new(&seed(1), Stream::Shengji, 1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[s.below(7) as usize] += 1;
        }
        // Each of 7 values expected 1000 times; 5 standard deviations is about ±140.
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }

    #[test]
    fn a_shengji_board_is_whole() {
        for b in 1..=20 {
            let d = deal_shengji(&seed(7), b, Fixed::default());
            assert!(d.hands.iter().all(|h| h.len() == 25));
            assert_eq!(d.kitty.len(), 8);
            let all: Hand = d.hands.iter().flatten().chain(&d.kitty).copied().collect();
            assert_eq!(all, canonical_deck(2, &[]).into_iter().collect::<Hand>());
            assert_eq!(d.declarer, ((b - 1) % 4) as usize);
        }
    }

    #[test]
    fn a_gouji_game_is_whole() {
        let d = deal_gouji(&seed(7), 1);
        assert!(d.hands.iter().all(|h| h.len() == 50));
        let all: Hand = d.hands.iter().flatten().copied().collect();
        assert_eq!(all.len(), 300);
        assert_eq!(all.count("S3".parse().unwrap()), 0);
        assert_eq!(all.count(Card::RJ), 6);
        assert_eq!(all.count("D2".parse().unwrap()), 6);
    }

    #[test]
    fn boards_and_games_are_separate_streams() {
        let a = deal_shengji(&seed(7), 1, Fixed::default());
        let b = deal_shengji(&seed(7), 2, Fixed::default());
        let c = deal_shengji(&seed(8), 1, Fixed::default());
        assert_ne!(a.order_hash, b.order_hash);
        assert_ne!(a.order_hash, c.order_hash);
        assert_eq!(a, deal_shengji(&seed(7), 1, Fixed::default()));
    }

    #[test]
    fn fixed_level_and_trump_override_the_draw() {
        let fixed = Fixed {
            level: Some(Rank::new(4).unwrap()),
            trump: Some(None),
        };
        let d = deal_shengji(&seed(7), 3, fixed);
        assert_eq!(d.level.value(), 4);
        assert_eq!(d.trump, None);
        // The cards do not depend on what was fixed.
        assert_eq!(d.hands, deal_shengji(&seed(7), 3, Fixed::default()).hands);
    }

    /// Golden vectors: these hashes pin `paiju-deal-1` forever. If one changes, the algorithm
    /// changed: give it a new name instead.
    #[test]
    fn golden_deals() {
        let s = Seed::from_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
            .unwrap();
        let d = deal_shengji(&s, 1, Fixed::default());
        let g = deal_gouji(&s, 1);
        let summary = format!(
            "{} {} {}{} {}\n{}\n{}",
            d.order_hash,
            d.declarer,
            d.level,
            d.trump.map(|s| s.letter()).unwrap_or('-'),
            format_cards(&d.kitty),
            g.order_hash,
            format_cards(&g.hands[0][..10]),
        );
        assert_eq!(summary, GOLDEN);
    }

    const GOLDEN: &str = "2112c2e4b7cc0c21fdafc9a7e1303ed17483ecd1e3a9e828afe2828d9b8e50fc 0 10S DA S2 C5 S10 SK SA CA H6
8899e8d7149b092268be34f2efa51af8f39ae269f25e820a3e7d8c9f9aaf76a2
H7 C7 SK H4 H6 H8 S6 D4 SJ D9";
}
