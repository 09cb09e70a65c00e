//! 高手 (expert) 80分: determinized Monte-Carlo. Each sample deals the unseen cards to the
//! other hands (and the kitty) consistently with every card played and every void shown,
//! rebuilds a whole board from it with the engine's own constructor (`Board::new` on a deal of
//! the hands as they were when the current trick began, the kitty buried again, and — when the
//! trick's leader is not the declarer — one made-up trick of four low cards that puts the lead
//! where it is), replays the current trick, tries each candidate and plays on to the end with
//! the 普通 policy for all four seats.

use rules::cards::{Card, Hand, Rank, Suit, FACES};
use rules::deal::ShengjiDeal;
use rules::shengji::{legal_from_view, Action, Board, Order, Phase, Seat, View, KITTY_SIZE};
use rules::{Actor, Viewer};

use super::club;
use super::notes::Known;
use crate::level::{Budget, Decision};
use crate::rng::Rng;
use crate::search::search;

/// Candidates weighed per decision (the 普通 choice first).
const CANDIDATES: usize = 8;
/// Buries weighed (each playout of a bury plays a whole board).
const BURY_CANDIDATES: usize = 4;

/// The Expert's decision.
pub fn decide(view: &View, known: &Known, budget: Budget, seed: u64) -> Decision<Action> {
    let most = if view.phase == Phase::Bury {
        BURY_CANDIDATES
    } else {
        CANDIDATES
    };
    decide_seeing(view, known, &[], most, budget, seed)
}

/// The Expert's search with some other hands known as they are (`seen`: a seat and the cards
/// it holds now), over the `most` best 普通 candidates: with `seen` empty, [`decide`]; with a
/// hand in it, a player that cheats — the fair-play calibration's partner-seeing (or
/// opponent-seeing) computer, never a table's.
pub fn decide_seeing(
    view: &View,
    known: &Known,
    seen: &[(Seat, Vec<Card>)],
    most: usize,
    budget: Budget,
    seed: u64,
) -> Decision<Action> {
    let Viewer::Seat(i) = view.viewer else {
        return Decision::default();
    };
    let me = Seat::from_index(i);
    if view.to_act != Some(me) {
        return Decision::default();
    }
    let candidates = club::candidates(view, known, most);
    if candidates.len() <= 1 || view.phase == Phase::Choose {
        return Decision::plain(candidates.into_iter().next());
    }
    let Some(sampler) = Sampler::seeing(view, known, me, seen) else {
        return Decision::plain(candidates.into_iter().next());
    };
    let defending = !me.same_side(view.declarer);
    let found = search(
        candidates.len(),
        budget,
        seed,
        |rng| sampler.world(view, known, rng),
        |world, i| {
            let mut w = world.clone();
            w.board.apply(me, Actor::Bot, candidates[i].clone()).ok()?;
            if let Action::Bury { cards } = &candidates[i] {
                w.declarer_known.kitty = Some(cards.iter().copied().collect());
            }
            let result = w.play_out()? as f64;
            Some(if defending { result } else { -result })
        },
    );
    Decision {
        action: Some(candidates[found.best].clone()),
        playouts: found.playouts,
        rejected: found.rejected,
    }
}

/// Each of `choices` (the seat's legal plays) tried in `worlds` deals consistent with what the
/// seat saw (the same deals for every choice; the hands in `seen` as they are) and played to
/// the end by the 普通 policy: the defenders' points from the current trick on, a row per deal
/// sampled (`None`: the choice could not be tried there). The all-seeing analyser's own view
/// (`seen` empty) and its partner-known view.
pub(super) fn world_values(
    view: &View,
    known: &Known,
    seen: &[(Seat, Vec<Card>)],
    choices: &[Action],
    worlds: u32,
    seed: u64,
) -> Vec<Vec<Option<i32>>> {
    let Viewer::Seat(i) = view.viewer else {
        return Vec::new();
    };
    let me = Seat::from_index(i);
    let Some(sampler) = Sampler::seeing(view, known, me, seen) else {
        return Vec::new();
    };
    let mut rng = Rng::new(seed);
    let mut rows = Vec::new();
    for _ in 0..worlds * 4 {
        if rows.len() == worlds as usize {
            break;
        }
        if let Some(world) = sampler.world(view, known, &mut rng) {
            rows.push(world.values(me, choices));
        }
    }
    rows
}

