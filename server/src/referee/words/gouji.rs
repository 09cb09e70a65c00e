//! 够级 told: seats (A1 … B3), places (头科 … 大落), rulings, actions and events.

use rules::cards::Card;
use rules::gouji::score::TeamName;
use rules::gouji::{Action, CardCount, Event, Offence, Outcome, Place, Ruling, Score, Seat};

use super::cards;
use crate::referee::lang::Lang;

pub fn seat(s: Seat) -> &'static str {
    s.name()
}

pub fn place(p: Place, lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => p.zh(),
        Lang::En => ["1st", "2nd", "3rd", "4th", "5th", "last"][p.index()],
    }
}

pub fn ruling(r: Ruling, lang: Lang) -> &'static str {
    match r {
        Ruling::Warning => lang.pick("警告", "warning"),
        Ruling::Deduction => lang.pick("扣分", "deduction"),
        Ruling::Forfeit => lang.pick("判负 0:12", "forfeit 0:12"),
    }
}

pub fn offence(o: Offence, lang: Lang) -> &'static str {
    match o {
        Offence::Signals => lang.pick("用肢体或语言暗示", "signals"),
        Offence::PeekingFolded => lang.pick("扣牌后翻牌查看", "looking at folded cards"),
        Offence::LeavingSeat => lang.pick("擅离座位", "leaving the seat"),
        Offence::WrongCardCount => lang.pick("张数不符", "wrong card count"),
        Offence::WrongCountAnswer => lang.pick("不按规定回答牌数", "wrong answer to 问牌"),
        Offence::Cheating => lang.pick("弄虚作假", "cheating"),
        Offence::RefusingReferee => lang.pick("不服从裁判", "refusing the referee"),
        Offence::Other => lang.pick("其他犯规", "other offence"),
    }
}

fn team(t: TeamName) -> &'static str {
    match t {
        TeamName::A => "A",
        TeamName::B => "B",
    }
}

/// `A 队 +6，B 队 −6` / `team A +6, team B -6`.
pub fn score(s: &Score, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("A 队 {:+}，B 队 {:+}", s.a, s.b),
        Lang::En => format!("team A {:+}, team B {:+}", s.a, s.b),
    }
}

pub fn outcome(o: &Outcome, lang: Lang) -> String {
    match (o, lang) {
        (Outcome::Places, Lang::Zh) => "按名次、点贡计分".into(),
        (Outcome::Places, Lang::En) => "by places and 点贡".into(),
        (Outcome::Sweep { team: t }, Lang::Zh) => format!("{} 队串三户", team(*t)),
        (Outcome::Sweep { team: t }, Lang::En) => {
            format!("team {} took 头科, 二科 and 三科 (串三户)", team(*t))
        }
        (Outcome::Forfeit { team: t }, Lang::Zh) => format!("{} 队被判负", team(*t)),
        (Outcome::Forfeit { team: t }, Lang::En) => format!("team {} forfeited", team(*t)),
    }
}

/// `A1 头科、B1 三科 …`, in seat order.
pub fn places(places: &[Option<Place>; 6], lang: Lang) -> String {
    Seat::ALL
        .iter()
        .map(|s| {
            let p = places[s.index()]
                .map(|p| place(p, lang))
                .unwrap_or(lang.pick("未完", "unplaced"));
            format!("{} {p}", seat(*s))
        })
        .collect::<Vec<_>>()
        .join(lang.pick("、", ", "))
}

fn count(c: &CardCount, lang: Lang) -> String {
    match (c, lang) {
        (CardCount::Exact(n), Lang::Zh) => format!("{n} 张"),
        (CardCount::Exact(n), Lang::En) => format!("{n} cards"),
        (CardCount::MoreThan(n), Lang::Zh) => format!("多于 {n} 张"),
        (CardCount::MoreThan(n), Lang::En) => format!("more than {n} cards"),
    }
}

