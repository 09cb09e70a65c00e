//! What a table needs of a game: any `rules::Engine` that can be started from a ruleset name, a
//! seed and a board number ([`TableGame`]), and what a director may fix of a deal
//! ([`DealFixed`]). The table actor, the log replay, the clocks and the bots are written once
//! over it; the registry of the games a server hosts is [`crate::games`].

use bots::{Budget, Level, SeatPlayer};
use protocol::{Refusal, Wrong};
use rules::deal::Seed;
use rules::Engine;
use tournament::competition::{SeatTerms, TableResult};

/// A game engine a table can run.
pub trait TableGame:
    Engine<Action: Send + Sync, Event: Send + Sync, View: Send, Error: Send> + Send + Sized + 'static
{
    /// The wire name (`CreateTable::game`).
    const GAME: &'static str;
    /// The ruleset used when a table does not name one.
    const DEFAULT_RULESET: &'static str;
    /// Every option of a ruleset: recorded in the table's header (as JSON) when the table is
    /// made, and what a rebuilt or replayed table plays under again, so a table keeps the rules
    /// it was opened with whatever this build's ruleset of that name now says.
    type Rules: Clone + PartialEq + serde::Serialize + serde::de::DeserializeOwned;
    /// This build's ruleset of that name; an unknown one is refused with a [`Refusal`].
    fn ruleset(name: &str) -> Result<Self::Rules, Refusal>;
    /// Deals board (or game) `board` of `seed` under `rules`. `fixed` is what the director
    /// fixed instead of drawing it, and the table's own clock (`fixed.play_seconds`), which
    /// replaces the ruleset's; a game with nothing to fix refuses any fixing of the deal.
    fn deal(
        rules: Self::Rules,
        seed: &Seed,
        board: u32,
        fixed: &DealFixed,
    ) -> Result<Self, Refusal>;
    /// A seat as the players at a table say it (「东」, 「A2」): the table's computers are
    /// named after it. `None`: the seat's number stands in.
    fn seat_zh(seat: usize) -> Option<&'static str> {
        let _ = seat;
        None
    }
    /// A new table's game: board `board` of `seed` under this build's ruleset `ruleset`.
    fn start(ruleset: &str, seed: &Seed, board: u32, fixed: &DealFixed) -> Result<Self, Refusal> {
        Self::deal(Self::ruleset(ruleset)?, seed, board, fixed)
    }
    /// The ruleset's options as JSON, recorded in a new table's header.
    fn options(ruleset: &str) -> String {
        Self::ruleset(ruleset)
            .ok()
            .and_then(|r| serde_json::to_string(&r).ok())
            .unwrap_or_else(|| "{}".into())
    }
    /// A computer player for one seat at this level. A game with no players of its own (the
    /// tests' stand-in games) gets the simplest legal play whatever the level.
    fn player(level: Level) -> Box<dyn SeatPlayer<Self>> {
        let _ = level;
        Box::new(bots::Simplest)
    }
    /// The finished board's (or game's) result as a competition scores it; `None` while play
    /// is not over, and for games no competition plays. The table publishes it when it changes
    /// ([`super::TableHandle::result`]): a competition's runner awaits it.
    fn result(&self) -> Option<TableResult> {
        None
    }
    /// The seat's timeouts on this board (or game) that count toward later ones (80分's
    /// 超时第一次警告，第二次扣10分); 0 for a game that keeps no count.
    fn timeouts(&self, seat: usize) -> u8 {
        let _ = seat;
        0
    }
}

fn unknown_ruleset(game: &str, name: &str, known: &[&str]) -> Refusal {
    Refusal::UnknownRuleset {
        game: game.to_string(),
        name: name.to_string(),
        known: known.iter().map(|k| k.to_string()).collect(),
    }
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
    /// Seconds for one play instead of the ruleset's (a slower clock for a casual table:
    /// `CreateTable::play_seconds`, checked by the lobby). Kept here, in the header's chained
    /// JSON, so a rebuilt or replayed table runs the same clock. Not part of the deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play_seconds: Option<u32>,
    /// How strong the computer seats play (`CreateTable::bot_level`, checked by the lobby);
    /// 普通 when absent. Kept here for the same reason as `play_seconds`: a rebuilt table's
    /// bots play at the level it was opened with. Not part of the deal either.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<Level>,
    /// A competition's table: what it plays under besides the deal (one device a seat, 托管,
    /// the timeout count carried from earlier boards). Kept here for the same reason again; set
    /// only by a competition, never by a `CreateTable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub competition: Option<SeatTerms>,
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
    pub fn shengji(&self) -> Result<rules::deal::Fixed, Refusal> {
        let level = match &self.level {
            None => None,
            Some(s) => Some(rules::cards::Rank::parse(s).ok_or_else(|| {
                Refusal::BadRequest(Wrong::Level {
                    level: s.to_string(),
                })
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
                    Refusal::BadRequest(Wrong::Trump {
                        trump: t.to_string(),
                    })
                })?))
            }
        };
        Ok(rules::deal::Fixed { level, trump })
    }

    /// The level of the table's computer seats.
    pub fn bot_level(&self) -> Level {
        self.bot_level.unwrap_or(Level::Club)
    }

    /// Refuses any fixing of the deal for a game that has nothing to fix (a slower clock is
    /// not the deal's: it passes).
    pub fn nothing(&self, zh: &str, en: &str) -> Result<(), Refusal> {
        if self.level.is_none() && self.trump.is_none() {
            return Ok(());
        }
        Err(Refusal::BadRequest(Wrong::NothingToFix {
            zh: zh.to_string(),
            en: en.to_string(),
        }))
    }
}

