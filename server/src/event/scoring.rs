//! Scoring an event with the tournament crate (`tournament::score`): the results gathered so far
//! become a `ScoreInput`; out come the standings (NS and EW apart, 双冠军), the travellers (every
//! board's results and match points), the CSV and the printable A4 page.
//!
//! What the public sees while the event runs: the ranking over the closed rounds only, and no
//! board's results (a traveller would tell a pair about a board it has still to play). The
//! director sees everything live; once the seed is revealed everyone does.

use protocol::{PairInfo, Problem, Refusal, Words};
use serde::Serialize;
use tournament::score::{
    ArtificialScores, BoardOut, Deduction, PairId, Pairs, ResultIn, ScoreInput, Standing,
};
use tournament::{Direction, Mp};

use super::state::Event;

/// The board's declarer seat (定庄): board 1 is N's, 2 E's, 3 S's, 4 W's, 5 N's again, as the
/// deal makes it (`rules::deal::deal_shengji`).
pub fn declarer_of(board: u32) -> &'static str {
    ["N", "E", "S", "W"][(board.wrapping_sub(1) % 4) as usize]
}

fn parse_artificial(s: &Option<String>) -> Option<tournament::Artificial> {
    s.as_ref()
        .and_then(|s| serde_json::from_value(serde_json::Value::String(s.clone())).ok())
}

/// The results of rounds `1..=upto` as the tournament crate reads them.
pub fn score_input(ev: &Event, upto: u32) -> ScoreInput {
    // The registered pairs: a half table's phantom is not one (it is ranked nowhere).
    let numbers = |direction: Direction| -> Vec<PairId> {
        (1..=ev.tables())
            .filter(|&n| ev.pair(direction, n).is_some())
            .map(|n| PairId(n.to_string()))
            .collect()
    };
    let mut results = Vec::new();
    for (&(round, table, board), play) in &ev.plays {
        if round > upto || !play.done() {
            continue;
        }
        let Some(plan) = ev.table_plan(round, table) else {
            continue;
        };
        let ns = plan.ns.map(|n| PairId(n.to_string()));
        let ew = plan.ew.map(|n| PairId(n.to_string()));
        let declarer =
            serde_json::from_value(serde_json::Value::String(declarer_of(board).to_string())).ok();
        let r = match (&play.adjusted, &play.played) {
            (Some(adj), _) => match &adj.artificial {
                Some(a) => ResultIn {
                    board,
                    ns,
                    ew,
                    declarer: None,
                    defenders: None,
                    artificial: Some(ArtificialScores {
                        ns: parse_artificial(&a.ns),
                        ew: parse_artificial(&a.ew),
                    }),
                    adjusted: false,
                },
                None => ResultIn {
                    board,
                    ns,
                    ew,
                    declarer,
                    defenders: adj.defenders,
                    artificial: None,
                    adjusted: true,
                },
            },
            (None, Some(p)) => ResultIn {
                board,
                ns,
                ew,
                declarer: serde_json::from_value(serde_json::Value::String(p.declarer.clone()))
                    .ok()
                    .or(declarer),
                defenders: Some(p.defenders),
                artificial: None,
                adjusted: false,
            },
            (None, None) => continue,
        };
        results.push(r);
    }
    ScoreInput {
        pairs: Pairs {
            ns: numbers(Direction::NS),
            ew: numbers(Direction::EW),
        },
        results,
        deductions: ev
            .deductions
            .iter()
            .map(|d| Deduction {
                direction: d.direction,
                pair: PairId(d.pair.to_string()),
                mp: d.mp,
                reason: Some(d.reason.clone()),
            })
            .collect(),
        disqualified: ev
            .disqualified
            .iter()
            .map(|d| tournament::score::PairRef {
                direction: d.direction,
                pair: PairId(d.pair.to_string()),
            })
            .collect(),
    }
}

/// One pair's line in its direction's ranking.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    #[serde(flatten)]
    pub pair: PairInfo,
    pub mp: Mp,
    pub place: Option<u32>,
    pub prize: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deducted: Option<Mp>,
    /// Disqualified by the director: no place (the pairs below fill it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disqualified: bool,
}

/// The two rankings.
#[derive(Clone, Debug, Serialize)]
pub struct Rankings {
    #[serde(rename = "NS")]
    pub ns: Vec<Line>,
    #[serde(rename = "EW")]
    pub ew: Vec<Line>,
}

