//! The finished tricks of a board, packed. A board keeps every trick (the views show the last
//! one, and all of them once the board is over), and a server keeps a board per table for the
//! table's life: as [`TrickRecord`]s, 25 tricks were some 125 small allocations (about 6 KiB);
//! packed they are two.

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

/// The finished tricks, in order: their cards in one list, and a head per trick.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Played {
    /// Every card of the finished tricks, trick by trick, play by play.
    cards: Vec<Card>,
    heads: Vec<Head>,
}

/// One finished trick: its plays (seat and number of cards, in play order; a play has at least
/// one card, so the plays are the non-zero lengths) and its result.
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
        }
    }

    /// Adds a finished trick: one play a seat, so at most four.
    pub(crate) fn push(
        &mut self,
        trick: u8,
        plays: impl Iterator<Item = (Seat, Vec<Card>)>,
        winner: Seat,
        points: u32,
    ) {
        let mut head = Head {
            trick,
            seats: [winner; 4],
            lens: [0; 4],
            winner,
            points,
        };
        for (i, (seat, cards)) in plays.enumerate() {
            assert!(i < 4, "a trick has one play a seat");
            head.seats[i] = seat;
            assert!(!cards.is_empty(), "a play has at least one card");
            head.lens[i] = u8::try_from(cards.len()).expect("a play is one hand at most");
            self.cards.extend(cards);
        }
        self.heads.push(head);
    }

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

    /// Each trick's winner and its cards, in play order.
    pub(crate) fn winners(&self) -> impl Iterator<Item = (Seat, &[Card])> {
        self.won().map(|(head, cards)| (head.winner, cards))
    }

    /// Every card of the finished tricks.
    pub(crate) fn cards(&self) -> &[Card] {
        &self.cards
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
