//! The computer players' thinking: one pool for the whole process, whatever the number of
//! tables. Every decision of every table goes through it; none gets a thread of its own.
//!
//! - **Searches** (高手) run on [`Thinkers::searchers`] threads (one fewer than the cores, at
//!   least one, `--search-threads`) at the lowest CPU priority (nice 19): the tables' actors,
//!   sockets and journal come first, and a core is left to them. A flood of 高手 tables then
//!   slows the 高手 tables (their decisions wait in the queue and think less) far more than
//!   the people's.
//! - **Quick decisions** (入门, 普通, every 托管 move: micro- to milliseconds) have a thread of
//!   their own at normal priority, so a 托管 move or a 普通 seat never waits behind a search.
//! - A search's budget is set when it starts, from the queue ([`Turn`]): with `d` searches
//!   asked (running and waiting) on `s` searchers, `think × min(1, s / d)`, less the time it
//!   waited, never under the floor (`computer::THINK_FLOOR`). While `d ≤ s` every decision
//!   comes within `think` of being asked; past that the searchers are shared evenly.
//!
//! Jobs run first come, first served in each lane; a job that panics is caught by the job
//! itself (the computer's `decide`), so a worker never dies.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Which of the pool's lanes a decision takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// 高手's search: the searchers, at the lowest priority.
    Search,
    /// 入门, 普通, 托管: the quick thread.
    Quick,
}

/// What a job is told when it starts.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    /// How long it waited in the queue.
    pub waited: Duration,
    /// Jobs of its lane asked and not yet finished, this one included (running and waiting).
    pub demand: usize,
    /// The lane's threads.
    pub workers: usize,
}

type Job = Box<dyn FnOnce(Turn) + Send>;

/// The process's pool ([`Thinkers::init`]).
static SHARED: OnceLock<Thinkers> = OnceLock::new();

/// One lane: its queue and the threads that take from it.
struct Queue {
    jobs: Mutex<Jobs>,
    ready: Condvar,
    workers: usize,
}

#[derive(Default)]
struct Jobs {
    waiting: VecDeque<(Instant, Job)>,
    running: usize,
    closed: bool,
}

impl Queue {
    fn new(workers: usize) -> Arc<Queue> {
        Arc::new(Queue {
            jobs: Mutex::default(),
            ready: Condvar::new(),
            workers,
        })
    }

    fn push(&self, job: Job) {
        let mut jobs = self.jobs.lock().expect("thinkers lock");
        jobs.waiting.push_back((Instant::now(), job));
        drop(jobs);
        self.ready.notify_one();
    }

    /// A worker's loop: takes the oldest job, runs it, until the pool is dropped.
    fn work(&self) {
        loop {
            let (job, turn) = {
                let mut jobs = self.jobs.lock().expect("thinkers lock");
                loop {
                    if jobs.closed {
                        return;
                    }
                    if let Some((asked, job)) = jobs.waiting.pop_front() {
                        jobs.running += 1;
                        let turn = Turn {
                            waited: asked.elapsed(),
                            demand: jobs.running + jobs.waiting.len(),
                            workers: self.workers,
                        };
                        break (job, turn);
                    }
                    jobs = self.ready.wait(jobs).expect("thinkers lock");
                }
            };
            job(turn);
            self.jobs.lock().expect("thinkers lock").running -= 1;
        }
    }

    fn close(&self) {
        self.jobs.lock().expect("thinkers lock").closed = true;
        self.ready.notify_all();
    }
}

/// The pool: a search lane and a quick lane.
pub struct Thinkers {
    search: Arc<Queue>,
    quick: Arc<Queue>,
}

impl Thinkers {
    /// Starts `searchers` search threads (at least one) and the quick thread.
    pub fn start(searchers: usize) -> Thinkers {
        let searchers = searchers.max(1);
        let (search, quick) = (Queue::new(searchers), Queue::new(1));
        for i in 0..searchers {
            let q = search.clone();
            std::thread::Builder::new()
                .name(format!("paiju-search-{i}"))
                .spawn(move || {
                    lowest_priority();
                    bots::search::at_pause_points(give_way);
                    q.work()
                })
                .expect("a search thread starts");
        }
        let q = quick.clone();
        std::thread::Builder::new()
            .name("paiju-quick".into())
            .spawn(move || q.work())
            .expect("the quick thread starts");
        Thinkers { search, quick }
    }

