//! Events in the store: one `events` row per event (what it is, its seed) and its append-only,
//! hash-chained `event_log`: every director action (create, register, start round, adjust,
//! deduction, close round, reveal) and every step the server took for it (a table opened, a
//! board's result read from its table, a pair's confirmation). An event's state is rebuilt by
//! replaying its log at start, as a table's is (the server's event module).
//!
//! The chain works as the tables' ([`super::chain`]): the first link covers the header, each
//! entry's hash covers the previous hash and every field, [`verify_competition`] checks it.
//!
//! [`CompetitionStore`] is its own small trait, beside [`Store`], so the tables' journal is untouched:
//! the event service writes through a second connection to the same database (SQLite in WAL mode
//! takes one writer at a time and waits its turn: `busy_timeout`). [`PostgresStore`] implements
//! it over the same two tables (migration 3 of sqlite.rs and of postgres.rs). Past one machine an event is run by
//! one node, the holder of its row in `event_leases` (lease.rs): a store that belongs to a
//! serving node checks that lease in the transaction of every write (`SELECT … FOR SHARE`), as a
//! table's writes check the table's, and the `(event_id, seq)` key refuses a second entry *n*.

use super::*;

/// What an event is, fixed when it is created. Part of the chain's first link (all but the two
/// secrets, which are checked otherwise: the seed against its commitment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompetitionHeader {
    /// A short code, like a table's.
    pub id: String,
    /// `shengji` (80分 duplicate pairs).
    pub game: String,
    pub name: String,
    /// The event seed (64 hex): every board is dealt from it. Secret until revealed.
    pub seed: String,
    /// SHA-256 of the seed: public from creation.
    pub seed_commitment: String,
    /// 64 hex of server randomness the player tokens are derived from (never shown; the director
    /// can reprint a seating card at any time without the server keeping the tokens).
    pub pair_secret: String,
    /// Unix milliseconds.
    pub created_ms: u64,
}

/// One entry of an event's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompetitionEntry {
    /// 1, 2, 3, … without gaps.
    pub seq: u64,
    /// The action as JSON text (the event module's `EventAction`).
    pub action: String,
    /// Server time, Unix milliseconds.
    pub time_ms: u64,
    /// SHA-256 (hex) over the previous hash and this entry's fields.
    pub hash: String,
}

/// An event as stored: enough to rebuild it.
#[derive(Clone, Debug)]
pub struct StoredCompetition {
    pub header: CompetitionHeader,
    /// The seed has been revealed: nothing more happens to it.
    pub finished: bool,
    pub log: Vec<CompetitionEntry>,
}

/// Where events and their logs live. Blocking calls: the event service runs them off the async
/// threads.
pub trait CompetitionStore: Send {
    /// The header and the log's first entry (the creation), in one transaction. False, storing
    /// nothing, if the event's id is taken: the service checks a code is free here before it
    /// asks, but a finished event, another node's, or another made in the same moment may hold
    /// it.
    fn create_competition(
        &mut self,
        header: &CompetitionHeader,
        first: &CompetitionEntry,
    ) -> Result<bool, StoreError>;
    /// Appends one entry; a seq already stored is refused (the primary key).
    fn append_competition(
        &mut self,
        event: &str,
        entry: &CompetitionEntry,
    ) -> Result<(), StoreError>;
    fn set_competition_finished(&mut self, event: &str) -> Result<(), StoreError>;
    /// Every event with its log, oldest first: what a restarted server rebuilds.
    fn competitions(&mut self) -> Result<Vec<StoredCompetition>, StoreError>;
    /// One event with its log: what a node taking an event over rebuilds.
    fn competition(&mut self, id: &str) -> Result<Option<StoredCompetition>, StoreError>;

    // Practice players (issue 26): who a personal code names, and the sets each began. Their
    // runs are in the sets' logs; `player_sets` only says where to look.

