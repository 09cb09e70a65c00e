//! Child generators: each process holds a socket a connection, and one process may open only so
//! many files (20,000 here: 4,950 tables of four). Past that the run shares its tables out to
//! as many `paiju load --drive FILE` children as the limit needs: each seats and plays its
//! share ([`super::play::play_tables`]) and tells the parent, on its standard output, when its
//! seats are all taken (`seated`), how many actions were acknowledged so far (`acks N`, every
//! second), and at the end what its bots did (`report {…}`, [`Played`] as JSON).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rules::Engine;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;

use super::play::{play_tables, Played};
use crate::client::{unix_ms, BotOptions, Seen};

/// A child's share of the run.
#[derive(Debug, Serialize, Deserialize)]
pub struct Order {
    pub game: String,
    pub seats: usize,
    pub think_ms: u64,
    pub deadline_s: u64,
    /// When the bots stop (Unix ms), with `--seconds`.
    pub stop_at_ms: Option<u64>,
    /// The nodes a broken connection goes to (past one machine).
    pub failover: Vec<SocketAddr>,
    /// Its tables: the node each was created on, and its id.
    pub tables: Vec<(SocketAddr, String)>,
}

/// A Unix time as a tokio instant (now, if it is past).
pub fn instant_of(unix_ms_at: u64) -> tokio::time::Instant {
    tokio::time::Instant::now() + Duration::from_millis(unix_ms_at.saturating_sub(unix_ms()))
}

/// An instant as Unix ms.
pub fn unix_ms_of(at: tokio::time::Instant) -> u64 {
    unix_ms()
        + at.saturating_duration_since(tokio::time::Instant::now())
            .as_millis() as u64
}

/// `paiju load --drive FILE`: a child generator, playing the order in `file`.
pub async fn drive<E: Engine + 'static>(file: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let order: Order = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    super::proc::open_files(order.tables.len() * order.seats)?;
    let seen = std::sync::Arc::new(Seen::default());
    let bot = BotOptions {
        think: Duration::from_millis(order.think_ms),
        deadline: Duration::from_secs(order.deadline_s),
        record: false,
        stop: order.stop_at_ms.map(instant_of),
        seen: Some(seen.clone()),
        failover: order.failover.clone(),
        hold: None,
    };
    let (seated_tx, seated_rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        if seated_rx.await.is_ok() {
            println!("seated");
        }
    });
    let counting = seen.clone();
    let ticker = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let n = counting.acks.load(std::sync::atomic::Ordering::Relaxed);
            println!("acks {n}");
        }
    });
    let played = play_tables::<E>(order.tables, order.seats, bot, Some(seated_tx)).await;
    ticker.abort();
    let mut played = played?;
    played.cpu_s = super::proc::cpu_seconds("self");
    println!(
        "report {}",
        serde_json::to_string(&played).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// What a child says.
pub(super) enum Said {
    Seated,
    Acks(u64),
    Report(Box<Played>),
    Failed(String),
}

/// The children of a run, started on their orders.
pub(super) struct Children {
    children: Vec<tokio::process::Child>,
    /// What each says, with its index.
    pub said: mpsc::UnboundedReceiver<(usize, Said)>,
    /// The order files (removed with the run's folder).
    _files: Vec<PathBuf>,
}

impl Children {
    /// Writes each order to a file in `dir` and starts a child on it.
    pub fn start(exe: &Path, dir: &Path, orders: Vec<Order>) -> Result<Children, String> {
        let (tx, said) = mpsc::unbounded_channel();
        let mut children = Vec::new();
        let mut files = Vec::new();
        for (i, order) in orders.into_iter().enumerate() {
            let file = dir.join(format!("generator-{i}.json"));
            std::fs::write(
                &file,
                serde_json::to_vec(&order).map_err(|e| e.to_string())?,
            )
            .map_err(|e| e.to_string())?;
            let mut child = tokio::process::Command::new(exe)
                .args(["load", "--game", &order.game, "--drive"])
                .arg(&file)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::inherit())
                .kill_on_drop(true)
                .spawn()
                .map_err(|e| format!("start a generator: {e}"))?;
            let stdout = child.stdout.take().ok_or("a generator without stdout")?;
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut lines = BufReader::new(stdout).lines();
                let mut reported = false;
                while let Ok(Some(line)) = lines.next_line().await {
                    let said = if line == "seated" {
                        Said::Seated
                    } else if let Some(n) = line.strip_prefix("acks ") {
                        Said::Acks(n.parse().unwrap_or(0))
                    } else if let Some(json) = line.strip_prefix("report ") {
                        reported = true;
                        match serde_json::from_str(json) {
                            Ok(p) => Said::Report(Box::new(p)),
                            Err(e) => Said::Failed(format!("generator {i}: its report: {e}")),
                        }
                    } else {
                        continue;
                    };
                    let _ = tx.send((i, said));
                }
                if !reported {
                    let _ = tx.send((
                        i,
                        Said::Failed(format!("generator {i} ended without a report")),
                    ));
                }
            });
            children.push(child);
            files.push(file);
        }
        Ok(Children {
            children,
            said,
            _files: files,
        })
    }

    pub fn len(&self) -> usize {
        self.children.len()
    }
}
