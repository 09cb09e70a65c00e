//! 视角 (views): what one viewer may see of a board. A player sees their own hand only (the
//! declarer the buried kitty too if the ruleset allows), a spectator no hand, a referee all.
//! A view is enough to compute the seat's legal actions ([`legal_from_view`]); the seat to act
//! also gets the cards it may play and a hint, so a client never re-implements a rule.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::board::{Board, SeatPlay, TrickRecord};
use super::error::Phase;
use super::event::{Action, Event, UnitChoice};
use super::follow::{legal_follows, playable_follows};
use super::kitty::default_bury;
use super::order::{Order, TRUMP};
use super::ruleset::{LastTrickView, Ruleset};
use super::seat::Seat;
use super::trick::trick_winner;
use super::unit::parse_lead_for;
use crate::cards::{Card, Hand, Rank, Suit};
use crate::posted::Posted;
use crate::Viewer;

/// Card points in a board's two decks (5s, 10s and Ks: 100 a deck).
const TOTAL_POINTS: u32 = 200;

/// Most follows [`legal_from_view`] lists; past it, a documented subset (see
/// [`legal_follows`]) that always holds the lowest legal play.
pub const FOLLOW_CAP: usize = 2000;

/// A snapshot of a board for one viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ShengjiView"))]
pub struct View {
    pub viewer: Viewer,
    pub board: u32,
    #[cfg_attr(feature = "ts", ts(as = "Ruleset"))]
    pub ruleset: Posted<Ruleset>,
    pub declarer: Seat,
    /// The level, as a rank symbol (`"4"`, `"10"`, `"A"`).
    #[serde(with = "rank_symbol")]
    #[cfg_attr(
        feature = "ts",
        ts(
            type = r#""2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "J" | "Q" | "K" | "A""#
        )
    )]
    pub level: Rank,
    /// The trump suit letter, or `"NT"` for no trump.
    #[serde(with = "trump_letter")]
    #[cfg_attr(feature = "ts", ts(type = r#""S" | "H" | "D" | "C" | "NT""#))]
    pub trump: Option<Suit>,
    pub phase: Phase,
    pub to_act: Option<Seat>,
    /// The viewer's own hand (a player's view only), in the engine's display order
    /// ([`Order::display_key`]): trumps first, highest first (`RJ BJ 主级牌 副级牌 A K …`), then
    /// the side suits ♠ ♥ ♦ ♣, each highest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hand: Option<Vec<Card>>,
    /// Every hand, N, E, S, W (a referee's view only), each in display order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hands: Option<[Vec<Card>; 4]>,
    /// Cards held by N, E, S, W: public.
    pub hand_sizes: [usize; 4],
    /// The buried kitty: the referee's view, the declarer's if the ruleset allows, everyone's
    /// once the board is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub kitty: Option<Vec<Card>>,
    /// The current trick, from 1 (at most 25).
    pub trick: u8,
    pub leader: Seat,
    /// The current trick's plays so far, lead first.
    pub plays: Vec<SeatPlay>,
    /// Who is winning the current trick so far (public: it follows from the plays), so a client
    /// can mark it without a second copy of the rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub winning: Option<Seat>,
    /// The last finished trick. A player sees it only until they have played to the current
    /// trick (只有未翻扣者有权要求查看本轮次牌; `last_trick = always` on a casual table); a
    /// spectator and a referee always; everyone once the board is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub last_trick: Option<TrickRecord>,
    /// Every finished trick, for review: once the board is over, or for a referee. During play
    /// a player may look at the last trick only (打过的牌翻扣好后，不能提出检查牌的要求).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub tricks: Option<Vec<TrickRecord>>,
    /// After a failed throw blocking singles and pairs: who chooses, and between what.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub choice: Option<PendingChoice>,
    /// The defenders' points so far, after penalties.
    pub defenders: i32,
    /// The point cards (5, 10, K) in the tricks the defenders won so far, in the order taken:
    /// public, as every played card and every trick's winner is (捡分).
    pub defender_point_cards: Vec<Card>,
    /// Card points not yet played to a trick (in the hands and the kitty), out of 200: what is
    /// still to be fought for (the kitty's points count for the defenders only by 抠底).
    pub points_left: u32,
    /// The viewer's own hand only: how many of its first cards are trumps (the display order
    /// puts them first), so a page can group them without knowing which cards are trumps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hand_trumps: Option<usize>,
    /// Timeouts of N, E, S, W in the count's scope (`timeout_scope`: this board, or with the
    /// session's or event's earlier ones).
    pub timeouts: [u8; 4],
    /// The seat to act was warned for a timeout on this move and plays in its grace period.
    #[serde(default, skip_serializing_if = "is_false")]
    pub grace: bool,
    /// The seat to act's own view only: every card (each face once, display order) that is part
    /// of at least one legal play now — any card to bury or to lead, for a follow exactly those
    /// the follow rules allow in some play. A client dims the others.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub playable: Vec<Card>,
    /// The seat to act's own view only: one legal play, the one the clock would make (the
    /// default bury, the lowest single to lead, the lowest legal follow), in display order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hint: Option<Vec<Card>>,
    /// The result once play is over; it may change by a late ruling until `result_final`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub result: Option<i32>,
    /// The referee finalised the result.
    #[serde(default, skip_serializing_if = "is_false")]
    pub result_final: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The opponents' pending choice after a failed throw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PendingChoice {
    pub chooser: Seat,
    pub single: Vec<Card>,
    pub pair: Vec<Card>,
}

