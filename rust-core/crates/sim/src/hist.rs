//! A log-bucketed histogram for latencies: about 0.8% relative precision in constant memory,
//! so percentiles over millions of deliveries need no list of every value.

/// 2^SUB_BITS buckets per power of two.
const SUB_BITS: u32 = 7;
const SUB: u64 = 1 << SUB_BITS;

#[derive(Clone, Debug, Default)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
}

fn bucket_of(v: u64) -> usize {
    if v < SUB {
        return v as usize;
    }
    let exp = 63 - v.leading_zeros(); // >= SUB_BITS
    let shift = exp - SUB_BITS;
    let mantissa = (v >> shift) - SUB; // 0..SUB
    ((shift as u64 + 1) * SUB + mantissa) as usize
}

/// The middle of a bucket's value range.
fn value_of(b: usize) -> f64 {
    let b = b as u64;
    if b < SUB {
        return b as f64;
    }
    let shift = b / SUB - 1;
    let mantissa = b % SUB;
    let lo = (SUB + mantissa) << shift;
    lo as f64 + ((1u64 << shift) as f64 - 1.0) / 2.0
}

impl Histogram {
    pub fn record(&mut self, v: u64) {
        let b = bucket_of(v);
        if b >= self.counts.len() {
            self.counts.resize(b + 1, 0);
        }
        self.counts[b] += 1;
        self.total += 1;
    }

    /// The value at quantile `q` in [0, 1] (nearest rank), or None if empty.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (b, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Some(value_of(b));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_within_one_percent() {
        let mut h = Histogram::default();
        let values: Vec<u64> = (1..=100_000).map(|i| i * 37).collect();
        for &v in &values {
            h.record(v);
        }
        for q in [0.01, 0.5, 0.95, 0.99] {
            let want = values[((q * values.len() as f64).ceil() as usize) - 1] as f64;
            let got = h.quantile(q).unwrap();
            assert!(
                (got - want).abs() / want < 0.01,
                "q={q} got {got} want {want}"
            );
        }
        assert_eq!(Histogram::default().quantile(0.5), None);
    }

    #[test]
    fn small_values_are_exact() {
        let mut h = Histogram::default();
        for v in [0, 1, 2, 3, 100] {
            h.record(v);
        }
        assert_eq!(h.quantile(0.2), Some(0.0));
        assert_eq!(h.quantile(1.0), Some(100.0));
    }
}
