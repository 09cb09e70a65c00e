//! The 够级 team competition as its log has made it: the teams, the groups, every round's stage;
//! what each table plays now, where a team sits, what the draw of a round is.
use crate::gouji::FinalSeating;
use std::collections::BTreeMap;

use rules::deal::Seed;

use super::action::Drawn;
use super::stage::{
    deal_number, level_run, RoundKind, Seating, Stage, MATCH_GAMES, MAX_EXTRA_GAMES,
};
use crate::competition::text::{optional, MAX_NAME};
use crate::competition::{Common, Entry, Error, Field};
use crate::gouji::draw::FINALISTS;
use crate::gouji::{final_standings, match_result, Entrant, Group, Side, TeamMatch, TeamStanding};

/// The game its tables deal.
pub const GAME: &str = "gouji";
/// Fewest teams: the final's six.
pub const MIN_TEAMS: usize = FINALISTS;
/// Most teams a competition may have.
pub const MAX_TEAMS: usize = 300;
/// Games of the final when the director says nothing: one rotation, every A team meets every B
/// team once.
pub const DEFAULT_FINAL_GAMES: u32 = 3;

/// A registered team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Team {
    /// From 1, in the order registered.
    pub number: u32,
    /// Unique in the competition: the draw and the library name teams by it.
    pub name: String,
    /// Three players (none for a computer team registered without names).
    pub names: Vec<String>,
    pub organisation: Option<String>,
    pub bot: bool,
}

impl Team {
    /// The name a seat of the team shows: the player's, else the team's and the seat.
    pub fn player(&self, i: usize) -> String {
        self.names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("{}{}", self.name, i + 1))
    }
}

/// A side's seats at a 够级 table (A1, A2, A3 are 0, 2, 4; B1, B2, B3 are 1, 3, 5).
pub fn side_seats(side: Side) -> [usize; 3] {
    match side {
        Side::A => [0, 2, 4],
        Side::B => [1, 3, 5],
    }
}

/// Where a team plays now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sitting {
    pub round: u32,
    pub seating: Seating,
    pub side: Side,
    pub table_id: String,
}

/// A 够级 team competition, as its log has made it.
#[derive(Clone, Debug, PartialEq)]
pub struct Teams {
    pub common: Common,
    pub teams: Vec<Team>,
    /// Groups asked for the draw (0: chosen from the entries).
    pub groups_wanted: u32,
    pub final_games: u32,
    /// Which side each finalist sits: the spec's, or, for a log made before it was an option,
    /// by group (as those finals were played).
    pub final_seating: FinalSeating,
    /// The groups as drawn at round 1.
    pub drawn_groups: Vec<Group>,
    /// The groups now: the teams still in.
    pub left: Vec<Group>,
    /// One per round started.
    pub stages: Vec<Stage>,
}

/// The teams as the draw reads them (a team without an organisation is its own).
pub fn entrants(teams: &[Team]) -> Vec<Entrant> {
    teams
        .iter()
        .map(|t| Entrant {
            team: t.name.clone(),
            organisation: t
                .organisation
                .clone()
                .unwrap_or_else(|| format!("\u{1f}{}", t.name)),
        })
        .collect()
}