    /// A new player; an id already there is refused (the primary key).
    fn create_player(&mut self, p: &PlayerRecord) -> Result<(), StoreError>;
    fn player(&mut self, id: &str) -> Result<Option<PlayerRecord>, StoreError>;
    /// Notes that the player began practice set `set`, or (`entry`: their pair or team, e.g.
    /// `NS 1`) played in event `set` (again: nothing changes).
    fn note_player_set(
        &mut self,
        player: &str,
        set: &str,
        began_ms: u64,
        entry: Option<&str>,
    ) -> Result<(), StoreError>;
    /// The sets and events the player noted, newest first, each with its entry (events only)
    /// and when it was first noted.
    fn player_sets(&mut self, player: &str) -> Result<Vec<PlayerSet>, StoreError>;
}

/// A set (or event) a player noted: its id, their entry in an event (`NS 1`), when first noted.
pub type PlayerSet = (String, Option<String>, u64);

/// A practice player as stored: the hash of their personal code, never the code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    /// The public id derived from the code.
    pub id: String,
    pub name: String,
    /// SHA-256 of the code as typed in its normal form.
    pub token_hash: String,
    pub created_ms: u64,
}

/// The event log's first link: a hash of the header (its public fields).
pub fn competition_genesis(h: &CompetitionHeader) -> String {
    super::chain::sha256_hex(&[
        b"paiju-event-log-1",
        h.id.as_bytes(),
        h.game.as_bytes(),
        h.name.as_bytes(),
        h.seed_commitment.as_bytes(),
        h.created_ms.to_string().as_bytes(),
    ])
}

/// An entry's hash: SHA-256 over the previous hash and every field but the hash itself.
pub fn competition_entry_hash(prev: &str, e: &CompetitionEntry) -> String {
    super::chain::sha256_hex(&[
        prev.as_bytes(),
        e.seq.to_string().as_bytes(),
        e.action.as_bytes(),
        e.time_ms.to_string().as_bytes(),
    ])
}

/// Checks a stored event: the seed against its commitment, seqs 1..n, every hash.
pub fn verify_competition(h: &CompetitionHeader, log: &[CompetitionEntry]) -> Result<(), Tampered> {
    super::chain::verify_links(
        &h.seed,
        &h.seed_commitment,
        competition_genesis(h),
        log.iter().map(|e| (e.seq, e.hash.as_str(), e)),
        competition_entry_hash,
    )
}

/// A stored event rebuilt: its chain checked, then every entry replayed by the competition's
/// own rules (`C`: the game's kind). The one way an event is read back, live or for analysis.
pub fn replayed<C: tournament::competition::Competition>(s: &StoredCompetition) -> Result<C, String>
where
    C::Action: serde::de::DeserializeOwned,
{
    let id = &s.header.id;
    verify_competition(&s.header, &s.log)
        .map_err(|t| format!("competition {id}: log tampered: {t}"))?;
    let actions = s
        .log
        .iter()
        .map(|e| {
            serde_json::from_str::<C::Action>(&e.action)
                .map(|a| (e.seq, a))
                .map_err(|err| format!("competition {id}: entry {}: {err}", e.seq))
        })
        .collect::<Result<Vec<_>, _>>()?;
    C::replay(id, &actions).map_err(|(seq, e)| {
        let p = protocol::Problem::explain(&e);
        format!("competition {id}: entry {seq} refused on replay: {}", p.en)
    })
}

impl SqliteStore {
    /// Opens the database for the event service: a second connection beside the tables'
    /// journal. The event tables are the schema's (sqlite.rs, migration 3), as every table is.
    pub fn open_competitions(path: &std::path::Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open(path)
    }

    fn insert_entry(
        conn: &rusqlite::Connection,
        event: &str,
        e: &CompetitionEntry,
    ) -> Result<(), StoreError> {
        conn.execute(
            "INSERT INTO event_log (event_id, seq, action, time_ms, hash) VALUES (?1, ?2, ?3, ?4, ?5)",
            rusqlite::params![event, e.seq as i64, e.action, e.time_ms as i64, e.hash],
        )?;
        Ok(())
    }
}

