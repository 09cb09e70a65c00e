//! `paiju load --blocks S`: the play and its floors in turns of S seconds each, so that the
//! ratio of the server's CPU per action to the floors' compares figures taken in the same spells
//! of the machine.
//!
//! Measured after the play, the floors meet another machine than the play did: on a shared host
//! the CPU a unit of work takes moves by ±15 % from one minute to the next (another tenant's
//! caches, the host's steal), so one run's ratio moved as much with the same build
//! (docs/performance.md, "Twentieth round"). In blocks, the tables play for S seconds while the
//! floors wait; then the bots are held (they send nothing, [`crate::client::BotOptions::hold`])
//! and the fan-out floor, on as many connections as the play's, and the commit floor, at the
//! server's pace in the blocks of play so far, are measured alone for S seconds; and so on
//! until the play ends. Each side is summed over its own turns.

use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{oneshot, watch};

use super::floors::{commits_in_floor_turns, CommitTally, FloorGate, FloorSenders, Turn};
use super::nodes::Nodes;
use super::play::Played;
use super::proc::threads_cpu_seconds;
use crate::client::{unix_ms, Seen};

/// The counters read at the end of each turn: each turn's figures are the difference of two.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Reading {
    pub at_ms: u64,
    /// The server's CPU seconds (every node).
    pub server_cpu: f64,
    /// Actions acknowledged to the bots.
    pub acks: u64,
    /// The server's group commits.
    pub server_commits: u64,
    /// The fan-out floor's server's CPU seconds, and the frames its senders sent.
    pub echo_cpu: f64,
    pub echo_frames: u64,
    /// The frames the bots received, and their bytes.
    pub received: u64,
    pub received_bytes: u64,
    /// The commit floor's commits and their CPU, in nanoseconds.
    pub commits: u64,
    pub commit_cpu_ns: u64,
}

/// One turn of the tables: how long, the server's CPU, the actions and the group commits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayTurn {
    pub seconds: f64,
    pub server_cpu: f64,
    pub actions: u64,
    pub server_commits: u64,
    /// The frames the bots received, and their bytes: the fan-out floor's frames are their
    /// mean size.
    pub received: u64,
    pub received_bytes: u64,
}

/// One turn of the floors: the fan-out server's CPU and frames, the commit floor's, and the
/// server's own meanwhile (its upkeep, with every bot held: not counted in any action's).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FloorTurn {
    pub seconds: f64,
    pub server_cpu: f64,
    pub echo_cpu: f64,
    pub frames: u64,
    pub commit_cpu: f64,
    pub commits: u64,
}

/// A run's turns, in order: play, floors, play, …
#[derive(Clone, Debug, Default)]
pub struct Blocks {
    /// The length of a turn.
    pub turn: Duration,
    pub play: Vec<PlayTurn>,
    pub floors: Vec<FloorTurn>,
    /// The floors' turns as (from, to) in Unix ms, and the bots' actions sent inside one (more
    /// than a tenth of a second after it began): none, if the hold holds.
    pub floor_spans: Vec<(u64, u64)>,
    pub sent_in_floors: usize,
}

/// A part of the ratio: µs per action of the server, and of each floor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerAction {
    pub server_us: f64,
    pub fan_out_us: f64,
    /// One floor commit's CPU times the server's group commits per action.
    pub commit_us: f64,
}

impl PerAction {
    /// The server's CPU per action over the two floors'.
    pub fn ratio(&self) -> f64 {
        self.server_us / (self.fan_out_us + self.commit_us).max(1e-9)
    }

    /// From the sums of some turns of each side; `None` if one side measured nothing.
    fn of(play: &PlayTurn, floors: &FloorTurn) -> Option<PerAction> {
        if play.actions == 0 || floors.frames == 0 || floors.commits == 0 {
            return None;
        }
        let per_commit = floors.commit_cpu / floors.commits as f64;
        Some(PerAction {
            server_us: play.server_cpu * 1e6 / play.actions as f64,
            fan_out_us: floors.echo_cpu * 1e6 / floors.frames as f64,
            commit_us: per_commit * 1e6 * play.server_commits as f64 / play.actions as f64,
        })
    }
}

