//! 80分 in `paiju replay`: the declarer, level and trump, the four hands and the kitty as
//! dealt, the play trick by trick, the result with its penalties and timeouts; a position with
//! every hand.

use rules::cards::Card;
use rules::deal::ShengjiDeal;
use rules::shengji::{Board, Event, Phase, Seat, View};
use rules::Viewer;
use serde_json::{json, Map, Value};

use super::{push_step, seats_line, ReplayGame};
use crate::referee::lang::Lang;
use crate::referee::replayed::Run;
use crate::referee::words::{self, shengji as sw};
use crate::store::{StoredTable, TableHeader};
use crate::table::DealFixed;

/// The board as its seed dealt it, the kitty apart (the engine holds it in the declarer's
/// hand until the bury).
fn redeal(h: &TableHeader) -> Result<ShengjiDeal, String> {
    let seed = rules::deal::Seed::from_hex(&h.seed).map_err(|e| e.0)?;
    let fixed = DealFixed::from_json(&h.fixed)?
        .shengji()
        .map_err(|r| r.words().en)?;
    Ok(rules::deal::deal_shengji(&seed, h.board, fixed))
}

impl ReplayGame for Board {
    fn tell(t: &StoredTable, run: &Run<Board>, lang: Lang, lines: &mut Vec<String>) {
        lines.push(declarer(&t.header, &run.dealt, lang));
        lines.push(seats_line::<Board>(t, lang));
        lines.push(String::new());
        deal(&t.header, &run.dealt, lang, lines);
        play(run, t.header.created_ms, lang, lines);
        lines.push(String::new());
        lines.push(result(&run.end, lang));
        penalties(run, lang, lines);
        timeouts(&run.end, lang, lines);
    }

    fn tell_state(b: &Board, lang: Lang, lines: &mut Vec<String>) {
        let v = b.view(Viewer::Referee);
        position(b, &v, lang, lines);
        trick(&v, lang, lines);
        hands(b, &v, lang, lines);
    }

    fn deal_json(dealt: &Board) -> Value {
        let v = dealt.view(Viewer::Referee);
        let hands: Map<String, Value> = rules::shengji::Seat::ALL
            .iter()
            .map(|s| {
                (
                    s.letter().to_string(),
                    json!(v.hands.as_ref().map(|h| h[s.index()].clone())),
                )
            })
            .collect();
        json!({
            "declarer": v.declarer,
            "level": v.level.symbol(),
            "trump": v.trump.map(|s| s.letter().to_string()).unwrap_or_else(|| "NT".into()),
            "hands": hands,
        })
    }

    fn result_json(end: &Board) -> Value {
        let b = end;
        let timeouts: Map<String, Value> = rules::shengji::Seat::ALL
            .iter()
            .map(|s| (s.letter().to_string(), json!(b.timeouts(*s))))
            .collect();
        json!({
            "over": b.is_over(),
            "final": b.is_final(),
            "defenders": b.defenders_points(),
            "result": b.result(),
            "defender_tricks": b.defender_tricks(),
            "by_ruling": b.ended_by_ruling(),
            "tricks": b.tricks(),
            "timeouts": timeouts,
        })
    }

