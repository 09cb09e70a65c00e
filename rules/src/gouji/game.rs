//! 一局 (a game): the 够级 state machine, `apply(seat, action) -> events`.
//!
//! A1 leads. In turn each player beats the top set, passes or yields; the 级牌 restriction,
//! 无头, the 对头's last word, the 对头's pass on a 级牌 (conceded) and the burn offers, 接风,
//! 四户乱缠 once 头科 and 二科 are out, 开点 and 点, the clock's warning, and the end when one
//! team is all out. Every check runs before anything changes, so a refused action leaves the
//! game exactly as it was.

use crate::cards::{Card, Hand};
use crate::deal::GoujiDeal;
use crate::Actor;

use super::action::{Action, Ruling};
use super::beat::beats;
use super::burn::{fails_to_lead, offer_queue, sustain};
use super::error::RuleError;
use super::event::{CardCount, Event};
use super::ruleset::{FillOrder, Ruleset};
use super::score::{self, Outcome, Place, Score, Tally};
use super::seat::Team;
use super::set::{smallest_lead, Counts, GoujiSet, Shape};
use super::trick::{Top, Trick};
use super::Seat;
use crate::posted::Posted;

/// Where a seat stands in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiStatus"))]
pub enum Status {
    /// Still holding cards.
    Playing,
    /// Played their last card (the place is in [`Game::places`]).
    Out,
    /// 烧牌失误: 大落, cards void. Their 对头 still counts as having a head.
    Failed,
}

/// Who must do what now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The seat leads a new trick (no pass possible).
    Lead(Seat),
    /// The seat beats the top set, passes, or (the 对头) yields.
    Respond(Seat),
    /// The seat is asked whether it burns the top set; `queue` is asked next, in order.
    Offer { seat: Seat, queue: Vec<Seat> },
    /// The game is over.
    Over,
}

impl Phase {
    /// The seat that must act, if any.
    pub fn seat(&self) -> Option<Seat> {
        match self {
            Phase::Lead(s) | Phase::Respond(s) | Phase::Offer { seat: s, .. } => Some(*s),
            Phase::Over => None,
        }
    }
}

/// How a set is played.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PlayKind {
    Lead,
    Beat,
    Burn,
}

/// One 够级 game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Shared with every view of the game (see [`Posted`]).
    pub(crate) ruleset: Posted<Ruleset>,
    /// The game number of the deal (for views and logs).
    pub(crate) number: u32,
    pub(crate) hands: [Hand; 6],
    /// Every card played so far (the sets on the table).
    pub(crate) table: Hand,
    /// The cards of failed burners (余牌无效).
    pub(crate) void: Hand,
    pub(crate) status: [Status; 6],
    pub(crate) places: [Option<Place>; 6],
    /// Seats that went out, in order (头科 first).
    pub(crate) finish: Vec<Seat>,
    /// How many failed burners took places from the bottom (大落, then 二落). The places are
    /// the finishing order only: every failed burner scores 大落 (`Scoring::failed_burn`).
    pub(crate) failed: usize,
    pub(crate) trick: Trick,
    pub(crate) phase: Phase,
    /// Per seat: the 级牌 it burned, while its burn stands (it must lead sets with a joker).
    pub(crate) burning: [Option<Top>; 6],
    /// 开点: had a 级牌 not beaten by their 对头 before 二科 went out.
    pub(crate) opened: [bool; 6],
    /// 点: had not opened when 二科 went out.
    pub(crate) marked: [bool; 6],
    /// 四户乱缠: 头科 and 二科 are out.
    pub(crate) free_play: bool,
    /// Points deducted by referees per team (A, B).
    pub(crate) deducted: [u32; 2],
    /// The team ruled 0:12.
    pub(crate) forfeited: Option<Team>,
    /// The seat to act has been warned by the clock for this move (超时警告): the next expiry
    /// passes for it. Cleared by every move.
    pub(crate) warned: bool,
}

