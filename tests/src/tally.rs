//! Tally: a tiny stand-in game for the infrastructure tests only (never a real game, never served
//! by `paiju serve`).
//!
//! Four seats each get three secret tiles (`T1`..`T40`) dealt from the seed. Seats play in turn
//! 0, 1, 2, 3, one tile each, from their own hand; after twelve plays the game is over. Each play
//! has 30 s; the timeout action plays the lowest tile. A referee may fine a seat. It has just
//! what the server needs to exercise: hidden hands (for the spy test), refusals with codes, a
//! timeout action, referee rulings and an end.

use std::time::Duration;

use protocol::Refusal;
use rules::deal::{DealStream, Seed, Stream};
use rules::{Actor, Engine, Explain, Viewer};
use serde::{Deserialize, Serialize};

pub const SEATS: usize = 4;
pub const HAND: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TallyAction {
    Play {
        tile: String,
    },
    /// The clock's action: the lowest tile of the seat to act.
    Timeout,
    /// A referee's fine.
    Fine {
        points: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TallyEvent {
    Played {
        seat: usize,
        tile: String,
    },
    /// Private: what is left in the seat's hand.
    Hand {
        seat: usize,
        tiles: Vec<String>,
    },
    Fined {
        seat: usize,
        points: u32,
    },
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallyView {
    pub seat: Option<usize>,
    /// Own hand (a seat), or every hand (the referee); absent for spectators.
    pub hands: Vec<Option<Vec<String>>>,
    pub counts: Vec<usize>,
    pub played: Vec<(usize, String)>,
    pub fines: Vec<u32>,
    pub to_act: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TallyError {
    NotYourTurn,
    NotInHand(String),
    Over,
    /// A fine from anyone but the referee.
    RefereeOnly,
    /// A timeout from anyone but the clock.
    ClockOnly,
}

impl Explain for TallyError {
    fn code(&self) -> &'static str {
        match self {
            TallyError::NotYourTurn => "not_your_turn",
            TallyError::NotInHand(_) => "not_in_hand",
            TallyError::Over => "game_over",
            TallyError::RefereeOnly => "referee_only",
            TallyError::ClockOnly => "clock_only",
        }
    }
    fn zh(&self) -> String {
        match self {
            TallyError::NotYourTurn => "还没轮到你".into(),
            TallyError::NotInHand(t) => format!("你手里没有 {t}"),
            TallyError::Over => "已经结束".into(),
            TallyError::RefereeOnly => "只有裁判可以罚分".into(),
            TallyError::ClockOnly => "超时只能由计时器判定".into(),
        }
    }
    fn en(&self) -> String {
        match self {
            TallyError::NotYourTurn => "it is not your turn".into(),
            TallyError::NotInHand(t) => format!("{t} is not in your hand"),
            TallyError::Over => "the game is over".into(),
            TallyError::RefereeOnly => "only the referee can fine".into(),
            TallyError::ClockOnly => "only the clock can time a seat out".into(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Tally {
    pub hands: Vec<Vec<u8>>,
    pub played: Vec<(usize, String)>,
    pub fines: Vec<u32>,
}

fn name(t: u8) -> String {
    format!("T{t}")
}

impl Tally {
    pub fn deal(seed: &Seed, board: u32) -> Tally {
        let mut tiles: Vec<u8> = (1..=40).collect();
        DealStream::new(seed, Stream::Shengji, board).shuffle(&mut tiles);
        let hands = (0..SEATS)
            .map(|s| {
                let mut h = tiles[s * HAND..(s + 1) * HAND].to_vec();
                h.sort();
                h
            })
            .collect();
        Tally {
            hands,
            played: vec![],
            fines: vec![0; SEATS],
        }
    }

    fn turn(&self) -> Option<usize> {
        (self.played.len() < SEATS * HAND).then_some(self.played.len() % SEATS)
    }
}

impl Engine for Tally {
    type Action = TallyAction;
    type Event = TallyEvent;
    type View = TallyView;
    type Error = TallyError;

    fn seats(&self) -> usize {
        SEATS
    }

    fn apply(
        &mut self,
        seat: usize,
        by: Actor,
        action: TallyAction,
    ) -> Result<Vec<TallyEvent>, TallyError> {
        match (&action, by) {
            (TallyAction::Fine { .. }, a) if a != Actor::Referee => {
                return Err(TallyError::RefereeOnly)
            }
            (TallyAction::Timeout, a) if a != Actor::Clock => return Err(TallyError::ClockOnly),
            _ => {}
        }
        let tile = match action {
            TallyAction::Fine { points } => {
                self.turn().ok_or(TallyError::Over)?;
                self.fines[seat] += points;
                return Ok(vec![TallyEvent::Fined { seat, points }]);
            }
            TallyAction::Play { tile } => tile,
            TallyAction::Timeout => {
                let s = self.turn().ok_or(TallyError::Over)?;
                name(self.hands[s][0])
            }
        };
        let turn = self.turn().ok_or(TallyError::Over)?;
        if seat != turn {
            return Err(TallyError::NotYourTurn);
        }
        let pos = self.hands[seat]
            .iter()
            .position(|&t| name(t) == tile)
            .ok_or_else(|| TallyError::NotInHand(tile.clone()))?;
        self.hands[seat].remove(pos);
        self.played.push((seat, tile.clone()));
        let mut events = vec![
            TallyEvent::Played { seat, tile },
            TallyEvent::Hand {
                seat,
                tiles: self.hands[seat].iter().map(|&t| name(t)).collect(),
            },
        ];
        if self.turn().is_none() {
            events.push(TallyEvent::Over);
        }
        Ok(events)
    }

    fn to_act(&self) -> Vec<usize> {
        self.turn().into_iter().collect()
    }

    fn view(&self, viewer: Viewer) -> TallyView {
        let hand = |s: usize| Some(self.hands[s].iter().map(|&t| name(t)).collect());
        TallyView {
            seat: match viewer {
                Viewer::Seat(s) => Some(s),
                _ => None,
            },
            hands: (0..SEATS)
                .map(|s| match viewer {
                    Viewer::Referee => hand(s),
                    Viewer::Seat(me) if me == s => hand(s),
                    _ => None,
                })
                .collect(),
            counts: self.hands.iter().map(Vec::len).collect(),
            played: self.played.clone(),
            fines: self.fines.clone(),
            to_act: self.to_act(),
        }
    }

    fn redact<'a>(
        &self,
        event: &'a TallyEvent,
        viewer: Viewer,
    ) -> Option<std::borrow::Cow<'a, TallyEvent>> {
        match (event, viewer) {
            (TallyEvent::Hand { seat, .. }, Viewer::Seat(me)) if *seat != me => None,
            (TallyEvent::Hand { .. }, Viewer::Spectator) => None,
            _ => Some(std::borrow::Cow::Borrowed(event)),
        }
    }

    fn legal_from_view(view: &TallyView) -> Vec<TallyAction> {
        let Some(me) = view.seat else {
            return vec![];
        };
        if !view.to_act.contains(&me) {
            return vec![];
        }
        view.hands[me]
            .iter()
            .flatten()
            .map(|t| TallyAction::Play { tile: t.clone() })
            .collect()
    }

    fn timeout_action(&self) -> TallyAction {
        TallyAction::Timeout
    }

    fn move_limit(&self, _since_start: Duration) -> Option<Duration> {
        Some(Duration::from_secs(30))
    }

    fn is_over(&self) -> bool {
        self.turn().is_none()
    }
}

/// Tally has one ruleset, `test`, and nothing in it to choose: its options are `{}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallyRules {}

impl server::TableGame for Tally {
    const GAME: &'static str = "tally";
    const DEFAULT_RULESET: &'static str = "test";
    type Rules = TallyRules;

    fn ruleset(name: &str) -> Result<TallyRules, Refusal> {
        if name != "test" {
            return Err(Refusal::UnknownRuleset {
                game: "记分游戏".into(),
                name: name.into(),
                known: vec!["test".into()],
            });
        }
        Ok(TallyRules {})
    }

    fn deal(
        _rules: TallyRules,
        seed: &Seed,
        board: u32,
        fixed: &server::DealFixed,
    ) -> Result<Self, Refusal> {
        fixed.nothing("记分游戏", "tally")?;
        Ok(Tally::deal(seed, board))
    }
}
