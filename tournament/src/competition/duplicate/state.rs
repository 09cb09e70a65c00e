//! The 80分 pairs competition as its log has made it: the pairs, what happened at each board
//! of each table of each round, confirmations, deductions, clocks and seatings; where a pair
//! plays now and what each table plays.
use std::collections::BTreeMap;

use super::action::DeductionKind;
use crate::competition::conduct::TimeoutsCounted;
use crate::competition::text::{optional, MAX_NAME};
use crate::competition::{Common, Entry, Error, Field, Ruling, Spec, Tally};
use crate::movement::{Movement, Round, TableRound};
use crate::score::ArtificialScores;
use crate::seat::{Direction, Seat};

/// Most tables a competition may have.
pub const MAX_TABLES: u32 = 500;
/// Most boards a competition may deal.
pub const MAX_BOARDS: u32 = 2_000;
/// The most defenders' points a board's result may have either way (a board's cards are 200,
/// its kitty at most eight times itself, penalties a few hundred): the bound that catches a typo.
pub use crate::score::MAX_POINTS;
/// Minutes a board when the competition does not say (每副牌比赛时间12分钟).
pub const BOARD_MINUTES: u32 = 12;
/// The game its tables deal.
pub const GAME: &str = "shengji";

/// A registered pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub direction: Direction,
    pub number: u32,
    /// Two players (none for a computer pair registered without names).
    pub names: Vec<String>,
    pub organisation: Option<String>,
    pub bot: bool,
}

impl Pair {
    /// The pair's two seats at an 80分 table: NS sit N (0) and S (2), EW sit E (1) and W (3).
    pub fn seats(&self) -> [usize; 2] {
        match self.direction {
            Direction::NS => [0, 2],
            Direction::EW => [1, 3],
        }
    }

    /// The name a seat of the pair shows: the player's, else the direction and number.
    pub fn player(&self, seat: usize) -> String {
        let which = usize::from(seat == self.seats()[1]);
        self.names
            .get(which)
            .cloned()
            .unwrap_or_else(|| format!("{}{}", self.direction.zh(), self.number))
    }
}

/// A board's outcome as its table reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub declarer: Seat,
    pub defenders: i32,
}

/// A result the director assigned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjusted {
    pub defenders: Option<i32>,
    pub artificial: Option<ArtificialScores>,
    pub reason: String,
}

/// One board at one table of one round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Play {
    /// The table dealing it (the latest, if it was opened again).
    pub table_id: Option<String>,
    pub played: Option<Played>,
    /// Replaces `played` in the scoring.
    pub adjusted: Option<Adjusted>,
    /// The ruling at the table that last changed `played` after the board ended.
    pub revised: Option<Ruling>,
    /// The seats' timeouts and 托管 moves on it, as its table reported them.
    pub tally: Tally,
}

impl Play {
    pub fn done(&self) -> bool {
        self.played.is_some() || self.adjusted.is_some()
    }
}

/// The two pairs' word on a table's results of a round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Confirms {
    pub ns: bool,
    pub ew: bool,
    /// A pair disputes: its note.
    pub dispute: Option<String>,
}

/// A deduction (or a disqualification) as logged.
#[derive(Clone, Debug, PartialEq)]
pub struct Deducted {
    pub direction: Direction,
    pub pair: u32,
    pub mp: f64,
    pub reason: String,
    pub kind: Option<DeductionKind>,
}

/// Where a pair plays now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sitting {
    pub round: u32,
    pub table: u32,
    pub board: u32,
    pub table_id: String,
}

/// An 80分 pairs competition, as its log has made it.
#[derive(Clone, Debug, PartialEq)]
pub struct Duplicate {
    pub common: Common,
    pub movement: Movement,
    /// NS 1…T, then EW 1…T; empty until registered.
    pub pairs: Vec<Pair>,
    /// (round, table, board) → what happened there.
    pub plays: BTreeMap<(u32, u32, u32), Play>,
    /// (round, table) → the pairs' confirmations.
    pub confirms: BTreeMap<(u32, u32), Confirms>,
    pub deductions: Vec<Deducted>,
    /// Disqualified pairs, in the order the director ruled, each with the reason.
    pub disqualified: Vec<Deducted>,
    /// round → its clock (rounds started with a logged time).
    pub clocks: BTreeMap<u32, RoundClock>,
    /// (round, direction, pair) → the seats sat at so far and when the last of them sat.
    pub seated: BTreeMap<(u32, Direction, u32), (Vec<usize>, u64)>,
    /// (round, direction, pair) ruled forfeit for lateness.
    pub forfeits: Vec<(u32, Direction, u32)>,
}

