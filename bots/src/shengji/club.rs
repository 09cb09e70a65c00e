//! 普通 (club) 80分: the heuristics club players use, from the seat's view and what it
//! remembers ([`Known`]).
//!
//! - 扣底: void a side suit or two and keep points (5, 10, K), aces and pairs out of the kitty.
//! - 出牌: cash what stands — throws whose every unit is the top of what is still unseen, top
//!   pairs and tractors, top singles — in suits no opponent can trump; the declaring side draws
//!   trumps when it holds most of them; lead low into a suit the partner is void in; otherwise
//!   lead low from a short suit without breaking pairs or leading points.
//! - 跟牌: every legal follow is valued as the points it is likely to bring to our side minus
//!   the strength it spends: feed points to a partner whose trick no opponent after us can take
//!   (送分), duck points when an opponent wins, take a trick cheaply when no opponent after us can
//!   take it back; the last trick counts the kitty (抠底) and trumps are kept for it.
//! - 指定: after a failed throw, make the thrower lead the unit our side can beat.

use rules::cards::{points, Card, Hand, FACES};
use rules::shengji::{
    each_legal_follow, kitty_multiplier, legal_leads, lowest_follow, parse_lead, trick_winner,
    Action, Lane, Lead, Order, Phase, Seat, UnitChoice, UnitKind, View,
};
use rules::Viewer;

use super::notes::Known;

/// Lane index of trumps in per-lane tables.
const TRUMP: usize = 4;
/// Most follows valued per decision (a void follower of a long throw has thousands).
const FOLLOW_LIMIT: usize = 600;

/// The 普通 action for the seat whose view this is, or `None` if it is not to act.
pub fn decide(view: &View, known: &Known) -> Option<Action> {
    let t = Table::new(view, known)?;
    Some(match view.phase {
        Phase::Bury => Action::Bury {
            cards: t.bury_options().swap_remove(0).1,
        },
        Phase::Choose => Action::Choose { unit: t.choose() },
        Phase::Play if view.plays.is_empty() => Action::Play {
            cards: t.leads().swap_remove(0).1,
        },
        Phase::Play => Action::Play {
            cards: t.best_follow(),
        },
        Phase::Over => return None,
    })
}

/// A short list of sensible actions, the 普通 choice first, for the Expert to weigh.
pub fn candidates(view: &View, known: &Known, most: usize) -> Vec<Action> {
    let Some(t) = Table::new(view, known) else {
        return Vec::new();
    };
    match view.phase {
        Phase::Bury => t
            .bury_options()
            .into_iter()
            .take(most)
            .map(|(_, cards)| Action::Bury { cards })
            .collect(),
        Phase::Choose => vec![
            Action::Choose { unit: t.choose() },
            Action::Choose {
                unit: match t.choose() {
                    UnitChoice::Single => UnitChoice::Pair,
                    UnitChoice::Pair => UnitChoice::Single,
                },
            },
        ],
        Phase::Play if view.plays.is_empty() => t
            .leads()
            .into_iter()
            .take(most)
            .map(|(_, cards)| Action::Play { cards })
            .collect(),
        Phase::Play => {
            // One per kind of outcome (wins or not, points given), best first.
            let mut kinds: Vec<(bool, u32)> = Vec::new();
            let mut out = Vec::new();
            for (_, cards, wins) in t.valued_follows() {
                let kind = (wins, points(&cards));
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                    out.push(Action::Play { cards });
                }
                if out.len() == most {
                    break;
                }
            }
            out
        }
        Phase::Over => Vec::new(),
    }
}

/// The seat's table as the policy reads it.
struct Table<'a> {
    view: &'a View,
    order: Order,
    me: Seat,
    hand: Hand,
    /// `void[seat][lane]`, the current trick included.
    void: [[bool; 5]; 4],
    /// Points the kitty probably holds (exact for a declarer who remembers its bury).
    kitty_points: f32,
    /// What keeping each face of the hand is worth ([`Table::keep_value`]), worked out once.
    keep: [f32; FACES],
    /// Per lane: unseen cards; the slot of the strongest unseen card plus one (0: none); the
    /// slots where an unseen pair may be (bit mask). Asked for every follow valued.
    lane_unseen: [usize; 5],
    top_unseen: [u8; 5],
    pair_mask: [u32; 5],
}

