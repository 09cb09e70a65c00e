//! `paiju explain <table id> <seq> [--db FILE] [--lang zh|en] [--json]`: why a logged action was
//! legal; with `--try '<action json>' --seat N [--actor A]`, why a hypothetical action at that
//! point (before action `seq`) would be refused — or what it would do.
//!
//! Nothing here decides a rule. The log is re-applied to `seq − 1`, the engine is asked about
//! the action, and then about its alternatives: the same cards with one card changed, one card
//! fewer or one more, another answer (过, 让, 烧), another seat, another actor. The refusals the
//! engine gives for those are the rules that bound the action, in the engine's own codes and
//! words (`rules::Explain`). Around them the desk states the facts the rules looked at (the
//! lead and the follower's holding in its suit, the blocked units of a throw and the cards that
//! blocked them, the top set, 对头 and 级牌, the burn) using the engines' public predicates.

use rules::cards::{Card, Hand};
use rules::{Actor, Engine, Explain};
use serde::Serialize;
use serde_json::Value;

use super::all_seeing::AllSeeing;
use super::lang::{both, Lang, Words};
use super::replayed::{Checked, Run};
use super::words::{self, GameWords};
use crate::table::TableGame;

/// The engine's verdict on an action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub legal: bool,
    /// The engine's code when refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
    /// The engine's words when refused; the desk's summary when accepted.
    pub words: Words,
}

/// A rule that applied to the action, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleNote {
    /// The engine's code of the rule (`must_follow_suit`, `gouji_only_opposite`, …) or the
    /// desk's name for a situation without one (`void`, `throw`, `lead`).
    pub rule: &'static str,
    /// `bound`: the action had to obey it (an alternative that breaks it is refused);
    /// `kept`: it applied and was kept, but no nearby alternative breaks it; `void`: it did
    /// not apply here (a void follower, a non-binding set); `info`: a fact the rule turns on.
    pub state: &'static str,
    pub words: Words,
}

/// An alternative the engine refuses, with its code and words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Alternative {
    /// The seat that would act (index).
    pub seat: usize,
    pub actor: &'static str,
    pub action: Value,
    pub code: &'static str,
    pub words: Words,
    /// The alternative, told.
    pub told: Words,
}

/// Why an action was (or would be) legal or refused.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    pub table: String,
    pub game: &'static str,
    /// The game's name, for the text (the JSON has `game`).
    #[serde(skip)]
    pub title: Words,
    /// The point: before action `seq` (the state after `seq − 1`).
    pub seq: u64,
    pub seat: usize,
    pub seat_label: String,
    pub actor: &'static str,
    pub action: Value,
    /// The action as told.
    pub told: Words,
    /// A `--try`, not the logged action.
    pub hypothetical: bool,
    /// For a `--try`: what the log holds at `seq`, told.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logged: Option<Words>,
    pub verdict: Verdict,
    /// The facts the rules looked at.
    pub context: Vec<Words>,
    pub rules: Vec<RuleNote>,
    /// Nearby alternatives the engine refuses, one per code.
    pub refused: Vec<Alternative>,
    /// How many of the nearby alternatives the engine accepts, with a few.
    pub also_legal: usize,
    pub also_legal_examples: Vec<Words>,
    /// What the action did (accepted), told.
    pub events: Vec<Words>,
    /// An 80分 ruling the engine accepts: the defenders' points before it and after it
    /// (`rules::shengji::Board::ruling_effect`), so the referee sees the resulting number
    /// before the ruling is sent (`--try`, `explain/{seq}?try=`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruling: Option<RulingEffect>,
    /// Asked for (`--all-seeing`): each choice at this decision valued with every hand known
    /// and on the seat's own view (the fair-play question; 80分 plays).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_seeing: Option<AllSeeing>,
}

/// What a ruling does to an 80分 board's result, before it is committed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RulingEffect {
    /// The defenders' points as the board stands.
    pub before: i32,
    /// The defenders' points the ruling leaves: the board's result once play is over (an
    /// `end_board`, or a penalty after the last trick).
    pub after: i32,
    /// The ruling ends the board, or play is over already: `after` is the result.
    pub result: bool,
}

/// `--try`: an action that was not logged, by a seat, asked about at some point of the log.
#[derive(Clone, Debug)]
pub struct Try {
    /// The action's JSON.
    pub action: String,
    /// The seat as the referee writes it: an index, or `N`…`W`, `A1`…`B3`.
    pub seat: String,
    /// Who would act; by default who may take such an action.
    pub actor: Option<Actor>,
}

/// What `paiju explain` knows of a game: who takes an action when nobody says, and the rules
/// an action of it is bound by.
pub trait ExplainGame: GameWords + TableGame + Clone {
    /// Who takes such an action when the referee does not say: the referee a ruling, the clock
    /// a timeout, the player anything else.
    fn taken_by(action: &Self::Action) -> Actor;
    /// `e` (the action asked about, and where) explained at the position `before`: the
    /// engine's verdict, the facts the rules looked at, the rules that bound it and the nearby
    /// alternatives the engine refuses.
    fn explain(
        e: Explanation,
        before: &Self,
        seat: usize,
        actor: Actor,
        action: &Self::Action,
    ) -> Explanation;
    /// The decision of step `k` (0-based: before it, the engine is `before`) by `seat`, taking
    /// `action`, valued with every hand known and on the seat's own view (80分 plays; 够级
    /// moves, whose seat's knowledge is rebuilt from `run`).
    fn all_seeing(
        run: &Run<Self>,
        k: usize,
        before: &Self,
        seat: usize,
        action: &Self::Action,
    ) -> Option<AllSeeing>;
}

/// What `paiju explain` answers: why logged entry `seq` was legal, or why `try_action` would be
/// refused there. A record that does not hold up to `seq` is not explained.
pub fn ask<G: ExplainGame>(
    checked: &Checked<G>,
    seq: u64,
    try_action: Option<&Try>,
    all_seeing: bool,
) -> Result<Explanation, Words> {
    if let Some(f) = &checked.fault {
        if checked.replayed.is_none() || f.seq.is_some_and(|s| s <= seq) {
            return Err(f.words.clone());
        }
    }
    match try_action {
        None => explain(checked, seq, all_seeing),
        Some(t) => {
            let seat =
                words::parse_seat::<G>(&t.seat).map_err(|e| Words::same(format!("--seat: {e}")))?;
            explain_try(checked, seq, seat, &t.action, t.actor, all_seeing)
        }
    }
    .map_err(Words::same)
}

/// Why the logged action `seq` was legal.
pub fn explain<G: ExplainGame>(
    checked: &Checked<G>,
    seq: u64,
    all_seeing: bool,
) -> Result<Explanation, String> {
    let run = replayed_of(checked)?;
    if seq == 0 || seq as usize > run.steps.len() {
        return Err(format!(
            "there is no replayed action {seq} (the log replays 1 to {})",
            run.steps.len()
        ));
    }
    let k = seq as usize - 1;
    let s = &run.steps[k];
    let e = Explanation::asked::<G>(checked, seq, s.entry.seat, s.entry.actor, &s.action, None);
    let before = run.after(k);
    let mut e = G::explain(e, &before, s.entry.seat, s.entry.actor, &s.action);
    if all_seeing {
        e.all_seeing = G::all_seeing(run, k, &before, s.entry.seat, &s.action);
    }
    Ok(e)
}

/// Why a hypothetical action by `seat`, before action `seq` (1 up to one past the last), would
/// be refused, or what it would do. `actor`: by default who may take such an action (the
/// referee for a ruling, the clock for a timeout, the player otherwise).
pub fn explain_try<G: ExplainGame>(
    checked: &Checked<G>,
    seq: u64,
    seat: usize,
    action_json: &str,
    actor: Option<Actor>,
    all_seeing: bool,
) -> Result<Explanation, String> {
    let run = replayed_of(checked)?;
    if seat >= G::SEATS {
        return Err(format!("--seat: the table has no seat {seat}"));
    }
    if seq == 0 || seq as usize > run.steps.len() + 1 {
        return Err(format!(
            "--try goes before an action 1 to {} (one past the last: after the log)",
            run.steps.len() + 1
        ));
    }
    let k = seq as usize - 1;
    let action: G::Action = serde_json::from_str(action_json)
        .map_err(|e| format!("--try: not an action of {}: {e}", G::title(Lang::En)))?;
    let actor = actor.unwrap_or(G::taken_by(&action));
    let logged = run.steps.get(k).map(|s| {
        told_entry(&s.entry, |l| {
            format!(
                "{} {}",
                words::seat::<G>(s.entry.seat, l),
                G::action_words(&s.action, l)
            )
        })
    });
    let e = Explanation::asked::<G>(checked, seq, seat, actor, &action, Some(logged));
    let before = run.after(k);
    let mut e = G::explain(e, &before, seat, actor, &action);
    if all_seeing {
        e.all_seeing = G::all_seeing(run, k, &before, seat, &action);
    }
    Ok(e)
}

fn replayed_of<G: Engine>(checked: &Checked<G>) -> Result<&Run<G>, String> {
    checked.replayed.as_ref().ok_or_else(|| {
        checked
            .fault
            .as_ref()
            .map(|f| f.words.en.clone())
            .unwrap_or_else(|| "nothing replayed".into())
    })
}

