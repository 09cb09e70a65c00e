//! Limits against abuse and accidents: frame size, message rate, outbound queue, silence,
//! connection and table caps, HTTP timeouts, and the per-address limits (open TCP connections,
//! refused tokens, tables created). Every limit has a clear error code or close code
//! (`protocol::codes`, `protocol::close`).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};
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
    /// Frames a connection's socket has not taken yet (its [`Line`](crate::line::Line)'s
    /// queue) before it counts as a slow reader (4008). A frame the socket takes at once, as
    /// it almost always does, never counts.
    pub out_queue: usize,
    /// The longest a silent connection goes unpinged: a live client's pong keeps it from the
    /// broom, and an unanswered one shows its seat away (`quiet_after`).
    pub ping_every: Duration,
    /// Silence (no frame at all) after which the broom closes a connection (4001).
    pub silent_after: Duration,
    /// How long a ping may go unanswered before the seat's connection counts as away
    /// (`connected: false`, 掉线) while it stays open: a line that dropped without a close shows
    /// within `ping_every + quiet_after` and a beat ([`Limits::upkeep_beat`]), not after the
    /// broom's 45 s. Browsers answer pings by themselves at once.
    pub quiet_after: Duration,
    /// Tables open at once.
    pub max_tables: usize,
    /// WebSocket connections at once.
    pub max_connections: usize,
    /// A WebSocket must say `hello` within this long, or it is closed with 4000: a socket that
    /// never joins a table must not keep a connection permit (answering pings is not enough).
    pub hello_within: Duration,
    /// HTTP/1: the request head must be complete this long after the connection starts waiting
    /// for it. The same timer runs between the requests of a kept-alive connection, so it is also
    /// the idle keep-alive timeout. Slowloris and silent sockets are closed after it.
    pub http_header_timeout: Duration,
    /// HTTP: the whole request body must arrive this long after the head (`408` `timeout`).
    pub http_body_timeout: Duration,
    /// Open TCP connections (HTTP and WebSocket) from one client address; the next is closed at
    /// once. IPv6 addresses count per /64, the block one host usually has.
    pub max_connections_per_ip: usize,
    /// Refused tokens (`bad_token`) one address may send at once before its `hello`s with a
    /// token are refused unchecked (close 4030): guessing the referee token stays hopeless.
    pub bad_token_burst: f64,
    /// Refused-token credits refilled per minute and address.
    pub bad_tokens_per_minute: f64,
    /// Tables one address may create at once (`429` `rate_limited` beyond).
    pub table_burst: f64,
    /// Table-creation credits refilled per minute and address.
    pub tables_per_minute: f64,
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
            quiet_after: Duration::from_secs(3),
            max_tables: 5_000,
            max_connections: 20_000,
            hello_within: Duration::from_secs(10),
            http_header_timeout: Duration::from_secs(10),
            http_body_timeout: Duration::from_secs(10),
            // A club playing from behind one NAT: each browser holds a WebSocket and a few
            // kept-alive HTTP connections.
            max_connections_per_ip: 128,
            bad_token_burst: 10.0,
            bad_tokens_per_minute: 10.0,
            table_burst: 20.0,
            tables_per_minute: 10.0,
        }
    }
}

