//! `paiju explain` agrees with the engine: on several random games of both games, every logged
//! action is explained as legal (with the rule that bound it), and random wrong actions are
//! explained with exactly the code the engine gives.

mod referee_support;

use referee_support::{finished_tables, paiju, Rng};
use rules::cards::Card;
use rules::gouji::Game;
use rules::shengji::Board;
use rules::{Actor, Engine, Explain, Viewer};
use serde_json::Value;
use server::referee::explain;
use server::referee::lang::Lang;
use server::referee::replayed;

/// A random action that is probably wrong, for the seat to act or another.
fn wrong_shengji(
    rng: &mut Rng,
    b: &rules::shengji::Board,
) -> (usize, Actor, rules::shengji::Action) {
    use rules::shengji::Action;
    let v = b.view(Viewer::Referee);
    let hands = v.hands.unwrap();
    let seat = match Engine::to_act(b).first() {
        Some(&s) if rng.chance(70) => s,
        _ => rng.below(4),
    };
    let hand = &hands[seat];
    let n = 1 + rng.below(4);
    let mut cards: Vec<Card> = (0..n)
        .filter(|_| !hand.is_empty())
        .map(|_| *rng.pick(hand))
        .collect();
    if rng.chance(10) {
        cards.push(Card::RJ);
    }
    match rng.below(10) {
        0 => (seat, Actor::Player, Action::Timeout),
        1 => (seat, Actor::Bot, Action::Penalty { points: 40 }),
        2 => (seat, Actor::Player, Action::Bury { cards }),
        3 => (
            seat,
            Actor::Player,
            Action::Choose {
                unit: rules::shengji::UnitChoice::Pair,
            },
        ),
        4 => (seat, Actor::Referee, Action::Penalty { points: 0 }),
        _ => (seat, Actor::Player, Action::Play { cards }),
    }
}

fn wrong_gouji(rng: &mut Rng, g: &rules::gouji::Game) -> (usize, Actor, rules::gouji::Action) {
    use rules::gouji::{Action, Seat};
    let seat = match Engine::to_act(g).first() {
        Some(&s) if rng.chance(70) => s,
        _ => rng.below(6),
    };
    let hand = g.hand(Seat::from_index(seat)).cards();
    let n = 1 + rng.below(4);
    let cards: Vec<Card> = (0..n)
        .filter(|_| !hand.is_empty())
        .map(|_| *rng.pick(&hand))
        .collect();
    match rng.below(10) {
        0 => (seat, Actor::Player, Action::Timeout),
        1 => (seat, Actor::Player, Action::Pass),
        2 => (seat, Actor::Player, Action::Yield),
        3 => (seat, Actor::Player, Action::Burn { cards }),
        4 => (seat, Actor::Player, Action::Decline),
        5 => (
            seat,
            Actor::Referee,
            Action::Ruling {
                ruling: rules::gouji::Ruling::Deduction,
                offence: rules::gouji::Offence::Other,
                points: Some(3),
            },
        ),
        _ => (seat, Actor::Player, Action::Play { cards }),
    }
}

