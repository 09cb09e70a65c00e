//! 看得见所有牌 (the all-seeing analyser, for fair play): at one 80分 decision of a stored board,
//! the value of each choice two ways — with every hand known (what a seat that saw its
//! partner's and its opponents' cards would find best), and with only what that seat could
//! know (the 高手 search over the deals consistent with its view). A pair whose choices keep
//! agreeing with the first where the second cannot tell the choices apart plays as if it saw
//! cards it should not; the referee decides, never this module.
//!
//! How good each value is:
//! - **All-seeing, exact** near the end of a board: when every hand holds at most
//!   [`EXACT_CARDS`] cards, a full minimax (alpha-beta) over every legal play of every seat
//!   with all hands known, on the defenders' final points (the kitty's bonus included), within
//!   [`EXACT_NODES`] positions.
//! - **All-seeing, played out** earlier: the choice is made on the true cards and the board
//!   played to its end by the 普通 policy for every seat (each seat seeing only its own view,
//!   as honest players would continue). One deterministic playout per choice: a bound on what
//!   the choice is worth against honest play, not an optimum.
//! - **Own view**: the mean over the same `worlds` sampled deals (consistent with every card
//!   the seat saw and every void shown) of the choice played out by the 普通 policy — the
//!   Expert's own estimate, with every choice weighed on equal cards.
//!
//! Values are the defenders' points at the end of the board (what the score counts), both
//! ways; `for_seat` turns them to the seat's side.

use rules::shengji::{legal_from_view, Action, Board, Phase, Seat};
use rules::{Actor, Viewer};

use super::expert;
use super::notes::Known;
use crate::fairplay::{Evidence, Sight};
use crate::rng::Rng;

/// Hands this small (every seat) are searched exactly.
pub const EXACT_CARDS: usize = 4;
/// Most positions an exact search visits before it gives up (and the choice is played out).
pub const EXACT_NODES: u64 = 400_000;
/// Most choices weighed at one decision (the one played is always among them).
pub const MOST_CHOICES: usize = 12;

/// One choice at the decision, valued both ways.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub action: Action,
    /// The defenders' final points with every hand known.
    pub all_seeing: i32,
    /// The defenders' mean final points over the deals the seat's view allows (`None`: no
    /// deal could be sampled).
    pub own_view: Option<f64>,
}

/// A decision analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub seat: Seat,
    /// The seat defends (higher points are better for it).
    pub defending: bool,
    /// The all-seeing values are exact (minimax), not played out.
    pub exact: bool,
    /// The choices, in the engine's order of legal plays.
    pub choices: Vec<Choice>,
    /// Deals sampled for the own-view values.
    pub worlds: u32,
}

impl Analysis {
    /// A value in defenders' points, for the seat's side (higher is better for it).
    pub fn for_seat(&self, defenders: f64) -> f64 {
        if self.defending {
            defenders
        } else {
            -defenders
        }
    }

    /// The choice best with every hand known (the first of equals).
    pub fn best_all_seeing(&self) -> Option<&Choice> {
        self.best_by(|c| Some(c.all_seeing as f64))
    }

    /// The choice best on the seat's own view (the first of equals).
    pub fn best_own_view(&self) -> Option<&Choice> {
        self.best_by(|c| c.own_view)
    }

    fn best_by(&self, value: impl Fn(&Choice) -> Option<f64>) -> Option<&Choice> {
        let mut best: Option<(&Choice, f64)> = None;
        for c in &self.choices {
            let Some(v) = value(c).map(|v| self.for_seat(v)) else {
                continue;
            };
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((c, v));
            }
        }
        best.map(|(c, _)| c)
    }
}

/// Analyses the decision of the seat to act on `board` (the true board, every hand in it), in
/// the play phase; `played` (the action taken there, if any) is always among the choices.
/// `worlds` deals are sampled for the own-view values, from `seed`. `None`: no play decision
/// here (not the play phase, or a single legal play and nothing else to compare).
pub fn analyse(board: &Board, played: Option<&Action>, worlds: u32, seed: u64) -> Option<Analysis> {
    let seat = board.to_act()?;
    if board.phase() != Phase::Play {
        return None;
    }
    let choices = choices(board, played);
    if choices.len() < 2 {
        return None;
    }
    // Exact while every choice's endgame fits in the search; else every choice is played out,
    // so that the values compared are of one kind.
    let mut exact = (0..4).all(|i| board.hand(Seat::from_index(i)).len() <= EXACT_CARDS);
    let afters: Vec<Board> = choices
        .iter()
        .map(|a| {
            let mut after = board.clone();
            after.apply(seat, Actor::Bot, a.clone()).ok().map(|_| after)
        })
        .collect::<Option<_>>()?;
    let mut all = Vec::with_capacity(afters.len());
    if exact {
        for after in &afters {
            match minimax(after, i32::MIN, i32::MAX, &mut 0) {
                Some(v) => all.push(v),
                None => {
                    exact = false;
                    break;
                }
            }
        }
    }
    let view = board.view(Viewer::Seat(seat.index()));
    let known = known_by(board, seat);
    if !exact {
        // The true deal played out as every sampled one is (from the current trick on).
        let before = board.defenders_points();
        all = expert::true_values(&view, &known, board, &choices)?
            .into_iter()
            .map(|v| v.map(|v| before + v))
            .collect::<Option<_>>()?;
    }
    let (own, sampled) = expert::weigh(&view, &known, &choices, worlds, seed);
    let before = board.defenders_points() as f64;
    Some(Analysis {
        seat,
        defending: board.is_defender(seat),
        exact,
        choices: choices
            .into_iter()
            .zip(all)
            .zip(own)
            .map(|((action, all_seeing), own)| Choice {
                action,
                all_seeing,
                // The sampled boards start from the current trick: what was won before counts
                // the same for every choice.
                own_view: own.map(|v| before + v),
            })
            .collect(),
        worlds: sampled,
    })
}