fn told_entry(e: &crate::store::LogEntry, tell: impl Fn(Lang) -> String) -> Words {
    let both = |l: Lang| {
        let tag = words::actor_tag(e, l);
        format!(
            "#{} {}{}{tag}",
            e.seq,
            tell(l),
            if tag.is_empty() { "" } else { " " }
        )
    };
    Words::new(both(Lang::Zh), both(Lang::En))
}

impl Explanation {
    /// The question before any answer: `action` by `seat` and `actor` before entry `seq`
    /// (`logged`: a `--try`, with what the log holds there), taken for legal until the engine
    /// says otherwise.
    fn asked<G: ExplainGame>(
        checked: &Checked<G>,
        seq: u64,
        seat: usize,
        actor: Actor,
        action: &G::Action,
        logged: Option<Option<Words>>,
    ) -> Explanation {
        let hypothetical = logged.is_some();
        Explanation {
            table: checked.table.header.id.clone(),
            game: G::GAME,
            title: both(|l| G::title(l).to_string()),
            seq,
            seat,
            seat_label: words::label::<G>(seat),
            actor: actor.name(),
            action: serde_json::to_value(action).unwrap_or_default(),
            told: both(|l| {
                format!(
                    "{} {}",
                    words::seat::<G>(seat, l),
                    G::action_words(action, l)
                )
            }),
            hypothetical,
            logged: logged.flatten(),
            verdict: Verdict {
                legal: true,
                code: None,
                words: accepted_words(seq, hypothetical),
            },
            context: Vec::new(),
            rules: Vec::new(),
            refused: Vec::new(),
            also_legal: 0,
            also_legal_examples: Vec::new(),
            events: Vec::new(),
            ruling: None,
            all_seeing: None,
        }
    }
}

impl Explanation {
    /// The engine refused the action: its code and words are the verdict.
    fn refused_by(&mut self, err: &impl Explain) {
        self.verdict = Verdict {
            legal: false,
            code: Some(err.code()),
            words: Words::explain(err),
        };
    }

    /// The nearby alternatives the engine was asked about: those it refused, how many it
    /// accepted and a few of them.
    fn with(mut self, alt: Alternatives) -> Explanation {
        self.refused = alt.refused;
        self.also_legal = alt.legal;
        self.also_legal_examples = alt.examples;
        self
    }
}

/// Collects refusals (one per code) and acceptances of alternatives.
#[derive(Default)]
struct Alternatives {
    refused: Vec<Alternative>,
    legal: usize,
    examples: Vec<Words>,
    seen: std::collections::HashSet<String>,
}

impl Alternatives {
    /// Asks the engine about one alternative (on a copy of the state).
    fn ask<G: Engine + Clone>(
        &mut self,
        before: &G,
        seat: usize,
        actor: Actor,
        action: G::Action,
        told: Words,
    ) {
        let key = format!(
            "{seat} {} {}",
            actor.name(),
            serde_json::to_string(&action).unwrap_or_default()
        );
        if !self.seen.insert(key) {
            return;
        }
        let mut trial = before.clone();
        match trial.apply(seat, actor, action.clone()) {
            Ok(_) => {
                self.legal += 1;
                if self.examples.len() < 3 {
                    self.examples.push(told);
                }
            }
            Err(e) => {
                if !self.refused.iter().any(|r| r.code == e.code()) {
                    self.refused.push(Alternative {
                        seat,
                        actor: actor.name(),
                        action: serde_json::to_value(&action).unwrap_or(Value::Null),
                        code: e.code(),
                        words: Words::explain(&e),
                        told,
                    });
                }
            }
        }
    }

    fn refused(&self, code: &str) -> Option<&Alternative> {
        self.refused.iter().find(|r| r.code == code)
    }

    /// `bound` when the engine refused an alternative for one of `codes` (the action had to
    /// obey the rule), else `kept`.
    fn bound_or_kept(&self, codes: &[&str]) -> &'static str {
        if codes.iter().any(|c| self.refused(c).is_some()) {
            "bound"
        } else {
            "kept"
        }
    }
}

/// The cards of `play` with each card in turn replaced by each other face the hand holds
/// spare, one card dropped, or one spare card added: the nearby alternatives of a card play.
fn card_variants(hand: &Hand, play: &[Card]) -> Vec<Vec<Card>> {
    let mut spare = hand.clone();
    for &c in play {
        spare.remove(c);
    }
    let spare_faces: Vec<Card> = spare.faces().map(|(f, _)| f).collect();
    let mut distinct: Vec<Card> = play.to_vec();
    distinct.sort();
    distinct.dedup();
    let mut out = Vec::new();
    for &c in &distinct {
        let i = play.iter().position(|&x| x == c).expect("from the play");
        for &f in &spare_faces {
            let mut v = play.to_vec();
            v[i] = f;
            out.push(v);
        }
        if play.len() > 1 {
            let mut v = play.to_vec();
            v.remove(i);
            out.push(v);
        }
    }
    for &f in &spare_faces {
        let mut v = play.to_vec();
        v.push(f);
        out.push(v);
    }
    for v in &mut out {
        v.sort();
    }
    out.sort();
    out.dedup();
    out
}

fn accepted_words(seq: u64, hypothetical: bool) -> Words {
    if hypothetical {
        both(|l| match l {
            Lang::Zh => format!("合法：复盘到第 {} 条之后，引擎接受这个动作", seq - 1),
            Lang::En => format!(
                "legal: after replaying the log to entry {}, the engine accepts this action",
                seq - 1
            ),
        })
    } else {
        both(|l| {
            match l {
            Lang::Zh => format!(
                "合法：复盘到第 {} 条之后，引擎再次接受了这个记录的动作",
                seq - 1
            ),
            Lang::En => format!(
                "legal: after replaying the log to entry {}, the engine accepts the logged action again",
                seq - 1
            ),
        }
        })
    }
}

/// The notes every action kind shares: who may take it.
fn actor_note(actor: Actor, taken_by: Actor) -> Option<RuleNote> {
    match taken_by {
        Actor::Referee => Some(RuleNote {
            rule: "referee_only",
            state: if actor == Actor::Referee {
                "bound"
            } else {
                "info"
            },
            words: Words::new(
                "裁判的判罚（罚分、结束、确认成绩）只能由裁判作出",
                "a ruling (a penalty, ending the board or the game, finalising) is taken from the referee only",
            ),
        }),
        Actor::Clock => Some(RuleNote {
            rule: "clock_only",
            state: if actor == Actor::Clock { "bound" } else { "info" },
            words: Words::new(
                "超时只能由计时器判定",
                "a timeout is the clock's alone",
            ),
        }),
        _ => None,
    }
}

/// 80分.
mod shengji {
    use rules::cards::{Card, Hand};
    use rules::shengji::{
        check_throw, legal_follows, parse_lead_for, Action, Board, FailedThrow, Lane, Lead, Order,
        Phase, Seat, ThrowBlockers, ThrowVerdict, Unit, UnitChoice, UnitKind, FOLLOW_CAP,
    };
    use rules::{Actor, Engine};

    use super::{
        actor_note, both, card_variants, Alternatives, ExplainGame, Explanation, RuleNote,
        RulingEffect, Run,
    };
    use crate::referee::lang::{Lang, Words};
    use crate::referee::words::{cards, shengji as sw};

    fn lane_words(l: Lane) -> (&'static str, &'static str) {
        (l.zh(), l.en())
    }

    /// The hand's cards of one effective suit, in display order.
    fn in_lane(order: &Order, hand: &Hand, lane: Lane) -> Vec<Card> {
        let mut v: Vec<Card> = hand.iter().filter(|&c| order.lane(c) == lane).collect();
        order.sort_for_display(&mut v);
        v
    }

    /// The faces the hand holds twice in one effective suit.
    fn pairs_in(order: &Order, hand: &Hand, lane: Lane) -> Vec<Card> {
        let mut v: Vec<Card> = hand
            .faces()
            .filter(|&(f, n)| n >= 2 && order.lane(f) == lane)
            .flat_map(|(f, _)| [f, f])
            .collect();
        order.sort_for_display(&mut v);
        v
    }

