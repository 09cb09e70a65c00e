//! `paiju explain --all-seeing` (and `explain/{seq}?all_seeing=true`): the fair-play question
//! at one decision — what was best with every hand known, and what was best on the seat's own
//! view — from `bots::shengji::all_seeing`, told for the referee: 「看得见所有牌时最好的是…；
//! 只凭自己看到的…」. A figure for the referee to weigh, never a verdict.

use bots::shengji::all_seeing::{self, Analysis};
use rules::shengji::{Action, Board, Seat};
use serde::Serialize;
use serde_json::Value;

use super::lang::{both, Lang, Words};
use super::words::shengji as sw;

/// Deals sampled for the own-view values of one decision.
pub const WORLDS: u32 = 48;

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
    /// The seat defends (more points are better for it).
    pub defending: bool,
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
    AllSeeing {
        exact: a.exact,
        worlds: a.worlds,
        defending: a.defending,
        summary: summary(a, &choices),
        choices,
    }
}

fn summary(a: &Analysis, choices: &[ChoiceLine]) -> Words {
    let all = a.best_all_seeing().map(|c| (&c.action, c.all_seeing));
    let own = a
        .best_own_view()
        .map(|c| (&c.action, c.own_view.unwrap_or_default()));
    let made = choices.iter().find(|c| c.made);
    let all_same = all.is_some_and(|(_, v)| choices.iter().all(|c| c.all_seeing == v));
    let said = |l: Lang| {
        let act = |x: &Action| sw::action(x, l);
        let mut parts = Vec::new();
        match all {
            Some((_, v)) if all_same => parts.push(match l {
                Lang::Zh => format!("看得见所有牌时每种出法结果都一样（闲家最终 {v} 分）"),
                Lang::En => {
                    format!("with every hand known every choice ends the same (the defenders {v})")
                }
            }),
            Some((x, v)) => parts.push(match l {
                Lang::Zh => format!("看得见所有牌时最好的是{}（闲家最终 {v} 分）", act(x)),
                Lang::En => format!(
                    "with every hand known the best is {} (the defenders end with {v})",
                    act(x)
                ),
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
