//! The journal: one writer thread in front of any [`Store`], committing whatever has queued up
//! in one transaction (group commit).

use super::*;

/// One request to the writer thread, with where to send the outcome.
enum Op {
    Create(Box<StoredTable>, oneshot::Sender<Result<(), StoreError>>),
    Append(String, LogEntry, oneshot::Sender<Result<(), StoreError>>),
    Seat(String, SeatRecord, oneshot::Sender<Result<(), StoreError>>),
    State(String, TableState, oneshot::Sender<Result<(), StoreError>>),
    /// Read tables back (rebuilding a table after a failed write, taking a dead node's over),
    /// after every write queued before it.
    Load(
        Vec<String>,
        oneshot::Sender<Result<Vec<StoredTable>, StoreError>>,
    ),
    /// Commit everything queued before this, then end the thread.
    Stop(oneshot::Sender<Result<(), StoreError>>),
}

/// The async face of a [`Store`]: requests queue on a bounded channel to one thread, which
/// commits every append that has queued up in one transaction. Cloned by every table.
#[derive(Clone)]
pub struct Journal {
    /// Bounded: when the disk is slower than the tables, tables wait here instead of memory
    /// growing.
    tx: mpsc::Sender<Op>,
}

/// The writer thread; join it after every [`Journal`] clone is dropped to be sure the last
/// writes are on disk.
pub struct JournalThread(std::thread::JoinHandle<()>);

impl JournalThread {
    pub fn join(self) {
        let _ = self.0.join();
    }
}

/// Most appends one transaction takes (bounds the latency of the first in a batch).
const BATCH: usize = 512;

impl Journal {
    /// Starts the writer thread; each group commit's time goes to `metrics`.
    pub fn start(
        mut store: Box<dyn Store>,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> (Journal, JournalThread) {
        let (tx, mut rx) = mpsc::channel::<Op>(4096);
        let thread = std::thread::Builder::new()
            .name("paiju-journal".into())
            .spawn(move || {
                let mut pending: Vec<Op> = Vec::new();
                while let Some(first) = rx.blocking_recv() {
                    pending.push(first);
                    while pending.len() < BATCH {
                        match rx.try_recv() {
                            Ok(op) => pending.push(op),
                            Err(_) => break,
                        }
                    }
                    if run_batch(store.as_mut(), std::mem::take(&mut pending), &metrics) {
                        return;
                    }
                }
            })
            .expect("spawn the journal thread");
        (Journal { tx }, JournalThread(thread))
    }

    async fn call(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<(), StoreError>>) -> Op,
    ) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(make(tx))
            .await
            .map_err(|_| StoreError("the journal has stopped".into()))?;
        rx.await
            .unwrap_or_else(|_| Err(StoreError("the journal has stopped".into())))
    }

    pub async fn create_table(&self, t: StoredTable) -> Result<(), StoreError> {
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
    /// turn of the writer thread, whose commits a load interrupts, and one read of the store.
    pub async fn load_many(&self, tables: Vec<String>) -> Result<Vec<StoredTable>, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(Op::Load(tables, tx))
            .await
            .map_err(|_| StoreError("the journal has stopped".into()))?;
        rx.await
            .unwrap_or_else(|_| Err(StoreError("the journal has stopped".into())))
    }

    /// Commits everything queued so far and ends the writer thread (graceful shutdown).
    pub async fn stop(&self) {
        let _ = self.call(Op::Stop).await;
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
            other => {
                flush(store, &mut pending, metrics);
                let (result, reply) = match other {
                    Op::Create(t, r) => (store.create_table(&t), r),
                    Op::Seat(t, s, r) => (store.set_seat(&t, &s), r),
                    Op::State(t, s, r) => (store.set_state(&t, s), r),
                    Op::Append(..) | Op::Stop(_) | Op::Load(..) => unreachable!(),
                };
                let _ = reply.send(result);
            }
        }
    }
    flush(store, &mut pending, metrics);
    false
}