thread_local! {
    /// The last card order built: Order::new sorts every face, and a playout asks for the same
    /// board's order a hundred times.
    static ORDER: std::cell::RefCell<Option<Order>> = const { std::cell::RefCell::new(None) };
}

/// The board's card order (cached per thread).
fn order_of(view: &View) -> Order {
    ORDER.with(|cell| {
        let mut cached = cell.borrow_mut();
        match &*cached {
            Some(o) if o.level() == view.level && o.trump_suit() == view.trump => o.clone(),
            _ => {
                let o = Order::new(view.level, view.trump);
                *cached = Some(o.clone());
                o
            }
        }
    })
}

impl<'a> Table<'a> {
    fn new(view: &'a View, known: &Known) -> Option<Table<'a>> {
        let Viewer::Seat(i) = view.viewer else {
            return None;
        };
        let me = Seat::from_index(i);
        if view.to_act != Some(me) {
            return None;
        }
        let hand: Hand = view.hand.as_ref()?.iter().copied().collect();
        let order = order_of(view);
        let mut void = known.void;
        let mut current = Known::empty();
        current.add_trick(&order, &view.plays);
        for (s, lanes) in current.void.iter().enumerate() {
            for (l, &v) in lanes.iter().enumerate() {
                void[s][l] |= v;
            }
        }
        // Copies of each face that may be in another hand (or the kitty, or a trick not seen).
        let mut unseen = [0u8; FACES];
        let mut unseen_points = 0u32;
        let mut unseen_total = 0u32;
        for c in Card::all() {
            let gone = hand.count(c) as u8
                + known.played[c.index()]
                + current.played[c.index()]
                + known.kitty.as_ref().map_or(0, |k| k.count(c) as u8);
            let n = 2u8.saturating_sub(gone);
            unseen[c.index()] = n;
            unseen_points += c.points() * n as u32;
            unseen_total += n as u32;
        }
        let kitty_points = match &known.kitty {
            Some(k) => k.points() as f32,
            None if unseen_total > 0 => unseen_points as f32 * 8.0 / unseen_total as f32,
            None => 0.0,
        };
        let (mut lane_unseen, mut top_unseen, mut pair_mask) = ([0usize; 5], [0u8; 5], [0u32; 5]);
        for lane in 0..5 {
            for &g in order.lane_faces(Lane::from_index(lane)) {
                let n = unseen[g.index()];
                let slot = order.slot(g);
                lane_unseen[lane] += n as usize;
                if n > 0 {
                    top_unseen[lane] = top_unseen[lane].max(slot + 1);
                }
                if n >= 2 {
                    pair_mask[lane] |= 1 << slot;
                }
            }
        }
        let mut t = Table {
            view,
            order,
            me,
            hand,
            void,
            kitty_points,
            keep: [0.0; FACES],
            lane_unseen,
            top_unseen,
            pair_mask,
        };
        for (c, _) in t.hand.faces() {
            t.keep[c.index()] = t.keep_value(c);
        }
        Some(t)
    }

    fn lane(&self, c: Card) -> usize {
        self.order.lane(c).index()
    }

    fn faces(&self, lane: usize) -> &[Card] {
        self.order.lane_faces(Lane::from_index(lane))
    }

    fn unseen_in(&self, lane: usize) -> usize {
        self.lane_unseen[lane]
    }

    fn held_in(&self, lane: usize) -> usize {
        self.faces(lane).iter().map(|&f| self.hand.count(f)).sum()
    }

    fn declaring_side(&self) -> bool {
        self.me.same_side(self.view.declarer)
    }

    /// Some unseen card of the lane is stronger than `slot`.
    fn higher_single_unseen(&self, lane: usize, slot: u8) -> bool {
        self.top_unseen[lane] > slot + 1
    }

    /// Some unseen run of `pairs` pairs of the lane tops above `slot`.
    fn higher_pairs_unseen(&self, lane: usize, pairs: u8, slot: u8) -> bool {
        self.pairs_unseen_from(lane, pairs, slot + 1)
    }

    /// Some unseen run of `pairs` pairs of the lane tops at `from` or higher.
    fn pairs_unseen_from(&self, lane: usize, pairs: u8, from: u8) -> bool {
        let slots = self.order.slot_count(Lane::from_index(lane)) as u8;
        let mut run = 0;
        for s in 0..slots {
            let pair = self.pair_mask[lane] & (1 << s) != 0;
            run = if pair { run + 1 } else { 0 };
            if s >= from && run >= pairs.max(1) {
                return true;
            }
        }
        false
    }

    /// No unseen card can beat this unit of a lead (so a throw of such units stands).
    fn unit_stands(&self, lane: usize, kind: UnitKind, pairs: u8, top: u8) -> bool {
        match kind {
            UnitKind::Single => !self.higher_single_unseen(lane, top),
            UnitKind::Pair | UnitKind::Tractor => !self.higher_pairs_unseen(lane, pairs, top),
        }
    }

    fn lead_stands(&self, lead: &Lead) -> bool {
        let lane = lead.lane().index();
        lead.units()
            .iter()
            .all(|u| self.unit_stands(lane, u.kind(), u.pairs(), u.top()))
    }

    /// Might `seat` trump a lead of this side suit (shown void, or nobody else holds the suit)?
    fn may_trump(&self, seat: Seat, lane: usize) -> bool {
        lane != TRUMP
            && (self.void[seat.index()][lane] || self.unseen_in(lane) == 0)
            && !self.void[seat.index()][TRUMP]
            && self.unseen_in(TRUMP) > 0
    }

    fn opponents(&self) -> [Seat; 2] {
        [self.me.next(), self.me.partner().next()]
    }

    /// What keeping a card is worth, in points: trumps most (the top ones more), aces and the
    /// top card of a suit next. Near the end trumps count more (抠底, or defending the kitty).
    fn keep_value(&self, c: Card) -> f32 {
        let slot = self.order.slot(c) as f32;
        let top = !self.higher_single_unseen(self.lane(c), self.order.slot(c));
        if self.order.is_trump(c) {
            let late = if self.hand.len() <= 8 { 1.5 } else { 1.0 };
            (3.0 + 0.6 * slot + if top { 2.0 } else { 0.0 }) * late
        } else {
            let ace = c.rank().is_some_and(|r| r.value() == 14);
            0.25 * slot + if ace { 2.0 } else { 0.0 } + if top { 1.5 } else { 0.0 }
        }
    }

    /// What a play spends: the cards' worth, and a pair broken up.
    fn cost(&self, play: &[Card]) -> f32 {
        let mut cost: f32 = play.iter().map(|&c| self.keep[c.index()]).sum();
        let mut seen: Vec<Card> = Vec::with_capacity(play.len());
        for &c in play {
            if seen.contains(&c) {
                continue;
            }
            seen.push(c);
            let n = play.iter().filter(|&&d| d == c).count();
            if self.hand.count(c) == 2 && n == 1 {
                cost += 2.5;
            }
        }
        cost
    }

    // --- 扣底 -----------------------------------------------------------------------------

    /// Buries, best first: void the side suits whose cards are worth least, fill up with the
    /// cheapest side cards, trumps only when short.
    fn bury_options(&self) -> Vec<(f32, Vec<Card>)> {
        const SIZE: usize = rules::shengji::KITTY_SIZE;
        let worth = |c: Card| -> f32 {
            let r = c.rank().map_or(15, |r| r.value());
            let rank_bonus = match r {
                14 => 8.0,
                13 => 3.0,
                12 => 2.0,
                _ => 0.0,
            };
            let pair = if self.hand.count(c) == 2 { 4.0 } else { 0.0 };
            let trump = if self.order.is_trump(c) { 20.0 } else { 0.0 };
            1.5 * c.points() as f32 + rank_bonus + pair + 0.3 * self.order.slot(c) as f32 + trump
        };
        let cards_of = |lane: usize| -> Vec<Card> {
            self.faces(lane)
                .iter()
                .flat_map(|&f| std::iter::repeat_n(f, self.hand.count(f)))
                .collect()
        };
        let lanes: Vec<Vec<Card>> = (0..5).map(cards_of).collect();
        let mut options: Vec<(f32, Vec<Card>)> = Vec::new();
        for subset in 0u32..16 {
            let chosen: Vec<usize> = (0..4).filter(|l| subset & (1 << l) != 0).collect();
            if chosen.iter().any(|&l| lanes[l].is_empty()) {
                continue;
            }
            let mut bury: Vec<Card> = chosen.iter().flat_map(|&l| lanes[l].clone()).collect();
            if bury.len() > SIZE {
                continue;
            }
            let mut rest: Vec<Card> = (0..5)
                .filter(|l| !chosen.contains(l))
                .flat_map(|l| lanes[l].clone())
                .collect();
            rest.sort_by(|&a, &b| {
                worth(a)
                    .total_cmp(&worth(b))
                    .then(self.order.low_key(a).cmp(&self.order.low_key(b)))
            });
            bury.extend(rest.into_iter().take(SIZE - bury.len()));
            let value: f32 =
                bury.iter().map(|&c| worth(c)).sum::<f32>() - 6.0 * chosen.len() as f32;
            bury.sort();
            if !options.iter().any(|(_, b)| *b == bury) {
                options.push((value, bury));
            }
        }
        options.sort_by(|a, b| a.0.total_cmp(&b.0));
        options
    }

    // --- 指定 (after a failed throw) -------------------------------------------------------

    fn choose(&self) -> UnitChoice {
        let Some(choice) = &self.view.choice else {
            return UnitChoice::Single;
        };
        let beats = |unit: &[Card]| -> bool {
            let Some(&c) = unit.first() else { return false };
            let lane = self.lane(c);
            let top = unit.iter().map(|&c| self.order.slot(c)).max().unwrap_or(0);
            let pairs = (unit.len() / 2) as u8;
            self.faces(lane).iter().any(|&g| {
                self.order.slot(g) > top && self.hand.count(g) >= if pairs > 0 { 2 } else { 1 }
            })
        };
        if beats(&choice.pair) && !beats(&choice.single) {
            UnitChoice::Pair
        } else if beats(&choice.single) {
            UnitChoice::Single
        } else if points(&choice.pair) > points(&choice.single) {
            // Neither is ours to take: make them put the points where the partner may.
            UnitChoice::Pair
        } else {
            UnitChoice::Single
        }
    }

    // --- 出牌 (leads) ----------------------------------------------------------------------

    /// Leads, best first.
    fn leads(&self) -> Vec<(f32, Vec<Card>)> {
        let rules = &self.view.ruleset;
        let mut out: Vec<(f32, Vec<Card>)> = Vec::new();
        let my_trumps = self.held_in(TRUMP);
        let draw_trumps = self.declaring_side()
            && self.unseen_in(TRUMP) > 0
            && my_trumps >= self.unseen_in(TRUMP).max(4);
        let partner = self.me.partner();
        for cards in legal_leads(&self.order, &self.hand) {
            // Singles and pairs need no parsing; tractors are one unit each.
            let lane = self.lane(cards[0]);
            let (single, stands) = match cards.len() {
                1 => (
                    true,
                    self.unit_stands(lane, UnitKind::Single, 0, self.order.slot(cards[0])),
                ),
                2 if cards[0] == cards[1] => (
                    false,
                    self.unit_stands(lane, UnitKind::Pair, 1, self.order.slot(cards[0])),
                ),
                _ => match parse_lead(&self.order, rules.lead_parse, &cards) {
                    Ok(lead) => (false, self.lead_stands(&lead)),
                    Err(_) => continue,
                },
            };
            let pts = points(&cards) as f32;
            let trumpable = self.opponents().iter().any(|&o| self.may_trump(o, lane));
            let cost = self.cost(&cards);
            let score = if lane == TRUMP {
                if draw_trumps && stands {
                    760.0 + 10.0 * cards.len() as f32
                } else if draw_trumps {
                    560.0 - cost - pts
                } else if stands && self.hand.len() <= cards.len() * 2 {
                    // The last tricks: cash the top trumps (抠底 / keep the kitty).
                    740.0 + pts
                } else {
                    300.0 - cost - 2.0 * pts
                }
            } else if stands && !trumpable {
                let shape = if single { 0.0 } else { 100.0 };
                800.0 + shape + 10.0 * cards.len() as f32 + pts
            } else if stands {
                // The top card, but an opponent may trump it: no points into that.
                420.0 - 5.0 * pts
            } else {
                let feed_partner = self.void[partner.index()][lane]
                    && !self.void[partner.index()][TRUMP]
                    && !trumpable;
                let short = 13.0 - self.held_in(lane) as f32;
                let base = if feed_partner { 700.0 } else { 500.0 };
                base - 3.0 * cost - 8.0 * pts + 2.0 * short
            };
            out.push((score, cards));
        }
        // Throws that stand: every unit the top of what is unseen.
        for lane in 0..5 {
            if let Some(cards) = self.standing_throw(lane) {
                let trumpable = self.opponents().iter().any(|&o| self.may_trump(o, lane));
                if !trumpable || lane == TRUMP {
                    out.push((1000.0 + 10.0 * cards.len() as f32, cards));
                }
            }
        }
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        out
    }

    /// The biggest throw of this lane whose every unit stands, if it has two units or more.
    fn standing_throw(&self, lane: usize) -> Option<Vec<Card>> {
        let rules = &self.view.ruleset;
        let mut cards: Vec<Card> = self
            .faces(lane)
            .iter()
            .flat_map(|&f| std::iter::repeat_n(f, self.hand.count(f)))
            .collect();
        // Drop the weakest unit until what is left stands.
        while !cards.is_empty() {
            let lead = parse_lead(&self.order, rules.lead_parse, &cards).ok()?;
            let failing = lead
                .units()
                .iter()
                .rev()
                .find(|u| !self.unit_stands(lane, u.kind(), u.pairs(), u.top()));
            match failing {
                None => return (lead.units().len() >= 2).then_some(cards),
                Some(u) => {
                    for c in u.cards() {
                        let i = cards.iter().position(|x| x == c)?;
                        cards.remove(i);
                    }
                }
            }
        }
        None
    }

    // --- 跟牌 (follows) --------------------------------------------------------------------

    /// The best follow.
    fn best_follow(&self) -> Vec<Card> {
        let mut best: Option<(f32, Vec<Card>)> = None;
        self.each_follow(&mut |value, cards, _| {
            if best.as_ref().is_none_or(|(v, _)| value > *v) {
                best = Some((value, cards.to_vec()));
            }
        });
        best.map(|(_, cards)| cards).unwrap_or_default()
    }

    /// Legal follows with their worth and whether each would win the trick now, best first.
    fn valued_follows(&self) -> Vec<(f32, Vec<Card>, bool)> {
        let mut out = Vec::new();
        self.each_follow(&mut |value, cards, wins| out.push((value, cards.to_vec(), wins)));
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        out
    }

    /// Calls `found` with each legal follow (at most [`FOLLOW_LIMIT`], and the lowest), its
    /// worth to our side — likely points won or lost, minus what the play spends — and whether
    /// it would win the trick now.
    fn each_follow(&self, found: &mut dyn FnMut(f32, &[Card], bool)) {
        let view = self.view;
        let rules = &view.ruleset;
        let Ok(lead) = parse_lead(&self.order, rules.lead_parse, &view.plays[0].cards) else {
            return;
        };
        let me_at = view.plays.len();
        let on_table: u32 = view.plays.iter().map(|p| points(&p.cards)).sum();
        // The seats after me in this trick.
        let after: Vec<Seat> = (1..4 - me_at)
            .scan(self.me, |s, _| {
                *s = s.next();
                Some(*s)
            })
            .collect();
        let last_trick = self.hand.len() == lead.len();
        let kitty = if last_trick {
            self.kitty_points * kitty_multiplier(rules.kitty_multiplier, &lead) as f32
        } else {
            0.0
        };
        let value_of = |cards: &[Card]| -> (f32, bool) {
            let mut plays: [&[Card]; 4] = [&[]; 4];
            for (slot, p) in plays.iter_mut().zip(&view.plays) {
                *slot = &p.cards;
            }
            plays[me_at] = cards;
            let w = trick_winner(&self.order, rules.throw_compare, &lead, &plays[..=me_at]);
            let wins = w == me_at;
            let (winner, winning) = if wins {
                (self.me, cards)
            } else {
                (view.plays[w].seat, view.plays[w].cards.as_slice())
            };
            let ours = winner.same_side(self.me);
            let threatened = after
                .iter()
                .any(|&s| !s.same_side(winner) && self.could_beat(s, winning, &lead));
            let p_ours = match (ours, threatened) {
                (true, false) => 1.0,
                (true, true) => 0.45,
                (false, true) => 0.35,
                (false, false) => 0.0,
            };
            let total = (on_table + points(cards)) as f32 + kitty;
            ((2.0 * p_ours - 1.0) * total - self.cost(cards), wins)
        };
        let mut lowest = lowest_follow(&self.order, &lead, &self.hand);
        lowest.sort();
        let mut n = 0;
        let mut saw_lowest = false;
        each_legal_follow(&self.order, &lead, &self.hand, &mut |p| {
            let (value, wins) = value_of(p);
            saw_lowest |= p == lowest.as_slice();
            found(value, p, wins);
            n += 1;
            n < FOLLOW_LIMIT
        });
        if !saw_lowest {
            let (value, wins) = value_of(&lowest);
            found(value, &lowest, wins);
        }
    }

    /// Could `seat`, still to play, beat `winning` (the best play so far) for all we know?
    fn could_beat(&self, seat: Seat, winning: &[Card], lead: &Lead) -> bool {
        let led = lead.lane().index();
        let Some(&first) = winning.first() else {
            return false;
        };
        let won_in = self.lane(first);
        let s = seat.index();
        let void_led = self.void[s][led] || self.unseen_in(led) == 0;
        let trumps = !self.void[s][TRUMP] && self.unseen_in(TRUMP) > 0;
        let pairs = lead.parts().pairs();
        let longest = lead.parts().longest();
        if lead.is_throw() {
            return won_in == led
                && led != TRUMP
                && void_led
                && trumps
                && self.unseen_in(TRUMP) >= lead.len();
        }
        let top = if pairs == 0 {
            winning
                .iter()
                .map(|&c| self.order.slot(c))
                .max()
                .unwrap_or(0)
        } else {
            winning
                .iter()
                .filter(|&&c| winning.iter().filter(|&&d| d == c).count() >= 2)
                .map(|&c| self.order.slot(c))
                .max()
                .unwrap_or(0)
        };
        let higher = |lane: usize, top: u8| {
            if pairs == 0 {
                self.higher_single_unseen(lane, top)
            } else {
                self.higher_pairs_unseen(lane, longest, top)
            }
        };
        if won_in == led {
            (!self.void[s][led] && higher(led, top))
                || (led != TRUMP
                    && void_led
                    && trumps
                    && (pairs == 0 || self.pairs_unseen_from(TRUMP, longest, 0)))
        } else {
            // Trumped: only a higher trump of the shape, by a seat void in the led suit.
            void_led && trumps && higher(TRUMP, top)
        }
    }
}
