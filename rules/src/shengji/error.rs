//! 违例 (rule errors): why an action was refused, with a stable code and the rule in Chinese and
//! English. A refused action changes nothing.

use std::fmt;

use super::order::Lane;
use super::seat::Seat;
use crate::cards::{format_cards, Card};
use crate::Explain;

/// The phases of a board, as named in errors and views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ShengjiPhase"))]
pub enum Phase {
    /// 扣底: the declarer buries 8 cards.
    Bury,
    /// 出牌: tricks are being played.
    Play,
    /// 甩错牌: the opponents choose what the thrower must play.
    Choose,
    /// The board is over.
    Over,
}

impl Phase {
    pub fn zh(self) -> &'static str {
        match self {
            Phase::Bury => "扣底",
            Phase::Play => "出牌",
            Phase::Choose => "对方指定出牌",
            Phase::Over => "本副已结束",
        }
    }

    pub fn en(self) -> &'static str {
        match self {
            Phase::Bury => "burying the kitty",
            Phase::Play => "playing tricks",
            Phase::Choose => "the opponents' choice after a failed throw",
            Phase::Over => "the board is over",
        }
    }
}

/// Why an 80分 action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// A seat index outside 0..4.
    NoSuchSeat { seat: usize },
    /// Play has ended: no more moves or timeouts (a referee's ruling is still taken until the
    /// result is final).
    BoardOver,
    /// The referee finalised the result; nothing more is accepted.
    BoardFinal,
    /// A ruling (penalty, ending the board) from anyone but the referee.
    RefereeOnly,
    /// A timeout from anyone but the clock.
    ClockOnly,
    /// The action belongs to another phase.
    WrongPhase { now: Phase },
    /// Someone else is to act.
    NotYourTurn { to_act: Seat },
    /// Only the declarer buries (只有庄家扣底).
    OnlyDeclarerBuries,
    /// The kitty is exactly 8 cards (扣底必须正好 8 张).
    BuryExactlyEight { got: usize },
    /// The cards are not all in the player's hand.
    CardsNotInHand { missing: Vec<Card> },
    /// A play with no cards.
    EmptyPlay,
    /// A follow must have as many cards as the lead (出牌张数必须与首家相同).
    WrongCount { expected: usize, got: usize },
    /// A lead must be of one effective suit (首家出牌必须是同一门).
    LeadMixedSuits,
    /// The follower holds enough of the led suit, so all of the play must be of it.
    MustFollowSuit { lane: Lane },
    /// The follower holds fewer of the led suit than were led, so must play all of them.
    MustPlayAllOfSuit { lane: Lane, held: usize },
    /// 有对必须跟对: the hand holds pairs in the led suit that the play leaves out.
    MustFollowPairs { pairs: u8 },
    /// 有拖拉机必须跟拖拉机: the hand can answer with tractors of these lengths (longest first;
    /// 1 is a pair), the play does not.
    MustFollowTractor { shape: Vec<u8> },
    /// A referee penalty outside 1..=1000 points.
    BadPenaltyPoints { points: u32 },
    /// The referee's judge was asked about cards two decks cannot hold: `count` of `card` in
    /// what is `in_play` (one play, one hand, or the cards seen together: a trick's four plays,
    /// the leader's hand with the other three, the lead with the follower's hand).
    TooManyCopies {
        card: Card,
        count: usize,
        in_play: Counted,
    },
}

fn shape_zh(shape: &[u8]) -> String {
    shape
        .iter()
        .map(|&k| {
            if k == 1 {
                "一对".to_string()
            } else {
                format!("{k} 对的拖拉机")
            }
        })
        .collect::<Vec<_>>()
        .join("、")
}

fn shape_en(shape: &[u8]) -> String {
    let parts: Vec<String> = shape
        .iter()
        .map(|&k| {
            if k == 1 {
                "a pair".to_string()
            } else {
                format!("a tractor of {k} pairs")
            }
        })
        .collect();
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.concat(),
    }
}