/// [`world_values`]' row for the true deal (`board`, every hand in it), built the same way as
/// a sampled one, so that the true deal is, to the analyser, one more deal the seat's view
/// allows: under honest play its values are drawn like the samples'.
pub(super) fn true_values(
    view: &View,
    known: &Known,
    board: &Board,
    choices: &[Action],
) -> Option<Vec<Option<i32>>> {
    let Viewer::Seat(i) = view.viewer else {
        return None;
    };
    let me = Seat::from_index(i);
    let sampler = Sampler::new(view, known, me)?;
    let hands = std::array::from_fn(|s| board.hand(Seat::from_index(s)).cards());
    let world = sampler.assemble(view, known, hands, Some(board.kitty().to_vec()))?;
    Some(world.values(me, choices))
}

/// The seat's own estimate of each of `choices` (its legal plays): the mean over `worlds`
/// deals consistent with what it saw ([`world_values`]), `None` where no deal could try it,
/// and how many deals were sampled (at most `worlds`).
pub(super) fn weigh(
    view: &View,
    known: &Known,
    choices: &[Action],
    worlds: u32,
    seed: u64,
) -> (Vec<Option<f64>>, u32) {
    let rows = world_values(view, known, &[], choices, worlds, seed);
    let values = (0..choices.len())
        .map(|c| {
            let seen: Vec<i32> = rows.iter().filter_map(|r| r[c]).collect();
            (!seen.is_empty()).then(|| seen.iter().sum::<i32>() as f64 / seen.len() as f64)
        })
        .collect();
    (values, rows.len() as u32)
}

/// One sampled board at the seat's decision, with what each side remembers.
#[derive(Clone)]
struct World {
    board: Board,
    order: Order,
    /// The declarer's memory (with its own kitty) and the defenders' (without).
    declarer_known: Known,
    defender_known: Known,
    /// Tricks already in `known` (the made-up first trick is not).
    tricks_seen: usize,
}

impl World {
    /// Each of `choices` by `me` here, played to the end: the defenders' points from the
    /// current trick on (`None`: refused or unfinished).
    fn values(&self, me: Seat, choices: &[Action]) -> Vec<Option<i32>> {
        choices
            .iter()
            .map(|choice| {
                let mut w = self.clone();
                w.board.apply(me, Actor::Bot, choice.clone()).ok()?;
                w.play_out()
            })
            .collect()
    }

    /// Plays to the end with the 普通 policy for every seat: the defenders' points in the
    /// sampled board (the made-up trick has none; what was won before is the same for every
    /// candidate and is left out).
    fn play_out(&mut self) -> Option<i32> {
        let declarer = self.board.declarer();
        for _ in 0..200 {
            let Some(seat) = self.board.to_act() else {
                return self.board.result();
            };
            let view = self.board.view(Viewer::Seat(seat.index()));
            let known = if seat == declarer {
                &self.declarer_known
            } else {
                &self.defender_known
            };
            let action =
                club::decide(&view, known).or_else(|| legal_from_view(&view).into_iter().next())?;
            if self.board.apply(seat, Actor::Bot, action).is_err() {
                let fallback = legal_from_view(&view).into_iter().next()?;
                self.board.apply(seat, Actor::Bot, fallback).ok()?;
            }
            while let Some(t) = self.board.trick(self.tricks_seen) {
                self.declarer_known.add_trick(&self.order, &t.plays);
                self.defender_known.add_trick(&self.order, &t.plays);
                self.tricks_seen += 1;
            }
        }
        None
    }
}

/// Who may hold the unseen cards, and how many each holds.
struct Sampler {
    me: Seat,
    order: Order,
    /// Unseen copies per face.
    pool: [u8; FACES],
    /// The holders: other seats (by index), then the kitty (4) when unknown, then cards gone in
    /// tricks this seat did not see (5); with how many cards and the lanes they cannot hold.
    holders: Vec<(usize, usize, [bool; 5])>,
    /// The current hands' sizes.
    sizes: [usize; 4],
    /// Hands known as they are (a cheat's; empty for an honest seat).
    seen: Vec<(Seat, Vec<Card>)>,
}

const KITTY: usize = 4;
const GONE: usize = 5;

