//! Leases: which node serves which table, past one machine (PostgreSQL only).
//!
//! A row of `leases` says: table `table_id` is served by node `owner`, reachable at `address`,
//! until `expires_at` (the database's clock, so nodes' clocks need not agree). The owner renews
//! its leases every [`Node::renew_every`]; a lease not renewed for [`Node::lease`] has expired and
//! any node may take the table ([`Leases::acquire`]), then rebuild it from its log. Every write
//! to a table checks the lease in the same transaction (`postgres::fence`), so a node that lost a
//! table cannot write to it even before it notices.
//!
//! Asynchronous, on the server's runtime (the background task, the HTTP and WebSocket routing);
//! the journal's [`super::PostgresStore`] has its own connection.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use tokio_postgres::Client;

use super::postgres::Node;
use super::StoreError;

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
    /// entry that writer committed.
    pub async fn acquire(&self, table: &str) -> Result<bool, StoreError> {
        let n = &self.node;
        let rows = self
            .client()
            .await?
            .query(
                "INSERT INTO leases (table_id, owner, address, expires_at)
                 SELECT id, $2, $3, now() + $4 * interval '1 millisecond'
                 FROM tables WHERE id = $1 AND state <> 'closed'
                 ON CONFLICT (table_id) DO UPDATE
                 SET owner = EXCLUDED.owner, address = EXCLUDED.address,
                     expires_at = EXCLUDED.expires_at
                 WHERE leases.expires_at <= now() OR leases.owner = EXCLUDED.owner
                       OR leases.address = EXCLUDED.address
                 RETURNING table_id",
                &[&table, &n.id, &n.address, &n.lease_ms()],
            )
            .await?;
        Ok(!rows.is_empty())
    }

    /// Renews this node's leases of these tables; the ones it still holds. A table missing from
    /// the answer was taken over (or closed): stop serving it.
    pub async fn renew(&self, tables: &[String]) -> Result<HashSet<String>, StoreError> {
        if tables.is_empty() {
            return Ok(HashSet::new());
        }
        let rows = self
            .client()
            .await?
            .query(
                "UPDATE leases SET expires_at = now() + $3 * interval '1 millisecond'
                 WHERE owner = $1 AND table_id = ANY($2) RETURNING table_id",
                &[&self.node.id, &tables, &self.node.lease_ms()],
            )
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
        let Some(row) = rows.first() else {
            return Ok(Owner::None);
        };
        let owner: Option<String> = row.get(0);
        let address: Option<String> = row.get(1);
        let live: Option<bool> = row.get(2);
        Ok(match (owner, address, live) {
            (Some(o), _, Some(true)) if o == self.node.id => Owner::Me,
            (Some(_), Some(a), Some(true)) if a == self.node.address => Owner::Free,
            (Some(node), Some(address), Some(true)) => Owner::Other { node, address },
            _ => Owner::Free,
        })
    }

    /// Open tables that no live lease names (or whose lease names an earlier run at our own
    /// address): the tables of a node that died, waiting for a new owner.
    pub async fn free_tables(&self) -> Result<Vec<String>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id
                 WHERE t.state <> 'closed'
                   AND (l.table_id IS NULL OR l.expires_at <= now()
                        OR (l.address = $1 AND l.owner <> $2))
                 ORDER BY t.created_ms, t.id",
                &[&self.node.address, &self.node.id],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Gives up every lease of this node (a graceful stop): other nodes take the tables at their
    /// next scan instead of waiting for the leases to run out.
    pub async fn release_all(&self) -> Result<u64, StoreError> {
        Ok(self
            .client()
            .await?
            .execute("DELETE FROM leases WHERE owner = $1", &[&self.node.id])
            .await?)
    }
}
