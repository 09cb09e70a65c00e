//! Seats and presence: joining, leaving, attaching connections, the public summary.

use super::*;
use protocol::{EventTableAsk, SeatFault};
use tournament::competition::{Ruling, TableReport};

/// What the table calls its bots: 「电脑·」 and the seat (「电脑·东」, 「电脑·A2」), so players
/// tell them apart. No person's name starts so ([`rules::name`]).
pub use rules::name::COMPUTER_PREFIX as BOT_NAME_PREFIX;

/// A computer's display name at `seat` of a table of `G`: the seat as players say it (the
/// table shows it, and the referee's replay names the computers the same way).
pub fn bot_name<G: TableGame>(seat: usize) -> String {
    match G::seat_zh(seat) {
        Some(label) => format!("{BOT_NAME_PREFIX}{label}"),
        None => format!("{BOT_NAME_PREFIX}{}", seat + 1),
    }
}

impl<G: TableGame> Table<G> {
    // --- seats and presence -------------------------------------------------------------------

    pub(super) async fn join(
        &mut self,
        seat: usize,
        name: String,
        token_hash: String,
    ) -> Result<(), Refusal> {
        if self.state == TableState::Closed {
            return Err(Refusal::TableClosed);
        }
        let Some(record) = self.seats.get(seat) else {
            return Err(Refusal::BadSeat(SeatFault::NoSuchSeat));
        };
        if record.bot || record.name.is_some() {
            return Err(Refusal::SeatTaken);
        }
        self.save_seat(seat, Some(name), Some(token_hash)).await?;
        self.auto[seat] = false;
        if self.state == TableState::Waiting && self.seats.iter().all(|s| s.bot || s.name.is_some())
        {
            self.state = TableState::Playing;
            self.started = Some(Instant::now());
            if let Err(e) = self
                .deps
                .journal
                .set_state(&self.id, TableState::Playing)
                .await
            {
                // The seat is stored: the rebuilt table finds every seat taken and plays.
                self.store_failed(&e);
            }
            self.restart_clock();
            // Everyone's view now has a running clock: send fresh snapshots, once the lobby
            // shows the table playing.
            self.publish();
            self.snapshot_all();
        }
        self.after_presence_change();
        Ok(())
    }

    pub(super) async fn leave(&mut self, token_hash: &str) -> Result<(), Refusal> {
        let Some(seat) = self.seat_of(token_hash) else {
            return Err(Refusal::BadToken);
        };
        self.save_seat(seat, None, None).await?;
        let (gone, staying) = std::mem::take(&mut self.subscribers)
            .into_iter()
            .partition(|s| s.who == Who::Seat(seat));
        self.subscribers = staying;
        // The lobby hears of it before the leaver's own connection closes, as everyone else
        // does: a page that reads the close and asks the lobby finds the seat free.
        self.after_presence_change();
        for s in gone {
            s.outlet.close_with(close::BAD_TOKEN, "left the seat");
        }
        Ok(())
    }

    /// Stores who sits in a (human) seat, then takes it as the table's: the store first, so a
    /// restart never forgets a seat a player was told they have.
    pub(super) async fn save_seat(
        &mut self,
        seat: usize,
        name: Option<String>,
        token_hash: Option<String>,
    ) -> Result<(), Refusal> {
        let record = SeatRecord {
            seat,
            name,
            token_hash,
            bot: false,
        };
        self.deps
            .journal
            .set_seat(&self.id, record.clone())
            .await
            .map_err(|e| store_problem(&e))?;
        self.seats[seat] = record;
        Ok(())
    }

    pub(super) fn seat_of(&self, token_hash: &str) -> Option<usize> {
        self.seats.iter().position(|s| {
            s.token_hash
                .as_deref()
                .is_some_and(|h| seat_token::same(h, token_hash))
        })
    }

