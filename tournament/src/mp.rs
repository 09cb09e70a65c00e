//! 比赛分 (match points) as exact fractions.
//!
//! Most match points are whole or halves, but Neuberg scaling divides by the number of times a
//! board was played and artificial scores take 40 % or 60 % of a top. Summed as floats such
//! values can differ in the last bit when they are equal, and a ranking would then split a tie
//! that the rules say to break by best boards (or share). So they are kept exact here and turned
//! into numbers only on the wire: rounded to two decimals (whole numbers and halves are exact).
//!
//! Denominators are at most the least common multiple of the result counts of the boards (and 10),
//! which stays far inside `i128` for any event whose boards are played up to 40 times.

use std::cmp::Ordering;
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, Neg, Sub};

use serde::{Serialize, Serializer};

/// An exact number of match points: `num / den`, reduced, `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mp {
    num: i128,
    den: i128,
}

impl Mp {
    pub const ZERO: Mp = Mp { num: 0, den: 1 };

    /// `num / den`. Panics if `den` is 0 (a bug, never input: every divisor here is a count).
    pub fn new(num: i128, den: i128) -> Mp {
        assert!(den != 0, "match points over zero");
        let g = gcd(num.abs(), den.abs()).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        Mp {
            num: sign * num / g,
            den: sign * den / g,
        }
    }

    pub fn whole(n: i64) -> Mp {
        Mp::new(n.into(), 1)
    }

    /// Halves, as deductions come (0.5 比赛分).
    pub fn halves(n: i64) -> Mp {
        Mp::new(n.into(), 2)
    }

    /// `self × num / den`.
    pub fn scale(self, num: i128, den: i128) -> Mp {
        Mp::new(self.num * num, self.den * den)
    }

    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// The number shown on the wire and on paper: two decimals.
    pub fn rounded(self) -> f64 {
        (self.to_f64() * 100.0).round() / 100.0
    }

    /// A non-negative number of halves read from the wire (`0.5`, `1`, `1.5`, …), if it is one.
    pub fn from_halves_f64(x: f64) -> Option<Mp> {
        let h = x * 2.0;
        (x.is_finite() && h.fract() == 0.0 && h.abs() < 1e12).then(|| Mp::halves(h as i64))
    }
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Add for Mp {
    type Output = Mp;
    fn add(self, o: Mp) -> Mp {
        Mp::new(self.num * o.den + o.num * self.den, self.den * o.den)
    }
}

impl Sub for Mp {
    type Output = Mp;
    fn sub(self, o: Mp) -> Mp {
        self + -o
    }
}

impl Neg for Mp {
    type Output = Mp;
    fn neg(self) -> Mp {
        Mp {
            num: -self.num,
            den: self.den,
        }
    }
}

impl Sum for Mp {
    fn sum<I: Iterator<Item = Mp>>(iter: I) -> Mp {
        iter.fold(Mp::ZERO, Add::add)
    }
}

impl Ord for Mp {
    fn cmp(&self, o: &Mp) -> Ordering {
        (self.num * o.den).cmp(&(o.num * self.den))
    }
}

impl PartialOrd for Mp {
    fn partial_cmp(&self, o: &Mp) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Mp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.rounded())
    }
}

impl Serialize for Mp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Whole numbers print as integers (`4`, not `4.0`), everything else with its decimals.
        let x = self.rounded();
        if x.fract() == 0.0 && x.abs() < 1e15 {
            s.serialize_i64(x as i64)
        } else {
            s.serialize_f64(x)
        }
    }
}
