//! 80分 told: seats (北 东 南 西), the level and trump, actions and events.

use rules::cards::{Card, Suit};
use rules::shengji::{Action, Event, Lead, Offence, Seat, ThrowFailure, UnitChoice, UnitKind};

use super::cards;
use crate::referee::lang::Lang;

/// `北` or `N`.
pub fn seat(s: Seat, lang: Lang) -> &'static str {
    lang.pick(s.zh(), s.letter())
}

/// The seat's name with its side: `南（庄家方）`.
pub fn side(s: Seat, declarer: Seat, lang: Lang) -> &'static str {
    match (s.same_side(declarer), lang) {
        (true, Lang::Zh) => "庄家方",
        (false, Lang::Zh) => "闲家",
        (true, Lang::En) => "declarer's side",
        (false, Lang::En) => "defenders",
    }
}

pub fn suit(s: Suit, lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => s.zh(),
        Lang::En => match s {
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
            Suit::Clubs => "clubs",
        },
    }
}

/// `红桃` / `hearts`, or `无主` / `no trump`.
pub fn trump(t: Option<Suit>, lang: Lang) -> &'static str {
    match t {
        Some(s) => suit(s, lang),
        None => lang.pick("无主", "no trump"),
    }
}

pub fn unit_kind(k: UnitKind, lang: Lang) -> &'static str {
    match k {
        UnitKind::Single => lang.pick("单张", "single"),
        UnitKind::Pair => lang.pick("对子", "pair"),
        UnitKind::Tractor => lang.pick("拖拉机", "tractor"),
    }
}

/// A lead's shape: `拖拉机 H9 H9 H10 H10` or `甩牌：单张 SA、对子 SK SK`.
pub fn lead_shape(lead: &Lead, lang: Lang) -> String {
    let units: Vec<String> = lead
        .units()
        .iter()
        .map(|u| format!("{} {}", unit_kind(u.kind(), lang), cards(u.cards())))
        .collect();
    if lead.is_throw() {
        match lang {
            Lang::Zh => format!("甩牌：{}", units.join("、")),
            Lang::En => format!("a throw: {}", units.join(", ")),
        }
    } else {
        units.concat()
    }
}

pub fn offence(o: Offence, lang: Lang) -> &'static str {
    match o {
        Offence::FailedThrow => lang.pick("甩错牌", "failed throw"),
        Offence::Timeout => lang.pick("超时", "timeout"),
        Offence::Ruling => lang.pick("裁判判罚", "referee's ruling"),
        Offence::BoardEnded => lang.pick("裁判结束本副", "board ended by the referee"),
    }
}

pub fn choice(u: UnitChoice, lang: Lang) -> &'static str {
    match u {
        UnitChoice::Single => lang.pick("单张", "the single"),
        UnitChoice::Pair => lang.pick("对子或拖拉机", "the pair or tractor"),
    }
}

/// An action by itself, without its outcome: `出 SA SK`, `penalty 40`.
pub fn action(a: &Action, lang: Lang) -> String {
    match (a, lang) {
        (Action::Bury { cards: c }, Lang::Zh) => format!("扣底 {}", cards(c)),
        (Action::Bury { cards: c }, Lang::En) => format!("bury {}", cards(c)),
        (Action::Play { cards: c }, Lang::Zh) => format!("出 {}", cards(c)),
        (Action::Play { cards: c }, Lang::En) => format!("play {}", cards(c)),
        (Action::Choose { unit }, Lang::Zh) => format!("指定出{}", choice(*unit, lang)),
        (Action::Choose { unit }, Lang::En) => format!("choose {}", choice(*unit, lang)),
        (Action::Timeout, _) => lang.pick("超时", "timeout").into(),
        (Action::Penalty { points }, Lang::Zh) => format!("罚 {points} 分"),
        (Action::Penalty { points }, Lang::En) => format!("penalty of {points} points"),
        (Action::EndBoard, _) => lang
            .pick(
                "结束本副（判违规方负）",
                "end the board (the offenders lose)",
            )
            .into(),
        (Action::Finalize, _) => lang.pick("确认成绩", "finalise the result").into(),
    }
}

fn by_clock(auto: bool, lang: Lang) -> &'static str {
    if auto {
        lang.pick("（计时器代出）", " (played by the clock)")
    } else {
        ""
    }
}

