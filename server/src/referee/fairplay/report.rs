//! What the fair-play analysis finds and how it is told: the scored decisions of a table, a
//! side's line (an 80分 pair, a 够级 team), the event's report, and the report as text, JSON
//! or CSV (`paiju fairplay`, the console).

use bots::fairplay::{Evidence, Tally};
use serde::{Deserialize, Serialize};
use tournament::Direction;

/// Who a line is about: an 80分 pair, or a 够级 team (the decisions of its three seats).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SideKey {
    Pair {
        direction: Direction,
        number: u32,
    },
    /// The team's name (unique in its event) and its number in the order registered.
    Team {
        team: String,
        number: u32,
    },
}

/// One scored decision, where to find it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub table_id: String,
    /// The log entry of the play (the replay page's step).
    pub seq: u64,
    pub round: u32,
    /// The board (80分), or the game of the round's match (够级).
    pub board: u32,
    pub evidence: Evidence,
}

/// One table (an 80分 board, a 够级 game), scored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TableEvidence {
    pub decisions: Vec<Decision>,
    /// Why the table could not be read, if it could not (it is left out).
    pub fault: Option<String>,
}

impl TableEvidence {
    pub fn fault(why: &str) -> TableEvidence {
        TableEvidence {
            decisions: Vec::new(),
            fault: Some(why.to_string()),
        }
    }
}

/// A pair's line (a team's, in 够级).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairLine {
    /// `direction` and `number` for a pair; `team` and `number` for a team.
    #[serde(flatten)]
    pub side: SideKey,
    pub names: Vec<String>,
    pub bot: bool,
    pub tally: Tally,
    /// Against the model of honest play.
    pub z: Option<f64>,
    /// The figure flagged: the fit of its plays to its partner's true hand (its teammates'
    /// hands, in 够级) beyond its own view, against the field on the same boards
    /// (`bots::fairplay::Standing::z_partner`).
    pub z_partner: Option<f64>,
    /// The hits, against the field on the same boards.
    pub z_field: Option<f64>,
    /// The points saved, against the field.
    pub z_points: Option<f64>,
    /// Boards (games) compared with the field.
    pub field_boards: u32,
    pub flagged: bool,
    /// The decisions that weigh most: the plays whose chance of being the best rises most when
    /// the partner's hand is known (what a pair that saw it would play).
    pub drivers: Vec<Decision>,
}

/// The analysis of an event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub event: String,
    pub name: String,
    /// `shengji` or `gouji`.
    pub game: &'static str,
    pub threshold: f64,
    /// Tables (boards; games in 够级) analysed, of those played.
    pub tables: usize,
    pub tables_played: usize,
    pub decisions: u32,
    /// Pairs (teams in 够级), most suspicious first.
    pub pairs: Vec<PairLine>,
    /// Tables left out, and why.
    pub faults: Vec<(String, String)>,
}

impl Report {
    fn gouji(&self) -> bool {
        self.game == "gouji"
    }
}

/// How `paiju fairplay` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Csv,
}

/// The report as `paiju fairplay` prints it.
pub fn render(r: &Report, format: Format) -> String {
    match format {
        Format::Json => serde_json::to_string_pretty(r).unwrap_or_default() + "\n",
        Format::Csv => csv(r),
        Format::Text => text(r),
    }
}

fn pair_label(p: &PairLine) -> String {
    let who = match &p.side {
        SideKey::Pair { direction, number } => {
            let dir = match direction {
                Direction::NS => "南北 NS",
                Direction::EW => "东西 EW",
            };
            format!("{dir} {number}")
        }
        SideKey::Team { team, number } => format!("第{number}队 team {number} {team}"),
    };
    let names = if p.names.is_empty() {
        String::new()
    } else {
        format!(" {}", p.names.join(" / "))
    };
    let bot = if p.bot { "（电脑 computer）" } else { "" };
    format!("{who}{names}{bot}")
}

