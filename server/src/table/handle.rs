//! The way in to a table: its handle, the commands it takes, who a connection is there.

use super::*;
use tournament::competition::TableReport;

/// Who a connection is at this table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Who {
    Seat(usize),
    Spectator,
    Referee,
}

impl Who {
    pub fn viewer(self) -> Viewer {
        match self {
            Who::Seat(s) => Viewer::Seat(s),
            Who::Spectator => Viewer::Spectator,
            Who::Referee => Viewer::Referee,
        }
    }

    pub fn role(self) -> Role {
        match self {
            Who::Seat(_) => Role::Seat,
            Who::Spectator => Role::Spectator,
            Who::Referee => Role::Referee,
        }
    }
}

/// A close the server asks a connection to make: code and reason.
pub type CloseWith = Option<(u16, String)>;

/// How the table reaches one connection.
#[derive(Clone)]
pub struct Outlet {
    /// The connection's id (unique per server run).
    pub id: u64,
    /// Its way out: the table writes its JSON text frames there and never waits on it; a
    /// full queue makes the connection a slow reader, closed with 4008.
    pub line: Arc<crate::line::Line>,
    /// Asks the connection to close now (seat left, slow reader, table closed).
    pub close: Arc<watch::Sender<CloseWith>>,
}

impl Outlet {
    pub(super) fn close_with(&self, code: u16, reason: &str) {
        self.close.send_replace(Some((code, reason.to_string())));
    }
}

/// A connection on a seat of a competition's table, as the table saw it. The address is kept
/// as it is only here, in memory: the competition logs a keyed mark of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatVisit {
    pub seat: usize,
    pub at_ms: u64,
    pub what: tournament::competition::conduct::VisitKind,
    pub peer: std::net::IpAddr,
    pub device: Option<String>,
}

/// Who is arriving on a connection: what `hello` said, and where it came from.
pub struct Arrival {
    pub outlet: Outlet,
    pub token: Option<String>,
    pub last_seq: Option<u64>,
    pub peer: std::net::IpAddr,
    /// The page's device id (checked by the connection).
    pub device: Option<String>,
}

