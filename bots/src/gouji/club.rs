//! 普通 (club) 够级: the heuristics club players use, from the seat's view and the cards seen
//! played ([`Seen`]).
//!
//! - 发牌: go out when the hand is one set; shed small sets early, a whole rank at a time
//!   (never one card of a rank: that is how games drag on single by single); with two sets
//!   left lead the strong one first; lead a set a teammate with that many cards can go out on;
//!   play a 级牌 to open (开点) before 二科 can go out and leave us 点.
//! - 管牌: never beat a teammate; beat with the cheapest set — a whole rank costs nothing,
//!   breaking a rank or attaching 2s and jokers costs — when it is worth it: more against the
//!   对头, much more to stop the 对头's 级牌 (only we may beat it), more when a teammate is close
//!   to 头科 or we are close to going out, or last in the race of 四户乱缠 (avoid 大落); hold 2s
//!   and jokers for those fights.
//! - 让: yield (or pass) to a teammate still to answer who holds exactly the set's size and may
//!   go out on it; yield rather than pass when a teammate may still beat the set.
//! - 烧牌: only an opponent's 级牌, only when the burn passes the sustain test with a joker to
//!   spare and leaves four ranks or fewer (it pays: the lead, and a short road out); a standing
//!   burner keeps its jokers for its leads, so it never fails (大落).

use rules::cards::Hand;
use rules::gouji::burn::sustain;
use rules::gouji::legal::{beat_shapes, smallest_lead};
use rules::gouji::set::{strength, threshold, Counts, Strength, ACE, BIG, FOUR, SMALL, TWO};
use rules::gouji::{Action, CardCount, Prompt, Seat, Shape, Status, View};
use rules::Viewer;

/// Cards per strength in six decks without the 3s: 24 of each rank 4…A and of 2s, 6 jokers
/// of each colour.
pub fn full_deck(s: Strength) -> u8 {
    if s >= SMALL {
        6
    } else {
        24
    }
}

/// The cards seen on the table, per strength (public: every set is announced).
#[derive(Clone, Copy, Debug, Default)]
pub struct Seen(pub Counts);

/// The 普通 action for the seat whose view this is, or `None` if it is not to act.
pub fn decide(view: &View, seen: &Seen) -> Option<Action> {
    let t = Table::new(view, seen)?;
    let first = t.options(false).into_iter().next()?;
    t.action(first)
}

/// A short list of sensible actions, the 普通 choice first, for the Expert to weigh.
pub fn candidates(view: &View, seen: &Seen, most: usize) -> Vec<Action> {
    let Some(t) = Table::new(view, seen) else {
        return Vec::new();
    };
    t.options(true)
        .into_iter()
        .filter_map(|m| t.action(m))
        .take(most)
        .collect()
}

/// A move as the policy weighs it: sets by shape (suits never matter), cards only at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    Play(Shape),
    Burn(Shape),
    Pass,
    Yield,
    Decline,
}

struct Table<'a> {
    view: &'a View,
    me: Seat,
    /// The hand by strength (suits never matter).
    c: Counts,
    /// Cards per strength not in my hand and not seen on the table.
    unseen: [u8; 18],
}

