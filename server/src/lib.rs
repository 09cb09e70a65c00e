//! paiju's table server: `paiju serve`.
//!
//! A map of the modules, in the order a request meets them:
//!
//! - [`http`]: the accept loop (HTTP timeouts, per-address connection cap), the lobby API, the
//!   WebSocket upgrade (Host and Origin checks, connection cap) and the web client's static files.
//! - [`connection`]: one WebSocket: frame limit, rate limit, pings and the broom, the bounded
//!   outbound queue; it talks to its table only through the table's channel.
//! - [`lobby`]: the registry of open tables (DashMap); create, join, leave; rebuilding every open
//!   table from the store at start.
//! - [`table`]: one actor task per table owning its engine: apply → store → ack → broadcast,
//!   per-viewer redaction, clocks and 托管, bots in seats at the table's level (thinking off the
//!   actor), the idle broom.
//! - [`games`]: the one registry of hosted games, each a `rules::Engine` behind [`TableGame`],
//!   which the tables are generic over.
//! - [`store`]: the hash-chained log of each table behind one trait (SQLite, WAL; or PostgreSQL), group
//!   commit, `verify`; past one machine, the leases that say which node serves which table;
//!   competitions' rows and logs behind a second, small one.
//! - [`cluster`]: past one machine, the background task that renews this node's leases and takes
//!   over the tables of nodes that died.
//! - [`competition`]: competitions (赛事) run by a director, each an actor over the `tournament`
//!   crate's pure state machine: 80分 duplicate pairs and 够级 teams; tables opened per board,
//!   their results awaited, standings and printed results (`/api/events/…`).
//! - [`practice`]: practice against the field (练习): players without passwords, the day's
//!   sets, a player's history, the routes (`/api/players…`, `/api/practice…`); the sets
//!   themselves are competitions of their own kind.
//! - [`invite`]: a table's invite link as a QR code (SVG).
//! - [`clock`], [`limits`], [`seat_token`], [`shutdown`]: the small pieces.
//!
//! [`start`] runs a server with a [`Config`] (config.rs: what `paiju serve`'s flags set);
//! `main.rs` is a thin command line around it. This file defines nothing its modules use, so
//! no arrow points back up at it (tests/tests/module_graph.rs).
//!
//! Module docs name private parts too (connection.rs's `Session`, http.rs's `json_refusals`):
//! they are a map for readers of the source, rendered by `cargo doc --document-private-items`.

// The module docs above and in the modules link to private items on purpose (see above); the
// links are still checked, a broken one fails `cargo doc` (scripts/test).
#![allow(rustdoc::private_intra_doc_links)]

pub mod clock;
pub mod cluster;
pub mod competition;
mod config;
pub mod connection;
pub mod games;
pub mod http;
pub mod invite;
pub mod limits;
pub mod line;
pub mod listing;
pub mod lobby;
pub mod metrics;
pub mod practice;
pub mod referee;
pub mod seat_token;
pub mod shutdown;
pub mod store;
pub mod table;
pub mod web;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::sync::oneshot;

pub use config::Config;
pub use games::Games;
pub use table::{DealFixed, TableGame};

/// A running server.
pub struct Running {
    /// Where it listens (the real port when started on port 0).
    pub addr: SocketAddr,
    pub lobby: Arc<lobby::Lobby>,
    /// Tables that could not be rebuilt at start, with the reason.
    pub not_recovered: Vec<(String, String)>,
    pub competitions: Arc<competition::Competitions>,
    /// Competitions that could not be rebuilt at start, with the reason.
    pub competitions_not_recovered: Vec<(String, String)>,
    stop: Option<oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<()>,
}

impl Running {
    /// Graceful shutdown: stop accepting, close sockets with 1001, finish writes.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.done).await;
    }

    /// Runs until SIGTERM or Ctrl-C, then shuts down gracefully.
    pub async fn until_signal(self) {
        shutdown::signal().await;
        self.shutdown().await;
    }
}

/// A `--advertise` value as a base URL: `http://` added when no scheme is given, no trailing
/// slash. At most 100 characters (it travels in a WebSocket close reason).
pub fn advertised(addr: &str) -> Result<String, String> {
    let addr = addr.trim().trim_end_matches('/');
    let url = if addr.starts_with("http://") || addr.starts_with("https://") {
        addr.to_string()
    } else {
        format!("http://{addr}")
    };
    if addr.is_empty() || url.len() > 100 || url.chars().any(|c| c.is_whitespace()) {
        return Err(format!(
            "{addr:?} is not an address: e.g. 10.0.0.2:8080 or https://paiju.example.org/n2"
        ));
    }
    Ok(url)
}

