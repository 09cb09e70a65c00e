//! 够级 team events (附件1 够级比赛规程 五、2): the event's teams, the seeded draw as logged, the
//! knockout matches of six games and the final of six teams on three tables, as a pure state
//! over the event's log — and, from it alone, which game each table plays next. The matches,
//! the rotation and the tie-breaks are the `tournament::gouji` library's; this file only keeps
//! what was played and asks it.
//!
//! Rounds: each knockout round is one round of the event (its matches are its tables, one
//! table per match: games 1–6, then the extra games if the six left the teams level on
//! everything); the final is the last round (three tables, every table the same deal in a
//! game, the teams rotating after each game; then extra games between teams still level).
//! The draw of a round is computed by the server from the event's seed when the round starts
//! and logged (`draw`); anyone can draw it again once the seed is revealed.

use std::collections::BTreeMap;

use protocol::{
    EntryIn, GoujiFinalGroups, GoujiGame, GoujiGameResult, GoujiGroup, GoujiMatch, Problem,
    Refusal, SeatIndex, TeamDeductionLine, TeamGame, TeamInfo, TeamStatus, TeamTotal, Words,
};
use serde::{Deserialize, Serialize};

use super::refuse::{bad, not_now};
use tournament::gouji::draw::KnockoutRound;
use tournament::gouji::{
    advance, final_round::FinalInput, final_standings, match_result, ExtraGame, FinalGroups,
    GameRecord, Group, Placing, Side, TeamDeduction, TeamMatch, TeamStanding,
};

/// The game name of 够级 events.
pub const GOUJI: &str = "gouji";
/// Fewest teams: the final's six.
pub const MIN_TEAMS: usize = tournament::gouji::draw::FINALISTS;
/// Most teams an event may have.
pub const MAX_TEAMS: usize = 300;
/// Games in a knockout match: 对阵两支队伍比6局以得分高者为胜.
pub const MATCH_GAMES: u32 = tournament::gouji::team_match::MATCH_GAMES as u32;
/// Games of the final when the director says nothing: one rotation, every A team meets every B
/// team once.
pub const DEFAULT_FINAL_GAMES: u32 = 3;
/// Longest reason, in characters (as the 80分 ones).
pub const MAX_REASON: usize = 200;
/// Most extra games one round may need (a cycle of wins among three or more level teams could
/// otherwise go on): past this the director decides.
pub const MAX_EXTRA_GAMES: u32 = 12;

/// A registered team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Team {
    /// From 1, in the order registered.
    pub number: u32,
    /// Unique in the event: the draw and the library name teams by it.
    pub name: String,
    /// Three players (none for a bot team registered without names).
    pub names: Vec<String>,
    pub organisation: Option<String>,
    pub bot: bool,
}

impl Team {
    pub fn info(&self) -> TeamInfo {
        TeamInfo {
            number: self.number,
            name: self.name.clone(),
            names: self.names.clone(),
            organisation: self.organisation.clone(),
            bot: self.bot,
        }
    }

    /// The name a seat of the team shows: the player's, else the team's and the seat.
    pub fn player(&self, i: usize) -> String {
        self.names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("{}{}", self.name, i + 1))
    }
}

/// A side's seats at a 够级 table (A1, A2, A3 are 0, 2, 4; B1, B2, B3 are 1, 3, 5).
pub fn side_seats(side: Side) -> [SeatIndex; 3] {
    match side {
        Side::A => [0, 2, 4],
        Side::B => [1, 3, 5],
    }
}

/// What a round's draw gave, as the server logs it (computed from the event seed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drawn {
    /// Round 1: the groups (`tournament::gouji::draw_groups`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<Group>>,
    /// A knockout round (`knockout_round`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knockout: Option<KnockoutRound>,
    /// The final (`draw_final_groups`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_groups: Option<FinalGroups>,
}

/// One game at one table, once opened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    pub table_id: Option<String>,
    pub record: Option<GameRecord>,
    /// The director's reason, where `record` is the director's ruling (the table's result
    /// replaced).
    pub adjusted: Option<String>,
    /// Each team's word on the result (「由队长或领队签字确认该局比赛结果」): `None` agreed,
    /// `Some(note)` disputed. A ruling clears it: the teams confirm the new result.
    pub confirms: BTreeMap<String, Option<String>>,
}

/// What a round is, once drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Knockout(KnockoutRound),
    Final(FinalGroups),
}

/// One round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    pub round: u32,
    /// `None` between the round's start and its draw.
    pub kind: Option<Kind>,
    /// (table, game) → its table and result.
    pub games: BTreeMap<(u32, u32), Slot>,
    /// Team deductions made during the round, with the reason.
    pub deductions: Vec<TeamDeduction>,
    /// table → the director's lot for a knockout match its extra games left undecided.
    pub lots: BTreeMap<u32, Lot>,
}

/// A lot the director drew in person for a knockout match still level after its
/// [`MAX_EXTRA_GAMES`] extra games (each settling nothing): the match has no other way to end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lot {
    /// The team the lot named, by name (as the draw and the library name teams).
    pub winner: String,
    pub reason: String,
}

/// Who plays one game where: the runner opens it, the view shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    pub table: u32,
    pub game: u32,
    /// The deal number (see [`deal_number`]).
    pub deal: u32,
    pub a: String,
    pub b: String,
    pub extra: bool,
}

/// The deal a game is dealt from (with the event seed): knockout round r, match (table) t, game
/// g: `r·10000 + t·100 + g`; the final (round r): `r·10000 + g`, the same at its three tables.
pub fn deal_number(kind: &Kind, round: u32, table: u32, game: u32) -> u32 {
    match kind {
        Kind::Knockout(_) => round * 10_000 + table * 100 + game,
        Kind::Final(_) => round * 10_000 + game,
    }
}

/// The extra game a record settles: the side that took 头科 wins (加赛一局，以头科一方为胜); after
/// a forfeit (no 头科) the side with more points; nothing when level.
fn extra_of(a: &str, b: &str, r: &GameRecord) -> Option<ExtraGame> {
    let winner = match (r.first, r.a.cmp(&r.b)) {
        (Some(side), _) => side,
        (None, std::cmp::Ordering::Greater) => Side::A,
        (None, std::cmp::Ordering::Less) => Side::B,
        (None, std::cmp::Ordering::Equal) => return None,
    };
    let (w, l) = match winner {
        Side::A => (a, b),
        Side::B => (b, a),
    };
    Some(ExtraGame {
        winner: w.to_string(),
        loser: l.to_string(),
    })
}

/// The first run of teams still level (an extra game needed), in ranking order.
fn level_run(standings: &[TeamStanding]) -> Option<Vec<String>> {
    standings.iter().find_map(|s| match &s.placing {
        Placing::ExtraGameNeeded { with, .. } => Some(with.clone()),
        Placing::Placed { .. } => None,
    })
}

/// The two teams of a level run who have met least in extra games so far (the first such, in
/// ranking order): the higher-ranked sits A.
fn pair_of(run: &[String], met: &[(String, String)]) -> (String, String) {
    let mut best: Option<(usize, (String, String))> = None;
    for i in 0..run.len() {
        for j in i + 1..run.len() {
            let n = met
                .iter()
                .filter(|(x, y)| (x == &run[i] && y == &run[j]) || (x == &run[j] && y == &run[i]))
                .count();
            if best.as_ref().is_none_or(|(m, _)| n < *m) {
                best = Some((n, (run[i].clone(), run[j].clone())));
            }
        }
    }
    best.map(|(_, p)| p).expect("a level run has two teams")
}

impl Stage {
    fn record(&self, table: u32, game: u32) -> Option<&GameRecord> {
        self.games
            .get(&(table, game))
            .and_then(|s| s.record.as_ref())
    }

    fn deductions_of(&self, teams: &[&str]) -> Vec<TeamDeduction> {
        self.deductions
            .iter()
            .filter(|d| teams.contains(&d.team.as_str()))
            .cloned()
            .collect()
    }

