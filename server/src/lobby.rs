//! The lobby: the registry of open tables (a DashMap, design principle 5) and the operations
//! that create tables and seat players. Each table itself is its own actor ([`crate::table`]).

use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use protocol::{
    codes, CreateTable, JoinSeat, Joined, LeaveSeat, Problem, TableState, TableSummary,
};

use crate::clock::ClockScale;
use crate::game::{DealFixed, Games};
use crate::seat_token;
use crate::store::{self, Journal, SeatRecord, StoredTable, TableHeader};
use crate::table::{seed_in_use, TableHandle};

/// What every table needs from the server, fixed at start-up.
#[derive(Clone, Debug)]
pub struct TableSettings {
    /// Real time per game second (1.0 in play; small in tests).
    pub clock_scale: ClockScale,
    /// How long a bot (or 托管) waits before it plays, so people can follow.
    pub bot_delay: Duration,
    /// A table with no connection for this long is closed (its log is kept).
    pub idle_after: Duration,
    /// SHA-256 of the referee token, if one was set.
    pub referee_hash: Option<String>,
}

/// What a table's actor gets when it is spawned.
#[derive(Clone)]
pub struct TableDeps {
    pub journal: Journal,
    pub settings: Arc<TableSettings>,
    /// The registry, so a closing table can remove itself.
    pub registry: Arc<DashMap<String, TableHandle>>,
}

/// An HTTP status and the problem to show.
pub type Refusal = (u16, Problem);

pub struct Lobby {
    pub games: Games,
    /// Open tables by id.
    pub tables: Arc<DashMap<String, TableHandle>>,
    pub journal: Journal,
    pub settings: Arc<TableSettings>,
    /// Cap on open tables.
    pub max_tables: usize,
}

fn refusal(status: u16, code: &str, zh: &str, en: &str) -> Refusal {
    (status, Problem::new(code, zh, en))
}

impl Lobby {
    fn deps(&self) -> TableDeps {
        TableDeps {
            journal: self.journal.clone(),
            settings: self.settings.clone(),
            registry: self.tables.clone(),
        }
    }

    /// Rebuilds every stored open table by replaying its log. Returns the tables that could not
    /// be rebuilt (tampered logs, unknown games) with the reason; they stay stored, unserved.
    pub fn recover(&self, stored: Vec<StoredTable>) -> Vec<(String, String)> {
        let mut failed = Vec::new();
        for t in stored {
            let id = t.header.id.clone();
            let Some(kind) = self.games.get(&t.header.game) else {
                failed.push((id, format!("unknown game {}", t.header.game)));
                continue;
            };
            match kind.spawn(t, self.deps()) {
                Ok(handle) => {
                    self.tables.insert(id, handle);
                }
                Err(e) => failed.push((id, e)),
            }
        }
        failed
    }

    pub fn list(&self) -> Vec<TableSummary> {
        let all: Vec<TableSummary> = self.tables.iter().map(|t| t.summary()).collect();
        let mut out: Vec<TableSummary> = all.into_iter().map(|s| self.public(s)).collect();
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out
    }

    /// One table's public summary.
    pub fn summary(&self, id: &str) -> Option<TableSummary> {
        let s = self.get(id)?.summary();
        Some(self.public(s))
    }