fn z_text(z: Option<f64>) -> String {
    z.map_or("–".into(), |z| format!("{z:+.2}"))
}

fn text(r: &Report) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let (unit, units, partner) = if r.gouji() {
        ("局 games", "局", "看得见队友的牌 with its teammates' hands")
    } else {
        (
            "副牌 boards",
            "副",
            "看得见同伴的牌 with its partner's hand",
        )
    };
    let _ = writeln!(
        out,
        "公平竞赛分析 fair-play analysis: {} (event {})",
        r.name, r.event
    );
    let _ = writeln!(
        out,
        "{}/{} {unit}, {} 个决定 decisions; 可疑度 ≥ {} 标记 flagged",
        r.tables, r.tables_played, r.decisions, r.threshold
    );
    let _ = writeln!(
        out,
        "只是供裁判参考的数字，不是判决（比赛规程 违规与判罚 第10条）。A figure for the referee, never a verdict.\n"
    );
    for (i, p) in r.pairs.iter().enumerate() {
        let t = &p.tally;
        let _ = writeln!(
            out,
            "{:>2}. {}{}",
            i + 1,
            pair_label(p),
            if p.flagged {
                "  ⚑ 请裁判查看 referee, please look"
            } else {
                ""
            }
        );
        let _ = writeln!(
            out,
            "    可疑度 figure {} (对照同场 {} {units} vs the field on {} {}), 决定 decisions {}",
            z_text(p.z_partner),
            p.field_boards,
            p.field_boards,
            if r.gouji() { "games" } else { "boards" },
            t.decisions
        );
        let _ = writeln!(
            out,
            "    命中 hits {:.0}, 预期 expected {:.1}: z 同场 field {}, 模型 model {}; 多得 points saved {:+.0}: z {}",
            t.hits,
            t.expected,
            z_text(p.z_field),
            z_text(p.z),
            t.saved,
            z_text(p.z_points)
        );
        for d in &p.drivers {
            let (zh, en) = if r.gouji() {
                ("局", "game")
            } else {
                ("副", "board")
            };
            let _ = writeln!(
                out,
                "      第{}轮 第{}{zh} round {} {en} {}: table {} #{}: 最好的机会 chance it is the best: 只凭自己看到的 on its own view {:.0} %, {partner} {:.0} %",
                d.round,
                d.board,
                d.round,
                d.board,
                d.table_id,
                d.seq,
                100.0 * d.evidence.expected,
                100.0 * d.evidence.with_partner
            );
        }
    }
    for (id, why) in &r.faults {
        let _ = writeln!(out, "未分析 not analysed: table {id}: {why}");
    }
    out
}

fn csv(r: &Report) -> String {
    use std::fmt::Write;
    let who = if r.gouji() {
        "team,number"
    } else {
        "direction,pair"
    };
    let mut out = format!(
        "rank,{who},names,computer,decisions,z_partner,field_boards,hits,expected,excess,z_field,z_model,points_saved,z_points,flagged\n",
    );
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let num = |z: Option<f64>| z.map_or(String::new(), |z| format!("{z:.3}"));
    for (i, p) in r.pairs.iter().enumerate() {
        let t = &p.tally;
        let side = match &p.side {
            SideKey::Pair { direction, number } => format!(
                "{},{number}",
                match direction {
                    Direction::NS => "NS",
                    Direction::EW => "EW",
                }
            ),
            SideKey::Team { team, number } => format!("{},{number}", quote(team)),
        };
        let _ = writeln!(
            out,
            "{},{side},{},{},{},{},{},{:.0},{:.3},{:.3},{},{},{:.1},{},{}",
            i + 1,
            quote(&p.names.join(" / ")),
            p.bot,
            t.decisions,
            num(p.z_partner),
            p.field_boards,
            t.hits,
            t.expected,
            t.excess(),
            num(p.z_field),
            num(p.z),
            t.saved,
            num(p.z_points),
            p.flagged
        );
    }
    out
}
