//! 一副牌 (a board): the state machine of one pre-dealt 80分 board in duplicate play (牌套:
//! 定庄、定级、定主). The declarer buries 8 of 33 cards, leads the first trick, the winner of
//! each trick leads the next until the hands are empty (25 tricks if every lead is a single,
//! fewer with pairs and tractors), 抠底, and the result: the defenders' points after penalties.
//!
//! [`Board::new`] takes any deal whose hands are equal after the bury, so tests can start from
//! an end position (two cards each) as well as from a dealt board.
//!
//! Every action is first checked against the state without touching it (a *plan*), and only a
//! valid plan is carried out; so a refused action leaves the board exactly as it was.
//!
//! When play ends the board is *over* ([`Board::is_over`]: no seat to act, a result), but not
//! yet *final*: a referee may still rule on it (任何一方对出过的牌有疑问，可以申请裁判查牌 — a
//! penalty found by checking the played cards), each ruling announcing the result again, until
//! the referee finalises it ([`Action::Finalize`], [`Board::is_final`]).

use super::error::{Phase, RuleError};
use super::event::{Action, BlockedUnit, Event, Offence, ThrowFailure, UnitChoice};
use super::follow::{check_follow, lowest_follow, missing};
use super::kitty::{default_bury, kitty_multiplier, KITTY_SIZE};
use super::order::Order;
use super::played::Played;
pub use super::played::{SeatPlay, TrickRecord};
use super::ruleset::{Ruleset, RulingEnd, TimeoutCount, TimeoutPlay, TimeoutScope};
use super::seat::Seat;
use super::throw::{check_throw, FailedThrow, Forced, ThrowVerdict};
use super::trick::{trick_points, trick_winner};
use super::unit::{is_one_face, one_face, parse_lead_for, Lead, Unit};
use crate::cards::{Card, Hand};
use crate::deal::ShengjiDeal;
use crate::posted::Posted;
use crate::Actor;

/// The most points one referee penalty can move (a typo guard: the text's largest is 120).
pub const MAX_RULING_POINTS: u32 = 1000;

/// One 80分 board being played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Shared with every view of the board (see [`Posted`]).
    rules: Posted<Ruleset>,
    order: Order,
    number: u32,
    declarer: Seat,
    /// N, E, S, W. The declarer's holds 33 cards until the bury.
    hands: [Hand; 4],
    /// The buried cards (empty before the bury), in face order.
    kitty: Vec<Card>,
    state: State,
    /// The current trick, from 1 (at most 25 with 25-card hands).
    trick: u8,
    leader: Seat,
    /// The current trick's lead, cut into units, once it is on the table.
    lead: Option<Lead>,
    /// Every trick, in order: the current one's plays so far, and the finished ones (the last
    /// may be looked at during play, all of them once the board is over, for review and for the
    /// referee). Packed (see [`Played`]).
    tricks: Played,
    /// Defenders' points so far: tricks, kitty and penalties.
    defenders: i32,
    defender_tricks: u8,
    /// Timeouts per seat on this board, for "first a warning".
    timeouts: [u8; 4],
    /// Each seat's timeouts before this board in the count's scope (`timeout_scope` session or
    /// event), passed in by the server; ignored when the scope is the board.
    prior_timeouts: [u8; 4],
    /// The seat to act was warned for a timeout on this very move: it keeps the move for the
    /// grace period, and the next timeout plays for it with the penalty.
    warned: bool,
    result: Option<i32>,
    /// A referee ruling ended the board.
    by_ruling: bool,
    /// The referee finalised the result: nothing more is accepted.
    finalized: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    Bury,
    Play,
    /// A throw failed with singles and pairs blocked; `chooser` picks one of the two units.
    Choose {
        chooser: Seat,
        single: Unit,
        pair: Unit,
    },
    Over,
}

