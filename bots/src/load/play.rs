//! The tables of a run: created on the nodes, then seated and played by WebSocket bot clients.

use std::net::SocketAddr;

use tokio::task::JoinSet;

use super::nodes::Nodes;

/// Creates the tables, a few at a time; nobody sits yet (a table without players has no clock
/// running).
/// Table i is created on node i mod N (which then serves it: its lease is born with it).
pub(super) async fn create_tables(
    nodes: &Nodes,
    tables: usize,
    body: serde_json::Value,
) -> Result<Vec<(SocketAddr, String)>, String> {
    const AT_ONCE: usize = 8;
    let mut ids = Vec::with_capacity(tables);
    let mut made = 0;
    let mut running = JoinSet::new();
    while made < tables || !running.is_empty() {
        while made < tables && running.len() < AT_ONCE {
            let addr = nodes.addr(made);
            made += 1;
            let body = body.clone();
            running.spawn(async move {
                let summary: protocol::TableSummary =
                    crate::http::post_json(addr, "/api/tables", &body).await?;
                Ok::<_, String>((addr, summary.id))
            });
        }
        match running.join_next().await {
            Some(Ok(Ok(id))) => ids.push(id),
            Some(Ok(Err(e))) => return Err(format!("creating the tables: {e}")),
            Some(Err(e)) => return Err(format!("creating the tables: {e}")),
            None => {}
        }
    }
    Ok(ids)
}

/// One table's seats as they were taken: (its node, table id, seat token) each.
pub(super) type Seated = Result<Vec<(SocketAddr, String, String)>, String>;

/// Takes every seat of the tables (a token each), a few tables at a time, and sends each
/// table's seats on as soon as they are taken: its bots connect then, before the table's clock
/// (which starts with the last seat) can run out, and the connections arrive as people's would,
/// spread over the seating instead of all at once.
pub(super) fn seat_tables(
    ids: Vec<(SocketAddr, String)>,
    seats: usize,
    to: tokio::sync::mpsc::Sender<Seated>,
) {
    const AT_ONCE: usize = 8;
    tokio::spawn(async move {
        let mut ids = ids.into_iter();
        let mut running = JoinSet::new();
        loop {
            while running.len() < AT_ONCE {
                let Some((addr, id)) = ids.next() else { break };
                running.spawn(async move {
                    let mut out = Vec::with_capacity(seats);
                    for seat in 0..seats {
                        let joined: protocol::Joined = crate::http::post_json(
                            addr,
                            &format!("/api/tables/{id}/join"),
                            &serde_json::json!({"seat": seat, "name": format!("bot{seat}")}),
                        )
                        .await
                        .map_err(|e| format!("taking the seats of {id}: {e}"))?;
                        out.push((addr, id.clone(), joined.token));
                    }
                    Ok::<_, String>(out)
                });
            }
            let Some(done) = running.join_next().await else {
                return;
            };
            let done = done.unwrap_or_else(|e| Err(e.to_string()));
            if to.send(done).await.is_err() {
                return;
            }
        }
    });
}
