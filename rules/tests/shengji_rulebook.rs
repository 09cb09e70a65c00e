//! The 80分 rules as tables of concrete cards, from shengji.md and the Fujian text
//! (扑克牌升级（80分）比赛规则（牌套）): card order, every tractor the text lists, the level gap,
//! no-trump boards, the throws it names (AAK, AKK, AQQJJ), failed throws, following, trick
//! winners, 抠底 multipliers, and the referee's judge in its exact JSON forms.

use rules::cards::{format_cards, parse_list, Card, Hand, Rank, Suit};
use rules::shengji::{
    answer, answer_with, kitty_multiplier, legal_follows, lowest_follow, parse_lead,
    parse_lead_for, KittyMultiplier, LeadParse, Order, Question, Ruleset, ThrowBlockers,
    ThrowCompare, ThrowFollow, UnitKind,
};

fn cards(s: &str) -> Vec<Card> {
    parse_list(s).unwrap()
}

fn order(level: &str, trump: &str) -> Order {
    let t = match trump {
        "NT" => None,
        s => Some(Suit::from_letter(s.chars().next().unwrap()).unwrap()),
    };
    Order::new(Rank::parse(level).unwrap(), t)
}

/// The lead's units, e.g. `["tractor HA HA HK HK", "single H9"]`.
fn units(level: &str, trump: &str, lead: &str, parse: LeadParse) -> Vec<String> {
    let o = order(level, trump);
    let lead = parse_lead(&o, parse, &cards(lead)).unwrap();
    lead.units()
        .iter()
        .map(|u| {
            let kind = match u.kind() {
                UnitKind::Single => "single",
                UnitKind::Pair => "pair",
                UnitKind::Tractor => "tractor",
            };
            format!("{kind} {}", format_cards(u.cards()))
        })
        .collect()
}