/// A checked action, ready to be carried out with its cards. The cards travel beside the plan,
/// not in it: a play's list goes from the action to its event without a copy into a plan and
/// out again.
enum Plan {
    Bury,
    /// A lead of one face, a single or a pair: it stands. It is cut when played, straight into
    /// the board's lead, not cut here and copied there (some 70 bytes, read back while still
    /// being written).
    LeadOneFace,
    /// Any other lead (a tractor or a throw), cut to be judged, and the verdict. Boxed, as a
    /// failed throw's lists are: so a plan is a few words, and moving one on every play moves
    /// no unused 70 bytes.
    Lead {
        lead: Box<Lead>,
        verdict: ThrowVerdict,
    },
    Follow,
    Choose(UnitChoice),
}

impl Board {
    /// A board ready for the declarer's bury: the declarer holds its 25 cards and the kitty.
    pub fn new(deal: &ShengjiDeal, rules: impl Into<Posted<Ruleset>>) -> Board {
        let declarer = Seat::from_index(deal.declarer);
        // Each hand made in its place (through `array::from_fn` each was copied a few times).
        let hand = |i: usize| -> Hand { deal.hands[i].iter().copied().collect() };
        let mut hands = [hand(0), hand(1), hand(2), hand(3)];
        for &c in &deal.kitty {
            hands[declarer.index()].add(c);
        }
        Board {
            order: Order::new(deal.level, deal.trump),
            rules: rules.into(),
            number: deal.board,
            declarer,
            hands,
            kitty: Vec::new(),
            state: State::Bury,
            trick: 1,
            leader: declarer,
            lead: None,
            // Room for the whole board: every card but the kitty is played to a trick.
            tricks: Played::with_capacity(25, deal.hands.iter().map(|h| h.len()).sum()),
            defenders: 0,
            defender_tricks: 0,
            timeouts: [0; 4],
            prior_timeouts: [0; 4],
            warned: false,
            result: None,
            by_ruling: false,
            finalized: false,
        }
    }

    /// The same board, with each seat's (N, E, S, W) timeouts before it in the count's scope:
    /// under `timeout_scope` `session` or `event` the server passes the seats' earlier
    /// timeouts ([`Board::timeouts`] of each earlier board of the session or event), so a
    /// player warned on an earlier board is penalised at the first timeout here. Ignored under
    /// `timeout_scope = board`.
    pub fn with_prior_timeouts(mut self, prior: [u8; 4]) -> Board {
        self.prior_timeouts = prior;
        self
    }

    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The ruleset as the board's views carry it.
    pub fn posted_rules(&self) -> &Posted<Ruleset> {
        &self.rules
    }

    pub fn order(&self) -> &Order {
        &self.order
    }

    /// The board number.
    pub fn number(&self) -> u32 {
        self.number
    }

    pub fn declarer(&self) -> Seat {
        self.declarer
    }

    pub fn is_defender(&self, seat: Seat) -> bool {
        !seat.same_side(self.declarer)
    }

    pub fn hand(&self, seat: Seat) -> &Hand {
        &self.hands[seat.index()]
    }

    /// The buried kitty (empty before the bury).
    pub fn kitty(&self) -> &[Card] {
        &self.kitty
    }

    pub fn phase(&self) -> Phase {
        match self.state {
            State::Bury => Phase::Bury,
            State::Play => Phase::Play,
            State::Choose { .. } => Phase::Choose,
            State::Over => Phase::Over,
        }
    }

    /// The current trick number, from 1 (at most 25).
    pub fn trick_number(&self) -> u8 {
        self.trick
    }

    /// The current trick's leader.
    pub fn leader(&self) -> Seat {
        self.leader
    }

    /// The current trick's lead, once played.
    pub fn lead(&self) -> Option<&Lead> {
        self.lead.as_ref()
    }

    /// The current trick's plays so far.
    pub fn plays(&self) -> impl Iterator<Item = (Seat, &[Card])> {
        self.tricks.open()
    }

    /// The last finished trick.
    pub fn last_trick(&self) -> Option<TrickRecord> {
        self.tricks.last()
    }

    /// Every finished trick, in order.
    pub fn tricks(&self) -> Vec<TrickRecord> {
        self.tricks.all()
    }

    /// How many tricks are finished.
    pub fn trick_count(&self) -> usize {
        self.tricks.len()
    }

