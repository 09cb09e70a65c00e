//! 记牌 (remembering the play): what one 够级 seat has seen, from its views alone.
//!
//! A 够级 view shows the top set and the players' flags, not what went before. A seat that
//! looks at every view it receives (one after each action at the table) sees each set put on
//! the table and each pass, 让 and declined burn: [`Notes`] reads each step off two
//! consecutive views and keeps the game's actions in order. From them follow the cards played
//! per seat and per rank ([`Notes::played`]) and, for the Expert, a replay of the whole game on a
//! sampled deal.
//!
//! Some steps cannot be read off the views: another seat's set that wins its trick at once
//! (its 对头 is out and everyone else has passed) is never shown. The notes then say they are
//! not complete; the Expert plays as 普通 for the rest of that game.

use rules::cards::{Card, Hand};
use rules::gouji::{Action, CardCount, Prompt, Seat, Status, View};
use rules::Viewer;

/// One action of the game, as the seat saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub seat: Seat,
    /// `Play`, `Burn`, `Pass`, `Yield` or `Decline`.
    pub action: Action,
}

/// What a seat remembers of a game.
#[derive(Clone, Debug, Default)]
pub struct Notes {
    /// The game and viewer these notes are about; a view of another starts afresh.
    owner: Option<(u32, Viewer)>,
    /// The last view taken in.
    last: Option<View>,
    /// Every action since the first view, in order.
    steps: Steps,
    /// Saw the game from its start and could read every step.
    complete: bool,
}

impl Notes {
    pub fn new() -> Notes {
        Notes::default()
    }

    /// Notes from one view alone: complete only at the start of a game.
    pub fn from_view(view: &View) -> Notes {
        let mut n = Notes::new();
        n.observe(view);
        n
    }

    /// Takes in a view of this seat. Call it with every view the seat receives, in order.
    pub fn observe(&mut self, view: &View) {
        if self.take_in(view) {
            self.last = Some(view.clone());
        }
    }

    /// [`Notes::observe`] keeping the view itself instead of a copy (a server's 托管 players
    /// observe every seat's view after every action; a 够级 view is a few dozen allocations).
    pub fn observe_owned(&mut self, view: View) {
        if self.take_in(&view) {
            self.last = Some(view);
        }
    }

    /// Reads the step from the last view to this one; true when this view is to be kept as
    /// the last.
    fn take_in(&mut self, view: &View) -> bool {
        let owner = (view.game, view.viewer);
        if self.owner != Some(owner) {
            *self = Notes {
                owner: Some(owner),
                last: None,
                steps: Steps::default(),
                complete: is_start(view),
            };
            return true;
        }
        let Some(last) = &self.last else {
            return false;
        };
        if same_state(last, view) {
            return false;
        }
        match read_step(last, view) {
            Some(step) => self.steps.push(step),
            None => self.complete = false,
        }
        true
    }

    /// Every action of the game so far was seen and read.
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// Every action of the game so far, in order.
    pub fn steps(&self) -> StepIter<'_> {
        StepIter {
            steps: &self.steps,
            at: 0,
            card: 0,
            other: 0,
        }
    }

    /// The cards each seat has put on the table (A1…B3), as far as seen.
    pub fn played(&self) -> [Hand; 6] {
        // Read off the packed steps directly: 普通 asks this at every decision.
        let mut out: [Hand; 6] = Default::default();
        let (mut card, mut other) = (0, 0);
        for &(seat, kind, n) in &self.steps.heads {
            let cards: &[Card] = match kind {
                Kind::Play | Kind::Burn => {
                    card += n as usize;
                    &self.steps.cards[card - n as usize..card]
                }
                Kind::Other => {
                    other += 1;
                    match &self.steps.others[other - 1] {
                        Action::Play { cards } | Action::Burn { cards } => cards,
                        _ => &[],
                    }
                }
                Kind::Pass | Kind::Yield | Kind::Decline => &[],
            };
            for &c in cards {
                out[seat.index()].add(c);
            }
        }
        out
    }
}

/// The steps of a game packed: three bytes a step and the cards played in one list. A server
/// keeps notes for every seat (for 托管) through a game of about a thousand actions: as a
/// `Vec<Step>` (an `Action` with its own `Vec` of cards each) that was some 60 KiB a seat.
#[derive(Clone, Debug, Default)]
struct Steps {
    /// Per step: its seat, its kind, and how many cards it played.
    heads: Vec<(Seat, Kind, u8)>,
    /// The cards of the `Play` and `Burn` steps, one after another.
    cards: Vec<Card>,
    /// Steps of any other action (none is read off views today), in order.
    others: Vec<Action>,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Play,
    Burn,
    Pass,
    Yield,
    Decline,
    Other,
}

impl Steps {
    fn push(&mut self, step: Step) {
        let (kind, cards) = match step.action {
            Action::Play { cards } => (Kind::Play, cards),
            Action::Burn { cards } => (Kind::Burn, cards),
            Action::Pass => (Kind::Pass, Vec::new()),
            Action::Yield => (Kind::Yield, Vec::new()),
            Action::Decline => (Kind::Decline, Vec::new()),
            other => {
                self.others.push(other);
                (Kind::Other, Vec::new())
            }
        };
        match u8::try_from(cards.len()) {
            Ok(n) => {
                self.heads.push((step.seat, kind, n));
                self.cards.extend(cards);
            }
            // More cards than any hand holds: kept whole instead.
            Err(_) => {
                self.heads.push((step.seat, Kind::Other, 0));
                self.others.push(match kind {
                    Kind::Burn => Action::Burn { cards },
                    _ => Action::Play { cards },
                });
            }
        }
    }
}

