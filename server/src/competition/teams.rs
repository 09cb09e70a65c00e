//! 够级 teams as the server runs them ([`Teams`]): the director's steps only they have (a team
//! deduction, a ruling on a game, the lot), a team's card and seats, and the wire views — the
//! console's rounds, matches and games, a team's page, the team cards, the standings and the
//! printed results.

use protocol::{
    CompetitionCards, CompetitionView, GameAdjustIn, GoujiFinalGroups, GoujiGame, GoujiGroup,
    GoujiMatch, GoujiStage, GoujiView, LotIn, PairInfo, PairStatus, PlayerCard, Refusal, SeatFault,
    TeamCard, TeamDeductionIn, TeamDeductionLine, TeamGame, TeamInfo, TeamStatus, TeamTotal,
};
use tournament::competition::teams::{side_seats, standing::Reach, RoundKind, Team, Teams};
use tournament::competition::teams::{TeamsAction, MIN_TEAMS};
use tournament::competition::{Competition, Error};
use tournament::gouji::{match_result, Side, TeamStanding};

use super::denied::Denied;
use super::kind::{Ctx, Kind, Place};
use super::standings::{GameLine, GoujiStandings, Rankings, Standings, TeamLine};
use super::{printed, tokens, wire};
use crate::store::CompetitionHeader;

/// The director's steps only 够级 teams have.
pub enum TeamsStep {
    Deduct(TeamDeductionIn),
    AdjustGame(GameAdjustIn),
    Lot(LotIn),
}

/// A team's player, as their token names them: their own seat of the team's side in each game.
#[derive(Clone, Debug)]
pub struct TeamPlayer {
    pub team: Team,
    /// 0, 1, 2: the team's seat 1, 2, 3 (A1–A3 or B1–B3).
    pub which: usize,
}

pub fn team_info(t: &Team) -> TeamInfo {
    TeamInfo {
        number: t.number,
        name: t.name.clone(),
        names: t.names.clone(),
        organisation: t.organisation.clone(),
        bot: t.bot,
    }
}

fn match_view(t: &Teams, round: u32, results: bool) -> Vec<GoujiMatch> {
    let stage = t.stage(round);
    let groups: Vec<String> = match stage.and_then(|s| s.kind.as_ref()) {
        Some(RoundKind::Knockout(k)) => k.matches.iter().map(|m| m.group.clone()).collect(),
        _ => Vec::new(),
    };
    t.matches(round)
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
                lot_needed: t.lot_needed(round, table),
                lot: stage
                    .and_then(|s| s.lots.get(&table))
                    .filter(|_| results && r.winner.is_some())
                    .map(|l| l.reason.clone()),
                a: tm.a,
                b: tm.b,
            }
        })
        .collect()
}

/// The round's games; `table` gives a table's state and seq from its id.
fn games_view(
    t: &Teams,
    round: u32,
    results: bool,
    table: impl Fn(&str) -> Option<(protocol::TableState, u64)>,
) -> Vec<GoujiGame> {
    let Some(stage) = t.stage(round) else {
        return Vec::new();
    };
    t.seatings(round)
        .into_iter()
        .map(|(s, done)| {
            let slot = stage.games.get(&(s.table, s.game));
            let table_id = slot.and_then(|x| x.table_id.clone());
            let now = table_id.as_deref().and_then(&table);
            let shown = slot.filter(|_| results);
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
                result: shown.and_then(|x| x.record.as_ref()).map(wire::result_view),
                adjusted: shown.and_then(|x| x.adjusted.clone()),
                revised: shown.and_then(|x| x.revised.as_ref()).map(wire::revision),
                confirms: shown
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
                auto_moves: shown.map(|x| x.auto_moves.clone()).unwrap_or_default(),
            }
        })
        .collect()
}

