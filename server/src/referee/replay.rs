//! `paiju replay <table id> [--db FILE] [--at N] [--lang zh|en] [--json] [--head HASH]`: a
//! stored table as it happened, every hand shown.
//!
//! The log's chain is verified, the board re-dealt from the header and every entry re-applied
//! through the engine with its actor; the game is then told in Chinese (or English): 80分
//! trick by trick with each trick's winner and points, 够级 set by set with passes, 让, burns,
//! places, 开点/点 and the score; clocks and referee rulings (with their reasons) where they
//! happened; the result. `--at N`: the full state (every hand) after action N instead.
//! `--json`: the same for machines. `--head`: the `head_hash` published with the result, which
//! the log's last hash must still be.
//!
//! A record that does not hold is told exactly where and why (see [`super::replayed::Fault`])
//! and the command fails.

use rules::{Engine, Viewer};
use serde_json::{json, Map, Value};

use super::lang::Lang;
use super::replayed::{Checked, Replayed, Run};
use super::words::{self, gouji as gw, shengji as sw};
use crate::store::{LogEntry, SeatRecord, StoredTable};

/// What to print.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub lang: Lang,
    pub json: bool,
    /// The state after this action (0: as dealt) instead of the whole game.
    pub at: Option<u64>,
}

/// The replay (or the state `--at`) of a checked table, as text or JSON.
pub fn report(checked: &Checked, opts: &Options) -> Result<String, String> {
    Ok(match (opts.at, opts.json) {
        (None, false) => text(checked, opts.lang),
        (None, true) => pretty(&json(checked)),
        (Some(n), false) => state_text(checked, n, opts.lang)?,
        (Some(n), true) => pretty(&state_json(checked, n)?),
    })
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// A seat's name as recorded: `老王`, `机器人`, `—` for an empty seat.
pub fn seat_name(seats: &[SeatRecord], i: usize, lang: Lang) -> String {
    match seats.iter().find(|s| s.seat == i) {
        Some(SeatRecord { name: Some(n), .. }) => n.clone(),
        Some(SeatRecord { bot: true, .. }) => lang.pick("机器人", "bot").into(),
        _ => "—".into(),
    }
}

/// The short form of a hash for a line of text.
fn short(h: &str) -> &str {
    &h[..h.len().min(16)]
}

// ---------------------------------------------------------------------------------------------
// The whole game as text
// ---------------------------------------------------------------------------------------------

/// The whole replay as text.
pub fn text(checked: &Checked, lang: Lang) -> String {
    let t = &checked.table;
    let h = &t.header;
    let mut lines: Vec<String> = Vec::new();
    let game_name = match h.game.as_str() {
        "shengji" => lang.pick("80分", "80分 (shengji)"),
        "gouji" => lang.pick("够级", "够级 (gouji)"),
        other => other,
    };
    let date = if h.created_ms == 0 {
        String::new()
    } else {
        format!(" · {}", words::date(h.created_ms))
    };
    lines.push(match lang {
        Lang::Zh => format!(
            "复盘：桌 {} · {game_name} · 规则 {} · 第 {} {}{date}",
            h.id,
            h.ruleset,
            h.board,
            if h.game == "gouji" { "局" } else { "副" },
        ),
        Lang::En => format!(
            "Replay of table {} · {game_name} · ruleset {} · {} {}{date}",
            h.id,
            h.ruleset,
            if h.game == "gouji" { "game" } else { "board" },
            h.board,
        ),
    });
    // A board file written by hand has no seed and no chain: its deal is as written.
    let seeded = !h.seed.is_empty();
    if seeded {
        lines.push(match lang {
            Lang::Zh => format!("发牌：{}，种子 {}", h.deal_algorithm, h.seed),
            Lang::En => format!("Deal: {}, seed {}", h.deal_algorithm, h.seed),
        });
        lines.push(match lang {
            Lang::Zh => format!("种子承诺：{}", h.seed_commitment),
            Lang::En => format!("Seed commitment: {}", h.seed_commitment),
        });
    } else {
        lines.push(
            lang.pick(
                "发牌：按牌谱所写（没有种子，无法重新发牌）",
                "Deal: as written in the board file (no seed to re-deal it from)",
            )
            .into(),
        );
    }
    let chain_ok = !matches!(
        checked.fault.as_ref().map(|f| f.kind),
        Some("seed" | "gap" | "hash")
    );
    let head = t.log.last().map(|e| short(&e.hash).to_string());
    lines.push(match (lang, chain_ok, seeded) {
        (Lang::Zh, _, false) => format!("日志：{} 条（来自牌谱，没有哈希链）", t.log.len()),
        (Lang::En, _, false) => format!(
            "Log: {} entries (from a board file, no hash chain)",
            t.log.len()
        ),
        (Lang::Zh, true, true) => format!(
            "日志：{} 条，哈希链完整{}",
            t.log.len(),
            head.map(|h| format!("，末哈希 {h}…")).unwrap_or_default()
        ),
        (Lang::En, true, true) => format!(
            "Log: {} entries, hash chain intact{}",
            t.log.len(),
            head.map(|h| format!(", last hash {h}…"))
                .unwrap_or_default()
        ),
        (Lang::Zh, false, true) => format!("日志：{} 条，哈希链不完整", t.log.len()),
        (Lang::En, false, true) => format!("Log: {} entries, hash chain BROKEN", t.log.len()),
    });
    for n in &checked.notes {
        lines.push(format!("{}{}", lang.pick("注意：", "Note: "), lang.of(n)));
    }
    match &checked.replayed {
        Some(Replayed::Shengji(run)) => shengji_text(t, run, lang, &mut lines),
        Some(Replayed::Gouji(run)) => gouji_text(t, run, lang, &mut lines),
        None => {}
    }
    lines.push(String::new());
    lines.push(match (&checked.fault, lang) {
        (None, Lang::Zh) if !seeded => format!(
            "核对：{} 条动作都按原执行者被引擎接受（按牌谱所写的发牌）；结果与牌谱相符。",
            t.log.len()
        ),
        (None, Lang::En) if !seeded => format!(
            "Check: all {} actions are accepted by the engine, each from its recorded actor (on the deal as written); the result is the file's.",
            t.log.len()
        ),
        (None, Lang::Zh) => format!(
            "核对：哈希链完整；{} 条动作都按原执行者被引擎重新接受；复盘与记录的桌状态（{}）相符。",
            t.log.len(),
            state_zh(t)
        ),
        (None, Lang::En) => format!(
            "Check: the hash chain is intact; all {} actions are accepted again by the engine, each from its recorded actor; the replay agrees with the recorded table state ({}).",
            t.log.len(),
            state_en(t)
        ),
        (Some(f), Lang::Zh) => format!("核对失败：{}", f.words.zh),
        (Some(f), Lang::En) => format!("CHECK FAILED: {}", f.words.en),
    });
    lines.join("\n") + "\n"
}

fn state_zh(t: &StoredTable) -> &'static str {
    match t.state {
        protocol::TableState::Waiting => "等人",
        protocol::TableState::Playing => "进行中",
        protocol::TableState::Over => "已结束",
        protocol::TableState::Closed => "已关闭",
    }
}

