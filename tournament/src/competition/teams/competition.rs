//! The 够级 team competition as a [`Competition`]: created from its spec, its log applied, the
//! tables it needs now, the draw it logs by itself, the actions the server logs for it.

use crate::gouji::FinalSeating;
use rules::deal::Seed;

use super::action::TeamsAction;
use super::apply;
use super::state::{Teams, DEFAULT_FINAL_GAMES, GAME};
use crate::competition::text::{text, MAX_TITLE};
use crate::competition::{
    Common, Competition, Entry, Error, Field, Spec, TableNeed, TableReport, TableResult, Visit,
};

impl Competition for Teams {
    type Action = TeamsAction;
    const GAME: &'static str = GAME;

    fn create(id: &str, spec: &Spec) -> Result<Teams, Error> {
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
        if spec.level.is_some() || spec.trump.is_some() {
            return Err(Error::NothingToFix);
        }
        let final_games = spec.final_games.unwrap_or(DEFAULT_FINAL_GAMES);
        if final_games == 0 || !final_games.is_multiple_of(3) || final_games > 30 {
            return Err(Error::FinalGameCount { games: final_games });
        }
        if spec.groups == Some(0) {
            return Err(Error::NoGroups);
        }
        spec.tables = 0;
        spec.skip_after = None;
        spec.revenge = false;
        spec.prizes = None;
        spec.rounds = 0;
        spec.boards_per_round = 0;
        spec.movement = Default::default();
        let groups_wanted = spec.groups.unwrap_or(0);
        let spec_seating = spec.final_seating.unwrap_or(FinalSeating::ByGroup);
        let (common, entries) = Common::new(id, spec);
        let mut t = Teams {
            common,
            teams: Vec::new(),
            groups_wanted,
            final_games,
            final_seating: spec_seating,
            drawn_groups: Vec::new(),
            left: Vec::new(),
            stages: Vec::new(),
        };
        if !entries.is_empty() {
            t.register(&entries)?;
            t.common.registered = 1;
        }
        Ok(t)
    }

    /// The balanced final seating for a new competition; a log without one seats by group.
    fn name_defaults(spec: &mut Spec) {
        spec.final_seating.get_or_insert(FinalSeating::Balanced);
    }

    fn apply(&mut self, seq: u64, action: &TeamsAction) -> Result<(), Error> {
        apply::apply(self, seq, action)
    }

    fn common(&self) -> &Common {
        &self.common
    }

    /// The rounds started, and one more until the final is drawn: how many knockout rounds the
    /// field needs shows as they are drawn.
    fn rounds(&self) -> u32 {
        self.common.round + u32::from(self.final_round().is_none())
    }

    fn tables_now(&self) -> Vec<TableNeed> {
        let Some(round) = self.common.playing() else {
            return Vec::new();
        };
        let stage = self.stage(round);
        self.open_now(round)
            .into_iter()
            .map(|s| TableNeed {
                round,
                table: s.table,
                slot: s.game,
                deal: s.deal,
                computers: self.computer_seats(&s),
                table_id: stage
                    .and_then(|st| st.games.get(&(s.table, s.game)))
                    .and_then(|slot| slot.table_id.clone()),
                // 够级's clock warns and passes for the seat; it keeps no count.
                prior_timeouts: Vec::new(),
                level: None,
            })
            .collect()
    }

    fn created(spec: Spec) -> TeamsAction {
        TeamsAction::Create { spec }
    }

    fn creation(action: &TeamsAction) -> Option<&Spec> {
        match action {
            TeamsAction::Create { spec } => Some(spec),
            _ => None,
        }
    }

    fn register(entries: Vec<Entry>) -> Result<TeamsAction, Error> {
        Ok(TeamsAction::Register { entries })
    }

    fn add_entries(entries: Vec<Entry>) -> Result<TeamsAction, Error> {
        Ok(TeamsAction::AddEntries { entries })
    }

    fn start_round(round: u32, at_ms: u64) -> TeamsAction {
        TeamsAction::StartRound {
            round,
            at_ms: Some(at_ms),
        }
    }

    fn close_round(round: u32, forced: bool) -> TeamsAction {
        TeamsAction::CloseRound { round, forced }
    }

    fn reveal(early: bool) -> TeamsAction {
        TeamsAction::Reveal { early }
    }

    fn opened(need: &TableNeed, table_id: String) -> TeamsAction {
        TeamsAction::GameOpened {
            round: need.round,
            table: need.table,
            game: need.slot,
            table_id,
        }
    }

    fn result(need: &TableNeed, table_id: String, report: TableReport) -> Option<TeamsAction> {
        let TableResult::Game(record) = report.result else {
            return None;
        };
        Some(TeamsAction::GameResult {
            round: need.round,
            table: need.table,
            game: need.slot,
            table_id,
            record,
            auto_moves: report.tally.trimmed().auto_moves,
        })
    }

    fn visited(visits: Vec<Visit>) -> TeamsAction {
        TeamsAction::Visits { visits }
    }

    fn revisable(&self) -> Vec<(TableNeed, TableResult)> {
        let Some(round) = self.common.playing() else {
            return Vec::new();
        };
        self.seatings(round)
            .into_iter()
            .filter_map(|(s, _)| {
                let slot = self.stage(round)?.games.get(&(s.table, s.game))?;
                let record = slot.record.clone().filter(|_| slot.adjusted.is_none())?;
                let need = TableNeed {
                    round,
                    table: s.table,
                    slot: s.game,
                    deal: s.deal,
                    computers: self.computer_seats(&s),
                    table_id: slot.table_id.clone(),
                    prior_timeouts: Vec::new(),
                    level: None,
                };
                Some((need, TableResult::Game(record)))
            })
            .collect()
    }

    fn revised(need: &TableNeed, table_id: String, report: TableReport) -> Option<TeamsAction> {
        let TableResult::Game(record) = report.result else {
            return None;
        };
        Some(TeamsAction::GameRevised {
            round: need.round,
            table: need.table,
            game: need.slot,
            table_id,
            record,
            ruling: report.ruling,
        })
    }

    /// The tables of closed rounds, and of games opened but no longer to be played (an extra
    /// game a ruling made needless).
    fn idle_tables(&self) -> Vec<String> {
        let closed = self.common.closed;
        let open: Vec<(u32, u32, u32)> = self
            .tables_now()
            .iter()
            .map(|n| (n.round, n.table, n.slot))
            .collect();
        self.stages
            .iter()
            .flat_map(|stage| {
                let round = stage.round;
                let open = &open;
                stage
                    .games
                    .iter()
                    .filter_map(move |(&(table, game), slot)| {
                        let idle = round <= closed
                            || (slot.record.is_none() && !open.contains(&(round, table, game)));
                        slot.table_id.clone().filter(|_| idle)
                    })
            })
            .collect()
    }

    /// The round being played is drawn first, from the seed.
    fn due(&self, seed: &Seed) -> Result<Option<TeamsAction>, Error> {
        let Some(round) = self.common.playing() else {
            return Ok(None);
        };
        if self.stage(round).is_none_or(|s| s.kind.is_some()) {
            return Ok(None);
        }
        let drawn = self.draw_for(round, seed)?;
        Ok(Some(TeamsAction::Draw { round, drawn }))
    }

    fn action_name(action: &TeamsAction) -> &'static str {
        action.name()
    }
}
