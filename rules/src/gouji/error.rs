//! 犯规提示 (rule errors): why an action was refused, naming the rule. A refusal changes nothing.

use crate::cards::Card;
use crate::Explain;

use super::action::Ruling;
use super::beat::BeatError;
use super::set::{symbol, SetError, Strength};
use super::Seat;

/// Every refusal of the 够级 engine. `code()` is stable (protocol, logs, tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// The game is over.
    GameOver,
    /// A ruling (warning, deduction, forfeit) from anyone but the referee.
    RefereeOnly,
    /// A timeout from anyone but the clock.
    ClockOnly,
    /// It is another seat's move.
    NotYourTurn { turn: Option<Seat> },
    /// The cards are not all in the player's hand.
    CardsNotHeld,
    /// A play of no cards.
    EmptySet,
    /// More than one natural rank.
    MixedRanks { ranks: Vec<Strength> },
    /// A 3, which the game does not use.
    NotInGame { card: Card },
    /// Not the same number of cards as the top set.
    CountMismatch { expected: usize },
    /// Some card is not higher than its counterpart.
    NotHigher,
    /// 小花不能两打一.
    SmallJokerTwoForOne,
    /// 大花两打一: a big joker needs two big jokers.
    BigJokerNeedsTwo,
    /// A 级牌 of a player with a head: only their 对头 may beat it; others may only burn.
    GoujiOnlyOpposite { opposite: Seat },
    /// Leading: a pass is not possible.
    MustLead,
    /// 让: only the 对头 of the top set's owner.
    OnlyOppositeMayYield,
    /// The yield came back: now beat or pass.
    YieldAlreadyUsed,
    /// A burner leads sets with a joker until their last set.
    BurnLeadNeedsJoker,
    /// Burning without being offered the burn.
    NoBurnRight,
    /// The sustain test fails: jokers left < distinct ranks left − 1.
    BurnNotSustainable { jokers: usize, ranks: usize },
    /// A burn offer is open: answer it first.
    BurnOfferPending,
    /// 四户乱缠: no 让.
    NoYieldInFreePlay,
    /// The game was already forfeited.
    AlreadyForfeited,
    /// A deduction of points the ruleset does not allow (2 or 4), or points on a warning or a
    /// forfeit.
    BadRulingPoints {
        ruling: Ruling,
        points: u32,
        allowed: Vec<u32>,
    },
    /// The referee's judge was asked about cards six decks cannot hold: `count` of `card` in
    /// one set, or in the top set and the play together (`together`).
    TooManyCopies {
        card: Card,
        count: usize,
        together: bool,
    },
}

impl From<SetError> for RuleError {
    fn from(e: SetError) -> RuleError {
        match e {
            SetError::Empty => RuleError::EmptySet,
            SetError::MixedRanks { ranks } => RuleError::MixedRanks { ranks },
            SetError::NotInGame { card } => RuleError::NotInGame { card },
        }
    }
}

impl RuleError {
    pub(crate) fn from_beat(e: BeatError, expected: usize) -> RuleError {
        match e {
            BeatError::CountMismatch => RuleError::CountMismatch { expected },
            BeatError::NotHigher => RuleError::NotHigher,
            BeatError::SmallJokerTwoForOne => RuleError::SmallJokerTwoForOne,
            BeatError::BigJokerNeedsTwo => RuleError::BigJokerNeedsTwo,
        }
    }

    /// Every code, for the docs and the tests that pin them.
    pub const CODES: [&'static str; 24] = [
        "game_over",
        "referee_only",
        "clock_only",
        "not_your_turn",
        "cards_not_held",
        "empty_set",
        "mixed_ranks",
        "card_not_in_game",
        "count_mismatch",
        "not_higher",
        "small_joker_two_for_one",
        "big_joker_needs_two",
        "gouji_only_opposite",
        "must_lead",
        "only_opposite_may_yield",
        "yield_already_used",
        "burn_lead_needs_joker",
        "no_burn_right",
        "burn_not_sustainable",
        "burn_offer_pending",
        "no_yield_in_free_play",
        "already_forfeited",
        "bad_ruling_points",
        "too_many_copies",
    ];
}

