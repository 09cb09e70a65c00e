//! 迟到 (lateness): the round's clock from its logged start, each pair's seating as logged, and
//! the forfeit of a pair more than ten minutes late (seed 000: 比赛一方迟到超过10分钟，判违规方该轮
//! 弃权): every board of its table without a played result gets A− for it and A+ for its
//! opponents (A− too if they were ruled late as well).

use super::state::{Adjusted, Duplicate, RoundClock};
use crate::competition::text::reason as reason_text;
use crate::competition::Error;
use crate::matchpoints::Artificial;
use crate::score::ArtificialScores;
use crate::seat::Direction;

/// How late a pair may sit down: more than 10 minutes forfeits the round.
pub const LATE_MS: u64 = 10 * 60 * 1000;

impl Duplicate {
    /// The round's clock, if its start was logged with a time.
    pub fn clock(&self, round: u32) -> Option<RoundClock> {
        self.clocks.get(&round).copied()
    }

    /// When a pair had both its seats filled at its table of the round.
    pub fn seated_at(&self, round: u32, direction: Direction, pair: u32) -> Option<u64> {
        self.seated
            .get(&(round, direction, pair))
            .filter(|(seats, _)| seats.len() >= 2)
            .map(|(_, at)| *at)
    }

    /// Whether this seat of the pair has sat down in the round.
    pub fn has_sat(&self, round: u32, direction: Direction, pair: u32, seat: usize) -> bool {
        self.seated
            .get(&(round, direction, pair))
            .is_some_and(|(seats, _)| seats.contains(&seat))
    }

    /// The director ruled this pair forfeit for this round.
    pub fn forfeited(&self, round: u32, direction: Direction, pair: u32) -> bool {
        self.forfeits.contains(&(round, direction, pair))
    }

    /// A player of a pair sat down (the first time this round at this seat).
    pub(super) fn seat(
        &mut self,
        round: u32,
        direction: Direction,
        pair: u32,
        seat: usize,
        at_ms: u64,
    ) -> Result<(), Error> {
        self.common.in_play(round)?;
        let p = self.known_pair(direction, pair)?;
        if !p.seats().contains(&seat) {
            return Err(Error::NotPairsSeat { seat });
        }
        let (seats, at) = self.seated.entry((round, direction, pair)).or_default();
        if !seats.contains(&seat) {
            seats.push(seat);
            *at = at_ms;
        }
        Ok(())
    }

    /// The director's ruling that a pair was more than ten minutes late, checked against the
    /// round's logged start and the pair's logged seating.
    pub(super) fn forfeit(
        &mut self,
        round: u32,
        direction: Direction,
        pair: u32,
        reason: &str,
        at_ms: u64,
    ) -> Result<(), Error> {
        self.common.in_play(round)?;
        let p = self.known_pair(direction, pair)?.clone();
        if p.bot {
            return Err(Error::ComputerOnTime);
        }
        let plan = self.table_of(round, &p).ok_or(Error::PairIdle)?.clone();
        if plan.ns.is_none() || plan.ew.is_none() {
            return Err(Error::SitOutNotLate);
        }
        let clock = self.clock(round).ok_or(Error::NoRoundClock)?;
        let late_from = clock.started_ms + LATE_MS;
        if at_ms <= late_from {
            return Err(Error::NotLateYet {
                minutes_left: (late_from - at_ms).div_ceil(60_000),
            });
        }
        if self
            .seated_at(round, direction, pair)
            .is_some_and(|sat| sat <= late_from)
        {
            return Err(Error::SeatedInTime { direction, pair });
        }
        if self.forfeited(round, direction, pair) {
            return Err(Error::Forfeited { direction, pair });
        }
        let reason = reason_text(reason)?;
        let other = match direction {
            Direction::NS => (Direction::EW, plan.ew),
            Direction::EW => (Direction::NS, plan.ns),
        };
        let other_late = other.1.is_some_and(|n| self.forfeited(round, other.0, n));
        let opponents = if other_late {
            Artificial::AverageMinus
        } else {
            Artificial::AveragePlus
        };
        let artificial = match direction {
            Direction::NS => ArtificialScores {
                ns: Some(Artificial::AverageMinus),
                ew: Some(opponents),
            },
            Direction::EW => ArtificialScores {
                ns: Some(opponents),
                ew: Some(Artificial::AverageMinus),
            },
        };
        for &board in &plan.boards {
            let play = self.plays.entry((round, plan.table, board)).or_default();
            if play.played.is_none() {
                play.adjusted = Some(Adjusted {
                    defenders: None,
                    artificial: Some(artificial),
                    reason: format!("迟到弃权 (late: forfeit)：{reason}"),
                });
            }
        }
        self.forfeits.push((round, direction, pair));
        Ok(())
    }
}
