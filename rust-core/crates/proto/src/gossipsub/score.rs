//! The part of the v1.1 peer score txcast uses: P4 (invalid messages) and P7 (behaviour
//! penalty: broken IWANT promises, GRAFT during backoff, and in v2.0 INEED timeouts). Both
//! counters are squared, weighted negatively and decay geometrically. The mesh-delivery
//! terms (P1 to P3b) and IP colocation (P6) are not modelled.

/// A decayed counter below this counts as zero (go-libp2p's DecayToZero is 0.01).
const DECAY_TO_ZERO: f64 = 0.01;
/// Counters are capped so that a hostile peer cannot push a score to infinity.
const COUNTER_CAP: f64 = 1e6;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Score {
    invalid: f64,
    penalty: f64,
}

pub(crate) struct Weights {
    pub invalid: f64,
    pub penalty: f64,
    /// Penalties up to this count are free; P7 squares the excess.
    pub penalty_threshold: f64,
}

impl Score {
    pub fn value(&self, w: &Weights) -> f64 {
        let excess = (self.penalty - w.penalty_threshold).max(0.0);
        w.invalid * self.invalid * self.invalid + w.penalty * excess * excess
    }

    pub fn add_invalid(&mut self) {
        self.invalid = (self.invalid + 1.0).min(COUNTER_CAP);
    }

    pub fn add_penalty(&mut self, amount: f64) {
        if amount.is_finite() && amount > 0.0 {
            self.penalty = (self.penalty + amount).min(COUNTER_CAP);
        }
    }

    pub fn decay(&mut self, factor: f64) {
        for c in [&mut self.invalid, &mut self.penalty] {
            *c *= factor;
            if *c < DECAY_TO_ZERO {
                *c = 0.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn penalties_square_and_decay_to_zero() {
        let w = Weights {
            invalid: -100.0,
            penalty: -10.0,
            penalty_threshold: 0.0,
        };
        let mut s = Score::default();
        assert_eq!(s.value(&w), 0.0);
        s.add_penalty(2.0);
        assert_eq!(s.value(&w), -40.0);
        s.add_invalid();
        assert_eq!(s.value(&w), -140.0);
        s.add_penalty(f64::NAN);
        s.add_penalty(-5.0);
        assert_eq!(s.value(&w), -140.0, "bad amounts are ignored");
        for _ in 0..100 {
            s.decay(0.9);
        }
        assert_eq!(s.value(&w), 0.0);
    }

    #[test]
    fn penalties_below_the_threshold_are_free() {
        let w = Weights {
            invalid: -100.0,
            penalty: -10.0,
            penalty_threshold: 2.0,
        };
        let mut s = Score::default();
        s.add_penalty(2.0);
        assert_eq!(s.value(&w), 0.0);
        s.add_penalty(1.0);
        assert_eq!(s.value(&w), -10.0);
    }
}