    /// Finished trick `i` (from 0).
    pub fn trick(&self, i: usize) -> Option<TrickRecord> {
        self.tricks.get(i)
    }

    /// Each finished trick's winner and cards (in play order).
    pub(crate) fn tricks_won(&self) -> impl Iterator<Item = (Seat, &[Card])> {
        self.tricks.winners()
    }

    /// Every card played to a finished trick.
    pub(crate) fn trick_cards(&self) -> &[Card] {
        self.tricks.cards()
    }

    /// The defenders' points so far, after penalties.
    pub fn defenders_points(&self) -> i32 {
        self.defenders
    }

    pub fn defender_tricks(&self) -> u8 {
        self.defender_tricks
    }

    /// The seat's timeouts on this board (what the server adds up for a session or an event).
    pub fn timeouts(&self, seat: Seat) -> u8 {
        self.timeouts[seat.index()]
    }

    /// The seat's timeouts in the count's scope: this board's, plus the earlier ones passed in
    /// with [`Board::with_prior_timeouts`] unless the scope is the board.
    pub fn timeouts_in_scope(&self, seat: Seat) -> u8 {
        let prior = match self.rules.timeout_scope {
            TimeoutScope::Board => 0,
            TimeoutScope::Session | TimeoutScope::Event => self.prior_timeouts[seat.index()],
        };
        prior.saturating_add(self.timeouts[seat.index()])
    }

    /// True while the seat to act, warned for a timeout on this move, plays in its grace period
    /// (`timeout_grace_seconds`).
    pub fn in_grace(&self) -> bool {
        self.warned
    }

    /// The result once play is over: the defenders' points after penalties. It may still change
    /// by a late ruling until [`Board::is_final`].
    pub fn result(&self) -> Option<i32> {
        self.result
    }

    /// True once play has ended (the last trick, or a ruling ended the board): no seat is to act.
    /// Stays true after; the result is final only with [`Board::is_final`].
    pub fn is_over(&self) -> bool {
        matches!(self.state, State::Over)
    }

    /// True once the referee has finalised the result ([`Action::Finalize`]): nothing more is
    /// accepted, not even a ruling.
    pub fn is_final(&self) -> bool {
        self.finalized
    }

    /// True if a referee ruling ended the board.
    pub fn ended_by_ruling(&self) -> bool {
        self.by_ruling
    }

    /// What a referee's action by (or against) `seat` would make the defenders' points, without
    /// taking it: for `EndBoard`, or a `Penalty` found after the last trick, that is the
    /// board's result. The engine's refusal if it would refuse it. The referee's desk shows this
    /// number before a ruling is sent (docs/referee.md, `ruling`). It is the very action on a
    /// copy of the board, so the number shown cannot differ from the one committed.
    pub fn ruling_effect(&self, seat: Seat, ruling: &Action) -> Result<i32, RuleError> {
        let mut trial = self.clone();
        trial.apply(seat, Actor::Referee, ruling.clone())?;
        Ok(trial.defenders)
    }

    /// The pending choice after a failed throw: (chooser, smallest blocked single, smallest
    /// blocked pair or tractor).
    pub fn pending_choice(&self) -> Option<(Seat, &Unit, &Unit)> {
        match &self.state {
            State::Choose {
                chooser,
                single,
                pair,
            } => Some((*chooser, single, pair)),
            _ => None,
        }
    }

    /// The seat to act, `None` once the board is over.
    pub fn to_act(&self) -> Option<Seat> {
        match &self.state {
            State::Bury => Some(self.declarer),
            State::Play => Some(self.seat_after(self.leader, self.tricks.open_plays())),
            State::Choose { chooser, .. } => Some(*chooser),
            State::Over => None,
        }
    }

    fn seat_after(&self, seat: Seat, steps: usize) -> Seat {
        // Play passes to the right: each step is `Seat::next`, three places on round the table.
        Seat::from_index(seat.index() + 3 * steps)
    }