    /// The cards of `hand` that beat `unit` as a blocker would: a higher single, a higher pair,
    /// a higher tractor of as many pairs (the first found from the top).
    fn blocking_cards(order: &Order, hand: &Hand, unit: &Unit, lane: Lane) -> Vec<Card> {
        let faces = order.lane_faces(lane);
        let higher = |f: &&Card| order.slot(**f) > unit.top();
        match unit.kind() {
            UnitKind::Single => faces
                .iter()
                .rev()
                .filter(higher)
                .filter(|f| hand.count(**f) > 0)
                .copied()
                .collect(),
            UnitKind::Pair => faces
                .iter()
                .rev()
                .filter(higher)
                .filter(|f| hand.count(**f) >= 2)
                .flat_map(|&f| [f, f])
                .collect(),
            UnitKind::Tractor => {
                let k = unit.pairs() as usize;
                let pair_faces: Vec<Card> = faces
                    .iter()
                    .copied()
                    .filter(|f| hand.count(*f) >= 2)
                    .collect();
                fn chain(
                    order: &Order,
                    pair_faces: &[Card],
                    path: &mut Vec<Card>,
                    k: usize,
                ) -> bool {
                    if path.len() == k {
                        return true;
                    }
                    let top = order.slot(*path.last().expect("a start"));
                    for &f in pair_faces.iter().filter(|&&f| order.slot(f) == top + 1) {
                        path.push(f);
                        if chain(order, pair_faces, path, k) {
                            return true;
                        }
                        path.pop();
                    }
                    false
                }
                for &start in pair_faces.iter().rev() {
                    let mut path = vec![start];
                    if chain(order, &pair_faces, &mut path, k)
                        && order.slot(*path.last().expect("k ≥ 2")) > unit.top()
                    {
                        return path.iter().flat_map(|&f| [f, f]).collect();
                    }
                }
                Vec::new()
            }
        }
    }

    fn unit_words(u: &Unit) -> Words {
        both(|l| format!("{} {}", sw::unit_kind(u.kind(), l), cards(u.cards())))
    }

    impl ExplainGame for Board {
        fn taken_by(action: &Action) -> Actor {
            action.taken_by()
        }

        fn explain(
            mut e: Explanation,
            before: &Board,
            seat: usize,
            actor: Actor,
            action: &Action,
        ) -> Explanation {
            let s = Seat::from_index(seat);
            let mut trial = before.clone();
            let result = Engine::apply(&mut trial, seat, actor, action.clone());
            context(before, &mut e);
            match &result {
                Ok(events) => {
                    e.events = events.iter().map(|ev| both(|l| sw::event(ev, l))).collect();
                }
                Err(err) => {
                    e.refused_by(err);
                    one_legal_play(before, &mut e);
                    return e;
                }
            }
            if let Some(n) = actor_note(actor, action.taken_by()) {
                e.rules.push(n);
            }
            let mut alt = Alternatives::default();
            another_actor_or_seat(before, s, actor, action, &mut alt);
            match action {
                Action::Bury { cards: c } => bury(before, s, actor, c, &mut alt, &mut e),
                Action::Play { cards: c } if before.lead().is_none() => {
                    lead(before, s, actor, c, &mut alt, &mut e)
                }
                Action::Play { cards: c } => follow(before, s, actor, c, &mut alt, &mut e),
                Action::Choose { unit } => choose(before, s, actor, *unit, &mut alt, &mut e),
                Action::Timeout => timeout(before, s, &result, &mut e),
                Action::Penalty { points } => {
                    penalty(before, s, actor, *points, &mut alt, &mut e);
                    e.ruling = ruling_effect(before, s, action, false);
                }
                Action::EndBoard => {
                    e.rules.push(ruling_end(before, s));
                    e.ruling = ruling_effect(before, s, action, true);
                }
                Action::Finalize => e.rules.push(RuleNote {
                    rule: "finalize",
                    state: "info",
                    words: Words::new(
                        "本副已打完，裁判确认成绩：此后不再接受任何动作",
                        "play was over; the referee finalises the result: nothing more is accepted",
                    ),
                }),
            }
            e.with(alt)
        }

        fn all_seeing(
            _run: &Run<Board>,
            _k: usize,
            before: &Board,
            seat: usize,
            action: &Action,
        ) -> Option<crate::referee::all_seeing::AllSeeing> {
            crate::referee::all_seeing::shengji(before, seat, action)
        }
    }

    /// The engine's question about `a` by `s` (told `东 出 SA SK`), on a copy of `b`.
    fn ask(alt: &mut Alternatives, b: &Board, s: Seat, actor: Actor, a: Action) {
        let told = both(|l| format!("{} {}", sw::seat(s, l), sw::action(&a, l)));
        alt.ask(b, s.index(), actor, a, told);
    }

    /// After a refusal: whose turn it is, and one legal play the engine offers.
    fn one_legal_play(b: &Board, e: &mut Explanation) {
        if let (Some(to_act), Some(hint)) = (b.to_act(), b.clock_play()) {
            e.context.push(both(|l| match l {
                Lang::Zh => format!(
                    "此时轮到 {}；引擎给出的一种合法出法：{}",
                    sw::seat(to_act, l),
                    cards(&hint)
                ),
                Lang::En => format!(
                    "{} is to act; one legal play the engine offers: {}",
                    sw::seat(to_act, l),
                    cards(&hint)
                ),
            }));
        }
    }

    /// The same action from another actor (a ruling or a timeout from the player itself), or
    /// a move from the next seat (out of turn).
    fn another_actor_or_seat(
        b: &Board,
        s: Seat,
        actor: Actor,
        action: &Action,
        alt: &mut Alternatives,
    ) {
        match action.taken_by() {
            Actor::Referee | Actor::Clock => alt.ask(
                b,
                s.index(),
                Actor::Player,
                action.clone(),
                both(|l| match l {
                    Lang::Zh => format!("{} 自己{}", sw::seat(s, l), sw::action(action, l)),
                    Lang::En => format!("{} itself: {}", sw::seat(s, l), sw::action(action, l)),
                }),
            ),
            _ => ask(alt, b, s.next(), actor, action.clone()),
        }
    }

    fn context(b: &Board, e: &mut Explanation) {
        let phase = b.phase();
        let to_act = b.to_act();
        e.context.push(both(|l| {
            let who = to_act
                .map(|s| sw::seat(s, l))
                .unwrap_or(l.pick("无人", "nobody"));
            match l {
                Lang::Zh => format!(
                    "第 {} 副 · 庄家 {} · 打 {} · 主 {} · 阶段：{} · 第 {} 轮 · 轮到 {who} · 闲家 {} 分",
                    b.number(),
                    sw::seat(b.declarer(), l),
                    b.order().level(),
                    sw::trump(b.order().trump_suit(), l),
                    phase.zh(),
                    b.trick_number(),
                    b.defenders_points()
                ),
                Lang::En => format!(
                    "board {} · declarer {} · level {} · trump {} · {} · trick {} · {who} to act · defenders {}",
                    b.number(),
                    sw::seat(b.declarer(), l),
                    b.order().level(),
                    sw::trump(b.order().trump_suit(), l),
                    phase.en(),
                    b.trick_number(),
                    b.defenders_points()
                ),
            }
        }));
        let plays: Vec<(Seat, Vec<Card>)> = b.plays().map(|(s, c)| (s, c.to_vec())).collect();
        if let (Some(lead), Some((leader, _))) = (b.lead(), plays.first()) {
            e.context.push(both(|l| match l {
                Lang::Zh => format!(
                    "首家 {} 领 {}（{}，{}）",
                    sw::seat(*leader, l),
                    cards(&lead.cards()),
                    lead.lane().zh(),
                    sw::lead_shape(lead, l)
                ),
                Lang::En => format!(
                    "{} led {} ({}, {})",
                    sw::seat(*leader, l),
                    cards(&lead.cards()),
                    lead.lane().en(),
                    sw::lead_shape(lead, l)
                ),
            }));
            if plays.len() > 1 {
                e.context.push(both(|l| {
                    let rest: Vec<String> = plays[1..]
                        .iter()
                        .map(|(s, c)| format!("{} {}", sw::seat(*s, l), cards(c)))
                        .collect();
                    format!(
                        "{}{}",
                        l.pick("已跟：", "followed so far: "),
                        rest.join(l.pick("；", "; "))
                    )
                }));
            }
        }
    }

    fn bury(
        b: &Board,
        s: Seat,
        actor: Actor,
        c: &[Card],
        alt: &mut Alternatives,
        e: &mut Explanation,
    ) {
        e.rules.push(RuleNote {
            rule: "only_declarer_buries",
            state: "bound",
            words: both(|l| match l {
                Lang::Zh => format!("只有庄家扣底：{} 是庄家", sw::seat(s, l)),
                Lang::En => format!(
                    "only the declarer buries the kitty: {} is the declarer",
                    sw::seat(s, l)
                ),
            }),
        });
        e.rules.push(RuleNote {
            rule: "bury_exactly_eight",
            state: "bound",
            words: both(|l| match l {
                Lang::Zh => format!(
                    "扣底必须正好 8 张，且是手中的牌（庄家连底牌 {} 张）：扣 {}",
                    b.hand(s).len(),
                    cards(c)
                ),
                Lang::En => format!(
                    "the kitty is exactly 8 cards from the hand ({} with the kitty): {}",
                    b.hand(s).len(),
                    cards(c)
                ),
            }),
        });
        let a = Action::Bury { cards: c.to_vec() };
        ask(alt, b, s.partner(), actor, a);
        for v in card_variants(b.hand(s), c).into_iter().take(40) {
            ask(alt, b, s, actor, Action::Bury { cards: v });
        }
    }

