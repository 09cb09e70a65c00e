//! Each entry of a 够级 log checked against the state and applied: one function an action. A
//! refusal changes nothing (every check comes before the first write).

use super::action::{Drawn, TeamsAction};
use super::stage::{Lot, RoundKind, Slot, Stage, MAX_EXTRA_GAMES};
use super::state::{Teams, MIN_TEAMS};
use crate::competition::text::optional;
use crate::competition::text::{reason as reason_text, MAX_REASON};
use crate::competition::{Error, Field};
use crate::gouji::{advance, GameRecord, TeamDeduction};

pub(super) fn apply(t: &mut Teams, seq: u64, action: &TeamsAction) -> Result<(), Error> {
    if t.common.finished() {
        return Err(Error::Finished);
    }
    use TeamsAction as A;
    match action {
        A::Create { .. } => Err(Error::Exists),
        A::Register { entries } => {
            t.common.may_register()?;
            t.register(entries)?;
            t.common.registered = seq;
            Ok(())
        }
        A::AddEntries { entries } => {
            t.common.may_register()?;
            t.add_entries(entries)
        }
        A::StartRound { round, .. } => start_round(t, *round),
        A::Draw { round, drawn } => {
            t.common.in_play(*round)?;
            draw(t, *round, drawn)
        }
        A::GameOpened {
            round,
            table,
            game,
            table_id,
        } => {
            t.common.in_play(*round)?;
            opened(t, *round, *table, *game, table_id)
        }
        A::GameResult {
            round,
            table,
            game,
            table_id,
            record,
            auto_moves,
        } => {
            t.common.in_play(*round)?;
            let slot = slot_of(t, (*round, *table, *game))
                .filter(|s| s.table_id.as_deref() == Some(table_id) && s.record.is_none())
                .ok_or(Error::WrongGameTable)?;
            slot.record = Some(record.clone());
            slot.auto_moves = auto_moves.clone();
            Ok(())
        }
        A::Visits { visits } => t.common.visited(visits),
        A::GameRevised {
            round,
            table,
            game,
            table_id,
            record,
            ruling,
        } => {
            t.common.in_play(*round)?;
            let slot = slot_of(t, (*round, *table, *game))
                .filter(|s| {
                    s.table_id.as_deref() == Some(table_id)
                        && s.record.is_some()
                        && s.adjusted.is_none()
                })
                .ok_or(Error::NotRevisable)?;
            slot.record = Some(record.clone());
            slot.revised = ruling.clone();
            // The captains sign the new result.
            slot.confirms.clear();
            Ok(())
        }
        A::TeamDeduction {
            round,
            team,
            points,
            reason,
        } => {
            t.common.in_play(*round)?;
            deduct(t, *round, *team, *points, reason)
        }
        A::AdjustGame {
            round,
            table,
            game,
            record,
            reason,
        } => {
            t.common.in_play(*round)?;
            adjust(t, (*round, *table, *game), record, reason)
        }
        A::Lot {
            round,
            table,
            winner,
            reason,
        } => {
            t.common.in_play(*round)?;
            lot(t, *round, *table, winner, reason)
        }
        A::ConfirmGames {
            round,
            team,
            agree,
            note,
        } => {
            t.common.in_play(*round)?;
            confirm(t, *round, *team, *agree, note)
        }
        A::CloseRound { round, forced } => {
            t.common.in_play(*round)?;
            close(t, *round, *forced)?;
            t.common.closed = *round;
            Ok(())
        }
        A::Reveal { early: true } => Err(Error::NoEarlyFinish),
        A::Reveal { early: false } => {
            if !t.over() {
                return Err(Error::FinalOpen);
            }
            t.common.revealed = true;
            Ok(())
        }
    }
}

/// A game of a table of a round, once opened.
fn slot_of(t: &mut Teams, (round, table, game): (u32, u32, u32)) -> Option<&mut Slot> {
    t.stage_mut(round)?.games.get_mut(&(table, game))
}