fn deductions_view(t: &Teams, round: u32) -> Vec<TeamDeductionLine> {
    t.stage(round)
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

fn final_groups(kind: &RoundKind) -> Option<GoujiFinalGroups> {
    match kind {
        RoundKind::Final(g) => Some(GoujiFinalGroups {
            a: g.a.to_vec(),
            b: g.b.to_vec(),
        }),
        RoundKind::Knockout(_) => None,
    }
}

fn gouji_view(t: &Teams, ctx: &Ctx, results: bool) -> GoujiView {
    let closed = t.common.closed;
    GoujiView {
        teams: t.teams.iter().map(team_info).collect(),
        groups: t
            .drawn_groups
            .iter()
            .map(|g| GoujiGroup {
                name: g.name.clone(),
                teams: g.teams.clone(),
            })
            .collect(),
        final_games: t.final_games,
        stages: t
            .stages
            .iter()
            .map(|s| GoujiStage {
                round: s.round,
                kind: match s.kind {
                    Some(RoundKind::Final(_)) => "final",
                    _ => "knockout",
                }
                .to_string(),
                state: if s.round <= closed {
                    "closed"
                } else if s.kind.is_none() {
                    "drawing"
                } else {
                    "playing"
                }
                .to_string(),
                // A closed round's winners are public: the teams knocked out are.
                matches: match_view(t, s.round, results || s.round <= closed),
                byes: match &s.kind {
                    Some(RoundKind::Knockout(k)) => k.byes.clone(),
                    _ => Vec::new(),
                },
                final_groups: s.kind.as_ref().and_then(final_groups),
                games: games_view(t, s.round, results, |id| ctx.table(id)),
                deductions: deductions_view(t, s.round),
            })
            .collect(),
        next: t.final_round().is_none().then(|| {
            if t.left_count() > MIN_TEAMS {
                "knockout"
            } else {
                "final"
            }
            .to_string()
        }),
    }
}

/// A team's own view (its token's page): the round it plays now, or the one it went out in,
/// with its match, its games and their results, its totals. Only its own games: another
/// match's results stay the director's until the public may see them.
fn team_status(t: &Teams, team: &str) -> TeamStatus {
    let latest = t.common.round;
    let out = !t.still_in(team);
    let round = if out {
        (1..=latest)
            .rev()
            .find(|&r| t.plays_in(r, team))
            .unwrap_or(latest)
    } else {
        latest
    };
    let mut st = team_round(t, team, round, out);
    // The knockout matches it won before, oldest first (its own games: it played them).
    st.earlier = (1..round)
        .filter(|&r| t.plays_in(r, team))
        .map(|r| team_round(t, team, r, false))
        .collect();
    st
}

/// A team's games of one round, as its page lists them.
fn team_games(t: &Teams, team: &str, round: u32) -> Vec<TeamGame> {
    let Some(stage) = t.stage(round) else {
        return Vec::new();
    };
    let now = t.open_for(round, team).map(|(s, _)| (s.table, s.game));
    // In game order (the final's seatings are listed table by table).
    let mut seatings = t.seatings(round);
    seatings.sort_by_key(|(s, _)| (s.game, s.table));
    seatings
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
                result: slot.and_then(|x| x.record.as_ref()).map(wire::result_view),
                adjusted: slot.and_then(|x| x.adjusted.clone()),
                revised: slot.and_then(|x| x.revised.as_ref()).map(wire::revision),
                signed: slot
                    .and_then(|x| x.confirms.get(team))
                    .map(|word| if word.is_none() { "agreed" } else { "disputed" }.into()),
            }
        })
        .collect()
}

fn total(s: &TeamStanding) -> TeamTotal {
    TeamTotal {
        team: s.team.clone(),
        points: s.points,
        firsts: s.firsts,
        lasts: s.lasts,
        deducted: s.deducted,
    }
}

