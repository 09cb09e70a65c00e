//! One stored table's plays scored for fair play: every action a seat chose itself (a
//! player's or a computer's own; not 托管's, not the clock's), replayed from the log, asked of
//! `bots::fairplay` — was it among the best with the true hands, and how often would it be on
//! the deals the seat's own view allows, and with its partner's (teammates') hands as they
//! are. Decisions the seat's own view already settles are screened out there.

use bots::fairplay;
use rules::Actor;

use super::report::{Decision, TableEvidence};
use crate::store::{self, StoredTable};
use crate::table::replay::{apply_stored, dealt, EntryFault};
use crate::table::TableGame;

/// An 80分 board (board `board` of round `round`), scored.
pub fn shengji(table: &StoredTable, round: u32, board: u32) -> TableEvidence {
    use bots::shengji::all_seeing;
    use rules::shengji::{Action, Board, Seat};
    replayed::<Board>(table, round, board, |game, e, chosen| {
        if !chosen {
            return None;
        }
        let action = serde_json::from_str::<Action>(&e.action).ok()?;
        let seed = all_seeing::seed_of(game, Seat::from_index(e.seat));
        all_seeing::evidence(game, &action, fairplay::SCREEN, fairplay::WORLDS, seed)
    })
}

/// A 够级 game (game `game` of round `round`'s match at its table), scored. Every seat takes
/// in its view after every step, as a seat at the table does: what the seat to act knew is
/// its notes then.
pub fn gouji(table: &StoredTable, round: u32, game: u32) -> TableEvidence {
    use bots::gouji::{all_seeing, Notes};
    use rules::gouji::{Action, Game, Seat, View};
    use rules::Viewer;
    let mut notes: [Notes; 6] = Default::default();
    replayed::<Game>(table, round, game, |g, e, chosen| {
        for (s, n) in notes.iter_mut().enumerate() {
            n.observe_owned(View::of(g, Viewer::Seat(s)));
        }
        let seat = Seat::from_index(e.seat);
        if !chosen || g.phase().seat() != Some(seat) {
            return None;
        }
        let action = serde_json::from_str::<Action>(&e.action).ok()?;
        let seed = all_seeing::seed_of(g, seat, e.seq);
        all_seeing::evidence(
            g,
            &notes[e.seat],
            &action,
            fairplay::SCREEN,
            fairplay::WORLDS,
            seed,
        )
    })
}

/// The table's log replayed from its deal; `score` sees the game before each entry (every
/// entry: a 够级 seat's notes must see them all), told whether the seat chose it itself (the
/// only entries scored).
fn replayed<G: TableGame>(
    table: &StoredTable,
    round: u32,
    board: u32,
    mut score: impl FnMut(&G, &store::LogEntry, bool) -> Option<bots::fairplay::Evidence>,
) -> TableEvidence {
    if let Err(t) = store::verify(&table.header, &table.log) {
        return TableEvidence::fault(&format!("log tampered: {t}"));
    }
    let mut game = match dealt::<G>(&table.header) {
        Ok(d) => d.engine,
        Err(w) => return TableEvidence::fault(&w.en),
    };
    let mut out = TableEvidence::default();
    for e in &table.log {
        let chosen = matches!(e.actor, Actor::Player | Actor::Bot);
        if let Some(evidence) = score(&game, e, chosen) {
            out.decisions.push(Decision {
                table_id: table.header.id.clone(),
                seq: e.seq,
                round,
                board,
                evidence,
            });
        }
        if let Err(f) = apply_stored(&mut game, e) {
            let why = match f {
                EntryFault::Unreadable(s) => s,
                EntryFault::Refused(r) => format!("{r:?}"),
            };
            out.fault = Some(format!("entry {}: {why}", e.seq));
            break;
        }
    }
    out
}
