//! 够级 sessions for the calibration: `tables` tables, each playing the same `boards` games
//! (duplicate, as the final deals one game to its three tables), team A of table 1 the cheat
//! (when there is one). Team A's seats at every table search the 普通 policy's four best
//! candidates over [`SEARCH_GAMES`] games — the cheat's with the hands it sees as they are
//! (both teammates', or its 对头's), an honest team's on its own view alone — and team B plays
//! 普通. The honest control must search as the cheat does: the analyser plays every game out
//! with the 普通 policy, so that policy's own choices fit any realistic hands better than the
//! sampled ones (docs/fairplay.md, 够级), and a field of plain 普通 teams would hide a cheat
//! whose search strays from it. Team A is scored; team B too with `both_directions`.

use rules::cards::Card;
use rules::deal::deal_gouji;
use rules::gouji::legal::legal_from_view;
use rules::gouji::{Game, Ruleset, Seat, Team, View};
use rules::{Actor, Viewer};

use super::super::players::Peek;
use super::session::{Config, PairRecord};
use crate::arena::deal_seed;
use crate::fairplay::Tally;
use crate::gouji::{all_seeing, club, expert, Notes};
use crate::rng::Rng;

/// Games a team-A seat's search averages each candidate over.
pub const SEARCH_GAMES: u32 = 16;
/// Candidates it weighs.
const SEARCH_CANDIDATES: usize = 4;
/// Most actions a game may take before it is given up (a game has about a thousand).
const ACTION_LIMIT: u64 = 20_000;

/// Table `t` of session `s`: every game of the session, its team A and team B tallies.
pub(super) fn table(config: &Config, s: usize, t: usize) -> [PairRecord; 2] {
    let seed = Rng::mix(&[config.seed, s as u64]);
    let cheats = config.cheat.filter(|_| t == 0);
    let mut teams: [PairRecord; 2] = Default::default();
    teams[0].cheats = cheats.is_some();
    for k in 0..config.boards {
        let deal = deal_gouji(&deal_seed(seed), k as u32 + 1);
        let tallies = game(config, &deal, cheats, Rng::mix(&[seed, t as u64, k as u64]));
        for (team, tally) in teams.iter_mut().zip(tallies) {
            team.boards.push(tally);
        }
    }
    teams
}

/// One game at a table, every decision of the scored teams scored.
fn game(
    config: &Config,
    deal: &rules::deal::GoujiDeal,
    cheats: Option<Peek>,
    seed: u64,
) -> [Tally; 2] {
    let mut game = Game::new(deal, Ruleset::zaozhuang_2017());
    let mut notes: [Notes; 6] = Default::default();
    let mut tallies = [Tally::default(); 2];
    for n in 0..ACTION_LIMIT {
        // Every seat takes in every view, as a seat at the table does.
        for s in Seat::ALL {
            notes[s.index()].observe_owned(View::of(&game, Viewer::Seat(s.index())));
        }
        let Some(seat) = game.phase().seat() else {
            break;
        };
        let view = View::of(&game, Viewer::Seat(seat.index()));
        let mine = &notes[seat.index()];
        let seed = Rng::mix(&[seed, n]);
        let team_a = seat.team() == Team::A;
        let action = if team_a {
            let shown = seen(&game, seat, cheats);
            expert::decide_seeing(&view, mine, &shown, SEARCH_CANDIDATES, SEARCH_GAMES, seed)
        } else {
            club::decide(&view, &expert::seen_of(mine))
        }
        .or_else(|| legal_from_view(&view).into_iter().next())
        .expect("the seat to act has an action");
        if team_a || config.both_directions {
            let e = all_seeing::evidence(
                &game,
                mine,
                &action,
                config.screen,
                config.worlds,
                all_seeing::seed_of(&game, seat, n),
            );
            if let Some(e) = e {
                tallies[usize::from(!team_a)].add(&e);
            }
        }
        game.apply(seat, Actor::Bot, action)
            .expect("a computer's action is legal");
    }
    tallies
}

/// The hands a cheating seat sees: its two teammates' (`Partner`), or its 对头's, the
/// opponent across (`Opponent`); none for an honest seat.
pub fn seen(game: &Game, seat: Seat, cheats: Option<Peek>) -> Vec<(Seat, Vec<Card>)> {
    let seats: Vec<Seat> = match cheats {
        None => Vec::new(),
        Some(Peek::Partner) => Seat::ALL
            .into_iter()
            .filter(|&s| s != seat && s.team() == seat.team())
            .collect(),
        Some(Peek::Opponent) => vec![seat.opposite()],
    };
    seats
        .into_iter()
        .map(|s| (s, game.hand(s).cards()))
        .collect()
}