impl CompetitionStore for SqliteStore {
    fn create_competition(
        &mut self,
        h: &CompetitionHeader,
        first: &CompetitionEntry,
    ) -> Result<bool, StoreError> {
        // `&Connection` only (the store's connection is not ours to borrow mutably here):
        // an unchecked transaction is the same BEGIN … COMMIT.
        let tx = self.connection().unchecked_transaction()?;
        let stored = tx.execute(
            "INSERT INTO events (id, game, name, seed, seed_commitment, pair_secret, created_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (id) DO NOTHING",
            rusqlite::params![
                h.id,
                h.game,
                h.name,
                h.seed,
                h.seed_commitment,
                h.pair_secret,
                h.created_ms as i64
            ],
        )?;
        if stored == 0 {
            // The id is taken: rolled back as it is dropped.
            return Ok(false);
        }
        SqliteStore::insert_entry(&tx, &h.id, first)?;
        tx.commit()?;
        Ok(true)
    }

    fn append_competition(&mut self, event: &str, e: &CompetitionEntry) -> Result<(), StoreError> {
        SqliteStore::insert_entry(self.connection(), event, e)
    }

    fn set_competition_finished(&mut self, event: &str) -> Result<(), StoreError> {
        self.connection()
            .execute("UPDATE events SET finished = 1 WHERE id = ?1", [event])?;
        Ok(())
    }

    fn competitions(&mut self) -> Result<Vec<StoredCompetition>, StoreError> {
        self.load_competitions("1 = 1", "")
    }

    fn competition(&mut self, id: &str) -> Result<Option<StoredCompetition>, StoreError> {
        Ok(self.load_competitions("id = ?1", id)?.pop())
    }

    fn create_player(&mut self, p: &PlayerRecord) -> Result<(), StoreError> {
        self.connection().execute(
            "INSERT INTO players (id, name, token_hash, created_ms) VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params![p.id, p.name, p.token_hash, p.created_ms as i64],
        )?;
        Ok(())
    }

    fn player(&mut self, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        use rusqlite::OptionalExtension;
        Ok(self
            .connection()
            .query_row(
                "SELECT id, name, token_hash, created_ms FROM players WHERE id = ?1",
                [id],
                |r| {
                    Ok(PlayerRecord {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        token_hash: r.get(2)?,
                        created_ms: r.get::<_, i64>(3)? as u64,
                    })
                },
            )
            .optional()?)
    }

    fn note_player_set(
        &mut self,
        player: &str,
        set: &str,
        began_ms: u64,
        entry: Option<&str>,
    ) -> Result<(), StoreError> {
        self.connection().execute(
            "INSERT OR IGNORE INTO player_sets (player_id, set_id, began_ms, entry)
             VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params![player, set, began_ms as i64, entry],
        )?;
        Ok(())
    }

    fn player_sets(&mut self, player: &str) -> Result<Vec<PlayerSet>, StoreError> {
        let conn = self.connection();
        let mut st = conn.prepare(
            "SELECT set_id, entry, began_ms FROM player_sets WHERE player_id = ?1
             ORDER BY began_ms DESC, set_id",
        )?;
        let ids = st
            .query_map([player], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? as u64))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids)
    }
}

