//! The calibration's players (and the end-to-end test's): no server ever seats them.
//!
//! - 偷看 (a player that cheats): it sees another seat's hand — its partner's, as a pair
//!   sitting in one room or on the phone would, or an opponent's — and searches with that hand
//!   known as it is ([`decide`], [`Peeking`] over a real connection).
//! - 各有风格 (honest players with a style of their own, [`styled`], [`Styled`]): the 普通
//!   policy is one deterministic function of the view, so two pairs of it at two tables play
//!   a board identically and the field would be a perfect twin — people are not. A styled
//!   player takes the 普通 policy's second choice at a share of its decisions, drawn from its
//!   own seed: still only its own view, each pair its own way.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use rules::cards::Card;
use rules::shengji::{Action, Board, Seat, View};
use rules::Viewer;
use serde::Serialize;

use crate::level::{Budget, Level};
use crate::rng::Rng;
use crate::shengji::{choose_with, club, expert, Known, Notes};
use crate::SeatPlayer;

/// Whose hand a cheating pair's seats see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Peek {
    /// Each sees its partner's.
    Partner,
    /// Each sees the opponent on its left (the next seat).
    Opponent,
}

impl Peek {
    pub fn parse(s: &str) -> Option<Peek> {
        match s {
            "partner" => Some(Peek::Partner),
            "opponent" => Some(Peek::Opponent),
            _ => None,
        }
    }

    /// The seat whose hand `seat` sees.
    pub fn seen(self, seat: Seat) -> Seat {
        match self {
            Peek::Partner => seat.next().next(),
            Peek::Opponent => seat.next(),
        }
    }
}

/// How often a styled player takes the 普通 policy's second choice (where it has one).
pub const STYLE: f64 = 0.2;

/// An honest styled player's action: at the 普通 level, the policy's first choice, or at a
/// share [`STYLE`] of its decisions (drawn from `style` and `seed`) its second; at the other
/// levels, the level's own (高手's search already varies with its seed).
pub fn styled(
    view: &View,
    notes: &Notes,
    level: Level,
    budget: Budget,
    style: u64,
    seed: u64,
) -> Option<Action> {
    if level != Level::Club {
        return choose_with(view, notes, level, budget, seed).action;
    }
    let known = Known::of(view, notes);
    let mut choices = club::candidates(view, &known, 2);
    let second = Rng::new(Rng::mix(&[style, seed])).below(1000) < (STYLE * 1000.0) as usize;
    if second && choices.len() == 2 {
        return choices.pop();
    }
    choices
        .into_iter()
        .next()
        .or_else(|| choose_with(view, notes, level, budget, seed).action)
}

/// An honest styled seat over a real connection.
pub struct Styled {
    pub level: Level,
    pub style: u64,
    notes: Notes,
}

impl Styled {
    pub fn new(level: Level, style: u64) -> Styled {
        Styled {
            level,
            style,
            notes: Notes::new(),
        }
    }
}

impl SeatPlayer<Board> for Styled {
    fn observe(&mut self, view: &View) {
        self.notes.observe(view);
    }

    /// `seed` (the client's, from its clock-drawn action id) is not used: the decision is
    /// seeded from the view's [`moment`] and the seat, so a deal is played alike every run.
    fn act(&mut self, view: &View, budget: Budget, _seed: u64) -> Option<Action> {
        self.notes.observe(view);
        let Viewer::Seat(i) = view.viewer else {
            return None;
        };
        let seed = moment_seed(view, i);
        styled(view, &self.notes, self.level, budget, self.style, seed)
    }
}

/// A cheating seat's action, with `shown` (a seat, the cards it holds now) known: its level's
/// search so. 普通 does not search, so its cheat re-ranks the 普通 policy's four best plays
/// with 48 playouts on deals where the shown hand is the true one; 高手's is its own search
/// (eight candidates, `budget`).
pub fn decide(
    view: &View,
    notes: &Notes,
    shown: &[(Seat, Vec<Card>)],
    level: Level,
    budget: Budget,
    seed: u64,
) -> Option<Action> {
    let known = Known::of(view, notes);
    let (most, budget) = match level {
        Level::Beginner | Level::Club => (4, Budget::Playouts(48)),
        Level::Expert => (8, budget),
    };
    expert::decide_seeing(view, &known, shown, most, budget, seed).action
}

/// What a cheating pair tells each other: each seat's hand as its last view showed it, with
/// the moment ([`moment`]) of that view; the condvar wakes a seat waiting for its partner's.
#[derive(Clone, Debug, Default)]
pub struct TableTalk(Arc<(Mutex<[Option<Told>; 4]>, Condvar)>);

/// One seat's hand at one moment of the board.
#[derive(Clone, Debug)]
struct Told {
    moment: String,
    hand: Vec<Card>,
}

