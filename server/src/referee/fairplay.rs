//! 公平竞赛分析 (`paiju fairplay --event ID`, and the console's section): which pairs of an 80分
//! event play as if they saw their partner's cards. Every play a pair made itself (a player's,
//! or a computer pair's own; not 托管's, not the clock's) at the event's tables is scored by
//! `bots::fairplay` — was it among the best with the true hands, and how often would it be on
//! the deals the seat's own view allows — and the pairs ranked against the field: board by
//! board, against the pairs that played the same cards in the same direction (computer pairs
//! are part of that field, and ranked too). A figure for the referee, never a verdict (seed 000 item 10: the
//! referee decides). docs/fairplay.md says how to read it.
//!
//! It reads the store only (a copy, or a live node's database: never the tables' actors), one
//! table after another on worker threads; a table's evidence once found is kept
//! ([`Progress`]), so a stopped analysis resumes where it was.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use bots::fairplay::{self, rank, Evidence, Side, Tally};
use rules::shengji::{Action, Board};
use rules::Actor;
use serde::{Deserialize, Serialize};
use tournament::competition::duplicate::DuplicateAction;
use tournament::competition::{Competition, Duplicate};
use tournament::Direction;

use crate::store::{self, CompetitionStore, Store, StoredTable};
use crate::table::replay::{apply_stored, dealt};

/// How many decisions a pair's line names as the ones that drive its figure.
pub const DRIVERS: usize = 5;

/// One scored decision, where to find it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub table_id: String,
    /// The log entry of the play (the replay page's step).
    pub seq: u64,
    pub round: u32,
    pub board: u32,
    pub evidence: Evidence,
}

/// One board's table, scored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TableEvidence {
    pub decisions: Vec<Decision>,
    /// Why the table could not be read, if it could not (it is left out).
    pub fault: Option<String>,
}

/// A pair's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairLine {
    pub direction: Direction,
    pub number: u32,
    pub names: Vec<String>,
    pub bot: bool,
    pub tally: Tally,
    /// Against the model of honest play.
    pub z: Option<f64>,
    /// The figure flagged: the fit of its plays to its partner's true hand beyond its own view,
    /// against the field on the same boards (`bots::fairplay::Standing::z_partner`).
    pub z_partner: Option<f64>,
    /// The hits, against the field on the same boards.
    pub z_field: Option<f64>,
    /// The points saved, against the field.
    pub z_points: Option<f64>,
    /// Boards compared with the field.
    pub field_boards: u32,
    pub flagged: bool,
    /// The decisions that weigh most: the plays whose chance of being the best rises most when
    /// the partner's hand is known (what a pair that saw it would play).
    pub drivers: Vec<Decision>,
}

/// The analysis of an event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub event: String,
    pub name: String,
    pub threshold: f64,
    /// Tables (boards) analysed, of those played.
    pub tables: usize,
    pub tables_played: usize,
    pub decisions: u32,
    /// Pairs, most suspicious first.
    pub pairs: Vec<PairLine>,
    /// Tables left out, and why.
    pub faults: Vec<(String, String)>,
}

/// Where one of an event's boards was played, and by whom (`None`: a phantom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Sitting {
    round: u32,
    table: u32,
    board: u32,
    ns: Option<u32>,
    ew: Option<u32>,
}

/// The event's boards by the id of the table that dealt each.
type Sittings = BTreeMap<String, Sitting>;

/// A pair: its direction and number.
type PairKey = (Direction, u32);

/// An event read for the analysis.
pub struct Event {
    pub id: String,
    pub duplicate: Duplicate,
    sittings: Sittings,
}