/// An action by itself: `出 S10 H10`, `过`, `burn …`.
pub fn action(a: &Action, lang: Lang) -> String {
    match (a, lang) {
        (Action::Play { cards: c }, Lang::Zh) => format!("出 {}", cards(c)),
        (Action::Play { cards: c }, Lang::En) => format!("play {}", cards(c)),
        (Action::Pass, _) => lang.pick("过", "pass").into(),
        (Action::Yield, _) => lang.pick("让", "yield (让)").into(),
        (Action::Burn { cards: c }, Lang::Zh) => format!("烧牌 {}", cards(c)),
        (Action::Burn { cards: c }, Lang::En) => format!("burn with {}", cards(c)),
        (Action::Decline, _) => lang.pick("不烧", "decline the burn").into(),
        (Action::AskCount, _) => lang.pick("问牌", "ask the card count").into(),
        (Action::Timeout, _) => lang.pick("超时", "timeout").into(),
        (
            Action::Ruling {
                ruling: r,
                offence: o,
                points,
            },
            _,
        ) => {
            let pts = points
                .map(|p| format!(" {p}{}", lang.pick(" 分", " points")))
                .unwrap_or_default();
            format!("{}{pts}（{}）", ruling(*r, lang), offence(*o, lang))
        }
    }
}

fn gouji_tag(gouji: bool, lang: Lang) -> &'static str {
    if gouji {
        lang.pick(" 【级牌】", " [gouji]")
    } else {
        ""
    }
}

/// One event as a line of the replay. A lead's trick header is the caller's business.
pub fn event(e: &Event, lang: Lang) -> String {
    match e {
        Event::Led { .. }
        | Event::Beat { .. }
        | Event::Passed { .. }
        | Event::Yielded { .. }
        | Event::YieldReturned { .. }
        | Event::TrickWon { .. }
        | Event::FreePlay => play(e, lang),
        Event::Burned { .. }
        | Event::BurnOffered { .. }
        | Event::BurnDeclined { .. }
        | Event::BurnStood { .. }
        | Event::BurnEnded { .. }
        | Event::BurnFailed { .. } => burn(e, lang),
        Event::Opened { .. }
        | Event::WentOut { .. }
        | Event::Marked { .. }
        | Event::GameOver { .. } => standing(e, lang),
        Event::CountAnswered { .. }
        | Event::Warned { .. }
        | Event::TimedOut { .. }
        | Event::Ruled { .. } => officials(e, lang),
    }
}

/// The play of a trick: sets led and beaten, passes and 让, who wins it and leads next.
fn play(e: &Event, lang: Lang) -> String {
    let s = |x: &Seat| seat(*x);
    match e {
        Event::Led {
            seat: x,
            cards: c,
            gouji,
        } => match lang {
            Lang::Zh => format!("{} 发牌 {}{}", s(x), cards(c), gouji_tag(*gouji, lang)),
            Lang::En => format!("{} leads {}{}", s(x), cards(c), gouji_tag(*gouji, lang)),
        },
        Event::Beat {
            seat: x,
            cards: c,
            gouji,
            unburn,
        } => match lang {
            Lang::Zh => format!(
                "{} 管 {}{}{}",
                s(x),
                cards(c),
                gouji_tag(*gouji, lang),
                if *unburn { "（解烧）" } else { "" }
            ),
            Lang::En => format!(
                "{} beats with {}{}{}",
                s(x),
                cards(c),
                gouji_tag(*gouji, lang),
                if *unburn { " (unburns, 解烧)" } else { "" }
            ),
        },
        Event::Passed { seat: x, conceded } => match (lang, *conceded) {
            (Lang::Zh, true) => format!("{} 过（对头过级牌：可以烧牌）", s(x)),
            (Lang::Zh, false) => format!("{} 过", s(x)),
            (Lang::En, true) => {
                format!(
                    "{} passes the gouji set (the 对头 concedes: the burn is offered)",
                    s(x)
                )
            }
            (Lang::En, false) => format!("{} passes", s(x)),
        },
        Event::Yielded { seat: x } => format!("{} {}", s(x), lang.pick("让", "yields (让)")),
        Event::YieldReturned { seat: x } => match lang {
            Lang::Zh => format!("没人管：让牌回到 {}", s(x)),
            Lang::En => format!("nobody beat it: the yield comes back to {}", s(x)),
        },
        Event::TrickWon {
            winner,
            leader,
            takeover,
        } => match (lang, *takeover) {
            (Lang::Zh, true) => format!("→ {} 赢这一轮；{} 接风发牌", s(winner), s(leader)),
            (Lang::Zh, false) => format!("→ {} 赢这一轮，接着发牌", s(winner)),
            (Lang::En, true) => format!(
                "→ {} wins the trick; {} takes over the lead (接风)",
                s(winner),
                s(leader)
            ),
            (Lang::En, false) => format!("→ {} wins the trick and leads", s(winner)),
        },
        Event::FreePlay => lang
            .pick(
                "头科、二科已出：四户乱缠",
                "头科 and 二科 are out: four play freely (四户乱缠)",
            )
            .into(),
        _ => unreachable!("event() brings only the play here"),
    }
}