    fn deal_hands(
        h: &TableHeader,
        _dealt: &Board,
    ) -> Result<Vec<(&'static str, Vec<Card>)>, String> {
        let d = redeal(h)?;
        let mut hands: Vec<(&'static str, Vec<Card>)> = rules::shengji::Seat::ALL
            .iter()
            .map(|s| (s.letter(), d.hands[s.index()].clone()))
            .collect();
        hands.push(("K", d.kitty));
        Ok(hands)
    }

    fn hand_text(dealt: &Board, cards: &[Card]) -> String {
        sw::hand(dealt.order(), cards)
    }
}

/// `庄家 南 · 打 7（裁判长定）· 主 红桃（由种子抽出）`: the declarer, the level and the trump,
/// and whether the director fixed them or the seed drew them.
fn declarer(h: &TableHeader, b: &Board, lang: Lang) -> String {
    let order = b.order();
    let fixed = DealFixed::from_json(&h.fixed).unwrap_or_default();
    let how = |fixed: bool| {
        if fixed {
            lang.pick("裁判长定", "fixed by the director")
        } else {
            lang.pick("由种子抽出", "drawn from the seed")
        }
    };
    match lang {
        Lang::Zh => format!(
            "庄家 {} · 打 {}（{}）· 主 {}（{}）",
            sw::seat(b.declarer(), lang),
            order.level(),
            how(fixed.level.is_some()),
            sw::trump(order.trump_suit(), lang),
            how(fixed.trump.is_some())
        ),
        Lang::En => format!(
            "Declarer {} · level {} ({}) · trump {} ({})",
            sw::seat(b.declarer(), lang),
            order.level(),
            how(fixed.level.is_some()),
            sw::trump(order.trump_suit(), lang),
            how(fixed.trump.is_some())
        ),
    }
}

/// The four hands as dealt, and the kitty apart, re-dealt from the seed; a board without one
/// (a board file written by hand) shows the declarer's 33 cards.
fn deal(h: &TableHeader, dealt: &Board, lang: Lang, lines: &mut Vec<String>) {
    let order = dealt.order();
    lines.push(
        lang.pick(
            "发牌（每家 25 张，底牌 8 张归庄家；按本副牌序，主牌在前）：",
            "The deal (25 cards each, the 8-card kitty to the declarer; in this board's order, trumps first):",
        )
        .into(),
    );
    match redeal(h) {
        Ok(d) => {
            for s in Seat::ALL {
                lines.push(format!(
                    "  {:<3}{}",
                    sw::seat(s, lang),
                    sw::hand(order, &d.hands[s.index()])
                ));
            }
            lines.push(format!(
                "  {}{}",
                lang.pick("底牌 ", "kitty "),
                sw::hand(order, &d.kitty)
            ));
        }
        Err(_) => {
            let deal = dealt.view(Viewer::Referee);
            for s in Seat::ALL {
                let hand = deal
                    .hands
                    .as_ref()
                    .map(|h| h[s.index()].clone())
                    .unwrap_or_default();
                lines.push(format!(
                    "  {:<3}{}",
                    sw::seat(s, lang),
                    sw::hand(order, &hand)
                ));
            }
        }
    }
}

/// The play step by step: the bury, then trick by trick, each trick headed by its number.
fn play(run: &Run<Board>, start: u64, lang: Lang, lines: &mut Vec<String>) {
    let mut current: Option<u8> = None;
    for step in &run.steps {
        let mut told = Vec::new();
        for ev in &step.events {
            let trick = match ev {
                Event::ThrowFailed(f) => Some(f.trick),
                Event::Played { trick, .. } => Some(*trick),
                _ => None,
            };
            if let Some(n) = trick.filter(|&n| current != Some(n)) {
                current = Some(n);
                if !told.is_empty() {
                    push_step(lines, &step.entry, start, std::mem::take(&mut told), lang);
                }
                lines.push(match lang {
                    Lang::Zh => format!("第 {n} 轮"),
                    Lang::En => format!("Trick {n}"),
                });
            }
            if let Event::Buried { .. } = ev {
                lines.push(lang.pick("扣底", "The bury").into());
            }
            told.push(sw::event(ev, lang));
        }
        if !told.is_empty() {
            push_step(lines, &step.entry, start, told, lang);
        }
    }
}

/// The result (and whether a ruling ended the board, whether the referee finalised it), or
/// where an unfinished board stands.
fn result(end: &Board, lang: Lang) -> String {
    match (end.result(), lang) {
        (Some(r), Lang::Zh) => format!(
            "结果：闲家 {r} 分，闲家赢 {} 轮{}{}",
            end.defender_tricks(),
            if end.ended_by_ruling() {
                "（本副由裁判判定结束）"
            } else {
                ""
            },
            if end.is_final() {
                "；成绩已由裁判确认"
            } else {
                "；成绩尚未由裁判确认"
            }
        ),
        (Some(r), Lang::En) => format!(
            "Result: defenders {r} points, {} tricks{}{}",
            end.defender_tricks(),
            if end.ended_by_ruling() {
                " (the board was ended by a ruling)"
            } else {
                ""
            },
            if end.is_final() {
                "; finalised by the referee"
            } else {
                "; not yet finalised by the referee"
            }
        ),
        (None, Lang::Zh) => format!(
            "牌局未结束：第 {} 轮，轮到 {}；闲家目前 {} 分",
            end.trick_number(),
            end.to_act().map(|s| sw::seat(s, lang)).unwrap_or("—"),
            end.defenders_points()
        ),
        (None, Lang::En) => format!(
            "Not over: trick {}, {} to act; defenders {} so far",
            end.trick_number(),
            end.to_act().map(|s| sw::seat(s, lang)).unwrap_or("—"),
            end.defenders_points()
        ),
    }
}

/// `罚分：#12 东 40（甩错牌）；…`, when there were any.
fn penalties(run: &Run<Board>, lang: Lang, lines: &mut Vec<String>) {
    let mut penalties = Vec::new();
    for step in &run.steps {
        for ev in &step.events {
            if let Event::Penalty {
                seat,
                reason,
                points,
                ..
            } = ev
            {
                penalties.push(format!(
                    "#{} {} {points}（{}）",
                    step.entry.seq,
                    sw::seat(*seat, lang),
                    sw::offence(*reason, lang)
                ));
            }
        }
    }
    if !penalties.is_empty() {
        lines.push(format!(
            "{}{}",
            lang.pick("罚分：", "Penalties: "),
            penalties.join(lang.pick("；", "; "))
        ));
    }
}

/// `超时次数：东 1、西 2`, when there were any.
fn timeouts(end: &Board, lang: Lang, lines: &mut Vec<String>) {
    let timeouts: Vec<String> = Seat::ALL
        .iter()
        .filter(|s| end.timeouts(**s) > 0)
        .map(|s| format!("{} {}", sw::seat(*s, lang), end.timeouts(*s)))
        .collect();
    if !timeouts.is_empty() {
        lines.push(format!(
            "{}{}",
            lang.pick("超时次数：", "Timeouts: "),
            timeouts.join(lang.pick("、", ", "))
        ));
    }
}

/// A position's phase, trick, leader and seat to act; the declarer, level, trump and the
/// defenders' points; every seat's timeouts.
fn position(b: &Board, v: &View, lang: Lang, lines: &mut Vec<String>) {
    let phase = lang.pick(v.phase.zh(), v.phase.en());
    let to_act = v
        .to_act
        .map(|s| sw::seat(s, lang))
        .unwrap_or(lang.pick("无", "nobody"));
    lines.push(match lang {
        Lang::Zh => format!(
            "阶段：{phase} · 第 {} 轮 · {} 领 · 轮到 {to_act}{}",
            v.trick,
            sw::seat(v.leader, lang),
            if v.grace {
                "（超时警告后的宽限时间）"
            } else {
                ""
            }
        ),
        Lang::En => format!(
            "Phase: {phase} · trick {} · {} leads · {to_act} to act{}",
            v.trick,
            sw::seat(v.leader, lang),
            if v.grace {
                " (in the grace period after a timeout warning)"
            } else {
                ""
            }
        ),
    });
    lines.push(match lang {
        Lang::Zh => format!(
            "庄家 {} · 打 {} · 主 {} · 闲家 {} 分（赢 {} 轮）",
            sw::seat(v.declarer, lang),
            v.level,
            sw::trump(v.trump, lang),
            v.defenders,
            b.defender_tricks()
        ),
        Lang::En => format!(
            "Declarer {} · level {} · trump {} · defenders {} points ({} tricks)",
            sw::seat(v.declarer, lang),
            v.level,
            sw::trump(v.trump, lang),
            v.defenders,
            b.defender_tricks()
        ),
    });
    let timeouts: Vec<String> = Seat::ALL
        .iter()
        .map(|s| format!("{} {}", sw::seat(*s, lang), v.timeouts[s.index()]))
        .collect();
    lines.push(format!(
        "{}{}",
        lang.pick("超时：", "Timeouts: "),
        timeouts.join(lang.pick("、", ", "))
    ));
}

/// The trick being played (and who is winning it), the last trick, and a choice awaited after
/// a failed throw.
fn trick(v: &View, lang: Lang, lines: &mut Vec<String>) {
    if !v.plays.is_empty() {
        let plays: Vec<String> = v
            .plays
            .iter()
            .map(|p| format!("{} {}", sw::seat(p.seat, lang), words::cards(&p.cards)))
            .collect();
        lines.push(format!(
            "{}{}{}",
            lang.pick("本轮：", "This trick: "),
            plays.join(lang.pick("；", "; ")),
            v.winning
                .map(|w| match lang {
                    Lang::Zh => format!("（目前 {} 最大）", sw::seat(w, lang)),
                    Lang::En => format!(" ({} winning so far)", sw::seat(w, lang)),
                })
                .unwrap_or_default()
        ));
    }
    if let Some(last) = &v.last_trick {
        let plays: Vec<String> = last
            .plays
            .iter()
            .map(|p| format!("{} {}", sw::seat(p.seat, lang), words::cards(&p.cards)))
            .collect();
        lines.push(match lang {
            Lang::Zh => format!(
                "上一轮（第 {} 轮）：{}；{} 赢，{} 分",
                last.trick,
                plays.join("；"),
                sw::seat(last.winner, lang),
                last.points
            ),
            Lang::En => format!(
                "Last trick ({}): {}; won by {}, {} points",
                last.trick,
                plays.join("; "),
                sw::seat(last.winner, lang),
                last.points
            ),
        });
    }
    if let Some(c) = &v.choice {
        lines.push(match lang {
            Lang::Zh => format!(
                "待 {} 指定：单张 {} 或对子 {}",
                sw::seat(c.chooser, lang),
                words::cards(&c.single),
                words::cards(&c.pair)
            ),
            Lang::En => format!(
                "{} to choose: the single {} or the pair {}",
                sw::seat(c.chooser, lang),
                words::cards(&c.single),
                words::cards(&c.pair)
            ),
        });
    }
}

/// Every hand, the kitty once buried, and the result once there is one.
fn hands(b: &Board, v: &View, lang: Lang, lines: &mut Vec<String>) {
    lines.push(lang.pick("手牌：", "Hands:").into());
    if let Some(hands) = &v.hands {
        for s in Seat::ALL {
            lines.push(format!(
                "  {:<3}({:>2}) {}",
                sw::seat(s, lang),
                hands[s.index()].len(),
                words::cards(&hands[s.index()])
            ));
        }
    }
    if v.phase != Phase::Bury {
        if let Some(k) = &v.kitty {
            lines.push(format!(
                "{}{}",
                lang.pick("底牌：", "Kitty: "),
                sw::hand(b.order(), k)
            ));
        }
    }
    if let Some(r) = v.result {
        lines.push(match lang {
            Lang::Zh => format!(
                "结果：闲家 {r} 分{}",
                if v.result_final {
                    "（已确认）"
                } else {
                    ""
                }
            ),
            Lang::En => format!(
                "Result: defenders {r}{}",
                if v.result_final { " (final)" } else { "" }
            ),
        });
    }
}
