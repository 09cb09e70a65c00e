//! 公平竞赛分析 (`paiju fairplay --event ID`, and the console's section): which pairs of an 80分
//! event — which teams of a 够级 event — play as if they saw their partner's (teammates') cards.
//! Every play a side made itself at the event's tables is scored ([`score`]) and the sides
//! ranked against the field: in 80分 board by board, against the pairs that played the same
//! cards in the same direction; in 够级 game by game, against every other team that played
//! that game of the round (the final deals one game to its three tables; a knockout match's
//! deals are its own, so there the field shares the moment, not the cards). Computer sides are
//! part of that field, and ranked too. A figure for the referee, never a verdict (seed 000
//! item 10: the referee decides). docs/fairplay.md says how to read it.
//!
//! It reads the store only (a copy, or a live node's database: never the tables' actors), one
//! table after another on worker threads; a table's evidence once found is kept
//! ([`Progress`]), so a stopped analysis resumes where it was.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use bots::fairplay::{rank, Side};
use serde::{Deserialize, Serialize};
use tournament::competition::teams::Teams;
use tournament::competition::Duplicate;
use tournament::Direction;

use crate::store::{self, CompetitionStore, Store};

mod report;
mod score;

pub use report::{render, Decision, Format, PairLine, Report, SideKey, TableEvidence};

/// How many decisions a pair's line names as the ones that drive its figure.
pub const DRIVERS: usize = 5;

/// Where one of an event's tables was played — board `board` (80分), game `board` of the
/// round's match (够级) — and by whom: the side at the even seats (N–S; team A), then the odd
/// ones (`None`: a phantom).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Sitting {
    round: u32,
    table: u32,
    board: u32,
    sides: [Option<SideKey>; 2],
}

/// The event's tables by the id of each.
type Sittings = BTreeMap<String, Sitting>;

/// Which game an event plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Shengji,
    Gouji,
}

/// An event read for the analysis.
pub struct Event {
    pub id: String,
    pub name: String,
    kind: Kind,
    sittings: Sittings,
    /// Each side's players' names, and whether it is a computer side.
    entrants: BTreeMap<SideKey, (Vec<String>, bool)>,
}

impl Event {
    /// Reads event `id` from its stored log.
    pub fn read(events: &mut dyn CompetitionStore, id: &str) -> Result<Event, String> {
        let stored = events
            .competition(id)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no event {id}"))?;
        match stored.header.game.as_str() {
            tournament::competition::duplicate::GAME => Ok(Event::of_duplicate(
                id,
                &store::replayed::<Duplicate>(&stored)?,
            )),
            tournament::competition::teams::GAME => {
                Ok(Event::of_teams(id, &store::replayed::<Teams>(&stored)?))
            }
            other => Err(format!(
                "比赛 {id} 的游戏 {other} 不能分析 (event {id} plays {other}: not analysed)"
            )),
        }
    }

    fn of_duplicate(id: &str, duplicate: &Duplicate) -> Event {
        let mut sittings = Sittings::new();
        let mut entrants = BTreeMap::new();
        for (&(round, table, board), play) in &duplicate.plays {
            let (Some(t), Some(plan)) = (&play.table_id, duplicate.table_plan(round, table)) else {
                continue;
            };
            let mut pair = |direction: Direction, number: Option<u32>| {
                let key = SideKey::Pair {
                    direction,
                    number: number?,
                };
                let p = duplicate.pair(direction, number?);
                entrants.insert(
                    key.clone(),
                    (
                        p.map(|p| p.names.clone()).unwrap_or_default(),
                        p.is_some_and(|p| p.bot),
                    ),
                );
                Some(key)
            };
            let sides = [pair(Direction::NS, plan.ns), pair(Direction::EW, plan.ew)];
            sittings.insert(
                t.clone(),
                Sitting {
                    round,
                    table,
                    board,
                    sides,
                },
            );
        }
        Event {
            id: id.to_string(),
            name: duplicate.common.spec.name.clone(),
            kind: Kind::Shengji,
            sittings,
            entrants,
        }
    }

    fn of_teams(id: &str, teams: &Teams) -> Event {
        let mut sittings = Sittings::new();
        let mut entrants = BTreeMap::new();
        for stage in &teams.stages {
            let seatings = teams.seatings(stage.round);
            for (&(table, game), slot) in &stage.games {
                let Some(t) = &slot.table_id else { continue };
                let Some((seating, _)) = seatings
                    .iter()
                    .find(|(s, _)| s.table == table && s.game == game)
                else {
                    continue;
                };
                let mut team = |name: &str| {
                    let t = teams.team(name)?;
                    let key = SideKey::Team {
                        team: t.name.clone(),
                        number: t.number,
                    };
                    entrants.insert(key.clone(), (t.names.clone(), t.bot));
                    Some(key)
                };
                let sides = [team(&seating.a), team(&seating.b)];
                sittings.insert(
                    t.clone(),
                    Sitting {
                        round: stage.round,
                        table,
                        board: game,
                        sides,
                    },
                );
            }
        }
        Event {
            id: id.to_string(),
            name: teams.common.spec.name.clone(),
            kind: Kind::Gouji,
            sittings,
            entrants,
        }
    }