impl SqliteStore {
    /// The events a `WHERE` clause picks (`?1` is `arg`, when used), with their logs.
    fn load_competitions(
        &mut self,
        filter: &str,
        arg: &str,
    ) -> Result<Vec<StoredCompetition>, StoreError> {
        let conn = self.connection();
        let mut st = conn.prepare(&format!(
            "SELECT id, game, name, seed, seed_commitment, pair_secret, created_ms, finished
             FROM events WHERE {filter} ORDER BY created_ms, id"
        ))?;
        let row = |r: &rusqlite::Row<'_>| {
            Ok((
                CompetitionHeader {
                    id: r.get(0)?,
                    game: r.get(1)?,
                    name: r.get(2)?,
                    seed: r.get(3)?,
                    seed_commitment: r.get(4)?,
                    pair_secret: r.get(5)?,
                    created_ms: r.get::<_, i64>(6)? as u64,
                },
                r.get::<_, i64>(7)? != 0,
            ))
        };
        let heads = if filter.contains("?1") {
            st.query_map([arg], row)?.collect::<Result<Vec<_>, _>>()?
        } else {
            st.query_map([], row)?.collect::<Result<Vec<_>, _>>()?
        };
        let mut st = conn.prepare(
            "SELECT seq, action, time_ms, hash FROM event_log WHERE event_id = ?1 ORDER BY seq",
        )?;
        let mut out = Vec::with_capacity(heads.len());
        for (header, finished) in heads {
            let log = st
                .query_map([&header.id], |r| {
                    Ok(CompetitionEntry {
                        seq: r.get::<_, i64>(0)? as u64,
                        action: r.get(1)?,
                        time_ms: r.get::<_, i64>(2)? as u64,
                        hash: r.get(3)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            out.push(StoredCompetition {
                header,
                finished,
                log,
            });
        }
        Ok(out)
    }
}

/// Inside an event write's transaction: fails unless `node` holds the event's live lease, and
/// keeps that lease row from changing hands until the transaction ends. No node: no check.
async fn competition_fence(
    tx: &tokio_postgres::Transaction<'_>,
    node: Option<&Node>,
    event: &str,
) -> Result<(), StoreError> {
    let Some(node) = node else {
        return Ok(());
    };
    let held = tx
        .query_opt(
            "SELECT 1 FROM event_leases
             WHERE event_id = $1 AND owner = $2 AND expires_at > now() FOR SHARE",
            &[&event, &node.id],
        )
        .await?;
    match held {
        Some(_) => Ok(()),
        None => Err(StoreError(format!(
            "lease lost: node {} no longer runs event {event}",
            node.id
        ))),
    }
}

impl PostgresStore {
    async fn load_competitions(
        client: &tokio_postgres::Client,
        filter: &str,
        arg: &str,
    ) -> Result<Vec<StoredCompetition>, StoreError> {
        let sql = format!(
            "SELECT id, game, name, seed, seed_commitment, pair_secret, created_ms, finished
             FROM events WHERE {filter} ORDER BY created_ms, id"
        );
        let heads = if filter.contains("$1") {
            client.query(&sql, &[&arg]).await?
        } else {
            client.query(&sql, &[]).await?
        };
        let mut out = Vec::with_capacity(heads.len());
        for r in heads {
            let header = CompetitionHeader {
                id: r.get(0),
                game: r.get(1),
                name: r.get(2),
                seed: r.get(3),
                seed_commitment: r.get(4),
                pair_secret: r.get(5),
                created_ms: r.get::<_, i64>(6) as u64,
            };
            let log = client
                .query(
                    "SELECT seq, action, time_ms, hash FROM event_log
                     WHERE event_id = $1 ORDER BY seq",
                    &[&header.id],
                )
                .await?
                .iter()
                .map(|e| CompetitionEntry {
                    seq: e.get::<_, i64>(0) as u64,
                    action: e.get(1),
                    time_ms: e.get::<_, i64>(2) as u64,
                    hash: e.get(3),
                })
                .collect();
            out.push(StoredCompetition {
                header,
                finished: r.get(7),
                log,
            });
        }
        Ok(out)
    }
}

async fn pg_insert_entry(
    tx: &tokio_postgres::Transaction<'_>,
    event: &str,
    e: &CompetitionEntry,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO event_log (event_id, seq, action, time_ms, hash) VALUES ($1, $2, $3, $4, $5)",
        &[
            &event,
            &(e.seq as i64),
            &e.action,
            &(e.time_ms as i64),
            &e.hash,
        ],
    )
    .await?;
    Ok(())
}

/// Over PostgreSQL: the same rows, every write in a transaction of its own, fenced by the
/// event's lease when the store belongs to a serving node. Blocking, like the SQLite side: the
/// event service calls it off the async threads.
impl CompetitionStore for PostgresStore {
    fn create_competition(
        &mut self,
        h: &CompetitionHeader,
        first: &CompetitionEntry,
    ) -> Result<bool, StoreError> {
        let node = self.node();
        let (rt, client) = self.parts()?;
        rt.block_on(async {
            let tx = client.transaction().await?;
            let stored = tx
                .execute(
                    "INSERT INTO events (id, game, name, seed, seed_commitment, pair_secret,
                                     created_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (id) DO NOTHING",
                    &[
                        &h.id,
                        &h.game,
                        &h.name,
                        &h.seed,
                        &h.seed_commitment,
                        &h.pair_secret,
                        &(h.created_ms as i64),
                    ],
                )
                .await?;
            if stored == 0 {
                // The id is taken (another node's event): rolled back as it is dropped.
                return Ok(false);
            }
            pg_insert_entry(&tx, &h.id, first).await?;
            // The node that creates an event runs it: its lease is born with it.
            if let Some(node) = &node {
                tx.execute(
                    "INSERT INTO event_leases (event_id, owner, address, expires_at)
                     VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')",
                    &[&h.id, &node.id, &node.address, &node.lease_ms()],
                )
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    fn append_competition(&mut self, event: &str, e: &CompetitionEntry) -> Result<(), StoreError> {
        let node = self.node();
        let (rt, client) = self.parts()?;
        rt.block_on(async {
            let tx = client.transaction().await?;
            competition_fence(&tx, node.as_ref(), event).await?;
            pg_insert_entry(&tx, event, e).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn set_competition_finished(&mut self, event: &str) -> Result<(), StoreError> {
        let node = self.node();
        let (rt, client) = self.parts()?;
        rt.block_on(async {
            let tx = client.transaction().await?;
            competition_fence(&tx, node.as_ref(), event).await?;
            tx.execute("UPDATE events SET finished = true WHERE id = $1", &[&event])
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn competitions(&mut self) -> Result<Vec<StoredCompetition>, StoreError> {
        let (rt, client) = self.parts()?;
        rt.block_on(Self::load_competitions(client, "true", ""))
    }

    fn competition(&mut self, id: &str) -> Result<Option<StoredCompetition>, StoreError> {
        let (rt, client) = self.parts()?;
        Ok(rt
            .block_on(Self::load_competitions(client, "id = $1", id))?
            .pop())
    }

    fn create_player(&mut self, p: &PlayerRecord) -> Result<(), StoreError> {
        let (rt, client) = self.parts()?;
        rt.block_on(client.execute(
            "INSERT INTO players (id, name, token_hash, created_ms) VALUES ($1, $2, $3, $4)",
            &[&p.id, &p.name, &p.token_hash, &(p.created_ms as i64)],
        ))?;
        Ok(())
    }

    fn player(&mut self, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        let (rt, client) = self.parts()?;
        let row = rt.block_on(client.query_opt(
            "SELECT id, name, token_hash, created_ms FROM players WHERE id = $1",
            &[&id],
        ))?;
        Ok(row.map(|r| PlayerRecord {
            id: r.get(0),
            name: r.get(1),
            token_hash: r.get(2),
            created_ms: r.get::<_, i64>(3) as u64,
        }))
    }

    fn note_player_set(
        &mut self,
        player: &str,
        set: &str,
        began_ms: u64,
        entry: Option<&str>,
    ) -> Result<(), StoreError> {
        let (rt, client) = self.parts()?;
        rt.block_on(client.execute(
            "INSERT INTO player_sets (player_id, set_id, began_ms, entry) VALUES ($1, $2, $3, $4)
             ON CONFLICT DO NOTHING",
            &[&player, &set, &(began_ms as i64), &entry],
        ))?;
        Ok(())
    }

    fn player_sets(&mut self, player: &str) -> Result<Vec<PlayerSet>, StoreError> {
        let (rt, client) = self.parts()?;
        let rows = rt.block_on(client.query(
            "SELECT set_id, entry, began_ms FROM player_sets WHERE player_id = $1
             ORDER BY began_ms DESC, set_id",
            &[&player],
        ))?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get::<_, i64>(2) as u64))
            .collect())
    }
}
