//! The per-peer codeword rate controller (`004` §4.2): multiplicative increase on every loss
//! the peer reports, multiplicative decrease on every codeword sent, so the loss rate at the
//! peer settles at the target gamma.

use super::config::StrokkurConfig;
use crate::{Dur, Time};

#[derive(Clone, Debug)]
pub struct RateControl {
    /// Codewords per second.
    rate: f64,
    min: f64,
    max: f64,
    /// alpha * gamma: the share the rate loses per codeword sent.
    down: f64,
    /// alpha: the share of the rate each reported loss adds.
    up: f64,
}

impl RateControl {
    pub fn new(cfg: &StrokkurConfig) -> RateControl {
        let min = cfg.min_rate_per_s;
        let max = cfg.max_rate_per_s.max(min);
        RateControl {
            rate: cfg.initial_rate_per_s.clamp(min, max),
            min,
            max,
            down: cfg.rate_step * cfg.target_loss,
            up: cfg.rate_step,
        }
    }

    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// A codeword went to the peer.
    pub fn on_send(&mut self) {
        self.rate = (self.rate * (1.0 - self.down)).max(self.min);
    }

    /// The peer reported `losses` codewords it could not decode in time: each adds r*alpha,
    /// r being the rate when the report arrives (the paper's fluid model, r[1 + D a P_loss];
    /// compounding a burst of n as (1 + alpha)^n overshoots and sets the whole network
    /// oscillating). The rate rises at most to `cap` (a rate above it is not cut: only
    /// sending lowers it).
    pub fn on_losses(&mut self, losses: u32, cap: f64) {
        if losses == 0 {
            return;
        }
        let raised = self.rate * (1.0 + self.up * losses as f64);
        let ceiling = cap.min(self.max).max(self.rate);
        self.rate = raised.min(ceiling).max(self.min);
    }

    /// Time between codewords at the current rate (at least a microsecond).
    pub fn interval(&self) -> Dur {
        Dur((1e6 / self.rate).round().max(1.0) as u64)
    }
}

/// How fast new symbols enter the node's coding window, over whole seconds: the larger of
/// the last full second and the current one, so a rising load counts at once.
#[derive(Clone, Debug, Default)]
pub struct Inflow {
    second: u64,
    current: u64,
    previous: u64,
}

impl Inflow {
    pub fn record(&mut self, now: Time) {
        self.roll(now);
        self.current += 1;
    }

    /// Symbols per second.
    pub fn per_s(&mut self, now: Time) -> f64 {
        self.roll(now);
        self.current.max(self.previous) as f64
    }

    fn roll(&mut self, now: Time) {
        let second = now.0 / 1_000_000;
        if second != self.second {
            self.previous = if second == self.second + 1 {
                self.current
            } else {
                0
            };
            self.current = 0;
            self.second = second;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control() -> RateControl {
        RateControl::new(&StrokkurConfig {
            initial_rate_per_s: 100.0,
            ..StrokkurConfig::default()
        })
    }

    #[test]
    fn sends_lower_and_losses_raise_by_the_paper_steps() {
        let mut c = control();
        c.on_send();
        assert!((c.rate() - 100.0 * (1.0 - 0.1 * 0.02)).abs() < 1e-9);
        let before = c.rate();
        c.on_losses(1, f64::INFINITY);
        assert!((c.rate() - before * 1.1).abs() < 1e-9);
        c.on_losses(3, f64::INFINITY);
        assert!((c.rate() - before * 1.1 * 1.3).abs() < 1e-6);
    }

    #[test]
    fn at_the_target_loss_rate_the_rate_holds_nearly_steady() {
        // One loss per 50 codewords (gamma = 0.02): a cycle changes the rate by e^-a (1 + a),
        // within alpha^2 / 2 of no change; fewer losses lower it, more raise it.
        let cycle = |sends: u32, losses: u32| {
            let mut c = control();
            for _ in 0..sends {
                c.on_send();
            }
            c.on_losses(losses, f64::INFINITY);
            c.rate() / 100.0
        };
        assert!((cycle(50, 1) - 1.0).abs() < 0.006, "{}", cycle(50, 1));
        assert!(cycle(100, 1) < 0.91);
        assert!(cycle(50, 3) > 1.15);
    }

    #[test]
    fn floor_ceiling_and_cap_hold() {
        let mut c = control();
        for _ in 0..100_000 {
            c.on_send();
        }
        assert_eq!(c.rate(), 1.0);
        c.on_losses(u32::MAX, 500.0);
        assert_eq!(c.rate(), 500.0);
        c.on_losses(u32::MAX, f64::INFINITY);
        assert_eq!(c.rate(), 100_000.0);
        assert_eq!(c.interval(), Dur(10));
    }

    #[test]
    fn inflow_counts_per_second() {
        let mut f = Inflow::default();
        for i in 0..10 {
            f.record(Time(i * 50_000));
        }
        assert_eq!(f.per_s(Time(600_000)), 10.0);
        assert_eq!(f.per_s(Time(1_200_000)), 10.0);
        assert_eq!(f.per_s(Time(3_500_000)), 0.0);
    }
}
