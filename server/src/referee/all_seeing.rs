//! `paiju explain --all-seeing` (and `explain/{seq}?all_seeing=true`): the fair-play question
//! at one decision — what was best with every hand known, and what was best on the seat's own
//! view — from `bots::shengji::all_seeing` and `bots::gouji::all_seeing`, told for the
//! referee: 「看得见所有牌时最好的是…；只凭自己看到的…」. A figure for the referee to weigh,
//! never a verdict.

use bots::gouji::all_seeing as gouji_seeing;
use bots::shengji::all_seeing::{self, Analysis};
use rules::shengji::{Action, Board, Seat};
use serde::Serialize;
use serde_json::Value;

use super::lang::{both, Lang, Words};
use super::replayed::Run;
use super::words::{gouji as gw, shengji as sw};

/// Deals sampled for the own-view values of one 80分 decision.
pub const WORLDS: u32 = 48;
/// Games sampled for one 够级 decision (each replays the game so far, then plays it out).
pub const GOUJI_WORLDS: u32 = 24;

/// One choice, valued both ways, as the desk shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoiceLine {
    pub action: Value,
    pub told: Words,
    /// The defenders' final points with every hand known.
    pub all_seeing: i32,
    /// The defenders' mean final points over the deals the seat's own view allows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_view: Option<f64>,
    /// The choice the seat made (or the one asked about with `--try`).
    pub made: bool,
}

/// The decision analysed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AllSeeing {
    /// The all-seeing values are exact (a full search of the endgame), not played out by the
    /// 普通 policy.
    pub exact: bool,
    /// Deals sampled for the own-view values.
    pub worlds: u32,
    /// The seat defends (more points are better for it). 够级: always true.
    pub defending: bool,
    /// Whose points the values are: `defenders` (80分: the defenders' final points) or
    /// `team` (够级: the seat's team's points at the end of the game).
    pub points: &'static str,
    pub choices: Vec<ChoiceLine>,
    /// The answer in a sentence.
    pub summary: Words,
}

/// The 80分 decision before `action` by `seat` at `before`, or `None` where there is none to
/// weigh (not a play, not the seat to act, a single legal play).
pub fn shengji(before: &Board, seat: usize, action: &Action) -> Option<AllSeeing> {
    let s = Seat::from_index(seat);
    if before.to_act() != Some(s) || !matches!(action, Action::Play { .. }) {
        return None;
    }
    let a = all_seeing::analyse(before, Some(action), WORLDS, all_seeing::seed_of(before, s))?;
    Some(told(&a, action))
}

fn told(a: &Analysis, made: &Action) -> AllSeeing {
    let line = |c: &all_seeing::Choice| ChoiceLine {
        action: serde_json::to_value(&c.action).unwrap_or(Value::Null),
        told: both(|l| sw::action(&c.action, l)),
        all_seeing: c.all_seeing,
        own_view: c.own_view,
        made: &c.action == made,
    };
    let choices: Vec<ChoiceLine> = a.choices.iter().map(line).collect();
    let summary = summary(
        &choices,
        pos_of(&choices, |c| Some(c.all_seeing as f64), |v| a.for_seat(v)),
        pos_of(&choices, |c| c.own_view, |v| a.for_seat(v)),
        Side::Defenders,
    );
    AllSeeing {
        exact: a.exact,
        worlds: a.worlds,
        defending: a.defending,
        points: "defenders",
        summary,
        choices,
    }
}

/// The 够级 decision of step `k` (0-based) of `run` by `seat`, or `None` where there is none
/// to weigh (not a move, not the seat to act, a single choice, a seat that did not see every
/// step). The seat's notes are rebuilt from its views after each step, as a seat at the table
/// took them in.
pub fn gouji(
    run: &Run<rules::gouji::Game>,
    k: usize,
    seat: usize,
    action: &rules::gouji::Action,
) -> Option<AllSeeing> {
    let s = rules::gouji::Seat::from_index(seat);
    let steps = run.steps[..k.min(run.steps.len())].iter().map(|step| {
        let who = rules::gouji::Seat::from_index(step.entry.seat);
        (who, step.entry.actor, step.action.clone())
    });
    let (game, notes) = gouji_seeing::replay_for(&run.dealt, steps, s)?;
    if game.phase().seat() != Some(s) {
        return None;
    }
    let seed = gouji_seeing::seed_of(&game, s, k as u64);
    let a = gouji_seeing::analyse(&game, &notes, Some(action), GOUJI_WORLDS, seed)?;
    let choices: Vec<ChoiceLine> = a
        .choices
        .iter()
        .filter_map(|c| {
            Some(ChoiceLine {
                action: serde_json::to_value(&c.action).unwrap_or(Value::Null),
                told: both(|l| gw::action(&c.action, l)),
                all_seeing: c.all_seeing? as i32,
                own_view: c.own_view,
                made: gouji_seeing::same_move(&c.action, action),
            })
        })
        .collect();
    if choices.len() < 2 {
        return None;
    }
    let summary = summary(
        &choices,
        pos_of(&choices, |c| Some(c.all_seeing as f64), |v| v),
        pos_of(&choices, |c| c.own_view, |v| v),
        Side::Team,
    );
    Some(AllSeeing {
        exact: false,
        worlds: a.worlds,
        defending: true,
        points: "team",
        summary,
        choices,
    })
}

