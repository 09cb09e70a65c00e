//! 视图 (views): what one seat, a spectator or a referee may see of a game.
//!
//! A seat sees its own hand; nobody else's. The players' card counts follow 问牌: exact at 10 or
//! fewer, otherwise only "more than 10" (the announced sets make counts derivable anyway; the
//! view saves players the arithmetic without telling more than the table would). They read the
//! same in every view of a moment, one's own count included (its exact figure is the length of
//! one's hand, [`View::count`]), so a server writes them once for all six seats. Referees see
//! every hand, apart (`hands`), and from them the exact counts.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::Viewer;

use super::event::CardCount;
use super::game::{Game, Phase, Status};
use super::ruleset::Ruleset;
use super::score::{Outcome, Place, Score};
use super::set::{threshold, Shape, ACE, TWO};
use super::Seat;
use crate::posted::Posted;

/// A snapshot of a game for one viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiView"))]
pub struct View {
    pub viewer: Viewer,
    /// The game number of the deal.
    pub game: u32,
    /// The rules in force (legal actions depend on 大花两打一 and the 留牌 reading).
    #[cfg_attr(feature = "ts", ts(as = "Ruleset"))]
    pub ruleset: Posted<Ruleset>,
    /// The viewer's own hand (a seat only).
    pub hand: Option<Vec<Card>>,
    /// Every hand, A1, B1, A2, B2, A3, B3 (a seat's index): a referee's view only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hands: Option<[Vec<Card>; 6]>,
    /// A1…B3, as the table sees them: alike in every view of a moment.
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
    /// Points deducted by referees so far, team A then B (on top of the score).
    pub deducted: [u32; 2],
    /// The seat to act has been warned by the clock for this set (超时警告): it has only the
    /// grace seconds left before the clock passes for it.
    pub warned: bool,
    /// The viewing seat may pass (过) now. Always false for spectators and referees; so are the
    /// two below. (A burn offer is answered with `decline`, not a pass.)
    pub can_pass: bool,
    /// The viewing seat may yield (让) now.
    pub can_yield: bool,
    /// The viewing seat is asked whether it burns the top set (`burn` or `decline`; a 无头 seat
    /// that has not passed may also beat it by normal play, see [`Prompt::BurnOffer`]).
    pub burn_offer: bool,
    /// Which sets of the viewing seat would be 级牌 (binding the others) if played now, so a page
    /// can tag a set being built 「级牌」 without rules of its own. `None` when none would (the
    /// seat is 无头, 四户乱缠, the seat is out or the game over) and for spectators and referees;
    /// then the field is left out, so that the views that have it are alike (a server writes it
    /// once for all of them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub gouji_thresholds: Option<GoujiThresholds>,
}

/// The 级牌 thresholds for the viewing seat: a set is a 级牌 if it holds any joker, or at least
/// this many cards of its base rank, 2s counted as the base (贴钱); 4–9 without a joker never.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiThresholds"))]
pub struct GoujiThresholds {
    /// 10s: five.
    pub ten: u8,
    /// Js: four.
    pub jack: u8,
    /// Qs: three.
    pub queen: u8,
    /// Ks: two.
    pub king: u8,
    /// As: two.
    pub ace: u8,
    /// 2s only: one.
    pub two: u8,
    /// A set that empties the hand counts too (`last_set_is_gouji`; 不设底级).
    pub last_set: bool,
}

impl GoujiThresholds {
    /// The thresholds of `set::threshold`, for a seat whose sets would bind.
    fn of(ruleset: &Ruleset) -> GoujiThresholds {
        let t = |base| threshold(base).expect("a 级牌 rank");
        GoujiThresholds {
            ten: t(10),
            jack: t(11),
            queen: t(12),
            king: t(13),
            ace: t(ACE),
            two: t(TWO),
            last_set: ruleset.last_set_is_gouji,
        }
    }
}

/// One player, as everyone at the table sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiPlayer"))]
pub struct PlayerView {
    pub seat: Seat,
    /// The count as 问牌 answers it, for everyone (their own too: [`View::count`]).
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
    /// Burn or decline; `queue` is asked next. `may_beat`: a 无头 seat that has not passed in
    /// this trick may also beat the top set by normal play (the offer is its turn).
    BurnOffer { queue: Vec<Seat>, may_beat: bool },
}

impl View {
    /// `seat`'s card count as this view's viewer knows it: exact for their own seat (their
    /// hand's length) and for a referee (every hand), else as 问牌 answers it.
    pub fn count(&self, seat: Seat) -> CardCount {
        let exact = match (self.viewer, &self.hand, &self.hands) {
            (Viewer::Seat(i), Some(hand), _) if i == seat.index() => Some(hand.len()),
            (_, _, Some(hands)) => Some(hands[seat.index()].len()),
            _ => None,
        };
        match exact {
            Some(n) => CardCount::Exact(n),
            None => self.players[seat.index()].cards,
        }
    }

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
            .map(|s| PlayerView {
                seat: s,
                cards: CardCount::answer(game.hand(s).len(), limit),
                status: game.status(s),
                place: game.place(s),
                has_head: game.has_head(s),
                opened: game.opened(s),
                marked: game.marked(s),
                burning: game.is_burning(s),
                passed: trick.passed[s.index()],
                yielded: trick.yielded == Some(s),
            })
            .collect();
        let prompt = match game.phase() {
            Phase::Lead(s) => Some(Prompt::Lead {
                joker_required: game.joker_required(*s),
            }),
            Phase::Respond(s) => Some(Prompt::Respond {
                may_beat: game.may_beat(*s),
                may_yield: game.may_yield(*s),
            }),
            Phase::Offer { seat, queue } => Some(Prompt::BurnOffer {
                queue: queue.clone(),
                may_beat: game.offer_may_beat(*seat),
            }),
            Phase::Over => None,
        };
        let score = game.score();
        let to_act = own.filter(|&s| game.phase().seat() == Some(s));
        let binds = own.is_some_and(|s| !game.is_over() && game.sets_bind(s));
        View {
            viewer,
            game: game.number(),
            ruleset: game.posted_ruleset().clone(),
            hand: own.map(|s| game.hand(s).cards()),
            hands: referee.then(|| Seat::ALL.map(|s| game.hand(s).cards())),
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
            deducted: game.deducted(),
            warned: game.warned(),
            can_pass: to_act.is_some_and(|s| *game.phase() == Phase::Respond(s)),
            can_yield: to_act.is_some_and(|s| game.may_yield(s)),
            burn_offer: to_act.is_some() && matches!(game.phase(), Phase::Offer { .. }),
            gouji_thresholds: binds.then(|| GoujiThresholds::of(game.ruleset())),
        }
    }
}