fn state_en(t: &StoredTable) -> &'static str {
    match t.state {
        protocol::TableState::Waiting => "waiting",
        protocol::TableState::Playing => "playing",
        protocol::TableState::Over => "over",
        protocol::TableState::Closed => "closed",
    }
}

/// The first line of a step: `#12 03:41 北 领出 SA SK 〔机器人〕`.
fn step_line(e: &LogEntry, start_ms: u64, first: &str, lang: Lang) -> String {
    let tag = words::actor_tag(e, lang);
    format!(
        "  #{:<4}{} {first}{}{tag}",
        e.seq,
        words::elapsed(start_ms, e.time_ms),
        if tag.is_empty() { "" } else { " " }
    )
}

fn push_step(lines: &mut Vec<String>, e: &LogEntry, start_ms: u64, told: Vec<String>, lang: Lang) {
    let mut told = told.into_iter();
    let first = told.next().unwrap_or_default();
    lines.push(step_line(e, start_ms, &first, lang));
    for more in told {
        lines.push(format!("             {more}"));
    }
}

fn shengji_text(
    t: &StoredTable,
    run: &Run<rules::shengji::Board>,
    lang: Lang,
    lines: &mut Vec<String>,
) {
    use rules::shengji::{Event, Seat};
    let b = &run.dealt;
    let order = b.order();
    let fixed = crate::table::DealFixed::from_json(&t.header.fixed).unwrap_or_default();
    let how = |fixed: bool| {
        if fixed {
            lang.pick("裁判长定", "fixed by the director")
        } else {
            lang.pick("由种子抽出", "drawn from the seed")
        }
    };
    lines.push(match lang {
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
    });
    let seats: Vec<String> = Seat::ALL
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                sw::seat(*s, lang),
                seat_name(&t.seats, s.index(), lang)
            )
        })
        .collect();
    lines.push(format!(
        "{}{}",
        lang.pick("座位：", "Seats: "),
        seats.join(" · ")
    ));
    lines.push(String::new());
    lines.push(
        lang.pick(
            "发牌（每家 25 张，底牌 8 张归庄家；按本副牌序，主牌在前）：",
            "The deal (25 cards each, the 8-card kitty to the declarer; in this board's order, trumps first):",
        )
        .into(),
    );
    // The hands as dealt, and the kitty apart, re-dealt from the seed; a board without one
    // (a board file written by hand) shows the declarer's 33 cards.
    let redealt = rules::deal::Seed::from_hex(&t.header.seed)
        .ok()
        .zip(fixed.shengji().ok())
        .map(|(seed, f)| rules::deal::deal_shengji(&seed, t.header.board, f));
    match redealt {
        Some(d) => {
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
        None => {
            let deal = run.dealt.view(Viewer::Referee);
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
    let mut current: Option<u8> = None;
    let start = t.header.created_ms;
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
    lines.push(String::new());
    let end = &run.end;
    let result = match (end.result(), lang) {
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
    };
    lines.push(result);
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

fn gouji_text(t: &StoredTable, run: &Run<rules::gouji::Game>, lang: Lang, lines: &mut Vec<String>) {
    use rules::gouji::{Event, Seat};
    let seats: Vec<String> = Seat::ALL
        .iter()
        .map(|s| format!("{} {}", gw::seat(*s), seat_name(&t.seats, s.index(), lang)))
        .collect();
    lines.push(format!(
        "{}{}",
        lang.pick("座位：", "Seats: "),
        seats.join(" · ")
    ));
    lines.push(
        lang.pick(
            "A 队 A1 A2 A3，B 队 B1 B2 B3；对头 A1–B2、B1–A3、A2–B3；A1 先发牌",
            "Team A: A1 A2 A3, team B: B1 B2 B3; opposites (对头) A1–B2, B1–A3, A2–B3; A1 leads first",
        )
        .into(),
    );
    lines.push(String::new());
    lines.push(
        lang.pick("发牌（由大到小）：", "The deal (highest first):")
            .into(),
    );
    for s in Seat::ALL {
        lines.push(format!(
            "  {:<3}{}",
            gw::seat(s),
            gw::hand(&run.dealt.hand(s).cards())
        ));
    }
    let start = t.header.created_ms;
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
    lines.push(String::new());
    let end = &run.end;
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
    lines.push(match lang {
        Lang::Zh => format!("开点：{}；点：{}", list(&opened), list(&marked)),
        Lang::En => format!(
            "Opened (开点): {}; marked (点): {}",
            list(&opened),
            list(&marked)
        ),
    });
    let [a, b] = end.deducted();
    if a + b > 0 {
        lines.push(match lang {
            Lang::Zh => format!("裁判扣分：A 队 {a}，B 队 {b}（已计入结果）"),
            Lang::En => format!("Referee deductions: team A {a}, team B {b} (in the result)"),
        });
    }
}

// ---------------------------------------------------------------------------------------------
// The whole game as JSON
// ---------------------------------------------------------------------------------------------

fn seat_label(game: &str, i: usize) -> String {
    match game {
        "gouji" => rules::gouji::Seat::from_index(i).name().to_string(),
        _ => rules::shengji::Seat::from_index(i).letter().to_string(),
    }
}

/// An entry as JSON (its action parsed back; the text kept if it does not parse).
pub fn entry_json(game: &str, e: &LogEntry) -> Value {
    json!({
        "seq": e.seq,
        "seat": seat_label(game, e.seat),
        "seat_index": e.seat,
        "actor": e.actor.name(),
        "client_id": e.client_id,
        "occupant": e.occupant,
        "reason": e.reason,
        "time_ms": e.time_ms,
        "time": words::iso_time(e.time_ms),
        "action": serde_json::from_str::<Value>(&e.action).unwrap_or_else(|_| Value::String(e.action.clone())),
        "hash": e.hash,
    })
}

fn steps_json<G: Engine>(game: &str, run: &Run<G>) -> Vec<Value> {
    run.steps
        .iter()
        .map(|s| {
            let mut v = entry_json(game, &s.entry);
            v["events"] = serde_json::to_value(&s.events).unwrap_or(Value::Null);
            v
        })
        .collect()
}

/// The result of a replayed game as JSON.
pub fn result_json(replayed: &Replayed) -> Value {
    match replayed {
        Replayed::Shengji(run) => {
            let b = &run.end;
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
        Replayed::Gouji(run) => {
            let g = &run.end;
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
    }
}

/// The dealt hands as JSON.
fn deal_json(replayed: &Replayed) -> Value {
    match replayed {
        Replayed::Shengji(run) => {
            let v = run.dealt.view(Viewer::Referee);
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
        Replayed::Gouji(run) => {
            let hands: Map<String, Value> = rules::gouji::Seat::ALL
                .iter()
                .map(|s| (s.name().to_string(), json!(run.dealt.hand(*s).cards())))
                .collect();
            json!({ "hands": hands })
        }
    }
}

/// The whole replay as JSON.
pub fn json(checked: &Checked) -> Value {
    let t = &checked.table;
    let h = &t.header;
    let seats: Vec<Value> = t
        .seats
        .iter()
        .map(|s| {
            json!({
                "seat": seat_label(&h.game, s.seat),
                "seat_index": s.seat,
                "name": s.name,
                "bot": s.bot,
            })
        })
        .collect();
    let (steps, result, deal) = match &checked.replayed {
        Some(r @ Replayed::Shengji(run)) => {
            (steps_json(&h.game, run), result_json(r), deal_json(r))
        }
        Some(r @ Replayed::Gouji(run)) => (steps_json(&h.game, run), result_json(r), deal_json(r)),
        None => (Vec::new(), Value::Null, Value::Null),
    };
    json!({
        "table": h.id,
        "game": h.game,
        "ruleset": h.ruleset,
        "options": serde_json::from_str::<Value>(&h.options).unwrap_or(Value::String(h.options.clone())),
        "board": h.board,
        "algorithm": h.deal_algorithm,
        "seed": h.seed,
        "commitment": h.seed_commitment,
        "fixed": serde_json::from_str::<Value>(&h.fixed).unwrap_or(Value::String(h.fixed.clone())),
        "created_ms": h.created_ms,
        "state": state_en(t),
        "seats": seats,
        "deal": deal,
        "entries": t.log.len(),
        "head": t.log.last().map(|e| e.hash.clone()),
        "steps": steps,
        "result": result,
        "ok": checked.ok(),
        "fault": checked.fault,
        "notes": checked.notes,
    })
}

// ---------------------------------------------------------------------------------------------
// The state after action N
// ---------------------------------------------------------------------------------------------

fn at_step(checked: &Checked, n: u64) -> Result<usize, String> {
    let replayed = checked.replayed.as_ref().ok_or_else(|| {
        checked
            .fault
            .as_ref()
            .map(|f| f.words.en.clone())
            .unwrap_or_else(|| "nothing replayed".into())
    })?;
    if n as usize > replayed.len() {
        return Err(format!(
            "--at {n}: the log replays {} actions{}",
            replayed.len(),
            if checked.fault.is_some() {
                " (up to its fault)"
            } else {
                ""
            }
        ));
    }
    Ok(n as usize)
}

/// The full state after action `n` (every hand) as JSON: the referee's view of the engine.
pub fn state_json(checked: &Checked, n: u64) -> Result<Value, String> {
    let k = at_step(checked, n)?;
    let h = &checked.table.header;
    let (view, entry) = match checked.replayed.as_ref().expect("checked by at_step") {
        Replayed::Shengji(run) => (
            serde_json::to_value(run.after(k).view(Viewer::Referee)),
            k.checked_sub(1).map(|i| &run.steps[i].entry),
        ),
        Replayed::Gouji(run) => (
            serde_json::to_value(run.after(k).view(Viewer::Referee)),
            k.checked_sub(1).map(|i| &run.steps[i].entry),
        ),
    };
    Ok(json!({
        "table": h.id,
        "game": h.game,
        "at": n,
        "entry": entry.map(|e| entry_json(&h.game, e)),
        "view": view.map_err(|e| e.to_string())?,
    }))
}

/// The full state after action `n` as text.
pub fn state_text(checked: &Checked, n: u64, lang: Lang) -> Result<String, String> {
    let k = at_step(checked, n)?;
    let h = &checked.table.header;
    let mut lines = Vec::new();
    match checked.replayed.as_ref().expect("checked by at_step") {
        Replayed::Shengji(run) => {
            let b = run.after(k);
            let after = k.checked_sub(1).map(|i| {
                let s = &run.steps[i];
                format!(
                    "#{} {} {}",
                    s.entry.seq,
                    sw::seat(rules::shengji::Seat::from_index(s.entry.seat), lang),
                    sw::action(&s.action, lang)
                )
            });
            lines.push(heading(h, n, after, lang));
            shengji_state(&b, lang, &mut lines);
        }
        Replayed::Gouji(run) => {
            let g = run.after(k);
            let after = k.checked_sub(1).map(|i| {
                let s = &run.steps[i];
                format!(
                    "#{} {} {}",
                    s.entry.seq,
                    gw::seat(rules::gouji::Seat::from_index(s.entry.seat)),
                    gw::action(&s.action, lang)
                )
            });
            lines.push(heading(h, n, after, lang));
            gouji_state(&g, lang, &mut lines);
        }
    }
    Ok(lines.join("\n") + "\n")
}

fn heading(h: &crate::store::TableHeader, n: u64, after: Option<String>, lang: Lang) -> String {
    let unit = match (h.game.as_str(), lang) {
        ("gouji", Lang::Zh) => "局",
        (_, Lang::Zh) => "副",
        ("gouji", Lang::En) => "game",
        (_, Lang::En) => "board",
    };
    match (after, lang) {
        (Some(a), Lang::Zh) => format!(
            "桌 {} · 第 {} {unit} · 第 {n} 条动作之后（{a}）",
            h.id, h.board
        ),
        (Some(a), Lang::En) => format!(
            "Table {} · {unit} {} · after action {n} ({a})",
            h.id, h.board
        ),
        (None, Lang::Zh) => format!("桌 {} · 第 {} {unit} · 发牌后，尚无动作", h.id, h.board),
        (None, Lang::En) => format!(
            "Table {} · {unit} {} · as dealt, before any action",
            h.id, h.board
        ),
    }
}

fn shengji_state(b: &rules::shengji::Board, lang: Lang, lines: &mut Vec<String>) {
    use rules::shengji::{Phase, Seat};
    let v = b.view(Viewer::Referee);
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

fn gouji_state(g: &rules::gouji::Game, lang: Lang, lines: &mut Vec<String>) {
    use rules::gouji::{Phase, Status};
    let v = g.view(Viewer::Referee);
    lines.push(match (g.phase(), lang) {
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
    });
    if v.warned {
        lines.push(
            lang.pick(
                "（该座位已被计时器警告，只剩宽限时间）",
                "(the seat to act has been warned by the clock)",
            )
            .into(),
        );
    }
    if let Some(top) = &v.top {
        lines.push(match lang {
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
        });
    }
    if v.free_play {
        lines.push(lang.pick("四户乱缠", "Free play (四户乱缠)").into());
    }
    lines.push(lang.pick("各家：", "Players:").into());
    for p in &v.players {
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
        let hand = p.hand.as_deref().unwrap_or(&[]);
        lines.push(format!(
            "  {:<3}({:>2}) [{}] {}",
            gw::seat(p.seat),
            hand.len(),
            flags.join(" "),
            gw::hand(hand)
        ));
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