    /// Starts the process's pool with `searchers` search threads (0: one fewer than the
    /// cores, at least one), if it has not started yet: its first caller decides.
    pub fn init(searchers: usize) -> &'static Thinkers {
        SHARED.get_or_init(|| {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            Thinkers::start(if searchers == 0 { cores - 1 } else { searchers })
        })
    }

    /// The process's pool (started with the default size if no server started it).
    pub fn shared() -> &'static Thinkers {
        Thinkers::init(0)
    }

    /// Queues `job` in `lane`; it runs on one of the lane's threads when its turn comes.
    pub fn submit(&self, lane: Lane, job: impl FnOnce(Turn) + Send + 'static) {
        match lane {
            Lane::Search => self.search.push(Box::new(job)),
            Lane::Quick => self.quick.push(Box::new(job)),
        }
    }

    /// Search threads.
    pub fn searchers(&self) -> usize {
        self.search.workers
    }

    /// Searches asked and not finished (running and waiting).
    #[cfg(test)]
    fn searches(&self) -> usize {
        let jobs = self.search.jobs.lock().expect("thinkers lock");
        jobs.running + jobs.waiting.len()
    }
}

impl Drop for Thinkers {
    fn drop(&mut self) {
        self.search.close();
        self.quick.close();
    }
}

/// A search's pause point: at most every [`GIVE_WAY_EVERY`] of searching, the core is offered
/// to whatever waits for it (`sched_yield`): a table woken by a frame need not wait for the
/// scheduler to preempt a search (a few ms on the kernels measured), only for the next pause.
fn give_way() {
    thread_local! {
        static LAST: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
    }
    let now = Instant::now();
    LAST.with(|last| {
        if last.get().is_none_or(|t| now - t >= GIVE_WAY_EVERY) {
            last.set(Some(now));
            std::thread::yield_now();
        }
    });
}

/// How often a search thread offers its core ([`give_way`]).
const GIVE_WAY_EVERY: Duration = Duration::from_micros(500);

/// This thread at the lowest CPU priority, nice 19 (Linux; elsewhere, as it is). Not
/// `SCHED_IDLE`: measured on this project's machine (Linux 6.18, EEVDF, 2 vCPUs), a busy loop
/// at `SCHED_IDLE` beside 200 tables took their round trip's p99 from 2.4 ms to 9.8 ms, one at
/// nice 19 to 3.3 ms (docs/performance.md, "Thinking under a cap").
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid has no preconditions; setpriority on a thread id changes only that
        // thread (Linux), and a failure is reported, not undefined.
        let rc = unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            libc::setpriority(libc::PRIO_PROCESS, tid, 19)
        };
        if rc != 0 {
            tracing::warn!(
                "cannot lower the search threads' priority: they compete with the tables"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    #[test]
    fn a_flood_of_searches_runs_on_the_searchers_alone_and_is_told_the_demand() {
        let pool = Thinkers::start(2);
        let now = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads = Arc::new(Mutex::new(HashSet::new()));
        let (tx, rx) = mpsc::channel();
        for i in 0..20 {
            let (now, most, threads, tx) = (now.clone(), most.clone(), threads.clone(), tx.clone());
            pool.submit(Lane::Search, move |turn| {
                let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(n, Ordering::SeqCst);
                threads.lock().unwrap().insert(std::thread::current().id());
                std::thread::sleep(Duration::from_millis(5));
                now.fetch_sub(1, Ordering::SeqCst);
                tx.send((i, turn)).unwrap();
            });
        }
        let turns: Vec<(usize, Turn)> = (0..20)
            .map(|_| {
                rx.recv_timeout(Duration::from_secs(10))
                    .expect("every job runs")
            })
            .collect();
        assert!(most.load(Ordering::SeqCst) <= 2, "at most two at once");
        assert!(
            threads.lock().unwrap().len() <= 2,
            "on the two searchers only"
        );
        assert!(turns.iter().all(|(_, t)| t.workers == 2));
        // The first to start saw the whole flood asked; the last, itself and at most the one
        // still running beside it.
        let first = turns.iter().find(|(i, _)| *i == 0).unwrap().1;
        let last = turns.iter().find(|(i, _)| *i == 19).unwrap().1;
        assert!(first.demand >= 19, "{first:?}");
        assert!(last.demand <= 2, "{last:?}");
        assert!(last.waited > first.waited, "{first:?} {last:?}");
        // The last job has sent its answer; its worker counts it done just after.
        let start = Instant::now();
        while pool.searches() > 0 {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "nothing left asked"
            );
            std::thread::yield_now();
        }
    }

    #[test]
    fn a_quick_decision_does_not_wait_behind_searches() {
        let pool = Thinkers::start(1);
        let (release, held) = mpsc::channel::<()>();
        let held = Arc::new(Mutex::new(held));
        for _ in 0..2 {
            let held = held.clone();
            pool.submit(Lane::Search, move |_| {
                let _ = held.lock().unwrap().recv();
            });
        }
        let (tx, rx) = mpsc::channel();
        pool.submit(Lane::Quick, move |turn| tx.send(turn).unwrap());
        let turn = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the quick decision is made while both searches hold the searcher");
        assert_eq!((turn.demand, turn.workers), (1, 1));
        assert_eq!(pool.searches(), 2, "one searching, one waiting");
        release.send(()).unwrap();
        release.send(()).unwrap();
    }
}
