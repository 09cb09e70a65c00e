//! 视角 (views): what one viewer may see of a board. A player sees their own hand only (the
//! declarer the buried kitty too if the ruleset allows), a spectator no hand, a referee all.
//! A view is enough to compute the seat's legal actions ([`legal_from_view`]).

use serde::{Deserialize, Serialize};

use super::board::{Board, SeatPlay, TrickRecord};
use super::error::Phase;
use super::event::{Action, Event, UnitChoice};
use super::follow::legal_follows;
use super::kitty::default_bury;
use super::order::Order;
use super::ruleset::Ruleset;
use super::seat::Seat;
use super::trick::trick_winner;
use super::unit::parse_lead;
use crate::cards::{Card, Hand, Rank, Suit};
use crate::Viewer;

/// Most follows [`legal_from_view`] lists; past it, a documented subset (see
/// [`legal_follows`]) that always holds the lowest legal play.
pub const FOLLOW_CAP: usize = 2000;

/// A snapshot of a board for one viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ShengjiView"))]
pub struct View {
    pub viewer: Viewer,
    pub board: u32,
    pub ruleset: Ruleset,
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
    /// The viewer's own hand (a player's view only), in face order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hand: Option<Vec<Card>>,
    /// Every hand, N, E, S, W (a referee's view only).
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
    pub timeouts: [u8; 4],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub result: Option<i32>,
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
        View {
            viewer,
            board: self.number(),
            ruleset: self.rules().clone(),
            declarer: self.declarer(),
            level: self.order().level(),
            trump: self.order().trump_suit(),
            phase: self.phase(),
            to_act: self.to_act(),
            hand: seat.map(|s| self.hand(s).cards()),
            hands: referee.then(|| Seat::ALL.map(|s| self.hand(s).cards())),
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
                let plays: Vec<(Seat, &[Card])> = self.plays().collect();
                let cards: Vec<&[Card]> = plays.iter().map(|(_, c)| *c).collect();
                plays[trick_winner(self.order(), self.rules().throw_compare, lead, &cards)].0
            }),
            last_trick: self.last_trick().cloned(),
            tricks: (referee || over).then(|| self.tricks().to_vec()),
            choice: self
                .pending_choice()
                .map(|(chooser, single, pair)| PendingChoice {
                    chooser,
                    single: single.cards().to_vec(),
                    pair: pair.cards().to_vec(),
                }),
            defenders: self.defenders_points(),
            timeouts: Seat::ALL.map(|s| self.timeouts(s)),
            result: self.result(),
        }
    }

    /// The event as `viewer` may see it: a bury's cards are the declarer's (and a referee's)
    /// business only.
    pub fn redact(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        match event {
            Event::Buried {
                seat, count, auto, ..
            } if viewer != Viewer::Referee && viewer != Viewer::Seat(seat.index()) => {
                Some(Event::Buried {
                    seat: *seat,
                    cards: None,
                    count: *count,
                    auto: *auto,
                })
            }
            e => Some(e.clone()),
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
            Some(first) => match parse_lead(&order, view.ruleset.lead_parse, &first.cards) {
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
