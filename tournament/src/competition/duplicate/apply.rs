//! Each entry of an 80分 pairs log checked against the state and applied: one function an
//! action. A refusal changes nothing (every check comes before the first write).

use super::action::{DeductionKind, DuplicateAction};
use super::state::{
    Adjusted, Confirms, Deducted, Duplicate, Play, Played, RoundClock, BOARD_MINUTES, MAX_POINTS,
};
use crate::competition::text::optional;
use crate::competition::text::reason as reason_text;
use crate::competition::text::MAX_REASON;
use crate::competition::Ruling;
use crate::competition::Tally;
use crate::competition::{Error, Field};
use crate::matchpoints::Artificial;
use crate::score::ArtificialScores;
use crate::seat::Direction;

pub(super) fn apply(d: &mut Duplicate, seq: u64, action: &DuplicateAction) -> Result<(), Error> {
    if d.common.finished() {
        return Err(Error::Finished);
    }
    use DuplicateAction as A;
    match action {
        A::Create { .. } => Err(Error::Exists),
        A::Register { entries } => {
            d.common.may_register()?;
            d.register(entries)?;
            d.common.registered = seq;
            Ok(())
        }
        A::AddEntries { entries } => {
            d.common.may_register()?;
            d.add_entries(entries)
        }
        A::StartRound { round, at_ms } => start_round(d, *round, *at_ms),
        A::Seated {
            round,
            direction,
            pair,
            seat,
            at_ms,
        } => d.seat(*round, *direction, *pair, *seat, *at_ms),
        A::Forfeit {
            round,
            direction,
            pair,
            reason,
            at_ms,
        } => d.forfeit(*round, *direction, *pair, reason, *at_ms),
        A::TableOpened {
            round,
            table,
            board,
            table_id,
        } => {
            let play = slot(d, (*round, *table, *board))?;
            play.table_id = Some(table_id.clone());
            Ok(())
        }
        A::Result {
            round,
            table,
            board,
            table_id,
            declarer,
            defenders,
            timeouts,
            auto_moves,
        } => {
            let play = slot(d, (*round, *table, *board))?;
            if play.table_id.as_deref() != Some(table_id) {
                return Err(Error::WrongTable);
            }
            play.played = Some(Played {
                declarer: *declarer,
                defenders: *defenders,
            });
            play.tally = Tally {
                timeouts: timeouts.clone(),
                auto_moves: auto_moves.clone(),
            };
            Ok(())
        }
        A::Visits { visits } => d.common.visited(visits),
        A::Revised {
            round,
            table,
            board,
            table_id,
            declarer,
            defenders,
            ruling,
        } => {
            let played = Played {
                declarer: *declarer,
                defenders: *defenders,
            };
            revise(d, (*round, *table, *board), table_id, played, ruling)
        }
        A::Adjust {
            round,
            table,
            board,
            defenders,
            artificial,
            reason,
        } => adjust(d, (*round, *table, *board), *defenders, *artificial, reason),
        A::Deduction {
            direction,
            pair,
            mp,
            reason,
            kind,
        } => deduct(d, *direction, *pair, *mp, reason, *kind),
        A::Disqualify {
            direction,
            pair,
            reason,
        } => disqualify(d, *direction, *pair, reason),
        A::Confirm {
            round,
            table,
            direction,
            agree,
            note,
        } => confirm(d, *round, *table, *direction, *agree, note),
        A::CloseRound { round, forced } => close_round(d, *round, *forced),
        A::Reveal { early } => reveal(d, *early),
    }
}

/// The board of a table of the round being played, checked: what happened there.
fn slot(d: &mut Duplicate, (round, table, board): (u32, u32, u32)) -> Result<&mut Play, Error> {
    d.common.in_play(round)?;
    board_of(d, round, table, board)?;
    Ok(d.plays.entry((round, table, board)).or_default())
}

/// A ruling at the board's table changed the result it reported: the table's result, revised,
/// while the director has not settled it; the pairs confirm again.
fn revise(
    d: &mut Duplicate,
    (round, table, board): (u32, u32, u32),
    table_id: &str,
    played: Played,
    ruling: &Option<Ruling>,
) -> Result<(), Error> {
    let play = slot(d, (round, table, board))?;
    if play.table_id.as_deref() != Some(table_id)
        || play.played.is_none()
        || play.adjusted.is_some()
    {
        return Err(Error::NotRevisable);
    }
    play.played = Some(played);
    play.revised = ruling.clone();
    if let Some(c) = d.confirms.get_mut(&(round, table)) {
        *c = Confirms::default();
    }
    Ok(())
}