/// The stores a server opens: the tables' (with the tables left open), the competitions' (a
/// second connection to the same database), and past one machine this node's leases.
struct Stores {
    tables: Box<dyn store::Store>,
    open: Vec<store::StoredTable>,
    competitions: Box<dyn store::CompetitionStore>,
    leases: Option<Arc<store::Leases>>,
}

/// Opens the database `config.db` names: a SQLite file, or past one machine a PostgreSQL URL
/// (this node then known by `addr`, or `--advertise`).
async fn open_stores(config: &Config, addr: SocketAddr) -> Result<Stores, String> {
    let db = config.db.to_string_lossy().to_string();
    if !store::is_postgres_url(&db) {
        let cannot = |e: store::StoreError| format!("cannot open {}: {e}", config.db.display());
        let mut sqlite = store::SqliteStore::open(&config.db).map_err(cannot)?;
        let open = store::Store::open_tables(&mut sqlite).map_err(|e| e.to_string())?;
        // The competitions' own connection to the same file.
        let competitions = store::SqliteStore::open_competitions(&config.db).map_err(cannot)?;
        return Ok(Stores {
            tables: Box::new(sqlite),
            open,
            competitions: Box::new(competitions),
            leases: None,
        });
    }
    let node = store::Node {
        id: rules::deal::hex(&seat_token::random_bytes::<6>()),
        address: advertised(&config.advertise.clone().unwrap_or_else(|| addr.to_string()))?,
        lease: config.lease,
    };
    let shown = store::postgres::redact(&db);
    let leases = store::Leases::connect(&db, node.clone())
        .await
        .map_err(|e| format!("cannot open {shown}: {e}"))?;
    // Blocking (each connects with a runtime of its own): off this runtime's threads. Two
    // connections: the tables' journal, and the competitions' (their writes fenced by the
    // competitions' leases, as the journal's by the tables').
    let (pg, competitions) = tokio::task::spawn_blocking(move || {
        Ok::<_, store::StoreError>((
            store::PostgresStore::open(&db, Some(node.clone()))?,
            store::PostgresStore::open(&db, Some(node))?,
        ))
    })
    .await
    .map_err(|e| e.to_string())?
    .map_err(|e| format!("cannot open {shown}: {e}"))?;
    Ok(Stores {
        tables: Box::new(pg),
        open: Vec::new(),
        competitions: Box::new(competitions),
        leases: Some(Arc::new(leases)),
    })
}

/// Connections the kernel keeps waiting for `accept` (capped by `net.core.somaxconn`, 4,096 on
/// Debian).
///
/// **Why so many:** when a node dies its players reach the others within moments of each other
/// (12,000 of them in the 10,000-table runs, docs/performance.md). Past the queue's room the
/// kernel drops their handshakes, and each such client waits out TCP's retransmission (1 s, then
/// 3 s, …) before it is even accepted; tokio's usual queue is 1,024.
const ACCEPT_QUEUE: u32 = 4096;

/// The listening socket: as `TcpListener::bind` makes it (address reuse on), with a deeper
/// accept queue ([`ACCEPT_QUEUE`]).
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(ACCEPT_QUEUE)
}