/// One event as a line of the replay. A lead's trick header is the caller's business.
pub fn event(e: &Event, lang: Lang) -> String {
    match e {
        Event::Buried { .. } | Event::Played { .. } | Event::Chosen { .. } => play(e, lang),
        Event::ThrowFailed(failure) => throw_failed(failure, lang),
        Event::TrickWon { .. } | Event::KittyCaptured { .. } => points(e, lang),
        Event::Warning { .. } | Event::Penalty { .. } => penalty(e, lang),
        Event::BoardOver { .. } | Event::Finalized { .. } => board_over(e, lang),
    }
}

/// The cards a seat put down: the bury, a lead or a follow, the unit chosen after a failed
/// throw.
fn play(e: &Event, lang: Lang) -> String {
    let s = |x: &Seat| seat(*x, lang);
    match e {
        Event::Buried {
            seat: x,
            cards: c,
            count,
            auto,
        } => match lang {
            Lang::Zh => format!(
                "{} 扣底 {count} 张：{}{}",
                s(x),
                c.as_deref()
                    .map(cards)
                    .unwrap_or_else(|| "（不公开）".into()),
                by_clock(*auto, lang)
            ),
            Lang::En => format!(
                "{} buries {count}: {}{}",
                s(x),
                c.as_deref().map(cards).unwrap_or_else(|| "(hidden)".into()),
                by_clock(*auto, lang)
            ),
        },
        Event::Played {
            seat: x,
            cards: c,
            lead,
            auto,
            ..
        } => format!(
            "{} {} {}{}",
            s(x),
            match (lang, *lead) {
                (Lang::Zh, true) => "领出",
                (Lang::Zh, false) => "跟",
                (Lang::En, true) => "leads",
                (Lang::En, false) => "plays",
            },
            cards(c),
            by_clock(*auto, lang)
        ),
        Event::Chosen {
            seat: x,
            unit,
            cards: c,
            auto,
        } => match lang {
            Lang::Zh => format!(
                "{} 指定出{}：{}{}",
                s(x),
                choice(*unit, lang),
                cards(c),
                by_clock(*auto, lang)
            ),
            Lang::En => format!(
                "{} chooses {}: {}{}",
                s(x),
                choice(*unit, lang),
                cards(c),
                by_clock(*auto, lang)
            ),
        },
        _ => unreachable!("event() brings only cards played here"),
    }
}

/// 甩错牌: the throw, the units blocked and by whom, the penalty, and what must be played.
fn throw_failed(failure: &ThrowFailure, lang: Lang) -> String {
    let s = |x: &Seat| seat(*x, lang);
    let ThrowFailure {
        seat: x,
        attempt,
        blocked,
        penalty,
        forced,
        choices,
        chooser,
        ..
    } = failure;
    let blocks: Vec<String> = blocked
        .iter()
        .map(|b| {
            let by: Vec<&str> = b.by.iter().map(|y| seat(*y, lang)).collect();
            match lang {
                Lang::Zh => format!("{} 被 {} 挡住", cards(&b.cards), by.join("、")),
                Lang::En => format!("{} blocked by {}", cards(&b.cards), by.join(", ")),
            }
        })
        .collect();
    let then = match (forced, choices, chooser, lang) {
        (Some(f), _, _, Lang::Zh) => format!("须出最小的被挡牌 {}", cards(f)),
        (Some(f), _, _, Lang::En) => {
            format!("must play the smallest blocked unit {}", cards(f))
        }
        (None, Some([a, b]), Some(c), Lang::Zh) => format!(
            "单、对都被挡：由 {} 指定出单张 {} 或对子 {}",
            s(c),
            cards(a),
            cards(b)
        ),
        (None, Some([a, b]), Some(c), Lang::En) => format!(
            "singles and pairs blocked: {} chooses the single {} or the pair {}",
            s(c),
            cards(a),
            cards(b)
        ),
        _ => String::new(),
    };
    match lang {
        Lang::Zh => format!(
            "{} 甩牌 {} 失败（{}），罚 {penalty} 分；{then}",
            s(x),
            cards(attempt),
            blocks.join("；")
        ),
        Lang::En => format!(
            "{} throws {} and fails ({}), penalty {penalty}; {then}",
            s(x),
            cards(attempt),
            blocks.join("; ")
        ),
    }
}

