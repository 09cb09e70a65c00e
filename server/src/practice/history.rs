//! A player's history: every set they began, newest first, with their percentage against the
//! field as it stands now (it moves while a set is open), their place among the set's
//! finished runs, and their best and worst boards over all of it. Each set is asked where it
//! runs: its actor here, or (past one machine, another node's) its stored log read once.

use protocol::{PlayerView, PracticeBoardLine, PracticeHistoryLine, PracticeRunView};

use super::players::Players;
use crate::competition::denied::Denied;
use crate::competition::handle::each;
use crate::competition::Competitions;
use crate::store::PlayerRecord;

/// Best and worst boards shown.
const BOARDS_SHOWN: usize = 5;

/// The player's page: their sets and boards.
pub async fn of(
    competitions: &Competitions,
    players: &Players,
    player: &PlayerRecord,
    token: &str,
) -> Result<PlayerView, Denied> {
    let mut history = Vec::new();
    let mut boards = Vec::new();
    for (set, entry, noted_ms) in players.sets(&player.id).await? {
        if let Some(entry) = entry {
            // An event the player played (their pair's or team's line in its standings).
            match event_line(competitions, &set, &entry, noted_ms).await {
                Ok(line) => history.push(line),
                Err(_) => tracing::warn!(event = %set, "an event of a player's history not read"),
            }
            continue;
        }
        let found = match competitions.get(&set) {
            Ok(h) => {
                let brief = h.brief();
                each!(h, h => h.status(token.to_string()).await).map(|s| (s, brief))
            }
            Err(_) => competitions.stored_status(&set, token).await,
        };
        // A set that cannot be read now (its node busy, a damaged log) is left out of the
        // page rather than failing it; it is there again once it can be read.
        let Ok((status, brief)) = found else {
            tracing::warn!(set = %set, "a practice set of a player's history not read");
            continue;
        };
        let (Some(run), Some(set_brief)) = (status.practice, brief.practice) else {
            continue;
        };
        boards.extend(board_lines(&run, &set_brief.name, &set_brief.game));
        history.push(PracticeHistoryLine {
            set: set_brief.id,
            name: set_brief.name,
            game: set_brief.game,
            club: set_brief.club,
            began_ms: run.began_ms,
            boards: run.boards.len() as u32,
            played: run.boards.iter().filter(|b| b.done).count() as u32,
            done: run.done,
            percent: run.percent,
            place: run.place,
            of: run.of,
            open: set_brief.open,
            event: None,
        });
    }
    let (best, worst) = best_and_worst(boards);
    Ok(PlayerView {
        id: player.id.clone(),
        name: player.name.clone(),
        created_ms: player.created_ms,
        history,
        best,
        worst,
    })
}

/// An event's line in a player's history: the place and match points of their pair (80分,
/// its direction's ranking) or team (够级) in the standings the public sees (the closed rounds;
/// all of it once finished).
async fn event_line(
    competitions: &Competitions,
    id: &str,
    entry: &str,
    noted_ms: u64,
) -> Result<PracticeHistoryLine, Denied> {
    let (standings, brief) = competitions.standings_anywhere(id).await?;
    let (kind, number) = entry.split_once(' ').unwrap_or((entry, "0"));
    let number: u32 = number.parse().unwrap_or(0);
    let (place, of, mp) = match (&standings.gouji, kind) {
        (Some(g), _) => {
            let line = g.teams.iter().find(|t| t.team.number == number);
            (
                line.and_then(|t| t.place),
                g.teams.len() as u32,
                line.map(|t| f64::from(t.points)),
            )
        }
        (None, direction) => {
            let lines = if direction == "EW" {
                &standings.ranking.ew
            } else {
                &standings.ranking.ns
            };
            let line = lines.iter().find(|l| l.pair.number == number);
            (
                line.and_then(|l| l.place),
                lines.len() as u32,
                line.map(|l| l.mp.rounded()),
            )
        }
    };
    Ok(PracticeHistoryLine {
        set: id.to_string(),
        name: brief.name,
        game: brief.game,
        club: None,
        // When the player's card's page was first opened for it.
        began_ms: noted_ms,
        boards: 0,
        played: 0,
        done: standings.is_final,
        percent: None,
        place,
        of,
        open: !standings.is_final,
        event: Some(protocol::EventLine {
            entry: entry.to_string(),
            points: mp,
            through_round: standings.through_round,
        }),
    })
}

fn board_lines(run: &PracticeRunView, set_name: &str, game: &str) -> Vec<PracticeBoardLine> {
    run.boards
        .iter()
        .filter_map(|b| {
            Some(PracticeBoardLine {
                set: run.set.clone(),
                set_name: set_name.to_string(),
                game: game.to_string(),
                board: b.board,
                percent: b.percent?,
                began_ms: run.began_ms,
            })
        })
        .collect()
}

/// The best boards (highest first) and the worst (lowest first), a board in one list only.
fn best_and_worst(
    mut boards: Vec<PracticeBoardLine>,
) -> (Vec<PracticeBoardLine>, Vec<PracticeBoardLine>) {
    boards.sort_by(|a, b| {
        b.percent
            .total_cmp(&a.percent)
            .then(b.began_ms.cmp(&a.began_ms))
    });
    let best: Vec<_> = boards.iter().take(BOARDS_SHOWN).cloned().collect();
    let rest = boards.len() - best.len();
    let worst = boards
        .iter()
        .rev()
        .take(BOARDS_SHOWN.min(rest))
        .cloned()
        .collect();
    (best, worst)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(board: u32, percent: f64) -> PracticeBoardLine {
        PracticeBoardLine {
            set: "s".into(),
            set_name: "每日练习".into(),
            game: "shengji".into(),
            board,
            percent,
            began_ms: 0,
        }
    }

    #[test]
    fn best_and_worst_boards_are_apart_and_ordered() {
        let (best, worst) = best_and_worst((1..=12).map(|b| line(b, b as f64 * 8.0)).collect());
        let b: Vec<u32> = best.iter().map(|l| l.board).collect();
        let w: Vec<u32> = worst.iter().map(|l| l.board).collect();
        assert_eq!(b, vec![12, 11, 10, 9, 8]);
        assert_eq!(w, vec![1, 2, 3, 4, 5]);
        // Few boards: each is shown once, the best first.
        let (best, worst) = best_and_worst(vec![line(1, 20.0), line(2, 80.0), line(3, 50.0)]);
        assert_eq!(best.len() + worst.len(), 3);
        assert_eq!(best[0].board, 2);
        assert!(worst.is_empty());
    }
}
