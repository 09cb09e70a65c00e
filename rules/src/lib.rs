//! paiju's rules: pure, deterministic engines for 80分 (升级) and 够级.
//!
//! No I/O, no async, no clocks: time arrives as an action. Same seed and same actions give the
//! same states on any machine.
//!
//! - [`cards`]: cards, the notation of the rules specs (`S10`, `HA`, `BJ`, `RJ`), hands as
//!   multisets over any number of decks, card points.
//! - [`deal`]: seeds, their public commitment, and the seeded shuffle every board is dealt from.
//! - [`name`]: display names, one rule for tables, events and practice (none passes for a
//!   computer seat).
//! - [`Explain`]: every rejection of every engine has a stable machine code and a message in
//!   Chinese and English that names the rule.

pub mod cards;
pub mod deal;
pub mod gouji;
pub mod name;
pub mod posted;
pub mod shengji;

/// What every rule error says about itself: a stable code for machines, plain words for people.
pub trait Explain {
    /// Stable snake_case code (protocol, logs, tests). Never changes once published.
    fn code(&self) -> &'static str;
    /// The rule in Chinese, as a player would say it (the default language of the client).
    fn zh(&self) -> String;
    /// The same rule in English.
    fn en(&self) -> String;
}

/// Who is looking at a table: views and events are cut to what this viewer may see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Viewer {
    /// A player, by seat index in the game's seat order (80分: N, E, S, W; 够级: A1, B1, A2, B2,
    /// A3, B3). Sees their own hand and public information only.
    Seat(usize),
    /// Public information only.
    Spectator,
    /// Everything: a referee sees every hand (by role, never by default).
    Referee,
}

/// Who acts. The engines check it: a ruling (penalty, deduction, forfeit, ending a board) is
/// accepted only from [`Actor::Referee`] and a timeout only from [`Actor::Clock`], so no player,
/// bot or replayed log can reach either through any path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Actor {
    /// The seat's player.
    Player,
    /// A bot sitting in the seat.
    Bot,
    /// The clock ran out: the engine's timeout action.
    Clock,
    /// 托管: the table played for a player whose clock had run out (or who asked for it).
    Auto,
    /// A referee: a ruling against the seat, or a move made for it on its behalf (logged with a
    /// reason by the server).
    Referee,
}

impl Actor {
    pub const ALL: [Actor; 5] = [
        Actor::Player,
        Actor::Bot,
        Actor::Clock,
        Actor::Auto,
        Actor::Referee,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Actor::Player => "player",
            Actor::Bot => "bot",
            Actor::Clock => "clock",
            Actor::Auto => "auto",
            Actor::Referee => "referee",
        }
    }

    pub fn parse(s: &str) -> Option<Actor> {
        Actor::ALL.into_iter().find(|a| a.name() == s)
    }
}

/// What the server needs of a game engine: one pure state machine per table.
///
/// Both engines implement it, so the table actor, the log replay, the clocks and the bots are
/// written once. Seats are indices here; each engine has its own typed `Seat` for its own API.
pub trait Engine {
    /// What a seat (or the clock, or a referee ruling) does. Serialised into the event log.
    type Action: Clone + std::fmt::Debug + serde::Serialize + serde::de::DeserializeOwned;
    /// What happened, in order. Some events are private to a seat; see [`Engine::redact`].
    type Event: Clone + std::fmt::Debug + PartialEq + serde::Serialize;
    /// A snapshot for one viewer. Deserialisable too: a bot or a WebSocket client rebuilds its
    /// view from the wire and computes its legal actions from it alone.
    type View: serde::Serialize + serde::de::DeserializeOwned;
    /// Whether the view's field `name` (as serialised) is alike in every view of one moment that
    /// has it: each seat's, a spectator's, the referee's. (Whether a view has it may depend on
    /// the viewer: the last trick, say, shown to some.) A server sending the views of one
    /// moment writes such a field once and copies its text into each later view that has the
    /// field, so a field whose content differs by viewer must never be named here (it would
    /// show one viewer's part to another): each game's tests check every view of every step of
    /// random play.
    fn is_shared_view_field(name: &str) -> bool {
        let _ = name;
        false
    }
    /// Why an action was refused. Refusals change nothing.
    type Error: Explain + std::fmt::Debug;

    /// Number of seats (4 or 6).
    fn seats(&self) -> usize;
    /// Applies an action by a seat. A refused action leaves the state exactly as it was.
    /// Clock expiries and referee rulings are actions too; for those `seat` is the seat whose
    /// clock ran out or who is ruled against, and `by` must be [`Actor::Clock`] or
    /// [`Actor::Referee`]: the engine refuses them from anyone else.
    fn apply(
        &mut self,
        seat: usize,
        by: Actor,
        action: Self::Action,
    ) -> Result<Vec<Self::Event>, Self::Error>;
    /// A question that is not a move (够级's 问牌): answered from the state to the asker alone,
    /// never logged, never touching a clock. `None`: this action is not a question (apply it).
    fn ask(
        &self,
        seat: usize,
        action: &Self::Action,
    ) -> Option<Result<Vec<Self::Event>, Self::Error>> {
        let _ = (seat, action);
        None
    }
    /// Seats that may act now (usually one; empty when the game is over).
    fn to_act(&self) -> Vec<usize>;
    /// The snapshot this viewer may see.
    fn view(&self, viewer: Viewer) -> Self::View;
    /// The event as this viewer may see it, or `None` if it is none of their business:
    /// borrowed when they see it whole (most events, for most viewers), so that sending an
    /// action's events to every viewer copies only what is hidden from some.
    fn redact<'a>(
        &self,
        event: &'a Self::Event,
        viewer: Viewer,
    ) -> Option<std::borrow::Cow<'a, Self::Event>>;
    /// Legal actions of the seat whose view this is, computed from the view alone (a bot needs
    /// nothing else). Where the full list would be huge (a void follower choosing 10 of 25
    /// cards), a documented subset that always holds the lowest legal play.
    fn legal_from_view(view: &Self::View) -> Vec<Self::Action>;
    /// Legal actions of `seat` now: by construction, only from what that seat may see.
    fn legal_actions(&self, seat: usize) -> Vec<Self::Action> {
        Self::legal_from_view(&self.view(Viewer::Seat(seat)))
    }
    /// The action the clock sends when `seat`'s time runs out.
    fn timeout_action(&self) -> Self::Action;
    /// How long `seat` has for its current move, given how long the game has run (够级 has no
    /// per-move limit in its first 10 minutes). `None`: no limit now.
    fn move_limit(&self, since_start: std::time::Duration) -> Option<std::time::Duration>;
    fn is_over(&self) -> bool;
}