/// Points changing hands: a trick won, the kitty captured (抠底).
fn points(e: &Event, lang: Lang) -> String {
    let s = |x: &Seat| seat(*x, lang);
    match e {
        Event::TrickWon {
            trick,
            winner,
            points,
            to_defenders,
            defenders,
        } => match (lang, *to_defenders) {
            (Lang::Zh, true) => format!(
                "→ {} 赢第 {trick} 轮，{points} 分归闲家（闲家共 {defenders} 分）",
                s(winner)
            ),
            (Lang::Zh, false) => format!(
                "→ {} 赢第 {trick} 轮，{points} 分庄家方保住（闲家共 {defenders} 分）",
                s(winner)
            ),
            (Lang::En, true) => format!(
                "→ {} wins trick {trick}: {points} points to the defenders (defenders {defenders})",
                s(winner)
            ),
            (Lang::En, false) => format!(
                "→ {} wins trick {trick}: {points} points kept by the declarer's side (defenders {defenders})",
                s(winner)
            ),
        },
        Event::KittyCaptured {
            seat: x,
            kitty,
            points,
            multiplier,
            gain,
            defenders,
        } => match lang {
            Lang::Zh => format!(
                "{} 抠底：底牌 {} 共 {points} 分 × {multiplier} = {gain} 分（闲家共 {defenders} 分）",
                s(x),
                cards(kitty)
            ),
            Lang::En => format!(
                "{} captures the kitty {}: {points} points × {multiplier} = {gain} (defenders {defenders})",
                s(x),
                cards(kitty)
            ),
        },
        _ => unreachable!("event() brings only points won here"),
    }
}

/// A warning or a penalty, with its reason.
fn penalty(e: &Event, lang: Lang) -> String {
    let s = |x: &Seat| seat(*x, lang);
    match e {
        Event::Warning { seat: x, reason } => match lang {
            Lang::Zh => format!("{} {}：警告（第一次不罚分）", s(x), offence(*reason, lang)),
            Lang::En => format!(
                "{}: warning for {} (the first costs no points)",
                s(x),
                offence(*reason, lang)
            ),
        },
        Event::Penalty {
            seat: x,
            reason,
            points,
            delta,
            defenders,
        } => match lang {
            Lang::Zh => format!(
                "罚 {} {points} 分（{}）：闲家 {delta:+} → {defenders} 分",
                s(x),
                offence(*reason, lang)
            ),
            Lang::En => format!(
                "{} penalised {points} points ({}): defenders {delta:+} → {defenders}",
                s(x),
                offence(*reason, lang)
            ),
        },
        _ => unreachable!("event() brings only warnings and penalties here"),
    }
}

/// The board over (by play or by a ruling, perhaps revised), and its result finalised.
fn board_over(e: &Event, lang: Lang) -> String {
    match e {
        Event::BoardOver {
            result,
            kitty,
            defender_tricks,
            by_ruling,
            revised,
        } => match lang {
            Lang::Zh => format!(
                "{}本副结束{}：闲家 {result} 分，闲家赢 {defender_tricks} 轮；底牌 {}",
                if *revised { "（更正）" } else { "" },
                if *by_ruling { "（裁判判定）" } else { "" },
                cards(kitty)
            ),
            Lang::En => format!(
                "{}board over{}: defenders {result} points, {defender_tricks} tricks; kitty {}",
                if *revised { "(revised) " } else { "" },
                if *by_ruling { " by ruling" } else { "" },
                cards(kitty)
            ),
        },
        Event::Finalized { result } => match lang {
            Lang::Zh => format!("裁判确认成绩：闲家 {result} 分"),
            Lang::En => format!("the referee finalised the result: defenders {result}"),
        },
        _ => unreachable!("event() brings only the board's end here"),
    }
}

/// The cards of a hand in the board's display order (trumps first, highest first).
pub fn hand(order: &rules::shengji::Order, cs: &[Card]) -> String {
    let mut v = cs.to_vec();
    order.sort_for_display(&mut v);
    cards(&v)
}

/// 80分: four seats, N E S W (北 东 南 西), one board (副) a table.
impl super::GameWords for rules::shengji::Board {
    const SEATS: usize = 4;

    fn title(lang: Lang) -> &'static str {
        lang.pick("80分", "80分 (shengji)")
    }

    fn deal_word(lang: Lang) -> &'static str {
        lang.pick("副", "board")
    }

    fn seat_label(seat: usize) -> &'static str {
        Seat::from_index(seat).letter()
    }

    fn seat_words(i: usize, lang: Lang) -> &'static str {
        seat(Seat::from_index(i), lang)
    }

    fn seat_named(label: &str) -> Option<usize> {
        Seat::parse(label).map(Seat::index)
    }

    fn action_words(a: &Action, lang: Lang) -> String {
        action(a, lang)
    }
}
