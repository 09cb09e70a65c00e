//! A table's engine from what is stored: the game its header deals ([`dealt`]) and each logged
//! action applied as it was live ([`apply_stored`]). The actor's start ([`super::spawn`]), the
//! computer players made from a log, and the events' reading of their tables' results all go
//! through here.

use super::game::{DealFixed, TableGame};
use crate::store::{LogEntry, TableHeader};

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
