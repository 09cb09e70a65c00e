//! 校准 (the calibration): simulated 80分 sessions of computer pairs (够级: teams, [`gouji`]),
//! all honest or with one pair that cheats — it sees its partner's hand, or an opponent's —
//! scored by the fair-play statistic, many times: how often an honest pair is flagged (false
//! alarms) and how often the cheating pair is (power), by session length. `paiju fairplay
//! --calibrate`; the tables in docs/fairplay.md come from it.
//!
//! A session: `tables` tables, each playing the same `boards` deals (duplicate: the field is
//! on the same cards), the N–S pair of table 1 the cheat (when there is one), every other pair
//! honest with a style of its own ([`super::players::styled`]). A session's first 8, 16, …
//! boards are a shorter session of the same pairs, so one run of long sessions gives every
//! shorter row. Only the N–S pairs are scored unless asked (the E–W pairs are honest pairs of
//! the same kind, at twice the cost).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rules::deal::{deal_shengji, Fixed};
use rules::shengji::{Action, Board, Phase, Ruleset, Seat, View};
use rules::{Actor, Viewer};
use serde::Serialize;

pub use self::session::{Config, PairRecord};
use super::players::{styled, Peek};
use super::{rank, Side, Tally};
use crate::arena::{deal_seed, Game};
use crate::rng::Rng;
use crate::shengji::{all_seeing, Notes};

/// A session's scored pairs over its first `boards` boards, as [`rank`] takes them (the side's
/// key: whether it cheats); pair `i` sits N–S when `i` is even.
fn sides(session: &Session, boards: usize) -> Vec<Side<bool>> {
    session
        .iter()
        .enumerate()
        .filter(|(_, p)| p.boards.iter().any(|t| t.decisions > 0))
        .map(|(i, p)| Side {
            key: p.cheats,
            group: (i % 2) as u8,
            boards: (0u32..)
                .zip(p.boards.iter().copied())
                .take(boards)
                .collect(),
        })
        .collect()
}

/// The pairs of one simulated session (N–S of table 1 first, then E–W of table 1, …).
pub type Session = Vec<PairRecord>;

/// Plays and scores `config.sessions` sessions on `config.threads` threads, a table at a time.
pub fn run(config: &Config) -> Vec<Session> {
    let units = config.sessions * config.tables;
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<[PairRecord; 2]>>> = Mutex::new(vec![None; units]);
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| loop {
                let u = next.fetch_add(1, Ordering::Relaxed);
                if u >= units {
                    break;
                }
                let (s, t) = (u / config.tables, u % config.tables);
                let pairs = match config.game {
                    Game::Shengji => table(config, s, t),
                    Game::Gouji => gouji::table(config, s, t),
                };
                done.lock().expect("results")[u] = Some(pairs);
            });
        }
    });
    let mut done = done.into_inner().expect("results").into_iter();
    (0..config.sessions)
        .map(|_| {
            (0..config.tables)
                .flat_map(|_| done.next().flatten().expect("every table played"))
                .collect()
        })
        .collect()
}

/// Table `t` of session `s`: every board of the session, its N–S and E–W pairs' tallies.
fn table(config: &Config, s: usize, t: usize) -> [PairRecord; 2] {
    let seed = Rng::mix(&[config.seed, s as u64]);
    let cheats = config.cheat.filter(|_| t == 0);
    let mut pairs: [PairRecord; 2] = Default::default();
    pairs[0].cheats = cheats.is_some();
    for k in 0..config.boards {
        let deal = deal_shengji(&deal_seed(seed), k as u32 + 1, Fixed::default());
        let styles = [
            Rng::mix(&[seed, t as u64, 0]),
            Rng::mix(&[seed, t as u64, 1]),
        ];
        let tallies = board(
            config,
            &deal,
            cheats,
            styles,
            Rng::mix(&[seed, t as u64, k as u64]),
        );
        for (p, tally) in pairs.iter_mut().zip(tallies) {
            p.boards.push(tally);
        }
    }
    pairs
}

