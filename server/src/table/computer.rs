//! The computer players of a table: one `bots` player per seat, shown every view that seat is
//! sent, in order, so it remembers the game as a person in that seat would.
//!
//! A computer seat plays at the table's level (`CreateTable::bot_level`, 普通 by default); a
//! person's seat keeps a 普通 player for 托管 (auto-play when the clock ran out while they were
//! away, or by choice). 托管 plays at 普通 whatever the table's level: it stands in for a person
//! for a few moves, and should play as a sound club player would, promptly, not think for a
//! second a move on their behalf (nor play at random at a 入门 table).
//!
//! A person's seat gets its 托管 player only when it first needs one (the clock ran out while
//! they were away, or they asked for 托管): most never do, and a player's notes grow with the
//! game (every trick, every step), four or six a table. It is then made from the table's log,
//! shown the seat's view after each stored action as if it had been there all along, exactly as
//! a table rebuilt from its log makes its players: the same views in the same order, so the
//! same notes and the same decisions. Making it (reading the log, replaying the game) happens
//! off the actor like the decision itself.
//!
//! Deciding happens off the actor, in the process's one pool of thinkers
//! ([`super::thinkers`]: 高手's searches on one thread fewer than the cores at the lowest
//! priority, the quick decisions on a thread of their own): the actor hands the seat's player over with the
//! view and goes on answering its connections; the decision comes back as a [`Thought`] tagged
//! with the seq it was decided at. If the table moved on meanwhile (a ruling, the clock, a
//! review), the decision is dropped and the seat decides again.
//!
//! 高手 thinks for [`THINK`] (one second), less when many players think at once: with `d`
//! searches asked (this one included) on `s` searchers when it starts, `THINK × min(1, s / d)`
//! less the time it waited for a searcher, never under [`THINK_FLOOR`]. So a busy server spends
//! at most its searchers' time on thinking while every decision still comes within about a
//! second as long as there are no more searches than searchers.
//!
//! The randomness a bot uses (入门's pick, 高手's samples) comes from the table's seed and the
//! seq: the same table and step give the same seed. Replays and rebuilds never ask the bots
//! again: their decisions are logged actions like anyone's.

use bots::{Budget, Level, SeatPlayer};

use super::thinkers::{Lane, Thinkers, Turn};
use sha2::{Digest, Sha256};

use super::*;

/// How long 高手 thinks on a quiet server.
pub const THINK: Duration = Duration::from_secs(1);
/// The least 高手 thinks however busy the server is.
pub const THINK_FLOOR: Duration = Duration::from_millis(100);

/// A decision coming back to the actor. Boxed: the channel's first block holds 32 of them from
/// the start, for the table's whole life.
pub(super) struct Thought<G: TableGame>(Box<Decided<G>>);

/// What a [`Thought`] holds.
struct Decided<G: TableGame> {
    seat: usize,
    /// The table's seq when the view was taken: the decision is for that state only.
    seq: u64,
    /// The seat's player, handed back.
    player: Box<dyn SeatPlayer<G>>,
    action: Option<G::Action>,
    level: Level,
    took: Duration,
}

/// A seat's computer player.
enum Mind<G: TableGame> {
    /// A person's seat that has not needed one yet: made from the log when it first decides.
    Unmade,
    /// Up to date with every view the seat was sent.
    Here(Box<dyn SeatPlayer<G>>),
    /// Deciding (or being made) off the actor; the views sent meanwhile wait in `missed`.
    Away,
}

