//! A synthetic run for this crate's tests and example (`txsim bench arrivals` measures a real
//! simulator run instead).
//!
//! Txs are created at Poisson times (exponential gaps at `tps` per second overall), each at a
//! random origin node, which has it at delay 0. Every other node gets it after an independent
//! log-normal delay (median `median_delay_us`, shape `sigma`), or never with probability
//! `never_fraction`. Everything follows from `seed` through SplitMix64, one stream per node,
//! so a node's arrivals can be regenerated alone and in any order.

use super::RunArrivals;
use arrivals::Arrival;

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, plenty for synthetic data.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1) with 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// Uniform in [0, n) (multiply-high; n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SynthConfig {
    pub nodes: u32,
    pub txs: u64,
    pub tps: f64,
    pub median_delay_us: f64,
    pub sigma: f64,
    pub never_fraction: f64,
    pub seed: u64,
}

impl Default for SynthConfig {
    /// The run: 1,000 nodes, 100,000 txs at ~400 tps, median delay 300 ms, 1% never.
    /// sigma 0.5 puts the 1st..99th percentile of delays at ~95 ms..~950 ms.
    fn default() -> SynthConfig {
        SynthConfig {
            nodes: 1_000,
            txs: 100_000,
            tps: 400.0,
            median_delay_us: 300_000.0,
            sigma: 0.5,
            never_fraction: 0.01,
            seed: 0x7a5c_a57a_0000_0001,
        }
    }
}

/// Quantiles of the delay distribution, for fast sampling by interpolation.
const QUANTILES: usize = 4096;

#[derive(Clone, Debug)]
pub struct SynthRun {
    pub config: SynthConfig,
    /// Creation time of each seq, microseconds from the start of the run.
    pub creation_us: Vec<u64>,
    /// The node each seq was created at.
    pub origin: Vec<u32>,
    /// Delay (us) at probabilities i / QUANTILES, i = 0..=QUANTILES (ends clamped).
    delay_quantiles: Vec<f64>,
}

impl SynthRun {
    pub fn generate(config: SynthConfig) -> SynthRun {
        let mut rng = SplitMix64::new(config.seed);
        let mean_gap_us = 1e6 / config.tps;
        let mut t = 0.0;
        let mut creation_us = Vec::with_capacity(config.txs as usize);
        let mut origin = Vec::with_capacity(config.txs as usize);
        for _ in 0..config.txs {
            t += -libm::log(1.0 - rng.unit()) * mean_gap_us;
            creation_us.push(libm::round(t) as u64);
            origin.push(rng.below(u64::from(config.nodes.max(1))) as u32);
        }
        let delay_quantiles = (0..=QUANTILES)
            .map(|i| {
                let p = (i as f64 / QUANTILES as f64).clamp(1e-7, 1.0 - 1e-7);
                config.median_delay_us * libm::exp(config.sigma * inverse_normal_cdf(p))
            })
            .collect();
        SynthRun {
            config,
            creation_us,
            origin,
            delay_quantiles,
        }
    }

    /// The arrival of every seq at `node`, indexed by seq.
    pub fn node_arrivals(&self, node: u32, out: &mut Vec<Arrival>) {
        out.clear();
        let stream = self.config.seed ^ (u64::from(node) + 1).wrapping_mul(0xd1b5_4a32_d192_ed03);
        let mut rng = SplitMix64::new(stream);
        let never_below = (self.config.never_fraction * (1u64 << 53) as f64) as u64;
        for &origin in &self.origin {
            let never = rng.next_u64() >> 11 < never_below;
            let draw = rng.next_u64();
            out.push(if origin == node {
                Arrival::AfterUs(0)
            } else if never {
                Arrival::Never
            } else {
                Arrival::AfterUs(self.delay_us(draw))
            });
        }
    }

    /// A delay from 64 random bits: 12 pick the quantile bin, 32 place it inside.
    fn delay_us(&self, bits: u64) -> u64 {
        let bin = (bits >> 52) as usize;
        let frac = ((bits >> 20) & 0xffff_ffff) as f64 / 4_294_967_296.0;
        let lo = self.delay_quantiles[bin];
        let hi = self.delay_quantiles[bin + 1];
        libm::round(lo + frac * (hi - lo)) as u64
    }
}

impl RunArrivals for SynthRun {
    fn nodes(&self) -> u32 {
        self.config.nodes
    }
    fn creation_us(&self) -> &[u64] {
        &self.creation_us
    }
    fn node_arrivals(&self, node: u32, out: &mut Vec<Arrival>) {
        SynthRun::node_arrivals(self, node, out)
    }
}

/// The standard normal quantile, by bisection on erfc (only used to build a small table).
fn inverse_normal_cdf(p: f64) -> f64 {
    let (mut lo, mut hi) = (-9.0f64, 9.0f64);
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if 0.5 * libm::erfc(-mid / core::f64::consts::SQRT_2) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_like_the_configured_run() {
        let run = SynthRun::generate(SynthConfig {
            nodes: 20,
            txs: 20_000,
            ..SynthConfig::default()
        });
        // 20,000 txs at 400 tps: ~50 s.
        let span_s = *run.creation_us.last().unwrap() as f64 / 1e6;
        assert!((45.0..55.0).contains(&span_s), "span {span_s}");
        assert!(run.creation_us.windows(2).all(|w| w[0] <= w[1]));
        let mut arrivals = Vec::new();
        run.node_arrivals(3, &mut arrivals);
        let never = arrivals.iter().filter(|a| **a == Arrival::Never).count();
        assert!((120..300).contains(&never), "never {never}");
        let mut delays: Vec<u64> = arrivals
            .iter()
            .filter_map(|a| match a {
                Arrival::AfterUs(d) if *d > 0 => Some(*d),
                _ => None,
            })
            .collect();
        delays.sort_unstable();
        let median = delays[delays.len() / 2];
        assert!((280_000..320_000).contains(&median), "median {median}");
        // Same node, same arrivals; another node, others.
        let mut again = Vec::new();
        run.node_arrivals(3, &mut again);
        assert_eq!(arrivals, again);
        run.node_arrivals(4, &mut again);
        assert_ne!(arrivals, again);
    }
}
