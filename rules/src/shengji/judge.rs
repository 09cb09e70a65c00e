//! 裁判问答 (the referee's judge): one question about a follow, a lead or a trick, answered by
//! the same code the tables use. `paiju judge` reads the questions as JSON lines.
//!
//! - follow: `{"level":"4","trump":"S","lead":[..],"hand":[..],"play":[..]}` →
//!   `{"legal":true}` or `{"legal":false,"code":..,"message":<zh>,"message_en":<en>}`;
//! - lead: `{"level":..,"trump":..,"hand":[..],"play":[..],"others":[[..],[..],[..]]}` (the other
//!   hands in turn order after the leader) → `{"legal":false,"code":..,..}`,
//!   `{"legal":true,"throw":"stands"}`, `{"legal":true,"throw":"fails","penalty":N,"forced":[..]}`
//!   or `{"legal":true,"throw":"fails","penalty":N,"choices":[[single],[pair or tractor]]}`;
//! - trick: `{"level":..,"trump":..,"trick":[[..],[..],[..],[..]]}` in play order →
//!   `{"winner":i,"points":p}`, 0 the leader.
//!
//! Cards no deal can hold — three of a card in one trick, or in the hands and plays the
//! question puts on one table — are refused in every form: `{"legal":false,
//! "code":"too_many_copies",..}` ([`Question::impossible`]).
//!
//! A `"game"` field and unknown fields are ignored. `trump` is a suit letter or `"NT"`, `level`
//! a rank (`"4"`, `"10"`, `"A"`; a number is accepted too).

use serde::{Deserialize, Serialize};

use super::error::{Counted, RuleError};
use super::follow::check_follow;
use super::order::Order;
use super::ruleset::Ruleset;
use super::seat::Seat;
use super::throw::{check_throw, Forced, ThrowVerdict};
use super::trick::{trick_points, trick_winner};
use super::unit::{parse_lead, parse_lead_for};
use super::view::trump_letter;
use crate::cards::{beyond_decks, Card, Hand, Rank, Suit};
use crate::deal::SHENGJI_DECKS;
use crate::Explain;

/// A judge question. Deserialised from the three JSON forms; a question that cannot be
/// understood is a deserialisation error naming what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "RawQuestion")]
pub enum Question {
    /// Is `play` a legal follow to `lead` from `hand` (the follower's whole hand)?
    Follow {
        level: Rank,
        trump: Option<Suit>,
        lead: Vec<Card>,
        hand: Vec<Card>,
        play: Vec<Card>,
    },
    /// Is `play` a legal lead from `hand`, and does it stand as a throw against `others`?
    Lead {
        level: Rank,
        trump: Option<Suit>,
        hand: Vec<Card>,
        play: Vec<Card>,
        /// The other three hands in turn order after the leader.
        others: [Vec<Card>; 3],
    },
    /// Who wins this trick (plays in order, the lead first), and its points.
    Trick {
        level: Rank,
        trump: Option<Suit>,
        trick: [Vec<Card>; 4],
    },
}

/// The JSON as written, before it is checked.
#[derive(Deserialize)]
struct RawQuestion {
    level: Option<LevelField>,
    trump: Option<String>,
    lead: Option<Vec<Card>>,
    hand: Option<Vec<Card>>,
    play: Option<Vec<Card>>,
    others: Option<Vec<Vec<Card>>>,
    trick: Option<Vec<Vec<Card>>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum LevelField {
    Text(String),
    Number(u8),
}

impl TryFrom<RawQuestion> for Question {
    type Error = String;

    fn try_from(raw: RawQuestion) -> Result<Question, String> {
        let level = match raw.level.ok_or("missing \"level\"")? {
            LevelField::Text(s) => {
                Rank::parse(s.trim()).ok_or_else(|| format!("level \"{s}\" is not a rank 2..A"))?
            }
            LevelField::Number(n) => {
                Rank::new(n).ok_or_else(|| format!("level {n} is not a rank 2..A"))?
            }
        };
        let trump_text = raw.trump.ok_or("missing \"trump\"")?;
        let trump = trump_letter::parse(&trump_text)
            .ok_or_else(|| format!("trump \"{trump_text}\" is not S, H, D, C or NT"))?;
        let order = Order::new(level, trump);
        let a_lead = |name: &str, cards: &[Card]| -> Result<(), String> {
            parse_lead(&order, Ruleset::fujian_2024().lead_parse, cards)
                .map(|_| ())
                .map_err(|e| format!("\"{name}\" is not a lead: {}", e.en()))
        };
        let need =
            |name: &str, v: Option<Vec<Card>>| v.ok_or_else(|| format!("missing \"{name}\""));
        let question = if let Some(trick) = raw.trick {
            let trick: [Vec<Card>; 4] = trick
                .try_into()
                .map_err(|t: Vec<_>| format!("\"trick\" has {} plays, not 4", t.len()))?;
            Question::Trick {
                level,
                trump,
                trick,
            }
        } else {
            let hand = need("hand", raw.hand)?;
            let play = need("play", raw.play)?;
            match raw.others {
                Some(others) => Question::Lead {
                    level,
                    trump,
                    hand,
                    play,
                    others: others
                        .try_into()
                        .map_err(|o: Vec<_>| format!("\"others\" has {} hands, not 3", o.len()))?,
                },
                None => Question::Follow {
                    level,
                    trump,
                    lead: raw.lead.ok_or(
                        "a question has \"lead\" (a follow), \"others\" (a lead) or \"trick\"",
                    )?,
                    hand,
                    play,
                },
            }
        };
        // Cards no deal can hold are the answer's refusal (`too_many_copies`, typed, in both
        // languages); the leads are cut into units only from cards a deal can hold.
        if question.impossible().is_some() {
            return Ok(question);
        }
        match &question {
            Question::Trick { trick, .. } => {
                a_lead("trick[0]", &trick[0])?;
                for (i, p) in trick.iter().enumerate() {
                    if p.len() != trick[0].len() {
                        return Err(format!(
                            "trick[{i}] has {} cards, the lead {}",
                            p.len(),
                            trick[0].len()
                        ));
                    }
                }
            }
            Question::Follow { lead, .. } => a_lead("lead", lead)?,
            Question::Lead { .. } => {}
        }
        Ok(question)
    }
}

impl Question {
    /// Why no deal can hold the question's cards, if none can: two decks hold two of each card,
    /// so no more than two of a card may appear in one play, one hand, or the cards the
    /// question puts on one table at once — a trick's four plays, the leader's hand with the
    /// other three hands, the lead with the follower's hand (the lead left the leader's hand).
    pub fn impossible(&self) -> Option<RuleError> {
        let over = |cards: &[&[Card]], in_play: Counted| {
            beyond_decks(cards.iter().flat_map(|c| c.iter()), SHENGJI_DECKS).map(|(card, count)| {
                RuleError::TooManyCopies {
                    card,
                    count,
                    in_play,
                }
            })
        };
        match self {
            Question::Trick { trick, .. } => over(
                &[&trick[0], &trick[1], &trick[2], &trick[3]],
                Counted::Trick,
            ),
            Question::Lead {
                hand, play, others, ..
            } => over(&[play], Counted::Play)
                .or_else(|| over(&[hand, &others[0], &others[1], &others[2]], Counted::Hands)),
            Question::Follow {
                lead, hand, play, ..
            } => over(&[play], Counted::Play).or_else(|| over(&[lead, hand], Counted::LeadAndHand)),
        }
    }
}

/// The judge's answer, serialised exactly in the forms of the module doc.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    Verdict(Verdict),
    Trick { winner: usize, points: u32 },
}

