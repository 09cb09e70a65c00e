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
//!
//! What every game shares is here; what a game tells of itself is its [`ReplayGame`]:
//! `shengji.rs` (80分) and `gouji.rs` (够级).

mod gouji;
mod shengji;

use rules::cards::Card;
use rules::Viewer;
use serde_json::{json, Value};

use super::lang::Lang;
use super::replayed::{Checked, Run};
use super::words::{self, GameWords};
use crate::store::{LogEntry, SeatRecord, StoredTable, TableHeader};
use crate::table::TableGame;

/// What `paiju replay` tells of a game beyond what every game shares.
pub trait ReplayGame: GameWords + TableGame + Clone {
    /// Everything the replay says of the game after the log's lines: what was dealt (the
    /// seats and their players, every hand), the play step by step, the result.
    fn tell(t: &StoredTable, run: &Run<Self>, lang: Lang, lines: &mut Vec<String>);
    /// The full state of a position (every hand) as text.
    fn tell_state(g: &Self, lang: Lang, lines: &mut Vec<String>);
    /// The hands as dealt, as JSON.
    fn deal_json(dealt: &Self) -> Value;
    /// The result, as JSON.
    fn result_json(end: &Self) -> Value;
    /// The hands of a seeded table as dealt, each by its label (`N`, `A1`; 80分's kitty `K`
    /// last): what the board format's `Deal` section holds.
    fn deal_hands(h: &TableHeader, dealt: &Self) -> Result<Vec<(&'static str, Vec<Card>)>, String>;
    /// A hand as the replay and the board format write it: in this deal's order.
    fn hand_text(dealt: &Self, cards: &[Card]) -> String;
}

/// What to print.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub lang: Lang,
    pub json: bool,
    /// The state after this action (0: as dealt) instead of the whole game.
    pub at: Option<u64>,
}

