//! The registry of the games a server hosts, by wire name (`shengji`, `gouji`, and the tests'
//! stand-in game): every game-specific lookup goes through it, so hosting a third game is one
//! more `.with::<G>()` in [`Games::standard`]. The type erasure here is what lets tables of
//! different games share one lobby.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use protocol::Problem;
use rules::deal::Seed;

use crate::store::StoredTable;
use crate::table::{DealFixed, TableDeps, TableGame, TableHandle};

/// A game with its type erased, so tables of different games share one registry.
pub trait GameKind: Send + Sync {
    fn name(&self) -> &'static str;
    fn default_ruleset(&self) -> &'static str;
    fn options(&self, ruleset: &str) -> String;
    /// Starts an engine to check the ruleset and board; the number of seats.
    fn check(
        &self,
        ruleset: &str,
        seed: &Seed,
        board: u32,
        fixed: &DealFixed,
    ) -> Result<usize, Problem>;
    /// Starts the table's actor from what is stored (replaying its log).
    fn spawn(&self, stored: StoredTable, deps: TableDeps) -> Result<TableHandle, String>;
    /// Seats at a table of this game.
    fn seats(&self) -> usize {
        self.check(
            self.default_ruleset(),
            &Seed([0; 32]),
            1,
            &DealFixed::default(),
        )
        .unwrap_or(0)
    }
    /// `paiju load` with bot clients of this game.
    fn load(&self, opts: bots::load::LoadOptions) -> LoadRun;
}

/// A running `paiju load`.
pub type LoadRun =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<bots::load::LoadReport, String>>>>;

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
    fn check(
        &self,
        ruleset: &str,
        seed: &Seed,
        board: u32,
        fixed: &DealFixed,
    ) -> Result<usize, Problem> {
        Ok(G::start(ruleset, seed, board, fixed)?.seats())
    }
    fn spawn(&self, stored: StoredTable, deps: TableDeps) -> Result<TableHandle, String> {
        crate::table::spawn::<G>(stored, deps)
    }
    fn load(&self, opts: bots::load::LoadOptions) -> LoadRun {
        Box::pin(bots::load::run::<G>(opts))
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
