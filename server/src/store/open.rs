//! The store a `--db` value names. Apart from mod.rs, whose types both backends build on: the
//! choice needs both backends, and mod.rs would otherwise use the files that use it.

use std::path::Path;

use super::{
    is_postgres_url, CompetitionStore, Node, PostgresStore, SqliteStore, Store, StoreError,
};

/// Opens the store a `--db` value names: PostgreSQL for a `postgres://` or `postgresql://` URL
/// (writes fenced by `node`'s leases when given), else a SQLite file (created if missing).
/// Blocking: call it off the async runtime.
pub fn open(db: &str, node: Option<Node>) -> Result<Box<dyn Store>, StoreError> {
    if is_postgres_url(db) {
        Ok(Box::new(PostgresStore::open(db, node)?))
    } else {
        Ok(Box::new(SqliteStore::open(Path::new(db))?))
    }
}

/// Opens the events' store a `--db` value names (a SQLite file must exist).
pub fn open_competitions(db: &str) -> Result<Box<dyn CompetitionStore>, StoreError> {
    if is_postgres_url(db) {
        Ok(Box::new(PostgresStore::open(db, None)?))
    } else {
        Ok(Box::new(SqliteStore::open_competitions(Path::new(db))?))
    }
}
