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
            let _ = s.outlet.tx.try_send(moved.clone());
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