/// 80分: one pre-dealt board (牌套) of the seed; declarer, level and trump as dealt unless the
/// director fixed them.
impl TableGame for rules::shengji::Board {
    const GAME: &'static str = "shengji";
    const DEFAULT_RULESET: &'static str = "fujian-2024";
    type Rules = rules::shengji::Ruleset;

    fn ruleset(name: &str) -> Result<Self::Rules, Refusal> {
        rules::shengji::Ruleset::by_name(name)
            .ok_or_else(|| unknown_ruleset("80分", name, &["fujian-2024"]))
    }

    fn deal(
        mut rules: Self::Rules,
        seed: &Seed,
        board: u32,
        fixed: &DealFixed,
    ) -> Result<Self, Refusal> {
        if let Some(s) = fixed.play_seconds {
            rules.play_seconds = s;
        }
        let deal = rules::deal::deal_shengji(seed, board, fixed.shengji()?);
        let Some(terms) = &fixed.competition else {
            return Ok(rules::shengji::Board::new(&deal, rules));
        };
        // At a competition the count runs over the session (the rules spec), its earlier
        // timeouts passed in by the competition.
        if rules.timeout_scope == rules::shengji::TimeoutScope::Board {
            rules.timeout_scope = rules::shengji::TimeoutScope::Session;
        }
        let mut prior = [0u8; 4];
        for (p, &n) in prior.iter_mut().zip(&terms.prior_timeouts) {
            *p = n;
        }
        Ok(rules::shengji::Board::new(&deal, rules).with_prior_timeouts(prior))
    }

    fn timeouts(&self, seat: usize) -> u8 {
        if seat < 4 {
            rules::shengji::Board::timeouts(self, rules::shengji::Seat::from_index(seat))
        } else {
            0
        }
    }

    fn seat_zh(seat: usize) -> Option<&'static str> {
        (seat < 4).then(|| rules::shengji::Seat::from_index(seat).zh())
    }

    fn player(level: Level) -> Box<dyn SeatPlayer<Self>> {
        Box::new(bots::shengji::Player::new(level, Budget::DEFAULT))
    }

    /// The declarer's seat and the defenders' points: the board's result (a ruling's, or the
    /// cards' with the kitty and penalties).
    fn result(&self) -> Option<TableResult> {
        if !self.is_over() {
            return None;
        }
        use tournament::Seat;
        let declarer = match self.declarer().letter() {
            "N" => Seat::N,
            "E" => Seat::E,
            "S" => Seat::S,
            _ => Seat::W,
        };
        Some(TableResult::Board {
            declarer,
            defenders: rules::shengji::Board::result(self)
                .unwrap_or_else(|| self.defenders_points()),
        })
    }
}

/// 够级: one game (局) of the seed.
impl TableGame for rules::gouji::Game {
    const GAME: &'static str = "gouji";
    const DEFAULT_RULESET: &'static str = "zaozhuang-2017";
    type Rules = rules::gouji::Ruleset;

    fn ruleset(name: &str) -> Result<Self::Rules, Refusal> {
        rules::gouji::Ruleset::by_name(name)
            .ok_or_else(|| unknown_ruleset("够级", name, &rules::gouji::Ruleset::NAMES))
    }

    fn deal(
        mut rules: Self::Rules,
        seed: &Seed,
        board: u32,
        fixed: &DealFixed,
    ) -> Result<Self, Refusal> {
        fixed.nothing("够级", Self::GAME)?;
        if let Some(s) = fixed.play_seconds {
            rules.move_seconds = s;
        }
        let deal = rules::deal::deal_gouji(seed, board);
        Ok(rules::gouji::Game::new(&deal, rules))
    }

    fn seat_zh(seat: usize) -> Option<&'static str> {
        (seat < 6).then(|| rules::gouji::Seat::from_index(seat).name())
    }

    fn player(level: Level) -> Box<dyn SeatPlayer<Self>> {
        Box::new(bots::gouji::Player::new(level, Budget::DEFAULT))
    }

    /// Team points as the engine scored them (referee deductions and a forfeit included), 头科
    /// (none after a forfeit) and every 大落 (the last out, and a failed burner).
    fn result(&self) -> Option<TableResult> {
        use rules::gouji::{Place, Seat, Status};
        let (score, outcome) = self.score()?;
        let forfeit = matches!(outcome, rules::gouji::Outcome::Forfeit { .. });
        let first = Seat::ALL
            .into_iter()
            .find(|s| !forfeit && self.places()[s.index()] == Some(Place::First))
            .map(|s| s.team().into());
        let last = Seat::ALL
            .into_iter()
            .filter(|s| {
                self.status(*s) == Status::Failed || self.places()[s.index()] == Some(Place::Last)
            })
            .map(|s| s.team().into())
            .collect();
        Some(TableResult::Game(tournament::gouji::GameRecord {
            a: score.a,
            b: score.b,
            first,
            last,
        }))
    }
}