/// The replay (or the state `--at`) of a checked table, as text or JSON.
pub fn report<G: ReplayGame>(checked: &Checked<G>, opts: &Options) -> Result<String, String> {
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

/// A seat's player as the table named them: `老王`; a computer as the table calls it
/// (`电脑·东`, as the players saw it); `—` for an empty seat.
pub fn seat_name<G: TableGame>(seats: &[SeatRecord], i: usize) -> String {
    match seats.iter().find(|s| s.seat == i) {
        Some(SeatRecord { bot: true, .. }) => crate::table::bot_name::<G>(i),
        Some(SeatRecord { name: Some(n), .. }) => n.clone(),
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
pub fn text<G: ReplayGame>(checked: &Checked<G>, lang: Lang) -> String {
    let t = &checked.table;
    let h = &t.header;
    let mut lines: Vec<String> = Vec::new();
    let game_name = G::title(lang);
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
            G::deal_word(lang),
        ),
        Lang::En => format!(
            "Replay of table {} · {game_name} · ruleset {} · {} {}{date}",
            h.id,
            h.ruleset,
            G::deal_word(lang),
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
    lines.push(log_line(checked, seeded, lang));
    for n in &checked.notes {
        lines.push(format!("{}{}", lang.pick("注意：", "Note: "), lang.of(n)));
    }
    if let Some(run) = &checked.replayed {
        G::tell(t, run, lang, &mut lines);
    }
    lines.push(String::new());
    lines.push(check_line(checked, seeded, lang));
    lines.join("\n") + "\n"
}

/// `日志：52 条，哈希链完整，末哈希 …`: the log, and whether its chain holds (a board file
/// written by hand has none).
fn log_line<G: ReplayGame>(checked: &Checked<G>, seeded: bool, lang: Lang) -> String {
    let t = &checked.table;
    let chain_ok = !matches!(
        checked.fault.as_ref().map(|f| f.kind),
        Some("seed" | "gap" | "hash")
    );
    let head = t.log.last().map(|e| short(&e.hash).to_string());
    match (lang, chain_ok, seeded) {
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
    }
}

/// The verdict of the check: every action accepted again and the replay agreeing with the
/// record, or the fault.
fn check_line<G: ReplayGame>(checked: &Checked<G>, seeded: bool, lang: Lang) -> String {
    let t = &checked.table;
    match (&checked.fault, lang) {
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
    }
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

/// `座位：北 老王 · 东 电脑·东 · …`: every seat with its player.
fn seats_line<G: ReplayGame>(t: &StoredTable, lang: Lang) -> String {
    let seats: Vec<String> = (0..G::SEATS)
        .map(|i| {
            format!(
                "{} {}",
                words::seat::<G>(i, lang),
                seat_name::<G>(&t.seats, i)
            )
        })
        .collect();
    format!("{}{}", lang.pick("座位：", "Seats: "), seats.join(" · "))
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

// ---------------------------------------------------------------------------------------------
// The whole game as JSON
// ---------------------------------------------------------------------------------------------

/// An entry as JSON (its action parsed back; the text kept if it does not parse).
pub fn entry_json<G: GameWords>(e: &LogEntry) -> Value {
    json!({
        "seq": e.seq,
        "seat": words::label::<G>(e.seat),
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

fn steps_json<G: GameWords>(run: &Run<G>) -> Vec<Value> {
    run.steps
        .iter()
        .map(|s| {
            let mut v = entry_json::<G>(&s.entry);
            v["events"] = serde_json::to_value(&s.events).unwrap_or(Value::Null);
            v
        })
        .collect()
}

/// The whole replay as JSON.
pub fn json<G: ReplayGame>(checked: &Checked<G>) -> Value {
    let t = &checked.table;
    let h = &t.header;
    let seats: Vec<Value> = t
        .seats
        .iter()
        .map(|s| {
            json!({
                "seat": words::label::<G>(s.seat),
                "seat_index": s.seat,
                "name": s.name,
                "bot": s.bot,
            })
        })
        .collect();
    let (steps, result, deal) = match &checked.replayed {
        Some(run) => (
            steps_json(run),
            G::result_json(&run.end),
            G::deal_json(&run.dealt),
        ),
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

/// The run, and the number of its steps up to action `n`.
fn at_step<G: ReplayGame>(checked: &Checked<G>, n: u64) -> Result<(&Run<G>, usize), String> {
    let replayed = checked.replayed.as_ref().ok_or_else(|| {
        checked
            .fault
            .as_ref()
            .map(|f| f.words.en.clone())
            .unwrap_or_else(|| "nothing replayed".into())
    })?;
    if n as usize > replayed.steps.len() {
        return Err(format!(
            "--at {n}: the log replays {} actions{}",
            replayed.steps.len(),
            if checked.fault.is_some() {
                " (up to its fault)"
            } else {
                ""
            }
        ));
    }
    Ok((replayed, n as usize))
}

/// The full state after action `n` (every hand) as JSON: the referee's view of the engine.
pub fn state_json<G: ReplayGame>(checked: &Checked<G>, n: u64) -> Result<Value, String> {
    let (run, k) = at_step(checked, n)?;
    let h = &checked.table.header;
    let view = serde_json::to_value(run.after(k).view(Viewer::Referee));
    let entry = k.checked_sub(1).map(|i| &run.steps[i].entry);
    Ok(json!({
        "table": h.id,
        "game": h.game,
        "at": n,
        "entry": entry.map(entry_json::<G>),
        "view": view.map_err(|e| e.to_string())?,
    }))
}

/// The full state after action `n` as text.
pub fn state_text<G: ReplayGame>(
    checked: &Checked<G>,
    n: u64,
    lang: Lang,
) -> Result<String, String> {
    let (run, k) = at_step(checked, n)?;
    let after = k.checked_sub(1).map(|i| {
        let s = &run.steps[i];
        format!(
            "#{} {} {}",
            s.entry.seq,
            words::seat::<G>(s.entry.seat, lang),
            G::action_words(&s.action, lang)
        )
    });
    let mut lines = vec![heading::<G>(&checked.table.header, n, after, lang)];
    G::tell_state(&run.after(k), lang, &mut lines);
    Ok(lines.join("\n") + "\n")
}

fn heading<G: GameWords>(h: &TableHeader, n: u64, after: Option<String>, lang: Lang) -> String {
    let unit = G::deal_word(lang);
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
