//! Nothing acknowledged lost: every action a bot was acknowledged (its seq and its id) is read
//! back from the store once the nodes have stopped — SQLite's file, or PostgreSQL past one
//! machine — and must be in its table's log at that seq, with that id. A node killed mid-play
//! must not take an acknowledged action with it (design principle 3).

use std::collections::HashMap;

/// The acknowledged actions not in the store as acknowledged: (table, seq, id).
pub async fn lost(
    db: &str,
    acked: &[(String, u64, u64)],
) -> Result<Vec<(String, u64, u64)>, String> {
    let mut tables: Vec<String> = acked.iter().map(|(t, _, _)| t.clone()).collect();
    tables.sort();
    tables.dedup();
    let stored = if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        from_postgres(db, &tables).await?
    } else {
        let db = db.to_string();
        tokio::task::spawn_blocking(move || from_sqlite(&db, &tables))
            .await
            .map_err(|e| e.to_string())??
    };
    Ok(acked
        .iter()
        .filter(|(t, seq, id)| stored.get(&(t.clone(), *seq)) != Some(&Some(*id)))
        .cloned()
        .collect())
}

/// Each stored entry's action id, by (table, seq).
type Stored = HashMap<(String, u64), Option<u64>>;

fn from_sqlite(db: &str, tables: &[String]) -> Result<Stored, String> {
    let e = |e: rusqlite::Error| format!("reading {db}: {e}");
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(e)?;
    let mut st = conn
        .prepare("SELECT seq, client_id FROM log WHERE table_id = ?1")
        .map_err(e)?;
    let mut out = Stored::new();
    for t in tables {
        let rows = st
            .query_map([t], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?))
            })
            .map_err(e)?;
        for row in rows {
            let (seq, id) = row.map_err(e)?;
            out.insert((t.clone(), seq as u64), id.map(|i| i as u64));
        }
    }
    Ok(out)
}

async fn from_postgres(url: &str, tables: &[String]) -> Result<Stored, String> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .map_err(|e| format!("reading the logs: {e}"))?;
    let conn = tokio::spawn(connection);
    let rows = client
        .query(
            "SELECT table_id, seq, client_id FROM log WHERE table_id = ANY($1)",
            &[&tables],
        )
        .await
        .map_err(|e| format!("reading the logs: {e}"))?;
    conn.abort();
    Ok(rows
        .iter()
        .map(|r| {
            let id: Option<i64> = r.get(2);
            (
                (r.get::<_, String>(0), r.get::<_, i64>(1) as u64),
                id.map(|i| i as u64),
            )
        })
        .collect())
}