    fn lead(
        b: &Board,
        s: Seat,
        actor: Actor,
        c: &[Card],
        alt: &mut Alternatives,
        e: &mut Explanation,
    ) {
        let Ok(lead) = parse_lead_for(b.order(), b.rules(), c) else {
            return;
        };
        let (lzh, len) = lane_words(lead.lane());
        e.rules.push(RuleNote {
            rule: "lead_mixed_suits",
            state: "bound",
            words: both(|l| match l {
                Lang::Zh => format!("首家出牌必须是同一门：全是{lzh}"),
                Lang::En => format!("a lead is of one suit: all {len}"),
            }),
        });
        e.context.push(both(|l| match l {
            Lang::Zh => format!(
                "{} 领出 {}（{}）",
                sw::seat(s, l),
                cards(c),
                sw::lead_shape(&lead, l)
            ),
            Lang::En => format!(
                "{} leads {} ({})",
                sw::seat(s, l),
                cards(c),
                sw::lead_shape(&lead, l)
            ),
        }));
        if !lead.is_throw() {
            e.rules.push(RuleNote {
                rule: "lead",
                state: "kept",
                words: both(|l| match l {
                    Lang::Zh => format!(
                        "只有一个牌型（{}），不是甩牌：单张、对子、拖拉机领出总是成立",
                        sw::unit_kind(lead.units()[0].kind(), l)
                    ),
                    Lang::En => format!(
                        "one unit ({}), not a throw: a single, pair or tractor lead always stands",
                        sw::unit_kind(lead.units()[0].kind(), l)
                    ),
                }),
            });
        } else {
            throw(b, s, &lead, e);
        }
        for v in card_variants(b.hand(s), c) {
            ask(alt, b, s, actor, Action::Play { cards: v });
        }
    }

    /// 甩牌: the throw stands, or fails, against the hands that count as blockers.
    fn throw(b: &Board, s: Seat, lead: &Lead, e: &mut Explanation) {
        let others = [1, 2, 3].map(|k| {
            let x = (0..k).fold(s, |x, _| x.next());
            (x, b.hand(x))
        });
        let who = match b.rules().throw_blockers {
            ThrowBlockers::AllOthers => Words::new(
                "其余三家（包括同伴）的牌都算",
                "the other three hands count, the partner's included",
            ),
            ThrowBlockers::Opponents => {
                Words::new("只算两个对手的牌", "only the two opponents' hands count")
            }
        };
        match check_throw(b.order(), b.rules(), lead, s, others) {
            ThrowVerdict::Stands => throw_stands(b.order(), lead, &others, &who, e),
            ThrowVerdict::Fails(f) => throw_fails(b, lead.lane(), &f, &who, e),
        }
    }

    /// A throw that stands: no unit of it could be beaten, each told with what the others
    /// held of its suit.
    fn throw_stands(
        order: &Order,
        lead: &Lead,
        others: &[(Seat, &Hand); 3],
        who: &Words,
        e: &mut Explanation,
    ) {
        let lane = lead.lane();
        let (lzh, len) = lane_words(lane);
        let units: Vec<Words> = lead.units().iter().map(unit_words).collect();
        e.rules.push(RuleNote {
            rule: "throw",
            state: "kept",
            words: both(|l| match l {
                Lang::Zh => format!(
                    "甩牌成立：{}，没有人能管其中任何一个牌型（{}）",
                    units
                        .iter()
                        .map(|u| u.zh.clone())
                        .collect::<Vec<_>>()
                        .join("、"),
                    who.zh
                ),
                Lang::En => format!(
                    "the throw stands: {}; nobody could beat any of its units ({})",
                    units
                        .iter()
                        .map(|u| u.en.clone())
                        .collect::<Vec<_>>()
                        .join(", "),
                    who.en
                ),
            }),
        });
        for u in lead.units() {
            let best: Vec<String> = others
                .iter()
                .map(|(x, h)| {
                    let lane_cards = in_lane(order, h, lane);
                    format!("{}:{}", x.letter(), cards(&lane_cards))
                })
                .collect();
            let uw = unit_words(u);
            e.rules.push(RuleNote {
                rule: "throw",
                state: "info",
                words: both(|l| match l {
                    Lang::Zh => format!(
                        "{}：无人有更大的{}（各家{}：{}）",
                        uw.zh,
                        sw::unit_kind(u.kind(), l),
                        lzh,
                        best.join("  ")
                    ),
                    Lang::En => format!(
                        "{}: nobody holds a higher {} ({} held: {})",
                        uw.en,
                        sw::unit_kind(u.kind(), l),
                        len,
                        best.join("  ")
                    ),
                }),
            });
        }
    }

    /// 甩错牌: the penalty and what follows, then each blocked unit with the cards that
    /// blocked it.
    fn throw_fails(b: &Board, lane: Lane, f: &FailedThrow, who: &Words, e: &mut Explanation) {
        e.rules.push(RuleNote {
            rule: "throw",
            state: "bound",
            words: both(|l| match l {
                Lang::Zh => format!(
                    "甩错牌：按所甩张数每张扣 {} 分（最多 {}）：罚 {} 分；然后出最小的被挡牌型（挡单出单，挡对出对；单、对都被挡则由对方指定）。{}",
                    b.rules().throw_penalty_per_card,
                    b.rules().throw_penalty_cap,
                    f.penalty,
                    who.zh
                ),
                Lang::En => format!(
                    "a failed throw: {} points a card (at most {}): {} points; then the smallest blocked unit is played (the opponents choose when singles and pairs are blocked). {}",
                    b.rules().throw_penalty_per_card,
                    b.rules().throw_penalty_cap,
                    f.penalty,
                    who.en
                ),
            }),
        });
        for blocked in &f.blocked {
            let uw = unit_words(&blocked.unit);
            let by: Vec<(Seat, Vec<Card>)> = blocked
                .by
                .iter()
                .map(|x| {
                    (
                        *x,
                        blocking_cards(b.order(), b.hand(*x), &blocked.unit, lane),
                    )
                })
                .collect();
            e.rules.push(RuleNote {
                rule: "throw",
                state: "info",
                words: both(|l| {
                    let who: Vec<String> = by
                        .iter()
                        .map(|(x, c)| format!("{} {}", sw::seat(*x, l), cards(c)))
                        .collect();
                    match l {
                        Lang::Zh => format!("{} 被挡：{}", uw.zh, who.join("；")),
                        Lang::En => format!("{} is blocked by {}", uw.en, who.join("; ")),
                    }
                }),
            });
        }
    }

    fn follow(
        b: &Board,
        s: Seat,
        actor: Actor,
        c: &[Card],
        alt: &mut Alternatives,
        e: &mut Explanation,
    ) {
        let order = b.order();
        let Some(lead) = b.lead() else { return };
        let hand = b.hand(s);
        let lane = lead.lane();
        let (lzh, len) = lane_words(lane);
        let n = lead.len();
        let held = in_lane(order, hand, lane);
        let pairs = pairs_in(order, hand, lane);
        e.context.push(both(|l| match l {
            Lang::Zh => format!(
                "{} 手中{} {} 张：{}；{}对子：{}",
                sw::seat(s, l),
                lzh,
                held.len(),
                cards(&held),
                lzh,
                cards(&pairs)
            ),
            Lang::En => format!(
                "{} holds {} {}: {}; pairs of {}: {}",
                sw::seat(s, l),
                held.len(),
                len,
                cards(&held),
                len,
                cards(&pairs)
            ),
        }));
        for v in card_variants(hand, c) {
            ask(alt, b, s, actor, Action::Play { cards: v });
        }
        if held.is_empty() {
            e.rules.push(void(order, s, lane, c));
        } else if held.len() < n {
            e.rules.push(short_of_suit(lane, held.len(), n, alt));
        } else {
            follow_suit(s, lead, held.len(), &pairs, alt, e);
        }
        let legal = legal_follows(order, lead, hand, FOLLOW_CAP).len();
        e.context.push(both(|l| match l {
            Lang::Zh => format!(
                "按引擎，这一手共有 {legal}{} 种合法跟法",
                if legal >= FOLLOW_CAP { "+" } else { "" }
            ),
            Lang::En => format!(
                "the engine counts {legal}{} legal follows here",
                if legal >= FOLLOW_CAP { "+" } else { "" }
            ),
        }));
    }

    /// 缺门: a follower void in the suit led plays anything: a discard, or trumps.
    fn void(order: &Order, s: Seat, lane: Lane, c: &[Card]) -> RuleNote {
        let (lzh, len) = lane_words(lane);
        let trumps_in =
            lane != Lane::Trump && !c.is_empty() && c.iter().all(|&x| order.is_trump(x));
        RuleNote {
            rule: "void",
            state: "void",
            words: both(|l| match (l, trumps_in) {
                (Lang::Zh, true) => format!(
                    "{} 没有{lzh}（缺门）：可以出任何牌；这里用主牌将吃",
                    sw::seat(s, l)
                ),
                (Lang::Zh, false) => {
                    format!("{} 没有{lzh}（缺门）：可以出任何牌（垫牌）", sw::seat(s, l))
                }
                (Lang::En, true) => format!(
                    "{} is void in {len}: any cards may be played; here trumps (将吃)",
                    sw::seat(s, l)
                ),
                (Lang::En, false) => format!(
                    "{} is void in {len}: any cards may be played (a discard)",
                    sw::seat(s, l)
                ),
            }),
        }
    }

