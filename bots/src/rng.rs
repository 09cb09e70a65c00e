//! A small seeded random source (SplitMix64): the same seed gives the same choices on any
//! machine, and it costs a few nanoseconds a draw inside the Expert's playouts.

/// SplitMix64 (Steele, Lea, Flood 2014): 64 bits of state, passes BigCrush.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A seed for a sub-stream: the same parts give the same seed (deal, table, seat, move…).
    pub fn mix(parts: &[u64]) -> u64 {
        let mut r = Rng(0x0005_EED0_FBA1_u64);
        for &p in parts {
            r.0 ^= p;
            r.next_u64();
        }
        r.next_u64()
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below 2⁻³² for our n).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_below_stays_in_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[a.below(6)] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert_ne!(Rng::mix(&[1, 2]), Rng::mix(&[2, 1]));
    }
}