    /// A knockout match as the library sees it, the extra games played (decided or not), and
    /// the extra game to play next if it needs one.
    fn team_match(&self, table: u32, a: &str, b: &str) -> (TeamMatch, u32, Option<Seating>) {
        let games: Vec<GameRecord> = (1..=MATCH_GAMES)
            .map_while(|g| self.record(table, g).cloned())
            .collect();
        let mut m = TeamMatch {
            a: a.to_string(),
            b: b.to_string(),
            games,
            deductions: self.deductions_of(&[a, b]),
            extra_games: Vec::new(),
        };
        let mut game = MATCH_GAMES;
        loop {
            let Ok(r) = match_result(&m) else {
                return (m, game - MATCH_GAMES, None);
            };
            if !r.extra_game_needed {
                return (m, game - MATCH_GAMES, None);
            }
            if game >= MATCH_GAMES + MAX_EXTRA_GAMES {
                // Spent and still level: only the director's lot can end it. The library
                // orders two teams level on everything by their extra-game wins alone, so the
                // lot is given to it as one won (the views say it was a lot).
                if let Some(lot) = self.lots.get(&table) {
                    let loser = if lot.winner == a { b } else { a };
                    m.extra_games.push(ExtraGame {
                        winner: lot.winner.clone(),
                        loser: loser.to_string(),
                    });
                }
                return (m, game - MATCH_GAMES, None);
            }
            game += 1;
            match self.record(table, game) {
                Some(rec) => m.extra_games.extend(extra_of(a, b, rec)),
                None => {
                    let seating = Seating {
                        table,
                        game,
                        deal: 0,
                        a: a.to_string(),
                        b: b.to_string(),
                        extra: true,
                    };
                    return (m, game - 1 - MATCH_GAMES, Some(seating));
                }
            }
        }
    }

    /// The final's input (results of the scheduled games while all three tables have them),
    /// the extra games played (with who sat A and B), and the next extra game if one is needed.
    fn final_input(
        &self,
        groups: &FinalGroups,
        games: u32,
    ) -> (FinalInput, Vec<Seating>, Option<Seating>) {
        let results: Vec<[GameRecord; 3]> = (1..=games)
            .map_while(|g| {
                Some([
                    self.record(1, g)?.clone(),
                    self.record(2, g)?.clone(),
                    self.record(3, g)?.clone(),
                ])
            })
            .collect();
        let complete = results.len() as u32 == games;
        let teams: Vec<&str> = groups
            .a
            .iter()
            .chain(&groups.b)
            .map(String::as_str)
            .collect();
        let mut input = FinalInput {
            groups: groups.clone(),
            games,
            results,
            deductions: self.deductions_of(&teams),
            extra_games: Vec::new(),
        };
        let mut extras = Vec::new();
        if !complete {
            return (input, extras, None);
        }
        let mut game = games;
        loop {
            let Ok(standings) = final_standings(&input) else {
                return (input, extras, None);
            };
            let Some(run) = level_run(&standings) else {
                return (input, extras, None);
            };
            if game >= games + MAX_EXTRA_GAMES {
                return (input, extras, None);
            }
            let met: Vec<(String, String)> = extras
                .iter()
                .map(|s: &Seating| (s.a.clone(), s.b.clone()))
                .collect();
            let (a, b) = pair_of(&run, &met);
            game += 1;
            let seating = Seating {
                table: 1,
                game,
                deal: 0,
                a,
                b,
                extra: true,
            };
            match self.record(1, game) {
                Some(rec) => {
                    input
                        .extra_games
                        .extend(extra_of(&seating.a, &seating.b, rec));
                    extras.push(seating);
                }
                None => return (input, extras, Some(seating)),
            }
        }
    }
}

/// A 够级 event's own state.
#[derive(Clone, Debug)]
pub struct GoujiEvent {
    pub teams: Vec<Team>,
    /// Groups asked for the draw.
    pub groups_wanted: u32,
    pub final_games: u32,
    /// The groups as drawn at round 1.
    pub drawn_groups: Vec<Group>,
    /// The groups now: the teams still in.
    pub left: Vec<Group>,
    /// One per round started.
    pub stages: Vec<Stage>,
}

/// A trimmed text of 1 to `max` characters, without control characters.
pub fn text(raw: &str, max: usize, what_zh: &str, what_en: &str) -> Result<String, Problem> {
    let s: String = raw.chars().filter(|c| !c.is_control()).collect();
    let s = s.trim().to_string();
    let n = s.chars().count();
    if n == 0 || n > max {
        return Err(bad(
            format!("{what_zh}要 1 到 {max} 个字"),
            format!("{what_en} must be 1 to {max} characters"),
        ));
    }
    Ok(s)
}

impl GoujiEvent {
    /// The state a `create` makes (teams not yet registered).
    pub fn create(groups: Option<u32>, final_games: Option<u32>) -> Result<GoujiEvent, Problem> {
        let final_games = final_games.unwrap_or(DEFAULT_FINAL_GAMES);
        if final_games == 0 || !final_games.is_multiple_of(3) || final_games > 30 {
            return Err(bad(
                format!("决赛局数 {final_games} 不对：应为 3 的倍数（3 到 30），每 3 局 A 组每队与 B 组每队各赛一局"),
                format!("{final_games} final games: must be a multiple of 3 (3 to 30), so that every A team meets every B team equally often"),
            ));
        }
        if groups == Some(0) {
            return Err(bad("小组数至少为 1", "at least one group"));
        }
        Ok(GoujiEvent {
            teams: Vec::new(),
            groups_wanted: groups.unwrap_or(0),
            final_games,
            drawn_groups: Vec::new(),
            left: Vec::new(),
            stages: Vec::new(),
        })
    }

    /// The teams of a registration, checked (and the groups of the draw, when not given).
    pub fn register(&mut self, entries: &[EntryIn]) -> Result<(), Problem> {
        if entries.len() < MIN_TEAMS || entries.len() > MAX_TEAMS {
            return Err(bad(
                format!(
                    "够级比赛要 {MIN_TEAMS} 到 {MAX_TEAMS} 支队（决赛 6 队），收到 {} 支",
                    entries.len()
                ),
                format!(
                    "a 够级 event needs {MIN_TEAMS} to {MAX_TEAMS} teams (six play the final); got {}",
                    entries.len()
                ),
            ));
        }
        let mut teams: Vec<Team> = Vec::with_capacity(entries.len());
        let mut per_org: BTreeMap<String, u32> = BTreeMap::new();
        for (i, e) in entries.iter().enumerate() {
            let number = i as u32 + 1;
            let names = if e.bot && e.names.is_empty() {
                Vec::new()
            } else {
                if e.names.len() != 3 {
                    return Err(bad(
                        format!("第 {number} 队：一队是三位选手"),
                        format!("team {number}: a team is three players"),
                    ));
                }
                e.names
                    .iter()
                    .map(|n| crate::lobby::display_name(n).map_err(Problem::from))
                    .collect::<Result<Vec<_>, _>>()?
            };
            let organisation = match &e.organisation {
                Some(o) if !o.trim().is_empty() => Some(text(o, 40, "单位", "organisation")?),
                _ => None,
            };
            let name = match &e.team {
                Some(t) if !t.trim().is_empty() => text(t, 40, "队名", "the team's name")?,
                _ => match &organisation {
                    Some(o) => {
                        let k = per_org.entry(o.clone()).or_default();
                        *k += 1;
                        format!("{o}{k}队")
                    }
                    None => format!("第{number}队"),
                },
            };
            if teams.iter().any(|t| t.name == name) {
                return Err(bad(
                    format!("队名「{name}」重复了"),
                    format!("two teams are named \"{name}\""),
                ));
            }
            teams.push(Team {
                number,
                name,
                names,
                organisation,
                bot: e.bot,
            });
        }
        let entrants = entrants(&teams);
        let groups = self.groups_for(&entrants);
        // The draw's own refusals (an organisation with more teams than groups, …) now rather
        // than at round 1.
        tournament::gouji::draw_groups(&entrants, groups as usize, &rules::deal::Seed([0; 32]))
            .map_err(|e| Problem::explain(&e))?;
        self.teams = teams;
        Ok(())
    }

    /// Groups of the draw: as asked, else 2 or the most teams one organisation has.
    pub fn groups_for(&self, entrants: &[tournament::gouji::Entrant]) -> u32 {
        if self.groups_wanted > 0 {
            return self.groups_wanted;
        }
        let mut per: BTreeMap<&str, u32> = BTreeMap::new();
        for e in entrants {
            *per.entry(e.organisation.as_str()).or_default() += 1;
        }
        per.values().copied().max().unwrap_or(1).max(2)
    }

    pub fn team(&self, name: &str) -> Option<&Team> {
        self.teams.iter().find(|t| t.name == name)
    }

    pub fn stage(&self, round: u32) -> Option<&Stage> {
        self.stages.iter().find(|s| s.round == round)
    }

    fn stage_mut(&mut self, round: u32) -> Option<&mut Stage> {
        self.stages.iter_mut().find(|s| s.round == round)
    }

    /// Teams still in.
    pub fn left_count(&self) -> usize {
        if self.left.is_empty() {
            self.teams.len()
        } else {
            self.left.iter().map(|g| g.teams.len()).sum()
        }
    }

    /// The final's round, once drawn.
    pub fn final_round(&self) -> Option<u32> {
        self.stages
            .iter()
            .find(|s| matches!(s.kind, Some(Kind::Final(_))))
            .map(|s| s.round)
    }

