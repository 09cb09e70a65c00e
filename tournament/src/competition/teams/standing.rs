//! 名次 (the teams' order as it stands): the finalists ranked by the final (total, more 头科,
//! fewer 大落, extra games), then the teams still in, then the teams knocked out, latest round
//! first (each by the points of the match it lost).

use super::state::Teams;
use crate::gouji::{Placing, TieBreak};

/// Where a team is in the competition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Plays (or played) the final.
    Final,
    /// Still in the knockout.
    In,
    /// Knocked out.
    Out,
}

impl Reach {
    /// As the wire names it.
    pub fn name(self) -> &'static str {
        match self {
            Reach::Final => "final",
            Reach::In => "in",
            Reach::Out => "out",
        }
    }
}

/// One team's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamPlace {
    pub team: String,
    pub reach: Reach,
    /// The knockout round the team lost in.
    pub out_round: Option<u32>,
    /// The final's totals (deductions off), or the match's where it went out.
    pub points: i32,
    pub firsts: u32,
    pub lasts: u32,
    pub deducted: i32,
    /// Finalists only: 取前6名队伍，给予奖励.
    pub place: Option<u32>,
    /// The last tie-break the place needed.
    pub by: Option<TieBreak>,
    /// Level on everything: the extra game decides.
    pub extra_game_needed: bool,
    /// Knocked out by the director's lot (抽签) after the extra games left the match level: its
    /// reason.
    pub lot: Option<String>,
}

impl TeamPlace {
    fn plain(team: &str, reach: Reach) -> TeamPlace {
        TeamPlace {
            team: team.to_string(),
            reach,
            out_round: None,
            points: 0,
            firsts: 0,
            lasts: 0,
            deducted: 0,
            place: None,
            by: None,
            extra_game_needed: false,
            lot: None,
        }
    }
}

impl Teams {
    /// The order of every team over rounds `1..=upto`.
    pub fn standing(&self, upto: u32) -> Vec<TeamPlace> {
        let mut lines = self.finalists(upto);
        let mut out: Vec<(u32, TeamPlace)> = Vec::new();
        for stage in self.stages.iter().filter(|s| s.round <= upto) {
            for (table, _, r) in self.matches(stage.round) {
                let Some(w) = &r.winner else { continue };
                let lot = stage.lots.get(&table).map(|l| l.reason.clone());
                for s in r.standings.iter().filter(|s| &s.team != w) {
                    out.push((
                        stage.round,
                        TeamPlace {
                            out_round: Some(stage.round),
                            points: s.points,
                            firsts: s.firsts,
                            lasts: s.lasts,
                            deducted: s.deducted,
                            lot: lot.clone(),
                            ..TeamPlace::plain(&s.team, Reach::Out)
                        },
                    ));
                }
            }
        }
        out.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.points.cmp(&a.1.points)));
        let listed: Vec<String> = lines
            .iter()
            .chain(out.iter().map(|(_, t)| t))
            .map(|t| t.team.clone())
            .collect();
        for t in &self.teams {
            if !listed.contains(&t.name) {
                lines.push(TeamPlace::plain(&t.name, Reach::In));
            }
        }
        lines.extend(out.into_iter().map(|(_, t)| t));
        lines
    }

    /// The final's ranking, once the final is among the rounds counted.
    fn finalists(&self, upto: u32) -> Vec<TeamPlace> {
        let (Some(r), Some(list)) = (self.final_round(), self.final_standings()) else {
            return Vec::new();
        };
        if r > upto {
            return Vec::new();
        }
        let spent = self.final_extra_games_spent();
        list.into_iter()
            .map(|s| {
                let (place, by) = match &s.placing {
                    Placing::Placed { place, by } => (Some(*place), Some(*by)),
                    // No extra game left to play: the level teams share the best place they are
                    // level for, and the places after it stay empty (seed 003).
                    Placing::ExtraGameNeeded { places, .. } if spent => {
                        (Some(places[0]), Some(TieBreak::ExtraGame))
                    }
                    Placing::ExtraGameNeeded { .. } => (None, None),
                };
                TeamPlace {
                    points: s.points,
                    firsts: s.firsts,
                    lasts: s.lasts,
                    deducted: s.deducted,
                    place,
                    by,
                    extra_game_needed: place.is_none(),
                    ..TeamPlace::plain(&s.team, Reach::Final)
                }
            })
            .collect()
    }
}