    /// Applies one action by `by` for (or against) `seat`. Rulings only from the referee,
    /// timeouts only from the clock; a refusal changes nothing. Once play is over only a
    /// referee's rulings are taken (anything else: `board_over`), until the referee finalises
    /// the board (then everything: `board_final`).
    pub fn apply(
        &mut self,
        seat: Seat,
        by: Actor,
        action: Action,
    ) -> Result<Vec<Event>, RuleError> {
        match (&action, by) {
            (Action::Penalty { .. } | Action::EndBoard | Action::Finalize, a)
                if a != Actor::Referee =>
            {
                return Err(RuleError::RefereeOnly)
            }
            (Action::Timeout, a) if a != Actor::Clock => return Err(RuleError::ClockOnly),
            _ => {}
        }
        if self.finalized {
            return Err(RuleError::BoardFinal);
        }
        let over = matches!(self.state, State::Over);
        let ruling = matches!(
            action,
            Action::Penalty { .. } | Action::EndBoard | Action::Finalize
        );
        if over && !ruling {
            return Err(RuleError::BoardOver);
        }
        let mut events = Vec::with_capacity(2);
        match action {
            Action::Bury { cards } => {
                let plan = self.plan_bury(seat, &cards)?;
                self.execute(seat, plan, cards, false, &mut events);
            }
            Action::Play { cards } => {
                let plan = self.plan_play(seat, &cards)?;
                self.execute(seat, plan, cards, false, &mut events);
            }
            Action::Choose { unit } => {
                let plan = self.plan_choose(seat, unit)?;
                self.execute(seat, plan, Vec::new(), false, &mut events);
            }
            Action::Timeout => self.timeout(seat, &mut events)?,
            Action::Penalty { points } => {
                if !(1..=MAX_RULING_POINTS).contains(&points) {
                    return Err(RuleError::BadPenaltyPoints { points });
                }
                self.penalise(seat, Offence::Ruling, points, &mut events);
                if over {
                    // Found after the last trick: the result is announced again.
                    self.finish(false, &mut events);
                }
            }
            Action::EndBoard => self.end_by_ruling(seat, &mut events),
            Action::Finalize => {
                if !over {
                    return Err(RuleError::WrongPhase { now: self.phase() });
                }
                self.finalized = true;
                events.push(Event::Finalized {
                    result: self.defenders,
                });
            }
        }
        Ok(events)
    }

    fn check_turn(&self, seat: Seat) -> Result<(), RuleError> {
        match self.to_act() {
            Some(s) if s == seat => Ok(()),
            Some(to_act) => Err(RuleError::NotYourTurn { to_act }),
            None => Err(RuleError::BoardOver),
        }
    }

    fn plan_bury(&self, seat: Seat, cards: &[Card]) -> Result<Plan, RuleError> {
        if !matches!(self.state, State::Bury) {
            return Err(RuleError::WrongPhase { now: self.phase() });
        }
        if seat != self.declarer {
            return Err(RuleError::OnlyDeclarerBuries);
        }
        if cards.len() != KITTY_SIZE {
            return Err(RuleError::BuryExactlyEight { got: cards.len() });
        }
        let hand = self.hand(seat);
        if !hand.contains_all(cards) {
            return Err(missing(hand, cards));
        }
        Ok(Plan::Bury)
    }

    fn plan_play(&self, seat: Seat, cards: &[Card]) -> Result<Plan, RuleError> {
        if !matches!(self.state, State::Play) {
            return Err(RuleError::WrongPhase { now: self.phase() });
        }
        self.check_turn(seat)?;
        let hand = self.hand(seat);
        match &self.lead {
            None => {
                if cards.is_empty() {
                    return Err(RuleError::EmptyPlay);
                }
                if !hand.contains_all(cards) {
                    return Err(missing(hand, cards));
                }
                if is_one_face(cards) {
                    return Ok(Plan::LeadOneFace);
                }
                let lead = parse_lead_for(&self.order, &self.rules, cards)?;
                // Only a throw can fail: the other hands are looked at for nothing else.
                let verdict = if lead.is_throw() {
                    let others = [1, 2, 3].map(|k| {
                        let s = self.seat_after(seat, k);
                        (s, self.hand(s))
                    });
                    check_throw(&self.order, &self.rules, &lead, seat, others)
                } else {
                    ThrowVerdict::Stands
                };
                let lead = Box::new(lead);
                Ok(Plan::Lead { lead, verdict })
            }
            Some(lead) => {
                check_follow(&self.order, lead, hand, cards)?;
                Ok(Plan::Follow)
            }
        }
    }

