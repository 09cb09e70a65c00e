//! 赛风 (conduct at the tables): what a competition keeps to hold each player to their own seat
//! on their own device, where no referee sees the players (issue 24). The terms a competition's
//! tables play under ([`SeatTerms`]: a second device on a seat, 托管, the timeout count), and
//! the seats' connection history as the tables saw it ([`Visit`], logged like everything else in
//! the competition's hash-chained log), with what the director is shown of it ([`Conduct`]:
//! partners connected from one address or one device).
//!
//! A shared address is evidence, not a verdict: two partners who live together (a couple is a
//! common pair among older players) share one. The director asks; the flag only says where.

use serde::{Deserialize, Serialize};

/// A second connection on a seat already held by a live connection (a second phone, a "coach"
/// watching the hand live). At a casual table both may stay; at a competition's table one
/// device a seat, and the director sees every replacement or refusal in the seat's history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecondDevice {
    /// The newer connection takes the seat; the older is closed and told why. The default: a
    /// player whose phone died, or who moved to a tablet, is back in at once, without the
    /// director.
    #[default]
    Replace,
    /// The newer connection is refused while the older is live (heard from in the last few
    /// seconds); a silent one is replaced.
    Refuse,
}

/// Over which boards an 80分 player's timeouts are counted for 超时第一次警告，第二次扣10分 at a
/// competition (the engine's `TimeoutScope`). The rules spec: "the count runs per session at an
/// event".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutsCounted {
    /// The session: a round's boards at one table, against the same opponents (the default:
    /// one warning a sitting, as a referee at the table would give it).
    #[default]
    Round,
    /// Every board of the competition.
    Competition,
}

/// What a competition's table plays under besides its deal: kept in the table's header with
/// the deal (so a rebuilt table keeps them) and shown to the players on arrival.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatTerms {
    /// The competition's id.
    pub competition: String,
    pub round: u32,
    /// The table of the round (80分: of the movement; 够级: the match, or the final's table).
    pub table: u32,
    #[serde(default)]
    pub second_device: SecondDevice,
    /// 托管 (the computer plays a present player's cards) allowed; every such move is then
    /// counted in the board's result.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto_play: bool,
    /// 80分: each seat's player's timeouts on the earlier boards of the count
    /// ([`TimeoutsCounted`]), by seat; empty: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prior_timeouts: Vec<u8>,
    /// A practice set's table (issue 26): the player's clock does not run while they are away,
    /// the table waits for them however long (it is not closed idle before its board is over),
    /// and a table of computers only (a reference run) plays without the pause people need to
    /// follow the cards.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
}

/// A board's (or game's) conduct by seat, as its table reports it with the result: timeouts
/// (80分: what the next board's count starts from) and the moves 托管 made for a present
/// player (where the competition allows it, shown beside the result).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Each seat's timeouts on the board; empty: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeouts: Vec<u8>,
    /// Each seat's moves made by 托管; empty: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auto_moves: Vec<u32>,
}

impl Tally {
    /// Empty lists for counts that are all 0, so a quiet board logs nothing more.
    pub fn trimmed(self) -> Tally {
        let none = |v: &[u32]| v.iter().all(|&n| n == 0);
        let timeouts: Vec<u32> = self.timeouts.iter().map(|&n| u32::from(n)).collect();
        Tally {
            timeouts: if none(&timeouts) {
                Vec::new()
            } else {
                self.timeouts
            },
            auto_moves: if none(&self.auto_moves) {
                Vec::new()
            } else {
                self.auto_moves
            },
        }
    }

    pub fn timeouts_of(&self, seat: usize) -> u8 {
        self.timeouts.get(seat).copied().unwrap_or(0)
    }

    pub fn auto_moves_of(&self, seat: usize) -> u32 {
        self.auto_moves.get(seat).copied().unwrap_or(0)
    }
}

/// What a connection on a seat did, as the table saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VisitKind {
    /// Attached to the seat.
    Opened,
    /// Attached to the seat and closed an older connection there ([`SecondDevice::Replace`]).
    Replaced,
    /// Refused: the seat is held by a live connection ([`SecondDevice::Refuse`]).
    Refused,
    /// The connection ended.
    Closed,
}

/// One connection event on a seat of a competition's table. The address and the device are
/// kept as marks (a keyed hash: equal marks, same address), never as themselves: the log is
/// evidence and may be handed over; a player's address is not the director's to publish.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Visit {
    pub table_id: String,
    pub round: u32,
    pub table: u32,
    /// The board (80分) or game (够级) the table was dealing.
    pub slot: u32,
    pub seat: usize,
    /// The server's clock.
    pub at_ms: u64,
    pub what: VisitKind,
    /// The address's mark.
    pub address: String,
    /// The device's mark (the page keeps a random id on the device); none when not sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

/// Two or more seats of one side of a table (partners, or teammates) reached from one address
/// or one device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shared {
    pub round: u32,
    pub table: u32,
    pub table_id: String,
    /// The seats, ascending.
    pub seats: Vec<usize>,
    /// One device (not only one address): one person, or a phone passed across.
    pub device: bool,
    /// The address's (or device's) mark.
    pub mark: String,
}

