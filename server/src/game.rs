//! The games a server can host, seen generically.
//!
//! A game is any `rules::Engine` that can be started from a ruleset name, a seed and a board
//! number ([`TableGame`]). [`Games`] maps the wire names (`shengji`, `gouji`) to them, so the
//! table actor, the log replay, the clocks and the bots are written once; wiring in a game is a
//! few lines in [`Games::standard`].

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use protocol::{codes, Problem};
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
    /// `fixed` is what the director fixed instead of drawing it; a game with nothing to fix
    /// refuses anything there.
    fn start(ruleset: &str, seed: &Seed, board: u32, fixed: &DealFixed) -> Result<Self, Problem>;
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
    fn check(
        &self,
        ruleset: &str,
        seed: &Seed,
        board: u32,
        fixed: &DealFixed,
    ) -> Result<usize, Problem>;
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

/// What a director may fix for a deal instead of drawing it from the seed: 80分's level and
/// trump (定级、定主). Stored in the table's header as JSON; the cards dealt never change.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealFixed {
    /// A rank symbol: `"2"` … `"10"`, `"J"`, `"Q"`, `"K"`, `"A"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// A suit letter or `"NT"` (无主).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trump: Option<String>,
}

impl DealFixed {
    /// The header's JSON text (`{}` when nothing is fixed).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }

    pub fn from_json(text: &str) -> Result<DealFixed, String> {
        serde_json::from_str(text).map_err(|e| format!("bad fixed deal {text:?}: {e}"))
    }

    /// The 80分 deal's fixed level and trump, checked.
    pub fn shengji(&self) -> Result<rules::deal::Fixed, Problem> {
        let level = match &self.level {
            None => None,
            Some(s) => Some(rules::cards::Rank::parse(s).ok_or_else(|| {
                Problem::new(
                    codes::BAD_REQUEST,
                    format!("级数「{s}」不对：应为 2–10、J、Q、K、A"),
                    format!("level \"{s}\" is not a rank (2-10, J, Q, K, A)"),
                )
            })?),
        };
        let trump = match self.trump.as_deref() {
            None => None,
            Some(t) if t.eq_ignore_ascii_case("NT") => Some(None),
            Some(t) => {
                let mut chars = t.chars();
                let suit = chars
                    .next()
                    .filter(|_| chars.next().is_none())
                    .and_then(rules::cards::Suit::from_letter);
                Some(Some(suit.ok_or_else(|| {
                    Problem::new(
                        codes::BAD_REQUEST,
                        format!("主「{t}」不对：应为 S、H、D、C 或 NT（无主）"),
                        format!("trump \"{t}\" is not S, H, D, C or NT"),
                    )
                })?))
            }
        };
        Ok(rules::deal::Fixed { level, trump })
    }

    /// Refuses any fixing for a game that has nothing to fix.
    pub fn nothing(&self, zh: &str, en: &str) -> Result<(), Problem> {
        if *self == DealFixed::default() {
            return Ok(());
        }
        Err(Problem::new(
            codes::BAD_REQUEST,
            format!("{zh}没有级和主可定"),
            format!("{en} has no level or trump to fix"),
        ))
    }
}

/// 80分: one pre-dealt board (牌套) of the seed; declarer, level and trump as dealt unless the
/// director fixed them.
impl TableGame for rules::shengji::Board {
    const GAME: &'static str = "shengji";
    const DEFAULT_RULESET: &'static str = "fujian-2024";

    fn start(ruleset: &str, seed: &Seed, board: u32, fixed: &DealFixed) -> Result<Self, Problem> {
        let rules = rules::shengji::Ruleset::by_name(ruleset)
            .ok_or_else(|| unknown_ruleset("80分", ruleset, &["fujian-2024"]))?;
        let deal = rules::deal::deal_shengji(seed, board, fixed.shengji()?);
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

    fn start(ruleset: &str, seed: &Seed, board: u32, fixed: &DealFixed) -> Result<Self, Problem> {
        fixed.nothing("够级", "gouji")?;
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
