//! Acting: who may act, the id caches, questions, stale decisions, and the one path every
//! action takes (apply → store → ack → broadcast); the clock and the bots.

use super::*;
use protocol::{ReasonFault, SeatFault};

impl<G: TableGame> Table<G> {
    // --- acting ---------------------------------------------------------------------------------

    pub(super) async fn act(&mut self, conn: u64, act: Act) {
        let arrived = Instant::now();
        let Some(sub) = self.subscribers.iter().find(|s| s.outlet.id == conn) else {
            return;
        };
        let (who, outlet) = (sub.who, sub.outlet.clone());
        let id = act.id;
        let (acting, actor, key) = match self.who_acts(who, &act) {
            Ok(it) => it,
            Err(p) => return self.reject(&outlet, id, p),
        };
        // A resent id: answer from the cache, never apply twice.
        match self.ids.get(&key, id) {
            Some(Told::Acked(seq)) => {
                let text = to_text(&ClientOut::Ack { id, seq });
                return self.send(&outlet, text);
            }
            Some(Told::Refused(p)) => return self.reject(&outlet, id, *p),
            None => {}
        }
        let parsed: G::Action = match serde_json::from_value(act.action) {
            Ok(a) => a,
            Err(e) => {
                let p = Problem::from(Refusal::BadAction {
                    detail: e.to_string(),
                });
                self.ids
                    .remember(key, id, Told::Refused(Box::new(p.clone())));
                return self.reject(&outlet, id, p);
            }
        };
        // A question (问牌) is not a move: answered to the asker alone, never logged, never
        // touching a clock, once per seat per state of the table.
        if let Some(answer) = self.engine.ask(acting, &parsed) {
            return self.answer(&outlet, acting, id, answer);
        }
        // Decided on an older state (the clock or 托管 played meanwhile, a ruling came): the
        // player did not see what they would be playing into.
        if act.seq != self.seq {
            let p = stale(act.seq, self.seq);
            self.ids
                .remember(key, id, Told::Refused(Box::new(p.clone())));
            return self.reject(&outlet, id, p);
        }
        let client = Client {
            key: key.clone(),
            id,
            outlet: &outlet,
        };
        match self
            .commit(acting, actor, Some(client), parsed, act.reason)
            .await
        {
            Ok(_) => self.deps.metrics.round_trip(G::GAME, arrived.elapsed()),
            Err(p) => {
                if p.code != codes::STORE_FAILED {
                    self.ids
                        .remember(key, id, Told::Refused(Box::new(p.clone())));
                }
                self.reject(&outlet, id, p);
            }
        }
    }

    /// The seat an `act` is for, who acts, and the key of its id: a player acts for their own
    /// seat without a reason; a referee names the seat and gives a reason (a ruling's grounds,
    /// or why they move on the seat's behalf); a spectator cannot act.
    pub(super) fn who_acts(&self, who: Who, act: &Act) -> Result<(usize, Actor, String), Problem> {
        match who {
            Who::Spectator => Err(Refusal::Spectator { auto: false }.into()),
            Who::Seat(mine) => {
                if act.seat.is_some_and(|s| s != mine) {
                    return Err(Refusal::NotYourSeat.into());
                }
                if act.reason.is_some() {
                    return Err(Refusal::Reason(ReasonFault::FromPlayer).into());
                }
                if self.review.is_some() {
                    return Err(Refusal::UnderReview.into());
                }
                let key = match &self.seats[mine].token_hash {
                    Some(h) => store::occupant(h),
                    None => format!("seat {mine}"),
                };
                Ok((mine, Actor::Player, key))
            }
            Who::Referee => {
                let Some(seat) = act.seat.filter(|&s| s < self.seats.len()) else {
                    return Err(Refusal::BadSeat(SeatFault::RulingWithoutSeat).into());
                };
                let reason = act.reason.as_deref().map(str::trim).unwrap_or("");
                // Control characters (NUL among them, which PostgreSQL text cannot hold) have
                // no place in a reason shown to players.
                if reason.is_empty()
                    || reason.chars().count() > MAX_REASON
                    || reason.chars().any(char::is_control)
                {
                    return Err(
                        Refusal::Reason(ReasonFault::RulingWithout { max: MAX_REASON }).into(),
                    );
                }
                Ok((seat, Actor::Referee, REFEREE_KEY.to_string()))
            }
        }
    }

    /// Answers a question to the asker alone.
    pub(super) fn answer(
        &mut self,
        outlet: &Outlet,
        seat: usize,
        id: u64,
        answer: Result<Vec<G::Event>, G::Error>,
    ) {
        if self.asked[seat] == Some(self.seq) {
            let p = Refusal::AlreadyAsked.into();
            return self.reject(outlet, id, p);
        }
        match answer {
            Err(e) => self.reject(outlet, id, Problem::explain(&e)),
            Ok(events) => {
                self.asked[seat] = Some(self.seq);
                let events: Vec<Value> = events
                    .iter()
                    .map(|e| serde_json::to_value(e).expect("events serialise"))
                    .collect();
                let text = to_text(&ClientOut::Answer { id, events });
                self.send(outlet, text);
            }
        }
    }

