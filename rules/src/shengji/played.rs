//! The tricks of a board, packed: the finished ones and the one on the table. A board keeps
//! every trick (the views show the last one, and all of them once the board is over), and a
//! server keeps a board per table for the table's life: as [`TrickRecord`]s, 25 tricks were
//! some 125 small allocations (about 6 KiB); packed they are two, made once for the board. A
//! play is copied in, not kept as its own list, so playing a card allocates nothing here.

use super::seat::Seat;
use crate::cards::Card;

/// A finished trick, for the views ("look at the last trick").
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TrickRecord {
    pub trick: u8,
    pub plays: Vec<SeatPlay>,
    pub winner: Seat,
    pub points: u32,
}

/// One seat's play in a trick.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatPlay {
    pub seat: Seat,
    pub cards: Vec<Card>,
}

/// The tricks, in order: their cards in one list, a head per finished trick, and the plays so
/// far of the trick on the table (its cards are the end of the list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Played {
    /// Every card played, trick by trick, play by play; the last `cards.len() - done` are the
    /// open trick's.
    cards: Vec<Card>,
    heads: Vec<Head>,
    /// Cards in the finished tricks.
    done: usize,
    /// The open trick's plays so far: seats and lengths, `plays` of them.
    seats: [Seat; 4],
    lens: [u8; 4],
    plays: u8,
}

/// One finished trick: its four plays (seat and number of cards, in play order) and its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Head {
    trick: u8,
    seats: [Seat; 4],
    lens: [u8; 4],
    winner: Seat,
    points: u32,
}

impl Played {
    /// Room for a whole board: `tricks` tricks of `cards` cards in all.
    pub(crate) fn with_capacity(tricks: usize, cards: usize) -> Played {
        Played {
            cards: Vec::with_capacity(cards),
            heads: Vec::with_capacity(tricks),
            done: 0,
            seats: [Seat::N; 4],
            lens: [0; 4],
            plays: 0,
        }
    }

    /// Adds a play to the open trick: one play a seat, so at most four.
    pub(crate) fn play(&mut self, seat: Seat, cards: &[Card]) {
        let i = self.plays as usize;
        assert!(i < 4, "a trick has one play a seat");
        assert!(!cards.is_empty(), "a play has at least one card");
        self.seats[i] = seat;
        self.lens[i] = u8::try_from(cards.len()).expect("a play is one hand at most");
        self.plays += 1;
        self.cards.extend_from_slice(cards);
    }

    /// The open trick's plays so far, in play order.
    pub(crate) fn open(&self) -> impl Iterator<Item = (Seat, &[Card])> {
        let mut from = self.done;
        (0..self.plays as usize).map(move |i| {
            let n = self.lens[i] as usize;
            from += n;
            (self.seats[i], &self.cards[from - n..from])
        })
    }

    /// Number of plays in the open trick.
    pub(crate) fn open_plays(&self) -> usize {
        self.plays as usize
    }

    /// Closes the open trick, every seat having played, with its result.
    pub(crate) fn close(&mut self, trick: u8, winner: Seat, points: u32) {
        assert_eq!(self.plays, 4, "a trick closes once every seat has played");
        // The head made of whole arrays: copied entry by entry (or by memcpy), its bytes were
        // still being written when the push read it, and the processor waited for them.
        self.heads.push(Head {
            trick,
            seats: self.seats,
            lens: self.lens,
            winner,
            points,
        });
        self.done = self.cards.len();
        self.plays = 0;
    }

    /// Number of finished tricks.
    pub(crate) fn len(&self) -> usize {
        self.heads.len()
    }

    /// Trick `i` (from 0) as the views show it.
    pub(crate) fn get(&self, i: usize) -> Option<TrickRecord> {
        let head = self.heads.get(i)?;
        let from: usize = self.heads[..i].iter().map(Head::cards).sum();
        Some(head.record(&self.cards[from..from + head.cards()]))
    }

    pub(crate) fn last(&self) -> Option<TrickRecord> {
        self.get(self.len().checked_sub(1)?)
    }

    pub(crate) fn all(&self) -> Vec<TrickRecord> {
        self.won().map(|(head, cards)| head.record(cards)).collect()
    }

    /// Each finished trick's winner and its cards, in play order.
    pub(crate) fn winners(&self) -> impl Iterator<Item = (Seat, &[Card])> {
        self.won().map(|(head, cards)| (head.winner, cards))
    }

    /// Every card of the finished tricks.
    pub(crate) fn cards(&self) -> &[Card] {
        &self.cards[..self.done]
    }

    fn won(&self) -> impl Iterator<Item = (&Head, &[Card])> {
        let mut from = 0;
        self.heads.iter().map(move |head| {
            let cards = &self.cards[from..from + head.cards()];
            from += head.cards();
            (head, cards)
        })
    }
}

impl Head {
    fn cards(&self) -> usize {
        self.lens.iter().map(|&n| n as usize).sum()
    }

    fn record(&self, cards: &[Card]) -> TrickRecord {
        let mut from = 0;
        let plays = (0..self.lens.iter().filter(|&&n| n > 0).count())
            .map(|i| {
                let n = self.lens[i] as usize;
                from += n;
                SeatPlay {
                    seat: self.seats[i],
                    cards: cards[from - n..from].to_vec(),
                }
            })
            .collect();
        TrickRecord {
            trick: self.trick,
            plays,
            winner: self.winner,
            points: self.points,
        }
    }
}
