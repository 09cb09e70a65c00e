//! What an operator measures: `GET /metrics` in the Prometheus text format (OpenMetrics), with
//! the `prometheus-client` crate. One [`Metrics`] per server (tests run several servers in one
//! process, so nothing here is global).
//!
//! Counters and histograms are updated where things happen (the table actor, the journal, the
//! connections); the gauges of open tables and connections are read from the registry and the
//! connection cap when scraped.

use std::borrow::Cow;
use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

/// A label pair (`game`, `state`, `code`, …). The names and most values are `'static`: an
/// action's counters are found without allocating (their labels were 8 allocations an action).
type Label = (&'static str, Cow<'static, str>);

/// A family's labels, `N` pairs.
type Labels<const N: usize> = [Label; N];

/// Seconds from 0.1 ms to about 13 s, doubling.
fn latency() -> Histogram {
    Histogram::new(exponential_buckets(0.000_1, 2.0, 18))
}

/// Every metric paiju exports.
pub struct Metrics {
    registry: Registry,
    /// Open tables by game and state (set when scraped).
    tables: Family<Labels<2>, Gauge>,
    /// Open WebSocket connections (set when scraped).
    connections: Gauge,
    /// Accepted actions by game and actor (`player`, `bot`, `clock`, `auto`, `referee`).
    actions: Family<Labels<2>, Counter>,
    /// Refused actions by code (`must_follow_suit`, `stale`, `referee_only`, …).
    refusals: Family<Labels<1>, Counter>,
    /// From an `act` reaching its table to its events queued for every watcher (stored and
    /// broadcast), by game.
    round_trip: Family<Labels<1>, Histogram, fn() -> Histogram>,
    /// One journal transaction (group commit), from its first write to its commit.
    commit: Histogram,
    /// Failed store writes.
    store_failures: Counter,
    /// Tables rebuilt from their log while running (after a failed write or a panic).
    rebuilds: Counter,
    /// Past one machine: takeover rounds, each one lease statement and one read of the logs
    /// for up to 50 tables (their tables are counted in `rebuilds`).
    takeovers: Counter,
    /// Reconnections caught up with the missed events, and those sent a snapshot instead.
    catch_ups: Counter,
    snapshots: Counter,
    /// A bot's (or 托管's) time to choose, by game and level (off the table's actor).
    bot_decision: Family<Labels<2>, Histogram, fn() -> Histogram>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut m = Metrics {
            registry: Registry::with_prefix("paiju"),
            tables: Family::default(),
            connections: Gauge::default(),
            actions: Family::default(),
            refusals: Family::default(),
            round_trip: Family::new_with_constructor(latency),
            commit: latency(),
            store_failures: Counter::default(),
            rebuilds: Counter::default(),
            takeovers: Counter::default(),
            catch_ups: Counter::default(),
            snapshots: Counter::default(),
            bot_decision: Family::new_with_constructor(latency),
        };
        let r = &mut m.registry;
        r.register("tables", "Open tables by game and state", m.tables.clone());
        r.register(
            "connections",
            "Open WebSocket connections",
            m.connections.clone(),
        );
        r.register(
            "actions",
            "Accepted actions by game and actor",
            m.actions.clone(),
        );
        r.register("refusals", "Refused actions by code", m.refusals.clone());
        r.register(
            "action_round_trip_seconds",
            "From an act reaching its table to its events queued for every watcher",
            m.round_trip.clone(),
        );
        r.register(
            "store_commit_seconds",
            "One journal transaction (group commit)",
            m.commit.clone(),
        );
        r.register(
            "store_failures",
            "Failed store writes",
            m.store_failures.clone(),
        );
        r.register(
            "table_rebuilds",
            "Tables rebuilt from their log while running",
            m.rebuilds.clone(),
        );
        r.register(
            "table_takeovers",
            "Takeover rounds of tables another node served (one lease statement, one read of their logs)",
            m.takeovers.clone(),
        );
        r.register(
            "catch_ups",
            "Reconnections caught up with missed events",
            m.catch_ups.clone(),
        );
        r.register(
            "snapshots",
            "Reconnections sent a snapshot",
            m.snapshots.clone(),
        );
        r.register(
            "bot_decision_seconds",
            "A bot's time to choose an action",
            m.bot_decision.clone(),
        );
        m
    }

    pub fn action(&self, game: &'static str, actor: &'static str) {
        self.actions
            .get_or_create(&[("game", game.into()), ("actor", actor.into())])
            .inc();
    }

    pub fn refusal(&self, code: &str) {
        self.refusals
            .get_or_create(&[("code", code.to_string().into())])
            .inc();
    }

    pub fn round_trip(&self, game: &'static str, took: Duration) {
        self.round_trip
            .get_or_create(&[("game", game.into())])
            .observe(took.as_secs_f64());
    }

    pub fn commit(&self, took: Duration) {
        self.commit.observe(took.as_secs_f64());
    }

    pub fn store_failure(&self) {
        self.store_failures.inc();
    }

    pub fn rebuild(&self) {
        self.rebuilds.inc();
    }

    pub fn takeover(&self) {
        self.takeovers.inc();
    }

    pub fn catch_up(&self, snapshot: bool) {
        if snapshot {
            self.snapshots.inc();
        } else {
            self.catch_ups.inc();
        }
    }

    pub fn bot_decision(&self, game: &'static str, level: &'static str, took: Duration) {
        self.bot_decision
            .get_or_create(&[("game", game.into()), ("level", level.into())])
            .observe(took.as_secs_f64());
    }

    /// The text a scrape gets, with the gauges set from what is open now.
    pub fn render(
        &self,
        tables: impl IntoIterator<Item = (String, String)>,
        connections: usize,
    ) -> String {
        self.tables.clear();
        for (game, state) in tables {
            self.tables
                .get_or_create(&[("game", game.into()), ("state", state.into())])
                .inc();
        }
        self.connections.set(connections as i64);
        let mut out = String::new();
        encode(&mut out, &self.registry).expect("writing to a String");
        out
    }
}

/// The content type of [`Metrics::render`]'s text.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_what_happened() {
        let m = Metrics::new();
        m.action("shengji", "player");
        m.action("shengji", "player");
        m.refusal("stale");
        m.round_trip("gouji", Duration::from_millis(3));
        let text = m.render([("shengji".into(), "playing".into())], 4);
        assert!(
            text.contains(r#"paiju_actions_total{game="shengji",actor="player"} 2"#),
            "{text}"
        );
        assert!(text.contains(r#"paiju_refusals_total{code="stale"} 1"#));
        assert!(text.contains(r#"paiju_tables{game="shengji",state="playing"} 1"#));
        assert!(text.contains("paiju_connections 4"));
        assert!(text.contains(r#"paiju_action_round_trip_seconds_count{game="gouji"} 1"#));
        assert!(text.ends_with("# EOF\n"));
    }
}
