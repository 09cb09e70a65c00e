//! 一套, 级牌 and 管牌, as tables from docs/rules-gouji.md, plus a brute-force oracle and
//! property tests for the beating rule and the legal-play enumeration.

mod gouji_support;

use gouji_support::cards;
use proptest::prelude::*;
use rules::cards::{Card, Hand};
use rules::gouji::legal::{beat_shapes, lead_shapes, smallest_lead};
use rules::gouji::set::{shape_of, Counts};
use rules::gouji::{beats, BeatError, SetError, Shape, TwoForOne};

fn shape(s: &str) -> Shape {
    shape_of(&cards(s)).unwrap_or_else(|e| panic!("{s}: {e:?}"))
}

/// 级牌 thresholds: five 10s, four Js, three Qs, two Ks, two As, one 2 (attached 2s count as the
/// base rank), or any joker; 4–9 without a joker never.
#[test]
fn gouji_thresholds() {
    let table: &[(&str, bool)] = &[
        ("S4 S4 S4 S4 S4 S4 S4 S4 S4 S4", false),
        ("S9 S9 S9 S9 S9 S9", false),
        ("S9 S9 S2 S2 S2 S2 S2", false),
        ("S10 S10 S10 S10", false),
        ("S10 S10 S10 S10 S10", true),
        ("S10 S10 S10 S10 S2", true),
        ("SJ SJ SJ", false),
        ("SJ SJ SJ SJ", true),
        ("SJ SJ S2 S2", true),
        ("SQ SQ", false),
        ("SQ SQ SQ", true),
        ("SQ S2 H2", true),
        ("SK", false),
        ("SK SK", true),
        ("SK S2", true),
        ("SA", false),
        ("SA HA", true),
        ("SA C2", true),
        ("S2", true),
        ("S2 S2 S2", true),
        ("S4 BJ", true),
        ("S4 RJ", true),
        ("S9 S9 S9 BJ", true),
        ("BJ", true),
        ("RJ", true),
        ("BJ RJ", true),
        ("S2 BJ", true),
    ];
    for (set, gouji) in table {
        assert_eq!(shape(set).is_gouji(), *gouji, "{set}");
    }
}

#[test]
fn sets_have_one_rank() {
    assert!(matches!(
        shape_of(&cards("S7 H8")),
        Err(SetError::MixedRanks { .. })
    ));
    assert!(matches!(
        shape_of(&cards("S7 S2 H8 BJ")),
        Err(SetError::MixedRanks { .. })
    ));
    assert_eq!(shape_of(&[]), Err(SetError::Empty));
    assert!(matches!(
        shape_of(&cards("S3 S3")),
        Err(SetError::NotInGame { .. })
    ));
    // 2-only, joker-only, and 2s with jokers are sets.
    for ok in ["S2 H2", "BJ RJ RJ", "S2 BJ RJ", "S7 S7 S2 BJ RJ"] {
        assert!(shape_of(&cards(ok)).is_ok(), "{ok}");
    }
}

/// (new, old, verdict) — the beating examples, 大花两打一 and 小花不能两打一.
const BEATS: &[(&str, &str, Result<(), BeatError>)] = &[
    ("S8 H8", "S7 H7", Ok(())),
    ("S7 H7", "D7 C7", Err(BeatError::NotHigher)),
    ("S8 H8 D8", "S7 H7", Err(BeatError::CountMismatch)),
    ("S8", "S7 H7", Err(BeatError::CountMismatch)),
    // 2s take the base rank.
    ("S2 S8 S8", "S7 S7 S7", Ok(())),
    ("C2 S7 H7 D7", "S6 S6 S6 S6", Ok(())),
    ("C2 S7 H7 D7", "S7 S7 S7 S7", Err(BeatError::NotHigher)),
    ("SA HA", "SK HK", Ok(())),
    ("S2 H2", "SA HA", Ok(())),
    ("SA S2", "SK SK", Ok(())),
    ("SA S2", "S2 S2", Err(BeatError::NotHigher)),
    ("S2 S2", "SA S2", Ok(())),
    // Jokers keep their rank: a small joker is beaten only by a big one.
    ("BJ S8", "BJ S7", Err(BeatError::NotHigher)),
    ("RJ S8", "BJ S7", Ok(())),
    ("RJ S5", "BJ S7", Err(BeatError::NotHigher)),
    ("RJ BJ", "BJ S2", Ok(())),
    ("BJ BJ", "S2 S2", Ok(())),
    ("BJ S4", "S2 S2", Err(BeatError::NotHigher)),
    ("BJ S2", "SA SA", Ok(())),
    ("RJ", "BJ", Ok(())),
    ("BJ", "BJ", Err(BeatError::NotHigher)),
    ("RJ RJ", "BJ", Err(BeatError::SmallJokerTwoForOne)),
    ("BJ BJ", "BJ", Err(BeatError::SmallJokerTwoForOne)),
    ("RJ RJ S8", "BJ S7", Err(BeatError::SmallJokerTwoForOne)),
    // 大花两打一: two big jokers cover one; the rest compares as usual.
    ("RJ RJ", "RJ", Ok(())),
    ("RJ", "RJ", Err(BeatError::BigJokerNeedsTwo)),
    ("RJ RJ RJ", "RJ", Err(BeatError::CountMismatch)),
    ("RJ BJ", "RJ", Err(BeatError::BigJokerNeedsTwo)),
    ("RJ RJ S8", "RJ S7", Ok(())),
    ("RJ RJ S7", "RJ S7", Err(BeatError::NotHigher)),
    ("RJ RJ RJ", "RJ S7", Ok(())),
    ("RJ BJ S8", "RJ S7", Err(BeatError::BigJokerNeedsTwo)),
    ("RJ S8", "RJ S7", Err(BeatError::BigJokerNeedsTwo)),
    ("RJ RJ RJ RJ", "RJ RJ", Ok(())),
    ("RJ RJ RJ", "RJ RJ", Err(BeatError::CountMismatch)),
    ("RJ RJ BJ", "RJ BJ", Err(BeatError::NotHigher)),
    ("RJ RJ RJ", "RJ BJ", Ok(())),
    ("RJ RJ S2 S2", "RJ SA SA", Ok(())),
    ("RJ RJ S2 SK", "RJ SA SA", Err(BeatError::NotHigher)),
];

