//! 够级 in `paiju replay`: the teams and 对头, the six hands as dealt, the play trick by trick
//! (sets, passes, 让, burns, places, 开点 and 点), the score; a position with every hand.

use rules::cards::Card;
use rules::gouji::{Event, Game, Phase, PlayerView, Seat, Status, TopView};
use rules::{Engine, Viewer};
use serde_json::{json, Map, Value};

use super::{push_step, seats_line, ReplayGame};
use crate::referee::lang::Lang;
use crate::referee::replayed::Run;
use crate::referee::words::{self, gouji as gw};
use crate::store::{StoredTable, TableHeader};

impl ReplayGame for Game {
    fn tell(t: &StoredTable, run: &Run<Game>, lang: Lang, lines: &mut Vec<String>) {
        lines.push(seats_line::<Game>(t, lang));
        lines.push(
            lang.pick(
                "A 队 A1 A2 A3，B 队 B1 B2 B3；对头 A1–B2、B1–A3、A2–B3；A1 先发牌",
                "Team A: A1 A2 A3, team B: B1 B2 B3; opposites (对头) A1–B2, B1–A3, A2–B3; A1 leads first",
            )
            .into(),
        );
        lines.push(String::new());
        deal(&run.dealt, lang, lines);
        play(run, t.header.created_ms, lang, lines);
        lines.push(String::new());
        let end = &run.end;
        result(end, lang, lines);
        lines.push(opened_and_marked(end, lang));
        let [a, b] = end.deducted();
        if a + b > 0 {
            lines.push(match lang {
                Lang::Zh => format!("裁判扣分：A 队 {a}，B 队 {b}（已计入结果）"),
                Lang::En => format!("Referee deductions: team A {a}, team B {b} (in the result)"),
            });
        }
    }

    fn tell_state(g: &Game, lang: Lang, lines: &mut Vec<String>) {
        let v = g.view(Viewer::Referee);
        lines.push(to_act(g, lang));
        if v.warned {
            lines.push(
                lang.pick(
                    "（该座位已被计时器警告，只剩宽限时间）",
                    "(the seat to act has been warned by the clock)",
                )
                .into(),
            );
        }
        if let Some(t) = &v.top {
            lines.push(top(t, lang));
        }
        if v.free_play {
            lines.push(lang.pick("四户乱缠", "Free play (四户乱缠)").into());
        }
        lines.push(lang.pick("各家：", "Players:").into());
        let hands = v.hands.as_ref().expect("a referee's view has every hand");
        for p in &v.players {
            lines.push(player(p, &hands[p.seat.index()], lang));
        }
        if let (Some(score), Some(outcome)) = (&v.score, &v.outcome) {
            lines.push(format!(
                "{}{}（{}）",
                lang.pick("结果：", "Result: "),
                gw::score(score, lang),
                gw::outcome(outcome, lang)
            ));
        }
    }

    fn deal_json(dealt: &Game) -> Value {
        let hands: Map<String, Value> = rules::gouji::Seat::ALL
            .iter()
            .map(|s| (s.name().to_string(), json!(dealt.hand(*s).cards())))
            .collect();
        json!({ "hands": hands })
    }

    fn result_json(end: &Game) -> Value {
        let g = end;
        let places: Map<String, Value> = rules::gouji::Seat::ALL
            .iter()
            .map(|s| (s.name().to_string(), json!(g.place(*s))))
            .collect();
        let score = g.score();
        json!({
            "over": g.is_over(),
            "places": places,
            "finish": g.finish(),
            "score": score.map(|s| s.0),
            "outcome": score.map(|s| s.1),
            "deducted": g.deducted(),
            "opened": rules::gouji::Seat::ALL.iter().filter(|s| g.opened(**s)).collect::<Vec<_>>(),
            "marked": rules::gouji::Seat::ALL.iter().filter(|s| g.marked(**s)).collect::<Vec<_>>(),
        })
    }

    fn deal_hands(
        _h: &TableHeader,
        dealt: &Game,
    ) -> Result<Vec<(&'static str, Vec<Card>)>, String> {
        Ok(rules::gouji::Seat::ALL
            .iter()
            .map(|s| (s.name(), dealt.hand(*s).cards()))
            .collect())
    }

    fn hand_text(_dealt: &Game, cards: &[Card]) -> String {
        gw::hand(cards)
    }
}

/// The six hands as dealt, highest first.
fn deal(dealt: &Game, lang: Lang, lines: &mut Vec<String>) {
    lines.push(
        lang.pick("发牌（由大到小）：", "The deal (highest first):")
            .into(),
    );
    for s in Seat::ALL {
        lines.push(format!(
            "  {:<3}{}",
            gw::seat(s),
            gw::hand(&dealt.hand(s).cards())
        ));
    }
}

/// The play step by step, each trick headed by its number and the seat that leads it.
fn play(run: &Run<Game>, start: u64, lang: Lang, lines: &mut Vec<String>) {
    let mut trick = 0;
    for step in &run.steps {
        let mut told = Vec::new();
        for ev in &step.events {
            if let Event::Led { seat, .. } = ev {
                trick += 1;
                if !told.is_empty() {
                    push_step(lines, &step.entry, start, std::mem::take(&mut told), lang);
                }
                lines.push(match lang {
                    Lang::Zh => format!("第 {trick} 轮（{} 发牌）", gw::seat(*seat)),
                    Lang::En => format!("Trick {trick} ({} leads)", gw::seat(*seat)),
                });
            }
            told.push(gw::event(ev, lang));
        }
        if !told.is_empty() {
            push_step(lines, &step.entry, start, told, lang);
        }
    }
}