/// The table's computer players.
pub(super) struct Computers<G: TableGame> {
    /// The level of the computer seats.
    pub(super) level: Level,
    /// Per seat: its player, made from the start for a computer seat, on first need for a
    /// person's (托管).
    players: Vec<Mind<G>>,
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
    /// Players for the computer seats (`bots`) at `level`; the others get theirs, at 普通, when
    /// they first need one for 托管. The receiver is the actor's.
    pub(super) fn new(
        level: Level,
        bots: &[bool],
        seed: String,
    ) -> (Computers<G>, mpsc::UnboundedReceiver<Thought<G>>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let players = bots
            .iter()
            .map(|&bot| match bot {
                true => Mind::Here(G::player(level)),
                false => Mind::Unmade,
            })
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
    /// once before the first). Seats without a player yet are not shown anything (nor are
    /// their views built): theirs is made from the log when needed.
    pub(super) fn observe(&mut self, engine: &G) {
        for (seat, mind) in self.players.iter_mut().enumerate() {
            match mind {
                Mind::Here(p) => p.observe_owned(engine.view(Viewer::Seat(seat))),
                Mind::Away => self.missed[seat].push(engine.view(Viewer::Seat(seat))),
                Mind::Unmade => {}
            }
        }
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
                Mind::Here(p) => p.observe_owned(view),
                Mind::Away => self.missed[seat].push(view),
                Mind::Unmade => {}
            }
        }
    }

    /// Lets `seat` decide on `view` (taken at `seq`) off the actor, first making its player
    /// from the table's log (read through `journal`) if it has none yet. False if it is
    /// already thinking.
    pub(super) fn think(
        &mut self,
        seat: usize,
        seq: u64,
        view: G::View,
        auto: bool,
        think: Duration,
        log: (&Journal, &str),
    ) -> bool {
        let mind = match self.players.get_mut(seat) {
            Some(m @ (Mind::Here(_) | Mind::Unmade)) => std::mem::replace(m, Mind::Away),
            Some(Mind::Away) | None => return false,
        };
        self.thinking = Some((seat, seq));
        let level = if auto { Level::Club } else { self.level };
        let seed = self.bot_seed(seq);
        let tx = self.tx.clone();
        let lane = if level == Level::Expert {
            Lane::Search
        } else {
            Lane::Quick
        };
        let decide = move |player, turn| {
            decide::<G>(player, seat, seq, view, level, think, seed, turn, tx);
        };
        let pool = Thinkers::shared();
        match mind {
            Mind::Here(player) => pool.submit(lane, move |turn| decide(player, turn)),
            _ => {
                let (journal, id) = (log.0.clone(), log.1.to_string());
                tokio::spawn(async move {
                    let stored = journal.load(&id).await;
                    pool.submit(lane, move |turn| decide(made::<G>(stored, seat, seq), turn));
                });
            }
        }
        true
    }

    /// Takes a decision back: the player returns to its seat and catches up on what it
    /// missed. The seat; the action, if it is still for the table as it is (`seq`); whether
    /// it was decided on the table as it is.
    pub(super) fn back(&mut self, t: Thought<G>, seq: u64) -> (usize, Option<G::Action>, bool) {
        let Decided {
            seat,
            seq: at,
            mut player,
            action,
            ..
        } = *t.0;
        for view in self.missed[seat].drain(..) {
            player.observe_owned(view);
        }
        self.players[seat] = Mind::Here(player);
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
        self.0.level
    }
    pub(super) fn took(&self) -> Duration {
        self.0.took
    }
}

/// Decides for `seat` on `view` (taken at `seq`), on a thinker's thread at its `turn`, and
/// sends the decision and the player back to the actor.
#[allow(clippy::too_many_arguments)]
fn decide<G: TableGame>(
    mut player: Box<dyn SeatPlayer<G>>,
    seat: usize,
    seq: u64,
    view: G::View,
    level: Level,
    think: Duration,
    seed: u64,
    turn: Turn,
    tx: mpsc::UnboundedSender<Thought<G>>,
) {
    let budget = budget(level, think, turn);
    let start = std::time::Instant::now();
    // A bot that panics must not take its seat with it: the seat gets a fresh player (its
    // memory lost) and no action, and the clock plays for it in time.
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
    let _ = tx.send(Thought(Box::new(Decided {
        seat,
        seq,
        player,
        action,
        level,
        took: start.elapsed(),
    })));
}