impl Teams {
    /// The teams of a registration, checked (and the groups of the draw, when not given).
    pub(super) fn register(&mut self, entries: &[Entry]) -> Result<(), Error> {
        if entries.len() < MIN_TEAMS || entries.len() > MAX_TEAMS {
            return Err(Error::TeamCount {
                got: entries.len(),
                min: MIN_TEAMS,
                max: MAX_TEAMS,
            });
        }
        let mut teams: Vec<Team> = Vec::with_capacity(entries.len());
        let mut per_org: BTreeMap<String, u32> = BTreeMap::new();
        for (i, e) in entries.iter().enumerate() {
            let number = i as u32 + 1;
            let names = if e.bot && e.names.is_empty() {
                Vec::new()
            } else {
                if e.names.len() != 3 {
                    return Err(Error::TeamIsThree { number });
                }
                e.names
                    .iter()
                    .map(|n| rules::name::display_name(n).map_err(Error::from))
                    .collect::<Result<Vec<_>, _>>()?
            };
            let organisation = optional(&e.organisation, MAX_NAME, Field::Organisation)?;
            let name = match (optional(&e.team, MAX_NAME, Field::TeamName)?, &organisation) {
                (Some(t), _) => t,
                (None, Some(o)) => {
                    let k = per_org.entry(o.clone()).or_default();
                    *k += 1;
                    format!("{o}{k}队")
                }
                (None, None) => format!("第{number}队"),
            };
            if teams.iter().any(|t| t.name == name) {
                return Err(Error::TeamNameTwice { name });
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
        crate::gouji::draw_groups(&entrants, groups as usize, &Seed([0; 32]))?;
        self.teams = teams;
        Ok(())
    }

    /// Late teams (before round 1) in the places computer teams hold, from the last, then after
    /// the list: every team already registered keeps its number, its name and its players
    /// their tokens.
    pub(super) fn add_entries(&mut self, entries: &[Entry]) -> Result<(), Error> {
        if self.teams.is_empty() {
            return Err(Error::NoEntries { teams: true });
        }
        let mut all: Vec<Entry> = self
            .teams
            .iter()
            .map(|t| Entry {
                names: t.names.clone(),
                organisation: t.organisation.clone(),
                bot: t.bot,
                team: Some(t.name.clone()),
            })
            .collect();
        let mut computers = (0..all.len())
            .rev()
            .filter(|&i| all[i].bot)
            .collect::<Vec<_>>();
        for e in entries {
            match computers.first().copied() {
                Some(i) => {
                    computers.remove(0);
                    all[i] = e.clone();
                }
                None => all.push(e.clone()),
            }
        }
        self.register(&all)
    }

    /// Groups of the draw: as asked, else 2 or the most teams one organisation has.
    pub fn groups_for(&self, entrants: &[Entrant]) -> u32 {
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

    /// A team by its name or, typed as digits, its number.
    pub fn team_named(&self, typed: &str) -> Option<&Team> {
        let typed = typed.trim();
        self.team(typed).or_else(|| {
            let n: u32 = typed.parse().ok()?;
            self.teams.iter().find(|t| t.number == n)
        })
    }

    pub(super) fn team_number(&self, team: u32) -> Result<&Team, Error> {
        self.teams
            .iter()
            .find(|t| t.number == team)
            .ok_or(Error::NoSuchTeam { team })
    }

    pub fn stage(&self, round: u32) -> Option<&Stage> {
        self.stages.iter().find(|s| s.round == round)
    }

    pub(super) fn stage_mut(&mut self, round: u32) -> Option<&mut Stage> {
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

    /// Whether a team is still in (not knocked out).
    pub fn still_in(&self, team: &str) -> bool {
        self.left.is_empty() || self.left.iter().any(|g| g.teams.iter().any(|t| t == team))
    }

    /// The final's round, once drawn.
    pub fn final_round(&self) -> Option<u32> {
        self.stages
            .iter()
            .find(|s| matches!(s.kind, Some(RoundKind::Final(_))))
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
        let plain = |table: u32, game: u32, a: &str, b: &str, extra: bool| Seating {
            table,
            game,
            deal: 0,
            a: a.to_string(),
            b: b.to_string(),
            extra,
        };
        let mut out: Vec<Seating> = Vec::new();
        match kind {
            RoundKind::Knockout(k) => {
                for (i, m) in k.matches.iter().enumerate() {
                    let table = i as u32 + 1;
                    out.extend((1..=MATCH_GAMES).map(|g| plain(table, g, &m.a, &m.b, false)));
                    let (_, extras, next) = stage.team_match(table, &m.a, &m.b);
                    out.extend(
                        (MATCH_GAMES + 1..=MATCH_GAMES + extras)
                            .map(|g| plain(table, g, &m.a, &m.b, true)),
                    );
                    out.extend(next);
                }
            }
            RoundKind::Final(groups) => {
                let schedule =
                    crate::gouji::final_schedule(groups, self.final_games, self.final_seating)
                        .unwrap_or_default();
                for t in 1..=3u32 {
                    for g in &schedule {
                        let at = &g.tables[t as usize - 1];
                        out.push(plain(t, g.game, &at.a, &at.b, false));
                    }
                }
                let (_, extras, next) =
                    stage.final_input(groups, self.final_games, self.final_seating);
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
        match self.stage(round).and_then(|s| s.kind.as_ref()) {
            Some(RoundKind::Knockout(_)) => {
                let mut out: Vec<Seating> = Vec::new();
                for (s, done) in all {
                    if !done && !out.iter().any(|o| o.table == s.table) {
                        out.push(s);
                    }
                }
                out
            }
            Some(RoundKind::Final(_)) => {
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
    pub fn matches(&self, round: u32) -> Vec<(u32, TeamMatch, crate::gouji::MatchResult)> {
        let Some(stage) = self.stage(round) else {
            return Vec::new();
        };
        let Some(RoundKind::Knockout(k)) = &stage.kind else {
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
        let Some(RoundKind::Final(groups)) = &stage.kind else {
            return None;
        };
        let (input, _, _) = stage.final_input(groups, self.final_games, self.final_seating);
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
            Some(RoundKind::Knockout(_)) => self
                .matches(round)
                .iter()
                .all(|(_, _, r)| r.winner.is_some()),
            Some(RoundKind::Final(_)) => {
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
        let Some(RoundKind::Final(groups)) = &stage.kind else {
            return false;
        };
        let (input, extras, next) = stage.final_input(groups, self.final_games, self.final_seating);
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
                Some((s, Side::B))
            } else {
                None
            }
        })
    }

    /// Whether a team plays in a round (not a bye, not out).
    pub fn plays_in(&self, round: u32, team: &str) -> bool {
        match self.stage(round).and_then(|s| s.kind.as_ref()) {
            Some(RoundKind::Knockout(k)) => k.matches.iter().any(|m| m.a == team || m.b == team),
            Some(RoundKind::Final(g)) => g.a.iter().chain(&g.b).any(|t| t == team),
            None => false,
        }
    }

    /// A knockout match whose [`MAX_EXTRA_GAMES`] extra games are played and left it level (no
    /// lot drawn yet): the director must draw lots.
    pub fn lot_needed(&self, round: u32, table: u32) -> bool {
        let Some(stage) = self.stage(round) else {
            return false;
        };
        let Some(RoundKind::Knockout(k)) = &stage.kind else {
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

    /// The final is closed: the seed may be revealed.
    pub fn over(&self) -> bool {
        self.final_round().is_some_and(|r| r <= self.common.closed)
    }

    /// The draw of round `round` from the competition's seed: the groups in round 1, then a
    /// knockout round while more than six teams are in, else the final's groups.
    pub fn draw_for(&self, round: u32, seed: &Seed) -> Result<Drawn, Error> {
        let (groups, left) = if round == 1 {
            let entrants = entrants(&self.teams);
            let g =
                crate::gouji::draw_groups(&entrants, self.groups_for(&entrants) as usize, seed)?;
            (Some(g.clone()), g)
        } else {
            (None, self.left.clone())
        };
        let count: usize = left.iter().map(|g| g.teams.len()).sum();
        if count > MIN_TEAMS {
            // Knockout rounds are numbered among themselves (the final comes after them).
            let k = crate::gouji::knockout_round(&left, round, seed)?;
            return Ok(Drawn {
                groups,
                knockout: Some(k),
                final_groups: None,
            });
        }
        let finalists: Vec<String> = left.iter().flat_map(|g| g.teams.clone()).collect();
        Ok(Drawn {
            groups,
            knockout: None,
            final_groups: Some(crate::gouji::draw_final_groups(&finalists, seed)?),
        })
    }

    /// Where a team sits down now: the game open for it in the round being played, with its
    /// table. Refused, in the team's words, when it cannot play now.
    pub fn sitting(&self, team: &Team) -> Result<Sitting, Error> {
        if self.common.finished() {
            return Err(Error::Finished);
        }
        let round = self.common.playing().ok_or(Error::WaitForRound)?;
        if !self.plays_in(round, &team.name) {
            return Err(Error::TeamIdle);
        }
        let (seating, side) = self
            .open_for(round, &team.name)
            .ok_or(Error::NextGameNotOpen)?;
        let table_id = self
            .stage(round)
            .and_then(|s| s.games.get(&(seating.table, seating.game)))
            .and_then(|s| s.table_id.clone())
            .ok_or(Error::NextGameNotOpen)?;
        Ok(Sitting {
            round,
            seating,
            side,
            table_id,
        })
    }

    /// The seats computers take at a game (its computer teams').
    pub(super) fn computer_seats(&self, s: &Seating) -> Vec<usize> {
        let mut seats: Vec<usize> = [(&s.a, Side::A), (&s.b, Side::B)]
            .into_iter()
            .filter(|(team, _)| self.team(team).is_some_and(|t| t.bot))
            .flat_map(|(_, side)| side_seats(side))
            .collect();
        seats.sort_unstable();
        seats
    }
}