impl Game {
    /// A new game from a deal: A1 leads.
    pub fn new(deal: &GoujiDeal, ruleset: impl Into<Posted<Ruleset>>) -> Game {
        Game {
            ruleset: ruleset.into(),
            number: deal.game,
            hands: std::array::from_fn(|s| deal.hands[s].iter().copied().collect()),
            table: Hand::new(),
            void: Hand::new(),
            status: [Status::Playing; 6],
            places: [None; 6],
            finish: Vec::new(),
            failed: 0,
            trick: Trick::default(),
            phase: Phase::Lead(Seat::A1),
            burning: Default::default(),
            opened: [false; 6],
            marked: [false; 6],
            free_play: false,
            deducted: [0; 2],
            forfeited: None,
            warned: false,
        }
    }

    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// The ruleset as the game's views carry it.
    pub fn posted_ruleset(&self) -> &Posted<Ruleset> {
        &self.ruleset
    }

    pub fn number(&self) -> u32 {
        self.number
    }

    pub fn hand(&self, seat: Seat) -> &Hand {
        &self.hands[seat.index()]
    }

    /// Cards played so far.
    pub fn table(&self) -> &Hand {
        &self.table
    }

    /// Cards made void by failed burns.
    pub fn void(&self) -> &Hand {
        &self.void
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn top(&self) -> Option<&Top> {
        self.trick.top.as_ref()
    }

    pub fn trick(&self) -> &Trick {
        &self.trick
    }

    pub fn status(&self, seat: Seat) -> Status {
        self.status[seat.index()]
    }

    pub fn place(&self, seat: Seat) -> Option<Place> {
        self.places[seat.index()]
    }

    pub fn places(&self) -> &[Option<Place>; 6] {
        &self.places
    }

    /// Seats out so far, 头科 first.
    pub fn finish(&self) -> &[Seat] {
        &self.finish
    }

    pub fn is_burning(&self, seat: Seat) -> bool {
        self.burning[seat.index()].is_some()
    }

    pub fn opened(&self, seat: Seat) -> bool {
        self.opened[seat.index()]
    }

    pub fn marked(&self, seat: Seat) -> bool {
        self.marked[seat.index()]
    }

    pub fn free_play(&self) -> bool {
        self.free_play
    }

    /// Points deducted by referees so far, team A then B.
    pub fn deducted(&self) -> [u32; 2] {
        self.deducted
    }

    /// The seat to act was warned by the clock for this move (超时警告) and has only the grace
    /// seconds left.
    pub fn warned(&self) -> bool {
        self.warned
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Still holding cards.
    pub fn active(&self, seat: Seat) -> bool {
        self.status[seat.index()] == Status::Playing
    }

    /// 有头: the 对头 has not gone out (a failed burner's 对头 still has a head).
    pub fn has_head(&self, seat: Seat) -> bool {
        self.status[seat.opposite().index()] != Status::Out
    }

    /// Would a set of this shape, played by `seat` now, be a 级牌 that binds the others? Its
    /// thresholds, a head (有头), not in 四户乱缠, and, with `last_set_is_gouji: false`, not the
    /// set that empties the hand.
    pub fn binds(&self, seat: Seat, shape: &Shape, last: bool) -> bool {
        shape.is_gouji() && self.sets_bind(seat) && (!last || self.ruleset.last_set_is_gouji)
    }

    /// Do `seat`'s sets bind the others now? It holds cards, has a head (有头) and 四户乱缠 has
    /// not begun. Then a set of theirs that meets the thresholds is a 级牌.
    pub fn sets_bind(&self, seat: Seat) -> bool {
        self.active(seat) && self.has_head(seat) && !self.free_play
    }

    /// May `seat`, asked whether it burns, beat the top set by normal play instead? Only a
    /// 无头 player who has not passed in this trick: the offer is their turn.
    pub fn offer_may_beat(&self, seat: Seat) -> bool {
        !self.has_head(seat) && !self.trick.passed[seat.index()]
    }

    /// May `seat` yield (让) the top set now? The owner's 对头, once per set (not after it came
    /// back); in 四户乱缠 only without `no_yield_in_free_play`.
    pub fn may_yield(&self, seat: Seat) -> bool {
        self.phase == Phase::Respond(seat)
            && !(self.free_play && self.ruleset.no_yield_in_free_play)
            && !self.trick.yield_returned
            && self.top().is_some_and(|t| t.owner.opposite() == seat)
    }

    /// May `seat` beat the top set by normal play? Not if it is a 级牌 that binds them.
    pub fn may_beat(&self, seat: Seat) -> bool {
        match &self.trick.top {
            None => false,
            Some(top) => {
                !top.gouji || self.free_play || seat == top.owner.opposite() || !self.has_head(seat)
            }
        }
    }

    /// Must `seat` lead a set with a joker (a standing burn, not their last set)?
    pub fn joker_required(&self, seat: Seat) -> bool {
        !self.free_play && self.burning[seat.index()].is_some()
    }

    /// The score so far: `Some` once the game is over (or forfeited).
    pub fn score(&self) -> Option<(Score, Outcome)> {
        if let Some(team) = self.forfeited {
            return Some((
                score::forfeit(team, self.deducted, &self.ruleset.scoring),
                Outcome::Forfeit { team: team.into() },
            ));
        }
        self.is_over().then(|| {
            let tally = Tally {
                places: self.places,
                marked: self.marked,
                failed: self.status.map(|s| s == Status::Failed),
                deducted: self.deducted,
            };
            score::score(&tally, &self.ruleset.scoring)
        })
    }

    /// 问牌: the asker's 对头's card count, as the rules let it be answered. A question, not a
    /// move: the server answers it to the asker alone and logs nothing (`Engine::ask`).
    pub fn ask_count(&self, seat: Seat) -> Vec<Event> {
        let about = seat.opposite();
        vec![Event::CountAnswered {
            asker: seat,
            about,
            answer: CardCount::answer(
                self.hands[about.index()].len(),
                self.ruleset.exact_count_limit,
            ),
        }]
    }

    /// Applies one action by `by` for (or against) `seat`. Rulings only from the referee,
    /// timeouts only from the clock. A refusal leaves the game unchanged.
    pub fn apply(
        &mut self,
        seat: Seat,
        by: Actor,
        action: Action,
    ) -> Result<Vec<Event>, RuleError> {
        match (&action, by) {
            (Action::Ruling { .. }, a) if a != Actor::Referee => {
                return Err(RuleError::RefereeOnly)
            }
            (Action::Timeout, a) if a != Actor::Clock => return Err(RuleError::ClockOnly),
            _ => {}
        }
        let mut ev = Vec::with_capacity(4);
        match action {
            Action::Ruling {
                ruling,
                offence,
                points,
            } => self.rule(seat, ruling, offence, points, &mut ev)?,
            _ if self.is_over() => return Err(RuleError::GameOver),
            // Logs written before 问牌 became a question hold it as an entry: it replays as the
            // answer it was (it changes nothing). New ones never reach here (`Engine::ask`).
            Action::AskCount => ev.extend(self.ask_count(seat)),
            Action::Timeout => self.time_out(seat, &mut ev)?,
            Action::Play { cards } => self.play(seat, &cards, &mut ev)?,
            Action::Pass => self.pass(seat, &mut ev)?,
            Action::Yield => self.yield_top(seat, &mut ev)?,
            Action::Burn { cards } => self.burn(seat, &cards, &mut ev)?,
            Action::Decline => self.decline(seat, &mut ev)?,
        }
        Ok(ev)
    }

    /// 比赛限时: the first expiry of a move warns the seat (超时裁判予以警告) and changes
    /// nothing else; `move_limit` then gives the grace seconds. The second passes for it
    /// (超过5秒仍不出牌者视为过牌), declines a burn offer, or leads its smallest legal set.
    fn time_out(&mut self, seat: Seat, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        if self.phase.seat() != Some(seat) {
            return Err(self.not_your_turn());
        }
        let grace_seconds = self.ruleset.grace_seconds;
        if !self.warned && grace_seconds > 0 {
            self.warned = true;
            ev.push(Event::Warned {
                seat,
                grace_seconds,
            });
            return Ok(());
        }
        let auto = match &self.phase {
            Phase::Respond(_) => Action::Pass,
            Phase::Offer { .. } => Action::Decline,
            _ => {
                let hand = &self.hands[seat.index()];
                let shape = smallest_lead(&Counts::of(hand), self.joker_required(seat));
                let cards = shape
                    .and_then(|sh| sh.take_from(hand))
                    .expect("a leader holds cards and a legal lead");
                Action::Play { cards }
            }
        };
        let inner = self.apply(seat, Actor::Clock, auto)?;
        ev.push(Event::TimedOut { seat });
        ev.extend(inner);
        Ok(())
    }

    fn not_your_turn(&self) -> RuleError {
        RuleError::NotYourTurn {
            turn: self.phase.seat(),
        }
    }

    /// Parses the cards as one set the seat holds.
    fn held_set(&self, seat: Seat, cards: &[Card]) -> Result<GoujiSet, RuleError> {
        let set = GoujiSet::parse(cards)?;
        if !self.hands[seat.index()].contains_all(cards) {
            return Err(RuleError::CardsNotHeld);
        }
        Ok(set)
    }

    /// Checks that `set` beats the top set by the bare comparison.
    fn check_beats(&self, set: &GoujiSet) -> Result<(), RuleError> {
        let top = self.trick.top.as_ref().expect("a top set to beat");
        beats(&set.shape, &top.shape, self.ruleset.two_for_one)
            .map_err(|e| RuleError::from_beat(e, top.shape.len()))
    }

    fn play(&mut self, seat: Seat, cards: &[Card], ev: &mut Vec<Event>) -> Result<(), RuleError> {
        let kind = match &self.phase {
            Phase::Lead(s) if *s == seat => PlayKind::Lead,
            Phase::Respond(s) if *s == seat => PlayKind::Beat,
            Phase::Offer { seat: s, .. } if *s == seat && self.offer_may_beat(seat) => {
                PlayKind::Beat
            }
            Phase::Offer { seat: s, .. } if *s == seat => return Err(RuleError::BurnOfferPending),
            _ => return Err(self.not_your_turn()),
        };
        let set = self.held_set(seat, cards)?;
        if kind == PlayKind::Lead {
            let whole = set.len() == self.hands[seat.index()].len();
            if self.joker_required(seat) && set.shape.jokers() == 0 && !whole {
                return Err(RuleError::BurnLeadNeedsJoker);
            }
        } else {
            if !self.may_beat(seat) {
                let owner = self.trick.top.as_ref().expect("top").owner;
                return Err(RuleError::GoujiOnlyOpposite {
                    opposite: owner.opposite(),
                });
            }
            self.check_beats(&set)?;
        }
        self.put(seat, set, kind, ev);
        self.warned = false;
        Ok(())
    }

    fn pass(&mut self, seat: Seat, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        match &self.phase {
            Phase::Respond(s) if *s == seat => {}
            Phase::Lead(s) if *s == seat => return Err(RuleError::MustLead),
            Phase::Offer { seat: s, .. } if *s == seat => return Err(RuleError::BurnOfferPending),
            _ => return Err(self.not_your_turn()),
        }
        let i = seat.index();
        self.trick.passed[i] = true;
        self.trick.responded[i] = true;
        self.trick.yield_returned = false;
        self.warned = false;
        let top = self.trick.top.as_ref().expect("a top set when responding");
        let conceded = top.gouji && !self.free_play && seat == top.owner.opposite();
        ev.push(Event::Passed { seat, conceded });
        if conceded && self.concede(ev) {
            return Ok(());
        }
        self.advance(seat, ev);
        Ok(())
    }

    fn yield_top(&mut self, seat: Seat, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        match &self.phase {
            Phase::Respond(s) if *s == seat => {}
            Phase::Offer { seat: s, .. } if *s == seat => return Err(RuleError::BurnOfferPending),
            Phase::Lead(s) if *s == seat => return Err(RuleError::OnlyOppositeMayYield),
            _ => return Err(self.not_your_turn()),
        }
        if self.free_play && self.ruleset.no_yield_in_free_play {
            return Err(RuleError::NoYieldInFreePlay);
        }
        let top = self.trick.top.as_ref().expect("a top set when responding");
        if seat != top.owner.opposite() {
            return Err(RuleError::OnlyOppositeMayYield);
        }
        if self.trick.yield_returned {
            return Err(RuleError::YieldAlreadyUsed);
        }
        self.warned = false;
        ev.push(Event::Yielded { seat });
        if self.free_play {
            // 四户乱缠: passes are not final, so a yield is a pass; it never comes back.
            self.trick.passed[seat.index()] = true;
            self.trick.responded[seat.index()] = true;
        } else {
            self.trick.yielded = Some(seat);
        }
        self.advance(seat, ev);
        Ok(())
    }

    fn burn(&mut self, seat: Seat, cards: &[Card], ev: &mut Vec<Event>) -> Result<(), RuleError> {
        match &self.phase {
            Phase::Offer { seat: s, .. } if *s == seat => {}
            _ => return Err(RuleError::NoBurnRight),
        }
        let set = self.held_set(seat, cards)?;
        self.check_beats(&set)?;
        let after = Counts::of(&self.hands[seat.index()]).minus(&set.shape);
        sustain(&after, self.ruleset.keep_cards)
            .map_err(|(jokers, ranks)| RuleError::BurnNotSustainable { jokers, ranks })?;
        self.put(seat, set, PlayKind::Burn, ev);
        self.warned = false;
        Ok(())
    }

    fn decline(&mut self, seat: Seat, ev: &mut Vec<Event>) -> Result<(), RuleError> {
        let queue = match &mut self.phase {
            Phase::Offer { seat: s, queue } if *s == seat => std::mem::take(queue),
            _ => return Err(RuleError::NoBurnRight),
        };
        // A declined burn is a pass of the set: the decliner is done with this trick.
        self.warned = false;
        self.trick.passed[seat.index()] = true;
        self.trick.responded[seat.index()] = true;
        ev.push(Event::BurnDeclined { seat });
        if queue.is_empty() && !self.ruleset.burned_gouji_opens {
            // Nobody burned the conceded 级牌: it was beaten by nobody.
            let owner = self.trick.top.as_ref().expect("top").owner;
            self.open(owner, ev);
        }
        self.offer_next(queue, seat, ev);
        Ok(())
    }

    /// Asks the next seat of the queue, or, when everyone declined, goes on with the trick.
    fn offer_next(&mut self, mut queue: Vec<Seat>, last: Seat, ev: &mut Vec<Event>) {
        if queue.is_empty() {
            self.advance(last, ev);
        } else {
            let seat = queue.remove(0);
            ev.push(Event::BurnOffered { seat });
            self.phase = Phase::Offer { seat, queue };
        }
    }

    /// 犯规与判罚: a warning, a deduction of 2 or 4 points (the first of `deduction_points` when
    /// the ruling names none), or 0:12 告负.
    fn rule(
        &mut self,
        seat: Seat,
        ruling: Ruling,
        offence: super::action::Offence,
        points: Option<u32>,
        ev: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.forfeited.is_some() {
            return Err(RuleError::AlreadyForfeited);
        }
        let allowed = &self.ruleset.scoring.deduction_points;
        let points = match (ruling, points) {
            (Ruling::Deduction, None) => Some(allowed.first().copied().unwrap_or(2)),
            (Ruling::Deduction, Some(p)) if allowed.contains(&p) => Some(p),
            (_, None) => None,
            (ruling, Some(points)) => {
                return Err(RuleError::BadRulingPoints {
                    ruling,
                    points,
                    allowed: allowed.clone(),
                })
            }
        };
        ev.push(Event::Ruled {
            seat,
            ruling,
            offence,
            points,
        });
        match ruling {
            Ruling::Warning => {}
            Ruling::Deduction => {
                self.deducted[team_index(seat.team())] += points.unwrap_or(0);
                // After the end a deduction changes the announced score: announce it again.
                if self.is_over() {
                    self.push_game_over(ev);
                }
            }
            Ruling::Forfeit => {
                self.forfeited = Some(seat.team());
                self.phase = Phase::Over;
                self.warned = false;
                self.push_game_over(ev);
            }
        }
        Ok(())
    }

    /// Puts a checked set on the table and moves the game on.
    fn put(&mut self, seat: Seat, set: GoujiSet, kind: PlayKind, ev: &mut Vec<Event>) {
        let i = seat.index();
        self.hands[i].remove_all(&set.cards);
        for &c in &set.cards {
            self.table.add(c);
        }
        let last = self.hands[i].is_empty();
        let gouji = self.binds(seat, &set.shape, last);
        // 无头: the 对头 is out and can never beat this set (with `headless_sets_open`).
        let headless_opens =
            self.ruleset.headless_sets_open && set.shape.is_gouji() && !self.has_head(seat);
        let mut top = Top {
            cards: set.cards,
            shape: set.shape,
            owner: seat,
            gouji,
            burned: None,
        };
        let cards = top.cards.clone();
        match kind {
            PlayKind::Lead => {
                ev.push(Event::Led { seat, cards, gouji });
                self.trick = Trick::opened_with(top);
            }
            PlayKind::Beat => {
                let old = self.trick.top.take().expect("a top set to beat");
                let unburn = seat == old.owner.opposite()
                    && (old.burned.is_some() || self.burning[old.owner.index()].is_some());
                ev.push(Event::Beat {
                    seat,
                    cards,
                    gouji,
                    unburn,
                });
                if unburn && self.burning[old.owner.index()].take().is_some() {
                    ev.push(Event::BurnEnded { seat: old.owner });
                }
                if old.gouji && !self.free_play && seat != old.owner.opposite() {
                    // Beaten freely by a headless player: not beaten by the 对头.
                    self.open(old.owner, ev);
                }
                // Someone beat the set: a pending yield counts as a pass.
                if let Some(y) = self.trick.yielded.take() {
                    self.trick.passed[y.index()] = true;
                }
                self.trick.replace_top(top);
            }
            PlayKind::Burn => {
                let old = self.trick.top.take().expect("a top set to burn");
                let counter = old.burned.is_some() || self.burning[old.owner.index()].is_some();
                ev.push(Event::Burned {
                    seat,
                    cards,
                    gouji,
                    counter,
                });
                if self.burning[old.owner.index()].take().is_some() {
                    ev.push(Event::BurnEnded { seat: old.owner });
                }
                top.burned = Some(Box::new(old.plain()));
                self.trick.yielded = None;
                self.trick.replace_top(top);
            }
        }
        if gouji {
            // A player may act again when their 对头 plays a 级牌.
            self.trick.passed[seat.opposite().index()] = false;
        }
        if headless_opens {
            self.open(seat, ev);
        }
        if last {
            self.go_out(seat, ev);
            if self.is_over() {
                return;
            }
        }
        self.advance(seat, ev);
    }

    /// 开点 (only before 二科 is out).
    fn open(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        if !self.free_play && !self.opened[seat.index()] {
            self.opened[seat.index()] = true;
            ev.push(Event::Opened { seat });
        }
    }

    /// The owner's 对头 passed the 级牌 (conceded; or cannot act). The owner opens (开点: at
    /// once, or with `burned_gouji_opens: false` once nobody burned it) and the burn is offered
    /// to every other player still holding cards, 无头 or not, in the ruleset's order. Returns
    /// whether an offer is now open.
    fn concede(&mut self, ev: &mut Vec<Event>) -> bool {
        self.trick.offers_done = true;
        let owner = self.trick.top.as_ref().expect("top").owner;
        let queue = offer_queue(owner, self.ruleset.burn_offer_order, |s| self.active(s));
        if self.ruleset.burned_gouji_opens || queue.is_empty() {
            self.open(owner, ev);
        }
        if queue.is_empty() {
            return false;
        }
        self.offer_next(queue, owner.opposite(), ev);
        true
    }

    /// Who answers the top set next, after `from` acted; closes the trick when nobody is left.
    fn advance(&mut self, from: Seat, ev: &mut Vec<Event>) {
        let top = self.trick.top.as_ref().expect("a top set");
        let owner = top.owner;
        for k in 1..6 {
            let s = Seat::from_index(from.index() + k);
            if s == owner || !self.active(s) {
                continue;
            }
            let waiting = if self.free_play {
                !self.trick.responded[s.index()]
            } else {
                !self.trick.passed[s.index()] && self.trick.yielded != Some(s)
            };
            if waiting {
                self.phase = Phase::Respond(s);
                return;
            }
        }
        if !self.free_play {
            if let Some(y) = self.trick.yielded.take() {
                self.trick.yield_returned = true;
                ev.push(Event::YieldReturned { seat: y });
                self.phase = Phase::Respond(y);
                return;
            }
            // The 对头 always has the last word on the top set.
            let opposite = owner.opposite();
            if self.active(opposite) && !self.trick.responded[opposite.index()] {
                self.phase = Phase::Respond(opposite);
                return;
            }
            // A 级牌 whose 对头 cannot act (a failed burner): conceded without a word.
            if top.gouji && !self.trick.offers_done && self.concede(ev) {
                return;
            }
        }
        self.close_trick(ev);
    }

    /// Everyone else passed: the owner of the top set wins the trick and leads (or 接风).
    fn close_trick(&mut self, ev: &mut Vec<Event>) {
        let top = self.trick.top.take().expect("a top set");
        let winner = top.owner;
        if let Some(burned) = top.burned {
            if self.active(winner) && !self.free_play {
                self.burning[winner.index()] = Some(*burned);
                ev.push(Event::BurnStood { seat: winner });
            }
        }
        let leader = if self.active(winner) {
            winner
        } else {
            // 接风: the next active player to the right.
            (1..6)
                .map(|k| Seat::from_index(winner.index() + k))
                .find(|&s| self.active(s))
                .expect("an active player while the game runs")
        };
        ev.push(Event::TrickWon {
            winner,
            leader,
            takeover: leader != winner,
        });
        self.trick = Trick::default();
        self.phase = Phase::Lead(leader);
        self.check_burn_failure(leader, ev);
    }

    /// A burner who must lead a non-final set without a joker has failed (烧牌失误).
    fn check_burn_failure(&mut self, leader: Seat, ev: &mut Vec<Event>) {
        let i = leader.index();
        if !self.joker_required(leader) || !fails_to_lead(&Counts::of(&self.hands[i])) {
            return;
        }
        let burned = self.burning[i].take().expect("a burner");
        let void = std::mem::take(&mut self.hands[i]);
        for c in void.iter() {
            self.void.add(c);
        }
        self.status[i] = Status::Failed;
        self.places[i] = Some(Place::from_index(5 - self.failed));
        self.failed += 1;
        ev.push(Event::BurnFailed {
            seat: leader,
            void: Some(void.cards()),
            void_count: void.len(),
            owner: burned.owner,
            restored: burned.cards.clone(),
        });
        if self.check_end(leader, ev) {
            return;
        }
        // The burned 级牌 is the top set again: only its 对头 may beat it, or it may be burned
        // again; otherwise its owner leads.
        let owner = burned.owner;
        let restored = Top {
            gouji: burned.gouji && self.has_head(owner),
            ..burned
        };
        self.trick = Trick::opened_with(restored);
        self.advance(owner, ev);
    }

    /// The seat played its last card.
    fn go_out(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let i = seat.index();
        let place = Place::from_index(self.finish.len());
        self.status[i] = Status::Out;
        self.places[i] = Some(place);
        self.finish.push(seat);
        ev.push(Event::WentOut { seat, place });
        self.burning[i] = None;
        if self.finish.len() == 2 && !self.free_play {
            // 两科带点 and 四户乱缠.
            self.free_play = true;
            ev.push(Event::FreePlay);
            for s in Seat::ALL {
                if self.active(s) && !self.opened[s.index()] {
                    self.marked[s.index()] = true;
                    ev.push(Event::Marked { seat: s });
                }
                if self.burning[s.index()].take().is_some() {
                    ev.push(Event::BurnEnded { seat: s });
                }
            }
        }
        self.check_end(seat, ev);
    }

    /// Ends the game when one team has nobody left holding cards. Returns whether it ended.
    fn check_end(&mut self, last: Seat, ev: &mut Vec<Event>) -> bool {
        let left = |team| {
            Seat::ALL
                .iter()
                .any(|&s| s.team() == team && self.active(s))
        };
        if left(Team::A) && left(Team::B) {
            return false;
        }
        // The rest fill the free places, in the ruleset's order; ties in turn order.
        let mut rest: Vec<Seat> = (1..=6)
            .map(|k| Seat::from_index(last.index() + k))
            .filter(|&s| self.active(s))
            .collect();
        if self.ruleset.fill_places == FillOrder::FewestCardsFirst {
            rest.sort_by_key(|s| self.hands[s.index()].len());
        }
        let taken = self.places;
        let mut free = (0..6).filter(|&p| !taken.contains(&Some(Place::from_index(p))));
        for s in rest {
            self.places[s.index()] = free.next().map(Place::from_index);
        }
        self.phase = Phase::Over;
        self.push_game_over(ev);
        true
    }

    fn push_game_over(&self, ev: &mut Vec<Event>) {
        let (score, outcome) = self.score().expect("a score once over");
        ev.push(Event::GameOver {
            places: self.places,
            score,
            outcome,
        });
    }
}

fn team_index(team: Team) -> usize {
    match team {
        Team::A => 0,
        Team::B => 1,
    }
}