/// Binds, opens the store, rebuilds the open tables and then the competitions (past one
/// machine: takes those no live lease names) and serves.
pub async fn start(config: Config, games: Games) -> Result<Running, String> {
    let listener =
        listen(config.listen).map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    if config.director_token.is_some() && config.director_token == config.referee_token {
        return Err("the director's token must not be the referee's".into());
    }
    let stores = open_stores(&config, addr).await?;
    let leases = stores.leases.clone();
    let metrics = Arc::new(metrics::Metrics::new());
    let journal = store::Journal::new(stores.tables, metrics.clone());
    table::thinkers::Thinkers::init(config.search_threads);
    let settings = Arc::new(table::TableSettings {
        clock_scale: clock::ClockScale(config.clock_scale),
        bot_delay: config.bot_delay,
        expert_think: config.expert_think,
        idle_after: config.idle_after,
        referee_hash: config.referee_token.as_deref().map(seat_token::hash),
        sealed_seeds: Default::default(),
    });
    let lobby = Arc::new(lobby::Lobby {
        games,
        tables: Default::default(),
        journal,
        settings,
        metrics,
        max_tables: config.limits.max_tables,
        leases: leases.clone(),
        taking: Default::default(),
        asked: Default::default(),
        listing: Default::default(),
    });
    let mut not_recovered = lobby.recover(stores.open);
    // Past one machine: the tables no node serves (all of them on a first start, those of a
    // node that died; a running competition's tables wait for the node that takes it). For
    // half a lease at most: the leases taken first are renewed only once this is done; the
    // rest are taken by the lease keeper's rounds, or by their players as they connect.
    if let Some(leases) = &leases {
        let until = tokio::time::Instant::now() + leases.node.lease / 2;
        not_recovered.extend(cluster::take_free(&lobby, &Default::default(), until).await);
    }
    for (id, why) in &not_recovered {
        tracing::error!(table = %id, reason = %why, "table not rebuilt from its log");
    }
    // Competitions next (their tables are back), before anyone can connect: rebuilt from their
    // logs, their seeds sealed again. Past one machine: those no other node runs, each then
    // taking its tables.
    let (competitions, mut competitions_not_recovered) = competition::Competitions::start(
        lobby.clone(),
        stores.competitions,
        config.director_token.as_deref(),
    )?;
    if leases.is_some() {
        competitions_not_recovered.extend(competitions.take_free(&Default::default()).await);
    }
    for (id, why) in &competitions_not_recovered {
        tracing::error!(competition = %id, reason = %why, "competition not rebuilt from its log");
    }
    // Past one machine: the task that keeps our leases and watches for more to take over.
    let lease_keeper = leases.as_ref().map(|leases| {
        tracing::info!(node = %leases.node.id, address = %leases.node.address, "serving past one machine");
        tokio::spawn(cluster::run(
            lobby.clone(),
            leases.clone(),
            competitions.clone(),
        ))
    });
    let switch = shutdown::ShutdownSwitch::new();
    let mut app = http::App::new(lobby.clone(), &config, switch.subscribe());
    let competition_api = Arc::new(competition::api::CompetitionApi {
        competitions: competitions.clone(),
        limits: app.limits.clone(),
        bad_tokens: app.bad_tokens.clone(),
        creations: app.creations.clone(),
        fairplay: Arc::new(competition::fairplay::FairplayDesk::new(
            config.db.to_string_lossy().to_string(),
        )),
        practice_utc_offset_minutes: config.practice_utc_offset_minutes,
    });
    app.extra = competition::api::routes(competition_api.clone())
        .merge(practice::api::routes(competition_api));
    // The day's practice sets, made and closed by themselves.
    let daily = config.practice_daily.then(|| {
        tokio::spawn(practice::daily::run(
            competitions.clone(),
            config.practice_utc_offset_minutes,
        ))
    });
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    let running = Serving {
        app: Arc::new(app),
        switch,
        lobby: lobby.clone(),
        competitions: competitions.clone(),
        lease_keeper,
        daily,
        leases,
    };
    let done = tokio::spawn(running.serve(listener, stop_rx));
    Ok(Running {
        addr,
        lobby,
        not_recovered,
        competitions,
        competitions_not_recovered,
        stop: Some(stop_tx),
        done,
    })
}

/// What a started server holds until it stops.
struct Serving {
    app: Arc<http::App>,
    switch: shutdown::ShutdownSwitch,
    lobby: Arc<lobby::Lobby>,
    competitions: Arc<competition::Competitions>,
    lease_keeper: Option<tokio::task::JoinHandle<()>>,
    /// The day's practice sets (`--practice-daily`).
    daily: Option<tokio::task::JoinHandle<()>>,
    leases: Option<Arc<store::Leases>>,
}

impl Serving {
    /// Serves until `stop`, then shuts down in order: the sockets told and waited for, the
    /// competitions' runners stopped, every table's last command finished, the journal's last
    /// commit on disk, past one machine the leases given back.
    async fn serve(self, listener: tokio::net::TcpListener, stop: oneshot::Receiver<()>) {
        let Serving {
            app,
            switch,
            lobby,
            competitions,
            lease_keeper,
            daily,
            leases,
        } = self;
        let (stopping_tx, stopping_rx) = oneshot::channel::<()>();
        let serve = http::serve(listener, app, async move {
            let _ = stop.await;
            let _ = stopping_tx.send(());
        });
        let sockets = async move {
            // As soon as shutdown begins, tell every connection (close 1001) and wait for them.
            let _ = stopping_rx.await;
            switch.shutdown().await;
        };
        tokio::join!(serve, sockets);
        // No more renewing or taking over: this node is leaving.
        if let Some(keeper) = lease_keeper {
            keeper.abort();
        }
        if let Some(daily) = daily {
            daily.abort();
        }
        // The competitions stop opening tables before the tables stop.
        competitions.stop();
        // Every table finishes the command it is on (its writes are then committed).
        lobby.stop_all().await;
        lobby.tables.clear();
        // Commit what is queued: when this returns the last commit is on disk.
        lobby.journal.stop().await;
        drop(lobby);
        // Past one machine: everything is committed; other nodes may take our tables now,
        // rather than when the leases run out.
        if let Some(leases) = leases {
            if let Err(e) = leases.release_all().await {
                tracing::warn!(error = %e, "leases not released: they run out by themselves");
            }
        }
    }
}
