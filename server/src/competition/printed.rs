//! The results as a director prints or files them: the CSV (UTF-8 with a byte order mark, so
//! spreadsheets read the Chinese) and the A4 page, from the standings.

use protocol::PairInfo;
use tournament::competition::duplicate::{declarer_of, Duplicate};
use tournament::score::ArtificialScores;
use tournament::Mp;

use super::standings::{GoujiStandings, Standings};
use crate::store::CompetitionHeader;

/// One CSV field, quoted when it needs to be.
fn csv_field(s: &str) -> String {
    // A leading = + - @ would be read as a formula by spreadsheets: quote it with a tab guard.
    let guarded =
        if s.starts_with(['=', '+', '@']) || (s.starts_with('-') && s.parse::<f64>().is_err()) {
            format!("'{s}")
        } else {
            s.to_string()
        };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

fn csv_line(fields: &[String]) -> String {
    let mut line = fields
        .iter()
        .map(|f| csv_field(f))
        .collect::<Vec<_>>()
        .join(",");
    line.push_str("\r\n");
    line
}

/// The language of a CSV's column names (the page's; Chinese first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Zh,
    En,
}

/// A header line of `(zh, en)` column names.
fn header(lang: Lang, columns: &[(&str, &str)]) -> String {
    let names: Vec<String> = columns
        .iter()
        .map(|(zh, en)| if lang == Lang::Zh { zh } else { en }.to_string())
        .collect();
    csv_line(&names)
}

fn yes(lang: Lang, b: bool) -> String {
    match (b, lang) {
        (false, _) => String::new(),
        (true, Lang::Zh) => "是".into(),
        (true, Lang::En) => "yes".into(),
    }
}

/// What decided a 够级 place, in words: the tie-break the place needed, or the lot.
pub fn decided_by(t: &super::standings::TeamLine, lang: Lang) -> String {
    use tournament::gouji::TieBreak;
    let zh = lang == Lang::Zh;
    if let Some(reason) = &t.lot {
        return if zh {
            format!("抽签：{reason}")
        } else {
            format!("lot: {reason}")
        };
    }
    match t.by {
        None => String::new(),
        Some(TieBreak::Points) => if zh { "总分" } else { "points" }.into(),
        Some(TieBreak::Firsts) => if zh {
            "同分，头科多"
        } else {
            "level: more 头科"
        }
        .into(),
        Some(TieBreak::Lasts) => if zh {
            "同分同头科，大落少"
        } else {
            "level: fewer 大落"
        }
        .into(),
        Some(TieBreak::ExtraGame) => if zh { "加赛" } else { "extra game" }.into(),
    }
}

fn names(p: &PairInfo) -> String {
    if p.names.is_empty() && p.bot {
        "电脑".to_string()
    } else {
        p.names.join(" / ")
    }
}

fn mp_text(mp: Option<Mp>) -> String {
    mp.map(|m| m.to_string()).unwrap_or_default()
}

