//! What the server needs of a kind of competition beyond its engine (`tournament::competition::
//! Competition`): the director's steps only it has, who a card's token names and where they sit
//! down, and its wire views (the console's, the pair's or team's page, the seating cards, the
//! standings and the printed results). Two kinds: 80分 pairs (`duplicate.rs`) and 够级
//! teams (`teams.rs`).

use protocol::{CompetitionCards, CompetitionView, PairStatus, Refusal, TableState};
use tournament::competition::{Common, Competition};

use super::denied::Denied;
use super::standings::Standings;
use super::wire;
use crate::lobby::Lobby;
use crate::store::{self, CompetitionHeader};
use crate::table::TableGame;

/// Where a card's holder sits down now.
#[derive(Clone, Debug)]
pub struct Place {
    pub round: u32,
    /// The table of the round (its number in the movement or the match's).
    pub table_no: u32,
    /// The board (80分) or game (够级) played there now.
    pub slot: u32,
    pub table_id: String,
    /// The seats the holder may take, in order, with the name each shows by default.
    pub seats: Vec<(usize, String)>,
}

/// What a view is built from besides the competition: its stored header and log head, and the
/// lobby for its tables' states.
pub struct Ctx<'a> {
    pub header: &'a CompetitionHeader,
    pub seq: u64,
    pub head_hash: &'a str,
    pub lobby: &'a Lobby,
}

impl Ctx<'_> {
    /// A table's state and seq now, while it is served here.
    pub fn table(&self, id: &str) -> Option<(TableState, u64)> {
        self.lobby.get(id).map(|h| {
            let s = h.summary();
            (s.state, s.seq)
        })
    }

    /// The view's fields every kind shares; the kind fills in its own.
    pub fn base_view(&self, c: &Common, rounds: u32) -> CompetitionView {
        CompetitionView {
            id: self.header.id.clone(),
            name: c.spec.name.clone(),
            game: c.spec.game.clone(),
            ruleset: c.spec.ruleset.clone().unwrap_or_default(),
            tables: c.spec.tables,
            rounds,
            boards_per_round: c.spec.boards_per_round,
            movement: c.spec.movement,
            level: c.spec.level.clone(),
            trump: c.spec.trump.clone(),
            board_minutes: c.spec.board_minutes,
            state: wire::state(c.stage()),
            round: c.round,
            closed: c.closed,
            round_started_ms: None,
            round_deadline_ms: None,
            now_ms: store::now_ms(),
            finished_early: c.early,
            seed_commitment: self.header.seed_commitment.clone(),
            deal_algorithm: rules::deal::ALGORITHM.to_string(),
            seed: c.finished().then(|| self.header.seed.clone()),
            pairs: Vec::new(),
            schedule: Vec::new(),
            log_len: self.seq,
            head_hash: self.head_hash.to_string(),
            gouji: None,
            add_entries: c.round == 0 && c.registered > 0,
            conduct: None,
            warnings: Vec::new(),
            practice: None,
        }
    }
}

/// The seats' connection history for the director: each visit with the seat's holder, and the
/// partners reached from one address or device.
pub fn conduct<K: Kind>(c: &K) -> protocol::ConductView {
    let common = c.common();
    let seat_name = |seat: usize| {
        <K::Game as TableGame>::seat_zh(seat)
            .map(str::to_string)
            .unwrap_or_else(|| (seat + 1).to_string())
    };
    let visits = common
        .conduct
        .visits
        .iter()
        .map(|v| protocol::SeatVisitLine {
            round: v.round,
            table: v.table,
            slot: v.slot,
            seat: v.seat,
            seat_name: seat_name(v.seat),
            player: c
                .sitter(v.round, v.table, v.slot, v.seat)
                .unwrap_or_default(),
            at_ms: v.at_ms,
            what: v.what,
            address: v.address.clone(),
            device: v.device.clone(),
        })
        .collect();
    let shared = common
        .conduct
        .shared()
        .into_iter()
        .map(|s| {
            // The slot of the table's first visit names its players (the same all round).
            let slot = common
                .conduct
                .visits
                .iter()
                .find(|v| v.table_id == s.table_id)
                .map_or(0, |v| v.slot);
            protocol::SharedLine {
                round: s.round,
                table: s.table,
                players: s
                    .seats
                    .iter()
                    .map(|&seat| c.sitter(s.round, s.table, slot, seat).unwrap_or_default())
                    .collect(),
                seats: s.seats,
                device: s.device,
                mark: s.mark,
            }
        })
        .collect();
    protocol::ConductView {
        visits,
        shared,
        second_device: common.spec.second_device,
        auto_play: common.spec.auto_play,
    }
}