#[test]
fn beating_examples() {
    for (new, old, verdict) in BEATS {
        assert_eq!(
            beats(&shape(new), &shape(old), TwoForOne::AnySet),
            *verdict,
            "{new} on {old}"
        );
        // The table agrees with the oracle too.
        assert_eq!(
            oracle(&cards(new), &cards(old), TwoForOne::AnySet),
            verdict.is_ok(),
            "oracle: {new} on {old}"
        );
    }
}

/// **[decision]** 大花两打一 for any set; the narrower reading allows it for a lone big joker only.
#[test]
fn two_for_one_option() {
    let lone = TwoForOne::LoneBigJoker;
    assert_eq!(beats(&shape("RJ RJ"), &shape("RJ"), lone), Ok(()));
    assert!(beats(&shape("RJ RJ S8"), &shape("RJ S7"), lone).is_err());
    assert!(beats(&shape("RJ RJ RJ RJ"), &shape("RJ RJ"), lone).is_err());
    assert_eq!(
        beats(&shape("RJ RJ S8"), &shape("RJ S7"), TwoForOne::AnySet),
        Ok(())
    );
}

// ---- The oracle: an independent, brute-force reading of the beating rule. ----

/// Normalised strengths of a card list, written from the rule text: 2s take the rank of the
/// other natural cards (or stay 2s), jokers keep theirs. 4..A = 4..14, 2 = 15, BJ 16, RJ 17.
fn norm(cards: &[Card]) -> Vec<u8> {
    let value = |c: Card| match c.rank().map(|r| r.value()) {
        None if c == Card::BJ => 16,
        None => 17,
        Some(2) => 15,
        Some(v) => v,
    };
    let base = cards
        .iter()
        .map(|&c| value(c))
        .find(|&v| v <= 14)
        .unwrap_or(15);
    cards
        .iter()
        .map(|&c| if value(c) == 15 { base } else { value(c) })
        .collect()
}