/// The standings as CSV (UTF-8 with a byte order mark, so spreadsheets read the Chinese),
/// its column names in `lang`: the ranking lines, then (when shown) every board's results.
pub fn csv(s: &Standings, lang: Lang) -> String {
    if let Some(g) = &s.gouji {
        return gouji_csv(g, lang);
    }
    if let Some(p) = &s.practice {
        return practice_csv(p, lang);
    }
    let mut out = String::from("\u{feff}");
    out += &header(
        lang,
        &[
            ("方向", "direction"),
            ("名次", "place"),
            ("对号", "pair"),
            ("选手", "names"),
            ("单位", "organisation"),
            ("比赛分", "mp"),
            ("罚分", "deducted"),
            ("获奖", "prize"),
        ],
    );
    for (d, list) in [("NS", &s.ranking.ns), ("EW", &s.ranking.ew)] {
        for l in list {
            out += &csv_line(&[
                d.into(),
                match (l.place, l.disqualified) {
                    (Some(p), _) => p.to_string(),
                    (None, true) => "DQ".into(),
                    (None, false) => String::new(),
                },
                l.pair.number.to_string(),
                names(&l.pair),
                l.pair.organisation.clone().unwrap_or_default(),
                l.mp.to_string(),
                mp_text(l.deducted),
                yes(lang, l.prize),
            ]);
        }
    }
    if let Some(boards) = &s.boards {
        out += "\r\n";
        out += &header(
            lang,
            &[
                ("牌号", "board"),
                ("南北", "ns"),
                ("东西", "ew"),
                ("闲家得分", "defenders"),
                ("南北人为分", "artificial_ns"),
                ("东西人为分", "artificial_ew"),
                ("调整", "adjusted"),
                ("南北比赛分", "ns_mp"),
                ("东西比赛分", "ew_mp"),
            ],
        );
        for b in boards {
            for r in &b.results {
                let art = |pick: fn(&ArtificialScores) -> Option<tournament::Artificial>| {
                    r.artificial
                        .as_ref()
                        .and_then(pick)
                        .and_then(|a| serde_json::to_value(a).ok())
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default()
                };
                out += &csv_line(&[
                    b.board.to_string(),
                    r.ns.as_ref().map(|p| p.0.clone()).unwrap_or_default(),
                    r.ew.as_ref().map(|p| p.0.clone()).unwrap_or_default(),
                    r.defenders.map(|d| d.to_string()).unwrap_or_default(),
                    art(|a| a.ns),
                    art(|a| a.ew),
                    yes(lang, r.adjusted),
                    mp_text(r.ns_mp),
                    mp_text(r.ew_mp),
                ]);
            }
        }
    }
    out
}

fn side_text(side: &Option<String>) -> String {
    side.as_deref().map(str::to_uppercase).unwrap_or_default()
}

/// A 够级 competition's standings as CSV: the teams (with what decided each place), then
/// (when shown) every game's result.
fn gouji_csv(g: &GoujiStandings, lang: Lang) -> String {
    let mut out = String::from("\u{feff}");
    out += &header(
        lang,
        &[
            ("名次", "place"),
            ("决定名次", "decided_by"),
            ("队", "team"),
            ("选手", "players"),
            ("单位", "organisation"),
            ("阶段", "stage"),
            ("淘汰轮次", "out_round"),
            ("总分", "points"),
            ("头科", "firsts"),
            ("大落", "lasts"),
            ("罚分", "deducted"),
            ("获奖", "prize"),
        ],
    );
    for t in &g.teams {
        out += &csv_line(&[
            t.place.map(|p| p.to_string()).unwrap_or_default(),
            decided_by(t, lang),
            t.team.name.clone(),
            team_names(&t.team),
            t.team.organisation.clone().unwrap_or_default(),
            t.stage.to_string(),
            t.out_round.map(|r| r.to_string()).unwrap_or_default(),
            t.points.to_string(),
            t.firsts.to_string(),
            t.lasts.to_string(),
            if t.deducted == 0 {
                String::new()
            } else {
                t.deducted.to_string()
            },
            yes(lang, t.prize),
        ]);
    }
    if let Some(games) = &g.games {
        out += "\r\n";
        out += &header(
            lang,
            &[
                ("轮", "round"),
                ("阶段", "stage"),
                ("桌", "table"),
                ("局", "game"),
                ("牌号", "deal"),
                ("A 队", "a"),
                ("B 队", "b"),
                ("加赛", "extra"),
                ("A 分", "a_points"),
                ("B 分", "b_points"),
                ("头科", "first"),
                ("大落", "last"),
                ("改判", "adjusted"),
            ],
        );
        for x in games {
            out += &csv_line(&[
                x.round.to_string(),
                x.kind.to_string(),
                x.table.to_string(),
                x.game.to_string(),
                x.deal.to_string(),
                x.a.clone(),
                x.b.clone(),
                yes(lang, x.extra),
                x.result.a.to_string(),
                x.result.b.to_string(),
                side_text(&x.result.first),
                x.result.last.join(" ").to_uppercase(),
                x.adjusted.clone().unwrap_or_default(),
            ]);
        }
    }
    out
}

