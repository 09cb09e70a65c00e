//! A practice set as its log made it: its runs, each run's boards with their tables and
//! results; and each log entry checked against it and applied (a refusal changes nothing).

use std::marker::PhantomData;

use super::action::{Outcome, PracticeAction};
use super::SetGame;
use crate::competition::conduct::Tally;
use crate::competition::text::{text, MAX_NAME, MAX_TITLE};
use crate::competition::{Common, Error, Field, Spec};

/// The computers' levels, weakest first: 入门, 普通, 高手.
pub const LEVELS: [&str; 3] = ["beginner", "club", "expert"];

/// A practice set of game `G`.
#[derive(Clone, Debug, PartialEq)]
pub struct Practice<G: SetGame> {
    pub common: Common,
    /// Every run begun, in order: run `n` is `runs[n - 1]`.
    pub runs: Vec<Run>,
    /// When the set opened (its `start_round`): the reference runs begin then.
    pub opened_ms: Option<u64>,
    game: PhantomData<G>,
}

/// One play of the set's boards, in order: a person's with computers, or four (six) computers'.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// From 1, in the order runs began.
    pub number: u32,
    /// The player's public id; `None` for the computers' reference run.
    pub player: Option<String>,
    /// The player's name as they gave it (a reference run has none).
    pub name: Option<String>,
    /// The computers' level (`beginner`, `club`, `expert`).
    pub level: String,
    pub began_ms: u64,
    /// One a board of the set, in order.
    pub boards: Vec<Board>,
}

/// A run's board: the table dealing it, and once it is over its result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    pub table_id: Option<String>,
    pub played: Option<Played>,
}

/// A finished board of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub outcome: Outcome,
    /// The seats' timeouts and 托管 moves on it.
    pub tally: Tally,
}

impl Run {
    /// The board it plays now: the first without a result; `None` once all are played.
    pub fn now(&self) -> Option<u32> {
        self.boards
            .iter()
            .position(|b| b.played.is_none())
            .map(|i| i as u32 + 1)
    }

    pub fn done(&self) -> bool {
        self.now().is_none()
    }

    /// The computers' reference run.
    pub fn is_reference(&self) -> bool {
        self.player.is_none()
    }

    pub fn board(&self, board: u32) -> Option<&Board> {
        self.boards.get(board.checked_sub(1)? as usize)
    }

    /// Boards with a result.
    pub fn played(&self) -> usize {
        self.boards.iter().filter(|b| b.played.is_some()).count()
    }
}

impl<G: SetGame> Practice<G> {
    /// The set a `create` entry makes: its spec checked.
    pub(super) fn new(id: &str, spec: &Spec) -> Result<Practice<G>, Error> {
        let Some(terms) = &spec.practice else {
            return Err(Error::NotPractice {
                game: spec.game.clone(),
            });
        };
        if spec.game != G::GAME {
            return Err(Error::NotPractice {
                game: G::GAME.to_string(),
            });
        }
        let mut spec = spec.clone();
        spec.name = text(&spec.name, MAX_TITLE, Field::Name)?;
        if let Some(club) = &terms.club {
            let club = text(club, MAX_NAME, Field::Organisation)?;
            spec.practice.as_mut().expect("checked").club = Some(club);
        }
        if !(1..=G::MAX_BOARDS).contains(&spec.boards_per_round) {
            return Err(Error::PracticeBoards { max: G::MAX_BOARDS });
        }
        for level in &terms.references {
            level_known(level)?;
        }
        if G::GAME == "gouji" && (spec.level.is_some() || spec.trump.is_some()) {
            return Err(Error::NothingToFix);
        }
        crate::competition::duplicate::state::check_fixed(&spec)?;
        if spec.board_minutes.is_some_and(|m| m == 0 || m > 120) {
            return Err(Error::BoardMinutes);
        }
        if !spec.entries.is_empty() {
            return Err(Error::PracticeNoEntries);
        }
        spec.tables = 0;
        spec.rounds = 1;
        let (common, _) = Common::new(id, spec);
        Ok(Practice {
            common,
            runs: Vec::new(),
            opened_ms: None,
            game: PhantomData,
        })
    }

    /// Boards (games) in the set.
    pub fn boards(&self) -> u32 {
        self.common.spec.boards_per_round
    }

    /// The set takes runs and plays boards: opened, not closed.
    pub fn open(&self) -> bool {
        self.common.playing() == Some(1)
    }

    pub fn run(&self, run: u32) -> Option<&Run> {
        self.runs.get(run.checked_sub(1)? as usize)
    }

    /// The player's run, if they began one.
    pub fn run_of(&self, player: &str) -> Option<&Run> {
        self.runs
            .iter()
            .find(|r| r.player.as_deref() == Some(player))
    }