    /// Every game of a round so far, scheduled or extra, in table and game order, and whether
    /// each has a result.
    pub fn seatings(&self, round: u32) -> Vec<(Seating, bool)> {
        let Some(stage) = self.stage(round) else {
            return Vec::new();
        };
        let Some(kind) = &stage.kind else {
            return Vec::new();
        };
        let mut out: Vec<Seating> = Vec::new();
        match kind {
            Kind::Knockout(k) => {
                for (i, m) in k.matches.iter().enumerate() {
                    let table = i as u32 + 1;
                    for game in 1..=MATCH_GAMES {
                        out.push(Seating {
                            table,
                            game,
                            deal: 0,
                            a: m.a.clone(),
                            b: m.b.clone(),
                            extra: false,
                        });
                    }
                    let (_, extras, next) = stage.team_match(table, &m.a, &m.b);
                    for game in MATCH_GAMES + 1..=MATCH_GAMES + extras {
                        out.push(Seating {
                            table,
                            game,
                            deal: 0,
                            a: m.a.clone(),
                            b: m.b.clone(),
                            extra: true,
                        });
                    }
                    out.extend(next);
                }
            }
            Kind::Final(groups) => {
                let schedule =
                    tournament::gouji::final_schedule(groups, self.final_games).unwrap_or_default();
                for t in 1..=3u32 {
                    for g in &schedule {
                        let at = &g.tables[t as usize - 1];
                        out.push(Seating {
                            table: t,
                            game: g.game,
                            deal: 0,
                            a: at.a.clone(),
                            b: at.b.clone(),
                            extra: false,
                        });
                    }
                }
                let (_, extras, next) = stage.final_input(groups, self.final_games);
                out.extend(extras);
                out.extend(next);
            }
        }
        out.into_iter()
            .map(|mut s| {
                s.deal = deal_number(kind, round, s.table, s.game);
                let done = stage.record(s.table, s.game).is_some();
                (s, done)
            })
            .collect()
    }

    /// The games to be played now: per knockout table the first without a result; in the final
    /// every table's game of the lowest game number not finished everywhere, then the extra
    /// game.
    pub fn open_now(&self, round: u32) -> Vec<Seating> {
        let all = self.seatings(round);
        let Some(stage) = self.stage(round) else {
            return Vec::new();
        };
        match &stage.kind {
            Some(Kind::Knockout(_)) => {
                let mut out: Vec<Seating> = Vec::new();
                for (s, done) in all {
                    if !done && !out.iter().any(|o| o.table == s.table) {
                        out.push(s);
                    }
                }
                out
            }
            Some(Kind::Final(_)) => {
                let Some(g) = all.iter().filter(|(_, d)| !d).map(|(s, _)| s.game).min() else {
                    return Vec::new();
                };
                all.into_iter()
                    .filter(|(s, d)| !d && s.game == g)
                    .map(|(s, _)| s)
                    .collect()
            }
            None => Vec::new(),
        }
    }

