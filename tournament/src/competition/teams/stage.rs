//! One round of a 够级 competition as played so far: what the draw made it (a knockout round or
//! the final), every game's table and result, the deductions and lots — and, from the results
//! alone, each match as the `tournament::gouji` library sees it and the extra game it needs next.

use crate::gouji::FinalSeating;
use std::cmp::Ordering;
use std::collections::BTreeMap;

use crate::competition::Ruling;
use crate::gouji::draw::KnockoutRound;
use crate::gouji::final_round::FinalInput;
use crate::gouji::{
    final_standings, match_result, ExtraGame, FinalGroups, GameRecord, Placing, Side,
    TeamDeduction, TeamMatch, TeamStanding,
};

/// Games in a knockout match: 对阵两支队伍比6局以得分高者为胜.
pub const MATCH_GAMES: u32 = crate::gouji::team_match::MATCH_GAMES as u32;
/// Most extra games one round may need (a cycle of wins among three or more level teams could
/// otherwise go on): past this the director decides.
pub const MAX_EXTRA_GAMES: u32 = 12;

/// One game at one table, once opened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    pub table_id: Option<String>,
    pub record: Option<GameRecord>,
    /// The director's reason, where `record` is the director's ruling.
    pub adjusted: Option<String>,
    /// The ruling at the table that last changed `record` after the game ended.
    pub revised: Option<Ruling>,
    /// Each seat's moves made by 托管, as the table reported them (empty: none).
    pub auto_moves: Vec<u32>,
    /// Each team's word on the result (「由队长或领队签字确认该局比赛结果」): `None` agreed,
    /// `Some(note)` disputed. A ruling clears it: the teams confirm the new result.
    pub confirms: BTreeMap<String, Option<String>>,
}

/// What a round is, once drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundKind {
    Knockout(KnockoutRound),
    Final(FinalGroups),
}

/// A lot the director drew in person for a knockout match still level after its
/// [`MAX_EXTRA_GAMES`] extra games: the match has no other way to end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lot {
    /// The team the lot named, by name.
    pub winner: String,
    pub reason: String,
}

/// Who plays one game where: the runner opens it, the views show it.
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

/// One round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    pub round: u32,
    /// `None` between the round's start and its draw.
    pub kind: Option<RoundKind>,
    /// (table, game) → its table and result.
    pub games: BTreeMap<(u32, u32), Slot>,
    /// Team deductions made during the round, with the reason.
    pub deductions: Vec<TeamDeduction>,
    /// table → the director's lot for a knockout match its extra games left undecided.
    pub lots: BTreeMap<u32, Lot>,
}

/// The deal a game is dealt from (with the competition's seed): knockout round r, match
/// (table) t, game g: `r·10000 + t·100 + g`; the final (round r): `r·10000 + g`, the same at its
/// three tables.
pub fn deal_number(kind: &RoundKind, round: u32, table: u32, game: u32) -> u32 {
    match kind {
        RoundKind::Knockout(_) => round * 10_000 + table * 100 + game,
        RoundKind::Final(_) => round * 10_000 + game,
    }
}

/// The extra game a record settles: the side that took 头科 wins (加赛一局，以头科一方为胜); after
/// a forfeit (no 头科) the side with more points; nothing when level.
fn extra_of(a: &str, b: &str, r: &GameRecord) -> Option<ExtraGame> {
    let winner = match (r.first, r.a.cmp(&r.b)) {
        (Some(side), _) => side,
        (None, Ordering::Greater) => Side::A,
        (None, Ordering::Less) => Side::B,
        (None, Ordering::Equal) => return None,
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
pub fn level_run(standings: &[TeamStanding]) -> Option<Vec<String>> {
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
    pub fn new(round: u32) -> Stage {
        Stage {
            round,
            kind: None,
            games: BTreeMap::new(),
            deductions: Vec::new(),
            lots: BTreeMap::new(),
        }
    }

    pub fn record(&self, table: u32, game: u32) -> Option<&GameRecord> {
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
    pub fn team_match(&self, table: u32, a: &str, b: &str) -> (TeamMatch, u32, Option<Seating>) {
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
    pub fn final_input(
        &self,
        groups: &FinalGroups,
        games: u32,
        seating: FinalSeating,
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
            seating,
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
