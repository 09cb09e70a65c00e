//! An event's hands on its tables: opening the table that deals one board for one table of a
//! round, and reading a finished board's outcome (declarer and defenders' points) back from the
//! table's stored log, replayed through the engine, exactly as a restarted server rebuilds it.
//! The same for a 够级 game: its table opened with the teams' bots, its result (team points,
//! 头科, 大落) read from its log.

use protocol::{CreateTable, Problem, Refusal, TableState, Words};

use super::state::Event;
use crate::lobby::Lobby;
use crate::store::{self, StoredTable};
use crate::table::replay::{apply_stored, dealt};

/// Where a board's (or a game's) table is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableNow<T> {
    /// Waiting for its players or being played.
    Open,
    /// Play is over: the outcome (80分: declarer and defenders' points; 够级: the game's
    /// record).
    Over(T),
    /// Closed (or lost) before the board was over: the board needs a new table.
    Gone,
}

/// How an outcome is read from a stored table (`None` while play is not over).
pub type Outcome<T> = fn(&StoredTable) -> Result<Option<T>, String>;

/// Opens the table that deals `board` for table `table` of round `round`: the event's seed and
/// the board's number (the declarer rotates with it), the event's ruleset and fixed level and
/// trump, bots in the seats of a bot pair. Its id.
pub async fn open(
    lobby: &Lobby,
    ev: &Event,
    seed: &str,
    round: u32,
    table: u32,
    board: u32,
) -> Result<String, Problem> {
    let plan = ev.table_plan(round, table).ok_or_else(|| {
        Problem::from(Refusal::Internal(Words::new(
            "移位表里没有这张桌",
            "no such table in the movement",
        )))
    })?;
    let mut bots = Vec::new();
    for (direction, number) in [
        (tournament::Direction::NS, plan.ns),
        (tournament::Direction::EW, plan.ew),
    ] {
        if let Some(pair) = number.and_then(|n| ev.pair(direction, n)) {
            if pair.bot {
                bots.extend(pair.seats());
            }
        }
    }
    bots.sort_unstable();
    let req = CreateTable {
        game: ev.spec.game.clone(),
        ruleset: ev.spec.ruleset.clone(),
        seed: Some(seed.to_string()),
        board: Some(board),
        bots,
        level: ev.spec.level.clone(),
        trump: ev.spec.trump.clone(),
        // An event's tables keep the ruleset's clocks (the competition's).
        play_seconds: None,
        // An event's tables seat bots only for pairs that are absent: the default level.
        bot_level: None,
    };
    lobby.create(req).await.map(|s| s.id).map_err(Problem::from)
}

/// Where the table `id` is: from the lobby while it is open, from its stored log once it is over
/// or gone. Past one machine a table not served here is taken over when its lease is free (the
/// event's tables follow the node that runs the event), and is still open while another node
/// serves it.
pub async fn now<T>(lobby: &Lobby, id: &str, outcome: Outcome<T>) -> Result<TableNow<T>, String> {
    let served = lobby.get(id).map(|h| h.summary().state);
    if matches!(served, Some(TableState::Waiting | TableState::Playing)) {
        return Ok(TableNow::Open);
    }
    let stored = lobby.journal.load(id).await.map_err(|e| e.to_string())?;
    let Some(stored) = stored else {
        return Ok(TableNow::Gone);
    };
    match outcome(&stored)? {
        Some(o) => Ok(TableNow::Over(o)),
        None if served.is_some() => Ok(TableNow::Open),
        None => elsewhere(lobby, id).await,
    }
}

/// A table not over and not served here: closed idle or not rebuilt (gone), or, past one
/// machine, served by another node or waiting to be taken over (open).
async fn elsewhere<T>(lobby: &Lobby, id: &str) -> Result<TableNow<T>, String> {
    let Some(leases) = &lobby.leases else {
        return Ok(TableNow::Gone);
    };
    match leases.owner(id).await.map_err(|e| e.to_string())? {
        store::Owner::Other { .. } => Ok(TableNow::Open),
        store::Owner::Free | store::Owner::Me => {
            // Taken over here; or not ours to take (the event's lease was lost meanwhile, or
            // this node is full): looked at again next time.
            lobby.take(id).await?;
            Ok(TableNow::Open)
        }
        store::Owner::None => Ok(TableNow::Gone),
    }
}