    /// A knockout round's matches as they stand: (table, match, result).
    pub fn matches(&self, round: u32) -> Vec<(u32, TeamMatch, tournament::gouji::MatchResult)> {
        let Some(stage) = self.stage(round) else {
            return Vec::new();
        };
        let Some(Kind::Knockout(k)) = &stage.kind else {
            return Vec::new();
        };
        k.matches
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let (tm, _, _) = stage.team_match(i as u32 + 1, &m.a, &m.b);
                let r = match_result(&tm).ok()?;
                Some((i as u32 + 1, tm, r))
            })
            .collect()
    }

    /// The final's standings as they stand.
    pub fn final_standings(&self) -> Option<Vec<TeamStanding>> {
        let stage = self.stage(self.final_round()?)?;
        let Some(Kind::Final(groups)) = &stage.kind else {
            return None;
        };
        let (input, _, _) = stage.final_input(groups, self.final_games);
        final_standings(&input).ok()
    }

    /// Every game of the round has a result and nothing is left level.
    pub fn round_complete(&self, round: u32) -> bool {
        let Some(stage) = self.stage(round) else {
            return false;
        };
        let all = self.seatings(round);
        if all.is_empty() || all.iter().any(|(_, d)| !d) {
            return false;
        }
        match &stage.kind {
            Some(Kind::Knockout(_)) => self
                .matches(round)
                .iter()
                .all(|(_, _, r)| r.winner.is_some()),
            Some(Kind::Final(_)) => {
                self.final_standings()
                    .is_some_and(|s| level_run(&s).is_none())
                    || self.final_extra_games_spent()
            }
            None => false,
        }
    }

    /// The final played its [`MAX_EXTRA_GAMES`] and teams are still level (a cycle of wins among
    /// three or more): no more extra games. Those teams share the best place they are level for
    /// and the places after it stay empty (seed 003: 「若因比赛赛制确不能解决名次并列问题的…名次空出」).
    pub fn final_extra_games_spent(&self) -> bool {
        let Some(stage) = self.final_round().and_then(|r| self.stage(r)) else {
            return false;
        };
        let Some(Kind::Final(groups)) = &stage.kind else {
            return false;
        };
        let (input, extras, next) = stage.final_input(groups, self.final_games);
        next.is_none()
            && extras.len() as u32 >= MAX_EXTRA_GAMES
            && final_standings(&input).is_ok_and(|s| level_run(&s).is_some())
    }

    /// Where a team plays now in a round: the game open for it.
    pub fn open_for(&self, round: u32, team: &str) -> Option<(Seating, Side)> {
        self.open_now(round).into_iter().find_map(|s| {
            if s.a == team {
                Some((s, Side::A))
            } else if s.b == team {
                Some((s.clone(), Side::B))
            } else {
                None
            }
        })
    }

    /// Whether a team plays in a round (not a bye, not out).
    pub fn plays_in(&self, round: u32, team: &str) -> bool {
        match self.stage(round).and_then(|s| s.kind.as_ref()) {
            Some(Kind::Knockout(k)) => k.matches.iter().any(|m| m.a == team || m.b == team),
            Some(Kind::Final(g)) => g.a.iter().chain(&g.b).any(|t| t == team),
            None => false,
        }
    }

    // --- the log's actions -------------------------------------------------------------------

    /// A round starts (the shared counters are the event's).
    pub fn start_round(&mut self, round: u32) -> Result<(), Problem> {
        if self.teams.is_empty() {
            return Err(not_now(
                "还没有报名：请先登记各队",
                "no teams registered yet",
            ));
        }
        if self.final_round().is_some() {
            return Err(not_now(
                "决赛已经开始：没有下一轮",
                "the final has been drawn: there is no next round",
            ));
        }
        self.stages.push(Stage {
            round,
            kind: None,
            games: BTreeMap::new(),
            deductions: Vec::new(),
            lots: BTreeMap::new(),
        });
        Ok(())
    }

    /// The round's draw, as the server computed it: checked against the teams still in.
    pub fn draw(&mut self, round: u32, drawn: &Drawn) -> Result<(), Problem> {
        let wrong = |why: &str| {
            Err(Problem::from(Refusal::Internal(Words::new(
                "抽签结果与比赛不符",
                format!("the draw does not fit the event: {why}"),
            ))))
        };
        let Some(stage) = self.stage(round) else {
            return Err(not_now("这一轮没有开始", "that round has not started"));
        };
        if stage.kind.is_some() {
            return Err(not_now("这一轮已经抽过签", "that round is drawn already"));
        }
        let mut left = self.left.clone();
        match (&drawn.groups, round) {
            (Some(groups), 1) => {
                let mut named: Vec<&String> = groups.iter().flat_map(|g| &g.teams).collect();
                named.sort();
                let mut all: Vec<&String> = self.teams.iter().map(|t| &t.name).collect();
                all.sort();
                if named != all {
                    return wrong("the groups are not the registered teams");
                }
                left = groups.clone();
            }
            (None, r) if r > 1 => {}
            _ => return wrong("groups are drawn in round 1, and only then"),
        }
        let mut teams_left: Vec<&String> = left.iter().flat_map(|g| &g.teams).collect();
        teams_left.sort();
        let kind = match (&drawn.knockout, &drawn.final_groups) {
            (Some(k), None) if teams_left.len() > MIN_TEAMS => {
                let mut named: Vec<&String> = k
                    .matches
                    .iter()
                    .flat_map(|m| [&m.a, &m.b])
                    .chain(&k.byes)
                    .collect();
                named.sort();
                if named != teams_left || k.matches.is_empty() {
                    return wrong("the knockout round is not the teams still in");
                }
                Kind::Knockout(k.clone())
            }
            (None, Some(f)) if teams_left.len() == MIN_TEAMS => {
                let mut named: Vec<&String> = f.a.iter().chain(&f.b).collect();
                named.sort();
                if named != teams_left {
                    return wrong("the final's groups are not the six teams still in");
                }
                Kind::Final(f.clone())
            }
            _ => return wrong("a knockout round while more than six are in, else the final"),
        };
        if round == 1 {
            self.drawn_groups = left.clone();
        }
        self.left = left;
        self.stage_mut(round).expect("checked").kind = Some(kind);
        Ok(())
    }

    /// The server opened a game's table.
    pub fn opened(
        &mut self,
        round: u32,
        table: u32,
        game: u32,
        table_id: &str,
    ) -> Result<(), Problem> {
        if !self
            .open_now(round)
            .iter()
            .any(|s| s.table == table && s.game == game)
        {
            return Err(not_now(
                format!("第 {round} 轮第 {table} 桌现在不打第 {game} 局"),
                format!("table {table} of round {round} does not play game {game} now"),
            ));
        }
        self.stage_mut(round)
            .expect("open games are in a stage")
            .games
            .entry((table, game))
            .or_default()
            .table_id = Some(table_id.to_string());
        Ok(())
    }

    /// The server read a game's result from its table.
    pub fn result(
        &mut self,
        round: u32,
        table: u32,
        game: u32,
        table_id: &str,
        record: &GameRecord,
    ) -> Result<(), Problem> {
        let slot = self
            .stage_mut(round)
            .and_then(|s| s.games.get_mut(&(table, game)))
            .filter(|s| s.table_id.as_deref() == Some(table_id) && s.record.is_none())
            .ok_or_else(|| {
                not_now(
                    "这张牌桌不是这一局的，或这一局已有成绩",
                    "that table does not deal this game here, or the game has its result",
                )
            })?;
        slot.record = Some(record.clone());
        Ok(())
    }

    /// The director's ruling on a finished game: its result replaced, with the reason. What it
    /// changes follows by itself: a match may now need an extra game (it opens) or no longer
    /// need one it played (that game no longer counts).
    pub fn adjust(
        &mut self,
        round: u32,
        table: u32,
        game: u32,
        record: &GameRecord,
        reason: &str,
    ) -> Result<(), Problem> {
        let most = 100;
        if record.a.abs() > most || record.b.abs() > most || record.last.len() > 6 {
            return Err(bad(
                format!("成绩不对：每队得分应在 -{most} 到 {most} 之间，大落最多 6 个"),
                format!("a result of -{most} to {most} points a team and at most 6 大落"),
            ));
        }
        let reason = text(reason, MAX_REASON, "理由", "the reason")?;
        let slot = self
            .stage_mut(round)
            .and_then(|s| s.games.get_mut(&(table, game)))
            .filter(|s| s.record.is_some())
            .ok_or_else(|| {
                not_now(
                    format!("第 {round} 轮第 {table} 桌第 {game} 局还没有成绩：打完才能改判"),
                    format!("game {game} at table {table} of round {round} has no result yet: a ruling replaces a finished game's"),
                )
            })?;
        slot.record = Some(record.clone());
        slot.adjusted = Some(reason);
        slot.confirms.clear();
        Ok(())
    }

    /// A team's captain confirms (or disputes, with a note) every result the team has in the
    /// round so far (「每局比赛结束后，由队长或领队签字确认该局比赛结果」). Games finished later
    /// are confirmed by a later call.
    pub fn confirm(
        &mut self,
        round: u32,
        team: u32,
        agree: bool,
        note: Option<&str>,
    ) -> Result<(), Problem> {
        let name = match self.teams.iter().find(|t| t.number == team) {
            Some(t) => t.name.clone(),
            None => return Err(bad(format!("没有第 {team} 队"), format!("no team {team}"))),
        };
        let word = match (agree, note) {
            (true, _) => None,
            (false, Some(n)) => Some(text(n, MAX_REASON, "异议", "the dispute")?),
            (false, None) => {
                return Err(bad(
                    "有异议请写明原因",
                    "a dispute says what is wrong (a note)",
                ))
            }
        };
        let games: Vec<(u32, u32)> = self
            .seatings(round)
            .into_iter()
            .filter(|(s, done)| *done && (s.a == name || s.b == name))
            .map(|(s, _)| (s.table, s.game))
            .collect();
        if games.is_empty() {
            return Err(not_now(
                format!("「{name}」这一轮还没有打完的局"),
                format!("\"{name}\" has no finished game this round yet"),
            ));
        }
        let stage = self
            .stage_mut(round)
            .expect("a team with games is in a stage");
        for key in games {
            if let Some(slot) = stage.games.get_mut(&key) {
                slot.confirms.insert(name.clone(), word.clone());
            }
        }
        Ok(())
    }

    /// The round's finished games a team of people has not agreed to, or disputes: (table,
    /// game). Computer teams agree by themselves.
    pub fn unconfirmed(&self, round: u32) -> Vec<(u32, u32)> {
        let Some(stage) = self.stage(round) else {
            return Vec::new();
        };
        self.seatings(round)
            .into_iter()
            .filter(|(s, done)| {
                *done
                    && [&s.a, &s.b].into_iter().any(|team| {
                        let people = self.team(team).is_some_and(|t| !t.bot);
                        let word = stage
                            .games
                            .get(&(s.table, s.game))
                            .and_then(|slot| slot.confirms.get(team.as_str()));
                        people && !matches!(word, Some(None))
                    })
            })
            .map(|(s, _)| (s.table, s.game))
            .collect()
    }

    /// The director's 扣该队4分.
    pub fn deduct(
        &mut self,
        round: u32,
        team: u32,
        points: i32,
        reason: &str,
    ) -> Result<(), Problem> {
        let Some(t) = self.teams.iter().find(|t| t.number == team) else {
            return Err(bad(format!("没有第 {team} 队"), format!("no team {team}")));
        };
        let name = t.name.clone();
        if !self.plays_in(round, &name) {
            return Err(not_now(
                format!("「{name}」这一轮没有比赛"),
                format!("\"{name}\" plays no match this round"),
            ));
        }
        if !(1..=100).contains(&points) {
            return Err(bad(
                format!("扣分 {points} 不对：应为 1 到 100"),
                format!("a deduction of {points}: must be 1 to 100 points"),
            ));
        }
        let reason = text(reason, MAX_REASON, "理由", "the reason")?;
        self.stage_mut(round)
            .expect("a team plays in a started round")
            .deductions
            .push(TeamDeduction {
                team: name,
                points,
                reason: Some(reason),
            });
        Ok(())
    }

    /// A knockout match whose [`MAX_EXTRA_GAMES`] extra games are played and left it level (no
    /// lot drawn yet): the director must draw lots.
    pub fn lot_needed(&self, round: u32, table: u32) -> bool {
        let Some(stage) = self.stage(round) else {
            return false;
        };
        let Some(Kind::Knockout(k)) = &stage.kind else {
            return false;
        };
        let Some(m) = k.matches.get((table as usize).wrapping_sub(1)) else {
            return false;
        };
        let (tm, extras, next) = stage.team_match(table, &m.a, &m.b);
        next.is_none()
            && extras >= MAX_EXTRA_GAMES
            && !stage.lots.contains_key(&table)
            && match_result(&tm).is_ok_and(|r| r.extra_game_needed)
    }

    /// A team by its name or, typed as digits, its number.
    pub fn team_named(&self, typed: &str) -> Option<&Team> {
        let typed = typed.trim();
        self.team(typed).or_else(|| {
            let n: u32 = typed.parse().ok()?;
            self.teams.iter().find(|t| t.number == n)
        })
    }

    /// The director's lot (抽签) for a knockout match its extra games left undecided: `winner`
    /// (a team's name or number) takes the match. Only then: a match that can still be decided
    /// by play is refused, so a lot never replaces a game.
    pub fn lot(
        &mut self,
        round: u32,
        table: u32,
        winner: &str,
        reason: &str,
    ) -> Result<(), Problem> {
        let stage = self
            .stage(round)
            .ok_or_else(|| not_now("这一轮没有开始", "that round has not started"))?;
        let Some(Kind::Knockout(k)) = &stage.kind else {
            return Err(not_now(
                "抽签只用于淘汰赛：决赛加赛用完仍并列的队伍名次并列",
                "lots are for knockout matches: teams of the final still level after its extra games share their place",
            ));
        };
        let Some(m) = k.matches.get((table as usize).wrapping_sub(1)) else {
            return Err(bad(
                format!("第 {round} 轮没有第 {table} 桌的对阵"),
                format!("round {round} has no match at table {table}"),
            ));
        };
        let team = self.team_named(winner).map(|t| t.name.clone());
        let Some(name) = team.filter(|n| *n == m.a || *n == m.b) else {
            return Err(bad(
                format!(
                    "「{winner}」不是第 {table} 桌对阵的一方（{} 对 {}）",
                    m.a, m.b
                ),
                format!(
                    "\"{winner}\" is not a team of the match at table {table} ({} v {})",
                    m.a, m.b
                ),
            ));
        };
        if stage.lots.contains_key(&table) {
            return Err(not_now(
                format!("第 {table} 桌已经抽过签"),
                format!("the match at table {table} has had its lot drawn"),
            ));
        }
        if !self.lot_needed(round, table) {
            return Err(not_now(
                format!("第 {table} 桌的对阵还能由比赛决定：{MAX_EXTRA_GAMES} 局加赛都打完仍不分胜负才抽签"),
                format!("the match at table {table} can still be decided by play: lots are drawn only once its {MAX_EXTRA_GAMES} extra games have left it level"),
            ));
        }
        let reason = text(reason, MAX_REASON, "理由", "the reason")?;
        self.stage_mut(round).expect("checked").lots.insert(
            table,
            Lot {
                winner: name,
                reason,
            },
        );
        Ok(())
    }

    /// The director closes a round: every game in, every match won, nobody level in the final,
    /// every result confirmed by both teams unless `forced`.
    pub fn close(&mut self, round: u32, forced: bool) -> Result<(), Problem> {
        if !self.round_complete(round) {
            return Err(not_now(
                format!("第 {round} 轮还有局没有成绩（或还要加赛）"),
                format!("round {round} has games without a result (or an extra game to play)"),
            ));
        }
        let open = self.unconfirmed(round);
        if !forced && !open.is_empty() {
            let games: Vec<String> = open.iter().map(|(t, g)| format!("{t}-{g}")).collect();
            return Err(not_now(
                format!(
                    "这些局（桌-局）的成绩还没有双方队长确认（或有异议）：{}；裁判长可强制结束本轮",
                    games.join("、")
                ),
                format!(
                    "these games (table-game) are not confirmed by both captains (or disputed): {}; the director may force the close",
                    games.join(", ")
                ),
            ));
        }
        let stage = self.stage(round).expect("complete");
        if let Some(Kind::Knockout(k)) = &stage.kind {
            let winners: Vec<String> = self
                .matches(round)
                .into_iter()
                .filter_map(|(_, _, r)| r.winner)
                .collect();
            self.left = advance(&self.left, k, &winners).map_err(|e| Problem::explain(&e))?;
        }
        Ok(())
    }

    /// The final is closed: the seed may be revealed.
    pub fn over(&self, closed: u32) -> bool {
        self.final_round().is_some_and(|r| r <= closed)
    }

    // --- views -----------------------------------------------------------------------------

    pub fn group_view(&self) -> Vec<GoujiGroup> {
        self.drawn_groups
            .iter()
            .map(|g| GoujiGroup {
                name: g.name.clone(),
                teams: g.teams.clone(),
            })
            .collect()
    }

    pub fn match_view(&self, round: u32, results: bool) -> Vec<GoujiMatch> {
        let groups: Vec<String> = match self.stage(round).and_then(|s| s.kind.as_ref()) {
            Some(Kind::Knockout(k)) => k.matches.iter().map(|m| m.group.clone()).collect(),
            _ => Vec::new(),
        };
        self.matches(round)
            .into_iter()
            .map(|(table, tm, r)| {
                let pts = |team: &str| {
                    r.standings
                        .iter()
                        .find(|s| s.team == team)
                        .map_or(0, |s| s.points)
                };
                GoujiMatch {
                    table,
                    group: groups.get(table as usize - 1).cloned().unwrap_or_default(),
                    points: results.then(|| [pts(&tm.a), pts(&tm.b)]),
                    played: tm.games.len() as u32,
                    winner: r.winner.clone().filter(|_| results),
                    extra_game_needed: r.extra_game_needed,
                    lot_needed: self.lot_needed(round, table),
                    lot: self
                        .stage(round)
                        .and_then(|s| s.lots.get(&table))
                        .filter(|_| results && r.winner.is_some())
                        .map(|l| l.reason.clone()),
                    a: tm.a,
                    b: tm.b,
                }
            })
            .collect()
    }

    pub fn final_groups_view(&self, round: u32) -> Option<GoujiFinalGroups> {
        match self.stage(round)?.kind.as_ref()? {
            Kind::Final(g) => Some(GoujiFinalGroups {
                a: g.a.to_vec(),
                b: g.b.to_vec(),
            }),
            Kind::Knockout(_) => None,
        }
    }

    pub fn byes(&self, round: u32) -> Vec<String> {
        match self.stage(round).and_then(|s| s.kind.as_ref()) {
            Some(Kind::Knockout(k)) => k.byes.clone(),
            _ => Vec::new(),
        }
    }

    /// The round's games; `summary` gives a table's state and seq from its id.
    pub fn games_view(
        &self,
        round: u32,
        results: bool,
        summary: impl Fn(&str) -> Option<(protocol::TableState, u64)>,
    ) -> Vec<GoujiGame> {
        let Some(stage) = self.stage(round) else {
            return Vec::new();
        };
        self.seatings(round)
            .into_iter()
            .map(|(s, done)| {
                let slot = stage.games.get(&(s.table, s.game));
                let table_id = slot.and_then(|x| x.table_id.clone());
                let now = table_id.as_deref().and_then(&summary);
                GoujiGame {
                    table: s.table,
                    game: s.game,
                    deal: s.deal,
                    a: s.a,
                    b: s.b,
                    extra: s.extra,
                    table_id,
                    state: now.map(|n| n.0),
                    seq: now.map(|n| n.1),
                    result: slot
                        .and_then(|x| x.record.as_ref())
                        .filter(|_| results)
                        .map(result_view),
                    adjusted: slot.and_then(|x| x.adjusted.clone()).filter(|_| results),
                    confirms: slot
                        .filter(|_| results)
                        .map(|x| {
                            x.confirms
                                .iter()
                                .map(|(team, word)| protocol::GameConfirm {
                                    team: team.clone(),
                                    agree: word.is_none(),
                                    note: word.clone(),
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                    done,
                }
            })
            .collect()
    }

    /// A team's own view (its token's page): the round it plays now, or the one it went out
    /// in, with its match, its games and their results, its totals. Only its own games: another
    /// match's results stay the director's until the public may see them.
    pub fn team_status(&self, team: &str, latest: u32) -> TeamStatus {
        let out =
            !self.left.is_empty() && !self.left.iter().any(|g| g.teams.iter().any(|t| t == team));
        let round = if out {
            (1..=latest)
                .rev()
                .find(|&r| self.plays_in(r, team))
                .unwrap_or(latest)
        } else {
            latest
        };
        let mut st = self.team_round(team, round, out);
        // The knockout matches it won before, oldest first (its own games: it played them).
        st.earlier = (1..round)
            .filter(|&r| self.plays_in(r, team))
            .map(|r| self.team_round(team, r, false))
            .collect();
        st
    }

    /// A team's match of one round, as [`Self::team_status`] shows it.
    fn team_round(&self, team: &str, round: u32, out: bool) -> TeamStatus {
        let mut st = TeamStatus {
            name: team.to_string(),
            stage: "waiting".into(),
            round,
            opponent: None,
            final_group: None,
            final_groups: None,
            games: Vec::new(),
            totals: Vec::new(),
            winner: None,
            lot: None,
            out_round: out.then_some(round),
            earlier: Vec::new(),
        };
        let Some(stage) = self.stage(round) else {
            return st;
        };
        let now = self.open_for(round, team).map(|(s, _)| (s.table, s.game));
        // In game order (the final's seatings are listed table by table).
        let mut seatings = self.seatings(round);
        seatings.sort_by_key(|(s, _)| (s.game, s.table));
        let mine: Vec<TeamGame> = seatings
            .into_iter()
            .filter(|(s, _)| s.a == team || s.b == team)
            .map(|(s, done)| {
                let slot = stage.games.get(&(s.table, s.game));
                let ours_a = s.a == team;
                TeamGame {
                    table: s.table,
                    game: s.game,
                    extra: s.extra,
                    side: if ours_a { "a" } else { "b" }.into(),
                    opponent: if ours_a { s.b.clone() } else { s.a.clone() },
                    done,
                    now: now == Some((s.table, s.game)),
                    result: slot.and_then(|x| x.record.as_ref()).map(result_view),
                    adjusted: slot.and_then(|x| x.adjusted.clone()),
                    signed: slot
                        .and_then(|x| x.confirms.get(team))
                        .map(|word| if word.is_none() { "agreed" } else { "disputed" }.into()),
                }
            })
            .collect();
        match &stage.kind {
            None => {}
            Some(Kind::Knockout(k)) => {
                let Some((i, m)) = k
                    .matches
                    .iter()
                    .enumerate()
                    .find(|(_, m)| m.a == team || m.b == team)
                else {
                    st.stage = "bye".into();
                    return st;
                };
                st.stage = if out { "out" } else { "knockout" }.into();
                st.opponent = Some(if m.a == team {
                    m.b.clone()
                } else {
                    m.a.clone()
                });
                let table = i as u32 + 1;
                let (tm, _, _) = stage.team_match(table, &m.a, &m.b);
                if let Ok(r) = match_result(&tm) {
                    // Ours first, then the opponent's.
                    let mut lines: Vec<&TeamStanding> = r.standings.iter().collect();
                    lines.sort_by_key(|l| l.team != team);
                    st.totals = lines
                        .into_iter()
                        .map(|l| TeamTotal {
                            team: l.team.clone(),
                            points: l.points,
                            firsts: l.firsts,
                            lasts: l.lasts,
                            deducted: l.deducted,
                        })
                        .collect();
                    st.lot = stage
                        .lots
                        .get(&table)
                        .filter(|_| r.winner.is_some())
                        .map(|l| l.reason.clone());
                    st.winner = r.winner;
                }
            }
            Some(Kind::Final(groups)) => {
                st.stage = "final".into();
                st.final_group = Some(
                    if groups.a.iter().any(|t| t == team) {
                        "A"
                    } else {
                        "B"
                    }
                    .into(),
                );
                st.final_groups = Some(GoujiFinalGroups {
                    a: groups.a.to_vec(),
                    b: groups.b.to_vec(),
                });
                let deducted: i32 = stage
                    .deductions
                    .iter()
                    .filter(|d| d.team == team)
                    .map(|d| d.points)
                    .sum();
                let played = mine.iter().filter_map(|x| {
                    let r = stage.record(x.table, x.game)?;
                    Some((r, if x.side == "a" { Side::A } else { Side::B }))
                });
                let mut total = TeamTotal {
                    team: team.to_string(),
                    points: -deducted,
                    firsts: 0,
                    lasts: 0,
                    deducted,
                };
                for (r, side) in played {
                    total.points += r.points(side);
                    total.firsts += r.firsts(side);
                    total.lasts += r.lasts(side);
                }
                st.totals = vec![total];
            }
        }
        st.games = mine;
        st
    }

    pub fn deductions_view(&self, round: u32) -> Vec<TeamDeductionLine> {
        self.stage(round)
            .map(|s| {
                s.deductions
                    .iter()
                    .map(|d| TeamDeductionLine {
                        round,
                        team: d.team.clone(),
                        points: d.points,
                        reason: d.reason.clone().unwrap_or_default(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn side_name(s: Side) -> String {
    match s {
        Side::A => "a",
        Side::B => "b",
    }
    .to_string()
}

/// A result the director typed: sides `"a"` or `"b"`.
pub fn record_of(r: &GoujiGameResult) -> Result<GameRecord, Problem> {
    let side = |x: &str| match x {
        "a" | "A" => Ok(Side::A),
        "b" | "B" => Ok(Side::B),
        _ => Err(bad(
            format!("「{x}」不是一方：应为 a 或 b"),
            format!("\"{x}\" is not a side: a or b"),
        )),
    };
    Ok(GameRecord {
        a: r.a,
        b: r.b,
        first: r.first.as_deref().map(side).transpose()?,
        last: r.last.iter().map(|x| side(x)).collect::<Result<_, _>>()?,
    })
}

pub fn result_view(r: &GameRecord) -> GoujiGameResult {
    GoujiGameResult {
        a: r.a,
        b: r.b,
        first: r.first.map(side_name),
        last: r.last.iter().copied().map(side_name).collect(),
    }
}

/// The teams as the draw reads them (a team without an organisation is its own).
pub fn entrants(teams: &[Team]) -> Vec<tournament::gouji::Entrant> {
    teams
        .iter()
        .map(|t| tournament::gouji::Entrant {
            team: t.name.clone(),
            organisation: t
                .organisation
                .clone()
                .unwrap_or_else(|| format!("\u{1f}{}", t.name)),
        })
        .collect()
}

/// The draw of round `round` from the event seed: the groups in round 1, then a knockout round
/// while more than six teams are in, else the final's groups.
pub fn draw_for(ev: &GoujiEvent, round: u32, seed: &rules::deal::Seed) -> Result<Drawn, Problem> {
    let explain = |e: tournament::Error| Problem::explain(&e);
    let (groups, left) = if round == 1 {
        let entrants = entrants(&ev.teams);
        let g = tournament::gouji::draw_groups(&entrants, ev.groups_for(&entrants) as usize, seed)
            .map_err(explain)?;
        (Some(g.clone()), g)
    } else {
        (None, ev.left.clone())
    };
    let count: usize = left.iter().map(|g| g.teams.len()).sum();
    if count > MIN_TEAMS {
        // Knockout rounds are numbered among themselves (the final comes after them).
        let k = tournament::gouji::knockout_round(&left, round, seed).map_err(explain)?;
        Ok(Drawn {
            groups,
            knockout: Some(k),
            final_groups: None,
        })
    } else {
        let finalists: Vec<String> = left.iter().flat_map(|g| g.teams.clone()).collect();
        let f = tournament::gouji::draw_final_groups(&finalists, seed).map_err(explain)?;
        Ok(Drawn {
            groups,
            knockout: None,
            final_groups: Some(f),
        })
    }
}

/// A team's token, printed on its card ([`super::card_token`]): from the event's secret, the
/// registration and the team's number; the three players sit down with it.
pub fn team_token(secret: &str, event: &str, registered: u64, number: u32) -> String {
    super::card_token::printed(
        "paiju-team-1",
        secret,
        event,
        &format!("{registered}\x1f{number}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::codes;

    fn entries(n: usize) -> Vec<EntryIn> {
        (1..=n)
            .map(|i| EntryIn {
                names: Vec::new(),
                organisation: Some(format!("单位{i}")),
                bot: true,
                team: None,
            })
            .collect()
    }

    fn level() -> GameRecord {
        GameRecord {
            a: 0,
            b: 0,
            first: None,
            last: Vec::new(),
        }
    }

    /// Plays every game open now with `record`, as the runner would log them.
    fn play_open(g: &mut GoujiEvent, round: u32, record: &GameRecord) -> usize {
        let open = g.open_now(round);
        for s in &open {
            let id = format!("t{round}-{}-{}", s.table, s.game);
            g.opened(round, s.table, s.game, &id).unwrap();
            g.result(round, s.table, s.game, &id, record).unwrap();
        }
        open.len()
    }

    #[test]
    fn a_level_match_plays_an_extra_game_and_the_final_one_for_a_tie() {
        let seed = rules::deal::Seed([7; 32]);
        let mut g = GoujiEvent::create(Some(2), None).unwrap();
        g.register(&entries(7)).unwrap();
        assert_eq!(g.teams[0].name, "单位11队", "named after the organisation");
        g.start_round(1).unwrap();
        let drawn = draw_for(&g, 1, &seed).unwrap();
        g.draw(1, &drawn).unwrap();
        // Seven teams: one match takes the field to six.
        let m = g.matches(1);
        assert_eq!(m.len(), 1);
        // Six level games, one after the other at table 1.
        for game in 1..=MATCH_GAMES {
            let open = g.open_now(1);
            assert_eq!((open.len(), open[0].game), (1, game));
            assert_eq!(open[0].deal, 10_000 + 100 + game);
            play_open(&mut g, 1, &level());
        }
        assert!(!g.round_complete(1));
        assert_eq!(g.close(1, false).unwrap_err().code, codes::EVENT_STATE);
        // Level on points, 头科 and 大落: game 7 is the extra game; B takes 头科 and wins.
        let open = g.open_now(1);
        assert_eq!((open[0].game, open[0].extra), (7, true));
        let b = open[0].b.clone();
        play_open(
            &mut g,
            1,
            &GameRecord {
                first: Some(Side::B),
                ..level()
            },
        );
        assert_eq!(g.matches(1)[0].2.winner.as_deref(), Some(b.as_str()));
        g.close(1, false).unwrap();
        assert_eq!(g.left_count(), 6);

        // The final: every table one deal a game; then two teams level get an extra game.
        g.start_round(2).unwrap();
        let drawn = draw_for(&g, 2, &seed).unwrap();
        assert!(drawn.final_groups.is_some() && drawn.groups.is_none());
        g.draw(2, &drawn).unwrap();
        let Some(Kind::Final(groups)) = g.stage(2).unwrap().kind.clone() else {
            panic!("the final")
        };
        // Four teams separated by deductions; the last two stay level on everything.
        for (i, team) in groups.a.iter().chain(&groups.b).take(4).enumerate() {
            let n = g.team(team).unwrap().number;
            g.deduct(2, n, i as i32 + 1, "测试").unwrap();
        }
        for game in 1..=3 {
            let open = g.open_now(2);
            assert_eq!(open.len(), 3, "game {game} at three tables");
            assert!(open
                .iter()
                .all(|s| s.deal == 20_000 + game && s.game == game));
            play_open(&mut g, 2, &level());
        }
        let open = g.open_now(2);
        assert_eq!(open.len(), 1);
        let extra = open[0].clone();
        assert_eq!((extra.table, extra.game, extra.extra), (1, 4, true));
        let mut level_two = vec![groups.b[1].clone(), groups.b[2].clone()];
        level_two.sort();
        let mut met = vec![extra.a.clone(), extra.b.clone()];
        met.sort();
        assert_eq!(met, level_two, "the two level teams meet");
        assert!(!g.round_complete(2));
        // A game with no 头科 on level points settles nothing: another is played.
        play_open(&mut g, 2, &level());
        assert_eq!(g.open_now(2)[0].game, 5);
        play_open(
            &mut g,
            2,
            &GameRecord {
                first: Some(Side::A),
                ..level()
            },
        );
        assert!(g.round_complete(2));
        let st = g.final_standings().unwrap();
        assert!(st.iter().all(|s| s.place().is_some()));
        let first_of_two = st
            .iter()
            .find(|s| level_two.contains(&s.team))
            .map(|s| s.team.clone());
        assert_eq!(
            first_of_two,
            Some(extra.a.clone()),
            "A took 头科 in the extra game"
        );
        g.close(2, false).unwrap();
        assert!(g.over(2));
        assert_eq!(g.start_round(3).unwrap_err().code, codes::EVENT_STATE);
    }

    /// An event of `teams` computer teams with round 1 started and drawn.
    fn drawn(teams: usize) -> GoujiEvent {
        let mut g = GoujiEvent::create(Some(2), None).unwrap();
        g.register(&entries(teams)).unwrap();
        g.start_round(1).unwrap();
        let drawn = draw_for(&g, 1, &rules::deal::Seed([7; 32])).unwrap();
        g.draw(1, &drawn).unwrap();
        g
    }

    #[test]
    fn a_final_still_level_after_its_extra_games_can_be_closed_with_the_place_shared() {
        // Six teams: round 1 is the final. Every game level, and every extra game settles
        // nothing (no 头科, level points): after MAX_EXTRA_GAMES no more are played.
        let mut g = drawn(6);
        for _ in 1..=g.final_games {
            assert_eq!(play_open(&mut g, 1, &level()), 3);
        }
        for extra in 1..=MAX_EXTRA_GAMES {
            assert!(!g.round_complete(1), "extra game {extra} still to play");
            assert!(!g.final_extra_games_spent());
            let open = g.open_now(1);
            assert_eq!((open.len(), open[0].extra), (1, true));
            play_open(&mut g, 1, &level());
        }
        assert!(g.open_now(1).is_empty(), "no thirteenth extra game");
        assert!(g.final_extra_games_spent());
        assert!(g.round_complete(1));
        // Everyone is still level: the library leaves them unplaced, and they share place 1.
        let st = g.final_standings().unwrap();
        assert!(st.iter().all(|s| s.place().is_none()));
        g.close(1, false).unwrap();
        assert!(g.over(1));
    }

    #[test]
    fn a_knockout_match_level_after_its_extra_games_is_decided_by_the_directors_lot() {
        // Seven teams: one knockout match at table 1. Six level games, then every extra game
        // a forfeit on level points with no 头科 (settling nothing).
        let mut g = drawn(7);
        for _ in 1..=MATCH_GAMES {
            play_open(&mut g, 1, &level());
        }
        let (a, b) = {
            let m = &g.matches(1)[0].1;
            (m.a.clone(), m.b.clone())
        };
        let b_number = g.team(&b).unwrap().number;
        for extra in 1..=MAX_EXTRA_GAMES {
            // Not spent yet: a lot is refused (409) and changes nothing.
            let err = g.lot(1, 1, &a, "抽签").unwrap_err();
            assert_eq!(
                err.code,
                codes::EVENT_STATE,
                "after {} extra games",
                extra - 1
            );
            assert!(!g.lot_needed(1, 1));
            assert_eq!(play_open(&mut g, 1, &level()), 1);
        }
        assert!(g.open_now(1).is_empty(), "no thirteenth extra game");
        assert!(g.lot_needed(1, 1));
        assert!(g.matches(1)[0].2.winner.is_none());
        assert!(!g.round_complete(1));
        assert_eq!(g.close(1, false).unwrap_err().code, codes::EVENT_STATE);
        assert!(
            g.match_view(1, false)[0].lot_needed,
            "the console offers the lot"
        );

        // Refused, changing nothing: a team not in the match, a table with no match, no reason.
        let other = g.teams.iter().find(|t| t.name != a && t.name != b).unwrap();
        let (other_name, other_number) = (other.name.clone(), other.number.to_string());
        for (table, who) in [
            (1, other_name.as_str()),
            (1, other_number.as_str()),
            (1, "无此队"),
            (2, a.as_str()),
        ] {
            assert_eq!(
                g.lot(1, table, who, "抽签").unwrap_err().code,
                codes::BAD_REQUEST,
                "{table} {who}"
            );
        }
        assert_eq!(g.lot(1, 1, &a, " ").unwrap_err().code, codes::BAD_REQUEST);
        assert!(g.lot_needed(1, 1), "nothing changed");

        // B, typed as its number, wins the lot: the match is B's and the round can close.
        g.lot(1, 1, &b_number.to_string(), "双方队长在裁判长面前抽签")
            .unwrap();
        assert_eq!(g.matches(1)[0].2.winner.as_deref(), Some(b.as_str()));
        assert!(!g.lot_needed(1, 1));
        let seen = &g.match_view(1, true)[0];
        assert_eq!(seen.lot.as_deref(), Some("双方队长在裁判长面前抽签"));
        assert_eq!(
            g.match_view(1, false)[0].lot,
            None,
            "the public sees no result while it runs"
        );
        assert_eq!(
            g.lot(1, 1, &a, "再抽").unwrap_err().code,
            codes::EVENT_STATE,
            "once"
        );
        assert!(g.round_complete(1));
        g.close(1, false).unwrap();
        assert!(g.left.iter().all(|gr| !gr.teams.contains(&a)), "A is out");
        assert_eq!(g.left_count(), 6);
    }

    #[test]
    fn a_team_sees_its_own_match_and_games_and_no_other() {
        let seed = rules::deal::Seed([7; 32]);
        let mut g = drawn(7);
        let (a, b) = {
            let m = &g.matches(1)[0].1;
            (m.a.clone(), m.b.clone())
        };
        let bye = g.byes(1)[0].clone();
        assert_eq!(g.team_status(&bye, 1).stage, "bye");
        let st = g.team_status(&b, 1);
        assert_eq!(
            (st.stage.as_str(), st.opponent.as_deref()),
            ("knockout", Some(a.as_str()))
        );
        assert_eq!(st.games.len(), MATCH_GAMES as usize);
        assert!(st
            .games
            .iter()
            .all(|x| x.side == "b" && x.opponent == a && !x.done));
        assert!(st.games[0].now && !st.games[1].now, "game 1 is played now");

        // Game 1: A takes 头科, B a 大落, 3:−3. B sees it, and the match totals, both teams.
        let won_by_a = GameRecord {
            a: 3,
            b: -3,
            first: Some(Side::A),
            last: vec![Side::B],
        };
        play_open(&mut g, 1, &won_by_a);
        let st = g.team_status(&b, 1);
        assert_eq!(st.games[0].result, Some(result_view(&won_by_a)));
        assert!(st.games[1].now);
        let totals: Vec<(&str, i32, u32, u32)> = st
            .totals
            .iter()
            .map(|t| (t.team.as_str(), t.points, t.firsts, t.lasts))
            .collect();
        assert_eq!(
            totals,
            vec![(b.as_str(), -3, 0, 1), (a.as_str(), 3, 1, 0)],
            "ours first"
        );
        assert_eq!(st.winner, None);

        // The rest level: A wins the match; B is out after the round closes, its match kept.
        for _ in 2..=MATCH_GAMES {
            play_open(&mut g, 1, &level());
        }
        g.close(1, false).unwrap();
        g.start_round(2).unwrap();
        let drawn = draw_for(&g, 2, &seed).unwrap();
        g.draw(2, &drawn).unwrap();
        let out = g.team_status(&b, 2);
        assert_eq!(
            (out.stage.as_str(), out.out_round, out.round),
            ("out", Some(1), 1)
        );
        assert_eq!(out.winner.as_deref(), Some(a.as_str()));
        assert!(out.games.iter().all(|x| x.done && !x.now));

        // The final: A's group, its three games at the tables of the rotation, no other game;
        // its match of round 1 listed before (a team that had a bye has none).
        let st = g.team_status(&a, 2);
        assert_eq!(st.stage, "final");
        assert_eq!(st.earlier.len(), 1);
        let won = &st.earlier[0];
        assert_eq!(
            (won.round, won.stage.as_str(), won.winner.as_deref()),
            (1, "knockout", Some(a.as_str()))
        );
        assert_eq!(won.games.len(), MATCH_GAMES as usize);
        assert!(
            g.team_status(&bye, 2).earlier.is_empty(),
            "a bye is no match"
        );
        let groups = st.final_groups.clone().unwrap();
        let group = st.final_group.clone().unwrap();
        let (mine, step): (&Vec<String>, i64) = if group == "A" {
            (&groups.a, 1)
        } else {
            (&groups.b, -1)
        };
        let start = mine.iter().position(|t| *t == a).unwrap() as i64;
        let tables: Vec<u32> = st.games.iter().map(|x| x.table).collect();
        let rotation: Vec<u32> = (0..3)
            .map(|k| ((start + step * k).rem_euclid(3) + 1) as u32)
            .collect();
        assert_eq!(tables, rotation, "A teams move 1→2→3, B teams 3→2→1");
        assert!(st
            .games
            .iter()
            .all(|x| x.side == group.to_lowercase() && x.opponent != a));
        assert_eq!(st.games.iter().filter(|x| x.now).count(), 1);
        play_open(&mut g, 2, &won_by_a);
        let st = g.team_status(&a, 2);
        let first = &st.games[0];
        assert!(first.done && first.result.is_some());
        let ours = if group == "A" { 3 } else { -3 };
        assert_eq!(st.totals.len(), 1, "the final: its own totals only");
        assert_eq!(st.totals[0].points, ours);
    }

    #[test]
    fn a_ruling_on_a_finished_game_replaces_its_result_and_what_follows_from_it() {
        // Seven teams: one knockout match in round 1, at table 1.
        let mut g = drawn(7);
        for _ in 1..=MATCH_GAMES {
            play_open(&mut g, 1, &level());
        }
        let open = g.open_now(1);
        assert_eq!(
            (open[0].game, open[0].extra),
            (7, true),
            "level: an extra game"
        );
        let a = open[0].a.clone();

        // Refused, changing nothing: a game not finished, a side that is none, no reason.
        let won_by_a = GameRecord {
            a: 4,
            b: -4,
            first: Some(Side::A),
            last: vec![Side::B],
        };
        let err = g.adjust(1, 1, 7, &won_by_a, "裁判改判").unwrap_err();
        assert_eq!(err.code, codes::EVENT_STATE);
        let side = GoujiGameResult {
            a: 1,
            b: 0,
            first: Some("c".into()),
            last: Vec::new(),
        };
        assert_eq!(record_of(&side).unwrap_err().code, codes::BAD_REQUEST);
        assert_eq!(
            g.adjust(1, 1, 2, &won_by_a, "  ").unwrap_err().code,
            codes::BAD_REQUEST
        );
        let wild = GameRecord {
            a: 1000,
            ..won_by_a.clone()
        };
        assert_eq!(
            g.adjust(1, 1, 2, &wild, "裁判改判").unwrap_err().code,
            codes::BAD_REQUEST
        );
        assert_eq!(g.open_now(1)[0].game, 7, "nothing changed");

        // Game 2 ruled A's: the match is A's, the extra game is no longer needed.
        g.adjust(1, 1, 2, &won_by_a, "B 队打暗号，改判").unwrap();
        assert!(g.open_now(1).is_empty());
        assert_eq!(g.matches(1)[0].2.winner.as_deref(), Some(a.as_str()));
        let game2 = g
            .games_view(1, true, |_| None)
            .into_iter()
            .find(|x| x.game == 2)
            .unwrap();
        assert_eq!(game2.adjusted.as_deref(), Some("B 队打暗号，改判"));
        assert_eq!(game2.result.unwrap(), result_view(&won_by_a));
        assert!(
            g.games_view(1, false, |_| None)
                .iter()
                .all(|x| x.adjusted.is_none()),
            "the public sees no result while the round runs, nor a ruling"
        );
        // The typed form reads back to the same record.
        assert_eq!(record_of(&result_view(&won_by_a)).unwrap(), won_by_a);
        g.close(1, false).unwrap();
    }

    #[test]
    fn a_people_teams_captain_signs_its_games_before_the_round_closes() {
        // Seven teams, the first of people: one knockout match in round 1.
        let mut g = GoujiEvent::create(Some(2), None).unwrap();
        let mut e = entries(7);
        e[0].bot = false;
        e[0].names = vec!["甲".into(), "乙".into(), "丙".into()];
        g.register(&e).unwrap();
        g.start_round(1).unwrap();
        let mut drawn = draw_for(&g, 1, &rules::deal::Seed([7; 32])).unwrap();
        // Put the people team in the match (the draw is the seed's; the test needs it playing).
        let k = drawn.knockout.as_mut().unwrap();
        let people = g.teams[0].name.clone();
        if k.matches[0].a != people && k.matches[0].b != people {
            k.byes.retain(|t| t != &people);
            let was = std::mem::replace(&mut k.matches[0].a, people.clone());
            k.byes.push(was);
        }
        g.draw(1, &drawn).unwrap();
        let a_wins = GameRecord {
            a: 2,
            first: Some(Side::A),
            ..level()
        };
        // Nothing finished: nothing to sign.
        assert_eq!(
            g.confirm(1, 1, true, None).unwrap_err().code,
            codes::EVENT_STATE
        );
        for _ in 1..=3 {
            play_open(&mut g, 1, &a_wins);
        }
        // A dispute needs its note; the people's team signs games 1–3.
        assert_eq!(
            g.confirm(1, 1, false, None).unwrap_err().code,
            codes::BAD_REQUEST
        );
        assert_eq!(
            g.confirm(1, 99, true, None).unwrap_err().code,
            codes::BAD_REQUEST
        );
        g.confirm(1, 1, true, None).unwrap();
        assert!(
            g.unconfirmed(1).is_empty(),
            "the computer team signs by itself"
        );
        for _ in 4..=MATCH_GAMES {
            play_open(&mut g, 1, &a_wins);
        }
        assert!(g.round_complete(1));
        assert_eq!(
            g.unconfirmed(1),
            vec![(1, 4), (1, 5), (1, 6)],
            "games finished since"
        );
        assert_eq!(g.close(1, false).unwrap_err().code, codes::EVENT_STATE);
        // A dispute holds the close too; signing again settles it; a ruling asks for it again.
        g.confirm(1, 1, false, Some("第5局大落记错")).unwrap();
        assert_eq!(g.unconfirmed(1).len(), MATCH_GAMES as usize);
        g.confirm(1, 1, true, None).unwrap();
        assert!(g.unconfirmed(1).is_empty());
        g.adjust(1, 1, 5, &a_wins, "改判：大落更正").unwrap();
        assert_eq!(g.unconfirmed(1), vec![(1, 5)]);
        let view = g.games_view(1, true, |_| None);
        assert!(view
            .iter()
            .find(|x| x.game == 5)
            .unwrap()
            .confirms
            .is_empty());
        assert_eq!(view.iter().find(|x| x.game == 4).unwrap().confirms.len(), 1);
        // The director may force the close over a missing signature.
        g.close(1, true).unwrap();
    }

    #[test]
    fn teams_and_draws_are_checked() {
        let mut g = GoujiEvent::create(None, None).unwrap();
        assert_eq!(
            g.register(&entries(5)).unwrap_err().code,
            codes::BAD_REQUEST
        );
        let mut e = entries(6);
        e[0].bot = false;
        e[0].names = vec!["甲".into(), "乙".into()];
        assert_eq!(
            g.register(&e).unwrap_err().code,
            codes::BAD_REQUEST,
            "three players"
        );
        let mut e = entries(6);
        e[1].team = Some("单位11队".into());
        assert_eq!(
            g.register(&e).unwrap_err().code,
            codes::BAD_REQUEST,
            "one name twice"
        );
        assert_eq!(
            GoujiEvent::create(None, Some(4)).unwrap_err().code,
            codes::BAD_REQUEST
        );
        g.register(&entries(6)).unwrap();
        g.start_round(1).unwrap();
        let mut drawn = draw_for(&g, 1, &rules::deal::Seed([1; 32])).unwrap();
        // A draw naming other teams than the six is refused.
        let mut wrong = drawn.clone();
        wrong.final_groups.as_mut().unwrap().a[0] = "别人".into();
        assert!(g.draw(1, &wrong).is_err());
        drawn.groups = None;
        assert!(g.draw(1, &drawn).is_err(), "round 1 draws the groups");
    }
}
