//! Starting a table's actor from what is stored (at start, and after a failed write or a
//! panic), and supervising it: a table whose actor ended broken is rebuilt from its log.

use super::replay::{apply_stored, dealt, Dealt};
use super::*;

/// Rebuilds (or starts) a table from what is stored and spawns its actor.
pub fn spawn<G: TableGame>(stored: StoredTable, deps: TableDeps) -> Result<TableHandle, String> {
    let StoredTable {
        header,
        state: stored_state,
        seats,
        log,
    } = stored;
    let id = header.id.clone();
    store::verify(&header, &log).map_err(|t| format!("table {id}: log tampered: {t}"))?;
    let Dealt {
        mut engine,
        fixed,
        notes,
    } = dealt::<G>(&header).map_err(|w| format!("table {id}: {}", w.en))?;
    for note in notes {
        tracing::info!(table = %id, "{}", note.en);
    }
    let n = engine.seats();
    let records = seat_records(n, seats);
    let bot_seats: Vec<bool> = records.iter().map(|s| s.bot).collect();
    let (mut computers, thoughts) =
        computer::Computers::<G>::new(fixed.bot_level(), &bot_seats, header.seed.clone());
    computers.observe(&engine);
    let Remembered { history, ids } = replay_log(&id, &mut engine, &mut computers, &log)?;
    let now = Instant::now();
    let state = state_at_start(stored_state, engine.is_over(), &log, &records);
    let started = started_at(&log, state, now);
    let (tx, rx) = mpsc::channel(64);
    let (summary, summary_rx) = watch::channel(placeholder(&header, state, &computers));
    // The result as the log left it, with the ruling that set it if that was the last entry.
    let ruling =
        log.last()
            .filter(|e| e.actor == Actor::Referee)
            .map(|e| tournament::competition::Ruling {
                table_seq: e.seq,
                reason: e.reason.clone().unwrap_or_default(),
            });
    let competing = fixed.competition.clone().map(|terms| {
        Box::new(Competing {
            terms,
            auto_moves: super::replay::auto_moves(&log, n),
            visits: watch::channel(Vec::new()).0,
            away_since: None,
        })
    });
    let tally = super::replay::tally(
        &engine,
        competing
            .as_ref()
            .map(|c| c.auto_moves.clone())
            .unwrap_or_default(),
    );
    let (result, result_rx) =
        watch::channel(
            engine
                .result()
                .map(|result| tournament::competition::TableReport {
                    result,
                    ruling,
                    tally,
                }),
        );
    let visits_rx = competing.as_ref().map(|c| c.visits.subscribe());
    let rebuilding = Arc::new(AtomicBool::new(false));
    let prev_hash = log
        .last()
        .map(|e| e.hash.clone())
        .unwrap_or_else(|| store::genesis(&header));
    // The ruleset's options (a kilobyte of JSON) are in the store and the chain; the table
    // never reads them, and would keep them for its whole life.
    let header = TableHeader {
        options: String::new(),
        ..header
    };
    let mut table = Table::<G> {
        id: id.clone(),
        prev_hash,
        header,
        engine,
        auto: vec![false; n],
        seats: records,
        seq: log.len() as u64,
        history,
        view_room: 2048,
        ids,
        asked: vec![None; n],
        subscribers: Vec::new(),
        state,
        started,
        clock: None,
        bot_at: None,
        computers,
        thoughts: Some(thoughts),
        idle_since: Some(now),
        broken: false,
        review: None,
        deps,
        summary,
        result,
        competing,
    };
    table.restart_clock();
    // A table of bots alone plays on with no one watching (and after a restart).
    table.schedule_bot();
    table.publish();
    let handle = TableHandle {
        id,
        game: G::GAME,
        tx,
        summary: summary_rx,
        result: result_rx,
        visits: visits_rx,
        rebuilding,
    };
    // Every log line of the actor carries the table's id and game.
    let span = tracing::info_span!("table", id = %handle.id, game = G::GAME);
    tokio::spawn(tracing::Instrument::instrument(
        supervise(Box::new(table), rx, handle.clone()),
        span,
    ));
    Ok(handle)
}

/// One record a seat, in seat order: the stored ones where they are, empty seats between
/// (a stored seat the table does not have is dropped).
fn seat_records(n: usize, stored: Vec<SeatRecord>) -> Vec<SeatRecord> {
    let mut records: Vec<SeatRecord> = (0..n)
        .map(|seat| SeatRecord {
            seat,
            name: None,
            token_hash: None,
            bot: false,
        })
        .collect();
    for s in stored {
        if s.seat < n {
            let i = s.seat;
            records[i] = s;
        }
    }
    records
}

/// What a table remembers of its log besides the engine's state.
struct Remembered<E> {
    /// The last [`HISTORY`] entries, for catching up reconnecting clients.
    history: VecDeque<Entry<E>>,
    /// What each action id in the log was told, so a resent id is never applied twice, even
    /// across a crash.
    ids: IdCache,
}

/// The log re-applied to the engine as dealt, the computers watching.
fn replay_log<G: TableGame>(
    id: &str,
    engine: &mut G,
    computers: &mut computer::Computers<G>,
    log: &[LogEntry],
) -> Result<Remembered<G::Event>, String> {
    let mut history = VecDeque::with_capacity(HISTORY);
    let mut ids = IdCache::default();
    for e in log {
        let events = apply_stored(engine, e)
            .map_err(|f| format!("table {id}: entry {}: {f}", e.seq))?
            .events;
        // The players remember the game as if they had been there all along.
        computers.observe(engine);
        if let Some(cid) = e.client_id {
            let key = match (&e.occupant, e.actor) {
                (_, Actor::Referee) => REFEREE_KEY.to_string(),
                (Some(o), _) => o.clone(),
                // Entries from before occupants were logged: the seat's number stands in.
                (None, _) => format!("seat {}", e.seat),
            };
            ids.remember(key, cid, Told::Acked(e.seq));
        }
        if history.len() == HISTORY {
            history.pop_front();
        }
        history.push_back(Entry::new(e.seat, e.actor, e.reason.clone(), events));
    }
    Ok(Remembered { history, ids })
}

