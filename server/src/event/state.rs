//! An event's state and the actions of its log: a pure state machine, as a table's engine is.
//! [`Event::apply`] checks one action against the state and applies it (a refusal changes
//! nothing); an event is rebuilt by applying its stored log in order. No I/O, no clocks here.
//!
//! The log holds what the director did (`create`, `register`, `start_round`, `adjust`,
//! `deduction`, `disqualify`, `forfeit`, `close_round`, `reveal`), what the pairs did (`confirm`)
//! and what the server did for them (`table_opened`, `result`: a board's outcome read from its
//! table's log; `seated`: a player's first sitting in a round). Where a rule depends on time
//! (the round clock, lateness) the time is in the action (`at_ms`, the server's clock when it was
//! logged), so a replay decides exactly as the live event did.

use std::collections::BTreeMap;

use protocol::{
    ArtificialPair, CreateEvent, DeductionKind, EntryIn, MovementKind, PairInfo, Problem, SeatIndex,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tournament::{Direction, Movement, Variant};

use super::gouji::{self, text, Drawn, GoujiEvent};
use super::refuse::{bad, not_now};
use crate::table::DealFixed;

/// 80分 duplicate pairs (the other game of events is [`gouji::GOUJI`]).
pub const SHENGJI: &str = "shengji";
/// Most tables an event may have.
pub const MAX_TABLES: u32 = 500;
/// Most boards an event may deal.
pub const MAX_BOARDS: u32 = 2_000;
/// Longest reason or note, in characters.
pub const MAX_REASON: usize = 200;

/// One entry of an event's log (its JSON is what the chain hashes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum EventAction {
    /// The director created the event (entries, if given, are registered with it).
    Create { spec: CreateEvent },
    /// The director registered every pair (fresh pair tokens).
    Register { entries: Vec<EntryIn> },
    /// The director started a round: its tables open. `at_ms`: the server's clock when it was
    /// logged (the round's clock and lateness count from it; absent in logs made before).
    StartRound {
        round: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// A player of a pair sat down at the pair's table of the round for the first time (the
    /// server's clock then): lateness is judged from these.
    Seated {
        round: u32,
        direction: Direction,
        pair: u32,
        seat: SeatIndex,
        at_ms: u64,
    },
    /// The director ruled a pair more than 10 minutes late: it forfeits the round (seed 000:
    /// 比赛一方迟到超过10分钟，判违规方该轮弃权). Its table's unplayed boards get A− for it and A+
    /// for its opponents. `at_ms`: the server's clock when it was logged.
    Forfeit {
        round: u32,
        direction: Direction,
        pair: u32,
        reason: String,
        at_ms: u64,
    },
    /// The server opened the table that deals this board for this table of the round (again,
    /// if an earlier one closed unplayed).
    TableOpened {
        round: u32,
        table: u32,
        board: u32,
        table_id: String,
    },
    /// The server read a finished board's outcome from its table's log.
    Result {
        round: u32,
        table: u32,
        board: u32,
        table_id: String,
        /// `"N"`, `"E"`, `"S"`, `"W"`.
        declarer: String,
        defenders: i32,
    },
    /// The director assigned a result (points or artificial scores) instead of the table's.
    Adjust {
        round: u32,
        table: u32,
        board: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        defenders: Option<i32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        artificial: Option<ArtificialPair>,
        reason: String,
    },
    /// The director took match points off a pair. A second `signalling` deduction of a pair
    /// disqualifies it in the same step.
    Deduction {
        direction: Direction,
        pair: u32,
        mp: f64,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<DeductionKind>,
    },
    /// The director disqualified a pair: it plays no more boards, its finished results stand in
    /// everyone else's scores, and its place is filled by the pairs below it (seed 003).
    Disqualify {
        direction: Direction,
        pair: u32,
        reason: String,
    },
    /// A pair confirmed (or disputed) its table's results of a round.
    Confirm {
        round: u32,
        table: u32,
        direction: Direction,
        agree: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// The director closed a round.
    CloseRound { round: u32, forced: bool },
    /// The director revealed the seed: the event is finished. `early`: after fewer rounds than
    /// planned (every round started is closed).
    Reveal {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        early: bool,
    },
    /// 够级: the server drew a round from the event seed (groups in round 1, then a knockout
    /// round or the final's groups).
    Draw { round: u32, drawn: Drawn },
    /// 够级: the server opened the table of one game of a match (or of the final).
    GameOpened {
        round: u32,
        table: u32,
        game: u32,
        table_id: String,
    },
    /// 够级: the server read a finished game's result from its table's log.
    GameResult {
        round: u32,
        table: u32,
        game: u32,
        table_id: String,
        record: tournament::gouji::GameRecord,
    },
    /// 够级: the director took points off a team (扣该队4分).
    TeamDeduction {
        round: u32,
        team: u32,
        points: i32,
        reason: String,
    },
    /// 够级: a team's captain confirmed (or disputed) the team's results of the round so far.
    ConfirmGames {
        round: u32,
        team: u32,
        agree: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// 够级: the director's ruling on a finished game: its result replaced.
    AdjustGame {
        round: u32,
        table: u32,
        game: u32,
        record: tournament::gouji::GameRecord,
        reason: String,
    },
    /// 够级: the director drew lots in person for a knockout match still level after its extra
    /// games; `winner` is the team's name.
    Lot {
        round: u32,
        table: u32,
        winner: String,
        reason: String,
    },
}

impl EventAction {
    /// The action's name, as in its JSON `type` (for logs).
    pub fn name(&self) -> &'static str {
        match self {
            EventAction::Create { .. } => "create",
            EventAction::Register { .. } => "register",
            EventAction::StartRound { .. } => "start_round",
            EventAction::Seated { .. } => "seated",
            EventAction::Forfeit { .. } => "forfeit",
            EventAction::TableOpened { .. } => "table_opened",
            EventAction::Result { .. } => "result",
            EventAction::Adjust { .. } => "adjust",
            EventAction::Deduction { .. } => "deduction",
            EventAction::Disqualify { .. } => "disqualify",
            EventAction::Confirm { .. } => "confirm",
            EventAction::CloseRound { .. } => "close_round",
            EventAction::Reveal { .. } => "reveal",
            EventAction::Draw { .. } => "draw",
            EventAction::GameOpened { .. } => "game_opened",
            EventAction::GameResult { .. } => "game_result",
            EventAction::TeamDeduction { .. } => "team_deduction",
            EventAction::AdjustGame { .. } => "adjust_game",
            EventAction::ConfirmGames { .. } => "confirm_games",
            EventAction::Lot { .. } => "lot",
        }
    }
}

/// A registered pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub direction: Direction,
    pub number: u32,
    pub names: Vec<String>,
    pub organisation: Option<String>,
    pub bot: bool,
}

impl Pair {
    pub fn info(&self) -> PairInfo {
        PairInfo {
            direction: self.direction.name().to_string(),
            number: self.number,
            names: self.names.clone(),
            organisation: self.organisation.clone(),
            bot: self.bot,
        }
    }

    /// The pair's two seats at an 80分 table: NS sit N (0) and S (2), EW sit E (1) and W (3).
    pub fn seats(&self) -> [SeatIndex; 2] {
        match self.direction {
            Direction::NS => [0, 2],
            Direction::EW => [1, 3],
        }
    }
}

/// A board's outcome read from its table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub declarer: String,
    pub defenders: i32,
}

/// A result the director assigned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjusted {
    pub defenders: Option<i32>,
    pub artificial: Option<ArtificialPair>,
    pub reason: String,
}

/// One board at one table of one round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Play {
    /// The table dealing it (the latest, if it was opened again).
    pub table_id: Option<String>,
    pub played: Option<Played>,
    /// Replaces `played` in the scoring.
    pub adjusted: Option<Adjusted>,
}

impl Play {
    pub fn done(&self) -> bool {
        self.played.is_some() || self.adjusted.is_some()
    }
}

/// The two pairs' word on a table's results of a round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Confirms {
    pub ns: bool,
    pub ew: bool,
    /// A pair disputes: its note.
    pub dispute: Option<String>,
}