/// A deduction as shown.
#[derive(Clone, Debug, Serialize)]
pub struct DeductionLine {
    pub direction: Direction,
    pub pair: u32,
    pub mp: f64,
    pub reason: String,
}

/// `GET /api/events/{id}/standings`.
#[derive(Clone, Debug, Serialize)]
pub struct Standings {
    pub id: String,
    pub name: String,
    /// The seed is revealed: these are the final results.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// Results of rounds 1 to this one are counted.
    pub through_round: u32,
    /// Rounds still being played are counted too (the director's live view).
    pub live: bool,
    pub ranking: Rankings,
    /// The travellers: every board's results and match points (director, or once final).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards: Option<Vec<BoardOut>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deductions: Option<Vec<DeductionLine>>,
    /// 够级 events: the teams' ranking (the 80分 `ranking` is empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gouji: Option<GoujiStandings>,
}

/// A 够级 event's standings: the finalists ranked by the final (total, more 头科, fewer 大落,
/// extra games), then the teams still in, then the teams knocked out, latest round first.
#[derive(Clone, Debug, Serialize)]
pub struct GoujiStandings {
    pub teams: Vec<TeamLine>,
    /// Every game's result (director, or once final).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<Vec<GameLine>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deductions: Option<Vec<protocol::TeamDeductionLine>>,
}

/// One team's line.
#[derive(Clone, Debug, Serialize)]
pub struct TeamLine {
    #[serde(flatten)]
    pub team: protocol::TeamInfo,
    /// `"final"`, `"in"` (still playing the knockout) or `"out"`.
    pub stage: &'static str,
    /// The knockout round the team lost in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out_round: Option<u32>,
    /// The final's totals (deductions off), or the match's where it went out.
    pub points: i32,
    pub firsts: u32,
    pub lasts: u32,
    #[serde(skip_serializing_if = "is_zero")]
    pub deducted: i32,
    /// Finalists only: 取前6名队伍，给予奖励.
    pub place: Option<u32>,
    pub prize: bool,
    /// The last tie-break the place needed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<tournament::gouji::TieBreak>,
    /// Level on everything: the extra game decides (it is played on the server).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub extra_game_needed: bool,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// One 够级 game's result.
#[derive(Clone, Debug, Serialize)]
pub struct GameLine {
    pub round: u32,
    /// `"knockout"` or `"final"`.
    pub kind: &'static str,
    pub table: u32,
    pub game: u32,
    pub deal: u32,
    pub a: String,
    pub b: String,
    pub extra: bool,
    pub result: protocol::GoujiGameResult,
    /// The director's reason, where the result is the director's ruling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjusted: Option<String>,
}

/// The standings of a 够级 event.
fn gouji_standings(ev: &Event, full: bool) -> Standings {
    let g = ev.gouji.as_ref().expect("a 够级 event");
    let upto = if full { ev.round } else { ev.closed };
    let info = |name: &str| {
        g.team(name)
            .map(|t| t.info())
            .unwrap_or(protocol::TeamInfo {
                number: 0,
                name: name.to_string(),
                names: Vec::new(),
                organisation: None,
                bot: false,
            })
    };
    let mut teams: Vec<TeamLine> = Vec::new();
    if let (Some(r), Some(list)) = (g.final_round(), g.final_standings()) {
        if r <= upto {
            let spent = g.final_extra_games_spent();
            for s in list {
                let (place, by) = match &s.placing {
                    tournament::gouji::Placing::Placed { place, by } => (Some(*place), Some(*by)),
                    // No extra game left to play: the level teams share the best place they are
                    // level for, and the places after it stay empty (seed 003).
                    tournament::gouji::Placing::ExtraGameNeeded { places, .. } if spent => (
                        Some(places[0]),
                        Some(tournament::gouji::TieBreak::ExtraGame),
                    ),
                    tournament::gouji::Placing::ExtraGameNeeded { .. } => (None, None),
                };
                teams.push(TeamLine {
                    team: info(&s.team),
                    stage: "final",
                    out_round: None,
                    points: s.points,
                    firsts: s.firsts,
                    lasts: s.lasts,
                    deducted: s.deducted,
                    place,
                    prize: place.is_some(),
                    by,
                    extra_game_needed: place.is_none(),
                });
            }
        }
    }
    let mut out: Vec<(u32, TeamLine)> = Vec::new();
    for stage in &g.stages {
        if stage.round > upto {
            continue;
        }
        for (_, _, r) in g.matches(stage.round) {
            let Some(w) = &r.winner else { continue };
            for s in r.standings.iter().filter(|s| &s.team != w) {
                out.push((
                    stage.round,
                    TeamLine {
                        team: info(&s.team),
                        stage: "out",
                        out_round: Some(stage.round),
                        points: s.points,
                        firsts: s.firsts,
                        lasts: s.lasts,
                        deducted: s.deducted,
                        place: None,
                        prize: false,
                        by: None,
                        extra_game_needed: false,
                    },
                ));
            }
        }
    }
    out.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.points.cmp(&a.1.points)));
    let listed: Vec<String> = teams
        .iter()
        .map(|t| t.team.name.clone())
        .chain(out.iter().map(|(_, t)| t.team.name.clone()))
        .collect();
    for t in &g.teams {
        if !listed.contains(&t.name) {
            teams.push(TeamLine {
                team: t.info(),
                stage: "in",
                out_round: None,
                points: 0,
                firsts: 0,
                lasts: 0,
                deducted: 0,
                place: None,
                prize: false,
                by: None,
                extra_game_needed: false,
            });
        }
    }
    teams.extend(out.into_iter().map(|(_, t)| t));
    let games = full.then(|| {
        g.stages
            .iter()
            .filter(|s| s.round <= upto)
            .flat_map(|stage| {
                let kind = match stage.kind {
                    Some(super::gouji::Kind::Final(_)) => "final",
                    _ => "knockout",
                };
                g.games_view(stage.round, true, |_| None)
                    .into_iter()
                    .filter_map(move |x| {
                        Some(GameLine {
                            round: stage.round,
                            kind,
                            table: x.table,
                            game: x.game,
                            deal: x.deal,
                            a: x.a,
                            b: x.b,
                            extra: x.extra,
                            result: x.result?,
                            adjusted: x.adjusted,
                        })
                    })
            })
            .collect()
    });
    Standings {
        id: ev.id.clone(),
        name: ev.spec.name.clone(),
        is_final: ev.finished(),
        through_round: upto,
        live: full && ev.playing().is_some(),
        ranking: Rankings {
            ns: Vec::new(),
            ew: Vec::new(),
        },
        boards: None,
        deductions: None,
        gouji: Some(GoujiStandings {
            teams,
            games,
            deductions: full.then(|| {
                g.stages
                    .iter()
                    .flat_map(|s| g.deductions_view(s.round))
                    .collect()
            }),
        }),
    }
}

