//! Limits against abuse and accidents: frame size, message rate, outbound queue, silence,
//! connection and table caps. Every limit has a clear error code or close code
//! (`protocol::codes`, `protocol::close`).

use std::time::Duration;

use tokio::time::Instant;

/// The knobs, with the defaults of docs/protocol.md.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest frame read (bytes); larger closes with 1009.
    pub max_frame: usize,
    /// Messages a connection may send at once.
    pub burst: f64,
    /// Credits refilled per second.
    pub per_second: f64,
    /// Debt (messages over the limit) at which a connection is closed with 4029.
    pub flood_debt: f64,
    /// Outbound messages queued per connection before it counts as a slow reader (4008).
    pub out_queue: usize,
    /// How often the server pings.
    pub ping_every: Duration,
    /// Silence (no frame at all) after which the broom closes a connection (4001).
    pub silent_after: Duration,
    /// Tables open at once.
    pub max_tables: usize,
    /// WebSocket connections at once.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_frame: protocol::MAX_FRAME_BYTES,
            burst: 20.0,
            per_second: 10.0,
            flood_debt: 40.0,
            out_queue: 64,
            ping_every: Duration::from_secs(15),
            silent_after: Duration::from_secs(45),
            max_tables: 5_000,
            max_connections: 20_000,
        }
    }
}

/// What the rate limiter says about one message.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    /// Over the limit: drop this message with `rate_limited`.
    Drop,
    /// Far over: close the connection with 4029.
    Flood,
}

/// A token bucket per connection: `burst` credits, refilled at `per_second`; each message costs
/// one. Below zero messages are dropped; at `-flood_debt` the connection is closed.
#[derive(Debug)]
pub struct RateLimit {
    credits: f64,
    last: Instant,
    burst: f64,
    per_second: f64,
    flood_debt: f64,
}

impl RateLimit {
    pub fn new(limits: &Limits) -> RateLimit {
        RateLimit {
            credits: limits.burst,
            last: Instant::now(),
            burst: limits.burst,
            per_second: limits.per_second,
            flood_debt: limits.flood_debt,
        }
    }

    pub fn check(&mut self, now: Instant) -> Verdict {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.credits = (self.credits + dt * self.per_second).min(self.burst);
        self.credits -= 1.0;
        if self.credits >= 0.0 {
            Verdict::Allow
        } else if self.credits <= -self.flood_debt {
            Verdict::Flood
        } else {
            Verdict::Drop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn burst_then_drop_then_flood_and_refill() {
        let limits = Limits::default();
        let mut r = RateLimit::new(&limits);
        let now = Instant::now();
        for _ in 0..20 {
            assert_eq!(r.check(now), Verdict::Allow);
        }
        assert_eq!(r.check(now), Verdict::Drop);
        // One second refills ten credits, but the debt of one comes first.
        tokio::time::advance(Duration::from_secs(1)).await;
        let now = Instant::now();
        for _ in 0..9 {
            assert_eq!(r.check(now), Verdict::Allow);
        }
        let verdicts: Vec<_> = (0..45).map(|_| r.check(now)).collect();
        assert_eq!(verdicts[0], Verdict::Drop);
        assert_eq!(verdicts.last(), Some(&Verdict::Flood));
    }
}