impl Blocks {
    /// The turns between consecutive readings, the first one the play's.
    pub(super) fn from_readings(turn: Duration, readings: &[Reading]) -> Blocks {
        let mut blocks = Blocks {
            turn,
            ..Blocks::default()
        };
        for (i, w) in readings.windows(2).enumerate() {
            let (a, b) = (&w[0], &w[1]);
            let seconds = b.at_ms.saturating_sub(a.at_ms) as f64 / 1000.0;
            if i % 2 == 0 {
                blocks.play.push(PlayTurn {
                    seconds,
                    server_cpu: b.server_cpu - a.server_cpu,
                    actions: b.acks.saturating_sub(a.acks),
                    server_commits: b.server_commits.saturating_sub(a.server_commits),
                    received: b.received.saturating_sub(a.received),
                    received_bytes: b.received_bytes.saturating_sub(a.received_bytes),
                });
            } else {
                blocks.floors.push(FloorTurn {
                    seconds,
                    server_cpu: b.server_cpu - a.server_cpu,
                    echo_cpu: b.echo_cpu - a.echo_cpu,
                    frames: b.echo_frames.saturating_sub(a.echo_frames),
                    commit_cpu: b.commit_cpu_ns.saturating_sub(a.commit_cpu_ns) as f64 / 1e9,
                    commits: b.commits.saturating_sub(a.commits),
                });
                blocks.floor_spans.push((a.at_ms, b.at_ms));
            }
        }
        blocks
    }

    /// Counts the actions sent (Unix ms) inside a floors' turn, past its first tenth of a
    /// second (a bot that had chosen its play as the turn began sends it then).
    pub(super) fn count_sent_in_floors(&mut self, sent_ms: impl Iterator<Item = u64>) {
        self.sent_in_floors = sent_ms
            .filter(|&t| {
                self.floor_spans
                    .iter()
                    .any(|&(from, to)| t > from + 100 && t < to)
            })
            .count();
    }

    /// Every turn of each side summed.
    pub fn whole(&self) -> Option<PerAction> {
        PerAction::of(&self.play_summed(), &self.floors_summed())
    }

    /// The mean size of the frames the bots received in the turns of play.
    pub fn frame_bytes(&self) -> usize {
        let play = self.play_summed();
        (play.received_bytes / play.received.max(1)) as usize
    }

    /// Every turn of play summed.
    pub fn play_summed(&self) -> PlayTurn {
        self.play.iter().fold(PlayTurn::default(), |s, t| PlayTurn {
            seconds: s.seconds + t.seconds,
            server_cpu: s.server_cpu + t.server_cpu,
            actions: s.actions + t.actions,
            server_commits: s.server_commits + t.server_commits,
            received: s.received + t.received,
            received_bytes: s.received_bytes + t.received_bytes,
        })
    }

    /// Every turn of the floors summed.
    pub fn floors_summed(&self) -> FloorTurn {
        self.floors
            .iter()
            .fold(FloorTurn::default(), |s, t| FloorTurn {
                seconds: s.seconds + t.seconds,
                server_cpu: s.server_cpu + t.server_cpu,
                echo_cpu: s.echo_cpu + t.echo_cpu,
                frames: s.frames + t.frames,
                commit_cpu: s.commit_cpu + t.commit_cpu,
                commits: s.commits + t.commits,
            })
    }

    /// Each turn of play with the floors' turn after it: how the ratio moved within the run.
    pub fn pairs(&self) -> Vec<PerAction> {
        self.play
            .iter()
            .zip(&self.floors)
            .filter_map(|(p, f)| PerAction::of(p, f))
            .collect()
    }
}

/// The run's side of the turns: who is told to hold, the floors' counters, and the readings.
pub(super) struct Turns {
    pub length: Duration,
    /// The bots' hold ([`crate::client::BotOptions::hold`]).
    pub hold: watch::Sender<bool>,
    turn: watch::Sender<Turn>,
    tally: Arc<CommitTally>,
    frames: Arc<AtomicU64>,
    frame_bytes: Arc<AtomicUsize>,
    echo_pid: Option<u32>,
    /// Told once the fan-out floor's connections are all open: the first turn starts then.
    pub connected: oneshot::Receiver<()>,
    connected_tx: Option<oneshot::Sender<()>>,
    pub waiting: bool,
    /// When the turn under way ends.
    pub next: Option<tokio::time::Instant>,
    readings: Vec<Reading>,
    commits: Option<tokio::task::JoinHandle<Result<(), String>>>,
}