impl Limits {
    /// The beat the connections' upkeep keeps: each connection's next upkeep (a ping, a seat
    /// shown quiet, the broom) is put off to the next beat of one clock shared by the whole
    /// server, so that the timers of thousands of connections fire together a few times a
    /// second instead of each at its own moment. Each firing alone was a runtime thread woken
    /// and put to sleep again, and so was each pong coming back: at 1,000 tables at a human
    /// pace the pings cost a quarter of the server's CPU an action (docs/performance.md,
    /// "Eighth round"). A thirtieth of the shortest upkeep interval (100 ms by default): ten
    /// wake-ups a second at most, whatever the connections, and bursts small enough not to
    /// hold up the play (a beat of 750 ms made bursts of 900 pings at 20,000 connections, and
    /// the round trip's p99 2 ms longer). A deadline moves by at most a beat.
    pub fn upkeep_beat(&self) -> Duration {
        let shortest = self.ping_every.min(self.quiet_after).min(self.silent_after);
        (shortest / 30).max(Duration::from_millis(1))
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

/// The address a per-address limit counts: IPv4 as is (IPv4-mapped IPv6 too); IPv6 by its /64,
/// since one host usually owns a whole /64 and could otherwise step around every limit.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// A token bucket per client address: `burst` credits, refilled at `per_minute`. Used for
/// refused tokens and for table creation.
///
/// A `std::sync::Mutex`: the critical sections are a map lookup and some arithmetic, never held
/// across an `.await`, so a blocking lock is cheaper than tokio's.
pub struct AddressBuckets {
    burst: f64,
    per_second: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

/// Addresses remembered before the full buckets are forgotten (a full bucket is the same as none).
const BUCKETS_KEPT: usize = 10_000;

impl AddressBuckets {
    pub fn new(burst: f64, per_minute: f64) -> AddressBuckets {
        AddressBuckets {
            burst,
            per_second: per_minute / 60.0,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// The address's credits now, refilled since it was last seen.
    fn refill(&self, entry: &mut (f64, Instant), now: Instant) -> f64 {
        let dt = now.saturating_duration_since(entry.1).as_secs_f64();
        entry.0 = (entry.0 + dt * self.per_second).min(self.burst);
        entry.1 = now;
        entry.0
    }

    /// Whether the address has a credit left (nothing is taken).
    pub fn allows(&self, ip: IpAddr, now: Instant) -> bool {
        let mut map = self.buckets.lock().expect("bucket lock");
        match map.get_mut(&client_key(ip)) {
            Some(entry) => self.refill(entry, now) >= 1.0,
            None => self.burst >= 1.0,
        }
    }

    /// Takes one credit; `false` (and nothing taken) when there is none.
    pub fn take(&self, ip: IpAddr, now: Instant) -> bool {
        self.charge(ip, now, false)
    }

    /// Takes one credit even when none is left (the bucket may go into debt, so an address that
    /// keeps failing stays throttled longer).
    pub fn charge_anyway(&self, ip: IpAddr, now: Instant) {
        self.charge(ip, now, true);
    }

    fn charge(&self, ip: IpAddr, now: Instant, anyway: bool) -> bool {
        let mut map = self.buckets.lock().expect("bucket lock");
        if map.len() >= BUCKETS_KEPT {
            let (burst, per_second) = (self.burst, self.per_second);
            map.retain(|_, (credits, last)| {
                *credits + now.saturating_duration_since(*last).as_secs_f64() * per_second < burst
            });
        }
        let entry = map.entry(client_key(ip)).or_insert((self.burst, now));
        let credits = self.refill(entry, now);
        if credits >= 1.0 {
            entry.0 -= 1.0;
            true
        } else {
            if anyway {
                // Debt is bounded: one burst's worth at most.
                entry.0 = (entry.0 - 1.0).max(-self.burst);
            }
            false
        }
    }
}

/// Open TCP connections per client address. [`AddressCount::enter`] hands out a guard that
/// counts one connection until it is dropped.
#[derive(Clone)]
pub struct AddressCount {
    max: usize,
    /// A `std::sync::Mutex`, as in [`AddressBuckets`]; also taken in `Drop`, which cannot await.
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl AddressCount {
    pub fn new(max: usize) -> AddressCount {
        AddressCount {
            max,
            open: Arc::default(),
        }
    }

    /// Counts one more connection from `ip`, or `None` when the address is at the cap.
    pub fn enter(&self, ip: IpAddr) -> Option<AddressSlot> {
        let key = client_key(ip);
        let mut open = self.open.lock().expect("count lock");
        let n = open.entry(key).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(AddressSlot {
            key,
            open: self.open.clone(),
        })
    }

    /// Connections open from `ip` now.
    pub fn open(&self, ip: IpAddr) -> usize {
        let open = self.open.lock().expect("count lock");
        open.get(&client_key(ip)).copied().unwrap_or(0)
    }
}

/// One counted connection; dropping it frees the slot.
pub struct AddressSlot {
    key: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self.open.lock().expect("count lock");
        if let Some(n) = open.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.key);
            }
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

    #[tokio::test(start_paused = true)]
    async fn address_buckets_refill_per_minute() {
        let b = AddressBuckets::new(2.0, 6.0);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        let now = Instant::now();
        assert!(b.take(a, now) && b.take(a, now));
        assert!(!b.take(a, now) && !b.allows(a, now));
        assert!(b.allows(other, now), "addresses are counted apart");
        // Six a minute: one credit every ten seconds.
        tokio::time::advance(Duration::from_secs(10)).await;
        assert!(b.take(a, Instant::now()));
        assert!(!b.allows(a, Instant::now()));
    }

    #[test]
    fn ipv6_counts_per_64_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(client_key(mapped), "192.0.2.7".parse::<IpAddr>().unwrap());
        let count = AddressCount::new(1);
        let slot = count.enter(a).expect("first");
        assert!(count.enter(b).is_none(), "same /64");
        drop(slot);
        assert!(count.enter(b).is_some());
    }
}
