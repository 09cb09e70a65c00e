//! A practice set as a [`Competition`]: created from its spec, its log applied, the tables its
//! runs need now, the computers' reference runs it begins by itself, the actions the server
//! logs for it.

use rules::deal::Seed;

use super::action::{Outcome, PracticeAction};
use super::state::Practice;
use super::SetGame;
use crate::competition::{
    Competition, Entry, Error, Spec, TableNeed, TableReport, TableResult, Visit,
};

impl<G: SetGame> Competition for Practice<G> {
    type Action = PracticeAction;
    const GAME: &'static str = G::GAME;
    const KIND: &'static str = G::KIND;

    fn create(id: &str, spec: &Spec) -> Result<Practice<G>, Error> {
        Practice::new(id, spec)
    }

    fn apply(&mut self, _seq: u64, action: &PracticeAction) -> Result<(), Error> {
        self.apply_action(action)
    }

    fn common(&self) -> &crate::competition::Common {
        &self.common
    }

    fn rounds(&self) -> u32 {
        1
    }

    /// Every run of an open set that has a board to play: that board, computers in every seat
    /// but the person's (in every seat of a reference run), at the run's level.
    fn tables_now(&self) -> Vec<TableNeed> {
        if !self.open() {
            return Vec::new();
        }
        self.runs
            .iter()
            .filter_map(|run| {
                let board = run.now()?;
                let computers = (0..G::SEATS)
                    .filter(|&s| run.is_reference() || s != G::PERSON)
                    .collect();
                Some(TableNeed {
                    round: 1,
                    table: run.number,
                    slot: board,
                    deal: board,
                    computers,
                    table_id: run.board(board)?.table_id.clone(),
                    prior_timeouts: self.prior_timeouts(run, board),
                    level: Some(run.level.clone()),
                })
            })
            .collect()
    }

    fn created(spec: Spec) -> PracticeAction {
        PracticeAction::Create { spec }
    }

    fn creation(action: &PracticeAction) -> Option<&Spec> {
        match action {
            PracticeAction::Create { spec } => Some(spec),
            _ => None,
        }
    }

    fn register(_: Vec<Entry>) -> Result<PracticeAction, Error> {
        Err(Error::PracticeNoEntries)
    }

    fn add_entries(_: Vec<Entry>) -> Result<PracticeAction, Error> {
        Err(Error::PracticeNoEntries)
    }

    fn start_round(round: u32, at_ms: u64) -> PracticeAction {
        PracticeAction::StartRound { round, at_ms }
    }

    fn close_round(round: u32, forced: bool) -> PracticeAction {
        PracticeAction::CloseRound { round, forced }
    }

    fn reveal(early: bool) -> PracticeAction {
        PracticeAction::Reveal { early }
    }

    fn opened(need: &TableNeed, table_id: String) -> PracticeAction {
        PracticeAction::TableOpened {
            run: need.table,
            board: need.slot,
            table_id,
        }
    }

    fn result(need: &TableNeed, table_id: String, report: TableReport) -> Option<PracticeAction> {
        let outcome = match report.result {
            TableResult::Board {
                declarer,
                defenders,
            } => Outcome::Board {
                declarer,
                defenders,
            },
            TableResult::Game(record) => Outcome::Game(record),
        };
        let tally = report.tally.trimmed();
        Some(PracticeAction::Result {
            run: need.table,
            board: need.slot,
            table_id,
            outcome,
            timeouts: tally.timeouts,
            auto_moves: tally.auto_moves,
        })
    }

    fn visited(visits: Vec<Visit>) -> PracticeAction {
        PracticeAction::Visits { visits }
    }

    /// No referee rules at a practice table: a result stands as the table reported it.
    fn revisable(&self) -> Vec<(TableNeed, TableResult)> {
        Vec::new()
    }

    fn revised(_: &TableNeed, _: String, _: TableReport) -> Option<PracticeAction> {
        None
    }

    /// The tables of boards played; once the set is closed, every table.
    fn idle_tables(&self) -> Vec<String> {
        let closed = !self.open();
        self.runs
            .iter()
            .flat_map(|r| &r.boards)
            .filter(|b| closed || b.played.is_some())
            .filter_map(|b| b.table_id.clone())
            .collect()
    }

    /// The computers' reference runs, begun when the set opens, one a level of its terms.
    fn due(&self, _seed: &Seed) -> Result<Option<PracticeAction>, Error> {
        if !self.open() {
            return Ok(None);
        }
        Ok(self
            .references_due()
            .first()
            .map(|level| PracticeAction::Begin {
                run: self.runs.len() as u32 + 1,
                player: None,
                name: None,
                level: level.to_string(),
                at_ms: self.opened_ms.unwrap_or(0),
            }))
    }

    fn action_name(action: &PracticeAction) -> &'static str {
        action.name()
    }
}