/// A deduction as logged.
#[derive(Clone, Debug, PartialEq)]
pub struct Deducted {
    pub direction: Direction,
    pub pair: u32,
    pub mp: f64,
    pub reason: String,
    pub kind: Option<DeductionKind>,
}

/// A round's clock: when it started, from the `start_round` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundClock {
    pub started_ms: u64,
    /// The start plus `boards_per_round` × `board_minutes` (每副牌比赛时间12分钟).
    pub deadline_ms: u64,
}

/// How late a pair may sit down: more than 10 minutes forfeits the round (seed 000:
/// 比赛一方迟到超过10分钟，判违规方该轮弃权).
pub const LATE_MS: u64 = 10 * 60 * 1000;
/// Minutes a board when the event does not say (每副牌比赛时间12分钟).
pub const BOARD_MINUTES: u32 = 12;

/// An event, as its log has made it.
#[derive(Clone, Debug)]
pub struct Event {
    pub id: String,
    /// As created (entries taken out: they are in `pairs`); the ruleset is always named.
    pub spec: CreateEvent,
    pub movement: Movement,
    /// NS 1…T, then EW 1…T; empty until registered.
    pub pairs: Vec<Pair>,
    /// The seq of the log entry that registered the pairs (their tokens derive from it); 0:
    /// none yet.
    pub registered: u64,
    /// The last round started (0: none).
    pub round: u32,
    /// The last round closed.
    pub closed: u32,
    /// (round, table, board) → what happened there.
    pub plays: BTreeMap<(u32, u32, u32), Play>,
    /// (round, table) → the pairs' confirmations.
    pub confirms: BTreeMap<(u32, u32), Confirms>,
    pub deductions: Vec<Deducted>,
    /// Disqualified pairs, in the order the director ruled, each with the reason.
    pub disqualified: Vec<Deducted>,
    pub revealed: bool,
    /// Revealed after fewer rounds than planned.
    pub early: bool,
    /// round → its clock (rounds started with a logged time).
    pub clocks: BTreeMap<u32, RoundClock>,
    /// (round, direction, pair) → the seats sat at so far and when the last of them sat.
    pub seated: BTreeMap<(u32, Direction, u32), (Vec<SeatIndex>, u64)>,
    /// (round, direction, pair) ruled forfeit for lateness.
    pub forfeits: Vec<(u32, Direction, u32)>,
    /// 够级 events: teams, draw, matches (the 80分 fields above stay empty).
    pub gouji: Option<GoujiEvent>,
}

/// The tournament crate's variant for a movement kind.
pub fn variant(kind: MovementKind) -> Variant {
    match kind {
        MovementKind::Plain => Variant::Plain,
        MovementKind::Skip => Variant::Skip,
        MovementKind::Relay => Variant::Relay,
    }
}

/// An artificial score's name (`A`, `A+`, `A-`), checked: one for each side that has a pair
/// (`ns`, `ew`: whether it has; at a half table one side is the phantom and has none).
fn artificial_ok(a: &ArtificialPair, ns: bool, ew: bool) -> Result<(), Problem> {
    if !(ns && ew) {
        if a.ns.is_some() != ns || a.ew.is_some() != ew {
            return Err(bad(
                "半桌：人为分只给在场的一方（空位一方不给）",
                "a half table: the artificial score goes to the side that has a pair only",
            ));
        }
    } else if a.ns.is_none() || a.ew.is_none() {
        return Err(bad(
            "人为分要给双方（例如南北 A+、东西 A-）",
            "an artificial result gives both sides a score (e.g. NS A+, EW A-)",
        ));
    }
    for s in [&a.ns, &a.ew].into_iter().flatten() {
        serde_json::from_value::<tournament::Artificial>(serde_json::Value::String(s.clone()))
            .map_err(|_| {
                bad(
                    format!("人为分「{s}」不对：应为 A、A+ 或 A-"),
                    format!("artificial score \"{s}\" is not A, A+ or A-"),
                )
            })?;
    }
    Ok(())
}

impl Event {
    /// The event a `create` entry makes: the spec checked, the movement drawn.
    pub fn create(id: &str, spec: &CreateEvent) -> Result<Event, Problem> {
        if spec.game == gouji::GOUJI {
            return Event::create_gouji(id, spec);
        }
        if spec.game != SHENGJI {
            return Err(bad(
                format!(
                    "「{}」的比赛还不能在线进行：只有 80分 双人赛（shengji）和够级团体赛（gouji）",
                    spec.game
                ),
                format!(
                    "events of \"{}\" are not run live: only 80分 duplicate pairs (shengji) and 够级 teams (gouji)",
                    spec.game
                ),
            ));
        }
        let name = text(&spec.name, 60, "比赛名称", "the event's name")?;
        if spec.tables == 0 || spec.tables > MAX_TABLES {
            return Err(bad(
                format!("桌数要 1 到 {MAX_TABLES}"),
                format!("tables must be 1 to {MAX_TABLES}"),
            ));
        }
        let movement = tournament::movement(
            spec.tables,
            spec.rounds,
            spec.boards_per_round,
            variant(spec.movement),
        )
        .map_err(|e| Problem::explain(&e))?;
        let boards = movement_boards(&movement);
        if boards > MAX_BOARDS {
            return Err(bad(
                format!("最多 {MAX_BOARDS} 副牌，这样要 {boards} 副"),
                format!("at most {MAX_BOARDS} boards; this needs {boards}"),
            ));
        }
        if let Some(m) = spec.board_minutes {
            if m == 0 || m > 120 {
                return Err(bad(
                    "每副牌的时间要 1 到 120 分钟",
                    "minutes a board must be 1 to 120",
                ));
            }
        }
        let fixed = DealFixed {
            level: spec.level.clone(),
            trump: spec.trump.clone(),
            play_seconds: None,
            bot_level: None,
        };
        fixed.shengji()?;
        let mut spec = spec.clone();
        spec.name = name;
        let entries = std::mem::take(&mut spec.entries);
        let mut event = Event::new(id, spec, movement);
        if !entries.is_empty() {
            event.register(&entries)?;
            event.registered = 1;
        }
        Ok(event)
    }

    /// Registers the pairs. One pair fewer than two a table is a half table: EW pair T (the
    /// last table's EW) is the phantom, and the movement leaves its place empty.
    fn register(&mut self, entries: &[EntryIn]) -> Result<(), Problem> {
        let pairs = self.check_entries(entries)?;
        let full = tournament::movement(
            self.spec.tables,
            self.spec.rounds,
            self.spec.boards_per_round,
            variant(self.spec.movement),
        )
        .map_err(|e| Problem::explain(&e))?;
        self.movement = if pairs.len() < 2 * self.tables() as usize {
            full.with_phantom(Direction::EW, self.tables())
                .map_err(|e| Problem::explain(&e))?
        } else {
            full
        };
        self.pairs = pairs;
        Ok(())
    }

    /// The phantom pair of a half table: EW T when one pair fewer than two a table registered.
    pub fn phantom(&self) -> Option<(Direction, u32)> {
        (!self.pairs.is_empty() && self.pairs.len() < 2 * self.tables() as usize)
            .then(|| (Direction::EW, self.tables()))
    }

    /// The round's clock, if its start was logged with a time.
    pub fn clock(&self, round: u32) -> Option<RoundClock> {
        self.clocks.get(&round).copied()
    }

    /// When a pair had all its seats filled at its table of the round (both players sat down).
    pub fn seated_at(&self, round: u32, direction: Direction, pair: u32) -> Option<u64> {
        self.seated
            .get(&(round, direction, pair))
            .filter(|(seats, _)| seats.len() >= 2)
            .map(|(_, at)| *at)
    }

    /// The director ruled this pair forfeit for this round.
    pub fn forfeited(&self, round: u32, direction: Direction, pair: u32) -> bool {
        self.forfeits.contains(&(round, direction, pair))
    }

