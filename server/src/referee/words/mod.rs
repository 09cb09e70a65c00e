//! 说法 (words): what happened at a table, told in Chinese or English — one module a game
//! ([`shengji`], [`gouji`]) for its events, actions and seats, each game's name and seats as
//! every report says them ([`GameWords`]); here what all share (actors, times, cards).

pub mod gouji;
pub mod shengji;

use rules::cards::Card;
use rules::{Actor, Engine};

use super::lang::Lang;
use crate::store::LogEntry;

/// A game as every report of the desk names it: its name, one deal of it, its seats, its
/// actions.
pub trait GameWords: Engine {
    /// The seats at a table of it.
    const SEATS: usize;
    /// Its name: `80分`; in English `80分 (shengji)`.
    fn title(lang: Lang) -> &'static str;
    /// One deal of it: 副 / board (80分), 局 / game (够级).
    fn deal_word(lang: Lang) -> &'static str;
    /// Seat `seat` (below [`GameWords::SEATS`]) as the board format and the JSON write it:
    /// `N`, `A1`.
    fn seat_label(seat: usize) -> &'static str;
    /// Seat `seat` (below [`GameWords::SEATS`]) in words: `北` (`N` in English), `A1`.
    fn seat_words(seat: usize, lang: Lang) -> &'static str;
    /// A seat by its label (`N`, `a1`).
    fn seat_named(label: &str) -> Option<usize>;
    /// An action in words: `出 SA SK`.
    fn action_words(action: &Self::Action, lang: Lang) -> String;
}

/// Seat `i` as the board format and the JSON write it; its number when the game has no such
/// seat (an entry written so).
pub fn label<G: GameWords>(i: usize) -> String {
    if i < G::SEATS {
        G::seat_label(i).to_string()
    } else {
        i.to_string()
    }
}

/// Seat `i` in words; its number when the game has no such seat.
pub fn seat<G: GameWords>(i: usize, lang: Lang) -> String {
    if i < G::SEATS {
        G::seat_words(i, lang).to_string()
    } else {
        i.to_string()
    }
}

/// Cards in the notation of the rules (`SA H10 BJ`); `—` for none.
pub fn cards(cs: &[Card]) -> String {
    if cs.is_empty() {
        "—".to_string()
    } else {
        rules::cards::format_cards(cs)
    }
}

/// Who made an entry, when it was not the seat's player: `〔机器人〕`, `[clock]`, a referee's
/// reason. Empty for the player.
pub fn actor_tag(e: &LogEntry, lang: Lang) -> String {
    match (e.actor, lang) {
        (Actor::Player, _) => String::new(),
        (Actor::Bot, Lang::Zh) => "〔机器人〕".into(),
        (Actor::Bot, Lang::En) => "[bot]".into(),
        (Actor::Clock, Lang::Zh) => "〔计时器〕".into(),
        (Actor::Clock, Lang::En) => "[clock]".into(),
        (Actor::Auto, Lang::Zh) => "〔托管〕".into(),
        (Actor::Auto, Lang::En) => "[auto-play]".into(),
        (Actor::Referee, Lang::Zh) => match &e.reason {
            Some(r) => format!("〔裁判：{r}〕"),
            None => "〔裁判〕".into(),
        },
        (Actor::Referee, Lang::En) => match &e.reason {
            Some(r) => format!("[referee: {r}]"),
            None => "[referee]".into(),
        },
    }
}

/// An actor's name in a language.
pub fn actor(a: Actor, lang: Lang) -> &'static str {
    match a {
        Actor::Player => lang.pick("选手", "player"),
        Actor::Bot => lang.pick("机器人", "bot"),
        Actor::Clock => lang.pick("计时器", "clock"),
        Actor::Auto => lang.pick("托管", "auto-play"),
        Actor::Referee => lang.pick("裁判", "referee"),
    }
}

/// Minutes and seconds since `start_ms` (`03:41`; hours when it runs that long).
pub fn elapsed(start_ms: u64, at_ms: u64) -> String {
    let s = at_ms.saturating_sub(start_ms) / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{:02}:{:02}", s / 60, s % 60)
    }
}

/// Days since 1970-01-01 to a civil date (proleptic Gregorian, UTC).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A civil date to days since 1970-01-01.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Unix milliseconds as UTC, to the millisecond: `2024-05-07T09:00:05.123Z`.
pub fn iso_time(ms: u64) -> String {
    let (days, rest) = ((ms / 86_400_000) as i64, ms % 86_400_000);
    let (y, m, d) = civil(days);
    let s = rest / 1000;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        s / 3600,
        s / 60 % 60,
        s % 60,
        rest % 1000
    )
}

/// The date alone: `2024-05-07`.
pub fn date(ms: u64) -> String {
    iso_time(ms)[..10].to_string()
}

/// Day `day` (from 1970-01-01) as a date: `2024-05-07`.
pub fn day_date(day: i64) -> String {
    let (y, m, d) = civil(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// A `YYYY-MM-DD` date as its day number (the reverse of [`day_date`]).
pub fn date_day(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let t = &s[r];
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let day = days_from_civil(i64::from(y), m, d);
    (day_date(day) == s).then_some(day)
}

/// Reads [`iso_time`]'s form back (exactly that form: the board format depends on it).
pub fn parse_iso_time(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.len() != 24 || &s[4..5] != "-" || &s[7..8] != "-" || &s[10..11] != "T" || &s[23..] != "Z" {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u64> {
        let t = s.get(r)?;
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec, milli) = (num(11..13)?, num(14..16)?, num(17..19)?, num(20..23)?);
    if &s[13..14] != ":" || &s[16..17] != ":" || &s[19..20] != "." {
        return None;
    }
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 59 {
        return None;
    }
    let days = days_from_civil(y as i64, mo as u32, d as u32);
    let ms = days * 86_400_000 + ((h * 3600 + mi * 60 + sec) * 1000 + milli) as i64;
    let back = u64::try_from(ms).ok()?;
    (iso_time(back) == s).then_some(back)
}

/// A seat of the game by its index or its label (`2`, `N`, `a1`): the reverse of the seat
/// words. A seat its tables do not have (`99` at 80分) is refused, naming the ones they have.
pub fn parse_seat<G: GameWords>(s: &str) -> Result<usize, String> {
    let seat = match s.trim().parse::<usize>() {
        Ok(i) => Some(i).filter(|&i| i < G::SEATS),
        Err(_) => G::seat_named(s),
    };
    seat.ok_or_else(|| {
        let labels: Vec<&str> = (0..G::SEATS).map(G::seat_label).collect();
        format!(
            "{s:?} is not a seat of {} ({}, or 0 to {})",
            G::title(Lang::En),
            labels.join(" "),
            G::SEATS - 1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip() {
        for ms in [
            0,
            1,
            86_399_999,
            951_782_400_000,
            1_715_068_805_123,
            4_102_444_800_000,
        ] {
            let t = iso_time(ms);
            assert_eq!(parse_iso_time(&t), Some(ms), "{t}");
        }
        assert_eq!(iso_time(1_715_068_805_123), "2024-05-07T08:00:05.123Z");
        assert_eq!(parse_iso_time("2024-02-30T00:00:00.000Z"), None);
        assert_eq!(elapsed(1000, 224_000), "03:43");
    }
}