/// The board's declarer seat (定庄): board 1 is N's, 2 E's, 3 S's, 4 W's, 5 N's again, as the
/// deal makes it (`rules::deal::deal_shengji`).
pub fn declarer_of(board: u32) -> Seat {
    [Seat::N, Seat::E, Seat::S, Seat::W][(board.wrapping_sub(1) % 4) as usize]
}

/// Boards dealt by a movement (the highest board number).
pub fn movement_boards(m: &Movement) -> u32 {
    m.rounds
        .iter()
        .flat_map(|r| r.tables.iter().flat_map(|t| t.boards.iter().copied()))
        .max()
        .unwrap_or(0)
}

/// 定级 and 定主, checked as the deal reads them.
pub(crate) fn check_fixed(spec: &Spec) -> Result<(), Error> {
    if let Some(level) = &spec.level {
        rules::cards::Rank::parse(level).ok_or_else(|| Error::Level {
            level: level.clone(),
        })?;
    }
    if let Some(t) = spec.trump.as_deref() {
        let mut chars = t.chars();
        let suit = chars
            .next()
            .filter(|_| chars.next().is_none())
            .and_then(rules::cards::Suit::from_letter);
        if suit.is_none() && !t.eq_ignore_ascii_case("NT") {
            return Err(Error::Trump {
                trump: t.to_string(),
            });
        }
    }
    Ok(())
}

impl Duplicate {
    pub(super) fn movement_of(spec: &Spec) -> Result<Movement, Error> {
        Ok(Duplicate::planned(spec)?.movement)
    }

    /// The spec's movement with what the director should be warned of about it.
    fn planned(spec: &Spec) -> Result<crate::Planned, crate::Error> {
        crate::plan(
            spec.tables,
            spec.rounds,
            spec.boards_per_round,
            spec.movement,
            crate::Options {
                skip_after: spec.skip_after,
                revenge: spec.revenge,
            },
        )
    }

    /// What the director should know about the movement (a curtailed share-and-relay).
    pub fn movement_warnings(&self) -> Vec<crate::Warning> {
        Duplicate::planned(&self.common.spec)
            .map(|p| p.warnings)
            .unwrap_or_default()
    }

    /// Tables.
    pub fn tables(&self) -> u32 {
        self.common.spec.tables
    }

    /// Registers the pairs. One pair fewer than two a table is a half table: EW pair T (the
    /// last table's EW) is the phantom, and the movement leaves its place empty.
    pub(super) fn register(&mut self, entries: &[Entry]) -> Result<(), Error> {
        let pairs = self.check_entries(entries)?;
        let full = Duplicate::movement_of(&self.common.spec)?;
        self.movement = if pairs.len() < 2 * self.tables() as usize {
            full.with_phantom(Direction::EW, self.tables())?
        } else {
            full
        };
        self.pairs = pairs;
        Ok(())
    }