/// A team's match of one round, as [`team_status`] shows it.
fn team_round(t: &Teams, team: &str, round: u32, out: bool) -> TeamStatus {
    let mut st = TeamStatus {
        name: team.to_string(),
        stage: "waiting".into(),
        round,
        opponent: None,
        final_group: None,
        final_groups: None,
        games: team_games(t, team, round),
        totals: Vec::new(),
        winner: None,
        lot: None,
        out_round: out.then_some(round),
        earlier: Vec::new(),
    };
    let Some(stage) = t.stage(round) else {
        return st;
    };
    match &stage.kind {
        None => {}
        Some(RoundKind::Knockout(k)) => {
            let Some((i, m)) = k
                .matches
                .iter()
                .enumerate()
                .find(|(_, m)| m.a == team || m.b == team)
            else {
                st.stage = "bye".into();
                st.games.clear();
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
                st.totals = lines.into_iter().map(total).collect();
                st.lot = stage
                    .lots
                    .get(&table)
                    .filter(|_| r.winner.is_some())
                    .map(|l| l.reason.clone());
                st.winner = r.winner;
            }
        }
        Some(RoundKind::Final(groups)) => {
            st.stage = "final".into();
            let ours_a = groups.a.iter().any(|x| x == team);
            st.final_group = Some(if ours_a { "A" } else { "B" }.into());
            st.final_groups = final_groups(stage.kind.as_ref().expect("drawn"));
            let deducted: i32 = stage
                .deductions
                .iter()
                .filter(|d| d.team == team)
                .map(|d| d.points)
                .sum();
            let mut sum = TeamTotal {
                team: team.to_string(),
                points: -deducted,
                firsts: 0,
                lasts: 0,
                deducted,
            };
            for x in &st.games {
                let Some(r) = stage.record(x.table, x.game) else {
                    continue;
                };
                let side = if x.side == "a" { Side::A } else { Side::B };
                sum.points += r.points(side);
                sum.firsts += r.firsts(side);
                sum.lasts += r.lasts(side);
            }
            st.totals = vec![sum];
        }
    }
    st
}

impl Kind for Teams {
    type Game = rules::gouji::Game;
    type Step = TeamsStep;
    type Holder = TeamPlayer;

    fn step(&self, step: TeamsStep, _now_ms: u64) -> Result<TeamsAction, Denied> {
        let round = self.common.playing().ok_or(Error::NoRound)?;
        Ok(match step {
            TeamsStep::Deduct(d) => TeamsAction::TeamDeduction {
                round,
                team: d.team,
                points: d.points.unwrap_or(4),
                reason: d.reason,
            },
            TeamsStep::AdjustGame(d) => TeamsAction::AdjustGame {
                round,
                table: d.table,
                game: d.game,
                record: wire::record(&d.result)?,
                reason: d.reason,
            },
            // Logged with the winner's name, whether typed as a name or a number; an unknown
            // team keeps its typed form, refused in the competition's own words.
            TeamsStep::Lot(d) => TeamsAction::Lot {
                round,
                table: d.table,
                winner: self
                    .team_named(&d.winner)
                    .map_or(d.winner.clone(), |t| t.name.clone()),
                reason: d.reason,
            },
        })
    }

    fn holder(&self, header: &CompetitionHeader, token: &str) -> Option<TeamPlayer> {
        if self.common.registered == 0 {
            return None;
        }
        let registered = self.common.registered;
        self.teams
            .iter()
            .filter(|t| !t.bot)
            .flat_map(|t| (0..3).map(move |which| (t, which)))
            .find(|&(t, which)| {
                let card = tokens::team_player_token(
                    &header.pair_secret,
                    &header.id,
                    registered,
                    t.number,
                    which,
                );
                tokens::same(&card, token)
            })
            .map(|(t, which)| TeamPlayer {
                team: t.clone(),
                which,
            })
    }

    fn place(&self, who: &TeamPlayer) -> Result<Place, Denied> {
        let s = self.sitting(&who.team)?;
        let seat = side_seats(s.side)[who.which];
        Ok(Place {
            round: s.round,
            table_no: s.seating.table,
            slot: s.seating.game,
            table_id: s.table_id,
            seats: vec![(seat, who.team.player(who.which))],
        })
    }

    fn not_yours(_who: &TeamPlayer, place: &Place, seat: usize) -> Refusal {
        let yours = place.seats[0].0;
        let name = ["A1", "B1", "A2", "B2", "A3", "B3"][yours % 6].to_string();
        Refusal::BadSeat(SeatFault::NotYours {
            seat,
            yours,
            zh: name.clone(),
            en: name,
        })
    }

    fn seated(&self, _: &TeamPlayer, _: &Place, _: usize, _: u64) -> Option<TeamsAction> {
        None
    }

    fn confirm(
        &self,
        who: &TeamPlayer,
        agree: bool,
        note: Option<String>,
    ) -> Result<TeamsAction, Denied> {
        Ok(TeamsAction::ConfirmGames {
            round: self.common.playing().ok_or(Error::NoRound)?,
            team: who.team.number,
            agree,
            note,
        })
    }