    /// The reference levels of the set's terms not begun yet, in the terms' order.
    pub fn references_due(&self) -> Vec<&str> {
        let Some(terms) = &self.common.spec.practice else {
            return Vec::new();
        };
        terms
            .references
            .iter()
            .map(String::as_str)
            .filter(|l| !self.runs.iter().any(|r| r.is_reference() && r.level == *l))
            .collect()
    }

    /// The person's timeouts on the run's boards before `board` (80分's count runs over a
    /// run's boards, as over a session's at the meet), by seat.
    pub fn prior_timeouts(&self, run: &Run, board: u32) -> Vec<u8> {
        if !G::COUNTS_TIMEOUTS || run.is_reference() {
            return Vec::new();
        }
        let n: u32 = run.boards[..(board.saturating_sub(1) as usize).min(run.boards.len())]
            .iter()
            .filter_map(|b| b.played.as_ref())
            .map(|p| u32::from(p.tally.timeouts_of(G::PERSON)))
            .sum();
        if n == 0 {
            return Vec::new();
        }
        let mut v = vec![0; G::SEATS];
        v[G::PERSON] = n.min(u32::from(u8::MAX)) as u8;
        v
    }

    /// Checks one logged entry and applies it; on `Err` nothing changed.
    pub(super) fn apply_action(&mut self, action: &PracticeAction) -> Result<(), Error> {
        if self.common.finished() {
            return Err(Error::Finished);
        }
        match action {
            PracticeAction::Create { .. } => Err(Error::Exists),
            PracticeAction::StartRound { round, at_ms } => {
                if *round != 1 {
                    return Err(Error::PracticeOneRound);
                }
                self.common.may_start(1)?;
                self.common.round = 1;
                self.opened_ms = Some(*at_ms);
                Ok(())
            }
            PracticeAction::Begin {
                run,
                player,
                name,
                level,
                at_ms,
            } => self.begin(*run, player.as_deref(), name.as_deref(), level, *at_ms),
            PracticeAction::TableOpened {
                run,
                board,
                table_id,
            } => {
                let r = self.playing(*run, *board)?;
                r.boards[*board as usize - 1].table_id = Some(table_id.clone());
                Ok(())
            }
            PracticeAction::Result {
                run,
                board,
                table_id,
                outcome,
                timeouts,
                auto_moves,
            } => {
                if !G::fits(outcome) {
                    return Err(Error::NotPractice {
                        game: G::GAME.to_string(),
                    });
                }
                let r = self.playing(*run, *board)?;
                let b = &mut r.boards[*board as usize - 1];
                if b.table_id.as_deref() != Some(table_id.as_str()) {
                    return Err(Error::WrongTable);
                }
                b.played = Some(Played {
                    outcome: outcome.clone(),
                    tally: Tally {
                        timeouts: timeouts.clone(),
                        auto_moves: auto_moves.clone(),
                    },
                });
                Ok(())
            }
            PracticeAction::Visits { visits } => self.common.visited(visits),
            PracticeAction::CloseRound { round, .. } => {
                self.common.in_play(*round)?;
                self.common.closed = *round;
                Ok(())
            }
            PracticeAction::Reveal { early } => {
                if self.common.playing().is_some() {
                    return Err(Error::EarlyMidRound);
                }
                self.common.revealed = true;
                self.common.early = *early;
                Ok(())
            }
        }
    }

    fn begin(
        &mut self,
        run: u32,
        player: Option<&str>,
        name: Option<&str>,
        level: &str,
        at_ms: u64,
    ) -> Result<(), Error> {
        if !self.open() {
            return Err(Error::PracticeClosed);
        }
        if run as usize != self.runs.len() + 1 {
            return Err(Error::PracticeNoRun { run });
        }
        level_known(level)?;
        let name = match player {
            Some(p) => {
                if let Some(r) = self.run_of(p) {
                    return Err(Error::PracticeAgain { run: r.number });
                }
                Some(rules::name::display_name(name.unwrap_or_default())?)
            }
            None => {
                if !self.references_due().contains(&level) {
                    return Err(Error::PracticeReference {
                        level: level.to_string(),
                    });
                }
                None
            }
        };
        self.runs.push(Run {
            number: run,
            player: player.map(str::to_string),
            name,
            level: level.to_string(),
            began_ms: at_ms,
            boards: vec![Board::default(); self.boards() as usize],
        });
        Ok(())
    }

    /// The run, if it plays `board` now in an open set.
    fn playing(&mut self, run: u32, board: u32) -> Result<&mut Run, Error> {
        if !self.open() {
            return Err(Error::PracticeClosed);
        }
        let r = run
            .checked_sub(1)
            .and_then(|i| self.runs.get_mut(i as usize))
            .ok_or(Error::PracticeNoRun { run })?;
        if r.now() != Some(board) {
            return Err(Error::PracticeNotNow { run, board });
        }
        Ok(r)
    }
}

fn level_known(level: &str) -> Result<(), Error> {
    if LEVELS.contains(&level) {
        Ok(())
    } else {
        Err(Error::PracticeLevel {
            level: level.to_string(),
        })
    }
}