/// Can the old cards be covered, each by one strictly higher new card, or (a big joker, where
/// allowed) by two new big jokers, using every new card exactly once? Tries every assignment.
fn cover(old: &[u8], new: &mut Vec<Option<u8>>, big_pairs: bool) -> bool {
    let Some((&o, rest)) = old.split_first() else {
        return new.iter().all(Option::is_none);
    };
    for i in 0..new.len() {
        let Some(n) = new[i] else { continue };
        if n > o {
            new[i] = None;
            let ok = cover(rest, new, big_pairs);
            new[i] = Some(n);
            if ok {
                return true;
            }
        }
        if o == 17 && big_pairs && n == 17 {
            for j in i + 1..new.len() {
                if new[j] == Some(17) {
                    new[i] = None;
                    new[j] = None;
                    let ok = cover(rest, new, big_pairs);
                    new[i] = Some(17);
                    new[j] = Some(17);
                    if ok {
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn oracle(new: &[Card], old: &[Card], rule: TwoForOne) -> bool {
    let (n, o) = (norm(new), norm(old));
    let big_pairs = match rule {
        TwoForOne::AnySet => true,
        TwoForOne::LoneBigJoker => o == [17],
    };
    cover(&o, &mut n.into_iter().map(Some).collect(), big_pairs)
}

/// A random small set: (base 4..=14 or none, naturals, 2s, small, big jokers).
fn set_strategy() -> impl Strategy<Value = Vec<Card>> {
    (4u8..=15, 0usize..4, 0usize..3, 0usize..3, 0usize..4).prop_filter_map(
        "non-empty",
        |(base, k, t, s, b)| {
            let mut v = Vec::new();
            if base <= 14 {
                let rank = rules::cards::Rank::new(base).unwrap();
                v.extend((0..k).map(|i| Card::new(rules::cards::Suit::ALL[i % 4], rank)));
            }
            v.extend(
                (0..t).map(|i| Card::new(rules::cards::Suit::ALL[i % 4], rules::cards::Rank::TWO)),
            );
            v.extend(std::iter::repeat_n(Card::BJ, s));
            v.extend(std::iter::repeat_n(Card::RJ, b));
            (!v.is_empty()).then_some(v)
        },
    )
}

fn rule_strategy() -> impl Strategy<Value = TwoForOne> {
    prop_oneof![Just(TwoForOne::AnySet), Just(TwoForOne::LoneBigJoker)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// The shape rule agrees with the brute-force oracle.
    #[test]
    fn beating_agrees_with_the_oracle(new in set_strategy(), old in set_strategy(), rule in rule_strategy()) {
        let fast = beats(&shape_of(&new).unwrap(), &shape_of(&old).unwrap(), rule).is_ok();
        prop_assert_eq!(fast, oracle(&new, &old, rule), "{:?} on {:?}", new, old);
    }

    /// Equal never beats, and two sets never beat each other.
    #[test]
    fn beating_is_strict(a in set_strategy(), b in set_strategy()) {
        let (sa, sb) = (shape_of(&a).unwrap(), shape_of(&b).unwrap());
        prop_assert!(beats(&sa, &sa, TwoForOne::AnySet).is_err());
        prop_assert!(!(beats(&sa, &sb, TwoForOne::AnySet).is_ok() && beats(&sb, &sa, TwoForOne::AnySet).is_ok()));
    }

    /// The enumeration of beating sets is exactly the set of held sub-multisets that beat.
    #[test]
    fn beat_enumeration_is_complete_and_sound(hand in prop::collection::vec(hand_card(), 0..14), top in set_strategy(), rule in rule_strategy()) {
        let hand: Hand = hand.into_iter().collect();
        let c = Counts::of(&hand);
        let top = shape_of(&top).unwrap();
        let mut fast = Vec::new();
        beat_shapes(&c, &top, rule, &mut fast);
        let mut slow: Vec<Shape> = all_held_shapes(&c).into_iter().filter(|s| beats(s, &top, rule).is_ok()).collect();
        fast.sort();
        slow.sort();
        let before = fast.len();
        fast.dedup();
        prop_assert_eq!(before, fast.len(), "no duplicates");
        prop_assert_eq!(fast, slow);
    }

    /// Every lead is a held set; the smallest lead is among them and no smaller one exists.
    #[test]
    fn lead_enumeration_is_complete(hand in prop::collection::vec(hand_card(), 1..14), joker_required in any::<bool>()) {
        let hand: Hand = hand.into_iter().collect();
        let c = Counts::of(&hand);
        let mut fast = Vec::new();
        lead_shapes(&c, joker_required, &mut fast);
        let mut slow: Vec<Shape> = all_held_shapes(&c)
            .into_iter()
            .filter(|s| !joker_required || s.jokers() > 0 || s.len() == hand.len())
            .collect();
        fast.sort();
        slow.sort();
        prop_assert_eq!(&fast, &slow);
        // None only for a burner who cannot lead at all (the failed burn).
        let Some(smallest) = smallest_lead(&c, joker_required) else {
            prop_assert!(fast.is_empty());
            return Ok(());
        };
        prop_assert!(fast.contains(&smallest));
        prop_assert!(fast.iter().all(|s| s.smallness() >= smallest.smallness()));
        for s in &fast {
            let cards = s.take_from(&hand).unwrap();
            prop_assert!(hand.contains_all(&cards));
            prop_assert_eq!(shape_of(&cards).unwrap(), *s);
        }
    }
}

/// Cards of a small random hand: a few ranks so that sets form, with 2s and jokers.
fn hand_card() -> impl Strategy<Value = Card> {
    prop::sample::select(cards("S4 H4 S9 H9 SK HK SA S2 H2 D2 BJ BJ RJ RJ RJ"))
}

/// Every distinct set that can be taken from the counts, by brute force over all counts.
fn all_held_shapes(c: &Counts) -> Vec<Shape> {
    let mut out = Vec::new();
    for base in [0u8, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        let max_nat = if (4..=14).contains(&base) {
            c.get(base)
        } else {
            0
        };
        for k in 0..=max_nat {
            for t in 0..=c.get(15) {
                for s in 0..=c.get(16) {
                    for b in 0..=c.get(17) {
                        // Build cards and let the parser say what set they are.
                        let mut cards = Vec::new();
                        if k > 0 {
                            let r = rules::cards::Rank::new(base).unwrap();
                            cards.extend(std::iter::repeat_n(
                                Card::new(rules::cards::Suit::Spades, r),
                                k as usize,
                            ));
                        }
                        cards.extend(std::iter::repeat_n(
                            Card::new(rules::cards::Suit::Spades, rules::cards::Rank::TWO),
                            t as usize,
                        ));
                        cards.extend(std::iter::repeat_n(Card::BJ, s as usize));
                        cards.extend(std::iter::repeat_n(Card::RJ, b as usize));
                        if let Ok(shape) = shape_of(&cards) {
                            if !out.contains(&shape) {
                                out.push(shape);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}
