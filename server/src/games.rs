//! The registry of the games a server hosts, by wire name (`shengji`, `gouji`, and the tests'
//! stand-in game): every game-specific lookup goes through it — the lobby's, the tables', the
//! referee's desk's ([`GameKind::desk`]) — so hosting a third game is one more `.with::<G>()` in
//! [`Games::standard`] (`.with_desk::<G>()` for a game the referee's tools know too). The type
//! erasure here is what lets tables of different games share one lobby.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use protocol::Refusal;
use rules::deal::Seed;

use crate::referee::desk::{self, Desk, DeskGame, Desks};
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
    ) -> Result<usize, Refusal>;
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
    /// `paiju load --drive FILE`: a child generator of a load of this game.
    fn drive(&self, order: std::path::PathBuf) -> DriveRun;
    /// `paiju bot`: one seat of a table of this game, its seat token `token`, played over
    /// WebSocket (`url`) by this game's computer player at `level`.
    fn bot(
        &self,
        url: String,
        token: String,
        opts: bots::client::BotOptions,
        level: bots::Level,
    ) -> BotRun;
    /// The referee's desk for tables of this game (replay, explain, the board format, …);
    /// `None` for a game it does not know (the tests' stand-in games).
    fn desk(&self) -> Option<&dyn Desk>;
}

/// A running `paiju load`.
pub type LoadRun =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<bots::load::LoadReport, String>>>>;

/// A running child generator of `paiju load`.
pub type DriveRun = std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), String>>>>;

/// A running `paiju bot`.
pub type BotRun =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<bots::client::BotReport, String>>>>;

struct Kind<G> {
    desk: Option<Box<dyn Desk>>,
    game: PhantomData<fn() -> G>,
}

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
    ) -> Result<usize, Refusal> {
        Ok(G::start(ruleset, seed, board, fixed)?.seats())
    }
    fn spawn(&self, stored: StoredTable, deps: TableDeps) -> Result<TableHandle, String> {
        crate::table::spawn::<G>(stored, deps)
    }
    fn load(&self, opts: bots::load::LoadOptions) -> LoadRun {
        Box::pin(bots::load::run::<G>(opts))
    }
    fn drive(&self, order: std::path::PathBuf) -> DriveRun {
        Box::pin(async move { bots::load::drive::<G>(&order).await })
    }
    fn bot(
        &self,
        url: String,
        token: String,
        opts: bots::client::BotOptions,
        level: bots::Level,
    ) -> BotRun {
        Box::pin(
            async move { bots::client::play_as::<G>(&url, &token, opts, G::player(level)).await },
        )
    }
    fn desk(&self) -> Option<&dyn Desk> {
        self.desk.as_deref()
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
    pub fn with<G: TableGame>(self) -> Games {
        self.add::<G>(None)
    }

    /// Adds a game the referee's desk knows too.
    pub fn with_desk<G: DeskGame>(self) -> Games {
        self.add::<G>(Some(desk::desk::<G>()))
    }

    fn add<G: TableGame>(mut self, desk: Option<Box<dyn Desk>>) -> Games {
        let kind = Kind::<G> {
            desk,
            game: PhantomData,
        };
        self.0.insert(G::GAME, Arc::new(kind));
        self
    }

    /// The games `paiju serve` hosts: 80分 and 够级.
    pub fn standard() -> Games {
        Games::empty()
            .with_desk::<rules::shengji::Board>()
            .with_desk::<rules::gouji::Game>()
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn GameKind>> {
        self.0.get(name)
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.0.keys().copied().collect()
    }
}

/// The referee's desk finds a table's game here.
impl Desks for Games {
    fn desk(&self, game: &str) -> Option<&dyn Desk> {
        self.get(game)?.desk()
    }

    fn desk_games(&self) -> Vec<&'static str> {
        self.0
            .iter()
            .filter(|(_, kind)| kind.desk().is_some())
            .map(|(name, _)| *name)
            .collect()
    }
}
