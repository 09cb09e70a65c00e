//! 复盘的底子 (a replayed table): a stored table's hash chain checked, its board re-dealt from
//! its header, and its log re-applied through the engine, entry by entry with each entry's
//! actor — exactly what a restarted server does, kept step by step for the referee.
//!
//! Whatever does not hold is a [`Fault`] that names the entry and what does not match: the
//! chain ([`crate::store::verify`]), an action that no longer reads or that the engine now
//! refuses, a table recorded as over whose log does not end the game, a published head hash
//! that is not the log's.

use std::path::Path;

use protocol::TableState;
use rules::deal::Seed;
use rules::{Engine, Explain};
use serde::Serialize;

use super::lang::{Lang, Words};
use super::words::{self, GameWords};
use crate::store::{self, LogEntry, SqliteStore, Store, StoredTable, TableHeader, Tampered};
use crate::table::replay::{apply_stored, dealt, Applied, EntryFault};
use crate::table::TableGame;

/// One log entry re-applied: the entry, its action as the engine reads it, and what happened.
#[derive(Clone, Debug)]
pub struct Step<G: Engine> {
    pub entry: LogEntry,
    pub action: G::Action,
    /// The events, as a referee sees them (nothing redacted).
    pub events: Vec<G::Event>,
}

/// A log re-applied to one engine.
#[derive(Clone, Debug)]
pub struct Run<G: Engine> {
    /// The engine as dealt, before any action.
    pub dealt: G,
    /// One step per entry, up to the first fault.
    pub steps: Vec<Step<G>>,
    /// The engine after the last step.
    pub end: G,
}

impl<G: TableGame + GameWords + Clone> Run<G> {
    /// Re-applies `log` to `dealt` (as the table did: [`apply_stored`]). Stops at the first
    /// entry that does not read or is refused.
    pub fn replay(dealt: G, log: &[LogEntry]) -> (Run<G>, Option<Fault>) {
        let mut engine = dealt.clone();
        let mut steps = Vec::with_capacity(log.len());
        let mut fault = None;
        for e in log {
            match apply_stored(&mut engine, e) {
                Ok(Applied { action, events }) => steps.push(Step {
                    entry: e.clone(),
                    action,
                    events,
                }),
                Err(EntryFault::Unreadable(err)) => {
                    fault = Some(Fault::unreadable(e, &err));
                    break;
                }
                Err(EntryFault::Refused(err)) => {
                    fault = Some(Fault::refused::<G>(e, &err));
                    break;
                }
            }
        }
        (
            Run {
                dealt,
                steps,
                end: engine,
            },
            fault,
        )
    }

    /// The engine after the first `n` steps (0: as dealt). Steps were accepted once, so they
    /// are again: the engines are deterministic.
    pub fn after(&self, n: usize) -> G {
        let mut g = self.dealt.clone();
        for s in &self.steps[..n.min(self.steps.len())] {
            g.apply(s.entry.seat, s.entry.actor, s.action.clone())
                .expect("an accepted step is accepted again");
        }
        g
    }
}

/// Why a table's record cannot be trusted, or does not replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fault {
    /// `header`, `seed`, `gap`, `hash`, `unreadable_action`, `refused`, `not_over` or
    /// `head_mismatch`.
    pub kind: &'static str,
    /// The entry at fault, if one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// The engine's code, when the engine refused the entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
    /// What does not match, in both languages.
    pub words: Words,
}

impl Fault {
    fn header(words: Words) -> Fault {
        Fault {
            kind: "header",
            seq: None,
            code: None,
            words,
        }
    }

    fn unreadable(e: &LogEntry, err: &str) -> Fault {
        Fault {
            kind: "unreadable_action",
            seq: Some(e.seq),
            code: None,
            words: Words::new(
                format!("第 {} 条记录的动作读不懂：{} （{err}）", e.seq, e.action),
                format!(
                    "entry {}: the action does not read: {} ({err})",
                    e.seq, e.action
                ),
            ),
        }
    }

    fn refused<G: GameWords>(e: &LogEntry, err: &impl Explain) -> Fault {
        Fault {
            kind: "refused",
            seq: Some(e.seq),
            code: Some(err.code()),
            words: Words::new(
                format!(
                    "第 {} 条记录（座位 {}，{}，{}）引擎不再接受：{} [{}]",
                    e.seq,
                    words::seat::<G>(e.seat, Lang::Zh),
                    e.actor.name(),
                    e.action,
                    err.zh(),
                    err.code()
                ),
                format!(
                    "entry {} (seat {}, {}, {}) is refused by the engine: {} [{}]",
                    e.seq,
                    words::seat::<G>(e.seat, Lang::En),
                    e.actor.name(),
                    e.action,
                    err.en(),
                    err.code()
                ),
            ),
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words.en)
    }
}

