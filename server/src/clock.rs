//! Clocks: how long the seat to act has, scaled for tests.
//!
//! The engine says how long a move may take (`Engine::move_limit`, given how long the game has
//! run: 够级 has no limit in its first 10 minutes). The table multiplies it by the clock scale
//! (1.0 in play; e.g. 0.01 in tests, so a 30 s move lasts 300 ms) and, when the deadline passes,
//! feeds the engine's timeout action as a logged action. Time is `tokio::time`, so unit tests
//! use `tokio::time::pause()` instead of sleeping.

use std::time::Duration;

use tokio::time::Instant;

/// Real time and game time, converted by one factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockScale(pub f64);

impl Default for ClockScale {
    fn default() -> Self {
        ClockScale(1.0)
    }
}

impl ClockScale {
    /// A game-time allowance as real time.
    pub fn to_real(self, game: Duration) -> Duration {
        game.mul_f64(self.0)
    }

    /// Real time elapsed as game time (what `move_limit` is asked with).
    pub fn to_game(self, real: Duration) -> Duration {
        if self.0 <= 0.0 {
            return Duration::MAX;
        }
        real.div_f64(self.0)
    }
}

/// The running clock of one move.
#[derive(Clone, Copy, Debug)]
pub struct MoveClock {
    /// When the move started.
    pub started: Instant,
    /// The real-time allowance.
    pub limit: Duration,
}

impl MoveClock {
    pub fn deadline(&self) -> Instant {
        self.started + self.limit
    }

    pub fn remaining(&self, now: Instant) -> Duration {
        self.deadline().saturating_duration_since(now)
    }

    /// The wire form.
    pub fn wire(&self, seats: Vec<usize>, now: Instant) -> protocol::Clock {
        protocol::Clock {
            seats,
            remaining_ms: self.remaining(now).as_millis() as u64,
            limit_ms: self.limit.as_millis() as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_converts_both_ways() {
        let s = ClockScale(0.01);
        assert_eq!(
            s.to_real(Duration::from_secs(30)),
            Duration::from_millis(300)
        );
        assert_eq!(
            s.to_game(Duration::from_millis(300)),
            Duration::from_secs(30)
        );
    }

    #[tokio::test(start_paused = true)]
    async fn remaining_counts_down_in_paused_time() {
        let c = MoveClock {
            started: Instant::now(),
            limit: Duration::from_secs(30),
        };
        tokio::time::advance(Duration::from_secs(20)).await;
        assert_eq!(c.remaining(Instant::now()), Duration::from_secs(10));
        tokio::time::advance(Duration::from_secs(20)).await;
        assert_eq!(c.remaining(Instant::now()), Duration::ZERO);
    }
}