/// One board played at a table (N and S cheating as `cheats` says; the honest pairs each with
/// its style), every play decision scored: the N–S and the E–W tallies.
fn board(
    config: &Config,
    deal: &rules::deal::ShengjiDeal,
    cheats: Option<Peek>,
    styles: [u64; 2],
    seed: u64,
) -> [Tally; 2] {
    let mut board = Board::new(deal, Ruleset::fujian_2024());
    let mut notes: [Notes; 4] = Default::default();
    let mut tallies = [Tally::default(); 2];
    for n in 0..1000u64 {
        let Some(seat) = board.to_act() else { break };
        let s = seat.index();
        let view = board.view(Viewer::Seat(s));
        notes[s].observe(&view);
        let seed = Rng::mix(&[seed, n]);
        let peek = cheats.filter(|_| s % 2 == 0);
        let action = match peek {
            Some(p) => cheat(config, &board, &view, &notes[s], p, seed),
            None => styled(
                &view,
                &notes[s],
                config.level,
                config.budget,
                styles[s % 2],
                seed,
            ),
        }
        .expect("the seat to act has an action");
        if board.phase() == Phase::Play && (s % 2 == 0 || config.both_directions) {
            if let Some(e) = all_seeing::evidence(
                &board,
                &action,
                config.screen,
                config.worlds,
                all_seeing::seed_of(&board, seat),
            ) {
                tallies[s % 2].add(&e);
            }
        }
        board
            .apply(seat, Actor::Bot, action)
            .expect("a computer's action is legal");
    }
    tallies
}

/// A cheating seat's action: [`super::players::decide`] with the peeked hand as it is.
fn cheat(
    config: &Config,
    board: &Board,
    view: &View,
    notes: &Notes,
    peek: Peek,
    seed: u64,
) -> Option<Action> {
    let Viewer::Seat(i) = view.viewer else {
        return None;
    };
    let seen = peek.seen(Seat::from_index(i));
    let shown = [(seen, board.hand(seen).cards())];
    super::players::decide(view, notes, &shown, config.cheat_level, config.budget, seed)
}

/// One row of the calibration: sessions of the first `boards` boards.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub boards: usize,
    /// Mean decisions scored per pair.
    pub decisions: f64,
    /// Honest pairs, each against the other honest pairs of its session (the cheat left out:
    /// an all-honest session of one table fewer), and how many were flagged.
    pub honest: usize,
    pub false_alarms: usize,
    /// The honest pairs' flagged figure: its 99th percentile and standard deviation.
    pub honest_q99: f64,
    pub honest_sd: f64,
    /// Cheating pairs, each against its whole session, and how many were flagged.
    pub cheats: usize,
    pub caught: usize,
    /// Cheating sides ranked first of their session, flagged or not: the one the director
    /// looks at first.
    pub first: usize,
    /// The cheats' mean figures: the flagged one (fit to the partner's hand), hits, points
    /// saved, and hits against the model.
    pub cheat_z: [f64; 4],
}

