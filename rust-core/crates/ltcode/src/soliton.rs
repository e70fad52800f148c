//! The Robust Soliton degree distribution (Luby, "LT codes", 2002) as a sampling table.

use std::cell::RefCell;
use std::sync::Arc;

use crate::last_built::{reuse_or_build, LastBuilt};
use crate::prefetch::prefetch;
use crate::rng::CodecRng;

/// Degrees 1..=k with cumulative thresholds on the u64 range, so a sample is one draw and a
/// short search. Built with libm so the table is bit-identical natively and in WASM.
/// Clones share the table.
#[derive(Clone, Debug)]
pub struct RobustSoliton {
    /// `thresholds[i]`: a draw below it (and not below `thresholds[i-1]`) gives degree i+1.
    thresholds: Arc<[u64]>,
    probabilities: Arc<[f64]>,
}

thread_local! {
    /// The table `shared` built last on this thread, for k and the bits of c and delta.
    static LAST_BUILT: LastBuilt<(usize, u64, u64), RobustSoliton> = const { RefCell::new(None) };
}

impl RobustSoliton {
    /// Panics only on parameters `Params::validate` rejects (k = 0, c <= 0, delta outside (0,1)).
    pub fn new(k: usize, c: f64, delta: f64) -> RobustSoliton {
        assert!(k >= 1 && c > 0.0 && delta > 0.0 && delta < 1.0);
        let kf = k as f64;
        // Ideal soliton: rho(1) = 1/k, rho(i) = 1/(i(i-1)).
        let mut weights: Vec<f64> = (1..=k)
            .map(|i| {
                if i == 1 {
                    1.0 / kf
                } else {
                    1.0 / ((i * (i - 1)) as f64)
                }
            })
            .collect();
        // Robust part: tau(i) = R/(ik) below the spike at k/R, R ln(R/delta)/k at it.
        let r = c * libm::log(kf / delta) * libm::sqrt(kf);
        let spike = libm::floor(kf / r) as usize;
        for (index, weight) in weights.iter_mut().enumerate() {
            let i = index + 1;
            if i < spike {
                *weight += r / (i as f64 * kf);
            } else if i == spike {
                *weight += (r * libm::log(r / delta) / kf).max(0.0);
            }
        }
        let total: f64 = weights.iter().sum();
        let probabilities: Vec<f64> = weights.iter().map(|w| w / total).collect();
        let mut thresholds = Vec::with_capacity(k);
        let mut cumulative = 0.0;
        for p in &probabilities {
            cumulative += p;
            thresholds.push(if cumulative >= 1.0 {
                u64::MAX
            } else {
                (cumulative * 18_446_744_073_709_551_616.0) as u64
            });
        }
        if let Some(last) = thresholds.last_mut() {
            *last = u64::MAX;
        }
        RobustSoliton {
            thresholds: thresholds.into(),
            probabilities: probabilities.into(),
        }
    }

    /// The same table as `new`, shared with the last one built here for the same parameters:
    /// every node of a run samples from one table, which stays cached, not one of its own.
    pub fn shared(k: usize, c: f64, delta: f64) -> RobustSoliton {
        let key = (k, c.to_bits(), delta.to_bits());
        reuse_or_build(&LAST_BUILT, &key, || RobustSoliton::new(k, c, delta))
    }

    pub fn max_degree(&self) -> usize {
        self.thresholds.len()
    }

    /// P(degree = d) for d in 1..=k.
    pub fn probability(&self, degree: usize) -> f64 {
        degree
            .checked_sub(1)
            .and_then(|i| self.probabilities.get(i))
            .copied()
            .unwrap_or(0.0)
    }

    pub fn mean(&self) -> f64 {
        self.probabilities
            .iter()
            .enumerate()
            .map(|(i, p)| (i + 1) as f64 * p)
            .sum()
    }

    /// Starts loading the start of the table, where most draws end (degrees 1 to 8 in its
    /// first line at k=50: 87% of them).
    pub fn warm(&self) {
        prefetch(self.thresholds.as_ptr());
    }

    pub fn sample(&self, rng: &mut (impl CodecRng + ?Sized)) -> usize {
        let draw = rng.next_u64();
        // Most mass sits at degrees 1..4, so a linear scan beats a binary search on average.
        let index = self
            .thresholds
            .iter()
            .position(|&t| draw < t)
            .unwrap_or(self.thresholds.len() - 1);
        index + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn probabilities_sum_to_one_and_favour_degree_two() {
        for k in [1, 2, 50, 500] {
            let s = RobustSoliton::new(k, 0.03, 0.5);
            let sum: f64 = (1..=k).map(|d| s.probability(d)).sum();
            assert!((sum - 1.0).abs() < 1e-9, "k={k} sum={sum}");
            if k >= 50 {
                assert!(s.probability(2) > s.probability(1));
                assert!(s.probability(2) > s.probability(3));
            }
        }
    }

    #[test]
    fn sampled_frequencies_match_the_table() {
        let s = RobustSoliton::new(50, 0.03, 0.5);
        let mut rng = SplitMix64::new(1);
        let n = 200_000;
        let mut counts = vec![0usize; 51];
        for _ in 0..n {
            let d = s.sample(&mut rng);
            assert!((1..=50).contains(&d));
            counts[d] += 1;
        }
        for (d, &count) in counts.iter().enumerate().take(6).skip(1) {
            let observed = count as f64 / n as f64;
            assert!((observed - s.probability(d)).abs() < 0.01, "degree {d}");
        }
        let mean = (1..=50).map(|d| d as f64 * counts[d] as f64).sum::<f64>() / n as f64;
        assert!((mean - s.mean()).abs() < 0.1);
    }

    #[test]
    fn shared_tables_are_the_tables_new_builds() {
        let a = RobustSoliton::shared(50, 0.03, 0.5);
        let b = RobustSoliton::shared(50, 0.03, 0.5);
        assert!(
            Arc::ptr_eq(&a.thresholds, &b.thresholds),
            "one table for equal parameters"
        );
        let other = RobustSoliton::shared(50, 0.03, 0.25);
        assert!(!Arc::ptr_eq(&a.thresholds, &other.thresholds));
        for (shared, delta) in [(&a, 0.5), (&other, 0.25)] {
            let fresh = RobustSoliton::new(50, 0.03, delta);
            assert_eq!(shared.thresholds, fresh.thresholds);
            assert_eq!(shared.probabilities, fresh.probabilities);
        }
    }
}
