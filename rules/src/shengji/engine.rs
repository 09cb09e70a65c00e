//! 引擎接口 (the [`Engine`] trait for the server): seats are `Seat::index()` (N 0, E 1, S 2,
//! W 3); clocks are 60 s to bury and 30 s a play or a choice, 15 s of grace after a warned
//! timeout (ruleset options).

use std::borrow::Cow;
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

    /// All but what is the viewer's own (`viewer`, `hand`, `hand_trumps`, `playable`, `hint`)
    /// and the referee's `hands`. The kitty, the last trick and the finished tricks are shown
    /// to some viewers only, but alike to all who see them.
    fn is_shared_view_field(name: &str) -> bool {
        matches!(
            name,
            "board"
                | "kitty"
                | "last_trick"
                | "tricks"
                | "ruleset"
                | "declarer"
                | "level"
                | "trump"
                | "phase"
                | "to_act"
                | "hand_sizes"
                | "trick"
                | "leader"
                | "plays"
                | "winning"
                | "choice"
                | "defenders"
                | "defender_point_cards"
                | "points_left"
                | "timeouts"
                | "grace"
                | "result"
                | "result_final"
        )
    }

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

    fn redact<'a>(&self, event: &'a Event, viewer: Viewer) -> Option<Cow<'a, Event>> {
        Board::redact(self, event, viewer)
    }

    fn legal_from_view(view: &View) -> Vec<Action> {
        legal_from_view(view)
    }

    fn timeout_action(&self) -> Action {
        Action::Timeout
    }

    /// 60 s to bury, 30 s a play or a choice; after a warned timeout, the grace period for the
    /// same move (`timeout_grace_seconds`, 15 s). A function of the board alone.
    fn move_limit(&self, _since_start: Duration) -> Option<Duration> {
        let seconds = match self.phase() {
            Phase::Over => return None,
            _ if self.in_grace() => self.rules().timeout_grace_seconds,
            Phase::Bury => self.rules().bury_seconds,
            Phase::Play => self.rules().play_seconds,
            Phase::Choose => self.rules().choice_seconds,
        };
        Some(Duration::from_secs(seconds.into()))
    }

    /// True once play has ended, and after (the table is over); the result may still change by
    /// a late referee ruling until [`Board::is_final`].
    fn is_over(&self) -> bool {
        Board::is_over(self)
    }
}
