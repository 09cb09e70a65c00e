//! 裁判台 (the desk): every referee command for a game, reached through the registry of games
//! (`Games`) by the game's name — never by a name written here.
//!
//! A game the desk knows is a [`DeskGame`]: the table's game (`TableGame`) with its words, its
//! replay, its explanations and its board-file lines ([`super::replay::ReplayGame`],
//! [`super::explain::ExplainGame`], [`super::board_file::BoardFileGame`]), its deal as JSON, its
//! judge, and (80分) its record card. [`Desk`] is the same with the game's type erased, one a
//! game in the registry; [`Desks`] is how the commands find one by a table's `game`.

use std::marker::PhantomData;

use protocol::Words;
use rules::deal::Seed;
use serde_json::Value;

use super::board_file::{self, BoardFileGame, BoardText};
use super::explain::{self, ExplainGame, Explanation, Try};
use super::lang::Lang;
use super::record_card::{self, CardOptions};
use super::replay::{self, ReplayGame};
use super::replayed::{self, Checked, Fault};
use crate::store::StoredTable;

/// A game the referee's desk knows.
pub trait DeskGame: ReplayGame + ExplainGame + BoardFileGame + Sync {
    /// One board re-dealt from its seed, as `paiju deal` prints it.
    fn redeal(seed: &Seed, board: u32) -> Value;
    /// `paiju judge`'s answer to one question of this game.
    fn judge(question: Value) -> Value;
    /// The record card (随牌记录卡) of a board: 80分's alone.
    fn record_card(checked: &Checked<Self>, opts: &CardOptions) -> Result<String, String> {
        let _ = opts;
        Err(format!(
            "table {}: the record card is 80分's (this table is {})",
            checked.table.header.id,
            Self::title(Lang::Zh)
        ))
    }
}

impl DeskGame for rules::shengji::Board {
    fn redeal(seed: &Seed, board: u32) -> Value {
        super::deal::shengji(seed, board)
    }

    fn judge(question: Value) -> Value {
        super::judge::answer_with(question, rules::shengji::judge::answer)
    }

    fn record_card(checked: &Checked<Self>, opts: &CardOptions) -> Result<String, String> {
        record_card::one(checked, opts)
    }
}

impl DeskGame for rules::gouji::Game {
    fn redeal(seed: &Seed, board: u32) -> Value {
        super::deal::gouji(seed, board)
    }

    fn judge(question: Value) -> Value {
        super::judge::answer_with(question, rules::gouji::judge::answer)
    }
}