impl Event {
    /// Reads event `id` from its stored log (80分 only).
    pub fn read(events: &mut dyn CompetitionStore, id: &str) -> Result<Event, String> {
        let stored = events
            .competition(id)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no event {id}"))?;
        if stored.header.game != tournament::competition::duplicate::GAME {
            return Err(format!(
                "比赛 {id} 打的是{}：公平竞赛分析目前只看80分的比赛 (event {id} plays {}: the fair-play analysis reads 80分 events only; 够级 is not analysed yet, docs/fairplay.md)",
                if stored.header.game == tournament::competition::teams::GAME {
                    "够级"
                } else {
                    &stored.header.game
                },
                stored.header.game
            ));
        }
        store::verify_competition(&stored.header, &stored.log)
            .map_err(|t| format!("event {id}: log tampered: {t}"))?;
        let actions = stored
            .log
            .iter()
            .map(|e| {
                serde_json::from_str::<DuplicateAction>(&e.action)
                    .map(|a| (e.seq, a))
                    .map_err(|err| format!("event {id}: entry {}: {err}", e.seq))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let duplicate = Duplicate::replay(id, &actions)
            .map_err(|(seq, e)| format!("event {id}: entry {seq} refused on replay: {e:?}"))?;
        let mut sittings = Sittings::new();
        for (&(round, table, board), play) in &duplicate.plays {
            let (Some(t), Some(plan)) = (&play.table_id, duplicate.table_plan(round, table)) else {
                continue;
            };
            let sitting = Sitting {
                round,
                table,
                board,
                ns: plan.ns,
                ew: plan.ew,
            };
            sittings.insert(t.clone(), sitting);
        }
        Ok(Event {
            id: id.to_string(),
            duplicate,
            sittings,
        })
    }

    /// The tables to analyse, in the event's order (round, table, board).
    pub fn tables(&self) -> Vec<String> {
        let mut ids: Vec<(&Sitting, &String)> =
            self.sittings.iter().map(|(id, s)| (s, id)).collect();
        ids.sort();
        ids.into_iter().map(|(_, id)| id.clone()).collect()
    }

    /// Scores every play a player made at one stored table.
    pub fn score_table(&self, table: &StoredTable) -> TableEvidence {
        let Some(&Sitting { round, board, .. }) = self.sittings.get(&table.header.id) else {
            return TableEvidence::fault("not a table of this event");
        };
        if let Err(t) = store::verify(&table.header, &table.log) {
            return TableEvidence::fault(&format!("log tampered: {t}"));
        }
        let mut game = match dealt::<Board>(&table.header) {
            Ok(d) => d.engine,
            Err(w) => return TableEvidence::fault(&w.en),
        };
        let mut out = TableEvidence::default();
        for e in &table.log {
            if matches!(e.actor, Actor::Player | Actor::Bot) {
                if let Ok(action) = serde_json::from_str::<Action>(&e.action) {
                    let seed = bots::shengji::all_seeing::seed_of(
                        &game,
                        rules::shengji::Seat::from_index(e.seat),
                    );
                    if let Some(evidence) = bots::shengji::all_seeing::evidence(
                        &game,
                        &action,
                        fairplay::SCREEN,
                        fairplay::WORLDS,
                        seed,
                    ) {
                        out.decisions.push(Decision {
                            table_id: table.header.id.clone(),
                            seq: e.seq,
                            round,
                            board,
                            evidence,
                        });
                    }
                }
            }
            if let Err(f) = apply_stored(&mut game, e) {
                let why = match f {
                    crate::table::replay::EntryFault::Unreadable(s) => s,
                    crate::table::replay::EntryFault::Refused(r) => format!("{r:?}"),
                };
                out.fault = Some(format!("entry {}: {why}", e.seq));
                break;
            }
        }
        out
    }

    /// The pairs ranked from the tables' evidence (`found`: table id → evidence).
    pub fn report(
        &self,
        name: &str,
        found: &BTreeMap<String, TableEvidence>,
        threshold: f64,
    ) -> Report {
        let mut per_pair: BTreeMap<PairKey, (Side<PairKey>, Vec<Decision>)> = BTreeMap::new();
        let mut faults = Vec::new();
        let mut decisions = 0;
        for (id, t) in found {
            if let Some(f) = &t.fault {
                faults.push((id.clone(), f.clone()));
            }
            let Some(&Sitting { ns, ew, .. }) = self.sittings.get(id) else {
                continue;
            };
            for d in &t.decisions {
                let (direction, number) = if d.evidence.seat % 2 == 0 {
                    (Direction::NS, ns)
                } else {
                    (Direction::EW, ew)
                };
                let Some(number) = number else { continue };
                let key = (direction, number);
                let entry = per_pair.entry(key).or_insert_with(|| {
                    let side = Side {
                        key,
                        group: u8::from(direction == Direction::EW),
                        boards: BTreeMap::new(),
                    };
                    (side, Vec::new())
                });
                entry.0.boards.entry(d.board).or_default().add(&d.evidence);
                entry.1.push(d.clone());
                decisions += 1;
            }
        }
        let sides: Vec<Side<PairKey>> = per_pair.values().map(|(side, _)| side.clone()).collect();
        let pairs = rank(&sides, threshold)
            .into_iter()
            .map(|st| {
                let (direction, number) = st.side;
                let pair = self.duplicate.pair(direction, number);
                let mut drivers = per_pair
                    .get(&st.side)
                    .map(|(_, d)| d.clone())
                    .unwrap_or_default();
                // The plays its partner's hand explains best beyond its own view.
                let lift = |d: &Decision| d.evidence.with_partner - d.evidence.expected;
                drivers.retain(|d| lift(d) > 0.0);
                drivers.sort_by(|a, b| lift(b).total_cmp(&lift(a)));
                drivers.truncate(DRIVERS);
                PairLine {
                    direction,
                    number,
                    names: pair.map(|p| p.names.clone()).unwrap_or_default(),
                    bot: pair.is_some_and(|p| p.bot),
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
            name: name.to_string(),
            threshold,
            tables: found.values().filter(|t| t.fault.is_none()).count(),
            tables_played: self.sittings.len(),
            decisions,
            pairs,
            faults,
        }
    }
}

impl TableEvidence {
    fn fault(why: &str) -> TableEvidence {
        TableEvidence {
            decisions: Vec::new(),
            fault: Some(why.to_string()),
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

/// How `paiju fairplay` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Csv,
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
    let event_name = event.duplicate.common.spec.name.clone();
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
            eprint!("\r公平竞赛分析 fair-play analysis: {done}/{total} boards");
        } else if (done * 10 / total.max(1)) != ((done - 1) * 10 / total.max(1)) || done == total {
            eprintln!("公平竞赛分析 fair-play analysis: {done}/{total} boards");
        }
    };
    analyse(&event, &open, &progress, threads, &tick)?;
    if terminal {
        eprintln!();
    }
    let found = progress.found.into_inner().map_err(|_| "poisoned")?;
    let report = event.report(&event_name, &found, threshold);
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

/// The report as `paiju fairplay` prints it.
pub fn render(r: &Report, format: Format) -> String {
    match format {
        Format::Json => serde_json::to_string_pretty(r).unwrap_or_default() + "\n",
        Format::Csv => csv(r),
        Format::Text => text(r),
    }
}

fn pair_label(p: &PairLine) -> String {
    let dir = match p.direction {
        Direction::NS => "南北 NS",
        Direction::EW => "东西 EW",
    };
    let names = if p.names.is_empty() {
        String::new()
    } else {
        format!(" {}", p.names.join(" / "))
    };
    let bot = if p.bot { "（电脑 computer）" } else { "" };
    format!("{dir} {}{names}{bot}", p.number)
}

fn z_text(z: Option<f64>) -> String {
    z.map_or("–".into(), |z| format!("{z:+.2}"))
}

fn text(r: &Report) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "公平竞赛分析 fair-play analysis: {} (event {})",
        r.name, r.event
    );
    let _ = writeln!(
        out,
        "{}/{} 副牌 boards, {} 个决定 decisions; 可疑度 ≥ {} 标记 flagged",
        r.tables, r.tables_played, r.decisions, r.threshold
    );
    let _ = writeln!(
        out,
        "只是供裁判参考的数字，不是判决（比赛规程 违规与判罚 第10条）。A figure for the referee, never a verdict.\n"
    );
    for (i, p) in r.pairs.iter().enumerate() {
        let t = &p.tally;
        let _ = writeln!(
            out,
            "{:>2}. {}{}",
            i + 1,
            pair_label(p),
            if p.flagged {
                "  ⚑ 请裁判查看 referee, please look"
            } else {
                ""
            }
        );
        let _ = writeln!(
            out,
            "    可疑度 figure {} (对照同场 {} 副 vs the field on {} boards), 决定 decisions {}",
            z_text(p.z_partner),
            p.field_boards,
            p.field_boards,
            t.decisions
        );
        let _ = writeln!(
            out,
            "    命中 hits {:.0}, 预期 expected {:.1}: z 同场 field {}, 模型 model {}; 多得 points saved {:+.0}: z {}",
            t.hits,
            t.expected,
            z_text(p.z_field),
            z_text(p.z),
            t.saved,
            z_text(p.z_points)
        );
        for d in &p.drivers {
            let _ = writeln!(
                out,
                "      第{}轮 第{}副 round {} board {}: table {} #{}: 最好的机会 chance it is the best: 只凭自己看到的 on its own view {:.0} %, 看得见同伴的牌 with its partner's hand {:.0} %",
                d.round,
                d.board,
                d.round,
                d.board,
                d.table_id,
                d.seq,
                100.0 * d.evidence.expected,
                100.0 * d.evidence.with_partner
            );
        }
    }
    for (id, why) in &r.faults {
        let _ = writeln!(out, "未分析 not analysed: table {id}: {why}");
    }
    out
}

fn csv(r: &Report) -> String {
    use std::fmt::Write;
    let mut out = String::from(
        "rank,direction,pair,names,computer,decisions,z_partner,field_boards,hits,expected,excess,z_field,z_model,points_saved,z_points,flagged\n",
    );
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let num = |z: Option<f64>| z.map_or(String::new(), |z| format!("{z:.3}"));
    for (i, p) in r.pairs.iter().enumerate() {
        let t = &p.tally;
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{:.0},{:.3},{:.3},{},{},{:.1},{},{}",
            i + 1,
            match p.direction {
                Direction::NS => "NS",
                Direction::EW => "EW",
            },
            p.number,
            quote(&p.names.join(" / ")),
            p.bot,
            t.decisions,
            num(p.z_partner),
            p.field_boards,
            t.hits,
            t.expected,
            t.excess(),
            num(p.z_field),
            num(p.z),
            t.saved,
            num(p.z_points),
            p.flagged
        );
    }
    out
}