    /// An event before anything happened to it.
    fn new(id: &str, spec: CreateEvent, movement: Movement) -> Event {
        Event {
            id: id.to_string(),
            spec,
            movement,
            pairs: Vec::new(),
            registered: 0,
            round: 0,
            closed: 0,
            plays: BTreeMap::new(),
            confirms: BTreeMap::new(),
            deductions: Vec::new(),
            disqualified: Vec::new(),
            revealed: false,
            early: false,
            clocks: BTreeMap::new(),
            seated: BTreeMap::new(),
            forfeits: Vec::new(),
            gouji: None,
        }
    }

    /// A 够级 team event: no movement; the teams, the groups of the draw, the final's games.
    fn create_gouji(id: &str, spec: &CreateEvent) -> Result<Event, Problem> {
        let name = text(&spec.name, 60, "比赛名称", "the event's name")?;
        if spec.level.is_some() || spec.trump.is_some() {
            return Err(bad(
                "够级没有定级和定主",
                "够级 has no level or trump to fix",
            ));
        }
        let mut g = GoujiEvent::create(spec.groups, spec.final_games)?;
        let mut spec = spec.clone();
        spec.name = name;
        spec.tables = 0;
        spec.rounds = 0;
        spec.boards_per_round = 0;
        spec.movement = MovementKind::Plain;
        let entries = std::mem::take(&mut spec.entries);
        let registered = if entries.is_empty() {
            0
        } else {
            g.register(&entries)?;
            1
        };
        let mut event = Event::new(id, spec, Movement { rounds: Vec::new() });
        event.registered = registered;
        event.gouji = Some(g);
        Ok(event)
    }

    /// The 够级 actions and the shared ones (register, start, close, reveal) of a 够级 event.
    fn apply_gouji(&mut self, seq: u64, action: &EventAction) -> Result<(), Problem> {
        let playing = self.playing();
        let closed = self.closed;
        let g = self.gouji.as_mut().expect("a 够级 event");
        let in_play = |round: &u32| {
            if Some(*round) == playing {
                Ok(())
            } else {
                Err(not_now(
                    format!("第 {round} 轮没有在进行"),
                    format!("round {round} is not being played"),
                ))
            }
        };
        match action {
            EventAction::Register { entries } => {
                if self.round > 0 {
                    return Err(not_now(
                        "第一轮已开始，不能再改报名",
                        "round 1 has started: the entries can no longer change",
                    ));
                }
                g.register(entries)?;
                self.registered = seq;
                Ok(())
            }
            EventAction::StartRound { round, .. } => {
                if *round != self.round + 1 || self.closed != self.round {
                    return Err(not_now(
                        format!("现在不能开始第 {round} 轮：上一轮还没结束，或下一轮是第 {} 轮", self.round + 1),
                        format!("round {round} cannot start now: the last round is not closed, or the next is {}", self.round + 1),
                    ));
                }
                g.start_round(*round)?;
                self.round = *round;
                Ok(())
            }
            EventAction::Draw { round, drawn } => {
                in_play(round)?;
                g.draw(*round, drawn)
            }
            EventAction::GameOpened {
                round,
                table,
                game,
                table_id,
            } => {
                in_play(round)?;
                g.opened(*round, *table, *game, table_id)
            }
            EventAction::GameResult {
                round,
                table,
                game,
                table_id,
                record,
            } => {
                in_play(round)?;
                g.result(*round, *table, *game, table_id, record)
            }
            EventAction::TeamDeduction {
                round,
                team,
                points,
                reason,
            } => {
                in_play(round)?;
                g.deduct(*round, *team, *points, reason)
            }
            EventAction::AdjustGame {
                round,
                table,
                game,
                record,
                reason,
            } => {
                in_play(round)?;
                g.adjust(*round, *table, *game, record, reason)
            }
            EventAction::Lot {
                round,
                table,
                winner,
                reason,
            } => {
                in_play(round)?;
                g.lot(*round, *table, winner, reason)
            }
            EventAction::ConfirmGames {
                round,
                team,
                agree,
                note,
            } => {
                in_play(round)?;
                g.confirm(*round, *team, *agree, note.as_deref())
            }
            EventAction::CloseRound { round, forced } => {
                in_play(round)?;
                g.close(*round, *forced)?;
                self.closed = *round;
                Ok(())
            }
            EventAction::Reveal { early: true } => Err(bad(
                "够级比赛不能提前结束：决赛定出名次后才公布种子",
                "a 够级 event cannot finish early: the seed is revealed once the final is closed",
            )),
            EventAction::Reveal { early: false } => {
                if !g.over(closed) {
                    return Err(not_now(
                        "决赛还没有结束：决赛结束后才公布种子",
                        "the final is not closed yet: the seed is revealed once it is",
                    ));
                }
                self.revealed = true;
                Ok(())
            }
            other => Err(bad(
                format!("够级比赛没有这一步（{}）", other.name()),
                format!("a 够级 event has no {} step", other.name()),
            )),
        }
    }

    /// Rebuilds an event from its log's actions.
    pub fn replay(id: &str, log: &[(u64, EventAction)]) -> Result<Event, String> {
        let mut iter = log.iter();
        let Some((_, EventAction::Create { spec })) = iter.next() else {
            return Err(format!(
                "event {id}: the log does not start with its creation"
            ));
        };
        let mut event = Event::create(id, spec).map_err(|p| format!("event {id}: {}", p.en))?;
        for (seq, a) in iter {
            event
                .apply(*seq, a)
                .map_err(|p| format!("event {id}: entry {seq} refused on replay: {}", p.en))?;
        }
        Ok(event)
    }

    /// Tables.
    pub fn tables(&self) -> u32 {
        self.spec.tables
    }

    pub fn finished(&self) -> bool {
        self.revealed
    }

    /// Rounds planned: 80分's as created; 够级's as far as known (the rounds started, and one
    /// more until the final is drawn: how many knockout rounds the field needs shows as they
    /// are drawn).
    pub fn rounds(&self) -> u32 {
        match &self.gouji {
            Some(g) => self.round + u32::from(g.final_round().is_none()),
            None => self.spec.rounds,
        }
    }

