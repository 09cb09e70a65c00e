//! 视图 (views): what one seat, a spectator or a referee may see of a game.
//!
//! A seat sees its own hand; nobody else's. Card counts follow 问牌: exact at 10 or fewer,
//! otherwise only "more than 10" (the announced sets make counts derivable anyway; the view
//! saves players the arithmetic without telling more than the table would). Referees see every
//! hand and exact counts.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::Viewer;

use super::event::CardCount;
use super::game::{Game, Phase, Status};
use super::ruleset::Ruleset;
use super::score::{Outcome, Place, Score};
use super::set::Shape;
use super::Seat;

/// A snapshot of a game for one viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiView"))]
pub struct View {
    pub viewer: Viewer,
    /// The game number of the deal.
    pub game: u32,
    /// The rules in force (legal actions depend on 大花两打一 and the 留牌 reading).
    pub ruleset: Ruleset,
    /// The viewer's own hand (a seat only).
    pub hand: Option<Vec<Card>>,
    /// A1…B3.
    pub players: Vec<PlayerView>,
    /// The set to beat, `None` when a lead is due.
    pub top: Option<TopView>,
    /// The seat that must act.
    pub turn: Option<Seat>,
    /// What that seat is asked to do.
    pub prompt: Option<Prompt>,
    /// 四户乱缠.
    pub free_play: bool,
    /// Seats out so far, 头科 first.
    pub finish: Vec<Seat>,
    /// The score, once the game is over.
    pub score: Option<Score>,
    pub outcome: Option<Outcome>,
    /// Referee deductions so far, team A then B.
    pub deductions: [u32; 2],
}

/// One player, as the viewer may see them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiPlayer"))]
pub struct PlayerView {
    pub seat: Seat,
    pub cards: CardCount,
    pub status: Status,
    pub place: Option<Place>,
    /// 有头: the 对头 has not gone out.
    pub has_head: bool,
    /// 开点.
    pub opened: bool,
    /// 点.
    pub marked: bool,
    /// A standing burn: leads sets with a joker.
    pub burning: bool,
    /// Passed in the current trick.
    pub passed: bool,
    /// Yielded (让) the current top set.
    pub yielded: bool,
    /// The hand: referees only.
    pub hand: Option<Vec<Card>>,
}

/// The top set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiTop"))]
pub struct TopView {
    pub cards: Vec<Card>,
    pub shape: Shape,
    pub owner: Seat,
    /// A 级牌 that binds: only the owner's 对头 may beat it by normal play.
    pub gouji: bool,
    /// A burn not yet settled.
    pub burn: bool,
}

/// What the seat to act is asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiPrompt"))]
pub enum Prompt {
    /// Lead a set; a standing burner must put a joker in it (except their last set).
    Lead { joker_required: bool },
    /// Beat (if allowed), pass, or yield (the 对头, once).
    Respond { may_beat: bool, may_yield: bool },
    /// Burn or decline; `queue` is asked next.
    BurnOffer { queue: Vec<Seat> },
}

impl View {
    pub fn of(game: &Game, viewer: Viewer) -> View {
        let own = match viewer {
            Viewer::Seat(i) if i < 6 => Some(Seat::from_index(i)),
            _ => None,
        };
        let referee = viewer == Viewer::Referee;
        let limit = game.ruleset().exact_count_limit;
        let trick = game.trick();
        let players = Seat::ALL
            .into_iter()
            .map(|s| {
                let n = game.hand(s).len();
                PlayerView {
                    seat: s,
                    cards: if referee || own == Some(s) {
                        CardCount::Exact(n)
                    } else {
                        CardCount::answer(n, limit)
                    },
                    status: game.status(s),
                    place: game.place(s),
                    has_head: game.has_head(s),
                    opened: game.opened(s),
                    marked: game.marked(s),
                    burning: game.is_burning(s),
                    passed: trick.passed[s.index()],
                    yielded: trick.yielded == Some(s),
                    hand: referee.then(|| game.hand(s).cards()),
                }
            })
            .collect();
        let prompt = match game.phase() {
            Phase::Lead(s) => Some(Prompt::Lead {
                joker_required: game.joker_required(*s),
            }),
            Phase::Respond(s) => Some(Prompt::Respond {
                may_beat: game.may_beat(*s),
                may_yield: !game.free_play()
                    && !trick.yield_returned
                    && game.top().is_some_and(|t| t.owner.opposite() == *s),
            }),
            Phase::Offer { queue, .. } => Some(Prompt::BurnOffer {
                queue: queue.clone(),
            }),
            Phase::Over => None,
        };
        let score = game.score();
        View {
            viewer,
            game: game.number(),
            ruleset: game.ruleset().clone(),
            hand: own.map(|s| game.hand(s).cards()),
            players,
            top: game.top().map(|t| TopView {
                cards: t.cards.clone(),
                shape: t.shape,
                owner: t.owner,
                gouji: t.gouji && !game.free_play(),
                burn: t.burned.is_some(),
            }),
            turn: game.phase().seat(),
            prompt,
            free_play: game.free_play(),
            finish: game.finish().to_vec(),
            score: score.map(|s| s.0),
            outcome: score.map(|s| s.1),
            deductions: game.deductions,
        }
    }
}
