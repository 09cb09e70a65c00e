//! Past one machine: the background task that keeps this node's leases and takes over the
//! tables and events of nodes that died (docs/operations.md, "Past one machine").
//!
//! Every [`Node::renew_every`] (a fifth of the lease): renew the lease of every table served
//! here, and stop serving those whose lease another node holds now (their connections are told to
//! reconnect and are then sent there); the same for the competitions run here ([`Competitions::hand_over`]);
//! then look for events and open tables that no live lease names and take them over
//! ([`Competitions::take`], [`Lobby::take`]: acquire, load the log, rebuild, as a restart does; an
//! event first, so its tables, which only the node running it may take, follow it); then share
//! the lobby: write what changed in this node's tables and events, read the others'
//! ([`crate::listing`]). When the
//! database cannot be reached for so long that our leases may have run out, every table and
//! event stops: another node may be serving them already.
//!
//! [`Node::renew_every`]: crate::store::Node::renew_every

use std::collections::HashSet;
use std::sync::Arc;

use tokio::time::{interval, Instant, MissedTickBehavior};

use protocol::TableSummary;

use crate::competition::Competitions;
use crate::listing::Own;
use crate::lobby::{Lobby, TAKE_AT_ONCE};
use crate::store::{Leases, StoreError};

/// Takes over the tables whose lease is free, except those that already failed to rebuild here
/// (`skip`), until `until` (the rest wait for the next round); the ones that fail now, with why.
///
/// **Why the deadline:** the renewal of this node's own leases waits for this sweep. When a node
/// of three died with 3,300 tables, the survivors took them over one by one (acquire, load the
/// log, rebuild) for longer than a lease, their own leases ran out meanwhile, and each took the
/// other's tables (`lease lost` on their own writes). Bounded, the sweep leaves the renewal its
/// pace; the players of a table not yet swept take it themselves, on the spot, when they
/// connect ([`Lobby::elsewhere`]).
pub async fn take_free(
    lobby: &Lobby,
    skip: &HashSet<String>,
    until: Instant,
) -> Vec<(String, String)> {
    let Some(leases) = &lobby.leases else {
        return Vec::new();
    };
    let free = match leases.free_tables().await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!(error = %e, "cannot look for tables to take over");
            return Vec::new();
        }
    };
    let free: Vec<String> = free.into_iter().filter(|id| !skip.contains(id)).collect();
    let mut failed = Vec::new();
    for some in free.chunks(TAKE_AT_ONCE) {
        if Instant::now() >= until {
            break;
        }
        match lobby.take_many(some).await {
            Ok(f) => failed.extend(f),
            Err(e) => {
                tracing::warn!(error = %e, "cannot take tables over; trying again next round");
                break;
            }
        }
    }
    failed
}

/// Runs until aborted (the server's shutdown aborts it before releasing the leases).
pub async fn run(lobby: Arc<Lobby>, leases: Arc<Leases>, competitions: Arc<Competitions>) {
    let every = leases.node.renew_every();
    let mut tick = interval(every);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    // Until when our leases surely last, by our own clock: a renewal's start plus the lease.
    let mut held_until = Instant::now() + leases.node.lease;
    let mut unservable: HashSet<String> = HashSet::new();
    let mut unrunnable: HashSet<String> = HashSet::new();
    loop {
        tick.tick().await;
        let round = Instant::now();
        let ours: Vec<String> = lobby.tables.iter().map(|t| t.key().clone()).collect();
        let our_competitions = competitions.ids();
        let renewed = match leases.renew(&ours).await {
            Ok(held) => leases
                .renew_competitions(&our_competitions)
                .await
                .map(|e| (held, e)),
            Err(e) => Err(e),
        };
        match renewed {
            Ok((held, held_competitions)) => {
                held_until = round + leases.node.lease;
                for id in our_competitions
                    .iter()
                    .filter(|id| !held_competitions.contains(*id))
                {
                    competitions.hand_over(id).await;
                }
                for id in ours.iter().filter(|id| !held.contains(*id)) {
                    lobby.hand_over(id);
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot renew this node's leases");
                if Instant::now() + every >= held_until {
                    tracing::error!("leases may have run out: no longer serving any table");
                    for id in &our_competitions {
                        competitions.hand_over(id).await;
                    }
                    for id in &ours {
                        lobby.hand_over(id);
                    }
                }
            }
        }
        for (id, why) in competitions.take_free(&unrunnable).await {
            tracing::error!(event = %id, reason = %why, "event not rebuilt from its log");
            unrunnable.insert(id);
        }
        // Half the round at most, so the next renewal comes on time (see `take_free`).
        for (id, why) in take_free(&lobby, &unservable, round + every / 2).await {
            tracing::error!(table = %id, reason = %why, "table not rebuilt from its log");
            unservable.insert(id);
        }
        if let Err(e) = list_across(&lobby, &leases, &competitions).await {
            tracing::warn!(error = %e, "cannot share the lobby with the other nodes");
        }
    }
}

/// One lobby across nodes: writes what changed in this node's tables and events, reads the
/// other nodes' ([`crate::listing`]).
async fn list_across(
    lobby: &Lobby,
    leases: &Leases,
    competitions: &Competitions,
) -> Result<(), StoreError> {
    let tables = lobby
        .own_list()
        .into_iter()
        .map(|s| Own {
            id: s.id.clone(),
            created_ms: 0,
            // A play alone changes only `seq`: not worth a write of the row.
            key: TableSummary {
                seq: 0,
                ..s.clone()
            },
            item: s,
        })
        .collect();
    let events = competitions
        .own_list()
        .into_iter()
        .map(|(created_ms, b)| Own {
            id: b.id.clone(),
            created_ms,
            key: b.clone(),
            item: b,
        })
        .collect();
    let start = Instant::now();
    lobby.listing.publish(leases, tables, events).await?;
    let (listed, read_whole) = lobby.listing.read(leases).await?;
    tracing::debug!(
        listed,
        read_whole,
        ms = start.elapsed().as_secs_f64() * 1000.0,
        "lobby shared with the other nodes"
    );
    Ok(())
}
