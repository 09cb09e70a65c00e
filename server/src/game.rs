//! The games a server can host, seen generically.
//!
//! A game is any `rules::Engine` that can be started from a ruleset name, a seed and a board
//! number ([`TableGame`]). [`Games`] maps the wire names (`shengji`, `gouji`) to them, so the
//! table actor, the log replay, the clocks and the bots are written once; wiring in a game is a
//! few lines in [`Games::standard`].

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use protocol::Problem;
use rules::deal::Seed;
use rules::Engine;

use crate::lobby::TableDeps;
use crate::store::StoredTable;
use crate::table::TableHandle;

/// A game engine a table can run.
pub trait TableGame:
    Engine<Action: Send + Sync, Event: Send + Sync, View: Send, Error: Send> + Send + Sized + 'static
{
    /// The wire name (`CreateTable::game`).
    const GAME: &'static str;
    /// The ruleset used when a table does not name one.
    const DEFAULT_RULESET: &'static str;
    /// Deals board (or game) `board` of `seed` under the named ruleset. Unknown rulesets and
    /// boards are refused with a [`Problem`].
    fn start(ruleset: &str, seed: &Seed, board: u32) -> Result<Self, Problem>;
    /// The ruleset's options as JSON, recorded in the table's header.
    fn options(ruleset: &str) -> String {
        let _ = ruleset;
        "{}".to_string()
    }
}

/// A game with its type erased, so tables of different games share one registry.
pub trait GameKind: Send + Sync {
    fn name(&self) -> &'static str;
    fn default_ruleset(&self) -> &'static str;
    fn options(&self, ruleset: &str) -> String;
    /// Starts an engine to check the ruleset and board; the number of seats.
    fn check(&self, ruleset: &str, seed: &Seed, board: u32) -> Result<usize, Problem>;
    /// Starts the table's actor from what is stored (replaying its log).
    fn spawn(&self, stored: StoredTable, deps: TableDeps) -> Result<TableHandle, String>;
}

struct Kind<G>(PhantomData<fn() -> G>);

impl<G: TableGame> GameKind for Kind<G> {
    fn name(&self) -> &'static str {
        G::GAME
    }
    fn default_ruleset(&self) -> &'static str {
        G::DEFAULT_RULESET
    }
    fn options(&self, ruleset: &str) -> String {
        G::options(ruleset)
    }
    fn check(&self, ruleset: &str, seed: &Seed, board: u32) -> Result<usize, Problem> {
        Ok(G::start(ruleset, seed, board)?.seats())
    }
    fn spawn(&self, stored: StoredTable, deps: TableDeps) -> Result<TableHandle, String> {
        crate::table::spawn::<G>(stored, deps)
    }
}

/// The games this server hosts, by wire name.
#[derive(Clone, Default)]
pub struct Games(BTreeMap<&'static str, Arc<dyn GameKind>>);

impl Games {
    pub fn empty() -> Games {
        Games::default()
    }

    /// Adds a game (tests add their own small games this way).
    pub fn with<G: TableGame>(mut self) -> Games {
        self.0.insert(G::GAME, Arc::new(Kind::<G>(PhantomData)));
        self
    }

    /// The games `paiju serve` hosts: 80分 and 够级.
    pub fn standard() -> Games {
        Games::empty()
            .with::<rules::shengji::Board>()
            .with::<rules::gouji::Game>()
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn GameKind>> {
        self.0.get(name)
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.0.keys().copied().collect()
    }
}

fn unknown_ruleset(game: &str, name: &str, known: &[&str]) -> Problem {
    Problem::new(
        "unknown_ruleset",
        format!(
            "{game} 没有「{name}」这套规则（可选：{}）",
            known.join("、")
        ),
        format!(
            "{game} has no ruleset \"{name}\" (known: {})",
            known.join(", ")
        ),
    )
}

/// 80分: one pre-dealt board (牌套) of the seed; declarer, level and trump as dealt.
impl TableGame for rules::shengji::Board {
    const GAME: &'static str = "shengji";
    const DEFAULT_RULESET: &'static str = "fujian-2024";

    fn start(ruleset: &str, seed: &Seed, board: u32) -> Result<Self, Problem> {
        let rules = rules::shengji::Ruleset::by_name(ruleset)
            .ok_or_else(|| unknown_ruleset("80分", ruleset, &["fujian-2024"]))?;
        let deal = rules::deal::deal_shengji(seed, board, rules::deal::Fixed::default());
        Ok(rules::shengji::Board::new(&deal, rules))
    }

    fn options(ruleset: &str) -> String {
        rules::shengji::Ruleset::by_name(ruleset)
            .and_then(|r| serde_json::to_string(&r).ok())
            .unwrap_or_else(|| "{}".into())
    }
}

/// 够级: one game (局) of the seed.
impl TableGame for rules::gouji::Game {
    const GAME: &'static str = "gouji";
    const DEFAULT_RULESET: &'static str = "zaozhuang-2017";

    fn start(ruleset: &str, seed: &Seed, board: u32) -> Result<Self, Problem> {
        let rules = rules::gouji::Ruleset::by_name(ruleset)
            .ok_or_else(|| unknown_ruleset("够级", ruleset, &rules::gouji::Ruleset::NAMES))?;
        let deal = rules::deal::deal_gouji(seed, board);
        Ok(rules::gouji::Game::new(&deal, rules))
    }

    fn options(ruleset: &str) -> String {
        rules::gouji::Ruleset::by_name(ruleset)
            .and_then(|r| serde_json::to_string(&r).ok())
            .unwrap_or_else(|| "{}".into())
    }
}