/// Says exactly where and why the chain breaks, from [`store::verify`]'s verdict.
pub fn chain_fault<G: GameWords>(header: &TableHeader, log: &[LogEntry], t: &Tampered) -> Fault {
    match t {
        Tampered::Seed => Fault::seed(header),
        Tampered::Gap { index, seq } => Fault::gap(*index, *seq),
        Tampered::Hash { seq } => Fault::hash::<G>(header, log, *seq),
    }
}

impl Fault {
    /// The seed does not hash to the commitment published.
    fn seed(header: &TableHeader) -> Fault {
        let hashed = Seed::from_hex(&header.seed)
            .map(|s| s.commitment())
            .unwrap_or_else(|e| format!("({})", e.en()));
        Fault {
            kind: "seed",
            seq: None,
            code: None,
            words: Words::new(
                format!(
                    "种子与公布的承诺不符：种子 {} 的哈希是 {hashed}，承诺是 {}",
                    header.seed, header.seed_commitment
                ),
                format!(
                    "the seed does not match its commitment: seed {} hashes to {hashed}, the commitment is {}",
                    header.seed, header.seed_commitment
                ),
            ),
        }
    }

    /// The entry at `index` carries the wrong seq: one before it was removed or moved.
    fn gap(index: usize, seq: u64) -> Fault {
        Fault {
            kind: "gap",
            seq: Some(seq),
            code: None,
            words: Words::new(
                format!(
                    "第 {} 条记录的序号是 {seq}，应为 {}：之前有记录被删除或调换",
                    index + 1,
                    index + 1
                ),
                format!(
                    "entry number {} carries seq {seq}, not {}: an entry before it was removed or moved",
                    index + 1,
                    index + 1
                ),
            ),
        }
    }

    /// Entry `seq` does not match its hash: the entry as stored, both hashes, what was
    /// changed (this entry, or the header, or the one before) and whether the next entry
    /// still chains from the stored hash.
    fn hash<G: GameWords>(header: &TableHeader, log: &[LogEntry], seq: u64) -> Fault {
        let i = (seq as usize).saturating_sub(1);
        let Some(e) = log.get(i) else {
            return Fault {
                kind: "hash",
                seq: Some(seq),
                code: None,
                words: Words::new(
                    format!("第 {seq} 条记录与其哈希不符"),
                    format!("entry {seq} does not match its hash"),
                ),
            };
        };
        let prev = if i == 0 {
            store::genesis(header)
        } else {
            log[i - 1].hash.clone()
        };
        let computed = store::entry_hash(&prev, e);
        let short = |h: &str| h.chars().take(16).collect::<String>();
        let before = changed_before(i, seq);
        let next = next_chains(log.get(i + 1), e, seq);
        let (what_zh, what_en) = (entry_words::<G>(e, Lang::Zh), entry_words::<G>(e, Lang::En));
        Fault {
            kind: "hash",
            seq: Some(seq),
            code: None,
            words: Words::new(
                format!(
                    "第 {seq} 条记录（{what_zh}）与其哈希不符：存储 {}…，重算 {}…。{}；{}。",
                    short(&e.hash),
                    short(&computed),
                    before.zh,
                    next.zh
                ),
                format!(
                    "entry {seq} ({what_en}) does not match its hash: stored {}…, computed {}…. Either {}; {}.",
                    short(&e.hash),
                    short(&computed),
                    before.en,
                    next.en
                ),
            ),
        }
    }
}

/// What was changed when entry `seq` (at `i`) does not match its hash: the header or the
/// first entry; this entry, or the one before it with its hash recomputed.
fn changed_before(i: usize, seq: u64) -> Words {
    if i == 0 {
        Words::new(
            "表头（游戏、规则、选项、牌号、种子承诺、定级定主、创建时间）或这条记录被改过",
            "the table's header (game, ruleset, options, board, seed commitment, fixed level and trump, creation time) or this entry was changed",
        )
    } else {
        Words::new(
            format!(
                "这条记录被改过，或者上一条（第 {} 条）被改过并重算了哈希",
                seq - 1
            ),
            format!(
                "this entry was changed, or the one before it (entry {}) was changed and its hash recomputed",
                seq - 1
            ),
        )
    }
}

