//! A competition's hands on its tables: opening the table a [`TableNeed`] names (the
//! competition's seed and the need's deal, its ruleset and fixed level and trump, computers in
//! the seats of a computer pair or team), and where a table is now — open here (its result
//! watched), over (its result, as the table published it, or as its stored log gives it when it
//! is no longer served here), gone, or served by another node.

use protocol::{CreateTable, Refusal};
use tournament::competition::{Common, TableNeed, TableReport, TableResult};

use super::denied::Denied;
use crate::lobby::Lobby;
use crate::store::{self, CompetitionHeader};
use crate::table::{TableGame, TableHandle};

/// Where a need's table is now.
pub enum Now {
    /// Being played (or waiting for its players) here: its result is awaited.
    Open(TableHandle),
    /// Play is over: its result.
    Over(String, TableReport),
    /// None opened yet, or it closed (or was lost) before the board was over: open one.
    Gone,
    /// Past one machine: served by another node, or waiting to be taken over: look again later.
    Elsewhere,
}

/// Opens the table that deals `need`: its id.
pub async fn open<G: TableGame>(
    lobby: &Lobby,
    header: &CompetitionHeader,
    common: &Common,
    need: &TableNeed,
) -> Result<String, Denied> {
    let req = CreateTable {
        game: G::GAME.to_string(),
        ruleset: common.spec.ruleset.clone(),
        seed: Some(header.seed.clone()),
        board: Some(need.deal),
        bots: need.computers.clone(),
        level: common.spec.level.clone(),
        trump: common.spec.trump.clone(),
        // A competition's tables keep the ruleset's clocks (the competition's).
        play_seconds: None,
        // An event's computers sit for entries that are absent, at the default level; a
        // practice run's play at the level its player chose.
        bot_level: need.level.clone(),
    };
    Ok(lobby.create_competing(req, common.terms(need)).await?.id)
}

/// Where `need`'s table is now.
pub async fn now<G: TableGame>(lobby: &Lobby, need: &TableNeed) -> Result<Now, Denied> {
    let Some(id) = &need.table_id else {
        return Ok(Now::Gone);
    };
    if let Some(handle) = lobby.get(id) {
        let report = handle.result().borrow().clone();
        return Ok(match report {
            Some(r) => Now::Over(id.clone(), r),
            None => Now::Open(handle),
        });
    }
    // Not served here: closed idle, not rebuilt at start, or (past one machine) another
    // node's. Its log is the truth: read once, as a restart would rebuild it.
    let failed = |e: String| {
        Denied::Server(Refusal::StoreFailed {
            detail: e,
            reading: true,
        })
    };
    let stored = lobby
        .journal
        .load(id)
        .await
        .map_err(|e| failed(e.to_string()))?;
    let Some(stored) = stored else {
        return Ok(Now::Gone);
    };
    if let Some(report) = crate::table::replay::report::<G>(&stored).map_err(failed)? {
        return Ok(Now::Over(id.clone(), report));
    }
    let Some(leases) = &lobby.leases else {
        return Ok(Now::Gone);
    };
    match leases.owner(id).await.map_err(|e| failed(e.to_string()))? {
        store::Owner::Other { .. } => Ok(Now::Elsewhere),
        store::Owner::Free | store::Owner::Me => {
            // Taken over here (the competition's tables follow the node that runs it); or not
            // ours to take now (this node is full): looked at again later.
            lobby.take(id).await.map_err(failed)?;
            Ok(Now::Elsewhere)
        }
        store::Owner::None => Ok(Now::Gone),
    }
}

/// A table awaited: what it deals, the result it was seen with (`None`: none yet) and how
/// many of its seats' connections are logged.
pub struct Awaited {
    pub need: TableNeed,
    pub table: TableHandle,
    pub result: Option<TableResult>,
    pub visits: usize,
}

impl Awaited {
    pub fn new(need: TableNeed, table: TableHandle, result: Option<TableResult>) -> Awaited {
        Awaited {
            need,
            table,
            result,
            visits: 0,
        }
    }
}

/// Resolves when any of `tables` reports a result other than the one it was seen with (its
/// first, or a ruling's revision), a connection to one of its seats not logged yet, or goes
/// away.
pub async fn any_reports(tables: &[Awaited]) {
    if tables.is_empty() {
        return std::future::pending().await;
    }
    let waits = tables.iter().map(|a| {
        let mut report = a.table.result();
        let closed = a.table.closed();
        let seen = a.result.clone();
        let (mut visits, logged) = (a.table.visits(), a.visits);
        Box::pin(async move {
            let new_visit = async {
                match &mut visits {
                    Some(v) => drop(v.wait_for(|v| v.len() != logged).await),
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = report.wait_for(|r| r.as_ref().map(|r| &r.result) != seen.as_ref()) => {}
                _ = new_visit => {}
                _ = closed => {}
            }
        })
    });
    futures_util::future::select_all(waits).await;
}

/// Closes the tables among `ids` still open here (their work is over).
pub async fn close(lobby: &Lobby, ids: &[String]) {
    for id in ids {
        if let Some(handle) = lobby.get(id) {
            tracing::info!(table = %id, "closing a competition's table: its work is over");
            handle.close().await;
        }
    }
}