    pub(super) fn attach(&mut self, arrival: Arrival) -> Result<Who, Refusal> {
        if self.state == TableState::Closed {
            return Err(Refusal::TableClosed);
        }
        let who = match &arrival.token {
            // An event's table: watching it would show a board others have still to play.
            None if self.sealed() => return Err(Refusal::CompetitionTable(EventTableAsk::Watch)),
            None => Who::Spectator,
            Some(t) => {
                let h = seat_token::hash(t);
                let referee = self.deps.settings.referee_hash.as_deref();
                if referee.is_some_and(|r| seat_token::same(r, &h)) {
                    Who::Referee
                } else if let Some(seat) = self.seat_of(&h) {
                    Who::Seat(seat)
                } else {
                    return Err(Refusal::BadToken);
                }
            }
        };
        if let Who::Seat(s) = who {
            // One device a seat at a competition's table.
            self.claim_seat(s, &arrival)?;
            // The player is back: the table stops playing for them.
            self.auto[s] = false;
        }
        // A practice player back (at their turn: their clock runs again, and the welcome shows
        // it; they count as present from here).
        if let Who::Seat(s) = who {
            self.back_from_away(Some(s));
        }
        let Arrival {
            outlet,
            last_seq,
            peer,
            device,
            ..
        } = arrival;
        let welcome = ClientOut::Welcome {
            protocol: protocol::PROTOCOL_VERSION,
            table: self.id.clone(),
            game: self.header.game.clone(),
            ruleset: self.header.ruleset.clone(),
            board: self.header.board,
            role: who.role(),
            seat: match who {
                Who::Seat(s) => Some(s),
                _ => None,
            },
            seats: self.seat_infos_with(Some(who)),
            state: self.state,
            seq: self.seq,
            seed_commitment: self.header.seed_commitment.clone(),
            deal_algorithm: self.header.deal_algorithm.clone(),
            bot_level: self.computers.level.name().to_string(),
            seed: (who == Who::Referee || self.seed_public()).then(|| self.header.seed.clone()),
            competition: self.at_competition(),
        };
        self.send(&outlet, to_text(&welcome));
        // The missed entries if they are still in memory and all fit in the connection's queue
        // now (with room for the review and seats messages that follow), else one snapshot: a catch-up
        // never overflows the queue, and the client never sees a gap in seq.
        let kept_from = self.seq - self.history.len() as u64;
        let room = outlet.line.room().saturating_sub(3) as u64;
        match last_seq {
            Some(n) if n == self.seq && n > 0 => {}
            Some(n) if n < self.seq && n >= kept_from && self.seq - n <= room => {
                self.deps.metrics.catch_up(false);
                for seq in n + 1..=self.seq {
                    let text = self.events_text(seq, who, seq == self.seq);
                    self.send(&outlet, text);
                }
            }
            _ => {
                if last_seq.is_some() {
                    self.deps.metrics.catch_up(true);
                }
                let text = self.snapshot_text(who);
                self.send(&outlet, text);
            }
        }
        // Under review: what the referee said, and the clock standing still.
        if self.review.is_some() {
            let text = self.review_text();
            self.send(&outlet, text);
        }
        if outlet.close.borrow().is_none() {
            self.subscribers.push(Subscriber {
                who,
                outlet,
                quiet: false,
                peer,
                device,
            });
        }
        self.after_presence_change();
        Ok(who)
    }

    /// Presence changed: publish the seats, update the idle broom and the bot schedule.
    pub(super) fn after_presence_change(&mut self) {
        self.practice_clock();
        self.idle_since = if self.subscribers.is_empty() && !self.kept_while_away() {
            Some(self.idle_since.unwrap_or_else(Instant::now))
        } else {
            None
        };
        // The summary first, as for an action: whoever hears of this change and then asks the
        // lobby must find it there (a CI run read a parted seat still connected).
        self.publish();
        let text = to_text(&ClientOut::Seats {
            seats: self.seat_infos(),
        });
        self.broadcast_same(&text);
        self.schedule_bot();
    }

    /// A connection holds the seat and its line is not quiet (see [`Subscriber::quiet`]).
    pub(super) fn connected(&self, seat: usize) -> bool {
        self.subscribers
            .iter()
            .any(|s| s.who == Who::Seat(seat) && !s.quiet)
    }

    /// A connection's line went quiet, or spoke again: its seat's presence may change.
    pub(super) fn set_quiet(&mut self, conn: u64, quiet: bool) {
        let Some(sub) = self.subscribers.iter_mut().find(|s| s.outlet.id == conn) else {
            return;
        };
        if sub.quiet != quiet {
            sub.quiet = quiet;
            self.after_presence_change();
        }
    }

    /// 托管 by choice (`auto`): the table plays for the seat, or stops. Only a seat's player
    /// may ask, for their own seat.
    pub(super) fn set_auto(&mut self, conn: u64, on: bool) {
        let Some(sub) = self.subscribers.iter().find(|s| s.outlet.id == conn) else {
            return;
        };
        let Who::Seat(seat) = sub.who else {
            let outlet = sub.outlet.clone();
            let text = to_text(&ClientOut::Error {
                problem: Refusal::Spectator { auto: true }.into(),
            });
            return self.send(&outlet, text);
        };
        if self.auto_refused(on) {
            let outlet = sub.outlet.clone();
            let text = to_text(&ClientOut::Error {
                problem: Refusal::NoAutoPlay.into(),
            });
            return self.send(&outlet, text);
        }
        if self.auto[seat] != on {
            self.auto[seat] = on;
            tracing::info!(seat, on, "托管 by choice");
            self.after_presence_change();
        }
    }

