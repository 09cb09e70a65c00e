//! The way in to a competition: its handle, the commands its actor takes. As a table's, each
//! competition is a task that owns its state (`live.rs`); calls reach it through a bounded
//! channel and are answered one at a time, in log order.

use protocol::{
    CompetitionBrief, CompetitionCards, CompetitionJoin, CompetitionJoined, ConfirmResults, EntryIn,
};
use protocol::{CompetitionView, PairStatus, Refusal};
use tokio::sync::{mpsc, oneshot, watch};
use tournament::competition::practice::{self, Practice};
use tournament::competition::{Duplicate, Teams};

use super::denied::Denied;
use super::kind::Kind;
use super::standings::Standings;

/// An answer to a call.
pub type Reply<T> = oneshot::Sender<Result<T, Denied>>;

/// Requests to a competition's actor.
pub enum Command<K: Kind> {
    Register {
        entries: Vec<EntryIn>,
        reply: Reply<CompetitionCards>,
    },
    AddEntries {
        entries: Vec<EntryIn>,
        reply: Reply<CompetitionCards>,
    },
    Cards {
        reply: Reply<CompetitionCards>,
    },
    StartRound {
        round: u32,
        reply: Reply<CompetitionView>,
    },
    CloseRound {
        round: u32,
        force: bool,
        reply: Reply<CompetitionView>,
    },
    Reveal {
        early: bool,
        reply: Reply<CompetitionView>,
    },
    /// A director's step only this kind has.
    Step {
        step: K::Step,
        reply: Reply<CompetitionView>,
    },
    /// What a director's step would make of the standings, logging nothing.
    Preview {
        step: K::Step,
        reply: Reply<Standings>,
    },
    Join {
        req: CompetitionJoin,
        reply: Reply<CompetitionJoined>,
    },
    Status {
        token: String,
        reply: Reply<PairStatus>,
    },
    Confirm {
        req: ConfirmResults,
        reply: Reply<PairStatus>,
    },
    View {
        full: bool,
        reply: Reply<CompetitionView>,
    },
    Standings {
        full: bool,
        reply: Reply<Standings>,
    },
    /// The printable results page.
    Page {
        full: bool,
        reply: Reply<String>,
    },
    /// Ends the actor after the command it is on (past one machine: another node runs it now).
    Stop {
        reply: oneshot::Sender<()>,
    },
}

/// The way in to one competition of kind `K`.
pub struct Handle<K: Kind> {
    /// Bounded: a busy competition makes its callers wait, memory does not grow.
    pub(super) tx: mpsc::Sender<Command<K>>,
    /// Its line in the list, published after every change (the list asks no actor).
    pub(super) brief: watch::Receiver<CompetitionBrief>,
}

impl<K: Kind> Clone for Handle<K> {
    fn clone(&self) -> Self {
        Handle {
            tx: self.tx.clone(),
            brief: self.brief.clone(),
        }
    }
}

impl<K: Kind> Handle<K> {
    async fn ask<T>(&self, make: impl FnOnce(Reply<T>) -> Command<K>) -> Result<T, Denied> {
        let (tx, rx) = oneshot::channel();
        let gone = || Denied::Server(Refusal::NoCompetition);
        self.tx.send(make(tx)).await.map_err(|_| gone())?;
        rx.await.unwrap_or_else(|_| Err(gone()))
    }

    pub async fn register(&self, entries: Vec<EntryIn>) -> Result<CompetitionCards, Denied> {
        self.ask(|reply| Command::Register { entries, reply }).await
    }

    pub async fn add_entries(&self, entries: Vec<EntryIn>) -> Result<CompetitionCards, Denied> {
        self.ask(|reply| Command::AddEntries { entries, reply })
            .await
    }

    pub async fn cards(&self) -> Result<CompetitionCards, Denied> {
        self.ask(|reply| Command::Cards { reply }).await
    }

    pub async fn start_round(&self, round: u32) -> Result<CompetitionView, Denied> {
        self.ask(|reply| Command::StartRound { round, reply }).await
    }

