//! How a server runs: [`Config`], what `paiju serve`'s flags set. A module of its own, not the
//! crate root's: the root starts the server and so uses every module, and the modules that
//! read the configuration (http.rs) would point back up at it.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::{limits, table};

/// How a server runs. [`Config::default`] is what `paiju serve` uses without flags.
#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    /// The SQLite database file, or a `postgres://` (`postgresql://`) URL: several nodes on one
    /// PostgreSQL database, each table served by the node holding its lease.
    pub db: PathBuf,
    /// Past one machine: the address clients reach this node at (`http://10.0.0.2:8080`), told
    /// to clients that ask another node for a table served here. `None`: `http://` and the
    /// address it listens on.
    pub advertise: Option<String>,
    /// Past one machine: how long a table's lease lasts unless renewed (renewed every fifth of
    /// it): how soon another node takes over the tables of a node that died.
    pub lease: Duration,
    /// The web client's directory, served from disk (while developing it); `None`: the copy
    /// embedded in the binary at build time ([`crate::web::WEB_FILES`]).
    pub web: Option<PathBuf>,
    /// The referee's token; `None`: no referee role.
    pub referee_token: Option<String>,
    /// The director's token (events: create, start and close rounds, adjust, reveal); `None`:
    /// no director role. Never the referee's.
    pub director_token: Option<String>,
    /// Real seconds per game second: 1.0 in play, small in tests.
    pub clock_scale: f64,
    /// How long bots wait before playing.
    pub bot_delay: Duration,
    /// How long a 高手 bot thinks on a quiet server (less when many think at once; see
    /// `table::computer`). One second in play; tests make it short.
    pub expert_think: Duration,
    /// Threads for the 高手 searches (`table::thinkers`); 0: one fewer than the cores, at
    /// least one. The process has one pool: the first server started in it sets it.
    pub search_threads: usize,
    /// Tables with no connection for this long are closed (their logs kept).
    pub idle_after: Duration,
    pub limits: limits::Limits,
    /// Browser origins allowed besides our own host (`*`: any).
    pub allow_origins: Vec<String>,
    /// Host names (in the `Host` header) served besides IP literals and `localhost`, e.g. the
    /// public name behind a proxy (`*`: any). Others are refused against DNS rebinding.
    pub allow_hosts: Vec<String>,
    /// The day's practice sets are made and closed by the server (`crate::practice::daily`).
    pub practice_daily: bool,
    /// Practice days begin at this offset from UTC, in minutes (480: China, the default).
    pub practice_utc_offset_minutes: i32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: "127.0.0.1:8080".parse().expect("address"),
            db: PathBuf::from("paiju.db"),
            advertise: None,
            lease: Duration::from_secs(10),
            web: None,
            referee_token: None,
            director_token: None,
            clock_scale: 1.0,
            bot_delay: Duration::from_millis(600),
            expert_think: table::THINK,
            search_threads: 0,
            idle_after: Duration::from_secs(30 * 60),
            limits: limits::Limits::default(),
            allow_origins: Vec::new(),
            allow_hosts: Vec::new(),
            practice_daily: true,
            practice_utc_offset_minutes: 480,
        }
    }
}
