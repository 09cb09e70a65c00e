//! 引擎接口 (the engine interface): [`crate::Engine`] for [`Game`], what the server's table
//! actor, log replay, clocks and bots use. Seats are indices (`Seat::index`).

use std::borrow::Cow;
use std::time::Duration;

use crate::{Actor, Engine, Viewer};

use super::action::Action;
use super::error::RuleError;
use super::event::Event;
use super::game::Game;
use super::legal::legal_from_view;
use super::view::View;
use super::Seat;

impl Engine for Game {
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = RuleError;

    /// All but what is the viewer's own: `viewer`, `hand`, the referee's `hands`, `can_pass`,
    /// `can_yield` and `burn_offer`. `players` is shared (its counts are answered alike for
    /// every viewer), and so is `gouji_thresholds` (the ruleset's, in the views of the seats
    /// whose sets bind, left out of the others).
    fn is_shared_view_field(name: &str) -> bool {
        matches!(
            name,
            "game"
                | "ruleset"
                | "players"
                | "gouji_thresholds"
                | "top"
                | "turn"
                | "prompt"
                | "free_play"
                | "finish"
                | "score"
                | "outcome"
                | "deducted"
                | "warned"
        )
    }

    fn seats(&self) -> usize {
        6
    }

    fn apply(&mut self, seat: usize, by: Actor, action: Action) -> Result<Vec<Event>, RuleError> {
        if seat >= 6 {
            return Err(RuleError::NotYourTurn {
                turn: self.phase().seat(),
            });
        }
        Game::apply(self, Seat::from_index(seat), by, action)
    }

    fn ask(&self, seat: usize, action: &Action) -> Option<Result<Vec<Event>, RuleError>> {
        (seat < 6 && *action == Action::AskCount)
            .then(|| Ok(self.ask_count(Seat::from_index(seat))))
    }

    fn to_act(&self) -> Vec<usize> {
        self.phase().seat().map(Seat::index).into_iter().collect()
    }

    fn view(&self, viewer: Viewer) -> View {
        View::of(self, viewer)
    }

    /// Every set is announced (报牌); only a failed burner's void cards stay private to them
    /// and the referees.
    fn redact<'a>(&self, event: &'a Event, viewer: Viewer) -> Option<Cow<'a, Event>> {
        match event {
            Event::BurnFailed {
                seat,
                void_count,
                owner,
                restored,
                ..
            } if viewer != Viewer::Referee && viewer != Viewer::Seat(seat.index()) => {
                Some(Cow::Owned(Event::BurnFailed {
                    seat: *seat,
                    void: None,
                    void_count: *void_count,
                    owner: *owner,
                    restored: restored.clone(),
                }))
            }
            _ => Some(Cow::Borrowed(event)),
        }
    }

    fn legal_from_view(view: &View) -> Vec<Action> {
        legal_from_view(view)
    }

    fn timeout_action(&self) -> Action {
        Action::Timeout
    }

    /// 比赛限时, a function of the state: no limit in the first minutes of a game (每局满10分钟
    /// 后); then 20 s for the set (每套牌的出牌时限为20秒); once the clock has warned the seat
    /// for this move (its first expiry, `Action::Timeout`), the 5 s grace (超过5秒仍不出牌者视为
    /// 过牌). The server asks again after every action, so the warning restarts the clock with
    /// the grace, and the next move has its full time again.
    fn move_limit(&self, since_start: Duration) -> Option<Duration> {
        let r = self.ruleset();
        if self.warned() {
            return Some(Duration::from_secs(u64::from(r.grace_seconds)));
        }
        (since_start >= Duration::from_secs(60 * u64::from(r.free_minutes)))
            .then(|| Duration::from_secs(u64::from(r.move_seconds)))
    }

    fn is_over(&self) -> bool {
        Game::is_over(self)
    }
}
