//! The day's sets: at the start of each day (in the server's practice time zone, China's by
//! default) an 80分 set of eight boards and a 够级 set of two games open, each with the
//! computers' reference runs at every level, so that even the first player of the day has a
//! field. A day's set stays open to the end of the next day — a player who begins late in the
//! evening finishes in the morning — then closes, and its seed is revealed.
//!
//! Past one machine every node tries: a day's set has the same code everywhere (`d20261204s`),
//! so the database takes the first and refuses the others, and only the node that runs a set
//! closes it.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use tournament::competition::practice::day_of;
use tournament::competition::PracticeTerms;

use crate::competition::handle::each;
use crate::competition::Competitions;
use crate::referee::words;
use crate::store;

/// How often the day's sets are looked at.
const TICK: Duration = Duration::from_secs(60);
const DAY_MS: u64 = 86_400_000;

/// The code of `game`'s set of day `day`: `d` and the date, `s` (80分) or `g` (够级).
pub fn day_id(game: &str, day: i64) -> String {
    let date = words::day_date(day).replace('-', "");
    let g = if game == "gouji" { 'g' } else { 's' };
    format!("d{date}{g}")
}

/// When a day's set made on `day` closes: the end of the next day.
pub fn closes_ms(day: i64, utc_offset_minutes: i32) -> u64 {
    let end = (day + 2) * DAY_MS as i64 - i64::from(utc_offset_minutes) * 60_000;
    end.max(0) as u64
}

/// Makes the day's sets that are missing and closes those whose time is over, every minute,
/// for as long as the server runs.
pub async fn run(competitions: Arc<Competitions>, utc_offset_minutes: i32) {
    let mut made = HashSet::new();
    loop {
        tick(
            &competitions,
            utc_offset_minutes,
            store::now_ms(),
            &mut made,
        )
        .await;
        tokio::time::sleep(TICK).await;
    }
}

/// One look: the sets of the day `now_ms` falls in made (unless made here before, `made`), the
/// practice sets run here whose time is over closed and revealed.
pub async fn tick(
    competitions: &Competitions,
    utc_offset_minutes: i32,
    now_ms: u64,
    made: &mut HashSet<String>,
) {
    let today = day_of(now_ms, utc_offset_minutes);
    for (game, boards) in [
        ("shengji", super::SHENGJI_BOARDS),
        ("gouji", super::GOUJI_GAMES),
    ] {
        let id = day_id(game, today);
        if made.contains(&id) || competitions.get(&id).is_ok() {
            continue;
        }
        let name = format!(
            "每日练习 {} · {}",
            words::day_date(today),
            super::game_zh(game)
        );
        let terms = PracticeTerms {
            closes_ms: closes_ms(today, utc_offset_minutes),
            club: None,
            references: super::all_levels(),
            utc_offset_minutes,
        };
        let spec = super::spec(game, name, boards, terms, None);
        match competitions.create_practice(spec, Some(id.clone())).await {
            Ok(_) => tracing::info!(set = %id, "the day's practice set is open"),
            // Another node made it (the database refused a second), or it was made here and
            // closed already: either way it is not ours to make again today.
            Err(d) => tracing::debug!(set = %id, why = %d, "the day's practice set not made here"),
        }
        made.insert(id);
    }
    made.retain(|id| id.contains(&words::day_date(today).replace('-', "")));
    close_due(competitions, now_ms).await;
}

/// Closes the practice sets run here whose time is over, and reveals their seeds.
pub async fn close_due(competitions: &Competitions, now_ms: u64) {
    for (_, brief) in competitions.own_list() {
        let Some(p) = brief.practice else { continue };
        if p.closes_ms > now_ms {
            continue;
        }
        let Ok(held) = competitions.get(&p.id) else {
            continue;
        };
        if p.open {
            if let Err(d) = each!(&held, h => h.close_round(1, true).await) {
                tracing::warn!(set = %p.id, why = %d, "a practice set not closed");
                continue;
            }
        }
        if held.brief().state != protocol::CompetitionState::Finished {
            match each!(&held, h => h.reveal(false).await) {
                Ok(_) => tracing::info!(set = %p.id, "practice set closed; seed revealed"),
                Err(d) => {
                    tracing::warn!(set = %p.id, why = %d, "a practice set's seed not revealed")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_days_code_and_its_closing_time() {
        // 2026-12-04 00:30 in China is 2026-12-03 16:30 UTC.
        let now = 1_796_315_400_000; // 2026-12-03T16:30:00Z
        let day = day_of(now, 480);
        assert_eq!(words::day_date(day), "2026-12-04");
        assert_eq!(day_id("shengji", day), "d20261204s");
        assert_eq!(day_id("gouji", day), "d20261204g");
        // Open to the end of the next day: 2026-12-06 00:00 in China, 2026-12-05 16:00 UTC.
        assert_eq!(
            words::iso_time(closes_ms(day, 480)),
            "2026-12-05T16:00:00.000Z"
        );
        assert_eq!(day_of(closes_ms(day, 480) - 1, 480), day + 1);
    }
}