    fn view(&self, ctx: &Ctx, full: bool) -> CompetitionView {
        let results = full || self.common.finished();
        CompetitionView {
            gouji: Some(gouji_view(self, ctx, results)),
            conduct: full.then(|| super::kind::conduct(self)),
            ..ctx.base_view(&self.common, self.rounds())
        }
    }

    /// A sits 0, 2, 4 (the team's players 1, 2, 3), B 1, 3, 5.
    fn sitter(&self, round: u32, table: u32, slot: u32, seat: usize) -> Option<String> {
        let (s, _) = self
            .seatings(round)
            .into_iter()
            .find(|(s, _)| s.table == table && s.game == slot)?;
        let team = self.team(if seat.is_multiple_of(2) { &s.a } else { &s.b })?;
        Some(format!("{}（{}）", team.player(seat / 2), team.name))
    }

    fn status(&self, ctx: &Ctx, player: &TeamPlayer) -> PairStatus {
        let who = &player.team;
        PairStatus {
            pair: PairInfo {
                direction: "team".into(),
                number: who.number,
                names: who.names.clone(),
                organisation: who.organisation.clone(),
                bot: who.bot,
            },
            event: ctx.header.id.clone(),
            round: self.common.round,
            table: None,
            earlier: Vec::new(),
            team: Some(team_status(self, &who.name)),
            player: Some(player.which as u32 + 1),
            practice: None,
        }
    }

    fn cards(&self, header: &CompetitionHeader) -> CompetitionCards {
        let registered = self.common.registered;
        CompetitionCards {
            pairs: Vec::new(),
            tables: Vec::new(),
            teams: self
                .teams
                .iter()
                .map(|t| TeamCard {
                    team: team_info(t),
                    players: if t.bot {
                        Vec::new()
                    } else {
                        (0..3)
                            .map(|which| PlayerCard {
                                number: which as u32 + 1,
                                name: t.player(which),
                                qr: format!(
                                    "/api/events/{}/players/T{}-{}/qr.svg",
                                    header.id,
                                    t.number,
                                    which + 1
                                ),
                                token: tokens::team_player_token(
                                    &header.pair_secret,
                                    &header.id,
                                    registered,
                                    t.number,
                                    which,
                                ),
                            })
                            .collect()
                    },
                })
                .collect(),
        }
    }

    fn standings(&self, full: bool) -> Result<Standings, Denied> {
        let c = &self.common;
        let full = full || c.finished();
        let upto = if full { c.round } else { c.closed };
        let info = |name: &str| {
            self.team(name).map(team_info).unwrap_or(TeamInfo {
                number: 0,
                name: name.to_string(),
                names: Vec::new(),
                organisation: None,
                bot: false,
            })
        };
        let teams = self
            .standing(upto)
            .into_iter()
            .map(|p| TeamLine {
                team: info(&p.team),
                stage: p.reach.name(),
                out_round: p.out_round,
                points: p.points,
                firsts: p.firsts,
                lasts: p.lasts,
                deducted: p.deducted,
                place: p.place,
                prize: p.reach == Reach::Final && p.place.is_some(),
                by: p.by,
                extra_game_needed: p.extra_game_needed,
                lot: p.lot,
            })
            .collect();
        let games = full.then(|| {
            self.stages
                .iter()
                .filter(|s| s.round <= upto)
                .flat_map(|stage| {
                    let kind = match stage.kind {
                        Some(RoundKind::Final(_)) => "final",
                        _ => "knockout",
                    };
                    games_view(self, stage.round, true, |_| None)
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
        Ok(Standings {
            id: c.id.clone(),
            name: c.spec.name.clone(),
            is_final: c.finished(),
            through_round: upto,
            live: full && c.playing().is_some(),
            ranking: Rankings {
                ns: Vec::new(),
                ew: Vec::new(),
            },
            boards: None,
            deductions: None,
            practice: None,
            gouji: Some(GoujiStandings {
                teams,
                games,
                deductions: full.then(|| {
                    self.stages
                        .iter()
                        .flat_map(|s| deductions_view(self, s.round))
                        .collect()
                }),
            }),
        })
    }

    fn page(&self, s: &Standings, header: &CompetitionHeader) -> String {
        let status = printed::status(s);
        let body = match &s.gouji {
            Some(g) => printed::teams_body(s, g, &status),
            None => String::new(),
        };
        printed::page(s, body, header)
    }
}
