//! 升级双人赛随牌记录卡 (the record card of an 80分 board): `paiju record-card <table id>…
//! [--db FILE] [--paper a5|a4] [--event NAME] [--lang zh|en] > card.html`.
//!
//! At a meet 南北 fill in the card after each board and 东西 check it (南北选手需完整填写…经东西
//! 选手核对无误后折好放入牌套内). Here it is written from the log instead: the board, 定庄、定级、
//! 定主, the four players, every trick (the lead marked, each seat's cards, the winner, the
//! points and the defenders' running total), failed throws, penalties and timeouts with their
//! reasons, the kitty and 抠底, the result, and lines to sign. One card a page, for A5 (or A4)
//! paper; the footer carries the log's last hash, so a card can be checked against its log.

use std::fmt::Write as _;

use rules::cards::{Card, Suit};
use rules::shengji::{Board, Event, Order, Seat};

use super::lang::Lang;
use super::replay::seat_name;
use super::replayed::{Checked, Run};
use super::words::{self, shengji as sw};
use crate::store::StoredTable;

/// How to print.
#[derive(Clone, Debug)]
pub struct CardOptions {
    pub lang: Lang,
    /// `a5` (the default) or `a4`.
    pub paper: String,
    pub event: Option<String>,
}

impl Default for CardOptions {
    fn default() -> Self {
        CardOptions {
            lang: Lang::Zh,
            paper: "a5".into(),
            event: None,
        }
    }
}

/// HTML-escapes text.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One card as printed: `♠A`, red `♥10`, `大王`; the card's notation in `data-card` (and in
/// the title) so a reader or a test can read it back.
fn card(c: Card, lang: Lang) -> String {
    let (face, red) = match (c.suit(), c.rank()) {
        (Some(s), Some(r)) => {
            let sym = match s {
                Suit::Spades => '♠',
                Suit::Hearts => '♥',
                Suit::Diamonds => '♦',
                Suit::Clubs => '♣',
            };
            (
                format!("{sym}{}", r.symbol()),
                matches!(s, Suit::Hearts | Suit::Diamonds),
            )
        }
        _ if c == Card::RJ => (lang.pick("大王", "RJ").to_string(), true),
        _ => (lang.pick("小王", "BJ").to_string(), false),
    };
    format!(
        "<span class=\"c{}\" data-card=\"{c}\" title=\"{c}\">{face}</span>",
        if red { " r" } else { "" }
    )
}