/// Where a command's table comes from.
pub enum Source<'a> {
    /// A database's record, and the `head_hash` published with its result if one is to be
    /// checked.
    Stored(Box<StoredTable>, Option<&'a str>),
    /// A board of a board file.
    Board(&'a BoardText),
}

/// What `paiju replay` prints, and the fault that fails it.
pub struct Report {
    pub text: String,
    pub fault: Option<Fault>,
}

/// A board of a file read back by `paiju import`: the table it makes and what was checked.
pub struct Import {
    pub table: StoredTable,
    /// What it is: `sj1：80分 第 1 副，52 条动作，结果 85`.
    pub what: Words,
    /// What was checked besides the replay.
    pub findings: Vec<String>,
    /// The file gave a seed: the table can be stored.
    pub storable: bool,
}

/// The referee's desk for one game, its type erased: one a game in the registry.
pub trait Desk: Send + Sync {
    /// `paiju replay`: the report (or `--at` the state) and the fault, if the record does not
    /// hold.
    fn replay(&self, source: Source<'_>, opts: &replay::Options) -> Result<Report, String>;
    /// The replay as JSON, or (`at`) the state after an action: the web replay viewer's.
    fn replay_json(&self, table: StoredTable, at: Option<u64>) -> Result<Value, String>;
    /// `paiju explain`: why entry `seq` was legal, or why `try_action` would be refused; with
    /// `all_seeing`, the decision valued with every hand known and on the seat's own view.
    fn explain(
        &self,
        source: Source<'_>,
        seq: u64,
        try_action: Option<&Try>,
        all_seeing: bool,
    ) -> Result<Explanation, Words>;
    /// `paiju export`: the table in the board format.
    fn export(&self, table: StoredTable, event: Option<&str>) -> Result<String, String>;
    /// `paiju import`: one board read back and checked.
    fn import(&self, board: &BoardText, rename: Option<&str>) -> Result<Import, String>;
    /// `paiju record-card`: the table's card (an HTML section).
    fn record_card(&self, table: StoredTable, opts: &CardOptions) -> Result<String, String>;
    /// `paiju deal`: one board as JSON.
    fn deal(&self, seed: &Seed, board: u32) -> Value;
    /// `paiju judge`: the answer to one question.
    fn judge(&self, question: Value) -> Value;
}

/// The desk of `G`.
pub fn desk<G: DeskGame>() -> Box<dyn Desk> {
    Box::new(DeskOf::<G>(PhantomData))
}

struct DeskOf<G>(PhantomData<fn() -> G>);

/// The table, checked (its chain, its header, every action through the engine) and replayed.
fn checked<G: DeskGame>(source: Source<'_>) -> Result<Checked<G>, String> {
    match source {
        Source::Stored(table, head) => Ok(replayed::check(*table, head)),
        Source::Board(b) => board_file::import_board(b, None).map(|i| i.checked),
    }
}

impl<G: DeskGame> Desk for DeskOf<G> {
    fn replay(&self, source: Source<'_>, opts: &replay::Options) -> Result<Report, String> {
        let checked = checked::<G>(source)?;
        Ok(Report {
            text: replay::report(&checked, opts)?,
            fault: checked.fault,
        })
    }

    fn replay_json(&self, table: StoredTable, at: Option<u64>) -> Result<Value, String> {
        let checked = replayed::check::<G>(table, None);
        match at {
            None => Ok(replay::json(&checked)),
            Some(n) => replay::state_json(&checked, n),
        }
    }

    fn explain(
        &self,
        source: Source<'_>,
        seq: u64,
        try_action: Option<&Try>,
        all_seeing: bool,
    ) -> Result<Explanation, Words> {
        let checked = checked::<G>(source).map_err(Words::same)?;
        explain::ask(&checked, seq, try_action, all_seeing)
    }

    fn export(&self, table: StoredTable, event: Option<&str>) -> Result<String, String> {
        board_file::export(&replayed::check::<G>(table, None), event)
    }

    fn import(&self, board: &BoardText, rename: Option<&str>) -> Result<Import, String> {
        let imported = board_file::import_board::<G>(board, rename)?;
        Ok(Import {
            what: board_file::imported(&imported),
            table: imported.checked.table,
            findings: imported.findings,
            storable: imported.storable,
        })
    }

    fn record_card(&self, table: StoredTable, opts: &CardOptions) -> Result<String, String> {
        let checked = replayed::check::<G>(table, None);
        if let Some(f) = &checked.fault {
            return Err(format!(
                "table {}: {}",
                checked.table.header.id,
                opts.lang.of(&f.words)
            ));
        }
        G::record_card(&checked, opts)
    }

    fn deal(&self, seed: &Seed, board: u32) -> Value {
        G::redeal(seed, board)
    }

    fn judge(&self, question: Value) -> Value {
        G::judge(question)
    }
}

/// How the referee's commands find a game's desk: the registry of games, seen from the desk
/// (the registry, `Games`, implements it; the desk never names a game itself).
pub trait Desks {
    /// The desk of the game of that wire name, if the desk knows it.
    fn desk(&self, game: &str) -> Option<&dyn Desk>;
    /// The games with a desk, by wire name.
    fn desk_games(&self) -> Vec<&'static str>;
}

/// The desk of `game`, or why there is none (naming the games there are).
pub fn desk_of<'a>(desks: &'a dyn Desks, game: &str) -> Result<&'a dyn Desk, Words> {
    desks.desk(game).ok_or_else(|| {
        let games = desks.desk_games();
        Words::new(
            format!("不认识的游戏「{game}」（可选：{}）", games.join("、")),
            format!("unknown game {game:?} ({})", games.join(" or ")),
        )
    })
}