fn start_round(t: &mut Teams, round: u32) -> Result<(), Error> {
    t.common.may_start(round)?;
    if t.teams.is_empty() {
        return Err(Error::NoEntries { teams: true });
    }
    if t.final_round().is_some() {
        return Err(Error::FinalDrawn);
    }
    t.stages.push(Stage::new(round));
    t.common.round = round;
    Ok(())
}

/// Team names, sorted: the draw's checks compare sets of teams.
fn sorted<'a>(names: impl Iterator<Item = &'a String>) -> Vec<&'a String> {
    let mut v: Vec<&String> = names.collect();
    v.sort();
    v
}

/// The round's draw, as the server computed it: checked against the teams still in.
fn draw(t: &mut Teams, round: u32, drawn: &Drawn) -> Result<(), Error> {
    let wrong = |why| Err(Error::DrawMismatch { why });
    let stage = t.stage(round).ok_or(Error::NotStarted { round })?;
    if stage.kind.is_some() {
        return Err(Error::Drawn);
    }
    let mut left = t.left.clone();
    match (&drawn.groups, round) {
        (Some(groups), 1) => {
            if sorted(groups.iter().flat_map(|g| &g.teams))
                != sorted(t.teams.iter().map(|x| &x.name))
            {
                return wrong("the groups are not the registered teams");
            }
            left = groups.clone();
        }
        (None, r) if r > 1 => {}
        _ => return wrong("groups are drawn in round 1, and only then"),
    }
    let teams_left = sorted(left.iter().flat_map(|g| &g.teams));
    let kind = match (&drawn.knockout, &drawn.final_groups) {
        (Some(k), None) if teams_left.len() > MIN_TEAMS => {
            let named = sorted(k.matches.iter().flat_map(|m| [&m.a, &m.b]).chain(&k.byes));
            if named != teams_left || k.matches.is_empty() {
                return wrong("the knockout round is not the teams still in");
            }
            RoundKind::Knockout(k.clone())
        }
        (None, Some(f)) if teams_left.len() == MIN_TEAMS => {
            if sorted(f.a.iter().chain(&f.b)) != teams_left {
                return wrong("the final's groups are not the six teams still in");
            }
            RoundKind::Final(f.clone())
        }
        _ => return wrong("a knockout round while more than six are in, else the final"),
    };
    if round == 1 {
        t.drawn_groups = left.clone();
    }
    t.left = left;
    t.stage_mut(round).expect("checked").kind = Some(kind);
    Ok(())
}

/// The server opened a game's table.
fn opened(t: &mut Teams, round: u32, table: u32, game: u32, table_id: &str) -> Result<(), Error> {
    if !t
        .open_now(round)
        .iter()
        .any(|s| s.table == table && s.game == game)
    {
        return Err(Error::GameNotNow { round, table, game });
    }
    t.stage_mut(round)
        .expect("open games are in a stage")
        .games
        .entry((table, game))
        .or_default()
        .table_id = Some(table_id.to_string());
    Ok(())
}

/// The director's ruling on a finished game: its result replaced, with the reason. What it
/// changes follows by itself: a match may now need an extra game (it opens) or no longer need
/// one it played (that game no longer counts).
fn adjust(
    t: &mut Teams,
    (round, table, game): (u32, u32, u32),
    record: &GameRecord,
    reason: &str,
) -> Result<(), Error> {
    let most = 100;
    if record.a.abs() > most || record.b.abs() > most || record.last.len() > 6 {
        return Err(Error::GameResultRange { most });
    }
    // A ruling gives a result some game can have under the competition's scoring (places, 点贡,
    // 串三户, the referee's deductions, a forfeit), or none.
    let ruleset = t.common.spec.ruleset.as_deref().unwrap_or_default();
    if let Some(rules) = rules::gouji::Ruleset::by_name(ruleset) {
        if !crate::gouji::Producible::of(&rules.scoring).contains(record) {
            return Err(Error::NotProducible {
                a: record.a,
                b: record.b,
            });
        }
    }
    let reason = reason_text(reason)?;
    let slot = t
        .stage_mut(round)
        .and_then(|s| s.games.get_mut(&(table, game)))
        .filter(|s| s.record.is_some())
        .ok_or(Error::GameUnfinished { round, table, game })?;
    slot.record = Some(record.clone());
    slot.adjusted = Some(reason);
    slot.confirms.clear();
    Ok(())
}

