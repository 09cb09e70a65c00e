//! The journal: any [`Store`] behind one queue, whatever has queued up committed in one
//! transaction (group commit), by whichever caller finds the store free.
//!
//! There is no writer thread. A table that appends while nobody is committing commits the
//! queue itself, there and then: on SQLite that is a write and a sync on the runtime thread
//! that read the player's frame, so the action's only sleep is its sync and its answer crosses
//! no thread. Appends that arrive meanwhile wait; when the commit is done and more has queued,
//! a task of its own commits that, and so on until the queue is empty. At most one commit runs
//! at a time, so at most one runtime thread is blocked in a sync. A store that waits on the
//! network (PostgreSQL, whose client runs a runtime of its own) is called on tokio's blocking
//! pool instead. docs/performance.md ("The commit on the thread that read the frame") has the
//! figures that chose this.

use std::collections::VecDeque;
use std::sync::Mutex;

use super::*;

/// One request, with where to send the outcome.
enum Op {
    /// A new table: false if its id is taken ([`Store::create_table`]).
    Create(Box<StoredTable>, oneshot::Sender<Result<bool, StoreError>>),
    Append(String, LogEntry, oneshot::Sender<Result<(), StoreError>>),
    Seat(String, SeatRecord, oneshot::Sender<Result<(), StoreError>>),
    State(String, TableState, oneshot::Sender<Result<(), StoreError>>),
    /// Read tables back (rebuilding a table after a failed write, taking a dead node's over),
    /// after every write queued before it.
    Load(
        Vec<String>,
        oneshot::Sender<Result<Vec<StoredTable>, StoreError>>,
    ),
    /// Commit everything queued before this, then refuse whatever comes after.
    Stop(oneshot::Sender<Result<(), StoreError>>),
}

/// The async face of a [`Store`]. Cloned by every table.
#[derive(Clone)]
pub struct Journal {
    inner: Arc<Inner>,
}

struct Inner {
    queue: Mutex<Queue>,
    /// Locked only by the one committing (who holds [`Queue::committing`]): never contended.
    store: Mutex<Box<dyn Store>>,
    metrics: Arc<crate::metrics::Metrics>,
    /// The store waits on the network: commit on the blocking pool ([`Store::remote`]).
    remote: bool,
}

/// What waits for the store. Not bounded: every caller waits for its own request's outcome, so
/// a table has at most a request or two queued, however slow the disk.
#[derive(Default)]
struct Queue {
    ops: VecDeque<Op>,
    /// Someone is committing (or about to): a new request only queues.
    committing: bool,
    /// [`Op::Stop`] was committed: every later request is refused.
    stopped: bool,
}

/// Most appends one transaction takes (bounds the latency of the first in a batch).
const BATCH: usize = 512;

fn stopped() -> StoreError {
    StoreError("the journal has stopped".into())
}

impl Journal {
    /// The journal in front of `store`; each group commit's time goes to `metrics`.
    pub fn new(store: Box<dyn Store>, metrics: Arc<crate::metrics::Metrics>) -> Journal {
        let remote = store.remote();
        Journal {
            inner: Arc::new(Inner {
                queue: Mutex::default(),
                store: Mutex::new(store),
                metrics,
                remote,
            }),
        }
    }

    /// Queues `op`; when nobody is committing, commits the queue (this op first) before
    /// returning. After [`Journal::stop`] the op is dropped unanswered: its caller reads "the
    /// journal has stopped".
    async fn submit(&self, op: Op) {
        {
            let mut q = self.inner.queue.lock().expect("journal queue");
            if q.stopped {
                return;
            }
            q.ops.push_back(op);
            if q.committing {
                return;
            }
            q.committing = true;
        }
        if self.inner.remote {
            // The whole run on the blocking pool, so that a caller that goes away while it
            // waits cannot leave the queue with nobody to commit it.
            let inner = self.inner.clone();
            let _ = tokio::task::spawn_blocking(move || while inner.commit_round() {}).await;
        } else if self.inner.commit_round() {
            // More came while this caller committed: a task of its own goes on, so that this
            // caller answers its player now and no one caller commits for everybody.
            let inner = self.inner.clone();
            tokio::spawn(async move {
                while inner.commit_round() {
                    tokio::task::yield_now().await;
                }
            });
        }
    }

    /// Submits the op `make` builds around its answer's sender, and waits for that answer.
    async fn call<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Op,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.submit(make(tx)).await;
        rx.await.unwrap_or_else(|_| Err(stopped()))
    }

    /// [`Store::create_table`]: false if the table's id is taken, nothing stored.
    pub async fn create_table(&self, t: StoredTable) -> Result<bool, StoreError> {
        self.call(|r| Op::Create(Box::new(t), r)).await
    }

    /// Returns once the entry is committed (durable).
    pub async fn append(&self, table: &str, e: LogEntry) -> Result<(), StoreError> {
        self.call(|r| Op::Append(table.to_string(), e, r)).await
    }

    pub async fn set_seat(&self, table: &str, s: SeatRecord) -> Result<(), StoreError> {
        self.call(|r| Op::Seat(table.to_string(), s, r)).await
    }

    pub async fn set_state(&self, table: &str, state: TableState) -> Result<(), StoreError> {
        self.call(|r| Op::State(table.to_string(), state, r)).await
    }

    /// One stored table as it is on disk now, after every write queued before this call.
    pub async fn load(&self, table: &str) -> Result<Option<StoredTable>, StoreError> {
        Ok(self.load_many(vec![table.to_string()]).await?.pop())
    }

    /// [`Journal::load`] for several tables in one request (those not stored left out): one
    /// turn of the queue, whose commits a load interrupts, and one read of the store.
    pub async fn load_many(&self, tables: Vec<String>) -> Result<Vec<StoredTable>, StoreError> {
        self.call(|r| Op::Load(tables, r)).await
    }

    /// Commits everything queued so far and refuses whatever comes later (graceful shutdown):
    /// when this returns, every write acknowledged is on disk.
    pub async fn stop(&self) {
        let _ = self.call(Op::Stop).await;
    }
}

