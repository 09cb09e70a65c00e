//! The computer players of a table: one `bots` player per seat, shown every view that seat is
//! sent, in order, so it remembers the game as a person in that seat would.
//!
//! A computer seat plays at the table's level (`CreateTable::bot_level`, 普通 by default); a
//! person's seat keeps a 普通 player for 托管 (auto-play when the clock ran out while they were
//! away, or by choice). 托管 plays at 普通 whatever the table's level: it stands in for a person
//! for a few moves, and should play as a sound club player would, promptly, not think for a
//! second a move on their behalf (nor play at random at a 入门 table).
//!
//! Deciding happens off the actor, on tokio's blocking pool: the actor hands the seat's player
//! over with the view and goes on answering its connections; the decision comes back as a
//! [`Thought`] tagged with the seq it was decided at. If the table moved on meanwhile (a
//! ruling, the clock, a review), the decision is dropped and the seat decides again.
//!
//! 高手 thinks for [`THINK`] (one second), less when many players think at once: with `t`
//! thinkers (this one included) on `c` cores, `THINK × min(1, c / t)`, never under
//! [`THINK_FLOOR`]. So a busy server spends at most about its cores' worth of time on thinking
//! while every decision still comes within about a second.
//!
//! The randomness a bot uses (入门's pick, 高手's samples) comes from the table's seed and the
//! seq: the same table and step give the same seed. Replays and rebuilds never ask the bots
//! again: their decisions are logged actions like anyone's.

use std::sync::atomic::AtomicUsize;

use bots::{Budget, Level, SeatPlayer};
use sha2::{Digest, Sha256};

use super::*;

/// How long 高手 thinks on a quiet server.
pub const THINK: Duration = Duration::from_secs(1);
/// The least 高手 thinks however busy the server is.
pub const THINK_FLOOR: Duration = Duration::from_millis(100);

/// Decisions being made right now, by every table of this process (for the budget rule).
static THINKING: AtomicUsize = AtomicUsize::new(0);

/// A decision coming back to the actor.
pub(super) struct Thought<G: TableGame> {
    seat: usize,
    /// The table's seq when the view was taken: the decision is for that state only.
    seq: u64,
    /// The seat's player, handed back.
    player: Box<dyn SeatPlayer<G>>,
    action: Option<G::Action>,
    level: Level,
    took: Duration,
}

/// The table's computer players.
pub(super) struct Computers<G: TableGame> {
    /// The level of the computer seats.
    pub(super) level: Level,
    /// Per seat: its player, or `None` while it thinks off the actor.
    players: Vec<Option<Box<dyn SeatPlayer<G>>>>,
    /// Per seat: the views it was sent while it was thinking, fed in order when it returns.
    missed: Vec<Vec<G::View>>,
    /// The seat thinking now, and the seq it thinks at (one at a time: one seat acts).
    pub(super) thinking: Option<(usize, u64)>,
    /// Where decisions come back; the actor's loop listens on the other end.
    tx: mpsc::UnboundedSender<Thought<G>>,
    /// The table's seed, for the bots' seeds.
    seed: String,
}

impl<G: TableGame> Computers<G> {
    /// Players for every seat: `bots` (which seats are computers) at `level`, the others at
    /// 普通 for 托管. The receiver is the actor's.
    pub(super) fn new(
        level: Level,
        bots: &[bool],
        seed: String,
    ) -> (Computers<G>, mpsc::UnboundedReceiver<Thought<G>>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let players = bots
            .iter()
            .map(|&bot| Some(G::player(if bot { level } else { Level::Club })))
            .collect();
        let computers = Computers {
            level,
            players,
            missed: bots.iter().map(|_| Vec::new()).collect(),
            thinking: None,
            tx,
            seed,
        };
        (computers, rx)
    }

    /// Shows every seat's player the view its seat is sent now (after each stored action, and
    /// once before the first).
    pub(super) fn observe(&mut self, engine: &G) {
        let views = self.seat_views(engine);
        self.observe_owned(views);
    }

    /// Every seat's view of the table as it is now, built once for both the players and the
    /// broadcast (building a view is a good part of an action's cost).
    pub(super) fn seat_views(&self, engine: &G) -> Vec<G::View> {
        (0..self.players.len())
            .map(|seat| engine.view(Viewer::Seat(seat)))
            .collect()
    }