impl Explain for RuleError {
    fn code(&self) -> &'static str {
        match self {
            RuleError::NoSuchSeat { .. } => "no_such_seat",
            RuleError::BoardOver => "board_over",
            RuleError::BoardFinal => "board_final",
            RuleError::RefereeOnly => "referee_only",
            RuleError::ClockOnly => "clock_only",
            RuleError::WrongPhase { .. } => "wrong_phase",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::OnlyDeclarerBuries => "only_declarer_buries",
            RuleError::BuryExactlyEight { .. } => "bury_exactly_eight",
            RuleError::CardsNotInHand { .. } => "cards_not_in_hand",
            RuleError::EmptyPlay => "empty_play",
            RuleError::WrongCount { .. } => "wrong_count",
            RuleError::LeadMixedSuits => "lead_mixed_suits",
            RuleError::MustFollowSuit { .. } => "must_follow_suit",
            RuleError::MustPlayAllOfSuit { .. } => "must_play_all_of_suit",
            RuleError::MustFollowPairs { .. } => "must_follow_pairs",
            RuleError::MustFollowTractor { .. } => "must_follow_tractor",
            RuleError::BadPenaltyPoints { .. } => "bad_penalty_points",
            RuleError::TooManyCopies { .. } => "too_many_copies",
        }
    }

    fn zh(&self) -> String {
        match self {
            RuleError::NoSuchSeat { seat } => {
                format!("没有第 {seat} 号座位（80分只有东南西北四个座位）")
            }
            RuleError::BoardOver => "这副牌已经结束".to_string(),
            RuleError::BoardFinal => "这副牌的成绩已经裁判确认，不能再更改".to_string(),
            RuleError::RefereeOnly => "只有裁判可以判罚（罚分、结束这副牌）或确认成绩".to_string(),
            RuleError::ClockOnly => "超时只能由计时器判定".to_string(),
            RuleError::WrongPhase { now } => format!("现在是「{}」阶段，不能这样做", now.zh()),
            RuleError::NotYourTurn { to_act } => {
                format!("不是你出牌：现在轮到{}家", to_act.zh())
            }
            RuleError::OnlyDeclarerBuries => "只有庄家扣底".to_string(),
            RuleError::BuryExactlyEight { got } => {
                format!("扣底必须正好 8 张（你扣了 {got} 张）")
            }
            RuleError::CardsNotInHand { missing } => {
                format!("手中没有这些牌：{}", format_cards(missing))
            }
            RuleError::EmptyPlay => "出牌至少一张".to_string(),
            RuleError::WrongCount { expected, got } => {
                format!("出牌张数必须与首家相同（首家出 {expected} 张，你出了 {got} 张）")
            }
            RuleError::LeadMixedSuits => "首家出牌必须是同一门（主牌或同一花色的副牌）".to_string(),
            RuleError::MustFollowSuit { lane } => {
                format!(
                    "必须跟出同一门花色：你有足够的{}，只能出{}",
                    lane.zh(),
                    lane.zh()
                )
            }
            RuleError::MustPlayAllOfSuit { lane, held } => format!(
                "必须跟出同一门花色：{}不够时必须全部跟出（你有 {held} 张）",
                lane.zh()
            ),
            RuleError::MustFollowPairs { pairs } => {
                if *pairs == 1 {
                    "有对必须跟对".to_string()
                } else {
                    format!("有对必须跟对（包括拖拉机中的对牌）：本轮须跟出 {pairs} 对")
                }
            }
            RuleError::MustFollowTractor { shape } => {
                format!("有拖拉机必须跟拖拉机：本轮须跟出 {}", shape_zh(shape))
            }
            RuleError::BadPenaltyPoints { points } => {
                format!("罚分必须在 1 到 1000 分之间（收到 {points} 分）")
            }
            RuleError::TooManyCopies {
                card,
                count,
                in_play,
            } => format!(
                "两副牌每种牌只有 2 张，{}却有 {count} 张 {card}：没有这样的牌局",
                in_play.zh()
            ),
        }
    }

    fn en(&self) -> String {
        match self {
            RuleError::NoSuchSeat { seat } => {
                format!("there is no seat {seat} (80分 has four seats: N, E, S, W)")
            }
            RuleError::BoardOver => "this board is over".to_string(),
            RuleError::BoardFinal => {
                "this board's result is final (closed by the referee)".to_string()
            }
            RuleError::RefereeOnly => "only the referee can rule (penalties, ending the board) or finalise a result".to_string(),
            RuleError::ClockOnly => "only the clock can time a seat out".to_string(),
            RuleError::WrongPhase { now } => {
                format!("not possible now: the table is {}", now.en())
            }
            RuleError::NotYourTurn { to_act } => {
                format!("it is not your turn: {} is to play", to_act.letter())
            }
            RuleError::OnlyDeclarerBuries => "only the declarer buries the kitty".to_string(),
            RuleError::BuryExactlyEight { got } => {
                format!("the kitty must be exactly 8 cards (you buried {got})")
            }
            RuleError::CardsNotInHand { missing } => {
                format!("these cards are not in your hand: {}", format_cards(missing))
            }
            RuleError::EmptyPlay => "a play needs at least one card".to_string(),
            RuleError::WrongCount { expected, got } => format!(
                "play as many cards as the leader ({expected} led, you played {got})"
            ),
            RuleError::LeadMixedSuits => {
                "a lead must be of one suit (all trumps, or one side suit)".to_string()
            }
            RuleError::MustFollowSuit { lane } => format!(
                "you must follow suit: you hold enough {}, so play only {}",
                lane.en(),
                lane.en()
            ),
            RuleError::MustPlayAllOfSuit { lane, held } => format!(
                "you must follow suit: with fewer {} than were led, play all of them (you hold {held})",
                lane.en()
            ),
            RuleError::MustFollowPairs { pairs } => {
                if *pairs == 1 {
                    "you hold a pair in the led suit: you must follow with a pair".to_string()
                } else {
                    format!(
                        "you hold pairs in the led suit (pairs inside tractors count): you must follow with {pairs} pairs"
                    )
                }
            }
            RuleError::MustFollowTractor { shape } => format!(
                "you hold a tractor in the led suit: you must follow with {}",
                shape_en(shape)
            ),
            RuleError::BadPenaltyPoints { points } => {
                format!("a penalty is 1 to 1000 points (got {points})")
            }
            RuleError::TooManyCopies { card, count, in_play } => format!(
                "two decks hold 2 of each card, yet there are {count} of {card} in {}: no deal has that",
                in_play.en()
            ),
        }
    }
}

/// Which cards of a judge question were counted together against the two decks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// A trick's four plays.
    Trick,
    /// The leader's hand and the other three hands.
    Hands,
    /// The lead and the follower's hand.
    LeadAndHand,
    /// The play alone.
    Play,
}

impl Counted {
    fn zh(self) -> &'static str {
        match self {
            Counted::Trick => "这一轮四家的牌",
            Counted::Hands => "首家和其他三家的手牌",
            Counted::LeadAndHand => "首家的出牌和跟牌者的手牌",
            Counted::Play => "出的牌",
        }
    }

    fn en(self) -> &'static str {
        match self {
            Counted::Trick => "this trick's four plays",
            Counted::Hands => "the leader's hand with the other three",
            Counted::LeadAndHand => "the lead with the follower's hand",
            Counted::Play => "the play",
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.en())
    }
}

impl std::error::Error for RuleError {}