/// Whose points the values count.
#[derive(Clone, Copy)]
enum Side {
    Defenders,
    Team,
}

/// The first of the best choices by `value`, turned to the seat's side by `for_seat`.
fn pos_of(
    choices: &[ChoiceLine],
    value: impl Fn(&ChoiceLine) -> Option<f64>,
    for_seat: impl Fn(f64) -> f64,
) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, c) in choices.iter().enumerate() {
        let Some(v) = value(c).map(&for_seat) else {
            continue;
        };
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|(i, _)| i)
}

fn summary(choices: &[ChoiceLine], all: Option<usize>, own: Option<usize>, side: Side) -> Words {
    let all = all.map(|i| (&choices[i].told, choices[i].all_seeing));
    let own = own.map(|i| (&choices[i].told, choices[i].own_view.unwrap_or_default()));
    let made = choices.iter().find(|c| c.made);
    let all_same = all.is_some_and(|(_, v)| choices.iter().all(|c| c.all_seeing == v));
    let said = |l: Lang| {
        let act = |x: &Words| l.of(x).to_string();
        let whose = match (side, l) {
            (Side::Defenders, Lang::Zh) => "闲家最终",
            (Side::Defenders, Lang::En) => "the defenders end with",
            (Side::Team, Lang::Zh) => "本队最终",
            (Side::Team, Lang::En) => "the seat's team ends with",
        };
        let mut parts = Vec::new();
        match all {
            Some((_, v)) if all_same => parts.push(match l {
                Lang::Zh => format!("看得见所有牌时每种出法结果都一样（{whose} {v} 分）"),
                Lang::En => {
                    format!("with every hand known every choice ends the same ({whose} {v})")
                }
            }),
            Some((x, v)) => parts.push(match l {
                Lang::Zh => format!("看得见所有牌时最好的是{}（{whose} {v} 分）", act(x)),
                Lang::En => format!("with every hand known the best is {} ({whose} {v})", act(x)),
            }),
            None => {}
        }
        if let Some((x, v)) = own {
            parts.push(match l {
                Lang::Zh => format!("只凭自己看到的，最好的是{}（平均约 {v:.0} 分）", act(x)),
                Lang::En => format!(
                    "on its own view alone the best is {} (about {v:.0} on average)",
                    act(x)
                ),
            });
        }
        if let (Some(m), Some((_, best)), false) = (made, all, all_same) {
            parts.push(match (l, m.all_seeing == best) {
                (Lang::Zh, true) => format!("实际的{}也是看得见所有牌时最好的", m.told.zh),
                (Lang::En, true) => format!(
                    "the choice made, {}, is among the best with every hand known",
                    m.told.en
                ),
                (Lang::Zh, false) => {
                    format!("实际是{}（看得见所有牌时 {} 分）", m.told.zh, m.all_seeing)
                }
                (Lang::En, false) => format!(
                    "the choice made: {} ({} with every hand known)",
                    m.told.en, m.all_seeing
                ),
            });
        }
        parts.join(l.pick("；", "; "))
    };
    Words::new(said(Lang::Zh), said(Lang::En))
}

/// The analysis as text lines for `paiju explain`.
pub fn text(a: &AllSeeing, lang: Lang, lines: &mut Vec<String>) {
    lines.push(
        match (lang, a.exact) {
            (Lang::Zh, true) => "看得见所有牌（终局精确搜索）与只凭自己看到的（抽样推演）：",
            (Lang::Zh, false) => "看得见所有牌（按普通水平打完）与只凭自己看到的（抽样推演）：",
            (Lang::En, true) => {
                "Every hand known (the endgame searched exactly) and the seat's own view (sampled):"
            }
            (Lang::En, false) => {
                "Every hand known (played out at club level) and the seat's own view (sampled):"
            }
        }
        .into(),
    );
    for c in &a.choices {
        let own = c
            .own_view
            .map(|v| format!("{v:.1}"))
            .unwrap_or_else(|| "—".into());
        lines.push(format!(
            "  {} {}{} {} · {} {own}",
            if c.made { "▶" } else { " " },
            lang.of(&c.told),
            lang.pick("：全知", ": all-seeing"),
            c.all_seeing,
            lang.pick("自己所见", "own view"),
        ));
    }
    lines.push(format!("  {}", lang.of(&a.summary)));
}