/// The standings as `full` (the director, or anyone once the event is finished) or the public
/// may see them now.
pub fn standings(ev: &Event, full: bool) -> Result<Standings, Problem> {
    let full = full || ev.finished();
    if ev.gouji.is_some() {
        return Ok(gouji_standings(ev, full));
    }
    let upto = if full { ev.round } else { ev.closed };
    let out = tournament::score(score_input(ev, upto)).map_err(|e| {
        let p = Problem::explain(&e);
        Problem::from(Refusal::Internal(Words::new(p.zh, p.en)))
    })?;
    let lines = |direction: Direction, list: &[Standing]| -> Vec<Line> {
        list.iter()
            .filter_map(|s| {
                let n: u32 = s.pair.0.parse().ok()?;
                let pair = ev.pair(direction, n)?;
                Some(Line {
                    pair: pair.info(),
                    mp: s.mp,
                    place: s.place,
                    prize: s.prize,
                    deducted: s.deducted,
                    disqualified: s.disqualified,
                })
            })
            .collect()
    };
    Ok(Standings {
        id: ev.id.clone(),
        name: ev.spec.name.clone(),
        is_final: ev.finished(),
        through_round: upto,
        live: full && ev.playing().is_some(),
        ranking: Rankings {
            ns: lines(Direction::NS, &out.ranking.ns),
            ew: lines(Direction::EW, &out.ranking.ew),
        },
        boards: full.then_some(out.boards),
        deductions: full.then(|| {
            ev.deductions
                .iter()
                .map(|d| DeductionLine {
                    direction: d.direction,
                    pair: d.pair,
                    mp: d.mp,
                    reason: d.reason.clone(),
                })
                .collect()
        }),
        gouji: None,
    })
}

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