/// 烧牌 and what follows it: burns and counter-burns, the offer, a burn standing, ending or
/// failing.
fn burn(e: &Event, lang: Lang) -> String {
    let s = |x: &Seat| seat(*x);
    match e {
        Event::Burned {
            seat: x,
            cards: c,
            gouji,
            counter,
        } => match lang {
            Lang::Zh => format!(
                "{} {} {}{}",
                s(x),
                if *counter { "反烧" } else { "烧牌" },
                cards(c),
                gouji_tag(*gouji, lang)
            ),
            Lang::En => format!(
                "{} {} {}{}",
                s(x),
                if *counter {
                    "counter-burns (反烧) with"
                } else {
                    "burns (烧牌) with"
                },
                cards(c),
                gouji_tag(*gouji, lang)
            ),
        },
        Event::BurnOffered { seat: x } => match lang {
            Lang::Zh => format!("问 {} 是否烧牌", s(x)),
            Lang::En => format!("{} is offered the burn", s(x)),
        },
        Event::BurnDeclined { seat: x } => {
            format!("{} {}", s(x), lang.pick("不烧", "declines the burn"))
        }
        Event::BurnStood { seat: x } => match lang {
            Lang::Zh => format!("{} 烧牌成立：此后发牌须带王（最后一套除外）", s(x)),
            Lang::En => format!(
                "{}'s burn stands: every set they lead must hold a joker (except their last)",
                s(x)
            ),
        },
        Event::BurnEnded { seat: x } => match lang {
            Lang::Zh => format!("{} 的烧牌结束", s(x)),
            Lang::En => format!("{}'s burn is over", s(x)),
        },
        Event::BurnFailed {
            seat: x,
            void,
            void_count,
            owner,
            restored,
        } => match lang {
            Lang::Zh => format!(
                "{} 烧牌失误：大落，余牌 {void_count} 张作废{}；{} 的级牌 {} 恢复为桌面牌",
                s(x),
                void.as_deref()
                    .map(|v| format!("（{}）", cards(v)))
                    .unwrap_or_default(),
                s(owner),
                cards(restored)
            ),
            Lang::En => format!(
                "{}'s burn fails: last place, {void_count} cards void{}; {}'s gouji set {} is back on top",
                s(x),
                void.as_deref()
                    .map(|v| format!(" ({})", cards(v)))
                    .unwrap_or_default(),
                s(owner),
                cards(restored)
            ),
        },
        _ => unreachable!("event() brings only the burn here"),
    }
}

