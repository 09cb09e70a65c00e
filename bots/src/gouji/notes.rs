//! 记牌 (remembering the play): what one 够级 seat has seen, from its views alone.
//!
//! A 够级 view shows the top set and the players' flags, not what went before. A seat that
//! looks at every view it receives (one after each action at the table) sees each set put on
//! the table and each pass, 让 and declined burn: [`Notes`] reads each step off two
//! consecutive views and keeps the game's actions in order. From them follow the cards played
//! per seat and per rank ([`Seen`]) and, for the Expert, a replay of the whole game on a
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
    steps: Vec<Step>,
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
        let owner = (view.game, view.viewer);
        if self.owner != Some(owner) {
            *self = Notes {
                owner: Some(owner),
                last: Some(view.clone()),
                steps: Vec::new(),
                complete: is_start(view),
            };
            return;
        }
        let Some(last) = self.last.take() else {
            return;
        };
        if same_state(&last, view) {
            self.last = Some(last);
            return;
        }
        match read_step(&last, view) {
            Some(step) => self.steps.push(step),
            None => self.complete = false,
        }
        self.last = Some(view.clone());
    }

    /// Every action of the game so far was seen and read.
    pub fn complete(&self) -> bool {
        self.complete
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The cards each seat has put on the table (A1…B3), as far as seen.
    pub fn played(&self) -> [Hand; 6] {
        let mut out: [Hand; 6] = Default::default();
        for step in &self.steps {
            if let Action::Play { cards } | Action::Burn { cards } = &step.action {
                for &c in cards {
                    out[step.seat.index()].add(c);
                }
            }
        }
        out
    }
}

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