    /// What a table is, for the progress line: a board (80分) or a game (够级).
    pub fn unit(&self) -> &'static str {
        match self.kind {
            Kind::Shengji => "副 boards",
            Kind::Gouji => "局 games",
        }
    }

    /// The tables to analyse, in the event's order (round, table, board).
    pub fn tables(&self) -> Vec<String> {
        let mut ids: Vec<(&Sitting, &String)> =
            self.sittings.iter().map(|(id, s)| (s, id)).collect();
        ids.sort();
        ids.into_iter().map(|(_, id)| id.clone()).collect()
    }

    /// Scores every play a side made itself at one stored table.
    pub fn score_table(&self, table: &store::StoredTable) -> TableEvidence {
        let Some(s) = self.sittings.get(&table.header.id) else {
            return TableEvidence::fault("not a table of this event");
        };
        match self.kind {
            Kind::Shengji => score::shengji(table, s.round, s.board),
            Kind::Gouji => score::gouji(table, s.round, s.board),
        }
    }

    /// Where a decision of a sitting is compared with the field: the group of sides that
    /// played it alike, and the board. 80分: the pair's direction, the board. 够级: every team,
    /// the round's game.
    fn field_of(&self, s: &Sitting, seat: usize) -> (u8, u32) {
        match self.kind {
            Kind::Shengji => ((seat % 2) as u8, s.board),
            Kind::Gouji => (0, s.round * 1000 + s.board),
        }
    }

    /// The sides ranked from the tables' evidence (`found`: table id → evidence).
    pub fn report(&self, found: &BTreeMap<String, TableEvidence>, threshold: f64) -> Report {
        let mut per_side: BTreeMap<SideKey, (Side<SideKey>, Vec<Decision>)> = BTreeMap::new();
        let mut faults = Vec::new();
        let mut decisions = 0;
        for (id, t) in found {
            if let Some(f) = &t.fault {
                faults.push((id.clone(), f.clone()));
            }
            let Some(sitting) = self.sittings.get(id) else {
                continue;
            };
            for d in &t.decisions {
                // The even seats are N–S (team A), the odd ones E–W (team B).
                let Some(key) = &sitting.sides[d.evidence.seat % 2] else {
                    continue;
                };
                let (group, board) = self.field_of(sitting, d.evidence.seat);
                let entry = per_side.entry(key.clone()).or_insert_with(|| {
                    let side = Side {
                        key: key.clone(),
                        group,
                        boards: BTreeMap::new(),
                    };
                    (side, Vec::new())
                });
                entry.0.boards.entry(board).or_default().add(&d.evidence);
                entry.1.push(d.clone());
                decisions += 1;
            }
        }
        let sides: Vec<Side<SideKey>> = per_side.values().map(|(side, _)| side.clone()).collect();
        let pairs = rank(&sides, threshold)
            .into_iter()
            .map(|st| {
                let (names, bot) = self.entrants.get(&st.side).cloned().unwrap_or_default();
                let mut drivers = per_side
                    .get(&st.side)
                    .map(|(_, d)| d.clone())
                    .unwrap_or_default();
                // The plays its partner's hand explains best beyond its own view.
                let lift = |d: &Decision| d.evidence.with_partner - d.evidence.expected;
                drivers.retain(|d| lift(d) > 0.0);
                drivers.sort_by(|a, b| lift(b).total_cmp(&lift(a)));
                drivers.truncate(DRIVERS);
                PairLine {
                    side: st.side,
                    names,
                    bot,
                    tally: st.tally,
                    z: st.z,
                    z_partner: st.z_partner,
                    z_field: st.z_field,
                    z_points: st.z_points,
                    field_boards: st.field_boards,
                    flagged: st.flagged,
                    drivers,
                }
            })
            .collect();
        Report {
            event: self.id.clone(),
            name: self.name.clone(),
            game: match self.kind {
                Kind::Shengji => "shengji",
                Kind::Gouji => "gouji",
            },
            threshold,
            tables: found.values().filter(|t| t.fault.is_none()).count(),
            tables_played: self.sittings.len(),
            decisions,
            pairs,
            faults,
        }
    }
}

/// An analysis under way: the tables' evidence found so far (kept when stopped, so a new run
/// resumes), how many tables there are, and a stop flag.
#[derive(Default)]
pub struct Progress {
    pub found: Mutex<BTreeMap<String, TableEvidence>>,
    pub total: AtomicUsize,
    pub stop: AtomicBool,
}

impl Progress {
    pub fn done(&self) -> usize {
        self.found.lock().map_or(0, |f| f.len())
    }
}