    fn check_entries(&self, entries: &[Entry]) -> Result<Vec<Pair>, Error> {
        let t = self.tables();
        // One pair fewer makes a half table (EW T is the phantom), if a table is left whole.
        let half_table = t >= 2 && entries.len() + 1 == 2 * t as usize;
        if entries.len() != 2 * t as usize && !half_table {
            return Err(Error::PairCount {
                tables: t,
                got: entries.len(),
            });
        }
        entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let (direction, number) = if (i as u32) < t {
                    (Direction::NS, i as u32 + 1)
                } else {
                    (Direction::EW, i as u32 - t + 1)
                };
                let names = if e.bot && e.names.is_empty() {
                    Vec::new()
                } else {
                    if e.names.len() != 2 {
                        return Err(Error::PairIsTwo { direction, number });
                    }
                    e.names
                        .iter()
                        .map(|n| rules::name::display_name(n).map_err(Error::from))
                        .collect::<Result<Vec<_>, _>>()?
                };
                Ok(Pair {
                    direction,
                    number,
                    names,
                    organisation: optional(&e.organisation, MAX_NAME, Field::Organisation)?,
                    bot: e.bot,
                })
            })
            .collect()
    }

    /// Late entries (before round 1) in the places computers hold, or the half table's empty
    /// place: the phantom's first, then the computer pairs from the last (EW T … NS 1). Every
    /// pair already registered keeps its number and its players their tokens.
    pub(super) fn add_entries(&mut self, entries: &[Entry]) -> Result<(), Error> {
        if self.pairs.is_empty() {
            return Err(Error::NoEntries { teams: false });
        }
        let as_entry = |p: &Pair| Entry {
            names: p.names.clone(),
            organisation: p.organisation.clone(),
            bot: p.bot,
            team: None,
        };
        let mut all: Vec<Entry> = self.pairs.iter().map(as_entry).collect();
        let mut places: Vec<usize> = Vec::new();
        if self.phantom().is_some() {
            all.push(Entry {
                names: Vec::new(),
                organisation: None,
                bot: true,
                team: None,
            });
            places.push(all.len() - 1);
        }
        places.extend((0..self.pairs.len()).rev().filter(|&i| self.pairs[i].bot));
        if entries.len() > places.len() {
            return Err(Error::NoRoom { room: places.len() });
        }
        for (e, i) in entries.iter().zip(places) {
            all[i] = e.clone();
        }
        self.register(&all)
    }

    /// The phantom pair of a half table: EW T when one pair fewer than two a table registered.
    pub fn phantom(&self) -> Option<(Direction, u32)> {
        (!self.pairs.is_empty() && self.pairs.len() < 2 * self.tables() as usize)
            .then(|| (Direction::EW, self.tables()))
    }

    /// The pair of a direction and number.
    pub fn pair(&self, direction: Direction, number: u32) -> Option<&Pair> {
        let t = self.tables() as usize;
        let i = match direction {
            Direction::NS => (number as usize).wrapping_sub(1),
            Direction::EW => t + (number as usize).wrapping_sub(1),
        };
        (number >= 1 && number as usize <= t)
            .then(|| self.pairs.get(i))
            .flatten()
    }

    /// Refuses a pair the competition does not have.
    pub(super) fn known_pair(&self, direction: Direction, pair: u32) -> Result<&Pair, Error> {
        self.pair(direction, pair)
            .ok_or(Error::NoSuchPair { direction, pair })
    }

    /// The movement's round `round`.
    pub fn round_plan(&self, round: u32) -> Option<&Round> {
        self.movement.rounds.iter().find(|r| r.round == round)
    }

    /// The table of a round: its pairs and boards.
    pub fn table_plan(&self, round: u32, table: u32) -> Option<&TableRound> {
        self.round_plan(round)?
            .tables
            .iter()
            .find(|t| t.table == table)
    }

    /// Where a pair sits in a round: its table.
    pub fn table_of(&self, round: u32, pair: &Pair) -> Option<&TableRound> {
        self.round_plan(round)?.tables.iter().find(|t| {
            let n = match pair.direction {
                Direction::NS => t.ns,
                Direction::EW => t.ew,
            };
            n == Some(pair.number)
        })
    }

    pub fn play(&self, round: u32, table: u32, board: u32) -> Option<&Play> {
        self.plays.get(&(round, table, board))
    }

    /// The first board of a table of a round without a result: the one being played.
    pub fn current_board(&self, round: u32, table: u32) -> Option<u32> {
        let plan = self.table_plan(round, table)?;
        plan.boards
            .iter()
            .copied()
            .find(|&b| !self.play(round, table, b).is_some_and(Play::done))
    }

    /// Every board of a table of a round has a result.
    pub fn table_done(&self, round: u32, table: u32) -> bool {
        self.table_plan(round, table).is_some() && self.current_board(round, table).is_none()
    }

    /// Whether a side of a table has confirmed a round (a computer pair always has).
    pub fn confirmed(&self, round: u32, table: u32, direction: Direction) -> bool {
        let Some(plan) = self.table_plan(round, table) else {
            return false;
        };
        // A half table's sit-out has nothing to record or check.
        let (Some(ns), Some(ew)) = (plan.ns, plan.ew) else {
            return true;
        };
        let number = match direction {
            Direction::NS => ns,
            Direction::EW => ew,
        };
        // A computer pair has always confirmed; a pair ruled forfeit is not there to.
        if self.pair(direction, number).is_some_and(|p| p.bot)
            || self.forfeited(round, direction, number)
        {
            return true;
        }
        self.confirms
            .get(&(round, table))
            .is_some_and(|c| match direction {
                Direction::NS => c.ns,
                Direction::EW => c.ew,
            })
    }

    /// The director has disqualified this pair.
    pub fn is_disqualified(&self, direction: Direction, pair: u32) -> bool {
        self.disqualified
            .iter()
            .any(|d| d.direction == direction && d.pair == pair)
    }

    /// Where a pair sits down now: its table of the round being played and the board there
    /// without a result, with the table opened for it. Refused, in the pair's words, when it
    /// cannot play now.
    pub fn sitting(&self, pair: &Pair) -> Result<Sitting, Error> {
        if self.common.finished() {
            return Err(Error::Finished);
        }
        if self.is_disqualified(pair.direction, pair.number) {
            return Err(Error::Barred);
        }
        let round = self.common.playing().ok_or(Error::WaitForRound)?;
        let plan = self.table_of(round, pair).ok_or(Error::SitsOut)?;
        if plan.ns.is_none() || plan.ew.is_none() {
            return Err(Error::SitsOutHalf);
        }
        if self.forfeited(round, pair.direction, pair.number) {
            return Err(Error::LateForfeit);
        }
        let board = self
            .current_board(round, plan.table)
            .ok_or(Error::RoundPlayed)?;
        let table_id = self
            .play(round, plan.table, board)
            .and_then(|p| p.table_id.clone())
            .ok_or(Error::Opening)?;
        Ok(Sitting {
            round,
            table: plan.table,
            board,
            table_id,
        })
    }

    /// The seats of a table of a round that computers take (its computer pairs').
    pub(super) fn computer_seats(&self, plan: &TableRound) -> Vec<usize> {
        let mut seats: Vec<usize> = [(Direction::NS, plan.ns), (Direction::EW, plan.ew)]
            .into_iter()
            .filter_map(|(d, n)| self.pair(d, n?))
            .filter(|p| p.bot)
            .flat_map(|p| p.seats())
            .collect();
        seats.sort_unstable();
        seats
    }

    /// Each seat's player's timeouts on the earlier boards of the count, for the board `board`
    /// of `plan`'s table: the round's other boards there (the session), or every board the
    /// seat's pair played (the competition; a pair keeps its direction, and its first player
    /// sits N or E, its second S or W, so a seat is one player throughout). Empty: none.
    pub(super) fn prior_timeouts(&self, round: u32, plan: &TableRound, board: u32) -> Vec<u8> {
        let mut prior = [0u8; 4];
        let whole = self.common.spec.timeouts_counted == TimeoutsCounted::Competition;
        for (&(r, t, b), play) in &self.plays {
            if (r, t, b) == (round, plan.table, board) {
                continue;
            }
            let Some(there) = self.table_plan(r, t) else {
                continue;
            };
            for (seat, n) in prior.iter_mut().enumerate() {
                let same = if seat % 2 == 0 {
                    there.ns == plan.ns
                } else {
                    there.ew == plan.ew
                };
                let counts = if whole {
                    same && (if seat % 2 == 0 { plan.ns } else { plan.ew }).is_some()
                } else {
                    (r, t) == (round, plan.table)
                };
                if counts {
                    *n = n.saturating_add(play.tally.timeouts_of(seat));
                }
            }
        }
        if prior.iter().all(|&n| n == 0) {
            Vec::new()
        } else {
            prior.to_vec()
        }
    }
}

/// A round's clock: when it started, from the `start_round` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundClock {
    pub started_ms: u64,
    /// The start plus `boards_per_round` × `board_minutes` (每副牌比赛时间12分钟).
    pub deadline_ms: u64,
}
