//! 记牌 (remembering the play): what one 80分 seat has seen, from its views alone.
//!
//! During play a view shows only the current trick and the last one (打过的牌翻扣好后，不能提出
//! 检查牌的要求) — but every seat plays in every trick, so a seat that looks at its view each
//! time it is to play sees every finished trick as "the last trick" once. [`Notes`] keeps them,
//! as a player at the table remembers what was played. The declarer also remembers its own bury
//! (its hand before and after). [`Known`] is what follows: cards gone, suits a seat is void in.

use rules::cards::{Card, Hand, FACES};
use rules::shengji::{Order, Phase, Seat, SeatPlay, TrickRecord, View};
use rules::Viewer;

/// What a seat remembers of a board: the finished tricks it saw and its own bury.
#[derive(Clone, Debug, Default)]
pub struct Notes {
    /// The board and viewer these notes are about; a view of another starts afresh.
    owner: Option<(u32, Viewer, Seat)>,
    /// Finished tricks seen, by number (index = trick − 1); `None` is a trick not seen.
    tricks: Vec<Option<TrickRecord>>,
    /// The declarer's 33 cards seen while burying, until the kitty is worked out.
    before_bury: Option<Vec<Card>>,
    /// The declarer's own kitty: it buried it (or the view shows it).
    kitty: Option<Vec<Card>>,
}

impl Notes {
    pub fn new() -> Notes {
        Notes::default()
    }

    /// Notes from one view alone (what a bot asked once, without a past, can know).
    pub fn from_view(view: &View) -> Notes {
        let mut n = Notes::new();
        n.observe(view);
        n
    }

    /// Takes in a view of this seat (call it with every view the seat receives, or at least
    /// each time it is to act).
    pub fn observe(&mut self, view: &View) {
        let owner = (view.board, view.viewer, view.declarer);
        if self.owner != Some(owner) {
            *self = Notes {
                owner: Some(owner),
                ..Notes::default()
            };
        }
        if let Some(all) = &view.tricks {
            for t in all {
                self.record(t);
            }
        }
        if let Some(t) = &view.last_trick {
            self.record(t);
        }
        let me = match view.viewer {
            Viewer::Seat(i) if i < 4 => Some(Seat::from_index(i)),
            _ => None,
        };
        if let Some(k) = view
            .kitty
            .as_ref()
            .filter(|k| self.kitty.as_ref() != Some(*k))
        {
            self.kitty = Some(k.clone());
        }
        if me != Some(view.declarer) || self.kitty.is_some() {
            return;
        }
        let Some(hand) = &view.hand else { return };
        if view.phase == Phase::Bury {
            self.before_bury = Some(hand.clone());
        } else if let Some(before) = &self.before_bury {
            if !self.complete(view.trick) {
                return;
            }
            // The kitty is what left the hand without being played.
            let mut left: Hand = before.iter().copied().collect();
            let mine = self
                .tricks
                .iter()
                .flatten()
                .flat_map(|t| t.plays.iter())
                .chain(view.plays.iter())
                .filter(|p| Some(p.seat) == me)
                .flat_map(|p| p.cards.iter().copied());
            for c in hand.iter().copied().chain(mine) {
                left.remove(c);
            }
            if left.len() == rules::shengji::KITTY_SIZE {
                self.kitty = Some(left.cards());
            }
        }
    }

    fn record(&mut self, t: &TrickRecord) {
        let i = t.trick as usize - 1;
        // Every view repeats the last trick until the next one ends: compared, not cloned
        // again (a server's 托管 players observe every view of every seat).
        if self.tricks.get(i).is_some_and(|r| r.as_ref() == Some(t)) {
            return;
        }
        if self.tricks.len() <= i {
            // Grown one trick at a time, not doubled: a table keeps these notes for every
            // seat for the whole board.
            self.tricks.reserve_exact(i + 1 - self.tricks.len());
            self.tricks.resize(i + 1, None);
        }
        self.tricks[i] = Some(t.clone());
    }

    /// Every trick before `current` was seen.
    pub fn complete(&self, current: u8) -> bool {
        let before = current.saturating_sub(1) as usize;
        self.tricks.len() >= before && self.tricks[..before].iter().all(Option::is_some)
    }

    /// The finished tricks seen, in order.
    pub fn tricks(&self) -> impl Iterator<Item = &TrickRecord> {
        self.tricks.iter().flatten()
    }

    /// The declarer's own kitty, if these are the declarer's notes and it is known.
    pub fn kitty(&self) -> Option<&[Card]> {
        self.kitty.as_deref()
    }
}

/// What follows from the notes: the cards gone in finished tricks and the suits each seat has
/// shown void in. Copied and extended trick by trick inside the Expert's playouts.
#[derive(Clone, Debug)]
pub struct Known {
    /// Cards played in the finished tricks known, per face.
    pub played: [u8; FACES],
    /// `void[seat][lane]`: the seat could not follow that effective suit (lanes: the four side
    /// suits by `Lane::index`, 4 trump).
    pub void: [[bool; 5]; 4],
    /// The declarer's own kitty (in the declarer's knowledge only).
    pub kitty: Option<Hand>,
    /// Every finished trick is in `played` (else some cards went unseen).
    pub complete: bool,
}

impl Known {
    /// Nothing seen yet.
    pub fn empty() -> Known {
        Known {
            played: [0; FACES],
            void: [[false; 5]; 4],
            kitty: None,
            complete: true,
        }
    }

    /// What the notes tell, for the board of `view`.
    pub fn of(view: &View, notes: &Notes) -> Known {
        let order = Order::new(view.level, view.trump);
        let mut k = Known::empty();
        for t in notes.tricks() {
            k.add_trick(&order, &t.plays);
        }
        k.complete = notes.complete(view.trick);
        k.kitty = notes.kitty().map(|c| c.iter().copied().collect());
        k
    }

    /// Takes in a finished trick (or the current trick so far): its cards are gone, and a
    /// follower who played fewer cards of the led suit than were led has no more of it.
    pub fn add_trick(&mut self, order: &Order, plays: &[SeatPlay]) {
        for p in plays {
            for &c in &p.cards {
                self.played[c.index()] += 1;
            }
        }
        self.add_voids(order, plays);
    }

    /// Only the voids a (partial) trick shows.
    pub fn add_voids(&mut self, order: &Order, plays: &[SeatPlay]) {
        let Some(lead) = plays.first() else { return };
        let lane = order.lane(lead.cards[0]).index();
        for p in &plays[1..] {
            let in_lane = p
                .cards
                .iter()
                .filter(|&&c| order.lane(c).index() == lane)
                .count();
            if in_lane < lead.cards.len() {
                self.void[p.seat.index()][lane] = true;
            }
        }
    }
}