/// The standings as CSV (UTF-8 with a byte order mark, so spreadsheets read the Chinese):
/// the ranking lines, then (when shown) every board's results.
pub fn csv(s: &Standings) -> String {
    if let Some(g) = &s.gouji {
        return gouji_csv(g);
    }
    let mut out = String::from("\u{feff}");
    out += &csv_line(&[
        "direction".into(),
        "place".into(),
        "pair".into(),
        "names".into(),
        "organisation".into(),
        "mp".into(),
        "deducted".into(),
        "prize".into(),
    ]);
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
                if l.prize { "yes".into() } else { String::new() },
            ]);
        }
    }
    if let Some(boards) = &s.boards {
        out += "\r\n";
        out += &csv_line(&[
            "board".into(),
            "ns".into(),
            "ew".into(),
            "defenders".into(),
            "artificial_ns".into(),
            "artificial_ew".into(),
            "adjusted".into(),
            "ns_mp".into(),
            "ew_mp".into(),
        ]);
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
                    if r.adjusted {
                        "yes".into()
                    } else {
                        String::new()
                    },
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

/// A 够级 event's standings as CSV: the teams, then (when shown) every game's result.
fn gouji_csv(g: &GoujiStandings) -> String {
    let mut out = String::from("\u{feff}");
    out += &csv_line(
        &[
            "place",
            "team",
            "players",
            "organisation",
            "stage",
            "out_round",
            "points",
            "firsts",
            "lasts",
            "deducted",
            "prize",
        ]
        .map(String::from),
    );
    for t in &g.teams {
        out += &csv_line(&[
            t.place.map(|p| p.to_string()).unwrap_or_default(),
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
            if t.prize { "yes".into() } else { String::new() },
        ]);
    }
    if let Some(games) = &g.games {
        out += "\r\n";
        out += &csv_line(
            &[
                "round", "stage", "table", "game", "deal", "a", "b", "extra", "a_points",
                "b_points", "first", "last", "adjusted",
            ]
            .map(String::from),
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
                if x.extra { "yes".into() } else { String::new() },
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
fn gouji_html(s: &Standings, g: &GoujiStandings, status: &str) -> String {
    let mut body = format!(
        "<header><h1>{}</h1><p>够级 团体赛 Team event · 小组淘汰赛与决赛 Group knockout and final · {}</p></header>\n",
        esc(&s.name),
        esc(status)
    );
    body += "<section class=\"ranking\"><h2>名次 Ranking</h2>\n<table><thead><tr><th>名次 Place</th><th>队 Team</th><th>选手 Players</th><th>单位 Organisation</th><th>阶段 Stage</th><th>总分 Points</th><th>头科 1st</th><th>大落 Last</th><th>罚分 Deducted</th></tr></thead><tbody>\n";
    for t in &g.teams {
        let stage = match (t.stage, t.out_round) {
            ("final", _) if t.extra_game_needed => "决赛（待加赛）Final (extra game)".to_string(),
            ("final", _) => "决赛 Final".to_string(),
            ("out", Some(r)) => format!("第 {r} 轮淘汰 Out in round {r}"),
            _ => "比赛中 Playing".to_string(),
        };
        body += &format!(
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            if t.prize { " class=\"prize\"" } else { "" },
            t.place.map(|p| p.to_string()).unwrap_or_else(|| "—".into()),
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

/// Text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The printable results: one A4 page per direction's ranking, then the travellers.
pub fn html(s: &Standings, ev: &Event, seed: Option<&str>, commitment: &str) -> String {
    let mut body = String::new();
    let status = if s.is_final {
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
    };
    if let Some(g) = &s.gouji {
        body += &gouji_html(s, g, &status);
    } else {
        body += &shengji_html(s, ev, &status);
    }
    body += &format!(
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
        "<!doctype html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} · 成绩 Results</title>\n<style>\n{PRINT_CSS}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        esc(&s.name)
    )
}

/// The 80分 part of the printable page: both rankings, the travellers, the deductions.
fn shengji_html(s: &Standings, ev: &Event, status: &str) -> String {
    let mut body = String::new();
    let rounds = if ev.early {
        format!(
            "{} 轮（提前结束，原定 {} 轮 finished early, {} planned）",
            ev.closed, ev.spec.rounds, ev.spec.rounds
        )
    } else {
        format!("{} 轮", ev.spec.rounds)
    };
    let half = if ev.phantom().is_some() {
        "（半桌 half table）"
    } else {
        ""
    };
    body += &format!(
        "<header><h1>{}</h1><p>80分 双人赛 计副制米切尔 · {} 桌{half} {rounds} 每轮 {} 副 · {}</p></header>\n",
        esc(&s.name),
        ev.tables(),
        ev.spec.boards_per_round,
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
                "<table class=\"traveller\"><caption>第 {0} 副 Board {0} · 庄家 {1}</caption><thead><tr><th>南北 NS</th><th>东西 EW</th><th>闲家得分 Defenders</th><th>南北分 NS MP</th><th>东西分 EW MP</th></tr></thead><tbody>\n",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::gouji::{draw_for, Kind, MAX_EXTRA_GAMES};
    use crate::event::state::EventAction;
    use tournament::gouji::GameRecord;

    /// Logs every game open now with a level record (no 头科, level points), as the runner would.
    fn play_level(ev: &mut Event, seq: &mut u64) -> usize {
        let open = ev.gouji.as_ref().unwrap().open_now(1);
        for s in &open {
            let table_id = format!("t{}-{}", s.table, s.game);
            let record = GameRecord {
                a: 0,
                b: 0,
                first: None,
                last: Vec::new(),
            };
            for action in [
                EventAction::GameOpened {
                    round: 1,
                    table: s.table,
                    game: s.game,
                    table_id: table_id.clone(),
                },
                EventAction::GameResult {
                    round: 1,
                    table: s.table,
                    game: s.game,
                    table_id,
                    record,
                },
            ] {
                *seq += 1;
                ev.apply(*seq, &action).unwrap();
            }
        }
        open.len()
    }

    #[test]
    fn teams_a_final_cannot_separate_share_the_place_and_the_next_ones_stay_empty() {
        let spec: protocol::CreateEvent = serde_json::from_value(serde_json::json!({
            "game": "gouji", "name": "练习", "tables": 0, "rounds": 0, "boards_per_round": 0,
            "movement": "plain",
            "entries": (1..=6).map(|i| serde_json::json!({"names": [], "organisation": format!("单位{i}"), "bot": true})).collect::<Vec<_>>(),
        }))
        .unwrap();
        let mut ev = Event::create("e", &spec).unwrap();
        let mut seq = 1;
        seq += 1;
        ev.apply(
            seq,
            &EventAction::StartRound {
                round: 1,
                at_ms: None,
            },
        )
        .unwrap();
        let drawn = draw_for(ev.gouji.as_ref().unwrap(), 1, &rules::deal::Seed([3; 32])).unwrap();
        seq += 1;
        ev.apply(seq, &EventAction::Draw { round: 1, drawn })
            .unwrap();
        let Some(Kind::Final(groups)) = ev.gouji.as_ref().unwrap().stage(1).unwrap().kind.clone()
        else {
            panic!("six teams play the final at once")
        };
        // One team falls behind by a deduction; the other five stay level through every game
        // and every extra game.
        let last = groups.b[2].clone();
        let n = ev.gouji.as_ref().unwrap().team(&last).unwrap().number;
        seq += 1;
        ev.apply(
            seq,
            &EventAction::TeamDeduction {
                round: 1,
                team: n,
                points: 4,
                reason: "迟到".into(),
            },
        )
        .unwrap();
        while play_level(&mut ev, &mut seq) > 0 {}
        let g = ev.gouji.as_ref().unwrap();
        assert!(g.final_extra_games_spent());
        let extras = g.seatings(1).iter().filter(|(s, _)| s.extra).count();
        assert_eq!(extras as u32, MAX_EXTRA_GAMES);
        seq += 1;
        ev.apply(
            seq,
            &EventAction::CloseRound {
                round: 1,
                forced: false,
            },
        )
        .unwrap();

        let s = standings(&ev, false).unwrap();
        let teams = s.gouji.as_ref().expect("a 够级 ranking");
        let places: Vec<(String, Option<u32>)> = teams
            .teams
            .iter()
            .map(|t| (t.team.name.clone(), t.place))
            .collect();
        let shared = places.iter().filter(|(_, p)| *p == Some(1)).count();
        assert_eq!(shared, 5, "five teams share first place: {places:?}");
        assert!(
            places.contains(&(last, Some(6))),
            "the sixth keeps its own: {places:?}"
        );
        assert!(teams.teams.iter().all(|t| !t.extra_game_needed && t.prize));
        assert!(
            !places.iter().any(|(_, p)| matches!(p, Some(2..=5))),
            "places 2-5 stay empty"
        );
    }
}