/// The director disqualifies a pair (once), with the reason.
fn disqualify(
    d: &mut Duplicate,
    direction: Direction,
    pair: u32,
    reason: &str,
) -> Result<(), Error> {
    d.known_pair(direction, pair)?;
    if d.is_disqualified(direction, pair) {
        return Err(Error::Disqualified { direction, pair });
    }
    let reason = reason_text(reason)?;
    d.disqualified.push(Deducted {
        direction,
        pair,
        mp: 0.0,
        reason,
        kind: None,
    });
    Ok(())
}

/// Checks that a board is played at a table in a round.
fn board_of(d: &Duplicate, round: u32, table: u32, board: u32) -> Result<(), Error> {
    match d.table_plan(round, table) {
        Some(t) if t.boards.contains(&board) => Ok(()),
        _ => Err(Error::NotThisBoard {
            round,
            table,
            board,
        }),
    }
}

fn start_round(d: &mut Duplicate, round: u32, at_ms: Option<u64>) -> Result<(), Error> {
    if d.pairs.is_empty() {
        return Err(Error::NoEntries { teams: false });
    }
    d.common.may_start(round)?;
    if round > d.common.spec.rounds {
        return Err(Error::NoSuchRound {
            rounds: d.common.spec.rounds,
        });
    }
    d.common.round = round;
    if let Some(at) = at_ms {
        let spec = &d.common.spec;
        let minutes = spec.board_minutes.unwrap_or(BOARD_MINUTES);
        let ms = u64::from(spec.boards_per_round) * u64::from(minutes) * 60_000;
        d.clocks.insert(
            round,
            RoundClock {
                started_ms: at,
                deadline_ms: at + ms,
            },
        );
    }
    sit_out(d, round);
    Ok(())
}

/// A half table: the pair meeting the phantom this round sits out, and gets the average (A,
/// 50 %) on each of the round's boards at once, as the director would assign it; no table is
/// opened for it.
fn sit_out(d: &mut Duplicate, round: u32) {
    let Some(plan) = d.round_plan(round) else {
        return;
    };
    let mut out = Vec::new();
    for t in &plan.tables {
        let average = match (t.ns, t.ew) {
            (Some(_), None) => ArtificialScores {
                ns: Some(Artificial::Average),
                ew: None,
            },
            (None, Some(_)) => ArtificialScores {
                ns: None,
                ew: Some(Artificial::Average),
            },
            _ => continue,
        };
        for &board in &t.boards {
            out.push(((round, t.table, board), average));
        }
    }
    for (key, artificial) in out {
        d.plays.entry(key).or_default().adjusted = Some(Adjusted {
            defenders: None,
            artificial: Some(artificial),
            reason: "半桌轮空：平均分 (half table: sits out, average)".into(),
        });
    }
}

/// The director's result for one board: points (a multiple of 5) or artificial scores, with
/// the reason. The pairs confirm again.
fn adjust(
    d: &mut Duplicate,
    (round, table, board): (u32, u32, u32),
    defenders: Option<i32>,
    artificial: Option<ArtificialScores>,
    reason: &str,
) -> Result<(), Error> {
    if round == 0 || round > d.common.round {
        return Err(Error::NotStarted { round });
    }
    board_of(d, round, table, board)?;
    let plan = d.table_plan(round, table).expect("checked above");
    let half = plan.ns.is_none() || plan.ew.is_none();
    match (defenders, artificial) {
        (Some(_), Some(_)) | (None, None) => return Err(Error::AdjustOneWay),
        (Some(d), None) if d.abs() > MAX_POINTS => {
            return Err(Error::AdjustRange {
                defenders: d,
                max: MAX_POINTS,
            })
        }
        (Some(d), None) if d % 5 != 0 => return Err(Error::AdjustPoints { defenders: d }),
        (Some(_), None) if half => return Err(Error::SitOutArtificialOnly),
        (None, Some(a)) => artificial_ok(&a, plan.ns.is_some(), plan.ew.is_some())?,
        _ => {}
    }
    let reason = reason_text(reason)?;
    d.plays.entry((round, table, board)).or_default().adjusted = Some(Adjusted {
        defenders,
        artificial,
        reason,
    });
    // The pairs confirm again (or the director closes the round over them).
    if let Some(c) = d.confirms.get_mut(&(round, table)) {
        *c = Confirms::default();
    }
    Ok(())
}