/// Whether the entry after `e` (entry `seq`) still chains from `e`'s stored hash: then the
/// stored hash is the original.
fn next_chains(next: Option<&LogEntry>, e: &LogEntry, seq: u64) -> Words {
    match next {
        Some(next) if store::entry_hash(&e.hash, next) == next.hash => Words::new(
            format!("第 {} 条仍接在存储的哈希上：存储的哈希是原来的", seq + 1),
            format!(
                "entry {} still chains from the stored hash, so the stored hash is the original",
                seq + 1
            ),
        ),
        Some(_) => Words::new(
            format!(
                "第 {} 条也接不上存储的哈希：哈希被重写过，或后面的记录也被改过",
                seq + 1
            ),
            format!(
                "entry {} does not chain from the stored hash either: the hash was rewritten, or later entries were changed too",
                seq + 1
            ),
        ),
        None => Words::new("这是最后一条", "it is the last entry"),
    }
}

/// An entry as stored: `座位 北, player, {…}, 时间 …, 出牌人 …, 理由 "…"`.
fn entry_words<G: GameWords>(e: &LogEntry, lang: Lang) -> String {
    format!(
        "{} {}, {}, {}, {} {}{}{}",
        lang.pick("座位", "seat"),
        words::seat::<G>(e.seat, lang),
        e.actor.name(),
        e.action,
        lang.pick("时间", "time"),
        words::iso_time(e.time_ms),
        e.occupant
            .as_deref()
            .map(|o| format!(", {} {o}", lang.pick("出牌人", "occupant")))
            .unwrap_or_default(),
        e.reason
            .as_deref()
            .map(|r| format!(", {} {r:?}", lang.pick("理由", "reason")))
            .unwrap_or_default()
    )
}

/// A stored table of `G`, checked and replayed.
#[derive(Clone, Debug)]
pub struct Checked<G: Engine> {
    pub table: StoredTable,
    /// The replay; up to the fault if there is one (none if the chain or header failed).
    pub replayed: Option<Run<G>>,
    /// The first thing that does not hold; `None`: the chain verifies, every action is
    /// accepted, and the replay agrees with the table's recorded state (and published head).
    pub fault: Option<Fault>,
    /// Things worth knowing that are not faults (a ruleset whose options changed since).
    pub notes: Vec<Words>,
}

impl<G: Engine> Checked<G> {
    pub fn ok(&self) -> bool {
        self.fault.is_none()
    }
}

/// Opens a database for reading a table. Refuses a path with no database (opening would create
/// an empty one).
pub fn open(db: &Path) -> Result<SqliteStore, String> {
    if !db.exists() {
        return Err(format!("no database at {}", db.display()));
    }
    SqliteStore::open(db).map_err(|e| format!("{}: {e}", db.display()))
}

/// One stored table, by id.
pub fn load(db: &Path, id: &str) -> Result<StoredTable, String> {
    open(db)?
        .table(id)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no table {id} in {}", db.display()))
}

/// Checks and replays a stored table: the chain, the header, every action (with its actor),
/// the recorded state, and `head` if given (the `head_hash` published with the result).
pub fn check<G: TableGame + GameWords + Clone>(
    table: StoredTable,
    head: Option<&str>,
) -> Checked<G> {
    let mut checked = Checked {
        replayed: None,
        fault: None,
        notes: Vec::new(),
        table,
    };
    let t = &checked.table;
    if let Err(tampered) = store::verify(&t.header, &t.log) {
        checked.fault = Some(chain_fault::<G>(&t.header, &t.log, &tampered));
        return checked;
    }
    let (replayed, fault) = match dealt::<G>(&t.header) {
        Ok(d) => {
            checked.notes = d.notes;
            Run::replay(d.engine, &t.log)
        }
        Err(words) => {
            checked.fault = Some(Fault::header(words));
            return checked;
        }
    };
    let mut fault = fault;
    if fault.is_none() && t.state == TableState::Over && !replayed.end.is_over() {
        fault = Some(Fault {
            kind: "not_over",
            seq: t.log.last().map(|e| e.seq),
            code: None,
            words: Words::new(
                format!(
                    "这张桌记录为「已结束」，但复盘 {} 条动作后牌局没有结束：日志被截短了",
                    t.log.len()
                ),
                format!(
                    "the table is recorded as over, but the game does not end after replaying its {} entries: the log was cut short",
                    t.log.len()
                ),
            ),
        });
    }
    if fault.is_none() {
        if let Some(head) = head {
            let ours = t
                .log
                .last()
                .map(|e| e.hash.clone())
                .unwrap_or_else(|| store::genesis(&t.header));
            if !ours.eq_ignore_ascii_case(head.trim()) {
                fault = Some(Fault {
                    kind: "head_mismatch",
                    seq: t.log.last().map(|e| e.seq),
                    code: None,
                    words: Words::new(
                        format!("日志的末哈希 {ours} 与公布的 {head} 不符：日志在公布后被截短或重算"),
                        format!("the log's last hash {ours} is not the published {head}: the log was cut short or recomputed after it was published"),
                    ),
                });
            }
        }
    }
    checked.replayed = Some(replayed);
    checked.fault = fault;
    checked
}