/// A person's seat's 托管 player, made from the table's log: shown the seat's view of the deal
/// and then after each entry up to `seq`, as [`super::spawn`] shows a rebuilt table's
/// players. If the log cannot be read or replayed (a store failure; never otherwise: the
/// table itself was built from it), a player that knows only what it is shown from now on.
fn made<G: TableGame>(
    stored: Result<Option<StoredTable>, store::StoreError>,
    seat: usize,
    seq: u64,
) -> Box<dyn SeatPlayer<G>> {
    let mut player = G::player(Level::Club);
    if !player.remembers() {
        return player;
    }
    let replayed = stored
        .map_err(|e| e.to_string())
        .and_then(|s| s.ok_or_else(|| "the table is not stored".to_string()))
        .and_then(|s| replay_seat::<G>(&s, seat, seq, player.as_mut()));
    if let Err(e) = replayed {
        tracing::warn!(seat, error = %e, "托管 player not made from the log; it plays from what it sees");
        player = G::player(Level::Club);
    }
    player
}

/// Shows `player` what `seat` was sent from the deal to entry `seq` of the stored table.
fn replay_seat<G: TableGame>(
    stored: &StoredTable,
    seat: usize,
    seq: u64,
    player: &mut dyn SeatPlayer<G>,
) -> Result<(), String> {
    let mut engine = super::replay::dealt::<G>(&stored.header)
        .map_err(|w| w.en)?
        .engine;
    player.observe_owned(engine.view(Viewer::Seat(seat)));
    let mut at = 0;
    for e in stored.log.iter().take_while(|e| e.seq <= seq) {
        super::replay::apply_stored(&mut engine, e).map_err(|f| format!("entry {}: {f}", e.seq))?;
        player.observe_owned(engine.view(Viewer::Seat(seat)));
        at = e.seq;
    }
    if at != seq {
        return Err(format!("the log ends at {at}, the table is at {seq}"));
    }
    Ok(())
}

/// The budget of a decision starting at `turn`; `think` is 高手's time on a quiet server.
fn budget(level: Level, think: Duration, turn: Turn) -> Budget {
    if level != Level::Expert {
        return Budget::DEFAULT;
    }
    Budget::Time(expert_time(think, turn))
}