/// Scores the event's tables not yet in `progress` on `threads` threads, reading each from
/// `open_tables()` (a store per thread); stops early when `progress.stop` is set. `tick` is
/// called after each table.
pub fn analyse(
    event: &Event,
    open_tables: &(dyn Fn() -> Result<Box<dyn Store>, String> + Sync),
    progress: &Progress,
    threads: usize,
    tick: &(dyn Fn(usize, usize) + Sync),
) -> Result<(), String> {
    let todo: Vec<String> = {
        let found = progress.found.lock().map_err(|_| "poisoned")?;
        event
            .tables()
            .into_iter()
            .filter(|id| !found.contains_key(id))
            .collect()
    };
    progress
        .total
        .store(event.sittings.len(), Ordering::Relaxed);
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut db = match open_tables() {
                    Ok(db) => db,
                    Err(e) => {
                        *failed.lock().expect("failed") = Some(e);
                        return;
                    }
                };
                loop {
                    if progress.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(id) = todo.get(i) else { return };
                    let scored = match db.table(id) {
                        Ok(Some(t)) => event.score_table(&t),
                        Ok(None) => TableEvidence::fault("not in the store"),
                        Err(e) => TableEvidence::fault(&e.to_string()),
                    };
                    let done = {
                        let mut found = progress.found.lock().expect("found");
                        found.insert(id.clone(), scored);
                        found.len()
                    };
                    tick(done, event.sittings.len());
                }
            });
        }
    });
    match failed.into_inner().ok().flatten() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `paiju fairplay --event ID`: the analysis, progress on standard error, the report on
/// standard output. `resume`: a file of tables already scored (JSON lines), read first and
/// added to as each table is done, so a run stopped (Ctrl-C) goes on where it was.
pub fn command(
    db: &Path,
    id: &str,
    format: Format,
    threshold: f64,
    threads: usize,
    resume: Option<&Path>,
) -> Result<(), String> {
    let name = db.to_string_lossy().to_string();
    let err = |e: store::StoreError| format!("{}: {e}", store::postgres::redact(&name));
    if !store::is_postgres_url(&name) && !db.exists() {
        return Err(format!("no database at {}", db.display()));
    }
    let mut events = store::open_competitions(&name).map_err(err)?;
    let event = Event::read(events.as_mut(), id)?;
    let progress = Progress::default();
    let journal = resume.map(|p| Journal::open(p, &progress)).transpose()?;
    let open = || store::open(&name, None).map_err(err);
    // On a terminal the progress line is redrawn; into a file, a line every tenth of the way.
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let tick = |done: usize, total: usize| {
        if let Some(j) = &journal {
            j.write_new(&progress);
        }
        if terminal {
            eprint!(
                "\r公平竞赛分析 fair-play analysis: {done}/{total} {}",
                event.unit()
            );
        } else if (done * 10 / total.max(1)) != ((done - 1) * 10 / total.max(1)) || done == total {
            eprintln!(
                "公平竞赛分析 fair-play analysis: {done}/{total} {}",
                event.unit()
            );
        }
    };
    analyse(&event, &open, &progress, threads, &tick)?;
    if terminal {
        eprintln!();
    }
    let found = progress.found.into_inner().map_err(|_| "poisoned")?;
    let report = event.report(&found, threshold);
    print!("{}", render(&report, format));
    Ok(())
}

/// The resume file: one JSON line `{"table": id, "evidence": …}` a table.
struct Journal {
    file: Mutex<(std::fs::File, std::collections::BTreeSet<String>)>,
}

#[derive(Serialize, Deserialize)]
struct JournalLine {
    table: String,
    evidence: TableEvidence,
}

impl Journal {
    fn open(path: &Path, progress: &Progress) -> Result<Journal, String> {
        let mut written = std::collections::BTreeSet::new();
        if let Ok(text) = std::fs::read_to_string(path) {
            let mut found = progress.found.lock().map_err(|_| "poisoned")?;
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                // A line cut by a stop mid-write is read as not done.
                if let Ok(l) = serde_json::from_str::<JournalLine>(line) {
                    written.insert(l.table.clone());
                    found.insert(l.table, l.evidence);
                }
            }
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Journal {
            file: Mutex::new((file, written)),
        })
    }

    fn write_new(&self, progress: &Progress) {
        use std::io::Write;
        let Ok(found) = progress.found.lock() else {
            return;
        };
        let Ok(mut guard) = self.file.lock() else {
            return;
        };
        let (file, written) = &mut *guard;
        for (id, t) in found.iter() {
            if written.contains(id) {
                continue;
            }
            let line = JournalLine {
                table: id.clone(),
                evidence: t.clone(),
            };
            if let Ok(text) = serde_json::to_string(&line) {
                let _ = writeln!(file, "{text}");
                written.insert(id.clone());
            }
        }
    }
}