/// How long a cheating seat waits for its partner's view of the moment it decides at. The
/// partner's frame of that moment is already sent (nothing moves until this seat acts), so it
/// comes in milliseconds; past this the seat makes do with an older one ([`Peeking::seen_hand`]).
const TALK_WAIT: Duration = Duration::from_secs(2);

/// A board's moment as every seat's view shows it alike (no hand, no last trick, whose
/// showing differs by seat): two views of one table with the same moment were taken between
/// the same two actions.
pub fn moment(view: &View) -> String {
    serde_json::to_string(&(
        view.board,
        view.phase,
        view.declarer,
        view.trump.map(|s| s as u8),
        view.trick,
        view.to_act,
        &view.plays,
        view.hand_sizes,
        view.defenders,
        &view.choice,
    ))
    .unwrap_or_default()
}

/// A seed for a test player's decision from the view's moment and the seat, not the client's
/// clock-drawn action id: the same deal is then played alike in every run.
fn moment_seed(view: &View, seat: usize) -> u64 {
    let parts: Vec<u64> = moment(view)
        .as_bytes()
        .chunks(8)
        .map(|c| c.iter().fold(0u64, |h, &b| h << 8 | u64::from(b)))
        .chain([seat as u64])
        .collect();
    Rng::mix(&parts)
}

/// A cheating 80分 seat over a real connection ([`crate::client::play_as`]): it tells its hand
/// to the [`TableTalk`] on every view and decides with the seen seat's hand from it.
pub struct Peeking {
    pub level: Level,
    pub peek: Peek,
    talk: TableTalk,
    notes: Notes,
}

impl Peeking {
    pub fn new(level: Level, peek: Peek, talk: TableTalk) -> Peeking {
        Peeking {
            level,
            peek,
            talk,
            notes: Notes::new(),
        }
    }

    /// The seen seat's hand at this view's moment, as its own view of the same moment shows
    /// it: waited for up to [`TALK_WAIT`] (each client reads its frames on its own, so the
    /// partner's may come a little after this seat's). Past that, [`Peeking::seen_hand`].
    pub(crate) fn hand_now(&self, view: &View, seen: Seat) -> Option<Vec<Card>> {
        let now = moment(view);
        let (told, wake) = &*self.talk.0;
        let told = told.lock().ok()?;
        let (told, _) = wake
            .wait_timeout_while(told, TALK_WAIT, |t| {
                t[seen.index()].as_ref().is_none_or(|t| t.moment != now)
            })
            .ok()?;
        match &told[seen.index()] {
            Some(t) if t.moment == now => Some(t.hand.clone()),
            _ => {
                drop(told);
                self.seen_hand(view, seen)
            }
        }
    }

    /// The seen seat's hand now from an older view of it: the talk's, less what this view
    /// shows it played since, in the order its own view would show (the display order, kept
    /// by removing in place); `None` if that does not add up.
    pub(crate) fn seen_hand(&self, view: &View, seen: Seat) -> Option<Vec<Card>> {
        let mut hand = self.talk.0 .0.lock().ok()?[seen.index()].clone()?.hand;
        let want = view.hand_sizes[seen.index()];
        let recent = view
            .plays
            .iter()
            .chain(view.last_trick.iter().flat_map(|t| t.plays.iter()));
        for p in recent.filter(|p| p.seat == seen) {
            if hand.len() == want {
                break;
            }
            for c in &p.cards {
                if let Some(i) = hand.iter().position(|h| h == c) {
                    hand.remove(i);
                }
            }
        }
        (hand.len() == want).then_some(hand)
    }
}

impl SeatPlayer<Board> for Peeking {
    fn observe(&mut self, view: &View) {
        self.notes.observe(view);
        if let (Viewer::Seat(i), Some(hand)) = (view.viewer, &view.hand) {
            let (told, wake) = &*self.talk.0;
            if let Ok(mut told) = told.lock() {
                told[i] = Some(Told {
                    moment: moment(view),
                    hand: hand.clone(),
                });
                wake.notify_all();
            }
        }
    }

    /// `seed` (the client's, from its clock-drawn action id) is not used: the decision is
    /// seeded from the view's [`moment`] and the seat, so a deal is played alike every run.
    fn act(&mut self, view: &View, budget: Budget, _seed: u64) -> Option<Action> {
        self.observe(view);
        let Viewer::Seat(i) = view.viewer else {
            return None;
        };
        let seen = self.peek.seen(Seat::from_index(i));
        let shown: Vec<(Seat, Vec<Card>)> = self
            .hand_now(view, seen)
            .map(|h| (seen, h))
            .into_iter()
            .collect();
        let seed = moment_seed(view, i);
        decide(view, &self.notes, &shown, self.level, budget, seed)
    }
}