impl Sampler {
    fn new(view: &View, known: &Known, me: Seat) -> Option<Sampler> {
        Sampler::seeing(view, known, me, &[])
    }

    /// A sampler that deals only the hands not in `seen` (and the kitty).
    fn seeing(view: &View, known: &Known, me: Seat, seen: &[(Seat, Vec<Card>)]) -> Option<Sampler> {
        let order = Order::new(view.level, view.trump);
        let hand: Hand = view.hand.as_ref()?.iter().copied().collect();
        let mut current = Known::empty();
        current.add_trick(&order, &view.plays);
        let shown: Hand = seen.iter().flat_map(|(_, h)| h.iter().copied()).collect();
        let mut pool = [0u8; FACES];
        for c in Card::all() {
            let gone = hand.count(c) as u8
                + shown.count(c) as u8
                + known.played[c.index()]
                + current.played[c.index()]
                + known.kitty.as_ref().map_or(0, |k| k.count(c) as u8);
            pool[c.index()] = 2u8.saturating_sub(gone);
        }
        let total: usize = pool.iter().map(|&n| n as usize).sum();
        let mut holders = Vec::new();
        let dealt = |s: Seat| s != me && seen.iter().all(|(k, _)| *k != s);
        for s in Seat::ALL.into_iter().filter(|&s| dealt(s)) {
            let mut void = known.void[s.index()];
            for (l, v) in void.iter_mut().enumerate() {
                *v |= current.void[s.index()][l];
            }
            holders.push((s.index(), view.hand_sizes[s.index()], void));
        }
        let kitty_hidden = view.phase != Phase::Bury && known.kitty.is_none();
        if kitty_hidden {
            holders.push((KITTY, KITTY_SIZE, [false; 5]));
        }
        let needed: usize = holders.iter().map(|h| h.1).sum();
        if total < needed {
            return None;
        }
        if total > needed {
            holders.push((GONE, total - needed, [false; 5]));
        }
        Some(Sampler {
            me,
            order,
            pool,
            holders,
            sizes: view.hand_sizes,
            seen: seen.to_vec(),
        })
    }

    /// Deals the unseen cards to their holders, respecting voids (most constrained cards
    /// first, each to a holder drawn by the room it has left).
    fn deal(&self, rng: &mut Rng, voids: bool) -> Option<Vec<Vec<Card>>> {
        let mut cards: Vec<Card> = Card::all()
            .flat_map(|c| std::iter::repeat_n(c, self.pool[c.index()] as usize))
            .collect();
        rng.shuffle(&mut cards);
        let lane = |c: Card| self.order.lane(c).index();
        let may = |h: &(usize, usize, [bool; 5]), c: Card| !voids || !h.2[lane(c)];
        cards.sort_by_key(|&c| self.holders.iter().filter(|h| may(h, c)).count());
        let mut left: Vec<usize> = self.holders.iter().map(|h| h.1).collect();
        let mut out = vec![Vec::new(); self.holders.len()];
        for c in cards {
            let room: usize = (0..self.holders.len())
                .filter(|&h| may(&self.holders[h], c))
                .map(|h| left[h])
                .sum();
            if room == 0 {
                return None;
            }
            let mut r = rng.below(room);
            for h in 0..self.holders.len() {
                if !may(&self.holders[h], c) {
                    continue;
                }
                if r < left[h] {
                    left[h] -= 1;
                    out[h].push(c);
                    break;
                }
                r -= left[h];
            }
        }
        Some(out)
    }

    fn world(&self, view: &View, known: &Known, rng: &mut Rng) -> Option<World> {
        let dealt = (0..8)
            .find_map(|_| self.deal(rng, true))
            .or_else(|| self.deal(rng, false))?;
        let mut hands: [Vec<Card>; 4] = Default::default();
        hands[self.me.index()] = view.hand.clone()?;
        for (s, cards) in &self.seen {
            hands[s.index()] = cards.clone();
        }
        let mut kitty = known.kitty.as_ref().map(Hand::cards);
        for (h, cards) in self.holders.iter().zip(dealt) {
            match h.0 {
                KITTY => kitty = Some(cards),
                GONE => {}
                s => hands[s] = cards,
            }
        }
        self.assemble(view, known, hands, kitty)
    }