impl Turns {
    pub fn new(length: Duration, echo_pid: Option<u32>) -> Turns {
        let (connected_tx, connected) = oneshot::channel();
        Turns {
            length,
            hold: watch::channel(false).0,
            turn: watch::channel(Turn::Play).0,
            tally: Arc::default(),
            frames: Arc::default(),
            frame_bytes: Arc::default(),
            echo_pid,
            connected,
            connected_tx: Some(connected_tx),
            waiting: false,
            next: None,
            readings: Vec::new(),
            commits: None,
        }
    }

    /// The fan-out floor's part: the turns start once its connections are open.
    pub fn gate(&mut self) -> FloorGate {
        self.waiting = true;
        FloorGate {
            senders: FloorSenders {
                turn: self.turn.subscribe(),
                sent: self.frames.clone(),
                frame_bytes: self.frame_bytes.clone(),
            },
            connected: self.connected_tx.take().expect("one fan-out floor a run"),
        }
    }

    /// The commit floor's part, in a file in `dir`.
    pub fn start_commits(&mut self, dir: &Path) {
        self.commits = Some(commits_in_floor_turns(
            dir.to_path_buf(),
            self.turn.subscribe(),
            self.tally.clone(),
        ));
    }

    /// Reads every counter (the end of a turn, or the start of the first).
    pub async fn read(&mut self, nodes: &Nodes, seen: &Seen) {
        let server_commits = nodes.commits().await.count;
        self.readings.push(Reading {
            at_ms: unix_ms(),
            server_cpu: nodes.cpu_seconds(),
            acks: seen.acks.load(Ordering::Relaxed),
            server_commits,
            echo_cpu: self.echo_pid.map(threads_cpu_seconds).unwrap_or(0.0),
            echo_frames: self.frames.load(Ordering::Relaxed),
            received: seen.frames.load(Ordering::Relaxed),
            received_bytes: seen.bytes.load(Ordering::Relaxed),
            commits: self.tally.commits.load(Ordering::Relaxed),
            commit_cpu_ns: self.tally.cpu_ns.load(Ordering::Relaxed),
        });
    }

    /// Ends the turn under way and starts the other side's. The commit floor takes the
    /// server's pace from the turns of play so far.
    pub async fn pass(&mut self, nodes: &Nodes, seen: &Seen) {
        self.read(nodes, seen).await;
        let to_floors = *self.turn.borrow() == Turn::Play;
        if let [.., a, b] = &self.readings[..] {
            let seconds = b.at_ms.saturating_sub(a.at_ms) as f64 / 1000.0;
            if to_floors {
                let actions = b.acks.saturating_sub(a.acks);
                eprintln!(
                    "turn of play: {seconds:.1} s, {actions} actions, server {:.0} µs an action",
                    (b.server_cpu - a.server_cpu) * 1e6 / actions.max(1) as f64
                );
            } else {
                let frames = b.echo_frames.saturating_sub(a.echo_frames);
                let commits = b.commits.saturating_sub(a.commits);
                eprintln!(
                    "turn of the floors: {seconds:.1} s, {frames} frames at {:.0} µs, {commits} commits at {:.0} µs",
                    (b.echo_cpu - a.echo_cpu) * 1e6 / frames.max(1) as f64,
                    b.commit_cpu_ns.saturating_sub(a.commit_cpu_ns) as f64 / 1e3 / commits.max(1) as f64
                );
            }
        }
        if to_floors {
            let so_far = Blocks::from_readings(self.length, &self.readings);
            let play = so_far.play_summed();
            let every_us = play.seconds * 1e6 / play.server_commits.max(1) as f64;
            self.tally
                .every_us
                .store(every_us.clamp(100.0, 1e6) as u64, Ordering::Relaxed);
            self.frame_bytes
                .store(so_far.frame_bytes(), Ordering::Relaxed);
        }
        let _ = self.hold.send(to_floors);
        let _ = self
            .turn
            .send(if to_floors { Turn::Floors } else { Turn::Play });
        self.next = self.next.map(|n| n + self.length);
    }