#[test]
fn every_logged_action_is_explained_as_legal_and_wrong_ones_with_the_engines_code() {
    let t = finished_tables("explain", 3, 2);
    let mut rng = Rng::new(77);
    let mut seen_rules = std::collections::BTreeSet::new();
    let mut wrong_codes = std::collections::BTreeSet::new();
    for (id, _) in &t.shengji {
        let checked = replayed::check::<Board>(replayed::load(&t.db, id).unwrap(), None);
        let run = checked.replayed.as_ref().unwrap();
        for seq in 1..=run.steps.len() as u64 {
            let e = explain::explain(&checked, seq, false).unwrap();
            assert!(e.verdict.legal, "{id} #{seq}: {:?}", e.verdict);
            assert!(!e.hypothetical);
            assert!(!e.events.is_empty(), "{id} #{seq}: what it did");
            for r in &e.rules {
                seen_rules.insert((r.rule, r.state));
            }
            // Every alternative said to be refused is refused by the engine with that code.
            let before = run.after(seq as usize - 1);
            for alt in &e.refused {
                let action: rules::shengji::Action =
                    serde_json::from_value(alt.action.clone()).unwrap();
                let mut b = before.clone();
                let err = Engine::apply(&mut b, alt.seat, Actor::parse(alt.actor).unwrap(), action)
                    .expect_err("refused");
                assert_eq!(err.code(), alt.code);
                assert_eq!(err.zh(), alt.words.zh);
            }
            // Random wrong actions at this point.
            for _ in 0..3 {
                let (seat, actor, action) = wrong_shengji(&mut rng, &before);
                let json = serde_json::to_string(&action).unwrap();
                let e =
                    explain::explain_try(&checked, seq, seat, &json, Some(actor), false).unwrap();
                let mut b = before.clone();
                match Engine::apply(&mut b, seat, actor, action) {
                    Ok(_) => assert!(e.verdict.legal, "{json}"),
                    Err(err) => {
                        assert!(!e.verdict.legal);
                        assert_eq!(e.verdict.code, Some(err.code()), "{json}");
                        assert_eq!(e.verdict.words.zh, err.zh());
                        assert_eq!(e.verdict.words.en, err.en());
                        wrong_codes.insert(err.code());
                    }
                }
            }
        }
    }
    for (id, _) in &t.gouji {
        let checked = replayed::check::<Game>(replayed::load(&t.db, id).unwrap(), None);
        let run = checked.replayed.as_ref().unwrap();
        let mut before = run.dealt.clone();
        for (k, step) in run.steps.iter().enumerate() {
            let seq = k as u64 + 1;
            let e = explain::explain(&checked, seq, false).unwrap();
            assert!(e.verdict.legal, "{id} #{seq}: {:?}", e.verdict);
            for r in &e.rules {
                seen_rules.insert((r.rule, r.state));
            }
            if k % 3 == 0 {
                let (seat, actor, action) = wrong_gouji(&mut rng, &before);
                let json = serde_json::to_string(&action).unwrap();
                let e =
                    explain::explain_try(&checked, seq, seat, &json, Some(actor), false).unwrap();
                let mut g = before.clone();
                match Engine::apply(&mut g, seat, actor, action) {
                    Ok(_) => assert!(e.verdict.legal),
                    Err(err) => {
                        assert_eq!(e.verdict.code, Some(err.code()), "{json}");
                        assert_eq!(e.verdict.words.en, err.en());
                        wrong_codes.insert(err.code());
                    }
                }
            }
            Engine::apply(
                &mut before,
                step.entry.seat,
                step.entry.actor,
                step.action.clone(),
            )
            .unwrap();
        }
    }
    // The rules the brief names were met and explained in these games.
    for want in [
        ("must_follow_suit", "bound"),
        ("void", "void"),
        ("throw", "bound"),
        ("lead_mixed_suits", "bound"),
        ("timeout", "bound"),
        ("referee_only", "bound"),
        ("not_higher", "bound"),
        ("gouji", "bound"),
    ] {
        assert!(seen_rules.contains(&want), "{want:?} in {seen_rules:?}");
    }
    assert!(
        seen_rules.contains(&("must_follow_pairs", "bound"))
            || seen_rules.contains(&("must_follow_tractor", "bound")),
        "{seen_rules:?}"
    );
    for code in [
        "not_your_turn",
        "clock_only",
        "referee_only",
        "cards_not_in_hand",
    ] {
        assert!(wrong_codes.contains(code), "{code} in {wrong_codes:?}");
    }
}

#[test]
fn a_failed_throw_names_the_blocked_units_and_the_cards_that_blocked_them() {
    let t = finished_tables("throw", 3, 0);
    let mut found = false;
    for (id, _) in &t.shengji {
        let checked = replayed::check::<Board>(replayed::load(&t.db, id).unwrap(), None);
        let run = checked.replayed.as_ref().unwrap();
        for (k, step) in run.steps.iter().enumerate() {
            let Some(rules::shengji::Event::ThrowFailed(failure)) = step
                .events
                .iter()
                .find(|e| matches!(e, rules::shengji::Event::ThrowFailed(_)))
            else {
                continue;
            };
            let e = explain::explain(&checked, k as u64 + 1, false).unwrap();
            let text = explain::text(&e, Lang::Zh);
            assert!(text.contains("甩错牌"), "{text}");
            for b in &failure.blocked {
                let unit = server::referee::words::cards(&b.cards);
                assert!(text.contains(&format!("{unit} 被挡")), "{unit} in {text}");
                for by in &b.by {
                    assert!(text.contains(by.zh()));
                }
            }
            let en = explain::text(&e, Lang::En);
            assert!(en.contains("is blocked by"));
            found = true;
        }
    }
    assert!(found, "some throw failed in these games");
}