    /// The board of these hands (as they are now) and kitty at the view's decision, with what
    /// each side remembers.
    fn assemble(
        &self,
        view: &View,
        known: &Known,
        mut hands: [Vec<Card>; 4],
        kitty: Option<Vec<Card>>,
    ) -> Option<World> {
        debug_assert!(hands.iter().zip(self.sizes).all(|(h, n)| h.len() == n));
        let declarer = view.declarer;
        let board = if view.phase == Phase::Bury {
            // The declarer's 33 cards, split any way: the bury is the candidate.
            let mut mine = hands[declarer.index()].clone();
            let kitty = mine.split_off(mine.len() - KITTY_SIZE);
            hands[declarer.index()] = mine;
            Board::new(
                &self.deal_of(view, hands, kitty.clone()),
                view.ruleset.clone(),
            )
        } else {
            rebuild(view, hands, kitty.clone()?)?
        };
        if board.to_act() != view.to_act || board.phase() != view.phase {
            return None;
        }
        let tricks_seen = board.trick_count();
        let mut defender_known = known.clone();
        defender_known.kitty = None;
        let mut declarer_known = defender_known.clone();
        if view.phase != Phase::Bury {
            declarer_known.kitty = kitty.map(|k| k.into_iter().collect());
        }
        Some(World {
            board,
            order: self.order.clone(),
            declarer_known,
            defender_known,
            tricks_seen,
        })
    }

    fn deal_of(&self, view: &View, hands: [Vec<Card>; 4], kitty: Vec<Card>) -> ShengjiDeal {
        ShengjiDeal {
            board: view.board,
            declarer: view.declarer.index(),
            level: view.level,
            trump: view.trump,
            hands,
            kitty,
            order_hash: String::new(),
        }
    }
}

/// A board in play rebuilt from the hands now, the kitty and the view's current trick: the
/// hands as the trick began are dealt, the kitty buried, a made-up trick (if needed) gives the
/// lead to the trick's leader, and the trick's plays so far are replayed.
fn rebuild(view: &View, mut hands: [Vec<Card>; 4], kitty: Vec<Card>) -> Option<Board> {
    let declarer = view.declarer;
    for p in &view.plays {
        hands[p.seat.index()].extend(p.cards.iter().copied());
    }
    let fake = (view.leader != declarer).then(|| lead_changer(view, declarer, view.leader));
    if let Some(cards) = &fake {
        for (s, &c) in cards.iter().enumerate() {
            hands[s].push(c);
        }
    }
    let deal = ShengjiDeal {
        board: view.board,
        declarer: declarer.index(),
        level: view.level,
        trump: view.trump,
        hands,
        kitty: kitty.clone(),
        order_hash: String::new(),
    };
    let mut board = Board::new(&deal, view.ruleset.clone());
    board
        .apply(declarer, Actor::Bot, Action::Bury { cards: kitty })
        .ok()?;
    if let Some(cards) = fake {
        let mut seat = declarer;
        for _ in 0..4 {
            let play = Action::Play {
                cards: vec![cards[seat.index()]],
            };
            board.apply(seat, Actor::Bot, play).ok()?;
            seat = seat.next();
        }
        if board.to_act() != Some(view.leader) {
            return None;
        }
    }
    for p in &view.plays {
        let play = Action::Play {
            cards: p.cards.clone(),
        };
        board.apply(p.seat, Actor::Bot, play).ok()?;
    }
    (board.plays().count() == view.plays.len()).then_some(board)
}

/// Four low cards of one side suit, no points, none of the level, per seat index: the highest
/// to `leader`, so that the made-up trick the declarer leads is won by `leader`.
fn lead_changer(view: &View, declarer: Seat, leader: Seat) -> [Card; 4] {
    let suit = Suit::ALL
        .into_iter()
        .find(|&s| Some(s) != view.trump)
        .expect("a side suit");
    let ranks: Vec<Rank> = [2, 3, 4, 6, 7, 8, 9]
        .into_iter()
        .filter_map(Rank::new)
        .filter(|&r| r != view.level)
        .take(4)
        .collect();
    let mut out = [Card::BJ; 4];
    let mut low = ranks[..3].iter();
    let mut seat = declarer;
    for _ in 0..4 {
        out[seat.index()] = if seat == leader {
            Card::new(suit, ranks[3])
        } else {
            Card::new(suit, *low.next().expect("three low cards"))
        };
        seat = seat.next();
    }
    out
}