fn ranks_text(ranks: &[Strength]) -> String {
    ranks
        .iter()
        .map(|&r| symbol(r))
        .collect::<Vec<_>>()
        .join("、")
}

/// `2 或 4`, `2 or 4`.
fn points_text(allowed: &[u32], or: &str) -> String {
    allowed
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(&format!(" {or} "))
}

impl Explain for RuleError {
    fn code(&self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::RefereeOnly => "referee_only",
            RuleError::ClockOnly => "clock_only",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::CardsNotHeld => "cards_not_held",
            RuleError::EmptySet => "empty_set",
            RuleError::MixedRanks { .. } => "mixed_ranks",
            RuleError::NotInGame { .. } => "card_not_in_game",
            RuleError::CountMismatch { .. } => "count_mismatch",
            RuleError::NotHigher => "not_higher",
            RuleError::SmallJokerTwoForOne => "small_joker_two_for_one",
            RuleError::BigJokerNeedsTwo => "big_joker_needs_two",
            RuleError::GoujiOnlyOpposite { .. } => "gouji_only_opposite",
            RuleError::MustLead => "must_lead",
            RuleError::OnlyOppositeMayYield => "only_opposite_may_yield",
            RuleError::YieldAlreadyUsed => "yield_already_used",
            RuleError::BurnLeadNeedsJoker => "burn_lead_needs_joker",
            RuleError::NoBurnRight => "no_burn_right",
            RuleError::BurnNotSustainable { .. } => "burn_not_sustainable",
            RuleError::BurnOfferPending => "burn_offer_pending",
            RuleError::NoYieldInFreePlay => "no_yield_in_free_play",
            RuleError::AlreadyForfeited => "already_forfeited",
            RuleError::BadRulingPoints { .. } => "bad_ruling_points",
            RuleError::TooManyCopies { .. } => "too_many_copies",
        }
    }

    fn zh(&self) -> String {
        match self {
            RuleError::GameOver => "本局已经结束".into(),
            RuleError::RefereeOnly => "只有裁判可以判罚（警告、扣分、判负）".into(),
            RuleError::ClockOnly => "超时只能由计时器判定".into(),
            RuleError::NotYourTurn { turn: Some(s) } => format!("不是你出牌（轮到 {s}）"),
            RuleError::NotYourTurn { turn: None } => "不是你出牌".into(),
            RuleError::CardsNotHeld => "手中没有这些牌".into(),
            RuleError::EmptySet => "至少要出一张牌".into(),
            RuleError::MixedRanks { ranks } => format!(
                "一套牌只能有一种点数（可带2和王），这里有 {}",
                ranks_text(ranks)
            ),
            RuleError::NotInGame { card } => format!("够级不用3：{card} 不是这局的牌"),
            RuleError::CountMismatch { expected } => {
                format!("张数必须相同：应出 {expected} 张（大王两打一时每张大王多一张）")
            }
            RuleError::NotHigher => "每张牌都必须更大（2算作本套的点数，相同不算大）".into(),
            RuleError::SmallJokerTwoForOne => "小花不能两打一：小王只能用大王打".into(),
            RuleError::BigJokerNeedsTwo => "大花两打一：每张大王要用两张大王来打".into(),
            RuleError::GoujiOnlyOpposite { opposite } => {
                format!("级牌只有对头能打，其他人只能烧（对头是 {opposite}）")
            }
            RuleError::MustLead => "该你发牌，不能过".into(),
            RuleError::OnlyOppositeMayYield => "只有对头可以让牌".into(),
            RuleError::YieldAlreadyUsed => "让的牌回到你这里了：现在只能打或过".into(),
            RuleError::BurnLeadNeedsJoker => "烧牌后出牌必须带王（最后一套除外）".into(),
            RuleError::NoBurnRight => "没有烧牌的资格：对头过牌后按顺序问到你才能烧".into(),
            RuleError::BurnNotSustainable { jokers, ranks } => format!(
                "烧牌后王不够（留牌）：剩 {jokers} 张王，还有 {ranks} 种点数，王数至少要比点数种类少一"
            ),
            RuleError::BurnOfferPending => "请先回答是否烧牌".into(),
            RuleError::NoYieldInFreePlay => "四户乱缠时不能让牌".into(),
            RuleError::AlreadyForfeited => "本局已经判负".into(),
            RuleError::BadRulingPoints {
                ruling: Ruling::Deduction,
                points,
                allowed,
            } => format!(
                "扣分只能是 {} 分（扣该队2分、4分），不能扣 {points} 分",
                points_text(allowed, "或")
            ),
            RuleError::BadRulingPoints { .. } => "只有扣分带分数：警告和判负不带分数".into(),
            RuleError::TooManyCopies {
                card,
                count,
                together,
            } => format!(
                "六副牌每种牌只有 6 张，{}却有 {count} 张 {card}：没有这样的牌局",
                if *together { "两套牌合起来" } else { "这一套" }
            ),
        }
    }

    fn en(&self) -> String {
        match self {
            RuleError::GameOver => "the game is over".into(),
            RuleError::RefereeOnly => "only the referee can rule (warnings, deductions, forfeits)".into(),
            RuleError::ClockOnly => "only the clock can time a seat out".into(),
            RuleError::NotYourTurn { turn: Some(s) } => format!("it is not your turn ({s} to act)"),
            RuleError::NotYourTurn { turn: None } => "it is not your turn".into(),
            RuleError::CardsNotHeld => "you do not hold these cards".into(),
            RuleError::EmptySet => "play at least one card".into(),
            RuleError::MixedRanks { ranks } => format!(
                "a set has one rank only (2s and jokers may be attached); this one has {}",
                ranks_text(ranks).replace('、', ", ")
            ),
            RuleError::NotInGame { card } => {
                format!("gouji is played without 3s: {card} is not in this game")
            }
            RuleError::CountMismatch { expected } => format!(
                "the number of cards must match: play {expected} (one more per big joker when two big jokers cover one)"
            ),
            RuleError::NotHigher => {
                "every card must be higher (2s count as the set's rank; equal does not beat)".into()
            }
            RuleError::SmallJokerTwoForOne => {
                "no two-for-one against a small joker: only a big joker beats it".into()
            }
            RuleError::BigJokerNeedsTwo => {
                "two-for-one: each big joker must be covered by two big jokers".into()
            }
            RuleError::GoujiOnlyOpposite { opposite } => format!(
                "only the opposite player ({opposite}) may beat a gouji set; others may only burn it"
            ),
            RuleError::MustLead => "you lead: you cannot pass".into(),
            RuleError::OnlyOppositeMayYield => {
                "only the opposite player of the top set's owner may yield".into()
            }
            RuleError::YieldAlreadyUsed => "your yield came back: beat or pass now".into(),
            RuleError::BurnLeadNeedsJoker => {
                "after burning, every set you lead must hold a joker (except your last)".into()
            }
            RuleError::NoBurnRight => {
                "you have no right to burn: the burn is offered in order after the opposite player passes".into()
            }
            RuleError::BurnNotSustainable { jokers, ranks } => format!(
                "you cannot sustain this burn: {jokers} joker(s) left for {ranks} rank(s); jokers must be at least ranks minus one"
            ),
            RuleError::BurnOfferPending => "answer the burn offer first (burn or decline)".into(),
            RuleError::NoYieldInFreePlay => "no yielding once four play freely (四户乱缠)".into(),
            RuleError::AlreadyForfeited => "the game has already been forfeited".into(),
            RuleError::BadRulingPoints {
                ruling: Ruling::Deduction,
                points,
                allowed,
            } => format!(
                "a deduction is {} points, not {points}",
                points_text(allowed, "or")
            ),
            RuleError::BadRulingPoints { .. } => {
                "only a deduction has points: a warning or a forfeit has none".into()
            }
            RuleError::TooManyCopies {
                card,
                count,
                together,
            } => format!(
                "six decks hold 6 of each card, yet there are {count} of {card} in {}: no deal has that",
                if *together { "the two sets together" } else { "this set" }
            ),
        }
    }
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.en())
    }
}

impl std::error::Error for RuleError {}