/// The steps of [`Notes::steps`], unpacked one by one.
pub struct StepIter<'a> {
    steps: &'a Steps,
    at: usize,
    card: usize,
    other: usize,
}

impl Iterator for StepIter<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        let &(seat, kind, n) = self.steps.heads.get(self.at)?;
        self.at += 1;
        let mut cards = || {
            let from = self.card;
            self.card += n as usize;
            self.steps.cards[from..self.card].to_vec()
        };
        let action = match kind {
            Kind::Play => Action::Play { cards: cards() },
            Kind::Burn => Action::Burn { cards: cards() },
            Kind::Pass => Action::Pass,
            Kind::Yield => Action::Yield,
            Kind::Decline => Action::Decline,
            Kind::Other => {
                self.other += 1;
                self.steps.others[self.other - 1].clone()
            }
        };
        Some(Step { seat, action })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.steps.heads.len() - self.at;
        (left, Some(left))
    }
}

impl ExactSizeIterator for StepIter<'_> {}

/// The first view of a game: nobody has played.
fn is_start(view: &View) -> bool {
    view.top.is_none()
        && view.finish.is_empty()
        && view.turn == Some(Seat::A1)
        && view.hand.as_ref().is_some_and(|h| h.len() == 50)
        && view
            .players
            .iter()
            .all(|p| p.status == Status::Playing && !p.passed && !p.opened)
}

/// Nothing a move changes differs (a referee's warning or deduction is not a move).
fn same_state(a: &View, b: &View) -> bool {
    a.hand == b.hand
        && a.players == b.players
        && a.top == b.top
        && a.turn == b.turn
        && a.prompt == b.prompt
        && a.finish == b.finish
        && a.score == b.score
}

/// The action that led from `before` to `after` (one action apart), if the views tell it.
fn read_step(before: &View, after: &View) -> Option<Step> {
    let seat = before.turn?;
    let i = seat.index();
    let mine = before.viewer == Viewer::Seat(i);
    let failed = |v: &View| {
        v.players
            .iter()
            .filter(|p| p.status == Status::Failed)
            .count()
    };
    let someone_failed = failed(after) > failed(before);
    // My own cards: what left my hand.
    let spent: Option<Vec<Card>> = if mine {
        let mut left: Hand = before.hand.as_ref()?.iter().copied().collect();
        for &c in after.hand.as_ref()? {
            left.remove(c);
        }
        (!left.is_empty()).then(|| left.cards())
    } else {
        None
    };
    if mine && after.players[i].status == Status::Failed {
        // My hand went void as well: what I played is not the difference.
        return None;
    }
    let top_by_me = after
        .top
        .as_ref()
        .filter(|t| t.owner == seat && before.top.as_ref() != Some(*t));
    // My own set as it lies on the table (its order), when the table shows it.
    let spent = spent.map(|cards| match top_by_me {
        Some(t) if same_cards(&t.cards, &cards) => t.cards.clone(),
        _ => cards,
    });
    let action = match before.prompt.as_ref()? {
        Prompt::Lead { .. } => Action::Play {
            cards: spent.or_else(|| top_by_me.map(|t| t.cards.clone()))?,
        },
        Prompt::BurnOffer { .. } => match (spent, top_by_me) {
            (Some(cards), _) => Action::Burn { cards },
            (None, Some(t)) => Action::Burn {
                cards: t.cards.clone(),
            },
            (None, None) if after.players[i].burning && !before.players[i].burning => return None,
            (None, None) => Action::Decline,
        },
        Prompt::Respond { may_yield, .. } => {
            let yielded = after.players[i].yielded
                || (*may_yield
                    && after.turn == Some(seat)
                    && after.top == before.top
                    && matches!(
                        after.prompt,
                        Some(Prompt::Respond {
                            may_yield: false,
                            ..
                        })
                    ));
            match (spent, top_by_me) {
                (Some(cards), _) => Action::Play { cards },
                _ if yielded => Action::Yield,
                (None, Some(t)) if !(someone_failed && t.gouji) => Action::Play {
                    cards: t.cards.clone(),
                },
                _ if mine => Action::Pass,
                _ => {
                    // Another seat's set that closed the trick at once is not shown: it went
                    // out (or failed), or it leads now where a pass would have left the lead
                    // to the top set's owner (or, the owner out, to the next seat still in).
                    let status = |v: &View| v.players[i].status;
                    if status(before) == Status::Playing && status(after) != Status::Playing {
                        return None;
                    }
                    let owner = before.top.as_ref()?.owner;
                    let takeover = (0..6)
                        .map(|k| Seat::from_index(owner.index() + k))
                        .find(|s| after.players[s.index()].status == Status::Playing);
                    let leads = after.top.is_none()
                        && after.turn == Some(seat)
                        && matches!(after.prompt, Some(Prompt::Lead { .. }));
                    if leads && takeover != Some(seat) {
                        return None;
                    }
                    if leads {
                        // 接风 to this very seat, or its own set won: only a count tells.
                        match (before.players[i].cards, after.players[i].cards) {
                            (CardCount::Exact(a), CardCount::Exact(b)) if a == b => {}
                            _ => return None,
                        }
                    }
                    Action::Pass
                }
            }
        }
    };
    Some(Step { seat, action })
}

fn same_cards(a: &[Card], b: &[Card]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort();
    b.sort();
    a == b
}