fn team_names(t: &protocol::TeamInfo) -> String {
    if t.names.is_empty() && t.bot {
        "电脑".to_string()
    } else {
        t.names.join(" / ")
    }
}

/// A 够级 event's printable results: the ranking, then every game.
pub fn teams_body(s: &Standings, g: &GoujiStandings, status: &str) -> String {
    let mut body = format!(
        "<header><h1>{}</h1><p>够级 团体赛 Team event · 小组淘汰赛与决赛 Group knockout and final · {}</p></header>\n",
        esc(&s.name),
        esc(status)
    );
    body += "<section class=\"ranking\"><h2>名次 Ranking</h2>\n<table><thead><tr><th>名次 Place</th><th>决定名次 Decided by</th><th>队 Team</th><th>选手 Players</th><th>单位 Organisation</th><th>阶段 Stage</th><th>总分 Points</th><th>头科 1st</th><th>大落 Last</th><th>罚分 Deducted</th></tr></thead><tbody>\n";
    for t in &g.teams {
        let stage = match (t.stage, t.out_round) {
            ("final", _) if t.extra_game_needed => "决赛（待加赛）Final (extra game)".to_string(),
            ("final", _) => "决赛 Final".to_string(),
            ("out", Some(r)) => format!("第 {r} 轮淘汰 Out in round {r}"),
            _ => "比赛中 Playing".to_string(),
        };
        body += &format!(
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            if t.prize { " class=\"prize\"" } else { "" },
            t.place.map(|p| p.to_string()).unwrap_or_else(|| "—".into()),
            esc(format!("{} {}", decided_by(t, Lang::Zh), decided_by(t, Lang::En)).trim()),
            esc(&t.team.name),
            esc(&team_names(&t.team)),
            esc(t.team.organisation.as_deref().unwrap_or("")),
            esc(&stage),
            t.points,
            t.firsts,
            t.lasts,
            if t.deducted == 0 { String::new() } else { t.deducted.to_string() },
        );
    }
    body += "</tbody></table></section>\n";
    if let Some(games) = &g.games {
        body += "<section class=\"travellers\"><h2>每局成绩 Games</h2>\n<table><thead><tr><th>轮 Round</th><th>桌 Table</th><th>局 Game</th><th>牌号 Deal</th><th>A 队 Team A</th><th>B 队 Team B</th><th>A 分</th><th>B 分</th><th>头科 1st</th><th>大落 Last</th><th>改判 Ruling</th></tr></thead><tbody>\n";
        for x in games {
            body += &format!(
                "<tr><td>{}{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                x.round,
                if x.kind == "final" { " 决赛 final" } else { "" },
                x.table,
                x.game,
                if x.extra { " 加赛 extra" } else { "" },
                x.deal,
                esc(&x.a),
                esc(&x.b),
                x.result.a,
                x.result.b,
                side_text(&x.result.first),
                x.result.last.join(" ").to_uppercase(),
                esc(x.adjusted.as_deref().unwrap_or("")),
            );
        }
        body += "</tbody></table></section>\n";
    }
    if let Some(ds) = &g.deductions {
        if !ds.is_empty() {
            body += "<section><h2>罚分 Deductions</h2><ul>\n";
            for d in ds {
                body += &format!(
                    "<li>第 {} 轮 round {} · {} −{}：{}</li>\n",
                    d.round,
                    d.round,
                    esc(&d.team),
                    d.points,
                    esc(&d.reason)
                );
            }
            body += "</ul></section>\n";
        }
    }
    body
}

/// A practice set's ranking as CSV: one line a finished run, best first.
fn practice_csv(p: &super::standings::PracticeStandings, lang: Lang) -> String {
    let mut out = String::from("\u{feff}");
    out += &header(
        lang,
        &[
            ("名次", "place"),
            ("选手", "player"),
            ("电脑水平", "computers"),
            ("百分比", "percent"),
            ("开始时间", "began (UTC)"),
        ],
    );
    for l in &p.lines {
        out += &csv_line(&[
            l.place.to_string(),
            l.name.clone(),
            l.level.clone(),
            format!("{:.2}", l.percent),
            crate::referee::words::iso_time(l.began_ms),
        ]);
    }
    out
}