/// An artificial result gives a score to each side that has a pair (`ns`, `ew`): at a half
/// table one side is the phantom and has none.
fn artificial_ok(a: &ArtificialScores, ns: bool, ew: bool) -> Result<(), Error> {
    if !(ns && ew) {
        if a.ns.is_some() != ns || a.ew.is_some() != ew {
            return Err(Error::ArtificialHalf);
        }
    } else if a.ns.is_none() || a.ew.is_none() {
        return Err(Error::ArtificialBoth);
    }
    Ok(())
}

/// Match points off a pair. 累计二次以上传递非法信息的，取消违规方比赛资格 (seed 000): the second
/// signalling deduction disqualifies in the same step.
fn deduct(
    d: &mut Duplicate,
    direction: Direction,
    pair: u32,
    mp: f64,
    reason: &str,
    kind: Option<DeductionKind>,
) -> Result<(), Error> {
    d.known_pair(direction, pair)?;
    // A signalling offence is punished on the board (40 points, or the board lost: the table's
    // ruling or the director's adjustment), not in match points: its record may take none.
    let record = mp == 0.0 && kind == Some(DeductionKind::Signalling);
    let halves = mp * 2.0;
    let in_halves = halves.is_finite() && (1.0..=200.0).contains(&halves) && halves.fract() == 0.0;
    if !(record || in_halves) {
        return Err(Error::BadDeduction { mp });
    }
    let reason = reason_text(reason)?;
    d.deductions.push(Deducted {
        direction,
        pair,
        mp,
        reason,
        kind,
    });
    let signalled = d
        .deductions
        .iter()
        .filter(|x| {
            x.direction == direction && x.pair == pair && x.kind == Some(DeductionKind::Signalling)
        })
        .count();
    if kind == Some(DeductionKind::Signalling)
        && signalled >= 2
        && !d.is_disqualified(direction, pair)
    {
        d.disqualified.push(Deducted {
            direction,
            pair,
            mp: 0.0,
            reason: format!("累计 {signalled} 次传递非法信息 (signalling, {signalled} times)"),
            kind: Some(DeductionKind::Signalling),
        });
    }
    Ok(())
}

/// A pair's word on its table's results of the round: NS record, then EW check; a dispute
/// says why.
fn confirm(
    d: &mut Duplicate,
    round: u32,
    table: u32,
    direction: Direction,
    agree: bool,
    note: &Option<String>,
) -> Result<(), Error> {
    d.common.in_play(round)?;
    if !d.table_done(round, table) {
        return Err(Error::TableUnfinished);
    }
    if agree && direction == Direction::EW && !d.confirmed(round, table, Direction::NS) {
        return Err(Error::NsFirst);
    }
    let note = optional(note, MAX_REASON, Field::Note)?;
    if !agree && note.is_none() {
        return Err(Error::DisputeNeedsNote);
    }
    let c = d.confirms.entry((round, table)).or_default();
    let side = match direction {
        Direction::NS => &mut c.ns,
        Direction::EW => &mut c.ew,
    };
    *side = agree;
    if agree {
        if c.ns && c.ew {
            c.dispute = None;
        }
    } else {
        c.dispute = note.map(|n| format!("{}：{n}", direction.zh()));
    }
    Ok(())
}

fn close_round(d: &mut Duplicate, round: u32, forced: bool) -> Result<(), Error> {
    d.common.in_play(round)?;
    let plan = d.round_plan(round).expect("a started round is planned");
    let missing: Vec<u32> = plan
        .tables
        .iter()
        .filter(|t| !d.table_done(round, t.table))
        .map(|t| t.table)
        .collect();
    if !missing.is_empty() {
        return Err(Error::Unfinished { tables: missing });
    }
    if !forced {
        let open: Vec<u32> = plan
            .tables
            .iter()
            .filter(|t| {
                !d.confirmed(round, t.table, Direction::NS)
                    || !d.confirmed(round, t.table, Direction::EW)
                    || d.confirms
                        .get(&(round, t.table))
                        .is_some_and(|c| c.dispute.is_some())
            })
            .map(|t| t.table)
            .collect();
        if !open.is_empty() {
            return Err(Error::Unconfirmed { tables: open });
        }
    }
    d.common.closed = round;
    Ok(())
}

fn reveal(d: &mut Duplicate, early: bool) -> Result<(), Error> {
    let c = &mut d.common;
    if early {
        if c.closed == 0 || c.closed != c.round {
            return Err(Error::EarlyMidRound);
        }
        c.early = c.closed < c.spec.rounds;
    } else if c.closed < c.spec.rounds {
        return Err(Error::RoundsOpen {
            closed: c.closed,
            rounds: c.spec.rounds,
        });
    }
    c.revealed = true;
    Ok(())
}
