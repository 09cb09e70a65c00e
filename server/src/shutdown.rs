//! Graceful shutdown: one signal every task listens to, and a way to wait for them all.
//!
//! As in mini-redis: a `watch` channel says "shut down"; every connection holds a clone of a
//! `mpsc::Sender<()>` that it drops when it ends, so the server knows when the last one is gone.

use tokio::sync::{mpsc, watch};

/// Held by every task that must react to shutdown.
#[derive(Clone)]
pub struct Shutdown {
    rx: watch::Receiver<bool>,
    /// Dropped when the task ends; the server waits until every clone is gone.
    _alive: mpsc::Sender<()>,
}

impl Shutdown {
    pub fn is_shutdown(&self) -> bool {
        *self.rx.borrow()
    }

    /// Resolves when shutdown begins.
    pub async fn recv(&mut self) {
        let _ = self.rx.wait_for(|s| *s).await;
    }
}

/// The server's side: start shutdown, then wait for every holder of a [`Shutdown`] to finish.
pub struct ShutdownSwitch {
    tx: watch::Sender<bool>,
    alive_tx: Option<mpsc::Sender<()>>,
    alive_rx: mpsc::Receiver<()>,
}

impl Default for ShutdownSwitch {
    fn default() -> Self {
        Self::new()
    }
}

impl ShutdownSwitch {
    pub fn new() -> ShutdownSwitch {
        let (tx, _) = watch::channel(false);
        let (alive_tx, alive_rx) = mpsc::channel(1);
        ShutdownSwitch {
            tx,
            alive_tx: Some(alive_tx),
            alive_rx,
        }
    }

    pub fn subscribe(&self) -> Shutdown {
        Shutdown {
            rx: self.tx.subscribe(),
            _alive: self.alive_tx.clone().expect("subscribe before shutdown"),
        }
    }

    /// Signals shutdown and waits for every [`Shutdown`] to be dropped.
    pub async fn shutdown(mut self) {
        let _ = self.tx.send(true);
        self.alive_tx = None;
        let _ = self.alive_rx.recv().await;
    }
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn signal() {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("install the SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