/// A practice set's printable ranking (of the whole set, or of the day `p.day` names).
pub fn practice_body(s: &Standings, p: &super::standings::PracticeStandings) -> String {
    let game = if p.game == "gouji" {
        format!("够级 {} 局 games", p.boards)
    } else {
        format!("80分 {} 副 boards", p.boards)
    };
    let whose = match &p.club {
        Some(c) => format!("{} · ", esc(c)),
        None => String::new(),
    };
    let when = match &p.day {
        Some(d) => format!("{d} 当日排名 Ranking of the day"),
        None => "全部排名 Ranking of the whole set".to_string(),
    };
    let mut body = format!(
        "<header><h1>{}</h1><p>{whose}练习牌套 Practice set · {game} · {when}</p></header>\n",
        esc(&s.name)
    );
    body += "<section class=\"ranking\"><h2>名次 Ranking</h2>\n<table><thead><tr><th>名次 Place</th><th>选手 Player</th><th>电脑水平 Computers</th><th>百分比 Percent</th></tr></thead><tbody>\n";
    for l in &p.lines {
        body += &format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.2} %</td></tr>\n",
            l.place,
            esc(&l.name),
            bots::Level::parse(&l.level).map_or("", bots::Level::zh),
            l.percent
        );
    }
    if p.lines.is_empty() {
        body += "<tr><td colspan=\"4\">还没有人打完 Nobody has finished yet</td></tr>\n";
    }
    body += "</tbody></table></section>\n";
    body
}

/// Text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What the printed results are: final, or through which round.
pub fn status(s: &Standings) -> String {
    if s.is_final {
        "最终成绩 Final results".to_string()
    } else {
        format!(
            "截至第 {} 轮 Through round {}{}",
            s.through_round,
            s.through_round,
            if s.live {
                "（含进行中的轮次 live）"
            } else {
                ""
            }
        )
    }
}

/// The printable results around a kind's `body`: the page, its style, the seed's commitment
/// (and the seed once revealed).
pub fn page(s: &Standings, body: String, header: &CompetitionHeader) -> String {
    let seed = s.is_final.then_some(header.seed.as_str());
    page_of(s, body, &header.seed_commitment, seed)
}

/// [`page`] from the commitment and (once revealed) the seed, as a competition's view shows
/// them.
pub fn page_of(s: &Standings, body: String, commitment: &str, seed: Option<&str>) -> String {
    let footer = format!(
        "<footer><p>种子承诺 Seed commitment (SHA-256): <code>{}</code></p>{}</footer>\n",
        esc(commitment),
        match seed {
            Some(seed) => format!(
                "<p>种子 Seed: <code>{}</code> — 任何人都可以用它重新发出每一副牌 (paiju deal). Anyone can re-deal every board from it.</p>",
                esc(seed)
            ),
            None => "<p>种子在最后一副牌打完后公布。The seed is revealed after the last board.</p>".into(),
        }
    );
    format!(
        "<!doctype html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} · 成绩 Results</title>\n<style>\n{PRINT_CSS}</style>\n</head>\n<body>\n{body}{footer}</body>\n</html>\n",
        esc(&s.name)
    )
}

