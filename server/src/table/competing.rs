//! A competition's table (its deal carries [`SeatTerms`], issue 24): one device a seat, 托管
//! only where the competition allows it and then counted, an absent player's clock running as
//! a present one's (no 托管 takes over the timeouts), and every connection on a seat told to
//! the competition ([`SeatVisit`]), which logs it for the director.
//!
//! A casual table has none of this: a player may keep the table open on a phone and a tablet,
//! and 托管 plays for whoever steps away.

use tournament::competition::conduct::{SecondDevice, VisitKind};
use tournament::competition::Tally;

use super::*;

impl<G: TableGame> Table<G> {
    /// Where the table stands in its competition, for the welcome.
    pub(super) fn at_competition(&self) -> Option<protocol::AtCompetition> {
        let t = &self.competing.as_ref()?.terms;
        Some(protocol::AtCompetition {
            id: t.competition.clone(),
            round: t.round,
            table: t.table,
            auto_play: t.auto_play,
            one_device_refuses: t.second_device == SecondDevice::Refuse,
            practice: t.practice,
        })
    }

    /// A player arriving on their seat of a competition's table: the seat's older connections
    /// are closed and told why (`seat_moved`), or, if the competition refuses a second device,
    /// this one is refused while an older one on another device is live. The same device
    /// coming back (a dropped line not yet noticed) always takes its seat again. Told to the
    /// competition either way. Nothing to do at a casual table.
    pub(super) fn claim_seat(&mut self, seat: usize, arrival: &Arrival) -> Result<(), Refusal> {
        let Some(c) = &self.competing else {
            return Ok(());
        };
        let older = |s: &Subscriber| s.who == Who::Seat(seat);
        let elsewhere_live = self.subscribers.iter().any(|s| {
            older(s) && !s.quiet && (arrival.device.is_none() || s.device != arrival.device)
        });
        let visit = |what| SeatVisit {
            seat,
            at_ms: store::now_ms(),
            what,
            peer: arrival.peer,
            device: arrival.device.clone(),
        };
        if elsewhere_live && c.terms.second_device == SecondDevice::Refuse {
            c.told(visit(VisitKind::Refused));
            tracing::info!(seat, "a second device refused on a competition's seat");
            return Err(Refusal::SeatInUse);
        }
        let mut replaced = false;
        let moved = to_text(&ClientOut::Error {
            problem: Refusal::SeatMoved.into(),
        });
        self.subscribers.retain(|s| {
            if !older(s) {
                return true;
            }
            // Best effort: a full queue is a reader that would not have read it anyway.
            let _ = s.outlet.line.send(moved.clone());
            s.outlet
                .close_with(protocol::close::SEAT_MOVED, "the seat was opened elsewhere");
            replaced = true;
            false
        });
        if replaced {
            tracing::info!(
                seat,
                "a competition's seat taken over by a newer connection"
            );
        }
        c.told(visit(if replaced {
            VisitKind::Replaced
        } else {
            VisitKind::Opened
        }));
        Ok(())
    }

    /// A seat's connection ended: told to the competition.
    pub(super) fn left_seat(&self, sub: &Subscriber) {
        let (Some(c), Who::Seat(seat)) = (&self.competing, sub.who) else {
            return;
        };
        c.told(SeatVisit {
            seat,
            at_ms: store::now_ms(),
            what: VisitKind::Closed,
            peer: sub.peer,
            device: sub.device.clone(),
        });
    }

    /// 托管 by choice is the player's at a casual table; at a competition's only if the
    /// director allowed it for the competition.
    pub(super) fn auto_refused(&self, on: bool) -> bool {
        on && self.competing.as_ref().is_some_and(|c| !c.terms.auto_play)
    }

    /// The clock ran out for an absent player: a casual table plays for them (托管) until they
    /// are back; a competition's runs the clock on, warnings and penalties as for anyone.
    pub(super) fn plays_for_the_absent(&self) -> bool {
        self.competing.is_none()
    }

    /// A move 托管 made for a person's seat: counted beside the board's result.
    pub(super) fn count_auto(&mut self, seat: usize) {
        if let Some(c) = &mut self.competing {
            if let Some(n) = c.auto_moves.get_mut(seat) {
                *n += 1;
            }
        }
    }

    fn is_practice(&self) -> bool {
        self.competing.as_ref().is_some_and(|c| c.terms.practice)
    }

    /// A practice table's (issue 26): the seat to act is a person's who is away. Their clock
    /// does not run then; it starts again, whole, when they are back.
    pub(super) fn waits_for_the_away(&self) -> bool {
        self.is_practice()
            && self
                .engine
                .to_act()
                .iter()
                .any(|&s| !self.seats[s].bot && !self.connected(s))
    }

    /// A practice table is never closed idle before its board is over: the player may stop
    /// and come back another day, and the set waits for them (it closes its tables itself).
    pub(super) fn kept_while_away(&self) -> bool {
        self.is_practice() && self.state != TableState::Over
    }

    /// A practice set's reference run (computers in every seat): nobody follows the cards, so
    /// the computers play without the pause people need.
    pub(super) fn plays_unwatched(&self) -> bool {
        self.is_practice() && self.seats.iter().all(|s| s.bot)
    }

    /// A practice table's player is back (`arriving`: this seat is arriving now, not counted
    /// present yet): the game's own time moves on by the time they were away, and at their
    /// turn their clock runs again.
    pub(super) fn back_from_away(&mut self, arriving: Option<usize>) {
        let Some(c) = self.competing.as_mut().filter(|c| c.terms.practice) else {
            return;
        };
        if let Some(since) = c.away_since.take() {
            if let Some(started) = &mut self.started {
                *started += Instant::now() - since;
            }
        }
        if let Some(seat) = arriving {
            if self.clock.is_none() {
                self.restart_clock_for_arrival(seat);
            }
        }
    }

    /// Presence changed at a practice table: a player who left stops their clock (and the
    /// game's time); one who is back gets them again.
    pub(super) fn practice_clock(&mut self) {
        if !self.is_practice() {
            return;
        }
        let present = (0..self.seats.len()).any(|s| !self.seats[s].bot && self.connected(s));
        if present {
            self.back_from_away(None);
        } else if let Some(c) = self.competing.as_mut() {
            c.away_since.get_or_insert_with(Instant::now);
        }
        if self.waits_for_the_away() {
            if self.clock.take().is_some() {
                tracing::info!("the player is away: their clock stands still");
            }
        } else if self.clock.is_none() {
            self.restart_clock();
        }
    }

    /// The seats' conduct on the board, for its report.
    pub(super) fn tally(&self) -> Tally {
        let auto_moves = self
            .competing
            .as_ref()
            .map(|c| c.auto_moves.clone())
            .unwrap_or_default();
        super::replay::tally(&self.engine, auto_moves)
    }
}