/// A follow's or a lead's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub legal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
    /// In Chinese.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_en: Option<String>,
    /// A legal lead: `"stands"` or `"fails"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throw: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penalty: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced: Option<Vec<Card>>,
    /// The smallest blocked single, then the smallest blocked pair or tractor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<[Vec<Card>; 2]>,
}

impl Verdict {
    fn legal() -> Verdict {
        Verdict {
            legal: true,
            code: None,
            message: None,
            message_en: None,
            throw: None,
            penalty: None,
            forced: None,
            choices: None,
        }
    }

    fn refused(e: &impl Explain) -> Verdict {
        Verdict {
            legal: false,
            code: Some(e.code()),
            message: Some(e.zh()),
            message_en: Some(e.en()),
            ..Verdict::legal()
        }
    }
}

/// Answers a question under `fujian-2024`.
pub fn answer(q: &Question) -> Answer {
    answer_with(q, &Ruleset::fujian_2024())
}

/// Answers a question under a given ruleset. A question whose cards no deal can hold is
/// refused first ([`Question::impossible`]), in every form.
pub fn answer_with(q: &Question, rules: &Ruleset) -> Answer {
    if let Some(e) = q.impossible() {
        return Answer::Verdict(Verdict::refused(&e));
    }
    match q {
        Question::Follow {
            level,
            trump,
            lead,
            hand,
            play,
        } => {
            let order = Order::new(*level, *trump);
            let hand: Hand = hand.iter().copied().collect();
            let verdict = parse_lead_for(&order, rules, lead)
                .and_then(|lead| check_follow(&order, &lead, &hand, play));
            Answer::Verdict(match verdict {
                Ok(()) => Verdict::legal(),
                Err(e) => Verdict::refused(&e),
            })
        }
        Question::Lead {
            level,
            trump,
            hand,
            play,
            others,
        } => {
            let order = Order::new(*level, *trump);
            let held: Hand = hand.iter().copied().collect();
            if !held.contains_all(play) {
                return Answer::Verdict(Verdict::refused(&super::follow::missing(&held, play)));
            }
            let lead = match parse_lead(&order, rules.lead_parse, play) {
                Ok(lead) => lead,
                Err(e) => return Answer::Verdict(Verdict::refused(&e)),
            };
            // The leader is N; the others follow in turn order: W, S, E.
            let hands: Vec<Hand> = others.iter().map(|o| o.iter().copied().collect()).collect();
            let leader = Seat::N;
            let seats = [
                leader.next(),
                leader.next().next(),
                leader.next().next().next(),
            ];
            let others = [0, 1, 2].map(|i| (seats[i], &hands[i]));
            Answer::Verdict(match check_throw(&order, rules, &lead, leader, others) {
                ThrowVerdict::Stands => Verdict {
                    throw: Some("stands"),
                    ..Verdict::legal()
                },
                ThrowVerdict::Fails(f) => {
                    let (forced, choices) = match f.forced {
                        Forced::Unit(u) => (Some(u.cards().to_vec()), None),
                        Forced::Choice { single, pair } => {
                            (None, Some([single.cards().to_vec(), pair.cards().to_vec()]))
                        }
                    };
                    Verdict {
                        throw: Some("fails"),
                        penalty: Some(f.penalty),
                        forced,
                        choices,
                        ..Verdict::legal()
                    }
                }
            })
        }
        Question::Trick {
            level,
            trump,
            trick,
        } => {
            let order = Order::new(*level, *trump);
            let plays: [&[Card]; 4] = std::array::from_fn(|i| trick[i].as_slice());
            let lead = parse_lead(&order, rules.lead_parse, plays[0]).expect("checked when read");
            Answer::Trick {
                winner: trick_winner(&order, rules.throw_compare, &lead, &plays),
                points: trick_points(&plays),
            }
        }
    }
}