    fn plan_choose(&self, seat: Seat, unit: UnitChoice) -> Result<Plan, RuleError> {
        let State::Choose { chooser, .. } = &self.state else {
            return Err(RuleError::WrongPhase { now: self.phase() });
        };
        if seat != *chooser {
            return Err(RuleError::NotYourTurn { to_act: *chooser });
        }
        Ok(Plan::Choose(unit))
    }

    /// The plan the clock carries out for the seat to act, and its cards.
    fn auto_plan(&self) -> (Plan, Vec<Card>) {
        match &self.state {
            State::Bury => (
                Plan::Bury,
                default_bury(&self.order, self.hand(self.declarer)),
            ),
            State::Play => {
                let seat = self.to_act().expect("someone is to play");
                let hand = self.hand(seat);
                match &self.lead {
                    None => {
                        let lowest = hand
                            .iter()
                            .min_by_key(|&c| self.order.low_key(c))
                            .expect("a player to lead holds cards");
                        (Plan::LeadOneFace, vec![lowest])
                    }
                    Some(lead) => (Plan::Follow, lowest_follow(&self.order, lead, hand)),
                }
            }
            State::Choose { .. } => (Plan::Choose(UnitChoice::Single), Vec::new()),
            State::Over => unreachable!("nothing to do on a finished board"),
        }
    }

    /// The cards the clock would play for the seat to act: the default bury, the lowest single
    /// to lead, the lowest legal follow. `None` in the opponents' choice and once play is over.
    pub fn clock_play(&self) -> Option<Vec<Card>> {
        match self.state {
            State::Bury | State::Play => match self.auto_plan() {
                (Plan::Choose(_), _) => None,
                (_, cards) => Some(cards),
            },
            State::Choose { .. } | State::Over => None,
        }
    }

    /// 超时第一次警告，第二次扣10分. Each clock expiry counts. Within the first
    /// `timeout_warnings` of the scope: a warning and nothing else (the seat keeps the move for
    /// the grace period; with `timeout_play = always` the clock plays at once, unpenalised).
    /// When the grace runs out, and at every later expiry: the penalty, and the clock plays.
    fn timeout(&mut self, seat: Seat, events: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        let (plan, cards) = self.auto_plan();
        let grace_ran_out = self.warned;
        self.timeouts[seat.index()] = self.timeouts[seat.index()].saturating_add(1);
        let count = match self.rules.timeout_count {
            TimeoutCount::PerSeat => self.timeouts_in_scope(seat),
            TimeoutCount::PerSide => self
                .timeouts_in_scope(seat)
                .saturating_add(self.timeouts_in_scope(seat.partner())),
        };
        if !grace_ran_out && count <= self.rules.timeout_warnings {
            events.push(Event::Warning {
                seat,
                reason: Offence::Timeout,
            });
            if self.rules.timeout_play == TimeoutPlay::AfterWarning {
                self.warned = true;
                return Ok(());
            }
        } else {
            self.penalise(seat, Offence::Timeout, self.rules.timeout_penalty, events);
        }
        self.execute(seat, plan, cards, true, events);
        Ok(())
    }

    /// Points to the other side of `seat`.
    fn penalise(&mut self, seat: Seat, reason: Offence, points: u32, events: &mut Vec<Event>) {
        let delta = if self.is_defender(seat) {
            -(points as i32)
        } else {
            points as i32
        };
        self.defenders += delta;
        events.push(Event::Penalty {
            seat,
            reason,
            points,
            delta,
            defenders: self.defenders,
        });
    }