/// Requests to a table's actor.
pub(crate) enum Command {
    Join {
        seat: usize,
        name: String,
        token_hash: String,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    Leave {
        token_hash: String,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    Attach {
        arrival: Arrival,
        reply: oneshot::Sender<Result<Who, Refusal>>,
    },
    Detach {
        conn: u64,
    },
    Act {
        conn: u64,
        act: Act,
    },
    Resync {
        conn: u64,
    },
    /// The connection's line went quiet (nothing heard for a few seconds), or spoke again.
    Quiet {
        conn: u64,
        quiet: bool,
    },
    /// 托管 by choice (`ClientIn::Auto`).
    Auto {
        conn: u64,
        on: bool,
    },
    /// The referee puts the table under review or takes it off (`review.rs`).
    Review {
        conn: u64,
        on: bool,
        reason: Option<String>,
    },
    Stop {
        reply: oneshot::Sender<()>,
    },
    /// Closes the table for good (its competition's round is over, or the board was settled
    /// without it): marked closed in the store, its connections told, its actor ended.
    Close {
        reply: oneshot::Sender<()>,
    },
}

/// One `act` message as the connection read it (see `protocol::ClientIn::Act`).
#[derive(Debug)]
pub struct Act {
    pub id: u64,
    /// The table seq the client decided on.
    pub seq: u64,
    pub seat: Option<usize>,
    pub reason: Option<String>,
    pub action: Value,
}

/// The way in to a table: cheap to clone, held by the lobby and by connections.
#[derive(Clone)]
pub struct TableHandle {
    pub id: String,
    pub game: &'static str,
    /// Bounded: a table that cannot keep up makes its senders wait, memory does not grow.
    /// Boxed: the channel's storage is blocks of 32 slots the size of one item, kept for the
    /// table's life; a `Command` is 136 bytes, a box 8 (8.6 KiB a table before, 0.6 after).
    pub(super) tx: mpsc::Sender<Box<Command>>,
    /// The table's public summary, published by the actor after every change, so listing a
    /// thousand tables does not message a thousand actors.
    pub(super) summary: watch::Receiver<TableSummary>,
    /// The board's result once play is over (see `Table::result`).
    pub(super) result: watch::Receiver<Option<TableReport>>,
    /// A competition's table: its seats' connections ([`TableHandle::visits`]).
    pub(super) visits: Option<watch::Receiver<Vec<SeatVisit>>>,
    /// Set when the actor stopped after a failed write (or a panic) and the table is being
    /// rebuilt from its log: requests are told to retry, not that the table is gone.
    pub(super) rebuilding: Arc<AtomicBool>,
}

impl TableHandle {
    pub fn summary(&self) -> TableSummary {
        self.summary.borrow().clone()
    }

    /// The board's result, watched: `None` until play is over; changed again by a ruling after
    /// the last trick (with the ruling's entry and reason). Its sender goes when the actor does.
    pub fn result(&self) -> watch::Receiver<Option<TableReport>> {
        self.result.clone()
    }

    pub(super) async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, Refusal>>) -> Command,
    ) -> Result<T, Refusal> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(Box::new(make(tx)))
            .await
            .map_err(|_| self.gone())?;
        rx.await.unwrap_or_else(|_| Err(self.gone()))
    }

    /// Why the actor does not answer: closed for good, or being rebuilt (try again).
    pub(super) fn gone(&self) -> Refusal {
        if self.rebuilding.load(Ordering::Relaxed) {
            Refusal::TableRebuilding
        } else {
            Refusal::TableClosed
        }
    }

    /// The close a connection to this table makes once its actor has gone.
    pub fn closed_with(&self) -> (u16, &'static str) {
        if self.rebuilding.load(Ordering::Relaxed) {
            (close::RETRY, "the table is being rebuilt: reconnect")
        } else {
            (close::NORMAL, "table closed")
        }
    }

    /// Resolves when the actor has gone (closed, stopped, failed or panicked). Owns what it
    /// waits on, so a connection makes it once for its whole life.
    pub fn closed(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let tx = self.tx.clone();
        async move { tx.closed().await }
    }

    pub async fn join(&self, seat: usize, name: String, token_hash: String) -> Result<(), Refusal> {
        self.ask(|reply| Command::Join {
            seat,
            name,
            token_hash,
            reply,
        })
        .await
    }

    pub async fn leave(&self, token_hash: String) -> Result<(), Refusal> {
        self.ask(|reply| Command::Leave { token_hash, reply }).await
    }

    pub async fn attach(&self, arrival: Arrival) -> Result<Who, Refusal> {
        self.ask(|reply| Command::Attach { arrival, reply }).await
    }

    /// A competition's table: its seats' connections as the table saw them (`None` at a
    /// casual table).
    pub fn visits(&self) -> Option<watch::Receiver<Vec<SeatVisit>>> {
        self.visits.clone()
    }

    pub async fn detach(&self, conn: u64) {
        let _ = self.tx.send(Box::new(Command::Detach { conn })).await;
    }

    pub async fn act(&self, conn: u64, act: Act) -> bool {
        self.tx
            .send(Box::new(Command::Act { conn, act }))
            .await
            .is_ok()
    }

    pub async fn resync(&self, conn: u64) {
        let _ = self.tx.send(Box::new(Command::Resync { conn })).await;
    }

    pub async fn review(&self, conn: u64, on: bool, reason: Option<String>) {
        let _ = self
            .tx
            .send(Box::new(Command::Review { conn, on, reason }))
            .await;
    }

    /// Stops the actor because another node serves the table now (its lease was lost): its
    /// connections are told to reconnect (4503), and are then sent where it is.
    pub async fn hand_over(&self) {
        self.rebuilding.store(true, Ordering::Relaxed);
        self.stop().await;
    }

    pub async fn quiet(&self, conn: u64, quiet: bool) {
        let _ = self.tx.send(Box::new(Command::Quiet { conn, quiet })).await;
    }

    pub async fn auto(&self, conn: u64, on: bool) {
        let _ = self.tx.send(Box::new(Command::Auto { conn, on })).await;
    }

    /// Closes the table for good after the command it is on (see `Command::Close`).
    pub async fn close(&self) {
        let (reply, rx) = oneshot::channel();
        if self
            .tx
            .send(Box::new(Command::Close { reply }))
            .await
            .is_ok()
        {
            let _ = rx.await;
        }
    }

    /// Stops the actor after the command it is on (its writes are then done).
    pub async fn stop(&self) {
        let (reply, rx) = oneshot::channel();
        if self
            .tx
            .send(Box::new(Command::Stop { reply }))
            .await
            .is_ok()
        {
            let _ = rx.await;
        }
    }
}

/// Whether a table other than `except` that is not over deals from the seed with this
/// commitment.
pub fn seed_in_use(
    registry: &dashmap::DashMap<String, TableHandle>,
    except: &str,
    commitment: &str,
) -> bool {
    registry.iter().any(|t| {
        if t.id == except {
            return false;
        }
        let s = t.summary.borrow();
        s.seed_commitment == commitment
            && matches!(s.state, TableState::Waiting | TableState::Playing)
    })
}