/// The outcome of a stored 80分 table, replayed from its log: `None` while play is not over.
pub fn outcome(stored: &StoredTable) -> Result<Option<(String, i32)>, String> {
    let h = &stored.header;
    store::verify(h, &stored.log).map_err(|t| format!("table {}: {t}", h.id))?;
    let mut board = dealt::<rules::shengji::Board>(h).map_err(|w| w.en)?.engine;
    for e in &stored.log {
        apply_stored(&mut board, e).map_err(|f| format!("entry {}: {f}", e.seq))?;
    }
    if !board.is_over() {
        return Ok(None);
    }
    let defenders = board.result().unwrap_or_else(|| board.defenders_points());
    Ok(Some((board.declarer().letter().to_string(), defenders)))
}

/// Opens the table of one 够级 game: the event's seed and the game's deal number, the event's
/// ruleset, bots in the seats of a bot team (A in A1–A3, B in B1–B3). Its id.
pub async fn open_gouji(
    lobby: &Lobby,
    ev: &Event,
    seed: &str,
    seating: &super::gouji::Seating,
) -> Result<String, Problem> {
    let g = ev.gouji.as_ref().ok_or_else(|| {
        Problem::from(Refusal::Internal(Words::new(
            "不是够级比赛",
            "not a 够级 event",
        )))
    })?;
    let mut bots = Vec::new();
    for (team, side) in [
        (&seating.a, tournament::gouji::Side::A),
        (&seating.b, tournament::gouji::Side::B),
    ] {
        if g.team(team).is_some_and(|t| t.bot) {
            bots.extend(super::gouji::side_seats(side));
        }
    }
    bots.sort_unstable();
    let req = CreateTable {
        game: ev.spec.game.clone(),
        ruleset: ev.spec.ruleset.clone(),
        seed: Some(seed.to_string()),
        board: Some(seating.deal),
        bots,
        level: None,
        trump: None,
        play_seconds: None,
        bot_level: None,
    };
    lobby.create(req).await.map(|s| s.id).map_err(Problem::from)
}

/// The record of a stored 够级 game, replayed from its log: `None` while play is not over.
/// Team points as the engine scored them (referee deductions and a forfeit included), 头科
/// (none after a forfeit) and every 大落 (the last out, and a failed burner).
pub fn gouji_outcome(
    stored: &StoredTable,
) -> Result<Option<tournament::gouji::GameRecord>, String> {
    use rules::gouji::{Place, Seat, Status};
    let h = &stored.header;
    store::verify(h, &stored.log).map_err(|t| format!("table {}: {t}", h.id))?;
    let mut game = dealt::<rules::gouji::Game>(h).map_err(|w| w.en)?.engine;
    for e in &stored.log {
        apply_stored(&mut game, e).map_err(|f| format!("entry {}: {f}", e.seq))?;
    }
    let Some((score, outcome)) = game.score() else {
        return Ok(None);
    };
    let forfeit = matches!(outcome, rules::gouji::Outcome::Forfeit { .. });
    let first = (!forfeit)
        .then(|| {
            Seat::ALL
                .into_iter()
                .find(|s| game.places()[s.index()] == Some(Place::First))
                .map(|s| s.team().into())
        })
        .flatten();
    let last = Seat::ALL
        .into_iter()
        .filter(|s| {
            game.status(*s) == Status::Failed || game.places()[s.index()] == Some(Place::Last)
        })
        .map(|s| s.team().into())
        .collect();
    Ok(Some(tournament::gouji::GameRecord {
        a: score.a,
        b: score.b,
        first,
        last,
    }))
}
