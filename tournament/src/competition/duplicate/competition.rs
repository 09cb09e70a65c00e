//! The 80分 pairs competition as a [`Competition`]: created from its spec, its log applied, the
//! tables it needs now, the actions the server logs for it.

use std::collections::BTreeMap;

use rules::deal::Seed;

use super::action::DuplicateAction;
use super::apply;
use super::state::{check_fixed, movement_boards, Duplicate, GAME, MAX_BOARDS, MAX_TABLES};
use crate::competition::text::{text, MAX_TITLE};
use crate::competition::{
    Common, Competition, Entry, Error, Field, Spec, TableNeed, TableReport, TableResult, Visit,
};

impl Competition for Duplicate {
    type Action = DuplicateAction;
    const GAME: &'static str = GAME;

    fn create(id: &str, spec: &Spec) -> Result<Duplicate, Error> {
        if spec.game != GAME {
            return Err(Error::NotRunLive {
                game: spec.game.clone(),
            });
        }
        if spec.practice.is_some() {
            return Err(Error::PracticeTermsInEvent);
        }
        let mut spec = spec.clone();
        spec.name = text(&spec.name, MAX_TITLE, Field::Name)?;
        if spec.tables == 0 || spec.tables > MAX_TABLES {
            return Err(Error::TableCount { max: MAX_TABLES });
        }
        let movement = Duplicate::movement_of(&spec)?;
        let boards = movement_boards(&movement);
        if boards > MAX_BOARDS {
            return Err(Error::TooManyBoards {
                boards,
                max: MAX_BOARDS,
            });
        }
        if spec.board_minutes.is_some_and(|m| m == 0 || m > 120) {
            return Err(Error::BoardMinutes);
        }
        check_fixed(&spec)?;
        let (common, entries) = Common::new(id, spec);
        let mut d = Duplicate {
            common,
            movement,
            pairs: Vec::new(),
            plays: BTreeMap::new(),
            confirms: BTreeMap::new(),
            deductions: Vec::new(),
            disqualified: Vec::new(),
            clocks: BTreeMap::new(),
            seated: BTreeMap::new(),
            forfeits: Vec::new(),
        };
        if !entries.is_empty() {
            d.register(&entries)?;
            d.common.registered = 1;
        }
        Ok(d)
    }

    fn apply(&mut self, seq: u64, action: &DuplicateAction) -> Result<(), Error> {
        apply::apply(self, seq, action)
    }

    fn common(&self) -> &Common {
        &self.common
    }

    fn rounds(&self) -> u32 {
        self.common.spec.rounds
    }

    /// Every table of the round being played that has a board without a result: that board.
    fn tables_now(&self) -> Vec<TableNeed> {
        let Some(round) = self.common.playing() else {
            return Vec::new();
        };
        let Some(plan) = self.round_plan(round) else {
            return Vec::new();
        };
        plan.tables
            .iter()
            .filter_map(|t| {
                let board = self.current_board(round, t.table)?;
                Some(TableNeed {
                    round,
                    table: t.table,
                    slot: board,
                    deal: board,
                    computers: self.computer_seats(t),
                    table_id: self
                        .play(round, t.table, board)
                        .and_then(|p| p.table_id.clone()),
                    prior_timeouts: self.prior_timeouts(round, t, board),
                    level: None,
                })
            })
            .collect()
    }

    fn created(spec: Spec) -> DuplicateAction {
        DuplicateAction::Create { spec }
    }

    fn creation(action: &DuplicateAction) -> Option<&Spec> {
        match action {
            DuplicateAction::Create { spec } => Some(spec),
            _ => None,
        }
    }

    fn register(entries: Vec<Entry>) -> Result<DuplicateAction, Error> {
        Ok(DuplicateAction::Register { entries })
    }

    fn add_entries(entries: Vec<Entry>) -> Result<DuplicateAction, Error> {
        Ok(DuplicateAction::AddEntries { entries })
    }

    fn start_round(round: u32, at_ms: u64) -> DuplicateAction {
        DuplicateAction::StartRound {
            round,
            at_ms: Some(at_ms),
        }
    }

    fn close_round(round: u32, forced: bool) -> DuplicateAction {
        DuplicateAction::CloseRound { round, forced }
    }

    fn reveal(early: bool) -> DuplicateAction {
        DuplicateAction::Reveal { early }
    }

    fn opened(need: &TableNeed, table_id: String) -> DuplicateAction {
        DuplicateAction::TableOpened {
            round: need.round,
            table: need.table,
            board: need.slot,
            table_id,
        }
    }

    fn result(need: &TableNeed, table_id: String, report: TableReport) -> Option<DuplicateAction> {
        let TableResult::Board {
            declarer,
            defenders,
        } = report.result
        else {
            return None;
        };
        let tally = report.tally.trimmed();
        Some(DuplicateAction::Result {
            round: need.round,
            table: need.table,
            board: need.slot,
            table_id,
            declarer,
            defenders,
            timeouts: tally.timeouts,
            auto_moves: tally.auto_moves,
        })
    }

    fn visited(visits: Vec<Visit>) -> DuplicateAction {
        DuplicateAction::Visits { visits }
    }

    fn revisable(&self) -> Vec<(TableNeed, TableResult)> {
        let Some(round) = self.common.playing() else {
            return Vec::new();
        };
        self.plays
            .range((round, 0, 0)..(round + 1, 0, 0))
            .filter(|(_, p)| p.adjusted.is_none())
            .filter_map(|(&(round, table, board), p)| {
                let played = p.played?;
                let plan = self.table_plan(round, table)?;
                let need = TableNeed {
                    round,
                    table,
                    slot: board,
                    deal: board,
                    computers: self.computer_seats(plan),
                    table_id: p.table_id.clone(),
                    prior_timeouts: Vec::new(),
                    level: None,
                };
                let logged = TableResult::Board {
                    declarer: played.declarer,
                    defenders: played.defenders,
                };
                Some((need, logged))
            })
            .collect()
    }

    fn revised(need: &TableNeed, table_id: String, report: TableReport) -> Option<DuplicateAction> {
        let TableResult::Board {
            declarer,
            defenders,
        } = report.result
        else {
            return None;
        };
        Some(DuplicateAction::Revised {
            round: need.round,
            table: need.table,
            board: need.slot,
            table_id,
            declarer,
            defenders,
            ruling: report.ruling,
        })
    }

    /// The tables of closed rounds, and of boards the director settled before their table
    /// ended them.
    fn idle_tables(&self) -> Vec<String> {
        let closed = self.common.closed;
        self.plays
            .iter()
            .filter(|(&(round, _, _), p)| {
                round <= closed || (p.adjusted.is_some() && p.played.is_none())
            })
            .filter_map(|(_, p)| p.table_id.clone())
            .collect()
    }

    fn due(&self, _seed: &Seed) -> Result<Option<DuplicateAction>, Error> {
        Ok(None)
    }

    fn action_name(action: &DuplicateAction) -> &'static str {
        action.name()
    }
}
