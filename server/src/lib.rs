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
//!   per-viewer redaction, clocks and 托管, bots in seats, the idle broom.
//! - [`game`]: the games as `rules::Engine`s the tables are generic over.
//! - [`store`]: the hash-chained event log behind one trait (SQLite, WAL), group commit,
//!   `verify`.
//! - [`invite`]: a table's invite link as a QR code (SVG).
//! - [`clock`], [`limits`], [`seat_token`], [`shutdown`]: the small pieces.
//!
//! [`start`] runs a server on a listener; `main.rs` is a thin command line around it.

pub mod clock;
pub mod connection;
pub mod games;
pub mod http;
pub mod invite;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod referee;
pub mod seat_token;
pub mod shutdown;
pub mod store;
pub mod table;
pub mod web;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;

pub use games::Games;
pub use table::{DealFixed, TableGame};

/// How a server runs. [`Config::default`] is what `paiju serve` uses without flags.
#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    /// The SQLite database file.
    pub db: PathBuf,
    /// The web client's directory, served from disk (while developing it); `None`: the copy
    /// embedded in the binary at build time ([`web::WEB_FILES`]).
    pub web: Option<PathBuf>,
    /// The referee's token; `None`: no referee role.
    pub referee_token: Option<String>,
    /// Real seconds per game second: 1.0 in play, small in tests.
    pub clock_scale: f64,
    /// How long bots wait before playing.
    pub bot_delay: Duration,
    /// Tables with no connection for this long are closed (their logs kept).
    pub idle_after: Duration,
    pub limits: limits::Limits,
    /// Browser origins allowed besides our own host (`*`: any).
    pub allow_origins: Vec<String>,
    /// Host names (in the `Host` header) served besides IP literals and `localhost`, e.g. the
    /// public name behind a proxy (`*`: any). Others are refused against DNS rebinding.
    pub allow_hosts: Vec<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: "127.0.0.1:8080".parse().expect("address"),
            db: PathBuf::from("paiju.db"),
            web: None,
            referee_token: None,
            clock_scale: 1.0,
            bot_delay: Duration::from_millis(600),
            idle_after: Duration::from_secs(30 * 60),
            limits: limits::Limits::default(),
            allow_origins: Vec::new(),
            allow_hosts: Vec::new(),
        }
    }
}

/// A running server.
pub struct Running {
    /// Where it listens (the real port when started on port 0).
    pub addr: SocketAddr,
    pub lobby: Arc<lobby::Lobby>,
    /// Tables that could not be rebuilt at start, with the reason.
    pub not_recovered: Vec<(String, String)>,
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

/// Opens the store, rebuilds the open tables, binds and serves.
pub async fn start(config: Config, games: Games) -> Result<Running, String> {
    let mut sqlite = store::SqliteStore::open(&config.db)
        .map_err(|e| format!("cannot open {}: {e}", config.db.display()))?;
    let open = store::Store::open_tables(&mut sqlite).map_err(|e| e.to_string())?;
    let metrics = Arc::new(metrics::Metrics::new());
    let (journal, journal_thread) = store::Journal::start(Box::new(sqlite), metrics.clone());
    let settings = Arc::new(table::TableSettings {
        clock_scale: clock::ClockScale(config.clock_scale),
        bot_delay: config.bot_delay,
        idle_after: config.idle_after,
        referee_hash: config.referee_token.as_deref().map(seat_token::hash),
    });
    let lobby = Arc::new(lobby::Lobby {
        games,
        tables: Default::default(),
        journal,
        settings,
        metrics,
        max_tables: config.limits.max_tables,
    });
    let not_recovered = lobby.recover(open);
    for (id, why) in &not_recovered {
        tracing::error!(table = %id, reason = %why, "table not rebuilt from its log");
    }
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let switch = shutdown::ShutdownSwitch::new();
    let app = Arc::new(http::App::new(lobby.clone(), &config, switch.subscribe()));
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    let (stopping_tx, stopping_rx) = oneshot::channel::<()>();
    let server_lobby = lobby.clone();
    let done = tokio::spawn(async move {
        let serve = http::serve(listener, app, async move {
            let _ = stop_rx.await;
            let _ = stopping_tx.send(());
        });
        let sockets = async move {
            // As soon as shutdown begins, tell every connection (close 1001) and wait for them.
            let _ = stopping_rx.await;
            switch.shutdown().await;
        };
        tokio::join!(serve, sockets);
        // Every table finishes the command it is on (its writes are then committed).
        server_lobby.stop_all().await;
        server_lobby.tables.clear();
        // Commit what is queued and end the writer thread; wait for it so the last commit is
        // on disk before the process exits.
        server_lobby.journal.stop().await;
        drop(server_lobby);
        let _ = tokio::task::spawn_blocking(move || journal_thread.join()).await;
    });
    Ok(Running {
        addr,
        lobby,
        not_recovered,
        stop: Some(stop_tx),
        done,
    })
}
