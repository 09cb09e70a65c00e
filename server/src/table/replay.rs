//! Rebuilding a table from what is stored (at start, and after a failed write or a panic),
//! and supervising its actor.
//!
//! [`dealt`] and [`apply_stored`] are the one way a stored table's game is rebuilt: the table
//! here, 托管's players, the events reading a board's result and every referee command start
//! from its header and re-apply its log through them, so they all run the game the table ran.

use protocol::Words;
use rules::{Engine, Explain};

use super::*;

/// The game a stored table's header deals, before any action.
#[derive(Clone, Debug)]
pub struct Dealt<G> {
    pub engine: G,
    /// What the director fixed, the table's own clock and its computers' level.
    pub fixed: DealFixed,
    /// What a referee should know about the rules it was dealt under, none of them a fault:
    /// the ruleset's options changed since the table was made (it runs under the recorded
    /// ones), this build has no ruleset of that name, the recorded options do not read.
    pub notes: Vec<Words>,
}

/// Deals the game of a stored header as its table dealt it: the board re-dealt from the seed
/// (the deal algorithm must be this build's) with what the director fixed, under the ruleset
/// options **recorded in the header** (what was enforced then, not what this build's ruleset of
/// that name says now), with the table's own clock (`play_seconds`). Why it cannot, in both
/// languages.
pub fn dealt<G: TableGame>(h: &TableHeader) -> Result<Dealt<G>, Words> {
    if h.deal_algorithm != rules::deal::ALGORITHM {
        return Err(Words::new(
            format!(
                "这张桌的牌用「{}」发出，本程序用「{}」：无法重新发牌",
                h.deal_algorithm,
                rules::deal::ALGORITHM
            ),
            format!(
                "this table was dealt with {:?}; this build deals with {:?} and cannot re-deal it",
                h.deal_algorithm,
                rules::deal::ALGORITHM
            ),
        ));
    }
    let seed = rules::deal::Seed::from_hex(&h.seed).map_err(|e| Words::explain(&e))?;
    let fixed = DealFixed::from_json(&h.fixed)
        .map_err(|e| Words::new(format!("定级定主记录读不懂：{e}"), e))?;
    let (rules, notes) = recorded_rules::<G>(h)?;
    let engine = G::deal(rules, &seed, h.board, &fixed).map_err(|r| r.words())?;
    Ok(Dealt {
        engine,
        fixed,
        notes,
    })
}

/// The rules a header recorded: its options if they read, else this build's ruleset of that
/// name. A difference between the two is a note.
fn recorded_rules<G: TableGame>(h: &TableHeader) -> Result<(G::Rules, Vec<Words>), Words> {
    let recorded: Option<G::Rules> = serde_json::from_str(&h.options).ok();
    let named = G::ruleset(&h.ruleset);
    let mut notes = Vec::new();
    let rules = match (recorded, named) {
        (Some(r), Ok(n)) => {
            if r != n {
                notes.push(Words::new(
                    format!(
                        "规则「{}」的选项自这张桌以来有变化：按记录的选项复盘",
                        h.ruleset
                    ),
                    format!(
                        "the options of ruleset {:?} changed since this table: replayed under the recorded options",
                        h.ruleset
                    ),
                ));
            }
            r
        }
        (Some(r), Err(_)) => {
            notes.push(Words::new(
                format!("本程序没有规则「{}」：按记录的选项复盘", h.ruleset),
                format!(
                    "this build has no ruleset {:?}: replayed under the recorded options",
                    h.ruleset
                ),
            ));
            r
        }
        (None, Ok(n)) => {
            if h.options.trim() != "{}" {
                notes.push(Words::new(
                    "记录的规则选项读不懂：按本程序同名规则复盘",
                    "the recorded options do not read: replayed under this build's ruleset of that name",
                ));
            }
            n
        }
        (None, Err(unknown)) => return Err(unknown.words()),
    };
    Ok((rules, notes))
}

/// One stored entry applied again: its action as the engine reads it, and what it did.
#[derive(Clone, Debug)]
pub struct Applied<G: Engine> {
    pub action: G::Action,
    pub events: Vec<G::Event>,
}

/// Why a stored entry does not apply again.
#[derive(Clone, Debug)]
pub enum EntryFault<E> {
    /// Its action is not an action of this game: what the reader says.
    Unreadable(String),
    /// The engine refuses it: the chain holds, so it was written so, or the rules changed.
    Refused(E),
}

impl<E: Explain> std::fmt::Display for EntryFault<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EntryFault::Unreadable(err) => write!(f, "the action does not read: {err}"),
            EntryFault::Refused(err) => {
                write!(f, "refused on replay: {} [{}]", err.en(), err.code())
            }
        }
    }
}