#[test]
fn the_command_explains_in_both_languages_and_tries() {
    let t = finished_tables("explain-cli", 1, 1);
    let db = t.db.to_str().unwrap();
    let (ok, out, err) = paiju(&["explain", "sj1", "2", "--db", db]);
    assert!(ok, "{err}");
    assert!(
        out.contains("引擎判定：合法") && out.contains("适用的规则"),
        "{out}"
    );
    let (ok, out, err) = paiju(&["explain", "gj1", "1", "--db", db, "--lang", "en"]);
    assert!(ok, "{err}");
    assert!(out.contains("The engine: legal"), "{out}");
    assert!(out.contains("A1"));

    // Why a hypothetical action would be refused: the engine's code, zh and en.
    let checked = replayed::check::<Board>(replayed::load(&t.db, "sj1").unwrap(), None);
    let run = checked.replayed.as_ref().unwrap();
    let b = run.after(1);
    let to_act = rules::shengji::Board::to_act(&b).unwrap();
    let other = to_act.next();
    let card = b.hand(other).cards()[0];
    let action = format!(r#"{{"type":"play","cards":["{card}"]}}"#);
    let (ok, out, err) = paiju(&[
        "explain",
        "sj1",
        "2",
        "--db",
        db,
        "--try",
        &action,
        "--seat",
        other.letter(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("[not_your_turn]"), "{out}");
    assert!(out.contains("中文：不是你出牌") && out.contains("English: it is not your turn"));
    assert!(out.contains("记录中这一条实际是：#2"));
    let (ok, out, _) = paiju(&[
        "explain",
        "sj1",
        "2",
        "--db",
        db,
        "--json",
        "--try",
        r#"{"type":"timeout"}"#,
        "--seat",
        to_act.letter(),
        "--actor",
        "player",
    ]);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"]["code"], "clock_only");
    assert_eq!(v["hypothetical"], true);
    let (ok, _, err) = paiju(&[
        "explain", "sj1", "2", "--db", db, "--try", "{", "--seat", "N",
    ]);
    assert!(!ok && err.contains("not an action of 80分"), "{err}");
    // A seat the table does not have is refused, not taken for another (99 was 西).
    for seat in ["99", "4", "A1"] {
        let (ok, out, err) = paiju(&[
            "explain", "sj1", "2", "--db", db, "--try", &action, "--seat", seat,
        ]);
        assert!(!ok && out.is_empty(), "--seat {seat}: {out}");
        assert!(
            err.contains(&format!("--seat: \"{seat}\" is not a seat of 80分"))
                && err.contains("N E S W, or 0 to 3"),
            "{err}"
        );
    }
    let pass = r#"{"type":"pass"}"#;
    let (ok, _, err) = paiju(&[
        "explain", "gj1", "2", "--db", db, "--try", pass, "--seat", "6",
    ]);
    assert!(!ok && err.contains("A1 B1 A2 B2 A3 B3, or 0 to 5"), "{err}");
    let (ok, _, err) = paiju(&[
        "explain", "gj1", "2", "--db", db, "--try", pass, "--seat", "5",
    ]);
    assert!(ok, "B3 is seat 5 of 够级: {err}");
    let (ok, _, err) = paiju(&["explain", "sj1", "100000", "--db", db]);
    assert!(!ok && err.contains("no replayed action"));
}

/// The worked example 1 of docs/rules-gouji.md as a board written by hand (no seed, no times):
/// A1 leads `K K`, a 级牌; B2 (the 对头) passes it, B3 burns with `A A`, A2 unburns with `2 2`.
const EXAMPLE_1: &str = r#"
[Event "docs/rules-gouji.md, worked example 1"]
[Table "example1"]
[Game "gouji"]
[Ruleset "zaozhuang-2017"]
[Board "1"]
[Deal "A1"]
A1 SK HK S4 S5
B1 DA CA S6 S7
A2 S2 H2 S8 H8
B2 D5 D6 D7 D8
A3 C4 C5 C6 C7
B3 SA HA BJ RJ S7 S8 S9
[Play "7"]
1 A1 player play SK HK
2 B1 player pass
3 A2 player pass
4 B2 player pass
5 B3 player burn SA HA
6 A1 player pass
7 A2 player play S2 H2
[Result "*"]
"#;

#[test]
fn the_gouji_rules_are_named_on_a_written_board() {
    use server::referee::board_file;
    let boards = board_file::parse(EXAMPLE_1).unwrap();
    let imported = board_file::import_board::<Game>(&boards[0], None).unwrap();
    assert!(!imported.storable, "no seed: checked only");
    let checked = &imported.checked;
    let rules_of = |seq: u64| {
        let e = explain::explain(checked, seq, false).unwrap();
        assert!(e.verdict.legal);
        (
            e.rules
                .iter()
                .map(|r| (r.rule, r.state))
                .collect::<Vec<_>>(),
            explain::text(&e, Lang::Zh),
        )
    };
    // The lead: a 级牌 that binds everyone but B2.
    let (rules, text) = rules_of(1);
    assert!(rules.contains(&("gouji", "bound")), "{text}");
    assert!(text.contains("只有 A1 的对头 B2 能管"), "{text}");
    // B1 may not beat it: the engine's code for the try.
    let e = explain::explain_try(
        checked,
        2,
        1,
        r#"{"type":"play","cards":["DA","CA"]}"#,
        None,
        false,
    )
    .unwrap();
    assert_eq!(e.verdict.code, Some("gouji_only_opposite"));
    assert!(e.verdict.words.zh.contains("级牌只有对头能打"));
    // B2's pass concedes it: the burn is offered.
    let (rules, text) = rules_of(4);
    assert!(
        rules.contains(&("pass", "info")) && text.contains("对头过级牌"),
        "{text}"
    );
    // B3 burns: offered in order, the sustain test kept.
    let (rules, text) = rules_of(5);
    assert!(rules.contains(&("no_burn_right", "bound")), "{text}");
    assert!(
        rules.contains(&("burn_not_sustainable", "kept"))
            || rules.contains(&("burn_not_sustainable", "bound")),
        "{text}"
    );
    assert!(text.contains("剩 2 张王、3 种点数"), "{text}");
    // A2, B3's 对头, unburns.
    let (rules, text) = rules_of(7);
    assert!(rules.contains(&("gouji_only_opposite", "bound")), "{text}");
    assert!(text.contains("解烧"), "{text}");
    let e = explain::explain(checked, 7, false).unwrap();
    assert!(explain::text(&e, Lang::En).contains("unburns"));
}