/// What the play made at `board` (the true board, in the play phase) says of the seat's
/// sight ([`crate::fairplay`]): whether it was among the best with the true hands, how often
/// it is among the best in deals the seat's own view allows, and how often in those deals
/// when the partner's hand is the true one. `screen` deals decide
/// whether the decision is worth a deep look (the play made is best in some of them and not in
/// others); `worlds` fresh deals then give the chance. `None`: no decision here, or screened
/// out. The screen's deals are not the estimate's, so choosing which decisions to look at does
/// not bias the chance (the true deal is independent of both given the view).
pub fn evidence(
    board: &Board,
    played: &Action,
    screen: u32,
    worlds: u32,
    seed: u64,
) -> Option<Evidence> {
    let seat = board.to_act()?;
    if board.phase() != Phase::Play {
        return None;
    }
    let choices = choices(board, Some(played));
    let made = choices.iter().position(|c| c == played)?;
    if choices.len() < 2 {
        return None;
    }
    let view = board.view(Viewer::Seat(seat.index()));
    let known = known_by(board, seat);
    let side = if board.is_defender(seat) { 1.0 } else { -1.0 };
    // The rows in the seat's side's points.
    let sight = |rows: &[Vec<Option<i32>>]| {
        let rows: Vec<Vec<Option<f64>>> = rows
            .iter()
            .map(|r| r.iter().map(|v| v.map(|v| side * v as f64)).collect())
            .collect();
        Sight::of(&rows, made)
    };
    let first = sight(&expert::world_values(
        &view,
        &known,
        &[],
        &choices,
        screen,
        seed,
    ));
    if !first.tells() {
        return None;
    }
    let deep = sight(&expert::world_values(
        &view,
        &known,
        &[],
        &choices,
        worlds,
        Rng::mix(&[seed, 1]),
    ));
    let partner = seat.next().next();
    let shown = [(partner, board.hand(partner).cards())];
    let with_partner = sight(&expert::world_values(
        &view,
        &known,
        &shown,
        &choices,
        worlds,
        Rng::mix(&[seed, 2]),
    ));
    let truth = sight(&[expert::true_values(&view, &known, board, &choices)?]);
    Evidence::of(seat.index(), &truth, &deep, &with_partner)
}

/// The legal plays of the seat to act, the engine's order, at most [`MOST_CHOICES`] (the one
/// played kept).
fn choices(board: &Board, played: Option<&Action>) -> Vec<Action> {
    let mut legal = legal_from_view(&board.view(Viewer::Referee));
    legal.truncate(MOST_CHOICES);
    if let Some(p) = played {
        if !legal.contains(p) {
            // Past the cap (or the engine's follow cap): it takes the last place.
            if legal.len() == MOST_CHOICES {
                legal.pop();
            }
            legal.push(p.clone());
        }
    }
    legal
}

/// What the seat to act remembers at `board`: every finished trick (it played in each), the
/// voids they showed, and its own kitty if it declares.
fn known_by(board: &Board, seat: Seat) -> Known {
    let mut k = Known::empty();
    for t in board.tricks() {
        k.add_trick(board.order(), &t.plays);
    }
    if seat == board.declarer() {
        k.kitty = Some(board.kitty().iter().copied().collect());
    }
    k
}

/// The defenders' final points when every seat plays its best with every hand known (the
/// defenders maximise, the declarer's side minimises), or `None` past [`EXACT_NODES`].
fn minimax(board: &Board, mut alpha: i32, mut beta: i32, nodes: &mut u64) -> Option<i32> {
    *nodes += 1;
    if *nodes > EXACT_NODES {
        return None;
    }
    let Some(seat) = board.to_act() else {
        return board.result();
    };
    let maximise = board.is_defender(seat);
    let mut best = if maximise { i32::MIN } else { i32::MAX };
    for a in legal_from_view(&board.view(Viewer::Referee)) {
        let mut next = board.clone();
        if next.apply(seat, Actor::Bot, a).is_err() {
            continue;
        }
        let v = minimax(&next, alpha, beta, nodes)?;
        if maximise {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    (best != i32::MIN && best != i32::MAX).then_some(best)
}

/// A seed for a decision's sampled deals: the same decision is analysed the same way.
pub fn seed_of(board: &Board, seat: Seat) -> u64 {
    Rng::mix(&[
        board.number() as u64,
        board.trick_number() as u64,
        board.plays().count() as u64,
        seat.index() as u64,
    ])
}

#[cfg(test)]
mod tests;