/// Applies one stored entry to `engine` as it was applied live: with its seat and its actor.
pub fn apply_stored<G: TableGame>(
    engine: &mut G,
    e: &LogEntry,
) -> Result<Applied<G>, EntryFault<G::Error>> {
    let action: G::Action =
        serde_json::from_str(&e.action).map_err(|err| EntryFault::Unreadable(err.to_string()))?;
    let events = engine
        .apply(e.seat, e.actor, action.clone())
        .map_err(EntryFault::Refused)?;
    Ok(Applied { action, events })
}

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
    let mut records: Vec<SeatRecord> = (0..n)
        .map(|seat| SeatRecord {
            seat,
            name: None,
            token_hash: None,
            bot: false,
        })
        .collect();
    for s in seats {
        if s.seat < n {
            let i = s.seat;
            records[i] = s;
        }
    }
    let bot_seats: Vec<bool> = records.iter().map(|s| s.bot).collect();
    let (mut computers, thoughts) =
        computer::Computers::<G>::new(fixed.bot_level(), &bot_seats, header.seed.clone());
    computers.observe(&engine);
    let mut history = VecDeque::with_capacity(HISTORY);
    let mut ids = IdCache::default();
    for e in &log {
        let events = apply_stored(&mut engine, e)
            .map_err(|f| format!("table {id}: entry {}: {f}", e.seq))?
            .events;
        // The players remember the game as if they had been there all along.
        computers.observe(&engine);
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
    let now = Instant::now();
    let all_taken = records.iter().all(|s| s.bot || s.name.is_some());
    let state = if stored_state == TableState::Closed {
        TableState::Closed
    } else if engine.is_over() {
        TableState::Over
    } else if !log.is_empty() || all_taken {
        TableState::Playing
    } else {
        TableState::Waiting
    };
    let started = match log.first() {
        Some(first) => Some(
            now.checked_sub(Duration::from_millis(
                store::now_ms().saturating_sub(first.time_ms),
            ))
            .unwrap_or(now),
        ),
        None if state == TableState::Playing => Some(now),
        None => None,
    };
    let (tx, rx) = mpsc::channel(64);
    let placeholder = TableSummary {
        id: id.clone(),
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
    };
    let (summary, summary_rx) = watch::channel(placeholder);
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

/// How an actor's loop ended.
pub(super) enum Ending {
    /// Closed or stopped: it leaves the registry.
    Done,
    /// A write failed: it is rebuilt from its log.
    Broken,
}

/// Runs a table's actor; when it ends, takes it out of the registry, or, when a write failed
/// or the actor panicked, rebuilds it from its log (with backoff while the store keeps
/// failing, e.g. a full disk). Meanwhile the old handle answers "retry" (close 4503), so pages
/// keep reconnecting instead of taking the table for gone.
pub(super) async fn supervise<G: TableGame>(
    table: Box<Table<G>>,
    rx: mpsc::Receiver<Box<Command>>,
    handle: TableHandle,
) {
    use futures_util::FutureExt;
    let deps = table.deps.clone();
    // The table stays in its box: `run` takes the box, so its future (inline in this task)
    // holds a pointer, not the table (an async fn keeps its argument and the moved local
    // apart: a table taken by value was held twice for its whole life).
    let ending = std::panic::AssertUnwindSafe(Table::run(table, rx))
        .catch_unwind()
        .await
        .unwrap_or_else(|_| {
            tracing::error!("the table's actor panicked; rebuilding it from its log");
            Ending::Broken
        });
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
    handle.rebuilding.store(true, Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;
    use rules::shengji::Board;

    fn header(fixed: &DealFixed, options: &str) -> TableHeader {
        let seed = rules::deal::Seed([7; 32]);
        TableHeader {
            id: "123456".into(),
            game: Board::GAME.into(),
            ruleset: Board::DEFAULT_RULESET.into(),
            options: options.into(),
            deal_algorithm: rules::deal::ALGORITHM.into(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            board: 2,
            fixed: fixed.to_json(),
            created_ms: 0,
        }
    }

    #[test]
    fn a_stored_header_deals_the_game_its_table_ran() {
        let today = Board::options(Board::DEFAULT_RULESET);
        // The table's own clock, and what the director fixed.
        let fixed = DealFixed {
            level: Some("9".into()),
            play_seconds: Some(60),
            ..DealFixed::default()
        };
        let d = dealt::<Board>(&header(&fixed, &today)).unwrap();
        assert_eq!(d.engine.rules().play_seconds, 60);
        assert_eq!(d.engine.order().level().symbol(), "9");
        assert_eq!(d.fixed, fixed);
        assert!(d.notes.is_empty(), "{:?}", d.notes);
        let plain = dealt::<Board>(&header(&DealFixed::default(), &today)).unwrap();
        assert_eq!(
            plain.engine.rules().play_seconds,
            Board::ruleset(Board::DEFAULT_RULESET).unwrap().play_seconds
        );
        // The options recorded, not this build's: a changed ruleset is a note.
        let mut then = Board::ruleset(Board::DEFAULT_RULESET).unwrap();
        then.throw_penalty_per_card += 5;
        let options = serde_json::to_string(&then).unwrap();
        let d = dealt::<Board>(&header(&DealFixed::default(), &options)).unwrap();
        assert_eq!(d.engine.rules(), &then);
        assert!(d.notes[0].en.contains("changed since this table"));
        // 够级's clock too.
        let mut h = header(&DealFixed::default(), "{}");
        h.game = rules::gouji::Game::GAME.into();
        h.ruleset = rules::gouji::Game::DEFAULT_RULESET.into();
        h.options = rules::gouji::Game::options(&h.ruleset);
        h.fixed = DealFixed {
            play_seconds: Some(45),
            ..DealFixed::default()
        }
        .to_json();
        let d = dealt::<rules::gouji::Game>(&h).unwrap();
        assert_eq!(d.engine.ruleset().move_seconds, 45);
        // Another deal algorithm cannot be re-dealt.
        let mut h = header(&DealFixed::default(), &today);
        h.deal_algorithm = "paiju-deal-0".into();
        assert!(dealt::<Board>(&h).unwrap_err().en.contains("paiju-deal-0"));
    }
}
