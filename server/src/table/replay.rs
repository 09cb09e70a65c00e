//! A table's engine from what is stored: the game its header deals ([`dealt`]) and each logged
//! action applied as it was live ([`apply_stored`]). The actor's start ([`super::spawn`]), the
//! computer players made from a log, and a competition reading a table it no longer serves
//! ([`rebuilt`]) all go through here.

use super::game::{DealFixed, TableGame};
use crate::store::{self, LogEntry, StoredTable, TableHeader};

/// The game a stored table's header deals, before any action (its seed, what the director
/// fixed, its ruleset), and what was fixed.
pub fn dealt<G: TableGame>(h: &TableHeader) -> Result<(G, DealFixed), String> {
    let seed = rules::deal::Seed::from_hex(&h.seed).map_err(|e| e.0)?;
    let fixed = DealFixed::from_json(&h.fixed)?;
    let engine = G::start(&h.ruleset, &seed, h.board, &fixed).map_err(|r| r.words().en)?;
    Ok((engine, fixed))
}

/// Applies one stored entry to `engine`, as it was applied live: its events.
pub fn apply_stored<G: TableGame>(engine: &mut G, e: &LogEntry) -> Result<Vec<G::Event>, String> {
    let action: G::Action =
        serde_json::from_str(&e.action).map_err(|err| format!("entry {}: {err}", e.seq))?;
    engine
        .apply(e.seat, e.actor, action)
        .map_err(|err| format!("entry {} refused on replay: {err:?}", e.seq))
}

/// The game a stored table's log made: its chain verified, its header dealt, every entry
/// applied as it was live.
pub fn rebuilt<G: TableGame>(stored: &StoredTable) -> Result<(G, DealFixed), String> {
    let h = &stored.header;
    store::verify(h, &stored.log).map_err(|t| format!("table {}: log tampered: {t}", h.id))?;
    let (mut game, fixed) = dealt::<G>(h).map_err(|e| format!("table {}: {e}", h.id))?;
    for e in &stored.log {
        apply_stored(&mut game, e).map_err(|err| format!("table {}: {err}", h.id))?;
    }
    Ok((game, fixed))
}