    /// Fewer cards of the suit than were led: all of them, and any others.
    fn short_of_suit(lane: Lane, held: usize, n: usize, alt: &Alternatives) -> RuleNote {
        let (lzh, len) = lane_words(lane);
        RuleNote {
            rule: "must_play_all_of_suit",
            state: alt.bound_or_kept(&["must_play_all_of_suit"]),
            words: both(|l| match l {
                Lang::Zh => format!(
                    "{lzh}不够 {n} 张（只有 {held} 张）：全部跟出，其余 {} 张任选",
                    n - held
                ),
                Lang::En => format!(
                    "fewer {len} than were led ({held} of {n}): all of them, and any {} more",
                    n - held
                ),
            }),
        }
    }

    /// Enough of the suit: only the suit, and its pairs (tractors) for the lead's.
    fn follow_suit(
        s: Seat,
        lead: &Lead,
        held: usize,
        pairs: &[Card],
        alt: &Alternatives,
        e: &mut Explanation,
    ) {
        let (lzh, len) = lane_words(lead.lane());
        let n = lead.len();
        e.rules.push(RuleNote {
            rule: "must_follow_suit",
            state: alt.bound_or_kept(&["must_follow_suit"]),
            words: both(|l| match l {
                Lang::Zh => format!("{lzh}够 {n} 张（有 {held} 张）：只能出{lzh}"),
                Lang::En => format!("enough {len} ({held} for {n} led): only {len}"),
            }),
        });
        if !lead.parts().is_empty() {
            follow_pairs(s, lead.lane(), pairs, alt, e);
        }
    }

    /// The lead holds pairs (tractors): the follower's pairs of the suit must follow them.
    /// The rules an alternative broke, or that no one-card change breaks them.
    fn follow_pairs(s: Seat, lane: Lane, pairs: &[Card], alt: &Alternatives, e: &mut Explanation) {
        let (lzh, len) = lane_words(lane);
        let tractor = alt.refused("must_follow_tractor").cloned();
        let pair = alt.refused("must_follow_pairs").cloned();
        match (&tractor, &pair) {
            (None, None) => e.rules.push(RuleNote {
                rule: "must_follow_pairs",
                state: if pairs.is_empty() { "void" } else { "kept" },
                words: both(|l| match (l, pairs.is_empty()) {
                    (Lang::Zh, true) => format!(
                        "首家有对子（拖拉机）：{} 没有{lzh}对子，可以跟单张",
                        sw::seat(s, l)
                    ),
                    (Lang::Zh, false) => format!(
                        "首家有对子（拖拉机）：{} 的{lzh}对子 {} 已按要求跟出，换掉任何一张都不违例",
                        sw::seat(s, l),
                        cards(pairs)
                    ),
                    (Lang::En, true) => format!(
                        "the lead holds pairs (tractors): {} holds no pair of {len}, so singles may follow",
                        sw::seat(s, l)
                    ),
                    (Lang::En, false) => format!(
                        "the lead holds pairs (tractors): {}'s pairs of {len} ({}) are followed as required; no one-card change breaks the rule",
                        sw::seat(s, l),
                        cards(pairs)
                    ),
                }),
            }),
            _ => {
                for r in [tractor, pair].into_iter().flatten() {
                    e.rules.push(RuleNote {
                        rule: r.code,
                        state: "bound",
                        words: r.words.clone(),
                    });
                }
            }
        }
    }

    /// 指定: a failed throw blocked singles and pairs, and the opponent chooses which is
    /// played; the other choice is the alternative.
    fn choose(
        b: &Board,
        s: Seat,
        actor: Actor,
        unit: UnitChoice,
        alt: &mut Alternatives,
        e: &mut Explanation,
    ) {
        if let Some((chooser, single, pair)) = b.pending_choice() {
            e.rules.push(RuleNote {
                rule: "choose",
                state: "bound",
                words: both(|l| match l {
                    Lang::Zh => format!(
                        "甩错牌，单、对都被挡：由对方（{}）指定出最小的被挡单张 {} 或最小的被挡对子（拖拉机）{}",
                        sw::seat(chooser, l),
                        cards(single.cards()),
                        cards(pair.cards())
                    ),
                    Lang::En => format!(
                        "a failed throw blocked singles and pairs: the opponent ({}) chooses the smallest blocked single {} or the smallest blocked pair (tractor) {}",
                        sw::seat(chooser, l),
                        cards(single.cards()),
                        cards(pair.cards())
                    ),
                }),
            });
        }
        let other = match unit {
            UnitChoice::Single => UnitChoice::Pair,
            UnitChoice::Pair => UnitChoice::Single,
        };
        ask(alt, b, s, actor, Action::Choose { unit: other });
    }

    /// 罚分: points to the other side, within the ruleset's bounds; a penalty of none is the
    /// alternative.
    fn penalty(
        b: &Board,
        s: Seat,
        actor: Actor,
        points: u32,
        alt: &mut Alternatives,
        e: &mut Explanation,
    ) {
        e.rules.push(RuleNote {
            rule: "penalty",
            state: "info",
            words: both(|l| match l {
                Lang::Zh => format!(
                    "罚分给对方：{} 是{}，罚 {points} 分（每次 1 到 {} 分）",
                    sw::seat(s, l),
                    sw::side(s, b.declarer(), l),
                    rules::shengji::MAX_RULING_POINTS
                ),
                Lang::En => format!(
                    "points to the other side: {} is on the {}, {points} points (1 to {} a ruling)",
                    sw::seat(s, l),
                    sw::side(s, b.declarer(), l),
                    rules::shengji::MAX_RULING_POINTS
                ),
            }),
        });
        ask(alt, b, s, actor, Action::Penalty { points: 0 });
    }

    /// The number the ruling leaves, from the engine's own preview (`ends`: an `end_board`).
    fn ruling_effect(b: &Board, s: Seat, ruling: &Action, ends: bool) -> Option<RulingEffect> {
        let after = b.ruling_effect(s, ruling).ok()?;
        Some(RulingEffect {
            before: b.defenders_points(),
            after,
            result: ends || b.is_over(),
        })
    }

    /// A ruling that ends the board: the offenders lose, and never come out better than they
    /// stood (`ruling_end`); with the number it leaves.
    fn ruling_end(b: &Board, s: Seat) -> RuleNote {
        let points = b.rules().ruling_end_points;
        let now = b.defenders_points();
        let after = b.ruling_effect(s, &Action::EndBoard).unwrap_or(now);
        RuleNote {
            rule: "ruling_end",
            state: "info",
            words: both(|l| {
                match l {
                Lang::Zh => format!(
                    "该副牌立即结束，判违规方（{}）负，非违规方得 {points} 分（至少，违规方不因判罚得益）：闲家得分 {now} → {after}",
                    sw::seat(s, l),
                ),
                Lang::En => format!(
                    "the board ends at once: the offenders ({}'s side) lose, the other side gets {points} (at least; a ruling never helps the offenders): the defenders' points {now} → {after}",
                    sw::seat(s, l),
                ),
            }
            }),
        }
    }

    fn timeout(
        b: &Board,
        s: Seat,
        result: &Result<Vec<rules::shengji::Event>, rules::shengji::RuleError>,
        e: &mut Explanation,
    ) {
        use rules::shengji::Event;
        let r = b.rules();
        let warned = result
            .as_ref()
            .map(|evs| evs.iter().any(|ev| matches!(ev, Event::Warning { .. })))
            .unwrap_or(false);
        let count = b.timeouts_in_scope(s) + 1;
        let limit = match b.phase() {
            _ if b.in_grace() => r.timeout_grace_seconds,
            Phase::Bury => r.bury_seconds,
            Phase::Choose => r.choice_seconds,
            _ => r.play_seconds,
        };
        e.rules.push(RuleNote {
            rule: "timeout",
            state: "bound",
            words: both(|l| match (l, warned) {
                (Lang::Zh, true) => format!(
                    "出牌超时（限时 {limit} 秒）：超时第一次警告，第二次扣 {} 分。这是 {} 的第 {count} 次超时：警告{}",
                    r.timeout_penalty,
                    sw::seat(s, l),
                    if b.in_grace() { "" } else { "，并给宽限时间" }
                ),
                (Lang::Zh, false) => format!(
                    "出牌超时（限时 {limit} 秒）：超时第一次警告，第二次扣 {} 分。{} 第 {count} 次超时{}：罚分，计时器代出最小的合法牌",
                    r.timeout_penalty,
                    sw::seat(s, l),
                    if b.in_grace() { "（警告后的宽限时间也用完）" } else { "" }
                ),
                (Lang::En, true) => format!(
                    "time ran out ({limit} s): the first timeout is a warning, later ones cost {} points. This is {}'s timeout number {count}: a warning",
                    r.timeout_penalty,
                    sw::seat(s, l)
                ),
                (Lang::En, false) => format!(
                    "time ran out ({limit} s): the first timeout is a warning, later ones cost {} points. {}'s timeout number {count}{}: the penalty, and the clock plays the lowest legal play",
                    r.timeout_penalty,
                    sw::seat(s, l),
                    if b.in_grace() { " (the grace after the warning ran out too)" } else { "" }
                ),
            }),
        });
        if let Some(p) = b.clock_play() {
            e.context.push(both(|l| match l {
                Lang::Zh => format!("计时器代出的牌：{}", cards(&p)),
                Lang::En => format!("what the clock plays: {}", cards(&p)),
            }));
        }
    }
}

