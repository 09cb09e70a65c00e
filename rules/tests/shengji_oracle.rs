//! Brute-force oracles for the 80分 rules, written apart from the engine and as plainly as the
//! text reads: a card order built from the rulebook's list, tractors as chains of pairs found by
//! search, the follow ladder walked rung by rung over every rung there is. For random small
//! positions, every candidate play is judged by the oracle and by the engine, and they must
//! agree; the same for throws and trick winners.

mod shengji_support;

use std::collections::{BTreeMap, BTreeSet};

use rules::cards::{Card, Hand, Rank, Suit};
use rules::shengji::{
    check_follow, check_throw, legal_follows, lowest_follow, parse_lead, playable_follows,
    trick_winner, Forced, Lead, LeadParse, Order, Ruleset, Seat, ThrowVerdict,
};
use rules::Explain;
use shengji_support::Rng;

// ---------------------------------------------------------------------------------------------
// The oracle's card order, from the rulebook's words.

/// For each card: (effective suit 0..4 = ♠♥♦♣ side, 4 = trump; tier, higher is stronger).
struct Tiers {
    of: BTreeMap<Card, (usize, usize)>,
}

impl Tiers {
    fn new(level: Rank, trump: Option<Suit>) -> Tiers {
        let mut of = BTreeMap::new();
        // "A side suit ranks A, K, Q, … 2 without the level rank."
        let plain = |s: Suit| -> Vec<Card> {
            [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
                .iter()
                .map(|&v| Rank::new(v).unwrap())
                .filter(|&r| r != level)
                .map(|r| Card::new(s, r))
                .collect()
        };
        // Trump, high to low, as groups of equal cards.
        let mut trump_groups: Vec<Vec<Card>> = vec![vec![Card::RJ], vec![Card::BJ]];
        match trump {
            Some(t) => {
                trump_groups.push(vec![Card::new(t, level)]);
                trump_groups.push(
                    Suit::ALL
                        .iter()
                        .filter(|&&s| s != t)
                        .map(|&s| Card::new(s, level))
                        .collect(),
                );
                for c in plain(t) {
                    trump_groups.push(vec![c]);
                }
            }
            None => trump_groups.push(Suit::ALL.iter().map(|&s| Card::new(s, level)).collect()),
        }
        let n = trump_groups.len();
        for (i, g) in trump_groups.iter().enumerate() {
            for &c in g {
                of.insert(c, (4, n - i));
            }
        }
        for (si, &s) in Suit::ALL.iter().enumerate() {
            if Some(s) == trump {
                continue;
            }
            let cards = plain(s);
            let n = cards.len();
            for (i, c) in cards.into_iter().enumerate() {
                of.insert(c, (si, n - i));
            }
        }
        assert_eq!(of.len(), 54);
        Tiers { of }
    }
    fn suit(&self, c: Card) -> usize {
        self.of[&c].0
    }
    fn tier(&self, c: Card) -> usize {
        self.of[&c].1
    }
}

fn counts(cards: &[Card]) -> BTreeMap<Card, usize> {
    let mut m = BTreeMap::new();
    for &c in cards {
        *m.entry(c).or_insert(0) += 1;
    }
    m
}

/// Faces held twice: the pairs.
fn pair_faces(cards: &[Card]) -> Vec<Card> {
    counts(cards)
        .into_iter()
        .filter(|&(_, n)| n >= 2)
        .map(|(c, _)| c)
        .collect()
}

/// Every tractor (a chain of ≥ 1 pair faces, each one tier above the last, one suit) among
/// the given pair faces, as lists of faces low to high. Length 1 chains are pairs.
fn chains(t: &Tiers, pairs: &[Card]) -> Vec<Vec<Card>> {
    let mut out = Vec::new();
    fn grow(t: &Tiers, pairs: &[Card], chain: &mut Vec<Card>, out: &mut Vec<Vec<Card>>) {
        out.push(chain.clone());
        let last = *chain.last().unwrap();
        for &p in pairs {
            if t.suit(p) == t.suit(last) && t.tier(p) == t.tier(last) + 1 {
                chain.push(p);
                grow(t, pairs, chain, out);
                chain.pop();
            }
        }
    }
    for &p in pairs {
        grow(t, pairs, &mut vec![p], &mut out);
    }
    out
}

/// Can disjoint chains of exactly these lengths be taken from these pair faces? Returns every
/// way (as lists of chains, in the order of `lengths`).
fn arrangements(t: &Tiers, pairs: &[Card], lengths: &[usize]) -> Vec<Vec<Vec<Card>>> {
    let all = chains(t, pairs);
    let mut out = Vec::new();
    fn go(
        all: &[Vec<Card>],
        lengths: &[usize],
        used: &mut Vec<Card>,
        current: &mut Vec<Vec<Card>>,
        out: &mut Vec<Vec<Vec<Card>>>,
    ) {
        let Some((&k, rest)) = lengths.split_first() else {
            out.push(current.clone());
            return;
        };
        for ch in all.iter().filter(|c| c.len() == k) {
            if ch.iter().any(|f| used.contains(f)) {
                continue;
            }
            used.extend(ch);
            current.push(ch.clone());
            go(all, rest, used, current, out);
            current.pop();
            used.truncate(used.len() - k);
        }
    }
    go(&all, lengths, &mut Vec::new(), &mut Vec::new(), &mut out);
    out
}

fn fits(t: &Tiers, cards: &[Card], lengths: &[usize]) -> bool {
    !arrangements(t, &pair_faces(cards), lengths).is_empty()
}

/// The lead's units by the oracle: every way to cut its pairs into chains, preferring the
/// longest chains; then singles. Returns (chain lengths longest first, chains, singles).
fn oracle_units(t: &Tiers, lead: &[Card]) -> (Vec<usize>, Vec<Vec<Card>>, Vec<Card>) {
    let pairs = pair_faces(lead);
    let singles: Vec<Card> = counts(lead)
        .into_iter()
        .filter(|&(_, n)| n % 2 == 1)
        .map(|(c, _)| c)
        .collect();
    // All covers of the pair faces by disjoint chains.
    let all = chains(t, &pairs);
    let mut best: Option<(Vec<usize>, Vec<Vec<Card>>)> = None;
    fn cover(
        all: &[Vec<Card>],
        left: &[Card],
        current: &mut Vec<Vec<Card>>,
        found: &mut dyn FnMut(&[Vec<Card>]),
    ) {
        let Some(&first) = left.first() else {
            found(current);
            return;
        };
        for ch in all.iter().filter(|c| c.contains(&first)) {
            if ch.iter().all(|f| left.contains(f)) {
                let rest: Vec<Card> = left.iter().copied().filter(|f| !ch.contains(f)).collect();
                current.push(ch.clone());
                cover(all, &rest, current, found);
                current.pop();
            }
        }
    }
    cover(&all, &pairs, &mut Vec::new(), &mut |c| {
        let mut lens: Vec<usize> = c.iter().map(Vec::len).collect();
        lens.sort_by(|a, b| b.cmp(a));
        if best.as_ref().is_none_or(|(l, _)| lens > *l) {
            best = Some((lens, c.to_vec()));
        }
    });
    let (lens, chains) = best.unwrap_or_default();
    (lens, chains, singles)
}

/// Every partition of every pair count up to `max`, as lengths longest first.
fn partitions(max: usize) -> Vec<Vec<usize>> {
    fn go(left: usize, cap: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if left == 0 {
            out.push(cur.clone());
            return;
        }
        for p in (1..=left.min(cap)).rev() {
            cur.push(p);
            go(left - p, p, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    for total in 0..=max {
        go(total, total, &mut Vec::new(), &mut out);
    }
    out
}

/// "R is on the lead's ladder": every part of R goes into some part of the lead, the parts in
/// one part of the lead adding up to at most its length.
fn below(r: &[usize], lead: &[usize]) -> bool {
    fn go(r: &[usize], room: &mut Vec<usize>) -> bool {
        let Some((&k, rest)) = r.split_first() else {
            return true;
        };
        for i in 0..room.len() {
            if room[i] >= k {
                room[i] -= k;
                let ok = go(rest, room);
                room[i] += k;
                if ok {
                    return true;
                }
            }
        }
        false
    }
    go(r, &mut lead.to_vec())
}

/// The ladder: rungs from more pairs to fewer, and the longer tractors first.
fn ladder(lead: &[usize]) -> Vec<Vec<usize>> {
    let total: usize = lead.iter().sum();
    let mut rungs: Vec<Vec<usize>> = partitions(total)
        .into_iter()
        .filter(|r| below(r, lead))
        .collect();
    rungs.sort_by(|a, b| {
        let (sa, sb): (usize, usize) = (a.iter().sum(), b.iter().sum());
        sb.cmp(&sa).then(b.cmp(a))
    });
    rungs
}

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Why {
    Legal,
    Count,
    NotHeld,
    Suit,
    Shape,
}

fn oracle_follow(t: &Tiers, lead: &[Card], hand: &[Card], play: &[Card]) -> Why {
    if play.len() != lead.len() {
        return Why::Count;
    }
    let (hc, pc) = (counts(hand), counts(play));
    if pc.iter().any(|(c, n)| hc.get(c).copied().unwrap_or(0) < *n) {
        return Why::NotHeld;
    }
    let suit = t.suit(lead[0]);
    let in_suit =
        |cs: &[Card]| -> Vec<Card> { cs.iter().copied().filter(|&c| t.suit(c) == suit).collect() };
    let (h, p) = (in_suit(hand), in_suit(play));
    if h.len() < lead.len() {
        return if p.len() == h.len() {
            Why::Legal
        } else {
            Why::Suit
        };
    }
    if p.len() != lead.len() {
        return Why::Suit;
    }
    let (lens, _, _) = oracle_units(t, lead);
    for rung in ladder(&lens) {
        if fits(t, &p, &rung) {
            return Why::Legal;
        }
        if fits(t, &h, &rung) {
            return Why::Shape;
        }
    }
    unreachable!("the empty rung always fits")
}

fn engine_why(code: Result<(), &'static str>) -> Why {
    match code {
        Ok(()) => Why::Legal,
        Err("wrong_count") => Why::Count,
        Err("cards_not_in_hand") => Why::NotHeld,
        Err("must_follow_suit") | Err("must_play_all_of_suit") => Why::Suit,
        Err("must_follow_pairs") | Err("must_follow_tractor") => Why::Shape,
        Err(other) => panic!("unexpected code {other}"),
    }
}

/// Every sub-multiset of `hand` of size `n`, each once, in sorted order.
fn submultisets(hand: &[Card], n: usize) -> Vec<Vec<Card>> {
    let faces: Vec<(Card, usize)> = counts(hand).into_iter().collect();
    let mut out = Vec::new();
    fn go(faces: &[(Card, usize)], n: usize, cur: &mut Vec<Card>, out: &mut Vec<Vec<Card>>) {
        if n == 0 {
            out.push(cur.clone());
            return;
        }
        let Some((&(c, k), rest)) = faces.split_first() else {
            return;
        };
        for take in 0..=k.min(n) {
            cur.extend(std::iter::repeat_n(c, take));
            go(rest, n - take, cur, out);
            cur.truncate(cur.len() - take);
        }
    }
    go(&faces, n, &mut Vec::new(), &mut out);
    out
}

// ---------------------------------------------------------------------------------------------
// Random positions with plenty of pairs and tractors.

fn random_board(rng: &mut Rng) -> (Rank, Option<Suit>) {
    let level = Rank::new(2 + rng.below(13) as u8).unwrap();
    let trump = if rng.chance(20) {
        None
    } else {
        Some(Suit::ALL[rng.below(4)])
    };
    (level, trump)
}

/// Cards of one effective suit, with pairs likely: `faces` distinct faces, each once or twice.
fn random_in_suit(
    rng: &mut Rng,
    order: &Order,
    suit: usize,
    faces: usize,
    max_cards: usize,
) -> Vec<Card> {
    let mut lane = rules::shengji::Lane::from_index(suit);
    if order.lane_faces(lane).is_empty() {
        lane = rules::shengji::Lane::Trump; // the trump suit has no side lane
    }
    let pool: Vec<Card> = order.lane_faces(lane).to_vec();
    // A window of adjacent strengths makes tractors likely.
    let start = rng.below(pool.len());
    let mut out = Vec::new();
    for i in 0..faces {
        if out.len() >= max_cards {
            break;
        }
        let c = pool[(start + i + rng.below(2)) % pool.len()];
        let have = out.iter().filter(|&&x| x == c).count();
        let take = if rng.chance(55) { 2 } else { 1 };
        for _ in have..(have + take).min(2) {
            if out.len() < max_cards {
                out.push(c);
            }
        }
    }
    out
}

fn random_hand(rng: &mut Rng, order: &Order, main_suit: usize, size: usize) -> Vec<Card> {
    let mut hand = Vec::new();
    // Mostly the led suit (or trumps), some others.
    let main = rng.below(size + 1);
    hand.extend(random_in_suit(rng, order, main_suit, main, main));
    while hand.len() < size {
        let s = rng.below(5);
        let room = size - hand.len();
        let faces = 1 + rng.below(3);
        hand.extend(random_in_suit(rng, order, s, faces, room));
    }
    // Two decks: at most two of a face.
    let mut c = counts(&hand);
    hand.clear();
    for (card, n) in c.iter_mut() {
        hand.extend(std::iter::repeat_n(*card, (*n).min(2)));
    }
    hand
}

fn suit_index(order: &Order, c: Card) -> usize {
    order.lane(c).index()
}

// ---------------------------------------------------------------------------------------------

#[test]
fn follow_legality_and_enumeration_agree_with_the_oracle() {
    let mut rng = Rng(0x5eed_f011);
    let mut judged = 0;
    let mut illegal_by_shape = 0;
    for _ in 0..600 {
        let (level, trump) = random_board(&mut rng);
        let order = Order::new(level, trump);
        let t = Tiers::new(level, trump);
        let suit = rng.below(5);
        let lead_len = 1 + rng.below(6);
        let lead = random_in_suit(&mut rng, &order, suit, lead_len, lead_len);
        let lead_suit = suit_index(&order, lead[0]);
        let size = lead.len() + 3 + rng.below(6);
        let hand = random_hand(&mut rng, &order, lead_suit, size);
        if hand.len() < lead.len() {
            continue;
        }
        let parsed = parse_lead(&order, LeadParse::LongestTractors, &lead).unwrap();
        let held: Hand = hand.iter().copied().collect();
        let mut oracle_legal = BTreeSet::new();
        for play in submultisets(&hand, lead.len()) {
            let want = oracle_follow(&t, &lead, &hand, &play);
            let got = engine_why(check_follow(&order, &parsed, &held, &play).map_err(|e| e.code()));
            assert_eq!(
                got, want,
                "level {level} trump {trump:?} lead {lead:?} hand {hand:?} play {play:?}"
            );
            if want == Why::Legal {
                oracle_legal.insert(play);
            } else if want == Why::Shape {
                illegal_by_shape += 1;
            }
            judged += 1;
        }
        let mut enumerated: Vec<Vec<Card>> = legal_follows(&order, &parsed, &held, usize::MAX);
        for p in &mut enumerated {
            p.sort();
        }
        let as_set: BTreeSet<Vec<Card>> = enumerated.iter().cloned().collect();
        assert_eq!(as_set.len(), enumerated.len(), "each legal play once");
        assert_eq!(as_set, oracle_legal, "lead {lead:?} hand {hand:?}");
        let mut lowest = lowest_follow(&order, &parsed, &held);
        lowest.sort();
        assert!(oracle_legal.contains(&lowest), "the lowest play is legal");
        assert_playable(&order, &parsed, &held, &oracle_legal);
    }
    // The positions must exercise the ladder, not only the suit rule.
    assert!(
        judged > 20_000 && illegal_by_shape > 500,
        "{judged} {illegal_by_shape}"
    );
}

#[test]
fn long_leads_and_throws_agree_with_the_oracle() {
    // Leads of 7 to 10 cards (tractors of 3 and more, several tractors in one throw) against
    // hands barely longer, so that every candidate can still be judged by brute force.
    let mut rng = Rng(0x10e6_1ead);
    let mut shapes = BTreeSet::new();
    for _ in 0..400 {
        let (level, trump) = random_board(&mut rng);
        let order = Order::new(level, trump);
        let t = Tiers::new(level, trump);
        let suit = rng.below(5);
        let lead_len = 7 + rng.below(4);
        let lead = random_in_suit(&mut rng, &order, suit, lead_len, lead_len);
        let lead_suit = suit_index(&order, lead[0]);
        let size = lead.len() + rng.below(4);
        let hand = random_hand(&mut rng, &order, lead_suit, size);
        if hand.len() < lead.len() {
            continue;
        }
        let parsed = parse_lead(&order, LeadParse::LongestTractors, &lead).unwrap();
        shapes.insert(parsed.parts().as_slice().to_vec());
        let held: Hand = hand.iter().copied().collect();
        let mut oracle_legal = BTreeSet::new();
        for play in submultisets(&hand, lead.len()) {
            let want = oracle_follow(&t, &lead, &hand, &play);
            let got = engine_why(check_follow(&order, &parsed, &held, &play).map_err(|e| e.code()));
            assert_eq!(got, want, "lead {lead:?} hand {hand:?} play {play:?}");
            if want == Why::Legal {
                oracle_legal.insert(play);
            }
        }
        let enumerated: BTreeSet<Vec<Card>> = legal_follows(&order, &parsed, &held, usize::MAX)
            .into_iter()
            .map(|mut p| {
                p.sort();
                p
            })
            .collect();
        assert_eq!(enumerated, oracle_legal, "lead {lead:?} hand {hand:?}");
        assert_playable(&order, &parsed, &held, &oracle_legal);
    }
    // Leads with two tractors, or a tractor and pairs, were among them.
    let multi = shapes.iter().filter(|s| s.len() >= 2 && s[0] >= 2).count();
    assert!(multi >= 5, "{shapes:?}");
}

/// The cards a view offers as playable are exactly those in some legal play, each once.
fn assert_playable(order: &Order, lead: &Lead, hand: &Hand, legal: &BTreeSet<Vec<Card>>) {
    let want: BTreeSet<Card> = legal.iter().flatten().copied().collect();
    let got = playable_follows(order, lead, hand);
    let set: BTreeSet<Card> = got.iter().copied().collect();
    assert_eq!(set.len(), got.len(), "each face once");
    assert_eq!(set, want, "lead {:?} hand {hand:?}", lead.cards());
}

#[test]
fn wrong_count_and_missing_cards_are_refused_like_the_oracle() {
    let mut rng = Rng(77);
    for _ in 0..200 {
        let (level, trump) = random_board(&mut rng);
        let order = Order::new(level, trump);
        let t = Tiers::new(level, trump);
        let lead = {
            let s = rng.below(5);
            random_in_suit(&mut rng, &order, s, 3, 3)
        };
        let hand = random_hand(&mut rng, &order, suit_index(&order, lead[0]), 8);
        let parsed = parse_lead(&order, LeadParse::LongestTractors, &lead).unwrap();
        let held: Hand = hand.iter().copied().collect();
        // Any cards at all, of any count up to 4: a missing card or a wrong count.
        let play: Vec<Card> = (0..1 + rng.below(4))
            .map(|_| Card::from_index(rng.below(54)))
            .collect();
        let want = oracle_follow(&t, &lead, &hand, &play);
        let got = engine_why(check_follow(&order, &parsed, &held, &play).map_err(|e| e.code()));
        assert_eq!(got, want, "lead {lead:?} hand {hand:?} play {play:?}");
    }
}

/// The oracle's verdict on a throw: None if it stands, else (penalty, forced or choices as
/// (cards, tier of the top) pairs).
type ThrowOracle = Option<(u32, Vec<(usize, usize)>)>;

fn oracle_throw(t: &Tiers, lead: &[Card], others: &[Vec<Card>]) -> ThrowOracle {
    let (_, chains_led, singles) = oracle_units(t, lead);
    if chains_led.len() + singles.len() < 2 {
        return None;
    }
    // Units as (cards, top tier); who can beat each.
    let mut blocked: Vec<(usize, usize)> = Vec::new();
    for s in &singles {
        let beaten = others.iter().any(|h| {
            h.iter()
                .any(|&c| t.suit(c) == t.suit(*s) && t.tier(c) > t.tier(*s))
        });
        if beaten {
            blocked.push((1, t.tier(*s)));
        }
    }
    for ch in &chains_led {
        let top = t.tier(*ch.last().unwrap());
        let beaten = others.iter().any(|h| {
            chains(t, &pair_faces(h)).iter().any(|hc| {
                t.suit(hc[0]) == t.suit(ch[0])
                    && hc.len() >= ch.len()
                    && t.tier(*hc.last().unwrap()) > top
            })
        });
        if beaten {
            blocked.push((2 * ch.len(), top));
        }
    }
    if blocked.is_empty() {
        return None;
    }
    let penalty = (10 * lead.len() as u32).min(80);
    let single = blocked.iter().filter(|b| b.0 == 1).min().copied();
    let pair = blocked.iter().filter(|b| b.0 > 1).min().copied();
    Some((penalty, single.into_iter().chain(pair).collect()))
}

#[test]
fn throws_agree_with_the_oracle() {
    let mut rng = Rng(0x7417_0000);
    let rules = Ruleset::fujian_2024();
    let (mut stood, mut failed, mut choices) = (0, 0, 0);
    for _ in 0..1500 {
        let (level, trump) = random_board(&mut rng);
        let order = Order::new(level, trump);
        let t = Tiers::new(level, trump);
        let n = 2 + rng.below(6);
        let lead = {
            let s = rng.below(5);
            random_in_suit(&mut rng, &order, s, n, n)
        };
        let suit = suit_index(&order, lead[0]);
        let others: Vec<Vec<Card>> = (0..3)
            .map(|_| {
                let size = 3 + rng.below(6);
                random_hand(&mut rng, &order, suit, size)
            })
            .collect();
        let parsed = parse_lead(&order, LeadParse::LongestTractors, &lead).unwrap();
        let hands: Vec<Hand> = others.iter().map(|h| h.iter().copied().collect()).collect();
        let seats = [Seat::W, Seat::S, Seat::E];
        let verdict = check_throw(
            &order,
            &rules,
            &parsed,
            Seat::N,
            [0, 1, 2].map(|i| (seats[i], &hands[i])),
        );
        let want = oracle_throw(&t, &lead, &others);
        let describe = |cards: &[Card]| {
            (
                cards.len(),
                t.tier(*cards.iter().max_by_key(|&&c| t.tier(c)).unwrap()),
            )
        };
        let got: ThrowOracle = match &verdict {
            ThrowVerdict::Stands => None,
            ThrowVerdict::Fails(f) => Some((
                f.penalty,
                match &f.forced {
                    Forced::Unit(u) => vec![describe(u.cards())],
                    Forced::Choice { single, pair } => {
                        vec![describe(single.cards()), describe(pair.cards())]
                    }
                },
            )),
        };
        assert_eq!(got, want, "lead {lead:?} others {others:?}");
        match &verdict {
            ThrowVerdict::Stands => stood += 1,
            ThrowVerdict::Fails(f) => {
                failed += 1;
                if matches!(f.forced, Forced::Choice { .. }) {
                    choices += 1;
                }
                // The forced cards are part of the throw, and who blocked holds a beating unit.
                let led = counts(&lead);
                let units: Vec<&[Card]> = match &f.forced {
                    Forced::Unit(u) => vec![u.cards()],
                    Forced::Choice { single, pair } => vec![single.cards(), pair.cards()],
                };
                for u in units {
                    assert!(counts(u).iter().all(|(c, k)| led[c] >= *k));
                }
            }
        }
    }
    assert!(
        stood > 100 && failed > 100 && choices > 20,
        "{stood} {failed} {choices}"
    );
}

/// The oracle's trick winner: the best play of the lead's shape, by best arrangement.
fn oracle_winner(t: &Tiers, plays: &[Vec<Card>]) -> usize {
    let lead = &plays[0];
    let (lens, chains_led, singles) = oracle_units(t, lead);
    let is_throw = chains_led.len() + singles.len() > 1;
    let lead_suit = t.suit(lead[0]);
    let value = |i: usize, play: &[Card]| -> Option<(bool, Vec<usize>)> {
        let suit = t.suit(play[0]);
        if play.iter().any(|&c| t.suit(c) != suit) {
            return None;
        }
        let trumped = suit == 4 && lead_suit != 4;
        if i > 0 && !trumped && (suit != lead_suit || is_throw) {
            return None;
        }
        if lens.is_empty() {
            let mut v: Vec<usize> = play.iter().map(|&c| t.tier(c)).collect();
            v.sort_by(|a, b| b.cmp(a));
            return Some((trumped, v));
        }
        // Best arrangement: every way to take chains of the lead's lengths, compared by the tops
        // of the chains, longest chains first and the higher of equal ones first.
        arrangements(t, &pair_faces(play), &lens)
            .into_iter()
            .map(|arr| {
                let mut tops: Vec<(usize, usize)> = arr
                    .iter()
                    .map(|ch| (ch.len(), t.tier(*ch.last().unwrap())))
                    .collect();
                tops.sort_by(|a, b| b.cmp(a));
                (trumped, tops.into_iter().map(|x| x.1).collect())
            })
            .max()
    };
    let mut best = (0, value(0, lead).expect("the lead has its own shape"));
    for (i, p) in plays.iter().enumerate().skip(1) {
        if let Some(v) = value(i, p) {
            if v > best.1 {
                best = (i, v);
            }
        }
    }
    best.0
}

#[test]
fn trick_winners_agree_with_the_oracle() {
    let mut rng = Rng(0x7e1c_4000);
    let rules = Ruleset::fujian_2024();
    let mut not_leader = 0;
    'trick: for _ in 0..3000 {
        let (level, trump) = random_board(&mut rng);
        let order = Order::new(level, trump);
        let t = Tiers::new(level, trump);
        let n = 1 + rng.below(6);
        let lead = {
            let s = rng.below(5);
            random_in_suit(&mut rng, &order, s, n, n)
        };
        let parsed = parse_lead(&order, LeadParse::LongestTractors, &lead).unwrap();
        let suit = suit_index(&order, lead[0]);
        let mut plays = vec![lead.clone()];
        for _ in 0..3 {
            // Followers: a void one trumps or discards, others follow; every play legal.
            let main = if rng.chance(40) { 4 } else { suit };
            let size = lead.len() + rng.below(5);
            let hand = random_hand(&mut rng, &order, main, size);
            if hand.len() < lead.len() {
                continue 'trick;
            }
            let held: Hand = hand.iter().copied().collect();
            let legal = legal_follows(&order, &parsed, &held, 500);
            plays.push(legal[rng.below(legal.len())].clone());
        }
        let refs: Vec<&[Card]> = plays.iter().map(|p| p.as_slice()).collect();
        let got = trick_winner(&order, rules.throw_compare, &parsed, &refs);
        assert_eq!(
            got,
            oracle_winner(&t, &plays),
            "level {level} trump {trump:?} {plays:?}"
        );
        if got != 0 {
            not_leader += 1;
        }
    }
    assert!(not_leader > 200, "{not_leader}");
}