/// Where the seats stand: 开点 and 点, a seat out with its place, the game over.
fn standing(e: &Event, lang: Lang) -> String {
    let s = |x: &Seat| seat(*x);
    match e {
        Event::Opened { seat: x } => format!("{} {}", s(x), lang.pick("开点", "opens (开点)")),
        Event::WentOut { seat: x, place: p } => match lang {
            Lang::Zh => format!("{} 出完：{}", s(x), place(*p, lang)),
            Lang::En => format!("{} is out: {}", s(x), place(*p, lang)),
        },
        Event::Marked { seat: x } => match lang {
            Lang::Zh => format!("{} 被点（二科出时未开点）", s(x)),
            Lang::En => format!("{} is marked (点: not opened when 二科 went out)", s(x)),
        },
        Event::GameOver {
            places: p,
            score: sc,
            outcome: o,
        } => match lang {
            Lang::Zh => format!(
                "本局结束：{}（{}）；名次：{}",
                score(sc, lang),
                outcome(o, lang),
                places(p, lang)
            ),
            Lang::En => format!(
                "game over: {} ({}); places: {}",
                score(sc, lang),
                outcome(o, lang),
                places(p, lang)
            ),
        },
        _ => unreachable!("event() brings only places and the end here"),
    }
}

/// What the table's officials do: 问牌 answered, the clock's warning and expiry, the referee's
/// rulings.
fn officials(e: &Event, lang: Lang) -> String {
    let s = |x: &Seat| seat(*x);
    match e {
        Event::CountAnswered {
            asker,
            about,
            answer,
        } => match lang {
            Lang::Zh => format!("{} 问牌：{} 剩 {}", s(asker), s(about), count(answer, lang)),
            Lang::En => format!(
                "{} asks: {} holds {}",
                s(asker),
                s(about),
                count(answer, lang)
            ),
        },
        Event::Warned {
            seat: x,
            grace_seconds,
        } => match lang {
            Lang::Zh => format!("{} 超时：警告，再给 {grace_seconds} 秒", s(x)),
            Lang::En => format!("{} ran out of time: warned, {grace_seconds} s more", s(x)),
        },
        Event::TimedOut { seat: x } => match lang {
            Lang::Zh => format!("{} 警告后仍超时：自动处理", s(x)),
            Lang::En => format!("{} ran out of time again: the clock acts", s(x)),
        },
        Event::Ruled {
            seat: x,
            ruling: r,
            offence: o,
            points,
        } => match lang {
            Lang::Zh => format!(
                "裁判判罚 {}（{} 队）：{}{}（{}）",
                s(x),
                team(x.team().into()),
                ruling(*r, lang),
                points.map(|p| format!(" {p} 分")).unwrap_or_default(),
                offence(*o, lang)
            ),
            Lang::En => format!(
                "the referee rules against {} (team {}): {}{} ({})",
                s(x),
                team(x.team().into()),
                ruling(*r, lang),
                points
                    .map(|p| format!(" of {p} points"))
                    .unwrap_or_default(),
                offence(*o, lang)
            ),
        },
        _ => unreachable!("event() brings only the officials' events here"),
    }
}

/// A 够级 hand, grouped by rank from the highest (`RJ BJ 2 A K …`): suits never matter.
pub fn hand(cs: &[Card]) -> String {
    let mut v = cs.to_vec();
    v.sort_by_key(|&c| {
        (
            std::cmp::Reverse(rules::gouji::set::strength(c).unwrap_or(0)),
            c,
        )
    });
    cards(&v)
}

/// 够级: six seats, A1 B1 A2 B2 A3 B3 (the same in both languages), one game (局) a table.
impl super::GameWords for rules::gouji::Game {
    const SEATS: usize = 6;

    fn title(lang: Lang) -> &'static str {
        lang.pick("够级", "够级 (gouji)")
    }

    fn deal_word(lang: Lang) -> &'static str {
        lang.pick("局", "game")
    }

    fn seat_label(i: usize) -> &'static str {
        Seat::from_index(i).name()
    }

    fn seat_words(i: usize, _lang: Lang) -> &'static str {
        seat(Seat::from_index(i))
    }

    fn seat_named(label: &str) -> Option<usize> {
        Seat::parse(label).map(Seat::index)
    }

    fn action_words(a: &Action, lang: Lang) -> String {
        action(a, lang)
    }
}