/// 够级.
mod gouji {
    use rules::cards::Card;
    use rules::gouji::burn::sustain;
    use rules::gouji::set::Counts;
    use rules::gouji::{beats, Action, Event, Game, GoujiSet, Phase, Seat, Shape, Top};
    use rules::{Actor, Engine};

    use super::{
        actor_note, both, card_variants, Alternatives, ExplainGame, Explanation, RuleNote, Run,
    };
    use crate::referee::lang::{Lang, Words};
    use crate::referee::words::{cards, gouji as gw};

    impl ExplainGame for Game {
        fn taken_by(action: &Action) -> Actor {
            action.taken_by()
        }

        fn all_seeing(
            run: &Run<Game>,
            k: usize,
            _before: &Game,
            seat: usize,
            action: &Action,
        ) -> Option<crate::referee::all_seeing::AllSeeing> {
            crate::referee::all_seeing::gouji(run, k, seat, action)
        }

        fn explain(
            mut e: Explanation,
            before: &Game,
            seat: usize,
            actor: Actor,
            action: &Action,
        ) -> Explanation {
            let s = Seat::from_index(seat);
            let mut trial = before.clone();
            let result = Engine::apply(&mut trial, seat, actor, action.clone());
            context(before, s, &mut e);
            let events = match &result {
                Ok(events) => events.clone(),
                Err(err) => {
                    e.refused_by(err);
                    return e;
                }
            };
            e.events = events.iter().map(|ev| both(|l| gw::event(ev, l))).collect();
            if let Some(n) = actor_note(actor, action.taken_by()) {
                e.rules.push(n);
            }
            let mut alt = Alternatives::default();
            // Another actor: a ruling or a timeout from a player; a move out of turn.
            match action.taken_by() {
                Actor::Referee | Actor::Clock => {
                    ask(&mut alt, before, s, Actor::Player, action.clone())
                }
                _ => ask(&mut alt, before, s.next(), actor, action.clone()),
            }
            for a in [Action::Pass, Action::Yield, Action::Decline] {
                if a != *action && action.taken_by() == Actor::Player {
                    ask(&mut alt, before, s, actor, a);
                }
            }
            match action {
                Action::Play { cards: c } | Action::Burn { cards: c } => {
                    let burn = matches!(action, Action::Burn { .. });
                    other_sets(before, s, actor, c, burn, &mut alt);
                    set_rules(before, s, c, burn, &events, &alt, &mut e);
                }
                Action::Pass => pass_rules(before, s, &events, &mut e),
                Action::Yield => e.rules.push(yield_rule(before, s)),
                Action::Decline => e.rules.push(decline_rule(s)),
                Action::Timeout => e.rules.push(timeout_rule(before, s, &events)),
                Action::Ruling { .. } => e.rules.push(RuleNote {
                    rule: "ruling",
                    state: "info",
                    words: Words::new(
                        "犯规与判罚：警告、扣该队 2 分或 4 分、0:12 判负",
                        "offences and rulings: a warning, 2 or 4 points off the team, a 0:12 forfeit",
                    ),
                }),
                Action::AskCount => e.rules.push(RuleNote {
                    rule: "not_a_move",
                    state: "info",
                    words: Words::new(
                        "问牌（旧日志里作为记录保存）：不改变牌局",
                        "问牌 (kept as an entry by older logs): it changes nothing",
                    ),
                }),
            }
            e.with(alt)
        }
    }

    /// The engine's question about `a` by `who` (told `A1 出 S10 H10`), on a copy of `g`.
    fn ask(alt: &mut Alternatives, g: &Game, who: Seat, by: Actor, a: Action) {
        let told = both(|l| format!("{} {}", gw::seat(who), gw::action(&a, l)));
        alt.ask(g, who.index(), by, a, told);
    }

    /// The same cards as the other kind of set (a burn for a play, a play for a burn), and the
    /// nearby sets of the same kind.
    fn other_sets(g: &Game, s: Seat, actor: Actor, c: &[Card], burn: bool, alt: &mut Alternatives) {
        let other = if burn {
            Action::Play { cards: c.to_vec() }
        } else {
            Action::Burn { cards: c.to_vec() }
        };
        ask(alt, g, s, actor, other);
        for v in card_variants(g.hand(s), c) {
            let a = if burn {
                Action::Burn { cards: v }
            } else {
                Action::Play { cards: v }
            };
            ask(alt, g, s, actor, a);
        }
    }

    /// 让: only the top set's owner's opposite, once a set.
    fn yield_rule(g: &Game, s: Seat) -> RuleNote {
        RuleNote {
            rule: "only_opposite_may_yield",
            state: "bound",
            words: both(|l| {
                let owner = g.top().map(|t| gw::seat(t.owner)).unwrap_or("—");
                match l {
                    Lang::Zh => format!(
                        "让：只有桌面牌主（{owner}）的对头可以让，每套牌一次；{} 是 {owner} 的对头",
                        gw::seat(s)
                    ),
                    Lang::En => format!(
                        "让: only the opposite of the top set's owner ({owner}) may yield, once a set; {} is {owner}'s opposite",
                        gw::seat(s)
                    ),
                }
            }),
        }
    }

    /// 不烧: the burn offered and declined.
    fn decline_rule(s: Seat) -> RuleNote {
        RuleNote {
            rule: "no_burn_right",
            state: "info",
            words: both(|l| match l {
                Lang::Zh => format!("{} 被问是否烧牌，选择不烧（等于过这一套）", gw::seat(s)),
                Lang::En => format!(
                    "{} was offered the burn and declined (a pass of this set)",
                    gw::seat(s)
                ),
            }),
        }
    }

    /// 比赛限时: a warning first, then the clock passes.
    fn timeout_rule(g: &Game, s: Seat, events: &[Event]) -> RuleNote {
        let warned = events.iter().any(|ev| matches!(ev, Event::Warned { .. }));
        let r = g.ruleset();
        let (free, set, grace) = (r.free_minutes, r.move_seconds, r.grace_seconds);
        let seat = gw::seat(s);
        RuleNote {
            rule: "timeout",
            state: "bound",
            words: both(|l| {
                match (l, warned) {
                (Lang::Zh, true) => format!(
                    "比赛限时：开局满 {free} 分钟后每套牌限时 {set} 秒，超时裁判予以警告：{seat} 被警告，再给 {grace} 秒"
                ),
                (Lang::Zh, false) => format!(
                    "警告后超过 {grace} 秒仍不出牌者视为过牌：计时器替 {seat} 过牌（或不烧、或出最小的一套）"
                ),
                (Lang::En, true) => format!(
                    "after the first {free} minutes each set has {set} s; when they run out the seat is warned: {seat} is warned and has {grace} s more"
                ),
                (Lang::En, false) => format!(
                    "{grace} s after the warning a seat that has not played has passed: the clock passes for {seat} (or declines, or leads its smallest set)"
                ),
            }
            }),
        }
    }

    fn context(g: &Game, s: Seat, e: &mut Explanation) {
        e.context.push(both(|l| phase(g, l)));
        if let Some(top) = g.top() {
            e.context.push(top_set(g, top));
        }
        e.context.push(holding(g, s));
    }

    /// `第 3 局 · 轮到 B1 管牌、过或让`, and 四户乱缠 when it is.
    fn phase(g: &Game, l: Lang) -> String {
        let phase = match (g.phase(), l) {
            (Phase::Lead(x), Lang::Zh) => format!("轮到 {} 发牌", gw::seat(*x)),
            (Phase::Lead(x), Lang::En) => format!("{} to lead", gw::seat(*x)),
            (Phase::Respond(x), Lang::Zh) => format!("轮到 {} 管牌、过或让", gw::seat(*x)),
            (Phase::Respond(x), Lang::En) => format!("{} to beat, pass or yield", gw::seat(*x)),
            (Phase::Offer { seat, .. }, Lang::Zh) => format!("问 {} 是否烧牌", gw::seat(*seat)),
            (Phase::Offer { seat, .. }, Lang::En) => {
                format!("{} is offered the burn", gw::seat(*seat))
            }
            (Phase::Over, _) => l.pick("本局已结束", "the game is over").into(),
        };
        match l {
            Lang::Zh => format!(
                "第 {} 局 · {phase}{}",
                g.number(),
                if g.free_play() {
                    " · 四户乱缠"
                } else {
                    ""
                }
            ),
            Lang::En => format!(
                "game {} · {phase}{}",
                g.number(),
                if g.free_play() {
                    " · free play (四户乱缠)"
                } else {
                    ""
                }
            ),
        }
    }