/// The seats' connection history of a competition.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conduct {
    pub visits: Vec<Visit>,
}

/// A connection history is kept, but not without end: a seat that reconnects a thousand times
/// (a broken line, or someone testing) is still shown, its later visits counted.
pub const VISITS_A_TABLE: usize = 400;

impl Conduct {
    /// Logs `visits` (already bounded by the server per table).
    pub fn extend(&mut self, visits: &[Visit]) {
        self.visits.extend_from_slice(visits);
    }

    /// The seats of one side of a table (partners: both games alternate sides around the
    /// table, 80分 N/S against E/W, 够级 A1 B1 A2 …) reached from one address or one device,
    /// table by table in the order they were first seen.
    pub fn shared(&self) -> Vec<Shared> {
        let mut out: Vec<Shared> = Vec::new();
        let mut tables: Vec<&str> = Vec::new();
        for v in &self.visits {
            if !tables.contains(&v.table_id.as_str()) {
                tables.push(&v.table_id);
            }
        }
        for id in tables {
            let here: Vec<&Visit> = self
                .visits
                .iter()
                .filter(|v| v.table_id == id && v.what != VisitKind::Refused)
                .collect();
            for (device, mark_of) in [
                (
                    true,
                    (|v: &Visit| v.device.clone()) as fn(&Visit) -> Option<String>,
                ),
                (false, |v: &Visit| Some(v.address.clone())),
            ] {
                for side in 0..2 {
                    let mut marks: Vec<(String, Vec<usize>)> = Vec::new();
                    for v in here.iter().filter(|v| v.seat % 2 == side) {
                        let Some(mark) = mark_of(v) else { continue };
                        match marks.iter_mut().find(|(m, _)| *m == mark) {
                            Some((_, seats)) if !seats.contains(&v.seat) => seats.push(v.seat),
                            Some(_) => {}
                            None => marks.push((mark, vec![v.seat])),
                        }
                    }
                    for (mark, mut seats) in marks.into_iter().filter(|(_, s)| s.len() > 1) {
                        seats.sort_unstable();
                        // One device is also one address: said once, as the stronger.
                        if !device && out.iter().any(|s| s.table_id == id && s.seats == seats) {
                            continue;
                        }
                        out.push(Shared {
                            round: here[0].round,
                            table: here[0].table,
                            table_id: id.to_string(),
                            seats,
                            device,
                            mark,
                        });
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visit(table_id: &str, seat: usize, address: &str, device: Option<&str>) -> Visit {
        Visit {
            table_id: table_id.into(),
            round: 1,
            table: 2,
            slot: 1,
            seat,
            at_ms: 1,
            what: VisitKind::Opened,
            address: address.into(),
            device: device.map(str::to_string),
        }
    }

    #[test]
    fn partners_from_one_address_are_flagged_opponents_are_not() {
        let mut c = Conduct::default();
        c.extend(&[
            visit("t1", 0, "a", None),
            visit("t1", 1, "a", None),
            visit("t1", 2, "a", None),
            visit("t1", 3, "b", None),
        ]);
        let shared = c.shared();
        assert_eq!(shared.len(), 1, "{shared:?}");
        assert_eq!(shared[0].seats, vec![0, 2]);
        assert!(!shared[0].device);
        assert_eq!((shared[0].round, shared[0].table), (1, 2));
    }

    #[test]
    fn one_device_is_said_once_as_the_stronger_and_refusals_do_not_count() {
        let mut c = Conduct::default();
        c.extend(&[
            visit("t1", 1, "a", Some("d")),
            visit("t1", 3, "a", Some("d")),
            visit("t2", 0, "x", Some("e")),
        ]);
        let mut refused = visit("t2", 2, "x", Some("e"));
        refused.what = VisitKind::Refused;
        c.extend(&[refused]);
        let shared = c.shared();
        assert_eq!(shared.len(), 1, "{shared:?}");
        assert_eq!(shared[0].seats, vec![1, 3]);
        assert!(shared[0].device);
    }

    #[test]
    fn a_gouji_team_shares_by_side_of_six_seats() {
        let mut c = Conduct::default();
        c.extend(&[
            visit("g", 0, "a", None),
            visit("g", 4, "a", None),
            visit("g", 2, "b", None),
            visit("g", 5, "c", None),
            visit("g", 3, "c", None),
            visit("g", 1, "z", None),
        ]);
        let seats: Vec<Vec<usize>> = c.shared().into_iter().map(|s| s.seats).collect();
        assert_eq!(seats, vec![vec![0, 4], vec![3, 5]]);
    }

    #[test]
    fn terms_default_to_replacing_and_no_auto_play() {
        let t: SeatTerms = serde_json::from_str(r#"{"competition":"c","round":1,"table":1}"#)
            .expect("terms parse");
        assert_eq!(t.second_device, SecondDevice::Replace);
        assert!(!t.auto_play && t.prior_timeouts.is_empty());
        assert!(serde_json::from_str::<SeatTerms>(
            r#"{"competition":"c","round":1,"table":1,"x":1}"#
        )
        .is_err());
    }
}