/// A kind of competition the server runs.
pub trait Kind: Competition {
    /// The game its tables deal.
    type Game: TableGame;
    /// The director's steps only this kind has, as its routes read them.
    type Step: Send + 'static;
    /// Who a card's token names: a pair, a team.
    type Holder: Clone + Send + Sync + 'static;

    /// A director's step as a log action (`now_ms`: the server's clock, for what is timed).
    fn step(&self, step: Self::Step, now_ms: u64) -> Result<Self::Action, Denied>;

    /// The entry a typed card token names (never a computer's).
    fn holder(&self, header: &CompetitionHeader, token: &str) -> Option<Self::Holder>;
    /// What the holder's arrival logs before they sit down: a practice player's first
    /// arrival begins their run. Nothing for a director's event (its entries are registered).
    fn arrive(
        &self,
        who: &Self::Holder,
        req: &protocol::CompetitionJoin,
        now_ms: u64,
    ) -> Result<Option<Self::Action>, Denied> {
        let _ = (who, req, now_ms);
        Ok(None)
    }
    /// Where the holder sits down now, or why it cannot.
    fn place(&self, who: &Self::Holder) -> Result<Place, Denied>;
    /// Why a seat asked for is not the holder's (`place`: where it sits now).
    fn not_yours(who: &Self::Holder, place: &Place, seat: usize) -> Refusal;
    /// The action that logs a holder's first sitting at a seat this round (80分 lateness is
    /// judged from it); `None` when this kind does not log it, or it was logged.
    fn seated(
        &self,
        who: &Self::Holder,
        place: &Place,
        seat: usize,
        now_ms: u64,
    ) -> Option<Self::Action>;
    /// The holder's word on its results of the round being played.
    fn confirm(
        &self,
        who: &Self::Holder,
        agree: bool,
        note: Option<String>,
    ) -> Result<Self::Action, Denied>;

    /// Who holds `seat` at `table` of `round` playing `slot`: the player's name.
    fn sitter(&self, round: u32, table: u32, slot: u32, seat: usize) -> Option<String>;
    /// The console's (`full`) or the public's view.
    fn view(&self, ctx: &Ctx, full: bool) -> CompetitionView;
    /// The holder's own page.
    fn status(&self, ctx: &Ctx, who: &Self::Holder) -> PairStatus;
    /// Every seating card (with its token) and table card.
    fn cards(&self, header: &CompetitionHeader) -> CompetitionCards;
    /// The standings as the director (`full`) or the public may see them now.
    fn standings(&self, full: bool) -> Result<Standings, Denied>;
    /// The printable results page (A4).
    fn page(&self, s: &Standings, header: &CompetitionHeader) -> String;
    /// A practice set's line for the sets' list; `None` for a director's event.
    fn practice_brief(&self, header: &CompetitionHeader) -> Option<protocol::PracticeBrief> {
        let _ = header;
        None
    }
}

/// The list's line of a competition.
pub fn brief<K: Kind>(c: &K, header: &CompetitionHeader) -> protocol::CompetitionBrief {
    let common = c.common();
    protocol::CompetitionBrief {
        id: header.id.clone(),
        name: common.spec.name.clone(),
        game: common.spec.game.clone(),
        state: wire::state(common.stage()),
        round: common.round,
        rounds: c.rounds(),
        node: None,
        practice: c.practice_brief(header),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tournament::competition::{Duplicate, Teams};

    /// A kind's tables deal the game its log names (`Spec::game`): one name for both.
    #[test]
    fn each_kind_plays_its_own_game() {
        fn game<K: Kind>() -> (&'static str, &'static str) {
            (K::GAME, <K::Game as TableGame>::GAME)
        }
        let (a, b) = game::<Duplicate>();
        assert_eq!(a, b);
        let (a, b) = game::<Teams>();
        assert_eq!(a, b);
    }
}
