//! Leases: which node serves which table and runs which event, past one machine (PostgreSQL
//! only).
//!
//! A row of `leases` says: table `table_id` is served by node `owner`, reachable at `address`,
//! until `expires_at` (the database's clock, so nodes' clocks need not agree). The owner renews
//! its leases every [`Node::renew_every`]; a lease not renewed for [`Node::lease`] has expired and
//! any node may take the table ([`Leases::acquire`]), then rebuild it from its log. Every write
//! to a table checks the lease in the same transaction (`postgres::fence`), so a node that lost a
//! table cannot write to it even before it notices.
//!
//! Events work the same way over `event_leases` (an event is run by one node: its runner, its
//! director's and pairs' calls; the event store's writes are fenced by that lease). An open table
//! that deals from an unfinished event's seed belongs to that event: only the node running the
//! event may take it over ([`TAKEABLE`]), so an event's tables never end up on another node than
//! the event (whose runner opens them, seats the pairs and reads their results).
//!
//! Every statement that locks several lease rows locks them in the order of their id (a
//! `WITH … ORDER BY … FOR …` ahead of the update): a node's renewal and listing (thousands of
//! rows at once) and its journal's commits (a few tables' rows `FOR SHARE`, `postgres::fence`)
//! otherwise took the same rows in different orders, and PostgreSQL broke the cycle by failing
//! one of them (`40P01 deadlock detected`, three times in a minute at 10,000 tables on 3 nodes).
//!
//! Each lease row also carries what its owner lists of it, for every node's lobby
//! ([`Listed`], `crate::listing`).
//!
//! Asynchronous, on the server's runtime (the background task, the HTTP and WebSocket routing);
//! the journal's [`super::PostgresStore`] has its own connection.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use tokio_postgres::Client;

use super::postgres::Node;
use super::StoreError;

/// `mine`: this node's (`$1`) lease rows among the ids `$2`, locked (`lock`) in the order of
/// their ids, ahead of the statement that changes them (see the module's docs: why the order).
fn mine(what: Listed, lock: &str) -> String {
    let (table, id) = what.columns();
    format!(
        "WITH mine AS (SELECT {id} FROM {table} WHERE owner = $1 AND {id} = ANY($2)
                       ORDER BY {id} {lock})"
    )
}

/// Who serves a table now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    /// This node holds the lease.
    Me,
    /// Another node holds a live lease: where to find it.
    Other { node: String, address: String },
    /// The table is open but no live lease names it: whoever acquires it serves it.
    Free,
    /// No such table, or it is closed.
    None,
}

/// SQL: table `t` may be taken over by node `$2`: it is no running event's, or `$2` holds that
/// event's live lease.
const TAKEABLE: &str = "NOT EXISTS (
    SELECT 1 FROM events e
    WHERE e.seed_commitment = t.seed_commitment AND NOT e.finished
      AND NOT EXISTS (SELECT 1 FROM event_leases el
                      WHERE el.event_id = e.id AND el.owner = $2 AND el.expires_at > now()))";

/// Which lease rows a listing is in: tables' (`leases`) or events' (`event_leases`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    Tables,
    Events,
}

impl Listed {
    /// The lease table and its id column.
    fn columns(self) -> (&'static str, &'static str) {
        match self {
            Listed::Tables => ("leases", "table_id"),
            Listed::Events => ("event_leases", "event_id"),
        }
    }
}

/// The lease queries, on one connection of the server's runtime (reconnected when it breaks).
pub struct Leases {
    url: String,
    pub node: Node,
    client: Mutex<Option<Arc<Client>>>,
}

impl Leases {
    /// Connects and migrates the schema (leases live in it).
    pub async fn connect(url: &str, node: Node) -> Result<Leases, StoreError> {
        let mut client = super::postgres::connect(url).await?;
        super::postgres::migrate(&mut client).await?;
        Ok(Leases {
            url: url.to_string(),
            node,
            client: Mutex::new(Some(Arc::new(client))),
        })
    }

    async fn client(&self) -> Result<Arc<Client>, StoreError> {
        let live = self
            .client
            .lock()
            .expect("lease client lock")
            .clone()
            .filter(|c| !c.is_closed());
        if let Some(c) = live {
            return Ok(c);
        }
        let fresh = Arc::new(super::postgres::connect(&self.url).await?);
        *self.client.lock().expect("lease client lock") = Some(fresh.clone());
        Ok(fresh)
    }

    /// Takes the lease of an open table if it is free: expired, never taken, already ours, or
    /// held by an earlier run of a node at our own address (which must have died: we listen
    /// there now). True when this node holds it after the call. Waits for a writer of the table
    /// that is mid-transaction (its fence holds the row), so a log loaded afterwards has every
    /// entry that writer committed. A running event's table only for the node running the event.
    pub async fn acquire(&self, table: &str) -> Result<bool, StoreError> {
        Ok(!self.acquire_many(&[table.to_string()]).await?.is_empty())
    }