/// The 80分 part of the printable page: both rankings, the travellers, the deductions.
pub fn pairs_body(s: &Standings, d: &Duplicate, status: &str) -> String {
    let mut body = String::new();
    let c = &d.common;
    let rounds = if c.early {
        format!(
            "{} 轮（提前结束，原定 {} 轮 finished early, {} planned）",
            c.closed, c.spec.rounds, c.spec.rounds
        )
    } else {
        format!("{} 轮", c.spec.rounds)
    };
    let half = if d.phantom().is_some() {
        "（半桌 half table）"
    } else {
        ""
    };
    body += &format!(
        "<header><h1>{}</h1><p>80分 双人赛 计副制米切尔 · {} 桌{half} {rounds} 每轮 {} 副 · {}</p></header>\n",
        esc(&s.name),
        d.tables(),
        c.spec.boards_per_round,
        esc(status)
    );
    for (zh, en, list) in [
        ("南北", "North–South", &s.ranking.ns),
        ("东西", "East–West", &s.ranking.ew),
    ] {
        body += &format!(
            "<section class=\"ranking\"><h2>{zh}方向 {en}</h2>\n<table><thead><tr><th>名次 Place</th><th>对号 Pair</th><th>选手 Players</th><th>单位 Organisation</th><th>比赛分 MP</th><th>罚分 Deducted</th></tr></thead><tbody>\n"
        );
        for l in list {
            body += &format!(
                "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                if l.prize { " class=\"prize\"" } else { "" },
                match (l.place, l.disqualified) {
                    (Some(p), _) => p.to_string(),
                    (None, true) => "取消资格 DQ".into(),
                    (None, false) => "—".into(),
                },
                l.pair.number,
                esc(&names(&l.pair)),
                esc(l.pair.organisation.as_deref().unwrap_or("")),
                l.mp,
                mp_text(l.deducted),
            );
        }
        body += "</tbody></table></section>\n";
    }
    if let Some(boards) = &s.boards {
        body += "<section class=\"travellers\"><h2>每副成绩 Travellers</h2>\n";
        for b in boards {
            body += &format!(
                "<table class=\"traveller\"><caption>第 {0} 副 Board {0} · 庄家 {1:?}</caption><thead><tr><th>南北 NS</th><th>东西 EW</th><th>闲家得分 Defenders</th><th>南北分 NS MP</th><th>东西分 EW MP</th></tr></thead><tbody>\n",
                b.board,
                declarer_of(b.board)
            );
            for r in &b.results {
                let outcome = match (&r.defenders, &r.artificial) {
                    (Some(d), _) => format!("{d}{}", if r.adjusted { "（调整 adj.）" } else { "" }),
                    (None, Some(a)) => {
                        let name = |x: Option<tournament::Artificial>| {
                            x.and_then(|a| serde_json::to_value(a).ok())
                                .and_then(|v| v.as_str().map(str::to_string))
                                .unwrap_or_else(|| "—".into())
                        };
                        format!("人为分 {} / {}", name(a.ns), name(a.ew))
                    }
                    _ => String::new(),
                };
                body += &format!(
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                    r.ns.as_ref().map(|p| p.0.as_str()).unwrap_or("—"),
                    r.ew.as_ref().map(|p| p.0.as_str()).unwrap_or("—"),
                    esc(&outcome),
                    mp_text(r.ns_mp),
                    mp_text(r.ew_mp),
                );
            }
            body += "</tbody></table>\n";
        }
        body += "</section>\n";
    }
    if let Some(ds) = &s.deductions {
        if !ds.is_empty() {
            body += "<section><h2>罚分 Deductions</h2><ul>\n";
            for d in ds {
                body += &format!(
                    "<li>{}{} −{}：{}</li>\n",
                    d.direction.zh(),
                    d.pair,
                    d.mp,
                    esc(&d.reason)
                );
            }
            body += "</ul></section>\n";
        }
    }
    body
}

/// The results page's style: large, plain, black on white; A4 when printed.
const PRINT_CSS: &str = "
@page { size: A4; margin: 15mm; }
body { font-family: 'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', sans-serif; font-size: 14pt; color: #000; background: #fff; margin: 1em; }
h1 { font-size: 20pt; margin: 0 0 .2em; }
h2 { font-size: 16pt; margin: 1em 0 .4em; }
table { border-collapse: collapse; width: 100%; margin-bottom: 1em; }
th, td { border: 1px solid #444; padding: .25em .5em; text-align: left; }
th { background: #eee; }
tr.prize td:first-child { font-weight: bold; }
caption { text-align: left; font-weight: bold; padding: .3em 0; }
code { font-size: 10pt; word-break: break-all; }
footer { margin-top: 2em; font-size: 11pt; }
@media print {
  body { margin: 0; font-size: 11pt; }
  section.ranking { break-after: page; }
  table.traveller { break-inside: avoid; }
  th { background: #ddd; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
";