impl Board {
    /// The snapshot `viewer` may see.
    pub fn view(&self, viewer: Viewer) -> View {
        let seat = match viewer {
            Viewer::Seat(i) if i < 4 => Some(Seat::from_index(i)),
            _ => None,
        };
        let referee = viewer == Viewer::Referee;
        let over = self.is_over();
        let sees_kitty =
            referee || over || (seat == Some(self.declarer()) && self.rules().declarer_sees_kitty);
        let sees_last_trick = match seat {
            Some(s) => {
                over || self.rules().last_trick == LastTrickView::Always
                    || self.plays().all(|(played, _)| played != s)
            }
            None => true,
        };
        let acting = seat.filter(|&s| self.to_act() == Some(s));
        let display = |mut cards: Vec<Card>| {
            self.order().sort_for_display(&mut cards);
            cards
        };
        View {
            viewer,
            board: self.number(),
            ruleset: self.posted_rules().clone(),
            declarer: self.declarer(),
            level: self.order().level(),
            trump: self.order().trump_suit(),
            phase: self.phase(),
            to_act: self.to_act(),
            hand: seat.map(|s| self.order().display_cards(self.hand(s))),
            hands: referee.then(|| Seat::ALL.map(|s| self.order().display_cards(self.hand(s)))),
            hand_sizes: Seat::ALL.map(|s| self.hand(s).len()),
            kitty: (sees_kitty && self.phase() != Phase::Bury).then(|| self.kitty().to_vec()),
            trick: self.trick_number(),
            leader: self.leader(),
            plays: self
                .plays()
                .map(|(seat, cards)| SeatPlay {
                    seat,
                    cards: cards.to_vec(),
                })
                .collect(),
            winning: self.lead().map(|lead| {
                // At most four plays: on the stack, not in two vectors a view (four or more
                // views an action).
                let mut seats = [Seat::N; 4];
                let mut cards: [&[Card]; 4] = [&[]; 4];
                let mut n = 0;
                for (seat, played) in self.plays() {
                    (seats[n], cards[n]) = (seat, played);
                    n += 1;
                }
                seats[trick_winner(self.order(), self.rules().throw_compare, lead, &cards[..n])]
            }),
            last_trick: sees_last_trick.then(|| self.last_trick()).flatten(),
            tricks: (referee || over).then(|| self.tricks()),
            choice: self
                .pending_choice()
                .map(|(chooser, single, pair)| PendingChoice {
                    chooser,
                    single: single.cards().to_vec(),
                    pair: pair.cards().to_vec(),
                }),
            defenders: self.defenders_points(),
            defender_point_cards: self.defender_point_cards(),
            points_left: self.points_left(),
            hand_trumps: seat.map(|s| self.order().held_in(TRUMP, self.hand(s))),
            timeouts: Seat::ALL.map(|s| self.timeouts_in_scope(s)),
            grace: self.in_grace(),
            playable: acting
                .map(|s| display(self.playable(s)))
                .unwrap_or_default(),
            hint: acting.and_then(|_| self.clock_play()).map(display),
            result: self.result(),
            result_final: self.is_final(),
        }
    }

    /// The point cards in the tricks the defenders won so far, trick by trick.
    pub fn defender_point_cards(&self) -> Vec<Card> {
        self.tricks_won()
            .filter(|(winner, _)| self.is_defender(*winner))
            .flat_map(|(_, cards)| cards.iter().copied())
            .filter(|c| c.points() > 0)
            .collect()
    }

    /// Card points not yet played to a trick: two decks hold 200.
    pub fn points_left(&self) -> u32 {
        let finished = crate::cards::points(self.trick_cards());
        let current: u32 = self.plays().map(|(_, c)| crate::cards::points(c)).sum();
        TOTAL_POINTS.saturating_sub(finished + current)
    }

