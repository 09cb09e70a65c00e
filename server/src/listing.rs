//! One lobby across nodes (docs/operations.md, "Past one machine"): `GET /api/tables` and
//! `GET /api/events` on any node list the tables and events of every live node, each with the
//! address of the node serving it (`node`).
//!
//! A request never asks the database. Each lease row carries what its owner lists of it (a
//! table's summary, an event's brief) and a version from one sequence, renumbered whenever it
//! changes. Every renewal tick ([`crate::cluster`]) a node writes what changed in its own
//! listings ([`Listing::publish`]), then reads the other nodes' rows ([`Listing::read`]): an id,
//! an address and a version a row, and the JSON only of rows whose version it has not seen —
//! at 10,000 tables a short row each and the few summaries that changed, not 10,000 summaries.
//! A request merges this node's own tables, as they are now, with that copy, at most a tick old.
//!
//! A node that dies drops out once its leases run out (the rows are read only while live); the
//! node that takes a table over lists it with its own address. A table's `seq` is republished
//! only with a change of its seats, state or watchers (a play alone does not rewrite its row),
//! so another node's `seq` may be behind; the lobby shows none of it.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::store::{Leases, Listed, StoreError};

/// What a lease row lists: the item and when it was made (the event list is newest first).
#[derive(Serialize, Deserialize)]
struct Published<T> {
    created_ms: u64,
    item: T,
}

/// One of this node's listings, to publish: its id, when it was made, the item, and the item
/// as compared with what was last written (`key`: the item less what is not worth a write).
pub struct Own<T> {
    pub id: String,
    pub created_ms: u64,
    pub key: T,
    pub item: T,
}

/// Another node's listing, as last read.
#[derive(Clone)]
struct Remote<T> {
    address: String,
    created_ms: u64,
    item: T,
    version: i64,
}

/// One kind of listing (tables or events): the other nodes' rows as last read, and what this
/// node last published of its own (by id, the key written).
struct Rows<T> {
    what: Listed,
    remote: Mutex<HashMap<String, Remote<T>>>,
    published: Mutex<HashMap<String, T>>,
}

impl<T: Clone + PartialEq + Serialize + DeserializeOwned> Rows<T> {
    fn new(what: Listed) -> Rows<T> {
        Rows {
            what,
            remote: Mutex::default(),
            published: Mutex::default(),
        }
    }

    async fn publish(&self, leases: &Leases, own: Vec<Own<T>>) -> Result<(), StoreError> {
        let changed: Vec<(String, T, String)> = {
            let mut published = self.published.lock().expect("listing lock");
            // Gone from here (closed, handed over): if it comes back it is written again.
            let here: HashSet<&str> = own.iter().map(|o| o.id.as_str()).collect();
            published.retain(|id, _| here.contains(id.as_str()));
            own.into_iter()
                .filter(|o| published.get(&o.id) != Some(&o.key))
                .map(|o| {
                    let json = serde_json::to_string(&Published {
                        created_ms: o.created_ms,
                        item: o.item,
                    })
                    .expect("listings serialise");
                    (o.id, o.key, json)
                })
                .collect()
        };
        let rows: Vec<(&str, &str)> = changed
            .iter()
            .map(|(id, _, json)| (id.as_str(), json.as_str()))
            .collect();
        leases.publish(self.what, &rows).await?;
        let mut published = self.published.lock().expect("listing lock");
        for (id, key, _) in changed {
            published.insert(id, key);
        }
        Ok(())
    }

    /// Reads the other nodes' rows: how many are listed, and how many were read whole.
    async fn read(&self, leases: &Leases) -> Result<(usize, usize), StoreError> {
        let live = leases.listed(self.what).await?;
        let unseen: Vec<String> = {
            let remote = self.remote.lock().expect("listing lock");
            live.iter()
                .filter(|(id, _, version)| remote.get(id).is_none_or(|r| r.version != *version))
                .map(|(id, _, _)| id.clone())
                .collect()
        };
        let mut fresh: HashMap<String, (String, i64)> = leases
            .listings(self.what, &unseen)
            .await?
            .into_iter()
            .map(|(id, json, version)| (id, (json, version)))
            .collect();
        let read_whole = fresh.len();
        let mut remote = self.remote.lock().expect("listing lock");
        let mut next = HashMap::with_capacity(live.len());
        for (id, address, _) in live {
            let row = match fresh.remove(&id) {
                Some((json, version)) => match serde_json::from_str::<Published<T>>(&json) {
                    Ok(p) => Remote {
                        address,
                        created_ms: p.created_ms,
                        item: p.item,
                        version,
                    },
                    Err(e) => {
                        tracing::warn!(id = %id, error = %e, "another node's listing unreadable");
                        continue;
                    }
                },
                // Seen before: the same item, perhaps at a new address (taken over).
                None => match remote.remove(&id) {
                    Some(r) => Remote { address, ..r },
                    None => continue,
                },
            };
            next.insert(id, row);
        }
        let listed = next.len();
        *remote = next;
        Ok((listed, read_whole))
    }

    fn remote(&self) -> Vec<Remote<T>> {
        let remote = self.remote.lock().expect("listing lock");
        remote.values().cloned().collect()
    }
}

/// This node's listings, then the other nodes' that are not also here (a table just taken
/// over may still be in the copy of the node that had it: ours wins).
pub fn merged<T>(ours: Vec<T>, others: Vec<T>, id: impl Fn(&T) -> &str) -> Vec<T> {
    let here: HashSet<String> = ours.iter().map(|x| id(x).to_string()).collect();
    let mut out = ours;
    out.extend(others.into_iter().filter(|x| !here.contains(id(x))));
    out
}

/// The other nodes' tables and events, as of the last tick (empty on one machine).
pub struct Listing {
    tables: Rows<protocol::TableSummary>,
    events: Rows<protocol::CompetitionBrief>,
}

impl Default for Listing {
    fn default() -> Listing {
        Listing {
            tables: Rows::new(Listed::Tables),
            events: Rows::new(Listed::Events),
        }
    }
}

impl Listing {
    /// Writes what changed in this node's listings.
    pub async fn publish(
        &self,
        leases: &Leases,
        tables: Vec<Own<protocol::TableSummary>>,
        events: Vec<Own<protocol::CompetitionBrief>>,
    ) -> Result<(), StoreError> {
        self.tables.publish(leases, tables).await?;
        self.events.publish(leases, events).await
    }

    /// Reads the other live nodes' listings: how many tables and events they list, and how
    /// many of those were read whole (new or changed since the last tick).
    pub async fn read(&self, leases: &Leases) -> Result<(usize, usize), StoreError> {
        let (tables, tables_read) = self.tables.read(leases).await?;
        let (events, events_read) = self.events.read(leases).await?;
        Ok((tables + events, tables_read + events_read))
    }

    /// The other nodes' tables, each with its node's address in `node`.
    pub fn tables(&self) -> Vec<protocol::TableSummary> {
        self.tables
            .remote()
            .into_iter()
            .map(|r| protocol::TableSummary {
                node: Some(r.address),
                ..r.item
            })
            .collect()
    }

    /// The other nodes' events (when each was made, the brief with its node's address).
    pub fn events(&self) -> Vec<(u64, protocol::CompetitionBrief)> {
        self.events
            .remote()
            .into_iter()
            .map(|r| {
                let brief = protocol::CompetitionBrief {
                    node: Some(r.address),
                    ..r.item
                };
                (r.created_ms, brief)
            })
            .collect()
    }
}