    pub async fn close_round(&self, round: u32, force: bool) -> Result<CompetitionView, Denied> {
        self.ask(|reply| Command::CloseRound {
            round,
            force,
            reply,
        })
        .await
    }

    pub async fn reveal(&self, early: bool) -> Result<CompetitionView, Denied> {
        self.ask(|reply| Command::Reveal { early, reply }).await
    }

    pub async fn step(&self, step: K::Step) -> Result<CompetitionView, Denied> {
        self.ask(|reply| Command::Step { step, reply }).await
    }

    pub async fn preview(&self, step: K::Step) -> Result<Standings, Denied> {
        self.ask(|reply| Command::Preview { step, reply }).await
    }

    pub async fn join(&self, req: CompetitionJoin) -> Result<CompetitionJoined, Denied> {
        self.ask(|reply| Command::Join { req, reply }).await
    }

    pub async fn status(&self, token: String) -> Result<PairStatus, Denied> {
        self.ask(|reply| Command::Status { token, reply }).await
    }

    pub async fn confirm(&self, req: ConfirmResults) -> Result<PairStatus, Denied> {
        self.ask(|reply| Command::Confirm { req, reply }).await
    }

    pub async fn view(&self, full: bool) -> Result<CompetitionView, Denied> {
        self.ask(|reply| Command::View { full, reply }).await
    }

    pub async fn standings(&self, full: bool) -> Result<Standings, Denied> {
        self.ask(|reply| Command::Standings { full, reply }).await
    }

    pub async fn page(&self, full: bool) -> Result<String, Denied> {
        self.ask(|reply| Command::Page { full, reply }).await
    }

    pub async fn stop(&self) {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(Command::Stop { reply }).await.is_ok() {
            let _ = rx.await;
        }
    }
}

/// A competition in the registry, by kind: the calls every kind takes go to either through
/// [`each!`]; a step only one kind has is asked of that kind's handle alone.
#[derive(Clone)]
pub enum Held {
    Duplicate(Handle<Duplicate>),
    Teams(Handle<Teams>),
    /// A practice set of 80分 boards.
    ShengjiPractice(Handle<Practice<practice::Shengji>>),
    /// A practice set of 够级 games.
    GoujiPractice(Handle<Practice<practice::Gouji>>),
}

impl From<Handle<Duplicate>> for Held {
    fn from(h: Handle<Duplicate>) -> Held {
        Held::Duplicate(h)
    }
}

impl From<Handle<Teams>> for Held {
    fn from(h: Handle<Teams>) -> Held {
        Held::Teams(h)
    }
}

impl From<Handle<Practice<practice::Shengji>>> for Held {
    fn from(h: Handle<Practice<practice::Shengji>>) -> Held {
        Held::ShengjiPractice(h)
    }
}

impl From<Handle<Practice<practice::Gouji>>> for Held {
    fn from(h: Handle<Practice<practice::Gouji>>) -> Held {
        Held::GoujiPractice(h)
    }
}

/// Runs `$body` with `$h` bound to the handle of whichever kind `$held` is.
macro_rules! each {
    ($held:expr, $h:ident => $body:expr) => {
        match $held {
            $crate::competition::handle::Held::Duplicate($h) => $body,
            $crate::competition::handle::Held::Teams($h) => $body,
            $crate::competition::handle::Held::ShengjiPractice($h) => $body,
            $crate::competition::handle::Held::GoujiPractice($h) => $body,
        }
    };
}
pub(crate) use each;

impl Held {
    pub fn brief(&self) -> CompetitionBrief {
        each!(self, h => h.brief.borrow().clone())
    }

    pub async fn stop(&self) {
        each!(self, h => h.stop().await)
    }

    /// A practice set (its players are served by `/api/practice`).
    pub fn is_practice(&self) -> bool {
        matches!(self, Held::ShengjiPractice(_) | Held::GoujiPractice(_))
    }
}
