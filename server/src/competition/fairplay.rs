//! The console's 公平竞赛 section (`GET`/`POST /api/events/{id}/fairplay`, the director's):
//! the fair-play analysis of an event (80分 pairs, 够级 teams) (`referee::fairplay`), run on one background thread
//! off the tables — it reads the store, never a table's actor, and leaves the other core to
//! play — with its progress, stopped and resumed (a stopped run keeps every board it scored;
//! the next one starts from there), and its report once done. Runs live in this process: a
//! restart forgets them, and the next run starts afresh.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use crate::referee::fairplay::{analyse, Event, Progress, Report};
use crate::store;

/// The analyses of this node's events.
pub struct FairplayDesk {
    /// The `--db` value: where the tables and events are read.
    db: String,
    runs: Mutex<HashMap<String, Arc<Run>>>,
}

#[derive(Default)]
struct Run {
    progress: Progress,
    running: AtomicBool,
    outcome: Mutex<Option<Result<Report, String>>>,
}

/// What the console shows.
#[derive(Clone, Debug, Serialize)]
pub struct FairplayStatus {
    /// `idle` (never run), `running`, `stopped`, `done` or `failed`.
    pub state: &'static str,
    /// Boards scored, of the boards played.
    pub done: usize,
    pub total: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<Report>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl FairplayDesk {
    pub fn new(db: String) -> FairplayDesk {
        FairplayDesk {
            db,
            runs: Mutex::new(HashMap::new()),
        }
    }

    fn run(&self, id: &str) -> Arc<Run> {
        let mut runs = self.runs.lock().expect("runs");
        runs.entry(id.to_string()).or_default().clone()
    }

    pub fn status(&self, id: &str) -> FairplayStatus {
        let run = self.runs.lock().expect("runs").get(id).cloned();
        let Some(run) = run else {
            return FairplayStatus {
                state: "idle",
                done: 0,
                total: 0,
                report: None,
                error: None,
            };
        };
        let outcome = run.outcome.lock().expect("outcome").clone();
        let running = run.running.load(Ordering::Relaxed);
        let (state, report, error) = match (running, outcome) {
            (true, _) => ("running", None, None),
            (false, Some(Ok(r))) => ("done", Some(r), None),
            (false, Some(Err(e))) => ("failed", None, Some(e)),
            (false, None) => ("stopped", None, None),
        };
        FairplayStatus {
            state,
            done: run.progress.done(),
            total: run.progress.total.load(Ordering::Relaxed),
            report,
            error,
        }
    }

    /// Starts (or resumes) the analysis of event `id`, unless it runs already.
    pub fn start(self: &Arc<Self>, id: &str) -> FairplayStatus {
        let run = self.run(id);
        if run.running.swap(true, Ordering::SeqCst) {
            return self.status(id);
        }
        run.progress.stop.store(false, Ordering::SeqCst);
        *run.outcome.lock().expect("outcome") = None;
        let (desk, id_owned, job) = (self.clone(), id.to_string(), run.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("fairplay-{id}"))
            .spawn(move || {
                let outcome = desk.analyse(&id_owned, &job.progress);
                let stopped = job.progress.stop.load(Ordering::SeqCst);
                *job.outcome.lock().expect("outcome") = match outcome {
                    Ok(_) if stopped => None,
                    other => Some(other),
                };
                job.running.store(false, Ordering::SeqCst);
            });
        if let Err(e) = spawned {
            run.running.store(false, Ordering::SeqCst);
            *run.outcome.lock().expect("outcome") = Some(Err(e.to_string()));
        }
        self.status(id)
    }

    /// Asks a running analysis to stop after the board it is on (what it scored is kept).
    pub fn stop(&self, id: &str) -> FairplayStatus {
        if let Some(run) = self.runs.lock().expect("runs").get(id) {
            run.progress.stop.store(true, Ordering::SeqCst);
        }
        self.status(id)
    }

    fn analyse(&self, id: &str, progress: &Progress) -> Result<Report, String> {
        let err = |e: store::StoreError| format!("{}: {e}", store::postgres::redact(&self.db));
        let mut events = store::open_competitions(&self.db).map_err(err)?;
        let event = Event::read(events.as_mut(), id)?;
        drop(events);
        let open = || store::open(&self.db, None).map_err(err);
        // One worker: the tables keep the other core.
        analyse(&event, &open, progress, 1, &|_, _| {})?;
        let found = progress.found.lock().map_err(|_| "poisoned")?.clone();
        Ok(event.report(&found, bots::fairplay::THRESHOLD))
    }
}
