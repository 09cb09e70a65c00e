//! 牌型 (units of a lead): a lead is one effective suit cut into singles, pairs (对) and tractors
//! (拖拉机). \[decision\] `lead_parse`: by default the longest tractors first, then pairs, then
//! singles.
//!
//! Two decks hold at most two of a face, so a lead's pairs are its faces held twice and its
//! singles the faces held once; the only freedom is how pairs join into tractors. Without two
//! pairs of equal strength that is unique (the maximal runs of adjacent pairs). Two or more
//! 副级牌 pairs share one strength, and then trump `AA 副级对 副级对 主级对` is either tractor 3 +
//! pair or two tractors of 2; the ruleset decides.

use super::error::RuleError;
use super::ladder::{PairSlots, Parts};
use super::order::{Lane, Order, MAX_SLOTS};
use super::ruleset::{LeadParse, Ruleset, ThrowFollow};
use crate::cards::{Card, Hand};

/// Most cards in one unit: a tractor holds one pair a slot of its lane.
const MAX_UNIT_CARDS: usize = 2 * MAX_SLOTS;

/// One unit of a lead. Its cards are kept inline, so cutting a lead allocates nothing. Aligned
/// to 8 bytes: copied in whole words, a lead moved from function to function is read back as
/// it was written (35 bytes at any offset made the processor wait on its own stores).
#[derive(Clone)]
#[repr(align(8))]
pub struct Unit {
    /// 0 for a single, 1 for a pair, k ≥ 2 for a tractor of k pairs.
    pairs: u8,
    /// Slot (strength in the lane) of the highest card: units of one kind compare by it.
    top: u8,
    /// The cards, lowest first: the first `len` of `cards`.
    len: u8,
    cards: [Card; MAX_UNIT_CARDS],
}

/// What kind of unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    Single,
    Pair,
    Tractor,
}

impl Unit {
    /// A unit of `pairs` pairs (0: a single) whose highest card has slot `top`.
    fn new(pairs: u8, top: u8, cards: &[Card]) -> Unit {
        let mut unit = Unit {
            pairs,
            top,
            len: cards.len() as u8,
            cards: [Card::BJ; MAX_UNIT_CARDS],
        };
        unit.cards[..cards.len()].copy_from_slice(cards);
        unit
    }

    /// A single or a pair of `face`: its cards written where they are, not copied in by length
    /// (a copy of unknown length is a call to memcpy, and the processor waits on its bytes when
    /// the new unit is read back at once, as every lead's is).
    fn of_face(pairs: u8, top: u8, face: Card) -> Unit {
        let mut cards = [Card::BJ; MAX_UNIT_CARDS];
        cards[0] = face;
        cards[1] = if pairs == 1 { face } else { Card::BJ };
        Unit {
            pairs,
            top,
            len: pairs + 1,
            cards,
        }
    }

    pub fn kind(&self) -> UnitKind {
        match self.pairs {
            0 => UnitKind::Single,
            1 => UnitKind::Pair,
            _ => UnitKind::Tractor,
        }
    }

    /// 0 for a single, else the number of pairs.
    pub fn pairs(&self) -> u8 {
        self.pairs
    }

    /// The strength (slot) of the highest card.
    pub fn top(&self) -> u8 {
        self.top
    }

    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The order "smallest unit" uses (挡单出单、挡对出对): fewer cards first, then lower, then
    /// by face so equal 副级牌 singles still have a fixed order.
    pub fn smallness(&self) -> (usize, u8, usize) {
        (self.len(), self.top, self.cards[0].index())
    }

    /// What a unit is: its shape and its cards (the unused room is no part of it).
    fn key(&self) -> (u8, u8, &[Card]) {
        (self.pairs, self.top, self.cards())
    }
}

impl PartialEq for Unit {
    fn eq(&self, other: &Unit) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Unit {}

impl std::hash::Hash for Unit {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl std::fmt::Debug for Unit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Unit")
            .field("pairs", &self.pairs)
            .field("top", &self.top)
            .field("cards", &self.cards())
            .finish()
    }
}

/// A lead's units: one (a single, a pair, a tractor: nearly every lead) kept inline, or the
/// several of a throw. Only a throw allocates.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Units {
    One(Unit),
    Throw(Vec<Unit>),
}

impl Units {
    fn new(mut units: Vec<Unit>) -> Units {
        if units.len() == 1 {
            Units::One(units.pop().expect("one unit"))
        } else {
            Units::Throw(units)
        }
    }

    fn as_slice(&self) -> &[Unit] {
        match self {
            Units::One(unit) => std::slice::from_ref(unit),
            Units::Throw(units) => units,
        }
    }
}