    fn end_by_ruling(&mut self, seat: Seat, events: &mut Vec<Event>) {
        let points = self.rules.ruling_end_points;
        let target = ruling_end_result(
            self.rules.ruling_end,
            points,
            self.is_defender(seat),
            self.defenders,
        );
        let delta = target - self.defenders;
        self.defenders = target;
        events.push(Event::Penalty {
            seat,
            reason: Offence::BoardEnded,
            points,
            delta,
            defenders: self.defenders,
        });
        self.finish(true, events);
    }

    fn execute(
        &mut self,
        seat: Seat,
        plan: Plan,
        mut cards: Vec<Card>,
        auto: bool,
        events: &mut Vec<Event>,
    ) {
        // A move is made: whatever grace the seat had is over.
        self.warned = false;
        match plan {
            Plan::Bury => {
                let removed = self.hands[seat.index()].remove_all(&cards);
                debug_assert!(removed, "planned");
                cards.sort_unstable();
                events.push(Event::Buried {
                    seat,
                    cards: Some(cards.clone()),
                    count: cards.len(),
                    auto,
                });
                self.kitty = cards;
                self.state = State::Play;
                self.leader = self.declarer;
            }
            Plan::LeadOneFace => {
                let lead = one_face(&self.order, self.rules.throw_follow, &cards);
                self.lead = Some(lead.expect("planned: one face"));
                self.play(seat, cards, true, auto, events)
            }
            Plan::Lead { lead, verdict } => match verdict {
                ThrowVerdict::Stands => {
                    self.lead = Some(*lead);
                    self.play(seat, cards, true, auto, events)
                }
                ThrowVerdict::Fails(failed) => {
                    let FailedThrow {
                        penalty,
                        blocked,
                        forced: must,
                    } = *failed;
                    let (forced, choices, chooser) = match &must {
                        Forced::Unit(u) => (Some(u.cards().to_vec()), None, None),
                        Forced::Choice { single, pair } => (
                            None,
                            Some([single.cards().to_vec(), pair.cards().to_vec()]),
                            Some(seat.next()),
                        ),
                    };
                    events.push(Event::ThrowFailed(Box::new(ThrowFailure {
                        seat,
                        trick: self.trick,
                        attempt: cards,
                        blocked: blocked
                            .into_iter()
                            .map(|b| BlockedUnit {
                                cards: b.unit.cards().to_vec(),
                                by: b.by,
                            })
                            .collect(),
                        penalty,
                        forced,
                        choices,
                        chooser,
                    })));
                    self.penalise(seat, Offence::FailedThrow, penalty, events);
                    match must {
                        Forced::Unit(u) => self.play_unit(seat, &u, auto, events),
                        Forced::Choice { single, pair } => {
                            self.state = State::Choose {
                                chooser: seat.next(),
                                single,
                                pair,
                            };
                        }
                    }
                }
            },
            Plan::Follow => self.play(seat, cards, false, auto, events),
            Plan::Choose(choice) => {
                let State::Choose { single, pair, .. } =
                    std::mem::replace(&mut self.state, State::Play)
                else {
                    unreachable!("planned in the choose phase");
                };
                let unit = match choice {
                    UnitChoice::Single => single,
                    UnitChoice::Pair => pair,
                };
                events.push(Event::Chosen {
                    seat,
                    unit: choice,
                    cards: unit.cards().to_vec(),
                    auto,
                });
                let thrower = self.leader;
                self.play_unit(thrower, &unit, false, events);
            }
        }
    }

    /// The thrower plays the forced (or chosen) unit as the lead.
    fn play_unit(&mut self, seat: Seat, unit: &Unit, auto: bool, events: &mut Vec<Event>) {
        let cards = unit.cards().to_vec();
        let lead = parse_lead_for(&self.order, &self.rules, &cards).expect("a unit is a lead");
        self.lead = Some(lead);
        self.play(seat, cards, true, auto, events);
    }