fn cards(cs: &[Card], lang: Lang) -> String {
    if cs.is_empty() {
        return "—".into();
    }
    cs.iter()
        .map(|&c| card(c, lang))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The card's style; sizes in `em` of the page's base size (smaller on A5, so 25 tricks and
/// the rest fit one page).
const STYLE: &str = r#"
* { box-sizing: border-box; }
body { font-family: "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif; color: #000; margin: 0; line-height: 1.1; }
.card { border: 1.2pt solid #000; padding: 0.6em; page-break-after: always; break-after: page; page-break-inside: avoid; }
.card:last-child { page-break-after: auto; break-after: auto; }
h1 { font-size: 1.5em; text-align: center; margin: 0 0 0.3em; letter-spacing: 0.15em; }
table { border-collapse: collapse; width: 100%; margin-bottom: 0.4em; }
th, td { border: 0.5pt solid #000; padding: 0.04em 0.3em; vertical-align: middle; }
th { background: #eee; font-weight: 600; white-space: nowrap; }
.head td, .head th { font-size: 1.05em; }
.tricks td.n, .tricks td.p { text-align: right; white-space: nowrap; }
.tricks td.w { text-align: center; white-space: nowrap; }
.lead { font-weight: 700; text-decoration: underline; }
.legend { font-size: 0.8em; margin: 0 0 0.4em; }
.c { white-space: nowrap; }
.r { color: #c00; }
.result { font-size: 1.3em; font-weight: 700; }
.sign td { height: 2.2em; }
footer { font-size: 0.7em; color: #444; word-break: break-all; }
@media screen { body { max-width: 170mm; margin: 8mm auto; } .card { margin-bottom: 8mm; } }
"#;

/// Which trick a penalty belongs to: the bury, a trick, or after play ended (a late ruling).
fn trick_label(trick: u8, over: bool, lang: Lang) -> String {
    if over {
        lang.pick("局后", "after play").into()
    } else if trick == 0 {
        lang.pick("扣底", "bury").into()
    } else {
        trick.to_string()
    }
}

/// The page: one card per table.
pub fn page(tables: &[Checked<Board>], opts: &CardOptions) -> Result<String, String> {
    let cards = tables
        .iter()
        .map(|t| one(t, opts))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(page_of(&cards, opts))
}

/// The page of cards already written ([`one`]).
pub fn page_of(cards: &[String], opts: &CardOptions) -> String {
    let lang = opts.lang;
    let mut html = String::new();
    let title = lang.pick("升级双人赛随牌记录卡", "Shengji pairs record card");
    let (paper, base) = if opts.paper == "a4" {
        ("A4", "10.5pt")
    } else {
        ("A5", "7.4pt")
    };
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>@page {{ size: {paper} portrait; margin: 6mm; }}\nhtml {{ font-size: {base}; }}{STYLE}</style>\n</head>\n<body>\n",
        lang.pick("zh-CN", "en")
    );
    for card in cards {
        html.push_str(card);
    }
    html.push_str("</body>\n</html>\n");
    html
}

/// One card.
pub fn one(checked: &Checked<Board>, opts: &CardOptions) -> Result<String, String> {
    let lang = opts.lang;
    let run = checked
        .replayed
        .as_ref()
        .ok_or_else(|| format!("table {}: nothing replayed", checked.table.header.id))?;
    let t = &checked.table;
    let h = &t.header;
    let b: &Board = &run.end;
    let order = run.dealt.order();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<section class=\"card\" data-table=\"{}\" data-board=\"{}\">",
        esc(&h.id),
        h.board
    );
    let _ = writeln!(
        s,
        "<h1>{}</h1>",
        lang.pick("升级双人赛随牌记录卡", "Shengji pairs record card")
    );
    head(&mut s, t, &run.dealt, opts);
    let notes = Notes::of(run, lang);
    tricks(&mut s, b, order, &notes, lang);
    kitty(&mut s, b, order, notes.kitty_capture, lang);
    penalties(&mut s, &notes.penalties, lang);
    result(&mut s, b, lang);
    signatures(&mut s, t, lang);
    Ok(s)
}

/// The head of the card: the event, the date, the table, the board, the rules; 定庄、定级、定主
/// (marked when the director fixed them); the four players.
fn head(s: &mut String, t: &StoredTable, dealt: &Board, opts: &CardOptions) {
    let lang = opts.lang;
    let h = &t.header;
    let order = dealt.order();
    let name = |seat: Seat| esc(&seat_name::<Board>(&t.seats, seat.index()));
    let fixed = crate::table::DealFixed::from_json(&h.fixed).unwrap_or_default();
    let fixed_mark = |yes: bool| {
        if yes {
            lang.pick("（定）", " (fixed)")
        } else {
            ""
        }
    };
    let _ = writeln!(
        s,
        "<table class=\"head\">\n<tr><th>{}</th><td colspan=\"3\">{}</td><th>{}</th><td>{}</td></tr>\n<tr><th>{}</th><td>{}</td><th>{}</th><td class=\"board\">{}</td><th>{}</th><td>{}</td></tr>\n<tr><th>{}</th><td>{}</td><th>{}</th><td>{}{}</td><th>{}</th><td>{}{}</td></tr>\n<tr><th>{}</th><td>{} {} · {} {}</td><th colspan=\"2\">{}</th><td colspan=\"2\">{} {} · {} {}</td></tr>\n</table>",
        lang.pick("赛事", "Event"),
        esc(opts.event.as_deref().unwrap_or("")),
        lang.pick("日期", "Date"),
        words::date(h.created_ms),
        lang.pick("桌号", "Table"),
        esc(&h.id),
        lang.pick("副数", "Board"),
        h.board,
        lang.pick("规则", "Rules"),
        esc(&h.ruleset),
        lang.pick("庄家", "Declarer"),
        sw::seat(dealt.declarer(), lang),
        lang.pick("级", "Level"),
        order.level(),
        fixed_mark(fixed.level.is_some()),
        lang.pick("主", "Trump"),
        sw::trump(order.trump_suit(), lang),
        fixed_mark(fixed.trump.is_some()),
        lang.pick("南北", "N–S"),
        sw::seat(Seat::N, lang),
        name(Seat::N),
        sw::seat(Seat::S, lang),
        name(Seat::S),
        lang.pick("东西", "E–W"),
        sw::seat(Seat::E, lang),
        name(Seat::E),
        sw::seat(Seat::W, lang),
        name(Seat::W),
    );
}

/// What the card writes beside the tricks, gathered from the events: the defenders' running
/// total, the failed throws, the penalties and timeouts, the kitty capture.
struct Notes {
    /// Each trick won: its number, the defenders' total after it, whether its points went to
    /// them.
    running: Vec<(u8, i32, bool)>,
    /// Tricks whose lead was a failed throw.
    failed_throws: Vec<u8>,
    /// A row of the penalties' table for each warning and penalty.
    penalties: Vec<String>,
    /// `南 抠底：20 分 × 4 = 80 分`; empty when nobody captured the kitty.
    kitty_capture: String,
}

impl Notes {
    fn of(run: &Run<Board>, lang: Lang) -> Notes {
        let mut notes = Notes {
            running: Vec::new(),
            failed_throws: Vec::new(),
            penalties: Vec::new(),
            kitty_capture: String::new(),
        };
        // The attempt of a failed throw goes with its penalty.
        let mut attempt_cards = String::new();
        // The trick a move was made for: 0 during the bury.
        let mut current_trick = 0u8;
        let mut over = false;
        for step in &run.steps {
            let reason = step
                .entry
                .reason
                .as_deref()
                .map(|r| format!("：{}", esc(r)))
                .unwrap_or_default();
            for ev in &step.events {
                // A row of the penalties' table.
                let row = |what: String, seat: Seat, points: String| {
                    format!(
                        "<tr><td>#{}</td><td>{}</td><td>{what}</td><td>{}</td><td>{points}</td></tr>",
                        step.entry.seq,
                        trick_label(current_trick, over, lang),
                        sw::seat(seat, lang),
                    )
                };
                match ev {
                    Event::Buried { .. } => current_trick = 1,
                    Event::BoardOver { .. } => over = true,
                    Event::Played { trick, .. } => current_trick = *trick,
                    Event::TrickWon {
                        trick,
                        defenders,
                        to_defenders,
                        ..
                    } => {
                        notes.running.push((*trick, *defenders, *to_defenders));
                        current_trick = trick + 1;
                    }
                    Event::ThrowFailed(f) => {
                        notes.failed_throws.push(f.trick);
                        attempt_cards = format!(" {}", cards(&f.attempt, lang));
                    }
                    Event::Warning { seat, reason: r } => {
                        let warning = lang.pick("（警告）", " (warning)");
                        let what = format!("{}{warning}", sw::offence(*r, lang));
                        notes.penalties.push(row(what, *seat, "0".into()));
                    }
                    Event::Penalty {
                        seat,
                        reason: r,
                        points,
                        ..
                    } => {
                        let attempt = if *r == rules::shengji::Offence::FailedThrow {
                            std::mem::take(&mut attempt_cards)
                        } else {
                            String::new()
                        };
                        let what = format!("{}{attempt}{reason}", sw::offence(*r, lang));
                        notes.penalties.push(row(what, *seat, points.to_string()));
                    }
                    Event::KittyCaptured {
                        seat,
                        points,
                        multiplier,
                        gain,
                        ..
                    } => {
                        notes.kitty_capture =
                            kitty_capture(*seat, *points, *multiplier, *gain, lang)
                    }
                    _ => {}
                }
            }
        }
        notes
    }
}

/// `南 抠底：20 分 × 4 = 80 分`.
fn kitty_capture(seat: Seat, points: u32, multiplier: u32, gain: u32, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "{} 抠底：{points} 分 × {multiplier} = {gain} 分",
            sw::seat(seat, lang)
        ),
        Lang::En => format!(
            "{} captures the kitty: {points} × {multiplier} = {gain}",
            sw::seat(seat, lang)
        ),
    }
}

/// The tricks: each seat's cards (the lead underlined), the winner, the points, the
/// defenders' running total; a legend below.
fn tricks(s: &mut String, b: &Board, order: &Order, notes: &Notes, lang: Lang) {
    let _ = writeln!(
        s,
        "<table class=\"tricks\">\n<thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead>\n<tbody>",
        lang.pick("轮", "Trick"),
        sw::seat(Seat::N, lang),
        sw::seat(Seat::E, lang),
        sw::seat(Seat::S, lang),
        sw::seat(Seat::W, lang),
        lang.pick("赢家", "Won by"),
        lang.pick("分", "Pts"),
        lang.pick("闲家累计", "Def. total"),
    );
    for tr in b.tricks() {
        let leader = tr.plays.first().map(|p| p.seat);
        let cell = |seat: Seat| {
            tr.plays
                .iter()
                .find(|p| p.seat == seat)
                .map(|p| {
                    let mut cs = p.cards.clone();
                    order.sort_for_display(&mut cs);
                    let inner = cards(&cs, lang);
                    if Some(seat) == leader {
                        format!("<td class=\"lead\">{inner}</td>")
                    } else {
                        format!("<td>{inner}</td>")
                    }
                })
                .unwrap_or_else(|| "<td></td>".into())
        };
        let (total, to_def) = notes
            .running
            .iter()
            .find(|r| r.0 == tr.trick)
            .map(|r| (r.1, r.2))
            .unwrap_or((0, false));
        let _ = writeln!(
            s,
            "<tr class=\"trick\" data-trick=\"{}\"><td class=\"n\">{}{}</td>{}{}{}{}<td class=\"w\">{}</td><td class=\"p\">{}{}</td><td class=\"p\">{total}</td></tr>",
            tr.trick,
            if notes.failed_throws.contains(&tr.trick) { "†" } else { "" },
            tr.trick,
            cell(Seat::N),
            cell(Seat::E),
            cell(Seat::S),
            cell(Seat::W),
            sw::seat(tr.winner, lang),
            tr.points,
            if to_def || tr.points == 0 { "" } else { "*" },
        );
    }
    if b.tricks().is_empty() {
        let _ = writeln!(
            s,
            "<tr><td colspan=\"8\">{}</td></tr>",
            lang.pick("（尚无完成的一轮）", "(no trick completed)")
        );
    }
    let _ = writeln!(
        s,
        "</tbody>\n</table>\n<p class=\"legend\">{}</p>",
        lang.pick(
            "下划线：首家。* 庄家方赢得的分（不计入闲家）。† 这一轮首家甩牌失败（见下表）。",
            "Underlined: the lead. * points won by the declarer's side (not counted for the defenders). † a failed throw led this trick (see below).",
        )
    );
}

/// The kitty with its points, and who captured it (抠底).
fn kitty(s: &mut String, b: &Board, order: &Order, capture: String, lang: Lang) {
    let kitty = b.kitty().to_vec();
    let mut kitty_sorted = kitty.clone();
    order.sort_for_display(&mut kitty_sorted);
    let _ = writeln!(
        s,
        "<table>\n<tr><th>{}</th><td>{} ({} {})</td></tr>\n<tr><th>{}</th><td>{}</td></tr>\n</table>",
        lang.pick("底牌", "Kitty"),
        cards(&kitty_sorted, lang),
        rules::cards::points(&kitty),
        lang.pick("分", "pts"),
        lang.pick("抠底", "Kitty capture"),
        if capture.is_empty() {
            lang.pick("无", "none").to_string()
        } else {
            capture
        }
    );
}

/// The offences, timeouts and rulings, one row each.
fn penalties(s: &mut String, rows: &[String], lang: Lang) {
    let _ = writeln!(
        s,
        "<table class=\"penalties\">\n<thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead>\n<tbody>",
        lang.pick("记录", "Entry"),
        lang.pick("轮", "Trick"),
        lang.pick("违例、超时与判罚", "Offences, timeouts, rulings"),
        lang.pick("座位", "Seat"),
        lang.pick("罚分", "Points"),
    );
    if rows.is_empty() {
        let _ = writeln!(
            s,
            "<tr><td colspan=\"5\">{}</td></tr>",
            lang.pick("无", "none")
        );
    }
    for p in rows {
        let _ = writeln!(s, "{p}");
    }
    let _ = writeln!(s, "</tbody>\n</table>");
}

/// The defenders' points (a ruling's end, the result finalised), or where an unfinished board
/// stands.
fn result(s: &mut String, b: &Board, lang: Lang) {
    let result = match (b.result(), lang) {
        (Some(r), Lang::Zh) => format!(
            "闲家得分：{r}　（闲家赢 {} 轮{}{}）",
            b.defender_tricks(),
            if b.ended_by_ruling() {
                "，裁判判定结束"
            } else {
                ""
            },
            if b.is_final() {
                "，成绩已确认"
            } else {
                ""
            }
        ),
        (Some(r), Lang::En) => format!(
            "Defenders' points: {r}  ({} tricks{}{})",
            b.defender_tricks(),
            if b.ended_by_ruling() {
                ", ended by ruling"
            } else {
                ""
            },
            if b.is_final() { ", final" } else { "" }
        ),
        (None, Lang::Zh) => format!("本副未打完（闲家目前 {} 分）", b.defenders_points()),
        (None, Lang::En) => format!(
            "The board is not over (defenders {} so far)",
            b.defenders_points()
        ),
    };
    let _ = writeln!(
        s,
        "<table>\n<tr><td class=\"result\" data-result=\"{}\">{result}</td></tr>\n</table>",
        b.result().map(|r| r.to_string()).unwrap_or_default()
    );
}

/// The lines to sign, and the footer with the seed commitment and the log's last hash, so the
/// card can be checked against its log.
fn signatures(s: &mut String, t: &StoredTable, lang: Lang) {
    let h = &t.header;
    let _ = writeln!(
        s,
        "<table class=\"sign\">\n<tr><th>{}</th><td></td><th>{}</th><td></td><th>{}</th><td></td></tr>\n</table>",
        lang.pick("南北（填写）", "N–S (filled in)"),
        lang.pick("东西（核对）", "E–W (checked)"),
        lang.pick("裁判", "Referee"),
    );
    let head = t.log.last().map(|e| e.hash.as_str()).unwrap_or("");
    let _ = writeln!(
        s,
        "<footer>{} · {} {} · {} {} · {} {}</footer>\n</section>",
        lang.pick("由 paiju 依日志生成", "written by paiju from the log"),
        lang.pick("种子承诺", "seed commitment"),
        esc(&h.seed_commitment),
        lang.pick("末哈希", "last hash"),
        esc(head),
        lang.pick("核对：", "check:"),
        esc(&format!("paiju replay {} --head {head}", h.id)),
    );
}