    /// [`Leases::acquire`] for several tables in one statement; the ones this node holds after
    /// it. The rows are taken in the order of their ids, as every statement here takes several
    /// (two survivors taking a dead node's tables at once would otherwise deadlock).
    pub async fn acquire_many(&self, tables: &[String]) -> Result<HashSet<String>, StoreError> {
        let n = &self.node;
        let sql = format!(
            "INSERT INTO leases (table_id, owner, address, expires_at)
             SELECT t.id, $2, $3, now() + $4 * interval '1 millisecond'
             FROM tables t WHERE t.id = ANY($1) AND t.state <> 'closed' AND {TAKEABLE}
             ORDER BY t.id
             ON CONFLICT (table_id) DO UPDATE
                 SET owner = EXCLUDED.owner, address = EXCLUDED.address,
                     expires_at = EXCLUDED.expires_at
             WHERE leases.expires_at <= now() OR leases.owner = EXCLUDED.owner
                   OR leases.address = EXCLUDED.address
             RETURNING table_id"
        );
        let rows = self
            .client()
            .await?
            .query(&sql, &[&tables, &n.id, &n.address, &n.lease_ms()])
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Renews this node's leases of these tables; the ones it still holds. A table missing from
    /// the answer was taken over (or closed): stop serving it.
    pub async fn renew(&self, tables: &[String]) -> Result<HashSet<String>, StoreError> {
        self.renew_rows(Listed::Tables, tables).await
    }

    /// Renews this node's leases of these tables or events; the ones it still holds.
    async fn renew_rows(
        &self,
        what: Listed,
        ids: &[String],
    ) -> Result<HashSet<String>, StoreError> {
        if ids.is_empty() {
            return Ok(HashSet::new());
        }
        let (table, id) = what.columns();
        let sql = format!(
            "{} UPDATE {table} SET expires_at = now() + $3 * interval '1 millisecond'
             FROM mine WHERE {table}.{id} = mine.{id} RETURNING {table}.{id}",
            mine(what, "FOR NO KEY UPDATE")
        );
        let rows = self
            .client()
            .await?
            .query(&sql, &[&self.node.id, &ids, &self.node.lease_ms()])
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Who serves a table now.
    pub async fn owner(&self, table: &str) -> Result<Owner, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT l.owner, l.address, l.expires_at > now()
                 FROM tables t LEFT JOIN leases l ON l.table_id = t.id
                 WHERE t.id = $1 AND t.state <> 'closed'",
                &[&table],
            )
            .await?;
        Ok(self.owner_of(rows.first()))
    }

    /// A lease row (owner, address, live) as who serves it; no row: [`Owner::None`].
    fn owner_of(&self, row: Option<&tokio_postgres::Row>) -> Owner {
        let Some(row) = row else {
            return Owner::None;
        };
        let owner: Option<String> = row.get(0);
        let address: Option<String> = row.get(1);
        let live: Option<bool> = row.get(2);
        match (owner, address, live) {
            (Some(o), _, Some(true)) if o == self.node.id => Owner::Me,
            (Some(_), Some(a), Some(true)) if a == self.node.address => Owner::Free,
            (Some(node), Some(address), Some(true)) => Owner::Other { node, address },
            _ => Owner::Free,
        }
    }