    pub(super) fn reject(&mut self, outlet: &Outlet, id: u64, problem: Problem) {
        self.deps.metrics.refusal(&problem.code);
        tracing::info!(conn = outlet.id, id, code = %problem.code, "action refused");
        let text = to_text(&ClientOut::Rejected { id, problem });
        self.send(outlet, text);
    }

    /// Applies, stores, acknowledges and broadcasts one action. On `Err` nothing changed (or,
    /// for `store_failed`, the table stops and rebuilds itself from its log).
    pub(super) async fn commit(
        &mut self,
        seat: usize,
        actor: Actor,
        client: Option<Client<'_>>,
        action: G::Action,
        reason: Option<String>,
    ) -> Result<u64, Problem> {
        // After the end only a referee may still act (a penalty found afterwards, closing the
        // board): the engine decides what it accepts then.
        if (self.state == TableState::Over || self.engine.is_over()) && actor != Actor::Referee {
            return Err(Refusal::GameOver.into());
        }
        if self.state != TableState::Playing
            && self.state != TableState::Over
            && actor != Actor::Referee
        {
            return Err(Refusal::TableWaiting.into());
        }
        let action_json = serde_json::to_string(&action).unwrap_or_default();
        let events = self
            .engine
            .apply(seat, actor, action)
            .map_err(|e| Problem::explain(&e))?;
        let reason = reason.map(|r| r.trim().to_string());
        let mut entry = LogEntry {
            seq: self.seq + 1,
            seat,
            actor,
            client_id: client.as_ref().map(|c| c.id),
            occupant: client
                .as_ref()
                .filter(|_| actor != Actor::Referee)
                .map(|c| c.key.clone()),
            reason: reason.clone(),
            action: action_json,
            time_ms: store::now_ms(),
            hash: String::new(),
        };
        entry.hash = store::entry_hash(&self.prev_hash, &entry);
        let (seq, hash) = (entry.seq, entry.hash.clone());
        // A ruling is logged once stored; its action text is kept for that (rulings are rare,
        // every other entry goes to the journal without a copy).
        let ruling = (actor == Actor::Referee).then(|| entry.action.clone());
        if let Err(e) = self.deps.journal.append(&self.id, entry).await {
            return Err(self.store_failed(&e));
        }
        self.deps.metrics.action(G::GAME, actor.name());
        // Each seat's view, built once: sent with the events, then shown to the seat's computer
        // player (nothing between here and there changes the engine).
        let views = self.computers.seat_views(&self.engine);
        if let Some(action) = ruling {
            tracing::info!(seat, reason = reason.as_deref().unwrap_or(""), action = %action, "referee ruling");
        }
        self.seq = seq;
        self.prev_hash = hash;
        if actor == Actor::Auto {
            self.count_auto(seat);
        }
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history
            .push_back(Entry::new(seat, actor, reason, events));
        if self.engine.is_over() && self.state != TableState::Over {
            if let Err(e) = self
                .deps
                .journal
                .set_state(&self.id, TableState::Over)
                .await
            {
                // The entry is stored: the rebuilt table finds the game over from its log.
                self.store_failed(&e);
            }
            self.state = TableState::Over;
        }
        // The summary first: whoever hears of this action (its ack, its events) and then asks
        // the lobby or an event about the table must find it as it is now (an event opens the
        // next board only once it sees this one over).
        self.publish_progress();
        let ack_to = client.as_ref().map(|c| c.outlet);
        if let Some(c) = client {
            self.ids.remember(c.key, c.id, Told::Acked(self.seq));
            let text = to_text(&ClientOut::Ack {
                id: c.id,
                seq: self.seq,
            });
            // Written with the events below: one system call for both.
            self.hold(c.outlet, text);
        }
        self.restart_clock();
        self.broadcast_entry(self.seq, &views);
        if let Some(outlet) = ack_to {
            // Written with the events if the connection is still subscribed (it always is, but
            // an ack must not wait on that).
            outlet.line.flush();
        }
        self.computers.observe_owned(views);
        self.schedule_bot();
        Ok(self.seq)
    }

    /// A write failed after the engine moved: the in-memory state can no longer be trusted.
    /// The actor stops after this command and the table is rebuilt from its log.
    pub(super) fn store_failed(&mut self, e: &store::StoreError) -> Problem {
        tracing::error!(error = %e, "store write failed; rebuilding the table from its log");
        self.deps.metrics.store_failure();
        self.broken = true;
        store_problem(e).into()
    }

    pub(super) fn restart_clock(&mut self) {
        self.clock = None;
        // Under review no clock runs (review.rs starts it again); at a practice table none runs
        // for a player who is away (competing.rs starts it when they are back).
        if self.state != TableState::Playing
            || self.engine.to_act().is_empty()
            || self.review.is_some()
            || self.waits_for_the_away()
        {
            return;
        }
        self.start_clock();
    }

