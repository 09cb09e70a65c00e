//! 引擎接口 (the [`Engine`] trait for the server): seats are `Seat::index()` (N 0, E 1, S 2,
//! W 3); clocks are 60 s to bury and 30 s a play or a choice (ruleset options).

use std::time::Duration;

use super::board::Board;
use super::error::{Phase, RuleError};
use super::event::{Action, Event};
use super::seat::Seat;
use super::view::{legal_from_view, View};
use crate::{Actor, Engine, Viewer};

impl Engine for Board {
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = RuleError;

    fn seats(&self) -> usize {
        4
    }

    fn apply(&mut self, seat: usize, by: Actor, action: Action) -> Result<Vec<Event>, RuleError> {
        if seat >= 4 {
            return Err(RuleError::NoSuchSeat { seat });
        }
        Board::apply(self, Seat::from_index(seat), by, action)
    }

    fn to_act(&self) -> Vec<usize> {
        Board::to_act(self).map(Seat::index).into_iter().collect()
    }

    fn view(&self, viewer: Viewer) -> View {
        Board::view(self, viewer)
    }

    fn redact(&self, event: &Event, viewer: Viewer) -> Option<Event> {
        Board::redact(self, event, viewer)
    }

    fn legal_from_view(view: &View) -> Vec<Action> {
        legal_from_view(view)
    }

    fn timeout_action(&self) -> Action {
        Action::Timeout
    }

    fn move_limit(&self, _since_start: Duration) -> Option<Duration> {
        let seconds = match self.phase() {
            Phase::Bury => self.rules().bury_seconds,
            Phase::Play => self.rules().play_seconds,
            Phase::Choose => self.rules().choice_seconds,
            Phase::Over => return None,
        };
        Some(Duration::from_secs(seconds.into()))
    }

    fn is_over(&self) -> bool {
        Board::is_over(self)
    }
}