    /// A summary as it may be shown now: a finished table's seed stays hidden while another
    /// open table still deals from it (checked at read time: the other table may end later).
    fn public(&self, mut s: TableSummary) -> TableSummary {
        if s.seed.is_some() && seed_in_use(&self.tables, &s.id, &s.seed_commitment) {
            s.seed = None;
        }
        s
    }

    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.tables.get(id).map(|t| t.clone())
    }

    fn find(&self, id: &str) -> Result<TableHandle, Refusal> {
        self.get(id)
            .ok_or_else(|| refusal(404, codes::NO_TABLE, "没有这张牌桌", "no such table"))
    }

    pub async fn create(&self, req: CreateTable) -> Result<TableSummary, Refusal> {
        if self.tables.len() >= self.max_tables {
            return Err(refusal(
                503,
                codes::TOO_MANY_TABLES,
                "牌桌已满，请稍后再试",
                "too many tables are open; try again later",
            ));
        }
        let kind = self.games.get(&req.game).ok_or_else(|| {
            (
                400,
                Problem::new(
                    codes::UNKNOWN_GAME,
                    format!("没有这种玩法「{}」", req.game),
                    format!(
                        "unknown game \"{}\" (this server has: {})",
                        req.game,
                        self.games.names().join(", ")
                    ),
                ),
            )
        })?;
        let seed = match &req.seed {
            Some(hex) => {
                rules::deal::Seed::from_hex(hex).map_err(|e| (400, Problem::explain(&e)))?
            }
            None => rules::deal::Seed(seat_token::random_bytes::<32>()),
        };
        let board = req.board.unwrap_or(1);
        if board == 0 {
            return Err(refusal(
                400,
                codes::BAD_REQUEST,
                "副数从 1 开始",
                "boards are numbered from 1",
            ));
        }
        let ruleset = req
            .ruleset
            .clone()
            .unwrap_or_else(|| kind.default_ruleset().to_string());
        let fixed = DealFixed {
            level: req.level.clone(),
            trump: req.trump.clone(),
        };
        let seats = kind
            .check(&ruleset, &seed, board, &fixed)
            .map_err(|p| (400, p))?;
        if let Some(&bad) = req.bots.iter().find(|&&s| s >= seats) {
            return Err((
                400,
                Problem::new(
                    codes::BAD_SEAT,
                    format!("没有座位 {bad}"),
                    format!("there is no seat {bad} (seats are 0..{seats})"),
                ),
            ));
        }
        let header = TableHeader {
            id: seat_token::table_code(),
            game: kind.name().to_string(),
            options: kind.options(&ruleset),
            ruleset,
            deal_algorithm: rules::deal::ALGORITHM.to_string(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            board,
            fixed: fixed.to_json(),
            created_ms: store::now_ms(),
        };
        let seat_records = (0..seats)
            .map(|seat| {
                let bot = req.bots.contains(&seat);
                SeatRecord {
                    seat,
                    name: None,
                    token_hash: None,
                    bot,
                }
            })
            .collect();
        let stored = StoredTable {
            header,
            state: TableState::Waiting,
            seats: seat_records,
            log: vec![],
        };
        self.journal
            .create_table(stored.clone())
            .await
            .map_err(|e| {
                (
                    500,
                    Problem::new(codes::STORE_FAILED, "服务器无法保存", e.0),
                )
            })?;
        let id = stored.header.id.clone();
        let handle = kind
            .spawn(stored, self.deps())
            .map_err(|e| (500, Problem::new(codes::STORE_FAILED, "无法开桌", e)))?;
        let summary = handle.summary();
        self.tables.insert(id, handle);
        Ok(summary)
    }

    pub async fn join(&self, id: &str, req: JoinSeat) -> Result<Joined, Refusal> {
        let table = self.find(id)?;
        let name = req.name.trim().to_string();
        let chars = name.chars().count();
        if chars == 0 || chars > 24 || name.chars().any(char::is_control) {
            return Err(refusal(
                400,
                codes::BAD_NAME,
                "名字要 1 到 24 个字",
                "a name is 1 to 24 characters",
            ));
        }
        let (token, hash) = seat_token::fresh();
        table.join(req.seat, name, hash).await.map_err(|p| {
            let status = match p.code.as_str() {
                codes::SEAT_TAKEN => 409,
                codes::TABLE_CLOSED => 410,
                codes::STORE_FAILED => 500,
                _ => 400,
            };
            (status, p)
        })?;
        Ok(Joined {
            table: id.to_string(),
            seat: req.seat,
            token,
        })
    }

    pub async fn leave(&self, id: &str, req: LeaveSeat) -> Result<(), Refusal> {
        let table = self.find(id)?;
        table
            .leave(seat_token::hash(&req.token))
            .await
            .map_err(|p| (if p.code == codes::BAD_TOKEN { 403 } else { 400 }, p))
    }

    /// Stops every table actor (after its current command: writes finish).
    pub async fn stop_all(&self) {
        let handles: Vec<TableHandle> = self.tables.iter().map(|t| t.clone()).collect();
        for h in handles {
            h.stop().await;
        }
    }
}