    pub(super) fn seat_infos(&self) -> Vec<SeatInfo> {
        self.seat_infos_with(None)
    }

    /// `extra`: a connection being attached right now (not yet among the subscribers).
    pub(super) fn seat_infos_with(&self, extra: Option<Who>) -> Vec<SeatInfo> {
        self.seats
            .iter()
            .map(|s| SeatInfo {
                seat: s.seat,
                name: if s.bot {
                    Some(bot_name::<G>(s.seat))
                } else {
                    s.name.clone()
                },
                bot: s.bot,
                connected: s.bot || self.connected(s.seat) || extra == Some(Who::Seat(s.seat)),
                auto: self.auto[s.seat],
            })
            .collect()
    }

    pub(super) fn publish(&self) {
        let result = self.engine.result();
        self.result.send_if_modified(|now| {
            if now.as_ref().map(|r| &r.result) == result.as_ref() {
                return false;
            }
            *now = result.map(|result| TableReport {
                result,
                ruling: self.last_ruling(),
                tally: self.tally(),
            });
            true
        });
        self.summary.send_replace(TableSummary {
            id: self.id.clone(),
            game: self.header.game.clone(),
            ruleset: self.header.ruleset.clone(),
            board: self.header.board,
            state: self.state,
            seats: self.seat_infos(),
            spectators: self
                .subscribers
                .iter()
                .filter(|s| s.who == Who::Spectator)
                .count(),
            seq: self.seq,
            seed_commitment: self.header.seed_commitment.clone(),
            deal_algorithm: self.header.deal_algorithm.clone(),
            bot_level: self.computers.level.name().to_string(),
            // The lobby hides it again while another open table deals from the same seed
            // ([`crate::lobby::Lobby::summary`]): that can change after this table ends.
            seed: (self.state == TableState::Over).then(|| self.header.seed.clone()),
            head_hash: (self.state == TableState::Over).then(|| self.prev_hash.clone()),
            node: None,
        });
    }

    /// The referee's ruling that made the last change, if the last entry was one: the board's
    /// result changed by it carries its entry and reason to the competition.
    pub(super) fn last_ruling(&self) -> Option<Ruling> {
        let last = self.history.back()?;
        (last.actor == Actor::Referee).then(|| Ruling {
            table_seq: self.seq,
            reason: last.reason.as_deref().unwrap_or_default().to_string(),
        })
    }

    /// After an action only the seq moves (and the 托管 flags, which the clock sets just
    /// before its move): updated in place rather than rebuilt, which cloned every name, id and
    /// hash of the summary once per action. The end of the game publishes in full.
    pub(super) fn publish_progress(&self) {
        if self.state != TableState::Playing {
            return self.publish();
        }
        self.summary.send_modify(|s| {
            s.seq = self.seq;
            s.state = self.state;
            for (info, &auto) in s.seats.iter_mut().zip(&self.auto) {
                info.auto = auto;
            }
        });
    }

    /// The seed may be shown once this table is over and no other open table deals from it
    /// (tables of one tournament share a seed and play other boards of it). The
    /// [`Lobby`](crate::lobby::Lobby) checks again when it lists tables, as other tables end
    /// later.
    pub(super) fn seed_public(&self) -> bool {
        self.state == TableState::Over
            && !self.sealed()
            && !seed_in_use(&self.deps.registry, &self.id, &self.header.seed_commitment)
    }

    /// Dealt from the seed of an event not yet revealed.
    pub(super) fn sealed(&self) -> bool {
        self.deps
            .settings
            .sealed_seeds
            .contains(&self.header.seed_commitment)
    }

    /// Closes the table for good: marked closed in the store and in the lobby, then every
    /// connection told (`why`), so that a page that reads the close and asks the lobby finds
    /// the table closed.
    pub(super) async fn close(&mut self, why: &str) {
        let told: Vec<Subscriber> = self.subscribers.drain(..).collect();
        self.state = TableState::Closed;
        if let Err(e) = self
            .deps
            .journal
            .set_state(&self.id, TableState::Closed)
            .await
        {
            // Not closed on disk: a restart reopens it, which loses nothing.
            tracing::warn!(error = %e, why, "table not marked closed in the store");
        }
        self.publish();
        for s in told {
            s.outlet.close_with(close::NORMAL, why);
        }
    }
}