/// The table's state once rebuilt: closed stays closed; then over when the game is, playing
/// once anything was played or every seat is taken, else waiting.
fn state_at_start(
    stored: TableState,
    over: bool,
    log: &[LogEntry],
    records: &[SeatRecord],
) -> TableState {
    let all_taken = records.iter().all(|s| s.bot || s.name.is_some());
    if stored == TableState::Closed {
        TableState::Closed
    } else if over {
        TableState::Over
    } else if !log.is_empty() || all_taken {
        TableState::Playing
    } else {
        TableState::Waiting
    }
}

/// When play began, on this process's clock: the first entry's time (moved back by how long
/// ago it was), now for a table playing with nothing logged yet, none before play.
fn started_at(log: &[LogEntry], state: TableState, now: Instant) -> Option<Instant> {
    match log.first() {
        Some(first) => Some(
            now.checked_sub(Duration::from_millis(
                store::now_ms().saturating_sub(first.time_ms),
            ))
            .unwrap_or(now),
        ),
        None if state == TableState::Playing => Some(now),
        None => None,
    }
}

/// The summary the table starts with, until its first [`Table::publish`].
fn placeholder<G: TableGame>(
    header: &TableHeader,
    state: TableState,
    computers: &computer::Computers<G>,
) -> TableSummary {
    TableSummary {
        id: header.id.clone(),
        game: header.game.clone(),
        ruleset: header.ruleset.clone(),
        board: header.board,
        state,
        seats: vec![],
        spectators: 0,
        seq: 0,
        seed_commitment: header.seed_commitment.clone(),
        deal_algorithm: header.deal_algorithm.clone(),
        bot_level: computers.level.name().to_string(),
        seed: None,
        head_hash: None,
        node: None,
    }
}

/// Runs a table's actor; when it ends, takes it out of the registry, or, when a write failed
/// or the actor panicked, rebuilds it from its log (with backoff while the store keeps
/// failing, e.g. a full disk). Meanwhile the old handle answers "retry" (close 4503), so pages
/// keep reconnecting instead of taking the table for gone.
pub(super) async fn supervise<G: TableGame>(
    table: Box<Table<G>>,
    mut rx: mpsc::Receiver<Box<Command>>,
    handle: TableHandle,
) {
    use futures_util::FutureExt;
    let deps = table.deps.clone();
    // The table stays in its box: `run` takes the box, so its future (inline in this task)
    // holds a pointer, not the table (an async fn keeps its argument and the moved local
    // apart: a table taken by value was held twice for its whole life).
    // The receiver stays here, not in `run`: its drop is what tells the table's connections
    // that the actor has gone, and they read `rebuilding` then to choose their close (4503 or
    // 1000), so the flag must be set before it drops.
    let ending = std::panic::AssertUnwindSafe(Table::run(table, &mut rx))
        .catch_unwind()
        .await
        .unwrap_or_else(|_| {
            tracing::error!("the table's actor panicked; rebuilding it from its log");
            Ending::Broken
        });
    if matches!(ending, Ending::Broken) {
        handle.rebuilding.store(true, Ordering::Relaxed);
    }
    drop(rx);
    match ending {
        Ending::Done => {
            let mine = |h: &TableHandle| h.summary.same_channel(&handle.summary);
            deps.registry.remove_if(&handle.id, |_, h| mine(h));
        }
        // Boxed: inline, the rebuild's futures (the store's load, the lease) would be part of
        // this task's allocation for the table's whole life.
        Ending::Broken => Box::pin(rebuild::<G>(deps, handle)).await,
    }
}

/// After a failed write or a panic: rebuilds the table from its log when the store and the
/// lease allow, retrying with backoff; or leaves the registry if the table is gone.
async fn rebuild<G: TableGame>(deps: TableDeps, handle: TableHandle) {
    let mine = |h: &TableHandle| h.summary.same_channel(&handle.summary);
    let mut wait = Duration::from_millis(200);
    loop {
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_secs(30));
        // Another table took the id meanwhile (never, but cheap to check), or the
        // server is stopping.
        if !deps.registry.get(&handle.id).is_some_and(|h| mine(&h)) {
            return;
        }
        // Past one machine: rebuilt here only under this node's lease (a write fails
        // when another node took the table over).
        if let Some(leases) = &deps.leases {
            match leases.acquire(&handle.id).await {
                Ok(true) => {}
                Ok(false) => {
                    tracing::warn!("another node serves the table now: not rebuilt here");
                    deps.registry.remove_if(&handle.id, |_, h| mine(h));
                    return;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "lease not checked yet; retrying");
                    continue;
                }
            }
        }
        match deps.journal.load(&handle.id).await {
            Ok(Some(stored)) => match spawn::<G>(stored, deps.clone()) {
                Ok(fresh) => {
                    tracing::info!("table rebuilt from its log");
                    deps.metrics.rebuild();
                    deps.registry.insert(handle.id.clone(), fresh);
                    return;
                }
                Err(e) => tracing::warn!(error = %e, "table not rebuilt; retrying"),
            },
            Ok(None) => {
                deps.registry.remove_if(&handle.id, |_, h| mine(h));
                return;
            }
            Err(e) => tracing::warn!(error = %e, "table not rebuilt yet; retrying"),
        }
    }
}