/// The score and the places, or the seat to act in an unfinished game.
fn result(end: &Game, lang: Lang, lines: &mut Vec<String>) {
    match end.score() {
        Some((score, outcome)) => {
            lines.push(match lang {
                Lang::Zh => format!(
                    "结果：{}（{}）",
                    gw::score(&score, lang),
                    gw::outcome(&outcome, lang)
                ),
                Lang::En => format!(
                    "Result: {} ({})",
                    gw::score(&score, lang),
                    gw::outcome(&outcome, lang)
                ),
            });
            lines.push(format!(
                "{}{}",
                lang.pick("名次：", "Places: "),
                gw::places(end.places(), lang)
            ));
        }
        None => lines.push(match lang {
            Lang::Zh => format!(
                "牌局未结束：轮到 {}",
                end.phase().seat().map(gw::seat).unwrap_or("—")
            ),
            Lang::En => format!(
                "Not over: {} to act",
                end.phase().seat().map(gw::seat).unwrap_or("—")
            ),
        }),
    }
}

/// `开点：A1 B2；点：无`: who opened, who was marked.
fn opened_and_marked(end: &Game, lang: Lang) -> String {
    let opened: Vec<&str> = Seat::ALL
        .into_iter()
        .filter(|s| end.opened(*s))
        .map(gw::seat)
        .collect();
    let marked: Vec<&str> = Seat::ALL
        .into_iter()
        .filter(|s| end.marked(*s))
        .map(gw::seat)
        .collect();
    let none = lang.pick("无", "none");
    let list = |v: &[&str]| {
        if v.is_empty() {
            none.to_string()
        } else {
            v.join(" ")
        }
    };
    match lang {
        Lang::Zh => format!("开点：{}；点：{}", list(&opened), list(&marked)),
        Lang::En => format!(
            "Opened (开点): {}; marked (点): {}",
            list(&opened),
            list(&marked)
        ),
    }
}

/// Who is to act and what they may do: lead (with a joker under a standing burn), beat, pass
/// or yield, or answer the offer of a burn.
fn to_act(g: &Game, lang: Lang) -> String {
    match (g.phase(), lang) {
        (Phase::Lead(s), Lang::Zh) => format!(
            "轮到 {} 发牌{}",
            gw::seat(*s),
            if g.joker_required(*s) {
                "（烧牌成立：须带王）"
            } else {
                ""
            }
        ),
        (Phase::Lead(s), Lang::En) => format!(
            "{} to lead{}",
            gw::seat(*s),
            if g.joker_required(*s) {
                " (a standing burn: with a joker)"
            } else {
                ""
            }
        ),
        (Phase::Respond(s), Lang::Zh) => format!(
            "轮到 {}：{}过{}",
            gw::seat(*s),
            if g.may_beat(*s) { "管牌或" } else { "" },
            if g.may_yield(*s) { "或让" } else { "" }
        ),
        (Phase::Respond(s), Lang::En) => format!(
            "{} to {}pass{}",
            gw::seat(*s),
            if g.may_beat(*s) { "beat or " } else { "" },
            if g.may_yield(*s) { " or yield" } else { "" }
        ),
        (Phase::Offer { seat, queue }, Lang::Zh) => format!(
            "问 {} 是否烧牌（之后依次问 {}）",
            gw::seat(*seat),
            queue.iter().map(|s| s.name()).collect::<Vec<_>>().join(" ")
        ),
        (Phase::Offer { seat, queue }, Lang::En) => format!(
            "{} is offered the burn (then {})",
            gw::seat(*seat),
            queue.iter().map(|s| s.name()).collect::<Vec<_>>().join(" ")
        ),
        (Phase::Over, _) => lang.pick("本局已结束", "The game is over").into(),
    }
}

/// The set on top: whose, a gouji set or not, a burn not yet settled.
fn top(top: &TopView, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "桌面：{} 的 {}{}{}",
            gw::seat(top.owner),
            words::cards(&top.cards),
            if top.gouji { " 【级牌】" } else { "" },
            if top.burn { "（烧牌未定）" } else { "" }
        ),
        Lang::En => format!(
            "On top: {}'s {}{}{}",
            gw::seat(top.owner),
            words::cards(&top.cards),
            if top.gouji { " [gouji]" } else { "" },
            if top.burn {
                " (a burn, not yet settled)"
            } else {
                ""
            }
        ),
    }
}

/// A player's line: the seat, the count of cards, what stands of it (out, its place, 无头,
/// 开点, 点, burning, passed, yielded), the hand.
fn player(p: &PlayerView, hand: &[Card], lang: Lang) -> String {
    let mut flags: Vec<&str> = Vec::new();
    match p.status {
        Status::Out => flags.push(lang.pick("已出完", "out")),
        Status::Failed => flags.push(lang.pick("烧牌失误", "failed burn")),
        Status::Playing => {}
    }
    if let Some(pl) = p.place {
        flags.push(gw::place(pl, lang));
    }
    if !p.has_head {
        flags.push(lang.pick("无头", "headless"));
    }
    if p.opened {
        flags.push(lang.pick("开点", "opened"));
    }
    if p.marked {
        flags.push(lang.pick("点", "marked"));
    }
    if p.burning {
        flags.push(lang.pick("烧牌中", "burning"));
    }
    if p.passed {
        flags.push(lang.pick("本轮已过", "passed"));
    }
    if p.yielded {
        flags.push(lang.pick("让了", "yielded"));
    }
    format!(
        "  {:<3}({:>2}) [{}] {}",
        gw::seat(p.seat),
        hand.len(),
        flags.join(" "),
        gw::hand(hand)
    )
}