    /// The play is over: the last turn ends, the floors stop, and the turns are summed.
    pub async fn end(
        &mut self,
        nodes: &Nodes,
        seen: &Seen,
        played: &Played,
    ) -> Result<Blocks, String> {
        if !self.readings.is_empty() {
            self.read(nodes, seen).await;
        }
        let _ = self.turn.send(Turn::Over);
        let _ = self.hold.send(false);
        if let Some(commits) = self.commits.take() {
            commits.await.map_err(|e| e.to_string())??;
        }
        let mut blocks = Blocks::from_readings(self.length, &self.readings);
        blocks.count_sent_in_floors(played.round_trips.iter().map(|&(sent, _)| sent));
        Ok(blocks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(at_ms: u64, server_cpu: f64, acks: u64, echo: (f64, u64), commits: u64) -> Reading {
        Reading {
            at_ms,
            server_cpu,
            acks,
            server_commits: acks / 10,
            echo_cpu: echo.0,
            echo_frames: echo.1,
            received: acks * 3,
            received_bytes: acks * 3 * 500,
            commits,
            commit_cpu_ns: commits * 50_000,
        }
    }

    /// Turns alternate from the play's; each side's figures come only from its own turns, and
    /// the ratio is the server's µs an action over the fan-out floor's µs a frame plus a floor
    /// commit's CPU times the server's commits an action.
    #[test]
    fn each_side_is_summed_over_its_own_turns() {
        let r = [
            reading(0, 0.0, 0, (0.0, 0), 0),
            // Play: 1,000 actions for 0.3 s of the server's CPU (300 µs each), 100 commits.
            reading(10_000, 0.3, 1_000, (0.0, 0), 0),
            // Floors: 1,000 frames for 0.1 s of the echo's CPU, 200 commits of 50 µs.
            reading(20_000, 0.31, 1_000, (0.1, 1_000), 200),
            // Play: 500 actions for 0.2 s (400 µs each), 50 commits.
            reading(30_000, 0.51, 1_500, (0.1, 1_000), 200),
        ];
        let b = Blocks::from_readings(Duration::from_secs(10), &r);
        assert_eq!(b.play.len(), 2);
        assert_eq!(b.floors.len(), 1);
        assert_eq!(b.floor_spans, vec![(10_000, 20_000)]);
        // The server's 0.01 s in the floors' turn is its upkeep, in no action's figure.
        assert!((b.floors[0].server_cpu - 0.01).abs() < 1e-9, "{b:?}");
        let w = b.whole().unwrap();
        assert!((w.server_us - 0.5e6 / 1_500.0).abs() < 1e-6, "{w:?}");
        assert!((w.fan_out_us - 100.0).abs() < 1e-6, "{w:?}");
        assert!((w.commit_us - 5.0).abs() < 1e-6, "{w:?}");
        assert!((w.ratio() - (0.5e6 / 1_500.0) / 105.0).abs() < 1e-9);
        assert_eq!(b.frame_bytes(), 500);
        let pairs = b.pairs();
        assert_eq!(pairs.len(), 1);
        assert!((pairs[0].server_us - 300.0).abs() < 1e-6, "{pairs:?}");
    }

    /// A side that measured nothing gives no ratio rather than a division by zero.
    #[test]
    fn no_ratio_without_both_sides() {
        let r = [
            reading(0, 0.0, 0, (0.0, 0), 0),
            reading(10_000, 0.3, 1_000, (0.0, 0), 0),
        ];
        assert_eq!(
            Blocks::from_readings(Duration::from_secs(10), &r).whole(),
            None
        );
    }

    /// Actions sent inside a floors' turn are counted, past its first tenth of a second.
    #[test]
    fn actions_sent_while_held_are_counted() {
        let mut b = Blocks {
            floor_spans: vec![(1_000, 2_000), (3_000, 4_000)],
            ..Blocks::default()
        };
        b.count_sent_in_floors([500, 1_050, 1_500, 2_500, 3_999, 4_000].into_iter());
        assert_eq!(b.sent_in_floors, 2);
    }
}