    /// [`Computers::observe`] with the views already built by [`Computers::seat_views`] (and
    /// serialised for the broadcast): handed over, so a player that keeps one needs no copy.
    pub(super) fn observe_owned(&mut self, views: Vec<G::View>) {
        for (seat, view) in views.into_iter().enumerate() {
            match &mut self.players[seat] {
                Some(p) => p.observe_owned(view),
                None => self.missed[seat].push(view),
            }
        }
    }

    /// Lets `seat` decide on `view` (taken at `seq`) off the actor. False if it is already
    /// thinking.
    pub(super) fn think(
        &mut self,
        seat: usize,
        seq: u64,
        view: G::View,
        auto: bool,
        think: Duration,
    ) -> bool {
        let Some(mut player) = self.players.get_mut(seat).and_then(Option::take) else {
            return false;
        };
        self.thinking = Some((seat, seq));
        let level = if auto { Level::Club } else { self.level };
        let seed = self.bot_seed(seq);
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let budget = budget(level, think);
            let start = std::time::Instant::now();
            // A bot that panics must not take its seat with it: the seat gets a fresh player
            // (its memory lost) and no action, and the clock plays for it in time.
            let action = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                player.act(&view, budget, seed)
            }))
            .unwrap_or_else(|_| {
                tracing::error!(
                    seat,
                    "a bot panicked while deciding; the seat gets a fresh one"
                );
                player = G::player(level);
                None
            });
            THINKING.fetch_sub(1, Ordering::Relaxed);
            let _ = tx.send(Thought {
                seat,
                seq,
                player,
                action,
                level,
                took: start.elapsed(),
            });
        });
        true
    }

    /// Takes a decision back: the player returns to its seat and catches up on what it
    /// missed. The seat; the action, if it is still for the table as it is (`seq`); whether
    /// it was decided on the table as it is.
    pub(super) fn back(&mut self, t: Thought<G>, seq: u64) -> (usize, Option<G::Action>, bool) {
        let Thought {
            seat,
            seq: at,
            mut player,
            action,
            ..
        } = t;
        for view in self.missed[seat].drain(..) {
            player.observe(&view);
        }
        self.players[seat] = Some(player);
        if self.thinking == Some((seat, at)) {
            self.thinking = None;
        }
        (seat, action.filter(|_| at == seq), at == seq)
    }

    /// 入门's pick and 高手's samples: from the table's seed and the step, so the same table
    /// and step give the same seed (and no bot learns anything of the deal from it).
    fn bot_seed(&self, seq: u64) -> u64 {
        let mut h = Sha256::new();
        h.update(b"paiju bot seed\0");
        h.update(self.seed.as_bytes());
        h.update(seq.to_le_bytes());
        let d = h.finalize();
        u64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
    }
}

impl<G: TableGame> Thought<G> {
    pub(super) fn level(&self) -> Level {
        self.level
    }
    pub(super) fn took(&self) -> Duration {
        self.took
    }
}

/// The budget of a decision about to start (counted among the thinkers until it ends);
/// `think` is 高手's time on a quiet server.
fn budget(level: Level, think: Duration) -> Budget {
    let thinkers = THINKING.fetch_add(1, Ordering::Relaxed) + 1;
    if level != Level::Expert {
        return Budget::DEFAULT;
    }
    Budget::Time(expert_time(think, thinkers, cores()))
}

/// `think` × min(1, cores / thinkers), at least [`THINK_FLOOR`] (or `think`, if shorter).
pub fn expert_time(think: Duration, thinkers: usize, cores: usize) -> Duration {
    let share = (cores.max(1) as f64 / thinkers.max(1) as f64).min(1.0);
    think.mul_f64(share).max(THINK_FLOOR.min(think))
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expert_thinks_a_second_alone_and_shares_the_cores_when_busy() {
        assert_eq!(expert_time(THINK, 1, 2), THINK);
        assert_eq!(expert_time(THINK, 2, 2), THINK);
        assert_eq!(expert_time(THINK, 4, 2), THINK / 2);
        assert_eq!(expert_time(THINK, 100, 2), THINK_FLOOR);
        assert_eq!(expert_time(THINK / 20, 100, 2), THINK / 20);
    }
}