/// A team's captain confirms (or disputes, with a note) every result the team has in the round
/// so far (「每局比赛结束后，由队长或领队签字确认该局比赛结果」). Games finished later are
/// confirmed by a later call.
fn confirm(
    t: &mut Teams,
    round: u32,
    team: u32,
    agree: bool,
    note: &Option<String>,
) -> Result<(), Error> {
    let name = t.team_number(team)?.name.clone();
    let word = match (agree, optional(note, MAX_REASON, Field::Note)?) {
        (true, _) => None,
        (false, Some(n)) => Some(n),
        (false, None) => return Err(Error::DisputeNeedsNote),
    };
    let games: Vec<(u32, u32)> = t
        .seatings(round)
        .into_iter()
        .filter(|(s, done)| *done && (s.a == name || s.b == name))
        .map(|(s, _)| (s.table, s.game))
        .collect();
    if games.is_empty() {
        return Err(Error::NoFinishedGame { team: name });
    }
    let stage = t.stage_mut(round).expect("a team with games is in a stage");
    for key in games {
        if let Some(slot) = stage.games.get_mut(&key) {
            slot.confirms.insert(name.clone(), word.clone());
        }
    }
    Ok(())
}

/// The director's 扣该队4分.
fn deduct(t: &mut Teams, round: u32, team: u32, points: i32, reason: &str) -> Result<(), Error> {
    let name = t.team_number(team)?.name.clone();
    if !t.plays_in(round, &name) {
        return Err(Error::TeamNotPlaying { team: name });
    }
    if !(1..=100).contains(&points) {
        return Err(Error::TeamDeduction { points });
    }
    let reason = reason_text(reason)?;
    t.stage_mut(round)
        .expect("a team plays in a started round")
        .deductions
        .push(TeamDeduction {
            team: name,
            points,
            reason: Some(reason),
        });
    Ok(())
}

/// The director's lot (抽签) for a knockout match its extra games left undecided: `winner` (a
/// team's name or number) takes the match. Only then: a match that can still be decided by play
/// is refused, so a lot never replaces a game.
fn lot(t: &mut Teams, round: u32, table: u32, winner: &str, reason: &str) -> Result<(), Error> {
    let stage = t.stage(round).ok_or(Error::NotStarted { round })?;
    let Some(RoundKind::Knockout(k)) = &stage.kind else {
        return Err(Error::LotKnockoutOnly);
    };
    let m = k
        .matches
        .get((table as usize).wrapping_sub(1))
        .ok_or(Error::NoMatch { round, table })?;
    let team = t.team_named(winner).map(|x| x.name.clone());
    let Some(name) = team.filter(|n| *n == m.a || *n == m.b) else {
        return Err(Error::NotInMatch {
            winner: winner.to_string(),
            table,
            a: m.a.clone(),
            b: m.b.clone(),
        });
    };
    if stage.lots.contains_key(&table) {
        return Err(Error::LotDrawn { table });
    }
    if !t.lot_needed(round, table) {
        return Err(Error::LotNotNeeded {
            table,
            extra_games: MAX_EXTRA_GAMES,
        });
    }
    let reason = reason_text(reason)?;
    t.stage_mut(round).expect("checked").lots.insert(
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
fn close(t: &mut Teams, round: u32, forced: bool) -> Result<(), Error> {
    if !t.round_complete(round) {
        return Err(Error::RoundIncomplete { round });
    }
    let open = t.unconfirmed(round);
    if !forced && !open.is_empty() {
        return Err(Error::GamesUnconfirmed { games: open });
    }
    let stage = t.stage(round).expect("complete");
    if let Some(RoundKind::Knockout(k)) = &stage.kind {
        let winners: Vec<String> = t
            .matches(round)
            .into_iter()
            .filter_map(|(_, _, r)| r.winner)
            .collect();
        t.left = advance(&t.left, k, &winners)?;
    }
    Ok(())
}