    /// A play to the trick: a follow, or (`lead`) the lead already in `self.lead` (put there
    /// by the caller straight from the plan, not handed on through here).
    fn play(
        &mut self,
        seat: Seat,
        cards: Vec<Card>,
        lead: bool,
        auto: bool,
        events: &mut Vec<Event>,
    ) {
        // The plan checked that the hand holds the cards.
        let hand = &mut self.hands[seat.index()];
        for &c in &cards {
            let removed = hand.remove(c);
            debug_assert!(removed, "planned");
        }
        self.tricks.play(seat, &cards);
        let trick = self.trick;
        push(events, move || Event::Played {
            seat,
            trick,
            cards,
            lead,
            auto,
        });
        if self.tricks.open_plays() == 4 {
            self.finish_trick(events);
        }
    }

    fn finish_trick(&mut self, events: &mut Vec<Event>) {
        // The lead looked at where it is (not moved out: some 70 bytes), and dropped once done.
        let lead = self.lead.as_ref().expect("a trick has a lead");
        let mut seats = [self.leader; 4];
        let mut plays: [&[Card]; 4] = [&[]; 4];
        for (i, (seat, cards)) in self.tricks.open().enumerate() {
            seats[i] = seat;
            plays[i] = cards;
        }
        let winner = seats[trick_winner(&self.order, self.rules.throw_compare, lead, &plays)];
        let points = trick_points(&plays);
        let board_over = self.hands.iter().all(Hand::is_empty);
        // 抠底: the last lead's largest unit sets the multiplier.
        let multiplier = board_over.then(|| kitty_multiplier(self.rules.kitty_multiplier, lead));
        self.lead = None;
        let to_defenders = self.is_defender(winner);
        if to_defenders {
            self.defenders += points as i32;
            self.defender_tricks += 1;
        }
        let (trick, defenders) = (self.trick, self.defenders);
        push(events, || Event::TrickWon {
            trick,
            winner,
            points,
            to_defenders,
            defenders,
        });
        self.tricks.close(self.trick, winner, points);
        if let Some(multiplier) = multiplier {
            if to_defenders {
                let points = crate::cards::points(&self.kitty);
                let gain = points * multiplier;
                self.defenders += gain as i32;
                events.push(Event::KittyCaptured {
                    seat: winner,
                    kitty: self.kitty.clone(),
                    points,
                    multiplier,
                    gain,
                    defenders: self.defenders,
                });
            }
            self.finish(false, events);
        } else {
            self.trick += 1;
            self.leader = winner;
        }
    }

    /// Ends play (or, on a board already over, announces the revised result).
    fn finish(&mut self, by_ruling: bool, events: &mut Vec<Event>) {
        let revised = matches!(self.state, State::Over);
        self.state = State::Over;
        self.warned = false;
        self.by_ruling |= by_ruling;
        self.result = Some(self.defenders);
        events.push(Event::BoardOver {
            result: self.defenders,
            kitty: self.kitty.clone(),
            defender_tricks: self.defender_tricks,
            by_ruling: self.by_ruling,
            revised,
        });
    }
}

/// Adds the event `make` makes, made where it is kept: room for it first, then made in place.
/// (Made first and then pushed, as `Vec::push` has it, an event was built on the stack a field
/// at a time and copied in whole words at once, and the processor waited for its own writes.)
fn push(events: &mut Vec<Event>, make: impl FnOnce() -> Event) {
    events.extend(std::iter::once_with(make));
}

/// The defenders' points after a ruling ends the board against a side (`defender_offended`:
/// the defenders offended, else the declarer's side), from their points `so_far`.
fn ruling_end_result(how: RulingEnd, points: u32, defender_offended: bool, so_far: i32) -> i32 {
    let points = points as i32;
    match (how, defender_offended) {
        // 判违规方负，非违规方得120分: the non-offenders get at least 120 and keep what they had.
        (RulingEnd::AtLeast, false) => so_far.max(points),
        (RulingEnd::AtLeast, true) => so_far.min(-points),
        (RulingEnd::AddToPointsSoFar, false) => so_far + points,
        (RulingEnd::AddToPointsSoFar, true) => so_far - points,
        (RulingEnd::Fixed, false) => points,
        (RulingEnd::Fixed, true) => -points,
    }
}