    fn check_entries(&self, entries: &[EntryIn]) -> Result<Vec<Pair>, Problem> {
        let t = self.tables();
        // One pair fewer makes a half table (EW T is the phantom), if a table is left whole.
        let half_table = t >= 2 && entries.len() + 1 == 2 * t as usize;
        if entries.len() != 2 * t as usize && !half_table {
            return Err(bad(
                format!(
                    "{t} 桌要报 {} 对（南北 {t} 对、东西 {t} 对；少一对为半桌），收到 {} 对",
                    2 * t,
                    entries.len()
                ),
                format!(
                    "{t} tables need {} pairs (NS 1–{t}, then EW 1–{t}; one fewer makes a half table); got {}",
                    2 * t,
                    entries.len()
                ),
            ));
        }
        entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let (direction, number) = if (i as u32) < t {
                    (Direction::NS, i as u32 + 1)
                } else {
                    (Direction::EW, i as u32 - t + 1)
                };
                let names = if e.bot && e.names.is_empty() {
                    Vec::new()
                } else {
                    if e.names.len() != 2 {
                        return Err(bad(
                            format!("{}{number}：一对是两位选手", direction.zh()),
                            format!("{} {number}: a pair is two players", direction.name()),
                        ));
                    }
                    e.names
                        .iter()
                        .map(|n| crate::lobby::display_name(n).map_err(Problem::from))
                        .collect::<Result<Vec<_>, _>>()?
                };
                let organisation = match &e.organisation {
                    Some(o) if !o.trim().is_empty() => Some(text(o, 40, "单位", "organisation")?),
                    _ => None,
                };
                Ok(Pair {
                    direction,
                    number,
                    names,
                    organisation,
                    bot: e.bot,
                })
            })
            .collect()
    }

    /// The pair of a direction and number.
    pub fn pair(&self, direction: Direction, number: u32) -> Option<&Pair> {
        let t = self.tables() as usize;
        let i = match direction {
            Direction::NS => number as usize - 1,
            Direction::EW => t + number as usize - 1,
        };
        (number >= 1 && number as usize <= t)
            .then(|| self.pairs.get(i))
            .flatten()
    }

    /// The movement's round `round`.
    pub fn round_plan(&self, round: u32) -> Option<&tournament::movement::Round> {
        self.movement.rounds.iter().find(|r| r.round == round)
    }

    /// The table of a round: its pairs and boards.
    pub fn table_plan(&self, round: u32, table: u32) -> Option<&tournament::movement::TableRound> {
        self.round_plan(round)?
            .tables
            .iter()
            .find(|t| t.table == table)
    }

    /// Where a pair sits in a round: its table.
    pub fn table_of(&self, round: u32, pair: &Pair) -> Option<&tournament::movement::TableRound> {
        self.round_plan(round)?.tables.iter().find(|t| {
            let n = match pair.direction {
                Direction::NS => t.ns,
                Direction::EW => t.ew,
            };
            n == Some(pair.number)
        })
    }

    pub fn play(&self, round: u32, table: u32, board: u32) -> Option<&Play> {
        self.plays.get(&(round, table, board))
    }

    /// The first board of a table of a round without a result: the one being played.
    pub fn current_board(&self, round: u32, table: u32) -> Option<u32> {
        let plan = self.table_plan(round, table)?;
        plan.boards
            .iter()
            .copied()
            .find(|&b| !self.play(round, table, b).is_some_and(Play::done))
    }

    /// Every board of a table of a round has a result.
    pub fn table_done(&self, round: u32, table: u32) -> bool {
        self.table_plan(round, table).is_some() && self.current_board(round, table).is_none()
    }

    /// The round is being played: started, not closed.
    pub fn playing(&self) -> Option<u32> {
        (self.round > self.closed).then_some(self.round)
    }

    /// Whether a side of a table has confirmed a round (a bot pair always has).
    pub fn confirmed(&self, round: u32, table: u32, direction: Direction) -> bool {
        let Some(plan) = self.table_plan(round, table) else {
            return false;
        };
        // A half table's sit-out has nothing to record or check.
        let (Some(ns), Some(ew)) = (plan.ns, plan.ew) else {
            return true;
        };
        let number = match direction {
            Direction::NS => ns,
            Direction::EW => ew,
        };
        // A computer pair has always confirmed; a pair ruled forfeit is not there to.
        if self.pair(direction, number).is_some_and(|p| p.bot)
            || self.forfeited(round, direction, number)
        {
            return true;
        }
        self.confirms
            .get(&(round, table))
            .is_some_and(|c| match direction {
                Direction::NS => c.ns,
                Direction::EW => c.ew,
            })
    }

    /// Applies one action (the seq it is logged at). On `Err` nothing changed.
    pub fn apply(&mut self, seq: u64, action: &EventAction) -> Result<(), Problem> {
        if self.revealed {
            return Err(not_now(
                "比赛已结束（种子已公布），不能再改",
                "the event is finished (the seed is revealed): nothing more can change",
            ));
        }
        match action {
            EventAction::Create { .. } => Err(not_now("比赛已经建立", "the event exists")),
            _ if self.gouji.is_some() => self.apply_gouji(seq, action),
            EventAction::Draw { .. }
            | EventAction::GameOpened { .. }
            | EventAction::GameResult { .. }
            | EventAction::TeamDeduction { .. }
            | EventAction::AdjustGame { .. }
            | EventAction::ConfirmGames { .. }
            | EventAction::Lot { .. } => Err(bad(
                format!("80分比赛没有这一步（{}）", action.name()),
                format!("an 80分 event has no {} step", action.name()),
            )),
            EventAction::Register { entries } => {
                if self.round > 0 {
                    return Err(not_now(
                        "第一轮已开始，不能再改报名",
                        "round 1 has started: the entries can no longer change",
                    ));
                }
                self.register(entries)?;
                self.registered = seq;
                Ok(())
            }
            EventAction::StartRound { round, at_ms } => {
                if self.pairs.is_empty() {
                    return Err(not_now(
                        "还没有报名：请先登记各对",
                        "no pairs registered yet",
                    ));
                }
                if *round != self.round + 1 || self.closed != self.round {
                    return Err(not_now(
                        format!(
                            "现在只能开始第 {} 轮（第 {} 轮{}）",
                            self.round + 1,
                            self.round,
                            if self.closed == self.round {
                                "已结束"
                            } else {
                                "还没结束"
                            }
                        ),
                        format!(
                            "round {} cannot start now: {}",
                            round,
                            if self.closed == self.round {
                                format!("the next round is {}", self.round + 1)
                            } else {
                                format!("round {} is not closed", self.round)
                            }
                        ),
                    ));
                }
                if *round > self.spec.rounds {
                    return Err(not_now(
                        format!("比赛只有 {} 轮", self.spec.rounds),
                        format!("the event has {} rounds", self.spec.rounds),
                    ));
                }
                self.round = *round;
                if let Some(at) = at_ms {
                    let minutes = self.spec.board_minutes.unwrap_or(BOARD_MINUTES);
                    let ms = u64::from(self.spec.boards_per_round) * u64::from(minutes) * 60_000;
                    self.clocks.insert(
                        *round,
                        RoundClock {
                            started_ms: *at,
                            deadline_ms: at + ms,
                        },
                    );
                }
                self.sit_out(*round);
                Ok(())
            }
            EventAction::Seated {
                round,
                direction,
                pair,
                seat,
                at_ms,
            } => {
                if Some(*round) != self.playing() {
                    return Err(not_now(
                        "这一轮没有在进行",
                        "that round is not being played",
                    ));
                }
                let p = self.pair(*direction, *pair).ok_or_else(|| {
                    bad(
                        format!("{}没有第 {pair} 对", direction.zh()),
                        format!("{} has no pair {pair}", direction.name()),
                    )
                })?;
                if !p.seats().contains(seat) {
                    return Err(bad(
                        format!("{seat} 号座位不是这一对的"),
                        format!("seat {seat} is not the pair's"),
                    ));
                }
                let (seats, at) = self.seated.entry((*round, *direction, *pair)).or_default();
                if !seats.contains(seat) {
                    seats.push(*seat);
                    *at = *at_ms;
                }
                Ok(())
            }
            EventAction::Forfeit {
                round,
                direction,
                pair,
                reason,
                at_ms,
            } => self.forfeit(*round, *direction, *pair, reason, *at_ms),
            EventAction::TableOpened {
                round,
                table,
                board,
                table_id,
            } => {
                if Some(*round) != self.playing() {
                    return Err(not_now(
                        "这一轮没有在进行",
                        "that round is not being played",
                    ));
                }
                self.board_of(*round, *table, *board)?;
                self.plays
                    .entry((*round, *table, *board))
                    .or_default()
                    .table_id = Some(table_id.clone());
                Ok(())
            }
            EventAction::Result {
                round,
                table,
                board,
                table_id,
                declarer,
                defenders,
            } => {
                if Some(*round) != self.playing() {
                    return Err(not_now(
                        "这一轮没有在进行",
                        "that round is not being played",
                    ));
                }
                self.board_of(*round, *table, *board)?;
                let play = self.plays.entry((*round, *table, *board)).or_default();
                if play.table_id.as_deref() != Some(table_id) {
                    return Err(not_now(
                        "这张牌桌不是这副牌的",
                        "that table does not deal this board here",
                    ));
                }
                play.played = Some(Played {
                    declarer: declarer.clone(),
                    defenders: *defenders,
                });
                Ok(())
            }
            EventAction::Adjust {
                round,
                table,
                board,
                defenders,
                artificial,
                reason,
            } => {
                if *round == 0 || *round > self.round {
                    return Err(not_now("这一轮还没开始", "that round has not started"));
                }
                self.board_of(*round, *table, *board)?;
                match (defenders, artificial) {
                    (Some(_), Some(_)) | (None, None) => {
                        return Err(bad(
                            "调整成绩要么给闲家得分，要么给人为分",
                            "an adjusted result has either defenders' points or artificial scores",
                        ))
                    }
                    (Some(d), None) if d % 5 != 0 || d.abs() > 1000 => {
                        return Err(bad(
                            format!("闲家得分 {d} 不对：应为 5 的倍数"),
                            format!("defenders' points {d}: not a multiple of 5"),
                        ))
                    }
                    (None, Some(a)) => {
                        let plan = self.table_plan(*round, *table).expect("checked above");
                        artificial_ok(a, plan.ns.is_some(), plan.ew.is_some())?
                    }
                    (Some(_), None)
                        if self
                            .table_plan(*round, *table)
                            .is_some_and(|p| p.ns.is_none() || p.ew.is_none()) =>
                    {
                        return Err(bad(
                            "半桌：轮空的一桌没有对手，只能给人为分",
                            "a half table: a sit-out has no opponents; only an artificial score can be given",
                        ))
                    }
                    _ => {}
                }
                let reason = text(reason, MAX_REASON, "理由", "the reason")?;
                self.plays
                    .entry((*round, *table, *board))
                    .or_default()
                    .adjusted = Some(Adjusted {
                    defenders: *defenders,
                    artificial: artificial.clone(),
                    reason,
                });
                // The pairs confirm again (or the director closes the round over them).
                if let Some(c) = self.confirms.get_mut(&(*round, *table)) {
                    c.ns = false;
                    c.ew = false;
                    c.dispute = None;
                }
                Ok(())
            }
            EventAction::Deduction {
                direction,
                pair,
                mp,
                reason,
                kind,
            } => {
                self.known_pair(*direction, *pair)?;
                let halves = mp * 2.0;
                if !(halves.is_finite() && (1.0..=200.0).contains(&halves) && halves.fract() == 0.0)
                {
                    return Err(bad(
                        format!("扣分 {mp} 不对：应为 0.5 的正整数倍"),
                        format!("a deduction of {mp}: must be a positive multiple of 0.5"),
                    ));
                }
                let reason = text(reason, MAX_REASON, "理由", "the reason")?;
                self.deductions.push(Deducted {
                    direction: *direction,
                    pair: *pair,
                    mp: *mp,
                    reason,
                    kind: *kind,
                });
                // 累计二次以上传递非法信息的，取消违规方比赛资格 (seed 000): in this same step.
                let signalled = self
                    .deductions
                    .iter()
                    .filter(|d| {
                        d.direction == *direction
                            && d.pair == *pair
                            && d.kind == Some(DeductionKind::Signalling)
                    })
                    .count();
                if *kind == Some(DeductionKind::Signalling)
                    && signalled >= 2
                    && !self.is_disqualified(*direction, *pair)
                {
                    self.disqualified.push(Deducted {
                        direction: *direction,
                        pair: *pair,
                        mp: 0.0,
                        reason: format!(
                            "累计 {signalled} 次传递非法信息 (signalling, {signalled} times)"
                        ),
                        kind: Some(DeductionKind::Signalling),
                    });
                }
                Ok(())
            }
            EventAction::Disqualify {
                direction,
                pair,
                reason,
            } => {
                self.known_pair(*direction, *pair)?;
                if self.is_disqualified(*direction, *pair) {
                    return Err(not_now(
                        format!("{}第 {pair} 对已被取消资格", direction.zh()),
                        format!("{} pair {pair} is disqualified already", direction.name()),
                    ));
                }
                let reason = text(reason, MAX_REASON, "理由", "the reason")?;
                self.disqualified.push(Deducted {
                    direction: *direction,
                    pair: *pair,
                    mp: 0.0,
                    reason,
                    kind: None,
                });
                Ok(())
            }
            EventAction::Confirm {
                round,
                table,
                direction,
                agree,
                note,
            } => {
                if Some(*round) != self.playing() {
                    return Err(not_now(
                        "这一轮已结束或尚未开始",
                        "that round is closed or not started",
                    ));
                }
                if !self.table_done(*round, *table) {
                    return Err(not_now(
                        "本桌这一轮的牌还没打完",
                        "the boards of this table are not all played yet",
                    ));
                }
                if *agree
                    && *direction == Direction::EW
                    && !self.confirmed(*round, *table, Direction::NS)
                {
                    return Err(not_now(
                        "请南北先填写确认成绩，东西再核对",
                        "NS record the results first; then EW check them",
                    ));
                }
                let note = match note {
                    Some(n) if !n.trim().is_empty() => {
                        Some(text(n, MAX_REASON, "说明", "the note")?)
                    }
                    _ => None,
                };
                if !agree && note.is_none() {
                    return Err(bad(
                        "有异议请写明情况，裁判会来处理",
                        "a dispute needs a note: the referee comes to settle it",
                    ));
                }
                let c = self.confirms.entry((*round, *table)).or_default();
                let side = match direction {
                    Direction::NS => &mut c.ns,
                    Direction::EW => &mut c.ew,
                };
                *side = *agree;
                if *agree {
                    if c.ns && c.ew {
                        c.dispute = None;
                    }
                } else {
                    c.dispute = note.map(|n| format!("{}：{n}", direction.zh()));
                }
                Ok(())
            }
            EventAction::CloseRound { round, forced } => {
                if Some(*round) != self.playing() {
                    return Err(not_now(
                        format!("第 {round} 轮没有在进行"),
                        format!("round {round} is not being played"),
                    ));
                }
                let plan = self.round_plan(*round).expect("a started round is planned");
                let missing: Vec<u32> = plan
                    .tables
                    .iter()
                    .filter(|t| !self.table_done(*round, t.table))
                    .map(|t| t.table)
                    .collect();
                if !missing.is_empty() {
                    return Err(not_now(
                        format!("这些桌还有牌没有成绩：{missing:?}"),
                        format!("these tables have boards without a result: {missing:?}"),
                    ));
                }
                if !forced {
                    let open: Vec<u32> = plan
                        .tables
                        .iter()
                        .filter(|t| {
                            !self.confirmed(*round, t.table, Direction::NS)
                                || !self.confirmed(*round, t.table, Direction::EW)
                                || self
                                    .confirms
                                    .get(&(*round, t.table))
                                    .is_some_and(|c| c.dispute.is_some())
                        })
                        .map(|t| t.table)
                        .collect();
                    if !open.is_empty() {
                        return Err(not_now(
                            format!("这些桌的成绩还没有双方确认（或有异议）：{open:?}；裁判长可强制结束本轮"),
                            format!(
                                "these tables' results are not confirmed by both pairs (or disputed): {open:?}; the director may force the close"
                            ),
                        ));
                    }
                }
                self.closed = *round;
                Ok(())
            }
            EventAction::Reveal { early: true } => {
                if self.closed == 0 || self.closed != self.round {
                    return Err(not_now(
                        "提前结束要在某一轮结束之后（没有进行中的一轮）",
                        "finishing early needs a closed round and no round being played",
                    ));
                }
                self.revealed = true;
                self.early = self.closed < self.spec.rounds;
                Ok(())
            }
            EventAction::Reveal { early: false } => {
                if self.closed < self.spec.rounds {
                    return Err(not_now(
                        format!(
                            "还有轮次没结束（已结束 {} / {} 轮）：最后一副打完、各轮结束后才公布种子（或提前结束比赛）",
                            self.closed, self.spec.rounds
                        ),
                        format!(
                            "rounds are still open ({} of {} closed): the seed is revealed once every round is closed (or finish early)",
                            self.closed, self.spec.rounds
                        ),
                    ));
                }
                self.revealed = true;
                Ok(())
            }
        }
    }

    /// A half table: the pair meeting the phantom this round sits out, and gets the average
    /// (A, 50 %) on each of the round's boards at once, as the director would assign it; no
    /// table is opened for it.
    fn sit_out(&mut self, round: u32) {
        let Some(plan) = self.round_plan(round) else {
            return;
        };
        let mut out = Vec::new();
        for t in &plan.tables {
            let average = match (t.ns, t.ew) {
                (Some(_), None) => ArtificialPair {
                    ns: Some("A".into()),
                    ew: None,
                },
                (None, Some(_)) => ArtificialPair {
                    ns: None,
                    ew: Some("A".into()),
                },
                _ => continue,
            };
            for &board in &t.boards {
                out.push(((round, t.table, board), average.clone()));
            }
        }
        for (key, artificial) in out {
            self.plays.entry(key).or_default().adjusted = Some(Adjusted {
                defenders: None,
                artificial: Some(artificial),
                reason: "半桌轮空：平均分 (half table: sits out, average)".into(),
            });
        }
    }

    /// 迟到超过10分钟，判违规方该轮弃权: checked against the round's logged start and the
    /// pair's logged seating; every board of its table without a played result gets A− for the
    /// late pair and A+ for its opponents (A− too if they were ruled late as well).
    fn forfeit(
        &mut self,
        round: u32,
        direction: Direction,
        pair: u32,
        reason: &str,
        at_ms: u64,
    ) -> Result<(), Problem> {
        if Some(round) != self.playing() {
            return Err(not_now(
                format!("第 {round} 轮没有在进行"),
                format!("round {round} is not being played"),
            ));
        }
        self.known_pair(direction, pair)?;
        let p = self.pair(direction, pair).expect("known").clone();
        if p.bot {
            return Err(bad(
                "电脑对总是准时入座",
                "a computer pair is always seated in time",
            ));
        }
        let plan = self
            .table_of(round, &p)
            .ok_or_else(|| not_now("这一轮这一对不打", "the pair does not play this round"))?
            .clone();
        if plan.ns.is_none() || plan.ew.is_none() {
            return Err(not_now(
                "半桌：这一对本轮轮空，无所谓迟到",
                "a half table: the pair sits out this round; it cannot be late",
            ));
        }
        let Some(clock) = self.clock(round) else {
            return Err(not_now(
                "这一轮的开始时间没有记录，不能判迟到",
                "this round's start time was not logged: lateness cannot be judged",
            ));
        };
        let late_from = clock.started_ms + LATE_MS;
        if at_ms <= late_from {
            let left = (late_from - at_ms).div_ceil(60_000);
            return Err(not_now(
                format!("本轮开始还不到 10 分钟（还有约 {left} 分钟），不能判迟到"),
                format!("the round started less than 10 minutes ago (about {left} minutes to go): not late yet"),
            ));
        }
        if let Some(sat) = self.seated_at(round, direction, pair) {
            if sat <= late_from {
                return Err(not_now(
                    format!(
                        "{}第 {pair} 对已按时入座（开始后 {} 分钟内）",
                        direction.zh(),
                        LATE_MS / 60_000
                    ),
                    format!(
                        "{} pair {pair} was seated in time (within {} minutes of the start)",
                        direction.name(),
                        LATE_MS / 60_000
                    ),
                ));
            }
        }
        if self.forfeited(round, direction, pair) {
            return Err(not_now(
                format!("{}第 {pair} 对本轮已判弃权", direction.zh()),
                format!(
                    "{} pair {pair} has forfeited this round already",
                    direction.name()
                ),
            ));
        }
        let reason = text(reason, MAX_REASON, "理由", "the reason")?;
        let other = match direction {
            Direction::NS => (Direction::EW, plan.ew),
            Direction::EW => (Direction::NS, plan.ns),
        };
        let other_late = other.1.is_some_and(|n| self.forfeited(round, other.0, n));
        let (late, opponents) = ("A-".to_string(), if other_late { "A-" } else { "A+" });
        let artificial = match direction {
            Direction::NS => ArtificialPair {
                ns: Some(late),
                ew: Some(opponents.into()),
            },
            Direction::EW => ArtificialPair {
                ns: Some(opponents.into()),
                ew: Some(late),
            },
        };
        for &board in &plan.boards {
            let play = self.plays.entry((round, plan.table, board)).or_default();
            if play.played.is_none() {
                play.adjusted = Some(Adjusted {
                    defenders: None,
                    artificial: Some(artificial.clone()),
                    reason: format!("迟到弃权 (late: forfeit)：{reason}"),
                });
            }
        }
        self.forfeits.push((round, direction, pair));
        Ok(())
    }

    /// Refuses a pair the event does not have.
    fn known_pair(&self, direction: Direction, pair: u32) -> Result<(), Problem> {
        match self.pair(direction, pair) {
            Some(_) => Ok(()),
            None => Err(bad(
                format!("{}没有第 {pair} 对", direction.zh()),
                format!("{} has no pair {pair}", direction.name()),
            )),
        }
    }

    /// The director has disqualified this pair.
    pub fn is_disqualified(&self, direction: Direction, pair: u32) -> bool {
        self.disqualified
            .iter()
            .any(|d| d.direction == direction && d.pair == pair)
    }

    /// Checks that a board is played at a table in a round.
    fn board_of(&self, round: u32, table: u32, board: u32) -> Result<(), Problem> {
        match self.table_plan(round, table) {
            Some(t) if t.boards.contains(&board) => Ok(()),
            _ => Err(bad(
                format!("第 {round} 轮第 {table} 桌不打第 {board} 副"),
                format!("table {table} does not play board {board} in round {round}"),
            )),
        }
    }
}