impl std::fmt::Debug for Units {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// A lead cut into units.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lead {
    lane: Lane,
    /// Tractors (longest first, then highest), then pairs (highest first), then singles
    /// (highest first).
    units: Units,
    /// The pair groups of the units, for the follow ladder and trick comparison.
    parts: Parts,
    len: usize,
    /// Which unit a follower answers first when the lead holds several tractors
    /// (`throw_follow`); [`parse_lead`] takes the default, [`parse_lead_for`] the ruleset's.
    follow: ThrowFollow,
}

impl Lead {
    /// The lead's effective suit.
    pub fn lane(&self) -> Lane {
        self.lane
    }

    pub fn units(&self) -> &[Unit] {
        self.units.as_slice()
    }

    /// The pair groups: `[3, 1]` for a tractor of 3 and a pair.
    pub fn parts(&self) -> &Parts {
        &self.parts
    }

    /// How a follower matches a throw of several tractors (\[decision\] `throw_follow`).
    pub fn throw_follow(&self) -> ThrowFollow {
        self.follow
    }

    /// The same lead, answered under another `throw_follow`.
    pub fn with_throw_follow(mut self, follow: ThrowFollow) -> Lead {
        self.follow = follow;
        self
    }

    /// Number of cards led.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A throw (甩牌) has more than one unit.
    pub fn is_throw(&self) -> bool {
        self.units().len() > 1
    }

    /// Cards in the largest unit (1 single, 2 pair, 2k tractor); 抠底 multiplies by it.
    pub fn largest_unit_cards(&self) -> usize {
        self.units().iter().map(Unit::len).max().unwrap_or(0)
    }

    /// All the cards, unit by unit.
    pub fn cards(&self) -> Vec<Card> {
        self.units()
            .iter()
            .flat_map(|u| u.cards().iter().copied())
            .collect()
    }
}

/// Cuts a lead into units under a ruleset (`lead_parse`, and `throw_follow` for its followers).
pub fn parse_lead_for(order: &Order, rules: &Ruleset, cards: &[Card]) -> Result<Lead, RuleError> {
    cut(order, rules.lead_parse, rules.throw_follow, cards)
}

/// Cuts a lead into units. Refuses an empty lead and one that is not a single effective suit.
/// Whether the cards are in the leader's hand is the caller's business. Followers answer it
/// under the default `throw_follow` (largest unit first); see [`parse_lead_for`].
pub fn parse_lead(order: &Order, parse: LeadParse, cards: &[Card]) -> Result<Lead, RuleError> {
    cut(order, parse, ThrowFollow::LargestUnitFirst, cards)
}

/// Cuts a lead into units, to be followed under `follow`: the lead is made where it is returned,
/// not made and then copied with its `throw_follow` changed (a lead is some 70 bytes).
fn cut(
    order: &Order,
    parse: LeadParse,
    follow: ThrowFollow,
    cards: &[Card],
) -> Result<Lead, RuleError> {
    let first = *cards.first().ok_or(RuleError::EmptyPlay)?;
    let lane = order.lane_index(first);
    if cards.iter().any(|&c| order.lane_index(c) != lane) {
        return Err(RuleError::LeadMixedSuits);
    }
    // Most leads are a single or a pair: no tractor search.
    if let Some(lead) = one_face(order, follow, cards) {
        return Ok(lead);
    }
    let held: Hand = cards.iter().copied().collect();
    let mut units = Vec::with_capacity(cards.len());
    // Pairs and tractors first; a throw of singles (the commonest throw) has no pairs to join.
    let lengths = if held.pairs_mask() == 0 {
        Vec::new()
    } else {
        pair_units(order, lane, &held, parse, &mut units)
    };
    // The singles, highest first.
    for &c in order.faces_of(lane).iter().rev() {
        if held.count(c) % 2 == 1 {
            units.push(Unit::new(0, order.slot(c), &[c]));
        }
    }
    Ok(Lead {
        lane: Lane::from_index(lane),
        units: Units::new(units),
        parts: Parts::from_lengths(&lengths),
        len: cards.len(),
        follow,
    })
}

/// Adds the lead's pairs and tractors to `units` (longest tractors first, then the highest),
/// returning their lengths in pairs.
fn pair_units(
    order: &Order,
    lane: usize,
    held: &Hand,
    parse: LeadParse,
    units: &mut Vec<Unit>,
) -> Vec<u8> {
    let mut pair_slots = PairSlots::default();
    for &face in order.faces_of(lane) {
        for _ in 0..held.count(face) / 2 {
            pair_slots.add(order.slot(face));
        }
    }
    let runs = tractor_runs(&pair_slots, parse);

    // Faces for each run, taking the pair faces of a slot in face order.
    let mut pair_faces: [Vec<Card>; MAX_SLOTS] = Default::default();
    for &face in order.faces_of(lane) {
        for _ in 0..held.count(face) / 2 {
            pair_faces[order.slot(face) as usize].push(face);
        }
    }
    for faces in pair_faces.iter_mut() {
        faces.reverse(); // pop() hands them out in face order
    }
    let mut lengths = Vec::with_capacity(runs.len());
    for &(start, k) in &runs {
        let mut unit_cards = [Card::BJ; MAX_UNIT_CARDS];
        for (i, slot) in (start..start + k).enumerate() {
            let face = pair_faces[slot as usize]
                .pop()
                .expect("a pair at every slot of a run");
            unit_cards[2 * i..2 * i + 2].fill(face);
        }
        units.push(Unit::new(k, start + k - 1, &unit_cards[..2 * k as usize]));
        lengths.push(k);
    }
    lengths
}

