//! The servers of a run: one `paiju serve`, or several nodes on one PostgreSQL database; their
//! CPU, memory, threads and commits, read from `/proc` and their `/metrics`.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::proc::{cpu_seconds, rss_kib, start_child, thread_count};

/// A node's /metrics text; `None` when it does not answer (a killed node).
async fn scrape(addr: SocketAddr) -> Option<String> {
    match crate::http::request(addr, "GET", "/metrics", None).await {
        Ok((200, text)) => Some(text),
        _ => None,
    }
}

/// How often [`Nodes::watch_takeover`] reads the survivors' counters.
pub const TAKEOVER_POLL: Duration = Duration::from_millis(250);

/// The server's commit histogram (`paiju_store_commit_seconds` in /metrics): count, sum in
/// seconds, and the cumulative buckets as (upper bound, count). Zeros if it cannot be read.
#[derive(Clone, Debug, Default)]
pub struct Commits {
    pub count: u64,
    pub sum: f64,
    pub buckets: Vec<(f64, u64)>,
}

impl Commits {
    /// Reads it from a server's /metrics.
    pub async fn read(addr: SocketAddr) -> Commits {
        let Some(text) = scrape(addr).await else {
            return Commits::default();
        };
        let mut c = Commits::default();
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("paiju_store_commit_seconds_") else {
                continue;
            };
            let value = rest.rsplit(' ').next().unwrap_or("");
            if rest.starts_with("count") {
                c.count = value.parse().unwrap_or(0);
            } else if rest.starts_with("sum") {
                c.sum = value.parse().unwrap_or(0.0);
            } else if let Some(le) = rest.split("le=\"").nth(1) {
                let le = le.split('"').next().unwrap_or("");
                let le = if le == "+Inf" {
                    f64::INFINITY
                } else {
                    le.parse().unwrap_or(0.0)
                };
                c.buckets.push((le, value.parse().unwrap_or(0)));
            }
        }
        c
    }

    /// The commits since `before`: (count, mean, p50 bound, p99 bound).
    pub fn since(&self, before: &Commits) -> (u64, Duration, Duration, Duration) {
        let n = self.count.saturating_sub(before.count);
        let mean = if n == 0 {
            0.0
        } else {
            (self.sum - before.sum) / n as f64
        };
        let at = |p: f64| {
            let want = (n as f64 * p).ceil() as u64;
            self.buckets
                .iter()
                .map(|&(le, c)| {
                    let b = before.buckets.iter().find(|x| x.0 == le).map_or(0, |x| x.1);
                    (le, c.saturating_sub(b))
                })
                .find(|&(_, c)| c >= want.max(1))
                .map_or(0.0, |(le, _)| le)
        };
        let secs = |s: f64| Duration::from_secs_f64(if s.is_finite() { s.max(0.0) } else { 60.0 });
        (n, secs(mean), secs(at(0.5)), secs(at(0.99)))
    }
}

/// The servers of one run: one `paiju serve`, or several nodes on one PostgreSQL database. Table
/// `i` is created on node `i mod N` (which then serves it), and its bots connect there, so the
/// nodes share the tables evenly and no client is redirected. The commits, CPU and memory
/// reported are the nodes' sums.
pub struct Nodes {
    servers: Vec<(tokio::process::Child, SocketAddr)>,
    /// Each node's CPU seconds when it was killed ([`Nodes::kill`]); `None` while it lives.
    dead: Vec<Option<f64>>,
}