/// Boards dealt by a movement (the highest board number).
pub fn movement_boards(m: &Movement) -> u32 {
    m.rounds
        .iter()
        .flat_map(|r| r.tables.iter().flat_map(|t| t.boards.iter().copied()))
        .max()
        .unwrap_or(0)
}

// --- pair tokens ----------------------------------------------------------------------------

/// A pair's token, printed on its seating card ([`super::card_token`]): from the event's
/// secret, the registration and the pair, so a re-registration makes new ones.
pub fn pair_token(secret: &str, event: &str, registered: u64, pair: &Pair) -> String {
    super::card_token::printed(
        "paiju-pair-1",
        secret,
        event,
        &format!(
            "{registered}\x1f{}\x1f{}",
            pair.direction.name(),
            pair.number
        ),
    )
}

/// A typed pair token as compared: lower case, without dashes or spaces.
pub fn normal_token(typed: &str) -> String {
    typed
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '\u{3000}'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The seat token a pair token gives for one seat of one table: the same each time it is asked
/// (so a player who lost it sits down again with the pair token).
pub fn seat_token(pair_token: &str, table_id: &str, seat: SeatIndex) -> String {
    let digest = Sha256::new()
        .chain_update(b"paiju-pair-seat-1\x1f")
        .chain_update(normal_token(pair_token).as_bytes())
        .chain_update(format!("\x1f{table_id}\x1f{seat}"))
        .finalize();
    rules::deal::hex(&digest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::codes;

    fn spec(tables: u32, rounds: u32, k: u32) -> CreateEvent {
        CreateEvent {
            game: "shengji".into(),
            name: "练习赛".into(),
            tables,
            rounds,
            boards_per_round: k,
            movement: MovementKind::Plain,
            ruleset: Some("fujian-2024".into()),
            level: None,
            trump: None,
            board_minutes: Some(12),
            entries: (0..2 * tables)
                .map(|i| EntryIn {
                    names: vec![format!("甲{i}"), format!("乙{i}")],
                    organisation: Some("福州".into()),
                    bot: i % 2 == 1,
                    team: None,
                })
                .collect(),
            groups: None,
            final_games: None,
        }
    }

    fn result(round: u32, table: u32, board: u32) -> [EventAction; 2] {
        let id = format!("t{round}{table}{board}");
        [
            EventAction::TableOpened {
                round,
                table,
                board,
                table_id: id.clone(),
            },
            EventAction::Result {
                round,
                table,
                board,
                table_id: id,
                declarer: "N".into(),
                defenders: 40,
            },
        ]
    }

    #[test]
    fn a_round_goes_from_start_to_close_through_confirmations() {
        let mut e = Event::create("e", &spec(3, 3, 1)).unwrap();
        assert_eq!(e.pairs.len(), 6);
        assert_eq!(e.registered, 1);
        let mut seq = 1;
        let mut go = |e: &mut Event, a: EventAction| {
            seq += 1;
            e.apply(seq, &a)
        };
        assert_eq!(
            go(
                &mut e,
                EventAction::StartRound {
                    round: 2,
                    at_ms: None
                }
            )
            .unwrap_err()
            .code,
            codes::EVENT_STATE
        );
        go(
            &mut e,
            EventAction::StartRound {
                round: 1,
                at_ms: None,
            },
        )
        .unwrap();
        // NS 1 (a person) against EW 1 (bots) at table 1 plays board 1.
        assert_eq!(e.current_board(1, 1), Some(1));
        for a in result(1, 1, 1) {
            go(&mut e, a).unwrap();
        }
        assert!(e.table_done(1, 1));
        // Closing needs every table's results.
        assert_eq!(
            go(
                &mut e,
                EventAction::CloseRound {
                    round: 1,
                    forced: true
                }
            )
            .unwrap_err()
            .code,
            codes::EVENT_STATE
        );
        for t in [2, 3] {
            let b = e.current_board(1, t).unwrap();
            for a in result(1, t, b) {
                go(&mut e, a).unwrap();
            }
        }
        // EW check after NS record; a dispute needs a note.
        let confirm = |table, direction, agree, note: Option<&str>| EventAction::Confirm {
            round: 1,
            table,
            direction,
            agree,
            note: note.map(str::to_string),
        };
        assert_eq!(
            go(&mut e, confirm(1, Direction::EW, false, None))
                .unwrap_err()
                .code,
            codes::BAD_REQUEST
        );
        // Table 1: NS are people, EW bots (confirmed by themselves).
        assert!(e.confirmed(1, 1, Direction::EW));
        assert!(!e.confirmed(1, 1, Direction::NS));
        go(&mut e, confirm(1, Direction::NS, true, None)).unwrap();
        assert_eq!(
            go(
                &mut e,
                EventAction::CloseRound {
                    round: 1,
                    forced: false
                }
            )
            .unwrap_err()
            .code,
            codes::EVENT_STATE,
            "tables 2 and 3 have people who have not confirmed"
        );
        go(
            &mut e,
            EventAction::CloseRound {
                round: 1,
                forced: true,
            },
        )
        .unwrap();
        assert_eq!(e.closed, 1);
        // After the close the round's results are the director's to adjust.
        go(
            &mut e,
            EventAction::Adjust {
                round: 1,
                table: 2,
                board: 2,
                defenders: Some(120),
                artificial: None,
                reason: "传递非法信息：判违规方负".into(),
            },
        )
        .unwrap();
        assert_eq!(
            go(&mut e, EventAction::Reveal { early: false })
                .unwrap_err()
                .code,
            codes::EVENT_STATE
        );
    }

    #[test]
    fn entries_are_checked_and_tokens_are_short_and_stable() {
        let mut s = spec(3, 3, 1);
        // One short is a half table; two short is refused.
        s.entries.truncate(4);
        assert_eq!(Event::create("e", &s).unwrap_err().code, codes::BAD_REQUEST);
        let mut s = spec(3, 3, 1);
        s.entries[0].names = vec!["机器人".into(), "老王".into()];
        assert_eq!(Event::create("e", &s).unwrap_err().code, "bad_name");
        let mut s = spec(3, 4, 1);
        s.entries.clear();
        assert_eq!(
            Event::create("e", &s).unwrap_err().code,
            "too_many_rounds",
            "the movement's own refusal"
        );
        let e = Event::create("e", &spec(3, 3, 1)).unwrap();
        let a = pair_token("s", "e", 1, &e.pairs[0]);
        assert_eq!(a.len(), 14);
        assert_eq!(a, pair_token("s", "e", 1, &e.pairs[0]));
        assert_ne!(a, pair_token("s", "e", 1, &e.pairs[1]));
        assert_ne!(a, pair_token("s", "e", 7, &e.pairs[0]));
        assert_eq!(normal_token(&a.to_uppercase()), a.replace('-', ""));
        assert_eq!(
            seat_token(&a, "t", 0),
            seat_token(&a.replace('-', " "), "t", 0)
        );
        assert_ne!(seat_token(&a, "t", 0), seat_token(&a, "t", 2));
    }

    /// Applies actions from seq 2 on, as the log would; the first refusal fails the test.
    fn log(e: &mut Event, actions: &[EventAction]) -> Vec<(u64, EventAction)> {
        let mut out = Vec::new();
        for a in actions {
            let seq = e.registered.max(1) + 1 + out.len() as u64;
            e.apply(seq, a)
                .unwrap_or_else(|p| panic!("{a:?}: {}", p.en));
            out.push((seq, a.clone()));
        }
        out
    }

    const START: u64 = 1_800_000_000_000;
    const MINUTE: u64 = 60_000;

    fn start(round: u32, at: u64) -> EventAction {
        EventAction::StartRound {
            round,
            at_ms: Some(at),
        }
    }

    fn people(tables: u32, rounds: u32, k: u32) -> CreateEvent {
        let mut s = spec(tables, rounds, k);
        for e in &mut s.entries {
            e.bot = false;
        }
        s
    }

    #[test]
    fn one_pair_short_makes_a_half_table_whose_sit_out_gets_the_average() {
        let mut s = spec(3, 3, 2);
        s.entries.pop();
        let mut e = Event::create("e", &s).unwrap();
        assert_eq!(e.phantom(), Some((Direction::EW, 3)));
        assert!(e.pair(Direction::EW, 3).is_none());
        // Two pairs short is still refused.
        let mut s2 = s.clone();
        s2.entries.pop();
        assert_eq!(
            Event::create("e", &s2).unwrap_err().code,
            codes::BAD_REQUEST
        );
        log(&mut e, &[start(1, START)]);
        // Round 1: table 3 is NS 3 against the phantom: both boards settled at once, A for NS.
        let plan = e.table_plan(1, 3).unwrap().clone();
        assert_eq!((plan.ns, plan.ew), (Some(3), None));
        assert!(e.table_done(1, 3));
        assert!(e.confirmed(1, 3, Direction::NS) && e.confirmed(1, 3, Direction::EW));
        for b in plan.boards {
            let a = e.play(1, 3, b).unwrap().adjusted.clone().unwrap();
            assert_eq!(
                a.artificial,
                Some(ArtificialPair {
                    ns: Some("A".into()),
                    ew: None
                })
            );
        }
        // The other tables are whole and still to play.
        assert!(!e.table_done(1, 1) && !e.table_done(1, 2));
        // The director may adjust the sit-out, giving the present side only.
        let adjust = |ns: Option<&str>, ew: Option<&str>| EventAction::Adjust {
            round: 1,
            table: 3,
            board: 5,
            defenders: None,
            artificial: Some(ArtificialPair {
                ns: ns.map(Into::into),
                ew: ew.map(Into::into),
            }),
            reason: "x".into(),
        };
        let mut f = e.clone();
        assert_eq!(
            f.apply(9, &adjust(Some("A+"), Some("A-")))
                .unwrap_err()
                .code,
            codes::BAD_REQUEST
        );
        let points = EventAction::Adjust {
            round: 1,
            table: 3,
            board: 5,
            defenders: Some(40),
            artificial: None,
            reason: "x".into(),
        };
        assert_eq!(
            f.apply(9, &points).unwrap_err().code,
            codes::BAD_REQUEST,
            "no points without opponents"
        );
        f.apply(9, &adjust(Some("A+"), None)).unwrap();
        // The phantom is nobody: no deduction for it; it is not ranked.
        assert_eq!(
            f.apply(
                10,
                &EventAction::Deduction {
                    direction: Direction::EW,
                    pair: 3,
                    mp: 0.5,
                    reason: "x".into(),
                    kind: None
                }
            )
            .unwrap_err()
            .code,
            codes::BAD_REQUEST
        );
        // Sitting out, NS 3 cannot be late.
        let mut g = e.clone();
        assert_eq!(
            g.apply(
                9,
                &EventAction::Forfeit {
                    round: 1,
                    direction: Direction::NS,
                    pair: 3,
                    reason: "迟到".into(),
                    at_ms: START + 11 * MINUTE,
                }
            )
            .unwrap_err()
            .code,
            codes::EVENT_STATE
        );
        let input = super::super::scoring::score_input(&e, 1);
        assert_eq!(input.pairs.ew.len(), 2);
        assert_eq!(input.pairs.ns.len(), 3);
    }

    #[test]
    fn a_second_signalling_deduction_disqualifies_in_the_same_step() {
        let mut e = Event::create("e", &spec(3, 3, 1)).unwrap();
        let deduct = |kind| EventAction::Deduction {
            direction: Direction::NS,
            pair: 2,
            mp: 0.5,
            reason: "传递非法信息".into(),
            kind,
        };
        log(
            &mut e,
            &[deduct(None), deduct(Some(DeductionKind::Signalling))],
        );
        assert!(
            !e.is_disqualified(Direction::NS, 2),
            "one signalling offence and one other deduction"
        );
        log(&mut e, &[deduct(Some(DeductionKind::Signalling))]);
        assert!(e.is_disqualified(Direction::NS, 2));
        assert_eq!(e.disqualified.len(), 1);
        // A third is a deduction still, and disqualifies no more than once.
        log(&mut e, &[deduct(Some(DeductionKind::Signalling))]);
        assert_eq!(e.disqualified.len(), 1);
        assert_eq!(e.deductions.len(), 4);
    }

    #[test]
    fn the_event_may_finish_early_after_a_closed_round() {
        let mut e = Event::create("e", &spec(3, 3, 1)).unwrap();
        let early = EventAction::Reveal { early: true };
        assert_eq!(
            e.clone().apply(2, &early).unwrap_err().code,
            codes::EVENT_STATE
        );
        log(&mut e, &[start(1, START)]);
        let mut round = Vec::new();
        for t in 1..=3 {
            round.extend(result(1, t, t));
        }
        log(&mut e, &round);
        assert_eq!(
            e.clone().apply(20, &early).unwrap_err().code,
            codes::EVENT_STATE,
            "round 1 is being played"
        );
        log(
            &mut e,
            &[EventAction::CloseRound {
                round: 1,
                forced: true,
            }],
        );
        assert_eq!(
            e.clone()
                .apply(30, &EventAction::Reveal { early: false })
                .unwrap_err()
                .code,
            codes::EVENT_STATE,
            "without early, every planned round must be closed"
        );
        log(&mut e, &[early]);
        assert!(e.finished() && e.early);
        assert_eq!(e.closed, 1);
    }

    #[test]
    fn a_gouji_event_does_not_finish_early() {
        let spec = CreateEvent {
            game: gouji::GOUJI.into(),
            tables: 0,
            rounds: 0,
            boards_per_round: 0,
            board_minutes: None,
            entries: (0..6)
                .map(|i| EntryIn {
                    names: Vec::new(),
                    organisation: Some(format!("单位{i}")),
                    bot: true,
                    team: None,
                })
                .collect(),
            ..spec(1, 1, 1)
        };
        let mut e = Event::create("g", &spec).unwrap();
        assert_eq!(
            e.apply(2, &EventAction::Reveal { early: true })
                .unwrap_err()
                .code,
            codes::BAD_REQUEST
        );
    }

    #[test]
    fn a_pair_more_than_ten_minutes_late_forfeits_the_round() {
        let mut e = Event::create("e", &people(3, 3, 2)).unwrap();
        let late = |direction, pair, at_ms| EventAction::Forfeit {
            round: 1,
            direction,
            pair,
            reason: "迟到".into(),
            at_ms,
        };
        let sit = |direction, pair, seat, at_ms| EventAction::Seated {
            round: 1,
            direction,
            pair,
            seat,
            at_ms,
        };
        assert_eq!(
            e.clone()
                .apply(2, &late(Direction::NS, 1, START + 11 * MINUTE))
                .unwrap_err()
                .code,
            codes::EVENT_STATE,
            "no round is being played"
        );
        log(
            &mut e,
            &[
                start(1, START),
                // NS 1 both seated after 5 minutes; EW 2 only one player (at 2 minutes).
                sit(Direction::NS, 1, 0, START + 3 * MINUTE),
                sit(Direction::NS, 1, 2, START + 5 * MINUTE),
                sit(Direction::EW, 2, 1, START + 2 * MINUTE),
            ],
        );
        assert_eq!(
            e.clock(1).unwrap().deadline_ms,
            START + 2 * 12 * MINUTE,
            "2 boards of 12 minutes"
        );
        assert_eq!(e.seated_at(1, Direction::NS, 1), Some(START + 5 * MINUTE));
        assert_eq!(e.seated_at(1, Direction::EW, 2), None);
        // Not before 10 minutes have passed.
        assert_eq!(
            e.clone()
                .apply(9, &late(Direction::EW, 2, START + 10 * MINUTE))
                .unwrap_err()
                .code,
            codes::EVENT_STATE
        );
        // Not a pair seated in time.
        let p = e
            .clone()
            .apply(9, &late(Direction::NS, 1, START + 30 * MINUTE))
            .unwrap_err();
        assert_eq!(p.code, codes::EVENT_STATE);
        assert!(p.zh.contains("按时入座"), "{}", p.zh);
        // EW 2 (one player missing) at 10 minutes and a second: forfeits.
        log(
            &mut e,
            &[late(Direction::EW, 2, START + 10 * MINUTE + 1000)],
        );
        let t = e
            .table_of(1, &e.pair(Direction::EW, 2).unwrap().clone())
            .unwrap()
            .clone();
        assert!(e.table_done(1, t.table));
        for b in &t.boards {
            let a = e.play(1, t.table, *b).unwrap().adjusted.clone().unwrap();
            assert_eq!(
                a.artificial,
                Some(ArtificialPair {
                    ns: Some("A+".into()),
                    ew: Some("A-".into())
                })
            );
        }
        assert!(
            e.confirmed(1, t.table, Direction::EW),
            "not there to confirm"
        );
        assert_eq!(
            e.clone()
                .apply(20, &late(Direction::EW, 2, START + 20 * MINUTE))
                .unwrap_err()
                .code,
            codes::EVENT_STATE,
            "once"
        );
        // Its opponents late too: both get A−.
        let ns = t.ns.unwrap();
        log(&mut e, &[late(Direction::NS, ns, START + 12 * MINUTE)]);
        let a = e
            .play(1, t.table, t.boards[0])
            .unwrap()
            .adjusted
            .clone()
            .unwrap();
        assert_eq!(
            a.artificial,
            Some(ArtificialPair {
                ns: Some("A-".into()),
                ew: Some("A-".into())
            })
        );
        // A round started without a logged time cannot judge lateness.
        let mut old = Event::create("e", &people(3, 3, 1)).unwrap();
        log(
            &mut old,
            &[EventAction::StartRound {
                round: 1,
                at_ms: None,
            }],
        );
        assert_eq!(
            old.apply(3, &late(Direction::NS, 1, START + 60 * MINUTE))
                .unwrap_err()
                .code,
            codes::EVENT_STATE
        );
    }

    #[test]
    fn replaying_the_log_with_its_times_gives_the_same_event() {
        let mut e = Event::create("e", &people(3, 3, 1)).unwrap();
        let spec = e.spec.clone();
        let mut entries = vec![(
            1,
            EventAction::Create {
                spec: CreateEvent {
                    entries: people(3, 3, 1).entries,
                    ..spec
                },
            },
        )];
        entries.extend(log(
            &mut e,
            &[
                start(1, START),
                EventAction::Forfeit {
                    round: 1,
                    direction: Direction::NS,
                    pair: 2,
                    reason: "迟到".into(),
                    at_ms: START + 11 * MINUTE,
                },
            ],
        ));
        let again = Event::replay("e", &entries).unwrap();
        assert_eq!(again.plays, e.plays);
        assert_eq!(again.forfeits, e.forfeits);
        assert_eq!(again.clocks, e.clocks);
    }
}