    /// Open tables that no live lease names (or whose lease names an earlier run at our own
    /// address): the tables of a node that died, waiting for a new owner. A running event's
    /// tables only when this node runs the event.
    pub async fn free_tables(&self) -> Result<Vec<String>, StoreError> {
        let sql = format!(
            "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id
             WHERE t.state <> 'closed'
               AND (l.table_id IS NULL OR l.expires_at <= now()
                    OR (l.address = $1 AND l.owner <> $2))
               AND {TAKEABLE}
             ORDER BY t.created_ms, t.id"
        );
        let rows = self
            .client()
            .await?
            .query(&sql, &[&self.node.address, &self.node.id])
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    // --- events -------------------------------------------------------------------------------

    /// The seed commitment of a stored event and whether it is finished (`None`: no such event).
    /// A node about to take an event seals its seed first, so no table of it is ever shown here
    /// with the seed.
    pub async fn competition_commitment(
        &self,
        event: &str,
    ) -> Result<Option<(String, bool)>, StoreError> {
        Ok(self
            .client()
            .await?
            .query_opt(
                "SELECT seed_commitment, finished FROM events WHERE id = $1",
                &[&event],
            )
            .await?
            .map(|r| (r.get(0), r.get(1))))
    }

    /// Takes the lease of an event if it is free, as [`Leases::acquire`] does a table's. True when
    /// this node runs it after the call; a log loaded afterwards has every entry the last owner
    /// committed (its fence holds the row while it writes).
    pub async fn acquire_competition(&self, event: &str) -> Result<bool, StoreError> {
        let n = &self.node;
        let rows = self
            .client()
            .await?
            .query(
                "INSERT INTO event_leases (event_id, owner, address, expires_at)
                 SELECT id, $2, $3, now() + $4 * interval '1 millisecond'
                 FROM events WHERE id = $1
                 ON CONFLICT (event_id) DO UPDATE
                 SET owner = EXCLUDED.owner, address = EXCLUDED.address,
                     expires_at = EXCLUDED.expires_at
                 WHERE event_leases.expires_at <= now() OR event_leases.owner = EXCLUDED.owner
                       OR event_leases.address = EXCLUDED.address
                 RETURNING event_id",
                &[&event, &n.id, &n.address, &n.lease_ms()],
            )
            .await?;
        Ok(!rows.is_empty())
    }

    /// Renews this node's leases of these events; the ones it still runs.
    pub async fn renew_competitions(
        &self,
        events: &[String],
    ) -> Result<HashSet<String>, StoreError> {
        self.renew_rows(Listed::Events, events).await
    }

    /// Which node runs an event now ([`Owner::None`]: no such event).
    pub async fn competition_owner(&self, event: &str) -> Result<Owner, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT l.owner, l.address, l.expires_at > now()
                 FROM events e LEFT JOIN event_leases l ON l.event_id = e.id
                 WHERE e.id = $1",
                &[&event],
            )
            .await?;
        Ok(self.owner_of(rows.first()))
    }

    /// Events no live lease names (or whose lease names an earlier run at our own address),
    /// oldest first: those of a node that died or stopped, waiting for a node to run them.
    pub async fn free_competitions(&self) -> Result<Vec<String>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT e.id FROM events e LEFT JOIN event_leases l ON l.event_id = e.id
                 WHERE l.event_id IS NULL OR l.expires_at <= now()
                       OR (l.address = $1 AND l.owner <> $2)
                 ORDER BY e.created_ms, e.id",
                &[&self.node.address, &self.node.id],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Gives up this node's leases of these tables (an event handed over takes its tables with
    /// it).
    pub async fn release(&self, tables: &[String]) -> Result<u64, StoreError> {
        if tables.is_empty() {
            return Ok(0);
        }
        let sql = format!(
            "{} DELETE FROM leases USING mine WHERE leases.table_id = mine.table_id",
            mine(Listed::Tables, "FOR UPDATE")
        );
        Ok(self
            .client()
            .await?
            .execute(&sql, &[&self.node.id, &tables])
            .await?)
    }

    // --- one lobby across nodes ------------------------------------------------------------

    /// Sets what this node lists of these tables or events (`(id, JSON)`), each row numbered
    /// anew from `listing_version`. Rows it no longer holds are left alone.
    pub async fn publish(&self, what: Listed, rows: &[(&str, &str)]) -> Result<(), StoreError> {
        if rows.is_empty() {
            return Ok(());
        }
        let (table, id) = what.columns();
        let (ids, json): (Vec<&str>, Vec<&str>) = rows.iter().copied().unzip();
        let sql = format!(
            "{} UPDATE {table} SET summary = v.summary, listed = nextval('listing_version')
             FROM mine, unnest($2::text[], $3::text[]) AS v(id, summary)
             WHERE {table}.{id} = mine.{id} AND v.id = mine.{id}",
            mine(what, "FOR NO KEY UPDATE")
        );
        self.client()
            .await?
            .execute(&sql, &[&self.node.id, &ids, &json])
            .await?;
        Ok(())
    }

    /// What the other live nodes list, without the JSON: `(id, address, version)` a row. A node
    /// reads the JSON ([`Leases::listings`]) only of rows whose version it has not seen, so a
    /// tick costs a short row per listed table and the JSON of those that changed.
    pub async fn listed(&self, what: Listed) -> Result<Vec<(String, String, i64)>, StoreError> {
        let (table, id) = what.columns();
        let sql = format!(
            "SELECT {id}, address, listed FROM {table}
             WHERE owner <> $1 AND address <> $2 AND expires_at > now()
               AND summary IS NOT NULL"
        );
        let rows = self
            .client()
            .await?
            .query(&sql, &[&self.node.id, &self.node.address])
            .await?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    /// The JSON of these rows: `(id, JSON, version)`.
    pub async fn listings(
        &self,
        what: Listed,
        ids: &[String],
    ) -> Result<Vec<(String, String, i64)>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let (table, id) = what.columns();
        let sql = format!(
            "SELECT {id}, summary, listed FROM {table}
             WHERE {id} = ANY($1) AND summary IS NOT NULL"
        );
        let rows = self.client().await?.query(&sql, &[&ids]).await?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect())
    }

    /// Gives up every lease of this node, tables' and events' (a graceful stop): other nodes take
    /// them at their next scan instead of waiting for the leases to run out.
    pub async fn release_all(&self) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let events = client
            .execute(
                "DELETE FROM event_leases WHERE owner = $1",
                &[&self.node.id],
            )
            .await?;
        let tables = client
            .execute("DELETE FROM leases WHERE owner = $1", &[&self.node.id])
            .await?;
        Ok(tables + events)
    }
}