/// The calibration's rows, one per session length, each pair flagged at `threshold`.
pub fn rows(sessions: &[Session], lengths: &[usize], threshold: f64) -> Vec<Row> {
    lengths
        .iter()
        .map(|&boards| {
            let mut honest = Vec::new();
            let mut r = Row {
                boards,
                decisions: 0.0,
                honest: 0,
                false_alarms: 0,
                honest_q99: 0.0,
                honest_sd: 0.0,
                cheats: 0,
                caught: 0,
                first: 0,
                cheat_z: [0.0; 4],
            };
            let mut pairs = 0usize;
            for session in sessions {
                let all = sides(session, boards);
                let ranked = rank(&all, threshold);
                r.first += usize::from(ranked.first().is_some_and(|st| st.side));
                for st in ranked {
                    pairs += 1;
                    r.decisions += st.tally.decisions as f64;
                    if st.side {
                        r.cheats += 1;
                        r.caught += usize::from(st.flagged);
                        let zs = [st.z_partner, st.z_field, st.z_points, st.z];
                        for (sum, z) in r.cheat_z.iter_mut().zip(zs) {
                            *sum += z.unwrap_or(0.0);
                        }
                    }
                }
                let fair: Vec<Side<bool>> = all.into_iter().filter(|s| !s.key).collect();
                for st in rank(&fair, threshold) {
                    r.honest += 1;
                    r.false_alarms += usize::from(st.flagged);
                    honest.push(st.z_partner.unwrap_or(0.0));
                }
            }
            for z in &mut r.cheat_z {
                *z /= r.cheats.max(1) as f64;
            }
            r.decisions /= pairs.max(1) as f64;
            (r.honest_q99, r.honest_sd) = quantile_sd(honest, 0.99);
            r
        })
        .collect()
}

/// The `q` quantile and the standard deviation of `xs`.
fn quantile_sd(mut xs: Vec<f64>, q: f64) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    xs.sort_by(f64::total_cmp);
    let at = ((xs.len() as f64 - 1.0) * q).round() as usize;
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len().max(2) as f64;
    (xs[at], var.sqrt())
}

/// The calibration as a markdown table (docs/fairplay.md), with the threshold that would keep
/// the honest pairs' false alarms at 1 % for each length.
pub fn report(config: &Config, sessions: &[Session], lengths: &[usize], threshold: f64) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let gouji = config.game == Game::Gouji;
    let cheat = match (config.cheat, gouji) {
        (Some(Peek::Partner), false) => "one pair sees its partner's hand",
        (Some(Peek::Opponent), false) => "one pair sees an opponent's hand",
        (Some(Peek::Partner), true) => "one team sees its teammates' hands",
        (Some(Peek::Opponent), true) => "one team sees its 对头's hands",
        (None, _) => "every side honest",
    };
    let (title, sides, unit, side) = if gouji {
        (
            "够级",
            format!(
                "team A searching {} games a decision, team B {}",
                gouji::SEARCH_GAMES,
                config.level.zh()
            ),
            "games",
            "team",
        )
    } else {
        (
            "80分",
            format!(
                "{} pairs ({}); the cheat's search {}",
                config.level.name(),
                config.level.zh(),
                config.cheat_level.name()
            ),
            "boards",
            "pair",
        )
    };
    let _ = writeln!(
        out,
        "{title} fair play, {} sessions of {} tables, {sides}, {cheat}, seed {:x}, flagged at field z >= {threshold}",
        sessions.len(),
        config.tables,
        config.seed,
    );
    let _ = writeln!(
        out,
        "\n| {unit} | decisions a {side} | honest {side}s | false alarms | honest z: 99th pct, sd | cheating {side}s | flagged | power | ranked first | cheat's mean z: partner (hits, points, model) |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows(sessions, lengths, threshold) {
        let share = |n: usize| {
            if r.cheats > 0 {
                format!("{:.1} %", 100.0 * n as f64 / r.cheats as f64)
            } else {
                "–".into()
            }
        };
        let (power, first) = (share(r.caught), share(r.first));
        let [p, h, pts, m] = r.cheat_z;
        let _ = writeln!(
            out,
            "| {} | {:.0} | {} | {} ({:.1} %) | {:.2}, {:.2} | {} | {} | {power} | {first} | {p:+.2} ({h:+.2}, {pts:+.2}, {m:+.2}) |",
            r.boards,
            r.decisions,
            r.honest,
            r.false_alarms,
            100.0 * r.false_alarms as f64 / r.honest.max(1) as f64,
            r.honest_q99,
            r.honest_sd,
            r.cheats,
            r.caught,
        );
    }
    out
}

pub mod gouji;
mod session;
#[cfg(test)]
mod tests;