impl<'a> Table<'a> {
    fn new(view: &'a View, seen: &Seen) -> Option<Table<'a>> {
        let Viewer::Seat(i) = view.viewer else {
            return None;
        };
        let me = Seat::from_index(i);
        if view.turn != Some(me) {
            return None;
        }
        let cards = view.hand.as_ref()?;
        let mut c = Counts::default();
        for &card in cards {
            if let Some(x) = strength(card) {
                c.0[x as usize] += 1;
            }
        }
        let mut unseen = [0u8; 18];
        for s in FOUR..=BIG {
            unseen[s as usize] = full_deck(s)
                .saturating_sub(c.get(s))
                .saturating_sub(seen.0.get(s));
        }
        Some(Table {
            view,
            me,
            c,
            unseen,
        })
    }

    /// The moves worth weighing, the 普通 choice first, no repeats (with `all` false, only
    /// the 普通 choice is worked out).
    fn options(&self, all: bool) -> Vec<Move> {
        let mut out: Vec<Move> = match self.view.prompt.as_ref() {
            None => Vec::new(),
            Some(Prompt::Lead { joker_required }) => self
                .leads(*joker_required, all)
                .into_iter()
                .map(Move::Play)
                .collect(),
            Some(Prompt::Respond {
                may_beat,
                may_yield,
            }) => self.respond(*may_beat, *may_yield, all),
            Some(Prompt::BurnOffer { .. }) => {
                let burns = self.burns();
                let mut out = Vec::new();
                if let Some((_, paying)) = burns.iter().find(|(pays, _)| *pays) {
                    out.push(Move::Burn(*paying));
                }
                out.push(Move::Decline);
                out.extend(burns.into_iter().map(|(_, s)| Move::Burn(s)));
                out
            }
        };
        let mut unique: Vec<Move> = Vec::with_capacity(out.len());
        for m in out.drain(..) {
            if !unique.contains(&m) {
                unique.push(m);
            }
        }
        unique
    }

    /// The move as an action, with the cards of the hand.
    fn action(&self, m: Move) -> Option<Action> {
        let hand = || -> Option<Hand> { Some(self.view.hand.as_ref()?.iter().copied().collect()) };
        Some(match m {
            Move::Play(s) => Action::Play {
                cards: s.take_from(&hand()?)?,
            },
            Move::Burn(s) => Action::Burn {
                cards: s.take_from(&hand()?)?,
            },
            Move::Pass => Action::Pass,
            Move::Yield => Action::Yield,
            Move::Decline => Action::Decline,
        })
    }

    fn count_of(&self, seat: Seat) -> Option<usize> {
        match self.view.count(seat) {
            CardCount::Exact(n) => Some(n),
            CardCount::MoreThan(_) => None,
        }
    }

    fn active(&self, seat: Seat) -> bool {
        self.view.players[seat.index()].status == Status::Playing
    }

    fn teammates(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL
            .into_iter()
            .filter(|&s| s != self.me && s.team() == self.me.team() && self.active(s))
    }

    /// Natural ranks held, lowest first.
    fn ranks(&self) -> Vec<Strength> {
        (FOUR..=ACE).filter(|&r| self.c.get(r) > 0).collect()
    }

    fn natural(&self, base: Strength, naturals: u8) -> Shape {
        Shape {
            base,
            naturals,
            twos: 0,
            small: 0,
            big: 0,
        }
    }

    /// What playing a set costs the hand: nothing for a whole low rank; breaking a rank, high
    /// ranks (级牌 material) and above all 2s and jokers cost. A standing burner's jokers are
    /// its leads: they cost three times as much.
    fn cost(&self, s: &Shape) -> f32 {
        let mut cost = 0.0;
        if (FOUR..=ACE).contains(&s.base) {
            let held = self.c.get(s.base);
            if s.naturals < held {
                cost += 3.0 + (held - s.naturals) as f32;
            }
            cost += (s.base - FOUR) as f32 * 0.3;
            if s.base >= 13 {
                cost += 1.0;
            }
        }
        let burning = self.view.players[self.me.index()].burning;
        let joker = if burning { 3.0 } else { 1.0 };
        cost + 4.0 * s.twos as f32 + joker * (7.0 * s.small as f32 + 9.0 * s.big as f32)
    }

    /// Could some unseen set beat this one (as many cards, each higher)?
    fn beatable(&self, s: &Shape) -> bool {
        let low = if s.jokers() == s.len() as u8 {
            if s.small > 0 {
                SMALL
            } else {
                BIG
            }
        } else if s.base == 0 {
            TWO
        } else {
            s.base
        };
        let higher: usize = (low + 1..=BIG)
            .map(|h| self.unseen[h as usize] as usize)
            .sum();
        higher >= s.len()
    }

    // --- 发牌 (leads) ----------------------------------------------------------------------

    fn leads(&self, joker_required: bool, all: bool) -> Vec<Shape> {
        let c = &self.c;
        if let Some(whole) = c.as_one_set() {
            return vec![whole];
        }
        let ranks = self.ranks();
        let mut out = Vec::new();
        if joker_required {
            // A standing burn: one joker on the lowest rank, the small joker first.
            if let Some(&r) = ranks.first() {
                let small = (c.get(SMALL) > 0) as u8;
                out.push(Shape {
                    small,
                    big: 1 - small,
                    ..self.natural(r, c.get(r))
                });
            }
            out.extend(smallest_lead(c, true));
            return out;
        }
        let lowest = ranks.first().map(|&r| self.natural(r, c.get(r)));
        // A teammate with k cards may go out on a set of k.
        for m in self.teammates() {
            if let Some(k) = self.count_of(m).filter(|&k| (1..=4).contains(&k)) {
                let k = k as u8;
                if let Some(&r) = ranks
                    .iter()
                    .find(|&&r| c.get(r) == k)
                    .or_else(|| ranks.iter().find(|&&r| c.get(r) > k))
                {
                    out.push(self.natural(r, k));
                }
            }
        }
        if self.should_open() {
            out.extend(self.gouji_lead());
        }
        if ranks.len() == 2 {
            // Two sets left: the strong one (the top rank with every 2 and joker) first.
            let top = ranks[1];
            out.push(Shape {
                twos: c.get(TWO),
                small: c.get(SMALL),
                big: c.get(BIG),
                ..self.natural(top, c.get(top))
            });
        }
        out.extend(lowest);
        if !all && !out.is_empty() {
            return out;
        }
        // What the Expert may also weigh: the top rank alone, a 级牌, the lowest card alone.
        if let Some(&top) = ranks.last() {
            out.push(self.natural(top, c.get(top)));
        }
        out.extend(self.gouji_lead());
        if let Some(&r) = ranks.first() {
            out.push(self.natural(r, 1));
        }
        out.extend(smallest_lead(c, false));
        out
    }

    /// Time to play a 级牌 to open: not opened, a head, and 二科 may go out soon.
    fn should_open(&self) -> bool {
        let v = self.view;
        let me = &v.players[self.me.index()];
        if v.free_play || me.opened || !me.has_head {
            return false;
        }
        let someone_close = Seat::ALL
            .into_iter()
            .any(|s| self.active(s) && self.count_of(s).is_some_and(|n| n <= 6));
        v.finish.len() == 1 || self.c.total() <= 15 || someone_close
    }

    /// A 级牌 to lead (not the whole hand): the top natural rank that meets its threshold, else
    /// the lowest rank with a small joker, else the 2s.
    fn gouji_lead(&self) -> Option<Shape> {
        let c = &self.c;
        let ranks = self.ranks();
        let natural = ranks
            .iter()
            .rev()
            .find(|&&r| threshold(r).is_some_and(|t| c.get(r) >= t))
            .map(|&r| self.natural(r, c.get(r)));
        let with_joker = ranks.first().and_then(|&r| {
            let (small, big) = if c.get(SMALL) > 0 {
                (1, 0)
            } else if c.get(BIG) > 0 {
                (0, 1)
            } else {
                return None;
            };
            Some(Shape {
                small,
                big,
                ..self.natural(r, c.get(r))
            })
        });
        let twos = (c.get(TWO) > 0 && !ranks.is_empty()).then_some(Shape {
            base: TWO,
            naturals: 0,
            twos: c.get(TWO),
            small: 0,
            big: 0,
        });
        natural
            .filter(|s| !self.beatable(s))
            .or(with_joker)
            .or(natural)
            .or(twos)
    }

    // --- 管牌, 让, 过 -----------------------------------------------------------------------

    fn respond(&self, may_beat: bool, may_yield: bool, all: bool) -> Vec<Move> {
        let v = self.view;
        let Some(top) = v.top.as_ref() else {
            return vec![Move::Pass];
        };
        let mut beats = Vec::new();
        if may_beat {
            beat_shapes(&self.c, &top.shape, v.ruleset.two_for_one, &mut beats);
        }
        let by_cost = |a: &Shape, b: &Shape| self.cost(a).total_cmp(&self.cost(b)).then(a.cmp(b));
        let go_out = self.c.as_one_set().filter(|w| beats.contains(w));
        let owner = top.owner;
        let waiting = |s: Seat| {
            let p = &v.players[s.index()];
            s != owner && p.status == Status::Playing && !p.passed && !p.yielded
        };
        let mate_waiting = self.teammates().any(waiting);
        let mate_goes_out = self
            .teammates()
            .any(|m| waiting(m) && self.count_of(m) == Some(top.shape.len()));
        let hold = if may_yield { Move::Yield } else { Move::Pass };
        let cheapest = beats.iter().copied().min_by(by_cost);
        let mut out = vec![if let Some(w) = go_out {
            Move::Play(w)
        } else if owner.team() == self.me.team() {
            Move::Pass
        } else if mate_goes_out {
            hold
        } else if let Some(best) = cheapest.filter(|b| self.cost(b) <= self.threshold()) {
            Move::Play(best)
        } else if may_yield && mate_waiting {
            Move::Yield
        } else {
            Move::Pass
        }];
        if all {
            // For the Expert: passing, yielding, and the three cheapest beats.
            out.push(Move::Pass);
            if may_yield {
                out.push(Move::Yield);
            }
            beats.sort_by(by_cost);
            out.extend(beats.into_iter().take(3).map(Move::Play));
        }
        out
    }

    /// How much a beat may cost before we would rather pass.
    fn threshold(&self) -> f32 {
        let v = self.view;
        let Some(top) = v.top.as_ref() else {
            return 0.0;
        };
        let mut thr = 3.5;
        if top.owner == self.me.opposite() {
            // Go after the 对头.
            thr += 4.0;
            if top.gouji {
                // Only we may beat it; if we pass it, the 对头 opens.
                thr += 6.0;
            }
        }
        let mate_close = self
            .teammates()
            .any(|m| self.count_of(m).is_some_and(|n| n <= 5));
        if mate_close {
            thr += 3.0;
        }
        if self.c.total() <= 10 {
            thr += 3.0;
        }
        if self.behind() {
            // Last in the race: shed now or finish 大落.
            thr += 3.0;
        }
        thr
    }

    /// In 四户乱缠, holding more cards than every other player still in (all counted exactly).
    fn behind(&self) -> bool {
        let v = self.view;
        let mine = self.c.total();
        v.free_play
            && Seat::ALL
                .into_iter()
                .filter(|&s| s != self.me && self.active(s))
                .all(|s| self.count_of(s).is_some_and(|n| n < mine))
    }

    // --- 烧牌 ------------------------------------------------------------------------------

    /// Sustainable burns, cheapest first, each with whether it pays.
    fn burns(&self) -> Vec<(bool, Shape)> {
        let v = self.view;
        let Some(top) = v.top.as_ref() else {
            return Vec::new();
        };
        let mut shapes = Vec::new();
        beat_shapes(&self.c, &top.shape, v.ruleset.two_for_one, &mut shapes);
        shapes.retain(|s| sustain(&self.c.minus(s), v.ruleset.keep_cards).is_ok());
        shapes.sort_by(|a, b| self.cost(a).total_cmp(&self.cost(b)).then(a.cmp(b)));
        let opponent = top.owner.team() != self.me.team();
        shapes
            .into_iter()
            .map(|s| {
                let after = self.c.minus(&s);
                let ranks = after.natural_ranks();
                let pays = opponent && ranks <= 4 && after.jokers() as usize >= ranks;
                (pays, s)
            })
            .collect()
    }
}
