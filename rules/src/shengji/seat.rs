//! 座位 (seats): North–South (南北) partner against East–West (东西).

use std::fmt;

/// A seat at an 80分 table. Play passes counter-clockwise, to the right: N → W → S → E → N.
/// On the wire a seat is its letter: `"N"`, `"E"`, `"S"`, `"W"`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ShengjiSeat"))]
pub enum Seat {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Seat {
    /// In index order, as in deals and JSON objects.
    pub const ALL: [Seat; 4] = [Seat::N, Seat::E, Seat::S, Seat::W];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Seat {
        Seat::ALL[i % 4]
    }

    /// The player to the right (下家), who plays next.
    pub fn next(self) -> Seat {
        Seat::from_index(self.index() + 3)
    }

    pub fn partner(self) -> Seat {
        Seat::from_index(self.index() + 2)
    }

    /// Same side (南北 or 东西).
    pub fn same_side(self, other: Seat) -> bool {
        self.index().is_multiple_of(2) == other.index().is_multiple_of(2)
    }

    pub fn letter(self) -> &'static str {
        ["N", "E", "S", "W"][self.index()]
    }

    pub fn zh(self) -> &'static str {
        ["北", "东", "南", "西"][self.index()]
    }

    pub fn parse(s: &str) -> Option<Seat> {
        Seat::ALL
            .into_iter()
            .find(|seat| seat.letter().eq_ignore_ascii_case(s.trim()))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_goes_counter_clockwise() {
        let order: Vec<_> = std::iter::successors(Some(Seat::N), |s| Some(s.next()))
            .take(5)
            .collect();
        assert_eq!(order, [Seat::N, Seat::W, Seat::S, Seat::E, Seat::N]);
        assert_eq!(Seat::E.partner(), Seat::W);
        assert!(Seat::N.same_side(Seat::S) && !Seat::N.same_side(Seat::W));
    }
}