/// A lead of one face, a single or a pair (nearly every lead), cut without a tractor search;
/// `None` for any other cards.
pub(crate) fn one_face(order: &Order, follow: ThrowFollow, cards: &[Card]) -> Option<Lead> {
    let pairs = one_face_pairs(cards)?;
    let face = cards[0];
    Some(Lead {
        lane: order.lane(face),
        units: Units::One(Unit::of_face(pairs, order.slot(face), face)),
        parts: Parts::from_lengths(&[pairs]),
        len: cards.len(),
        follow,
    })
}

/// True if the cards are a single or a pair: a lead of one unit of one face, which always
/// stands.
pub(crate) fn is_one_face(cards: &[Card]) -> bool {
    one_face_pairs(cards).is_some()
}

/// The pairs in a lead of one face: 0 for a single, 1 for a pair, `None` for other cards.
fn one_face_pairs(cards: &[Card]) -> Option<u8> {
    match *cards {
        [_] => Some(0),
        [c, d] if c == d => Some(1),
        _ => None,
    }
}

/// The pairs of a lead joined into tractors: (start slot, pairs), longest first, then highest.
fn tractor_runs(pairs: &PairSlots, parse: LeadParse) -> Vec<(u8, u8)> {
    let mut counts = [0u8; MAX_SLOTS];
    for (s, c) in counts.iter_mut().enumerate() {
        *c = pairs.count(s);
    }
    let mut runs = if counts.iter().all(|&c| c <= 1) {
        maximal_runs(&counts)
    } else {
        let mut best: Option<(RunKey, Vec<(u8, u8)>)> = None;
        let mut current = Vec::new();
        each_cover(&mut counts, &mut current, &mut |cover| {
            if mergeable(cover) {
                return;
            }
            let key = run_key(cover, parse);
            if best.as_ref().is_none_or(|(k, _)| key > *k) {
                best = Some((key, cover.to_vec()));
            }
        });
        best.map(|(_, c)| c).unwrap_or_default()
    };
    runs.sort_by(|a, b| b.1.cmp(&a.1).then(b.0.cmp(&a.0)));
    runs
}

/// Maximal runs of adjacent slots holding a pair.
fn maximal_runs(counts: &[u8; MAX_SLOTS]) -> Vec<(u8, u8)> {
    let mut runs = Vec::new();
    let mut s = 0;
    while s < MAX_SLOTS {
        if counts[s] == 0 {
            s += 1;
            continue;
        }
        let start = s;
        while s < MAX_SLOTS && counts[s] > 0 {
            s += 1;
        }
        runs.push((start as u8, (s - start) as u8));
    }
    runs
}

/// A run of adjacent pair slots: (start slot, pairs).
type Run = (u8, u8);

/// Every way to cover the pair counts with runs of adjacent slots.
fn each_cover(counts: &mut [u8; MAX_SLOTS], current: &mut Vec<Run>, found: &mut dyn FnMut(&[Run])) {
    let Some(start) = counts.iter().position(|&c| c > 0) else {
        found(current);
        return;
    };
    let mut end = start;
    while end < MAX_SLOTS && counts[end] > 0 {
        counts[end] -= 1;
        current.push((start as u8, (end - start + 1) as u8));
        each_cover(counts, current, found);
        current.pop();
        end += 1;
    }
    for c in counts.iter_mut().take(end).skip(start) {
        *c += 1;
    }
}

/// True if two runs of the cover could be one longer tractor (one ends just below where the
/// other starts): such a cover splits a tractor for nothing.
fn mergeable(cover: &[(u8, u8)]) -> bool {
    cover.iter().any(|a| cover.iter().any(|b| a.0 + a.1 == b.0))
}

/// Preference between covers: greater is preferred.
type RunKey = (usize, Vec<u8>);

fn run_key(cover: &[(u8, u8)], parse: LeadParse) -> RunKey {
    let mut lengths: Vec<u8> = cover.iter().map(|r| r.1).collect();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    match parse {
        LeadParse::LongestTractors => (0, lengths),
        LeadParse::MostTractors => (lengths.iter().filter(|&&l| l >= 2).count(), lengths),
    }
}
