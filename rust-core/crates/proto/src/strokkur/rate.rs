//! The per-peer codeword rate controller (`004` §4.2): every codeword sent lowers the rate,
//! every loss the peer reports raises it, so the loss rate at the peer settles at the target
//! gamma.
//!
//! The steps are fixed amounts, as in the reference node (`cwRate -= inc * targetLoss` per
//! codeword, `cwRate += inc * losses` per report, in codewords/s): since codewords go out
//! at r per second, the rate then moves by r * alpha * (P_loss - gamma) per second, the
//! paper's r[1 + D alpha (P_loss - gamma)]. Steps proportional to r (the §4.2 prose read
//! literally) would make that gain r times larger, about 100x at the paper's loads: with the
//! loss signal arriving tau late, the whole network then swings with a period of a few tau.

use super::config::StrokkurConfig;
use crate::{Dur, Time};

#[derive(Clone, Debug)]
pub struct RateControl {
    /// Codewords per second.
    rate: f64,
    min: f64,
    max: f64,
    /// alpha * gamma: codewords/s taken off per codeword sent.
    down: f64,
    /// alpha: codewords/s added per reported loss.
    up: f64,
    /// Both steps are multiplied by the current rate.
    proportional: bool,
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
            proportional: cfg.proportional_steps,
        }
    }

    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// A codeword went to the peer.
    pub fn on_send(&mut self) {
        self.rate = (self.rate - self.down * self.scale()).max(self.min);
    }

    /// What the steps are multiplied by.
    fn scale(&self) -> f64 {
        if self.proportional {
            self.rate
        } else {
            1.0
        }
    }

    /// The peer reported `losses` codewords it could not decode in time: each adds alpha.
    /// The rate rises at most to `cap` (a rate above it is not cut: only sending lowers it).
    pub fn on_losses(&mut self, losses: u32, cap: f64) {
        if losses == 0 {
            return;
        }
        let raised = self.rate + self.up * self.scale() * losses as f64;
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
    fn sends_lower_and_losses_raise_by_the_reference_steps() {
        let mut c = control();
        c.on_send();
        assert!((c.rate() - (100.0 - 0.1 * 0.02)).abs() < 1e-9);
        let before = c.rate();
        c.on_losses(1, f64::INFINITY);
        assert!((c.rate() - (before + 0.1)).abs() < 1e-9);
        c.on_losses(3, f64::INFINITY);
        assert!((c.rate() - (before + 0.4)).abs() < 1e-9);
    }

    #[test]
    fn over_a_second_the_rate_moves_by_r_alpha_times_the_loss_gap() {
        // r codewords in one second, a share p of them lost: the rate changes by about
        // r * alpha * (p - gamma), the paper's fluid model, whatever r is.
        let second = |r: f64, p: f64| {
            let mut c = RateControl::new(&StrokkurConfig {
                initial_rate_per_s: r,
                ..StrokkurConfig::default()
            });
            let sends = r as u32;
            for _ in 0..sends {
                c.on_send();
            }
            c.on_losses((p * r) as u32, f64::INFINITY);
            (c.rate() - r) / r
        };
        for r in [50.0, 100.0, 1000.0] {
            assert!(second(r, 0.02).abs() < 1e-9, "{r}");
            assert!((second(r, 0.0) + 0.1 * 0.02).abs() < 1e-9, "{r}");
            assert!((second(r, 0.12) - 0.1 * 0.1).abs() < 1e-9, "{r}");
        }
    }

    #[test]
    fn proportional_steps_scale_with_the_rate() {
        let mut c = RateControl::new(&StrokkurConfig {
            initial_rate_per_s: 100.0,
            proportional_steps: true,
            ..StrokkurConfig::default()
        });
        c.on_send();
        assert!((c.rate() - 100.0 * (1.0 - 0.1 * 0.02)).abs() < 1e-9);
        let before = c.rate();
        c.on_losses(2, f64::INFINITY);
        assert!((c.rate() - before * (1.0 + 2.0 * 0.1)).abs() < 1e-9);
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
