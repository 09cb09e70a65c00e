//! 座位 (seats): two teams of three, seated alternately; 对头 sit three seats apart.

use std::fmt;

/// A seat at a 够级 table, in counter-clockwise turn order A1, B1, A2, B2, A3, B3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoujiSeat"))]
pub enum Seat {
    A1 = 0,
    B1 = 1,
    A2 = 2,
    B2 = 3,
    A3 = 4,
    B3 = 5,
}

/// The two teams (联邦).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Team {
    A,
    B,
}

impl Seat {
    pub const ALL: [Seat; 6] = [Seat::A1, Seat::B1, Seat::A2, Seat::B2, Seat::A3, Seat::B3];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Seat {
        Seat::ALL[i % 6]
    }

    /// The player to the right (下家), who acts next.
    pub fn next(self) -> Seat {
        Seat::from_index(self.index() + 1)
    }

    /// 对头: the opponent opposite, three seats away (A1↔B2, B1↔A3, A2↔B3).
    pub fn opposite(self) -> Seat {
        Seat::from_index(self.index() + 3)
    }

    pub fn team(self) -> Team {
        if self.index().is_multiple_of(2) {
            Team::A
        } else {
            Team::B
        }
    }

    pub fn name(self) -> &'static str {
        ["A1", "B1", "A2", "B2", "A3", "B3"][self.index()]
    }

    pub fn parse(s: &str) -> Option<Seat> {
        Seat::ALL
            .into_iter()
            .find(|seat| seat.name().eq_ignore_ascii_case(s.trim()))
    }
}

/// On the wire a seat is its name, `"A1"`…`"B3"`.
impl serde::Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Seat::parse(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown seat {name:?} (A1…B3)")))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposites_are_the_spec_pairs() {
        use Seat::*;
        assert_eq!(A1.opposite(), B2);
        assert_eq!(B1.opposite(), A3);
        assert_eq!(A2.opposite(), B3);
        for s in Seat::ALL {
            assert_eq!(s.opposite().opposite(), s);
            assert_ne!(s.team(), s.opposite().team());
        }
        assert_eq!(B3.next(), A1);
    }
}