impl Nodes {
    /// Starts `n` servers on `db` (more than one needs a `postgres://` URL).
    /// `extra`: more flags for each `paiju serve` (e.g. a director's token).
    pub async fn start(
        exe: &Path,
        db: &std::ffi::OsStr,
        n: usize,
        within: Duration,
        extra: &[&str],
    ) -> Result<Nodes, String> {
        let url = db.to_string_lossy();
        if n > 1 && !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
            return Err(
                "--nodes above 1 needs --db postgres://…: the nodes share one database".into(),
            );
        }
        let mut servers = Vec::with_capacity(n);
        let mut args: Vec<&std::ffi::OsStr> = vec![
            "serve".as_ref(),
            "--listen".as_ref(),
            "127.0.0.1:0".as_ref(),
            "--db".as_ref(),
            db,
            "--max-connections".as_ref(),
            "1000000".as_ref(),
            "--max-tables".as_ref(),
            "1000000".as_ref(),
            // The load measures tables: no day's practice sets playing beside them.
            "--practice-daily".as_ref(),
            "off".as_ref(),
        ];
        args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
        for _ in 0..n {
            let server = start_child(exe, &args, "http://", within).await?;
            servers.push(server);
        }
        let dead = vec![None; servers.len()];
        Ok(Nodes { servers, dead })
    }

    /// Every node's address.
    pub fn addrs(&self) -> Vec<SocketAddr> {
        self.servers.iter().map(|(_, a)| *a).collect()
    }

    /// Kills node `i` with SIGKILL (a machine that died: nothing flushed, no lease given back)
    /// and waits for it; its CPU until then still counts.
    pub async fn kill(&mut self, i: usize) {
        let (child, _) = &mut self.servers[i];
        if let Some(pid) = child.id() {
            self.dead[i] = Some(cpu_seconds(&pid.to_string()));
        }
        let _ = child.start_kill();
        let _ = child.wait().await;
    }

    /// Each node's CPU seconds so far (a killed node's, at its death).
    pub fn cpu_each(&self) -> Vec<f64> {
        self.servers
            .iter()
            .zip(&self.dead)
            .map(|((c, _), dead)| match (c.id(), dead) {
                (_, Some(at_death)) => *at_death,
                (Some(pid), None) => cpu_seconds(&pid.to_string()),
                (None, None) => 0.0,
            })
            .collect()
    }

    /// The node that serves table `i`.
    pub fn addr(&self, i: usize) -> SocketAddr {
        self.servers[i % self.servers.len()].1
    }

    pub fn pids(&self) -> Vec<u32> {
        self.servers.iter().filter_map(|(c, _)| c.id()).collect()
    }

    /// The nodes' CPU seconds so far, summed (a killed node's until its death).
    pub fn cpu_seconds(&self) -> f64 {
        self.cpu_each().iter().sum()
    }

    pub fn rss_kib(&self) -> u64 {
        self.pids().iter().map(|&pid| rss_kib(pid)).sum()
    }

    /// Samples the nodes' summed memory and threads every 200 ms until [`PeakRss::stop`].
    pub fn sample_peak(&self) -> PeakRss {
        let peak = Arc::new(AtomicU64::new(0));
        let threads = Arc::new(AtomicU64::new(0));
        let pids = self.pids();
        let task = {
            let (peak, most) = (peak.clone(), threads.clone());
            tokio::spawn(async move {
                loop {
                    let rss = pids.iter().map(|&pid| rss_kib(pid)).sum();
                    peak.fetch_max(rss, Ordering::Relaxed);
                    let n = pids.iter().map(|&pid| thread_count(pid)).sum();
                    most.fetch_max(n, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            })
        };
        PeakRss {
            peak,
            threads,
            task,
        }
    }

    /// Tables the nodes at `addrs` have rebuilt from their logs so far
    /// (`paiju_table_rebuilds_total`, summed; a node that does not answer counts none).
    pub async fn rebuilt(addrs: &[SocketAddr]) -> u64 {
        let mut n = 0;
        for addr in addrs {
            if let Some(text) = scrape(*addr).await {
                n += text
                    .lines()
                    .find_map(|l| l.strip_prefix("paiju_table_rebuilds_total ")?.parse().ok())
                    .unwrap_or(0);
            }
        }
        n
    }

    /// After a node's death: how long until its `tables` were served again, as the survivors
    /// at `addrs` counted them (their rebuilds, read every `TAKEOVER_POLL` from `killed`),
    /// one time a table, until all are back or the task is dropped. What the players' own
    /// return adds to it (their reconnection backoff) is in the seats' times.
    pub async fn watch_takeover(
        addrs: Vec<SocketAddr>,
        tables: usize,
        killed: tokio::time::Instant,
        seen: Arc<std::sync::Mutex<Vec<Duration>>>,
    ) {
        let before = Nodes::rebuilt(&addrs).await;
        let mut tick = tokio::time::interval(TAKEOVER_POLL);
        loop {
            tick.tick().await;
            let back = Nodes::rebuilt(&addrs).await.saturating_sub(before) as usize;
            let mut times = seen.lock().expect("takeover times");
            let at = killed.elapsed();
            while times.len() < back.min(tables) {
                times.push(at);
            }
            if times.len() >= tables {
                return;
            }
        }
    }

    /// Decisions the nodes' own bots made at `level` so far (`paiju_bot_decision_seconds`,
    /// every game), summed.
    pub async fn bot_decisions(&self, level: &str) -> u64 {
        let mut n = 0;
        for (_, addr) in &self.servers {
            if let Some(text) = scrape(*addr).await {
                let label = format!("level=\"{level}\"");
                n += text
                    .lines()
                    .filter(|l| {
                        l.starts_with("paiju_bot_decision_seconds_count") && l.contains(&label)
                    })
                    .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
                    .sum::<u64>();
            }
        }
        n
    }

    /// Every node's commit histogram, summed (the nodes share the bucket bounds).
    pub async fn commits(&self) -> Commits {
        let mut sum = Commits::default();
        for (_, addr) in &self.servers {
            let c = Commits::read(*addr).await;
            sum.count += c.count;
            sum.sum += c.sum;
            for (le, n) in c.buckets {
                match sum.buckets.iter_mut().find(|b| b.0 == le) {
                    Some(b) => b.1 += n,
                    None => sum.buckets.push((le, n)),
                }
            }
        }
        sum
    }

    /// SIGTERM to every node, then waits (10 s at most each) for it to commit and exit.
    pub async fn stop(self) {
        for pid in self.pids() {
            let _ = tokio::process::Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status()
                .await;
        }
        for (mut child, _) in self.servers {
            let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
        }
    }
}

/// The highest memory (and thread count) [`Nodes::sample_peak`] saw.
pub struct PeakRss {
    peak: Arc<AtomicU64>,
    threads: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl PeakRss {
    /// The most threads seen so far.
    pub fn threads(&self) -> u64 {
        self.threads.load(Ordering::Relaxed)
    }

    /// Stops sampling; the peak in KiB.
    pub fn stop(self) -> u64 {
        self.task.abort();
        self.peak.load(Ordering::Relaxed)
    }
}
