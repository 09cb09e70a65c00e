//! 比赛分 (match points) as exact fractions.
//!
//! Most match points are whole or halves, but Neuberg scaling divides by the number of times a
//! board was played and artificial scores take 40 % or 60 % of a top. Summed as floats such
//! values can differ in the last bit when they are equal, and a ranking would then split a tie
//! that the rules say to break by best boards (or share). So they are kept exact here and turned
//! into numbers only on the wire and on paper: rounded to two decimals as the rulebooks round
//! (四舍五入，保留到第2位小数: half away from zero, so 1.005 is 1.01 and 2.675 is 2.68), computed on
//! the fraction itself, never through a float (where 1.005 is 1.00499… and would round down).
//! Whole numbers and halves are exact.
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

    /// The number shown on the wire and on paper: two decimals (see [`Mp::hundredths`]).
    pub fn rounded(self) -> f64 {
        self.hundredths() as f64 / 100.0
    }

    /// The number in hundredths, rounded 四舍五入 (half away from zero) from the exact fraction:
    /// 201/200 (1.005) is 101, −201/200 is −101.
    pub fn hundredths(self) -> i128 {
        let a = self.num.abs() * 100;
        // ⌊a/den + 1/2⌋: the nearest whole number, a half going up (away from zero).
        let h = (2 * a + self.den) / (2 * self.den);
        self.num.signum() * h
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

/// Two decimals, 四舍五入, without trailing zeros (`4`, `3.5`, `1.01`, `-0.05`), as the wire
/// shows the same number.
impl fmt::Display for Mp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = self.hundredths();
        let sign = if h < 0 { "-" } else { "" };
        let (whole, cents) = (h.abs() / 100, h.abs() % 100);
        match cents {
            0 => write!(f, "{sign}{whole}"),
            c if c % 10 == 0 => write!(f, "{sign}{whole}.{}", c / 10),
            c => write!(f, "{sign}{whole}.{c:02}"),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// x.xx5 rounds up (四舍五入), on the fraction itself: through a float, 1.005 is 1.00499…,
    /// 2.675 is 2.67499… and 1.015 is 1.01499…, and each would round down.
    #[test]
    fn a_third_decimal_of_five_rounds_away_from_zero() {
        let cases = [
            (Mp::new(201, 200), 101, "1.01", 1.01), // 1.005
            (Mp::new(107, 40), 268, "2.68", 2.68),  // 2.675
            (Mp::new(203, 200), 102, "1.02", 1.02), // 1.015
            (Mp::new(-201, 200), -101, "-1.01", -1.01),
            (Mp::new(1, 200), 1, "0.01", 0.01), // 0.005
            (Mp::new(-1, 200), -1, "-0.01", -0.01),
            (Mp::new(1999, 200), 1000, "10", 10.0), // 9.995
            (Mp::new(7, 2), 350, "3.5", 3.5),
            (Mp::new(10, 3), 333, "3.33", 3.33),
            (Mp::new(20, 3), 667, "6.67", 6.67),
            (Mp::new(-7, 2), -350, "-3.5", -3.5),
            (Mp::new(1, 20), 5, "0.05", 0.05),
            (Mp::new(-1, 20), -5, "-0.05", -0.05),
            (Mp::whole(4), 400, "4", 4.0),
            (Mp::ZERO, 0, "0", 0.0),
            (Mp::new(1, 300), 0, "0", 0.0), // 0.00333…
        ];
        for (mp, hundredths, shown, wire) in cases {
            assert_eq!(mp.hundredths(), hundredths, "{mp:?}");
            assert_eq!(mp.to_string(), shown, "{mp:?}");
            assert_eq!(mp.rounded(), wire, "{mp:?}");
        }
        // Every x.xx5 from 0.005 to 99.995: up, never down, and the wire agrees with the page.
        for k in 0..10_000i128 {
            let mp = Mp::new(2 * k + 1, 200);
            assert_eq!(mp.hundredths(), k + 1, "{k}");
            assert_eq!(serde_json::to_string(&mp).unwrap(), mp.to_string(), "{k}");
        }
    }
}