    /// Every card (each face once, face order) of `seat`'s hand that is part of at least one
    /// legal play now, if `seat` is to play or bury: the whole hand to bury or to lead (any
    /// card may lead, as a single), for a follow what [`playable_follows`] allows. Empty for
    /// any other seat, in the opponents' choice and once play is over.
    pub fn playable(&self, seat: Seat) -> Vec<Card> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        let hand = self.hand(seat);
        match (self.phase(), self.lead()) {
            (Phase::Bury, _) | (Phase::Play, None) => hand.faces().map(|(f, _)| f).collect(),
            (Phase::Play, Some(lead)) => playable_follows(self.order(), lead, hand),
            (Phase::Choose | Phase::Over, _) => Vec::new(),
        }
    }

    /// The event as `viewer` may see it: a bury's cards are a referee's business only, and the
    /// declarer's only with `declarer_sees_kitty` (底牌放好后再也不能查看底牌) — also on
    /// catch-up, so whoever sits in the declarer's seat later does not get them either.
    pub fn redact<'a>(&self, event: &'a Event, viewer: Viewer) -> Option<Cow<'a, Event>> {
        let sees_bury = |seat: &Seat| {
            viewer == Viewer::Referee
                || (viewer == Viewer::Seat(seat.index()) && self.rules().declarer_sees_kitty)
        };
        match event {
            Event::Buried {
                seat, count, auto, ..
            } if !sees_bury(seat) => Some(Cow::Owned(Event::Buried {
                seat: *seat,
                cards: None,
                count: *count,
                auto: *auto,
            })),
            e => Some(Cow::Borrowed(e)),
        }
    }
}

/// The legal actions of the seat the view belongs to (a referee's view: of the seat to act),
/// from the view alone:
///
/// - bury: the clock's bury only ([`default_bury`]); any 8 cards are legal, far too many to list;
/// - choose: both choices;
/// - lead: every single, pair and tractor held (throws are legal too but not listed);
/// - follow: every distinct legal follow, or past [`FOLLOW_CAP`] the lowest legal play and the
///   first others found.
///
/// Timeouts and rulings are not a player's actions and are never listed.
pub fn legal_from_view(view: &View) -> Vec<Action> {
    let Some(to_act) = view.to_act else {
        return Vec::new();
    };
    let hand: Hand = match (&view.viewer, &view.hand, &view.hands) {
        (Viewer::Seat(i), Some(hand), _) if *i == to_act.index() => hand.iter().copied().collect(),
        (Viewer::Referee, _, Some(hands)) => hands[to_act.index()].iter().copied().collect(),
        _ => return Vec::new(),
    };
    let order = Order::new(view.level, view.trump);
    match view.phase {
        Phase::Bury => vec![Action::Bury {
            cards: default_bury(&order, &hand),
        }],
        Phase::Choose => vec![
            Action::Choose {
                unit: UnitChoice::Single,
            },
            Action::Choose {
                unit: UnitChoice::Pair,
            },
        ],
        Phase::Over => Vec::new(),
        Phase::Play => match view.plays.first() {
            None => legal_leads(&order, &hand)
                .into_iter()
                .map(|cards| Action::Play { cards })
                .collect(),
            Some(first) => match parse_lead_for(&order, &view.ruleset, &first.cards) {
                Ok(lead) => legal_follows(&order, &lead, &hand, FOLLOW_CAP)
                    .into_iter()
                    .map(|cards| Action::Play { cards })
                    .collect(),
                Err(_) => Vec::new(),
            },
        },
    }
}

/// Every single, pair and tractor in the hand (each distinct set of cards once), lowest lane
/// and lowest cards first.
pub fn legal_leads(order: &Order, hand: &Hand) -> Vec<Vec<Card>> {
    let mut out = Vec::new();
    for lane in 0..5 {
        let faces = order.faces_of(lane);
        for &f in faces {
            if hand.count(f) > 0 {
                out.push(vec![f]);
            }
        }
        for &f in faces {
            if hand.count(f) >= 2 {
                out.push(vec![f, f]);
            }
        }
        // Tractors: chains of pair faces on consecutive slots, every length from 2.
        let pair_faces: Vec<Card> = faces
            .iter()
            .copied()
            .filter(|&f| hand.count(f) >= 2)
            .collect();
        let mut chain = Vec::new();
        for &start in &pair_faces {
            chain.clear();
            chain.push(start);
            extend_tractors(order, &pair_faces, &mut chain, &mut out);
        }
    }
    out
}

fn extend_tractors(
    order: &Order,
    pair_faces: &[Card],
    chain: &mut Vec<Card>,
    out: &mut Vec<Vec<Card>>,
) {
    let top = order.slot(*chain.last().expect("a chain has a start"));
    for &f in pair_faces.iter().filter(|&&f| order.slot(f) == top + 1) {
        chain.push(f);
        out.push(chain.iter().flat_map(|&c| [c, c]).collect());
        extend_tractors(order, pair_faces, chain, out);
        chain.pop();
    }
}

/// Serde for a level as its rank symbol.
pub(crate) mod rank_symbol {
    use crate::cards::Rank;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(r: &Rank, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(r.symbol())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rank, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Rank::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("\"{s}\" is not a rank")))
    }
}

/// Serde for a trump suit as its letter, `"NT"` for none.
pub(crate) mod trump_letter {
    use crate::cards::Suit;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &Option<Suit>, s: S) -> Result<S::Ok, S::Error> {
        match t {
            Some(suit) => s.collect_str(&suit.letter()),
            None => s.serialize_str("NT"),
        }
    }

    pub fn parse(s: &str) -> Option<Option<Suit>> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("NT") {
            return Some(None);
        }
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Suit::from_letter(c).map(Some),
            _ => None,
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Suit>, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!("\"{s}\" is not a trump (S, H, D, C or NT)"))
        })
    }
}
