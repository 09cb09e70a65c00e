//! 审查 (under review): the referee stops a table's clocks while they look into something.
//!
//! Marking a table under review stops the move clock and remembers what was left of it; bots
//! and 托管 wait, and players' acts are refused (`under_review`), while a referee may still rule.
//! Taking it off starts the clock again with what was left (a whole allowance if a ruling moved
//! the game meanwhile) and moves the game's own time (够级's free first minutes) on by the time
//! spent under review. Every connection is told (`ClientOut::Review`), and one that attaches
//! during a review is told after its catch-up. A review is not an action of the game: it is not
//! logged, and a restarted server starts without it (the pending move then gets its whole
//! allowance again, as after any restart).

use super::*;
use crate::clock::MoveClock;
use protocol::ReasonFault;

impl<G: TableGame> Table<G> {
    /// `review` from a connection: only the referee may; `on` needs a reason.
    pub(super) fn review(&mut self, conn: u64, on: bool, reason: Option<String>) {
        let Some(sub) = self.subscribers.iter().find(|s| s.outlet.id == conn) else {
            return;
        };
        let (who, outlet) = (sub.who, sub.outlet.clone());
        let refuse = |problem: Problem| to_text(&ClientOut::Error { problem });
        if who != Who::Referee {
            let text = refuse(Refusal::RefereeOnly.into());
            return self.send(&outlet, text);
        }
        let now = Instant::now();
        if on {
            let reason = reason.as_deref().map(str::trim).unwrap_or("").to_string();
            if reason.is_empty() || reason.chars().count() > MAX_REASON {
                let text =
                    refuse(Refusal::Reason(ReasonFault::ReviewWithout { max: MAX_REASON }).into());
                return self.send(&outlet, text);
            }
            match &mut self.review {
                // Already under review: only the words change.
                Some(r) => r.reason = reason,
                None => {
                    let stopped = self.clock.take().map(|c| Stopped {
                        seq: self.seq,
                        left: c.remaining(now),
                        limit: c.limit,
                    });
                    self.bot_at = None;
                    self.review = Some(UnderReview {
                        reason,
                        since: now,
                        stopped,
                    });
                }
            }
            tracing::info!(
                reason = self.review.as_ref().map(|r| r.reason.as_str()),
                "under review"
            );
        } else if let Some(r) = self.review.take() {
            if let Some(started) = &mut self.started {
                *started += now - r.since;
            }
            self.restart_clock();
            // The same move as before: it goes on with what was left of its clock.
            if let Some(s) = r.stopped.filter(|s| s.seq == self.seq) {
                if self.clock.is_some() {
                    let used = s.limit.saturating_sub(s.left);
                    self.clock = Some(match now.checked_sub(used) {
                        Some(started) => MoveClock {
                            started,
                            limit: s.limit,
                        },
                        None => MoveClock {
                            started: now,
                            limit: s.left,
                        },
                    });
                }
            }
            self.schedule_bot();
            tracing::info!("review over");
        }
        let text = self.review_text();
        self.broadcast_same(&text);
    }

    /// What everyone is told of the review now (on, with the stopped clock; or off, with the
    /// running one).
    pub(super) fn review_text(&self) -> String {
        let now = Instant::now();
        let to_act = self.engine.to_act();
        to_text(&match &self.review {
            Some(r) => ClientOut::Review {
                on: true,
                reason: Some(r.reason.clone()),
                clock: r.stopped.map(|s| protocol::Clock {
                    seats: to_act,
                    remaining_ms: s.left.as_millis() as u64,
                    limit_ms: s.limit.as_millis() as u64,
                }),
            },
            None => ClientOut::Review {
                on: false,
                reason: None,
                clock: self.clock.map(|c| c.wire(to_act, now)),
            },
        })
    }
}