/// Asks the judge one question (a JSON line) and returns its answer as JSON text.
fn judge(q: &str) -> String {
    let q: Question = serde_json::from_str(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    serde_json::to_string(&answer(&q)).unwrap()
}

fn list(s: &str) -> String {
    serde_json::to_string(&cards(s)).unwrap()
}

// ---------------------------------------------------------------------------------------------
// 主与牌序

#[test]
fn trump_order_high_to_low() {
    // RJ > BJ > 主级牌 > 副级牌 (equal) > trump-suit A, K, … 2 without the level rank.
    let o = order("4", "S");
    let high_to_low = cards("RJ BJ S4 H4 SA SK SQ SJ S10 S9 S8 S7 S6 S5 S3 S2");
    for w in high_to_low.windows(2) {
        assert!(o.beats(w[0], w[1]), "{} over {}", w[0], w[1]);
        assert!(!o.beats(w[1], w[0]));
    }
    for (a, b) in [("H4", "D4"), ("D4", "C4"), ("H4", "C4")] {
        let (a, b) = (cards(a)[0], cards(b)[0]);
        assert_eq!(o.slot(a), o.slot(b), "副级牌 are equal");
        assert!(!o.beats(a, b) && !o.beats(b, a));
    }
    // A side suit ranks A, K, … 2 without the level rank; any trump beats it.
    let hearts = cards("HA HK HQ HJ H10 H9 H8 H7 H6 H5 H3 H2");
    for w in hearts.windows(2) {
        assert!(o.beats(w[0], w[1]));
    }
    assert!(o.beats(cards("S2")[0], cards("HA")[0]));
    assert!(o.is_trump(cards("H4")[0]) && !o.is_trump(cards("H5")[0]));
    // No trump: RJ > BJ > the four level cards (equal); every suit is a side suit.
    let nt = order("10", "NT");
    assert!(nt.beats(cards("RJ")[0], cards("BJ")[0]));
    assert!(nt.beats(cards("BJ")[0], cards("S10")[0]));
    assert_eq!(nt.slot(cards("S10")[0]), nt.slot(cards("C10")[0]));
    assert!(!nt.is_trump(cards("SA")[0]) && nt.is_trump(cards("D10")[0]));
}

// ---------------------------------------------------------------------------------------------
// 拖拉机: the Fujian text's list, the level gap, the ladder, no trump.

#[test]
fn every_tractor_the_text_lists_is_one_tractor() {
    let table = [
        ("4", "S", "RJ RJ BJ BJ", "大王对+小王对"),
        ("4", "S", "BJ BJ S4 S4", "小王对+主花色级牌对"),
        ("4", "S", "S4 S4 H4 H4", "主花色级牌对+非主花色级牌对"),
        ("4", "S", "C4 C4 SA SA", "非主花色级牌对+主花色副牌AA"),
        ("4", "S", "SA SA SK SK", "同花色AA+同花色KK (trump)"),
        ("4", "S", "HA HA HK HK", "同花色AA+同花色KK (side suit)"),
        (
            "6",
            "S",
            "C5 C5 C7 C7",
            "the level rank is skipped: level 6, ♣55–♣77",
        ),
        (
            "4",
            "S",
            "RJ RJ BJ BJ S4 S4 D4 D4 SA SA SK SK",
            "the whole trump ladder",
        ),
        (
            "A",
            "S",
            "HA HA SK SK",
            "level A: 副级牌对–trump K K (the top plain trump)",
        ),
        (
            "A",
            "H",
            "DK DK DQ DQ",
            "level A: a side suit's K is its top",
        ),
        ("10", "NT", "H10 H10 BJ BJ", "no trump: 副级牌对–BJBJ"),
        (
            "10",
            "NT",
            "C10 C10 BJ BJ RJ RJ",
            "no trump: 副级牌对–BJBJ–RJRJ",
        ),
    ];
    for (level, trump, lead, rule) in table {
        let u = units(level, trump, lead, LeadParse::LongestTractors);
        assert_eq!(u.len(), 1, "{rule}: {u:?}");
        assert!(u[0].starts_with("tractor"), "{rule}: {u:?}");
    }
}

#[test]
fn pairs_that_are_not_adjacent_are_separate_units() {
    let table = [
        (
            "4",
            "S",
            "H4 H4 D4 D4",
            "two 副级牌对 are equal, so not adjacent",
        ),
        (
            "10",
            "NT",
            "H10 H10 S10 S10",
            "no trump: two level pairs are equal",
        ),
        ("4", "S", "HA HA HQ HQ", "K missing"),
        (
            "4",
            "S",
            "HA HA H2 H2",
            "a side suit's A has nothing above it",
        ),
        ("4", "S", "BJ BJ H4 H4", "主级牌 between 小王 and 副级牌"),
        ("4", "S", "RJ RJ S4 S4", "小王 between"),
        (
            "4",
            "S",
            "S5 S5 S3 S3",
            "level 4 skips only the 4: 5 and 3 are adjacent?",
        ),
    ];
    for (level, trump, lead, rule) in &table[..6] {
        let u = units(level, trump, lead, LeadParse::LongestTractors);
        assert_eq!(u.len(), 2, "{rule}: {u:?}");
        assert!(u.iter().all(|x| x.starts_with("pair")), "{rule}: {u:?}");
    }
    // ...whereas the level gap makes ♠5–♠3 adjacent at level 4.
    let (level, trump, lead, _) = table[6];
    assert_eq!(
        units(level, trump, lead, LeadParse::LongestTractors).len(),
        1
    );
    // Two different 副级牌 are not a pair.
    assert_eq!(
        units("4", "S", "H4 D4", LeadParse::LongestTractors),
        ["single D4", "single H4"]
    );
}

#[test]
fn the_named_throws_parse_into_their_units() {
    // 同门花色的大牌可以连出，称作甩牌。如：副牌中AAK，AKK，AQQJJ等。
    let table = [
        ("HA HA HK", vec!["pair HA HA", "single HK"]),
        ("HA HK HK", vec!["pair HK HK", "single HA"]),
        ("HA HQ HQ HJ HJ", vec!["tractor HJ HJ HQ HQ", "single HA"]),
    ];
    for (lead, want) in table {
        assert_eq!(
            units("4", "S", lead, LeadParse::LongestTractors),
            want,
            "{lead}"
        );
    }
}

#[test]
fn lead_parse_option_cuts_equal_strength_pairs_two_ways() {
    // Trump A, two 副级牌 pairs, 主级牌: tractor 3 + pair, or two tractors of 2.
    let lead = "SA SA H4 H4 D4 D4 S4 S4";
    assert_eq!(
        units("4", "S", lead, LeadParse::LongestTractors),
        ["tractor SA SA H4 H4 S4 S4", "pair D4 D4"]
    );
    let two = units("4", "S", lead, LeadParse::MostTractors);
    assert_eq!(two.len(), 2);
    assert!(
        two.iter()
            .all(|u| u.starts_with("tractor") && u.split(' ').count() == 5),
        "{two:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// 甩牌

fn lead_question(hand: &str, play: &str, others: [&str; 3]) -> String {
    format!(
        r#"{{"game":"shengji","level":"4","trump":"S","hand":{},"play":{},"others":[{},{},{}]}}"#,
        list(hand),
        list(play),
        list(others[0]),
        list(others[1]),
        list(others[2])
    )
}

#[test]
fn the_named_throws_stand_whatever_the_others_hold() {
    // Every other heart is with the next player: still nobody can beat a unit.
    for throw in ["HA HA HK", "HA HK HK", "HA HQ HQ HJ HJ"] {
        let mine = cards(throw);
        let rest: Vec<Card> = cards("HA HA HK HK HQ HQ HJ HJ H10 H10 H9 H9 H8 H8 H3 H3")
            .into_iter()
            .fold((Vec::new(), mine.clone()), |(mut out, mut left), c| {
                match left.iter().position(|&x| x == c) {
                    Some(i) => {
                        left.remove(i);
                    }
                    None => out.push(c),
                }
                (out, left)
            })
            .0;
        let q = lead_question(throw, throw, [&format_cards(&rest), "C2", "D2"]);
        assert_eq!(judge(&q), r#"{"legal":true,"throw":"stands"}"#, "{throw}");
    }
}

#[test]
fn failed_throws_cost_ten_a_card_and_force_the_smallest_blocked_unit() {
    let table = [
        // (throw, others in turn order, answer)
        (
            "HA HJ H9",
            ["HK", "C2", "D2"],
            r#"{"legal":true,"throw":"fails","penalty":30,"forced":["H9"]}"#,
        ),
        (
            "HA HA H9",
            ["H10", "C2", "D2"],
            r#"{"legal":true,"throw":"fails","penalty":30,"forced":["H9"]}"#,
        ),
        // 挡对出对: a tractor is beaten by a higher tractor at least as long.
        (
            "HA HA HJ HJ H10 H10",
            ["HK HK HQ HQ", "C2", "D2"],
            r#"{"legal":true,"throw":"fails","penalty":60,"forced":["H10","H10","HJ","HJ"]}"#,
        ),
        // 若单、对都被挡，则由对方指定出牌.
        (
            "HA HQ HQ H9",
            ["HK HK", "C2", "D2"],
            r#"{"legal":true,"throw":"fails","penalty":40,"choices":[["H9"],["HQ","HQ"]]}"#,
        ),
        // At most 80 an attempt.
        (
            "HA HA HQ HQ HJ HJ H9 H8 H7 H6",
            ["C2", "C3", "HK"],
            r#"{"legal":true,"throw":"fails","penalty":80,"forced":["H6"]}"#,
        ),
        // The partner's hand counts too ([decision] throw_blockers = all-others).
        (
            "HA HJ",
            ["C2", "HQ", "D2"],
            r#"{"legal":true,"throw":"fails","penalty":20,"forced":["HJ"]}"#,
        ),
    ];
    for (throw, others, want) in table {
        let q = lead_question(&format!("{throw} C5"), throw, others);
        assert_eq!(judge(&q), want, "{throw} against {others:?}");
    }
}

#[test]
fn throws_that_stand() {
    let table = [
        // A pair does not beat a tractor.
        ("HA H9 H9 H8 H8", ["HK HK", "HQ HQ", "C2"]),
        // A tractor of 2 does not beat a tractor of 3.
        ("HA H5 H5 H6 H6 H7 H7", ["HK HK HQ HQ", "C2", "D2"]),
        // Equal cards do not beat: the other 副级牌 pair against a 副级牌 pair.
        ("BJ H4 H4", ["D4 D4", "C2", "D2"]),
        // A single, a pair, a tractor always stand.
        ("H9", ["HA", "HK", "HQ"]),
        ("H9 H9", ["HA HA", "HK", "HQ"]),
        ("H9 H9 H8 H8", ["HA HA HK HK", "HQ", "HQ"]),
    ];
    for (throw, others) in table {
        let q = lead_question(throw, throw, others);
        assert_eq!(judge(&q), r#"{"legal":true,"throw":"stands"}"#, "{throw}");
    }
    // A higher tractor of three beats a tractor of three.
    let q = lead_question(
        "HA H5 H5 H6 H6 H7 H7",
        "HA H5 H5 H6 H6 H7 H7",
        ["HK HK HQ HQ HJ HJ", "C2", "D2"],
    );
    assert!(judge(&q).contains(r#""forced":["H5","H5","H6","H6","H7","H7"]"#));
    // [decision] option: only the opponents block.
    let q: Question =
        serde_json::from_str(&lead_question("HA HJ", "HA HJ", ["C2", "HQ", "D2"])).unwrap();
    let opponents = Ruleset {
        throw_blockers: ThrowBlockers::Opponents,
        ..Ruleset::fujian_2024()
    };
    assert_eq!(
        serde_json::to_string(&answer_with(&q, &opponents)).unwrap(),
        r#"{"legal":true,"throw":"stands"}"#
    );
}

#[test]
fn a_lead_must_be_one_suit_and_in_hand() {
    let q = lead_question("HA SA", "HA SA", ["C2", "C3", "C4"]);
    let a = judge(&q);
    assert!(
        a.starts_with(
            r#"{"legal":false,"code":"lead_mixed_suits","message":"首家出牌必须是同一门"#
        ),
        "{a}"
    );
    // Trumps of different suits are one effective suit.
    let q = lead_question("H4 SA", "H4 SA", ["C2", "C3", "C4"]);
    assert!(judge(&q).contains(r#""legal":true"#));
    let q = lead_question("HA", "HK", ["C2", "C3", "C4"]);
    assert!(judge(&q).starts_with(
        r#"{"legal":false,"code":"cards_not_in_hand","message":"手中没有这些牌：HK""#
    ));
}

// ---------------------------------------------------------------------------------------------
// 跟牌

fn follow(level: &str, trump: &str, lead: &str, hand: &str, play: &str) -> String {
    let q = format!(
        r#"{{"game":"shengji","level":"{level}","trump":"{trump}","lead":{},"hand":{},"play":{}}}"#,
        list(lead),
        list(hand),
        list(play)
    );
    let a = judge(&q);
    let v: serde_json::Value = serde_json::from_str(&a).unwrap();
    if v["legal"] == true {
        assert_eq!(a, r#"{"legal":true}"#);
        "legal".to_string()
    } else {
        assert!(
            v["message"].as_str().is_some() && v["message_en"].as_str().is_some(),
            "{a}"
        );
        format!(
            "{}: {}",
            v["code"].as_str().unwrap(),
            v["message"].as_str().unwrap()
        )
    }
}

#[test]
fn following_table() {
    // (lead, hand, play, verdict): level 4, trump ♠.
    let table = [
        // Suit.
        (
            "HK",
            "H3 C3",
            "C3",
            "must_follow_suit: 必须跟出同一门花色：你有足够的红桃，只能出红桃",
        ),
        ("HK", "C3 S3", "S3", "legal"), // void: 将吃
        ("HK", "C3 S3", "C3", "legal"), // void: a discard
        ("HK HK", "H3 C3 C3", "H3 C3", "legal"),
        (
            "HK HK",
            "H3 C3 C3",
            "C3 C3",
            "must_play_all_of_suit: 必须跟出同一门花色：红桃不够时必须全部跟出（你有 1 张）",
        ),
        ("SK", "H4 C3", "H4", "legal"), // a 副级牌 is a trump
        (
            "SK",
            "H4 C3",
            "C3",
            "must_follow_suit: 必须跟出同一门花色：你有足够的主牌，只能出主牌",
        ),
        // 首家出对牌时，其余家有对必须跟对（包括拖拉机中的对牌）.
        (
            "HK HK",
            "H3 H3 H5 C7",
            "H3 H5",
            "must_follow_pairs: 有对必须跟对",
        ),
        ("HK HK", "H3 H3 H5 C7", "H3 H3", "legal"),
        (
            "HK HK",
            "H6 H6 H7 H7 C2",
            "H6 H7",
            "must_follow_pairs: 有对必须跟对",
        ),
        ("HK HK", "H6 H6 H7 H7 C2", "H7 H7", "legal"),
        ("HK HK", "H3 H5 C3 C3", "H3 H5", "legal"), // no pair in the led suit
        ("SA SA", "H4 D4 S3 C2", "H4 D4", "legal"), // two different 副级牌 are no pair
        (
            "SA SA",
            "H4 H4 D4 S3",
            "D4 S3",
            "must_follow_pairs: 有对必须跟对",
        ),
        // 首家出拖拉机时，其余家有拖拉机必须跟出，若无拖拉机，则必须出对牌，无对牌时才能出其它牌.
        ("HK HK HQ HQ", "H6 H6 H7 H7 H9 H9", "H6 H6 H7 H7", "legal"),
        (
            "HK HK HQ HQ",
            "H6 H6 H7 H7 H9 H9",
            "H6 H6 H9 H9",
            "must_follow_tractor: 有拖拉机必须跟拖拉机：本轮须跟出 2 对的拖拉机",
        ),
        (
            "HK HK HQ HQ",
            "H6 H6 H7 H7 H9 H9",
            "H7 H7 H9 H9",
            "must_follow_tractor: 有拖拉机必须跟拖拉机：本轮须跟出 2 对的拖拉机",
        ),
        ("HK HK HQ HQ", "H6 H6 H9 H9 H2", "H6 H6 H9 H9", "legal"),
        (
            "HK HK HQ HQ",
            "H6 H6 H9 H9 H2",
            "H6 H6 H9 H2",
            "must_follow_pairs: 有对必须跟对（包括拖拉机中的对牌）：本轮须跟出 2 对",
        ),
        ("HK HK HQ HQ", "H6 H6 H9 H2 H3", "H6 H6 H9 H2", "legal"),
        (
            "HK HK HQ HQ",
            "H6 H6 H9 H2 H3",
            "H9 H2 H3 H6",
            "must_follow_pairs: 有对必须跟对",
        ),
        // A tractor of 3: the longest shorter tractor, with a pair.
        (
            "HK HK HQ HQ HJ HJ",
            "H2 H2 H3 H3 H7 H7 H9 H9",
            "H2 H2 H3 H3 H9 H9",
            "legal",
        ),
        (
            "HK HK HQ HQ HJ HJ",
            "H2 H2 H3 H3 H7 H7 H9 H9",
            "H2 H2 H7 H7 H9 H9",
            "must_follow_tractor: 有拖拉机必须跟拖拉机：本轮须跟出 2 对的拖拉机、一对",
        ),
        // Trump tractors and equal 副级牌 pairs: two 副级牌 pairs are two pairs, no tractor.
        ("BJ BJ S4 S4", "H4 H4 D4 D4 SA SK", "H4 H4 D4 D4", "legal"),
        (
            "BJ BJ S4 S4",
            "H4 H4 D4 D4 SA SK",
            "H4 H4 SA SK",
            "must_follow_pairs: 有对必须跟对（包括拖拉机中的对牌）：本轮须跟出 2 对",
        ),
        ("BJ BJ S4 S4", "H4 H4 SA SA SK", "H4 H4 SA SA", "legal"),
        (
            "BJ BJ S4 S4",
            "H4 H4 SA SA SK SQ",
            "H4 H4 SK SQ",
            "must_follow_tractor: 有拖拉机必须跟拖拉机：本轮须跟出 2 对的拖拉机",
        ),
        // A throw: the ladder of all its units together (AAK: a pair and a single).
        (
            "HA HA HK",
            "H3 H3 H5 H6",
            "H3 H5 H6",
            "must_follow_pairs: 有对必须跟对",
        ),
        ("HA HA HK", "H3 H3 H5 H6", "H3 H3 H6", "legal"),
    ];
    for (lead, hand, play, want) in table {
        assert_eq!(
            follow("4", "S", lead, hand, play),
            want,
            "lead {lead}, hand {hand}, play {play}"
        );
    }
    // The level gap (level 6: ♣55–♣77), and no trump (level 10: ♥10 is a trump).
    assert_eq!(
        follow("6", "S", "C9 C9 C8 C8", "C5 C5 C7 C7 C2", "C5 C5 C7 C7"),
        "legal"
    );
    assert!(
        follow("6", "S", "C9 C9 C8 C8", "C5 C5 C7 C7 C2", "C5 C5 C2 C7")
            .starts_with("must_follow_tractor")
    );
    assert_eq!(follow("10", "NT", "BJ", "H10 SA", "H10"), "legal");
    assert!(follow("10", "NT", "BJ", "H10 SA", "SA").starts_with("must_follow_suit"));
    assert_eq!(
        follow("10", "NT", "HA", "H10 SA", "H10"),
        "legal",
        "♥10 is a trump: void in hearts"
    );
    assert!(follow("10", "NT", "HA", "H9 H10", "H10")
        .starts_with("must_follow_suit: 必须跟出同一门花色：你有足够的红桃"));
    // Count and holding.
    assert!(follow("4", "S", "HK HK", "H3 H5 H6", "H3")
        .starts_with("wrong_count: 出牌张数必须与首家相同"));
    assert!(
        follow("4", "S", "HK", "H3 H5", "H6").starts_with("cards_not_in_hand: 手中没有这些牌：H6")
    );
}

/// A follow question under another ruleset: "legal" or "code: 中文".
fn follow_under(rules: &Ruleset, level: &str, lead: &str, hand: &str, play: &str) -> String {
    let q = format!(
        r#"{{"game":"shengji","level":"{level}","trump":"S","lead":{},"hand":{},"play":{}}}"#,
        list(lead),
        list(hand),
        list(play)
    );
    let q: Question = serde_json::from_str(&q).unwrap();
    let v = serde_json::to_value(answer_with(&q, rules)).unwrap();
    if v["legal"] == true {
        "legal".to_string()
    } else {
        format!(
            "{}: {}",
            v["code"].as_str().unwrap(),
            v["message"].as_str().unwrap()
        )
    }
}

#[test]
fn a_throw_of_tractors_of_different_lengths_is_answered_largest_unit_first() {
    // Level K, ♠ trump: ♦ 77 88 99 is a tractor of 3, ♦ JJ QQ one of 2 (K is the level rank).
    // The follower holds the run ♦ 33 44 55 66 and the lone pairs ♦ 10 10, AA: it cannot answer
    // both tractors. 首家出拖拉机时，其余家有拖拉机必须跟出 — but which unit of the throw first,
    // the text does not say. [decision] throw_follow = largest-unit-first (as the winner of
    // such a trick is judged, from the largest unit down): a tractor of 3 and two pairs, in any
    // play that holds them. `every-tractor-first` (another engine's reading): two tractors of 2
    // and a pair.
    let lead = "D7 D7 D8 D8 D9 D9 DJ DJ DQ DQ";
    let hand = "D3 D3 D4 D4 D5 D5 D6 D6 D10 D10 DA DA";
    let largest = Ruleset::fujian_2024();
    assert_eq!(largest.throw_follow, ThrowFollow::LargestUnitFirst);
    let every = Ruleset {
        throw_follow: ThrowFollow::EveryTractorFirst,
        ..Ruleset::fujian_2024()
    };
    let table = [
        // (play, largest-unit-first, every-tractor-first)
        (
            "D4 D4 D5 D5 D6 D6 D10 D10 DA DA", // tractor 3 + two pairs
            "legal",
            "must_follow_tractor: 有拖拉机必须跟拖拉机：本轮须跟出 2 对的拖拉机、2 对的拖拉机、一对",
        ),
        (
            "D3 D3 D4 D4 D5 D5 D10 D10 DA DA", // tractor 3 + two pairs
            "legal",
            "must_follow_tractor: 有拖拉机必须跟拖拉机：本轮须跟出 2 对的拖拉机、2 对的拖拉机、一对",
        ),
        (
            "D3 D3 D4 D4 D5 D5 D6 D6 D10 D10", // both: two tractors of 2 + a pair, or 3 + 2 pairs
            "legal",
            "legal",
        ),
        ("D3 D3 D4 D4 D5 D5 D6 D6 DA DA", "legal", "legal"),
        (
            "D3 D3 D4 D4 D6 D6 D10 D10 DA DA", // a tractor of 2 and three pairs
            "must_follow_tractor: 有拖拉机必须跟拖拉机：本轮须跟出 3 对的拖拉机、一对、一对",
            "must_follow_tractor: 有拖拉机必须跟拖拉机：本轮须跟出 2 对的拖拉机、2 对的拖拉机、一对",
        ),
    ];
    for (play, want_largest, want_every) in table {
        assert_eq!(
            follow_under(&largest, "K", lead, hand, play),
            want_largest,
            "largest-unit-first: {play}"
        );
        assert_eq!(
            follow_under(&every, "K", lead, hand, play),
            want_every,
            "every-tractor-first: {play}"
        );
    }
    // The engine's own lists agree: four legal plays, or two.
    let o = order("K", "S");
    let held: Hand = cards(hand).into_iter().collect();
    for (rules, n) in [(&largest, 4), (&every, 2)] {
        let led = parse_lead_for(&o, rules, &cards(lead)).unwrap();
        assert_eq!(legal_follows(&o, &led, &held, 100).len(), n);
        let lowest = lowest_follow(&o, &led, &held);
        assert_eq!(format_cards(&lowest), "D3 D3 D4 D4 D5 D5 D6 D6 D10 D10");
    }
    // One tractor led: the same ladder under both (the longest shorter tractor first).
    for rules in [&largest, &every] {
        assert_eq!(
            follow_under(
                rules,
                "4",
                "HK HK HQ HQ HJ HJ",
                "H2 H2 H3 H3 H7 H7 H9 H9",
                "H2 H2 H7 H7 H9 H9"
            ),
            "must_follow_tractor: 有拖拉机必须跟拖拉机：本轮须跟出 2 对的拖拉机、一对"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 一轮: who wins

fn trick(level: &str, trump: &str, plays: [&str; 4]) -> String {
    let q = format!(
        r#"{{"game":"shengji","level":"{level}","trump":"{trump}","trick":[{},{},{},{}]}}"#,
        list(plays[0]),
        list(plays[1]),
        list(plays[2]),
        list(plays[3])
    );
    judge(&q)
}

#[test]
fn trick_table() {
    let table = [
        // (plays in order, answer)
        (["HK", "HA", "H3", "H5"], r#"{"winner":1,"points":15}"#), // the higher card of the suit
        (["HK", "S3", "HA", "S5"], r#"{"winner":3,"points":15}"#), // 将吃, then 盖毙
        (["HK", "C3", "HA", "D5"], r#"{"winner":2,"points":15}"#), // discards cannot win
        (["S2", "H4", "D4", "C4"], r#"{"winner":1,"points":0}"#),  // equal 副级牌: the earlier
        (["H4", "D4", "S3", "C4"], r#"{"winner":0,"points":0}"#),
        (
            ["SA SA", "D4 D4", "C4 C4", "S3 S3"],
            r#"{"winner":1,"points":0}"#,
        ),
        (
            ["SA SA", "D4 D4", "S4 S4", "S3 S3"],
            r#"{"winner":2,"points":0}"#,
        ),
        // A trump answer to a pair must be a pair, else it is a discard.
        (
            ["HK HK", "S3 S5", "H2 H3", "C2 C2"],
            r#"{"winner":0,"points":25}"#,
        ),
        (
            ["HK HK", "S3 S3", "S5 S5", "H2 H2"],
            r#"{"winner":2,"points":30}"#,
        ),
        // A tractor is beaten by a trump tractor, not by two trump pairs.
        (
            ["HK HK HQ HQ", "S2 S2 S3 S3", "H2 H2 H3 H3", "C2 C2 C3 C3"],
            r#"{"winner":1,"points":20}"#,
        ),
        (
            ["HK HK HQ HQ", "S9 S9 SJ SJ", "H2 H2 H3 H3", "C2 C2 C3 C3"],
            r#"{"winner":0,"points":20}"#,
        ),
        // A throw is beaten only by trumps of its shape: AAK by a trump pair and single.
        (
            ["HA HA HK", "S2 S2 S3", "S5 S5 S6", "S7 S8 S9"],
            r#"{"winner":2,"points":20}"#,
        ),
        (
            ["HA HA HK", "HQ HQ HJ", "C2 C3 C5", "S7 S8 S9"],
            r#"{"winner":0,"points":15}"#,
        ),
        // The best arrangement: ♣6♣6♣2♣2 against pair + single + single is pair 66.
        (
            ["HA HA HK HQ", "C5 C5 C9 C10", "C6 C6 C2 C2", "D2 D3 D5 D6"],
            "C",
        ),
        // Unit by unit: equal 副级牌 pairs first, then ♣55 over ♣33.
        (
            ["HA HA HQ HQ", "H4 H4 C3 C3", "D4 D4 C5 C5", "D2 D3 D6 D7"],
            "C",
        ),
    ];
    for (plays, want) in &table[..13] {
        assert_eq!(trick("4", "S", *plays), *want, "{plays:?}");
    }
    assert_eq!(trick("4", "C", table[13].0), r#"{"winner":2,"points":35}"#);
    assert_eq!(trick("4", "C", table[14].0), r#"{"winner":2,"points":10}"#);
    // [decision] option: only the largest unit compared → the earlier play keeps it.
    let q: Question = serde_json::from_str(&format!(
        r#"{{"level":"4","trump":"C","trick":[{},{},{},{}]}}"#,
        list("HA HA HQ HQ"),
        list("H4 H4 C3 C3"),
        list("D4 D4 C5 C5"),
        list("D2 D3 D6 D7")
    ))
    .unwrap();
    let largest = Ruleset {
        throw_compare: ThrowCompare::LargestUnit,
        ..Ruleset::fujian_2024()
    };
    assert_eq!(
        serde_json::to_string(&answer_with(&q, &largest)).unwrap(),
        r#"{"winner":1,"points":10}"#
    );
    // No trump: a level card trumps a side suit; a joker over it.
    assert_eq!(
        trick("10", "NT", ["SA", "H10", "BJ", "S3"]),
        r#"{"winner":2,"points":10}"#
    );
    // Level gap tractor trumping: level 6, ♠55–♠77 is a tractor.
    assert_eq!(
        trick(
            "6",
            "S",
            ["HK HK HQ HQ", "S5 S5 S7 S7", "H2 H2 H3 H3", "C2 C2 C3 C3"]
        ),
        r#"{"winner":1,"points":30}"#
    );
}

// ---------------------------------------------------------------------------------------------
// 抠底

#[test]
fn kitty_multipliers_by_the_last_leads_largest_unit() {
    let o = order("4", "S");
    let m = |rule, lead: &str| {
        kitty_multiplier(
            rule,
            &parse_lead(&o, LeadParse::LongestTractors, &cards(lead)).unwrap(),
        )
    };
    // 单抠*2，双抠*4，拖拉机抠*8.
    let table = [
        ("H9", 2, 2, 2),
        ("H9 H9", 4, 4, 4),
        ("H9 H9 HA", 4, 4, 4),
        ("H9 H9 H8 H8", 8, 8, 16),
        ("H9 H9 H8 H8 H7 H7", 8, 12, 64),
    ];
    for (lead, t8, twice, power) in table {
        assert_eq!(m(KittyMultiplier::Tractor8, lead), t8, "{lead}");
        assert_eq!(m(KittyMultiplier::TwiceLargestUnit, lead), twice, "{lead}");
        assert_eq!(
            m(KittyMultiplier::PowerOfLargestUnit, lead),
            power,
            "{lead}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The judge's input

#[test]
fn judge_questions_accept_the_documented_forms_and_name_what_is_wrong() {
    // Lower case, "10", a numeric level, no "game" field: all fine.
    assert_eq!(
        judge(r#"{"level":10,"trump":"nt","lead":["bj"],"hand":["h10","sa"],"play":["H10"]}"#),
        r#"{"legal":true}"#
    );
    assert_eq!(
        judge(
            r#"{"game":"shengji","level":"A","trump":"H","trick":[["SA"],["SK"],["S5"],["HA"]]}"#
        ),
        r#"{"winner":3,"points":15}"#
    );
    let bad = [
        (
            r#"{"level":"4","trump":"S","lead":["ZZ"],"hand":[],"play":[]}"#,
            "ZZ",
        ),
        (
            r#"{"level":"1","trump":"S","lead":["SA"],"hand":[],"play":[]}"#,
            "level",
        ),
        (
            r#"{"level":"4","trump":"X","lead":["SA"],"hand":[],"play":[]}"#,
            "trump",
        ),
        (
            r#"{"level":"4","trump":"S","hand":["SA"],"play":["SA"]}"#,
            "lead",
        ),
        (
            r#"{"level":"4","trump":"S","lead":["SA"],"play":["SA"]}"#,
            "hand",
        ),
        (
            r#"{"level":"4","trump":"S","lead":["SA","HA"],"hand":["SA"],"play":["SA"]}"#,
            "lead",
        ),
        (
            r#"{"level":"4","trump":"S","hand":["SA"],"play":["SA"],"others":[[],[]]}"#,
            "others",
        ),
        (
            r#"{"level":"4","trump":"S","trick":[["SA"],["SK"],["S5"]]}"#,
            "trick",
        ),
        (
            r#"{"level":"4","trump":"S","trick":[["SA"],["SK"],["S5"],["H5","H6"]]}"#,
            "trick[3]",
        ),
    ];
    for (q, needle) in bad {
        let err = serde_json::from_str::<Question>(q)
            .expect_err(q)
            .to_string();
        assert!(err.contains(needle), "{q}: {err}");
    }
}

/// Two decks hold two of each card: a question whose cards no deal can hold is refused with a
/// typed reason (`too_many_copies`, Chinese and English), in every form — one hand, one play,
/// three ♥A in one trick (each play alone legal), the lead with the follower's hand, the
/// leader's hand with the other three — and two of a card anywhere is still judged.
#[test]
fn the_judge_refuses_cards_two_decks_cannot_hold() {
    let refused = |q: &str, count: usize, card: &str, zh: &str, en: &str| {
        let q: Question = serde_json::from_str(q).unwrap_or_else(|e| panic!("{q}: {e}"));
        let a: serde_json::Value = serde_json::to_value(answer(&q)).unwrap();
        assert_eq!(a["legal"], false, "{a}");
        assert_eq!(a["code"], "too_many_copies", "{a}");
        let (m, m_en) = (
            a["message"].as_str().unwrap(),
            a["message_en"].as_str().unwrap(),
        );
        assert!(
            m.contains(&format!("{count} 张 {card}")) && m.contains(zh),
            "{m}"
        );
        assert!(
            m_en.contains(&format!("{count} of {card}")) && m_en.contains(en),
            "{m_en}"
        );
    };
    refused(
        r#"{"level":"4","trump":"S","trick":[["HA"],["HA"],["HA"],["H5"]]}"#,
        3,
        "HA",
        "这一轮四家的牌",
        "this trick's four plays",
    );
    refused(
        r#"{"level":"4","trump":"S","trick":[["HA","HA"],["HA","SK"],["S5","S6"],["H5","H6"]]}"#,
        3,
        "HA",
        "这一轮",
        "trick",
    );
    refused(
        r#"{"level":"4","trump":"S","lead":["SA"],"hand":["SA","SA","SA"],"play":["SA"]}"#,
        4,
        "SA",
        "首家的出牌和跟牌者的手牌",
        "the lead with the follower's hand",
    );
    refused(
        r#"{"level":"4","trump":"S","lead":["HA"],"hand":["HA","HA","H5"],"play":["H5"]}"#,
        3,
        "HA",
        "跟牌者",
        "follower",
    );
    refused(
        r#"{"level":"4","trump":"S","lead":["HK"],"hand":["H5"],"play":["H5","H5","H5"]}"#,
        3,
        "H5",
        "出的牌",
        "the play",
    );
    refused(
        r#"{"level":"4","trump":"S","hand":["HA","HK"],"play":["HA","HK"],"others":[["HA"],["HA"],["C2"]]}"#,
        3,
        "HA",
        "首家和其他三家的手牌",
        "the leader's hand with the other three",
    );
    refused(
        r#"{"level":"4","trump":"S","hand":["RJ","RJ","RJ"],"play":["RJ"],"others":[[],[],[]]}"#,
        3,
        "RJ",
        "手牌",
        "hand",
    );
    // The legal maximum is judged as usual: both ♥A in one trick, both in a hand with the lead
    // of the other suit, two of a card in the four hands of a lead question.
    assert_eq!(
        judge(r#"{"level":"4","trump":"S","trick":[["HA"],["HA"],["H5"],["H5"]]}"#),
        r#"{"winner":0,"points":10}"#
    );
    assert_eq!(
        judge(
            r#"{"level":"4","trump":"S","lead":["HK","HK"],"hand":["HA","HA","C7"],"play":["HA","HA"]}"#
        ),
        r#"{"legal":true}"#
    );
    assert_eq!(
        judge(
            r#"{"level":"4","trump":"S","hand":["HA","HK"],"play":["HA","HK"],"others":[["HQ"],["HQ"],["C2"]]}"#
        ),
        r#"{"legal":true,"throw":"stands"}"#
    );
}

/// The judge's examples in docs/rules-shengji.md are real: each question line is followed by
/// its exact answer.
#[test]
fn the_documented_judge_examples_hold() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/rules-shengji.md"
    ))
    .unwrap();
    let start = doc.find("## The referee's judge").unwrap();
    let section = &doc[start..doc[start..].find("## Tests").unwrap() + start];
    let lines: Vec<&str> = section.lines().filter(|l| l.starts_with('{')).collect();
    assert_eq!(lines.len(), 16, "eight questions and their answers");
    for pair in lines.chunks(2) {
        assert_eq!(judge(pair[0]), pair[1], "{}", pair[0]);
    }
}
