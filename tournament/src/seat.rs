//! 方位 (directions and seats) of 80分 duplicate: North–South (南北) against East–West (东西).

use serde::{Deserialize, Serialize};

/// A direction of a Mitchell: NS pairs stay at their table, EW pairs move. Each is ranked apart
/// (双冠军). On the wire `"NS"` / `"EW"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Direction {
    NS,
    EW,
}

impl Direction {
    pub const BOTH: [Direction; 2] = [Direction::NS, Direction::EW];

    pub fn other(self) -> Direction {
        match self {
            Direction::NS => Direction::EW,
            Direction::EW => Direction::NS,
        }
    }

    pub fn zh(self) -> &'static str {
        match self {
            Direction::NS => "南北",
            Direction::EW => "东西",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Direction::NS => "NS",
            Direction::EW => "EW",
        }
    }
}

/// A seat; a board's declarer (庄家) sits in a fixed one (定庄). On the wire `"N"`, `"E"`, `"S"`,
/// `"W"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    N,
    E,
    S,
    W,
}

impl Seat {
    pub fn direction(self) -> Direction {
        match self {
            Seat::N | Seat::S => Direction::NS,
            Seat::E | Seat::W => Direction::EW,
        }
    }
}