    /// The clock for `seat`'s player arriving at their turn (a practice table stopped it while
    /// they were away): started as if they were present already.
    pub(super) fn restart_clock_for_arrival(&mut self, seat: usize) {
        if self.state == TableState::Playing
            && self.review.is_none()
            && self.engine.to_act().contains(&seat)
        {
            self.start_clock();
        }
    }

    fn start_clock(&mut self) {
        let scale = self.deps.settings.clock_scale;
        let now = Instant::now();
        let since = scale.to_game(now - self.started.unwrap_or(now));
        if let Some(limit) = self.engine.move_limit(since) {
            self.clock = Some(MoveClock {
                started: now,
                limit: scale.to_real(limit),
            });
        }
    }

    pub(super) fn schedule_bot(&mut self) {
        let due = self.state == TableState::Playing
            && self.review.is_none()
            && self
                .engine
                .to_act()
                .iter()
                .any(|&s| self.seats[s].bot || self.auto[s]);
        let delay = if self.plays_unwatched() {
            std::time::Duration::ZERO
        } else {
            self.deps.settings.bot_delay
        };
        self.bot_at = if due {
            Some(self.bot_at.unwrap_or_else(|| Instant::now() + delay))
        } else {
            None
        };
    }

    pub(super) async fn on_timeout(&mut self) {
        self.clock = None;
        let Some(&seat) = self.engine.to_act().first() else {
            return;
        };
        // A player away when their time runs out is played for (托管) until they return; at
        // a competition's table the clock goes on for them as for anyone present.
        if !self.seats[seat].bot && !self.connected(seat) && self.plays_for_the_absent() {
            self.auto[seat] = true;
        }
        let action = self.engine.timeout_action();
        tracing::info!(seat, away = self.auto[seat], "clock ran out");
        if let Err(p) = self.commit(seat, Actor::Clock, None, action, None).await {
            tracing::error!(seat, code = %p.code, "the timeout action was refused; playing the lowest legal action");
            let view = self.engine.view(Viewer::Seat(seat));
            if let Some(a) = bots::simplest::<G>(&view) {
                let _ = self.commit(seat, Actor::Clock, None, a, None).await;
            }
        }
        self.after_presence_change();
    }

    /// A bot's (or 托管's) turn has come: its player decides off the actor (see
    /// [`super::computer`]); [`Table::on_thought`] plays what it decided.
    pub(super) fn on_bot(&mut self) {
        self.bot_at = None;
        if self.computers.thinking.is_some() {
            return;
        }
        let Some(seat) = self
            .engine
            .to_act()
            .into_iter()
            .find(|&s| self.seats[s].bot || self.auto[s])
        else {
            return;
        };
        // The bot sees exactly what a player in that seat would.
        let view = self.engine.view(Viewer::Seat(seat));
        let auto = !self.seats[seat].bot;
        let think = self.deps.settings.expert_think;
        let log = (&self.deps.journal, self.id.as_str());
        self.computers.think(seat, self.seq, view, auto, think, log);
    }

    /// A decision is back. Played if the table is where it was when the seat began to think
    /// and the seat is still the computer's to play; otherwise dropped, and the seat decides
    /// again on the table as it is now.
    pub(super) async fn on_thought(&mut self, thought: computer::Thought<G>) {
        self.deps
            .metrics
            .bot_decision(G::GAME, thought.level().name(), thought.took());
        let (seat, action, fresh) = self.computers.back(thought, self.seq);
        let still_ours = self.state == TableState::Playing
            && self.review.is_none()
            && (self.seats[seat].bot || self.auto[seat])
            && self.engine.to_act().contains(&seat);
        match action.filter(|_| still_ours) {
            Some(a) => {
                let actor = if self.seats[seat].bot {
                    Actor::Bot
                } else {
                    Actor::Auto
                };
                if let Err(p) = self.commit(seat, actor, None, a, None).await {
                    // A bot's mistake must not stall the table (nor loop: the same player on
                    // the same state decides the same): the simplest legal play instead.
                    tracing::error!(seat, code = %p.code, "the engine refused a bot's action; playing the simplest legal action");
                    let view = self.engine.view(Viewer::Seat(seat));
                    if let Some(a) = bots::simplest::<G>(&view) {
                        let _ = self.commit(seat, actor, None, a, None).await;
                    }
                }
            }
            // Its own turn, nothing changed, and no action: asking again would only say the
            // same (the clock plays for the seat when its time runs out).
            None if fresh && still_ours => {
                tracing::error!(seat, "no legal action for a bot's seat");
            }
            None => {
                tracing::debug!(seat, "a bot's decision came too late; deciding again");
                self.schedule_bot();
            }
        }
    }
}

/// The connection an action came from, for its ack.
pub(super) struct Client<'a> {
    /// Who sent it (see [`REFEREE_KEY`]).
    key: String,
    id: u64,
    outlet: &'a Outlet,
}

pub(super) fn stale(decided: u64, now: u64) -> Problem {
    Refusal::Stale { decided, now }.into()
}