    /// The set on top: whose, whether it binds as a 级牌, a burn not yet settled, and its
    /// owner's 对头.
    fn top_set(g: &Game, top: &Top) -> Words {
        let binding = top.gouji && !g.free_play();
        both(|l| {
            let gouji = if binding {
                l.pick(" 【级牌】", " [gouji]")
            } else {
                ""
            };
            let burn = if top.burned.is_some() {
                l.pick("（烧牌，未定）", " (a burn, not yet settled)")
            } else {
                ""
            };
            let (owner, opposite) = (gw::seat(top.owner), gw::seat(top.owner.opposite()));
            let on_top = cards(&top.cards);
            match l {
                Lang::Zh => format!("桌面：{owner} 的 {on_top}{gouji}{burn}；{owner} 的对头是 {opposite}"),
                Lang::En => format!(
                    "on top: {owner}'s {on_top}{gouji}{burn}; {owner}'s opposite (对头) is {opposite}"
                ),
            }
        })
    }

    /// The seat's hand, and what stands of it: 无头, a standing burn, 开点.
    fn holding(g: &Game, s: Seat) -> Words {
        let hand = g.hand(s).cards();
        both(|l| {
            let mut flags: Vec<&str> = Vec::new();
            if !g.has_head(s) {
                flags.push(l.pick("无头（对头已出完）", "headless (their opposite is out)"));
            }
            if g.is_burning(s) {
                flags.push(l.pick(
                    "烧牌成立，发牌须带王",
                    "a standing burn: leads with a joker",
                ));
            }
            if g.opened(s) {
                flags.push(l.pick("已开点", "opened"));
            }
            match l {
                Lang::Zh => format!(
                    "{} 手中 {} 张：{}{}",
                    gw::seat(s),
                    hand.len(),
                    gw::hand(&hand),
                    if flags.is_empty() {
                        String::new()
                    } else {
                        format!("（{}）", flags.join("，"))
                    }
                ),
                Lang::En => format!(
                    "{} holds {} cards: {}{}",
                    gw::seat(s),
                    hand.len(),
                    gw::hand(&hand),
                    if flags.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", flags.join("; "))
                    }
                ),
            }
        })
    }

    /// The rules a set played or burned with is bound by: one rank; its own 级牌 status; on a
    /// lead, a standing burn's joker; on a beat, higher than the top, and who may beat or burn
    /// a 级牌.
    fn set_rules(
        g: &Game,
        s: Seat,
        c: &[Card],
        burn: bool,
        events: &[Event],
        alt: &Alternatives,
        e: &mut Explanation,
    ) {
        let Ok(set) = GoujiSet::parse(c) else { return };
        let shape = set.shape;
        let last = set.len() == g.hand(s).len();
        e.rules.push(RuleNote {
            rule: "mixed_ranks",
            state: alt.bound_or_kept(&["mixed_ranks"]),
            words: Words::new(
                "一套牌只能有一种点数（可带 2 和王，2 算作本套的点数）",
                "a set has one rank (2s and jokers may be attached; 2s count as the set's rank)",
            ),
        });
        e.rules.push(gouji_status(g, s, &shape, last));
        let Some(top) = g.top().filter(|_| !matches!(g.phase(), Phase::Lead(_))) else {
            // A lead.
            if g.joker_required(s) {
                e.rules.push(joker_lead(&shape, alt));
            }
            return;
        };
        e.rules.push(beating(g, c, &shape, top, alt));
        if burn {
            burn_rules(g, s, &shape, top, events, alt, e);
        } else {
            e.rules.push(only_opposite(g, s, top, events));
        }
    }

    /// The set's own 级牌 status: whether it binds the others (only its owner's 对头 may beat
    /// it), meets the thresholds without binding, or is below them.
    fn gouji_status(g: &Game, s: Seat, shape: &Shape, last: bool) -> RuleNote {
        let binds = g.binds(s, shape, last);
        RuleNote {
            rule: "gouji",
            state: if binds { "bound" } else { "void" },
            words: both(|l| {
                match (l, shape.is_gouji(), binds) {
                (Lang::Zh, _, true) => format!(
                    "这一套够级（带王，或 10 五张、J 四张、Q 三张、K/A 两张、2 一张）：是级牌，只有 {} 的对头 {} 能管，其他人只能烧",
                    gw::seat(s),
                    gw::seat(s.opposite())
                ),
                (Lang::En, _, true) => format!(
                    "this set meets the 级牌 thresholds (a joker, or five 10s, four Js, three Qs, two Ks or As, one 2): a gouji set; only {}'s opposite {} may beat it, the others may only burn it",
                    gw::seat(s),
                    gw::seat(s.opposite())
                ),
                (Lang::Zh, true, false) => format!(
                    "这一套够级，但不约束别人：{}",
                    if g.free_play() {
                        "四户乱缠"
                    } else if !g.has_head(s) {
                        "无头（对头已出完）"
                    } else {
                        "最后一套（本规则下不算级牌）"
                    }
                ),
                (Lang::En, true, false) => format!(
                    "this set meets the thresholds but binds nobody: {}",
                    if g.free_play() {
                        "free play (四户乱缠)"
                    } else if !g.has_head(s) {
                        "headless (their opposite is out)"
                    } else {
                        "the last set (not a gouji set under this ruleset)"
                    }
                ),
                (Lang::Zh, false, _) => "这一套不够级：谁都可以管".into(),
                (Lang::En, false, _) => "this set is below the 级牌 thresholds: anyone may beat it".into(),
            }
            }),
        }
    }

    /// A lead under a standing burn holds a joker, unless it is the last set.
    fn joker_lead(shape: &Shape, alt: &Alternatives) -> RuleNote {
        RuleNote {
            rule: "burn_lead_needs_joker",
            state: alt.bound_or_kept(&["burn_lead_needs_joker"]),
            words: both(|l| match (l, shape.jokers() > 0) {
                (Lang::Zh, true) => "烧牌成立后发牌必须带王：这一套带王".to_string(),
                (Lang::Zh, false) => {
                    "烧牌成立后发牌必须带王，最后一套除外：这是最后一套".to_string()
                }
                (Lang::En, true) => {
                    "after a burn every set led holds a joker: this one does".to_string()
                }
                (Lang::En, false) => {
                    "after a burn every set led holds a joker, except the last: this is the last"
                        .to_string()
                }
            }),
        }
    }

    /// 管牌: as many cards, each higher; or 大花两打一, two big jokers for one.
    fn beating(g: &Game, c: &[Card], shape: &Shape, top: &Top, alt: &Alternatives) -> RuleNote {
        let two_for_one = shape.len() > top.shape.len();
        debug_assert!(beats(shape, &top.shape, g.ruleset().two_for_one).is_ok());
        RuleNote {
            rule: "not_higher",
            state: alt.bound_or_kept(&[
                "not_higher",
                "count_mismatch",
                "small_joker_two_for_one",
                "big_joker_needs_two",
            ]),
            words: both(|l| {
                match (l, two_for_one) {
                (Lang::Zh, false) => format!(
                    "管牌：张数相同（{} 张），每张都更大（2 算作本套点数，相同不算大）：{} 管 {}",
                    top.shape.len(),
                    cards(c),
                    cards(&top.cards)
                ),
                (Lang::Zh, true) => format!(
                    "大花两打一：每张大王用两张大王来打（{} 张对 {} 张）：{} 管 {}",
                    shape.len(),
                    top.shape.len(),
                    cards(c),
                    cards(&top.cards)
                ),
                (Lang::En, false) => format!(
                    "beating: as many cards ({}), each higher (2s count as the set's rank; equal does not beat): {} over {}",
                    top.shape.len(),
                    cards(c),
                    cards(&top.cards)
                ),
                (Lang::En, true) => format!(
                    "two-for-one (大花两打一): each big joker covered by two big jokers ({} cards against {}): {} over {}",
                    shape.len(),
                    top.shape.len(),
                    cards(c),
                    cards(&top.cards)
                ),
            }
            }),
        }
    }

    /// 烧牌: the right to burn a 级牌 its owner's 对头 passed (a counter-burn, 反烧, burns a
    /// burner's set), and 留牌, the cards a burner keeps.
    fn burn_rules(
        g: &Game,
        s: Seat,
        shape: &Shape,
        top: &Top,
        events: &[Event],
        alt: &Alternatives,
        e: &mut Explanation,
    ) {
        let after = Counts::of(g.hand(s)).minus(shape);
        let (jokers, ranks) = (after.jokers(), after.natural_ranks());
        let counter = events
            .iter()
            .any(|ev| matches!(ev, Event::Burned { counter: true, .. }));
        e.rules.push(RuleNote {
            rule: "no_burn_right",
            state: "bound",
            words: both(|l| match l {
                Lang::Zh => format!(
                    "级牌过牌可以烧牌：{} 的对头 {} 过了这手级牌，按顺序问到 {}{}",
                    gw::seat(top.owner),
                    gw::seat(top.owner.opposite()),
                    gw::seat(s),
                    if counter { "；这是反烧（烧烧牌者的牌）" } else { "" }
                ),
                Lang::En => format!(
                    "a gouji set passed by its owner's opposite may be burned: {}'s opposite {} passed it, and the offer came to {}{}",
                    gw::seat(top.owner),
                    gw::seat(top.owner.opposite()),
                    gw::seat(s),
                    if counter { "; a counter-burn (反烧)" } else { "" }
                ),
            }),
        });
        e.rules.push(RuleNote {
            rule: "burn_not_sustainable",
            state: match sustain(&after, g.ruleset().keep_cards) {
                Ok(()) => alt.bound_or_kept(&["burn_not_sustainable"]),
                Err(_) => "void",
            },
            words: both(|l| match l {
                Lang::Zh => format!(
                    "留牌：烧牌后剩 {jokers} 张王、{ranks} 种点数，王数至少要比点数种类少一（{jokers} ≥ {ranks} − 1）"
                ),
                Lang::En => format!(
                    "keeping cards (留牌): after the burn {jokers} joker(s) for {ranks} rank(s); jokers must be at least ranks minus one"
                ),
            }),
        });
    }

    /// 级牌只有对头能打: who may beat the set on top (its owner's 对头, or a 无头 seat), or that it
    /// binds nobody.
    fn only_opposite(g: &Game, s: Seat, top: &Top, events: &[Event]) -> RuleNote {
        let binding = top.gouji && !g.free_play();
        let unburn = events
            .iter()
            .any(|ev| matches!(ev, Event::Beat { unburn: true, .. }));
        RuleNote {
            rule: "gouji_only_opposite",
            state: if binding { "bound" } else { "void" },
            words: both(|l| {
                let owner = gw::seat(top.owner);
                match (l, binding, s == top.owner.opposite()) {
                    (Lang::Zh, true, true) => format!(
                        "级牌只有对头能打：{} 是 {owner} 的对头{}",
                        gw::seat(s),
                        if unburn { "；这一手解烧" } else { "" }
                    ),
                    (Lang::Zh, true, false) => format!(
                        "级牌只有对头能打，但 {} 无头（对头已出完），可以管；{owner} 因此开点",
                        gw::seat(s)
                    ),
                    (Lang::Zh, false, _) => if g.free_play() {
                        "四户乱缠：谁都可以管".to_string()
                    } else {
                        format!("桌面 {owner} 的牌不是约束别人的级牌：谁都可以管")
                    },
                    (Lang::En, true, true) => format!(
                        "only the opposite may beat a gouji set: {} is {owner}'s opposite{}",
                        gw::seat(s),
                        if unburn { "; this beat unburns (解烧)" } else { "" }
                    ),
                    (Lang::En, true, false) => format!(
                        "only the opposite may beat a gouji set, but {} is headless (their opposite is out) and may; {owner} opens by it",
                        gw::seat(s)
                    ),
                    (Lang::En, false, _) => if g.free_play() {
                        "free play (四户乱缠): anyone may beat".to_string()
                    } else {
                        format!("{owner}'s set on top binds nobody: anyone may beat it")
                    },
                }
            }),
        }
    }

    fn pass_rules(g: &Game, s: Seat, events: &[Event], e: &mut Explanation) {
        let conceded = events
            .iter()
            .any(|ev| matches!(ev, Event::Passed { conceded: true, .. }));
        let owner = g.top().map(|t| t.owner);
        e.rules.push(RuleNote {
            rule: "must_lead",
            state: "kept",
            words: Words::new(
                "不是发牌时才可以过（发牌的人不能过）",
                "a pass is possible only when not leading",
            ),
        });
        e.rules.push(RuleNote {
            rule: "pass",
            state: "info",
            words: both(|l| match (l, conceded) {
                (Lang::Zh, true) => format!(
                    "对头过级牌：{} 过了对头 {} 的级牌，{} 开点，并按顺序问其他人是否烧牌",
                    gw::seat(s),
                    owner.map(gw::seat).unwrap_or("—"),
                    owner.map(gw::seat).unwrap_or("—")
                ),
                (Lang::Zh, false) => "过：这一轮里不能再管（除非对头又出级牌）；对头总是最后表态".to_string(),
                (Lang::En, true) => format!(
                    "the opposite passes a gouji set: {} passed {}'s gouji set; {} opens (开点) and the burn is offered in order",
                    gw::seat(s),
                    owner.map(gw::seat).unwrap_or("—"),
                    owner.map(gw::seat).unwrap_or("—")
                ),
                (Lang::En, false) => "a pass is final for this trick (unless one's opposite plays a gouji set); the opposite always has the last word".to_string(),
            }),
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

fn state_mark(state: &str, lang: Lang) -> &'static str {
    match (state, lang) {
        ("bound", Lang::Zh) => "✓ 约束",
        ("kept", Lang::Zh) => "✓ 满足",
        ("void", Lang::Zh) => "· 不适用",
        (_, Lang::Zh) => "· 说明",
        ("bound", Lang::En) => "✓ bound",
        ("kept", Lang::En) => "✓ kept",
        ("void", Lang::En) => "· n/a",
        (_, Lang::En) => "· note",
    }
}

/// An explanation as text.
pub fn text(e: &Explanation, lang: Lang) -> String {
    let mut lines = Vec::new();
    let game = lang.of(&e.title);
    lines.push(match (lang, e.hypothetical) {
        (Lang::Zh, false) => format!("桌 {} · {game} · 第 {} 条记录", e.table, e.seq),
        (Lang::Zh, true) => format!("桌 {} · {game} · 假设在第 {} 条记录之前", e.table, e.seq),
        (Lang::En, false) => format!("Table {} · {game} · entry {}", e.table, e.seq),
        (Lang::En, true) => format!("Table {} · {game} · a try before entry {}", e.table, e.seq),
    });
    let actor = words::actor(Actor::parse(e.actor).unwrap_or(Actor::Player), lang);
    lines.push(match lang {
        Lang::Zh => format!("动作：{}（{actor}）", e.told.zh),
        Lang::En => format!("Action: {} ({actor})", e.told.en),
    });
    if let Some(l) = &e.logged {
        lines.push(format!(
            "{}{}",
            lang.pick("记录中这一条实际是：", "The log holds here: "),
            lang.of(l)
        ));
    }
    verdict(e, lang, &mut lines);
    if !e.context.is_empty() {
        lines.push(lang.pick("情形：", "The position:").into());
        for c in &e.context {
            lines.push(format!("  {}", lang.of(c)));
        }
    }
    if !e.rules.is_empty() {
        lines.push(lang.pick("适用的规则：", "The rules that applied:").into());
        for r in &e.rules {
            lines.push(format!(
                "  {} {}{}{}",
                state_mark(r.state, lang),
                r.rule,
                lang.pick("：", ": "),
                lang.of(&r.words)
            ));
        }
    }
    if !e.refused.is_empty() {
        lines.push(
            lang.pick(
                "引擎拒绝的其他做法（每种规则一例）：",
                "Alternatives the engine refuses (one per rule):",
            )
            .into(),
        );
        for a in &e.refused {
            lines.push(format!(
                "  ✗ {} → [{}] {}",
                lang.of(&a.told),
                a.code,
                lang.of(&a.words)
            ));
        }
    }
    if e.verdict.legal {
        lines.push(also_legal(e, lang));
    }
    if let Some(r) = &e.ruling {
        lines.push(match (lang, r.result) {
            (Lang::Zh, true) => format!("判罚后本副成绩：闲家 {} → {}", r.before, r.after),
            (Lang::Zh, false) => format!("判罚后闲家得分：{} → {}", r.before, r.after),
            (Lang::En, true) => format!(
                "The board's result after the ruling: the defenders {} → {}",
                r.before, r.after
            ),
            (Lang::En, false) => format!(
                "The defenders' points after the ruling: {} → {}",
                r.before, r.after
            ),
        });
    }
    if !e.events.is_empty() {
        lines.push(lang.pick("结果：", "What it did:").into());
        for ev in &e.events {
            lines.push(format!("  {}", lang.of(ev)));
        }
    }
    if let Some(a) = &e.all_seeing {
        super::all_seeing::text(a, lang, &mut lines);
    }
    lines.join("\n") + "\n"
}

/// The engine's verdict: its summary when it accepts the action; its code and its words in
/// both languages when it refuses it.
fn verdict(e: &Explanation, lang: Lang, lines: &mut Vec<String>) {
    if e.verdict.legal {
        lines.push(format!(
            "{}{}",
            lang.pick("引擎判定：", "The engine: "),
            lang.of(&e.verdict.words)
        ));
    } else {
        lines.push(format!(
            "{}[{}]",
            lang.pick("引擎判定：不合法 ", "The engine: refused "),
            e.verdict.code.unwrap_or("")
        ));
        lines.push(format!("  中文：{}", e.verdict.words.zh));
        lines.push(format!("  English: {}", e.verdict.words.en));
    }
}

/// `相近的做法中引擎也接受的：12 种，例如 …`.
fn also_legal(e: &Explanation, lang: Lang) -> String {
    let examples: Vec<&str> = e.also_legal_examples.iter().map(|w| lang.of(w)).collect();
    match lang {
        Lang::Zh => format!(
            "相近的做法中引擎也接受的：{} 种{}",
            e.also_legal,
            if examples.is_empty() {
                String::new()
            } else {
                format!("，例如 {}", examples.join("；"))
            }
        ),
        Lang::En => format!(
            "Nearby alternatives the engine also accepts: {}{}",
            e.also_legal,
            if examples.is_empty() {
                String::new()
            } else {
                format!(", e.g. {}", examples.join("; "))
            }
        ),
    }
}
