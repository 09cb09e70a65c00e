//! 能出的牌 (legal plays): every distinct set a hand may lead, beat or burn with.
//!
//! Suits never matter, so sets are enumerated as distinct shapes (counts of the base rank's
//! naturals, 2s, small and big jokers) and turned into cards only at the end, lowest faces first.
//! A 50-card hand rich in 2s and jokers can lead many thousands of distinct sets, so the list is
//! capped at [`LEGAL_CAP`] plays, smallest first: the smallest legal set, and pass when allowed,
//! are always in it.

use crate::cards::Hand;
use crate::Viewer;

use super::action::Action;
use super::beat::two_for_one_applies;
use super::burn::sustain;
use super::ruleset::TwoForOne;
/// The clock's lead lives with the shapes it is made of; listed here too with the other plays.
pub use super::set::smallest_lead;
use super::set::{Counts, Shape, Strength, ACE, BIG, FOUR, SMALL, TWO};
use super::view::{Prompt, View};
use super::Seat;

/// At most this many plays (leads, beats or burns) in one legal-action list.
pub const LEGAL_CAP: usize = 10_000;

/// Every set the hand may lead. With `joker_required` (a standing burn), only sets holding a
/// joker, plus the whole hand if it is one set (the final set is exempt).
pub fn lead_shapes(c: &Counts, joker_required: bool, out: &mut Vec<Shape>) {
    let (twos, small, big) = (c.get(TWO), c.get(SMALL), c.get(BIG));
    let attach = |base: Strength, naturals: u8, min_twos: u8, out: &mut Vec<Shape>| {
        for t in min_twos..=twos {
            for s in 0..=small {
                for b in 0..=big {
                    let shape = Shape {
                        base,
                        naturals,
                        twos: t,
                        small: s,
                        big: b,
                    };
                    if !shape.is_empty() && (!joker_required || shape.jokers() > 0) {
                        out.push(shape);
                    }
                }
            }
        }
    };
    for base in FOUR..=ACE {
        for k in 1..=c.get(base) {
            attach(base, k, 0, out);
        }
    }
    if twos > 0 {
        attach(TWO, 0, 1, out);
    }
    for s in 0..=small {
        for b in 0..=big {
            if s + b > 0 {
                out.push(Shape {
                    base: 0,
                    naturals: 0,
                    twos: 0,
                    small: s,
                    big: b,
                });
            }
        }
    }
    if joker_required {
        if let Some(whole) = c.as_one_set().filter(|w| w.jokers() == 0) {
            out.push(whole);
        }
    }
}

/// Sets of `n` cards that beat, by rule 3, a set whose smallest-joker count is `min_big` and
/// whose base is `above`; `reserved` big jokers ride along on top (大花两打一).
fn higher_shapes(
    c: &Counts,
    n: usize,
    min_big: u8,
    above: Strength,
    reserved: u8,
    out: &mut Vec<Shape>,
) {
    let Some(big_left) = c.get(BIG).checked_sub(reserved) else {
        return;
    };
    let (twos, small) = (c.get(TWO), c.get(SMALL));
    if n == 0 {
        if reserved > 0 {
            out.push(Shape {
                base: 0,
                naturals: 0,
                twos: 0,
                small: 0,
                big: reserved,
            });
        }
        return;
    }
    for b in min_big as usize..=(big_left as usize).min(n) {
        for s in 0..=(small as usize).min(n - b) {
            let r = n - b - s;
            let (b, s) = (b as u8 + reserved, s as u8);
            if r == 0 {
                out.push(Shape {
                    base: 0,
                    naturals: 0,
                    twos: 0,
                    small: s,
                    big: b,
                });
                continue;
            }
            for base in (above + 1).max(FOUR)..=ACE {
                for k in 1..=(c.get(base) as usize).min(r) {
                    let t = r - k;
                    if t <= twos as usize {
                        out.push(Shape {
                            base,
                            naturals: k as u8,
                            twos: t as u8,
                            small: s,
                            big: b,
                        });
                    }
                }
            }
            if above < TWO && r <= twos as usize {
                out.push(Shape {
                    base: TWO,
                    naturals: 0,
                    twos: r as u8,
                    small: s,
                    big: b,
                });
            }
        }
    }
}

/// Every set of the hand that beats `top` by the bare comparison (rules 1–4).
pub fn beat_shapes(c: &Counts, top: &Shape, rule: TwoForOne, out: &mut Vec<Shape>) {
    if top.big == 0 {
        higher_shapes(c, top.len(), top.small, top.base, 0, out);
    } else if two_for_one_applies(top, rule) {
        higher_shapes(
            c,
            top.len() - top.big as usize,
            top.small,
            top.base,
            2 * top.big,
            out,
        );
    }
}

/// The smallest set that beats `top`, if any.
pub fn smallest_beat(c: &Counts, top: &Shape, rule: TwoForOne) -> Option<Shape> {
    let mut out = Vec::new();
    beat_shapes(c, top, rule, &mut out);
    out.into_iter().min_by_key(Shape::smallness)
}

/// Legal actions of the viewing seat, from its view alone: plays (leads, beats or burns) as
/// distinct shapes, plus pass, yield and decline where allowed. Table talk (问牌), clock
/// expiries and referee rulings are not moves and are not listed.
pub fn legal_from_view(view: &View) -> Vec<Action> {
    let Viewer::Seat(i) = view.viewer else {
        return Vec::new();
    };
    let seat = Seat::from_index(i);
    let (Some(prompt), Some(cards)) = (&view.prompt, &view.hand) else {
        return Vec::new();
    };
    if view.turn != Some(seat) {
        return Vec::new();
    }
    let hand: Hand = cards.iter().copied().collect();
    let c = Counts::of(&hand);
    let rule = view.ruleset.two_for_one;
    // Plays (leads or normal beats) and burns, as shapes.
    let mut plays = Vec::new();
    let mut burns = Vec::new();
    let mut actions = Vec::new();
    match prompt {
        Prompt::Lead { joker_required } => lead_shapes(&c, *joker_required, &mut plays),
        Prompt::Respond {
            may_beat,
            may_yield,
        } => {
            actions.push(Action::Pass);
            if *may_yield {
                actions.push(Action::Yield);
            }
            if *may_beat {
                if let Some(top) = &view.top {
                    beat_shapes(&c, &top.shape, rule, &mut plays);
                }
            }
        }
        Prompt::BurnOffer { may_beat, .. } => {
            actions.push(Action::Decline);
            if let Some(top) = &view.top {
                beat_shapes(&c, &top.shape, rule, &mut burns);
                if *may_beat {
                    // A 无头 seat that has not passed: its offer is its turn.
                    plays.clone_from(&burns);
                }
                burns.retain(|s| sustain(&c.minus(s), view.ruleset.keep_cards).is_ok());
            }
        }
    }
    let mut room = LEGAL_CAP;
    for (shapes, burn) in [(&mut plays, false), (&mut burns, true)] {
        shapes.sort_unstable_by_key(|s| (s.smallness(), *s));
        shapes.truncate(room);
        room -= shapes.len();
        actions.extend(shapes.iter().filter_map(|s| {
            let cards = s.take_from(&hand)?;
            Some(if burn {
                Action::Burn { cards }
            } else {
                Action::Play { cards }
            })
        }));
    }
    actions
}