/// `think` × min(1, searchers / searches asked), less the time waited for a searcher, at least
/// [`THINK_FLOOR`] (or `think`, if shorter).
pub fn expert_time(think: Duration, turn: Turn) -> Duration {
    let share = (turn.workers.max(1) as f64 / turn.demand.max(1) as f64).min(1.0);
    think
        .mul_f64(share)
        .saturating_sub(turn.waited)
        .max(THINK_FLOOR.min(think))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expert_thinks_a_second_alone_and_shares_the_searchers_when_busy() {
        let turn = |demand, waited_ms| Turn {
            waited: Duration::from_millis(waited_ms),
            demand,
            workers: 2,
        };
        assert_eq!(expert_time(THINK, turn(1, 0)), THINK);
        assert_eq!(expert_time(THINK, turn(2, 0)), THINK);
        assert_eq!(expert_time(THINK, turn(4, 0)), THINK / 2);
        assert_eq!(expert_time(THINK, turn(100, 0)), THINK_FLOOR);
        assert_eq!(expert_time(THINK / 20, turn(100, 0)), THINK / 20);
        // Time spent waiting for a searcher is time the person already waited.
        assert_eq!(expert_time(THINK, turn(1, 300)), THINK * 7 / 10);
        assert_eq!(expert_time(THINK, turn(4, 300)), THINK / 5);
        assert_eq!(expert_time(THINK, turn(1, 5000)), THINK_FLOOR);
    }

    /// Plays a whole game with a 普通 player in every seat, each shown every view its seat is
    /// sent, and every `every`th decision asks a player made from the log so far the same
    /// question: it must answer the same. 普通 reads little of its notes, so a 高手 (`expert`,
    /// on a fixed number of playouts, which samples the deals its notes allow) that watched
    /// is asked too, against one shown the log.
    fn made_from_the_log_decides_as_the_player_that_watched<G: TableGame>(
        every: usize,
        expert: fn() -> Box<dyn SeatPlayer<G>>,
    ) {
        let seed = rules::deal::Seed([7; 32]);
        let header = TableHeader {
            id: "made".into(),
            game: G::GAME.into(),
            ruleset: G::DEFAULT_RULESET.into(),
            options: "{}".into(),
            deal_algorithm: rules::deal::ALGORITHM.into(),
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            board: 3,
            fixed: "{}".into(),
            created_ms: 1,
        };
        let mut engine = G::start(&header.ruleset, &seed, 3, &DealFixed::default()).unwrap();
        let mut watched: Vec<_> = (0..engine.seats())
            .map(|seat| {
                let mut p = G::player(Level::Club);
                p.observe_owned(engine.view(Viewer::Seat(seat)));
                p
            })
            .collect();
        let mut experts: Vec<_> = (0..engine.seats())
            .map(|seat| {
                let mut p = expert();
                p.observe_owned(engine.view(Viewer::Seat(seat)));
                p
            })
            .collect();
        let mut stored = StoredTable {
            header,
            state: TableState::Playing,
            seats: vec![],
            log: vec![],
        };
        let (mut decisions, mut compared) = (0, 0);
        while !engine.is_over() {
            let seat = engine.to_act()[0];
            let view = engine.view(Viewer::Seat(seat));
            let seq = stored.log.len() as u64;
            let action = watched[seat]
                .act(&view, Budget::DEFAULT, seq)
                .expect("a 普通 player acts when its seat is to");
            if decisions % every == 0 {
                let mut made = made::<G>(Ok(Some(stored.clone())), seat, seq);
                let again = made.act(&view, Budget::DEFAULT, seq).unwrap();
                assert_eq!(
                    serde_json::to_string(&again).unwrap(),
                    serde_json::to_string(&action).unwrap(),
                    "seat {seat} at {seq}"
                );
                let budget = Budget::Playouts(12);
                let mut shown = expert();
                replay_seat::<G>(&stored, seat, seq, shown.as_mut()).unwrap();
                assert_eq!(
                    serde_json::to_string(&shown.act(&view, budget, seq)).unwrap(),
                    serde_json::to_string(&experts[seat].act(&view, budget, seq)).unwrap(),
                    "高手 at seat {seat} at {seq}"
                );
                compared += 1;
            }
            decisions += 1;
            stored.log.push(LogEntry {
                seq: seq + 1,
                seat,
                actor: Actor::Player,
                client_id: None,
                occupant: None,
                reason: None,
                action: serde_json::to_string(&action).unwrap(),
                time_ms: 1,
                hash: String::new(),
            });
            engine.apply(seat, Actor::Player, action).unwrap();
            for (seat, (p, e)) in watched.iter_mut().zip(&mut experts).enumerate() {
                p.observe_owned(engine.view(Viewer::Seat(seat)));
                e.observe_owned(engine.view(Viewer::Seat(seat)));
            }
        }
        assert!(compared >= 5, "{compared} decisions compared");
    }

    #[test]
    fn a_shengji_player_made_from_the_log_decides_as_the_one_that_watched() {
        made_from_the_log_decides_as_the_player_that_watched::<rules::shengji::Board>(2, || {
            Box::new(bots::shengji::Player::new(Level::Expert, Budget::DEFAULT))
        });
    }

    #[test]
    fn a_gouji_player_made_from_the_log_decides_as_the_one_that_watched() {
        made_from_the_log_decides_as_the_player_that_watched::<rules::gouji::Game>(7, || {
            Box::new(bots::gouji::Player::new(Level::Expert, Budget::DEFAULT))
        });
    }

    #[test]
    fn without_its_log_a_player_still_plays_from_what_it_sees() {
        type Board = rules::shengji::Board;
        let seed = rules::deal::Seed([7; 32]);
        let engine = Board::start("fujian-2024", &seed, 1, &DealFixed::default()).unwrap();
        let seat = rules::Engine::to_act(&engine)[0];
        let view = rules::Engine::view(&engine, Viewer::Seat(seat));
        let gone = Err(store::StoreError("disk on fire".into()));
        let mut made = made::<rules::shengji::Board>(gone, seat, 12);
        assert!(made.act(&view, Budget::DEFAULT, 1).is_some());
    }
}