impl Inner {
    /// Commits what is queued now (up to [`BATCH`] appends). True when more has queued since
    /// and the caller is to commit again; false when the queue is empty and nobody commits.
    fn commit_round(&self) -> bool {
        let ops: Vec<Op> = {
            let mut q = self.queue.lock().expect("journal queue");
            let n = q.ops.len().min(BATCH);
            q.ops.drain(..n).collect()
        };
        let stop = {
            // A store that panics (a bug) ends the journal, as a dead writer thread would:
            // everything queued and later is refused rather than left waiting for ever.
            let broken = Broken(self);
            let mut store = self.store.lock().expect("journal store");
            let stop = run_batch(store.as_mut(), ops, &self.metrics);
            std::mem::forget(broken);
            stop
        };
        let mut q = self.queue.lock().expect("journal queue");
        if stop {
            q.stopped = true;
            // Dropped unanswered: their callers read "the journal has stopped".
            q.ops.clear();
        }
        q.committing = !q.ops.is_empty();
        q.committing
    }
}

/// Armed while the store is called: dropped only when that call panics.
struct Broken<'a>(&'a Inner);

impl Drop for Broken<'_> {
    fn drop(&mut self) {
        let mut q = self.0.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.stopped = true;
        q.committing = false;
        q.ops.clear();
    }
}

/// Appends queued for one transaction, beside who waits for each outcome: the store is handed
/// the entries as they are queued, without a copy.
#[derive(Default)]
pub(super) struct Pending {
    entries: Vec<(String, LogEntry)>,
    waiters: Vec<oneshot::Sender<Result<(), StoreError>>>,
}

impl Pending {
    pub(super) fn push(
        &mut self,
        table: String,
        entry: LogEntry,
        waiter: oneshot::Sender<Result<(), StoreError>>,
    ) {
        self.entries.push((table, entry));
        self.waiters.push(waiter);
    }
}

/// Commits the queued appends in one transaction and answers each waiter. When the batch fails
/// and spans several tables, each table is tried again in a transaction of its own: one table's
/// refusal (its lease was taken over, a duplicate seq after a race) must not fail the others.
/// A retry is safe: the failed transaction stored nothing.
pub(super) fn flush(
    store: &mut dyn Store,
    pending: &mut Pending,
    metrics: &crate::metrics::Metrics,
) {
    let Pending { entries, waiters } = std::mem::take(pending);
    if entries.is_empty() {
        return;
    }
    let began = std::time::Instant::now();
    let result = store.append(&entries);
    metrics.commit(began.elapsed());
    let several = entries.iter().any(|(t, _)| *t != entries[0].0);
    if result.is_ok() || !several {
        for w in waiters {
            let _ = w.send(result.clone());
        }
        return;
    }
    let mut tables: Vec<&str> = entries.iter().map(|(t, _)| t.as_str()).collect();
    tables.sort();
    tables.dedup();
    let mut waiters: Vec<Option<_>> = waiters.into_iter().map(Some).collect();
    for table in tables {
        let mine: Vec<usize> = (0..entries.len())
            .filter(|&i| entries[i].0 == table)
            .collect();
        let batch: Vec<(String, LogEntry)> = mine.iter().map(|&i| entries[i].clone()).collect();
        let began = std::time::Instant::now();
        let result = store.append(&batch);
        metrics.commit(began.elapsed());
        for i in mine {
            if let Some(w) = waiters[i].take() {
                let _ = w.send(result.clone());
            }
        }
    }
}

/// Runs queued operations in order; consecutive appends share one transaction. True when a
/// `Stop` was among them.
fn run_batch(store: &mut dyn Store, ops: Vec<Op>, metrics: &crate::metrics::Metrics) -> bool {
    let mut pending = Pending::default();
    for op in ops {
        match op {
            Op::Append(t, e, r) => pending.push(t, e, r),
            Op::Stop(r) => {
                flush(store, &mut pending, metrics);
                let _ = r.send(Ok(()));
                return true;
            }
            Op::Load(ids, r) => {
                flush(store, &mut pending, metrics);
                let _ = r.send(store.tables(&ids));
            }
            Op::Create(t, r) => {
                flush(store, &mut pending, metrics);
                let _ = r.send(store.create_table(&t));
            }
            other => {
                flush(store, &mut pending, metrics);
                let (result, reply) = match other {
                    Op::Seat(t, s, r) => (store.set_seat(&t, &s), r),
                    Op::State(t, s, r) => (store.set_state(&t, s), r),
                    Op::Create(..) | Op::Append(..) | Op::Stop(_) | Op::Load(..) => unreachable!(),
                };
                let _ = reply.send(result);
            }
        }
    }
    flush(store, &mut pending, metrics);
    false
}
